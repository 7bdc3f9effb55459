// The local graph (src/graph.js) in Node: one and two hops around a memory, an anchor or a tag,
// containment between a function's range and the addresses inside it, the cap on the nodes
// drawn, the centre chooser's syntax, and anchors written as the list writes them. Then the Graph
// view in headless Chromium: its default centre, re-centring by double click, by the centre field
// and by the keyboard alone, hops, a newer centre cancelling an older layout, no page errors; and
// figures over 10,000 memories (printed, and written to test-artifacts/figures-graph.json).
// Timings are recorded, never asserted: the machines are shared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExport } from '../src/format/export-file.js';
import { GraphIndex, localGraph, findCentre, MAX_LOCAL_NODES } from '../src/graph.js';
import { anchorText } from '../src/views/dom.js';
import { FIXTURE } from './support/kenning.mjs';
import { startBrowser, openPage, ARTIFACTS } from './support/browser.mjs';
import { binaryExport } from './support/binary-export.mjs';

const BASE = 0x400000;

/** Memories as the page holds them, read from export records (addresses = BASE + offset). */
function memoriesOf(records) {
  const lines = records.map((r, i) => JSON.stringify({
    id: i + 1, scope: r.anchors?.length ? 'local' : 'global', type: 'fact', text: `note ${i + 1}`, tags: [], categories: [],
    confidence: 0.9, image_base: r.anchors?.length ? BASE : 0, author: 'agent', badge: 'native', status: 'active',
    created_at: 1_780_000_000 + i, updated_at: 1_780_000_000 + i, ...r,
  }));
  const header = JSON.stringify({ format: 'kenning-memory/1', subject: { kind: 'binary', key: 'k' }, memories: records.length });
  return parseExport([header, ...lines].join('\n') + '\n').memories;
}

const ids = (graph) => new Set(graph.nodes.map((n) => n.id));
const edgeSet = (graph) => new Set(graph.edges.map((e) => `${e.source} ${e.kind} ${e.target}`));

// A binary's notes: f holds an address, a radius and a range; 0x1100 is f's end (exclusive) and a
// range crossing it is not inside; h holds all of f; g has no end, so holds nothing.
const CONTAINMENT = memoriesOf([
  { anchors: [{ kind: 'function', name: 'f', start: BASE + 0x1000, end: BASE + 0x1100 }], tags: ['crypto'] },
  { anchors: [{ kind: 'address', address: BASE + 0x1010 }] },
  { anchors: [{ kind: 'near', address: BASE + 0x10f0, radius: 8 }] },
  { anchors: [{ kind: 'range', start: BASE + 0x1020, end: BASE + 0x1040 }], tags: ['crypto'] },
  { anchors: [{ kind: 'address', address: BASE + 0x1100 }] },
  { anchors: [{ kind: 'range', start: BASE + 0x10f0, end: BASE + 0x1110 }] },
  { anchors: [{ kind: 'function', name: 'g', start: BASE + 0x1000, end: null }] },
  { anchors: [{ kind: 'function', name: 'h', start: BASE + 0x0f00, end: BASE + 0x1200 }] },
]);
const F = 'a:function:f@0x1000-0x1100';
const H = 'a:function:h@0xf00-0x1200';

test('one hop around a memory holds the memory, its anchors and its tags, each linked to it', () => {
  const graph = localGraph(new GraphIndex(CONTAINMENT), 'm:1', { hops: 1 });
  assert.deepEqual(ids(graph), new Set(['m:1', F, 't:crypto']));
  assert.deepEqual(edgeSet(graph), new Set([`m:1 anchored ${F}`, 'm:1 tagged t:crypto']));
  assert.deepEqual(graph.nodes.map((n) => n.distance), [0, 1, 1]);
  assert.equal(graph.total, 3);
});

test('a function\'s range contains the address, radius and range inside it, and nothing at or across its end', () => {
  const index = new GraphIndex(CONTAINMENT);
  const graph = localGraph(index, F, { hops: 1 });
  const inside = ['a:address:0x1010', 'a:near:0x10f0±0x8', 'a:range:0x1020-0x1040'];
  assert.deepEqual(ids(graph), new Set([F, 'm:1', ...inside]));
  assert.deepEqual(edgeSet(graph), new Set([`m:1 anchored ${F}`, ...inside.map((a) => `${F} contains ${a}`)]));
  // From the address's side: both functions whose range holds it; g, without an end, holds nothing.
  assert.deepEqual(ids(localGraph(index, 'a:address:0x1010', { hops: 1 })), new Set(['a:address:0x1010', 'm:2', F, H]));
  assert.deepEqual(ids(localGraph(index, 'a:function:g@0x1000', { hops: 1 })), new Set(['a:function:g@0x1000', 'm:7']));
  assert.deepEqual(ids(localGraph(index, 'a:address:0x1100', { hops: 1 })), new Set(['a:address:0x1100', 'm:5', H]));
  assert.deepEqual(ids(localGraph(index, 'a:range:0x10f0-0x1110', { hops: 1 })), new Set(['a:range:0x10f0-0x1110', 'm:6', H]));
});

test('two hops around a function reach the memories of the addresses inside it, and the other functions holding them', () => {
  const graph = localGraph(new GraphIndex(CONTAINMENT), F, { hops: 2 });
  const distance = Object.fromEntries(graph.nodes.map((n) => [n.id, n.distance]));
  assert.deepEqual(distance, {
    [F]: 0, 'm:1': 1, 'a:address:0x1010': 1, 'a:near:0x10f0±0x8': 1, 'a:range:0x1020-0x1040': 1,
    't:crypto': 2, 'm:2': 2, 'm:3': 2, 'm:4': 2, [H]: 2,
  });
  const edges = edgeSet(graph);
  for (const e of ['m:4 tagged t:crypto', 'm:1 tagged t:crypto', `${H} contains a:address:0x1010`, 'm:2 anchored a:address:0x1010']) {
    assert.ok(edges.has(e), e);
  }
  // Every edge joins two nodes drawn; the one hop graph is the two hops graph's inner part.
  for (const e of graph.edges) assert.ok(distance[e.source] !== undefined && distance[e.target] !== undefined, e.id);
  assert.ok([...ids(localGraph(new GraphIndex(CONTAINMENT), F, { hops: 1 }))].every((id) => distance[id] <= 1));
});

test('the cap keeps the closest nodes, then the newest, and counts the ones it leaves out', () => {
  const memories = memoriesOf(Array.from({ length: 10 }, (_, i) => ({
    tags: ['busy', ...(i === 0 ? ['rare'] : [])],
    updated_at: 1_790_000_000 + ((i * 7) % 10), // not in id order
  })));
  const index = new GraphIndex(memories);
  const newestFirst = [...memories].sort((a, b) => b.updatedAt - a.updatedAt).map((m) => `m:${m.id}`);
  const graph = localGraph(index, 't:busy', { hops: 1, maxNodes: 4 });
  assert.deepEqual(graph.nodes.map((n) => n.id), ['t:busy', ...newestFirst.slice(0, 3)]);
  assert.equal(graph.total, 11);
  assert.deepEqual(graph.omitted, { memory: 7, anchor: 0, tag: 0 });
  assert.deepEqual(edgeSet(graph), new Set(newestFirst.slice(0, 3).map((m) => `${m} tagged t:busy`)));
  // Two hops around the memory with the rare tag: both its tags (one hop) come before the busy
  // tag's other memories (two hops), of which the newest are kept.
  const far = localGraph(index, 'm:1', { hops: 2, maxNodes: 5 });
  assert.deepEqual(far.nodes.slice(0, 3).map((n) => [n.id, n.distance]), [['m:1', 0], ['t:busy', 1], ['t:rare', 1]]);
  assert.deepEqual(far.nodes.slice(3).map((n) => n.id), newestFirst.filter((m) => m !== 'm:1').slice(0, 2));
  assert.deepEqual(far.omitted, { memory: 7, anchor: 0, tag: 0 });
});

test('the graph writes every anchor as the list does: the image base plus the offset', () => {
  const { memories } = parseExport(readFileSync(FIXTURE, 'utf8'));
  const index = new GraphIndex(memories);
  let anchors = 0;
  for (const m of memories.filter((x) => x.status === 'active')) {
    for (const a of m.anchors) {
      const node = [...index.nodes.values()].find((n) => n.kind === 'anchor' && n.anchor.kind === a.kind &&
        anchorText(n.anchor, 0) === anchorText(a, 0));
      assert.equal(node.label, anchorText(a, m.imageBase), `#${m.id}`);
      anchors += 1;
    }
  }
  assert.ok(anchors > 20);
  // The fixture's image is at 0x400000: the host's node ids keep file offsets, the labels do not.
  assert.equal(index.nodes.get('a:address:0x1214').label, 'address 0x401214');
  assert.equal(index.nodes.get('a:function:decrypt_config@0x1200-0x1400').label, 'function decrypt_config @ 0x401200-0x401400');
});

test('the centre field reads #id, an address as the list writes it, a function name, #tag and node ids', () => {
  const index = new GraphIndex(CONTAINMENT);
  const centre = (text) => findCentre(index, text).centre;
  assert.equal(centre('#3'), 'm:3');
  assert.equal(centre(' #crypto '), 't:crypto');
  assert.equal(centre('crypto'), 't:crypto');
  assert.equal(centre('f'), F);
  assert.equal(centre('0x401010'), 'a:address:0x1010');
  assert.equal(centre('0x401020'), 'a:range:0x1020-0x1040');
  assert.equal(centre('0x400F00'), H);
  assert.equal(centre('0x401050'), F, 'the narrowest function holding it');
  assert.equal(centre(F), F);
  for (const [text, error] of [['#99', /No memory #99/], ['0x500000', /No anchor at or around 0x500000/], ['nope', /Nothing called "nope"/], ['#nope', /No tag #nope/], ['  ', /Type a memory/]]) {
    assert.match(findCentre(index, text).error, error, text);
  }
});

test('over 10,000 memories: within the cap, every edge between nodes drawn, every node linked to a closer one', async () => {
  const { text, busiest } = binaryExport('k', 10_000);
  const { memories } = parseExport(text);
  const index = await GraphIndex.build(memories, { slice: 1500 });
  assert.deepEqual([...index.nodes.keys()], [...new GraphIndex(memories).nodes.keys()]);
  const centre = findCentre(index, busiest).centre;
  assert.match(centre, /^a:function:decrypt_config@/);
  for (const hops of [1, 2]) {
    const graph = localGraph(index, centre, { hops });
    assert.equal(graph.nodes.length, MAX_LOCAL_NODES);
    assert.equal(graph.total - graph.nodes.length, graph.omitted.memory + graph.omitted.anchor + graph.omitted.tag);
    const distance = new Map(graph.nodes.map((n) => [n.id, n.distance]));
    const linked = new Map(graph.nodes.map((n) => [n.id, new Set()]));
    for (const e of graph.edges) {
      assert.ok(distance.has(e.source) && distance.has(e.target), e.id);
      linked.get(e.source).add(e.target);
      linked.get(e.target).add(e.source);
    }
    for (const n of graph.nodes) {
      if (n.distance > 0) assert.ok([...linked.get(n.id)].some((to) => distance.get(to) === n.distance - 1), n.id);
    }
    assert.ok(graph.edges.some((e) => e.kind === 'contains'));
  }
});

// ---- The view, in headless Chromium ----

let session;
let page;
let errors;
const figures = {};

before(async () => {
  session = await startBrowser();
  ({ page, errors } = await openPage(session));
  await page.setInputFiles('#open-file', FIXTURE);
  await page.waitForSelector('#list-global li');
  await page.evaluate(() => {
    window.graphCentres = [];
    document.addEventListener('graph-centre', (event) => window.graphCentres.push(event.detail));
  });
});
after(async () => {
  writeFileSync(join(ARTIFACTS, 'figures-graph.json'), JSON.stringify(figures, null, 2) + '\n');
  console.log('graph figures:', JSON.stringify(figures));
  await session?.close();
});

const drawn = async (p = page) => JSON.parse(await p.getAttribute('#graph', 'data-drawn'));
/** Waits until the graph drawn is centred on `centre` with `hops`; returns what the view recorded. */
async function drawnAround(centre, hops, p = page) {
  await p.waitForFunction(([c, h]) => {
    const at = document.querySelector('#graph').dataset.drawn;
    return at && JSON.parse(at).centre === c && JSON.parse(at).hops === h;
  }, [centre, hops], { timeout: 120_000 });
  return drawn(p);
}

test('the Graph tab centres on the newest memory the list selects', async () => {
  const { memories } = parseExport(readFileSync(FIXTURE, 'utf8'));
  const newest = memories.filter((m) => m.status === 'active').sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)[0];
  await page.click('[data-view=graph]');
  const shown = await drawnAround(`m:${newest.id}`, 1);
  assert.equal(shown.nodes, localGraph(new GraphIndex(memories), `m:${newest.id}`, { hops: 1 }).nodes.length);
  assert.match(await page.textContent('#graph-inspector'), new RegExp(`Memory #${newest.id}(?!\\d)`));
  // Narrowing the list moves the default centre.
  await page.click('[data-view=list]');
  await page.fill('#filter-text', '#license');
  const licensed = memories.filter((m) => m.status === 'active' && m.tags.includes('license')).sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)[0];
  await page.click('[data-view=graph]');
  await drawnAround(`m:${licensed.id}`, 1);
  await page.click('[data-view=list]');
  await page.fill('#filter-text', '');
  await page.click('[data-view=graph]');
  await drawnAround(`m:${newest.id}`, 1);
  assert.deepEqual(await page.evaluate(() => window.graphCentres), [], 'the default centre is not announced');
  assert.deepEqual(errors, []);
});

test('the centre field takes a function name, an address, #id and #tag, and says what it cannot find', async () => {
  for (const [text, centre] of [
    ['decrypt_config', 'a:function:decrypt_config@0x1200-0x1400'],
    ['0x401214', 'a:address:0x1214'],
    ['#12', 'm:12'],
    ['#crypto', 't:crypto'],
  ]) {
    await page.fill('#graph-centre', text);
    await page.press('#graph-centre', 'Enter');
    await drawnAround(centre, 1);
  }
  await page.fill('#graph-centre', '0x999999');
  await page.press('#graph-centre', 'Enter');
  await page.waitForFunction(() => /No anchor at or around 0x999999/.test(document.querySelector('#graph-status').textContent));
  assert.equal(await page.getAttribute('#graph-centre', 'aria-invalid'), 'true');
  assert.equal((await drawn()).centre, 't:crypto', 'the graph stays');
  const announced = await page.evaluate(() => window.graphCentres.map((d) => d.centre));
  assert.deepEqual(announced, ['a:function:decrypt_config@0x1200-0x1400', 'a:address:0x1214', 'm:12', 't:crypto']);
  assert.deepEqual(errors, []);
});

test('the graph labels an anchor exactly as the list writes it', async () => {
  await page.fill('#graph-centre', '#13');
  await page.press('#graph-centre', 'Enter');
  await drawnAround('m:13', 1);
  const labels = await page.$$eval('#graph-inspector [data-inspect^="a:"]', (buttons) => buttons.map((b) => b.textContent));
  assert.deepEqual(labels, ['function decrypt_config @ 0x401200-0x401400']);
  await page.click('[data-view=list]');
  const listed = await page.textContent('#list-local li[data-id="13"] .meta');
  await page.click('[data-view=graph]');
  for (const label of labels) assert.ok(listed.includes(label), `${listed} / ${label}`);
});

test('a click inspects a node, a double click centres the graph on it', async () => {
  await page.fill('#graph-centre', 'decrypt_config');
  await page.press('#graph-centre', 'Enter');
  await drawnAround('a:function:decrypt_config@0x1200-0x1400', 1);
  const neighbour = JSON.parse(await page.getAttribute('#graph', 'data-neighbour-at'));
  await page.click('#graph', { position: { x: neighbour.x, y: neighbour.y } });
  await page.waitForFunction((id) => document.querySelector('#graph-inspector [data-centre]')?.dataset.centre === id, neighbour.id);
  assert.equal((await drawn()).centre, 'a:function:decrypt_config@0x1200-0x1400', 'a click does not re-centre');
  await page.dblclick('#graph', { position: { x: neighbour.x, y: neighbour.y } });
  await drawnAround(neighbour.id, 1);
  assert.deepEqual((await page.evaluate(() => window.graphCentres)).at(-1), { centre: neighbour.id, hops: 1 });
  assert.deepEqual(errors, []);
});

test('with the keyboard alone: the centre field, the hops, and the inspector\'s linked nodes', async () => {
  await page.focus('#graph-centre');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('decrypt_config');
  await page.keyboard.press('Enter');
  const one = await drawnAround('a:function:decrypt_config@0x1200-0x1400', 1);
  await page.keyboard.press('Tab'); // the hops
  assert.equal(await page.evaluate(() => document.activeElement.id), 'graph-hops');
  await page.keyboard.press('ArrowDown');
  const two = await drawnAround('a:function:decrypt_config@0x1200-0x1400', 2);
  assert.ok(two.nodes > one.nodes, `${two.nodes} > ${one.nodes}`);
  assert.deepEqual((await page.evaluate(() => window.graphCentres)).at(-1), { centre: 'a:function:decrypt_config@0x1200-0x1400', hops: 2 });
  // The inspector lists the centre's linked nodes as buttons: Enter inspects one, then its
  // "Centre the graph here" centres on it.
  await page.focus('#graph-inspector [data-inspect="a:address:0x1214"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.centre === 'a:address:0x1214');
  assert.match(await page.textContent('#graph-inspector h2'), /Anchor: address 0x401214/);
  await page.keyboard.press('Enter');
  await drawnAround('a:address:0x1214', 2);
  assert.ok(await page.evaluate(() => document.querySelector('#graph-inspector').contains(document.activeElement)), 'focus stays in the inspector');
  await page.screenshot({ path: join(ARTIFACTS, 'graph-local.png') });
  assert.deepEqual(errors, []);
});

test('a newer centre cancels the layout of an older one: only the newest is drawn', async () => {
  const renders = Number(await page.getAttribute('#graph', 'data-renders'));
  // All in one task, so no layout can answer before the next is asked for: the first ends a
  // worker that is laying out, the second one that is still loading its scripts.
  await page.evaluate(() => {
    const form = document.querySelector('#graph-centre-form');
    for (const centre of ['#crypto', '#12', 'check_license']) {
      document.querySelector('#graph-centre').value = centre;
      form.requestSubmit();
    }
  });
  await drawnAround('a:function:check_license@0x1800-0x1900', Number(await page.inputValue('#graph-hops')));
  await page.waitForTimeout(500); // time for a stray render of the first, if it were not cancelled
  assert.equal(Number(await page.getAttribute('#graph', 'data-renders')), renders + 1);
  assert.equal((await drawn()).centre, 'a:function:check_license@0x1800-0x1900');
  assert.deepEqual(errors, []);
});

test('measured in the page: local graphs around a busy function of 10,000 memories', async () => {
  const key = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0]).subject.key;
  const { text, busiest } = binaryExport(key, 10_000);
  const { memories } = parseExport(text);
  const index = new GraphIndex(memories);
  const centre = findCentre(index, busiest).centre;
  const fresh = await openPage(session);
  try {
    const p = fresh.page;
    await p.setInputFiles('#open-file', { name: 'sample.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(text) });
    await p.waitForSelector('#kb-status[data-timings]');
    await p.evaluate(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask' });
      // Frames: a gap between two is the longest the page could not paint, long tasks or not.
      window.frames = [];
      const tick = (t) => {
        window.frames.push(t);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    /** Runs `act(arg)` in the page (it returns when it started) and records the graph it leads to. */
    const measure = async (name, act, arg, wantCentre, hops) => {
      const started = await p.evaluate(act, arg);
      const shown = await drawnAround(wantCentre, hops, p);
      const seen = await p.evaluate(([from, to]) => {
        const tasks = window.longTasks.filter((t) => t.start + t.duration >= from && t.start <= to);
        const frames = window.frames.filter((t) => t >= from && t <= to + 50);
        const gaps = frames.slice(1).map((t, i) => t - frames[i]);
        return { tasks: tasks.map((t) => t.duration), gap: gaps.length ? Math.max(...gaps) : null };
      }, [started, shown.at]);
      figures[name] = {
        centre: shown.centre, hops: shown.hops, nodes_drawn: shown.nodes, edges_drawn: shown.edges, nodes_within_reach: shown.total,
        ms: round(shown.at - started), index_ms: round(shown.indexMs), worker_layout_ms: round(shown.workerMs), main_thread_render_ms: round(shown.renderMs),
        long_tasks_ms: seen.tasks.map(round), longest_task_ms: seen.tasks.length ? round(Math.max(...seen.tasks)) : 0,
        longest_frame_gap_ms: seen.gap === null ? null : round(seen.gap),
      };
      assert.equal(shown.nodes, Math.min(MAX_LOCAL_NODES, localGraph(index, shown.centre, { hops }).total));
      return shown;
    };
    const newest = `m:${memories.filter((m) => m.status === 'active').sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)[0].id}`;
    // The first show indexes the knowledge base's graph.
    await measure('graph_10000_first_show', () => {
      const t = performance.now();
      document.querySelector('[data-view=graph]').click();
      return t;
    }, null, newest, 1);
    await measure('graph_10000_busy_function_1_hop', (name) => {
      const t = performance.now();
      document.querySelector('#graph-centre').value = name;
      document.querySelector('#graph-centre-form').requestSubmit();
      return t;
    }, busiest, centre, 1);
    await measure('graph_10000_busy_function_2_hops', () => {
      const t = performance.now();
      document.querySelector('#graph-hops').value = '2';
      document.querySelector('#graph-hops').dispatchEvent(new Event('change'));
      return t;
    }, null, centre, 2);
    assert.deepEqual(figures.graph_10000_busy_function_1_hop.centre, centre);
    await p.screenshot({ path: join(ARTIFACTS, 'graph-10000.png') });
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.page.close();
  }
});

const round = (x) => Math.round(x * 10) / 10;
