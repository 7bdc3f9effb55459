// The Graph view's layout, off the page's main thread: a classic Web Worker (fcose ships as UMD
// scripts that define globals, which only importScripts can load in a worker) that runs
// cytoscape headless with the fcose layout and answers with every node's position.
//
// Message in: `{id, nodes: [{id, kind, distance}], edges: [{id, source, target}]}`.
// Message out: `{id, positions: {nodeId: {x, y}}, ms}` or `{id, error}`.
/* global cytoscape, cytoscapeFcose */
importScripts('../vendor/cytoscape.min.js', '../vendor/layout-base.js', '../vendor/cose-base.js', '../vendor/cytoscape-fcose.js');
cytoscape.use(cytoscapeFcose);

// The sizes the page draws nodes at (src/views/graph-canvas.js): fcose keeps nodes apart by them.
const STYLE = [
  { selector: 'node', style: { width: 16, height: 16 } },
  { selector: 'node[kind = "anchor"]', style: { width: 18, height: 18 } },
  { selector: 'node[kind = "tag"]', style: { width: 14, height: 14 } },
  { selector: 'node[distance = 0]', style: { width: 26, height: 26 } },
];

self.onmessage = ({ data: { id, nodes, edges } }) => {
  const started = performance.now();
  try {
    const cy = cytoscape({
      headless: true,
      styleEnabled: true,
      style: STYLE,
      elements: [...nodes.map((n) => ({ data: n })), ...edges.map((e) => ({ data: e }))],
    });
    cy.layout({
      name: 'fcose',
      quality: 'default',
      randomize: true,
      animate: false,
      fit: false,
      nodeRepulsion: () => 8000,
      idealEdgeLength: () => 50,
    }).run();
    const positions = {};
    cy.nodes().forEach((node) => {
      const { x, y } = node.position();
      positions[node.id()] = { x, y };
    });
    cy.destroy();
    self.postMessage({ id, positions, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, error: error?.message ?? String(error) });
  }
};
