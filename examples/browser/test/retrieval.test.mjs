// The page's full-text pieces against SQLite's own: the tokenizer and Porter stemmer give the
// terms FTS5 indexed for thousands of words (test/vectors/porter-stems.tsv, written by
// scripts/porter-vectors.py with SQLite's fts5vocab), and queries split as the host splits them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tokenize } from '../src/retrieval/fts.js';
import { queryTerms, splitTagTokens } from '../src/retrieval/query.js';

test('tokens and stems are the ones SQLite FTS5 indexes', () => {
  const lines = readFileSync(new URL('./vectors/porter-stems.tsv', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
  assert.ok(lines.length > 3000);
  const wrong = lines.filter((line) => {
    const [word, terms] = line.split('\t');
    return tokenize(word).join(' ') !== terms;
  });
  assert.deepEqual(wrong, []);
});

test('queries keep content words, once each, and #tags apart', () => {
  assert.deepEqual(queryTerms('When did Caroline go to the LGBTQ support group?'), ['Caroline', 'go', 'LGBTQ', 'support', 'group']);
  assert.deepEqual(queryTerms('Who are you?'), ['Who', 'are', 'you']);
  assert.deepEqual(queryTerms('Key key KEY rc4 key'), ['Key', 'rc4']);
  assert.deepEqual(queryTerms('NEAR("a" b) * col:x'), ['NEAR', 'b', 'col', 'x']);
  assert.deepEqual(splitTagTokens('#Crypto where #bad! sub_1'), { words: 'where #bad! sub_1', tags: ['crypto'] });
});
