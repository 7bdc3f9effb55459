#!/usr/bin/env python3
"""Builds heldout-credentials-microsoft.jsonl: two held-out credentials per kept pattern of
Microsoft's security-utilities, generated from Microsoft's own description of each key format
(its regex) and placed in the same assignment contexts as gen_heldout_credentials.py,
gen_heldout_noseyparker.py and gen_heldout_kingfisher.py.

Source: microsoft/security-utilities (MIT) @ 638ad20eb4d446319a31e9c0ed293d087b4ffa55, the JSON
files of GeneratedRegexPatterns/ (extracted with `git show <commit>:<path>` into one directory).
Each pattern has an Id, a Name, a Label and a Pattern (Python syntax, the secret in the named
group `refine`). A pattern appears in several files; they are read in file-name order and
deduplicated by (Id, Name). The regexes are only used here, to generate random strings of each
format (with `rstr`, through gen_heldout_noseyparker.py's generator and translation, imported)
and to label where the credential sits; nothing of them is copied into the policy's rules.

Usage: gen_heldout_microsoft.py PATTERNS_DIR   (needs rstr; Python 3.11)

Never tune on the output: it measures how well rules written for other formats generalise to
key formats (kinds) the scanner has not been tuned on.

Steps, all decided from the patterns' Names, Labels and regexes before any sample was made:
1. SKIP: low-confidence or unclassified catch-alls (and bare shapes told apart only by a
   checksum), sample and dummy tokens, a PKCS#12 file prefix, and every kind whose credential
   format is already in the tuning data (secrets-extra.jsonl,
   ../shared/data/secrets-dev.jsonl, and the gitleaks, Nosey Parker and Kingfisher credential
   sets, whose kinds are those sources' rule ids), each with the kind that covers it. This set
   is about formats, not providers: Azure is a provider of the earlier sets, most of its key
   formats are not.
2. For each kept pattern: the secret is the group `refine`, generated with rstr and placed in the
   CONTEXTS with a keyword made of the first words of its Name (`AzureFunctionIdentifiableKey`
   gives `azurefunction`); a sample is kept only when the full Pattern matches the text and its
   group `refine` is exactly the secret. No kept pattern is a URI or connection string, so none
   needs gen_heldout_noseyparker.py's WHOLE handling. Patterns for which no sample fits would be
   skipped too; the printed skipped count lists every reason.

Known limit: several formats embed a checksum (the common annotated keys, the identifiable keys'
last characters); the samples are regex-generated, so their checksums are not valid.

Deterministic: the same files give the same bytes on every run (seeded; see
gen_heldout_noseyparker.Gen).
"""

import json
import random
import re
import sys
from pathlib import Path

from gen_heldout_noseyparker import BAD, CONTEXTS, C, HERE, Gen, find_group, make, translate, write_rows

ATTEMPTS = 40
SOURCE = "microsoft-security-utilities-patterns"
OUT = "heldout-credentials-microsoft.jsonl"

CATCHALL = "low-confidence or unclassified catch-all (no fixed signature: any value of a shape)"
SAMPLE = "a test, sample or dummy token, not a credential"
FILE = "not a value an assignment holds: the start of a base64 PKCS#12 file, with no `refine` group"


def tuned(kinds):
    return f"format already in the tuning data ({kinds})"


# By Name. Decided from each pattern's Name, Label and regex before any sample was made.
SKIP = {
    # catch-alls
    "UnclassifiedLegacyCommonAnnotatedSecurityKey": CATCHALL,  # any common annotated key, of any provider
    "OAuth2BearerToken": CATCHALL,  # any Authorization: Bearer value (secrets-extra authorization-header)
    "Unclassified32ByteBase64String": CATCHALL,
    "Unclassified64ByteBase64String": CATCHALL,
    "Unclassified16ByteHexadecimalString": CATCHALL,
    "AadClientAppLegacyCredentials": CATCHALL,  # a bare ^...{34}$ shape (also secrets-extra azure-client-secret)
    # Azure DevOps legacy PAT: any 52 base32 letters, told apart only by a checksum a generated
    # sample cannot carry; Nosey Parker's np.azure.3 describes it (no row of it in that set), and
    # np.azure.4 (tuning) the newer Azure DevOps PAT
    "AdoLegacyPat": CATCHALL,
    # test and dummy tokens
    "SecretScanningSampleToken": SAMPLE,
    "AzureDummyLegacyCommonAnnotatedSecurityKey": SAMPLE,
    # formats the tuning data holds
    "UnclassifiedJwt": tuned("secrets-extra jwt, np.jwt.1"),
    "UrlCredentials": tuned("secrets-extra url-credentials"),
    "LooseSasSecret": tuned("secrets-extra azure-sas-signature"),
    "AadClientAppIdentifiableCredentials": tuned("gitleaks azure-ad-client-secret, secrets-extra azure-client-secret"),
    "AzureStorageAccountLegacyCredentials": tuned("secrets-extra azure-storage-connection-string, np.azure.1"),
    "AzureCosmosDBLegacyCredentials": tuned("np.azure.1 and secrets-extra azure-storage-connection-string: a 64-byte base64 AccountKey"),
    "AzureMessagingLegacyCredentials": tuned("np.azure.1: SharedAccessKey in a Service Bus connection string"),
    "AzureDevOpsLegacyCommonAnnotatedSecurityKeyPat": tuned("np.azure.4: 76 characters, AZDO, 4 characters"),
    "AzureDatabricksPat": tuned("gitleaks databricks-api-token, np.databricks.1"),
    "NpmAuthorKey": tuned("secrets-extra npm-token, gitleaks npm-access-token, np.npm.1"),
    "NuGetApiKey": tuned("np.nuget.1"),
    # a key file (secrets-extra pem-private-key holds key files; gitleaks' pkcs12-file matches file names)
    "Pkcs12CertificatePrivateKeyBundle": FILE,
}

rng = random.Random(19)
gen = Gen(rng)


def load(patterns_dir):
    """The patterns of every JSON file, in file-name order, deduplicated by (Id, Name)."""
    seen = {}
    for path in sorted(Path(patterns_dir).glob("*.json")):
        for p in json.loads(path.read_text(encoding="utf-8")):
            key = (p["Id"], p["Name"])
            if key in seen:
                if seen[key]["Pattern"] != p["Pattern"]:
                    raise SystemExit(f"{key}: two different patterns")
                continue
            seen[key] = p
    return list(seen.values())


def keyword(name):
    """A short lowercase word from the Name: up to three of its first words, those before
    Identifiable or Legacy (`AzureFunctionIdentifiableKey` gives `azurefunction`)."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", name)
    cut = next((i for i, w in enumerate(words) if w in ("Identifiable", "Legacy")), len(words))
    return "".join(w.lower() for w in [w for w in words[:cut] if w != "For"][:3])


def mask(items):
    """The parsed pattern with each run of fixed literals replaced by its length: two patterns
    with the same mask differ only in their fixed characters (a signature, a provider code)."""
    out, run = [], 0
    for op, av in items:
        if op is C.LITERAL:
            run += 1
            continue
        if run:
            out.append(("literals", run))
            run = 0
        if op is C.SUBPATTERN:
            out.append(("group", mask(av[-1])))
        elif op is C.BRANCH:
            out.append(("branch", tuple(mask(alt) for alt in av[1])))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            out.append((str(op), av[0], av[1], mask(av[2])))
        else:
            out.append((str(op), str(av)))
    if run:
        out.append(("literals", run))
    return tuple(out)


def main(patterns_dir):
    patterns = load(patterns_dir)
    missing = set(SKIP) - {p["Name"] for p in patterns}
    if missing:
        raise SystemExit(f"SKIP names no pattern: {sorted(missing)}")
    rows, skipped, shapes, regexes = [], [], {}, set()
    for p in patterns:
        kind = f"{p['Id']}.{p['Name']}"
        if p["Name"] in SKIP:
            skipped.append((kind, SKIP[p["Name"]]))
            continue
        translated = translate({"id": kind, "pattern": p["Pattern"]}, skipped)
        if translated is None:
            continue
        pattern, parsed = translated
        n = pattern.groupindex["refine"]
        items = find_group(parsed, n)
        k = keyword(p["Name"])
        made = 0
        for attempt in range(ATTEMPTS):
            value, secret = make(items, None, gen)
            if not secret or set(value) & BAD or any(c.isspace() for c in value) or len(secret) > 400:
                continue
            ctx = CONTEXTS[(len(rows) + attempt) % len(CONTEXTS)]
            text = ctx.replace("{K}", k.upper()).replace("{k}", k).replace("{S}", value)
            m = pattern.search(text)
            if not m or m.group(n) != secret:
                continue
            rows.append({"text": text, "label": "risk", "kind": kind, "secret": secret, "source": SOURCE})
            made += 1
            if made == 2:
                break
        if made == 0:
            skipped.append((kind, "no sample fits the contexts"))
            continue
        shapes.setdefault(mask(parsed), []).append(kind)
        regexes.add(p["Pattern"])
    write_rows(OUT, rows, len(patterns), skipped)
    print(f"{len({r['kind'] for r in rows})} kinds taken, {len(regexes)} distinct patterns, "
          f"{len(shapes)} distinct shapes (the pattern with its fixed literals masked):")
    for kinds in shapes.values():
        print(f"  {len(kinds):2} kind(s), such as {kinds[0]}")
    summarise(OUT)


def summarise(name):
    """Checks the written file (every secret in its text, no text twice) and prints a summary."""
    rows = [json.loads(line) for line in open(HERE / name, encoding="utf-8")]
    assert all(r["secret"] in r["text"] for r in rows), "a secret not in its text"
    assert len({r["text"] for r in rows}) == len(rows), "a text twice"
    assert all(r["label"] == "risk" and set(r) == {"text", "label", "kind", "secret", "source"} for r in rows)
    per_kind = {}
    for r in rows:
        per_kind[r["kind"]] = per_kind.get(r["kind"], 0) + 1
    print(f"{name}: {len(rows)} rows, {len(per_kind)} kinds ({sum(v == 2 for v in per_kind.values())} with two rows), "
          f"every secret in its text, no text twice")


if __name__ == "__main__":
    main(sys.argv[1])
