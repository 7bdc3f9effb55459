// Reading a `kenning-memory/1` export (`kenning export --format jsonl`): a header line naming
// the format and the subject, then one memory a line. Anything wrong is one `ExportFileError`
// naming the line and the problem; nothing is partly opened.

export const FORMAT = 'kenning-memory/1';
/** Largest file the page opens: far above any real export, below what a tab can hold twice. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Largest line: the host's limit on one import record. */
export const MAX_LINE_BYTES = 64 * 1024;

const SCOPES = ['global', 'local'];
const TYPES = ['fact', 'preference', 'context', 'conversation_summary'];
const BADGES = ['native', 'pending', 'inbound_pending', 'foreign'];
const ANCHOR_FIELDS = {
  function: ['name', 'start'],
  range: ['start', 'end'],
  address: ['address'],
  near: ['address', 'radius'],
  string: ['value'],
};

export class ExportFileError extends Error {
  /** @param {number|null} line 1-based, or null for the whole file */
  constructor(line, message) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'ExportFileError';
    this.line = line;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Parses an export's text. Returns `{ subject, exportedAt, memories }`, each memory with its
 * anchors as file offsets (`offsets`) beside the addresses the file gives.
 */
export function parseExport(text, byteLength = text.length) {
  if (byteLength > MAX_FILE_BYTES) {
    throw new ExportFileError(null, `the file is ${byteLength} bytes; the page opens at most ${MAX_FILE_BYTES}`);
  }
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0 || lines[0].trim() === '') {
    throw new ExportFileError(1, `empty file: expected a ${FORMAT} header`);
  }
  const header = parseLine(lines[0], 1);
  if (header.format !== FORMAT) {
    throw new ExportFileError(1, `the header's format is ${JSON.stringify(header.format ?? null)}, not "${FORMAT}"`);
  }
  if (!isObject(header.subject) || typeof header.subject.key !== 'string' || typeof header.subject.kind !== 'string') {
    throw new ExportFileError(1, 'the header has no subject (kind and key)');
  }
  if (!Number.isSafeInteger(header.memories) || header.memories < 0) {
    throw new ExportFileError(1, 'the header has no count of memories');
  }
  const memories = [];
  const ids = new Set();
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const memory = readMemory(parseLine(lines[i], i + 1), i + 1);
    if (ids.has(memory.id)) throw new ExportFileError(i + 1, `id ${memory.id} appears twice`);
    ids.add(memory.id);
    memories.push(memory);
  }
  if (memories.length !== header.memories) {
    throw new ExportFileError(null, `the header counts ${header.memories} memories but the file holds ${memories.length} (truncated?)`);
  }
  return { subject: header.subject, exportedAt: header.exported_at ?? null, memories };
}

function parseLine(line, number) {
  if (line.length > MAX_LINE_BYTES) {
    throw new ExportFileError(number, `the line is longer than ${MAX_LINE_BYTES} bytes`);
  }
  let value;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new ExportFileError(number, `not JSON (${error.message})`);
  }
  if (!isObject(value)) throw new ExportFileError(number, 'expected a JSON object');
  return value;
}

function readMemory(record, line) {
  const fail = (field, problem) => {
    throw new ExportFileError(line, `${field}: ${problem}`);
  };
  const string = (field, { optional = false } = {}) => {
    const v = record[field];
    if (v === undefined || v === null) return optional ? null : fail(field, 'missing');
    return typeof v === 'string' ? v : fail(field, 'expected a string');
  };
  const integer = (value, field) =>
    Number.isSafeInteger(value) && value >= 0 ? value : fail(field, 'expected a whole number below 2^53');
  const oneOf = (field, allowed) => {
    const v = string(field);
    return allowed.includes(v) ? v : fail(field, `${JSON.stringify(v)} is not one of ${allowed.join(', ')}`);
  };
  const strings = (field) => {
    const v = record[field] ?? [];
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) fail(field, 'expected a list of strings');
    return v;
  };

  if (record.format !== undefined && record.format !== FORMAT) fail('format', `expected "${FORMAT}"`);
  const id = integer(record.id, 'id');
  const imageBase = integer(record.image_base ?? 0, 'image_base');
  const anchorsIn = record.anchors ?? [];
  if (!Array.isArray(anchorsIn)) fail('anchors', 'expected a list');
  const anchors = anchorsIn.map((anchor, i) => readAnchor(anchor, `anchors[${i}]`, imageBase, fail, integer));
  const confidence = record.confidence;
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) fail('confidence', 'expected a number from 0 to 1');
  return {
    id,
    scope: oneOf('scope', SCOPES),
    type: oneOf('type', TYPES),
    text: string('text'),
    tags: strings('tags'),
    categories: strings('categories'),
    confidence,
    anchors,
    imageBase,
    author: string('author'),
    badge: oneOf('badge', BADGES),
    status: string('status'),
    thread: string('thread', { optional: true }),
    target: string('target', { optional: true }),
    createdAt: integer(record.created_at, 'created_at'),
    updatedAt: integer(record.updated_at, 'updated_at'),
    supersedes: record.supersedes ?? null,
  };
}

/** An anchor as the file gives it (addresses of the image at `imageBase`) and as a file offset. */
function readAnchor(anchor, path, imageBase, fail, integer) {
  if (!isObject(anchor)) fail(path, 'expected an object');
  const fields = ANCHOR_FIELDS[anchor.kind];
  if (!fields) fail(`${path}.kind`, `${JSON.stringify(anchor.kind)} is not one of ${Object.keys(ANCHOR_FIELDS).join(', ')}`);
  for (const field of fields) if (anchor[field] === undefined) fail(`${path}.${field}`, 'missing');
  const offset = (field) => {
    const address = integer(anchor[field], `${path}.${field}`);
    return Math.max(0, address - imageBase);
  };
  switch (anchor.kind) {
    case 'function':
      if (typeof anchor.name !== 'string') fail(`${path}.name`, 'expected a string');
      return { kind: 'function', name: anchor.name, start: offset('start'), end: anchor.end == null ? null : offset('end') };
    case 'range':
      return { kind: 'range', start: offset('start'), end: offset('end') };
    case 'address':
      return { kind: 'address', offset: offset('address') };
    case 'near':
      return { kind: 'near', offset: offset('address'), radius: integer(anchor.radius, `${path}.radius`) };
    default:
      if (typeof anchor.value !== 'string') fail(`${path}.value`, 'expected a string');
      return { kind: 'string', value: anchor.value };
  }
}

/**
 * `memories` as a human's `kenning import` holds them (host/src/provenance.rs,
 * `badge_for_import`): what the exporting knowledge base had accepted (NATIVE, FOREIGN or no
 * badge) is FOREIGN here, and what it held in quarantine stays there. A turn over an opened file
 * previews what an agent would be given after that import, its provenance included.
 */
export function asImportedByHuman(memories) {
  return memories.map((m) =>
    m.badge === 'pending' || m.badge === 'inbound_pending' ? m : { ...m, badge: 'foreign' });
}
