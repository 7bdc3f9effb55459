#!/usr/bin/env python3
"""Builds tune-deepset.jsonl from deepset's prompt-injection dataset.

Source: deepset/prompt-injections (Apache-2.0), 662 prompts labelled injection or not, in
English and German, as vendored by sinanw/llm-security-prompt-injection (MIT) @
c8af0b015a9a4f3380f9e20214828c2dbeadc72c, `data/raw/{train,test}-*.parquet`. Both of its
splits go to our tuning split (its labels are loose in places: role-play requests such as "I
want you to act as an interviewer" count as injections; they are kept as labelled).

Any row sharing a 60-character passage (lower-cased, blanks collapsed) with a held-out row is
dropped; the held-out files are read only for that comparison.

Usage: gen_deepset.py TRAIN.parquet TEST.parquet   (needs `pip install pyarrow`)
"""

import sys

from drop_heldout_overlap import heldout_passages, passages, write_tuning_file

import pyarrow.parquet as pq


def main():
    held = heldout_passages()
    rows, seen, dropped = [], set(), 0
    for src in sys.argv[1:]:
        for rec in pq.read_table(src).to_pylist():
            text = rec["text"].strip()
            if not text or text in seen:
                continue
            seen.add(text)
            if passages(text) & held:
                dropped += 1
                continue
            if rec["label"] == 1:
                rows.append({"text": text, "label": "attack", "family": "deepset-injection"})
            else:
                rows.append({"text": text, "label": "benign", "kind": "deepset-prompt"})
    write_tuning_file("tune-deepset.jsonl", rows, dropped)


if __name__ == "__main__":
    main()
