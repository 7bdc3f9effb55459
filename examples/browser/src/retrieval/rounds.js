// The rounds a turn's query runs after its first, as the host runs them
// (host/src/store/ranking/rounds.rs and its modules variants.rs and speakers.rs; the feedback
// round is recall's alone, and the page gathers only a turn's candidates):
//   1. the other forms of the query's English irregular verbs, their BM25 added at 0.5;
//   2. a hit spoken by a person the query names (`Name: ...`) gains 0.3 of its score.
// The pool is then cut to its size again, best first, ties by id. Every sum is made in the
// host's order, so the doubles are the same.

/** variants.rs `VERBS`: each irregular verb's forms, base first (a test reads the host's). */
export const VERBS = [
  'arise arose arisen', 'awake awoke awoken', 'bear bore born borne', 'beat beaten',
  'become became', 'begin began begun', 'bend bent', 'bind bound', 'bite bit bitten',
  'bleed bled', 'blow blew blown', 'break broke broken', 'breed bred', 'bring brought',
  'build built', 'burn burnt', 'buy bought', 'catch caught', 'choose chose chosen', 'cling clung',
  'come came', 'creep crept', 'deal dealt', 'dig dug', 'draw drew drawn', 'dream dreamt',
  'drink drank drunk', 'drive drove driven', 'eat ate eaten', 'fall fell fallen', 'feed fed',
  'feel felt', 'fight fought', 'find found', 'flee fled', 'fly flew flown',
  'forbid forbade forbidden', 'forget forgot forgotten', 'forgive forgave forgiven',
  'freeze froze frozen', 'get got gotten', 'give gave given', 'go went gone', 'grind ground',
  'grow grew grown', 'hang hung', 'hear heard', 'hide hid hidden', 'hold held',
  'keep kept', 'kneel knelt', 'know knew known', 'lay laid', 'lead led', 'lean leant',
  'leap leapt', 'learn learnt', 'leave left', 'lend lent', 'lie lay lain', 'light lit',
  'lose lost', 'make made', 'mean meant', 'meet met', 'pay paid', 'ride rode ridden',
  'ring rang rung', 'rise rose risen', 'run ran', 'say said', 'see saw seen', 'seek sought',
  'sell sold', 'send sent', 'sew sewn', 'shake shook shaken', 'shine shone', 'shoot shot',
  'show shown', 'shrink shrank shrunk', 'sing sang sung', 'sink sank sunk', 'sit sat',
  'sleep slept', 'slide slid', 'speak spoke spoken', 'speed sped', 'spend spent', 'spin spun',
  'spring sprang sprung', 'stand stood', 'steal stole stolen', 'stick stuck',
  'sting stung', 'stink stank stunk', 'strike struck', 'strive strove striven',
  'swear swore sworn', 'sweep swept', 'swim swam swum', 'swing swung', 'take took taken',
  'teach taught', 'tear tore torn', 'tell told', 'think thought', 'throw threw thrown',
  'understand understood', 'wake woke woken', 'wear wore worn', 'weave wove woven', 'weep wept',
  'win won', 'wind wound', 'write wrote written'
];
const VARIANT_WEIGHT = 0.5;
const SPEAKER_BOOST = 0.3;
const MAX_LABEL_BYTES = 40;
const MAX_LABEL_WORDS = 3;
const OPENING_CHARS = MAX_LABEL_BYTES + 2;

const chars = (text) => [...text];
const WHITE = /^\p{White_Space}$/u;
const UPPER = /^\p{Uppercase}$/u;
const ALPHA = /^\p{Alphabetic}$/u;
const trim = (text) => text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
const splitWhite = (text) => text.split(/\p{White_Space}+/u).filter((w) => w !== '');
const utf8Length = (text) => new TextEncoder().encode(text).length;

/** variants.rs `other_forms`. */
export function otherForms(word) {
  const lower = word.toLowerCase();
  const forms = [];
  for (const verb of VERBS) {
    const all = verb.split(' ');
    if (!all.includes(lower)) continue;
    for (const form of all) if (form !== lower && !forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** variants.rs `of`: sorted, each once, none a term. */
export function variantsOf(terms) {
  const asked = new Set(terms.map((t) => t.toLowerCase()));
  const forms = new Set(terms.flatMap(otherForms).filter((f) => !asked.has(f)));
  // The forms are ASCII (a test holds the table to the host's): JavaScript's order is Rust's.
  return [...forms].sort();
}

/** speakers.rs `label`. */
export function speakerLabel(text) {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const label = trim(text.slice(0, colon));
  const rest = text.slice(colon + 1);
  const words = splitWhite(label);
  const first = chars(rest)[0];
  const fits =
    label !== '' &&
    utf8Length(label) <= MAX_LABEL_BYTES &&
    words.length <= MAX_LABEL_WORDS &&
    words.every((w) => UPPER.test(chars(w)[0]) && chars(w).every((c) => ALPHA.test(c) || c === '.' || c === '-' || c === "'")) &&
    (first === undefined || WHITE.test(first));
  return fits ? label : null;
}

/** speakers.rs `named`. */
const named = (terms) => terms.filter((t) => UPPER.test(chars(t)[0] ?? '')).map((t) => t.toLowerCase());

/** speakers.rs `spoken_by`. */
function spokenBy(opening, names) {
  const label = speakerLabel(opening);
  if (label === null) return false;
  const lower = label.toLowerCase();
  const first = splitWhite(lower)[0] ?? '';
  return names.some((name) => name === lower || name === first);
}

const ranked = (hits) => [...hits.values()].sort((a, b) => b.score - a.score || a.id - b.id);

function add(hits, found, weight) {
  for (const hit of found) {
    const share = weight * hit.score;
    const known = hits.get(hit.id);
    if (known) known.score += share;
    else hits.set(hit.id, { ...hit, score: share });
  }
}

/**
 * rounds.rs `pool` for a turn (no feedback round): `lexicon` has `first(n)`, `bestOf(words, n)`
 * and `text(id)`. Returns the pool, best first.
 */
export function roundsPool(lexicon, terms, size) {
  const first = lexicon.first(size);
  if (first.length === 0) return [];
  const hits = new Map(first.map((h) => [h.id, { ...h }]));
  const verbs = variantsOf(terms);
  if (verbs.length > 0) add(hits, lexicon.bestOf(verbs, size), VARIANT_WEIGHT);
  const names = named(terms);
  if (names.length > 0) {
    for (const hit of hits.values()) {
      const opening = chars(lexicon.text(hit.id)).slice(0, OPENING_CHARS).join('');
      if (spokenBy(opening, names)) hit.score *= 1 + SPEAKER_BOOST;
    }
  }
  return ranked(hits).slice(0, size);
}
