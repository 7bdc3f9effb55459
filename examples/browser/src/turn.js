// One turn, as `kenning inject` runs it in the host: gather the candidates from the opened
// knowledge base, then one `select` call. It runs in the policy worker (src/policy/worker.js),
// and in Node for the golden-vector test. `select` reports every candidate's score parts (the
// chosen and, by the contract, "every other candidate" rejected), so no `score` call is made:
// test/golden.test.mjs checks that `score` gives the same parts.

import { gatherCandidates } from './retrieval/candidates.js';
import { hostSelection, packCandidates, witContext, witLimits } from './policy/wit.js';

/**
 * `turn`: `{imageBase, cursor, currentFunction, referencedStrings, query}` (addresses of the
 * running image; `cursor` and `currentFunction` may be null). `now`: seconds since the epoch.
 * Returns `{candidates: [{memory, lexicalScore, score}], selection, timings}`.
 */
export async function runTurn(policy, kb, subjectKind, turn, now, limits = {}) {
  const started = performance.now();
  const candidates = gatherCandidates(kb, turn);
  const gatherMs = performance.now() - started;
  const result = await selectOver(policy, candidates, subjectKind, turn, now, limits);
  result.timings.gatherMs = gatherMs;
  return result;
}

/**
 * `select` over the given candidates (`[{memory, lexicalScore}]`, ascending by id), as
 * `kenning bench` times it; the result as `runTurn`'s.
 */
export async function selectOver(policy, candidates, subjectKind, turn, now, limits = {}) {
  const started = performance.now();
  const context = witContext(turn, now, subjectKind);
  const packed = packCandidates(candidates);
  const packedAt = performance.now();
  const selection = hostSelection(await policy.withInstance((p) => p.select(context, packed, witLimits(limits))));
  const selectMs = performance.now() - packedAt;
  const parts = new Map();
  for (const c of selection.chosen) parts.set(c.id, c.score);
  for (const r of selection.rejected) parts.set(r.id, r.score);
  return {
    candidates: candidates.map((c) => ({ ...c, score: parts.get(c.memory.id) })),
    selection,
    timings: { packMs: packedAt - started, selectMs },
  };
}
