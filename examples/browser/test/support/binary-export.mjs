// A made-up kenning-memory/1 export shaped like notes about one binary, for the graph's tests and
// figures: functions in consecutive, non-overlapping ranges whose popularity falls off as a power
// law (a few busy functions, a long tail), notes anchored at a function, at an address, a range or
// a radius inside one, or at a referenced string, and tags likewise skewed. Deterministic.
import { createHash } from 'node:crypto';

const BASE = 0x400000;
const TAGS = ['crypto', 'network', 'config', 'strings', 'anti-debug', 'c2', 'persistence', 'todo', 'license', 'format',
  'registry', 'mutex', 'beacon', 'unpacking', 'imports', 'xor', 'rc4', 'parser', 'heap', 'threads'];
const NAMED = ['decrypt_config', 'beacon_loop', 'parse_header', 'rc4_init', 'net_send', 'check_license', 'decode_string', 'anti_debug'];

/**
 * The export's text and what it holds: `{text, functions: [{name, start, end}] (addresses),
 * busiest: the name of the function most notes are about}`.
 * @param {string} subjectKey the subject's key (the fixture's, so the host could import it)
 * @param {number} count memories
 * @param {{functions?: number}} options how many functions the binary has
 */
export function binaryExport(subjectKey, count, { functions: functionCount = 400 } = {}) {
  let seed = 0x9e3779b97f4a7c15n;
  const MASK = (1n << 64n) - 1n;
  const below = (m) => {
    seed ^= (seed << 13n) & MASK;
    seed ^= seed >> 7n;
    seed ^= (seed << 17n) & MASK;
    return Number(seed % BigInt(m));
  };
  // Rank r is chosen with weight 1/(r+1): the first function gets about a seventh of the notes.
  const skewed = (n) => {
    const weights = Array.from({ length: n }, (_, r) => 1 / (r + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    return () => {
      let x = (below(1_000_000) / 1_000_000) * total;
      for (let r = 0; r < n; r++) {
        x -= weights[r];
        if (x < 0) return r;
      }
      return n - 1;
    };
  };
  const functions = [];
  let at = BASE + 0x1000;
  for (let i = 0; i < functionCount; i++) {
    const size = 0x40 + below(0x40) * 0x10;
    functions.push({ name: i < NAMED.length ? NAMED[i] : `sub_${at.toString(16)}`, start: at, end: at + size });
    at += size + below(4) * 0x10;
  }
  const pickFunction = skewed(functionCount);
  const pickTag = skewed(TAGS.length);
  const lines = [JSON.stringify({ format: 'kenning-memory/1', subject: { kind: 'binary', key: subjectKey, label: 'sample.bin' }, exported_at: 1_795_000_000, memories: count })];
  for (let i = 0; i < count; i++) {
    const local = below(10) < 7;
    const anchors = [];
    let about = null;
    if (local) {
      for (let k = 0; k < 1 + below(2); k++) {
        const f = functions[pickFunction()];
        about ??= f.name;
        const inside = f.start + below((f.end - f.start) / 4) * 4;
        switch (below(10)) {
          case 0: case 1: case 2: case 3: anchors.push({ kind: 'function', name: f.name, start: f.start, end: f.end }); break;
          case 4: case 5: case 6: anchors.push({ kind: 'address', address: inside }); break;
          case 7: anchors.push({ kind: 'range', start: inside, end: Math.min(f.end, inside + 0x10 + below(4) * 0x10) }); break;
          case 8: anchors.push({ kind: 'near', address: inside, radius: 16 }); break;
          default: anchors.push({ kind: 'string', value: `str_${below(300)}` });
        }
      }
    }
    const tags = [...new Set(Array.from({ length: below(4) }, () => TAGS[pickTag()]))];
    const text = `note ${i + 1}${about ? ` about ${about}` : ''}: ${tags.join(' ')} observation ${below(100000)}`;
    const pending = i % 23 === 0;
    const created = 1_780_000_000 + i * 600 + below(300);
    lines.push(JSON.stringify({
      format: 'kenning-memory/1', id: i + 1, scope: local ? 'local' : 'global', type: 'fact', text, tags, categories: [],
      confidence: (50 + below(50)) / 100, anchors, image_base: local ? BASE : 0,
      author: pending ? 'external' : 'agent', badge: pending ? 'pending' : 'native', status: i % 97 === 0 ? 'forgotten' : 'active',
      content_hash: createHash('sha256').update(text).digest('hex'), created_at: created, updated_at: created,
    }));
  }
  return { text: lines.join('\n') + '\n', functions, busiest: functions[0].name };
}
