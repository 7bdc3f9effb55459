"""python3 -m lab.sweep PART 'name|k=v,k=v' ...: one line per configuration (overall and per-category
@5/@10) on one part; used to choose on the tuning part."""

import sys

from .evaluate import evaluate
from .locomo import HELD_OUT, TUNE, load
from .ranker import Config
from .__main__ import DATA, parse_sets

CATS = ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial"]


def row(name, figures):
    a = figures["all"]
    cells = " ".join(f"{figures[c]['@5']:5.1f}/{figures[c]['@10']:5.1f}" for c in CATS)
    return f"{name:<34} {a['@5']:5.1f} {a['@10']:5.1f} | {cells}"


def main(argv):
    part = argv[0]
    wanted = {"tune": TUNE, "held-out": HELD_OUT}[part]
    samples = [s for s in load(DATA) if s.sample_id in wanted]
    print(f"{'config (' + part + ')':<34}   @5   @10 | " + " ".join(f"{c[:11]:>11}" for c in CATS), flush=True)
    for spec in argv[1:]:
        name, _, sets = spec.partition("|")
        config = Config(**parse_sets([s for s in sets.split(";") if s]))
        print(row(name, evaluate(samples, config)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
