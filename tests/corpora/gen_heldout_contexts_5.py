#!/usr/bin/env python3
"""Build tests/corpora/heldout-credentials-contexts-5.jsonl.

A fifth, independently written set of held-out contexts in which a credential
appears in the wild.  Values are the 216 rows of
heldout-credentials-microsoft.jsonl (134) and heldout-credentials-titus.jsonl
(82), each used exactly once.  The provider keyword of every row is recovered
from the short template its `text` was written in.

Deterministic: seeded, no dependence on hash ordering.  Rebuild with

    python3 tests/corpora/gen_heldout_contexts_5.py
"""

import hashlib
import json
import os
import random
import re
import sys

SEED = 20250605
SOURCE = "heldout-contexts-5"
HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = [
    os.path.join(HERE, "heldout-credentials-microsoft.jsonl"),
    os.path.join(HERE, "heldout-credentials-titus.jsonl"),
]
OUTPUT = os.path.join(HERE, "heldout-credentials-contexts-5.jsonl")

# ---------------------------------------------------------------------------
# Contexts.  Placeholders: %%S%% secret, %%k%% keyword (lower case),
# %%K%% keyword (upper case), %%P%% display name, %%D%% a date (YYYY-MM-DD),
# %%N%% a small number.  A context is (id, note, reject, template) where
# `reject` is a string of characters the value must not contain for the
# snippet to stay syntactically valid, and `template` is a string or a
# function of the placeholder dict.
# ---------------------------------------------------------------------------


def _psql(v):
    cols = ["provider", "api_key", "rotated_at"]
    vals = [v["k"], v["S"], v["D"]]
    w = [max(len(c), len(x)) for c, x in zip(cols, vals)]
    head = " " + " | ".join(c.center(n) for c, n in zip(cols, w))
    rule = "-+-".join("-" * n for n in w)
    rule = "-" + rule + "-"
    row = " " + " | ".join(x.ljust(n) for x, n in zip(vals, w))
    return (
        "app=> SELECT provider, api_key, rotated_at FROM integrations WHERE provider = '"
        + v["k"] + "';\n" + head.rstrip() + "\n" + rule + "\n" + row.rstrip() + "\n(1 row)\n"
    )


def _vault(v):
    width = max(len("created_time"), len("api_key")) + 4
    return (
        "$ vault kv get secret/apps/%%k%%\n"
        "====== Secret Path ======\n"
        "secret/data/apps/%%k%%\n"
        "\n"
        "======= Metadata =======\n"
        "Key" + " " * (width - 3) + "Value\n"
        "---" + " " * (width - 3) + "-----\n"
        "created_time" + " " * (width - 12) + "%%D%%T10:02:11.52Z\n"
        "version" + " " * (width - 7) + "%%N%%\n"
        "\n"
        "====== Data ======\n"
        "Key" + " " * (width - 3) + "Value\n"
        "---" + " " * (width - 3) + "-----\n"
        "api_key" + " " * (width - 7) + "%%S%%"
    )


CONTEXTS = [
    # --- configuration files -------------------------------------------------
    ("k8s-secret-stringdata",
     "Kubernetes Secret manifest, value under stringData with a token field",
     "",
     "apiVersion: v1\n"
     "kind: Secret\n"
     "metadata:\n"
     "  name: %%k%%-credentials\n"
     "  namespace: payments\n"
     "  labels:\n"
     "    app.kubernetes.io/part-of: checkout\n"
     "type: Opaque\n"
     "stringData:\n"
     "  api-token: %%S%%\n"),
    ("terraform-provider-block",
     "Terraform required_providers plus a provider block with an api_key argument",
     "",
     "terraform {\n"
     "  required_providers {\n"
     "    %%k%% = {\n"
     "      source  = \"acme/%%k%%\"\n"
     "      version = \"~> 2.3\"\n"
     "    }\n"
     "  }\n"
     "}\n"
     "\n"
     "provider \"%%k%%\" {\n"
     "  endpoint = \"https://api.%%k%%.example.com\"\n"
     "  api_key  = \"%%S%%\"\n"
     "}\n"),
    ("pip-conf-index-url",
     "pip.conf with a private index URL carrying a __token__ password in the userinfo",
     "/",
     "[global]\n"
     "timeout = 60\n"
     "index-url = https://pypi.org/simple\n"
     "extra-index-url = https://__token__:%%S%%@pkgs.internal.example.com/pypi/simple/\n"),
    ("npmrc-authtoken",
     ".npmrc with a scoped registry and an _authToken line",
     "",
     "@acme:registry=https://registry.npm.example.org/\n"
     "//registry.npm.example.org/:_authToken=%%S%%\n"
     "always-auth=true\n"),
    ("netrc-machine",
     ".netrc entry, password on its own indented line below machine and login",
     "",
     "machine api.%%k%%.example.com\n"
     "  login apikey\n"
     "  password %%S%%\n"),
    ("ios-info-plist",
     "Apple Info.plist, <key>...APIKey</key> followed by <string> on the next line",
     "",
     "<dict>\n"
     "\t<key>CFBundleDisplayName</key>\n"
     "\t<string>Acme</string>\n"
     "\t<key>%%P%%APIKey</key>\n"
     "\t<string>%%S%%</string>\n"
     "\t<key>UIRequiredDeviceCapabilities</key>\n"
     "\t<array>\n"
     "\t\t<string>arm64</string>\n"
     "\t</array>\n"
     "</dict>\n"),
    ("windows-reg-export",
     "Windows .reg export with a quoted ApiKey value under a software key",
     "",
     "Windows Registry Editor Version 5.00\n"
     "\n"
     "[HKEY_CURRENT_USER\\Software\\Acme\\%%P%% Connector]\n"
     "\"Endpoint\"=\"https://api.example.com/\"\n"
     "\"ApiKey\"=\"%%S%%\"\n"
     "\"PollSeconds\"=dword:0000003c\n"),
    ("appsettings-connection-string",
     "appsettings.json with a Service Bus style connection string, SharedAccessKey= inside",
     "",
     "{\n"
     "  \"ConnectionStrings\": {\n"
     "    \"Messaging\": \"Endpoint=sb://acme-prod.servicebus.windows.net/;"
     "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%%S%%\"\n"
     "  },\n"
     "  \"Logging\": { \"LogLevel\": { \"Default\": \"Information\" } }\n"
     "}\n"),
    # --- CI and commands ------------------------------------------------------
    ("gha-step-env",
     "GitHub Actions job with a hard-coded token in a step's env mapping",
     "",
     "  integration-tests:\n"
     "    runs-on: ubuntu-latest\n"
     "    needs: build\n"
     "    steps:\n"
     "      - uses: actions/checkout@v4\n"
     "      - name: Run integration suite\n"
     "        env:\n"
     "          SERVICE_AUTH_TOKEN: %%S%%\n"
     "          TEST_TIMEOUT: \"120\"\n"
     "        run: make integration\n"),
    ("docker-run-env-flag",
     "multi-line docker run with -e NAME_SECRET=value among other flags",
     "",
     "docker run -d --restart unless-stopped \\\n"
     "  --name %%k%%-sync \\\n"
     "  -e %%K%%_SECRET=%%S%% \\\n"
     "  -e SYNC_INTERVAL=300 \\\n"
     "  ghcr.io/acme/%%k%%-sync:1.4.2\n"),
    ("kubectl-from-literal",
     "kubectl create secret generic --from-literal=token=value and its output",
     "",
     "$ kubectl -n staging create secret generic upstream-api \\\n"
     "    --from-literal=token=%%S%%\n"
     "secret/upstream-api created\n"),
    ("curl-bearer-header",
     "curl call with an Authorization: Bearer header",
     "",
     "curl -sS 'https://api.example.net/v1/jobs?limit=20' \\\n"
     "  -H \"Authorization: Bearer %%S%%\" \\\n"
     "  -H \"Accept: application/json\"\n"),
    ("crontab-curl",
     "crontab line posting a heartbeat with an X-Api-Key header",
     "%",
     "# m h  dom mon dow   command\n"
     "*/15 * * * * /usr/bin/curl -fsS -X POST -H \"X-Api-Key: %%S%%\" "
     "https://hooks.%%k%%.example.io/v2/heartbeat >/dev/null 2>&1\n"),
    # --- source code ----------------------------------------------------------
    ("android-gradle-buildconfig",
     "Android Gradle buildConfigField with an escaped string API key",
     "",
     "android {\n"
     "    defaultConfig {\n"
     "        applicationId \"com.acme.mobile\"\n"
     "        minSdk 24\n"
     "        buildConfigField \"String\", \"%%K%%_API_KEY\", \"\\\"%%S%%\\\"\"\n"
     "    }\n"
     "}\n"),
    ("go-client-option",
     "Go client constructor with option.WithAPIKey(...) as a function argument",
     "",
     "\tclient, err := api.NewClient(\n"
     "\t\toption.WithBaseURL(\"https://api.example.com\"),\n"
     "\t\toption.WithAPIKey(\"%%S%%\"),\n"
     "\t)\n"
     "\tif err != nil {\n"
     "\t\tlog.Fatal(err)\n"
     "\t}\n"),
    ("csharp-apikeycredential",
     "C# new ApiKeyCredential(\"...\") passed to a client constructor",
     "",
     "var endpoint = new Uri(\"https://%%k%%-prod.example.com/\");\n"
     "var credential = new ApiKeyCredential(\"%%S%%\");\n"
     "var client = new %%P%%Client(endpoint, credential);\n"),
    ("js-sdk-constructor",
     "JavaScript SDK client created with an options object containing apiKey",
     "",
     "import %%P%% from \"%%k%%\";\n"
     "\n"
     "const client = new %%P%%({\n"
     "  apiKey: \"%%S%%\",\n"
     "  maxRetries: 2,\n"
     "});\n"),
    ("php-laravel-services",
     "Laravel config/services.php entry with the value as env() fallback default",
     "",
     "    '%%k%%' => [\n"
     "        'base_uri' => env('%%K%%_BASE_URI', 'https://api.example.com'),\n"
     "        'secret' => env('%%K%%_SECRET', '%%S%%'),\n"
     "    ],\n"),
    ("powershell-securestring",
     "PowerShell ConvertTo-SecureString of a plain value used for a PSCredential",
     "",
     "$apiSecret = ConvertTo-SecureString \"%%S%%\" -AsPlainText -Force\n"
     "$cred = New-Object System.Management.Automation.PSCredential (\"svc-integration\", $apiSecret)\n"
     "Invoke-RestMethod -Uri $uri -Credential $cred -Method Get\n"),
    ("neovim-lua-setup",
     "Neovim plugin setup() call in Lua with api_key in the options table",
     "",
     "require(\"%%k%%\").setup({\n"
     "  model = \"default\",\n"
     "  api_key = \"%%S%%\",\n"
     "  keymaps = { accept = \"<C-y>\" },\n"
     "})\n"),
    ("r-sys-setenv",
     "R script calling Sys.setenv(NAME_API_KEY = \"...\") before an httr2 request",
     "",
     "library(httr2)\n"
     "Sys.setenv(%%K%%_API_KEY = \"%%S%%\")\n"
     "resp <- request(\"https://api.example.com/v1/items\") |> req_perform()\n"),
    ("jupyter-notebook-cell",
     "raw .ipynb JSON of a code cell setting os.environ with escaped quotes",
     "",
     "  {\n"
     "   \"cell_type\": \"code\",\n"
     "   \"execution_count\": 3,\n"
     "   \"metadata\": {},\n"
     "   \"outputs\": [],\n"
     "   \"source\": [\n"
     "    \"import os\\n\",\n"
     "    \"os.environ[\\\"SERVICE_API_KEY\\\"] = \\\"%%S%%\\\"\\n\",\n"
     "    \"client = Client()\"\n"
     "   ]\n"
     "  },\n"),
    # --- databases ------------------------------------------------------------
    ("mysqldump-insert",
     "mysqldump section for table api_credentials, header comment above a positional INSERT",
     "'",
     "--\n"
     "-- Dumping data for table `api_credentials`\n"
     "--\n"
     "\n"
     "LOCK TABLES `api_credentials` WRITE;\n"
     "INSERT INTO `api_credentials` VALUES (%%N%%,'%%k%%','production','%%S%%','%%D%% 09:14:02');\n"
     "UNLOCK TABLES;\n"),
    ("psql-select-output",
     "psql query result table, api_key column header above the value",
     "|",
     _psql),
    ("sql-create-role-password",
     "PostgreSQL CREATE ROLE ... LOGIN PASSWORD '...' for a reporting user",
     "'",
     "-- read-only user for the reporting dashboard\n"
     "CREATE ROLE metabase_ro WITH LOGIN PASSWORD '%%S%%' VALID UNTIL '%%D%%';\n"
     "GRANT pg_read_all_data TO metabase_ro;\n"),
    ("mongosh-insert",
     "mongosh insertOne with a nested credentials object, with the shell's reply",
     "",
     "test> db.integrations.insertOne({\n"
     "...   name: \"%%k%%\",\n"
     "...   enabled: true,\n"
     "...   credentials: { type: \"api_key\", secret: \"%%S%%\" }\n"
     "... })\n"
     "{\n"
     "  acknowledged: true,\n"
     "  insertedId: ObjectId('665f1c2e9b1d4a0012ab34cd')\n"
     "}\n"),
    # --- infrastructure output ------------------------------------------------
    ("az-cli-keys-list",
     "az storage account keys list JSON output, keyName key1 beside value",
     "",
     "$ az storage account keys list --account-name acmeprodlogs --resource-group rg-logs\n"
     "[\n"
     "  {\n"
     "    \"creationTime\": \"%%D%%T08:12:44.102937+00:00\",\n"
     "    \"keyName\": \"key1\",\n"
     "    \"permissions\": \"FULL\",\n"
     "    \"value\": \"%%S%%\"\n"
     "  }\n"
     "]\n"),
    ("terraform-state-json",
     "terraform.tfstate resource instance with primary_access_key among attributes",
     "",
     "      \"instances\": [\n"
     "        {\n"
     "          \"schema_version\": 0,\n"
     "          \"attributes\": {\n"
     "            \"id\": \"/subscriptions/0000/resourceGroups/rg-prod/providers/Acme/accounts/%%k%%-prod\",\n"
     "            \"location\": \"westeurope\",\n"
     "            \"name\": \"%%k%%-prod\",\n"
     "            \"primary_access_key\": \"%%S%%\",\n"
     "            \"tags\": {}\n"
     "          },\n"
     "          \"sensitive_attributes\": []\n"
     "        }\n"
     "      ]\n"),
    ("vault-kv-get",
     "vault kv get output, Key/Value table with api_key in the Data section",
     "",
     _vault),
    # --- logs and network -----------------------------------------------------
    ("http-raw-request",
     "raw HTTP/1.1 request dump with an X-API-Key header among others",
     "",
     "POST /v1/completions HTTP/1.1\n"
     "Host: api.example.com\n"
     "User-Agent: python-httpx/0.27.0\n"
     "Content-Type: application/json\n"
     "X-API-Key: %%S%%\n"
     "Content-Length: 87\n"),
    ("logfmt-line",
     "single logfmt debug line with auth_token=value among other fields",
     "=\" ",
     "time=%%D%%T14:03:22Z level=debug msg=\"outbound request\" provider=%%k%% method=POST "
     "path=/v1/embed auth_token=%%S%% status=200 duration_ms=184\n"),
    ("python-debug-log",
     "Python DEBUG log line printing a headers dict with an api-key entry",
     "'",
     "%%D%% 11:42:07,381 DEBUG [client.http] POST https://api.example.com/v2/query "
     "headers={'Content-Type': 'application/json', 'api-key': '%%S%%', "
     "'User-Agent': 'acme-sdk/3.1.0'}\n"),
    ("python-traceback-url",
     "Python requests traceback whose URL carries api_key= in the query string",
     "+/=&#?",
     "Traceback (most recent call last):\n"
     "  File \"/app/jobs/sync.py\", line 88, in run\n"
     "    resp.raise_for_status()\n"
     "  File \"/usr/local/lib/python3.11/site-packages/requests/models.py\", line 1021, in raise_for_status\n"
     "    raise HTTPError(http_error_msg, response=self)\n"
     "requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: "
     "https://api.%%k%%.example.com/v1/usage?api_key=%%S%%&period=month\n"),
    # --- people, documents, reviews ------------------------------------------
    ("git-diff-review",
     "unified diff in a code review replacing an env lookup with a literal token",
     "\"",
     "diff --git a/services/notify/client.py b/services/notify/client.py\n"
     "index 3f2a91c..8be07d4 100644\n"
     "--- a/services/notify/client.py\n"
     "+++ b/services/notify/client.py\n"
     "@@ -12,7 +12,7 @@ class NotifyClient:\n"
     "     def __init__(self, base_url=DEFAULT_URL):\n"
     "         self.base_url = base_url\n"
     "-        self.token = os.environ[\"NOTIFY_TOKEN\"]\n"
     "+        self.token = \"%%S%%\"  # TODO revert before merge\n"
     "         self.session = requests.Session()\n"),
    ("email-german",
     "German e-mail handing over a production API key, value on its own line",
     "",
     "Betreff: Zugangsdaten %%P%% (Produktion)\n"
     "\n"
     "Hallo Jana,\n"
     "\n"
     "wie besprochen hier der API-Schlüssel für das Produktivsystem:\n"
     "\n"
     "%%S%%\n"
     "\n"
     "Bitte nicht weiterleiten und nach dem Einrichten aus dem Postfach löschen.\n"
     "\n"
     "Viele Grüße\n"
     "Markus\n"),
    ("slack-spanish",
     "Spanish team chat transcript, token pasted in a sentence",
     "",
     "[10:42] Lucía Romero: ¿alguien tiene el token del entorno de pruebas? el mío caducó\n"
     "[10:44] Diego Fernández: toma, es el de la cuenta de servicio: %%S%%\n"
     "[10:44] Diego Fernández: bórralo del canal cuando lo copies 🙏\n"),
    ("ticket-japanese",
     "Japanese support ticket with bracketed fields and an APIキー label",
     "",
     "【問い合わせ番号】#%%N%%\n"
     "【件名】%%P%% 連携エラーについて\n"
     "【内容】\n"
     "本番環境で401エラーが発生しています。設定しているAPIキーは以下の通りです。\n"
     "APIキー：%%S%%\n"
     "ご確認のほどよろしくお願いいたします。\n"),
    ("incident-french",
     "French incident timeline as a Markdown table, leaked jeton d'accès in a cell",
     "|`",
     "## Chronologie\n"
     "\n"
     "| Heure (UTC) | Événement |\n"
     "|---|---|\n"
     "| 09:12 | Un jeton d'accès est publié dans un dépôt public : `%%S%%` |\n"
     "| 09:40 | Le jeton est révoqué et remplacé par l'équipe plateforme |\n"
     "| 10:05 | Vérification des journaux : aucun appel suspect |\n"),
    ("support-chat-portuguese",
     "Portuguese customer support conversation, customer reads out the API key",
     "",
     "Cliente: Olá, a integração com o %%P%% parou de funcionar desde ontem.\n"
     "Atendente: Pode me confirmar qual chave de API está configurada?\n"
     "Cliente: Claro, é esta: %%S%%\n"
     "Atendente: Obrigado. Por segurança, recomendo gerar uma nova chave depois do atendimento.\n"),
    ("chat-chinese",
     "Chinese chat message, sentence about the 密钥 above the value on the next line",
     "",
     "王磊 14:05\n"
     "测试环境的%%P%%密钥发你了，别提交到git里\n"
     "%%S%%\n"),
    ("password-manager-csv",
     "Bitwarden-style CSV export, login_password column header above the row",
     ",\"",
     "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
     "Work,,login,%%P%% API,,,0,https://console.%%k%%.example.com,service-account,%%S%%,\n"),
    ("screenshot-ocr-portal",
     "transcribed portal screenshot: KEY 1 label, value on the next line, KEY 2 masked",
     "",
     "[Transcribed from screenshot]\n"
     "Keys and Endpoint\n"
     "These keys are used to access your API. Do not share your keys.\n"
     "KEY 1\n"
     "%%S%%\n"
     "KEY 2\n"
     "••••••••••••••••••••••••••••••••\n"
     "Location/Region\n"
     "westeurope\n"),
]

# ---------------------------------------------------------------------------
# Row generation
# ---------------------------------------------------------------------------

KEYWORD_PATTERNS = [
    re.compile(r'^([A-Z0-9]+)_API_KEY="'),
    re.compile(r'^export ([A-Z0-9]+)_TOKEN='),
    re.compile(r'^"([a-z0-9]+)_secret": '),
    re.compile(r"^([a-z0-9]+)Token := '"),
    re.compile(r'^([a-z0-9]+)\.auth\.token: '),
    re.compile(r'^<add key="([a-z0-9]+)_key"'),
    re.compile(r'^([A-Z0-9]+)_ACCESS_KEY = '),
]


def keyword(text):
    for p in KEYWORD_PATTERNS:
        m = p.match(text)
        if m:
            return m.group(1).lower()
    raise ValueError("no keyword in %r" % text)


def display_name(kind, k):
    if kind.startswith("SEC101/"):
        name = kind.split(".", 1)[1]
        name = re.split(r"Identifiable|CloudSA|Legacy", name)[0]
        if name:
            return name
    return k.capitalize()


def variation(secret):
    h = hashlib.sha256(secret.encode("utf-8")).digest()
    year = 2024 + h[0] % 2
    month = 1 + h[1] % 12
    day = 1 + h[2] % 28
    return "%04d-%02d-%02d" % (year, month, day), str(1000 + int.from_bytes(h[3:5], "big") % 9000)


def fill(template, v):
    text = template(v) if callable(template) else template
    for key in ("S", "k", "K", "P", "D", "N"):
        text = text.replace("%%" + key + "%%", v[key])
    return text


def load():
    files = []
    for path in INPUTS:
        rows = []
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rows.append(json.loads(line))
        files.append(rows)
    return files


def accepts(ctx, secret):
    return not any(c in secret for c in ctx[2])


def assign(files):
    rng = random.Random(SEED)
    # Shuffle each file and deal the smaller file first, so that every context
    # receives values from both files; value shapes are spread by the shuffle.
    deck = []
    for rows in sorted(files, key=len):
        rows = list(rows)
        rng.shuffle(rows)
        deck.extend(rows)

    order = list(range(len(CONTEXTS)))
    rng.shuffle(order)
    base, extra = divmod(len(deck), len(CONTEXTS))
    cap = {c: base + (1 if j < extra else 0) for j, c in enumerate(order)}
    slots = {c: [] for c in range(len(CONTEXTS))}

    pointer = 0
    pending = []
    for row in deck:
        placed = False
        for step in range(len(order)):
            c = order[(pointer + step) % len(order)]
            if len(slots[c]) < cap[c] and accepts(CONTEXTS[c], row["secret"]):
                slots[c].append(row)
                pointer = (pointer + step + 1) % len(order)
                placed = True
                break
        if not placed:
            pending.append(row)

    # Deterministic repair: a value that fits no free slot swaps with an
    # already placed value that can move into the free slot.
    for row in pending:
        done = False
        for c in order:
            if len(slots[c]) >= cap[c] or done:
                continue
            for c2 in order:
                if c2 == c or not accepts(CONTEXTS[c2], row["secret"]):
                    continue
                for i, r2 in enumerate(slots[c2]):
                    if accepts(CONTEXTS[c], r2["secret"]):
                        slots[c].append(r2)
                        slots[c2][i] = row
                        done = True
                        break
                if done:
                    break
        if not done:
            raise SystemExit("cannot place value of kind %s" % row["kind"])
    return slots


def main():
    files = load()
    total = sum(len(f) for f in files)
    slots = assign(files)
    out = []
    seen_texts = set()
    for c, ctx in enumerate(CONTEXTS):
        for row in slots[c]:
            s = row["secret"]
            k = keyword(row["text"])
            d, n = variation(s)
            v = {"S": s, "k": k, "K": k.upper(), "P": display_name(row["kind"], k), "D": d, "N": n}
            text = fill(ctx[3], v)
            assert "%%" not in text, (ctx[0], text)
            assert text.count(s) == 1, (ctx[0], s)
            assert text not in seen_texts, ctx[0]
            seen_texts.add(text)
            out.append({
                "text": text,
                "label": "risk",
                "kind": row["kind"],
                "secret": s,
                "source": SOURCE,
                "context": ctx[0],
            })
    assert len(out) == total, (len(out), total)
    assert len({r["secret"] for r in out}) == total
    ids = [c[0] for c in CONTEXTS]
    assert len(set(ids)) == len(ids)
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in out:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    sys.stderr.write("wrote %d rows in %d contexts to %s\n" % (len(out), len(CONTEXTS), OUTPUT))


if __name__ == "__main__":
    main()
