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

from drop_heldout_overlap import TuningRows

import pyarrow.parquet as pq


def main():
    rows = TuningRows()
    for src in sys.argv[1:]:
        for rec in pq.read_table(src).to_pylist():
            if rec["label"] == 1:
                rows.add(rec["text"], label="attack", family="deepset-injection")
            else:
                rows.add(rec["text"], label="benign", kind="deepset-prompt")
    rows.write("tune-deepset.jsonl")


if __name__ == "__main__":
    main()
