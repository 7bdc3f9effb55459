// The Graph view: cytoscape draws the host's graph of memories (dots), anchors (diamonds) and
// shared tags (squares); nodes drag, the view zooms, a click shows the node in the inspector.
import cytoscape from '../../vendor/cytoscape.esm.min.mjs';
import { $, el, badge, anchorText, day, BADGE_NAMES } from './dom.js';
import { buildGraph } from '../graph.js';

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
    this.drawn = false;
  }

  open(kb) {
    this.kb = kb;
    this.drawn = false;
    this.cy?.destroy();
    this.cy = null;
    $('#graph-legend').textContent = '';
    $('#graph-inspector').replaceChildren(el('p', {}, 'Click a node to inspect it. Drag nodes; scroll to zoom.'));
  }

  /** Draws the graph the first time the view is shown (cytoscape needs a visible container). */
  show() {
    if (this.drawn || !this.kb) return;
    this.drawn = true;
    const graph = buildGraph([...this.kb.memories.values()]);
    const elements = [
      ...graph.nodes.map((n) => ({ data: { ...n, colour: BADGE_COLOURS[n.badge] } })),
      ...graph.edges.map((e) => ({ data: e })),
    ];
    this.cy = cytoscape({
      container: $('#graph'),
      elements,
      style: STYLE,
    });
    this.cy.on('tap', 'node', (event) => this.inspect(event.target.data()));
    const layout = this.cy.layout({ name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 8000, idealEdgeLength: () => 50 });
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
      '. Active memories only, as `kenning graph` draws them. Dots: ',
      ...Object.entries(BADGE_COLOURS).flatMap(([b, colour]) => [el('span', { style: `color: ${colour}` }, `● ${BADGE_NAMES[b]}`), ' ']));
  }

  inspect(node) {
    const box = $('#graph-inspector');
    if (node.kind === 'memory') {
      const m = this.kb.memories.get(node.memory);
      box.replaceChildren(
        el('h2', {}, badge(m.badge), `Memory #${m.id}`),
        el('p', {}, m.text),
        el('p', { class: 'meta' }, `${m.scope} ${m.type.replace('_', ' ')} · confidence ${m.confidence} · ${m.author} · ${day(m.createdAt)}`),
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
