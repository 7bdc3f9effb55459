#!/usr/bin/env python3
"""Build tests/corpora/heldout-credentials-contexts-8.jsonl.

Held-out set: the 216 credential values of heldout-credentials-microsoft.jsonl
and heldout-credentials-titus.jsonl, each placed once into one of the
contexts listed in CONTEXTS below. The contexts were written by hand for this
set, all of them before any row was generated.

Placeholders in a context template:
  {S}  the secret value
  {k}  provider keyword, lower case (recovered from the source row's text)
  {K}  provider keyword, upper case
  {Kc} provider keyword, first letter upper case

Rebuild: python3 tests/corpora/gen_heldout_contexts_8.py
Output is deterministic (seeded shuffle, no set/dict-order dependence).
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
OUT = os.path.join(HERE, "heldout-credentials-contexts-8.jsonl")
SOURCE_NAME = "heldout-contexts-8"
SEED = 8008

ANY = "any"
URLSAFE = "urlsafe"  # only [A-Za-z0-9._~-]: value sits unencoded inside a URL

# (id, one-line note, charset requirement, template)
CONTEXTS = [
    ("curl_bearer_header",
     "curl command line passing the value in an Authorization: Bearer header, provider host",
     ANY,
     'curl -sS https://api.{k}.example.com/v1/models \\\n'
     '  -H "Authorization: Bearer {S}" \\\n'
     '  -H "Content-Type: application/json"'),
    ("http_request_dump",
     "raw HTTP/1.1 request as captured by a debugging proxy, value in an X-Api-Key header among other headers",
     ANY,
     'POST /v1/query HTTP/1.1\n'
     'Host: {k}.example.net\n'
     'User-Agent: python-requests/2.31.0\n'
     'Accept: */*\n'
     'X-Api-Key: {S}\n'
     'Content-Length: 57'),
    ("python_sdk_kwarg",
     "Python import of a provider SDK and a client constructor with an api_key= keyword argument",
     ANY,
     'from {k} import Client\n'
     '\n'
     'client = Client(api_key="{S}", timeout=30)\n'
     'print(client.list_models())'),
    ("node_env_fallback",
     "JavaScript hard-coded fallback after process.env lookup of a provider-named variable",
     ANY,
     "const apiKey = process.env.{K}_API_KEY || '{S}';\n"
     "const client = createClient({ apiKey, retries: 2 });"),
    ("csharp_connstring",
     "C# string literal holding a Service Bus style connection string, value after SharedAccessKey=",
     ANY,
     'var connectionString = "Endpoint=sb://contoso-prod.servicebus.windows.net/;'
     'SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={S}";\n'
     'await using var client = new ServiceBusClient(connectionString);'),
    ("docker_run_flag",
     "multi-line docker run command with a generic API_TOKEN passed through -e",
     ANY,
     'docker run -d --restart unless-stopped \\\n'
     '  -e API_TOKEN={S} \\\n'
     '  -p 8080:8080 ghcr.io/acme/ingest:1.8.2'),
    ("k8s_secret_stringdata",
     "Kubernetes Secret manifest, provider-named metadata, value under stringData.apiKey",
     ANY,
     'apiVersion: v1\n'
     'kind: Secret\n'
     'metadata:\n'
     '  name: {k}-credentials\n'
     '  namespace: prod\n'
     'type: Opaque\n'
     'stringData:\n'
     '  apiKey: {S}'),
    ("powershell_securestring",
     "PowerShell converting a plaintext literal with ConvertTo-SecureString and building a PSCredential",
     ANY,
     "$secure = ConvertTo-SecureString '{S}' -AsPlainText -Force\n"
     "$cred = New-Object System.Management.Automation.PSCredential ('svc-deploy', $secure)"),
    ("terraform_kv_secret",
     "Terraform azurerm_key_vault_secret resource; value attribute, key named in the name attribute",
     ANY,
     'resource "azurerm_key_vault_secret" "{k}_key" {\n'
     '  name         = "{k}-api-key"\n'
     '  value        = "{S}"\n'
     '  key_vault_id = azurerm_key_vault.main.id\n'
     '}'),
    ("netrc_entry",
     ".netrc machine entry with login and password on separate indented lines",
     ANY,
     'machine api.{k}.example.com\n'
     '  login deploy-bot\n'
     '  password {S}'),
    ("npmrc_authtoken",
     ".npmrc with a scoped registry and a //host/:_authToken= line",
     ANY,
     'registry=https://npm.pkg.example.com/\n'
     '//npm.pkg.example.com/:_authToken={S}\n'
     'always-auth=true'),
    ("git_clone_userinfo",
     "git clone with oauth2:<token>@ credentials embedded in the HTTPS URL",
     URLSAFE,
     'git clone https://oauth2:{S}@gitlab.example.com/platform/infra.git'),
    ("url_query_log",
     "web server access log line, value in an api_key query parameter of the request URL",
     URLSAFE,
     '203.0.113.24 - - [12/Mar/2024:09:14:22 +0000] '
     '"GET /v1/geocode?q=Berlin&api_key={S} HTTP/1.1" 200 512 "-" "okhttp/4.12.0"'),
    ("java_log_debug",
     "Spring Boot style DEBUG log line saying it is using an access token",
     ANY,
     '2024-05-02 10:15:33.201 DEBUG 4711 --- [nio-8080-exec-3] c.a.gateway.AuthFilter '
     '  : Using access token {S} for tenant contoso'),
    ("md_keys_table",
     "Markdown two-column table copied from a portal page, value in the row labelled Key 1",
     ANY,
     '| Setting | Value |\n'
     '|---|---|\n'
     '| Endpoint | https://{k}-prod.example.com/ |\n'
     '| Key 1 | {S} |\n'
     '| Location | westeurope |'),
    ("slack_message_en",
     "informal English chat message handing over a personal token",
     ANY,
     '@maria try it with my token for now: {S}\n'
     "I'll rotate it after the demo :sweat_smile:"),
    ("csv_inventory",
     "CSV inventory with a header row; value in the api_key column of a provider row",
     ANY,
     'service,environment,owner,api_key,created\n'
     '{k},production,platform-team,{S},2024-01-12'),
    ("sql_insert_positional",
     "SQL INSERT where the api_token column is named in the column list and the value is positional",
     ANY,
     'INSERT INTO integrations (provider, api_token, enabled, created_at)\n'
     "VALUES ('{k}', '{S}', TRUE, NOW());"),
    ("spring_yaml_nested",
     "Spring Security OAuth2 client registration, deeply nested YAML, value under client-secret",
     ANY,
     'spring:\n'
     '  security:\n'
     '    oauth2:\n'
     '      client:\n'
     '        registration:\n'
     '          {k}:\n'
     '            client-id: web-portal\n'
     '            client-secret: {S}\n'
     '            scope: openid,profile'),
    ("go_struct_literal",
     "Go composite literal of a client config with an APIKey field among other fields",
     ANY,
     'cfg := &client.Config{\n'
     '\tBaseURL: "https://api.example.com",\n'
     '\tAPIKey:  "{S}",\n'
     '\tTimeout: 10 * time.Second,\n'
     '}'),
    ("rust_bearer_auth",
     "Rust reqwest builder chain with the value passed to .bearer_auth()",
     ANY,
     'let resp = client\n'
     '    .get("https://api.example.com/v2/jobs")\n'
     '    .bearer_auth("{S}")\n'
     '    .send()\n'
     '    .await?;'),
    ("ruby_module_attr",
     "Ruby require of a provider gem and assignment to the module's api_key attribute",
     ANY,
     'require "{k}"\n'
     '\n'
     '{Kc}.api_key = "{S}"\n'
     '{Kc}.open_timeout = 15'),
    ("curl_user_flag",
     "curl with -u \"api:<value>\" basic-auth user:password pair",
     ANY,
     'curl -u "api:{S}" https://{k}.example.com/api/v2/tickets.json'),
    ("cli_configure_prompt",
     "terminal transcript of an interactive configure command answering a Secret access key prompt",
     ANY,
     '$ {k} configure\n'
     'Profile name [default]: staging\n'
     'Access key ID [None]: svc-staging\n'
     'Secret access key [None]: {S}\n'
     'Default region [None]: eu-west-1'),
    ("maven_settings_xml",
     "Maven settings.xml server block with username and password elements",
     ANY,
     '<servers>\n'
     '  <server>\n'
     '    <id>internal-releases</id>\n'
     '    <username>ci-bot</username>\n'
     '    <password>{S}</password>\n'
     '  </server>\n'
     '</servers>'),
    ("api_response_token",
     "compact single-line JSON API response after creating a token, value in the token field mid-object",
     ANY,
     '{"id":"tok_8Hq2","name":"ci-pipeline","scopes":["read","write"],'
     '"token":"{S}","expires_at":null}'),
    ("az_keys_table_output",
     "Azure CLI keys list in table output; value in the Value column of the key1 row",
     ANY,
     '$ az storage account keys list -g rg-data -n stcontosodata -o table\n'
     'KeyName    Permissions    Value\n'
     '---------  -------------  --------\n'
     'key1       FULL           {S}'),
    ("python_auth_error",
     "Python traceback whose exception message quotes the rejected API key",
     ANY,
     'Traceback (most recent call last):\n'
     '  File "app.py", line 12, in <module>\n'
     '    resp = client.chat.completions.create(model=MODEL, messages=msgs)\n'
     "{k}.AuthenticationError: Error code: 401 - {'error': {'message': "
     "'Incorrect API key provided: {S}.', 'type': 'invalid_request_error'}}"),
    ("kubectl_from_literal",
     "kubectl create secret generic with --from-literal=api-token=<value>",
     ANY,
     'kubectl create secret generic {k}-creds --from-literal=api-token={S} -n payments'),
    ("plist_key_string",
     "Apple property list: <key>...APIKey</key> followed by the value in a <string> element",
     ANY,
     '<dict>\n'
     '\t<key>{Kc}APIKey</key>\n'
     '\t<string>{S}</string>\n'
     '</dict>'),
    ("token_created_banner",
     "CLI output after creating a personal access token, value in a sentence with a copy-it-now warning",
     ANY,
     '\u2714 Personal access token created\n'
     '  Name:    laptop-cli\n'
     '  Expires: 2025-06-30\n'
     '\n'
     'Your new token is {S}\n'
     "Copy it now \u2014 you won't be able to see it again."),
    ("password_manager_export",
     "password manager entry pasted as text, value on the Password: line",
     ANY,
     'Title: {Kc} admin console\n'
     'Username: ops@contoso.com\n'
     'Password: {S}\n'
     'URL: https://portal.example.com\n'
     'Notes: shared vault, rotate quarterly'),
    ("postman_apikey_auth",
     "Postman collection auth block of type apikey; value in a key/value pair list, header name elsewhere",
     ANY,
     '"auth": {\n'
     '  "type": "apikey",\n'
     '  "apikey": [\n'
     '    { "key": "value", "value": "{S}", "type": "string" },\n'
     '    { "key": "key", "value": "X-API-Key", "type": "string" },\n'
     '    { "key": "in", "value": "header", "type": "string" }\n'
     '  ]\n'
     '}'),
    ("git_diff_token",
     "unified diff replacing a placeholder token with a real one in a nested settings file",
     ANY,
     'diff --git a/config/settings.yml b/config/settings.yml\n'
     '@@ -14,7 +14,7 @@ integrations:\n'
     '   {k}:\n'
     '     enabled: true\n'
     '-    token: <replace-me>\n'
     '+    token: {S}\n'
     '     timeout: 30'),
    ("email_de",
     "German e-mail; value alone on its own line after a sentence naming the API-Schl\u00fcssel",
     ANY,
     'Hallo Thomas,\n'
     '\n'
     'anbei wie besprochen der API-Schl\u00fcssel f\u00fcr die Testumgebung:\n'
     '\n'
     '{S}\n'
     '\n'
     'Bitte nicht ins Repository einchecken.\n'
     'Viele Gr\u00fc\u00dfe\n'
     'Jana'),
    ("ticket_fr",
     "French support ticket quoting the cl\u00e9 d'API that returns 401",
     ANY,
     'Bonjour,\n'
     'Le service {k} renvoie une erreur 401 depuis ce matin. '
     "Nous utilisons la cl\u00e9 d'API suivante : {S}\n"
     "Pouvez-vous v\u00e9rifier si elle a \u00e9t\u00e9 r\u00e9voqu\u00e9e ?\n"
     'Cordialement,\nAur\u00e9lie'),
    ("chat_es",
     "Spanish chat log; the value is sent as its own message after one announcing the token de acceso",
     ANY,
     '[10:42] Luc\u00eda: te paso el token de acceso del entorno de pruebas\n'
     '[10:42] Luc\u00eda: {S}\n'
     '[10:43] Diego: gracias, lo guardo en el gestor'),
    ("doc_ja",
     "Japanese setup document bullet list, value after API\u30ad\u30fc with a full-width colon",
     ANY,
     '## \u8a8d\u8a3c\u60c5\u5831\n'
     '- \u30a8\u30f3\u30c9\u30dd\u30a4\u30f3\u30c8: https://{k}.example.jp/api\n'
     '- API\u30ad\u30fc\uff1a{S}\n'
     '- \u6709\u52b9\u671f\u9650\uff1a2025\u5e743\u670831\u65e5'),
    ("wiki_zh",
     "Chinese internal wiki snippet, value after \u5bc6\u94a5\uff08Secret Key\uff09 and a full-width colon",
     ANY,
     '{Kc} \u63a5\u5165\u8bf4\u660e\n'
     '\n'
     '\u5bc6\u94a5\uff08Secret Key\uff09\uff1a{S}\n'
     '\u8bf7\u52ff\u5c06\u6b64\u5bc6\u94a5\u63d0\u4ea4\u5230\u4ee3\u7801\u4ed3\u5e93\u3002'),
    ("msg_pt",
     "Brazilian Portuguese chat message giving the chave de acesso da API inline in a sentence",
     ANY,
     'Oi Rafael, segue a chave de acesso da API do {k} pra voc\u00ea testar: {S} '
     '\u2014 depois a gente gera outra pra produ\u00e7\u00e3o.'),
    ("note_ru",
     "Russian note with a \u0422\u043e\u043a\u0435\u043d \u0434\u043e\u0441\u0442\u0443\u043f\u0430 label line",
     ANY,
     '\u0414\u043e\u0441\u0442\u0443\u043f \u043a API {k}\n'
     '\u0422\u043e\u043a\u0435\u043d \u0434\u043e\u0441\u0442\u0443\u043f\u0430: {S}\n'
     '\u041d\u0435 \u043f\u0435\u0440\u0435\u0441\u044b\u043b\u0430\u0442\u044c '
     '\u0442\u0440\u0435\u0442\u044c\u0438\u043c \u043b\u0438\u0446\u0430\u043c.'),
    ("msg_it",
     "Italian message giving a service-account password in the middle of a sentence",
     ANY,
     "Ciao Marco, la password dell'utente di servizio per il gateway \u00e8 {S} "
     '\u2014 cambiala al primo accesso, grazie.'),
    ("msg_ko",
     "Korean message sharing a staging API \ud0a4 after a colon, with a warning line",
     ANY,
     '\uc548\ub155\ud558\uc138\uc694, \uc2a4\ud14c\uc774\uc9d5 \ud658\uacbd API \ud0a4 '
     '\uacf5\uc720\ub4dc\ub9bd\ub2c8\ub2e4: {S}\n'
     '\uc678\ubd80 \uc720\ucd9c \uc8fc\uc758 \ubd80\ud0c1\ub4dc\ub9bd\ub2c8\ub2e4.'),
]

URLSAFE_RE = re.compile(r"^[A-Za-z0-9._~-]+$")

# Templates of the source rows; each captures the provider keyword.
KEYWORD_PATTERNS = [
    re.compile(r'^([A-Z0-9]+)_API_KEY="(.*)"$'),
    re.compile(r'^export ([A-Z0-9]+)_TOKEN=(.*)$'),
    re.compile(r'^"([a-z0-9]+)_secret": "(.*)",$'),
    re.compile(r"^([a-z0-9]+)Token := '(.*)'$"),
    re.compile(r'^([a-z0-9]+)\.auth\.token: (.*)$'),
    re.compile(r'^<add key="([a-z0-9]+)_key" value="(.*)" />$'),
    re.compile(r'^([A-Z0-9]+)_ACCESS_KEY = (.*)  # rotate monthly$'),
]


def keyword_of(row):
    for pat in KEYWORD_PATTERNS:
        m = pat.match(row["text"])
        if m and m.group(2) == row["secret"]:
            return m.group(1).lower()
    raise SystemExit("no template matched: %r" % row["text"])


def accepts(charset, secret):
    if charset == ANY:
        return True
    if charset == URLSAFE:
        return bool(URLSAFE_RE.match(secret))
    raise ValueError(charset)


def render(template, secret, kw):
    return (template.replace("{Kc}", kw[:1].upper() + kw[1:])
            .replace("{K}", kw.upper())
            .replace("{k}", kw)
            .replace("{S}", secret))


def main():
    rng = random.Random(SEED)
    ids = [c[0] for c in CONTEXTS]
    assert len(ids) == len(set(ids))
    per_src = {name: [0] * len(CONTEXTS) for name, _ in SOURCES}
    total = [0] * len(CONTEXTS)
    assigned = []  # (context index, row, keyword)
    for name, path in SOURCES:
        with open(path, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        rng.shuffle(rows)
        for row in rows:
            kw = keyword_of(row)
            cands = [i for i, c in enumerate(CONTEXTS) if accepts(c[2], row["secret"])]
            i = min(cands, key=lambda j: (per_src[name][j], total[j], j))
            per_src[name][i] += 1
            total[i] += 1
            assigned.append((i, row, kw))
    assigned.sort(key=lambda t: t[0])  # stable: keeps shuffled order inside a context

    out_rows = []
    seen = set()
    for i, row, kw in assigned:
        cid, _note, _cs, template = CONTEXTS[i]
        text = render(template, row["secret"], kw)
        assert text.count(row["secret"]) == 1, (cid, row["secret"])
        assert text not in seen, cid
        seen.add(text)
        out_rows.append({
            "text": text,
            "label": "risk",
            "kind": row["kind"],
            "secret": row["secret"],
            "source": SOURCE_NAME,
            "context": cid,
        })
    secrets = [r["secret"] for r in out_rows]
    assert len(secrets) == len(set(secrets)) == 216, len(secrets)
    for name, _ in SOURCES:
        assert all(n > 0 for n in per_src[name]), (name, per_src[name])
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in out_rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    sys.stderr.write("%d rows, %d contexts, per-context %d..%d -> %s\n"
                     % (len(out_rows), len(CONTEXTS), min(total), max(total), OUT))


if __name__ == "__main__":
    main()
