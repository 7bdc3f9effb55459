// The page's full-text pieces against SQLite's own: the tokenizer and Porter stemmer give the
// terms FTS5 indexed for thousands of words (test/vectors/porter-stems.tsv, written by
// scripts/porter-vectors.py with SQLite's fts5vocab), and queries split as the host splits them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tokenize } from '../src/retrieval/fts.js';
import { queryTerms, splitTagTokens } from '../src/retrieval/query.js';
import { VERBS, speakerLabel, variantsOf } from '../src/retrieval/rounds.js';

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

test('the irregular verbs are the host’s, line for line', () => {
  const rust = readFileSync(new URL('../../../host/src/store/ranking/variants.rs', import.meta.url), 'utf8');
  const table = rust.slice(rust.indexOf('const VERBS'), rust.indexOf('];', rust.indexOf('const VERBS')));
  const host = [...table.matchAll(/^ {4}"([a-z ]+)",$/gm)].map((m) => m[1]);
  assert.ok(host.length > 100);
  assert.deepEqual(VERBS, host);
  assert.deepEqual(variantsOf(['go', 'went', 'bought']), ['buy', 'gone']);
});

test('speaker labels are read as the host reads them', () => {
  assert.equal(speakerLabel('Caroline: I went'), 'Caroline');
  assert.equal(speakerLabel('Dr Lina Ortiz: fine'), 'Dr Lina Ortiz');
  for (const text of ['12:30 lunch', 'Caroline:x', 'https://example.com', 'no colon', 'A Very Long Label Of Words: x']) {
    assert.equal(speakerLabel(text), null, text);
  }
});
