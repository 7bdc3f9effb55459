#!/usr/bin/env python3
"""Held-out credential contexts, set 3.

Writes tests/corpora/heldout-credentials-contexts-3.jsonl: the 216 values of
heldout-credentials-microsoft.jsonl and heldout-credentials-titus.jsonl, each
placed once into one of the hand-written contexts below (about six per context).
Deterministic: fixed seeds, string-seeded per-row RNGs, no use of hash().

Rebuild: python3 tests/corpora/gen_heldout_contexts_3.py
"""
import json
import os
import random
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = ["heldout-credentials-microsoft.jsonl", "heldout-credentials-titus.jsonl"]
OUTPUT = "heldout-credentials-contexts-3.jsonl"
SOURCE = "heldout-contexts-3"
SEED = 3033

# Characters that survive unescaped in URL userinfo / query values.
URL_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def any_value(s):
    return True


def url_safe(s):
    return bool(URL_SAFE.match(s))


# ---------------------------------------------------------------------------
# Contexts. Each: id, note, accepts(secret), render(k, s, rng) -> text
#   k  = provider keyword, lower case (e.g. "resend", "azureopenai")
#   K  = upper case, C = capitalised
# All contexts were written before any row was generated.
# ---------------------------------------------------------------------------

def _curl_bearer(k, s, r):
    job = r.choice(["nightly-export", "weekly-digest", "reindex"])
    return (f"curl -sS -X POST https://api.{k}.example.com/v1/jobs \\\n"
            f"  -H \"Authorization: Bearer {s}\" \\\n"
            f"  -H \"Content-Type: application/json\" \\\n"
            f"  -d '{{\"name\": \"{job}\"}}'")


def _http_raw_request(k, s, r):
    ua = r.choice(["okhttp/4.12.0", "Go-http-client/2.0", "axios/1.6.7"])
    return ("GET /v2/reports?from=2024-01-01 HTTP/1.1\n"
            "Host: api.internal.example.net\n"
            f"User-Agent: {ua}\n"
            "Accept: application/json\n"
            f"X-Auth-Token: {s}\n"
            "Connection: keep-alive")


def _nginx_proxy_header(k, s, r):
    return ("location /upstream/ {\n"
            f"    proxy_pass https://api.{k}.example.com/;\n"
            f"    proxy_set_header Host api.{k}.example.com;\n"
            f"    proxy_set_header X-Api-Key \"{s}\";\n"
            "    proxy_ssl_server_name on;\n"
            "}")


def _k8s_secret_manifest(k, s, r):
    ns = r.choice(["payments", "ingest", "default", "ml-serving"])
    return ("apiVersion: v1\n"
            "kind: Secret\n"
            "metadata:\n"
            f"  name: {k}-credentials\n"
            f"  namespace: {ns}\n"
            "type: Opaque\n"
            "stringData:\n"
            f"  api-key: {s}\n"
            f"  endpoint: https://{k}.example.com")


def _terraform_variable(k, s, r):
    return (f"variable \"{k}_api_key\" {{\n"
            "  description = \"API key used by the ingestion job\"\n"
            "  type        = string\n"
            "  sensitive   = true\n"
            f"  default     = \"{s}\"\n"
            "}")


def _js_sdk_constructor(k, s, r):
    return (f"import {{ Client }} from \"@{k}/sdk\";\n\n"
            "const client = new Client({\n"
            f"  apiKey: \"{s}\",\n"
            "  timeout: 30_000,\n"
            "});")


def _dotnet_user_secrets_cmd(k, s, r):
    C = k.capitalize()
    return (f"PS C:\\src\\Orders.Api> dotnet user-secrets set \"{C}:ApiKey\" \"{s}\"\n"
            f"Successfully saved {C}:ApiKey to the secret store.")


def _netrc(k, s, r):
    user = r.choice(["ci-bot", "deploy", "svc-sync"])
    return (f"machine api.{k}.example.com\n"
            f"  login {user}\n"
            f"  password {s}")


def _sql_insert_credentials(k, s, r):
    tenant = r.randint(1000, 9999)
    return ("INSERT INTO integration_credentials (tenant_id, provider, api_secret, created_at)\n"
            f"VALUES ({tenant}, '{k}', '{s}', NOW());")


def _postgres_alter_role(k, s, r):
    inc = r.randint(1000, 9999)
    return (f"-- rotate reporting user (INC-{inc})\n"
            f"ALTER ROLE reporting_ro WITH LOGIN PASSWORD '{s}' VALID UNTIL '2025-06-30';")


def _ado_connection_string(k, s, r):
    return ("var connectionString =\n"
            "    \"Server=tcp:orders-prod.database.windows.net,1433;Initial Catalog=orders;\" +\n"
            f"    \"User ID=orders_app;Password={s};Encrypt=True;Connection Timeout=30;\";")


def _git_clone_token_url(k, s, r):
    repo = r.choice(["billing-service", "infra-live", "data-pipelines"])
    return (f"$ git clone https://x-access-token:{s}@github.com/acme-corp/{repo}.git\n"
            f"Cloning into '{repo}'...")


def _access_log_query_key(k, s, r):
    size = r.randint(400, 9000)
    return (f"10.12.4.77 - - [12/Mar/2024:08:15:43 +0000] \"GET /v1/geocode?address=Main+St&api_key={s} "
            f"HTTP/1.1\" 200 {size} \"-\" \"python-requests/2.31.0\"")


def _gha_with_input(k, s, r):
    return ("      - name: Upload coverage\n"
            f"        uses: acme/{k}-upload-action@v3\n"
            "        with:\n"
            "          files: ./coverage.xml\n"
            f"          token: {s}\n"
            "          fail_ci_if_error: true")


def _npmrc_authtoken(k, s, r):
    return ("registry=https://registry.npmjs.org/\n"
            "@acme:registry=https://npm.pkg.example.com/\n"
            f"//npm.pkg.example.com/:_authToken={s}\n"
            "always-auth=true")


def _go_struct_config(k, s, r):
    return (f"\tclient, err := {k}.NewClient(&{k}.Config{{\n"
            f"\t\tAPIKey:  \"{s}\",\n"
            f"\t\tBaseURL: \"https://api.{k}.example.com\",\n"
            "\t\tTimeout: 15 * time.Second,\n"
            "\t})")


def _rust_const_str(k, s, r):
    return ("// FIXME: load from env before release\n"
            f"const API_SECRET: &str = \"{s}\";")


def _ruby_configure_block(k, s, r):
    return (f"# config/initializers/{k}.rb\n"
            f"{k.capitalize()}.configure do |config|\n"
            f"  config.api_key = '{s}'\n"
            "  config.timeout = 10\n"
            "end")


def _php_define(k, s, r):
    return ("/** Third-party API credentials */\n"
            f"define( '{k.upper()}_SECRET_KEY', '{s}' );")


def _csharp_key_credential(k, s, r):
    return ("var endpoint = new Uri(\"https://myresource.cognitiveservices.azure.com/\");\n"
            f"var credential = new AzureKeyCredential(\"{s}\");\n"
            "var client = new TextAnalyticsClient(endpoint, credential);")


def _powershell_securestring(k, s, r):
    host = r.choice(["fs01", "sql02", "backup-01"])
    return (f"$password = ConvertTo-SecureString '{s}' -AsPlainText -Force\n"
            "$cred = New-Object System.Management.Automation.PSCredential ('svc-backup', $password)\n"
            f"Enter-PSSession -ComputerName {host} -Credential $cred")


def _cli_login_flag(k, s, r):
    prof = r.choice(["prod", "staging", "default"])
    return (f"$ {k} login --api-key {s} --profile {prof}\n"
            f"Logged in as ci@acme.io (profile: {prof})")


def _debug_log_headers(k, s, r):
    return (f"2024-05-02 14:07:31,552 DEBUG urllib3.connectionpool Starting new HTTPS connection (1): api.{k}.example.com:443\n"
            "2024-05-02 14:07:31,553 DEBUG client.http request headers: "
            f"{{'User-Agent': 'acme-sync/2.3', 'Accept': '*/*', 'X-Api-Token': '{s}'}}")


def _java_exception_message(k, s, r):
    line = r.randint(120, 480)
    return ("Exception in thread \"main\" com.acme.gateway.AuthException: 401 Unauthorized - "
            f"API key \"{s}\" was rejected by {k}\n"
            f"\tat com.acme.gateway.HttpGateway.send(HttpGateway.java:{line})\n"
            "\tat com.acme.gateway.Main.main(Main.java:41)")


def _email_handover(k, s, r):
    C = k.capitalize()
    to, frm = r.choice([("Priya", "Marek"), ("Tom", "Ines"), ("Aiko", "Daniel")])
    return (f"Subject: {C} production credentials\n\n"
            f"Hi {to},\n\n"
            f"As discussed, here is the production API key for the {C} account:\n\n"
            f"{s}\n\n"
            "Please put it in the team vault and delete this e-mail afterwards.\n\n"
            f"Thanks,\n{frm}")


def _chat_transcript(k, s, r):
    return (f"[09:41] jordan: anyone have the staging token for {k}? my local one expired\n"
            f"[09:42] sam: use this one for now: {s}\n"
            "[09:42] sam: will rotate it after the demo")


def _ticket_repro_steps(k, s, r):
    n = r.randint(150, 900)
    return ("**Steps to reproduce**\n"
            f"1. Configure the connector with auth token `{s}`\n"
            "2. Run `sync --full`\n"
            f"3. Observe HTTP 403 after ~{n} records\n\n"
            "**Expected**: sync completes")


def _markdown_key_table(k, s, r):
    env = r.choice(["staging", "production", "qa"])
    return ("| Environment | Service | API key | Owner |\n"
            "|-------------|---------|---------|-------|\n"
            f"| {env} | {k} | {s} | @platform-team |")


def _password_manager_csv(k, s, r):
    C = k.capitalize()
    return ("folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
            f"Work,,login,{C} console,,,0,https://console.{k}.example.com,ops@acme.io,{s},")


def _maven_settings_server(k, s, r):
    return ("<servers>\n"
            "  <server>\n"
            "    <id>acme-releases</id>\n"
            "    <username>deployer</username>\n"
            f"    <password>{s}</password>\n"
            "  </server>\n"
            "</servers>")


def _systemd_environment(k, s, r):
    return ("[Service]\n"
            "User=worker\n"
            f"Environment=\"{k.upper()}_API_TOKEN={s}\"\n"
            "ExecStart=/opt/worker/bin/worker --queue default\n"
            "Restart=on-failure")


def _cli_create_output(k, s, r):
    kid = "ak_" + "".join(r.choice("ABCDEFGHJKMNPQRSTVWXYZ23456789") for _ in range(6))
    return ("$ acmectl api-keys create --name ci-deploy\n"
            "Created API key \"ci-deploy\"\n"
            f"  Key ID:  {kid}\n"
            f"  Secret:  {s}\n"
            "Store the secret now; it cannot be retrieved later.")


def _vault_kv_get_output(k, s, r):
    return (f"$ vault kv get secret/{k}/prod\n"
            "====== Data ======\n"
            "Key          Value\n"
            "---          -----\n"
            f"api_token    {s}\n"
            f"base_url     https://api.{k}.example.com")


def _redis_auth_session(k, s, r):
    h = r.choice(["cache-01.internal", "redis-sessions.internal"])
    return (f"$ redis-cli -h {h}\n"
            f"{h}:6379> AUTH default {s}\n"
            "OK\n"
            f"{h}:6379> INFO keyspace")


def _psycopg2_connect(k, s, r):
    return ("import psycopg2\n\n"
            "conn = psycopg2.connect(host=\"db.internal\", dbname=\"shop\",\n"
            f"                        user=\"shop_app\", password=\"{s}\")")


def _git_diff_added(k, s, r):
    return ("diff --git a/deploy/values-prod.yaml b/deploy/values-prod.yaml\n"
            "index 3f1c2e7..9a04b1d 100644\n"
            "--- a/deploy/values-prod.yaml\n"
            "+++ b/deploy/values-prod.yaml\n"
            "@@ -12,6 +12,7 @@ worker:\n"
            "   replicas: 3\n"
            f"   {k}:\n"
            f"     endpoint: https://api.{k}.example.com\n"
            f"+    secretKey: {s}\n"
            "   resources:")


CONTEXTS = [
    ("curl_bearer", "curl command with an Authorization: Bearer header", any_value, _curl_bearer),
    ("http_raw_request", "raw HTTP request as captured by a proxy, X-Auth-Token header", any_value, _http_raw_request),
    ("nginx_proxy_header", "nginx location block injecting an X-Api-Key header upstream", any_value, _nginx_proxy_header),
    ("k8s_secret_manifest", "Kubernetes Secret manifest, key under stringData", any_value, _k8s_secret_manifest),
    ("terraform_variable", "Terraform variable block with a sensitive default value", any_value, _terraform_variable),
    ("js_sdk_constructor", "JavaScript SDK client constructed with an apiKey option", any_value, _js_sdk_constructor),
    ("dotnet_user_secrets_cmd", "dotnet user-secrets set command in PowerShell, with its output", any_value, _dotnet_user_secrets_cmd),
    ("netrc", ".netrc entry with machine / login / password", any_value, _netrc),
    ("sql_insert_credentials", "SQL INSERT into a credentials table with an api_secret column", any_value, _sql_insert_credentials),
    ("postgres_alter_role", "PostgreSQL ALTER ROLE ... PASSWORD statement", any_value, _postgres_alter_role),
    ("ado_connection_string", "ADO.NET SQL connection string with Password= in C# code", any_value, _ado_connection_string),
    ("git_clone_token_url", "git clone over HTTPS with x-access-token in the URL (URL-safe values only)", url_safe, _git_clone_token_url),
    ("access_log_query_key", "web access log line with an api_key query parameter (URL-safe values only)", url_safe, _access_log_query_key),
    ("gha_with_input", "GitHub Actions step passing a hard-coded token input", any_value, _gha_with_input),
    ("npmrc_authtoken", ".npmrc scoped registry _authToken line", any_value, _npmrc_authtoken),
    ("go_struct_config", "Go client built from a struct literal with an APIKey field", any_value, _go_struct_config),
    ("rust_const_str", "Rust const &str API_SECRET with a FIXME comment", any_value, _rust_const_str),
    ("ruby_configure_block", "Ruby gem initializer configure block setting api_key", any_value, _ruby_configure_block),
    ("php_define", "PHP define() of a SECRET_KEY constant", any_value, _php_define),
    ("csharp_key_credential", "C# AzureKeyCredential constructed from a literal", any_value, _csharp_key_credential),
    ("powershell_securestring", "PowerShell ConvertTo-SecureString -AsPlainText for a PSCredential", any_value, _powershell_securestring),
    ("cli_login_flag", "vendor CLI login with an --api-key flag, and its output", any_value, _cli_login_flag),
    ("debug_log_headers", "Python debug log dumping request headers including X-Api-Token", any_value, _debug_log_headers),
    ("java_exception_message", "Java stack trace whose message quotes the rejected API key", any_value, _java_exception_message),
    ("email_handover", "e-mail handing over a production API key on its own line", any_value, _email_handover),
    ("chat_transcript", "team chat where someone pastes a staging token", any_value, _chat_transcript),
    ("ticket_repro_steps", "bug ticket with reproduction steps quoting an auth token", any_value, _ticket_repro_steps),
    ("markdown_key_table", "Markdown wiki table with an API key column", any_value, _markdown_key_table),
    ("password_manager_csv", "password-manager CSV export row with a login_password column", any_value, _password_manager_csv),
    ("maven_settings_server", "Maven settings.xml server entry with <password>", any_value, _maven_settings_server),
    ("systemd_environment", "systemd unit [Service] Environment= line with an API token", any_value, _systemd_environment),
    ("cli_create_output", "CLI output after creating an API key, showing Secret:", any_value, _cli_create_output),
    ("vault_kv_get_output", "HashiCorp Vault kv get table output with an api_token row", any_value, _vault_kv_get_output),
    ("redis_auth_session", "redis-cli session with an AUTH command", any_value, _redis_auth_session),
    ("psycopg2_connect", "Python psycopg2.connect call with a password= argument", any_value, _psycopg2_connect),
    ("git_diff_added", "git diff adding a secretKey line to a Helm values file", any_value, _git_diff_added),
]

# ---------------------------------------------------------------------------
# Keyword recovery from the source rows' templates.
# ---------------------------------------------------------------------------
KEYWORD_PATTERNS = [
    re.compile(r'^([A-Z0-9]+)_API_KEY="'),
    re.compile(r'^export ([A-Z0-9]+)_TOKEN='),
    re.compile(r'^"([a-z0-9]+)_secret": "'),
    re.compile(r"^([a-z0-9]+)Token := '"),
    re.compile(r'^([a-z0-9]+)\.auth\.token: '),
    re.compile(r'^<add key="([a-z0-9]+)_key" value="'),
    re.compile(r'^([A-Z0-9]+)_ACCESS_KEY = '),
]


def keyword_of(text):
    for p in KEYWORD_PATTERNS:
        m = p.match(text)
        if m:
            return m.group(1).lower()
    raise ValueError("no template matched: %r" % text[:60])


def load_rows():
    rows = []
    for name in INPUTS:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                rows.append({"secret": r["secret"], "kind": r["kind"],
                             "keyword": keyword_of(r["text"])})
    return rows


def assign(rows):
    """Balanced, deterministic assignment of rows to contexts that accept them."""
    rng = random.Random(SEED)
    order = list(range(len(rows)))
    rng.shuffle(order)
    # Place the most constrained rows first so restricted contexts stay reachable.
    order.sort(key=lambda i: sum(1 for c in CONTEXTS if c[2](rows[i]["secret"])))
    counts = Counter()
    ctx_rank = {c[0]: n for n, c in enumerate(CONTEXTS)}
    out = {}
    for i in order:
        cands = [c for c in CONTEXTS if c[2](rows[i]["secret"])]
        if not cands:
            raise ValueError("no context accepts %r" % rows[i]["secret"])
        # Restricted contexts first among ties so they fill from the rows they can take.
        best = min(cands, key=lambda c: (counts[c[0]], c[2] is any_value, rng.random(), ctx_rank[c[0]]))
        counts[best[0]] += 1
        out[i] = best
    return out


def main():
    rows = load_rows()
    placed = assign(rows)
    records = []
    for i, row in enumerate(rows):
        cid, _note, _acc, render = placed[i]
        r = random.Random("%d:%s:%s" % (SEED, cid, row["secret"]))
        text = render(row["keyword"], row["secret"], r)
        records.append({"text": text, "label": "risk", "kind": row["kind"],
                        "secret": row["secret"], "source": SOURCE, "context": cid})
    # Sanity checks.
    assert len(records) == 216, len(records)
    assert len({x["secret"] for x in records}) == len(records)
    for x in records:
        assert x["text"].count(x["secret"]) == 1, (x["context"], x["secret"])
    assert len({x["text"] for x in records}) == len(records), "duplicate texts"
    # Stable output order: by context list order, then input order.
    rank = {c[0]: n for n, c in enumerate(CONTEXTS)}
    records = [x for _, x in sorted(enumerate(records), key=lambda t: (rank[t[1]["context"]], t[0]))]
    path = os.path.join(HERE, OUTPUT)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for x in records:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    counts = Counter(x["context"] for x in records)
    for c in CONTEXTS:
        print("%-26s %d" % (c[0], counts[c[0]]))
    print("total %d rows in %d contexts -> %s" % (len(records), len(counts), OUTPUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
