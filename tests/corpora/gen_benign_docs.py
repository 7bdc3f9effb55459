#!/usr/bin/env python3
"""Builds the benign documentation corpora: paragraphs of real projects' documentation.

Engineering text as people write it addresses the reader with instructions ("Run ...",
"You should ...", "This file documents ..."), which is what injected instructions do too; the
hand-written benign files hold little of it. These paragraphs are benign text for the scan:
nothing in them may be blocked.

Paragraphs are the blank-line-separated blocks of the Markdown, reStructuredText and plain text
files of each repository, 64 to 1,500 bytes long (the size of a note an agent stores), tables,
images and HTML blocks left out. The split is by repository, fixed before any scan was run on
them: Cargo, Docker Compose, Flask, FastAPI (whose documentation is translated into a dozen
languages) and the Rust book are the tuning side (a seeded draw of TUNE_ROWS paragraphs), the
Kubernetes examples, Requests and json-server the held-out side (every paragraph). A second
held-out set, pip, Prometheus and axum, was cut after the first had been read while choosing the
training data, to be measured once.

Usage: gen_benign_docs.py CARGO_GIT COMPOSE_GIT FLASK_GIT FASTAPI_GIT BOOK_GIT K8S_EXAMPLES_GIT
                          REQUESTS_GIT JSON_SERVER_GIT
       gen_benign_docs.py --second-held-out PIP_GIT PROMETHEUS_GIT AXUM_GIT
(each a git directory at the commit named in tests/corpora/README.md); writes
tune-benign-docs.jsonl and heldout-benign-docs.jsonl (or heldout-benign-docs-2.jsonl) beside
this script.
"""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TUNE_ROWS = 4000
SUFFIXES = (".md", ".rst", ".txt")


def paragraphs(git_dir, name):
    """Every documentation paragraph of the repository at `git_dir`, in file order."""
    listed = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    rows = []
    for path in sorted(p for p in listed if p.lower().endswith(SUFFIXES)):
        raw = subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True, check=True).stdout
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        for block in re.split(r"\n\s*\n", text):
            block = block.strip("\n")
            if not 64 <= len(block.encode()) <= 1500:
                continue
            if block.lstrip().startswith(("|", "![", "[![", "<")):
                continue
            rows.append({"text": block, "label": "benign", "source": f"{name}:{path}"})
    return rows


def write(name, rows):
    with open(HERE / name, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{name}: {len(rows)} rows")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--second-held-out":
        pip, prometheus, axum = sys.argv[2:]
        write(
            "heldout-benign-docs-2.jsonl",
            paragraphs(pip, "pypa/pip")
            + paragraphs(prometheus, "prometheus/prometheus")
            + paragraphs(axum, "tokio-rs/axum"),
        )
        return
    if len(sys.argv) != 9:
        sys.exit(__doc__)
    cargo, compose, flask, fastapi, book, k8s, requests, json_server = sys.argv[1:]
    tune = (
        paragraphs(cargo, "rust-lang/cargo")
        + paragraphs(compose, "docker/compose")
        + paragraphs(flask, "pallets/flask")
        + paragraphs(fastapi, "fastapi/fastapi")
        + paragraphs(book, "rust-lang/book")
    )
    tune = random.Random(11).sample(tune, TUNE_ROWS)
    held = (
        paragraphs(k8s, "kubernetes/examples")
        + paragraphs(requests, "psf/requests")
        + paragraphs(json_server, "typicode/json-server")
    )
    write("tune-benign-docs.jsonl", tune)
    write("heldout-benign-docs.jsonl", held)


if __name__ == "__main__":
    main()
