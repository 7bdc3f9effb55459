// The policy component in JavaScript (transpiled by jco) against the real host: for every golden
// vector, the page's answer equals the one the `kenning` program gives with the component in
// wasmtime and with the policy built natively (`--native-policy`). Scan and validate answers are
// compared as the bytes `kenning` prints; selections as values (every f32 and every byte of the
// snapshot equal), since Rust and JavaScript print the same float differently ("1.0", "1").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostStore, FIXTURE, EXAMPLE } from './support/kenning.mjs';
import { syntheticExport } from './support/synthetic-export.mjs';
import { SCAN_ITEMS, VALIDATE_CALLS, FIXTURE_TURNS } from './vectors/golden.mjs';
import { loadPolicy } from '../src/policy/component.js';
import { hostScanResult, hostValidation, packCandidates, witContext } from '../src/policy/wit.js';
import { parseExport, asImportedByHuman } from '../src/format/export-file.js';
import { KnowledgeBase } from '../src/retrieval/candidates.js';
import { runTurn } from '../src/turn.js';

const DIST = join(process.env.KENNING_PAGE_DIST ?? join(EXAMPLE, 'dist'), 'policy/');
const BUILDS = [['wasmtime', false], ['native', true]];
let policy;
let host;

before(async () => {
  policy = await loadPolicy(new URL(`file://${DIST}kenning_policy.js`).href, readFileSync(`${DIST}kenning_policy.core.wasm`));
  host = new HostStore();
});
after(() => host?.close());

test('scan: byte for byte what `kenning scan --jsonl` prints', async () => {
  const items = SCAN_ITEMS.map(([text, target, author = 'human']) => ({ text, target, author }));
  const results = await policy.withInstance((p) => p.scan(items));
  const page = results.map((r) => JSON.stringify(hostScanResult(r)) + '\n').join('');
  const input = items.map((i) => JSON.stringify(i)).join('\n') + '\n';
  for (const [build, native] of BUILDS) {
    assert.equal(page, host.run(['scan', '--jsonl'], { input, native }), build);
  }
  assert.ok(['block', 'redact', 'hold'].every((verdict) => results.some((r) => r.verdict === verdict)));
});

test('validate: byte for byte what `kenning validate` prints', async () => {
  for (const [tool, line] of VALIDATE_CALLS) {
    const page = JSON.stringify({ line: 1, ...(await policy.withInstance((p) => hostValidation(p, tool, line))) });
    for (const [build, native] of BUILDS) {
      let out;
      try {
        out = host.run(['validate', '--schema', tool], { input: line + '\n', native });
      } catch (failed) {
        out = failed.stdout; // exit status 1 when the line is refused
      }
      assert.equal(page + '\n', out, `${tool} ${line} (${build})`);
    }
  }
});

/** Runs every turn in the page and in both host builds over one knowledge base. */
async function turnsAgree(store, kb, turns) {
  for (const turn of turns) {
    for (const [build, native] of BUILDS) {
      const { now, selection } = store.inject(turn, { native });
      const page = await runTurn(policy, kb, 'binary', turn, now);
      assert.deepEqual(page.selection, selection, `${turn.name} (${build})`);
      // The page shows `select`'s parts for every candidate instead of calling `score`: the
      // selection has one outcome per candidate, and `score` gives each the same parts.
      const parts = new Map([...selection.chosen, ...selection.rejected].map((c) => [c.id, c.score]));
      assert.equal(parts.size, page.candidates.length, `${turn.name}: one outcome per candidate`);
      const scores = await policy.withInstance((p) => p.score(witContext(turn, now, 'binary'), packCandidates(page.candidates)));
      for (const [i, c] of page.candidates.entries()) {
        const { anchor, confidence, lexical, recency, total } = scores[i];
        assert.deepEqual({ anchor, confidence, lexical, recency, total }, parts.get(c.memory.id), `${turn.name}: #${c.memory.id}`);
        assert.deepEqual(c.score, parts.get(c.memory.id), `${turn.name}: #${c.memory.id}`);
      }
    }
  }
}

test('turns over the fixture: the snapshot and every choice equal `kenning inject`', async () => {
  const kb = new KnowledgeBase(asImportedByHuman(parseExport(readFileSync(FIXTURE, 'utf8')).memories));
  await turnsAgree(host, kb, FIXTURE_TURNS);
});

test('turns over 2,000 memories, where common words exceed the query budget', async () => {
  const key = parseExport(readFileSync(FIXTURE, 'utf8')).subject.key;
  const file = join(host.dir, 'synthetic.jsonl');
  writeFileSync(file, syntheticExport(key, 1000));
  const big = new HostStore(file);
  try {
    const kb = new KnowledgeBase(asImportedByHuman(parseExport(readFileSync(file, 'utf8')).memories));
    const base = { imageBase: 0x400000, currentFunction: null, referencedStrings: [] };
    await turnsAgree(big, kb, [
      { ...base, name: 'common words only', cursor: null, query: 'config key buffer' },
      { ...base, name: 'a rarer word among common ones', cursor: 0x402000, query: 'mutex registry config #crypto' },
      { ...base, name: 'strings and a function', cursor: 0x401800, currentFunction: { name: 'parse_header', start: 0x401700, end: 0x401900 }, referencedStrings: ['str_7', 'str_12'], query: 'header' },
      { ...base, name: 'words beyond ASCII', cursor: 0x402400, query: 'CAFE uberprufung ключ 数据' },
      { ...base, name: 'a verb form and a speaker named', cursor: null, query: 'Where did Lina go to find the mutex' },
    ]);
  } finally {
    big.close();
  }
});

test('a kept instance answers as fresh ones do', async () => {
  const kb = new KnowledgeBase(asImportedByHuman(parseExport(readFileSync(FIXTURE, 'utf8')).memories));
  const turn = FIXTURE_TURNS[0];
  const packed = packCandidates((await runTurn(policy, kb, 'binary', turn, 1_795_000_000)).candidates);
  const context = witContext(turn, 1_795_000_000, 'binary');
  const limits = { localQuota: 6, globalQuota: 6, tokenBudget: 1200, maxSnapshotBytes: 8192 };
  const fresh = (await policy.instance()).select(context, packed, limits);
  const kept = await policy.withInstance((p) => p.select(context, packed, limits));
  assert.deepEqual(kept, fresh);
});
