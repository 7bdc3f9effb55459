// The host's synthetic selection workload (guest/src/vectors.rs `workload`), the one
// `kenning bench` times `select` on: the same turn and candidates every time, built with the
// same xorshift sequence and f32 arithmetic, so the page's figure is for the very same call.
const MASK = (1n << 64n) - 1n;
const WORDS = ['config', 'decrypt', 'key', 'buffer', 'parse', 'header', 'network', 'socket', 'rc4', 'xor', 'loop', 'table'];

/** `{turn, now, candidates}`: the turn as the page's turn panel holds it, candidates as gathered. */
export function workload(n) {
  let seed = 0x9e3779b97f4a7c15n;
  const next = () => {
    seed ^= (seed << 13n) & MASK;
    seed ^= seed >> 7n;
    seed ^= (seed << 17n) & MASK;
    return seed;
  };
  const below = (m) => Number(next() % BigInt(m));
  const candidates = [];
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 16 }, () => WORDS[below(WORDS.length)]);
    let scope = 'global';
    let anchors = [];
    if (i % 3 === 0) {
      scope = 'local';
      anchors = [{ kind: 'function', start: 0x1000 + below(4) * 0x200, end: null, name: 'decrypt_config' }];
    } else if (i % 3 === 1) {
      scope = 'local';
      anchors = [{ kind: 'address', offset: below(0x10000) }];
    }
    const confidence = Math.fround(0.5 + Math.fround(below(50) / 100));
    const createdAt = 1_780_000_000 - below(10_000_000);
    const lexicalScore = i % 3 === 1 ? Math.fround(below(100) / 10) : 0;
    candidates.push({
      memory: { id: i + 1, scope, type: 'fact', text: `memory ${i}: ${text.join(' ')}`, tags: ['re'], confidence, createdAt, updatedAt: 1_780_000_000, anchors },
      lexicalScore,
    });
  }
  const turn = {
    imageBase: 0x400000,
    cursor: 0x401050,
    currentFunction: { start: 0x401000, end: 0x401200, name: 'decrypt_config' },
    referencedStrings: [],
    query: 'where is the config decrypted',
  };
  return { turn, now: 1_790_000_000, candidates };
}
