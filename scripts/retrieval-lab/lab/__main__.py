"""python3 -m lab [--part tune|held-out|all] [--set key=value ...] [--json]"""

import argparse
import ast
import dataclasses
import os

from .evaluate import dumps, evaluate, table
from .locomo import HELD_OUT, TUNE, load
from .ranker import Config

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data", "locomo-dev.json"))


def parse_sets(items):
    out = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key] = ast.literal_eval(value)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--part", default="tune", choices=["tune", "held-out", "all"])
    ap.add_argument("--set", action="append", default=[], help="a Config field, e.g. k1=1.5")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    config = Config(**parse_sets(args.set))
    samples = load(args.data)
    wanted = {"tune": TUNE, "held-out": HELD_OUT, "all": TUNE + HELD_OUT}[args.part]
    samples = [s for s in samples if s.sample_id in wanted]
    figures = evaluate(samples, config)
    changed = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)
               if getattr(config, f.name) != f.default}
    print(f"part {args.part}, config {changed or 'today'}")
    print(table(figures))
    if args.json:
        print(dumps(figures))


if __name__ == "__main__":
    main()
