"""python3 -m lab.costs: the work each idea adds, counted on the tuning part: FTS queries and scored
postings (matches) per recall, and indexed tokens per write."""

from .locomo import TUNE, load
from .ranker import IRREGULAR, IRREGULAR_BASE, Config, Conversation, words, is_stopword
from .fts import tokenize
from .__main__ import DATA


def main():
    samples = [s for s in load(DATA) if s.sample_id in TUNE]
    q_n = base_post = prf_post = morph_q = morph_post = bigram_post = 0
    tok_base = tok_dates = mems = 0
    for s in samples:
        base = Conversation(s, Config())
        dated = Conversation(s, Config(dates=True))
        prf = Conversation(s, Config(prf_docs=3, prf_terms=5, prf_weight=0.3))
        mems += base.rows
        tok_base += base.index.total
        tok_dates += dated.index.total
        for q in s.questions:
            q_n += 1
            terms, _ = base.query_words(q.question)
            plan = base.plan(terms)
            if plan is None:
                continue
            base_post += sum(base.count(w) for w in plan[0])
            # PRF's second query: the expansion terms' postings
            scores, terms, _ = prf.lexical(q.question)
            before = dict(scores)
            chosen = []
            orig = prf.bm25_scores
            prf.bm25_scores = lambda w, pw, m, phrases=None: (chosen.extend(phrases or []), orig(w, pw, m, phrases))[1]
            prf.prf(before, terms)
            prf.bm25_scores = orig
            prf_post += sum(len(prf.index.matching(p)) for p in chosen)
            variants = [v for w in plan[0] for v in ([IRREGULAR[w.lower()]] if w.lower() in IRREGULAR else [])
                        + IRREGULAR_BASE.get(w.lower(), [])]
            if variants:
                morph_q += 1
                morph_post += sum(len(base.index.matching(tokenize(v))) for v in variants)
            content = [w for w in words(q.question) if not is_stopword(w)]
            bigram_post += sum(len(base.index.matching(tokenize(a) + tokenize(b)))
                               for a, b in zip(content, content[1:]))
    print(f"questions {q_n}, memories {mems}")
    print(f"scored matches per recall today: {base_post / q_n:.0f}")
    print(f"PRF second query: +{prf_post / q_n:.0f} matches per recall (+{100 * prf_post / base_post:.0f}%), 1 more MATCH, 5 more counts")
    print(f"verb variants: a variant in {100 * morph_q / q_n:.0f}% of questions, +{morph_post / q_n:.1f} matches per recall")
    print(f"bigram phrases: +{bigram_post / q_n:.1f} matches per recall (phrase matching reads positions)")
    print(f"indexed tokens per memory: today {tok_base / mems:.1f}, with dates {tok_dates / mems:.1f} (+{100 * (tok_dates - tok_base) / tok_base:.0f}%)")


if __name__ == "__main__":
    main()
