#!/usr/bin/env python3
"""Build heldout-credentials-contexts-9.jsonl.

Takes the 216 credential values of the Microsoft and Titus held-out sets and
places each value exactly once into one of a fixed list of hand-written
contexts (configuration, code, commands, logs, CI, HTTP, databases, exports,
documents and messages, several of them not in English).

Standard library only; seeded and deterministic (output does not depend on
PYTHONHASHSEED).  Run with no arguments:

    python3 tests/corpora/gen_heldout_contexts_9.py
"""

import datetime
import json
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [
    ("microsoft", "heldout-credentials-microsoft.jsonl"),
    ("titus", "heldout-credentials-titus.jsonl"),
]
OUT = os.path.join(HERE, "heldout-credentials-contexts-9.jsonl")
SOURCE_TAG = "heldout-contexts-9"
SEED = 9
URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+\Z")


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def fill(tpl, s, **vals):
    """Replace ⟦name⟧ markers; the secret goes in last as ⟦S⟧."""
    out = tpl
    for k, v in vals.items():
        out = out.replace("\u27e6" + k + "\u27e7", str(v))
    out = out.replace("\u27e6S\u27e7", s)
    assert "\u27e6" not in out and "\u27e7" not in out, out
    return out


def pick(r, seq):
    return seq[r.randrange(len(seq))]


def hexs(r, n):
    return "".join(pick(r, "0123456789abcdef") for _ in range(n))


def uuid(r):
    return "-".join([hexs(r, 8), hexs(r, 4), "4" + hexs(r, 3),
                     pick(r, "89ab") + hexs(r, 3), hexs(r, 12)])


def date(r):
    return "%04d-%02d-%02d" % (r.randint(2023, 2025), r.randint(1, 12), r.randint(1, 28))


def day(r):
    return datetime.date(r.randint(2023, 2025), r.randint(1, 12), r.randint(1, 28))


def rfc_date(d):
    return "%s, %02d %s %d" % (["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][d.weekday()], d.day,
                               ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                "Nov", "Dec"][d.month - 1], d.year)


def clock(r):
    return "%02d:%02d:%02d" % (r.randint(7, 19), r.randint(0, 59), r.randint(0, 59))


def ip(r):
    return "%d.%d.%d.%d" % (pick(r, [10, 172, 192]), r.randint(0, 254), r.randint(0, 254), r.randint(1, 254))


COMPANIES = ["northwind", "contoso-labs", "globex", "initech", "acmecorp", "fabrikam",
             "tailspin", "wingtip", "hooli", "umbrella-it", "vandelay", "stark-dev"]
TLDS = ["com", "io", "net", "dev", "cloud"]
APPS = ["orders-api", "ingest-worker", "billing-svc", "search-gateway", "notifier",
        "report-builder", "chat-backend", "media-pipeline", "catalog", "ledger",
        "checkout", "assistant-api", "crawler", "etl-runner"]
SERVICES = ["search", "translation", "vision", "speech", "notifications", "billing",
            "geocoding", "embeddings", "moderation", "analytics", "llm", "ocr"]
EN_NAMES = ["Alice", "Ben", "Priya", "Marcus", "Jonas", "Hannah", "Omar", "Grace",
            "Dmitri", "Sara", "Tom", "Nadia", "Leo", "Ines"]
ENVS = ["staging", "dev", "qa", "sandbox", "preprod", "prod"]
UAS = ["python-requests/2.31.0", "curl/8.5.0", "okhttp/4.12.0", "axios/1.6.8",
       "Go-http-client/2.0", "node-fetch/1.0"]


def company(r):
    return pick(r, COMPANIES)


def host(r):
    return "%s.%s.%s" % (pick(r, ["api", "gateway", "svc", "edge", "backend"]), company(r), pick(r, TLDS))


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[-_ ]", name) if p)


# --------------------------------------------------------------------------
# contexts (the whole list is fixed here, before any row is generated)
# Each template: f(r, s, kw) -> text.  r: seeded Random, s: secret,
# kw: provider keyword recovered from the source row's text.
# --------------------------------------------------------------------------

def c_k8s_secret(r, s, kw):
    app = pick(r, APPS)
    key = pick(r, ["api-key", "upstream-token", "access-key", "client-secret", "service-key"])
    return fill("""apiVersion: v1
kind: Secret
metadata:
  name: ⟦app⟧-credentials
  namespace: ⟦ns⟧
  labels:
    app.kubernetes.io/name: ⟦app⟧
    app.kubernetes.io/managed-by: kustomize
type: Opaque
stringData:
  db-host: ⟦db⟧.postgres.database.azure.com
  db-user: ⟦dbu⟧
  ⟦key⟧: "⟦S⟧"
  log-level: ⟦lvl⟧
""", s, app=app, ns=pick(r, ENVS) + "-" + pick(r, ["apps", "platform", "data"]),
                db=app.split("-")[0] + "-" + pick(r, ENVS), dbu=app.replace("-", "_") + "_svc",
                key=key, lvl=pick(r, ["info", "debug", "warn"]))


def c_systemd_unit(r, s, kw):
    app = pick(r, APPS)
    return fill("""# /etc/systemd/system/⟦app⟧.service
[Unit]
Description=⟦App⟧ worker
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=⟦user⟧
WorkingDirectory=/opt/⟦app⟧
Environment="NODE_ENV=production"
Environment="⟦KW⟧_⟦suffix⟧=⟦S⟧"
Environment="PORT=⟦port⟧"
ExecStart=/usr/bin/node /opt/⟦app⟧/dist/main.js
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target
""", s, app=app, App=camel(app), user=app.split("-")[0], KW=kw.upper(),
                suffix=pick(r, ["API_KEY", "KEY", "TOKEN"]), port=r.randint(3000, 9000))


def c_npmrc(r, s, kw):
    h = "%s.%s.%s" % (pick(r, ["artifacts", "npm", "registry", "pkgs"]), company(r), pick(r, TLDS))
    path = pick(r, ["/api/npm/npm-private/", "/repository/npm-internal/", "/npm/"])
    return fill("""$ cat .npmrc
registry=https://registry.npmjs.org/
@⟦scope⟧:registry=https://⟦h⟧⟦path⟧
//⟦h⟧⟦path⟧:_authToken=⟦S⟧
always-auth=true
save-exact=true
engine-strict=true
""", s, scope=company(r).split("-")[0], h=h, path=path)


def c_dotnet_connstr(r, s, kw):
    app = camel(pick(r, APPS))
    variant = r.randrange(3)
    if variant == 0:
        name, cs = "ServiceBus", "Endpoint=sb://%s.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=⟦S⟧" % (company(r) + "-" + pick(r, ENVS))
    elif variant == 1:
        name, cs = "Storage", "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=⟦S⟧;EndpointSuffix=core.windows.net" % (company(r).replace("-", "")[:12] + pick(r, ["st", "data", "logs"]))
    else:
        name, cs = "AppConfig", "Endpoint=https://%s.azconfig.io;Id=%s;Secret=⟦S⟧" % (company(r) + "-cfg", hexs(r, 4) + "-l0-s0:" + hexs(r, 6))
    return fill("""{
  "Logging": {
    "LogLevel": {
      "Default": "Information",
      "Microsoft.AspNetCore": "Warning"
    }
  },
  "AllowedHosts": "*",
  "ConnectionStrings": {
    "Sql": "Server=tcp:⟦db⟧.database.windows.net,1433;Initial Catalog=⟦app⟧;Authentication=Active Directory Default;Encrypt=True;",
    "⟦name⟧": "⟦cs⟧"
  },
  "FeatureManagement": {
    "NewCheckout": ⟦flag⟧
  }
}
""".replace("⟦cs⟧", cs), s, db=company(r) + "-sql", app=app, name=name,
                flag=pick(r, ["true", "false"]))


def c_mcp_config(r, s, kw):
    user = pick(r, EN_NAMES).lower()
    return fill("""{
  "mcpServers": {
    "⟦kw⟧": {
      "command": "npx",
      "args": ["-y", "⟦pkg⟧"],
      "env": {
        "⟦KW⟧_⟦suffix⟧": "⟦S⟧",
        "LOG_LEVEL": "⟦lvl⟧"
      }
    },
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/⟦user⟧/⟦dir⟧"]
    }
  }
}
""", s, kw=kw, KW=kw.upper(), suffix=pick(r, ["API_KEY", "TOKEN", "KEY"]),
                pkg=pick(r, ["%s-mcp-server", "@%s/mcp", "mcp-%s"]) % kw,
                lvl=pick(r, ["warn", "info", "error"]), user=user,
                dir=pick(r, ["projects", "code", "work", "src"]))


def c_py_client_ctor(r, s, kw):
    svc = pick(r, SERVICES)
    arg = pick(r, ["api_key", "token", "subscription_key", "key"])
    return fill('''from ⟦pkg⟧ import ⟦Cls⟧

client = ⟦Cls⟧(
    base_url="https://⟦h⟧/v⟦v⟧",
    ⟦arg⟧="⟦S⟧",
    timeout=⟦t⟧,
    max_retries=⟦mr⟧,
)

result = client.⟦meth⟧(⟦call⟧)
print(result)
''', s, pkg=svc + "_client", Cls=camel(svc) + "Client", h=host(r), v=r.randint(1, 3),
                arg=arg, t=pick(r, [10, 15, 30, 60]), mr=r.randint(2, 5),
                meth=pick(r, ["query", "run", "create", "submit"]),
                call=pick(r, ['"hello world"', 'text=doc.text', 'inputs=batch', 'prompt="ping"']))


def c_py_getenv_default(r, s, kw):
    K = kw.upper()
    fn = pick(r, ["os.getenv", "os.environ.get"])
    return fill('''# ⟦mod⟧/settings.py
import os

DEBUG = ⟦fn⟧("DEBUG", "0") == "1"
DATABASE_URL = ⟦fn⟧("DATABASE_URL", "postgresql://localhost:5432/⟦db⟧")

⟦K⟧_BASE_URL = ⟦fn⟧("⟦K⟧_BASE_URL", "https://⟦h⟧")
⟦K⟧_API_KEY = ⟦fn⟧("⟦K⟧_API_KEY", "⟦S⟧")  # ⟦todo⟧
REQUEST_TIMEOUT = float(⟦fn⟧("REQUEST_TIMEOUT", "⟦to⟧"))
''', s, mod=pick(r, ["app", "core", "backend", "service"]), fn=fn, db=pick(r, ["app", "dev", "main"]),
                K=K, h=host(r), to=pick(r, ["10", "15", "30"]),
                todo=pick(r, ["TODO remove default before merge", "local default, prod uses env",
                              "FIXME", "temporary"]))


def c_js_fetch(r, s, kw):
    fn = pick(r, ["searchDocs", "translateText", "classify", "summarize", "fetchProfile", "embed"])
    hv = r.randrange(3)
    header = ['"Authorization": "Bearer ⟦S⟧"', '"x-api-key": "⟦S⟧"', '"api-key": "⟦S⟧"'][hv]
    return fill('''export async function ⟦fn⟧(input) {
  const res = await fetch("https://⟦h⟧/v1/⟦path⟧", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ⟦header⟧,
    },
    body: JSON.stringify({ input, limit: ⟦n⟧ }),
  });
  if (!res.ok) {
    throw new Error(`⟦fn⟧ failed: ${res.status} ${await res.text()}`);
  }
  return res.json();
}
'''.replace("⟦header⟧", header), s, fn=fn, h=host(r),
                path=pick(r, ["search", "translate", "classify", "completions", "profiles"]),
                n=pick(r, [5, 10, 20, 50]))


def c_java_builder(r, s, kw):
    svc = camel(pick(r, ["text-analytics", "search", "document-analysis", "content-safety", "speech", "translator"]))
    if r.randrange(2) == 0:
        body = '''        return new ⟦Svc⟧ClientBuilder()
                .endpoint("https://⟦res⟧.cognitiveservices.azure.com/")
                .credential(new AzureKeyCredential("⟦S⟧"))
                .httpLogOptions(new HttpLogOptions().setLogLevel(HttpLogDetailLevel.BASIC))
                .buildClient();'''
        ret = svc + "Client"
    else:
        body = '''        Request request = new Request.Builder()
                .url("https://⟦h⟧/v2/⟦path⟧")
                .header(⟦hdr⟧)
                .post(RequestBody.create(json, MediaType.get("application/json")))
                .build();
        return http.newCall(request).execute();'''
        ret = "Response"
    return fill('''package com.⟦co⟧.⟦pkg⟧;

public final class ⟦Svc⟧Factory {

    private ⟦Svc⟧Factory() {}

    public static ⟦ret⟧ create(⟦params⟧) {
⟦body⟧
    }
}
'''.replace("⟦body⟧", body), s, co=company(r).split("-")[0], pkg=pick(r, ["integration", "clients", "infra"]),
                Svc=svc, ret=ret, params="" if ret != "Response" else "OkHttpClient http, String json",
                res=company(r) + "-" + pick(r, ENVS), h=host(r), path=pick(r, ["jobs", "events", "documents"]),
                hdr=pick(r, ['"X-API-Key", "⟦S⟧"', '"Authorization", "Bearer ⟦S⟧"', '"X-Auth-Token", "⟦S⟧"']))


def c_csharp_headers(r, s, kw):
    hdr = pick(r, ["Ocp-Apim-Subscription-Key", "api-key", "X-Api-Key"])
    return fill('''using System.Net.Http.Headers;

var http = new HttpClient { BaseAddress = new Uri("https://⟦h⟧/") };
http.DefaultRequestHeaders.Add("⟦hdr⟧", "⟦S⟧");
http.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));

var response = await http.GetAsync("⟦path⟧?⟦q⟧");
response.EnsureSuccessStatusCode();
var payload = await response.Content.ReadAsStringAsync();
Console.WriteLine(payload);
''', s, h=host(r), hdr=hdr, path=pick(r, ["v1/search", "api/orders", "v3.0/translate", "analyze"]),
                q=pick(r, ["top=10", "api-version=2024-02-01", "lang=en", "page=1"]))


def c_go_struct(r, s, kw):
    pkg = pick(r, ["search", "notify", "llm", "billing", "vision"])
    return fill('''package main

import (
	"log"
	"time"

	"github.com/⟦co⟧/⟦pkg⟧-go"
)

func newClient() *⟦pkg⟧.Client {
	c, err := ⟦pkg⟧.NewClient(&⟦pkg⟧.Config{
		BaseURL:    "https://⟦h⟧",
		APIKey:     "⟦S⟧",
		Timeout:    ⟦t⟧ * time.Second,
		MaxRetries: ⟦mr⟧,
	})
	if err != nil {
		log.Fatalf("⟦pkg⟧ client: %v", err)
	}
	return c
}
''', s, co=company(r), pkg=pkg, h=host(r), t=pick(r, [5, 10, 30]), mr=r.randint(1, 4))


def c_rust_test(r, s, kw):
    name = pick(r, ["search", "complete", "translate", "upload", "list_jobs"])
    if r.randrange(2) == 0:
        body = '''    const TEST_KEY: &str = "⟦S⟧";

    #[tokio::test]
    async fn ⟦name⟧_returns_results() {
        let client = Client::builder()
            .base_url("https://⟦h⟧")
            .api_key(TEST_KEY)
            .build()
            .unwrap();'''
    else:
        body = '''    #[tokio::test]
    async fn ⟦name⟧_returns_results() {
        let client = Client::builder()
            .base_url("https://⟦h⟧")
            .api_key("⟦S⟧")
            .build()
            .unwrap();'''
    return fill('''#[cfg(test)]
mod tests {
    use super::*;

⟦body⟧
        let out = client.⟦name⟧("hello").await.unwrap();
        assert!(!out.items.is_empty());
    }
}
'''.replace("⟦body⟧", body), s, name=name, h=host(r))


def c_spring_value(r, s, kw):
    svc = pick(r, SERVICES)
    return fill('''@Configuration
public class ⟦Svc⟧ClientConfig {

    @Value("${⟦svc⟧.api.base-url:https://⟦h⟧}")
    private String baseUrl;

    @Value("${⟦svc⟧.api.key:⟦S⟧}")
    private String apiKey;

    @Bean
    public RestClient ⟦svc⟧RestClient(RestClient.Builder builder) {
        return builder.baseUrl(baseUrl)
                .defaultHeader("⟦hdr⟧", apiKey)
                .build();
    }
}
''', s, Svc=camel(svc), svc=svc, h=host(r), hdr=pick(r, ["X-API-Key", "api-key", "Authorization"]))


def c_php_services(r, s, kw):
    K = kw.upper()
    return fill("""<?php

return [

    'postmark' => [
        'token' => env('POSTMARK_TOKEN'),
    ],

    '⟦kw⟧' => [
        'key' => env('⟦K⟧_KEY', '⟦S⟧'),
        'endpoint' => env('⟦K⟧_ENDPOINT', 'https://⟦h⟧'),
        'timeout' => ⟦t⟧,
    ],

    'slack' => [
        'notifications' => [
            'channel' => env('SLACK_BOT_USER_DEFAULT_CHANNEL'),
        ],
    ],

];
""", s, kw=kw, K=K, h=host(r), t=pick(r, [10, 20, 30]))


def c_ruby_initializer(r, s, kw):
    svc = pick(r, SERVICES)
    return fill('''# config/initializers/⟦svc⟧.rb
⟦Mod⟧.configure do |config|
  config.api_key      = Rails.env.production? ? ENV.fetch("⟦SVC⟧_API_KEY") : "⟦S⟧"
  config.host         = "https://⟦h⟧"
  config.open_timeout = ⟦ot⟧
  config.read_timeout = ⟦rt⟧
  config.logger       = Rails.logger
end
''', s, svc=svc, Mod=camel(svc) + pick(r, ["Client", "API", ""]), SVC=svc.upper(), h=host(r),
                ot=pick(r, [2, 5]), rt=pick(r, [10, 15, 30]))


def c_pytest_monkeypatch(r, s, kw):
    K = kw.upper()
    return fill('''import pytest

from app.integrations import ⟦kw⟧_client


@pytest.fixture(autouse=True)
def _⟦kw⟧_env(monkeypatch):
    monkeypatch.setenv("⟦K⟧_API_KEY", "⟦S⟧")
    monkeypatch.setenv("⟦K⟧_BASE_URL", "http://localhost:⟦port⟧")


def test_client_reads_settings_from_env():
    client = ⟦kw⟧_client.from_env()
    assert client.base_url == "http://localhost:⟦port⟧"
''', s, kw=kw, K=K, port=r.randint(8000, 9999))


def c_curl_header(r, s, kw):
    hv = r.randrange(4)
    hdr = ["Authorization: Bearer ⟦S⟧", "api-key: ⟦S⟧", "x-api-key: ⟦S⟧", "Ocp-Apim-Subscription-Key: ⟦S⟧"][hv]
    return fill('''$ curl -sS -X POST "https://⟦h⟧/v1/⟦path⟧" \\
    -H "Content-Type: application/json" \\
    -H "⟦hdr⟧" \\
    -d '{"input": "⟦inp⟧", "max_tokens": ⟦mt⟧}' | jq .
{
  "id": "req_⟦rid⟧",
  "status": "ok",
  "usage": { "input_tokens": ⟦it⟧, "output_tokens": ⟦ot⟧ }
}
'''.replace("⟦hdr⟧", hdr), s, h=host(r), path=pick(r, ["chat/completions", "generate", "analyze", "embeddings"]),
                inp=pick(r, ["ping", "hello", "test from laptop", "summarize this"]), mt=pick(r, [16, 64, 128]),
                rid=hexs(r, 12), it=r.randint(3, 40), ot=r.randint(5, 120))


def c_shell_history(r, s, kw):
    n = r.randint(300, 1900)
    org, repo, app = company(r), pick(r, APPS), pick(r, APPS)
    name = pick(r, ["API_KEY", "SERVICE_TOKEN", "UPSTREAM_KEY", "ACCESS_KEY"])
    v = r.randrange(4)
    cmd = [
        'gh secret set %s --repo %s/%s --body "⟦S⟧"' % (name, org, repo),
        "az keyvault secret set --vault-name kv-%s-%s --name %s --value '⟦S⟧'" % (org.split("-")[0], pick(r, ENVS), name.lower().replace("_", "-")),
        "fly secrets set %s=⟦S⟧ -a %s" % (name, app),
        "heroku config:set %s=⟦S⟧ -a %s-%s" % (name, app, pick(r, ENVS)),
    ][v]
    return fill('''$ history | tail -n 6
 ⟦n0⟧  cd ~/src/⟦repo⟧
 ⟦n1⟧  git pull --rebase
 ⟦n2⟧  ⟦cmd⟧
 ⟦n3⟧  ⟦after⟧
 ⟦n4⟧  git push origin HEAD
 ⟦n5⟧  history | tail -n 6
'''.replace("⟦cmd⟧", cmd), s, n0=n, n1=n + 1, n2=n + 2, n3=n + 3, n4=n + 4, n5=n + 5, repo=repo,
                after=pick(r, ["git status", "make test", "clear", "ls -la"]))


def c_docker_run(r, s, kw):
    app = pick(r, APPS)
    return fill('''docker run -d --name ⟦app⟧ --restart unless-stopped \\
  -p ⟦port⟧:8080 \\
  -e ⟦KW⟧_⟦suffix⟧=⟦S⟧ \\
  -e LOG_LEVEL=⟦lvl⟧ \\
  -v /srv/⟦app⟧/data:/data \\
  ⟦reg⟧/⟦app⟧:⟦tag⟧
''', s, app=app, port=r.randint(3000, 9000), KW=kw.upper(), suffix=pick(r, ["API_KEY", "TOKEN", "KEY"]),
                lvl=pick(r, ["info", "debug"]), reg=pick(r, ["ghcr.io/" + company(r), company(r).replace("-", "") + "cr.azurecr.io"]),
                tag=pick(r, ["latest", "1.%d.%d" % (r.randint(0, 9), r.randint(0, 20)), "sha-" + hexs(r, 7)]))


def c_kubectl_literal(r, s, kw):
    app = pick(r, APPS)
    ns = pick(r, ENVS)
    return fill('''$ kubectl -n ⟦ns⟧ create secret generic ⟦app⟧-api \\
    --from-literal=⟦key⟧='⟦S⟧' \\
    --dry-run=client -o yaml | kubectl apply -f -
secret/⟦app⟧-api created
$ kubectl -n ⟦ns⟧ rollout restart deploy/⟦app⟧
deployment.apps/⟦app⟧ restarted
''', s, ns=ns, app=app, key=pick(r, ["api-key", "token", "API_KEY", "access-key"]))


def c_powershell(r, s, kw):
    user = pick(r, EN_NAMES).lower()
    hdr = pick(r, ["Ocp-Apim-Subscription-Key", "api-key", "x-api-key"])
    return fill('''PS C:\\Users\\⟦user⟧> $headers = @{ "⟦hdr⟧" = "⟦S⟧"; "Content-Type" = "application/json" }
PS C:\\Users\\⟦user⟧> $body = @{ text = "⟦txt⟧" } | ConvertTo-Json
PS C:\\Users\\⟦user⟧> Invoke-RestMethod -Method Post -Uri "https://⟦h⟧/⟦path⟧" -Headers $headers -Body $body

id        : ⟦id⟧
status    : succeeded
createdAt : ⟦d⟧T⟦c⟧Z
''', s, user=user, hdr=hdr, txt=pick(r, ["hello", "test", "Bonjour"]), h=host(r),
                path=pick(r, ["language/:analyze-text?api-version=2023-04-01", "translate?to=de", "v1/jobs"]),
                id=uuid(r), d=date(r), c=clock(r))


def c_access_log(r, s, kw):
    h = [ip(r) for _ in range(3)]
    d = "%02d/%s/%d" % (r.randint(1, 28), pick(r, ["Jan", "Mar", "May", "Aug", "Oct", "Dec"]), r.randint(2023, 2025))
    hh, mm = r.randint(0, 23), r.randint(0, 57)
    param = pick(r, ["key", "api_key", "apikey", "token", "access_token", "subscription-key"])
    path = pick(r, ["/api/v2/search", "/v1/geocode", "/export/report", "/v1/items"])
    return fill('''⟦h0⟧ - - [⟦d⟧:⟦hh⟧:⟦m0⟧:⟦s0⟧ +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29"
⟦h1⟧ - - [⟦d⟧:⟦hh⟧:⟦m1⟧:⟦s1⟧ +0000] "GET ⟦path⟧?q=⟦q⟧&⟦param⟧=⟦S⟧&page=1 HTTP/1.1" 200 ⟦b⟧ "-" "⟦ua⟧"
⟦h2⟧ - - [⟦d⟧:⟦hh⟧:⟦m2⟧:⟦s2⟧ +0000] "GET /static/app.js HTTP/1.1" 304 0 "https://⟦site⟧/" "Mozilla/5.0 (X11; Linux x86_64)"
''', s, h0=h[0], h1=h[1], h2=h[2], d=d, hh="%02d" % hh, m0="%02d" % mm, m1="%02d" % (mm + 1), m2="%02d" % (mm + 2),
                s0="%02d" % r.randint(0, 59), s1="%02d" % r.randint(0, 59), s2="%02d" % r.randint(0, 59),
                path=path, q=pick(r, ["berlin", "invoice", "red+shoes", "status"]), param=param,
                b=r.randint(300, 9000), ua=pick(r, UAS), site="www." + company(r) + ".com")


def c_py_debug_log(r, s, kw):
    h = host(r)
    d = date(r)
    c = clock(r)
    path = pick(r, ["/v1/messages", "/v2/query", "/api/translate", "/v1/jobs"])
    hv = r.randrange(3)
    header = ["'Authorization': 'Bearer ⟦S⟧'", "'X-Api-Key': '⟦S⟧'", "'api-key': '⟦S⟧'"][hv]
    return fill('''⟦d⟧ ⟦c⟧,⟦ms0⟧ DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): ⟦h⟧:443
⟦d⟧ ⟦c⟧,⟦ms1⟧ DEBUG ⟦app⟧.http: POST https://⟦h⟧⟦path⟧ headers={'User-Agent': 'python-requests/2.31.0', 'Accept-Encoding': 'gzip, deflate', 'Accept': '*/*', 'Connection': 'keep-alive', ⟦header⟧, 'Content-Length': '⟦cl⟧'}
⟦d⟧ ⟦c⟧,⟦ms2⟧ DEBUG urllib3.connectionpool: https://⟦h⟧:443 "POST ⟦path⟧ HTTP/1.1" 200 ⟦b⟧
'''.replace("⟦header⟧", header), s, d=d, c=c, ms0="%03d" % r.randint(0, 300), ms1="%03d" % r.randint(301, 600),
                ms2="%03d" % r.randint(601, 999), h=h, app=pick(r, APPS).replace("-", "_"), path=path,
                cl=r.randint(40, 400), b=r.randint(200, 5000))


def c_docker_inspect(r, s, kw):
    app = pick(r, APPS)
    pyv = "3.%d.%d" % (r.randint(10, 12), r.randint(1, 9))
    return fill('''$ docker inspect --format '{{json .Config.Env}}' ⟦app⟧ | jq .
[
  "⟦KW⟧_⟦suffix⟧=⟦S⟧",
  "APP_ENV=⟦env⟧",
  "PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
  "LANG=C.UTF-8",
  "PYTHON_VERSION=⟦pyv⟧"
]
''', s, app=app, KW=kw.upper(), suffix=pick(r, ["API_KEY", "TOKEN", "ACCESS_KEY"]), env=pick(r, ENVS), pyv=pyv)


def c_ci_log_xtrace(r, s, kw):
    d = date(r)
    hh, mm = r.randint(0, 23), r.randint(0, 58)
    fr = [r.randint(0, 9999999) for _ in range(8)]
    fr = sorted(fr[:4]) + [fr[4]] + sorted(fr[5:])
    secs = [10, 10, 10, 10, 11, 12, 12, 12]
    ts = ["%sT%02d:%02d:%02d.%07dZ" % (d, hh, mm, secs[i], fr[i]) for i in range(8)]
    return fill('''⟦t0⟧ ##[group]Run ./scripts/⟦script⟧.sh
⟦t1⟧ ./scripts/⟦script⟧.sh
⟦t2⟧ shell: /usr/bin/bash -e {0}
⟦t3⟧ ##[endgroup]
⟦t4⟧ + curl -fsS -X POST https://⟦h⟧/v1/⟦path⟧ -H 'Authorization: Bearer ⟦S⟧' -H 'Content-Type: application/json' -d @payload.json
⟦t5⟧ {"status":"queued","id":"⟦id⟧"}
⟦t6⟧ + echo done
⟦t7⟧ done
''', s, t0=ts[0], t1=ts[1], t2=ts[2], t3=ts[3], t4=ts[4], t5=ts[5], t6=ts[6], t7=ts[7],
                script=pick(r, ["publish", "notify-release", "upload-artifacts", "deploy"]), h=host(r),
                path=pick(r, ["releases", "deployments", "events", "builds"]), id=hexs(r, 16))


def c_gha_workflow(r, s, kw):
    name = pick(r, ["API_KEY", "MODEL_API_KEY", "SERVICE_TOKEN", "EVAL_KEY"])
    job = pick(r, [("Run eval", "evals.run"), ("Sync", "jobs.sync"), ("Smoke test", "tests.smoke")])
    return fill('''name: ⟦wf⟧
on:
  schedule:
    - cron: "⟦m⟧ ⟦h⟧ * * *"
  workflow_dispatch:

jobs:
  run:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "⟦py⟧"
      - run: pip install -r requirements.txt
      - name: ⟦step⟧
        run: python -m ⟦mod⟧ --env ⟦env⟧
        env:
          ⟦name⟧: "⟦S⟧"
          LOG_LEVEL: info
''', s, wf=pick(r, ["nightly-eval", "sync-catalog", "smoke-tests", "data-refresh"]), m=r.randint(0, 59),
                h=r.randint(0, 23), py=pick(r, ["3.11", "3.12"]), step=job[0],
                mod=job[1], env=pick(r, ENVS), name=name)


def c_terraform_app_settings(r, s, kw):
    app = pick(r, APPS)
    key = pick(r, ["SEARCH_API_KEY", "UPSTREAM_KEY", "COGNITIVE_KEY", "PARTNER_TOKEN"])
    return fill('''resource "azurerm_linux_function_app" "⟦res⟧" {
  name                       = "func-⟦app⟧-${var.environment}"
  resource_group_name        = azurerm_resource_group.main.name
  location                   = azurerm_resource_group.main.location
  service_plan_id            = azurerm_service_plan.main.id
  storage_account_name       = azurerm_storage_account.func.name
  storage_uses_managed_identity = true

  site_config {
    application_stack {
      python_version = "⟦py⟧"
    }
  }

  app_settings = {
    "FUNCTIONS_WORKER_RUNTIME" = "python"
    "⟦key⟧" = "⟦S⟧"
    "LOG_LEVEL" = "info"
  }
}
''', s, res=app.replace("-", "_"), app=app, py=pick(r, ["3.10", "3.11"]), key=key)


def c_raw_http_request(r, s, kw):
    hv = r.randrange(3)
    hdr = ["Authorization: Bearer ⟦S⟧", "X-API-Key: ⟦S⟧", "api-key: ⟦S⟧"][hv]
    body = pick(r, ['{"query":"status","top":5}', '{"input":"hello","stream":false}', '{"ids":[%d,%d]}' % (r.randint(1, 999), r.randint(1, 999))])
    return fill('''POST /v1/⟦path⟧ HTTP/1.1
Host: ⟦h⟧
User-Agent: ⟦ua⟧
Accept: application/json
Content-Type: application/json
⟦hdr⟧
Content-Length: ⟦cl⟧

⟦body⟧
'''.replace("⟦hdr⟧", hdr), s, path=pick(r, ["query", "jobs", "messages", "lookup"]), h=host(r), ua=pick(r, UAS),
                cl=len(body), body=body)


def c_http_response_key(r, s, kw):
    dd = day(r)
    d = dd.isoformat()
    c = clock(r)
    return fill('''HTTP/2 201
content-type: application/json; charset=utf-8
date: ⟦rfc⟧ ⟦c⟧ GMT
x-request-id: ⟦rid⟧

{
  "id": "key_⟦kid⟧",
  "name": "⟦name⟧",
  "created_at": "⟦d⟧T⟦c⟧Z",
  "scopes": [⟦scopes⟧],
  "secret": "⟦S⟧",
  "message": "Copy this key now. You will not be able to see it again."
}
''', s, rfc=rfc_date(dd), c=c, rid=uuid(r),
                kid=hexs(r, 10), name=pick(r, ["ci-bot", "staging", "local-dev", "zapier", "backup-job"]), d=d,
                scopes=pick(r, ['"read"', '"read", "write"', '"admin"']))


def c_sql_insert(r, s, kw):
    return fill('''-- seed data for local development
INSERT INTO integration_credentials (tenant_id, provider, label, secret_value, created_by, created_at)
VALUES (⟦tid⟧, '⟦prov⟧', '⟦label⟧', '⟦S⟧', '⟦user⟧', '⟦d⟧ ⟦c⟧');

UPDATE tenants SET integrations_enabled = true WHERE id = ⟦tid⟧;
''', s, tid=r.randint(1, 5000), prov=pick(r, SERVICES), label=pick(r, ["default", "primary", "sandbox"]),
                user=pick(r, EN_NAMES).lower() + "@" + company(r) + ".com", d=date(r), c=clock(r))


def c_pg_dump_copy(r, s, kw):
    owner = pick(r, ["app", "postgres", "svc_owner"])
    i = r.randint(10, 900)
    return fill('''--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: public; Owner: ⟦owner⟧
--

COPY public.api_keys (id, account_id, label, key_value, last_used_at, revoked) FROM stdin;
⟦i0⟧	⟦a0⟧	⟦l0⟧	\\N	⟦d0⟧ ⟦c0⟧+00	t
⟦i1⟧	⟦a1⟧	⟦l1⟧	⟦S⟧	⟦d1⟧ ⟦c1⟧+00	f
\\.


--
-- Name: api_keys_id_seq; Type: SEQUENCE SET; Schema: public; Owner: ⟦owner⟧
--

SELECT pg_catalog.setval('public.api_keys_id_seq', ⟦i1⟧, true);
''', s, owner=owner, i0=i, i1=i + 1, a0=r.randint(100, 999), a1=r.randint(100, 999),
                l0=pick(r, ["old-ci", "laptop", "test"]), l1=pick(r, ["production", "ci", "partner-sync"]),
                d0=date(r), c0=clock(r), d1=date(r), c1=clock(r))


def c_csv_export(r, s, kw):
    owners = [pick(r, EN_NAMES).lower() for _ in range(3)]
    return fill('''service,environment,owner,key,expires_on,notes
⟦svc0⟧,prod,⟦o0⟧,(in vault),⟦e0⟧,managed by platform
⟦svc1⟧,⟦env⟧,⟦o1⟧,⟦S⟧,⟦e1⟧,shared test key
⟦svc2⟧,dev,⟦o2⟧,,⟦e2⟧,requested
''', s, svc0=pick(r, SERVICES), svc1=pick(r, SERVICES), svc2=pick(r, SERVICES), o0=owners[0], o1=owners[1],
                o2=owners[2], env=pick(r, ["staging", "qa", "sandbox"]), e0=date(r), e1=date(r), e2=date(r))


def c_markdown_table(r, s, kw):
    u = [pick(r, EN_NAMES).lower() for _ in range(3)]
    co = company(r)
    return fill('''## Test environments

| Env | Endpoint | Key | Owner |
|-----|----------|-----|-------|
| dev | https://dev.⟦co⟧.internal | ask in #platform | @⟦u0⟧ |
| ⟦env⟧ | https://⟦env⟧.⟦co⟧.internal | `⟦S⟧` | @⟦u1⟧ |
| prod | https://api.⟦co⟧.com | Key Vault only | @⟦u2⟧ |

Keys are rotated every ⟦days⟧ days; ping the owner if one stops working.
''', s, co=co, u0=u[0], u1=u[1], u2=u[2], env=pick(r, ["staging", "qa", "sandbox"]), days=pick(r, [30, 60, 90]))


def c_email_en(r, s, kw):
    sender = pick(r, EN_NAMES)
    other = pick(r, EN_NAMES)
    co = company(r)
    svc = pick(r, SERVICES)
    return fill('''From: ⟦sender⟧ ⟦last⟧ <⟦sl⟧@⟦co⟧.com>
To: ⟦team⟧@⟦co⟧.com
Subject: New ⟦svc⟧ key for ⟦env⟧
Date: ⟦rfc⟧ ⟦c⟧ +0100

Hi all,

The old key expired over the weekend, so I generated a new one for ⟦env⟧:

    ⟦S⟧

Please update your local .env files and don't commit it anywhere. I'll move it
into the vault once ⟦other⟧ is back from leave.

Thanks,
⟦sender⟧
''', s, sender=sender, last=pick(r, ["Miller", "Khan", "Novak", "Lopez", "Chen"]), sl=sender.lower(), co=co,
                team=pick(r, ["dev-team", "backend", "platform"]), svc=svc, env=pick(r, ["staging", "QA", "the sandbox"]),
                rfc=rfc_date(day(r)), c=clock(r), other=other)


def c_chat_en(r, s, kw):
    a, b = pick(r, EN_NAMES), pick(r, ["Ben", "Grace", "Marcus", "Nadia"])
    hh, mm = r.randint(8, 18), r.randint(0, 55)
    return fill('''[⟦t0⟧] ⟦a⟧: is the ⟦svc⟧ sandbox down for anyone else? getting 401s
[⟦t1⟧] ⟦b⟧: not down, they rotated keys yesterday. use this one for now
[⟦t1⟧] ⟦b⟧: ⟦S⟧
[⟦t2⟧] ⟦a⟧: works, thanks!
[⟦t3⟧] ⟦b⟧: np, I'll put it in the vault later today
''', s, t0="%02d:%02d" % (hh, mm), t1="%02d:%02d" % (hh, mm + 1), t2="%02d:%02d" % (hh, mm + 3),
                t3="%02d:%02d" % (hh, mm + 4), a=a, b=b, svc=pick(r, SERVICES))


def c_jira_ticket(r, s, kw):
    proj = pick(r, ["PLAT", "OPS", "API", "INT", "CORE"])
    return fill('''⟦proj⟧-⟦n⟧: ⟦svc⟧ calls fail with 401 after deploy
Type: Bug    Priority: ⟦prio⟧    Assignee: ⟦who⟧
Environment: ⟦env⟧

Steps to reproduce:
1. Deploy build ⟦ver⟧ to ⟦env⟧
2. Call POST /v1/⟦path⟧ with the key from the runbook (⟦S⟧)
3. Observe 401 Unauthorized in the ⟦app⟧ logs

Expected: 200 OK
Actual: {"error":"invalid_api_key"}
''', s, proj=proj, n=r.randint(100, 9999), svc=camel(pick(r, SERVICES)), prio=pick(r, ["High", "Medium", "Highest"]),
                who=pick(r, EN_NAMES) + " " + pick(r, ["M.", "K.", "R."]), env=pick(r, ["staging", "qa"]),
                ver="%d.%d.%d" % (r.randint(1, 5), r.randint(0, 30), r.randint(0, 9)),
                path=pick(r, ["query", "jobs", "translate"]), app=pick(r, APPS))


def c_unified_diff(r, s, kw):
    env = pick(r, ["staging", "dev", "qa"])
    svc = pick(r, SERVICES)
    a, b = hexs(r, 7), hexs(r, 7)
    ln = r.randint(8, 60)
    return fill('''diff --git a/config/⟦env⟧.yaml b/config/⟦env⟧.yaml
index ⟦a⟧..⟦b⟧ 100644
--- a/config/⟦env⟧.yaml
+++ b/config/⟦env⟧.yaml
@@ -⟦ln⟧,7 +⟦ln⟧,7 @@ integrations:
   ⟦svc⟧:
     enabled: true
     endpoint: https://⟦h⟧
-    api_key: ${⟦SVC⟧_API_KEY}
+    api_key: ⟦S⟧
     timeout_seconds: ⟦t⟧
     retries: 3
''', s, env=env, a=a, b=b, ln=ln, svc=svc, h=host(r), SVC=svc.upper(), t=pick(r, [5, 10, 30]))


def c_de_email(r, s, kw):
    to = pick(r, ["Jana", "Lukas", "Miriam", "Felix", "Katrin"])
    sender = pick(r, ["Stefan", "Anna", "Tobias", "Julia", "Matthias"])
    return fill('''Betreff: Neuer API-Schlüssel für ⟦svc⟧ (⟦env⟧)

Hallo ⟦to⟧,

wie besprochen habe ich den Schlüssel für die ⟦env⟧-Umgebung neu erzeugt. Der alte ist ab sofort gesperrt.

Neuer Schlüssel: ⟦S⟧

Bitte tragt ihn bis ⟦tag⟧ in eure lokalen Konfigurationen ein und checkt ihn nicht ins Repository ein.

Viele Grüße
⟦sender⟧
''', s, svc=camel(pick(r, SERVICES)), env=pick(r, ["Staging", "Test", "Abnahme"]), to=to,
                tag=pick(r, ["Freitag", "Montag", "Ende der Woche"]), sender=sender)


def c_fr_ticket(r, s, kw):
    return fill('''Ticket n° ⟦n⟧ — Échec d'authentification sur l'environnement de recette
Priorité : ⟦prio⟧
Demandeur : ⟦who⟧

Bonjour,

Depuis la mise en production du ⟦d⟧, les appels vers le service ⟦svc⟧ renvoient une erreur 401.
La clé utilisée actuellement est « ⟦S⟧ » (récupérée dans le coffre de l'équipe).
Pouvez-vous vérifier si elle est toujours active de votre côté ?

Cordialement,
⟦who⟧
''', s, n=r.randint(10000, 99999), prio=pick(r, ["haute", "normale", "critique"]),
                who=pick(r, ["Camille Martin", "Julien Bernard", "Claire Petit", "Nicolas Durand"]),
                d="%02d/%02d/%d" % (r.randint(1, 28), r.randint(1, 12), r.randint(2023, 2025)),
                svc=pick(r, ["de traduction", "de recherche", "de paiement", "OCR", "de notifications"]))


def c_es_wiki(r, s, kw):
    return fill('''## Configuración del entorno de pruebas

1. Clona el repositorio y copia `.env.example` a `.env`.
2. Usa la siguiente clave de acceso para el servicio de ⟦svc⟧ (solo para pruebas):

   ```
   ⟦S⟧
   ```

3. Ejecuta `make dev` y abre http://localhost:⟦port⟧.

> Nota: la clave se rota cada ⟦days⟧ días. Si deja de funcionar, avisa en #⟦chan⟧.
''', s, svc=pick(r, ["búsqueda", "traducción", "facturación", "mapas", "reconocimiento de voz"]),
                port=r.randint(3000, 9000), days=pick(r, [30, 60, 90]), chan=pick(r, ["plataforma", "backend", "soporte-dev"]))


def c_ja_runbook(r, s, kw):
    return fill('''## 障害対応手順（⟦svc⟧連携）

1. 管理画面にログインし、「APIキー」タブを開く。
2. 以下の一時キーで疎通確認を行う。
   キー：⟦S⟧
3. 応答が ⟦code⟧ 以外の場合は、⟦team⟧に再発行を依頼する。

※このキーは⟦env⟧環境専用です。本番環境では使用しないでください。
''', s, svc=pick(r, ["検索", "翻訳", "決済", "音声認識", "通知"]), code=pick(r, ["200", "200 OK"]),
                team=pick(r, ["基盤チーム", "インフラ担当", "開発リーダー"]), env=pick(r, ["検証", "ステージング", "開発"]))


def c_zh_chat(r, s, kw):
    a, b = pick(r, ["王磊", "李娜", "张伟", "陈静"]), pick(r, ["刘洋", "赵敏", "孙浩", "周婷"])
    hh, mm = r.randint(9, 18), r.randint(0, 55)
    return fill('''[⟦t0⟧] ⟦a⟧：⟦env⟧环境的⟦svc⟧密钥是不是又过期了？调接口一直返回 401
[⟦t1⟧] ⟦b⟧：刚换了新的，先用这个：⟦S⟧
[⟦t1⟧] ⟦b⟧：别提交到代码仓库里，下周统一迁到密钥管理服务。
[⟦t2⟧] ⟦a⟧：收到，已经可以了，谢谢！
''', s, t0="%02d:%02d" % (hh, mm), t1="%02d:%02d" % (hh, mm + 2), t2="%02d:%02d" % (hh, mm + 4), a=a, b=b,
                env=pick(r, ["测试", "预发", "开发"]), svc=pick(r, ["翻译服务", "搜索服务", "短信", "大模型接口"]))


def c_pt_ticket(r, s, kw):
    return fill('''Chamado #⟦n⟧ - Integração com ⟦svc⟧ retornando 403
Solicitante: ⟦who⟧
Prioridade: ⟦prio⟧

Olá, equipe de suporte.

Desde ontem a integração no ambiente de homologação está recebendo 403 Forbidden.
Segue a chave que estamos usando: ⟦S⟧
Já conferimos o IP de saída e ele está liberado no painel.

Obrigado,
⟦who⟧
''', s, n=r.randint(1000, 99999), svc=camel(pick(r, SERVICES)),
                who=pick(r, ["Rafael Souza", "Mariana Lima", "Tiago Alves", "Beatriz Costa"]),
                prio=pick(r, ["Alta", "Média", "Urgente"]))


def c_ru_chat(r, s, kw):
    a, b = pick(r, ["Алексей", "Мария", "Игорь", "Ольга"]), pick(r, ["Дмитрий", "Анна", "Сергей", "Елена"])
    return fill('''⟦a⟧: Коллеги, у кого есть актуальный ключ для ⟦svc⟧ на ⟦env⟧ стенде?
⟦b⟧: Держи: ⟦S⟧
⟦b⟧: Только не коммить его, пожалуйста, в пятницу перенесём всё в Vault.
⟦a⟧: Спасибо, заработало 👍
''', s, a=a, b=b, svc=pick(r, ["поиска", "переводчика", "платёжного шлюза", "рассылок"]),
                env=pick(r, ["тестовом", "дев", "предпрод"]))


# (context id, template, accepts only URL-safe values)
CONTEXTS = [
    ("k8s-secret-stringdata", c_k8s_secret, False),
    ("systemd-unit-environment", c_systemd_unit, False),
    ("npmrc-auth-token", c_npmrc, False),
    ("dotnet-appsettings-connection-string", c_dotnet_connstr, False),
    ("mcp-server-config-env", c_mcp_config, False),
    ("python-client-constructor", c_py_client_ctor, False),
    ("python-settings-getenv-default", c_py_getenv_default, False),
    ("js-fetch-headers", c_js_fetch, False),
    ("java-client-builder", c_java_builder, False),
    ("csharp-httpclient-default-headers", c_csharp_headers, False),
    ("go-config-struct-literal", c_go_struct, False),
    ("rust-test-module", c_rust_test, False),
    ("spring-value-annotation-default", c_spring_value, False),
    ("php-laravel-services-env-default", c_php_services, False),
    ("ruby-rails-initializer", c_ruby_initializer, False),
    ("pytest-monkeypatch-setenv", c_pytest_monkeypatch, False),
    ("curl-header-with-output", c_curl_header, False),
    ("shell-history-secret-set", c_shell_history, False),
    ("docker-run-env-flag", c_docker_run, False),
    ("kubectl-create-secret-literal", c_kubectl_literal, False),
    ("powershell-invoke-restmethod", c_powershell, False),
    ("access-log-query-string", c_access_log, True),
    ("python-debug-log-request-headers", c_py_debug_log, False),
    ("docker-inspect-env-output", c_docker_inspect, False),
    ("ci-log-shell-xtrace", c_ci_log_xtrace, False),
    ("github-actions-step-env", c_gha_workflow, False),
    ("terraform-function-app-settings", c_terraform_app_settings, False),
    ("raw-http-request", c_raw_http_request, False),
    ("http-response-created-key", c_http_response_key, False),
    ("sql-insert-seed", c_sql_insert, False),
    ("pg-dump-copy-block", c_pg_dump_copy, False),
    ("csv-export", c_csv_export, False),
    ("markdown-wiki-table", c_markdown_table, False),
    ("email-en", c_email_en, False),
    ("chat-transcript-en", c_chat_en, False),
    ("issue-ticket-en", c_jira_ticket, False),
    ("unified-diff-config", c_unified_diff, False),
    ("email-de", c_de_email, False),
    ("ticket-fr", c_fr_ticket, False),
    ("wiki-setup-es", c_es_wiki, False),
    ("runbook-ja", c_ja_runbook, False),
    ("chat-zh", c_zh_chat, False),
    ("ticket-pt", c_pt_ticket, False),
    ("chat-ru", c_ru_chat, False),
]


# --------------------------------------------------------------------------
# provider keyword recovered from the source row's text
# --------------------------------------------------------------------------

KW_PATTERNS = [
    re.compile(r'^(?:export\s+)?([A-Z0-9]+)_(?:API_KEY|ACCESS_KEY|TOKEN)\s*='),
    re.compile(r'^"([a-z0-9]+)_secret"\s*:'),
    re.compile(r'^([a-z0-9]+)\.auth\.token\s*:'),
    re.compile(r'^([a-z0-9]+)Token\s*:='),
    re.compile(r'^<add key="([a-z0-9]+)_key"'),
]


def keyword(text):
    for p in KW_PATTERNS:
        m = p.match(text.strip())
        if m:
            return m.group(1).lower()
    raise ValueError("no provider keyword in %r" % text)


# --------------------------------------------------------------------------
# assignment and output
# --------------------------------------------------------------------------

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def main():
    ids = [c[0] for c in CONTEXTS]
    assert len(ids) == len(set(ids)) and 40 <= len(ids) <= 45

    pools = {}
    for tag, fname in SOURCES:
        pools[tag] = [dict(r, _kw=keyword(r["text"])) for r in load(fname)]
    total = sum(len(v) for v in pools.values())
    n = len(CONTEXTS)
    rng = random.Random(SEED)
    for tag, _ in SOURCES:
        rng.shuffle(pools[tag])

    # quotas: per-context size, then per-source share (both sources in each)
    order = list(range(n))
    rng.shuffle(order)
    size = [total // n] * n
    for i in order[: total - sum(size)]:
        size[i] += 1
    n_titus = len(pools["titus"])
    t_quota = [1] * n
    extra = n_titus - n
    # give a second titus value to the larger contexts first, in seeded order
    cand = sorted(range(n), key=lambda i: (-size[i], order.index(i)))
    for i in cand[:extra]:
        t_quota[i] += 1
    assert sum(t_quota) == n_titus
    m_quota = [size[i] - t_quota[i] for i in range(n)]
    assert all(q >= 1 for q in m_quota) and sum(m_quota) == len(pools["microsoft"])

    def take(tag, url_only):
        pool = pools[tag]
        for j, row in enumerate(pool):
            if not url_only or URL_SAFE.match(row["secret"]):
                return pool.pop(j)
        raise RuntimeError("pool %s exhausted for url_only=%s" % (tag, url_only))

    assigned = [[] for _ in range(n)]
    # URL-only contexts draw first so they get URL-safe values
    for i in sorted(range(n), key=lambda i: (not CONTEXTS[i][2], i)):
        url_only = CONTEXTS[i][2]
        for _ in range(m_quota[i]):
            assigned[i].append(take("microsoft", url_only))
        for _ in range(t_quota[i]):
            assigned[i].append(take("titus", url_only))
    assert not pools["microsoft"] and not pools["titus"]

    out_rows = []
    k = 0
    for i, (cid, fn, url_only) in enumerate(CONTEXTS):
        for row in assigned[i]:
            r = random.Random(SEED * 100003 + k)
            k += 1
            s = row["secret"]
            if url_only:
                assert URL_SAFE.match(s)
            text = fn(r, s, row["_kw"])
            assert text.count(s) == 1, (cid, s)
            out_rows.append({
                "text": text,
                "label": "risk",
                "kind": row["kind"],
                "secret": s,
                "source": SOURCE_TAG,
                "context": cid,
            })
    texts = [r["text"] for r in out_rows]
    assert len(set(texts)) == len(texts)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for row in out_rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("wrote %d rows in %d contexts to %s" % (len(out_rows), n, OUT))


if __name__ == "__main__":
    main()
