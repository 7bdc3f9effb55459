"""Scores a configuration on a part of the development set, as `kenning eval locomo` does."""

import json

from .locomo import CATEGORY_NAMES, KS, recall_at
from .ranker import Config, Conversation


def evaluate(samples, config=Config(), per_question=False, prepare=None):
    """recall@k per category; `prepare(conversation)` runs on each knowledge base once built."""
    sums = {"all": [0, [0.0] * len(KS)]}
    details = []
    for sample in samples:
        conv = Conversation(sample, config)
        if prepare:
            prepare(conv)
        existing = {m.dia for m in conv.mems}
        for q in sample.questions:
            evidence = [e for e in q.evidence if e in existing]
            ids = conv.recall(q.question.strip())
            retrieved = [[conv.by_id[i].dia] for i in ids]
            for key in ("all", q.category):
                s = sums.setdefault(key, [0, [0.0] * len(KS)])
                s[0] += 1
                for j, k in enumerate(KS):
                    s[1][j] += recall_at(retrieved, evidence, k)
            if per_question:
                details.append((sample.sample_id, q, ids, evidence))
    out = {}
    for key, (n, vals) in sums.items():
        name = "all" if key == "all" else CATEGORY_NAMES.get(key, "other")
        out[name] = {"questions": n, **{f"@{k}": round(100 * v / n, 2) for k, v in zip(KS, vals)}}
    return (out, details) if per_question else out


def table(figures):
    order = ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "all"]
    lines = [f"{'category':<14}{'questions':>10}" + "".join(f"{'@' + str(k):>8}" for k in KS)]
    for name in order:
        if name in figures:
            f = figures[name]
            lines.append(f"{name:<14}{f['questions']:>10}" + "".join(f"{f['@' + str(k)]:>8.1f}" for k in KS))
    return "\n".join(lines)


def dumps(figures):
    return json.dumps(figures, sort_keys=True)
