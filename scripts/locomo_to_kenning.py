#!/usr/bin/env python3
"""Writes one LoCoMo conversation as a kenning-memory/1 file, to try the lifecycle jobs on real
conversations (for example a consolidation's dry-run plan):

    python3 scripts/locomo_to_kenning.py ../shared/data/locomo-dev.json conv-26 observations > conv-26.jsonl
    kenning --data-dir /tmp/locomo import conv-26.jsonl --subject account:locomo-conv-26
    kenning --data-dir /tmp/locomo dream --subject account:locomo-conv-26 --dry-run

`observations` writes the conversation's observation facts, `turns` its raw turns ("Speaker:
text"); each in session order, one second apart, in a thread per session.
"""

import hashlib
import json
import re
import sys


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[3] not in ("observations", "turns"):
        sys.exit("usage: locomo_to_kenning.py LOCOMO.json SAMPLE_ID observations|turns")
    path, sample_id, what = sys.argv[1:]
    conversations = {c["sample_id"]: c for c in json.load(open(path, encoding="utf-8"))}
    if sample_id not in conversations:
        sys.exit(f"{sample_id}: not in {path} (it holds {', '.join(conversations)})")
    conversation = conversations[sample_id]
    texts = []  # (session, text)
    session_number = lambda key: int(re.search(r"session_(\d+)", key).group(1))
    if what == "observations":
        for key in sorted(conversation["observation"], key=session_number):
            for facts in conversation["observation"][key].values():
                texts.extend((session_number(key), fact) for fact, _evidence in facts)
    else:
        dialogue = conversation["conversation"]
        for key in sorted((k for k in dialogue if re.fullmatch(r"session_\d+", k)), key=session_number):
            texts.extend((session_number(key), f"{t['speaker']}: {t['text']}") for t in dialogue[key])
    name = f"locomo-{sample_id}"
    print(json.dumps({"format": "kenning-memory/1",
                      "subject": {"kind": "account", "key": name, "label": name},
                      "exported_at": 1_700_000_000 + len(texts), "memories": len(texts)}))
    for index, (session, text) in enumerate(texts, start=1):
        at = 1_700_000_000 + index
        print(json.dumps({"format": "kenning-memory/1", "id": index, "scope": "global", "type": "fact",
                          "text": text, "confidence": 0.8, "author": "agent", "badge": "native",
                          "thread": f"session-{session}",
                          "content_hash": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                          "created_at": at, "updated_at": at}))


if __name__ == "__main__":
    main()
