#!/usr/bin/env python3
"""Build tests/corpora/heldout-credentials-contexts-6.jsonl.

A sixth, independently written set of contexts in which credentials appear.
Values are the 216 rows of heldout-credentials-microsoft.jsonl and
heldout-credentials-titus.jsonl, each used exactly once. The provider keyword
of each row is recovered from the template its `text` was written in.

Rebuild:  python3 tests/corpora/gen_heldout_contexts_6.py
Output is deterministic (seeded; independent of PYTHONHASHSEED).
"""

import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [
    ("microsoft", os.path.join(HERE, "heldout-credentials-microsoft.jsonl")),
    ("titus", os.path.join(HERE, "heldout-credentials-titus.jsonl")),
]
OUT = os.path.join(HERE, "heldout-credentials-contexts-6.jsonl")
SOURCE_TAG = "heldout-contexts-6"
SEED = 60606

# Templates of the source files, used only to recover the provider keyword.
KEYWORD_PATTERNS = [
    re.compile(r'^([A-Z0-9]+)_API_KEY="(.*)"$'),
    re.compile(r"^export ([A-Z0-9]+)_TOKEN=(.*)$"),
    re.compile(r'^"([a-z0-9]+)_secret": "(.*)",$'),
    re.compile(r"^([a-z0-9]+)Token := '(.*)'$"),
    re.compile(r"^([a-z0-9]+)\.auth\.token: (.*)$"),
    re.compile(r'^<add key="([a-z0-9]+)_key" value="(.*)" />$'),
    re.compile(r"^([A-Z0-9]+)_ACCESS_KEY = (.*)  # rotate monthly$"),
]

# Placeholders: {S} secret, {k} keyword lower, {K} keyword upper,
# {Kc} keyword capitalised. Filled with str.replace, so code braces are safe.

ANY = None  # accepts every value
NO_URL_SPECIALS = re.compile(r"^[A-Za-z0-9._~-]+$")  # unreserved URL chars only

# (id, note, accept-regex or None, [templates])
CONTEXTS = [
    ("curl_bearer",
     "curl command line with an Authorization: Bearer header",
     ANY,
     ['curl -sS -X POST "https://api.{k}.com/v1/jobs" \\\n'
      '  -H "Authorization: Bearer {S}" \\\n'
      '  -H "Content-Type: application/json" \\\n'
      "  -d '{\"input\": \"hello\"}'",
      'curl -s https://api.{k}.com/v2/account \\\n'
      '     --header "Authorization: Bearer {S}" | jq .']),

    ("raw_http_request",
     "raw HTTP/1.1 request dump with an X-API-Key header",
     ANY,
     ["POST /v2/query HTTP/1.1\n"
      "Host: gateway.internal.example.net\n"
      "User-Agent: python-requests/2.31.0\n"
      "Accept: */*\n"
      "X-API-Key: {S}\n"
      "Content-Type: application/json\n"
      "Content-Length: 48"]),

    ("py_client_kwarg",
     "Python SDK client constructed with an api_key keyword argument",
     ANY,
     ['client = ApiClient(\n'
      '    base_url="https://api.{k}.com",\n'
      '    api_key="{S}",\n'
      '    timeout=30,\n'
      ')',
      'resp = requests.get(url, params={"q": query}, auth=("apikey", "{S}"), timeout=10)']),

    ("js_axios_token",
     "JavaScript axios call with a Token scheme Authorization header in a template literal",
     ANY,
     ["const res = await axios.get(`${BASE_URL}/v1/items`, {\n"
      "  headers: { Authorization: `Token {S}` },\n"
      "  params: { page: 1 },\n"
      "});"]),

    ("k8s_secret_stringdata",
     "Kubernetes Secret manifest with the value under stringData",
     ANY,
     ["apiVersion: v1\n"
      "kind: Secret\n"
      "metadata:\n"
      "  name: {k}-credentials\n"
      "  namespace: prod\n"
      "type: Opaque\n"
      "stringData:\n"
      "  client-secret: {S}"]),

    ("kubectl_from_literal",
     "kubectl create secret generic with --from-literal",
     ANY,
     ["kubectl create secret generic {k}-creds --namespace=payments \\\n"
      "  --from-literal=token={S} \\\n"
      "  --dry-run=client -o yaml | kubectl apply -f -"]),

    ("docker_run_env",
     "docker run with the value passed through an -e environment flag",
     ANY,
     ["docker run -d --name ingest-worker -e API_TOKEN={S} -e LOG_LEVEL=info ghcr.io/acme/worker:1.8.2"]),

    ("gh_secret_set",
     "GitHub CLI gh secret set with --body",
     ANY,
     ['gh secret set {K}_API_KEY --repo acme/platform --body "{S}"']),

    ("hcl_provider_block",
     "Terraform provider block with an api_token argument",
     ANY,
     ['provider "{k}" {\n'
      '  region    = "westeurope"\n'
      '  api_token = "{S}"\n'
      '}']),

    ("pypirc_ini",
     ".pypirc file with a password under the [pypi] section",
     ANY,
     ["[distutils]\n"
      "index-servers =\n"
      "    pypi\n"
      "\n"
      "[pypi]\n"
      "username = __token__\n"
      "password = {S}"]),

    ("md_table_doc",
     "Markdown documentation table with an 'API key' column",
     ANY,
     ["## Staging access\n"
      "\n"
      "| Service | Environment | API key |\n"
      "|---|---|---|\n"
      "| {k} | staging | `{S}` |"]),

    ("slack_message_en",
     "English chat message handing a key to a colleague",
     ANY,
     ["hey @maria, here's the {k} key for the demo tomorrow: {S} (pls don't commit it, I'll rotate it after)",
      "fyi the token for the shared test account is {S}, ping me if it stops working"]),

    ("email_de",
     "German e-mail giving a new API key",
     ANY,
     ["Hallo zusammen,\n"
      "\n"
      "anbei der neue API-Schlüssel für {k}: {S}\n"
      "\n"
      "Bitte nur im Tresor ablegen und nicht per Chat weiterleiten.\n"
      "Viele Grüße\n"
      "Jens"]),

    ("note_fr",
     "French sentence giving an access token",
     ANY,
     ["Pour se connecter à l'API {k}, utilisez le jeton d'accès suivant : {S} — il expire à la fin du mois."]),

    ("ticket_es",
     "Spanish support ticket giving a secret key",
     ANY,
     ["Asunto: Acceso al entorno de pruebas\n"
      "Hola Lucía, te paso la clave secreta del servicio: {S}\n"
      "Cámbiala en cuanto entres por primera vez. Saludos."]),

    ("wiki_ja",
     "Japanese wiki page listing connection details with an API key item",
     ANY,
     ["## 接続情報\n"
      "- エンドポイント: https://api.{k}.jp/v1\n"
      "- APIキー: {S}\n"
      "- 有効期限: 2025年3月末"]),

    ("chat_zh",
     "Chinese chat message giving an access token",
     ANY,
     ["老王，{k} 那边的访问令牌是 {S}，测试完记得让他们重置一下。"]),

    ("msg_pt",
     "Portuguese message giving an integration user's password",
     ANY,
     ["Oi pessoal, a senha do usuário de integração ficou {S} — alguém atualiza no cofre, por favor?"]),

    ("doc_ru",
     "Russian note with login and password lines",
     ANY,
     ["Доступ к сервису {k}:\n"
      "  логин: integration\n"
      "  пароль: {S}"]),

    ("note_ko",
     "Korean note labelling an API key",
     ANY,
     ["{k} 운영 계정 API 키: {S} (외부 공유 금지)"]),

    ("log_dict_repr",
     "debug log line printing request headers as a Python dict",
     ANY,
     ["2024-05-14 09:21:07,412 DEBUG urllib3.connectionpool Starting new HTTPS connection (1): api.{k}.com:443\n"
      "2024-05-14 09:21:07,418 DEBUG sdk.transport send headers={'User-Agent': 'acme-sdk/3.2.0', "
      "'Authorization': 'Bearer {S}', 'Accept': 'application/json'}"]),

    ("error_message",
     "Python traceback ending in an error that echoes the API key",
     ANY,
     ["Traceback (most recent call last):\n"
      '  File "/app/sync.py", line 88, in <module>\n'
      "    main()\n"
      '  File "/app/sync.py", line 61, in main\n'
      "    resp.raise_for_status()\n"
      "AuthenticationError: Incorrect API key provided: {S}. You can find your API key in the dashboard."]),

    ("ps_keyvault",
     "PowerShell ConvertTo-SecureString and Set-AzKeyVaultSecret",
     ANY,
     ['$secret = ConvertTo-SecureString -String "{S}" -AsPlainText -Force\n'
      'Set-AzKeyVaultSecret -VaultName "kv-prod-weu" -Name "{k}-key" -SecretValue $secret']),

    ("az_cli_keyvault",
     "Azure CLI az keyvault secret set with --value",
     ANY,
     ['az keyvault secret set --vault-name kv-shared-01 --name {k}-primary-key --value "{S}" --output none']),

    ("azure_connstring",
     "Azure connection strings with SharedAccessKey / AccountKey segments",
     ANY,
     ["Endpoint=sb://acme-prod.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={S}",
      "DefaultEndpointsProtocol=https;AccountName=stacmeprod01;AccountKey={S};EndpointSuffix=core.windows.net"]),

    ("url_query_param",
     "URL with the value in an api_key query parameter (URL-safe values only)",
     NO_URL_SPECIALS,
     ["https://api.{k}.com/v1/search?q=weather&limit=20&api_key={S}",
      "GET /v1/reports/daily?format=csv&access_token={S} HTTP/1.1"]),

    ("netrc",
     ".netrc entry with machine, login and password",
     ANY,
     ["machine api.{k}.com\n"
      "  login ci-bot\n"
      "  password {S}"]),

    ("npmrc",
     ".npmrc with a registry _authToken line",
     ANY,
     ["registry=https://registry.npmjs.org/\n"
      "@acme:registry=https://npm.pkg.github.com/\n"
      "//npm.pkg.github.com/:_authToken={S}"]),

    ("java_httpclient",
     "Java HttpRequest builder with an Ocp-Apim-Subscription-Key header",
     ANY,
     ["HttpRequest request = HttpRequest.newBuilder()\n"
      '        .uri(URI.create("https://acme.azure-api.net/orders/v1/list"))\n'
      '        .header("Ocp-Apim-Subscription-Key", "{S}")\n'
      "        .GET()\n"
      "        .build();"]),

    ("csharp_keycredential",
     "C# AzureKeyCredential constructed from a string literal",
     ANY,
     ['var endpoint = new Uri("https://{k}-weu.cognitiveservices.azure.com/");\n'
      'var credential = new AzureKeyCredential("{S}");\n'
      "var client = new TextAnalyticsClient(endpoint, credential);"]),

    ("ruby_configure",
     "Ruby configure block setting config.access_token",
     ANY,
     ["{Kc}.configure do |config|\n"
      "  config.access_token = '{S}'\n"
      "  config.timeout = 15\n"
      "end"]),

    ("php_define",
     "PHP define() of an API_SECRET constant",
     ANY,
     ["<?php\n"
      "define('API_SECRET', '{S}');\n"
      "define('API_BASE', 'https://api.{k}.com/');"]),

    ("sql_insert",
     "SQL INSERT into a table with an api_key column",
     ANY,
     ["INSERT INTO integrations (provider, api_key, created_at) VALUES ('{k}', '{S}', NOW());"]),

    ("csv_export",
     "password-manager CSV export with a password column",
     ANY,
     ["name,url,username,password,notes\n"
      "{k} prod,https://console.{k}.com,ops@acme.io,{S},shared vault"]),

    ("systemd_env",
     "systemd unit with an Environment= line holding an auth token",
     ANY,
     ["[Unit]\n"
      "Description=Ingest worker\n"
      "After=network-online.target\n"
      "\n"
      "[Service]\n"
      'Environment="SERVICE_AUTH_TOKEN={S}"\n'
      "ExecStart=/opt/ingest/bin/worker --config /etc/ingest.toml\n"
      "Restart=on-failure"]),

    ("git_diff",
     "unified git diff adding a secret_key line to a YAML config",
     ANY,
     ["diff --git a/config/settings.yml b/config/settings.yml\n"
      "index 3f2a1c9..8b7d4e0 100644\n"
      "--- a/config/settings.yml\n"
      "+++ b/config/settings.yml\n"
      "@@ -10,6 +10,7 @@ upstream:\n"
      "   base_url: https://api.{k}.com\n"
      "   timeout: 30\n"
      "+  secret_key: {S}\n"
      "   retries: 3"]),

    ("terminal_login",
     "interactive CLI login transcript where the token is pasted at a prompt",
     ANY,
     ["$ {k} auth login\n"
      "? How would you like to authenticate? Paste an authentication token\n"
      "? Paste your token: {S}\n"
      "✓ Logged in as deploy-bot"]),

    ("plist",
     "iOS Info.plist with an APIKey key element followed by the string",
     ANY,
     ["<key>CFBundleIdentifier</key>\n"
      "<string>com.acme.app</string>\n"
      "<key>APIKey</key>\n"
      "<string>{S}</string>"]),

    ("gradle_buildconfig",
     "Android Gradle buildConfigField with an escaped string value",
     ANY,
     ["defaultConfig {\n"
      '    applicationId "com.acme.android"\n'
      "    minSdk 24\n"
      '    buildConfigField "String", "{K}_API_KEY", "\\"{S}\\""\n'
      "}"]),

    ("heroku_config",
     "heroku config output with aligned NAME: value columns",
     ANY,
     ["$ heroku config -a acme-api\n"
      "=== acme-api Config Vars\n"
      "{HEROKU}"]),

    ("python_repl",
     "Python REPL printing a settings token attribute",
     ANY,
     [">>> from app import settings\n"
      ">>> settings.API_TOKEN\n"
      "'{S}'"]),

    ("html_password_input",
     "HTML form with a password input carrying a value",
     ANY,
     ['<label for="pw">Password</label>\n'
      '<input type="password" id="pw" name="password" value="{S}" autocomplete="off">']),
]


def heroku_block(k, s):
    rows = [("LOG_LEVEL", "info"), (k.upper() + "_SECRET", s), ("NODE_ENV", "production")]
    width = max(len(n) for n, _ in rows) + 2
    return "\n".join((n + ":").ljust(width) + v for n, v in rows)


def render(template, k, s):
    t = template
    if "{HEROKU}" in t:
        t = t.replace("{HEROKU}", heroku_block(k, s))
        return t
    t = t.replace("{Kc}", k.capitalize()).replace("{K}", k.upper()).replace("{k}", k)
    return t.replace("{S}", s)


def load():
    out = {}
    for name, path in SOURCES:
        rows = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                kw = None
                for p in KEYWORD_PATTERNS:
                    m = p.match(r["text"])
                    if m and m.group(2) == r["secret"]:
                        kw = m.group(1).lower()
                        break
                if kw is None:
                    sys.exit("no keyword recovered from: %r" % r["text"])
                rows.append({"secret": r["secret"], "kind": r["kind"], "kw": kw})
        out[name] = rows
    return out


def accepts(ctx, secret):
    rx = ctx[2]
    return rx is None or bool(rx.match(secret))


def assign(data):
    rng = random.Random(SEED)
    n = len(CONTEXTS)
    ms = sorted(data["microsoft"], key=lambda r: r["secret"])
    ti = sorted(data["titus"], key=lambda r: r["secret"])
    rng.shuffle(ms)
    rng.shuffle(ti)
    total = len(ms) + len(ti)

    # per-context sizes (5 or 6) and titus quotas (1 or 2), chosen by seed
    order = list(range(n))
    base, extra = divmod(total, n)
    rng.shuffle(order)
    size = [base] * n
    for c in order[:extra]:
        size[c] += 1
    tbase, textra = divmod(len(ti), n)
    rng.shuffle(order)
    tq = [tbase] * n
    for c in order[:textra]:
        tq[c] += 1
    if min(tq) < 1:
        sys.exit("not enough titus rows for one per context")
    mq = [size[c] - tq[c] for c in range(n)]
    if min(mq) < 1 or sum(mq) != len(ms):
        sys.exit("bad quotas")

    buckets = [[] for _ in range(n)]
    # restricted contexts first, so they take values they accept
    ctx_order = sorted(range(n), key=lambda c: (CONTEXTS[c][2] is None, c))
    pools = {"microsoft": ms, "titus": ti}
    quotas = {"microsoft": mq, "titus": tq}
    for c in ctx_order:
        for src in ("titus", "microsoft"):
            need = quotas[src][c]
            pool = pools[src]
            i = 0
            while need:
                if i >= len(pool):
                    sys.exit("cannot fill context %s" % CONTEXTS[c][0])
                if accepts(CONTEXTS[c], pool[i]["secret"]):
                    buckets[c].append((src, pool.pop(i)))
                    need -= 1
                else:
                    i += 1
    assert not ms and not ti
    for b in buckets:
        rng.shuffle(b)
    return buckets


def main():
    data = load()
    if len(data["microsoft"]) + len(data["titus"]) != 216:
        print("warning: expected 216 source rows", file=sys.stderr)
    buckets = assign(data)
    rows = []
    for c, ctx in enumerate(CONTEXTS):
        cid, _note, _rx, templates = ctx
        for i, (_src, r) in enumerate(buckets[c]):
            text = render(templates[i % len(templates)], r["kw"], r["secret"])
            rows.append({
                "text": text,
                "label": "risk",
                "kind": r["kind"],
                "secret": r["secret"],
                "source": SOURCE_TAG,
                "context": cid,
            })

    # sanity checks
    texts = set()
    secrets = set()
    for r in rows:
        if r["text"].count(r["secret"]) != 1:
            sys.exit("secret not exactly once in text: %r" % r["text"])
        if r["text"] in texts:
            sys.exit("duplicate text")
        texts.add(r["text"])
        secrets.add(r["secret"])
    if len(secrets) != len(rows):
        sys.exit("secret reused")
    ids = [c[0] for c in CONTEXTS]
    if len(set(ids)) != len(ids):
        sys.exit("duplicate context id")
    for c, b in enumerate(buckets):
        srcs = {s for s, _ in b}
        if srcs != {"microsoft", "titus"}:
            sys.exit("context %s lacks a source" % ids[c])
        if len({len(r["secret"]) for _, r in b}) < 2:
            print("note: context %s has one value length only" % ids[c], file=sys.stderr)

    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows in %d contexts to %s" % (len(rows), len(CONTEXTS), os.path.relpath(OUT)))


if __name__ == "__main__":
    main()
