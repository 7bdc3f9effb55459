#!/usr/bin/env python3
"""Builds heldout-credentials-titus.jsonl: two held-out credentials per rule of Titus whose
provider (the service the credential belongs to) has no rule in gitleaks, Nosey Parker or
Kingfisher and is not in the tuning files, generated from Titus's own description of the format
(its regex) and placed in the same assignment contexts as the earlier credential sets.

Source: praetorian-inc/titus (Apache-2.0; its NOTICE says the rules derive from Nosey Parker and
Kingfisher, both Apache-2.0) @ 369d8dc4359a2d70629e0fe7732d3244a3315efc, the YAML files of
pkg/rule/rules/ (extracted with `git show <commit>:<path>`; the same rule format as Nosey
Parker's). The regexes are only used here, to generate random strings of each format (with
`rstr`, through the generation code of gen_heldout_noseyparker.py and gen_heldout_kingfisher.py,
imported) and to label where the credential sits; nothing of them is copied into the policy's
rules.

The providers to leave out are read from gitleaks/gitleaks @
b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b (config/gitleaks.toml), praetorian-inc/noseyparker @
2e6e7f36ce36619852532bbe698d8cb7a26d2da7 (crates/noseyparker/data/default/builtin/rules/*.yml),
every rule of mongodb/kingfisher @ ee7c0db3ef87575768f817820c24736249ffcdef (data/rules/*.yml),
the kinds of secrets-extra.jsonl beside this script, and TUNED below (what
../shared/data/secrets-dev.jsonl and secrets-extra.jsonl's format kinds hold).

Usage: gen_heldout_titus.py TITUS_RULES_DIR GITLEAKS_TOML NP_RULES_DIR KF_RULES_DIR
(needs pyyaml and rstr; Python 3.11)

Never tune on the output: it measures how well rules written for other formats generalise to
credential kinds of providers that no earlier set had.

Steps, all decided from the rules' ids, names, descriptions, fields and regexes before any
sample was made:
1. Provider overlap, as in gen_heldout_kingfisher.py (its provider keys and ALIAS, extended by
   MORE_ALIAS here): a Titus rule sharing a provider key with any rule of the three sources, or
   with the tuning files, is left out. This errs towards leaving out.
2. SKIP: identifiers and keys meant to ship in client apps, catch-all generic rules, rules
   Titus does not report on their own (`visible: false`), and later rules reusing an id.
3. For each remaining rule: samples as in gen_heldout_kingfisher.py (the secret is the rule's
   capturing group, or the one SECRET_GROUP names, generated with rstr and placed in the
   CONTEXTS with a keyword from the rule's id or name; a sample is kept only when the rule's full
   regex, translated to Python, matches the text and its group is exactly the secret), and the
   secret must also pass the rule's own post-filters as Titus applies them to the secret
   (`min_entropy`, and `pattern_requirements`' character counts and ignore list), so that, a
   checksum aside, Titus's own filters would pass every row. A `pattern_requirements` checksum
   (Zuplo's CRC32) is not computed: those samples' checksums are not valid. No rule taken is a
   URI or connection string, so WHOLE is empty. Rules for which no sample fits are skipped too,
   those whose samples fit but never pass the post-filters with that reason (found with a
   generator of their own, so the rows do not depend on it); the printed skipped count lists
   every reason.

Deterministic: the same rules give the same bytes on every run (seeded; see
gen_heldout_noseyparker.Gen).
"""

import json
import math
import random
import sys
from pathlib import Path

import yaml

import gen_heldout_kingfisher as kf
from gen_heldout_kingfisher import ALIAS, DUPLICATE, find_group, prefix_keys, rule_keys, samples, source_keys, translate, whole_body
from gen_heldout_microsoft import summarise
from gen_heldout_noseyparker import HERE, Gen, write_rows

SOURCE = "titus-patterns"
OUT = "heldout-credentials-titus.jsonl"

kf.rng.seed(23)  # samples() draws from gen_heldout_kingfisher's generator: its own seed here

# --- 1. Provider overlap -------------------------------------------------------------------------

# More other names, owners and products, in the sense of gen_heldout_kingfisher.ALIAS.
MORE_ALIAS = {
    "nvidia": "nvapi",  # Kingfisher's NVAPI key rule is NVIDIA's
    "voyage": "mongodb", "voyageai": "mongodb",  # Voyage AI is owned by MongoDB
    "scale": "facebook",  # Meta holds 49% of Scale AI (not control; left out all the same)
}

# Providers of the tuning files that no source rule id names: secrets-dev.jsonl's FileZilla
# configs, and the databases whose URIs and connection strings secrets-extra.jsonl's
# db-connection-string and url-credentials kinds hold.
TUNED = {"filezilla", "mysql", "jdbc", "redis"}


def keys_of(rule):
    keys = rule_keys(rule)
    return keys | {MORE_ALIAS[k] for k in keys if k in MORE_ALIAS}


def taken_keys(gitleaks_toml, np_dir, kf_dir):
    """The provider keys of gitleaks, Nosey Parker, every Kingfisher rule and the tuning files."""
    keys = source_keys(gitleaks_toml, np_dir)
    for rule in load_rules(kf_dir):
        keys |= keys_of(rule)
    for line in open(HERE / "secrets-extra.jsonl", encoding="utf-8"):
        keys |= prefix_keys(json.loads(line)["kind"].split("-"))
    keys |= TUNED
    return keys | {ALIAS[k] for k in keys if k in ALIAS} | {MORE_ALIAS[k] for k in keys if k in MORE_ALIAS}


def load_rules(rules_dir):
    rules = []
    for path in sorted(Path(rules_dir).glob("*.yml")):
        rules.extend((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rules") or [])
    return rules


# --- 2. Skips decided from each rule's name, description, fields and regex ----------------------

IDENTIFIER = "not a secret: a host name, a domain or a key id used beside a secret"
CLIENT = "a key meant to ship in client apps (Branch.io keys, Amplitude API keys)"
GENERIC = "catch-all generic rule (generic secrets and passwords, any URL with credentials)"
HIDDEN = "a helper rule Titus does not report on its own (visible: false)"
SKIP = {
    "kingfisher.freshdesk.1": IDENTIFIER,  # Freshdesk domain
    "kingfisher.riot.1": IDENTIFIER,  # Riot platform host
    "np.razorpay.1": IDENTIFIER,  # Razorpay key id (rzp_live_), used with a key secret in checkout pages
    "np.razorpay.2": IDENTIFIER,  # the same, test mode
    "np.branchio.1": CLIENT,
    "np.branchio.2": CLIENT,
    "np.amplitude.1": CLIENT,
    **{f"np.generic.{i}": GENERIC for i in range(1, 17)},
    "kingfisher.credentials.1": GENERIC,  # user:password@ in any URL
    "kingfisher.uri.1": GENERIC,  # user:secret@ in any URL
}

# Rules with more than one group: which one is the secret.
SECRET_GROUP = {"kingfisher.klingai.1": 3}

# Rules whose whole match is the value placed in the context (none of those taken).
WHOLE = set()

OVERLAP = "provider also in gitleaks, Nosey Parker, Kingfisher or the tuning files"
POSTFILTER = "no sample passes the rule's own post-filters (min_entropy, pattern_requirements)"


# --- 3. Titus's post-filters, applied to the secret ------------------------------------------------

SPECIAL = "!@#$%^&*()_+-=[]{}|;:'\",.<>?/\\`~"


def entropy(secret):
    data = secret.encode()
    counts = [data.count(b) for b in set(data)]
    return -sum(c / len(data) * math.log2(c / len(data)) for c in sorted(counts))


def passes(secret, rule):
    """Titus's post-filters (pkg/matcher/postfilter.go): entropy above min_entropy, and
    pattern_requirements' ignore list and character counts. A checksum is not checked."""
    if rule.get("min_entropy") and entropy(secret) <= rule["min_entropy"]:
        return False
    req = rule.get("pattern_requirements") or {}
    if any(s.lower() in secret.lower() for s in req.get("ignore_if_contains") or []):
        return False
    special = req.get("special_chars") or SPECIAL
    counts = {
        "min_digits": sum(c.isdigit() for c in secret),
        "min_uppercase": sum(c.isupper() for c in secret),
        "min_lowercase": sum(c.islower() for c in secret),
        "min_special_chars": sum(c in special for c in secret if not c.isalnum()),
    }
    return all(counts[k] >= req.get(k, 0) for k in counts)


class PostFiltered:
    """A compiled pattern whose search finds only matches whose group n passes the rule's
    post-filters (what samples() calls)."""

    def __init__(self, pattern, rule, n):
        self.pattern, self.rule, self.n = pattern, rule, n

    def search(self, text):
        m = self.pattern.search(text)
        return m if m and m.group(self.n) and passes(m.group(self.n), self.rule) else None


def fits_unfiltered(rule, pattern, parsed, items, n, whole):
    """Whether samples would fit without the post-filters: only to name why a rule gave none,
    with a generator of its own so that the rows' random stream is not touched."""
    saved, kf.gen = kf.gen, Gen(random.Random(0))
    try:
        return bool(samples(rule, pattern, parsed, items, n, whole, 0)[0])
    finally:
        kf.gen = saved


def main(titus_dir, gitleaks_toml, np_dir, kf_dir):
    taken = taken_keys(gitleaks_toml, np_dir, kf_dir)
    rules = load_rules(titus_dir)
    missing = set(SKIP) - {r["id"] for r in rules}
    if missing:
        raise SystemExit(f"SKIP names no rule: {sorted(missing)}")
    rows, skipped, seen = [], [], set()
    for rule in rules:
        rid = rule["id"]
        if rid in seen:
            skipped.append((rid, DUPLICATE))
            continue
        seen.add(rid)
        if keys_of(rule) & taken:
            skipped.append((rid, OVERLAP))
            continue
        if rid in SKIP:
            skipped.append((rid, SKIP[rid]))
            continue
        if rule.get("visible") is False:
            skipped.append((rid, HIDDEN))
            continue
        n = SECRET_GROUP.get(rid, 1)
        translated = translate(rule, skipped)
        if translated is None:
            continue
        pattern, parsed = translated
        whole = rid in WHOLE
        items = whole_body(parsed) if whole else find_group(parsed, n)
        if items is None:
            skipped.append((rid, "no capturing group"))
            continue
        made, why = samples(rule, PostFiltered(pattern, rule, n), parsed, items, n, whole, len(rows))
        if not made:
            skipped.append((rid, POSTFILTER if fits_unfiltered(rule, pattern, parsed, items, n, whole) else why))
        rows.extend(dict(r, source=SOURCE) for r in made)
    write_rows(OUT, rows, len(rules), skipped)
    summarise(OUT)


if __name__ == "__main__":
    main(*sys.argv[1:5])
