#!/usr/bin/env python3
"""Builds heldout-credentials-contexts-new-kinds.jsonl and
heldout-credentials-contexts-tuned-kinds.jsonl: credentials of the earlier sets placed in 24
contexts none of those sets uses, to measure whether the scanner finds credentials written the
other ways people write them (config files of several formats, code of several languages,
command lines, HTTP requests, notes, chat, logs, URLs), not only in the seven assignment
contexts of gen_heldout_credentials.py's CONTEXTS, on which every earlier set was generated.

The contexts below were written (all of them, before any row was generated) by a session that
never read the scanner's rules nor ran any scanner, from how credentials appear in real files,
commands and messages. Each holds a word a careful reviewer takes for a credential's: a key,
flag, header or label naming a key, token, secret, password or credential, sometimes with the
provider's name, sometimes generic. Several put that word on another line than the value (a
YAML or JSON parent, a Terraform variable's name, a Markdown table's header).

Values: nothing new is generated. Each row's value is the value an earlier row placed in its
context ({S} of CONTEXTS, recovered by matching the row's text against the seven contexts), and
its keyword {k} is the one that row used (from its kind, as each earlier generator chose it);
`secret` and `kind` are the earlier row's. Two files, reported apart:

- new-kinds: every row of heldout-credentials-microsoft.jsonl and heldout-credentials-titus.jsonl
  (216), kinds no tuning file holds;
- tuned-kinds: 80 rows drawn at random (seeded) from each of heldout-credentials-gitleaks.jsonl,
  -noseyparker.jsonl and -kingfisher.jsonl (240), kinds the scanner has been tuned on in the
  seven contexts; values that are URIs (`://`) are left out of the draw (they belong in URL
  contexts, which these are not), and so are secrets that occur twice in the three files.

Assignment: values are taken in order (file order; the draw's order for tuned-kinds) and each
goes to the context with the fewest rows so far among those its characters cannot break (a
quote in a quoted string, `$` where a shell, Compose, Terraform or Spring would expand it, `|`
in a table cell, ...), ties broken round-robin from the value's position; a context where the
secret would occur twice (inside a host name, say) is passed over the same way.

Usage: gen_heldout_contexts.py   (standard library only; deterministic: the same input files
give the same bytes under any PYTHONHASHSEED)

Never tune on the output.
"""

import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20240611
PER_TUNED_FILE = 80
NEW_FILES = ["heldout-credentials-microsoft.jsonl", "heldout-credentials-titus.jsonl"]
TUNED_FILES = ["heldout-credentials-gitleaks.jsonl", "heldout-credentials-noseyparker.jsonl",
               "heldout-credentials-kingfisher.jsonl"]

# The seven contexts of the earlier sets (gen_heldout_credentials.CONTEXTS), used here only to
# recover each earlier row's value and keyword.
OLD_CONTEXTS = [
    '{K}_API_KEY="{S}"',
    "export {K}_TOKEN={S}",
    '"{k}_secret": "{S}",',
    "{k}Token := '{S}'",
    "{k}.auth.token: {S}",
    "<add key=\"{k}_key\" value=\"{S}\" />",
    "{K}_ACCESS_KEY = {S}  # rotate monthly",
]

WS = " \t\r\n"
SHELL = WS + ";&|<>()$`'\"\\*?[]#~!{}"
# YAML plain scalars: no comment or mapping indicators, no leading indicator characters.
YAML_PLAIN = WS + "#:'\""
YAML_START = "-?:,[]{}#&*!|>'\"%@`"

# (id, note, template, characters the value must not hold, characters it must not start with).
# {k}: the provider keyword, {K}: upper case, {C}: capitalised; {S}: the value.
CONTEXTS = [
    ("yaml-provider-block",
     "YAML settings, the provider as the parent key and a generic secret_key leaf",
     "{k}:\n  base_url: https://api.{k}.com/v1\n  secret_key: {S}\n  timeout: 30",
     YAML_PLAIN, YAML_START),
    ("k8s-secret-stringdata",
     "Kubernetes Secret manifest, the value under stringData as api-token",
     "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {k}-credentials\ntype: Opaque\nstringData:\n  api-token: \"{S}\"",
     WS + "\"\\", ""),
    ("compose-env-list",
     "docker-compose service, generic API_TOKEN as an environment list item",
     "services:\n  worker:\n    image: registry.internal/worker:2.4\n    environment:\n      - LOG_LEVEL=info\n      - API_TOKEN={S}",
     WS + "$:'\"#", ""),
    ("gha-workflow-env",
     "GitHub Actions job env block, {K}_SECRET_KEY single-quoted",
     "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {K}_SECRET_KEY: '{S}'\n    steps:\n      - run: ./scripts/deploy.sh",
     WS + "'$", ""),
    ("toml-table",
     "TOML table named after the provider, a generic token key",
     "[integrations.{k}]\nenabled = true\ntoken = \"{S}\"",
     WS + "\"\\", ""),
    ("ini-section",
     "INI section named after the provider, username and password lines",
     "[{k}]\nusername = deploy-bot\npassword = {S}",
     WS + "%;#$'\"", ""),
    ("python-kwargs",
     "Python client constructor with an api_key keyword argument",
     "client = {C}Client(api_key=\"{S}\", timeout=30)",
     WS + "\"\\", ""),
    ("python-dict",
     "Python dict literal, generic client_id and client_secret, single quotes",
     "oauth = {'client_id': 'svc-reporting', 'client_secret': '{S}'}",
     WS + "'\\", ""),
    ("js-object-literal",
     "JavaScript config object, provider key holding a camelCase apiKey",
     "module.exports = {\n  {k}: {\n    apiKey: '{S}',\n    retries: 3,\n  },\n};",
     WS + "'\\", ""),
    ("js-env-fallback",
     "Node.js process.env lookup with a hard-coded fallback, generic AUTH_TOKEN",
     "const authToken = process.env.AUTH_TOKEN || \"{S}\";",
     WS + "\"\\", ""),
    ("spring-properties",
     "Spring Boot application.properties OAuth client-secret under the provider's registration",
     "spring.security.oauth2.client.registration.{k}.client-id=web-portal\nspring.security.oauth2.client.registration.{k}.client-secret={S}",
     WS + "\\$", "#!"),
    ("go-struct-literal",
     "Go struct literal with an APIKey field",
     "cfg := {k}.Config{\n\tEndpoint: \"https://api.{k}.com\",\n\tAPIKey:   \"{S}\",\n}",
     WS + "\"\\", ""),
    ("rust-const",
     "Rust string constant, generic API_TOKEN",
     "pub const API_TOKEN: &str = \"{S}\";",
     WS + "\"\\", ""),
    ("csharp-credential",
     "C# client built with new ApiKeyCredential(...)",
     "var client = new {C}Client(new Uri(\"https://api.{k}.com\"), new ApiKeyCredential(\"{S}\"));",
     WS + "\"\\", ""),
    ("terraform-variable",
     "Terraform variable named {k}_api_token whose default, two lines down, is the value",
     "variable \"{k}_api_token\" {\n  type      = string\n  sensitive = true\n  default   = \"{S}\"\n}",
     WS + "\"\\$%", ""),
    ("curl-header",
     "curl command with an X-Api-Key header to the provider's API",
     "curl -s -H \"X-Api-Key: {S}\" https://api.{k}.com/v1/account",
     WS + "\"\\$`!", ""),
    ("cli-flag",
     "the provider's CLI logging in with --api-key, unquoted",
     "{k} login --api-key {S} --profile staging",
     SHELL, "-"),
    ("http-request-header",
     "raw HTTP request with a generic X-Auth-Token header",
     "GET /v2/reports HTTP/1.1\nHost: api.example.com\nX-Auth-Token: {S}\nAccept: application/json",
     WS, ""),
    ("npmrc-authtoken",
     ".npmrc line giving the _authToken for the provider's package registry",
     "//npm.{k}.com/:_authToken={S}",
     WS + "$;#'\"", ""),
    ("markdown-table",
     "Markdown table in notes, the 'API key' label only in the header row",
     "| service | account | API key |\n| --- | --- | --- |\n| {k} | ops@team | `{S}` |",
     WS + "|`", ""),
    ("chat-message",
     "chat message handing over the provider's token for a staging box",
     "here's the {k} token for the staging box: {S} -- ping me if it stops working",
     WS, ""),
    ("log-line",
     "application log line with generic token= and user= fields",
     "2024-03-14T09:12:44Z INFO request authorised token={S} user=deploy-bot ip=10.0.4.17",
     WS + "\"", ""),
    ("url-query-param",
     "URL to the provider's API with an api_key query parameter",
     "https://api.{k}.com/v1/export?format=csv&api_key={S}",
     WS + "&#?%\"'<>", ""),
    ("json-nested",
     "JSON settings, integrations.{k}.auth.bearerToken two levels down",
     "{\n  \"integrations\": {\n    \"{k}\": {\n      \"enabled\": true,\n      \"auth\": { \"bearerToken\": \"{S}\" }\n    }\n  }\n}",
     WS + "\"\\", ""),
]


def old_patterns():
    out = []
    for c in OLD_CONTEXTS:
        r = re.escape(c).replace(r"\{K\}", "(?P<K>[A-Z0-9]+)").replace(r"\{k\}", "(?P<k>[a-z0-9]+)")
        out.append(re.compile("^" + r.replace(r"\{S\}", "(?P<S>.+)") + "$", re.S))
    return out


def load(name, pats):
    """The rows of an earlier file, each with the value and keyword its context held."""
    rows = []
    for line in open(HERE / name, encoding="utf-8"):
        r = json.loads(line)
        found = [m for p in pats if (m := p.match(r["text"]))]
        if len(found) != 1:
            raise SystemExit(f"{name}: cannot tell the context of {r['text'][:60]!r}")
        m = found[0]
        keyword = (m.groupdict().get("k") or m.groupdict().get("K")).lower()
        rows.append({"value": m["S"], "keyword": keyword, "kind": r["kind"], "secret": r["secret"], "file": name})
    return rows


# Contexts where the keyword is (part of) an identifier: it must start with a letter.
IDENT = {"python-kwargs", "js-object-literal", "go-struct-literal", "csharp-credential"}


def fits(ctx, value, keyword):
    cid, _, _, bad, bad_start = ctx
    if cid in IDENT and not keyword[:1].isalpha():
        return False
    return not any(c in bad for c in value) and not (bad_start and value[0] in bad_start)


def render(template, keyword, value):
    return (template.replace("{K}", keyword.upper()).replace("{k}", keyword)
            .replace("{C}", keyword[:1].upper() + keyword[1:]).replace("{S}", value))


def place(items, source):
    """Each value to the fitting context with the fewest rows so far, ties round-robin."""
    counts = [0] * len(CONTEXTS)
    rows, unplaced = [], []
    for i, it in enumerate(items):
        best = None
        for step in range(len(CONTEXTS)):
            j = (i + step) % len(CONTEXTS)
            ctx = CONTEXTS[j]
            if not fits(ctx, it["value"], it["keyword"]):
                continue
            text = render(ctx[2], it["keyword"], it["value"])
            if text.count(it["secret"]) != 1 or text.count(it["value"]) != 1:
                continue
            if best is None or counts[j] < counts[best[0]]:
                best = (j, text)
        if best is None:
            unplaced.append(it)
            continue
        j, text = best
        counts[j] += 1
        rows.append({"text": text, "label": "risk", "kind": it["kind"], "secret": it["secret"],
                     "source": source, "context": CONTEXTS[j][0]})
    return rows, unplaced


def write(name, rows):
    with open(HERE / name, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def check(name, rows):
    assert all(r["text"].count(r["secret"]) == 1 for r in rows), f"{name}: a secret not exactly once in its text"
    assert len({r["text"] for r in rows}) == len(rows), f"{name}: a text twice"
    assert len({r["secret"] for r in rows}) == len(rows), f"{name}: a secret twice"
    per = {c[0]: 0 for c in CONTEXTS}
    for r in rows:
        per[r["context"]] += 1
    print(f"{name}: {len(rows)} rows, {len({r['kind'] for r in rows})} kinds; rows per context:")
    for cid, n in per.items():
        print(f"  {n:3}  {cid}")


def main():
    ids = [c[0] for c in CONTEXTS]
    assert len(set(ids)) == len(ids)
    pats = old_patterns()

    new = [it for name in NEW_FILES for it in load(name, pats)]
    new_secrets = {it["secret"] for it in new}

    tuned_all = {name: load(name, pats) for name in TUNED_FILES}
    seen = {}
    for name in TUNED_FILES:
        for it in tuned_all[name]:
            seen[it["secret"]] = seen.get(it["secret"], 0) + 1
    rng = random.Random(SEED)
    tuned, left_out = [], {}
    for name in TUNED_FILES:
        pool = []
        for it in tuned_all[name]:
            if "://" in it["value"]:
                left_out["URI value"] = left_out.get("URI value", 0) + 1
            elif seen[it["secret"]] > 1 or it["secret"] in new_secrets:
                left_out["secret twice"] = left_out.get("secret twice", 0) + 1
            else:
                pool.append(it)
        tuned += rng.sample(pool, PER_TUNED_FILE)

    out = []
    for items, source, name in [
        (new, "heldout-contexts/new-kinds", "heldout-credentials-contexts-new-kinds.jsonl"),
        (tuned, "heldout-contexts/tuned-kinds", "heldout-credentials-contexts-tuned-kinds.jsonl"),
    ]:
        rows, unplaced = place(items, source)
        if unplaced:
            print(f"{name}: {len(unplaced)} values fit no context: " + " ".join(u["kind"] for u in unplaced))
        write(name, rows)
        out.append((name, rows))
    print(f"tuned-kinds draw: left out of the pools {left_out}")
    for name, rows in out:
        check(name, rows)


if __name__ == "__main__":
    main()
