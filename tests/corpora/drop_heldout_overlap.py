#!/usr/bin/env python3
"""Drops, in place, every row of the given tuning files that shares a 60-character passage
(lower-cased, blanks collapsed) with a held-out row, and says how many it dropped (never
which: the held-out files are read only for this comparison).

Usage: drop_heldout_overlap.py tune-FILE.jsonl [...]
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASSAGE = 60


def passages(text):
    """Every 60-character passage of `text`, lower-cased with its blanks collapsed."""
    t = re.sub(r"\s+", " ", text.lower()).strip()
    return {t[i : i + PASSAGE] for i in range(0, max(1, len(t) - PASSAGE + 1))}


def heldout_passages():
    """The passages of every held-out row; the gen_* scripts drop tuning rows sharing one."""
    held = set()
    for path in sorted(HERE.glob("heldout-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                held |= passages(json.loads(line)["text"])
    return held


def main():
    held = heldout_passages()
    for name in sys.argv[1:]:
        path = Path(name)
        assert not path.name.startswith("heldout-"), "only tuning files are filtered"
        lines = [l for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
        kept = [l for l in lines if not (passages(json.loads(l)["text"]) & held)]
        path.write_text("".join(l + "\n" for l in kept), encoding="utf-8")
        print(f"{path.name}: kept {len(kept)}, dropped {len(lines) - len(kept)}")


if __name__ == "__main__":
    main()
