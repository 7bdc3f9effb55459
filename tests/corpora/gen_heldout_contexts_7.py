#!/usr/bin/env python3
"""Held-out credential rows in a seventh set of contexts.

Values come from tests/corpora/heldout-credentials-microsoft.jsonl and
tests/corpora/heldout-credentials-titus.jsonl (each of the 216 rows used once).
The contexts below were written for this set before any row was generated.

Placeholders in a template: <<S>> the value, <<k>> provider keyword in lower
case, <<K>> upper case, <<Kc>> capitalised.  `urlsafe` contexts only take values
made of URL-unreserved characters (letters, digits, '.', '_', '-').

Rebuild: python3 tests/corpora/gen_heldout_contexts_7.py
"""

import json
import os
import random
import re

CONTEXTS = [
    {
        "id": "csharp-storage-connstr",
        "note": "C# string literal holding a storage connection string; value after AccountKey=",
        "urlsafe": False,
        "template": 'var conn = "DefaultEndpointsProtocol=https;AccountName=contosodata;AccountKey=<<S>>;EndpointSuffix=core.windows.net";\nvar client = new BlobServiceClient(conn);',
    },
    {
        "id": "appsettings-servicebus-connstr",
        "note": "nested appsettings.json ConnectionStrings entry; value after SharedAccessKey= in a semicolon list",
        "urlsafe": False,
        "template": '{\n  "ConnectionStrings": {\n    "Bus": "Endpoint=sb://<<k>>-prod.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=<<S>>"\n  },\n  "Logging": { "LogLevel": { "Default": "Warning" } }\n}',
    },
    {
        "id": "curl-bearer-multiline",
        "note": "multi-line curl command with backslash continuations and an Authorization: Bearer header",
        "urlsafe": False,
        "template": 'curl -s https://api.<<k>>.com/v1/models \\\n  -H "Authorization: Bearer <<S>>" \\\n  -H "Content-Type: application/json"',
    },
    {
        "id": "raw-http-subscription-key-header",
        "note": "raw HTTP request copied from browser dev tools; custom subscription-key header among others",
        "urlsafe": False,
        "template": "POST /v2/query HTTP/1.1\nHost: api.example.net\nOcp-Apim-Subscription-Key: <<S>>\nContent-Type: application/json\nContent-Length: 57",
    },
    {
        "id": "python-sdk-api-key-kwarg",
        "note": "Python module import then client constructor with api_key= keyword argument",
        "urlsafe": False,
        "template": 'import <<k>>\n\nclient = <<k>>.Client(api_key="<<S>>", timeout=30)\nprint(client.models.list())',
    },
    {
        "id": "js-client-options-object",
        "note": "JavaScript object literal passed to a client constructor; apiKey property with single quotes",
        "urlsafe": False,
        "template": "const client = new Client({\n  baseURL: process.env.BASE_URL,\n  apiKey: '<<S>>',\n  maxRetries: 2,\n});",
    },
    {
        "id": "compose-environment-list",
        "note": "docker-compose service with environment given as a YAML list of NAME=value items",
        "urlsafe": False,
        "template": "services:\n  worker:\n    image: ghcr.io/acme/worker:1.4\n    environment:\n      - LOG_LEVEL=info\n      - <<K>>_API_TOKEN=<<S>>\n    restart: unless-stopped",
    },
    {
        "id": "k8s-secret-stringdata",
        "note": "Kubernetes Secret manifest with stringData and a kebab-case api-key field",
        "urlsafe": False,
        "template": 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: <<k>>-credentials\n  namespace: prod\ntype: Opaque\nstringData:\n  api-key: "<<S>>"',
    },
    {
        "id": "kubectl-from-literal",
        "note": "kubectl create secret command; value inside --from-literal=NAME=value",
        "urlsafe": False,
        "template": "kubectl create secret generic app-secrets -n prod --from-literal=API_KEY=<<S>>",
    },
    {
        "id": "gha-step-env-plain",
        "note": "GitHub Actions workflow step with a hard-coded unquoted env value",
        "urlsafe": False,
        "template": "    steps:\n      - uses: actions/checkout@v4\n      - name: Run integration tests\n        env:\n          SERVICE_TOKEN: <<S>>\n        run: npm test",
    },
    {
        "id": "terraform-provider-block",
        "note": "HCL provider block with aligned api_key attribute",
        "urlsafe": False,
        "template": 'provider "<<k>>" {\n  endpoint = "https://<<k>>.example.io"\n  api_key  = "<<S>>"\n}',
    },
    {
        "id": "dotnet-user-secrets-set",
        "note": "dotnet user-secrets set command; colon-separated config path then the value as positional argument",
        "urlsafe": False,
        "template": 'dotnet user-secrets set "Services:<<k>>:ApiKey" "<<S>>" --project src/Web',
    },
    {
        "id": "powershell-securestring",
        "note": "PowerShell ConvertTo-SecureString with a plaintext value fed into a PSCredential",
        "urlsafe": False,
        "template": '$secret = ConvertTo-SecureString "<<S>>" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ("svc-deploy", $secret)',
    },
    {
        "id": "windows-cmdkey-pass",
        "note": "Windows cmdkey command storing a generic credential; value after /pass:",
        "urlsafe": False,
        "template": "cmdkey /generic:git:https://dev.azure.com /user:build /pass:<<S>>",
    },
    {
        "id": "npmrc-authtoken",
        "note": ".npmrc with a registry-scoped _authToken line and a scope registry line",
        "urlsafe": False,
        "template": "//npm.pkg.github.com/:_authToken=<<S>>\n@acme:registry=https://npm.pkg.github.com\nalways-auth=true",
    },
    {
        "id": "git-clone-access-token-url",
        "note": "git clone over HTTPS with x-access-token as user and the value as URL password",
        "urlsafe": True,
        "template": "git clone https://x-access-token:<<S>>@github.com/acme/<<k>>-sync.git",
    },
    {
        "id": "jdbc-url-password-param",
        "note": "Java properties line with a JDBC URL carrying password= as a query parameter",
        "urlsafe": True,
        "template": "spring.datasource.url=jdbc:postgresql://db.internal:5432/orders?user=app&password=<<S>>&sslmode=require",
    },
    {
        "id": "access-log-api-key-query",
        "note": "combined-format web server access log line with api_key in the request query string",
        "urlsafe": True,
        "template": '10.0.3.7 - - [12/Mar/2024:10:14:02 +0000] "GET /v1/search?q=paris&api_key=<<S>> HTTP/1.1" 200 5123 "-" "python-requests/2.31.0"',
    },
    {
        "id": "sdk-auth-error-echo",
        "note": "SDK exception text that echoes the rejected API key inside an error message dict",
        "urlsafe": False,
        "template": "AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: <<S>>. You can find your API key in the dashboard.', 'type': 'invalid_request_error'}}",
    },
    {
        "id": "markdown-handover-table",
        "note": "Markdown table in a handover document; 'API key' column header, value in backticks in a later row",
        "urlsafe": False,
        "template": "| Service | Environment | API key | Owner |\n|---|---|---|---|\n| <<k>> | staging | `<<S>>` | @mlee |",
    },
    {
        "id": "csv-client-secret-column",
        "note": "CSV export whose header names a client_secret column; value in the data row",
        "urlsafe": False,
        "template": "service,env,client_id,client_secret,created_at\n<<k>>,prod,7f3a2c91,<<S>>,2024-02-11",
    },
    {
        "id": "chat-en-token-inline",
        "note": "English chat message sharing a personal token mid-sentence with a dash aside",
        "urlsafe": False,
        "template": "hey, can you try with my token for now? <<S>> - I'll rotate it after the demo",
    },
    {
        "id": "email-de-api-schluessel",
        "note": "German e-mail giving the API-Schlüssel for a test environment after a colon",
        "urlsafe": False,
        "template": "Hallo Jonas,\n\nhier der API-Schlüssel für die Testumgebung: <<S>>\n\nBitte nicht ins Repo committen.\n\nGrüße\nAnke",
    },
    {
        "id": "chat-fr-mot-de-passe",
        "note": "French sentence stating the service account mot de passe, followed by a parenthetical",
        "urlsafe": False,
        "template": "Le mot de passe du compte de service est <<S>> (à changer après la migration).",
    },
    {
        "id": "chat-es-clave-api",
        "note": "Spanish chat message passing the clave de la API for a provider, with a follow-up line",
        "urlsafe": False,
        "template": "Te paso la clave de la API de <<k>> por aquí: <<S>>\nBórrala del chat cuando la copies.",
    },
    {
        "id": "chat-ja-api-key",
        "note": "Japanese message giving the production APIキー after a full-width colon",
        "urlsafe": False,
        "template": "本番環境のAPIキーはこちらです：<<S>>\n取り扱いに注意してください。",
    },
    {
        "id": "chat-zh-access-token",
        "note": "Chinese message with 访问令牌 label, value followed directly by a full-width comma",
        "urlsafe": False,
        "template": "测试环境的访问令牌：<<S>>，用完请删除。",
    },
    {
        "id": "chat-ru-token",
        "note": "Russian message giving the Токен for a provider, followed by an em-dash clause",
        "urlsafe": False,
        "template": "Токен для <<k>>: <<S>> — действует до конца месяца.",
    },
    {
        "id": "chat-ko-api-key",
        "note": "Korean multi-line message: announcement line, then a 키: label line with the value",
        "urlsafe": False,
        "template": "<<k>> API 키 공유드립니다.\n키: <<S>>\n외부 유출 주의 부탁드립니다.",
    },
    {
        "id": "unified-diff-client-secret",
        "note": "unified diff of a YAML values file where an added line sets clientSecret",
        "urlsafe": False,
        "template": "--- a/deploy/values.yaml\n+++ b/deploy/values.yaml\n@@ -8,3 +8,4 @@ ingress:\n   enabled: true\n auth:\n   issuer: https://login.example.com\n+  clientSecret: <<S>>",
    },
    {
        "id": "maven-settings-server-password",
        "note": "Maven settings.xml server entry; value as text of a <password> element",
        "urlsafe": False,
        "template": "<servers>\n  <server>\n    <id>internal-releases</id>\n    <username>ci-bot</username>\n    <password><<S>></password>\n  </server>\n</servers>",
    },
    {
        "id": "plist-key-string-pair",
        "note": "Apple property list: <key>APIToken</key> followed by a <string> element holding the value",
        "urlsafe": False,
        "template": "<dict>\n\t<key>APIToken</key>\n\t<string><<S>></string>\n\t<key>Environment</key>\n\t<string>production</string>\n</dict>",
    },
    {
        "id": "pgpass-line",
        "note": "~/.pgpass file: header comment names the password field, value is the last colon-separated field",
        "urlsafe": False,
        "template": "# ~/.pgpass  hostname:port:database:username:password\ndb.prod.internal:5432:analytics:report_ro:<<S>>",
    },
    {
        "id": "redis-cli-auth-session",
        "note": "interactive redis-cli session: AUTH command with user and value, then OK reply",
        "urlsafe": False,
        "template": "127.0.0.1:6379> AUTH default <<S>>\nOK\n127.0.0.1:6379> PING\nPONG",
    },
    {
        "id": "rust-reqwest-bearer-auth",
        "note": "Rust reqwest builder chain with .bearer_auth(\"...\")",
        "urlsafe": False,
        "template": 'let resp = client\n    .get("https://api.<<k>>.com/v1/usage")\n    .bearer_auth("<<S>>")\n    .send()\n    .await?;',
    },
    {
        "id": "har-header-name-value",
        "note": "HAR file fragment: header list of name/value objects, one named x-api-key",
        "urlsafe": False,
        "template": '"headers": [\n  { "name": "accept", "value": "application/json" },\n  { "name": "x-api-key", "value": "<<S>>" }\n],',
    },
    {
        "id": "az-keys-list-table",
        "note": "Azure CLI keys list command and its table output; value under the Value column on the key1 row",
        "urlsafe": False,
        "template": "$ az storage account keys list --account-name <<k>>prod -o table\nKeyName    Permissions    Value\n---------  -------------  ----------------------------------------\nkey1       FULL           <<S>>",
    },
    {
        "id": "systemd-environment-directive",
        "note": "systemd unit [Service] section with a quoted Environment= directive carrying an AUTH_TOKEN",
        "urlsafe": False,
        "template": '[Service]\nExecStart=/usr/local/bin/exporter --listen :9108\nEnvironment="EXPORTER_AUTH_TOKEN=<<S>>"\nRestart=on-failure',
    },
    {
        "id": "docker-login-password-stdin",
        "note": "shell pipeline echoing the value into docker login --password-stdin",
        "urlsafe": False,
        "template": 'echo "<<S>>" | docker login registry.example.com -u ci --password-stdin',
    },
    {
        "id": "ipynb-source-escaped",
        "note": "Jupyter notebook JSON cell source array with an escaped assignment to an SDK api_key attribute",
        "urlsafe": False,
        "template": '  "source": [\n    "import <<k>>\\n",\n    "<<k>>.api_key = \\"<<S>>\\"\\n"\n  ]',
    },
    {
        "id": "netrc-machine-entry",
        "note": ".netrc machine block with login and password on separate indented lines",
        "urlsafe": False,
        "template": "machine api.<<k>>.com\n  login apikey\n  password <<S>>",
    },
    {
        "id": "ticket-repro-password-paren",
        "note": "bug ticket reproduction steps; the password given in parentheses after a test user name",
        "urlsafe": False,
        "template": "Steps to reproduce:\n1. Log in as qa-user (password: <<S>>)\n2. Open Settings > Billing\n3. Click 'Download invoice' - spinner never ends",
    },
]

SEED = 70707
SOURCE = "heldout-contexts-7"
HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = [
    "heldout-credentials-microsoft.jsonl",
    "heldout-credentials-titus.jsonl",
]
OUTPUT = "heldout-credentials-contexts-7.jsonl"

# The forms the input rows were written in; each yields the provider keyword.
KEYWORD_FORMS = [
    r'^([A-Z0-9]+)_API_KEY="',
    r"^export ([A-Z0-9]+)_TOKEN=",
    r'^"([a-z0-9]+)_secret": ',
    r"^([a-z0-9]+)Token := '",
    r"^([a-z0-9]+)\.auth\.token: ",
    r'^<add key="([a-z0-9]+)_key"',
    r"^([A-Z0-9]+)_ACCESS_KEY = ",
]
URLSAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def keyword(text):
    hits = [m.group(1) for m in (re.match(p, text) for p in KEYWORD_FORMS) if m]
    if len(hits) != 1:
        raise SystemExit("cannot recover keyword from: %r" % text)
    return hits[0].lower()


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                rows.append({"secret": r["secret"], "kind": r["kind"], "k": keyword(r["text"])})
    return rows


def accepts(ctx, secret):
    return (not ctx["urlsafe"]) or bool(URLSAFE.match(secret))


def quotas(n_ctx, n_vals, rng):
    """Spread n_vals over n_ctx contexts as evenly as possible (extras placed by rng)."""
    base, extra = divmod(n_vals, n_ctx)
    if base < 1:
        raise SystemExit("not enough values for every context")
    order = list(range(n_ctx))
    rng.shuffle(order)
    q = [base] * n_ctx
    for i in order[:extra]:
        q[i] += 1
    return q


def assign(values, q, rng):
    """Give each context q[i] values; restricted contexts pick first from a shuffled pool."""
    pool = list(values)
    rng.shuffle(pool)
    used = [False] * len(pool)
    out = [[] for _ in CONTEXTS]
    order = sorted(range(len(CONTEXTS)), key=lambda i: (not CONTEXTS[i]["urlsafe"], i))
    for i in order:
        for _ in range(q[i]):
            for j, v in enumerate(pool):
                if not used[j] and accepts(CONTEXTS[i], v["secret"]):
                    used[j] = True
                    out[i].append(v)
                    break
            else:
                raise SystemExit("no value fits context %s" % CONTEXTS[i]["id"])
    if not all(used):
        raise SystemExit("unused values left")
    return out


def render(ctx, v):
    k = v["k"]
    return (
        ctx["template"]
        .replace("<<Kc>>", k.capitalize())
        .replace("<<K>>", k.upper())
        .replace("<<k>>", k)
        .replace("<<S>>", v["secret"])
    )


def main():
    rng = random.Random(SEED)
    files = [load(n) for n in INPUTS]
    n = len(CONTEXTS)
    ms_q = quotas(n, len(files[0]), rng)
    # titus quotas: fewer values than 2 per context; give the short contexts the MS extras
    ti_q = [2] * n
    short = 2 * n - len(files[1])
    ms_extra = [i for i in range(n) if ms_q[i] > min(ms_q)]
    for i in ms_extra[:short]:
        ti_q[i] -= 1
    if sum(ti_q) != len(files[1]) or min(ti_q) < 1:
        raise SystemExit("bad titus quotas")
    per_ctx = [a + b for a, b in zip(assign(files[0], ms_q, rng), assign(files[1], ti_q, rng))]

    rows = []
    for ctx, vals in zip(CONTEXTS, per_ctx):
        for v in vals:
            text = render(ctx, v)
            if text.count(v["secret"]) != 1:
                raise SystemExit("secret not exactly once in %s" % ctx["id"])
            rows.append({
                "text": text,
                "label": "risk",
                "kind": v["kind"],
                "secret": v["secret"],
                "source": SOURCE,
                "context": ctx["id"],
            })
    texts = [r["text"] for r in rows]
    if len(set(texts)) != len(texts):
        raise SystemExit("duplicate texts")
    if len({r["secret"] for r in rows}) != sum(len(f) for f in files):
        raise SystemExit("values not used exactly once")
    with open(os.path.join(HERE, OUTPUT), "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows in %d contexts to %s" % (len(rows), n, OUTPUT))


if __name__ == "__main__":
    main()
