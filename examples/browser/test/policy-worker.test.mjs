// The policy in its Web Worker (src/policy/worker.js, src/policy/client.js), in headless Chromium:
// its scans and turns equal the real `kenning` program's, a text over `remember`'s limit is
// scanned cut and the page says so, a dead worker is replaced, a policy that cannot load is
// named in the error banner, and the page opened as a file says it must be served over HTTP.
// It also measures the worker (printed, and written to test-artifacts/figures-policy-worker.json):
// a turn over 1,000 candidates against the same `select` in wasmtime (`kenning bench`), and the
// longest main-thread task while 5 MB of text goes into the scan box. Timings are recorded, never
// asserted: these machines are shared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HostStore, FIXTURE, EXAMPLE } from './support/kenning.mjs';
import { startBrowser, openPage, ARTIFACTS } from './support/browser.mjs';
import { syntheticExport } from './support/synthetic-export.mjs';
import { FIXTURE_TURNS, SCAN_ITEMS } from './vectors/golden.mjs';
import { MAX_TEXT_BYTES, limitText } from '../src/policy/limits.js';

let session;
let host;
let page;
const figures = {};
const round = (x) => Math.round(x * 1000) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

before(async () => {
  session = await startBrowser();
  host = new HostStore();
  ({ page } = await openPage(session));
});
after(async () => {
  if (Object.keys(figures).length > 0) {
    writeFileSync(join(ARTIFACTS, 'figures-policy-worker.json'), JSON.stringify(figures, null, 2) + '\n');
    console.log('figures:', JSON.stringify(figures));
  }
  await session?.close();
  host?.close();
});

/** `kenning scan --jsonl` over `[text, target, author?]` items (a human's unless named): its output lines. */
const hostScan = (items) =>
  host.run(['scan', '--jsonl'], { input: items.map(([text, target, author = 'human']) => JSON.stringify({ text, target, author })).join('\n') + '\n' })
    .trim().split('\n');

/** In the page: a fresh policy worker, kept as `window.testPolicy`. */
const startWorker = () => page.evaluate(async () => {
  const { startPolicyWorker } = await import('/src/policy/client.js');
  window.testPolicy = startPolicyWorker(new URL('/policy/kenning_policy.js', location.href));
  return window.testPolicy.describe();
});

/**
 * In the page's test worker: opens the export `text` as the page opens a file (its memories as a
 * human's import holds them, as in the host's store they are compared with) and runs `turns`
 * (each `{turn, now}`).
 */
const workerTurns = (text, turns) => page.evaluate(async ([text, turns]) => {
  const { parseExport, asImportedByHuman } = await import('/src/format/export-file.js');
  await window.testPolicy.open(asImportedByHuman(parseExport(text).memories), { subjectKind: 'binary' });
  const answers = [];
  for (const { turn, now } of turns) answers.push(await window.testPolicy.turn({ turn, now, limits: {} }));
  return answers;
}, [text, turns]);

test('the limit the page holds texts to is the contract\'s, as `kenning stats` reports it', () => {
  const stats = JSON.parse(host.run(['stats', '--subject', host.subject, '--json']));
  assert.equal(MAX_TEXT_BYTES, stats.limits.max_text_bytes);
  // The cut ends on a character boundary: never half of a 4-byte character.
  const text = 'a'.repeat(MAX_TEXT_BYTES - 1) + '🙂 and more';
  const cut = limitText(text);
  assert.deepEqual({ ...cut, text: cut.text.length }, { text: MAX_TEXT_BYTES - 1, bytes: Buffer.byteLength(text), scannedBytes: MAX_TEXT_BYTES - 1, cut: true });
  assert.deepEqual(limitText('é'.repeat(MAX_TEXT_BYTES / 2)), { text: 'é'.repeat(MAX_TEXT_BYTES / 2), bytes: MAX_TEXT_BYTES, scannedBytes: MAX_TEXT_BYTES, cut: false });
  const over = limitText('é'.repeat(MAX_TEXT_BYTES / 2) + 'x');
  assert.equal(over.text, 'é'.repeat(MAX_TEXT_BYTES / 2));
  assert.equal(over.bytes, MAX_TEXT_BYTES + 1);
});

test('the worker\'s scans are byte for byte what `kenning scan --jsonl` prints', async () => {
  const info = await startWorker();
  assert.equal(info.name, 'kenning-default');
  const lines = await page.evaluate(async (items) => {
    const answers = await Promise.all(items.map(([text, target, author]) => window.testPolicy.scan(target, text, author)));
    return answers.map((a) => JSON.stringify(a));
  }, SCAN_ITEMS);
  assert.deepEqual(lines, hostScan(SCAN_ITEMS));
});

test('the worker\'s turns over the fixture equal `kenning inject`, every candidate with its parts', async () => {
  const turns = FIXTURE_TURNS.map((turn) => ({ turn, ...host.inject(turn) }));
  const answers = await workerTurns(readFileSync(FIXTURE, 'utf8'), turns.map(({ turn, now }) => ({ turn, now })));
  for (const [i, { turn, selection }] of turns.entries()) {
    assert.deepEqual(answers[i].selection, selection, turn.name);
    const parts = new Map([...selection.chosen, ...selection.rejected].map((c) => [c.id, c.score]));
    assert.deepEqual(answers[i].candidates.map((c) => [c.memory.id, c.score]), [...parts].sort((a, b) => a[0] - b[0]), turn.name);
  }
});

test('the worker\'s turns over 2,000 memories equal `kenning inject`, after the knowledge base is replaced', async () => {
  const key = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0]).subject.key;
  const text = syntheticExport(key, 1000);
  const file = join(host.dir, 'synthetic.jsonl');
  writeFileSync(file, text);
  const big = new HostStore(file);
  try {
    const base = { imageBase: 0x400000, currentFunction: null, referencedStrings: [] };
    const turns = [
      { ...base, name: 'common words only', cursor: null, query: 'config key buffer' },
      { ...base, name: 'strings and a function', cursor: 0x401800, currentFunction: { name: 'parse_header', start: 0x401700, end: 0x401900 }, referencedStrings: ['str_7', 'str_12'], query: 'header' },
      { ...base, name: 'words beyond ASCII', cursor: 0x402400, query: 'CAFE uberprufung ключ 数据' },
    ].map((turn) => ({ turn, ...big.inject(turn) }));
    const answers = await workerTurns(text, turns.map(({ turn, now }) => ({ turn, now })));
    for (const [i, { turn, selection }] of turns.entries()) assert.deepEqual(answers[i].selection, selection, turn.name);
  } finally {
    big.close();
  }
});

test('a dead worker rejects its pending calls with a clear error, and the next call starts a fresh one', async () => {
  const { turn } = { turn: FIXTURE_TURNS[0] };
  const [before] = await workerTurns(readFileSync(FIXTURE, 'utf8'), [{ turn, now: 1_795_000_000 }]);
  const outcome = await page.evaluate(async (turn) => {
    const policy = window.testPolicy;
    const first = policy.worker;
    const pending = policy.turn({ turn, now: 1_795_000_000, limits: {} }).then(() => 'answered', (e) => e.message);
    // What the browser reports when a worker dies of an uncaught error.
    first.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught RangeError: out of memory' }));
    const rejected = await pending;
    const again = await policy.turn({ turn, now: 1_795_000_000, limits: {} });
    return { rejected, fresh: policy.worker !== first, again };
  }, turn);
  assert.match(outcome.rejected, /^the policy worker \(.*worker\.js\): it stopped: Uncaught RangeError: out of memory$/);
  assert.ok(outcome.fresh);
  // The fresh worker was given the opened knowledge base again.
  assert.deepEqual(outcome.again.selection, before.selection);
  assert.ok(before.selection.chosen.length > 0);
});

test('a policy that cannot load is named in the error banner', async () => {
  const fresh = await session.context.newPage();
  await fresh.route('**/policy/kenning_policy.core.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await fresh.goto(session.url);
  await fresh.waitForSelector('#error:not([hidden])');
  assert.match(await fresh.textContent('#error'),
    /^The policy component could not be loaded: the policy's core module \(http:\/\/127\.0\.0\.1:\d+\/policy\/kenning_policy\.core\.wasm\) could not be fetched: HTTP 404$/);
  // A worker script that is not there.
  const missing = await fresh.evaluate(async () => {
    const { startPolicyWorker } = await import('/src/policy/client.js');
    const policy = startPolicyWorker(new URL('/policy/kenning_policy.js', location.href), { workerUrl: new URL('/src/policy/no-such-worker.js', location.href) });
    return policy.describe().then(() => 'loaded', (e) => e.message);
  });
  assert.match(missing, /^the policy worker \(http:.*no-such-worker\.js\): it could not start, or stopped$/);
  await fresh.close();
});

test('the page opened as a file says at once that it must be served over HTTP', async () => {
  const fresh = await session.context.newPage();
  const dist = resolve(process.env.KENNING_PAGE_DIST ?? join(EXAMPLE, 'dist'));
  await fresh.goto(`file://${dist}/index.html`);
  await fresh.waitForSelector('#error:not([hidden])', { timeout: 5_000 });
  const message = await fresh.textContent('#error');
  assert.match(message, /must be served over HTTP/);
  assert.match(message, /npm run serve/);
  assert.match(message, /kenning serve/);
  assert.doesNotMatch(await fresh.textContent('#policy-status'), /Loading/);
  await fresh.close();
});

test('a text over the limit is put in the box cut, scanned, and the box says so', async () => {
  const secret = 'key AKIA4HJ2K7LMNPQ5RSTU ';
  const text = secret + 'a'.repeat(MAX_TEXT_BYTES - secret.length - 1) + '🙂' + ' ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
  const scanned = text.slice(0, MAX_TEXT_BYTES - 1); // the emoji would end past the limit
  const [want] = hostScan([[scanned, 'memory']]).map((l) => JSON.parse(l));
  await page.click('[data-view=scan]');
  await page.evaluate(() => { document.querySelector('#view-scan').dataset.scanned = ''; });
  await page.selectOption('#scan-target', 'memory');
  await page.fill('#scan-text', text);
  await page.waitForFunction(() => document.querySelector('#view-scan').dataset.scanned !== '');
  assert.equal(await page.textContent('#scan-limit'),
    `${Buffer.byteLength(text)} bytes: remember refuses text over ${MAX_TEXT_BYTES} bytes; the first ${MAX_TEXT_BYTES - 1} bytes of it were put in the box and scanned.`);
  assert.equal(await page.isVisible('#scan-limit'), true);
  assert.equal(await page.inputValue('#scan-text'), scanned, 'the box holds only what remember would take');
  assert.equal(await page.textContent('#scan-verdict'), want.verdict);
  assert.equal(await page.textContent('#scan-result'), want.text);
  assert.equal(await page.$$eval('#scan-findings li', (li) => li.length), want.findings.length);
  assert.equal(want.verdict, 'redact');
  // Back under the limit, the note goes.
  await page.evaluate(() => { document.querySelector('#view-scan').dataset.scanned = ''; });
  await page.fill('#scan-text', secret);
  await page.waitForFunction(() => document.querySelector('#view-scan').dataset.scanned !== '');
  assert.equal(await page.isVisible('#scan-limit'), false);
});

test('measured: a turn over 1,000 candidates in the worker against wasmtime, and the main thread while 5 MB is scanned', async () => {
  // (a) `select` over `kenning bench`'s workload: staged in the worker once, then each call's
  // inputs posted, packed and selected there, answered; timed from the main thread, alternating
  // with the same call on the main thread.
  await startWorker();
  const workload = readFileSync(new URL('./support/workload.mjs', import.meta.url), 'utf8');
  const a = await page.evaluate(async (source) => {
    const { workload } = await import(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const { loadPolicy } = await import('/src/policy/component.js');
    const { selectOver } = await import('/src/turn.js');
    const { turn, now, candidates } = workload(1000);
    const policy = window.testPolicy;
    const inThread = await loadPolicy(new URL('/policy/kenning_policy.js', location.href).href);
    // The candidates are given to the worker once, as an opened knowledge base is: a page's
    // turn never sends candidates, only the turn's inputs (the worker gathers them itself).
    await policy.stage(candidates);
    const inputs = { turn, now, limits: {} };
    const worker = await policy.select(inputs);
    const posted = await policy.select({ ...inputs, candidates });
    const main = await selectOver(inThread, candidates, 'binary', turn, now);
    for (let i = 0; i < 150; i++) { await policy.select(inputs); await selectOver(inThread, candidates, 'binary', turn, now); } // tier-up
    const clock = () => performance.timeOrigin + performance.now();
    const roundTrip = [], pack = [], select = [], mainThread = [], post = [], toWorker = [], inWorker = [], back = [];
    // Blocks of ten, alternating: one path's garbage is not collected in the other's time.
    for (let block = 0; block < 8; block++) {
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        const sentAt = clock();
        const answer = policy.select(inputs);
        post.push(performance.now() - t);
        const { timings } = await answer;
        roundTrip.push(performance.now() - t);
        toWorker.push(timings.receivedAt - sentAt);
        inWorker.push(timings.answeredAt - timings.receivedAt);
        back.push(clock() - timings.answeredAt);
        pack.push(timings.packMs);
        select.push(timings.selectMs);
      }
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await selectOver(inThread, candidates, 'binary', turn, now);
        mainThread.push(performance.now() - t);
      }
    }
    const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
    return {
      same: JSON.stringify(worker.selection) === JSON.stringify(main.selection) && JSON.stringify(posted.selection) === JSON.stringify(main.selection),
      chosen: worker.selection.chosen.length,
      outcomes: new Set([...worker.selection.chosen, ...worker.selection.rejected].map((c) => c.id)).size,
      roundTrip: median(roundTrip), post: median(post), toWorker: median(toWorker), inWorker: median(inWorker), back: median(back), pack: median(pack), select: median(select), mainThread: median(mainThread),
    };
  }, workload);
  assert.ok(a.same, 'the worker selects as the main thread does');
  assert.equal(a.chosen, 12);
  assert.equal(a.outcomes, 1000);
  const bench = JSON.parse(host.run(['bench', '--json', '--candidates', '1000', '--memories', '1000', '--turns', '10', '--iterations', '50']).trim().split('\n').pop());
  const wasmtimeMs = bench.policy_call_us / 1000;
  Object.assign(figures, {
    turn_1000_candidates_worker_round_trip_median_ms: round(a.roundTrip),
    turn_1000_candidates_worker_parts_median_ms: {
      post_on_main_thread: round(a.post), // serialising the request
      request_to_worker: round(a.toWorker), // from the call to the worker's handler (both copies)
      in_worker: round(a.inWorker), // of which pack and select:
      pack_in_worker: round(a.pack),
      select_in_worker: round(a.select),
      answer_to_page: round(a.back), // from the worker's answer to the page's promise
    },
    turn_1000_candidates_main_thread_median_ms: round(a.mainThread),
    select_1000_wasmtime_median_ms: round(wasmtimeMs),
    worker_over_wasmtime: round(a.roundTrip / wasmtimeMs),
    main_thread_over_wasmtime: round(a.mainThread / wasmtimeMs),
    worker_select_only_over_wasmtime: round((a.pack + a.select) / wasmtimeMs),
  });

  // A real turn over 2,000 memories, gathered in the worker: how long each part takes.
  const key = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0]).subject.key;
  const [, ...turns] = await workerTurns(syntheticExport(key, 1000), Array.from({ length: 21 }, () => ({
    turn: { imageBase: 0x400000, cursor: 0x401800, currentFunction: { name: 'parse_header', start: 0x401700, end: 0x401900 }, referencedStrings: ['str_7'], query: 'header config' },
    now: 1_795_000_000,
  })));
  figures.turn_2000_memories_worker_median_ms = Object.fromEntries(['gatherMs', 'packMs', 'selectMs'].map((k) => [k, round(median(turns.map((t) => t.timings[k])))]));
  figures.turn_2000_memories_candidates = turns[0].candidates.length;

  // (b) The page's main thread while 5 MB of text is put in the scan box and scanned, then typed in.
  const fresh = await openPage(session);
  const p = fresh.page;
  await p.click('[data-view=scan]');
  await p.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    document.querySelector('#view-scan').dataset.scanned = '';
  });
  const line = 'sub_401000 walks the import table; key AKIA4HJ2K7LMNPQ5RSTU in .data. ';
  const big = line.repeat(Math.ceil(5_000_000 / line.length)).slice(0, 5_000_000);
  let started = Date.now();
  await p.fill('#scan-text', big);
  await p.waitForFunction(() => document.querySelector('#view-scan').dataset.scanned !== '', null, { timeout: 60_000 });
  const putMs = Date.now() - started;
  assert.match(await p.textContent('#scan-limit'), new RegExp(`^5000000 bytes: remember refuses text over ${MAX_TEXT_BYTES} bytes`));
  assert.equal(await p.textContent('#scan-verdict'), 'redact');
  await p.waitForTimeout(200); // let the observer report the last tasks
  const whilePut = await p.evaluate(() => window.longTasks.splice(0));
  // Keystrokes at the end of the 5 MB text, each scanned after the pause.
  await p.focus('#scan-text');
  await p.keyboard.press('Control+End');
  started = Date.now();
  for (const key of 'xyz') {
    await p.evaluate(() => { document.querySelector('#view-scan').dataset.scanned = ''; });
    await p.keyboard.type(key);
    await p.waitForFunction(() => document.querySelector('#view-scan').dataset.scanned !== '', null, { timeout: 60_000 });
  }
  const typedMs = Date.now() - started;
  await p.waitForTimeout(200);
  const whileTyped = await p.evaluate(() => window.longTasks.splice(0));
  const prepare = await p.evaluate(async () => {
    const { limitText } = await import('/src/policy/limits.js');
    const text = document.querySelector('#scan-text').value;
    const times = [];
    for (let i = 0; i < 5; i++) { const t = performance.now(); limitText(text); times.push(performance.now() - t); }
    return times.sort((x, y) => x - y)[2];
  });
  assert.deepEqual(fresh.errors, []);
  await fresh.page.close();
  // The same in a bare textarea, in a page with no script: what the browser's own editing costs.
  const bare = await (async () => {
    const p = await session.context.newPage();
    await p.setContent('<textarea rows="8" cols="80" spellcheck="false"></textarea>');
    await p.evaluate(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    await p.fill('textarea', big);
    await p.waitForTimeout(500);
    const put = await p.evaluate(() => window.longTasks.splice(0));
    await p.focus('textarea');
    await p.keyboard.press('Control+End');
    for (const key of 'xyz') { await p.keyboard.type(key); await p.waitForTimeout(200); }
    await p.waitForTimeout(200);
    const typed = await p.evaluate(() => window.longTasks.splice(0));
    await p.close();
    return { put, typed };
  })();
  const longest = (tasks) => (tasks.length === 0 ? 'none over 50 ms' : round(Math.max(...tasks)));
  Object.assign(figures, {
    scan_5mb_put_in_longest_main_thread_task_ms: longest(whilePut),
    scan_5mb_put_in_long_tasks_ms: whilePut.map(round),
    scan_5mb_put_in_to_answer_ms: putMs,
    scan_5mb_3_keystrokes_longest_main_thread_task_ms: longest(whileTyped),
    scan_5mb_3_keystrokes_long_tasks_ms: whileTyped.map(round),
    scan_5mb_3_keystrokes_to_answers_ms: typedMs,
    scan_5mb_read_and_cut_median_ms: round(prepare),
    bare_textarea_5mb_put_in_long_tasks_ms: bare.put.map(round),
    bare_textarea_5mb_3_keystrokes_long_tasks_ms: bare.typed.map(round),
  });
});
