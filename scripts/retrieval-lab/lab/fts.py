"""A full-text index that ranks as kenning's SQLite FTS5 table does
(`fts5(text, tags, tokenize='porter unicode61')`, ranked by `-bm25(memories_fts)`), a port of
examples/browser/src/retrieval/fts.js, with the knobs the lab varies: BM25's k1 and b, and a
weight per column (FTS5's `bm25(tbl, w1, w2, ...)`)."""

import math
import unicodedata

from .porter import stem

K1 = 1.2
B = 0.75

_term_cache = {}


def _is_token_char(c):
    if c.isascii():
        return c.isalnum()
    cat = unicodedata.category(c)
    return cat[0] in "LN" or cat == "Co"


def fold(token):
    lower = token.lower()
    if lower.isascii():
        return lower
    nfd = unicodedata.normalize("NFD", lower)
    return unicodedata.normalize("NFC", "".join(c for c in nfd if unicodedata.category(c)[0] != "M"))


def term_of(token):
    term = _term_cache.get(token)
    if term is None:
        folded = fold(token)
        term = stem(folded) if folded else ""
        _term_cache[token] = term
    return term


def raw_tokens(text):
    """The runs of token characters (unicode61: L*, N*, Co) of `text`, as written."""
    out = []
    cur = []
    for c in text:
        if _is_token_char(c):
            cur.append(c)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def tokenize(text):
    """The terms FTS5 indexes for `text`, in order."""
    return [t for t in (term_of(tok) for tok in raw_tokens(text)) if t]


class FtsIndex:
    """Documents (int ids) with one list of terms per column; postings per term."""

    def __init__(self, k1=K1, b=B, weights=None):
        self.docs = {}  # id -> list of term lists (columns)
        self.length = {}  # id -> total terms
        self.postings = {}  # term -> set(ids)
        self.total = 0
        self.k1 = k1
        self.b = b
        self.weights = weights  # per column, None = all 1

    def add(self, doc_id, columns):
        terms = [tokenize(c) if isinstance(c, str) else list(c) for c in columns]
        self.docs[doc_id] = terms
        n = sum(len(c) for c in terms)
        self.length[doc_id] = n
        self.total += n
        for col in terms:
            for t in col:
                self.postings.setdefault(t, set()).add(doc_id)

    def phrase(self, word):
        return tokenize(word)

    def occurrences(self, phrase, doc_id):
        """Per column, how often `phrase` occurs in document `doc_id`."""
        out = []
        L = len(phrase)
        for col in self.docs[doc_id]:
            if L == 1:
                out.append(col.count(phrase[0]))
                continue
            c = 0
            for i in range(len(col) - L + 1):
                if col[i:i + L] == phrase:
                    c += 1
            out.append(c)
        return out

    def matching(self, phrase):
        if not phrase:
            return []
        first = self.postings.get(phrase[0])
        if not first:
            return []
        if len(phrase) == 1:
            return sorted(first)
        return sorted(i for i in first if sum(self.occurrences(phrase, i)) > 0)

    def bm25(self, phrases, doc_id, match_counts, phrase_weights=None):
        """`-bm25()` (larger is better) of `doc_id` for OR-ed `phrases`; FTS5's formula: per
        phrase idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * len / avglen)), where f is the
        column-weighted frequency. `phrase_weights` scales each phrase's term (1 by default;
        FTS5 has no such knob: used by the lab's expansion ideas)."""
        rows = len(self.docs)
        avg = self.total / rows
        length = self.length[doc_id]
        k1, b = self.k1, self.b
        norm = k1 * (1 - b + b * length / avg)
        score = 0.0
        for i, phrase in enumerate(phrases):
            hits = match_counts[i]
            idf = math.log((rows - hits + 0.5) / (hits + 0.5))
            if idf <= 0:
                idf = 1e-6
            occ = self.occurrences(phrase, doc_id)
            if self.weights is None:
                f = float(sum(occ))
            else:
                f = sum(w * o for w, o in zip(self.weights, occ))
            term = idf * (f * (k1 + 1)) / (f + norm)
            if phrase_weights is not None:
                term *= phrase_weights[i]
            score += term
        return score
