// The word-level difference the Review tab shows for a proposed revision (src/diff.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wordDiff } from '../src/diff.js';

const side = (parts, keep) => parts.filter((p) => p.op === 'same' || p.op === keep).map((p) => p.text).join('');

test('each side of the difference joins back into its text exactly', () => {
  const cases = [
    ['The XOR key is 0x5A.', 'The XOR key is 0x5A, checked in the debugger.'],
    ['', 'A new memory.'],
    ['Forgotten text.', ''],
    ['a  b\tc\nd', 'a b c d'],
    ['RC4 key from the volume serial', 'RC4 key from the MAC address'],
    ['same', 'same'],
  ];
  for (const [before, after] of cases) {
    const parts = wordDiff(before, after);
    assert.equal(side(parts, 'removed'), before);
    assert.equal(side(parts, 'added'), after);
    assert.ok(parts.every((p, i) => i === 0 || p.op !== parts[i - 1].op), 'neighbours of one kind are merged');
  }
});

test('only the words that changed are marked', () => {
  assert.deepEqual(wordDiff('RC4 key from the volume serial', 'RC4 key from the MAC address'), [
    { op: 'same', text: 'RC4 key from the ' },
    { op: 'removed', text: 'volume serial' },
    { op: 'added', text: 'MAC address' },
  ]);
  assert.deepEqual(wordDiff('same', 'same'), [{ op: 'same', text: 'same' }]);
});

test('texts too long to compare word by word are shown as replaced whole', () => {
  const before = 'word '.repeat(3000);
  const after = 'other '.repeat(3000);
  assert.deepEqual(wordDiff(before, after), [{ op: 'removed', text: before }, { op: 'added', text: after }]);
});

test('words added after the last one are shown as added, the last word as kept', () => {
  assert.deepEqual(wordDiff('The beacon interval.', 'The beacon interval. Confirmed twice.'), [
    { op: 'same', text: 'The beacon interval.' },
    { op: 'added', text: ' Confirmed twice.' },
  ]);
});
