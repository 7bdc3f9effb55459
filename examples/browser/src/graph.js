// The graph of an opened knowledge base, as the host builds it (host/src/service/graph.rs,
// `kenning graph --format json`, kenning-graph/1): one node per memory, one per distinct anchor,
// one per tag at least two memories share; an edge from each memory to each of its anchors and
// shared tags. Only active memories unless `includeInactive`; at most `limit`, the oldest first
// (as `kenning graph --limit`).
//
// And the local graph around one node (`GraphIndex`, `localGraph`, `findCentre`), which the
// Graph view draws: every node within one or two links of a memory, an anchor or a tag, anchors
// labelled in the list's notation, with containment between function anchors and the addresses
// inside them.

import { anchorText } from './views/dom.js';

const hex = (n) => `0x${n.toString(16)}`;

/** An anchor's node id suffix, in the host's words (`a:<kind>:<value>`). */
export function anchorWords(a) {
  switch (a.kind) {
    case 'function':
      return ['function', a.end === null ? `${a.name}@${hex(a.start)}` : `${a.name}@${hex(a.start)}-${hex(a.end)}`];
    case 'range':
      return ['range', `${hex(a.start)}-${hex(a.end)}`];
    case 'address':
      return ['address', hex(a.offset)];
    case 'near':
      return ['near', `${hex(a.offset)}±${hex(a.radius)}`];
    default:
      return ['string', a.value];
  }
}

/** `{nodes, edges, counts}`; nodes `{id, kind: memory|anchor|tag, label, ...}`. */
export function buildGraph(memories, { includeInactive = false, limit = Infinity } = {}) {
  const eligible = memories.filter((m) => includeInactive || m.status === 'active').sort((a, b) => a.id - b.id);
  const shown = eligible.slice(0, limit);
  const anchors = new Map();
  const tagCounts = new Map();
  for (const m of shown) {
    for (const key of new Set(m.anchors.map((a) => anchorWords(a).join(':')))) {
      anchors.set(key, (anchors.get(key) ?? 0) + 1);
    }
    for (const tag of new Set(m.tags)) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  }
  const shared = new Set([...tagCounts].filter(([, n]) => n >= 2).map(([tag]) => tag));
  const nodes = shown.map((m) => ({ id: `m:${m.id}`, kind: 'memory', memory: m.id, label: `#${m.id}`, badge: m.badge, scope: m.scope }));
  for (const [key, count] of anchors) {
    const [kind, ...rest] = key.split(':');
    nodes.push({ id: `a:${key}`, kind: 'anchor', anchorKind: kind, label: rest.join(':'), memories: count });
  }
  for (const tag of shared) nodes.push({ id: `t:${tag}`, kind: 'tag', label: `#${tag}`, memories: tagCounts.get(tag) });
  const edges = [];
  for (const m of shown) {
    const seen = new Set();
    const link = (to, kind) => {
      if (seen.has(to)) return;
      seen.add(to);
      edges.push({ id: `e:${m.id}:${to}`, source: `m:${m.id}`, target: to, kind });
    };
    for (const a of m.anchors) link(`a:${anchorWords(a).join(':')}`, 'anchored');
    for (const tag of m.tags) if (shared.has(tag)) link(`t:${tag}`, 'tagged');
  }
  return {
    nodes,
    edges,
    truncated: eligible.length > shown.length,
    counts: { memories: shown.length, anchors: anchors.size, tags: shared.size, edges: edges.length },
  };
}

/** Most nodes a local graph draws by default: fcose lays 300 out in about a second, in a worker. */
export const MAX_LOCAL_NODES = 300;

const lowerBound = (sorted, value, key) => {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** The anchor kinds a function's range can contain. */
const POINT_KINDS = new Set(['address', 'near', 'range']);

/** Where a point-like anchor sits (its start), and where it ends (exclusive), as file offsets. */
const span = (a) => (a.kind === 'range' ? [a.start, a.end] : [a.offset, a.offset + 1]);

/**
 * Every node of a knowledge base's graph and its links, indexed once so that local graphs around
 * any centre are quick: memories, their anchors (one node per distinct anchor, as the host names
 * it: `a:<kind>:<value>`, file offsets) and their tags (every tag, not only shared ones: a local
 * graph shows a memory's own tags too). Containment (an address, near or range anchor inside a
 * function anchor's range) is found on demand, as a traversal reaches an anchor.
 */
export class GraphIndex {
  /**
   * @param {Iterable<object>} memories as `parseExport` returns them (file offsets, `imageBase`)
   * @param {{includeInactive?: boolean}} options forgotten and superseded memories too
   */
  constructor(memories, { includeInactive = false } = {}) {
    /** id → node `{id, kind, label, recency, …}`; `recency`: the newest linked memory's update. */
    this.nodes = new Map();
    /** id → ids linked by `anchored` or `tagged` edges. */
    this.links = new Map();
    this.includeInactive = includeInactive;
    this.newest = new Map();
    this.add(memories);
    this.finish();
  }

  /**
   * The index of `memories` built a slice at a time, awaiting `pause()` between slices: 10,000
   * memories take about 50 ms, which would hold the page's main thread for as long at once.
   * @param {Iterable<object>} memories
   * @param {{includeInactive?: boolean, slice?: number, pause?: () => Promise<void>}} options
   * @returns {Promise<GraphIndex>}
   */
  static async build(memories, { includeInactive = false, slice = 1500, pause = () => new Promise((go) => setTimeout(go, 0)) } = {}) {
    const all = [...memories];
    const index = new GraphIndex([], { includeInactive });
    for (let i = 0; i < all.length; i += slice) {
      index.add(all.slice(i, i + slice));
      await pause();
    }
    index.finish();
    return index;
  }

  /** Adds memories; `finish` then brings the labels and containment up to date. */
  add(memories) {
    // Arrays and plain objects of one shape: a Set per node made building 10,000 memories' index
    // take twice as long, mostly in the garbage collector.
    const { nodes, links, newest } = this;
    const touch = (id, make, m, own) => {
      let node = nodes.get(id);
      if (node === undefined) {
        node = make();
        nodes.set(id, node);
        links.set(id, []);
      }
      if (own.includes(id)) return null;
      own.push(id);
      links.get(id).push(`m:${m.id}`);
      node.memories += 1;
      const before = newest.get(id);
      if (before === undefined || m.updatedAt > before.updatedAt || (m.updatedAt === before.updatedAt && m.id > before.id)) {
        node.recency = m.updatedAt;
        newest.set(id, m);
      }
      return node;
    };
    for (const m of memories) {
      if (!this.includeInactive && m.status !== 'active') continue;
      const from = `m:${m.id}`;
      nodes.set(from, { id: from, kind: 'memory', memory: m.id, label: `#${m.id}`, badge: m.badge, scope: m.scope, recency: m.updatedAt });
      const own = [];
      links.set(from, own);
      for (const a of m.anchors) {
        const id = `a:${anchorWords(a).join(':')}`;
        const node = touch(id, () => ({ id, kind: 'anchor', anchorKind: a.kind, anchor: a, label: '', memories: 0, recency: 0, imageBases: [m.imageBase] }), m, own);
        if (node !== null && !node.imageBases.includes(m.imageBase)) node.imageBases.push(m.imageBase);
      }
      for (const tag of m.tags) {
        const id = `t:${tag}`;
        touch(id, () => ({ id, kind: 'tag', label: `#${tag}`, memories: 0, recency: 0 }), m, own);
      }
    }
  }

  /** Labels the anchors and sorts them for containment, once the memories are added. */
  finish() {
    const functions = [];
    const points = [];
    for (const node of this.nodes.values()) {
      if (node.kind !== 'anchor') continue;
      // The list's notation (image base + offset), at the image base of the newest memory that
      // names the anchor: the host keys anchors by file offset, so one node may stand for
      // memories written at different bases, which the inspector then names.
      node.label = anchorText(node.anchor, this.newest.get(node.id).imageBase);
      node.imageBases.sort((a, b) => a - b);
      if (node.anchorKind === 'function' && node.anchor.end !== null) functions.push(node);
      else if (POINT_KINDS.has(node.anchorKind)) points.push(node);
    }
    functions.sort((x, y) => x.anchor.start - y.anchor.start);
    points.sort((x, y) => span(x.anchor)[0] - span(y.anchor)[0]);
    this.functions = functions;
    /** The largest end among `functions[0..i]`: a backward scan stops once nothing reaches on. */
    this.reach = [];
    let reach = -Infinity;
    for (const f of functions) this.reach.push((reach = Math.max(reach, f.anchor.end)));
    this.points = points;
    this.containment = new Map();
  }

  /** Whether the index holds a node with this id. */
  has(id) {
    return this.nodes.has(id);
  }

  /** The function anchors whose range holds this address, near or range anchor, or the anchors a function's range holds. */
  contained(id) {
    let found = this.containment.get(id);
    if (found !== undefined) return found;
    found = [];
    const node = this.nodes.get(id);
    if (node.kind === 'anchor' && node.anchorKind === 'function' && node.anchor.end !== null) {
      const { start, end } = node.anchor;
      for (let i = lowerBound(this.points, start, (p) => span(p.anchor)[0]); i < this.points.length; i++) {
        const [from, to] = span(this.points[i].anchor);
        if (from >= end) break;
        if (to <= end) found.push(this.points[i].id);
      }
    } else if (node.kind === 'anchor' && POINT_KINDS.has(node.anchorKind)) {
      const [from, to] = span(node.anchor);
      for (let i = lowerBound(this.functions, from + 1, (f) => f.anchor.start) - 1; i >= 0 && this.reach[i] > from; i--) {
        const f = this.functions[i].anchor;
        if (f.start <= from && from < f.end && to <= f.end) found.push(this.functions[i].id);
      }
    }
    this.containment.set(id, found);
    return found;
  }

  /** Every node linked to `id`: its memories, anchors and tags, and containment both ways. */
  neighbours(id) {
    const node = this.nodes.get(id);
    if (node.kind !== 'anchor') return this.links.get(id);
    return [...this.links.get(id), ...this.contained(id)];
  }
}

/**
 * The local graph around `centre` (`m:<id>`, `a:<kind>:<value>` or `t:<tag>`): every node within
 * `hops` links of it (memory–anchor, memory–tag, and `contains` from a function anchor to the
 * address, near and range anchors inside its range), the closest first, then the newest, at most
 * `maxNodes`; and every edge between the nodes kept.
 *
 * @param {GraphIndex} index
 * @param {string} centre a node id the index holds
 * @param {{hops?: number, maxNodes?: number}} options
 * @returns {{centre: string, hops: number, nodes: object[], edges: object[], total: number,
 *   omitted: {memory: number, anchor: number, tag: number}}} nodes carry their `distance`;
 *   `total` counts every node within reach, `omitted` those the cap left out, by kind
 */
export function localGraph(index, centre, { hops = 1, maxNodes = MAX_LOCAL_NODES } = {}) {
  if (!index.has(centre)) throw new Error(`no node ${centre} in the graph`);
  const distance = new Map([[centre, 0]]);
  let frontier = [centre];
  for (let d = 1; d <= hops; d++) {
    const next = [];
    for (const id of frontier) {
      for (const to of index.neighbours(id)) {
        if (!distance.has(to)) {
          distance.set(to, d);
          next.push(to);
        }
      }
    }
    frontier = next;
  }
  const ranked = [...distance.keys()].map((id) => index.nodes.get(id));
  ranked.sort((x, y) => distance.get(x.id) - distance.get(y.id) || y.recency - x.recency || (x.id < y.id ? -1 : 1));
  const kept = ranked.slice(0, maxNodes);
  const omitted = { memory: 0, anchor: 0, tag: 0 };
  for (const node of ranked.slice(maxNodes)) omitted[node.kind] += 1;
  const keptIds = new Set(kept.map((n) => n.id));
  const edges = [];
  for (const node of kept) {
    if (node.kind === 'memory') {
      for (const to of index.links.get(node.id)) {
        if (keptIds.has(to)) edges.push({ id: `e:${node.memory}:${to}`, source: node.id, target: to, kind: to.startsWith('t:') ? 'tagged' : 'anchored' });
      }
    } else if (node.kind === 'anchor' && node.anchorKind === 'function') {
      for (const to of index.contained(node.id)) {
        if (keptIds.has(to)) edges.push({ id: `c:${node.id}>${to}`, source: node.id, target: to, kind: 'contains' });
      }
    }
  }
  const nodes = kept.map((node) => ({ ...node, distance: distance.get(node.id) }));
  return { centre, hops, nodes, edges, total: ranked.length, omitted };
}

const ADDRESS = /^(?:0x)([0-9a-f]+)$/i;

/**
 * The node a person means by `text`, for the graph's centre chooser: a node id (`m:12`,
 * `a:function:main@0x1000-0x1100`, `t:crypto`), `#12` (a memory), `#crypto` (a tag), `0x401234`
 * (an address as the list writes it: image base + offset; the anchor there, else the function
 * starting there, else the narrowest function or range holding it), a function's name (the one
 * most memories name), a referenced string, or a tag's name.
 *
 * @param {GraphIndex} index
 * @param {string} text
 * @returns {{centre: string} | {error: string}}
 */
export function findCentre(index, text) {
  const wanted = text.trim();
  if (wanted === '') return { error: 'Type a memory (#12), an address (0x401234), a function name or a tag (#crypto).' };
  if (/^[mat]:/.test(wanted) && index.has(wanted)) return { centre: wanted };
  const numbered = /^#(\d+)$/.exec(wanted);
  if (numbered) {
    const id = `m:${Number(numbered[1])}`;
    return index.has(id) ? { centre: id } : { error: `No memory #${numbered[1]} in the graph (forgotten and superseded ones need the list's "forgotten and superseded too").` };
  }
  const anchors = [...index.nodes.values()].filter((n) => n.kind === 'anchor');
  const busiest = (nodes) => nodes.sort((x, y) => y.memories - x.memories || y.recency - x.recency)[0];
  const address = ADDRESS.exec(wanted);
  if (address) {
    const at = Number.parseInt(address[1], 16);
    const starts = (n) => [...n.imageBases].some((base) => (n.anchor.kind === 'address' || n.anchor.kind === 'near' ? n.anchor.offset : n.anchor.start) + base === at);
    for (const kind of ['address', 'function', 'range', 'near']) {
      const found = anchors.filter((n) => n.anchorKind === kind && starts(n));
      if (found.length > 0) return { centre: busiest(found).id };
    }
    const holding = anchors.filter((n) => (n.anchorKind === 'function' || n.anchorKind === 'range') && n.anchor.end !== null &&
      [...n.imageBases].some((base) => n.anchor.start + base <= at && at < n.anchor.end + base));
    if (holding.length > 0) {
      const width = (n) => n.anchor.end - n.anchor.start;
      return { centre: holding.sort((x, y) => width(x) - width(y) || y.memories - x.memories)[0].id };
    }
    return { error: `No anchor at or around ${wanted.toLowerCase()}.` };
  }
  const tagged = /^#(.+)$/.exec(wanted);
  const tag = (name) => {
    if (index.has(`t:${name}`)) return `t:${name}`;
    const lower = name.toLowerCase();
    return [...index.nodes.values()].find((n) => n.kind === 'tag' && n.id.slice(2).toLowerCase() === lower)?.id;
  };
  if (tagged) {
    const id = tag(tagged[1]);
    return id ? { centre: id } : { error: `No tag #${tagged[1]}.` };
  }
  for (const same of [(a, b) => a === b, (a, b) => a.toLowerCase() === b.toLowerCase()]) {
    const named = anchors.filter((n) => n.anchorKind === 'function' && same(n.anchor.name, wanted));
    if (named.length > 0) return { centre: busiest(named).id };
  }
  const string = anchors.filter((n) => n.anchorKind === 'string' && n.anchor.value === wanted);
  if (string.length > 0) return { centre: string[0].id };
  const id = tag(wanted);
  if (id) return { centre: id };
  return { error: `Nothing called "${wanted}": no function, string or tag by that name.` };
}
