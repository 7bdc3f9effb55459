// Between the page's values and the component's (jco's mapping of kenning:policy@0.4.0's WIT):
// u64 and s64 are BigInt, enums are kebab-case strings, `option` is a value or undefined.
// Candidates are packed exactly as the host packs them (kenning-contract's
// `CandidateColumns::pack`): one typed array per field, and the texts, tags and anchor strings
// back to back in two strings cut by UTF-8 byte offsets.

/** The length of `text` in UTF-8, without encoding it (a turn packs thousands of texts). */
export function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // a surrogate pair: 4 bytes for 2 code units
        i++;
      } else bytes += 2; // a lone surrogate becomes U+FFFD, 3 bytes
    } else bytes += 2;
  }
  return bytes;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Texts joined back to back, with the offset where each ends. The offsets count UTF-16 code
 * units until `finish`, which joins the texts and, only when they are not all ASCII, counts
 * them again in UTF-8 bytes (one check over the joined text, not one per text).
 */
class Pieces {
  constructor() {
    this.parts = [];
    this.ends = [];
    this.units = 0;
  }

  push(text) {
    this.parts.push(text);
    this.units += text.length;
    this.ends.push(this.units);
  }

  /** The joined text and where each piece ends in it, in UTF-8 bytes. */
  finish() {
    const text = this.parts.join('');
    if (!ASCII.test(text)) {
      let bytes = 0;
      this.parts.forEach((part, i) => {
        bytes += utf8Length(part);
        this.ends[i] = bytes;
      });
    }
    return { text, ends: Uint32Array.from(this.ends) };
  }
}

/** Kind codes of the `kinds` column. */
const KIND_CODES = { fact: 0, preference: 1, context: 2, conversation_summary: 3 };

/** Author codes of the `authors` column; an author the page does not know is a peer's. */
const AUTHOR_CODES = { human: 0, agent: 1, triage: 2, external: 3, peer: 4 };

/** Badge codes of the `badges` column; a badge the page does not know is FOREIGN. */
const BADGE_CODES = { native: 0, pending: 1, inbound_pending: 2, foreign: 3 };

/** Anchor kind codes of the `anchor-kinds` column. */
const ANCHOR = { functionOpen: 0, function: 1, range: 2, address: 3, near: 4, string: 5 };

/** An anchor as its kind code, its two numbers and its string. */
function anchorColumns(a) {
  switch (a.kind) {
    case 'function':
      return a.end === null || a.end === undefined
        ? [ANCHOR.functionOpen, a.start, 0, a.name]
        : [ANCHOR.function, a.start, a.end, a.name];
    case 'range':
      return [ANCHOR.range, a.start, a.end, ''];
    case 'address':
      return [ANCHOR.address, a.offset, 0, ''];
    case 'near':
      return [ANCHOR.near, a.offset, a.radius, ''];
    default:
      return [ANCHOR.string, 0, 0, a.value];
  }
}

/** `[{memory, lexicalScore}]` as the component's `candidates` columns. */
export function packCandidates(candidates) {
  const n = candidates.length;
  const columns = {
    ids: new BigUint64Array(n),
    scopes: new Uint8Array(n),
    kinds: new Uint8Array(n),
    authors: new Uint8Array(n),
    badges: new Uint8Array(n),
    confidences: new Float32Array(n),
    createdAt: new BigInt64Array(n),
    updatedAt: new BigInt64Array(n),
    lexicalScores: new Float32Array(n),
    anchorEnds: new Uint32Array(n),
  };
  // A candidate's text, then its tags: two pieces each, so their ends are `text-ends`.
  const texts = new Pieces();
  const anchorTexts = new Pieces();
  const anchorKinds = [];
  const anchorValues = [];
  candidates.forEach(({ memory: m, lexicalScore }, i) => {
    columns.ids[i] = BigInt(m.id);
    columns.scopes[i] = m.scope === 'local' ? 1 : 0;
    columns.kinds[i] = KIND_CODES[m.type] ?? 0;
    columns.authors[i] = AUTHOR_CODES[m.author] ?? AUTHOR_CODES.peer;
    columns.badges[i] = BADGE_CODES[m.badge] ?? BADGE_CODES.foreign;
    columns.confidences[i] = m.confidence;
    columns.createdAt[i] = BigInt(m.createdAt);
    columns.updatedAt[i] = BigInt(m.updatedAt);
    columns.lexicalScores[i] = lexicalScore;
    texts.push(m.text);
    texts.push(m.tags.join(' '));
    for (const a of m.anchors) {
      const [kind, first, second, text] = anchorColumns(a);
      anchorKinds.push(kind);
      anchorValues.push(BigInt(first), BigInt(second));
      anchorTexts.push(text);
    }
    columns.anchorEnds[i] = anchorKinds.length;
  });
  const packedTexts = texts.finish();
  const packedAnchorTexts = anchorTexts.finish();
  return {
    ...columns,
    texts: packedTexts.text,
    textEnds: packedTexts.ends,
    anchorKinds: Uint8Array.from(anchorKinds),
    anchorValues: BigUint64Array.from(anchorValues),
    anchorTexts: packedAnchorTexts.text,
    anchorTextEnds: packedAnchorTexts.ends,
  };
}

const liveFunction = (f) => ({ start: BigInt(f.start), end: BigInt(f.end), name: f.name });

/** A turn (addresses of the running image) at `now` as the component's `context`. */
export function witContext(turn, now, subjectKind) {
  return {
    now: BigInt(now),
    subjectKind,
    imageBase: BigInt(turn.imageBase),
    cursor: turn.cursor === null ? undefined : BigInt(turn.cursor),
    currentFunction: turn.currentFunction ? liveFunction(turn.currentFunction) : undefined,
    referencedStrings: turn.referencedStrings,
    liveFunctions: [],
    liveStrings: [],
    query: turn.query,
  };
}

/** The host's default limits with the turn's quotas and budget (`kenning inject`'s options). */
export function witLimits({ localQuota = 6, globalQuota = 6, tokenBudget = 1200, maxSnapshotBytes = 8192 } = {}) {
  return { localQuota, globalQuota, tokenBudget, maxSnapshotBytes };
}

const hostScore = (s) => ({ anchor: s.anchor, confidence: s.confidence, lexical: s.lexical, recency: s.recency, total: s.total });

/** A selection as `kenning inject --json` prints it (ids as numbers, host's names). */
export function hostSelection(selection) {
  return {
    chosen: selection.chosen.map((c) => ({ id: Number(c.id), score: hostScore(c.score), section: c.section })),
    rejected: selection.rejected.map((r) => ({ id: Number(r.id), reason: r.reason, score: hostScore(r.score) })),
    snapshot: selection.snapshot,
    snapshot_tokens: selection.snapshotTokens,
  };
}

/** A scan result as `kenning scan --jsonl` prints it. */
export function hostScanResult(result) {
  return {
    verdict: result.verdict,
    text: result.text,
    findings: result.findings.map((f) => ({ kind: f.kind, start: f.start, end: f.end })),
    reason: result.reason ?? null,
  };
}

/**
 * `validate` as `kenning validate` prints its answer for one line (without the line number):
 * `{ok: true, canonical}` or `{ok: false, errors: [{path, message}]}`. The bindings throw an
 * `err` result as itself (the build asks jco not to wrap it).
 */
export function hostValidation(policy, tool, argsJson) {
  try {
    const call = policy.validate(tool, argsJson);
    return { ok: true, canonical: JSON.parse(call.argsJson) };
  } catch (errors) {
    if (!Array.isArray(errors)) throw errors;
    return { ok: false, errors: errors.map((e) => ({ path: e.path, message: e.message })) };
  }
}
