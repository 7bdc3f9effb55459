// The candidates of a turn, gathered from an opened export exactly as the host gathers them from
// its store (host/src/service/turn.rs `gather_candidates`):
//   1. the newest 200 usable memories with an anchor that can match the cursor, the current
//      function (by start or by name) or a referenced string;
//   2. for a query, the best 50 full-text matches (BM25 over the rarest words within a budget of
//      150 matches, the later rounds of rounds.js, then each hit lends 0.3 of its score to up to
//      2 thread neighbours on each side within 16 ids), their score becoming the candidate's
//      lexical score;
//   3. the newest 64 usable global memories.
// Usable: active and NATIVE or FOREIGN. Candidates go to the policy in ascending id order.

import { FtsIndex } from './fts.js';
import { isBlank, queryTerms, splitTagTokens } from './query.js';
import { roundsPool } from './rounds.js';

const ANCHORED_CANDIDATES = 200;
const LEXICAL_CANDIDATES = 50;
const GLOBAL_CANDIDATES = 64;
const TURN_POSTING_BUDGET = 150;
const MAX_REFERENCED_STRINGS = 256;
/** Lexical hits gathered before smoothing (search.rs MIN_POOL; a turn's 50 stay below it). */
const MIN_POOL = 200;
const POOL_PER_RESULT = 4;
const MAX_POOL = 2000;
/** Context smoothing (store/search/context.rs). */
const SMOOTHING_WINDOW = 2;
const SMOOTHING_WEIGHT = 0.3;
const SMOOTHING_SPAN = 16;

const isUsable = (m) => m.status === 'active' && (m.badge === 'native' || m.badge === 'foreign');

/** Memories by id, with the full-text index the host would have over them. */
export class KnowledgeBase {
  /** @param {Array} memories as `parseExport` returns them */
  constructor(memories) {
    this.memories = new Map(memories.map((m) => [m.id, m]));
    this.fullText = null;
  }

  /** The full-text index, built on first use: opening and listing a file need none. */
  get index() {
    if (this.fullText === null) {
      this.fullText = new FtsIndex();
      for (const m of this.memories.values()) this.fullText.add(m.id, [m.text, m.tags.join(' ')]);
    }
    return this.fullText;
  }

  /** Ids of memories with an anchor that can match this place: the newest usable first. */
  anchoredIds(offset, functionStart, functionName, strings) {
    const ids = new Set();
    const wanted = new Set(strings.slice(0, MAX_REFERENCED_STRINGS));
    for (const m of this.memories.values()) {
      for (const a of m.anchors) {
        const matches =
          (offset !== null &&
            ((a.kind === 'address' && a.offset === offset) ||
              ((a.kind === 'function' || a.kind === 'range') && a.end !== null && a.start <= offset && offset < a.end) ||
              (a.kind === 'near' && Math.abs(a.offset - offset) <= a.radius))) ||
          (a.kind === 'function' && functionStart !== null && a.start === functionStart) ||
          (a.kind === 'function' && functionName !== null && a.name === functionName) ||
          (a.kind === 'string' && wanted.has(a.value));
        if (matches) ids.add(m.id);
      }
    }
    return [...ids]
      .sort((a, b) => b - a)
      .filter((id) => isUsable(this.memories.get(id)))
      .slice(0, ANCHORED_CANDIDATES);
  }

  /** `(memory, lexical score)` for a turn's query: `kb.search` with the turn's filter. */
  search(query, limit) {
    const { words, tags } = splitTagTokens(query);
    const passes = (m) => isUsable(m) && tags.every((tag) => m.tags.some((t) => asciiLower(t) === asciiLower(tag)));
    const terms = queryTerms(words);
    if (terms.length === 0) {
      return this.newest(passes, limit).map((m) => [m, 0]);
    }
    const plan = this.plan(terms, TURN_POSTING_BUDGET);
    if (plan === null) return [];
    return this.ranked(terms, plan, passes, limit);
  }

  /** The memories passing `passes`, newest first (updated, then id). */
  newest(passes, limit) {
    return [...this.memories.values()]
      .filter(passes)
      .sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)
      .slice(0, limit);
  }

  /** store/search/plan.rs: which words to search so that at most `budget` matches are scored. */
  plan(terms, budget) {
    const counted = [];
    terms.forEach((term, position) => {
      const matches = Math.min(this.index.matching(this.index.phrase(term)).length, budget + 1);
      if (matches > 0) counted.push([matches, position]);
    });
    counted.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (counted.length === 0) return null;
    if (counted[0][0] > budget) return this.newestWindow(terms, counted, budget);
    let total = 0;
    const kept = [];
    for (const [matches, position] of counted) {
      if (total + matches > budget) break;
      total += matches;
      kept.push(position);
    }
    kept.sort((a, b) => a - b);
    return { words: kept.map((p) => terms[p]), minId: null };
  }

  /** Every word is too common: the one whose newest `budget` + 1 matches reach furthest back. */
  newestWindow(terms, counted, budget) {
    let best = null;
    for (const [, position] of counted) {
      const ids = this.index.matching(this.index.phrase(terms[position]));
      const reach = ids[Math.max(0, ids.length - (budget + 1))];
      if (best === null || reach < best.reach) best = { reach, position };
    }
    return { words: [terms[best.position]], minId: best.reach };
  }

  /** The best `n` memories passing `passes` holding a word of `plan`, by BM25, ties by id. */
  best(plan, passes, n) {
    const phrases = plan.words.map((w) => this.index.phrase(w));
    const matchCounts = phrases.map((p) => this.index.matching(p).length);
    const matched = new Set(phrases.flatMap((p) => this.index.matching(p)));
    return [...matched]
      .filter((id) => (plan.minId === null || id >= plan.minId) && passes(this.memories.get(id)))
      .map((id) => ({ id, thread: this.memories.get(id).thread, score: this.index.bm25(phrases, id, matchCounts) }))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, n);
  }

  /** The rounds' view of this knowledge base (rounds.js), for one search. */
  lexicon(plan, passes, budget) {
    return {
      first: (n) => this.best(plan, passes, n),
      bestOf: (words, n) => {
        const planned = this.plan(words, budget);
        return planned === null ? [] : this.best(planned, passes, n);
      },
      text: (id) => this.memories.get(id).text,
    };
  }

  /** store/ranking `exact_page` for a turn: the pool after every round, smoothed, best first. */
  ranked(terms, plan, passes, limit) {
    const pool = Math.min(Math.max(limit * POOL_PER_RESULT, MIN_POOL), MAX_POOL);
    const hits = roundsPool(this.lexicon(plan, passes, TURN_POSTING_BUDGET), terms, pool);
    return this.smooth(hits, passes)
      .slice(0, limit)
      .map(([id, score]) => [this.memories.get(id), Math.fround(score)]);
  }

  /** store/search/context.rs `smooth`. */
  smooth(hits, passes) {
    const scores = new Map(hits.map((h) => [h.id, h.score]));
    const members = new Map();
    for (const m of this.memories.values()) {
      if (m.thread === null || !passes(m)) continue;
      if (!hits.some((h) => h.thread !== null && Math.abs(h.id - m.id) <= SMOOTHING_SPAN)) continue;
      if (!members.has(m.thread)) members.set(m.thread, []);
      members.get(m.thread).push(m.id);
    }
    for (const ids of members.values()) ids.sort((a, b) => a - b);
    for (const hit of hits) {
      const thread = hit.thread === null ? undefined : members.get(hit.thread);
      const position = thread ? thread.indexOf(hit.id) : -1;
      if (position < 0) continue;
      const before = thread.slice(Math.max(0, position - SMOOTHING_WINDOW), position).reverse();
      const after = thread.slice(position + 1, position + 1 + SMOOTHING_WINDOW);
      for (const neighbour of [...before, ...after]) {
        if (Math.abs(neighbour - hit.id) <= SMOOTHING_SPAN) {
          scores.set(neighbour, (scores.get(neighbour) ?? 0) + SMOOTHING_WEIGHT * hit.score);
        }
      }
    }
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
}

const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The candidates for a turn: `turn` holds `imageBase`, `cursor` and `currentFunction`
 * (`{start, end, name}`) as addresses of the running image, `referencedStrings` and `query`.
 * Returns the memories, ascending by id, each with its lexical score.
 */
export function gatherCandidates(kb, turn) {
  const toOffset = (address) => Math.max(0, address - turn.imageBase);
  const fn = turn.currentFunction;
  const candidates = new Map();
  const ids = kb.anchoredIds(
    turn.cursor === null ? null : toOffset(turn.cursor),
    fn ? toOffset(fn.start) : null,
    fn ? fn.name : null,
    turn.referencedStrings,
  );
  for (const id of ids) candidates.set(id, { memory: kb.memories.get(id), lexicalScore: 0 });
  if (!isBlank(turn.query)) {
    for (const [memory, score] of kb.search(turn.query, LEXICAL_CANDIDATES)) {
      const entry = candidates.get(memory.id) ?? { memory, lexicalScore: 0 };
      entry.lexicalScore = score;
      candidates.set(memory.id, entry);
    }
  }
  for (const memory of kb.newest((m) => isUsable(m) && m.scope === 'global', GLOBAL_CANDIDATES)) {
    if (!candidates.has(memory.id)) candidates.set(memory.id, { memory, lexicalScore: 0 });
  }
  return [...candidates.values()].sort((a, b) => a.memory.id - b.memory.id);
}
