#!/usr/bin/env python3
"""Builds heldout-credentials-kingfisher.jsonl: one or two held-out credentials per rule of
Kingfisher whose provider (the service the credential belongs to) has no rule in gitleaks'
default configuration nor in Nosey Parker's rules, generated from Kingfisher's own description of
the format (its regex) and placed in the same assignment contexts as gen_heldout_credentials.py
and gen_heldout_noseyparker.py.

Source: mongodb/kingfisher (Apache-2.0) @ ee7c0db3ef87575768f817820c24736249ffcdef, the YAML
files of data/rules/ (extracted with `git show <commit>:<path>`). The regexes are only used here,
to generate random strings of each format (with `rstr`, as gen_heldout_noseyparker.py, whose
translation and generation code this script imports) and to label where the credential sits;
nothing of them is copied into the policy's rules.

The providers to leave out are read from the two earlier sources: gitleaks/gitleaks @
b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b, config/gitleaks.toml (the rule ids), and
praetorian-inc/noseyparker @ 2e6e7f36ce36619852532bbe698d8cb7a26d2da7,
crates/noseyparker/data/default/builtin/rules/*.yml (the rule ids and names).

Usage: gen_heldout_kingfisher.py KF_RULES_DIR GITLEAKS_TOML NP_RULES_DIR   (needs pyyaml and rstr)

Never tune on the output: it measures how well rules written for other formats generalise to
credential kinds of providers that neither earlier held-out set had.

Steps, all decided from the rules' ids, names and regexes before any sample was made:
1. Provider overlap. Each rule's provider keys are its id's middle segments and the first words
   of its name (lowercased, punctuation removed, leading words such as "Credentials in" or
   "Password Hash" dropped), every prefix of them joined (`kingfisher.azure.devops.1` gives
   `azure`, `azuredevops`; "New Relic Personal API Key" gives `new`, `newrelic`, ...); gitleaks'
   keys come the same way from its ids (`cisco-meraki-api-key` gives `cisco`, `ciscomeraki`, ...).
   ALIAS maps other names of a provider, and services a source provider issues the credentials
   of or owns, to that provider. A Kingfisher rule sharing any key with either source, after
   ALIAS, is left out. Prefix keys make this err towards leaving out.
2. SKIP: identifiers and other values that are not secrets, catch-all generic rules, client
   keys meant to be public, and later rules reusing an id already taken.
3. For each remaining rule: the secret is the rule's capturing group (the first, or the one
   SECRET_GROUP names), generated with rstr and placed in the CONTEXTS with a keyword (the first
   that gives a sample of: the rule's first id segment, its id segments joined, its name's
   provider words joined, its name's first word, the literal word its regex starts with); a
   sample is kept only when the rule's full regex, translated to Python, matches the text and its
   group is exactly the secret. For the rules in WHOLE (URIs and webhook URLs whose match holds
   the secret beside a user, host or id, and formats whose fixed prefix sits outside the group)
   the whole match is generated, as in gen_heldout_noseyparker.py. Rules for which no sample fits
   (every value is longer than 400 characters, or the regex needs text around the secret that no
   context holds) are skipped too; the printed skipped count lists every reason.

Deterministic: the same rules give the same bytes on every run (seeded; see Gen).
"""

import random
import re
import sys
import tomllib
from pathlib import Path

import yaml

from gen_heldout_noseyparker import BAD, CONTEXTS, C, Gen, find_group, make, translate, whole_body, write_rows

ATTEMPTS = 200

# --- 1. Provider overlap -------------------------------------------------------------------------

# Words that name no provider: dropped from the front of names, and never a key on their own.
NOISE = {
    "a", "access", "and", "api", "base64", "connection", "contains", "credential", "credentials",
    "encoded", "encrypted", "for", "generic", "hardcoded", "hash", "in", "json", "key", "keys", "of",
    "or", "password", "passwords", "personal", "private", "public", "secret", "sensitive", "string",
    "the", "token", "tokens", "uri", "url", "user", "username", "value", "web", "with",
}

# Another key -> the source provider's key it stands for.
ALIAS = {
    # the same provider under another name
    "gcp": "google", "googlecloud": "google", "gcs": "google", "firebase": "google",
    "msteams": "microsoftteams", "microsoftteamswebhook": "microsoftteams",
    "squareup": "square",
    "sonarcloud": "sonar", "sonarqube": "sonar",
    "dockerhub": "docker",
    "jfrog": "artifactory",
    "dependencytrack": "dtrack",
    "terraform": "hashicorp", "terraformcloud": "hashicorp", "hashicorptf": "hashicorp",
    "vault": "hashicorp", "consul": "hashicorp",
    "brevo": "sendinblue",
    "bird": "messagebird",
    "drone": "droneci",
    "fly": "flyio",
    "onepassword": "1password",
    "adafruitio": "adafruit",
    "alibabacloud": "alibaba", "aliyun": "alibaba",
    "amazon": "aws", "s3": "aws", "appsync": "aws", "bedrock": "aws",
    "postgresql": "postgres",
    "mongo": "mongodb",
    "privkey": "pem", "privatekey": "pem",
    "particle": "particleio",
    "datagov": "nasa",  # NASA's API keys are api.data.gov keys
    # a product of a source provider, its credentials issued through that provider or by a
    # company it owns (conservative: left out even where the key format differs)
    "youtube": "google", "blogger": "google", "recaptcha": "google",
    "jira": "atlassian", "confluence": "atlassian", "trello": "atlassian",
    "opsgenie": "atlassian", "statuspage": "atlassian",
    "mandrill": "mailchimp",
    "vagrant": "hashicorp", "vagrantcloud": "hashicorp",
    "hellosign": "dropbox",
    "sparkpost": "messagebird",
    "clearbit": "hubspot",
    "anypoint": "salesforce", "mulesoft": "salesforce",
    "splunk": "cisco",
    "authy": "twilio",
    "instagram": "facebook", "whatsapp": "facebook", "meta": "facebook",
    "rockset": "openai",
    "taxjar": "stripe", "lemonsqueezy": "stripe", "paystack": "stripe",
    "azure": "microsoft", "azuread": "microsoft", "azuredevops": "microsoft", "azureopenai": "microsoft",
}


def words(text):
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def prefix_keys(tokens):
    """Every prefix of the tokens joined, except those made only of NOISE words."""
    return {"".join(tokens[:i]) for i in range(1, len(tokens) + 1) if not all(t in NOISE for t in tokens[:i])}


def name_words(name):
    w = words(name)
    while w and w[0] in NOISE:
        w.pop(0)
    return w


def rule_keys(rule):
    """The provider keys of a Nosey Parker or Kingfisher rule: its id segments and name."""
    keys = prefix_keys(rule["id"].split(".")[1:-1]) | prefix_keys(name_words(rule["name"])[:3])
    return keys | {ALIAS[k] for k in keys if k in ALIAS}


def source_keys(gitleaks_toml, np_dir):
    """The provider keys of gitleaks' rule ids and of Nosey Parker's rules."""
    keys = set()
    with open(gitleaks_toml, "rb") as f:
        for rule in tomllib.load(f)["rules"]:
            keys |= prefix_keys(rule["id"].split("-"))
    for path in sorted(Path(np_dir).glob("*.yml")):
        for rule in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]:
            keys |= rule_keys(rule)
    return keys | {ALIAS[k] for k in keys if k in ALIAS}


# --- 2. Skips decided from each rule's name, description and regex ------------------------------

IDENTIFIER = "not a secret: an identifier, user name, email or account name"
GENERIC = "catch-all generic rule (generic secrets, passwords, user and password pairs, any URL with credentials)"
CLIENT = "a client-side key meant to ship in apps (PubNub publish and subscribe keys)"
DUPLICATE = "id already taken by an earlier rule (file order)"
SKIP = {
    "kingfisher.eagleeyenetworks.2": IDENTIFIER,  # Eagle Eye Networks email
    "kingfisher.paypal.1": IDENTIFIER,  # PayPal OAuth client id
    "kingfisher.snowflake.1": IDENTIFIER,  # Snowflake account identifier
    "kingfisher.snowflake.2": IDENTIFIER,  # Snowflake user name
    "kingfisher.spotify.2": IDENTIFIER,  # Spotify client id
    "kingfisher.pubnub.1": CLIENT,
    "kingfisher.pubnub.2": CLIENT,
    **{f"kingfisher.generic.{i}": GENERIC for i in (1, 2, 3, 4, 5, 8)},
    "kingfisher.weak_password.1": GENERIC,  # common weak passwords anywhere
    "kingfisher.credentials.1": GENERIC,  # user:password@ in any http(s) URL
    "kingfisher.uri.1": GENERIC,  # user:secret@ in any http(s) URL
}

# Rules with more than one group: which one is the secret.
SECRET_GROUP = {}

# Rules whose whole match (a URI or webhook URL) is the value placed in the context.
# Also the rules whose fixed prefix (`flb_live_`, `sbp_`, ...) sits outside the group: the whole
# match is the credential as written, the group its secret part.
WHOLE = {
    "kingfisher.ftp.1", "kingfisher.rabbitmq.1", "kingfisher.tineswebhook.1", "kingfisher.zapierwebhook.1",
    "kingfisher.dfuse.1", "kingfisher.fleetbase.1", "kingfisher.nightfall.1", "kingfisher.nvapi.1",
    "kingfisher.supabase.1",
}

OVERLAP = "provider also in gitleaks or Nosey Parker"
NO_FIT = "no sample fits: the regex needs text around the secret that no context holds, or its values draw quotes or spaces"
TOO_LONG = "every value longer than 400 characters"

rng = random.Random(13)
gen = Gen(rng)


def leading_word(parsed):
    """The literal letters the regex starts with (after boundaries), lowercased."""
    out = []
    for op, av in parsed:
        if op is C.AT and not out:
            continue
        if op is not C.LITERAL or not chr(av).isalnum():
            break
        out.append(chr(av).lower())
    return "".join(out) if len(out) >= 3 else ""


def keywords(rule, parsed):
    """Keywords to try, in order, for the contexts' {K}/{k}."""
    segs = [re.sub(r"[^a-z0-9]", "", s.lower()) for s in rule["id"].split(".")[1:-1]]
    pw = [re.sub(r"[^a-z0-9]", "", w) for w in name_words(rule["name"])]
    pw_provider = [w for w in pw if w not in NOISE and w not in {"oauth", "client", "app", "service", "cloud"}]
    cands = [segs[0], "".join(segs), "".join(pw_provider[:2]), pw[0] if pw else "", leading_word(parsed)]
    out = []
    for c in cands:
        if c and c not in out:
            out.append(c)
    return out


def samples(rule, pattern, parsed, items, n, whole, start):
    """Up to two rows for the rule, the contexts taken in turn from `start`, and why none fit."""
    rid = rule["id"]
    too_long = 0
    for keyword in keywords(rule, parsed):
        rows = []
        for attempt in range(ATTEMPTS):
            value, secret = make(items, n if whole else None, gen)
            if secret and len(secret) > 400:
                too_long += 1
            if not secret or set(value) & BAD or any(c.isspace() for c in value) or len(secret) > 400:
                continue
            ctx = CONTEXTS[(start + len(rows) + attempt) % len(CONTEXTS)]
            text = ctx.replace("{K}", keyword.upper()).replace("{k}", keyword).replace("{S}", value)
            m = pattern.search(text)
            if not m or m.group(n) != secret:
                continue
            rows.append({"text": text, "label": "risk", "kind": rid, "secret": secret, "source": "kingfisher-patterns"})
            if len(rows) == 2:
                break
        if rows:
            return rows, None
    return [], TOO_LONG if too_long == ATTEMPTS * len(keywords(rule, parsed)) else NO_FIT


def main(kf_dir, gitleaks_toml, np_dir):
    taken = source_keys(gitleaks_toml, np_dir)
    rules = []
    for path in sorted(Path(kf_dir).glob("*.yml")):
        rules.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["rules"])
    rows, skipped, seen = [], [], set()
    for rule in rules:
        rid = rule["id"]
        if rid in seen:
            skipped.append((rid, DUPLICATE))
            continue
        seen.add(rid)
        if rule_keys(rule) & taken:
            skipped.append((rid, OVERLAP))
            continue
        if rid in SKIP:
            skipped.append((rid, SKIP[rid]))
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
        made, why = samples(rule, pattern, parsed, items, n, whole, len(rows))
        if not made:
            skipped.append((rid, why))
        rows.extend(made)
    write_rows("heldout-credentials-kingfisher.jsonl", rows, len(rules), skipped)


if __name__ == "__main__":
    main(*sys.argv[1:4])
