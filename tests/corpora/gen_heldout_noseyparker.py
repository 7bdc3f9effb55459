#!/usr/bin/env python3
"""Builds heldout-credentials-noseyparker.jsonl: one or two held-out credentials per rule of
Nosey Parker, generated from Nosey Parker's own description of the format (its regex), not from
ours nor from gitleaks', and placed in the same assignment contexts as
gen_heldout_credentials.py.

Source: praetorian-inc/noseyparker (Apache-2.0) @ 2e6e7f36ce36619852532bbe698d8cb7a26d2da7,
the YAML files of crates/noseyparker/data/default/builtin/rules/ (extracted with
`git show <commit>:<path>`). The regexes are only used here, to generate random strings of each
format (with `rstr`, pip install rstr; written against rstr 3.2.2, whose group cache this script
reads) and to label where the credential sits; nothing of them is copied into the policy's
rules.

Usage: gen_heldout_noseyparker.py PATH/TO/rules-dir   (needs pyyaml and rstr)

Never tune on the output: it measures how well rules written from the formats' facts
generalise to another description of the same formats.

For each rule: the secret is the rule's capturing group (the first, or the one SECRET_GROUP
names), generated with rstr and placed in the CONTEXTS with a keyword from the rule's id
(np.<keyword>.N); a sample is kept only when the rule's full regex, translated to Python,
matches the text and its group is exactly the secret. For the rules in WHOLE (URIs and
connection strings whose match holds the secret beside a user, host or id), the whole match is
generated instead, its optional filler (optional whitespace, `.{0,N}`) left empty and its
trailing boundary left to the context, and the secret is the named group of the match. Rules in
SKIP are left out for the reason given; rules for which no sample fits (the regex needs text
around the secret that no context holds) are skipped too; the printed skipped count lists both.
"""

import json
import random
import re
import string
import sys
from itertools import chain
from pathlib import Path

import rstr
import yaml

from gen_heldout_credentials import CONTEXTS

try:
    import re._parser as sre_parse
    import re._constants as C
except ImportError:  # Python < 3.11
    import sre_parse
    import sre_constants as C

HERE = Path(__file__).resolve().parent

# Decided from each rule's name, description, categories and regex before any sample was made.
IDENTIFIER = "not a secret: an identifier, public key or address"
GENERIC = "catch-all generic rule (Nosey Parker's own `generic` category)"
SKIP = {
    "np.age.1": IDENTIFIER,  # age recipient (X25519 public key)
    "np.aws.1": IDENTIFIER,  # AWS access key id (category identifier)
    "np.aws.3": IDENTIFIER,  # AWS account id
    "np.s3.1": IDENTIFIER,  # S3 bucket host name
    "np.s3.2": IDENTIFIER,  # S3 bucket URL
    "np.arn.1": IDENTIFIER,  # Amazon resource name
    "np.github.5": IDENTIFIER,  # GitHub client id
    "np.google.1": IDENTIFIER,  # Google client id
    "np.gcs.1": IDENTIFIER,  # GCS bucket host name
    "np.gcs.2": IDENTIFIER,  # GCS bucket URL
    "np.linkedin.1": IDENTIFIER,  # LinkedIn client id
    "np.mapbox.1": IDENTIFIER,  # Mapbox public access token (pk.)
    "np.reactapp.1": IDENTIFIER,  # React app user name
    "np.shopify.1": IDENTIFIER,  # Shopify shop domain
    "np.twitter.1": IDENTIFIER,  # Twitter client id
    **{f"np.generic.{i}": GENERIC for i in range(1, 17)},
    "np.http.1": GENERIC,  # any Authorization: Basic value
    "np.http.2": GENERIC,  # any Authorization: Bearer value
}

# Rules with more than one group: which one is the secret (the password, the key, the secret).
SECRET_GROUP = {
    "np.auth0.1": 3, "np.aws.6": 2, "np.azure.1": 2, "np.azure.2": 3, "np.blynk.8": 2,
    "np.blynk.9": 2, "np.gitalk.1": 2, "np.google.6": 2, "np.gradle.1": 2, "np.kubernetes.2": 2,
    "np.mongodb.1": 2, "np.netrc.1": 3, "np.odbc.1": 2, "np.phpmailer.1": 3,
    "np.postgres.1": 2, "np.psexec.1": 2, "np.vmware.1": 2,
}

# Rules whose whole match (a URI or connection string) is the value placed in the context.
WHOLE = {"np.azure.1", "np.azure.2", "np.blynk.1", "np.blynk.8", "np.mongodb.1", "np.odbc.1", "np.postgres.1"}

BAD = set("\"'`\\<>")


class Gen(rstr.Rstr):
    """rstr with other repeat limits: an unbounded repeat (`*`, `+`, `{n,}`) makes n to n+16
    items (rstr's own limit of 100 gave bcrypt costs of 60 digits and Blynk URLs of 600
    characters), and a bounded one keeps its lower bound when it is above 100 (`{130,152}` makes
    130 to 152 items, where rstr fails). A negated class draws from a sorted list (rstr's comes
    from a set, whose order changes from run to run), and so does `\\W` (rstr's `nonword` alphabet is
    built from a set too), so the output is the same on every run."""

    def __init__(self, _random):
        nonword = set(string.printable).difference(string.ascii_letters + string.digits + "_")
        super().__init__(_random, nonword="".join(sorted(nonword)))

    def _handle_in(self, value):
        candidates = list(chain(*(self._handle_state(i) for i in value)))
        if candidates[0] is False:
            candidates = sorted(set(string.printable).difference(candidates[1:]))
        return self._random.choice(candidates)

    def _handle_repeat(self, start, end, value):
        end = start + 16 if end == C.MAXREPEAT else max(start, min(end, 100))
        times = self._random.randint(start, end)
        return "".join(self._handle_state(i) for _ in range(times) for i in value)


rng = random.Random(11)
gen = Gen(rng)


def to_python(regex):
    """Nosey Parker's Rust-regex syntax as Python `re` syntax: leading flag groups merged, a flag
    group inside the pattern scoped to the rest of its group, `\\z` as `\\Z`, and in verbose mode
    the whitespace Rust ignores inside character classes removed."""
    regex = regex.strip()
    lead = re.match(r"(?:\(\?[a-zA-Z]+\)\s*)+", regex)
    flags = ""
    if lead:
        flags = "".join(sorted(set("".join(re.findall(r"\(\?([a-zA-Z]+)\)", lead.group(0))))))
        regex = regex[lead.end():]
    verbose = "x" in flags
    out, stack, top_pending = [], [], 0
    i = 0
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            pair = regex[i:i + 2]
            out.append("\\Z" if pair == "\\z" else pair)
            i += 2
            continue
        if c == "[":
            j = i + 1
            body = ["["]
            if regex[j:j + 1] == "^":
                body.append("^")
                j += 1
            if regex[j:j + 1] == "]":
                body.append("]")
                j += 1
            while j < len(regex) and regex[j] != "]":
                if regex[j] == "\\":
                    body.append(regex[j:j + 2])
                    j += 2
                    continue
                if regex[j:j + 2] == "[:":
                    k = regex.index(":]", j) + 2
                    body.append({"[:alnum:]": "A-Za-z0-9", "[:alpha:]": "A-Za-z", "[:digit:]": "0-9"}[regex[j:k]])
                    j = k
                    continue
                if not (verbose and regex[j].isspace()):
                    body.append(regex[j])
                j += 1
            out.append("".join(body) + "]")
            i = j + 1
            continue
        if verbose and c == "#":
            j = regex.find("\n", i)
            i = len(regex) if j < 0 else j
            continue
        if regex.startswith("(?#", i):
            j = regex.index(")", i)
            i = j + 1
            continue
        m = re.match(r"\(\?([a-zA-Z-]+)\)", regex[i:])
        if m:
            out.append(f"(?{m.group(1)}:")
            if stack:
                stack[-1] += 1
            else:
                top_pending += 1
            i += m.end()
            continue
        if c == "(":
            stack.append(0)
        elif c == ")":
            out.append(")" * stack.pop())
        out.append(c)
        i += 1
    out.append(")" * top_pending)
    return (f"(?{flags})" if flags else "") + "".join(out)


def find_group(items, n):
    """The parsed body of capturing group n."""
    for op, av in items:
        if op is C.SUBPATTERN:
            if av[0] == n:
                return av[-1]
            found = find_group(av[-1], n)
        elif op is C.BRANCH:
            found = next((f for alt in av[1] if (f := find_group(alt, n)) is not None), None)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            found = find_group(av[2], n)
        else:
            found = None
        if found is not None:
            return found
    return None


def has_group(items):
    return any(find_group(items, g) is not None for g in range(1, 10))


def is_boundary(item):
    op, av = item
    if op is C.AT:
        return True
    if op is C.BRANCH:
        return any(len(alt) == 1 and alt[0][0] is C.AT for alt in av[1])
    if op is C.SUBPATTERN and av[0] is None:
        return all(is_boundary(x) for x in av[-1])
    return False


def is_filler(item):
    """An optional run of any character or of whitespace (left empty in WHOLE mode)."""
    op, av = item
    if op not in (C.MAX_REPEAT, C.MIN_REPEAT) or av[0] != 0 or len(av[2]) != 1:
        return False
    iop, iav = list(av[2])[0]
    if iop is C.ANY or (iop is C.CATEGORY and iav is C.CATEGORY_SPACE):
        return True
    if iop is C.IN:
        return any(x == (C.CATEGORY, C.CATEGORY_SPACE) or x == (C.LITERAL, 32) for x in iav)
    return False


def minimal(items):
    """The parsed pattern with its optional filler removed, recursively."""
    res = []
    for op, av in items:
        if is_filler((op, av)):
            continue
        if op is C.SUBPATTERN:
            av = (*av[:-1], minimal(av[-1]))
        elif op is C.BRANCH:
            av = (av[0], [minimal(alt) for alt in av[1]])
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            av = (av[0], av[1], minimal(av[2]))
        res.append((op, av))
    return res


def whole_body(parsed):
    """The top-level items of the match without its leading and trailing boundary checks."""
    items = list(parsed)
    while items and is_boundary(items[0]):
        items.pop(0)
    while items and not has_group(items[-1:]) and is_boundary(items[-1]):
        items.pop()
    return minimal(items)




def make(value_items, n, g=gen):
    """A random value and the text generated for group n in it (with generator g)."""
    g._cache.clear()
    value = g._build_string(value_items)
    secret = g._cache.get(n, value)
    g._cache.clear()
    return value, secret


def main(rules_dir):
    rules = []
    for path in sorted(Path(rules_dir).glob("*.yml")):
        rules.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["rules"])
    rows, skipped = [], []
    for rule in rules:
        rid = rule["id"]
        if rid in SKIP:
            skipped.append((rid, SKIP[rid]))
            continue
        keyword = re.sub(r"[^a-z0-9]", "", rid.split(".")[1].lower())
        n = SECRET_GROUP.get(rid, 1)
        translated = translate(rule, skipped)
        if translated is None:
            continue
        pattern, parsed = translated
        items = whole_body(parsed) if rid in WHOLE else find_group(parsed, n)
        made = 0
        for attempt in range(40):
            value, secret = make(items, n if rid in WHOLE else None)
            if not secret or set(value) & BAD or any(c.isspace() for c in value) or len(secret) > 400:
                continue
            ctx = CONTEXTS[(len(rows) + attempt) % len(CONTEXTS)]
            text = ctx.replace("{K}", keyword.upper()).replace("{k}", keyword).replace("{S}", value)
            m = pattern.search(text)
            if not m or m.group(n) != secret:
                continue
            rows.append({"text": text, "label": "risk", "kind": rid, "secret": secret, "source": "noseyparker-patterns"})
            made += 1
            if made == 2:
                break
        if made == 0:
            skipped.append((rid, "no sample fits the contexts"))
    write_rows("heldout-credentials-noseyparker.jsonl", rows, len(rules), skipped)


def translate(rule, skipped):
    """The rule's regex in Python, compiled and parsed; None, with the rule and the reason
    added to `skipped`, when it cannot be translated."""
    try:
        full = to_python(rule["pattern"])
        return re.compile(full), sre_parse.parse(full)
    except (re.error, ValueError, KeyError) as e:
        skipped.append((rule["id"], f"regex not translatable: {e}"))
        return None


def write_rows(name, rows, rule_count, skipped):
    """Writes the rows beside this script and prints what was made and what skipped, by reason."""
    with open(HERE / name, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} rows over {len({r['kind'] for r in rows})} kinds from {rule_count} rules; skipped {len(skipped)}:")
    for reason in sorted({r for _, r in skipped}):
        ids = [rid for rid, r in skipped if r == reason]
        print(f"  {reason} ({len(ids)}): {' '.join(ids)}")


if __name__ == "__main__":
    main(sys.argv[1])
