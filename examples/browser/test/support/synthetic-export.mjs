// A large kenning-memory/1 export for the fixture's subject, made up deterministically: many
// memories over few words (so common words exceed the host's match budget and its query plan
// leaves them out), every anchor kind, threads, tags, and some PENDING ones. The host imports it
// like any export, so the page's turns over it can be checked against `kenning inject`.
import { createHash } from 'node:crypto';

const WORDS = ['config', 'decrypt', 'key', 'buffer', 'parse', 'header', 'network', 'socket', 'rc4', 'xor', 'loop', 'table',
  'serial', 'license', 'beacon', 'string', 'resource', 'section', 'import', 'export', 'handler', 'thread', 'mutex', 'registry',
  // Irregular verbs: a query's "go" searches "went" and "gone" too.
  'go', 'went', 'find', 'found',
  // Beyond ASCII: spans are counted in UTF-8 bytes, and the tokenizer folds and strips accents.
  'café', 'Überprüfung', 'clé', '数据', 'ключ', '🔑'];
/** Speakers of transcript-like memories (`Lina: ...`): a query naming one favours their turns. */
const SPEAKERS = ['Lina', 'Omar'];
const TAGS = ['crypto', 'network', 'format', 'license', 'todo', 'strings', 'c2'];
const FUNCTIONS = ['main', 'decrypt_config', 'rc4_init', 'parse_header', 'net_send', 'check_license', 'beacon_loop', 'decode_string'];
const BASE = 0x400000;

/** The export's text: `perScope` global and `perScope` local memories. */
export function syntheticExport(subjectKey, perScope) {
  let seed = 0x2545f4914f6cdd1dn;
  const MASK = (1n << 64n) - 1n;
  const below = (m) => {
    seed ^= (seed << 13n) & MASK;
    seed ^= seed >> 7n;
    seed ^= (seed << 17n) & MASK;
    return Number(seed % BigInt(m));
  };
  const total = perScope * 2;
  const lines = [JSON.stringify({ format: 'kenning-memory/1', subject: { kind: 'binary', key: subjectKey, label: 'crackme.bin' }, exported_at: 1_795_000_000, memories: total })];
  for (let i = 0; i < total; i++) {
    const local = i % 2 === 1;
    const words = Array.from({ length: 6 + below(10) }, () => WORDS[below(WORDS.length)]);
    const text = i % 7 === 0 ? `${SPEAKERS[below(SPEAKERS.length)]}: ${words.join(' ')}` : `note ${i}: ${words.join(' ')}`;
    const tags = [...new Set(Array.from({ length: below(3) }, () => TAGS[below(TAGS.length)]))];
    let anchors = [];
    if (local) {
      const at = BASE + 0x1000 + below(0x4000);
      switch (i % 5) {
        case 0: anchors = [{ kind: 'function', name: FUNCTIONS[below(FUNCTIONS.length)], start: at, end: at + 0x100 }]; break;
        case 1: anchors = [{ kind: 'range', start: at, end: at + 0x40 }]; break;
        case 2: anchors = [{ kind: 'address', address: at }]; break;
        case 3: anchors = [{ kind: 'near', address: at, radius: 32 }]; break;
        default: anchors = [{ kind: 'string', value: `str_${below(50)}` }];
      }
    }
    const pending = i % 17 === 0;
    const created = 1_785_000_000 + i * 3_000 + below(1_000);
    lines.push(JSON.stringify({
      format: 'kenning-memory/1', id: i + 1, scope: local ? 'local' : 'global', type: 'fact', text, tags, categories: [],
      confidence: (50 + below(50)) / 100, anchors, image_base: local ? BASE : 0,
      author: pending ? 'external' : 'agent', badge: pending ? 'pending' : 'native', status: 'active',
      ...(i % 3 === 0 ? { thread: `session-${i % 4}` } : {}),
      content_hash: createHash('sha256').update(text).digest('hex'), created_at: created, updated_at: created,
    }));
  }
  return lines.join('\n') + '\n';
}
