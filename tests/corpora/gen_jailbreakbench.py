#!/usr/bin/env python3
"""Builds tune-jailbreakbench.jsonl from JailbreakBench's published attack artifacts.

Source: JailbreakBench/artifacts (MIT, "each artifact is released under MIT license owned by
the artifacts authors") @ COMMIT, `attack-artifacts/<method>/<mode>/<model>.json`: for each of
100 harmful behaviours, the prompt each attack sent. Methods: GCG and DSN (an optimised
adversarial suffix after the request), PAIR (persuasive role-play rewrites), random search (a
rules template ending in an optimised suffix) and JBC (a jailbreak-prompt site's template).
Empty prompts (attacks that found nothing) and repeats are skipped.

Any row sharing a 60-character passage with a held-out row is dropped; the held-out files are
read only for that comparison.

Usage: gen_jailbreakbench.py GIT_DIR [COMMIT]
"""

import json
import sys

from drop_heldout_overlap import TuningRows, git

COMMIT = "909e68c01d94222b8ad2e397a017e2e12e2adb73"
METHODS = ["GCG", "DSN", "PAIR", "prompt_with_random_search", "JBC"]


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else COMMIT
    names = git(git_dir, "ls-tree", "-r", "--name-only", commit, "attack-artifacts/").split()
    rows = TuningRows()
    for method in METHODS:
        for name in sorted(n for n in names if n.startswith(f"attack-artifacts/{method}/") and n.count("/") == 3):
            for jb in json.loads(git(git_dir, "show", f"{commit}:{name}"))["jailbreaks"]:
                rows.add(jb.get("prompt") or "", label="attack", family=f"jailbreakbench-{method.lower()}",
                         source=f"{name.removeprefix('attack-artifacts/')}#{jb['index']}")
    rows.write("tune-jailbreakbench.jsonl")


if __name__ == "__main__":
    main()
