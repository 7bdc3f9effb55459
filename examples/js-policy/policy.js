// A kenning memory policy in JavaScript, against contract 0.3.0 (contract/wit/since_v0.3.0),
// made a component by componentize-js with every WASI feature disabled: it imports nothing but
// the contract's types. It targets 0.3.0 because there candidates travel as columns (typed
// lists and one texts buffer), which the generated glue copies in blocks and an interpreter
// reads by index, where 0.2.0's records cost several reads and conversions per candidate.
//
// - select: the host's lexical relevance first, then confidence, then freshness, within the
//   quotas, the token budget and the snapshot size;
// - scan: redacts AWS access key ids and `sk-` API keys, allows everything else unchanged;
// - validate: the agent's arguments read as the contract's closed records, defaults filled in;
// - consolidate: proposes nothing.
//
// The component model gives 64-bit integers (ids, timestamps) as BigInt; addresses above
// 2^53 are refused rather than rounded.

const LIMITS = { localQuota: 6, globalQuota: 6, tokenBudget: 1200, maxSnapshotBytes: 8192 };
const MAX_TEXT_BYTES = 8192;
const MAX_QUERY_BYTES = 1024;
const MAX_TAGS = 32;
const MAX_RECALL_LIMIT = 100;
const TOOLS = ["remember", "revise_memory", "forget_memory", "recall", "memory"];
const KINDS = ["fact", "preference", "context", "conversation_summary"];

// ---- text helpers: the contract counts bytes of UTF-8, JavaScript counts UTF-16 units; the
// runtime's own encoder converts (a loop in JavaScript would cost far more fuel) ----

const encoder = new TextEncoder();
// A text may start with U+FEFF, which a default decoder would drop: it is part of the text.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

const utf8Length = (s) => encoder.encode(s).length;

// Cuts pieces (from one UTF-8 byte offset to another) out of a packed buffer `length` bytes long.
function pieceCutter(texts, length) {
  let bytes = encoder.encode(texts);
  // componentize-js's generated glue decodes the buffer with a default TextDecoder of its own,
  // out of this module's reach, which drops a leading U+FEFF. Valid UTF-8 otherwise comes back
  // byte for byte, so a buffer 3 bytes short lost exactly that mark: the offsets count it.
  if (bytes.length + 3 === length) {
    const whole = new Uint8Array(length);
    whole.set([0xef, 0xbb, 0xbf]);
    whole.set(bytes, 3);
    bytes = whole;
  }
  return (start, end) => decoder.decode(bytes.subarray(start, end));
}

const estimateTokens = (s) => Math.ceil(utf8Length(s) / 4);

// ---- validate ----

class Refused extends Error {
  constructor(path, message) {
    super(message);
    this.payload = [{ path, message }];
  }
}

function object(value, path, fields) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Refused(path, "expected an object");
  }
  for (const key of Object.keys(value)) {
    if (!fields.includes(key)) {
      throw new Refused(join(path, key), `unknown field; expected one of ${fields.join(", ")}`);
    }
  }
  return value;
}

const join = (path, key) => (path ? `${path}.${key}` : key);

function string(value, path, { max = MAX_TEXT_BYTES, required = false, trim = true } = {}) {
  if (value === undefined || value === null) {
    if (required) throw new Refused(path, "required field is missing");
    return null;
  }
  if (typeof value !== "string") throw new Refused(path, "expected a string");
  const s = trim ? value.trim() : value;
  if (required && s === "") throw new Refused(path, "must not be empty");
  if (utf8Length(s) > max) throw new Refused(path, `longer than ${max} bytes`);
  return s;
}

function integer(value, path, fallback, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new Refused(path, "required field is missing");
    return fallback;
  }
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new Refused(path, `expected a whole number from 0 to ${max}`);
  }
  return value;
}

function address(value, path) {
  if (typeof value === "string") {
    const t = value.trim();
    const hex = /^0x[0-9a-f]+$/i.test(t);
    if (!hex && !/^[0-9]+$/.test(t)) throw new Refused(path, "expected an address");
    value = hex ? parseInt(t.slice(2), 16) : parseInt(t, 10);
  }
  return integer(value, path);
}

function choice(value, path, choices, fallback) {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new Refused(path, "required field is missing");
    return fallback;
  }
  if (!choices.includes(value)) throw new Refused(path, `expected one of ${choices.join(", ")}`);
  return value;
}

function list(value, path, item, fallback) {
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value)) throw new Refused(path, "expected a list");
  if (value.length > MAX_TAGS) throw new Refused(path, `more than ${MAX_TAGS} items`);
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

function tags(value, path, fallback) {
  const read = list(value, path, (v, p) => string(v, p, { max: 64, required: true }), fallback);
  return read && [...new Set(read.map((t) => t.replace(/^#/, "").toLowerCase()))];
}

function anchor(value, path, base) {
  const kind = choice(object(value, path, ["kind", "start", "end", "name", "address", "radius", "value"]).kind,
    join(path, "kind"), ["function", "range", "address", "near", "string"]);
  const offset = (key) => {
    const a = address(value[key], join(path, key));
    if (a < base) throw new Refused(join(path, key), "lies below the image base");
    return a - base;
  };
  switch (kind) {
    case "function":
      object(value, path, ["kind", "start", "end", "name"]);
      return { kind, start: offset("start"), end: value.end == null ? null : offset("end"),
        name: string(value.name, join(path, "name"), { max: 256, required: true }) };
    case "range":
      object(value, path, ["kind", "start", "end"]);
      return { kind, start: offset("start"), end: offset("end") };
    case "address":
      object(value, path, ["kind", "address"]);
      return { kind, offset: offset("address") };
    case "near":
      object(value, path, ["kind", "address", "radius"]);
      return { kind, offset: offset("address"), radius: integer(value.radius, join(path, "radius"), undefined, 1 << 20) };
    default:
      object(value, path, ["kind", "value"]);
      return { kind, value: string(value.value, join(path, "value"), { max: 512, required: true, trim: false }) };
  }
}

const thread = (a) => string(a.thread, "thread", { max: 128 });

const RECORDS = {
  remember(a) {
    object(a, "", ["text", "scope", "type", "anchors", "tags", "categories", "confidence", "image_base", "thread"]);
    const base = a.image_base == null ? 0 : address(a.image_base, "image_base");
    const anchors = list(a.anchors, "anchors", (v, p) => anchor(v, p, base), []);
    const confidence = a.confidence ?? 0.8;
    if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1)) {
      throw new Refused("confidence", "expected a number from 0 to 1");
    }
    return {
      text: string(a.text, "text", { required: true }),
      scope: choice(a.scope, "scope", ["global", "local"], anchors.length ? "local" : "global"),
      type: choice(a.type, "type", KINDS, "fact"),
      anchors, tags: tags(a.tags, "tags", []), categories: tags(a.categories, "categories", []),
      confidence, image_base: base, thread: thread(a),
    };
  },
  revise_memory(a) {
    object(a, "", ["id", "text", "type", "anchors", "tags", "categories", "confidence", "image_base", "reason", "thread"]);
    const base = a.image_base == null ? 0 : address(a.image_base, "image_base");
    if (a.confidence != null && (typeof a.confidence !== "number" || !(a.confidence >= 0 && a.confidence <= 1))) {
      throw new Refused("confidence", "expected a number from 0 to 1");
    }
    return {
      id: integer(a.id, "id"), text: string(a.text, "text"),
      type: a.type == null ? null : choice(a.type, "type", KINDS),
      anchors: list(a.anchors, "anchors", (v, p) => anchor(v, p, base), null),
      tags: tags(a.tags, "tags", null), categories: tags(a.categories, "categories", null),
      confidence: a.confidence ?? null, image_base: base,
      reason: string(a.reason, "reason"), thread: thread(a),
    };
  },
  forget_memory(a) {
    object(a, "", ["id", "reason", "thread"]);
    return { id: integer(a.id, "id"), reason: string(a.reason, "reason"), thread: thread(a) };
  },
  recall(a) {
    object(a, "", ["query", "scope", "type", "tags", "categories", "anchor", "image_base", "limit", "offset", "thread"]);
    const base = a.image_base == null ? 0 : address(a.image_base, "image_base");
    return {
      query: string(a.query, "query", { max: MAX_QUERY_BYTES }) ?? "",
      scope: choice(a.scope, "scope", ["global", "local", "any"], "any"),
      type: a.type == null ? null : choice(a.type, "type", KINDS),
      tags: tags(a.tags, "tags", []), categories: tags(a.categories, "categories", []),
      anchor: a.anchor == null ? null : anchor(a.anchor, "anchor", base), image_base: base,
      limit: Math.max(1, integer(a.limit, "limit", 10, MAX_RECALL_LIMIT)),
      offset: integer(a.offset, "offset", 0), thread: thread(a),
    };
  },
  memory(a) {
    object(a, "", ["action", "target", "content", "old_text", "thread"]);
    return {
      action: choice(a.action, "action", ["add", "replace", "remove"]),
      target: choice(a.target, "target", ["user", "memory", "daily"]),
      content: string(a.content, "content"), old_text: string(a.old_text, "old_text"), thread: thread(a),
    };
  },
};

// ---- scan ----

const SECRETS = [
  { kind: "aws-access-key-id", hints: ["AKIA", "ASIA"], pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "api-key", hints: ["sk-"], pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
];

function scanOne(text) {
  const found = [];
  for (const { kind, hints, pattern } of SECRETS) {
    // The runtime's substring search is native; its regular expressions are interpreted.
    if (!hints.some((h) => text.includes(h))) continue;
    for (const m of text.matchAll(pattern)) found.push({ kind, at: m.index, len: m[0].length });
  }
  if (found.length === 0) return { verdict: "allow", text, findings: [], reason: undefined };
  found.sort((a, b) => a.at - b.at);
  let out = "";
  let from = 0;
  const findings = [];
  for (const f of found) {
    if (f.at < from) continue;
    out += text.slice(from, f.at) + `[redacted ${f.kind}]`;
    const start = utf8Length(text.slice(0, f.at));
    findings.push({ kind: f.kind, start, end: start + utf8Length(text.slice(f.at, f.at + f.len)) });
    from = f.at + f.len;
  }
  return { verdict: "redact", text: out + text.slice(from), findings, reason: undefined };
}

// ---- score and select ----

// How many candidates a batch holds: as many as its shortest per-candidate column describes
// (the host packs them all alike; a malformed batch reads as the candidates it describes whole).
function count(c) {
  return Math.min(c.ids.length, c.scopes.length, c.kinds.length, c.confidences.length,
    c.createdAt.length, c.updatedAt.length, c.lexicalScores.length, c.textEnds.length >> 1,
    c.anchorEnds.length);
}

// One plain loop over the columns, with the clamps written as comparisons rather than Math.max
// and Math.min calls (with the same results: NaN stays NaN, -0 becomes 0) and Number.isFinite as
// a subtraction: the runtime interprets JavaScript, where a call per candidate and part adds up.
function scoreAll(context, candidates) {
  const n = count(candidates);
  const { lexicalScores, confidences, updatedAt } = candidates;
  const now = context.now;
  const scores = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = lexicalScores[i];
    const positive = s > 0 ? s : s === s ? 0 : s;
    const lexical = positive / (1 + positive);
    const age = Number(now - updatedAt[i]);
    const ageDays = (age > 0 ? age : 0) / 86400;
    const recency = 1 / (1 + ageDays / 30);
    const k = confidences[i];
    const confidence = k > 0 ? (k < 1 ? k : 1) : k === k ? 0 : k;
    const total = 0.6 * lexical + 0.3 * confidence + 0.1 * recency;
    scores[i] = { anchor: 0, lexical, confidence, recency, total: total - total === 0 ? total : 0 };
  }
  return scores;
}

// The bytes of each section's heading, `## global\n` and `## local\n`.
const HEADING_BYTES = { global: utf8Length("## global\n"), local: utf8Length("## local\n") };

function selectAll(context, candidates, limits) {
  const n = count(candidates);
  const { ids, scopes, textEnds } = candidates;
  const scores = scoreAll(context, candidates);
  // Ranked by total, then id; the comparator reads flat arrays rather than two objects each.
  const totals = new Float64Array(n);
  const order = new Array(n);
  for (let i = 0; i < n; i++) {
    totals[i] = scores[i].total;
    order[i] = i;
  }
  order.sort((a, b) => totals[b] - totals[a] || (ids[a] < ids[b] ? -1 : 1));
  const sections = { global: [], local: [] };
  const chosen = [];
  const rejected = [];
  let cut = null;
  let bytes = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const id = ids[i];
    const score = scores[i];
    const scope = scopes[i] === 1 ? "local" : "global";
    const lines = sections[scope];
    const quota = scope === "local" ? limits.localQuota : limits.globalQuota;
    // A candidate past its section's quota is rejected whatever its text: its line is never
    // rendered, so a select renders only the few lines that can still be chosen.
    if (lines.length >= quota) {
      rejected.push({ id, reason: "quota", score });
      continue;
    }
    cut ??= pieceCutter(candidates.texts, textEnds[textEnds.length - 1]);
    // The text runs from where the previous candidate's tags end to its own end (its tags
    // follow it). A text longer than the whole snapshot may hold is not even cut out of the
    // buffer. Runs of whitespace become one space: only runs that are not already one space are
    // matched, so a text with none costs one scan rather than a replacement per word.
    const start = i === 0 ? 0 : textEnds[2 * i - 1];
    const end = textEnds[2 * i];
    const line = end - start > limits.maxSnapshotBytes ? "" : `- ${cut(start, end).replace(/\s{2,}|[^\S ]/g, " ")}\n`;
    const cost = utf8Length(line) + (lines.length === 0 ? HEADING_BYTES[scope] : 0);
    if (line === "" || bytes + cost > limits.maxSnapshotBytes || Math.ceil((bytes + cost) / 4) > limits.tokenBudget) {
      rejected.push({ id, reason: "budget", score });
    } else {
      bytes += cost;
      lines.push(line);
      chosen.push({ id, section: scope, score });
    }
  }
  let snapshot = "";
  for (const scope of ["global", "local"]) {
    if (sections[scope].length) snapshot += `## ${scope}\n` + sections[scope].join("");
  }
  return { chosen, rejected, snapshot, snapshotTokens: estimateTokens(snapshot) };
}

// ---- the exported interface ----

export const policy = {
  describe() {
    return {
      name: "js-relevance", version: "0.1.0", contractVersion: "0.3.0",
      capabilities: ["validate", "scan", "score", "select", "consolidate"], defaultLimits: LIMITS,
    };
  },
  validate(tool, argsJson) {
    if (!TOOLS.includes(tool)) throw new Refused("", `unknown tool ${JSON.stringify(tool)}; expected one of ${TOOLS.join(", ")}`);
    if (utf8Length(argsJson) > 65536) throw new Refused("", "arguments longer than 65536 bytes");
    let args;
    try {
      args = JSON.parse(argsJson);
    } catch (e) {
      throw new Refused("", `not JSON: ${e.message}`);
    }
    return { tool, argsJson: JSON.stringify(RECORDS[tool](args)) };
  },
  scan: (items) => items.map((item) => scanOne(item.text)),
  score: scoreAll,
  select: selectAll,
  consolidate: () => ({ merges: [], supersessions: [], expiries: [] }),
};
