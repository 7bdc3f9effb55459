#!/usr/bin/env python3
"""Builds heldout-credentials-gitleaks.jsonl: one held-out credential per rule of gitleaks'
default configuration, generated from gitleaks' own description of the format (its regex), not
from ours, and placed in assignment contexts of several languages.

Source: gitleaks/gitleaks (MIT) @ the commit given below, file config/gitleaks.toml. The regexes
are only used here, to generate random strings of each format (with `rstr`, pip install rstr)
and to label where the credential sits; nothing of them is copied into the policy's rules.

Usage: gen_heldout_credentials.py PATH/TO/gitleaks.toml

Never tune on the output: it measures how well rules written from the formats' facts
generalise to another description of the same formats. Rules for which no sample can be made
(regexes that only match file names, the catch-all generic rule, multi-line YAML/curl forms)
are listed in the output's skipped count.
"""

import json
import random
import re
import sys
import tomllib
from pathlib import Path

import rstr

HERE = Path(__file__).resolve().parent
SKIP = {"generic-api-key", "pkcs12-file", "kubernetes-secret-yaml", "curl-auth-header", "curl-auth-user", "private-key", "hashicorp-tf-password", "sourcegraph-access-token", "jwt", "jwt-base64", "vault-service-token"}

rng = random.Random(7)
gen = rstr.Rstr(rng)


def first_group(regex):
    """The text of the first capturing group, or the whole regex."""
    depth, start = 0, None
    i = 0
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = i + 1
            if j < len(regex) and regex[j] == "^":
                j += 1
            if j < len(regex) and regex[j] == "]":
                j += 1
            while j < len(regex) and regex[j] != "]":
                if regex[j] == "\\":
                    j += 1
                elif regex[j:j + 2] == "[:":
                    j = regex.index(":]", j) + 1
                j += 1
            i = j + 1
            continue
        if c == "(":
            if start is None and regex[i + 1:i + 2] != "?":
                start, depth = i + 1, 1
            elif start is not None:
                depth += 1
        elif c == ")" and start is not None:
            depth -= 1
            if depth == 0:
                return regex[start:i]
        i += 1
    return regex


def clean(regex):
    regex = regex.replace("[[:alnum:]]", "[A-Za-z0-9]").replace("[:alnum:]", "A-Za-z0-9")
    regex = regex.replace("\\z", "").replace("\\b", "")
    regex = re.sub(r"\(\?-?i\)", "", regex)
    regex = re.sub(r"\(\?-?i:", "(?:", regex)
    return regex


CONTEXTS = [
    '{K}_API_KEY="{S}"',
    "export {K}_TOKEN={S}",
    '"{k}_secret": "{S}",',
    "{k}Token := '{S}'",
    "{k}.auth.token: {S}",
    "<add key=\"{k}_key\" value=\"{S}\" />",
    "{K}_ACCESS_KEY = {S}  # rotate monthly",
]


def main(path):
    config = tomllib.load(open(path, "rb"))
    rows, skipped = [], []
    for rule in config["rules"]:
        rid, regex = rule["id"], rule.get("regex")
        if not regex or rid in SKIP:
            skipped.append(rid)
            continue
        keyword = (rule.get("keywords") or [rid.split("-")[0]])[0]
        keyword = re.sub(r"[^a-z0-9]", "", keyword.lower()) or rid.split("-")[0]
        try:
            flags = re.I if "(?i" in regex else 0
            full = regex.replace("[[:alnum:]]", "[A-Za-z0-9]").replace("\\z", "$")
            full = re.sub(r"\(\?i\)", "", re.sub(r"\(\?-?i:", "(?:", full))
            pattern = re.compile(full, flags)
        except re.error:
            skipped.append(rid)
            continue
        secret_re = clean(first_group(regex))
        made = 0
        for attempt in range(40):
            try:
                secret = gen.xeger(secret_re)
            except Exception:
                break
            if not secret or any(c in secret for c in "\"'\n\r\t `\\<>") or len(secret) > 400:
                continue
            ctx = CONTEXTS[(len(rows) + attempt) % len(CONTEXTS)]
            text = ctx.replace("{K}", keyword.upper()).replace("{k}", keyword).replace("{S}", secret)
            m = pattern.search(text)
            if not m:
                continue
            found = next((g for g in m.groups() if g), m.group(0))
            if secret not in found and found not in secret:
                continue
            rows.append({"text": text, "label": "risk", "kind": rid, "secret": secret, "source": "gitleaks-patterns"})
            made += 1
            if made == 2:
                break
        if made == 0:
            skipped.append(rid)
    with open(HERE / "heldout-credentials-gitleaks.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} rows over {len({r['kind'] for r in rows})} kinds; skipped {len(skipped)}: {' '.join(skipped)}")


if __name__ == "__main__":
    main(sys.argv[1])
