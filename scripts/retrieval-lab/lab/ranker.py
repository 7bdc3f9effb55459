"""kenning's recall ranking (host/src/store/ranking + sqlite/search), and the ideas of issue #47
as switches of one configuration. With the default `Config()` this is today's ranking:

1. query words: runs of alphanumerics and `_`, function words dropped (unless nothing else is
   left), distinct ignoring case, at most 64; each word an FTS5 phrase of its porter terms;
2. planning: each word's matches counted up to budget + 1 (1,000 for recall); rarest first while
   their sum stays within the budget; if even the rarest is over, only the newest budget + 1
   matches of the word reaching least far back are searched;
3. BM25 (FTS5's bm25(), k1 1.2, b 0.75) over OR-ed phrases, ties by id;
4. the best `pool` = max(4 x (limit + 1), 200) hits smoothed: each lends 0.3 of its score to up
   to 2 thread neighbours on each side (within 16 ids); then the other hits in BM25 order.
"""

import math
import re
from dataclasses import dataclass

from . import dates
from .fts import FtsIndex, tokenize
from .locomo import memory_text

MAX_WORDS = 64
RECALL_BUDGET = 1000
MIN_POOL, POOL_PER_RESULT, MAX_POOL = 200, 4, 2000
LIMIT = 50

STOPWORDS = frozenset("""a about above after again against all am an and any are aren as at be because
been before being below between both but by can cannot could couldn d did didn do does doesn doing don
down during each few for from further had hadn has hasn have haven having he her here hers herself him
himself his how i if in into is isn it its itself let ll m me more most mustn my myself no nor not of
off on once only or other ought our ours ourselves out over own re s same shan she should shouldn so
some such t than that the their theirs them themselves then there these they this those through to too
under until up ve very was wasn we were weren what when where which while who whom why with would
wouldn you your yours yourself yourselves""".split())

# A generic list of English irregular verb forms (past, participle -> base): not derived from the data.
IRREGULAR = {}
for line in """go went gone|buy bought|bring brought|catch caught|think thought|teach taught|fight fought
seek sought|see saw seen|take took taken|give gave given|get got gotten|make made|find found|feel felt
leave left|meet met|keep kept|sleep slept|read|run ran|begin began begun|swim swam swum|sing sang sung
drink drank drunk|ride rode ridden|write wrote written|drive drove driven|eat ate eaten|fall fell fallen
grow grew grown|know knew known|throw threw thrown|fly flew flown|draw drew drawn|wear wore worn
tear tore torn|break broke broken|speak spoke spoken|choose chose chosen|win won|lose lost|send sent
spend spent|build built|lend lent|hold held|stand stood|understand understood|tell told|sell sold
hear heard|pay paid|say said|lay laid|lead led|feed fed|become became|come came|do did done|have had
is was were been|sit sat|hang hung|dig dug|stick stuck|shoot shot|light lit|bite bit bitten
hide hid hidden|forget forgot forgotten|freeze froze frozen|steal stole stolen|wake woke woken
rise rose risen|shake shook shaken|begin began|bear bore born|blow blew blown|show showed shown""".split("|"):
    forms = line.split()
    for f in forms[1:]:
        IRREGULAR.setdefault(f, forms[0])
IRREGULAR_BASE = {}
for form, base in IRREGULAR.items():
    IRREGULAR_BASE.setdefault(base, []).append(form)


def words(text):
    """Runs of alphanumerics and `_` (Rust's `char::is_alphanumeric`), as terms.rs `words`."""
    out, cur = [], []
    for ch in text:
        if ch.isalnum() or ch == "_":
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def is_stopword(w):
    return w.lower() in STOPWORDS


def query_terms(text):
    ws = words(text)
    content = [w for w in ws if not is_stopword(w)]
    chosen = content or ws
    seen, out = set(), []
    for w in chosen:
        if w.lower() in seen:
            continue
        seen.add(w.lower())
        out.append(w)
        if len(out) == MAX_WORDS:
            break
    return out


_THESAURI = {}


def thesaurus(path):
    """stem -> [(neighbour stem, cosine)], best first, from a `stem<TAB>stem:cos ...` file."""
    if path not in _THESAURI:
        table = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, _, rest = line.rstrip("\n").partition("\t")
                table[key] = [(a, float(b)) for a, _, b in (x.rpartition(":") for x in rest.split())]
        _THESAURI[path] = table
    return _THESAURI[path]


@dataclass
class Config:
    """Every knob of the lab; the defaults are today's kenning."""
    k1: float = 1.2
    b: float = 0.75
    # Field weighting: None = one text column (today); else weights of (speaker, text, caption, date, extra).
    fields: tuple | None = None
    # Smoothing: window on each side, weight of a neighbour before / after the hit, span in ids.
    window: int = 2
    weight_before: float = 0.3
    weight_after: float = 0.3
    same_speaker: float = 1.0  # multiplier of the share lent to a neighbour of the hit's speaker
    # Pseudo-relevance feedback: from the first round's `prf_docs` best lexical hits, the
    # `prf_terms` best new terms (idf x frequency), searched as a second query weighted `prf_weight`.
    prf_docs: int = 0
    prf_terms: int = 0
    prf_weight: float = 0.0
    prf_max_df: float = 0.1  # expansion terms must match at most this share of memories
    # Date normalisation at write time: resolved relative dates appended as an extra column.
    dates: bool = False
    # "when" questions: memories with a time expression get this many times `time_boost` x max idf.
    time_boost: float = 0.0
    # People: question names a speaker -> memories by that speaker get score x (1 + speaker_boost);
    # speaker names are then left out of the words searched when `drop_speaker_words`.
    speaker_boost: float = 0.0
    drop_speaker_words: bool = False
    # Other capitalised names of the question (not speakers): their phrase weight.
    name_weight: float = 1.0
    # Morphological variants: irregular verb forms searched as extra phrases of this weight.
    morph_weight: float = 0.0
    # Bigram boost: adjacent content words of the question as phrases of this weight.
    bigram_weight: float = 0.0
    # Session diversity: the n-th memory of the same session in the list has score x diversity^(n-1).
    diversity: float = 1.0
    # Session evidence: each matched memory gains `session_weight` x the sum of its session's
    # `session_top` best first-round scores (its own included), so a session that matches the
    # question in several turns lifts each of them.
    session_weight: float = 0.0
    session_top: int = 3
    # Thesaurus: each query word's `thes_k` nearest words (cosine >= `thes_min`) in a table of
    # word neighbours (stem -> stem:cosine ...), searched as extra phrases of weight `thes_weight`
    # (times the cosine when `thes_cos`).
    thes_path: str | None = None
    thes_k: int = 0
    thes_min: float = 0.0
    thes_weight: float = 0.0
    thes_cos: bool = False
    thes_max_df: float = 1.0
    # Dense fusion (needs `Conversation.similarity`, which lab.semantic sets): the lexical scores
    # divided by the best one, plus `dense_weight` x (cosine - `dense_floor`, at least 0) over the
    # lexical hits and the `dense_depth` nearest memories; `dense_only` ranks by cosine alone.
    dense_weight: float = 0.0
    dense_floor: float = 0.0
    dense_depth: int = 100
    dense_only: bool = False


@dataclass
class Mem:
    id: int
    dia: tuple
    session: int
    speaker: str
    text: str
    caption: str | None
    date_time: str | None
    full: str


class Conversation:
    """One knowledge base: a conversation's turns as memories, indexed as `config` says."""

    def __init__(self, sample, config):
        self.sample = sample
        self.config = config
        self.mems = []
        self.speakers = {s.lower() for s in sample.speakers if s}
        for session in sample.sessions:
            for turn in session.turns:
                self.mems.append(Mem(len(self.mems) + 1, turn.id, session.number, turn.speaker.strip(),
                                     turn.text.strip(), turn.caption, session.date_time,
                                     memory_text(session, turn)))
        self.by_id = {m.id: m for m in self.mems}
        self.index = FtsIndex(k1=config.k1, b=config.b, weights=config.fields)
        self.has_time = set()
        for m in self.mems:
            extra = ""
            if config.dates:
                when = dates.session_date(m.date_time)
                resolved = dates.resolve(m.text, when)
                extra = " ".join(resolved + ([dates.day_words(when)] if when else []))
            if config.time_boost and dates.has_time_expression(m.text):
                self.has_time.add(m.id)
            if config.fields is None:
                cols = [m.full + ((" " + extra) if extra else ""), ""]
            else:
                cap = f"[shared an image: {m.caption.strip()}]" if m.caption else ""
                cols = [m.speaker, m.text, cap, f"({m.date_time.strip()})" if m.date_time else "", extra]
            self.index.add(m.id, cols)
        self.rows = len(self.mems)
        # question -> cosine of each memory (index = id - 1), for the dense ideas.
        self.similarity = None

    # -- FTS pieces -------------------------------------------------------------------------

    def count(self, word):
        return len(self.index.matching(self.index.phrase(word)))

    def plan(self, terms, budget=RECALL_BUDGET):
        """Which words to search and the least id (store/search/plan.rs)."""
        counted = []
        for pos, t in enumerate(terms):
            n = min(self.count(t), budget + 1)
            if n > 0:
                counted.append((n, pos))
        counted.sort()
        if not counted:
            return None
        if counted[0][0] > budget:
            best = None
            for _, pos in counted:
                ids = self.index.matching(self.index.phrase(terms[pos]))
                reach = ids[max(0, len(ids) - (budget + 1))]
                if best is None or reach < best[0]:
                    best = (reach, pos)
            return [terms[best[1]]], best[0]
        total, kept = 0, []
        for n, pos in counted:
            if total + n > budget:
                break
            total += n
            kept.append(pos)
        kept.sort()
        return [terms[p] for p in kept], None

    def bm25_scores(self, words, weights=None, min_id=None, phrases=None):
        """id -> -bm25 over OR-ed phrases (one FTS5 MATCH query)."""
        phrases = phrases if phrases is not None else [self.index.phrase(w) for w in words]
        keep = [(p, (weights[i] if weights else 1.0)) for i, p in enumerate(phrases) if p]
        if not keep:
            return {}
        phrases = [p for p, _ in keep]
        pw = [w for _, w in keep]
        matches = [self.index.matching(p) for p in phrases]
        counts = [len(m) for m in matches]
        ids = set()
        for m in matches:
            ids.update(m)
        if min_id is not None:
            ids = {i for i in ids if i >= min_id}
        return {i: self.index.bm25(phrases, i, counts, pw) for i in ids}

    # -- ranking ------------------------------------------------------------------------------

    def smooth(self, hits):
        """context.rs `smooth`, with the lab's before/after weights and same-speaker factor."""
        c = self.config
        scores = {i: s for i, s in hits}
        span = 16
        for hid, s in hits:
            hm = self.by_id[hid]
            # every memory has a thread (its session); members are consecutive ids of the session
            before = [j for j in range(hid - 1, max(0, hid - span - 1), -1)
                      if self.by_id[j].session == hm.session][: c.window]
            after = [j for j in range(hid + 1, min(self.rows, hid + span) + 1)
                     if self.by_id[j].session == hm.session][: c.window]
            for group, w in ((before, c.weight_before), (after, c.weight_after)):
                for j in group:
                    share = w * s
                    if c.same_speaker != 1.0 and self.by_id[j].speaker == hm.speaker:
                        share *= c.same_speaker
                    scores[j] = scores.get(j, 0.0) + share
        return sorted(scores.items(), key=lambda x: (-x[1], x[0]))

    def query_words(self, question):
        c = self.config
        terms = query_terms(question)
        speakers = [t for t in terms if t.lower() in self.speakers]
        if c.drop_speaker_words and len(terms) > len(speakers):
            terms = [t for t in terms if t.lower() not in self.speakers]
        return terms, speakers

    def lexical(self, question):
        """id -> first-round lexical score (BM25 over the planned words, plus the ideas that
        add phrases to the same query)."""
        c = self.config
        terms, speakers = self.query_words(question)
        planned = self.plan(terms)
        if planned is None:
            # No word of the question is in the knowledge base: only its neighbours can match.
            extra = self.neighbours(terms)
            scores = self.bm25_scores(None, [w for _, w in extra], None, [p for p, _ in extra])
            return scores, terms, speakers
        kept, min_id = planned
        weights = None
        if c.name_weight != 1.0:
            weights = [c.name_weight if (w[:1].isupper() and w.lower() not in self.speakers) else 1.0
                       for w in kept]
        scores = self.bm25_scores(kept, weights, min_id)
        extra = []  # (phrase terms, weight)
        if c.morph_weight:
            for w in kept:
                lw = w.lower()
                for v in ([IRREGULAR[lw]] if lw in IRREGULAR else []) + IRREGULAR_BASE.get(lw, []):
                    extra.append((tokenize(v), c.morph_weight))
        extra += self.neighbours(terms)
        if c.bigram_weight:
            content = [w for w in words(question) if not is_stopword(w)]
            for a, b in zip(content, content[1:]):
                extra.append((tokenize(a) + tokenize(b), c.bigram_weight))
        if extra:
            add = self.bm25_scores(None, [w for _, w in extra], None, [p for p, _ in extra])
            for i, s in add.items():
                scores[i] = scores.get(i, 0.0) + s
        return scores, terms, speakers

    def known_stems(self, terms):
        """The stems of the question's words and of the speakers' names: never added as new."""
        return {t for w in list(terms) + sorted(self.speakers) for t in tokenize(w)}

    def nearest(self, cos, n):
        """The `n` memory ids of the highest cosine (`cos` indexed by id - 1), ties by id."""
        return sorted(range(1, self.rows + 1), key=lambda i: (-cos[i - 1], i))[:n]

    def neighbours(self, terms):
        """The thesaurus' phrases for the question's words (each word's own stems and the
        speakers' left out), with their weights: every word, found in the knowledge base or not."""
        c = self.config
        if not (c.thes_k and c.thes_weight and c.thes_path):
            return []
        table = thesaurus(c.thes_path)
        have = self.known_stems(terms)
        out, added = [], set()
        for w in terms:
            if w.lower() in self.speakers:
                continue
            for st in tokenize(w):
                n = 0
                for nb, cos in table.get(st, ()):
                    if n >= c.thes_k or cos < c.thes_min:
                        break
                    if nb in have or nb in added:
                        continue
                    df = len(self.index.postings.get(nb, ()))
                    if df == 0 or df > c.thes_max_df * self.rows:
                        continue
                    n += 1
                    added.add(nb)
                    out.append(([nb], c.thes_weight * (cos if c.thes_cos else 1.0)))
        return out

    def boosts(self, scores, question, speakers):
        c = self.config
        if c.speaker_boost and speakers:
            names = {s.lower() for s in speakers}
            for i in scores:
                if self.by_id[i].speaker.lower() in names:
                    scores[i] *= 1 + c.speaker_boost
        if c.time_boost and re.match(r"\s*(when|how long|what (year|month|date|day|time))", question, re.I):
            top = max(scores.values()) if scores else 0
            for i in self.has_time:
                if i in scores:
                    scores[i] += c.time_boost * top
        return scores

    def prf(self, scores, terms):
        """Second round seeded by the rare words of the first round's best hits."""
        c = self.config
        top = sorted(scores.items(), key=lambda x: (-x[1], x[0]))[: c.prf_docs]
        have = self.known_stems(terms)
        cand = {}
        for rank, (i, _) in enumerate(top):
            m = self.by_id[i]
            body = m.text + (" " + m.caption if m.caption else "")
            for raw in set(re.findall(r"[0-9A-Za-z]+", body)):
                if is_stopword(raw) or len(raw) < 3:
                    continue
                for t in tokenize(raw):
                    if t in have:
                        continue
                    df = len(self.index.postings.get(t, ()))
                    if df < 2 or df > c.prf_max_df * self.rows:
                        continue
                    idf = math.log((self.rows - df + 0.5) / (df + 0.5))
                    cand[t] = cand.get(t, 0.0) + idf / (1 + rank)
        chosen = [t for t, _ in sorted(cand.items(), key=lambda x: (-x[1], x[0]))[: c.prf_terms]]
        if not chosen:
            return scores
        add = self.bm25_scores(None, None, None, [[t] for t in chosen])
        out = dict(scores)
        for i, s in add.items():
            out[i] = out.get(i, 0.0) + c.prf_weight * s
        return out

    def fuse(self, scores, question):
        """Lexical scores over the best one, plus the weighted cosine above the floor."""
        c = self.config
        cos = self.similarity(question)
        top = max(scores.values()) if scores else 1.0
        fused = {i: s / top for i, s in scores.items()}
        nearest = self.nearest(cos, c.dense_depth)
        for i in set(nearest) | set(fused):
            fused[i] = fused.get(i, 0.0) + c.dense_weight * max(0.0, float(cos[i - 1]) - c.dense_floor)
        return fused

    def recall(self, question, limit=LIMIT):
        """Memory ids, best first, as `recall` pages them up to `limit`."""
        c = self.config
        if c.dense_only:
            return self.nearest(self.similarity(question), limit)
        scores, terms, speakers = self.lexical(question)
        if scores and c.prf_docs and c.prf_terms and c.prf_weight:
            scores = self.prf(scores, terms)
        if scores:
            scores = self.boosts(scores, question, speakers)
        if c.dense_weight:
            scores = self.fuse(scores, question)
        if not scores:
            return []
        if c.session_weight:
            by_session = {}
            for i, sc in scores.items():
                by_session.setdefault(self.by_id[i].session, []).append(sc)
            total = {k: sum(sorted(v, reverse=True)[: c.session_top]) for k, v in by_session.items()}
            scores = {i: sc + c.session_weight * total[self.by_id[i].session] for i, sc in scores.items()}
        hits = sorted(scores.items(), key=lambda x: (-x[1], x[0]))
        pool = min(max((limit + 1) * POOL_PER_RESULT, MIN_POOL), MAX_POOL)
        ranked = self.smooth(hits[:pool])
        listed = {i for i, _ in ranked}
        ranked += [h for h in hits[pool:] if h[0] not in listed]
        if c.diversity != 1.0:
            seen = {}
            div = []
            for i, s in ranked:
                n = seen.get(self.by_id[i].session, 0)
                seen[self.by_id[i].session] = n + 1
                div.append((i, s * c.diversity ** n))
            ranked = sorted(div, key=lambda x: (-x[1], x[0]))
        return [i for i, _ in ranked[:limit]]
