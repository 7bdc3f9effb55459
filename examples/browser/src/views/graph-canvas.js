// Draws a laid-out graph on a canvas: nodes at the positions the layout worker gave, memories as
// dots, anchors as diamonds, tags as squares; drag the background to pan, the wheel to zoom, a
// node to move it; a click or a double click on a node is reported. It replaces cytoscape on the
// main thread because cytoscape's first frame of 300 nodes took 130 to 570 ms in headless Chromium
// here (its per-element texture caches), and the page must not block for more than 50 ms; a
// plain canvas draws the same in a few milliseconds.

const SIZE = { memory: 16, anchor: 18, tag: 14 };
const CENTRE_SIZE = 26;
const FONT_PX = 10;
/** Below this many screen pixels a label is not drawn (cytoscape's `min-zoomed-font-size`). */
const MIN_LABEL_PX = 7;
/** Above this many nodes, labels wait for a closer zoom (`CROWD_LABEL_PX`). */
const CROWD = 80;
const CROWD_LABEL_PX = 14;
/** The least size the centre's and the selected node's labels are drawn at, in screen pixels. */
const READABLE_PX = 11;
const COLOURS = { anchor: '#98a2b3', tag: '#2f5bd3', edge: '#d0d5dd', contains: '#98a2b3', label: '#344054', centre: '#f04438', selected: '#101828' };
const CLICK_SLOP = 4;

export class GraphCanvas {
  /**
   * @param {HTMLElement} container the canvas fills it
   * @param {{onTap: (id: string) => void, onDoubleTap: (id: string) => void}} handlers
   */
  constructor(container, { onTap, onDoubleTap }) {
    this.container = container;
    this.canvas = document.createElement('canvas');
    this.canvas.style.cssText = 'display: block; width: 100%; height: 100%; touch-action: none; cursor: grab';
    container.replaceChildren(this.canvas);
    this.context = this.canvas.getContext('2d');
    this.nodes = [];
    this.byId = new Map();
    this.edges = [];
    this.selected = null;
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.frame = 0;
    this.gesture = null;
    this.canvas.addEventListener('pointerdown', (event) => this.pointerDown(event));
    this.canvas.addEventListener('pointermove', (event) => this.pointerMove(event));
    this.canvas.addEventListener('pointerup', (event) => this.pointerUp(event, onTap));
    this.canvas.addEventListener('pointercancel', () => { this.gesture = null; });
    this.canvas.addEventListener('dblclick', (event) => {
      const node = this.nodeAt(this.local(event));
      if (node) onDoubleTap(node.id);
    });
    this.canvas.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  /**
   * Shows `nodes` (`{id, kind, label, distance, colour}` with `x`, `y`) and `edges`
   * (`{source, target, kind}`), fitted to the view.
   */
  show(nodes, edges) {
    this.nodes = nodes.map((n) => ({ ...n, size: n.distance === 0 ? CENTRE_SIZE : SIZE[n.kind] }));
    this.byId = new Map(this.nodes.map((n) => [n.id, n]));
    this.edges = edges.map((e) => ({ ...e, from: this.byId.get(e.source), to: this.byId.get(e.target) })).filter((e) => e.from && e.to);
    this.selected = null;
    this.fit();
  }

  /** Zooms and pans to show every node with a margin, at most 1.5 times its size. */
  fit(margin = 40) {
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const { x, y } of this.nodes) {
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
    if (left === Infinity) {
      this.zoom = 1;
      this.pan = { x: this.width / 2, y: this.height / 2 };
    } else {
      // A graph of a few nodes fitted to the view would be drawn huge.
      this.zoom = Math.min(1.5, (this.width - 2 * margin) / Math.max(1, right - left), (this.height - 2 * margin) / Math.max(1, bottom - top));
      this.pan = { x: this.width / 2 - (this.zoom * (left + right)) / 2, y: this.height / 2 - (this.zoom * (top + bottom)) / 2 };
    }
    this.redraw();
  }

  select(id) {
    this.selected = id;
    this.redraw();
  }

  /** Where a node is drawn, in CSS pixels from the container's top left corner. */
  renderedPosition(id) {
    const node = this.byId.get(id);
    return { x: node.x * this.zoom + this.pan.x, y: node.y * this.zoom + this.pan.y };
  }

  resize() {
    const { width, height } = this.container.getBoundingClientRect();
    if (width === 0 || height === 0) return; // hidden: sized when shown again
    const fitAgain = !this.width;
    this.width = width;
    this.height = height;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    if (fitAgain && this.nodes.length > 0) this.fit();
    else this.redraw();
  }

  redraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    const c = this.context;
    const ratio = this.canvas.width / (this.width || 1);
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, this.canvas.width, this.canvas.height);
    c.setTransform(ratio * this.zoom, 0, 0, ratio * this.zoom, ratio * this.pan.x, ratio * this.pan.y);
    c.lineWidth = 1 / this.zoom;
    for (const dashed of [false, true]) {
      c.setLineDash(dashed ? [4 / this.zoom, 3 / this.zoom] : []);
      c.strokeStyle = COLOURS.edge;
      c.beginPath();
      for (const e of this.edges) {
        if (e.kind === 'contains' || (e.kind === 'tagged') !== dashed) continue;
        c.moveTo(e.from.x, e.from.y);
        c.lineTo(e.to.x, e.to.y);
      }
      c.stroke();
    }
    c.setLineDash([]);
    c.strokeStyle = COLOURS.contains;
    c.fillStyle = COLOURS.contains;
    c.lineWidth = 2;
    for (const e of this.edges) if (e.kind === 'contains') this.arrow(e.from, e.to);
    for (const n of this.nodes) this.node(n);
    // A crowd of labels is unreadable: a big graph shows them once zoomed in.
    const labelled = FONT_PX * this.zoom >= (this.nodes.length > CROWD ? CROWD_LABEL_PX : MIN_LABEL_PX);
    c.textAlign = 'center';
    c.textBaseline = 'top';
    const marked = (n) => n.distance === 0 || n.id === this.selected;
    for (const n of this.nodes) if (labelled && !marked(n)) this.label(n, 1, false);
    // The centre's and the selected node's labels on top, at a readable size however far out.
    for (const n of this.nodes) if (marked(n)) this.label(n, Math.max(1, READABLE_PX / (FONT_PX * this.zoom)), true);
  }

  label(n, scale, emphasised) {
    const c = this.context;
    c.save();
    c.translate(n.x, n.y + n.size / 2 + 2);
    c.scale(scale, scale);
    c.font = `${emphasised ? 'bold ' : ''}${FONT_PX}px system-ui, sans-serif`;
    if (emphasised) {
      c.lineWidth = 3 / this.zoom / scale;
      c.strokeStyle = 'white';
      c.strokeText(n.label, 0, 0);
    }
    c.fillStyle = n.kind === 'tag' ? COLOURS.tag : COLOURS.label;
    c.fillText(n.label, 0, 0);
    c.restore();
  }

  /** A `contains` edge: from the function to the address, its arrowhead at the address's edge. */
  arrow(from, to) {
    const c = this.context;
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const length = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / length, dy / length];
    const tip = { x: to.x - (ux * to.size) / 2, y: to.y - (uy * to.size) / 2 };
    c.beginPath();
    c.moveTo(from.x, from.y);
    c.lineTo(tip.x, tip.y);
    c.stroke();
    c.beginPath();
    c.moveTo(tip.x, tip.y);
    c.lineTo(tip.x - ux * 7 - uy * 4, tip.y - uy * 7 + ux * 4);
    c.lineTo(tip.x - ux * 7 + uy * 4, tip.y - uy * 7 - ux * 4);
    c.closePath();
    c.fill();
  }

  node(n) {
    const c = this.context;
    const r = n.size / 2;
    c.globalAlpha = n.distance === 2 ? 0.7 : 1;
    c.beginPath();
    if (n.kind === 'memory') c.arc(n.x, n.y, r, 0, 2 * Math.PI);
    else if (n.kind === 'anchor') {
      c.moveTo(n.x, n.y - r);
      c.lineTo(n.x + r, n.y);
      c.lineTo(n.x, n.y + r);
      c.lineTo(n.x - r, n.y);
      c.closePath();
    } else c.rect(n.x - r, n.y - r, n.size, n.size);
    c.fillStyle = n.kind === 'memory' ? n.colour : COLOURS[n.kind];
    c.fill();
    if (n.distance === 0 || n.id === this.selected) {
      c.lineWidth = 3;
      c.strokeStyle = n.id === this.selected ? COLOURS.selected : COLOURS.centre;
      c.stroke();
    }
    c.globalAlpha = 1;
  }

  /** The event's position in CSS pixels from the canvas's top left corner. */
  local(event) {
    const box = this.canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  /** The topmost node under a point (CSS pixels), with a little slack around small ones. */
  nodeAt({ x, y }) {
    const wx = (x - this.pan.x) / this.zoom;
    const wy = (y - this.pan.y) / this.zoom;
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i];
      const reach = n.size / 2 + 3 / this.zoom;
      if (Math.abs(n.x - wx) <= reach && Math.abs(n.y - wy) <= reach) return n;
    }
    return null;
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const at = this.local(event);
    this.gesture = { start: at, last: at, node: this.nodeAt(at), moved: false };
    this.canvas.setPointerCapture(event.pointerId);
    this.canvas.style.cursor = 'grabbing';
  }

  pointerMove(event) {
    const g = this.gesture;
    if (!g) return;
    const at = this.local(event);
    if (Math.hypot(at.x - g.start.x, at.y - g.start.y) > CLICK_SLOP) g.moved = true;
    if (g.moved) {
      if (g.node) {
        g.node.x += (at.x - g.last.x) / this.zoom;
        g.node.y += (at.y - g.last.y) / this.zoom;
      } else {
        this.pan.x += at.x - g.last.x;
        this.pan.y += at.y - g.last.y;
      }
      this.redraw();
    }
    g.last = at;
  }

  pointerUp(event, onTap) {
    const g = this.gesture;
    this.gesture = null;
    this.canvas.style.cursor = 'grab';
    if (g && !g.moved && g.node) onTap(g.node.id);
  }

  wheel(event) {
    event.preventDefault();
    const at = this.local(event);
    const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002));
    const zoom = Math.min(5, Math.max(0.05, this.zoom * factor));
    this.pan.x = at.x - ((at.x - this.pan.x) * zoom) / this.zoom;
    this.pan.y = at.y - ((at.y - this.pan.y) * zoom) / this.zoom;
    this.zoom = zoom;
    this.redraw();
  }
}
