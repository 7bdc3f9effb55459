// The Graph view: the local graph around one memory, anchor or tag (src/graph.js `localGraph`):
// every node within one or two links of the centre, memories as dots, anchors as diamonds
// (labelled as the list writes them), tags as squares, a function's range linked to the
// addresses inside it. A worker lays the graph out (src/graph-layout-worker.js); the page only
// draws the positions it answers with (src/views/graph-canvas.js), so laying out never blocks the
// page, and a newer centre cancels the layout of an older one. A click inspects a node, a double
// click centres on it.
import { $, el, badge, anchorText, day, BADGE_NAMES } from './dom.js';
import { GraphCanvas } from './graph-canvas.js';
import { GraphIndex, findCentre, localGraph, MAX_LOCAL_NODES } from '../graph.js';

const BADGE_COLOURS = { native: '#12b76a', foreign: '#444ce7', pending: '#f79009', inbound_pending: '#dd2590' };

/** Runs layouts in a worker, one at a time: a new request ends the worker still busy with an older one. */
class LayoutWorker {
  constructor() {
    this.worker = null;
    this.pending = null;
    this.next = 0;
  }

  /** Positions for `graph`'s nodes, or null when a newer request cancelled this one. */
  layout(graph) {
    if (this.pending) {
      // A layout is a synchronous run in the worker: only ending the worker stops it.
      this.worker.terminate();
      this.worker = null;
      this.pending.resolve(null);
      this.pending = null;
    }
    if (this.worker === null) {
      const worker = new Worker(new URL('../graph-layout-worker.js', import.meta.url));
      this.worker = worker;
      worker.onmessage = ({ data }) => {
        const pending = this.pending;
        if (this.worker !== worker || !pending || data.id !== pending.id) return;
        this.pending = null;
        if (data.error) pending.reject(new Error(data.error));
        else pending.resolve(data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        // A worker ended while it loaded its scripts still reports that they failed to load.
        if (this.worker !== worker) return;
        const pending = this.pending;
        this.pending = null;
        worker.terminate();
        this.worker = null;
        pending?.reject(new Error(event.message || 'the layout worker failed'));
      };
    }
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.worker.postMessage({
        id,
        nodes: graph.nodes.map(({ id: node, kind, distance }) => ({ id: node, kind, distance })),
        edges: graph.edges.map(({ id: edge, source, target }) => ({ id: edge, source, target })),
      });
    });
  }
}

/** What changes when memories are added, revised or forgotten: their count and newest change. */
function versionOf(kb) {
  let newest = 0;
  for (const m of kb.memories.values()) if (m.updatedAt > newest) newest = m.updatedAt;
  return `${kb.memories.size}@${newest}`;
}

export class GraphView {
  constructor() {
    this.canvas = null;
    /** The graph drawn: `localGraph`'s answer, and each node's drawn neighbours. */
    this.drawn = null;
    this.kb = null;
    this.index = null;
    this.indexing = null;
    this.selection = [];
    this.includeInactive = false;
    this.visible = false;
    /** The centre someone chose (a node id), or null: then the newest memory of the list's selection. */
    this.chosen = null;
    this.hops = 1;
    this.drawnKey = null;
    this.fitOnShow = false;
    this.renders = 0;
    this.announced = null;
    this.indexedVersion = null;
    this.layouts = new LayoutWorker();
    $('#graph-centre-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.choose($('#graph-centre').value);
    });
    $('#graph-hops').addEventListener('change', () => {
      this.hops = Number($('#graph-hops').value);
      this.announce();
      this.draw();
    });
  }

  open(kb) {
    this.kb = kb;
    this.index = null;
    this.indexing = null;
    this.chosen = null;
    this.announced = null;
    this.drawnKey = null;
    this.drawn = null;
    this.canvas?.show([], []);
    $('#graph-centre').value = '';
    $('#graph-centre-suggestions').replaceChildren();
    $('#graph-status').textContent = '';
    $('#graph-legend').textContent = '';
    $('#graph-inspector').replaceChildren(el('p', {}, 'Click a node to inspect it, double-click it to centre the graph on it. Drag nodes; scroll to zoom.'));
  }

  /**
   * The list's selection changed: its newest memory is the centre until someone chooses one. The
   * knowledge base may have changed too (a signed-in page reads memories as they come): the
   * graph's index is built again when the memories' count or newest change differ.
   */
  follow(memories, filter) {
    this.selection = memories;
    const includeInactive = Boolean(filter?.includeInactive);
    if (includeInactive !== this.includeInactive || (this.kb && this.indexedVersion !== versionOf(this.kb))) {
      this.includeInactive = includeInactive;
      this.index = null;
      this.indexing = null;
    }
    if (this.visible) this.draw();
  }

  show() {
    this.visible = true;
    this.draw();
    if (this.fitOnShow && this.canvas) {
      this.fitOnShow = false;
      this.canvas.resize();
      this.canvas.fit();
    }
  }

  hide() {
    this.visible = false;
  }

  /**
   * Centres the graph on `target`: a node id (`m:12`, `a:<kind>:<value>`, `t:crypto`) or what the
   * centre field accepts (`#12`, `0x401234`, a function name, `#crypto`); `hops` 1 or 2 (else
   * unchanged). Dispatches `graph-centre` on `document`. Resolves to whether the target was found
   * (the first call indexes the knowledge base's graph).
   */
  async centreOn(target, hops) {
    if (hops === 1 || hops === 2) {
      this.hops = hops;
      $('#graph-hops').value = String(hops);
    }
    if (!this.kb) return false;
    const index = await this.graphIndex();
    if (index !== this.index) return false; // another knowledge base or filter meanwhile
    const found = findCentre(index, String(target));
    if (found.error) {
      this.showStatus(found.error, true);
      return false;
    }
    this.chosen = found.centre;
    $('#graph-centre').value = this.centreText(found.centre);
    this.showStatus('', false);
    this.announce();
    this.draw();
    return true;
  }

  /** The centre field was submitted. */
  async choose(text) {
    if (!this.kb) {
      this.showStatus('Open a knowledge base first.', true);
      return;
    }
    if (text.trim() === '') {
      this.chosen = null;
    } else {
      const index = await this.graphIndex();
      if (index !== this.index) return;
      const found = findCentre(index, text);
      if (found.error) {
        this.showStatus(found.error, true);
        return;
      }
      this.chosen = found.centre;
    }
    this.showStatus('', false);
    this.announce();
    this.draw();
  }

  showStatus(message, isError) {
    $('#graph-status').textContent = message;
    $('#graph-status').classList.toggle('error', isError);
    $('#graph-centre').setAttribute('aria-invalid', String(isError));
  }

  /** Dispatches `graph-centre` when the chosen centre or the hops differ from the last announced. */
  announce() {
    const detail = { centre: this.centre(), hops: this.hops };
    if (this.announced?.centre === detail.centre && this.announced?.hops === detail.hops) return;
    this.announced = detail;
    document.dispatchEvent(new CustomEvent('graph-centre', { detail }));
  }

  /**
   * The index of the knowledge base's graph, built on first use (once per knowledge base and
   * filter) a slice at a time, so that the page stays responsive while it is built.
   */
  graphIndex() {
    if (this.indexing === null) {
      this.indexedVersion = versionOf(this.kb);
      const indexing = GraphIndex.build(this.kb.memories.values(), { includeInactive: this.includeInactive }).then((index) => {
        if (this.indexing === indexing) {
          this.index = index;
          this.suggest();
        }
        return index;
      });
      this.indexing = indexing;
    }
    return this.indexing;
  }

  /** The centre field's suggestions: the functions and tags most memories name. */
  suggest() {
    const busiest = (kind, count) => [...this.index.nodes.values()].filter(kind)
      .sort((a, b) => b.memories - a.memories || (a.id < b.id ? -1 : 1)).slice(0, count);
    const functions = new Set(busiest((n) => n.anchorKind === 'function', 60).map((n) => n.anchor.name));
    const tags = busiest((n) => n.kind === 'tag', 40).map((n) => n.label);
    $('#graph-centre-suggestions').replaceChildren(
      ...[...functions].map((name) => el('option', { value: name }, 'function')),
      ...tags.map((tag) => el('option', { value: tag }, 'tag')));
  }

  /** What the centre field shows for a node: the shortest text that finds it again. */
  centreText(id) {
    const node = this.index.nodes.get(id);
    const forms = [];
    if (node.kind === 'memory') forms.push(`#${node.memory}`);
    else if (node.kind === 'tag') forms.push(node.label);
    else {
      const a = node.anchor;
      const base = node.imageBases[0] ?? 0;
      if (a.kind === 'function') forms.push(a.name, `0x${(a.start + base).toString(16)}`);
      else if (a.kind === 'string') forms.push(a.value);
      else forms.push(`0x${((a.kind === 'range' ? a.start : a.offset) + base).toString(16)}`);
    }
    return forms.find((text) => findCentre(this.index, text).centre === id) ?? id;
  }

  /** The centre drawn: the one chosen, else the newest memory of the list's selection. */
  centre() {
    if (this.chosen !== null && this.index?.has(this.chosen) !== false) return this.chosen;
    const newest = this.selection.find((m) => this.includeInactive || m.status === 'active');
    return newest ? `m:${newest.id}` : null;
  }

  async draw() {
    if (!this.kb || !this.visible) return;
    const started = performance.now();
    const index = await this.graphIndex();
    if (index !== this.index || !this.visible) return; // another knowledge base or filter meanwhile
    const indexed = performance.now();
    const centre = this.centre();
    if (centre === null) {
      this.drawnKey = null;
      this.drawn = null;
      this.canvas?.show([], []);
      $('#graph-legend').textContent = 'The list\u2019s filters select no memory: choose a centre above.';
      return;
    }
    const key = `${centre} ${this.hops} ${this.includeInactive} ${this.indexedVersion}`;
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    const graph = localGraph(index, centre, { hops: this.hops, maxNodes: MAX_LOCAL_NODES });
    const gathered = performance.now();
    if (this.chosen === null) $('#graph-centre').placeholder = `${this.centreText(centre)} (the newest listed memory)`;
    $('#graph-legend').textContent = `Laying out ${graph.nodes.length} nodes around ${index.nodes.get(centre).label}\u2026`;
    let answer;
    try {
      answer = await this.layouts.layout(graph);
    } catch (error) {
      if (this.drawnKey === key) {
        this.drawnKey = null;
        $('#graph-legend').textContent = `The graph could not be laid out: ${error.message}`;
      }
      return;
    }
    if (answer === null || this.drawnKey !== key) return; // a newer centre took over
    const laidOut = performance.now();
    this.render(graph, answer.positions);
    const built = performance.now();
    // Timed to the frame that paints the graph.
    requestAnimationFrame(() => {
      if (this.drawnKey !== key) return;
      const done = performance.now();
      $('#graph').dataset.drawn = JSON.stringify({
        centre, hops: graph.hops, nodes: graph.nodes.length, edges: graph.edges.length, total: graph.total,
        at: done, ms: done - started, indexMs: indexed - started, gatherMs: gathered - indexed,
        layoutMs: laidOut - gathered, workerMs: answer.ms, renderMs: done - laidOut, buildMs: built - laidOut,
      });
    });
  }

  render(graph, positions) {
    if (this.canvas === null) {
      this.canvas = new GraphCanvas($('#graph'), {
        onTap: (id) => this.inspect(id),
        onDoubleTap: (id) => this.centreOn(id),
      });
    }
    const neighbours = new Map(graph.nodes.map((n) => [n.id, []]));
    for (const e of graph.edges) {
      neighbours.get(e.source).push(e.target);
      neighbours.get(e.target).push(e.source);
    }
    this.drawn = { graph, neighbours, byId: new Map(graph.nodes.map((n) => [n.id, n])) };
    this.canvas.show(graph.nodes.map((n) => ({ ...n, ...positions[n.id], colour: BADGE_COLOURS[n.badge] })), graph.edges);
    this.fitOnShow = !this.visible;
    this.renders += 1;
    const graphBox = $('#graph');
    graphBox.dataset.renders = String(this.renders);
    const at = (id) => {
      const { x, y } = this.canvas.renderedPosition(id);
      return { id, x: Math.round(x), y: Math.round(y) };
    };
    graphBox.dataset.centreAt = JSON.stringify(at(graph.centre));
    const neighbour = graph.nodes.find((n) => n.distance === 1);
    graphBox.dataset.neighbourAt = neighbour ? JSON.stringify(at(neighbour.id)) : '';
    this.legend(graph);
    this.inspect(graph.centre, { focus: $('#graph-inspector').contains(document.activeElement) });
  }

  legend(graph) {
    const count = (kind) => graph.nodes.filter((n) => n.kind === kind).length;
    const left = graph.omitted.memory + graph.omitted.anchor + graph.omitted.tag;
    const parts = [
      el('span', { 'data-count': 'memory' }, `${count('memory')} memories (dots)`), ' · ',
      el('span', { 'data-count': 'anchor' }, `${count('anchor')} anchors (diamonds)`), ' · ',
      el('span', { 'data-count': 'tag' }, `${count('tag')} tags (squares)`), ' · ',
      el('span', { 'data-count': 'edge' }, `${graph.edges.length} links`),
      `, within ${graph.hops} ${graph.hops === 1 ? 'hop' : 'hops'} of ${this.index.nodes.get(graph.centre).label} (ringed)`,
    ];
    if (left > 0) {
      const kinds = [['memory', 'memories'], ['anchor', 'anchors'], ['tag', 'tags']]
        .filter(([kind]) => graph.omitted[kind] > 0).map(([kind, name]) => `${graph.omitted[kind]} ${name}`);
      parts.push(' ', el('strong', { 'data-omitted': String(left) },
        `\u2026 and ${left} more (${kinds.join(', ')}) not drawn: the closest and newest ${graph.nodes.length} are`));
    }
    parts.push('. Arrows: a function\u2019s range holds the address. Dots: ',
      ...Object.entries(BADGE_COLOURS).flatMap(([b, colour]) => [el('span', { class: 'legend-dot', style: `background: ${colour}`, 'aria-hidden': 'true' }), `${BADGE_NAMES[b]} `]));
    $('#graph-legend').replaceChildren(...parts);
  }

  /**
   * Shows a node in the inspector, with its drawn neighbours as buttons: with the keyboard, Tab
   * reaches them, Enter inspects one, and its "Centre the graph here" re-centres.
   */
  inspect(id, { focus = false } = {}) {
    const node = this.index.nodes.get(id);
    if (!node || !this.drawn?.byId.has(id)) return;
    this.canvas.select(id);
    const box = $('#graph-inspector');
    const parts = [];
    if (node.kind === 'memory') {
      const m = this.kb.memories.get(node.memory);
      parts.push(
        el('h2', {}, badge(m.badge), `Memory #${m.id}`),
        el('p', {}, m.text),
        el('p', { class: 'meta' }, `${m.scope} ${m.type.replace('_', ' ')} · confidence ${m.confidence} · ${m.author} · ${m.status} · ${day(m.updatedAt)}`),
        el('ul', {}, m.anchors.map((a) => el('li', {}, anchorText(a, m.imageBase)))),
        el('p', {}, m.tags.map((t) => el('span', { class: 'tag' }, `#${t}`))));
    } else if (node.kind === 'tag') {
      parts.push(el('h2', {}, `Tag ${node.label}`), el('p', {}, `${node.memories} ${node.memories === 1 ? 'memory' : 'memories'}`));
    } else {
      parts.push(el('h2', {}, `Anchor: ${node.label}`), el('p', {}, `${node.memories} ${node.memories === 1 ? 'memory' : 'memories'}`));
      if (node.imageBases.length > 1) {
        parts.push(el('p', { class: 'meta' }, `Written at ${node.imageBases.length} image bases: ${node.imageBases.map((base) => anchorText(node.anchor, base)).join('; ')}`));
      }
    }
    const centred = this.drawnKey?.startsWith(`${id} `);
    parts.push(el('p', {}, centred
      ? el('em', {}, 'The centre of the graph.')
      : el('button', { type: 'button', 'data-centre': id, onclick: () => this.centreOn(id) }, 'Centre the graph here')));
    const linked = this.drawn.neighbours.get(id).map((to) => this.drawn.byId.get(to))
      .sort((a, b) => a.distance - b.distance || b.recency - a.recency);
    if (linked.length > 0) {
      parts.push(el('h2', {}, `Linked (${linked.length} drawn)`),
        el('ul', { class: 'graph-linked' }, linked.map((n) => el('li', {},
          el('button', { type: 'button', 'data-inspect': n.id, onclick: () => this.inspect(n.id, { focus: true }), ondblclick: () => this.centreOn(n.id) }, n.label)))));
    }
    box.replaceChildren(...parts);
    // The button pressed was replaced: focus stays in the inspector rather than falling to the page.
    if (focus) box.querySelector('button')?.focus();
  }
}
