// The Porter stemmer as SQLite's FTS5 `porter` tokenizer applies it to each token that the
// `unicode61` tokenizer produced (already case-folded). The host's full-text index is built with
// `tokenize='porter unicode61'`, so the page must stem exactly as it does for BM25 to agree.
//
// FTS5 leaves tokens shorter than 3 or longer than 64 bytes as they are. Any character other
// than a, e, i, o, u (and y after a consonant) counts as a consonant, digits and non-ASCII
// letters included.

const MIN_BYTES = 3;
const MAX_BYTES = 64;

const utf8 = new TextEncoder();

function isVowelAt(word, i) {
  const c = word[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return true;
  return c === 'y' && i > 0 && !isVowelAt(word, i - 1);
}

/** Porter's m: the number of vowel-consonant sequences in `stem`. */
function measure(stem) {
  let m = 0;
  let i = 0;
  while (i < stem.length && !isVowelAt(stem, i)) i++;
  while (i < stem.length) {
    while (i < stem.length && isVowelAt(stem, i)) i++;
    if (i >= stem.length) break;
    while (i < stem.length && !isVowelAt(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem) {
  for (let i = 0; i < stem.length; i++) if (isVowelAt(stem, i)) return true;
  return false;
}

function endsWithDoubleConsonant(stem) {
  const n = stem.length;
  return n >= 2 && stem[n - 1] === stem[n - 2] && !isVowelAt(stem, n - 1);
}

/** Porter's *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(stem) {
  const n = stem.length;
  if (n < 3) return false;
  const last = stem[n - 1];
  return (
    !isVowelAt(stem, n - 3) &&
    isVowelAt(stem, n - 2) &&
    !isVowelAt(stem, n - 1) &&
    last !== 'w' &&
    last !== 'x' &&
    last !== 'y'
  );
}

/**
 * Replaces the longest of `rules`' suffixes that `word` ends with by its replacement when the
 * stem before it satisfies `condition`; a matching suffix whose condition fails ends the step.
 */
function replaceSuffix(word, rules, condition) {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

// Longest suffixes first within each step, so the first match is the longest.
const STEP2 = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
].sort((a, b) => b[0].length - a[0].length);

const STEP3 = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''],
  ['ness', ''],
].sort((a, b) => b[0].length - a[0].length);

const STEP4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou',
  'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
].sort((a, b) => b.length - a.length);

function step1(word) {
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (word.endsWith('ss')) {
    // kept
  } else if (word.endsWith('s')) word = word.slice(0, -1);

  let removed = false;
  if (word.endsWith('eed')) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
  } else if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) {
    word = word.slice(0, -2);
    removed = true;
  } else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) {
    word = word.slice(0, -3);
    removed = true;
  }
  if (removed) {
    if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) {
      word += 'e';
    } else if (endsWithDoubleConsonant(word) && !/[lsz]$/.test(word)) {
      word = word.slice(0, -1);
    } else if (measure(word) === 1 && endsCvc(word)) {
      word += 'e';
    }
  }
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = word.slice(0, -1) + 'i';
  return word;
}

function step4(word) {
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (measure(stem) <= 1) return word;
    if (suffix === 'ion' && !/[st]$/.test(stem)) return word;
    return stem;
  }
  return word;
}

function step5(word) {
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  if (word.endsWith('ll') && measure(word.slice(0, -1)) > 1) word = word.slice(0, -1);
  return word;
}

/** The stem FTS5's porter tokenizer indexes for a case-folded `token`. */
export function porterStem(token) {
  const bytes = utf8.encode(token).length;
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) return token;
  let word = step1(token);
  word = replaceSuffix(word, STEP2, (stem) => measure(stem) > 0);
  word = replaceSuffix(word, STEP3, (stem) => measure(stem) > 0);
  word = step4(word);
  return step5(word);
}
