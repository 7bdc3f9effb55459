#!/usr/bin/env python3
"""Regenerates the seed corpora from the repo's tests (run from fuzz/: python3 seeds/gen.py)."""
import glob, json, os, re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = ["remember", "revise_memory", "forget_memory", "recall", "memory", "import-record", "extraction"]
TARGETS = ["user", "memory", "daily", "global", "local"]


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def guess_schema(s):
    if '"format"' in s:
        return "import-record"
    if '"memories"' in s:
        return "extraction"
    if '"action"' in s:
        return "memory"
    if '"query"' in s or '"limit"' in s:
        return "recall"
    if '"id"' in s and '"text"' not in s:
        return "forget_memory"
    if '"id"' in s:
        return "revise_memory"
    return "remember"


# validate: JSON raw-string literals in the validation tests and the integration tests.
raw = set()
for path in sorted(glob.glob(os.path.join(ROOT, "guest/src/validate/*.rs")) + glob.glob(os.path.join(ROOT, "tests/*.rs"))):
    src = open(path, encoding="utf-8").read()
    for m in re.finditer(r'r#"(\{.*?)"#', src, re.S):
        s = m.group(1)
        if "{{" in s:  # format! templates
            continue
        raw.add(s)
for i, s in enumerate(sorted(raw)):
    schema = guess_schema(s)
    write("validate", f"test-{i:03}", bytes([SCHEMAS.index(schema)]) + s.encode())
# A few more shapes from the schema docs, one per schema.
extra = {
    "remember": '{"text":"decrypt_config uses RC4","scope":"local","type":"fact","anchors":[{"kind":"function","start":"0x401000","end":"0x401200","name":"decrypt_config"},{"kind":"range","start":4096,"end":4200},{"kind":"near","address":"0x401000","radius":16},{"kind":"string","value":"RC4 key"}],"tags":["#crypto"],"categories":["malware"],"confidence":0.9,"image_base":"0x400000","thread":"t1"}',
    "revise_memory": '{"id":3,"text":"new text","tags":["a"],"anchors":[{"kind":"address","offset":16}],"reason":"fixed"}',
    "forget_memory": '{"id":18446744073709551615,"reason":"dup"}',
    "recall": '{"query":"config key","scope":"local","type":"fact","tags":["x"],"categories":["c"],"anchor":{"kind":"address","address":"0x401050"},"image_base":"0x400000","limit":100,"offset":5}',
    "memory": '{"action":"replace","target":"daily","old_text":"a","content":"b\\u00e9\\ud83d\\ude00"}',
    "extraction": '{"memories":[{"text":"x","scope":"local","type":"conversation_summary","anchors":[{"kind":"string","value":"s"}],"confidence":1e0}]}',
}
for schema, s in extra.items():
    write("validate", f"doc-{schema}", bytes([SCHEMAS.index(schema)]) + s.encode())

# scan: text fields of the test corpora, a handful per file and per kind/family.
for path in sorted(glob.glob(os.path.join(ROOT, "tests/corpora/*.jsonl"))):
    base = os.path.basename(path)[:-6]
    seen = {}
    for line in open(path, encoding="utf-8"):
        rec = json.loads(line)
        key = rec.get("kind") or rec.get("family") or ""
        if seen.get(key, 0) >= 1 or len(seen) >= 20 and key not in seen:
            continue
        seen[key] = seen.get(key, 0) + 1
        target = rec.get("target", "memory")
        t = TARGETS.index(target) if target in TARGETS else 1
        write("scan", f"{base}-{sum(seen.values()):03}", bytes([t]) + rec["text"].encode())

# select: workload size byte, budget byte, then query and candidate texts split on 0xFF.
sel = [
    (9, 120, [b"where is the config decrypted", b"config decrypt key", b"rc4 xor loop table"]),
    (15, 10, [b"socket network header", b"the socket parser", b"", b"header header header"]),
    (3, 255, [b"", "caf\u00e9 \u30c6\u30b9\u30c8 \U0001F600".encode()]),
    (0, 0, [b"x"]),
    (6, 60, [b"decrypt_config", b"a\nb\nc\n\n\n", b"# heading\n- item", b"memory 1: config"]),
]
for i, (n, b, parts) in enumerate(sel):
    write("select", f"seed-{i}", bytes([n, b]) + b"\xff".join(parts))

# context: the JSON of a turn context, as the host hands it to the policy.
contexts = [
    {"now": 1790000000, "subject_kind": "binary", "image_base": 4194304, "cursor": 4198480,
     "current_function": {"start": 4198400, "end": 4198912, "name": "decrypt_config"},
     "referenced_strings": ["RC4 key", "config.bin"], "live_functions": [{"start": 4096, "end": 4608, "name": "decrypt_config"}],
     "live_strings": ["RC4 key"], "query": "where is the config decrypted"},
    {"now": 0, "subject_kind": "account", "image_base": 0, "cursor": None, "current_function": None,
     "referenced_strings": [], "live_functions": [], "live_strings": [], "query": "0x401000"},
    {"now": -9223372036854775808, "subject_kind": "profile", "image_base": 18446744073709551615,
     "cursor": 18446744073709551615, "current_function": {"start": 10, "end": 5, "name": ""},
     "referenced_strings": [""], "live_functions": [{"start": 0, "end": 0, "name": "\u00e9"}], "live_strings": [], "query": "caf\u00e9 \u30c6\u30b9\u30c8"},
]
for i, c in enumerate(contexts):
    write("context", f"seed-{i}", json.dumps(c).encode())
