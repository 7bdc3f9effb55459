// A word-level difference between two texts, for showing a proposed revision against the text
// it would replace. Words and the spaces between them are kept as they are, so joining the
// parts of one side gives that side's text back exactly.

/** Most tokens compared exactly; longer texts fall back to "all removed, all added". */
const MAX_TOKENS = 4000;

/**
 * Splits `text` into words, each with the whitespace after it (and any whitespace before the
 * first word on its own), so a space between two changed words is not shown as kept.
 */
export const tokens = (text) => text.match(/^\s+|\S+\s*/g) ?? [];

/**
 * The parts of the change from `before` to `after`, in order: `{op: 'same' | 'removed' |
 * 'added', text}`, neighbouring parts of one kind merged.
 */
export function wordDiff(before, after) {
  const a = tokens(before);
  const b = tokens(after);
  // Words are compared without the whitespace after them; differing whitespace after a kept
  // word is shown as removed and added.
  const word = (t) => t.trimEnd();
  const keep = (x, y) => {
    push('same', word(x));
    const [sx, sy] = [x.slice(word(x).length), y.slice(word(y).length)];
    if (sx === sy) push('same', sx);
    else {
      if (sx) push('removed', sx);
      if (sy) push('added', sy);
    }
  };
  const parts = [];
  const push = (op, text) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  if (a.length * b.length > MAX_TOKENS * MAX_TOKENS / 4) {
    if (before) push('removed', before);
    if (after) push('added', after);
    return parts;
  }
  // The longest common subsequence, by the classic table read backwards from the end.
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = word(a[i]) === word(b[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (word(a[i]) === word(b[j])) {
      keep(a[i], b[j]);
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) {
      push('removed', a[i++]);
    } else {
      push('added', b[j++]);
    }
  }
  while (i < n) push('removed', a[i++]);
  while (j < m) push('added', b[j++]);
  return parts;
}
