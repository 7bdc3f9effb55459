// Opening an export: the fixture reads whole; every kind of bad file is one error naming its
// line and the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseExport, ExportFileError, MAX_FILE_BYTES } from '../src/format/export-file.js';

const fixture = readFileSync(new URL('../fixtures/crackme.jsonl', import.meta.url), 'utf8');
const lines = fixture.trimEnd().split('\n');

test('the fixture opens with every memory, its anchors as file offsets', () => {
  const file = parseExport(fixture);
  assert.equal(file.memories.length, 37);
  assert.equal(file.subject.kind, 'binary');
  const m = file.memories.find((x) => x.id === 15);
  assert.deepEqual(m.anchors, [{ kind: 'address', offset: 0x1214 }]);
  assert.deepEqual(new Set(file.memories.map((x) => x.badge)), new Set(['native', 'pending', 'inbound_pending', 'foreign']));
});

const refused = (text, pattern) => {
  assert.throws(() => parseExport(text), (error) => error instanceof ExportFileError && pattern.test(error.message));
};

test('bad files are refused, naming the line and the problem', () => {
  refused('', /line 1: empty file/);
  refused('{"format": "kenning-memory/2", "subject": {}, "memories": 0}\n', /line 1: the header's format is "kenning-memory\/2"/);
  refused([lines[0], lines[1], '{"id": 2, oops', ...lines.slice(3)].join('\n'), /line 3: not JSON/);
  refused([lines[0], lines[1].replace('"scope":"global"', '"scope":"galaxy"'), ...lines.slice(2)].join('\n'), /line 2: scope: "galaxy" is not one of global, local/);
  refused([lines[0], lines[1].replace('"confidence":0.95', '"confidence":"high"'), ...lines.slice(2)].join('\n'), /line 2: confidence/);
  refused(lines.slice(0, 10).join('\n'), /header counts 37 memories but the file holds 9/);
  refused([lines[0], lines[1], lines[1], ...lines.slice(3)].join('\n'), /line 3: id 1 appears twice/);
  refused(lines[0] + '\n' + 'x'.repeat(70_000), /line 2: the line is longer than/);
  assert.throws(() => parseExport('', MAX_FILE_BYTES + 1), /the page opens at most/);
});
