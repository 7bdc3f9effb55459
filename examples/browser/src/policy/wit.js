// Between the page's values and the component's (jco's mapping of kenning:policy@0.2.0's WIT):
// u64 and s64 are BigInt, enums are kebab-case strings, `option` is a value or undefined.
// Candidates are packed exactly as the host packs them (host/src/policy/v0_2.rs): texts, tags
// and anchor strings in one UTF-8 buffer that spans index by byte, anchors in one list.

const ASCII = /^[\x00-\x7f]*$/;

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

/**
 * Appends texts and anchors to one buffer each and hands out their spans. The spans count UTF-16
 * code units until `finish`, which joins the texts and, only when they are not all ASCII, turns
 * the spans into UTF-8 byte spans (one check over the joined text, not one per text).
 */
class Packer {
  constructor() {
    this.parts = [];
    this.spans = [];
    this.units = 0;
    this.anchors = [];
  }

  push(text) {
    const span = { start: this.units, len: text.length };
    this.parts.push(text);
    this.spans.push(span);
    this.units += text.length;
    return span;
  }

  /** The joined texts; every span handed out is then in UTF-8 bytes. */
  finish() {
    const texts = this.parts.join('');
    if (!ASCII.test(texts)) {
      let bytes = 0;
      for (let i = 0; i < this.parts.length; i++) {
        const span = this.spans[i];
        span.start = bytes;
        span.len = utf8Length(this.parts[i]);
        bytes += span.len;
      }
    }
    return texts;
  }

  pushTags(tags) {
    return this.push(tags.join(' '));
  }

  pushAnchors(anchors) {
    const start = this.anchors.length;
    for (const a of anchors) this.anchors.push(this.anchor(a));
    return { start, len: anchors.length };
  }

  anchor(a) {
    switch (a.kind) {
      case 'function':
        return {
          tag: 'function',
          val: { start: BigInt(a.start), end: a.end === null ? undefined : BigInt(a.end), name: this.push(a.name) },
        };
      case 'range':
        return { tag: 'range', val: { start: BigInt(a.start), end: BigInt(a.end) } };
      case 'address':
        return { tag: 'address', val: BigInt(a.offset) };
      case 'near':
        return { tag: 'near', val: { offset: BigInt(a.offset), radius: BigInt(a.radius) } };
      default:
        return { tag: 'referenced-string', val: this.push(a.value) };
    }
  }
}

const witKind = (type) => (type === 'conversation_summary' ? 'conversation-summary' : type);

/** `[{memory, lexicalScore}]` as the component's `candidates` record. */
export function packCandidates(candidates) {
  const packer = new Packer();
  const items = candidates.map(({ memory: m, lexicalScore }) => ({
    id: BigInt(m.id),
    scope: m.scope,
    kind: witKind(m.type),
    text: packer.push(m.text),
    tags: packer.pushTags(m.tags),
    confidence: Math.fround(m.confidence),
    createdAt: BigInt(m.createdAt),
    updatedAt: BigInt(m.updatedAt),
    anchors: packer.pushAnchors(m.anchors),
    lexicalScore: Math.fround(lexicalScore),
  }));
  return { texts: packer.finish(), anchors: packer.anchors, items };
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
