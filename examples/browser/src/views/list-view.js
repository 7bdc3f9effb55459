// The List view: filters and the memories of each scope, newest first.
import { $, el, badge, anchorText, day } from './dom.js';
import { categoriesOf, filterMemories, PER_SCOPE } from '../list.js';

function memoryItem(m) {
  return el('li', { 'data-id': String(m.id) },
    el('div', {}, badge(m.badge), el('strong', {}, `#${m.id} `), m.text),
    el('div', { class: 'meta' },
      `${m.type.replace('_', ' ')} · ${m.author} · ${m.status} · ${day(m.createdAt)}`,
      m.categories.length ? ` · ${m.categories.join(', ')}` : '',
      ' ',
      m.tags.map((t) => el('span', { class: 'tag' }, `#${t}`)),
      m.anchors.length ? ` · ${m.anchors.map((a) => anchorText(a, m.imageBase)).join('; ')}` : ''));
}

export class ListView {
  constructor(onChange) {
    this.kb = null;
    const inputs = ['#filter-text', '#filter-category', '#filter-scope', '#filter-inactive'];
    for (const s of inputs) $(s).addEventListener('input', () => this.render());
    $('#filter-badges').addEventListener('change', () => this.render());
    this.onChange = onChange;
  }

  /** Shows `kb` (or nothing); returns the milliseconds the list took to build and lay out. */
  open(kb) {
    this.kb = kb;
    const select = $('#filter-category');
    select.replaceChildren(el('option', { value: '' }, 'any category'));
    if (kb) for (const c of categoriesOf(kb)) select.append(el('option', { value: c }, c));
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
      return 0;
    }
    const { global, local } = filterMemories(this.kb, this.filter());
    for (const [id, part] of [['#list-global', global], ['#list-local', local]]) {
      const fragment = document.createDocumentFragment();
      for (const m of part.shown) fragment.append(memoryItem(m));
      $(id).replaceChildren(fragment);
    }
    const cut = (part) => (part.total > part.shown.length ? ` (the newest ${PER_SCOPE} shown)` : '');
    $('#list-summary').textContent =
      `${global.total} global${cut(global)} and ${local.total} local${cut(local)} of ${this.kb.memories.size} memories match.`;
    void document.body.offsetHeight; // lay the list out now, so the time includes it
    return performance.now() - started;
  }
}
