#!/usr/bin/env python3
"""Drops, in place, every row of the given tuning files that shares a 60-character passage
(lower-cased, blanks collapsed) with a held-out row, and says how many it dropped (never
which: the held-out files are read only for this comparison).

Usage: drop_heldout_overlap.py tune-FILE.jsonl [...]
"""

import json
import re
import subprocess
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


class TuningRows:
    """The rows of a tuning file being gathered: each text once (stripped, never empty), and
    none sharing a passage with a held-out row (those are only counted)."""

    def __init__(self):
        self.held = heldout_passages()
        self.seen = set()
        self.rows = []
        self.dropped = 0

    def add(self, text, **fields):
        """Keeps `{"text": text, **fields}` unless its text is empty, seen, or held out."""
        text = text.strip()
        if not text or text in self.seen:
            return
        self.seen.add(text)
        if passages(text) & self.held:
            self.dropped += 1
            return
        self.rows.append({"text": text, **fields})

    def write(self, name):
        """Writes the rows kept to tuning file `name` (see `write_tuning_file`)."""
        write_tuning_file(name, self.rows, self.dropped)


def git(git_dir, *args):
    """The output of `git --git-dir GIT_DIR ARGS...` (the generators read upstream sources from
    a fetched repository without a work tree)."""
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def write_tuning_file(name, rows, dropped):
    """Writes `rows` to tuning file `name` beside this script, one JSON object a line, and says
    how many of each label it holds and how many rows were `dropped` for a held-out passage."""
    out = HERE / name
    with open(out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    attacks = sum(r["label"] == "attack" for r in rows)
    benign = f", {len(rows) - attacks} benign" if attacks < len(rows) else ""
    print(f"{out.name}: {attacks} attack{benign} ({dropped} dropped for a passage shared with a held-out row)")


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
