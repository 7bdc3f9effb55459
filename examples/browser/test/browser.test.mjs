// The page in headless Chromium: it opens the fixture export, lists and filters it as the host
// lists, draws the host's graph, runs turns whose snapshot and choices equal `kenning inject`'s
// for the same inputs, scans as the host scans, keeps the knowledge base across a reload, and
// refuses bad files with one clear error. It also measures the page (printed, and written to
// test-artifacts/figures.json). Screenshots of each view go to test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostStore, FIXTURE } from './support/kenning.mjs';
import { startBrowser, openPage, ARTIFACTS } from './support/browser.mjs';
import { syntheticExport } from './support/synthetic-export.mjs';
import { FIXTURE_TURNS, SCAN_ITEMS } from './vectors/golden.mjs';
import { MAX_FILE_BYTES, parseExport } from '../src/format/export-file.js';
import { buildGraph } from '../src/graph.js';

let session;
let host;
let page;
const figures = {};

before(async () => {
  session = await startBrowser();
  host = new HostStore();
  ({ page } = await openPage(session));
  await page.setInputFiles('#open-file', FIXTURE);
  await page.waitForSelector('#list-global li');
});
after(async () => {
  writeFileSync(join(ARTIFACTS, 'figures.json'), JSON.stringify(figures, null, 2) + '\n');
  console.log('figures:', JSON.stringify(figures));
  await session?.close();
  host?.close();
});

const ids = (selector) => page.$$eval(`${selector} li`, (items) => items.map((li) => Number(li.dataset.id)));
const listed = async () => [...(await ids('#list-global')), ...(await ids('#list-local'))];
/** `kenning list --json` over the same export, as ids (global first, then local). */
const hostList = (...args) =>
  host.run(['list', '--subject', host.subject, '--json', ...args]).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).id);

async function setFilters({ text = '', category = '', scope = 'any', badges = ['native', 'foreign', 'pending', 'inbound_pending'] } = {}) {
  await page.fill('#filter-text', text);
  await page.selectOption('#filter-category', category);
  await page.selectOption('#filter-scope', scope);
  for (const b of ['native', 'foreign', 'pending', 'inbound_pending']) {
    await page.setChecked(`#filter-badges input[value="${b}"]`, badges.includes(b));
  }
}

test('the list: every memory, and the filters agree with `kenning list`', async () => {
  await setFilters();
  assert.equal(await page.textContent('#list-summary'), '14 global and 22 local of 37 memories match.');
  assert.deepEqual(await listed(), hostList('--pending'));
  await page.screenshot({ path: join(ARTIFACTS, 'list.png') });

  // The importer made NATIVE memories FOREIGN, so badges are compared as quarantined or not.
  await setFilters({ badges: ['native', 'foreign'] });
  assert.deepEqual(await listed(), hostList());
  await setFilters({ text: '#crypto', category: 'crypto', scope: 'local' });
  assert.deepEqual(await listed(), hostList('--pending', '--tag', 'crypto', '--category', 'crypto', '--scope', 'local'));
  await setFilters({ text: '#license #crypto' });
  assert.deepEqual(await listed(), hostList('--pending', '--tag', 'license', '--tag', 'crypto'));
  await setFilters({ badges: ['pending', 'inbound_pending'] });
  assert.deepEqual(new Set(await listed()), new Set([30, 31, 32, 33]));

  // Words: every memory listed holds them (stemmed as the host's index stems them).
  const fixture = readFileSync(FIXTURE, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
  await setFilters({ text: 'KCFG' });
  assert.deepEqual(await listed(), fixture.filter((m) => m.status === 'active' && /\bkcfg\b/i.test(m.text)).map((m) => m.id));
  await setFilters({ text: 'decrypted RC4' });
  const both = await listed();
  assert.ok(both.length >= 3, `${both}`);
  for (const id of both) assert.match(fixture.find((m) => m.id === id).text, /decrypt.*rc4|rc4.*decrypt/is, `#${id}`);
  await setFilters();
});

test('the graph: dots, diamonds and squares as `kenning graph` counts them', async () => {
  // The host's whole graph, as the page builds it (the view draws local graphs: test/graph.test.mjs).
  const { counts } = buildGraph(parseExport(readFileSync(FIXTURE, 'utf8')).memories);
  const expected = JSON.parse(host.run(['graph', '--subject', host.subject])).counts;
  assert.deepEqual(counts, expected);
  // The Graph tab draws the local graph around memory #12; clicking its dot shows it in the inspector.
  await page.click('[data-view=graph]');
  await page.fill('#graph-centre', '#12');
  await page.press('#graph-centre', 'Enter');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#graph').dataset.drawn ?? '{}').centre === 'm:12');
  const { x, y } = JSON.parse(await page.getAttribute('#graph', 'data-centre-at'));
  await page.evaluate(() => document.querySelector('#graph-inspector').replaceChildren());
  await page.click('#graph', { position: { x, y } });
  await page.waitForFunction(() => /Memory #12(?!\d)/.test(document.querySelector('#graph-inspector').textContent));
  await page.screenshot({ path: join(ARTIFACTS, 'graph.png') });
});

test('the turn panel: snapshot and choices equal `kenning inject` for the same inputs', async () => {
  await page.click('[data-view=turn]');
  const hex = (n) => `0x${n.toString(16)}`;
  for (const turn of FIXTURE_TURNS) {
    const { now, selection } = host.inject(turn);
    await page.fill('#turn-image-base', hex(turn.imageBase));
    await page.fill('#turn-cursor', turn.cursor === null ? '' : hex(turn.cursor));
    const f = turn.currentFunction;
    await page.fill('#turn-function', f ? `${f.name}@${hex(f.start)}-${hex(f.end)}` : '');
    await page.fill('#turn-strings', turn.referencedStrings.join(' | '));
    await page.fill('#turn-query', turn.query);
    await page.fill('#turn-now', String(now));
    await page.evaluate(() => { document.querySelector('#turn-json').textContent = ''; });
    await page.click('#turn-run');
    await page.waitForFunction(() => document.querySelector('#turn-json').textContent !== '');
    assert.deepEqual(JSON.parse(await page.textContent('#turn-json')), selection, turn.name);
    assert.equal(await page.textContent('#turn-snapshot'), selection.snapshot, turn.name);
    const rows = await page.$$eval('#turn-explanation tbody tr', (trs) => trs.length);
    assert.equal(rows, selection.chosen.length + selection.rejected.length, turn.name);
    if (turn === FIXTURE_TURNS[0]) await page.screenshot({ path: join(ARTIFACTS, 'turn.png') });
  }
  // Bad inputs are named, and the last snapshot stays.
  const snapshot = await page.textContent('#turn-snapshot');
  for (const [field, text, message] of [
    ['#turn-cursor', '0xZZ', /cursor: "0xZZ" is not an address/],
    ['#turn-function', 'main@0x2000-0x1000', /function: the end must be greater than the start/],
    ['#turn-local-quota', '99', /local quota: "99" is not a whole number from 0 to 24/],
  ]) {
    const before = await page.inputValue(field);
    await page.fill(field, text);
    await page.click('#turn-run');
    await page.waitForFunction((m) => new RegExp(m).test(document.querySelector('#turn-summary').textContent), message.source);
    assert.equal(await page.textContent('#turn-snapshot'), snapshot);
    await page.fill(field, before);
  }
});

test('the scan box: verdicts, findings and redacted text as `kenning scan` gives them', async () => {
  await page.click('[data-view=scan]');
  const items = SCAN_ITEMS.map(([text, target, author = 'human']) => ({ text, target, author }));
  const input = items.map((item) => JSON.stringify(item)).join('\n') + '\n';
  const expected = host.run(['scan', '--jsonl'], { input }).trim().split('\n').map((l) => JSON.parse(l));
  for (const [i, { text, target, author }] of items.entries()) {
    // The scan runs once typing pauses: #view-scan's data-scanned changes when an answer shows.
    await page.evaluate(() => { document.querySelector('#view-scan').dataset.scanned = ''; });
    await page.selectOption('#scan-target', target);
    await page.selectOption('#scan-author', author);
    await page.fill('#scan-text', text);
    const want = expected[i];
    await page.waitForFunction(() => document.querySelector('#view-scan').dataset.scanned !== '');
    assert.equal(await page.textContent('#scan-verdict'), want.verdict, text);
    assert.equal(await page.textContent('#scan-result'), want.text, text);
    assert.equal(await page.$$eval('#scan-findings li', (li) => li.length), want.findings.length, text);
    if (want.verdict === 'redact' && i === 1) await page.screenshot({ path: join(ARTIFACTS, 'scan.png') });
  }
});

test('a reload keeps the opened knowledge base (IndexedDB) and the open tab (the URL)', async () => {
  const tab = await page.getAttribute('#tabs [aria-selected="true"]', 'data-view');
  await page.reload();
  await page.waitForSelector('#kb-status[data-timings]');
  assert.equal(await page.getAttribute('#tabs [aria-selected="true"]', 'data-view'), tab);
  await page.click('[data-view=list]');
  await page.waitForSelector('#list-global li');
  assert.match(await page.textContent('#kb-status'), /37 memories · from crackme\.jsonl/);
  assert.deepEqual(await listed(), hostList('--pending'));
});

test('bad files: one clear error naming the line, and the open knowledge base stays', async () => {
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  const cases = [
    ['broken.jsonl', [lines[0], lines[1], '{"id": 2, "scope": ', ...lines.slice(3)].join('\n'), /broken\.jsonl: line 3: not JSON/],
    ['other.jsonl', lines[0].replace('kenning-memory/1', 'kenning-memory/9') + '\n', /other\.jsonl: line 1: the header's format is "kenning-memory\/9"/],
    ['short.jsonl', lines.slice(0, 5).join('\n'), /short\.jsonl: the header counts 37 memories but the file holds 4/],
  ];
  for (const [name, text, message] of cases) {
    await page.setInputFiles('#open-file', { name, mimeType: 'application/jsonl', buffer: Buffer.from(text) });
    await page.waitForSelector('#error:not([hidden])');
    assert.match(await page.textContent('#error'), message);
    assert.match(await page.textContent('#kb-status'), /37 memories/);
  }
  const huge = join(host.dir, 'huge.jsonl');
  writeFileSync(huge, Buffer.alloc(MAX_FILE_BYTES + 1, 0x20));
  await page.setInputFiles('#open-file', huge);
  await page.waitForFunction(() => /huge\.jsonl: the file is \d+ bytes/.test(document.querySelector('#error').textContent));
  await page.screenshot({ path: join(ARTIFACTS, 'error.png') });
});

test('measured in the page: the first render of 1,000 memories, and select over 1,000 candidates', async () => {
  const key = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0]).subject.key;
  for (const perScope of [500, 1000]) {
    const fresh = await openPage(session);
    await fresh.page.setInputFiles('#open-file', { name: 'many.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(syntheticExport(key, perScope)) });
    await fresh.page.waitForSelector('#kb-status[data-timings]');
    const timings = JSON.parse(await fresh.page.getAttribute('#kb-status', 'data-timings'));
    assert.equal(await fresh.page.$$eval('#list-global li, #list-local li', (li) => li.length), perScope * 2);
    figures[`first_render_${perScope * 2}_memories_ms`] = round(timings.firstRenderMs);
    figures[`first_render_${perScope * 2}_memories_parts_ms`] = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, round(v)]));
    if (perScope === 1000) {
      // The host's graph of the oldest 500 of the 2,000, as `kenning graph --limit 500` builds it.
      const file = join(host.dir, 'many.jsonl');
      writeFileSync(file, syntheticExport(key, perScope));
      const many = new HostStore(file);
      try {
        const graph = buildGraph(parseExport(readFileSync(file, 'utf8')).memories, { limit: 500 });
        const expected = JSON.parse(many.run(['graph', '--subject', many.subject, '--limit', '500']));
        assert.ok(expected.truncated);
        assert.equal(graph.truncated, true);
        assert.deepEqual(graph.counts, expected.counts);
      } finally {
        many.close();
      }
    }
    assert.deepEqual(fresh.errors, []);
    await fresh.page.close();
  }

  const workload = readFileSync(new URL('./support/workload.mjs', import.meta.url), 'utf8');
  const select = await page.evaluate(async (source) => {
    const { workload } = await import(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const { loadPolicy } = await import('/src/policy/component.js');
    const { packCandidates, witContext, witLimits } = await import('/src/policy/wit.js');
    const policy = await loadPolicy(new URL('/policy/kenning_policy.js', location.href).href);
    const { turn, now, candidates } = workload(1000);
    const context = witContext(turn, now, 'binary');
    const limits = witLimits();
    const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
    const time = (f) => { const t = performance.now(); f(); return performance.now() - t; };
    const kept = await policy.instance();
    const first = time(() => kept.select(context, packCandidates(candidates), limits));
    const pack = time(() => packCandidates(candidates));
    for (let i = 0; i < 150; i++) kept.select(context, packCandidates(candidates), limits); // tier-up
    const warm = [];
    for (let i = 0; i < 50; i++) warm.push(time(() => kept.select(context, packCandidates(candidates), limits)));
    const withFresh = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const instance = await policy.instance();
      instance.select(context, packCandidates(candidates), limits);
      withFresh.push(performance.now() - t);
    }
    return { first, pack, warm: median(warm), withFresh: median(withFresh), chosen: kept.select(context, packCandidates(candidates), limits).chosen.length };
  }, workload);
  assert.equal(select.chosen, 12);
  figures.select_1000_chromium_first_call_ms = round(select.first);
  figures.pack_1000_candidates_chromium_ms = round(select.pack);
  figures.select_1000_chromium_warm_median_ms = round(select.warm);
  figures.select_1000_chromium_fresh_instance_median_ms = round(select.withFresh);
  if (process.env.KENNING_BENCH === '1') {
    const bench = JSON.parse(host.run(['bench', '--json', '--memories', '1000', '--turns', '10', '--iterations', '50']).trim().split('\n').pop());
    figures.select_1000_wasmtime_median_ms = round(bench.policy_call_us / 1000);
    figures.chromium_over_wasmtime = round(select.warm / (bench.policy_call_us / 1000));
  }
});

const round = (x) => Math.round(x * 1000) / 1000;
