// The Review view: the memories awaiting a human's decision (PENDING from this subject's
// external callers, INBOUND-PENDING from peers), each shown against what it would change (a
// word-level diff for a revision, the text a request to forget would erase), with Accept and
// Reject. The server decides who may review: only human tokens; everyone else sees its refusal.
import { $, el, badge, anchorText, day } from './dom.js';
import { wordDiff } from '../diff.js';

/** The change a proposal makes, as markup-free nodes. */
function changeOf(proposal, current) {
  if (proposal.forgets !== null && proposal.forgets !== undefined) {
    return el('div', {},
      el('p', {}, `Asks to forget memory #${proposal.forgets}:`),
      current ? el('div', { class: 'diff' }, el('del', {}, current.text)) : el('p', { class: 'meta' }, 'That memory is no longer listed.'));
  }
  if (proposal.supersedes !== null && current) {
    return el('div', {},
      el('p', {}, `Revises memory #${current.id}:`),
      el('div', { class: 'diff', 'data-diff': 'revision' }, ...wordDiff(current.text, proposal.text).map((part) =>
        part.op === 'same' ? part.text : el(part.op === 'added' ? 'ins' : 'del', {}, part.text))));
  }
  return el('div', {}, el('p', {}, 'A new memory:'), el('div', { class: 'diff' }, el('ins', {}, proposal.text)));
}

export class ReviewView {
  /**
   * `live()`: the signed-in {@link LiveKnowledgeBase} or null; `decided(ids)`: called after a
   * decision with the ids it changed; `openMemory(id)`: shows a memory's details.
   */
  constructor(live, decided, openMemory) {
    this.live = live;
    this.decided = decided;
    this.openMemory = openMemory;
    this.busy = false;
  }

  /** Reads the queue from the server and shows it. */
  async render() {
    const live = this.live();
    const queue = $('#review-queue');
    const summary = $('#review-summary');
    if (!live) {
      queue.replaceChildren();
      summary.textContent = 'Sign in to review.';
      return;
    }
    let answer;
    try {
      answer = await live.api.review();
    } catch (error) {
      queue.replaceChildren();
      summary.textContent = `The queue could not be read: ${error.message}`;
      $('#review-count').textContent = '';
      return;
    }
    const items = answer.memories.map((listed) => {
      const proposal = live.memories.get(listed.memory_id) ?? { ...listed, id: listed.memory_id, text: listed.content, supersedes: null, forgets: listed.forgets ?? null };
      const target = proposal.forgets ?? proposal.supersedes;
      const current = target === null || target === undefined ? null : live.memories.get(target) ?? null;
      const anchors = (proposal.anchors ?? []).map((a) => anchorText(a, proposal.imageBase ?? 0)).join('; ');
      const accept = el('button', { type: 'button', 'data-action': 'accept' }, 'Accept');
      const reject = el('button', { type: 'button', class: 'danger', 'data-action': 'reject' }, 'Reject');
      const details = el('button', { type: 'button', class: 'open-memory', 'aria-label': `Details of memory ${proposal.id}` }, `#${proposal.id}`);
      details.addEventListener('click', () => this.openMemory(proposal.id));
      const outcome = el('span', { class: 'meta', role: 'status' });
      const item = el('li', { 'data-id': String(proposal.id) },
        el('div', {}, badge(proposal.badge), details, ` by ${proposal.author}`, el('span', { class: 'meta' }, ` · ${proposal.type?.replace('_', ' ') ?? ''} · ${day(proposal.createdAt ?? 0)}${anchors ? ` · ${anchors}` : ''}`)),
        // Why it was written as it was (what the scan held it for, a proposal's reason).
        listed.why ? el('div', { class: 'meta', 'data-why': '' }, `Why: ${listed.why}`) : null,
        changeOf(proposal, current),
        el('div', { class: 'actions' }, accept, reject, outcome));
      for (const button of [accept, reject]) {
        button.addEventListener('click', () => this.decide(proposal, button.dataset.action, outcome, [accept, reject]));
      }
      return item;
    });
    queue.replaceChildren(...items);
    summary.textContent = items.length === 0 ? 'Nothing awaits review.' : `${items.length} awaiting review, oldest first.`;
    $('#review-count').textContent = items.length ? `(${items.length})` : '';
  }

  async decide(proposal, decision, outcome, buttons) {
    const live = this.live();
    for (const b of buttons) b.disabled = true;
    try {
      const answer = await live.api.decide(proposal.id, decision);
      outcome.textContent = answer.status === 'accepted' ? 'Accepted.' : 'Rejected.';
      await this.decided([proposal.id, answer.superseded, answer.forgotten, proposal.supersedes, proposal.forgets].filter((x) => x !== undefined && x !== null),
        `Memory #${proposal.id} ${answer.status}.`);
    } catch (error) {
      outcome.textContent = `Not decided: ${error.message}`;
      for (const b of buttons) b.disabled = false;
    }
  }
}
