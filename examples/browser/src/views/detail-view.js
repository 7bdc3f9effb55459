// The detail panel, "why is this here": a memory's text and facts, its anchors in the list's
// address notation, and its provenance: who wrote it, its badge, the memories it replaced and
// that replaced it, and (signed in) every audit event with the hashes of the text before and
// after. Signed in, it also forgets and revises, as the token's role allows.
import { $, el, badge, anchorText, day } from './dom.js';
import { fromListed } from '../live/api.js';

/** Longest supersession chain followed back. */
const MAX_CHAIN = 50;

const time = (seconds) => new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
const facts = (pairs) => el('dl', { class: 'facts' }, ...pairs.filter(([, v]) => v !== null && v !== undefined && v !== '').flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));

export class DetailView {
  /**
   * `source()`: `{memories: Map, live: LiveKnowledgeBase | null}`; `changed(ids, message)`: called
   * after an action with the ids it changed; `onClose()`: the panel closed; `showInGraph(id)`:
   * the graph centred on the memory.
   */
  constructor(source, changed, onClose, showInGraph = () => {}) {
    this.source = source;
    this.changed = changed;
    this.onClose = onClose;
    this.showInGraph = showInGraph;
    this.id = null;
    this.opener = null;
    $('#detail-close').addEventListener('click', () => this.close());
    $('#detail').addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
    });
  }

  /** Shows memory `id` (read again from the server when signed in). */
  async open(id) {
    this.id = id;
    this.opener = document.activeElement;
    const panel = $('#detail');
    panel.hidden = false;
    $('#detail-title').textContent = `Memory #${id}`;
    const body = $('#detail-body');
    body.replaceChildren(el('p', { class: 'meta' }, 'Reading…'));
    $('#detail-close').focus();
    const { memories, live } = this.source();
    let memory = memories.get(id) ?? null;
    if (live) {
      try {
        memory = fromListed(await live.api.memory(id));
      } catch (error) {
        if (this.id === id) body.replaceChildren(el('p', {}, `Memory #${id} cannot be read: ${error.message}`));
        return;
      }
    }
    if (this.id !== id) return;
    if (!memory) {
      body.replaceChildren(el('p', {}, `Memory #${id} is not in this knowledge base.`));
      return;
    }
    const graph = el('button', { type: 'button', id: 'detail-graph' }, 'Show in the graph');
    graph.addEventListener('click', () => {
      this.close();
      this.showInGraph(id);
    });
    body.replaceChildren(el('div', { class: 'actions' }, graph), ...this.describe(memory), ...(live ? await this.provenance(live, memory) : [el('p', { class: 'meta' }, 'Audit events are shown when signed in to the server that keeps this knowledge base.')]), ...(live ? this.actions(live, memory) : []));
  }

  close() {
    $('#detail').hidden = true;
    this.id = null;
    this.onClose?.();
    if (this.opener?.isConnected) this.opener.focus();
  }

  describe(m) {
    const anchors = m.anchors.length
      ? el('ul', { 'aria-label': 'Anchors' }, ...m.anchors.map((a) => el('li', {}, anchorText(a, m.imageBase))))
      : el('p', { class: 'meta' }, 'No anchors: it applies to the whole subject.');
    return [
      el('p', { class: 'memory-text', 'data-text': 'true' }, m.text),
      facts([
        ['badge', badge(m.badge)],
        ['status', m.status],
        ['author', m.author],
        ['type', m.type.replace('_', ' ')],
        ['scope', m.scope],
        ['confidence', String(m.confidence)],
        ['thread', m.thread],
        ['tags', m.tags.map((t) => `#${t}`).join(' ')],
        ['categories', m.categories.join(', ')],
        ['written', time(m.createdAt)],
        ['changed', time(m.updatedAt)],
        ['replaces', m.supersedes === null || m.supersedes === undefined ? null : `#${m.supersedes}`],
        ['asks to forget', m.forgets === null || m.forgets === undefined ? null : `#${m.forgets}`],
      ]),
      el('h3', {}, 'Anchors'),
      anchors,
    ];
  }

  /** The supersession chain and the audit events, read through the query views. */
  async provenance(live, m) {
    const id = Number(m.id);
    if (!Number.isSafeInteger(id)) return [];
    const out = [el('h3', {}, 'Provenance')];
    try {
      // Why it was written as it was, when its first audit event says (what the safety scan
      // marked or held it for, a revision's reason): the server tells a human token.
      const { why } = await live.api.memory(id);
      if (why) out.push(el('p', { 'data-why': '' }, `Why: ${why}`));
      const older = await live.api.query(
        `WITH RECURSIVE chain(id, supersedes, depth) AS (SELECT id, supersedes, 0 FROM memories WHERE id = ${id} ` +
        `UNION ALL SELECT m.id, m.supersedes, c.depth + 1 FROM memories m JOIN chain c ON m.id = c.supersedes WHERE c.depth < ${MAX_CHAIN}) ` +
        'SELECT m.id, m.status, m.badge, m.author, m.created_at, m.text FROM chain c JOIN memories m ON m.id = c.id WHERE c.depth > 0 ORDER BY c.depth');
      const newer = await live.api.query(`SELECT id, status, badge, author, created_at FROM memories WHERE supersedes = ${id} ORDER BY id`);
      const link = (row) => {
        const button = el('button', { type: 'button', class: 'open-memory' }, `#${row[0]}`);
        button.addEventListener('click', () => this.open(row[0]));
        return el('li', {}, button, ` ${row[1]}, ${row[2]}, by ${row[3]}, ${day(row[4])}`, row[5] ? el('div', { class: 'meta' }, row[5]) : null);
      };
      out.push(el('p', {}, older.rows.length ? 'Replaces, newest first:' : 'Replaces no other memory.'));
      if (older.rows.length) out.push(el('ul', { 'data-chain': 'older' }, ...older.rows.map(link)));
      out.push(el('p', {}, newer.rows.length ? 'Replaced by:' : 'Not replaced.'));
      if (newer.rows.length) out.push(el('ul', { 'data-chain': 'newer' }, ...newer.rows.map(link)));
      const events = await live.api.query(`SELECT id, at, actor, action, before_hash, after_hash FROM events WHERE memory_id = ${id} ORDER BY id`);
      const hash = (h) => (h ? el('code', { class: 'hash', title: h }, h.slice(0, 12)) : '—');
      out.push(el('h3', {}, 'Audit events'),
        el('table', { 'aria-label': 'Audit events' },
          el('thead', {}, el('tr', {}, ...['#', 'when', 'who', 'what', 'text before', 'text after'].map((h) => el('th', { scope: 'col' }, h)))),
          el('tbody', {}, ...events.rows.map(([n, at, actor, action, before, after]) =>
            el('tr', { 'data-action': action }, el('td', {}, String(n)), el('td', {}, time(at)), el('td', {}, actor), el('td', {}, action), el('td', {}, hash(before)), el('td', {}, hash(after)))))));
    } catch (error) {
      out.push(el('p', { class: 'meta' }, `The provenance could not be read: ${error.message}`));
    }
    return out;
  }

  /** Forget and revise, as forms; the server says whether the role may (or only propose). */
  actions(live, m) {
    if (m.status !== 'active') return [];
    const outcome = el('p', { role: 'status', class: 'meta', id: 'detail-outcome' });
    const text = el('textarea', { id: 'revise-text', rows: 4 }, m.text);
    const tags = el('input', { id: 'revise-tags', type: 'text', value: m.tags.join(' ') });
    const categories = el('input', { id: 'revise-categories', type: 'text', value: m.categories.join(', ') });
    const reason = el('input', { id: 'revise-reason', type: 'text', placeholder: 'kept in the audit log' });
    const save = el('button', { type: 'submit' }, live.isHuman ? 'Save the revision' : 'Propose the revision');
    const form = el('form', { id: 'revise-form', 'aria-label': 'Revise' },
      el('label', { for: 'revise-text' }, 'Text'), text,
      el('label', { for: 'revise-tags' }, 'Tags (separated by spaces)'), tags,
      el('label', { for: 'revise-categories' }, 'Categories (separated by commas)'), categories,
      el('label', { for: 'revise-reason' }, 'Why (optional)'), reason,
      el('div', { class: 'actions' }, save));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const change = { metadata: {} };
      if (text.value !== m.text) change.content = text.value;
      const newTags = tags.value.split(/\s+/).map((t) => t.replace(/^#/, '')).filter(Boolean);
      if (newTags.join(' ') !== m.tags.join(' ')) change.metadata.tags = newTags;
      const newCategories = categories.value.split(',').map((c) => c.trim()).filter(Boolean);
      if (newCategories.join(',') !== m.categories.join(',')) change.metadata.categories = newCategories;
      if (Object.keys(change.metadata).length === 0) delete change.metadata;
      if (reason.value.trim()) change.reason = reason.value.trim();
      if (change.content === undefined && change.metadata === undefined) {
        outcome.textContent = 'Nothing changed.';
        return;
      }
      save.disabled = true;
      try {
        const answer = await live.api.revise(m.id, change);
        const message = answer.status === 'pending'
          ? `Proposed as #${answer.proposal_id}: it waits for a human's review.`
          : `Memory #${m.id} revised.`;
        await this.changed([m.id, answer.proposal_id].filter((x) => x !== undefined), message);
        if (this.id === m.id) await this.open(m.id);
      } catch (error) {
        outcome.textContent = `Not revised: ${error.message}`;
        save.disabled = false;
      }
    });
    const forget = el('button', { type: 'button', class: 'danger', id: 'detail-forget' }, live.isHuman ? 'Forget' : 'Ask to forget');
    let armed = false;
    forget.addEventListener('click', async () => {
      if (!armed) {
        armed = true;
        forget.textContent = 'Forget for good? Its text is erased.';
        return;
      }
      forget.disabled = true;
      try {
        const answer = await live.api.forget(m.id);
        const message = answer.status === 'forgotten'
          ? `Memory #${m.id} forgotten: its text is erased.`
          : answer.status === 'pending' ? `Asked to forget #${m.id} (proposal #${answer.proposal_id}): it waits for a human's review.` : `Memory #${m.id}: ${answer.status}.`;
        await this.changed([m.id, answer.proposal_id].filter((x) => x !== undefined), message);
        if (answer.status === 'forgotten') this.close();
        else outcome.textContent = message;
      } catch (error) {
        outcome.textContent = `Not forgotten: ${error.message}`;
        forget.disabled = false;
      }
    });
    return [el('h3', {}, 'Change it'), form, el('div', { class: 'actions' }, forget), outcome];
  }
}
