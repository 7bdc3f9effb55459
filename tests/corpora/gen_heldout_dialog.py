#!/usr/bin/env python3
"""Builds heldout-benign-dialog.jsonl: single turns of real dialogs between people, or between a
person and a human playing an assistant, in English and Chinese.

An agent's memory stores what people say in chat; none of it may be blocked. These turns are
benign text for the scan, held out: split off before any scan was run on them.

Sources (each a public GitHub repository, read at a pinned commit; the licence checked there):

- Taskmaster-4 (TM-4-2024, English): coffee-ordering self-dialogs, one crowd worker writing the
  turns of both the customer (`user`) and the barista (`assistant`).
  google-research-datasets/Taskmaster @ d92cb6af3005f1dc09c39e75e7daf4a04905e00b,
  `TM-4-2024/data/data_00.json` ... `data_07.json`. Licence CC-BY-4.0, stated in
  `TM-4-2024/README.md` ("made available under the Creative Commons Attribution 4.0 License";
  the repository has no LICENSE file).
- MultiWOZ 2.1 (English): Wizard-of-Oz dialogs between a tourist and a Cambridge information
  clerk, both human, over restaurants, hotels, trains, taxis and attractions; the validation and
  test splits (999 and 1,000 dialogs) as redistributed by ConvLab-2 (its copy of MultiWOZ 2.1
  with user dialog acts added; the text is the release's, tokenised with spaces before
  punctuation). thu-coai/ConvLab-2 @ b014b81fcb1ff74f54681917eee39c14c87af3e5,
  `data/multiwoz/val.json.zip` and `data/multiwoz/test.json.zip` (the full MultiWOZ files of
  budzianowski/multiwoz are over the snapshot size limit and were absent). Licences: ConvLab-2
  `LICENSE` Apache-2.0, its `README.md` ("Supported Datasets") gives the `data/multiwoz` data
  as CC-BY-4.0; upstream budzianowski/multiwoz `LICENSE` @
  fe0c8e65cfcd8462bd33c86e35f21addc84ca82b is MIT.
- KdConv (Chinese): knowledge-grounded chit-chat between two crowd workers about films, music
  and travel; the dev and test splits of the three domains (the train files are over the
  snapshot size limit). thu-coai/KdConv @ 653db76432de09a004ba708a68f8bbd5500e6bec,
  `data/{film,music,travel}/{dev,test}.json`. Licence Apache-2.0 (`LICENSE`). The turns carry no
  speaker names; they alternate between the two workers, and both are taken.

Selection: every turn of every dialog, both speakers, in file order (files in the order above),
its text stripped of surrounding whitespace and otherwise as written; turns of 20 to 1,500 bytes
(UTF-8) kept. A text is kept once (its first occurrence, texts compared with their runs of
whitespace made single spaces), across the three sources, and left out if it is present in any
other `*.jsonl` file beside this script. Each source then gives a seeded draw (seed 14) of
ROWS_PER_SOURCE turns, kept in file order. No turn was chosen or dropped by reading it.

Rows: {"text", "label": "benign", "family": "<dataset>-turn", "source": "<owner/repo>:<path>"}
(for MultiWOZ the path is that of the zip file).

Usage: gen_heldout_dialog.py TASKMASTER_GIT CONVLAB2_GIT KDCONV_GIT
(each a git directory at the commit named above; the script stops if HEAD differs); writes
heldout-benign-dialog.jsonl beside this script. Python 3 standard library only.
"""

import io
import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

from gen_benign_docs import whitespace_key, write

HERE = Path(__file__).resolve().parent
OUTPUT = "heldout-benign-dialog.jsonl"
ROWS_PER_SOURCE = 2000
SEED = 14
MIN_BYTES, MAX_BYTES = 20, 1500

TASKMASTER = "google-research-datasets/Taskmaster"
CONVLAB2 = "thu-coai/ConvLab-2"
KDCONV = "thu-coai/KdConv"
COMMITS = {
    TASKMASTER: "d92cb6af3005f1dc09c39e75e7daf4a04905e00b",
    CONVLAB2: "b014b81fcb1ff74f54681917eee39c14c87af3e5",
    KDCONV: "653db76432de09a004ba708a68f8bbd5500e6bec",
}
TASKMASTER_FILES = [f"TM-4-2024/data/data_{i:02d}.json" for i in range(8)]
MULTIWOZ_FILES = ["data/multiwoz/val.json.zip", "data/multiwoz/test.json.zip"]
KDCONV_FILES = [f"data/{d}/{s}.json" for d in ("film", "music", "travel") for s in ("dev", "test")]


def show(git_dir, path):
    return subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True, check=True
    ).stdout


def check_commit(git_dir, repo):
    head = subprocess.run(
        ["git", "--git-dir", git_dir, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if head != COMMITS[repo]:
        sys.exit(f"{git_dir}: HEAD is {head}, expected {repo} @ {COMMITS[repo]}")


def taskmaster_turns(git_dir):
    for path in TASKMASTER_FILES:
        for dialog in json.loads(show(git_dir, path)):
            for utterance in dialog["utterances"]:
                yield utterance.get("text") or "", path


def multiwoz_turns(git_dir):
    for path in MULTIWOZ_FILES:
        archive = zipfile.ZipFile(io.BytesIO(show(git_dir, path)))
        for member in archive.namelist():
            dialogs = json.loads(archive.read(member))
            for name in dialogs:
                for turn in dialogs[name]["log"]:
                    yield turn.get("text") or "", path


def kdconv_turns(git_dir):
    for path in KDCONV_FILES:
        for dialog in json.loads(show(git_dir, path)):
            for message in dialog["messages"]:
                yield message.get("message") or "", path


def existing_keys():
    keys = set()
    for path in sorted(HERE.glob("*.jsonl")):
        if path.name == OUTPUT:
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    keys.add(whitespace_key(json.loads(line)["text"]))
    return keys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sources = [
        ("taskmaster-turn", TASKMASTER, taskmaster_turns, sys.argv[1]),
        ("multiwoz-turn", CONVLAB2, multiwoz_turns, sys.argv[2]),
        ("kdconv-turn", KDCONV, kdconv_turns, sys.argv[3]),
    ]
    for _, repo, _, git_dir in sources:
        check_commit(git_dir, repo)
    seen = existing_keys()
    pools = []
    for family, repo, turns, git_dir in sources:
        pool = []
        for text, path in turns(git_dir):
            text = text.strip()
            if not MIN_BYTES <= len(text.encode("utf-8")) <= MAX_BYTES:
                continue
            if whitespace_key(text) in seen:
                continue
            seen.add(whitespace_key(text))
            pool.append({"text": text, "label": "benign", "family": family, "source": f"{repo}:{path}"})
        print(f"{family}: {len(pool)} distinct turns in range", file=sys.stderr)
        pools.append(pool)
    rng = random.Random(SEED)
    rows = []
    for pool in pools:
        rows += [pool[k] for k in sorted(rng.sample(range(len(pool)), ROWS_PER_SOURCE))]
    write(OUTPUT, rows)


if __name__ == "__main__":
    main()
