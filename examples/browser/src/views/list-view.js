// The List view: filters and the memories of each scope, newest first.
import { $, el, escapeHtml as h, BADGE_NAMES, anchorText, day } from './dom.js';
import { categoriesOf, filterMemories, PER_SCOPE } from '../list.js';

// Built as markup in one string: two thousand items made node by node took twice as long.
function memoryItem(m) {
  const categories = m.categories.length ? ` · ${h(m.categories.join(', '))}` : '';
  const tags = m.tags.map((t) => `<span class="tag">#${h(t)}</span>`).join('');
  const anchors = m.anchors.length ? ` · ${h(m.anchors.map((a) => anchorText(a, m.imageBase)).join('; '))}` : '';
  return `<li data-id="${m.id}"><div><span class="badge ${m.badge}">${BADGE_NAMES[m.badge]}</span><button type="button" class="open-memory" data-open="${m.id}" aria-label="Details of memory ${m.id}">#${m.id}</button> ${h(m.text)}</div>` +
    `<div class="meta">${h(m.type.replace('_', ' '))} · ${h(m.author)} · ${h(m.status)} · ${day(m.updatedAt)}${categories} ${tags}${anchors}</div></li>`;
}

export class ListView {
  /**
   * `onFilter(memories, filter)` hears of every new selection (the graph follows the list);
   * `onOpen(id)` of a memory whose details are asked for.
   */
  constructor(onFilter, onOpen = () => {}) {
    this.kb = null;
    this.onFilter = onFilter;
    const inputs = ['#filter-text', '#filter-category', '#filter-scope', '#filter-inactive'];
    for (const s of inputs) $(s).addEventListener('input', () => this.render());
    $('#filter-badges').addEventListener('change', () => this.render());
    $('#list-filters').addEventListener('submit', (event) => event.preventDefault());
    for (const list of ['#list-global', '#list-local']) {
      $(list).addEventListener('click', (event) => {
        const button = event.target.closest('button[data-open]');
        if (button) onOpen(Number(button.dataset.open));
      });
    }
  }

  /** Sets the filters (from the URL): `{q, category, scope, badges: 'a,b', inactive: '1'}`. */
  setFilter({ q, category, scope, badges, inactive } = {}) {
    if (q !== undefined) $('#filter-text').value = q;
    if (category !== undefined) {
      const select = $('#filter-category');
      if (![...select.options].some((o) => o.value === category)) select.append(el('option', { value: category }, category));
      select.value = category;
    }
    if (scope !== undefined) $('#filter-scope').value = scope;
    if (badges !== undefined) {
      const chosen = new Set(badges.split(','));
      for (const box of document.querySelectorAll('#filter-badges input')) box.checked = chosen.has(box.value);
    }
    if (inactive !== undefined) $('#filter-inactive').checked = inactive === '1';
  }

  /** Marks memory `id` as the one whose details are open (none with null). */
  select(id) {
    for (const item of document.querySelectorAll('ol.memories li.selected')) item.classList.remove('selected');
    if (id !== null) for (const item of document.querySelectorAll(`ol.memories li[data-id="${Number(id)}"]`)) item.classList.add('selected');
  }

  /**
   * Shows `kb` (or nothing), keeping the filters as they are; returns the milliseconds the list
   * took to build and lay out.
   */
  open(kb) {
    this.kb = kb;
    const select = $('#filter-category');
    const chosen = select.value;
    select.replaceChildren(el('option', { value: '' }, 'any category'));
    if (kb) for (const c of categoriesOf(kb)) select.append(el('option', { value: c }, c));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
    return this.render();
  }

  filter() {
    return {
      text: $('#filter-text').value,
      category: $('#filter-category').value,
      scope: $('#filter-scope').value,
      badges: new Set([...document.querySelectorAll('#filter-badges input:checked')].map((i) => i.value)),
      includeInactive: $('#filter-inactive').checked,
    };
  }

  render() {
    const started = performance.now();
    if (!this.kb) {
      $('#list-global').replaceChildren();
      $('#list-local').replaceChildren();
      $('#list-summary').textContent = '';
      this.onFilter([], null);
      return 0;
    }
    const filter = this.filter();
    const { global, local, matching } = filterMemories(this.kb, filter);
    for (const [id, part] of [['#list-global', global], ['#list-local', local]]) {
      $(id).innerHTML = part.shown.map(memoryItem).join('');
    }
    const cut = (part) => (part.total > part.shown.length ? ` (the newest ${PER_SCOPE} shown)` : '');
    $('#list-summary').textContent =
      `${global.total} global${cut(global)} and ${local.total} local${cut(local)} of ${this.kb.memories.size} memories match.`;
    void document.body.offsetHeight; // lay the list out now, so the time includes it
    const took = performance.now() - started;
    this.onFilter(matching, filter);
    return took;
  }
}
