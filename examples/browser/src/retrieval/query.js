// The words of a query, as the host's `store::search::query` and `store::split_tag_tokens`
// read them: `#tag` tokens filter by tag, function words are dropped unless nothing else is
// left, repeated words are searched once, at most 64 words.

const MAX_WORDS = 64;

/** The host's list of English function words (host/src/store/search/query.rs). */
const STOPWORDS = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are',
  'aren', 'as', 'at', 'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both',
  'but', 'by', 'can', 'cannot', 'could', 'couldn', 'd', 'did', 'didn', 'do', 'does', 'doesn',
  'doing', 'don', 'down', 'during', 'each', 'few', 'for', 'from', 'further', 'had', 'hadn', 'has',
  'hasn', 'have', 'haven', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him', 'himself',
  'his', 'how', 'i', 'if', 'in', 'into', 'is', 'isn', 'it', 'its', 'itself', 'let', 'll', 'm',
  'me', 'more', 'most', 'mustn', 'my', 'myself', 'no', 'nor', 'not', 'of', 'off', 'on', 'once',
  'only', 'or', 'other', 'ought', 'our', 'ours', 'ourselves', 'out', 'over', 'own', 're', 's',
  'same', 'shan', 'she', 'should', 'shouldn', 'so', 'some', 'such', 't', 'than', 'that', 'the',
  'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this', 'those',
  'through', 'to', 'too', 'under', 'until', 'up', 've', 'very', 'was', 'wasn', 'we', 'were',
  'weren', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why', 'with', 'would',
  'wouldn', 'you', 'your', 'yours', 'yourself', 'yourselves',
]);

/** Characters a `#tag` token may hold besides letters and digits. */
const TAG_PUNCTUATION = '_-.:/';
const ALPHANUMERIC = /^[\p{Alphabetic}\p{N}]$/u;
const NOT_WORD = /[^\p{Alphabetic}\p{N}_]+/u;
const WHITESPACE = /[\p{White_Space}]+/u;

const isAlphanumeric = (c) => ALPHANUMERIC.test(c);

/** Splits `#tag` tokens (lowercased) from the words of a query. */
export function splitTagTokens(query) {
  const words = [];
  const tags = [];
  for (const token of query.split(WHITESPACE)) {
    if (token === '') continue;
    const tag = token.startsWith('#') ? token.slice(1) : null;
    if (tag && [...tag].every((c) => isAlphanumeric(c) || TAG_PUNCTUATION.includes(c))) {
      tags.push(tag.toLowerCase());
    } else {
      words.push(token);
    }
  }
  return { words: words.join(' '), tags };
}

export const isStopword = (word) => STOPWORDS.has(word.toLowerCase());

/** terms.rs `words`: runs of letters, digits and `_`. */
export const wordsOf = (text) => text.split(NOT_WORD).filter((w) => w !== '');

/** The words a query searches for: content words, distinct ignoring case, in order. */
export function queryTerms(text) {
  const content = wordsOf(text).filter((w) => !isStopword(w));
  const chosen = content.length > 0 ? content : wordsOf(text);
  const seen = new Set();
  const terms = [];
  for (const word of chosen) {
    const lower = word.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    terms.push(word);
    if (terms.length === MAX_WORDS) break;
  }
  return terms;
}

/** Whether the query holds anything but white space (Rust's `str::trim`). */
export const isBlank = (text) => text.replace(/^[\p{White_Space}]+|[\p{White_Space}]+$/gu, '') === '';
