#!/usr/bin/env python3
"""Held-out credential contexts, set 4.

Builds tests/corpora/heldout-credentials-contexts-4.jsonl from the values in
heldout-credentials-microsoft.jsonl and heldout-credentials-titus.jsonl.  Each
value is placed once into one of the contexts below.  The provider keyword is
recovered from the source row's text.  Output is seeded and deterministic.

Rebuild: python3 tests/corpora/gen_heldout_contexts_4.py
"""
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [
    os.path.join(HERE, "heldout-credentials-microsoft.jsonl"),
    os.path.join(HERE, "heldout-credentials-titus.jsonl"),
]
OUT = os.path.join(HERE, "heldout-credentials-contexts-4.jsonl")
SEED = 40404
SOURCE_TAG = "heldout-contexts-4"

# ---------------------------------------------------------------------------
# Character classes used by contexts with syntax limits.
B64 = re.compile(r"^[A-Za-z0-9+/=]+$")
URL_UNRESERVED = re.compile(r"^[A-Za-z0-9._~-]+$")


def any_value(s):
    return True


def b64_only(s):
    return bool(B64.match(s))


def url_safe(s):
    return bool(URL_UNRESERVED.match(s))


# ---------------------------------------------------------------------------
# Renderers.  Each takes (S, v) where S is the secret and v a dict of
# per-row variables: k (keyword, lower), K (upper), C (capitalised), env, user,
# user2, ns, n, id, name.

def r_k8s_secret_stringdata(S, v):
    return (
        "apiVersion: v1\n"
        "kind: Secret\n"
        "metadata:\n"
        f"  name: {v['k']}-credentials\n"
        f"  namespace: {v['ns']}\n"
        "type: Opaque\n"
        "stringData:\n"
        f"  api-token: {S}\n"
    )


def r_appsettings_nested_json(S, v):
    return (
        "{\n"
        '  "Logging": { "LogLevel": { "Default": "Information" } },\n'
        f'  "{v["C"]}": {{\n'
        f'    "Endpoint": "https://{v["k"]}-{v["env"]}.example.net/",\n'
        f'    "SubscriptionKey": "{S}"\n'
        "  },\n"
        '  "AllowedHosts": "*"\n'
        "}"
    )


def r_maven_settings_xml(S, v):
    return (
        "<settings>\n"
        "  <servers>\n"
        "    <server>\n"
        f"      <id>{v['k']}-releases</id>\n"
        "      <username>ci-deploy</username>\n"
        f"      <password>{S}</password>\n"
        "    </server>\n"
        "  </servers>\n"
        "</settings>"
    )


def r_npmrc_authtoken(S, v):
    return (
        "registry=https://registry.npmjs.org/\n"
        f"@{v['k']}:registry=https://npm.pkg.{v['k']}.dev/\n"
        f"//npm.pkg.{v['k']}.dev/:_authToken={S}\n"
        "always-auth=true"
    )


def r_pgpass_header(S, v):
    return (
        "# ~/.pgpass  (chmod 600)\n"
        "# hostname:port:database:username:password\n"
        f"db-{v['env']}.internal:5432:*:{v['user']}:{S}"
    )


def r_windows_reg_export(S, v):
    return (
        "Windows Registry Editor Version 5.00\n"
        "\n"
        f"[HKEY_CURRENT_USER\\Software\\{v['C']}\\Client]\n"
        f'"Endpoint"="https://{v["k"]}.example.com"\n'
        f'"ApiKey"="{S}"\n'
        '"AutoUpdate"=dword:00000001'
    )


def r_wireguard_interface(S, v):
    return (
        "[Interface]\n"
        f"Address = 10.8.0.{v['n']}/24\n"
        "ListenPort = 51820\n"
        f"PrivateKey = {S}\n"
        "DNS = 10.8.0.1"
    )


def r_systemd_environment(S, v):
    return (
        "[Unit]\n"
        f"Description={v['k']} sync worker\n"
        "After=network-online.target\n"
        "\n"
        "[Service]\n"
        f'Environment="SYNC_AUTH_TOKEN={S}"\n'
        f"ExecStart=/usr/local/bin/{v['k']}-sync --interval 300\n"
        "Restart=on-failure"
    )


def r_ios_info_plist(S, v):
    return (
        "\t<key>CFBundleIdentifier</key>\n"
        f"\t<string>com.example.{v['k']}demo</string>\n"
        f"\t<key>{v['C']}APIKey</key>\n"
        f"\t<string>{S}</string>\n"
        "\t<key>UILaunchStoryboardName</key>\n"
        "\t<string>LaunchScreen</string>"
    )


def r_python_client_kwarg(S, v):
    return (
        f"client = {v['C']}Client(\n"
        f'    base_url="https://api.{v["k"]}.example",\n'
        f'    api_key="{S}",\n'
        "    timeout=30,\n"
        ")"
    )


def r_js_fetch_headers(S, v):
    return (
        "const res = await fetch(`${BASE_URL}/v1/jobs`, {\n"
        "  method: 'POST',\n"
        f"  headers: {{ 'Content-Type': 'application/json', 'X-API-Key': '{S}' }},\n"
        "  body: JSON.stringify(payload),\n"
        "});"
    )


def r_go_struct_literal(S, v):
    return (
        f"cfg := &{v['k']}.Config{{\n"
        f'\tEndpoint: "https://{v["k"]}.example.com",\n'
        f'\tAPIKey:   "{S}",\n'
        "\tRetries:  3,\n"
        "}"
    )


def r_rust_const(S, v):
    return (
        "// TODO: read from the environment before release\n"
        f'const API_SECRET: &str = "{S}";\n'
        "\n"
        "fn auth_header() -> String {\n"
        '    format!("Bearer {}", API_SECRET)\n'
        "}"
    )


def r_ruby_configure_block(S, v):
    return (
        f"# config/initializers/{v['k']}.rb\n"
        f"{v['C']}.configure do |config|\n"
        f"  config.secret_key = '{S}'\n"
        "  config.logger = Rails.logger\n"
        "end"
    )


def r_php_wpconfig_define(S, v):
    return (
        f"/** {v['C']} integration settings */\n"
        f"define( 'WP_{v['K']}_API_KEY', '{S}' );\n"
        f"define( 'WP_{v['K']}_DEBUG', false );"
    )


def r_powershell_headers(S, v):
    return (
        "$headers = @{\n"
        f'    "Ocp-Apim-Subscription-Key" = "{S}"\n'
        '    "Content-Type" = "application/json"\n'
        "}\n"
        "Invoke-RestMethod -Method Post -Uri $endpoint -Headers $headers -Body $body"
    )


def r_notebook_cell_json(S, v):
    return (
        "  {\n"
        '   "cell_type": "code",\n'
        '   "execution_count": 3,\n'
        '   "metadata": {},\n'
        '   "outputs": [],\n'
        '   "source": [\n'
        '    "import os\\n",\n'
        f'    "os.environ[\\"{v["K"]}_API_KEY\\"] = \\"{S}\\"\\n",\n'
        f'    "client = {v["k"]}.Client()"\n'
        "   ]\n"
        "  },"
    )


def r_r_sys_setenv(S, v):
    return (
        "library(httr2)\n"
        f'Sys.setenv({v["K"]}_API_KEY = "{S}")\n'
        f'req <- request("https://api.{v["k"]}.example/v1/items")'
    )


def r_curl_bearer(S, v):
    return (
        f'$ curl -s -X GET "https://api.{v["k"]}.example/v2/usage" \\\n'
        '    -H "Accept: application/json" \\\n'
        f'    -H "Authorization: Bearer {S}"'
    )


def r_kubectl_from_literal(S, v):
    return (
        f"kubectl -n {v['ns']} create secret generic {v['k']}-auth \\\n"
        f"  --from-literal=client-secret={S} \\\n"
        "  --dry-run=client -o yaml | kubectl apply -f -"
    )


def r_az_cli_tsv_output(S, v):
    return (
        f"$ az cognitiveservices account keys list --name {v['k']}-{v['env']} "
        f"--resource-group rg-{v['env']} --query key1 --output tsv\n"
        f"{S}"
    )


def r_vault_kv_output(S, v):
    return (
        f"$ vault kv get -mount=secret {v['k']}/{v['env']}\n"
        "====== Data ======\n"
        "Key          Value\n"
        "---          -----\n"
        f"api_token    {S}\n"
        "owner        platform-team"
    )


def r_redis_cli_auth(S, v):
    host = f"cache-{v['env']}.internal:6379"
    return (
        f"$ redis-cli -h cache-{v['env']}.internal\n"
        f"{host}> AUTH {S}\n"
        "OK\n"
        f"{host}> PING\n"
        "PONG"
    )


def r_cli_login_prompt(S, v):
    return (
        f"$ {v['k']} auth login\n"
        "? How would you like to authenticate? Paste an access token\n"
        f"? Token: {S}\n"
        f"Logged in as {v['user']}"
    )


def r_terraform_provider(S, v):
    return (
        f'provider "{v["k"]}" {{\n'
        '  region  = "eu-west-1"\n'
        f'  api_key = "{S}"\n'
        "}"
    )


def r_github_actions_with(S, v):
    return (
        "      - name: Notify deploy\n"
        f"        uses: {v['k']}/notify-action@v2\n"
        "        with:\n"
        "          channel: releases\n"
        f"          auth-token: {S}"
    )


def r_jenkins_withenv(S, v):
    return (
        "stage('Deploy') {\n"
        "    steps {\n"
        f'        withEnv(["DEPLOY_TOKEN={S}"]) {{\n'
        f"            sh './scripts/deploy.sh {v['env']}'\n"
        "        }\n"
        "    }\n"
        "}"
    )


def r_json_log_headers(S, v):
    return (
        '{"ts":"2024-06-03T09:14:22.481Z","level":"debug","logger":"http.client",'
        '"msg":"outgoing request","method":"POST",'
        f'"url":"https://api.{v["k"]}.example/v1/events",'
        f'"headers":{{"content-type":"application/json","x-auth-token":"{S}"}}}}'
    )


def r_python_traceback_locals(S, v):
    return (
        "Traceback (most recent call last):\n"
        '  File "/app/worker/sync.py", line 88, in push_batch\n'
        "    resp.raise_for_status()\n"
        "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
        f"https://api.{v['k']}.example/v1/batch\n"
        "\n"
        "Local variables in push_batch:\n"
        "    batch_size = 500\n"
        f"    secret_key = '{S}'\n"
        "    resp = <Response [401]>"
    )


def r_http_response_token(S, v):
    return (
        "HTTP/1.1 200 OK\n"
        "Content-Type: application/json\n"
        "Cache-Control: no-store\n"
        "\n"
        f'{{"access_token":"{S}","token_type":"Bearer","expires_in":3600,"scope":"read write"}}'
    )


def r_nginx_access_log_query(S, v):
    return (
        f'203.0.113.{v["n"]} - - [12/Mar/2024:14:02:11 +0000] '
        f'"GET /v1/search?q=winter+boots&apikey={S}&page=2 HTTP/1.1" 200 5123 '
        '"-" "python-requests/2.31.0"'
    )


def r_sql_insert_columns(S, v):
    return (
        "INSERT INTO service_credentials (provider, environment, api_key, created_by)\n"
        f"VALUES ('{v['k']}', '{v['env']}', '{S}', '{v['user']}');"
    )


def r_pg_dump_copy(S, v):
    return (
        "--\n"
        "-- Data for Name: integrations; Type: TABLE DATA; Schema: public; Owner: app\n"
        "--\n"
        "\n"
        "COPY public.integrations (id, provider, access_token, enabled, updated_at) FROM stdin;\n"
        f"{v['id']}\t{v['k']}\t{S}\tt\t2024-02-19 11:04:52.118+00\n"
        "\\."
    )


def r_mysql_table_output(S, v):
    cols = ["id", "name", "secret"]
    vals = [str(v["id"]), v["k"], S]
    w = [max(len(c), len(x)) for c, x in zip(cols, vals)]
    sep = "+" + "+".join("-" * (x + 2) for x in w) + "+"

    def line(cells):
        return "| " + " | ".join(c.ljust(x) for c, x in zip(cells, w)) + " |"

    return "\n".join([
        f"mysql> SELECT id, name, secret FROM oauth_clients WHERE name = '{v['k']}';",
        sep, line(cols), sep, line(vals), sep,
        "1 row in set (0.00 sec)",
    ])


def r_email_onboarding(S, v):
    return (
        f"Subject: Your {v['C']} sandbox access\n"
        "\n"
        f"Hi {v['name']},\n"
        "\n"
        "Your sandbox tenant is ready. Use the following API key to authenticate your requests:\n"
        "\n"
        f"{S}\n"
        "\n"
        "Please do not share this key outside your team. It expires in 90 days.\n"
        "\n"
        "Best,\n"
        "Partner Support"
    )


def r_chat_transcript(S, v):
    return (
        f"[09:41] {v['user']}: anyone have the {v['k']} token for staging? mine got revoked\n"
        f"[09:43] {v['user2']}: {S}\n"
        f"[09:43] {v['user2']}: please don't paste it anywhere else"
    )


def r_markdown_table(S, v):
    return (
        "## Staging service accounts\n"
        "\n"
        "| Service | Username | Secret |\n"
        "|---------|----------|--------|\n"
        f"| {v['k']} | svc-staging | {S} |"
    )


def r_csv_export(S, v):
    return (
        "name,environment,key_type,key_value,created_at\n"
        f"{v['k']}-{v['env']},{v['env']},api,{S},2024-01-08"
    )


def r_handwritten_notes(S, v):
    return (
        "onboarding notes - week 1\n"
        "- laptop: done\n"
        "- VPN profile from IT (ticket 4471)\n"
        f"- {v['k']} api key (prod, shared): {S}\n"
        "- ask Sam about on-call rota"
    )


def r_screenshot_transcription(S, v):
    return (
        f"[Screenshot transcribed: {v['C']} dashboard > Settings > API keys]\n"
        "Name            Created        Last used\n"
        "ci-pipeline     Mar 4, 2024    2 hours ago\n"
        f"Secret key: {S}   (Copy)\n"
        "You won't be able to see this key again."
    )


def r_postman_collection(S, v):
    return (
        '"header": [\n'
        "  {\n"
        '    "key": "api-key",\n'
        f'    "value": "{S}",\n'
        '    "type": "text"\n'
        "  }\n"
        "],"
    )


def r_diff_review(S, v):
    return (
        f"diff --git a/config/{v['env']}.yaml b/config/{v['env']}.yaml\n"
        "@@ -14,3 +14,5 @@ upstream:\n"
        f"   base_url: https://api.{v['k']}.example\n"
        "   timeout_seconds: 20\n"
        "+  auth:\n"
        f"+    bearer: {S}\n"
        "   retries: 3"
    )


# ---------------------------------------------------------------------------
# The context list: (id, one-line note, accepts(secret), renderer).
CONTEXTS = [
    ("k8s_secret_stringdata", "Kubernetes Secret manifest, value under stringData with a token-named key", any_value, r_k8s_secret_stringdata),
    ("appsettings_nested_json", "ASP.NET appsettings.json, key nested in a provider section as SubscriptionKey", any_value, r_appsettings_nested_json),
    ("maven_settings_xml", "Maven settings.xml server block, value in a <password> element", any_value, r_maven_settings_xml),
    ("npmrc_authtoken", "project .npmrc with a scoped registry and an _authToken line", any_value, r_npmrc_authtoken),
    ("pgpass_header", "~/.pgpass entry whose field names are only in a comment header above", any_value, r_pgpass_header),
    ("windows_reg_export", "Windows .reg export with an ApiKey string value under a software key", any_value, r_windows_reg_export),
    ("wireguard_interface", "WireGuard [Interface] section with PrivateKey (base64 characters only)", b64_only, r_wireguard_interface),
    ("systemd_environment", "systemd unit with Environment=\"NAME=value\" for a generic auth token", any_value, r_systemd_environment),
    ("ios_info_plist", "iOS Info.plist fragment, label in <key> and value in the next <string>", any_value, r_ios_info_plist),
    ("python_client_kwarg", "Python client constructor with api_key keyword argument on its own line", any_value, r_python_client_kwarg),
    ("js_fetch_headers", "JavaScript fetch call with an X-API-Key header in an inline object", any_value, r_js_fetch_headers),
    ("go_struct_literal", "Go config struct literal with an APIKey field", any_value, r_go_struct_literal),
    ("rust_const", "Rust &str constant named API_SECRET used to build a header", any_value, r_rust_const),
    ("ruby_configure_block", "Rails initializer configure block setting config.secret_key", any_value, r_ruby_configure_block),
    ("php_wpconfig_define", "WordPress wp-config define() of a plugin API key constant", any_value, r_php_wpconfig_define),
    ("powershell_headers", "PowerShell header hashtable with Ocp-Apim-Subscription-Key then Invoke-RestMethod", any_value, r_powershell_headers),
    ("notebook_cell_json", "Jupyter .ipynb cell JSON whose source sets an API key in os.environ", any_value, r_notebook_cell_json),
    ("r_sys_setenv", "R script calling Sys.setenv with an API key argument", any_value, r_r_sys_setenv),
    ("curl_bearer", "multi-line curl command with an Authorization: Bearer header", any_value, r_curl_bearer),
    ("kubectl_from_literal", "kubectl create secret generic with --from-literal=client-secret=", any_value, r_kubectl_from_literal),
    ("az_cli_tsv_output", "az cognitiveservices keys list --query key1 command and its bare output line", any_value, r_az_cli_tsv_output),
    ("vault_kv_output", "HashiCorp vault kv get output table with Key/Value header and api_token row", any_value, r_vault_kv_output),
    ("redis_cli_auth", "redis-cli interactive session sending AUTH with the password", any_value, r_redis_cli_auth),
    ("cli_login_prompt", "interactive CLI login transcript with a Token: prompt answered", any_value, r_cli_login_prompt),
    ("terraform_provider", "Terraform provider block with api_key argument", any_value, r_terraform_provider),
    ("github_actions_with", "GitHub Actions step passing auth-token in a with: block", any_value, r_github_actions_with),
    ("jenkins_withenv", "Jenkinsfile stage wrapping a deploy in withEnv([\"DEPLOY_TOKEN=...\"])", any_value, r_jenkins_withenv),
    ("json_log_headers", "one-line JSON debug log of an outgoing request including an x-auth-token header", any_value, r_json_log_headers),
    ("python_traceback_locals", "Python traceback followed by a local-variables dump with secret_key", any_value, r_python_traceback_locals),
    ("http_response_token", "raw HTTP 200 response whose JSON body carries access_token", any_value, r_http_response_token),
    ("nginx_access_log_query", "nginx access log line with apikey= in the request query string (URL-safe values only)", url_safe, r_nginx_access_log_query),
    ("sql_insert_columns", "SQL INSERT with api_key in the column list and the value positional in VALUES", any_value, r_sql_insert_columns),
    ("pg_dump_copy", "pg_dump COPY block, access_token column named in the header and value tab-separated below", any_value, r_pg_dump_copy),
    ("mysql_table_output", "mysql client SELECT output table with a secret column", any_value, r_mysql_table_output),
    ("email_onboarding", "onboarding e-mail: a sentence announces the API key, value alone on a later line", any_value, r_email_onboarding),
    ("chat_transcript", "chat log: one person asks for the token, another replies with only the value", any_value, r_chat_transcript),
    ("markdown_table", "Markdown table of service accounts with a Secret column", any_value, r_markdown_table),
    ("csv_export", "CSV export with a key_value column header and the value in the data row", any_value, r_csv_export),
    ("handwritten_notes", "personal bullet-point notes with an 'api key (prod, shared):' item", any_value, r_handwritten_notes),
    ("screenshot_transcription", "transcribed dashboard screenshot of an API keys page with 'Secret key:' label", any_value, r_screenshot_transcription),
    ("postman_collection", "Postman collection header object: key api-key and value in sibling fields", any_value, r_postman_collection),
    ("diff_review", "git diff hunk adding a nested auth: bearer: entry to a YAML config", any_value, r_diff_review),
]

# ---------------------------------------------------------------------------
KEYWORD_PATTERNS = [
    re.compile(r'^([A-Z0-9]+)_API_KEY="'),
    re.compile(r"^export ([A-Z0-9]+)_TOKEN="),
    re.compile(r'^"([a-z0-9]+)_secret": "'),
    re.compile(r"^([a-z0-9]+)Token := '"),
    re.compile(r"^([a-z0-9]+)\.auth\.token: "),
    re.compile(r'^<add key="([a-z0-9]+)_key" value="'),
    re.compile(r"^([A-Z0-9]+)_ACCESS_KEY = "),
]


def keyword(text):
    for p in KEYWORD_PATTERNS:
        m = p.match(text)
        if m:
            return m.group(1).lower()
    raise ValueError("no keyword in: " + text[:60])


def load():
    rows = []
    for fi, path in enumerate(SOURCES):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                rows.append({"file": fi, "secret": r["secret"], "kind": r["kind"],
                             "k": keyword(r["text"])})
    return rows


ENVS = ["prod", "staging", "dev", "qa"]
USERS = ["mkowalski", "asharma", "jdoe", "lnguyen", "tbrennan", "ofashola", "rsilva", "ekim"]
NAMES = ["Dana", "Marco", "Priya", "Jonas", "Aisha", "Tom", "Keiko", "Luis"]
NAMESPACES = ["payments", "platform", "default", "data-eng", "web"]


def main():
    rng = random.Random(SEED)
    rows = load()
    assert len(rows) == 216, len(rows)
    rng.shuffle(rows)

    ctx_ids = [c[0] for c in CONTEXTS]
    assert len(set(ctx_ids)) == len(ctx_ids)
    tiebreak = list(range(len(CONTEXTS)))
    rng.shuffle(tiebreak)
    pos = {ci: tiebreak.index(ci) for ci in range(len(CONTEXTS))}

    counts = [0] * len(CONTEXTS)
    per_file = [[0, 0] for _ in CONTEXTS]
    assigned = [[] for _ in CONTEXTS]
    # Rows with fewer accepting contexts are placed first.
    order = sorted(range(len(rows)),
                   key=lambda i: sum(1 for c in CONTEXTS if c[2](rows[i]["secret"])))
    for i in order:
        r = rows[i]
        cands = [ci for ci, c in enumerate(CONTEXTS) if c[2](r["secret"])]
        if not cands:
            raise SystemExit("no context accepts " + r["secret"])
        ci = min(cands, key=lambda c: (counts[c], per_file[c][r["file"]], pos[c]))
        counts[ci] += 1
        per_file[ci][r["file"]] += 1
        assigned[ci].append(r)

    out = []
    for ci, (cid, note, accepts, render) in enumerate(CONTEXTS):
        for r in assigned[ci]:
            k = r["k"]
            v = {
                "k": k, "K": k.upper(), "C": k.capitalize(),
                "env": rng.choice(ENVS), "user": rng.choice(USERS),
                "name": rng.choice(NAMES), "ns": rng.choice(NAMESPACES),
                "n": rng.randint(2, 250), "id": rng.randint(3, 980),
            }
            v["user2"] = rng.choice([u for u in USERS if u != v["user"]])
            text = render(r["secret"], v)
            out.append({"text": text, "label": "risk", "kind": r["kind"],
                        "secret": r["secret"], "source": SOURCE_TAG, "context": cid})

    # Sanity checks.
    assert len(out) == 216
    assert len({o["secret"] for o in out}) == 216
    assert len({o["text"] for o in out}) == len(out), "duplicate texts"
    for o in out:
        assert o["text"].count(o["secret"]) == 1, (o["context"], o["secret"])
    for ci, c in enumerate(CONTEXTS):
        assert per_file[ci][0] > 0 and per_file[ci][1] > 0, ("single-file context", c[0])

    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")

    for ci, c in enumerate(CONTEXTS):
        print(f"{c[0]:28s} {counts[ci]:2d}  (microsoft {per_file[ci][0]}, titus {per_file[ci][1]})",
              file=sys.stderr)
    print(f"{len(CONTEXTS)} contexts, {len(out)} rows -> {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
