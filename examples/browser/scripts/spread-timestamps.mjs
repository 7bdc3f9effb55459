// Rewrites the timestamps of a kenning-memory/1 export as if its memories had been written over
// four months, oldest first, ending on a fixed day: the fixture stays the same on every run.
// Only timestamps change; texts and their content hashes are kept, so the file still imports.
import { readFileSync } from 'node:fs';

const END = 1_795_000_000; // 2026-11-18, the last memory's day
const DAY = 86_400;
const SPAN_DAYS = 120;

const lines = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l !== '');
const [header, ...records] = lines.map((l) => JSON.parse(l));
header.exported_at = END + DAY;
const out = [JSON.stringify(header)];
records.forEach((record, i) => {
  const created = END - Math.round(((records.length - 1 - i) / records.length) * SPAN_DAYS * DAY) - (i % 7) * 3_600;
  record.created_at = created;
  // Every fifth memory was revised a week after it was written.
  record.updated_at = i % 5 === 4 ? Math.min(created + 7 * DAY, END) : created;
  out.push(JSON.stringify(record));
});
process.stdout.write(out.join('\n') + '\n');
