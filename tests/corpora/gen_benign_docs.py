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

A third cut (--third) takes ten more projects, split by project before any output was read. The
tuning side, tune-benign-docs-2.jsonl: Ant Design (English and Chinese), diffusers (English,
Korean, Chinese, Japanese, Portuguese), Trivy, Django REST framework, the Vitess website (English
and Chinese) and rust-analyzer. The held-out side, heldout-benign-docs-3.jsonl: the Nushell
website (English, its book partly translated into nine languages), the Helm website (English
and eleven translations), the QuestDB documentation and Vite. The paragraphs are cut as above,
except that files under a directory named like test data (THIRD_SKIP_DIRS) are left out. On
each side a text is kept once (its first occurrence, in the order the projects are given);
texts present in an earlier benign-docs file, or on both sides, are dropped (texts compared with
their runs of whitespace made single spaces). Each side is then a
seeded draw of THIRD_ROWS paragraphs shared evenly between its projects (a project with fewer
paragraphs than its share gives all of them, the rest going to the larger ones), each project's
draw kept in file order.

Usage: gen_benign_docs.py CARGO_GIT COMPOSE_GIT FLASK_GIT FASTAPI_GIT BOOK_GIT K8S_EXAMPLES_GIT
                          REQUESTS_GIT JSON_SERVER_GIT
       gen_benign_docs.py --second-held-out PIP_GIT PROMETHEUS_GIT AXUM_GIT
       gen_benign_docs.py --third ANT_DESIGN_GIT DIFFUSERS_GIT TRIVY_GIT DRF_GIT VITESS_GIT
                          RUST_ANALYZER_GIT -- NUSHELL_GIT HELM_GIT QUESTDB_GIT VITE_GIT
(each a git directory at the commit named in tests/corpora/README.md); writes
tune-benign-docs.jsonl and heldout-benign-docs.jsonl (or heldout-benign-docs-2.jsonl, or
tune-benign-docs-2.jsonl and heldout-benign-docs-3.jsonl) beside this script.
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
THIRD_ROWS = 6000
THIRD_TUNE = (
    "ant-design/ant-design",
    "huggingface/diffusers",
    "aquasecurity/trivy",
    "encode/django-rest-framework",
    "vitessio/website",
    "rust-lang/rust-analyzer",
)
THIRD_HELD_OUT = (
    "nushell/nushell.github.io",
    "helm/helm-www",
    "questdb/documentation",
    "vitejs/vite",
)
THIRD_SKIP_DIRS = {
    "test", "tests", "__tests__", "testdata", "test_data",
    "fixtures", "playground", "node_modules", "vendor",
}
EARLIER = ("tune-benign-docs.jsonl", "heldout-benign-docs.jsonl", "heldout-benign-docs-2.jsonl")


def paragraphs(git_dir, name, skip_dirs=()):
    """Every documentation paragraph of the repository at `git_dir`, in file order (files under
    a directory named in `skip_dirs` left out)."""
    listed = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    listed = [p for p in listed if not set(p.split("/")[:-1]) & set(skip_dirs)]
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


def whitespace_key(text):
    """A text with its runs of whitespace made single spaces, to compare texts by."""
    return " ".join(text.split())


def third_pools(names, git_dirs, earlier):
    """Each project's paragraphs, a text kept once across the projects and left out if its key
    is in `earlier`."""
    seen = set(earlier)
    pools = []
    for name, git_dir in zip(names, git_dirs):
        pool = []
        for row in paragraphs(git_dir, name, THIRD_SKIP_DIRS):
            if whitespace_key(row["text"]) not in seen:
                seen.add(whitespace_key(row["text"]))
                pool.append(row)
        pools.append(pool)
    return pools


def draw_evenly(pools, total, seed):
    """A seeded draw of `total` rows shared evenly between `pools`, each pool's rows in order."""
    quotas = [0] * len(pools)
    left = total
    order = sorted(range(len(pools)), key=lambda i: (len(pools[i]), i))
    for n, i in enumerate(order):
        quotas[i] = min(len(pools[i]), left // (len(pools) - n))
        left -= quotas[i]
    rng = random.Random(seed)
    rows = []
    for pool, quota in zip(pools, quotas):
        rows += [pool[k] for k in sorted(rng.sample(range(len(pool)), quota))]
    return rows


def third(tune_dirs, held_dirs):
    earlier = set()
    for name in EARLIER:
        with open(HERE / name, encoding="utf-8") as f:
            earlier.update(whitespace_key(json.loads(line)["text"]) for line in f)
    tune = third_pools(THIRD_TUNE, tune_dirs, earlier)
    held = third_pools(THIRD_HELD_OUT, held_dirs, earlier)
    keys = [{whitespace_key(r["text"]) for pool in side for r in pool} for side in (tune, held)]
    both = keys[0] & keys[1]
    tune = [[r for r in pool if whitespace_key(r["text"]) not in both] for pool in tune]
    held = [[r for r in pool if whitespace_key(r["text"]) not in both] for pool in held]
    write("tune-benign-docs-2.jsonl", draw_evenly(tune, THIRD_ROWS, 12))
    write("heldout-benign-docs-3.jsonl", draw_evenly(held, THIRD_ROWS, 13))


def main():
    if (
        len(sys.argv) == 2 + len(THIRD_TUNE) + 1 + len(THIRD_HELD_OUT)
        and sys.argv[1] == "--third"
        and sys.argv[2 + len(THIRD_TUNE)] == "--"
    ):
        third(sys.argv[2:2 + len(THIRD_TUNE)], sys.argv[3 + len(THIRD_TUNE):])
        return
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
