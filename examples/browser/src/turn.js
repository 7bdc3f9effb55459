// One turn in the page, as `kenning inject` runs it in the host: gather the candidates from the
// opened knowledge base, then one `select` call on a fresh instance of the policy. `score` runs
// on its own fresh instance too, so the panel can show every candidate's parts.

import { gatherCandidates } from './retrieval/candidates.js';
import { hostSelection, packCandidates, witContext, witLimits } from './policy/wit.js';

/**
 * `turn`: `{imageBase, cursor, currentFunction, referencedStrings, query}` (addresses of the
 * running image; `cursor` and `currentFunction` may be null). `now`: seconds since the epoch.
 */
export async function runTurn(policy, kb, subjectKind, turn, now, limits = {}) {
  const candidates = gatherCandidates(kb, turn);
  const context = witContext(turn, now, subjectKind);
  const packed = packCandidates(candidates);
  const started = performance.now();
  const selection = await policy.withInstance((p) => p.select(context, packed, witLimits(limits)));
  const selectMs = performance.now() - started;
  const scores = await policy.withInstance((p) => p.score(context, packed));
  return {
    candidates: candidates.map((c, i) => ({ ...c, score: scores[i] })),
    selection: hostSelection(selection),
    selectMs,
  };
}
