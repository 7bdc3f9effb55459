#!/usr/bin/env python3
"""Counts the benign rows of a corpus that the scan blocks or alters, in all and for the rows
whose source is a file written for AI coding agents (AGENTS.md, CLAUDE.md, skills under
.agents/, .ai/, .claude/ or .pi/), which order an agent about in the imperative as injected text
does, and which real projects now hold beside their documentation.

Usage: blocks_by_source.py KENNING_BINARY FILE
"""

import json
import subprocess
import sys

AGENT_FILES = ("AGENTS.md", "CLAUDE.md")
AGENT_DIRS = (".agents/", ".ai/", ".claude/", ".pi/")


def is_agent_file(source):
    path = source.split(":", 1)[-1]
    return path.endswith(AGENT_FILES) or any(d in f"/{path}" for d in (f"/{d}" for d in AGENT_DIRS))


def main():
    binary, path = sys.argv[1:]
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    request = "".join(json.dumps({"text": r["text"]}) + "\n" for r in rows)
    out = subprocess.run([binary, "scan", "--jsonl"], input=request, capture_output=True, text=True, check=True)
    verdicts = [json.loads(line)["verdict"] for line in out.stdout.split("\n") if line.strip()]
    assert len(verdicts) == len(rows), "one verdict per row"
    for name, keep in (("all rows", lambda r: True), ("agent files", lambda r: is_agent_file(r.get("source", "")))):
        picked = [v for r, v in zip(rows, verdicts) if keep(r)]
        blocked = sum(v == "block" for v in picked)
        altered = sum(v not in ("block", "allow") for v in picked)
        share = 100 * blocked / len(picked) if picked else 0.0
        print(f"{name}: {len(picked)} rows, {blocked} blocked ({share:.2f}%), {altered} redacted")


if __name__ == "__main__":
    main()
