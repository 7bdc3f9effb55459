"""The Python call overhead: `recall` and `context` made from Python (kenning.KnowledgeBase),
against the same calls made from Rust in the same process (the native module's
`time_call_in_rust`, timed inside Rust), over one knowledge base. The two alternate call by call,
so that both meet the same machine and the same store (a checkpoint, a cache), and each figure is
the median of its calls. Prints one JSON object; `ratio` is Python's median over Rust's (the
goal: at most 1.2).

    python -P python/bench.py [--memories N] [--calls C]

(`-P`: import the installed package, not the source folder beside the script.)
"""

import argparse
import json
import statistics
import tempfile
import time

import kenning

SUBJECT = "db:bench.bin"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=2000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        kb = kenning.open(data, now=1_700_000_000)
        words = ["parser", "config", "beacon", "crypto", "header", "socket", "thread", "buffer"]
        for i in range(options.memories):
            kb.remember(
                SUBJECT,
                f"Function {i} handles the {words[i % 8]} and the {words[(i * 3) % 8]} state {i}.",
                anchors=[kenning.function(f"sub_{i:x}", 0x401000 + 0x100 * i, 0x401080 + 0x100 * i)],
                image_base=0x400000,
                author="human",
            )
        cursor = 0x401010 + 0x100 * 7
        calls = {
            "recall": (
                {"query": "parser config", "limit": 10},
                lambda: kb.recall(SUBJECT, "parser config", limit=10),
            ),
            "context": (
                {"query": "beacon socket", "cursor": cursor, "image_base": 0x400000},
                lambda: kb.context(SUBJECT, query="beacon socket", cursor=cursor, image_base=0x400000),
            ),
        }
        figures = {}
        for name, (args, from_python) in calls.items():
            args_json = json.dumps(args)
            for _ in range(50):  # warm: the policy's instances, the store's pages
                from_python()
            python_us, rust_us = [], []
            for _ in range(options.calls):
                rust_us.extend(kb._service.time_call_in_rust(SUBJECT, "agent", name, args_json, 1))
                started = time.perf_counter()
                from_python()
                python_us.append((time.perf_counter() - started) * 1e6)
            python_median, rust_median = statistics.median(python_us), statistics.median(rust_us)
            figures[name] = {
                "python_us": round(python_median, 1),
                "rust_us": round(rust_median, 1),
                "ratio": round(python_median / rust_median, 3),
            }
        print(json.dumps({"memories": options.memories, "calls": options.calls, **figures}))


if __name__ == "__main__":
    main()
