"""The lab's measure of semantic knowledge from a real embedding model (lab/minilm.py):

    python3 -m lab.semantic embed                 # every memory and question of the data, cached
    python3 -m lab.semantic thesaurus             # stem -> nearest stems, from the model's words
    python3 -m lab.semantic sweep PART 'name|k=v;k=v' ...   # as lab.sweep, with dense fusion

The cache and the thesaurus go to scripts/retrieval-lab/.cache/ (not committed). `sweep` rows take
every Config field, the dense ones (`dense_weight`, `dense_floor`, `dense_depth`, `dense_only`)
and the thesaurus ones (`thes_k`, ...; `thes_path` defaults to the table `thesaurus` wrote).
"""

import os
import sys
import time

import numpy as np

from . import minilm
from .__main__ import DATA, HERE, parse_sets
from .evaluate import evaluate
from .locomo import HELD_OUT, TUNE, load, memory_text
from .ranker import Config
from .sweep import CATS, row

CACHE = os.path.join(HERE, ".cache")
EMBEDDINGS = os.path.join(CACHE, "minilm-locomo.npz")
THESAURUS = os.path.join(CACHE, "minilm-thesaurus.tsv")


def embed(samples):
    """Embeds every memory text and question; prints the time per text."""
    encoder = minilm.Encoder()
    arrays, texts, started = {}, 0, time.perf_counter()
    for s in samples:
        memories = [memory_text(session, turn) for session in s.sessions for turn in session.turns]
        arrays[s.sample_id + ":memories"] = encoder.embed(memories)
        arrays[s.sample_id + ":questions"] = encoder.embed([q.question.strip() for q in s.questions])
        texts += len(memories) + len(s.questions)
    elapsed = time.perf_counter() - started
    os.makedirs(CACHE, exist_ok=True)
    np.savez(EMBEDDINGS, **arrays)
    question = samples[0].questions[0].question
    encoder.embed([question])
    started = time.perf_counter()
    for _ in range(20):
        encoder.embed([question])
    single = (time.perf_counter() - started) / 20
    print(f"{texts} texts in {elapsed:.1f} s: {1000 * elapsed / texts:.1f} ms a text in batches of 64; "
          f"one question alone: {1000 * single:.1f} ms (mean of 20)")


def thesaurus(k=12):
    """For each stem of the model's whole words, the `k` nearest other stems by cosine."""
    from .fts import tokenize

    words, vectors = minilm.Encoder().vocabulary_words()
    stems = [(tokenize(w) or [""])[0] for w in words]
    table = {}
    for start in range(0, len(words), 2000):
        sims = vectors[start:start + 2000] @ vectors.T
        for r, near in enumerate(np.argsort(-sims, axis=1)[:, :3 * k]):
            key = stems[start + r]
            best = table.setdefault(key, {})
            for j in near:
                if stems[j] and stems[j] != key:
                    best[stems[j]] = max(best.get(stems[j], 0.0), float(sims[r, j]))
    os.makedirs(CACHE, exist_ok=True)
    with open(THESAURUS, "w", encoding="utf-8") as f:
        for key, best in sorted(table.items()):
            near = sorted(best.items(), key=lambda x: (-x[1], x[0]))[:k]
            f.write(key + "\t" + " ".join(f"{s}:{c:.3f}" for s, c in near) + "\n")
    print(f"{len(table)} stems from {len(words)} words -> {THESAURUS}")


def sweep(part, specs):
    wanted = {"tune": TUNE, "held-out": HELD_OUT}[part]
    samples = [s for s in load(DATA) if s.sample_id in wanted]
    cached = np.load(EMBEDDINGS)

    def prepare(conv):
        memories = cached[conv.sample.sample_id + ":memories"]
        questions = cached[conv.sample.sample_id + ":questions"]
        index = {q.question.strip(): i for i, q in enumerate(conv.sample.questions)}
        conv.similarity = lambda question: memories @ questions[index[question]]

    print(f"{'config (' + part + ')':<34}   @5   @10 | " + " ".join(f"{c[:11]:>11}" for c in CATS), flush=True)
    for spec in specs:
        name, _, sets = spec.partition("|")
        fields = parse_sets([s for s in sets.split(";") if s])
        if "thes_k" in fields:
            fields.setdefault("thes_path", THESAURUS)
        print(row(name, evaluate(samples, Config(**fields), prepare=prepare)), flush=True)


def main(argv):
    if argv[:1] == ["embed"]:
        embed(load(DATA))
    elif argv[:1] == ["thesaurus"]:
        thesaurus()
    elif argv[:1] == ["sweep"] and len(argv) > 2:
        sweep(argv[1], argv[2:])
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
