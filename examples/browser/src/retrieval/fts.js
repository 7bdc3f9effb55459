// A full-text index that ranks as the host's SQLite FTS5 table does:
//   CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, tokenize='porter unicode61')
// over every memory of the knowledge base, in any state (quarantined and forgotten memories are
// in the index and count in its statistics; the host filters them out after matching).
//
// Tokens follow `unicode61` with its defaults: runs of letters, numbers and private-use
// characters (categories L*, N*, Co), case-folded, diacritics removed; then the Porter stem.
// Where the page can differ: the page folds case and strips diacritics with the browser's
// current Unicode tables, SQLite with Unicode 6.1's; texts in ASCII (and most Latin text) agree.

import { porterStem } from './porter.js';

const TOKEN_RUN = /[\p{L}\p{N}\p{Co}]+/gu;
const COMBINING_MARK = /\p{M}/gu;

/** FTS5's `bm25()` constants. */
const K1 = 1.2;
const B = 0.75;

function fold(token) {
  const lower = token.toLowerCase();
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  return lower.normalize('NFD').replace(COMBINING_MARK, '').normalize('NFC');
}

/** Terms of tokens seen before: a knowledge base repeats a few thousand words. */
const termOfToken = new Map();
const MAX_CACHED_TOKENS = 100_000;

function termOf(token) {
  let term = termOfToken.get(token);
  if (term === undefined) {
    const folded = fold(token);
    term = folded === '' ? '' : porterStem(folded);
    if (termOfToken.size >= MAX_CACHED_TOKENS) termOfToken.clear();
    termOfToken.set(token, term);
  }
  return term;
}

/** The terms FTS5 indexes for `text`, in order. */
export function tokenize(text) {
  const terms = [];
  for (const match of text.matchAll(TOKEN_RUN)) {
    const term = termOf(match[0]);
    if (term !== '') terms.push(term);
  }
  return terms;
}

/**
 * The index: per document (a memory id), its columns' terms; per term, the documents holding it.
 * Documents are added once, in any order.
 */
export class FtsIndex {
  constructor() {
    /** @type {Map<number, string[][]>} id → terms of each column */
    this.documents = new Map();
    /** @type {Map<string, Set<number>>} term → ids */
    this.postings = new Map();
    this.totalTerms = 0;
  }

  /** Adds a document whose columns are `columns` (strings, in the table's column order). */
  add(id, columns) {
    const terms = columns.map(tokenize);
    this.documents.set(id, terms);
    for (const column of terms) {
      this.totalTerms += column.length;
      for (const term of column) {
        let ids = this.postings.get(term);
        if (!ids) this.postings.set(term, (ids = new Set()));
        ids.add(id);
      }
    }
  }

  /**
   * A quoted FTS5 string (`"word"`): a phrase of the word's terms, in order and adjacent in one
   * column. Returns the phrase's terms (empty when the word has no token characters).
   */
  phrase(word) {
    return tokenize(word);
  }

  /** How many times `phrase` occurs in document `id`, over all its columns. */
  occurrences(phrase, id) {
    if (phrase.length === 0) return 0;
    let count = 0;
    for (const column of this.documents.get(id)) {
      for (let i = 0; i + phrase.length <= column.length; i++) {
        let all = true;
        for (let k = 0; k < phrase.length && all; k++) all = column[i + k] === phrase[k];
        if (all) count++;
      }
    }
    return count;
  }

  /** The ids of the documents where `phrase` occurs, ascending. */
  matching(phrase) {
    if (phrase.length === 0) return [];
    const first = this.postings.get(phrase[0]);
    if (!first) return [];
    const ids = [...first].filter((id) => phrase.length === 1 || this.occurrences(phrase, id) > 0);
    return ids.sort((a, b) => a - b);
  }

  /**
   * `-bm25(memories_fts)` as the host's query reads it (larger is better) for document `id`
   * and a query of OR-ed `phrases`; `matchCounts[i]` is how many documents match phrase i. The
   * terms are summed in the query's order with FTS5's operations, so the doubles are the same.
   */
  bm25(phrases, id, matchCounts) {
    const rows = this.documents.size;
    const averageLength = this.totalTerms / rows;
    let length = 0;
    for (const column of this.documents.get(id)) length += column.length;
    let score = 0;
    phrases.forEach((phrase, i) => {
      const hits = matchCounts[i];
      let idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
      if (idf <= 0) idf = 1e-6;
      const frequency = this.occurrences(phrase, id);
      score += idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length) / averageLength)));
    });
    return score;
  }
}
