// The graph of an opened knowledge base, as the host builds it (host/src/service/graph.rs,
// `kenning graph --format json`, kenning-graph/1): one node per memory, one per distinct anchor,
// one per tag at least two memories share; an edge from each memory to each of its anchors and
// shared tags. Only active memories unless `includeInactive`; at most `limit`, the oldest first
// (as `kenning graph --limit`).

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
