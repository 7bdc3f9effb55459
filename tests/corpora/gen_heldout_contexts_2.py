#!/usr/bin/env python3
"""Builds heldout-credentials-contexts-2.jsonl: the 216 held-out credential values of
heldout-credentials-microsoft.jsonl and heldout-credentials-titus.jsonl, each placed once in one
of 33 contexts written for this set: how credentials appear in real configuration files, code,
commands, documents and messages, in many ecosystems and forms.

The contexts were all written (the CONTEXTS list below, with a note each) before any row was
made, without reading the scanner, running it, or reading the first contexts set. Each carries a
signal a careful human reviewer would take as "this is a credential" (a name, flag, argument,
header, label, column header or sentence saying key, token, secret, password, passphrase,
credential or auth, with or without the provider's name) where a reader connects it to the value.
None is one of the seven assignment contexts of gen_heldout_credentials.py (CONTEXTS) or a
trivial variant of one.

Values: every row of the two files, with its `secret` and `kind`; the keyword is recovered from
the row's text (the keyword the earlier generators put into their seven contexts). The rows of
each file are shuffled with a fixed seed, the Microsoft rows placed before the Titus rows (so
each context gets a similar mix of both), and each goes to the context that fits it (a context
may refuse a value whose characters would break its syntax) and holds the fewest rows so far,
preferring one that holds no row of the same kind, ties broken by a rotating order. Everything random comes
from one seeded random.Random, consumed in a fixed order, so the output is byte-identical under
any PYTHONHASHSEED.

Usage: gen_heldout_contexts_2.py   (Python 3.11, no dependencies)

Never tune on the output: it measures whether the scanner finds credentials in contexts it was
not tuned on.
"""

import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_heldout_credentials import CONTEXTS as EARLIER  # noqa: E402

SOURCES = ["heldout-credentials-microsoft.jsonl", "heldout-credentials-titus.jsonl"]
OUT = HERE / "heldout-credentials-contexts-2.jsonl"
SEED = 20240611

URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+")

NAMES = ["dana", "priya", "marek", "lucia", "tomasz", "aiko", "jonas", "fatima", "oliver", "mei"]
HOSTS = ["eu-west-1", "us-east-2", "ap-south-1", "eu-central-1", "us-west-2"]
ENVS = ["staging", "production", "dev", "qa", "sandbox"]


def cap(k):
    return k[:1].upper() + k[1:]


# Each context: id, note, render(k, s, r) -> text, and fits(s) (default: every value fits).
# k: the provider keyword (lower case), s: the secret, r: the seeded random.Random.

def c_xtrace(k, s, r):
    return (f"$ bash -x ./scripts/push-image.sh\n"
            f"+ TAG=1.{r.randint(2, 19)}.{r.randint(0, 9)}\n"
            f"+ docker login registry.internal.example --username ci-publisher --password {s}\n"
            f"WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n"
            f"Login Succeeded")


def c_default_expansion(k, s, r):
    return (f"#!/usr/bin/env bash\nset -euo pipefail\n"
            f"API_TOKEN=\"${{API_TOKEN:-{s}}}\"\n"
            f"curl -fsS -H \"X-Api-Token: $API_TOKEN\" \"$BASE_URL/v1/health\"")


def c_heredoc(k, s, r):
    return (f"# non-interactive login for the {k} CLI on the build box\n"
            f"{k} auth login --with-token <<'EOF'\n{s}\nEOF\n"
            f"{k} auth status")


def c_securestring(k, s, r):
    return (f"$secret = ConvertTo-SecureString '{s}' -AsPlainText -Force\n"
            f"$cred = New-Object System.Management.Automation.PSCredential ('svc-{k}', $secret)\n"
            f"Connect-{cap(k)}Service -Credential $cred -Region {r.choice(HOSTS)}")


def c_setx(k, s, r):
    return (f"C:\\Users\\{r.choice(NAMES)}> setx {k.upper()}_API_KEY \"{s}\"\n\n"
            f"SUCCESS: Specified value was saved.")


def c_systemd(k, s, r):
    return (f"# /etc/systemd/system/ingest-worker.service\n[Unit]\nDescription=Ingest worker\n\n"
            f"[Service]\nUser=ingest\nEnvironment=\"LOG_LEVEL=info\" \"API_SECRET={s}\"\n"
            f"ExecStart=/opt/ingest/bin/worker --queue default\nRestart=on-failure")


def c_nginx(k, s, r):
    return (f"location /upstream/{k}/ {{\n"
            f"    proxy_pass https://api.{k}.example/;\n"
            f"    proxy_set_header X-API-Key \"{s}\";\n"
            f"    proxy_set_header Host api.{k}.example;\n}}")


def c_dockerfile(k, s, r):
    return (f"FROM python:3.12-slim\nWORKDIR /app\n"
            f"ARG {k.upper()}_API_KEY={s}\n"
            f"ENV {k.upper()}_API_KEY=${{{k.upper()}_API_KEY}}\n"
            f"COPY . .\nRUN pip install --no-cache-dir -r requirements.txt")


def c_helm(k, s, r):
    return (f"# values-{r.choice(ENVS)}.yaml\n{k}:\n  enabled: true\n  replicaCount: {r.randint(1, 4)}\n"
            f"  auth:\n    existingSecret: \"\"\n    apiKey: \"{s}\"")


def c_ansible(k, s, r):
    return (f"- name: Render {k} client config\n  ansible.builtin.template:\n"
            f"    src: {k}.conf.j2\n    dest: /etc/{k}/client.conf\n    mode: \"0600\"\n"
            f"  vars:\n    {k}_api_token: \"{s}\"\n  no_log: true")


def c_kotlin(k, s, r):
    return (f"object {cap(k)}Config {{\n"
            f"    private const val API_KEY: String = \"{s}\"\n"
            f"    val client = {cap(k)}Client(apiKey = API_KEY)\n}}")


def c_swift(k, s, r):
    return (f"enum {cap(k)}Credentials {{\n"
            f"    static let apiKey: String = \"{s}\"\n"
            f"    static let baseURL = URL(string: \"https://api.{k}.example\")!\n}}")


def c_java_builder(k, s, r):
    return (f"{cap(k)}Client client = {cap(k)}Client.builder()\n"
            f"        .apiKey(\"{s}\")\n"
            f"        .timeout(Duration.ofSeconds({r.choice([10, 20, 30, 60])}))\n"
            f"        .build();")


def c_spring_value(k, s, r):
    return (f"@Configuration\npublic class {cap(k)}Properties {{\n\n"
            f"    @Value(\"${{{k}.api-key:{s}}}\")\n"
            f"    private String apiKey;\n}}")


def c_php(k, s, r):
    return (f"<?php\n\nreturn [\n    '{k}' => [\n"
            f"        'api_key' => '{s}',\n"
            f"        'timeout' => {r.choice([5, 10, 15])},\n    ],\n];")


def c_ruby(k, s, r):
    return (f"{cap(k)}.configure do |config|\n"
            f"  config.api_key = ENV.fetch(\"{k.upper()}_API_KEY\", \"{s}\")\n"
            f"  config.logger = Rails.logger\nend")


def c_elixir(k, s, r):
    return (f"# config/runtime.exs\nconfig :billing, Billing.{cap(k)},\n"
            f"  api_key: \"{s}\",\n"
            f"  receive_timeout: {r.choice([5_000, 15_000, 30_000])}")


def c_hocon(k, s, r):
    return (f"# application.conf\n{k} {{\n"
            f"  base-url = \"https://api.{k}.example\"\n"
            f"  credentials.secret = \"{s}\"\n"
            f"  request-timeout = {r.choice([5, 10, 30])}s\n}}")


def c_grpc(k, s, r):
    return (f"md := metadata.Pairs(\"x-api-key\", \"{s}\")\n"
            f"ctx = metadata.NewOutgoingContext(ctx, md)\n"
            f"resp, err := client.ListJobs(ctx, &pb.ListJobsRequest{{PageSize: {r.choice([20, 50, 100])}}})")


def c_sql_user(k, s, r):
    return (f"CREATE USER '{k}_sync'@'10.0.%' IDENTIFIED BY '{s}';\n"
            f"GRANT SELECT, INSERT ON analytics.* TO '{k}_sync'@'10.0.%';")


def c_sql_insert(k, s, r):
    return (f"INSERT INTO api_keys (service, environment, key_value, created_at)\n"
            f"VALUES ('{k}', '{r.choice(ENVS)}', '{s}', '2024-0{r.randint(1, 9)}-1{r.randint(0, 9)}');")


def c_connection_string(k, s, r):
    return (f"Host=db-{r.randint(1, 9)}.internal.example;Port=5432;Database=reports;"
            f"Username=report_reader;Password={s};SSL Mode=Require;Timeout=15")


def c_maven(k, s, r):
    return (f"<servers>\n  <server>\n    <id>{k}-releases</id>\n"
            f"    <username>deployer</username>\n"
            f"    <password>{s}</password>\n  </server>\n</servers>")


def c_gradle_buildconfig(k, s, r):
    return (f"android {{\n    defaultConfig {{\n"
            f"        buildConfigField(\"String\", \"{k.upper()}_API_KEY\", \"\\\"{s}\\\"\")\n"
            f"    }}\n}}")


def c_postman(k, s, r):
    return ('{\n  "name": "' + cap(k) + ' ' + r.choice(ENVS) + '",\n  "values": [\n'
            '    { "key": "baseUrl", "value": "https://api.' + k + '.example", "enabled": true },\n'
            '    { "key": "apiKey", "value": "' + s + '", "type": "secret", "enabled": true }\n'
            '  ],\n  "_postman_variable_scope": "environment"\n}')


def c_jupyter(k, s, r):
    n = r.randint(2, 9)
    return (f"In [{n}]: import os\n\n"
            f"In [{n + 1}]: os.environ[\"{k.upper()}_API_KEY\"] = \"{s}\"\n\n"
            f"In [{n + 2}]: client = {cap(k)}Client()")


def c_traceback(k, s, r):
    return (f"Traceback (most recent call last):\n"
            f"  File \"/srv/app/jobs/sync.py\", line {r.randint(20, 240)}, in run\n"
            f"    resp = client.fetch(auth_token=\"{s}\")\n"
            f"  File \"/srv/app/venv/lib/python3.11/site-packages/{k}/client.py\", line {r.randint(40, 400)}, in fetch\n"
            f"    raise AuthError(\"token rejected\")\n"
            f"{k}.errors.AuthError: token rejected (401)")


def c_email(k, s, r):
    name = r.choice(NAMES)
    return (f"Subject: Your new {cap(k)} API key\n\nHi {cap(name)},\n\n"
            f"Your new API key is:\n\n    {s}\n\n"
            f"Keep it somewhere safe: we will not show it again. If you did not request it, "
            f"revoke it from the dashboard.\n\nThe {cap(k)} team")


def c_chat(k, s, r):
    a, b = r.sample(NAMES, 2)
    h, m = r.randint(8, 18), r.randint(10, 50)
    return (f"[{h:02}:{m:02}] {a}: can someone send me the {k} key for {r.choice(ENVS)}?\n"
            f"[{h:02}:{m + 2:02}] {b}: {s}\n"
            f"[{h:02}:{m + 3:02}] {b}: don't paste it anywhere else pls, I'll move it to the vault later")


def c_notes(k, s, r):
    return (f"## {k} access\n\n"
            f"- dashboard: ask {r.choice(NAMES)} for an invite\n"
            f"- staging token \u2192 {s}\n"
            f"- prod: in the team vault, not here")


def c_bitwarden(k, s, r):
    return ("folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
            f"Work,,login,{cap(k)} API,,,0,https://app.{k}.example,{r.choice(NAMES)}@example.com,{s},")


def c_otpauth(k, s, r):
    name = r.choice(NAMES)
    return (f"Scan this QR code, or enter the setup URI manually:\n"
            f"otpauth://totp/{cap(k)}:{name}%40example.com?secret={s}&issuer={cap(k)}&digits=6")


def c_commit(k, s, r):
    return (f"Temporarily hard-code the {k} token\n\n"
            f"The vault agent is down on the {r.choice(ENVS)} runners; until it is back the job\n"
            f"uses token {s} directly. Revert once INFRA-{r.randint(1000, 9999)} is fixed.")


CONTEXTS = [
    ("xtrace-password-flag", "a `bash -x` trace of `docker login --password VALUE` (generic)", c_xtrace),
    ("shell-default-expansion", "a script line `API_TOKEN=\"${API_TOKEN:-VALUE}\"` (generic)", c_default_expansion),
    ("heredoc-with-token", "`CLI auth login --with-token <<'EOF'` with the value alone on the heredoc's line", c_heredoc),
    ("powershell-securestring", "`ConvertTo-SecureString 'VALUE' -AsPlainText -Force` then a PSCredential", c_securestring),
    ("windows-setx", "a cmd.exe session `setx PROVIDER_API_KEY \"VALUE\"` with its SUCCESS line", c_setx),
    ("systemd-environment", "a unit file `Environment=\"LOG_LEVEL=info\" \"API_SECRET=VALUE\"` (generic)", c_systemd),
    ("nginx-proxy-header", "an nginx location with `proxy_set_header X-API-Key \"VALUE\";`", c_nginx),
    ("dockerfile-arg", "a Dockerfile `ARG PROVIDER_API_KEY=VALUE` copied into `ENV`", c_dockerfile),
    ("helm-values", "Helm values: `provider:` / `auth:` / `apiKey: \"VALUE\"` nested three deep", c_helm),
    ("ansible-task-vars", "an Ansible task's `vars:` with `provider_api_token: \"VALUE\"` and `no_log: true`", c_ansible),
    ("kotlin-const-val", "Kotlin `private const val API_KEY: String = \"VALUE\"` in a ProviderConfig object", c_kotlin),
    ("swift-static-let", "Swift `static let apiKey: String = \"VALUE\"` in a ProviderCredentials enum", c_swift),
    ("java-builder", "a Java client builder `.apiKey(\"VALUE\")`", c_java_builder),
    ("spring-value-default", "a Spring `@Value(\"${provider.api-key:VALUE}\")` annotation with the value as default", c_spring_value),
    ("php-config-array", "a PHP (Laravel-style) config array `'api_key' => 'VALUE'` under the provider's key", c_php),
    ("ruby-env-fetch", "Ruby `config.api_key = ENV.fetch(\"PROVIDER_API_KEY\", \"VALUE\")` with the value as fallback", c_ruby),
    ("elixir-config", "Elixir `config :app, App.Provider, api_key: \"VALUE\"` keyword list", c_elixir),
    ("hocon-block", "a HOCON (Scala/Akka) block `provider { credentials.secret = \"VALUE\" }`", c_hocon),
    ("go-grpc-metadata", "Go gRPC `metadata.Pairs(\"x-api-key\", \"VALUE\")` (generic)", c_grpc),
    ("sql-create-user", "MySQL `CREATE USER ... IDENTIFIED BY 'VALUE'` and a GRANT", c_sql_user),
    ("sql-insert-api-keys", "`INSERT INTO api_keys (service, environment, key_value, ...) VALUES (...)` over two lines", c_sql_insert),
    ("connection-string-password", "an Npgsql `key=value;` connection string with `Password=VALUE` (generic)", c_connection_string),
    ("maven-settings-server", "a Maven settings.xml `<server>` with `<password>VALUE</password>`", c_maven),
    ("gradle-buildconfig", "Android Gradle `buildConfigField(\"String\", \"PROVIDER_API_KEY\", \"\\\"VALUE\\\"\")`", c_gradle_buildconfig),
    ("postman-environment", "a Postman environment export, `\"key\": \"apiKey\"` and `\"value\"` in one object with `\"type\": \"secret\"`", c_postman),
    ("jupyter-ipython", "IPython cells `os.environ[\"PROVIDER_API_KEY\"] = \"VALUE\"` between other cells", c_jupyter),
    ("python-traceback", "a Python traceback echoing the call `client.fetch(auth_token=\"VALUE\")`", c_traceback),
    ("email-new-key", "an e-mail \"Your new API key is:\" with the value indented on its own line", c_email),
    ("chat-message", "a chat log: one asks for the provider key, the other answers with the bare value", c_chat),
    ("notes-bullet", "a Markdown note `- staging token \u2192 VALUE` under a provider heading", c_notes),
    ("bitwarden-csv", "a Bitwarden CSV export, the value in the `login_password` column", c_bitwarden),
    ("otpauth-uri", "an `otpauth://totp/...?secret=VALUE&issuer=...` setup URI (URL-safe values only)", c_otpauth),
    ("commit-message", "a commit message: \"... the job uses token VALUE directly\"", c_commit),
]

FITS = {"otpauth-uri": lambda s: bool(URL_SAFE.fullmatch(s))}


def earlier_patterns():
    pats = []
    for c in EARLIER:
        p = re.escape(c)
        p = p.replace(re.escape("{K}"), "(?P<K>[A-Z0-9]+)").replace(re.escape("{k}"), "(?P<k>[a-z0-9]+)")
        p = p.replace(re.escape("{S}"), "(?P<S>.+)")
        pats.append(re.compile("^" + p + "$"))
    return pats


def keyword_of(row, pats):
    for p in pats:
        m = p.match(row["text"])
        if m and m.group("S") == row["secret"]:
            g = m.groupdict()
            return (g.get("K") or g.get("k")).lower()
    raise SystemExit(f"no earlier context matches: {row['text']!r}")


def main():
    pats = earlier_patterns()
    rng = random.Random(SEED)
    values = []
    for name in SOURCES:
        part = []
        for line in open(HERE / name, encoding="utf-8"):
            row = json.loads(line)
            part.append((row["secret"], row["kind"], keyword_of(row, pats)))
        rng.shuffle(part)
        values += part  # one source after the other, so each context gets a similar mix of both
    assert len({v[0] for v in values}) == len(values), "duplicate secret"
    n = len(CONTEXTS)
    counts = [0] * n
    kinds = [[] for _ in range(n)]
    chosen = []
    for i, (secret, kind, k) in enumerate(values):
        fit = [j for j, c in enumerate(CONTEXTS) if FITS.get(c[0], lambda s: True)(secret)]
        j = min(fit, key=lambda j: (counts[j], kind in kinds[j], (j - i) % n))
        counts[j] += 1
        kinds[j].append(kind)
        chosen.append(j)

    rows, texts = [], set()
    for (secret, kind, k), j in zip(values, chosen):
        cid, _, render = CONTEXTS[j]
        text = render(k, secret, rng)
        assert text.count(secret) == 1, (cid, secret)
        assert text not in texts, text
        texts.add(text)
        rows.append({"text": text, "label": "risk", "kind": kind, "secret": secret,
                     "source": "heldout-contexts-2", "context": cid})
    rows.sort(key=lambda r: ([c[0] for c in CONTEXTS].index(r["context"]), r["kind"], r["secret"]))

    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows over {n} contexts")
    for c in CONTEXTS:
        print(f"  {c[0]:28} {sum(r['context'] == c[0] for r in rows)}")


if __name__ == "__main__":
    main()
