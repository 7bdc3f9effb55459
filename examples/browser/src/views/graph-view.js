// The Graph view: cytoscape draws the host's graph (`kenning graph`) of the memories the list's
// filters select: memories as dots, anchors as diamonds, shared tags as squares. Nodes drag,
// the view zooms, a click shows the node in the inspector.
import cytoscape from '../../vendor/cytoscape.esm.min.mjs';
import { $, el, badge, anchorText, day, BADGE_NAMES } from './dom.js';
import { buildGraph } from '../graph.js';

// fcose (vendor/cytoscape-fcose.js, loaded as a classic script before this module): a
// force-directed layout that starts from a spectral one, so it lays out thousands of nodes in
// seconds where cytoscape's own `cose` takes minutes.
cytoscape.use(globalThis.cytoscapeFcose);

/**
 * Most memories drawn at once, the oldest first as `kenning graph --limit` takes them. Laying
 * out blocks the page: 500 memories with their anchors and tags took about 3 s here, 2,000 about
 * 8 s even in fcose's draft quality.
 */
export const MAX_DRAWN_MEMORIES = 500;
/** Above this many nodes fcose skips its slow refinement (`quality: 'draft'`). */
const MAX_NODES_REFINED = 300;

const BADGE_COLOURS = { native: '#12b76a', foreign: '#444ce7', pending: '#f79009', inbound_pending: '#dd2590' };

const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 10, color: '#344054', 'text-valign': 'bottom', 'text-margin-y': 2 } },
  { selector: 'node[kind = "memory"]', style: { shape: 'ellipse', width: 16, height: 16, 'background-color': 'data(colour)' } },
  { selector: 'node[kind = "anchor"]', style: { shape: 'diamond', width: 18, height: 18, 'background-color': '#98a2b3' } },
  { selector: 'node[kind = "tag"]', style: { shape: 'rectangle', width: 14, height: 14, 'background-color': '#2f5bd3', color: '#2f5bd3' } },
  { selector: 'edge', style: { width: 1, 'line-color': '#d0d5dd', 'curve-style': 'haystack' } },
  { selector: 'edge[kind = "tagged"]', style: { 'line-style': 'dashed' } },
  { selector: ':selected', style: { 'border-width': 3, 'border-color': '#101828' } },
];

export class GraphView {
  constructor() {
    this.cy = null;
    this.kb = null;
    this.memories = [];
    this.includeInactive = false;
    this.visible = false;
    this.drawnKey = null;
  }

  open(kb) {
    this.kb = kb;
    this.drawnKey = null;
    $('#graph-inspector').replaceChildren(el('p', {}, 'Click a node to inspect it. Drag nodes; scroll to zoom.'));
  }

  /** The list's selection changed: the graph follows it (drawn when the view is shown). */
  follow(memories, filter) {
    this.memories = memories;
    this.includeInactive = Boolean(filter?.includeInactive);
    if (this.visible) this.draw();
  }

  show() {
    this.visible = true;
    this.draw();
  }

  hide() {
    this.visible = false;
  }

  draw() {
    const graph = buildGraph(this.memories, { includeInactive: this.includeInactive, limit: MAX_DRAWN_MEMORIES });
    const key = graph.nodes.map((n) => n.id).join(' ');
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    this.cy?.destroy();
    this.cy = null;
    delete $('#graph').dataset.firstMemoryAt;
    $('#graph-legend').textContent = `Laying out ${graph.counts.memories} memories…`;
    // Let the page paint the message before the layout blocks it.
    requestAnimationFrame(() => setTimeout(() => {
      if (this.drawnKey === key) this.render(graph);
    }, 0));
  }

  render(graph) {
    const elements = [
      ...graph.nodes.map((n) => ({ data: { ...n, colour: BADGE_COLOURS[n.badge] } })),
      ...graph.edges.map((e) => ({ data: e })),
    ];
    this.cy = cytoscape({ container: $('#graph'), elements, style: STYLE });
    this.cy.on('tap', 'node', (event) => this.inspect(event.target.data()));
    const layout = this.cy.layout({
      name: 'fcose',
      quality: graph.nodes.length > MAX_NODES_REFINED ? 'draft' : 'default',
      animate: false,
      nodeRepulsion: () => 8000,
      idealEdgeLength: () => 50,
    });
    layout.one('layoutstop', () => {
      // Where memory #1's dot is drawn, for the browser test to click it.
      const first = this.cy.getElementById('m:1');
      if (first.nonempty()) {
        const { x, y } = first.renderedPosition();
        $('#graph').dataset.firstMemoryAt = `${Math.round(x)},${Math.round(y)}`;
      }
    });
    layout.run();
    const count = (kind) => this.cy.nodes(`[kind = "${kind}"]`).length;
    $('#graph-legend').replaceChildren(
      el('span', { 'data-count': 'memory' }, `${count('memory')} memories (dots)`), ' · ',
      el('span', { 'data-count': 'anchor' }, `${count('anchor')} anchors (diamonds)`), ' · ',
      el('span', { 'data-count': 'tag' }, `${count('tag')} shared tags (squares)`), ' · ',
      el('span', { 'data-count': 'edge' }, `${this.cy.edges().length} edges`),
      graph.truncated
        ? el('strong', {}, `. The list's filters select more: the oldest ${MAX_DRAWN_MEMORIES} are drawn; narrow the filters to see others`)
        : '. The memories the list\u2019s filters select, as `kenning graph` draws them',
      '. Dots: ',
      ...Object.entries(BADGE_COLOURS).flatMap(([b, colour]) => [el('span', { style: `color: ${colour}` }, `\u25cf ${BADGE_NAMES[b]}`), ' ']));
  }

  inspect(node) {
    const box = $('#graph-inspector');
    if (node.kind === 'memory') {
      const m = this.kb.memories.get(node.memory);
      box.replaceChildren(
        el('h2', {}, badge(m.badge), `Memory #${m.id}`),
        el('p', {}, m.text),
        el('p', { class: 'meta' }, `${m.scope} ${m.type.replace('_', ' ')} · confidence ${m.confidence} · ${m.author} · ${day(m.updatedAt)}`),
        el('ul', {}, m.anchors.map((a) => el('li', {}, anchorText(a, m.imageBase)))),
        el('p', {}, m.tags.map((t) => el('span', { class: 'tag' }, `#${t}`))));
    } else {
      const linked = this.cy.getElementById(node.id).neighborhood('node').map((n) => n.data('label'));
      box.replaceChildren(
        el('h2', {}, node.kind === 'tag' ? `Tag ${node.label}` : `Anchor: ${node.anchorKind} ${node.label}`),
        el('p', {}, `${node.memories} memories: ${linked.join(', ')}`));
    }
  }
}
