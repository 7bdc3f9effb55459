// The Turn panel: a place in the binary and a query, the policy's `select` run in the policy
// worker over the candidates the host would gather (the worker gathers them from its copy of the
// opened knowledge base), the snapshot it renders, and every candidate's outcome.
import { $, el } from './dom.js';

/** An address as `kenning inject` reads one: hex with `0x`, or decimal. */
export function parseAddress(text, field) {
  const t = text.trim();
  const value = /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t.slice(2), 16) : /^[0-9]+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(value)) throw new Error(`${field}: "${text}" is not an address (hex like 0x401000, or decimal)`);
  return value;
}

/** `NAME@START-END`, as `kenning inject --function` reads it. */
export function parseFunction(text) {
  const match = /^(.+)@([^-@]+)-([^-@]+)$/.exec(text.trim());
  if (!match) throw new Error(`function: "${text}" is not NAME@START-END`);
  const start = parseAddress(match[2], 'function start');
  const end = parseAddress(match[3], 'function end');
  if (end <= start) throw new Error('function: the end must be greater than the start');
  return { name: match[1], start, end };
}

/** The `context` tool's limits (host/src/api.rs): the page holds a turn to the same. */
const MAX_QUOTA = 24;
const MAX_TOKENS = 3000;
const MAX_STRINGS = 64;

/** A whole number from `min` to `max`, or an error naming the field. */
function wholeNumber(text, field, min, max) {
  const value = /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(value >= min && value <= max)) throw new Error(`${field}: "${text}" is not a whole number from ${min} to ${max}`);
  return value;
}

const fixed = (x, digits) => el('td', { class: 'num' }, x.toFixed(digits));

export class TurnView {
  constructor(getState) {
    this.getState = getState;
    $('#turn-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.run();
    });
  }

  readTurn() {
    const value = (id) => $(id).value.trim();
    const strings = value('#turn-strings') === '' ? [] : value('#turn-strings').split('|').map((s) => s.trim()).filter((s) => s !== '');
    if (strings.length > MAX_STRINGS) throw new Error(`strings: ${strings.length}; at most ${MAX_STRINGS}`);
    const now = value('#turn-now');
    return {
      turn: {
        imageBase: value('#turn-image-base') === '' ? 0 : parseAddress(value('#turn-image-base'), 'image base'),
        cursor: value('#turn-cursor') === '' ? null : parseAddress(value('#turn-cursor'), 'cursor'),
        currentFunction: value('#turn-function') === '' ? null : parseFunction(value('#turn-function')),
        referencedStrings: strings,
        query: $('#turn-query').value,
      },
      now: now === '' ? Math.floor(Date.now() / 1000) : wholeNumber(now, 'now', 0, Number.MAX_SAFE_INTEGER),
      limits: {
        localQuota: wholeNumber(value('#turn-local-quota'), 'local quota', 0, MAX_QUOTA),
        globalQuota: wholeNumber(value('#turn-global-quota'), 'global quota', 0, MAX_QUOTA),
        tokenBudget: wholeNumber(value('#turn-token-budget'), 'token budget', 1, MAX_TOKENS),
      },
    };
  }

  async run() {
    const { kb, policy } = this.getState();
    const summary = $('#turn-summary');
    if (!kb || !policy) {
      summary.textContent = kb ? 'The policy is still loading.' : 'Open a knowledge base first.';
      return;
    }
    let input;
    try {
      input = this.readTurn();
    } catch (error) {
      summary.textContent = error.message;
      return;
    }
    let result;
    try {
      result = await policy.turn(input);
    } catch (error) {
      summary.textContent = `The turn failed: ${error.message}`;
      return;
    }
    const { selection, timings } = result;
    $('#turn-snapshot').textContent = selection.snapshot;
    $('#turn-json').textContent = JSON.stringify(selection);
    summary.textContent = `${result.candidates.length} candidates, ${selection.chosen.length} chosen, ` +
      `${selection.snapshot_tokens} tokens; gathered in ${timings.gatherMs.toFixed(2)} ms and selected in ` +
      `${timings.selectMs.toFixed(2)} ms in the policy worker (now = ${input.now}).`;
    const outcome = new Map([
      ...selection.chosen.map((c) => [c.id, `chosen (${c.section})`]),
      ...selection.rejected.map((r) => [r.id, r.reason]),
    ]);
    const order = [...selection.chosen.map((c) => c.id), ...selection.rejected.map((r) => r.id)];
    const byId = new Map(result.candidates.map((c) => [c.memory.id, c]));
    $('#turn-explanation tbody').replaceChildren(...order.map((id) => {
      const { memory: m, score: s } = byId.get(id);
      return el('tr', { class: outcome.get(id).startsWith('chosen') ? 'chosen' : '' },
        el('td', {}, `#${id}`), el('td', {}, m.scope), el('td', {}, outcome.get(id)),
        fixed(s.anchor, 3), fixed(s.lexical, 3), fixed(s.confidence, 2), fixed(s.recency, 3), fixed(s.total, 3),
        el('td', {}, m.text.length > 70 ? `${m.text.slice(0, 69)}…` : m.text));
    }));
  }
}
