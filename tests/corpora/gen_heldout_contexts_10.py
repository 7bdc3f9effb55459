#!/usr/bin/env python3
"""Generate heldout-credentials-contexts-10.jsonl.

Takes the 216 credential values of heldout-credentials-microsoft.jsonl and
heldout-credentials-titus.jsonl and places each one, exactly once, into one of
a fixed list of hand-written contexts (configuration files, source code,
command lines, tool output, CI definitions, HTTP traffic, database text,
tables, documents and messages in several human languages).

Standard library only; seeded and deterministic (no set iteration, no clock,
no hash-dependent ordering).  Run with no arguments from anywhere:

    python3 tests/corpora/gen_heldout_contexts_10.py
"""

import json
import os
import random
import re
from datetime import date, timedelta

SEED = 1010
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [
    ("ms", os.path.join(HERE, "heldout-credentials-microsoft.jsonl")),
    ("ti", os.path.join(HERE, "heldout-credentials-titus.jsonl")),
]
OUT = os.path.join(HERE, "heldout-credentials-contexts-10.jsonl")
SOURCE_TAG = "heldout-contexts-10"
URL_SAFE = re.compile(r"^[A-Za-z0-9._~-]+$")

DISPLAY = {
    "sqlprivatedefault": "Azure SQL",
    "azurefunction": "Azure Functions",
    "azuresearch": "Azure AI Search",
    "azurerelay": "Azure Relay",
    "azureeventhub": "Azure Event Hubs",
    "azureservicebus": "Azure Service Bus",
    "azureiothub": "Azure IoT Hub",
    "azureiotdevice": "Azure IoT Device",
    "azurestorageaccount": "Azure Storage",
    "azurecosmosdb": "Azure Cosmos DB",
    "azurebatch": "Azure Batch",
    "azuremlweb": "Azure ML Web Service",
    "azureapim": "Azure API Management",
    "azurecacheredis": "Azure Cache for Redis",
    "azurecontainerregistry": "Azure Container Registry",
    "azureeventgrid": "Azure Event Grid",
    "azureappconfiguration": "Azure App Configuration",
    "azurefluidrelay": "Azure Fluid Relay",
    "azuremixedreality": "Azure Mixed Reality",
    "azuremaps": "Azure Maps",
    "azurecommunicationservices": "Azure Communication Services",
    "azureaiservices": "Azure AI Services",
    "azureopenai": "Azure OpenAI",
    "azureanomalydetector": "Azure Anomaly Detector",
    "azurecognitiveservices": "Azure Cognitive Services",
    "azurecomputervision": "Azure Computer Vision",
    "azurecontentmoderator": "Azure Content Moderator",
    "azurecontentsafety": "Azure Content Safety",
    "azurecustomvision": "Azure Custom Vision",
    "azureface": "Azure Face",
    "azureformrecognizer": "Azure Form Recognizer",
    "azurehealthdecision": "Azure Health Decision Support",
    "azurehealthinsights": "Azure Health Insights",
    "azureimmersivereader": "Azure Immersive Reader",
    "azureinternalall": "Azure AI All-in-One",
    "azureknowledge": "Azure Knowledge",
    "azureluisauthoring": "LUIS Authoring",
    "azureluis": "LUIS",
    "azuremetricsadvisor": "Azure Metrics Advisor",
    "azurepersonalizer": "Azure Personalizer",
    "azureqna": "QnA Maker",
    "azurespeakerrecognition": "Azure Speaker Recognition",
    "azurespeechservices": "Azure Speech",
    "azurespeechtranslation": "Azure Speech Translation",
    "azuretextanalytics": "Azure Text Analytics",
    "azuretexttranslation": "Azure Translator",
    "azuretranscriptionintelligence": "Azure Transcription Intelligence",
    "azurevideointelligence": "Azure Video Indexer",
    "azurebingautosuggest": "Bing Autosuggest",
    "azurebingautosuggestv": "Bing Autosuggest v7",
    "azurebingcustom": "Bing Custom Search",
    "azurebingentity": "Bing Entity Search",
    "azurebingsearch": "Bing Search",
    "azurebingsearchv": "Bing Search v7",
    "azurebingspeech": "Bing Speech",
    "azurebingspell": "Bing Spell Check",
    "baseten": "Baseten",
    "browserstack": "BrowserStack",
    "cerebras": "Cerebras",
    "clay": "Clay",
    "coderabbit": "CodeRabbit",
    "coze": "Coze",
    "cursor": "Cursor",
    "customerio": "Customer.io",
    "cypress": "Cypress Cloud",
    "deepseek": "DeepSeek",
    "deviantart": "DeviantArt",
    "exa": "Exa",
    "fireworks": "Fireworks AI",
    "freshdesk": "Freshdesk",
    "friendli": "FriendliAI",
    "instantly": "Instantly",
    "iterable": "Iterable",
    "keenio": "Keen IO",
    "langchain": "LangSmith",
    "lark": "Lark",
    "mergify": "Mergify",
    "mistral": "Mistral",
    "ollama": "Ollama",
    "openrouter": "OpenRouter",
    "pendo": "Pendo",
    "resend": "Resend",
    "retellai": "Retell AI",
    "riot": "Riot Games",
    "runway": "Runway",
    "stabilityai": "Stability AI",
    "together": "Together AI",
    "vastai": "Vast.ai",
    "wakatime": "WakaTime",
    "wpengine": "WP Engine",
    "zhipu": "Zhipu AI",
    "zuplo": "Zuplo",
}


class Item(object):
    """One credential value and what we know about its provider."""

    def __init__(self, src, row):
        self.src = src
        self.row = row
        self.secret = row["secret"]
        self.kind = row["kind"]
        m = re.match(r'^(?:export\s+)?(?:<add key=")?"?([A-Za-z]+)', row["text"])
        kw = m.group(1) if m else "service"
        if kw.endswith("Token"):
            kw = kw[: -len("Token")]
        self.kw = kw.lower()
        self.disp = DISPLAY.get(self.kw, self.kw.capitalize())
        words = [w for w in re.split(r"[^A-Za-z0-9]+", self.disp) if w]
        self.env = "_".join(w.upper() for w in words)
        self.camel = "".join(w[0].upper() + w[1:] for w in words)
        self.slug = "-".join(w.lower() for w in words)
        self.url_safe = bool(URL_SAFE.match(self.secret))


def fill(tpl, **vals):
    out = tpl
    for k, v in vals.items():
        out = out.replace("<<" + k + ">>", str(v))
    if "<<" in out and ">>" in out and re.search(r"<<[a-z_0-9]+>>", out):
        raise ValueError("unfilled placeholder in template: %r" % out[:200])
    return out


# ---------------------------------------------------------------- helpers

FIRST = ["Alice", "Marcus", "Priya", "Jonas", "Mei", "Tomas", "Sofia", "Daniel",
         "Aisha", "Lukas", "Hannah", "Ravi", "Elena", "Kenji", "Chloe", "Omar",
         "Grace", "Viktor", "Nadia", "Ben"]
LAST = ["Nguyen", "Keller", "Okafor", "Lindqvist", "Rossi", "Patel", "Moreau",
        "Kowalski", "Tanaka", "Fischer", "Haddad", "Brennan", "Silva", "Novak"]
COMPANY = ["contoso.com", "fabrikam.io", "northwind.dev", "globex.net",
           "initech.cloud", "tailspin.io", "adatum.com", "wingtip.dev"]
APP = ["ledger", "courier", "atlas", "beacon", "harbor", "orbit", "quill",
       "relay-svc", "pulse", "sprout", "tundra", "nimbus"]
NS = ["default", "prod", "staging", "platform", "ml-serving", "integrations",
      "data", "backend"]
ENVS = ["dev", "staging", "prod", "qa", "sandbox", "uat"]
AZ_DOMAINS = ["cognitiveservices.azure.com", "openai.azure.com",
              "azure-api.net", "search.windows.net", "api.cognitive.microsoft.com"]
REGIONS = ["westeurope", "eastus2", "northeurope", "swedencentral",
           "uksouth", "westus3", "japaneast", "francecentral"]
PATHS = ["search", "completions", "translate", "analyze", "events", "sessions",
         "embeddings", "jobs", "contacts", "sync", "detect", "query"]
UAS = ["python-requests/2.31.0", "python-httpx/0.27.0", "axios/1.6.8",
       "okhttp/4.12.0", "Go-http-client/2.0", "curl/8.5.0", "node-fetch/1.0"]
KEY_HEADERS = ["Ocp-Apim-Subscription-Key", "api-key", "X-API-Key", "x-api-key",
               "Authorization"]


def person(r):
    return r.choice(FIRST), r.choice(LAST)


def email_of(first, last, dom):
    return "%s.%s@%s" % (first.lower(), last.lower(), dom)


def rdate(r):
    return date(2023, 1, 1) + timedelta(days=r.randrange(900))


def rtime(r):
    return "%02d:%02d:%02d" % (r.randrange(7, 20), r.randrange(60), r.randrange(60))


def rhex(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def ruuid(r):
    return "%s-%s-4%s-%s%s-%s" % (rhex(r, 8), rhex(r, 4), rhex(r, 3),
                                 r.choice("89ab"), rhex(r, 3), rhex(r, 12))


def host_for(r, x, use_kw=False):
    """An endpoint host plausible for the value's provider."""
    res = r.choice(APP).replace("-", "") + "-" + r.choice(ENVS)
    if x.src == "ms":
        return "%s.%s" % (res, r.choice(AZ_DOMAINS))
    if use_kw:
        return "api.%s.%s" % (x.kw, r.choice(["com", "ai", "io"]))
    return "gateway.%s" % r.choice(COMPANY)


def header_line(r, x, sep=": "):
    h = r.choice(KEY_HEADERS)
    if h == "Authorization":
        return h, h + sep + "Bearer " + x.secret
    return h, h + sep + x.secret


def header_pair(r, x):
    h = r.choice(KEY_HEADERS)
    if h == "Authorization":
        return h, "Bearer " + x.secret
    return h, x.secret


# ---------------------------------------------------------------- contexts
# Each context: (id, function(r, item) -> text, needs_url_safe, note).


def c_k8s_secret(r, x):
    app = r.choice(APP)
    key = r.choice(["%s-api-key" % x.slug, "%s_token" % x.env.lower(), "apiKey"])
    return fill("""apiVersion: v1
kind: Secret
metadata:
  name: <<app>>-credentials
  namespace: <<ns>>
  labels:
    app.kubernetes.io/name: <<app>>
    app.kubernetes.io/managed-by: kustomize
type: Opaque
stringData:
  endpoint: https://<<host>>
  <<key>>: "<<secret>>"
  log-level: <<lvl>>
""", app=app, ns=r.choice(NS), host=host_for(r, x, True), key=key, secret=x.secret,
                lvl=r.choice(["info", "debug", "warn"]))


def c_compose(r, x):
    svc = r.choice(APP)
    var = r.choice([x.env + "_API_KEY", "UPSTREAM_API_KEY", "INFERENCE_TOKEN",
                    "PROVIDER_KEY"])
    return fill("""services:
  <<svc>>:
    image: ghcr.io/<<org>>/<<svc>>:<<ver>>
    restart: unless-stopped
    ports:
      - "<<port>>:8080"
    environment:
      - NODE_ENV=production
      - REDIS_URL=redis://cache:6379/0
      - <<var>>=<<secret>>
      - LOG_FORMAT=json
    depends_on:
      - cache
  cache:
    image: redis:7-alpine
    volumes:
      - redis-data:/data
volumes:
  redis-data:
""", svc=svc, org=r.choice(COMPANY).split(".")[0], ver="%d.%d.%d" % (
        r.randrange(1, 4), r.randrange(20), r.randrange(10)),
                port=r.choice([3000, 8081, 9000, 5005]), var=var, secret=x.secret)


def c_terraform(r, x):
    proj = r.choice(APP)
    env = r.choice(ENVS)
    if r.random() < 0.5:
        return fill("""resource "azurerm_linux_function_app" "<<proj_u>>" {
  name                       = "func-<<proj>>-<<env>>"
  resource_group_name        = azurerm_resource_group.main.name
  location                   = azurerm_resource_group.main.location
  service_plan_id            = azurerm_service_plan.main.id
  storage_account_name       = azurerm_storage_account.fn.name
  storage_account_access_key = azurerm_storage_account.fn.primary_access_key

  site_config {
    application_stack {
      python_version = "3.11"
    }
  }

  app_settings = {
    "FUNCTIONS_WORKER_RUNTIME" = "python"
    "<<var>>" = "<<secret>>"
    "WEBSITE_RUN_FROM_PACKAGE" = "1"
  }
}
""", proj_u=proj.replace("-", "_"), proj=proj, env=env,
                    var=x.env + "_KEY", secret=x.secret)
    return fill("""resource "aws_lambda_function" "<<proj_u>>" {
  function_name = "<<proj>>-<<env>>"
  role          = aws_iam_role.lambda_exec.arn
  handler       = "main.handler"
  runtime       = "python3.12"
  timeout       = 30
  filename      = data.archive_file.lambda.output_path

  environment {
    variables = {
      STAGE          = "<<env>>"
      <<var>> = "<<secret>>"
      LOG_LEVEL      = "INFO"
    }
  }
}
""", proj_u=proj.replace("-", "_"), proj=proj, env=env,
                var=x.env + "_API_KEY", secret=x.secret)


def c_npmrc(r, x):
    host = r.choice(["pkgs.dev.azure.com/%s/_packaging/feed/npm/registry" % r.choice(APP),
                     "npm.pkg.%s" % r.choice(COMPANY),
                     "%s.jfrog.io/artifactory/api/npm/npm-local" % r.choice(APP)])
    scope = r.choice(APP).replace("-", "")
    return fill("""registry=https://registry.npmjs.org/
@<<scope>>:registry=https://<<host>>/
//<<host>>/:_authToken=<<secret>>
always-auth=true
save-exact=true
engine-strict=true
""", scope=scope, host=host, secret=x.secret)


def c_netrc(r, x):
    f, l = person(r)
    dom = r.choice(COMPANY)
    h1 = r.choice(["git.%s" % dom, "artifacts.%s" % dom, host_for(r, x, False)])
    return fill("""machine <<h1>>
  login <<login>>
  password <<secret>>

machine ftp.<<dom>>
  login anonymous
  password <<mail>>

default
  login anonymous
""", h1=h1, login=r.choice(["apikey", "token", f.lower(), "ci-bot"]),
                secret=x.secret, dom=dom, mail=email_of(f, l, dom))


def c_appsettings(r, x):
    section = x.camel if r.random() < 0.6 else r.choice(["Upstream", "Provider", "Ai"])
    doc = {
        "Logging": {"LogLevel": {"Default": "Information",
                                 "Microsoft.AspNetCore": "Warning"}},
        "AllowedHosts": "*",
        section: {
            "Endpoint": "https://%s/" % host_for(r, x, True),
            r.choice(["ApiKey", "Key", "SubscriptionKey"]): x.secret,
            "TimeoutSeconds": r.choice([10, 30, 60]),
        },
        "ConnectionStrings": {
            "Default": "Server=tcp:sql-%s.database.windows.net,1433;Database=%s;"
                       "Authentication=Active Directory Default;" % (
                           r.choice(APP), r.choice(APP).replace("-", ""))
        },
    }
    return json.dumps(doc, indent=2) + "\n"


def c_local_settings(r, x):
    ns = r.choice(APP).replace("-", "") + r.choice(["-sb", "-hub", "ns", "-prod"])
    kind = r.randrange(4) if x.src == "ms" else 3
    if kind == 0:
        conn = ("Endpoint=sb://%s.servicebus.windows.net/;SharedAccessKeyName="
                "RootManageSharedAccessKey;SharedAccessKey=%s" % (ns, x.secret))
        name = "ServiceBusConnection"
    elif kind == 1:
        conn = ("DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;"
                "EndpointSuffix=core.windows.net" % (ns.replace("-", ""), x.secret))
        name = "BlobStorage"
    elif kind == 2:
        conn = ("HostName=%s.azure-devices.net;SharedAccessKeyName=iothubowner;"
                "SharedAccessKey=%s" % (ns, x.secret))
        name = "IoTHubConnection"
    else:
        conn = "Endpoint=https://%s/;Id=%s;Secret=%s" % (host_for(r, x), rhex(r, 4), x.secret)
        name = r.choice(["UpstreamConnection", "ProviderConnection", "ApiConnection"])
    doc = {
        "IsEncrypted": False,
        "Values": {
            "AzureWebJobsStorage": "UseDevelopmentStorage=true",
            "FUNCTIONS_WORKER_RUNTIME": r.choice(["dotnet-isolated", "node", "python"]),
            name: conn,
            "QueueName": r.choice(["orders", "telemetry", "ingest", "jobs"]),
        },
        "Host": {"LocalHttpPort": 7071, "CORS": "*"},
    }
    return json.dumps(doc, indent=2) + "\n"


def c_nginx(r, x):
    up = host_for(r, x)
    h, v = header_pair(r, x)
    return fill("""    location /api/<<path>>/ {
        proxy_pass https://<<up>>/;
        proxy_set_header Host <<up>>;
        proxy_set_header <<h>> "<<v>>";
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_ssl_server_name on;
        proxy_read_timeout <<t>>s;
    }
""", path=r.choice(PATHS), up=up, h=h, v=v, t=r.choice([30, 60, 120]))


def c_github_actions(r, x):
    var = r.choice([x.env + "_API_KEY", "API_KEY", x.env + "_TOKEN"])
    return fill("""name: nightly-<<job>>
on:
  schedule:
    - cron: "<<m>> <<h>> * * *"
  workflow_dispatch:

jobs:
  <<job>>:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: pip install -r requirements.txt
      - name: Run <<job>>
        run: python scripts/<<job>>.py --suite <<suite>>
        env:
          <<var>>: "<<secret>>"  # TODO: move to repo secrets
          OUTPUT_DIR: results/
""", job=r.choice(["eval", "sync", "smoke", "export", "backfill"]),
                m=r.randrange(60), h=r.randrange(24), var=var, secret=x.secret,
                suite=r.choice(["full", "regression", "quick"]))


def c_python_ctor(r, x):
    if x.src == "ms":
        cls = r.choice(["TextAnalyticsClient", "SearchClient", "DocumentAnalysisClient",
                        "ContentSafetyClient", "ImageAnalysisClient"])
        return fill("""import os

from azure.core.credentials import AzureKeyCredential


def make_client() -> <<cls>>:
    return <<cls>>(
        endpoint=os.environ.get("<<env>>", "https://<<host>>/"),
        credential=AzureKeyCredential("<<secret>>"),
    )
""", cls=cls, env=r.choice(["AI_ENDPOINT", "SERVICE_ENDPOINT", "COGNITIVE_ENDPOINT"]),
                host=host_for(r, x), secret=x.secret)
    return fill("""def make_client() -> <<cls>>:
    return <<cls>>(
        base_url="https://<<host>>/v1",
        api_key="<<secret>>",
        max_retries=<<n>>,
        timeout=<<t>>,
    )
""", cls=r.choice(["ApiClient", "Client", "AsyncClient"]),
                host=host_for(r, x), secret=x.secret, n=r.randrange(2, 6),
                t=r.choice(["30.0", "60", "httpx.Timeout(10.0)"]))


def c_js_fetch(r, x):
    h, v = header_pair(r, x)
    fn = r.choice(["callUpstream", "runQuery", "sendEvent", "fetchResults"])
    return fill("""const BASE_URL = "https://<<host>>";

export async function <<fn>>(payload) {
  const res = await fetch(`${BASE_URL}/v1/<<path>>`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "<<h>>": "<<v>>",
    },
    body: JSON.stringify(payload),
  });
  if (!res.ok) throw new Error(`upstream returned ${res.status}`);
  return res.json();
}
""", host=host_for(r, x), fn=fn, path=r.choice(PATHS), h=h, v=v)


def c_java_builder(r, x):
    if x.src == "ms" and r.random() < 0.7:
        cls = r.choice(["TextAnalyticsClient", "SearchClient", "OpenAIClient",
                        "DocumentAnalysisClient"])
        return fill("""    @Bean
    public <<cls>> <<var>>() {
        return new <<cls>>Builder()
            .endpoint("https://<<host>>/")
            .credential(new AzureKeyCredential("<<secret>>"))
            .httpLogOptions(new HttpLogOptions().setLogLevel(HttpLogDetailLevel.BASIC))
            .buildClient();
    }
""", cls=cls, var=cls[0].lower() + cls[1:], host=host_for(r, x), secret=x.secret)
    h, v = header_pair(r, x)
    return fill("""        Request request = new Request.Builder()
            .url("https://<<host>>/v1/<<path>>")
            .addHeader("<<h>>", "<<v>>")
            .addHeader("Accept", "application/json")
            .post(RequestBody.create(json, MediaType.get("application/json")))
            .build();
        try (Response response = httpClient.newCall(request).execute()) {
""", host=host_for(r, x), path=r.choice(PATHS), h=h, v=v)


def c_csharp_fallback(r, x):
    name = r.choice(["upstream", "provider", "inference"])
    return fill("""var builder = WebApplication.CreateBuilder(args);

var apiKey = Environment.GetEnvironmentVariable("<<env>>") ?? "<<secret>>";
builder.Services.AddHttpClient("<<name>>", c =>
{
    c.BaseAddress = new Uri("https://<<host>>/");
    c.DefaultRequestHeaders.Add("<<h>>", apiKey);
    c.Timeout = TimeSpan.FromSeconds(<<t>>);
});
""", env=r.choice(["API_KEY", "UPSTREAM_API_KEY", "SERVICE_KEY"]),
                secret=x.secret, name=name, host=host_for(r, x),
                h=r.choice(["api-key", "Ocp-Apim-Subscription-Key", "X-Api-Key"]),
                t=r.choice([15, 30, 100]))


def c_go_struct(r, x):
    return fill("""func defaultConfig() *Config {
	return &Config{
		BaseURL:    "https://<<host>>",
		APIKey:     "<<secret>>",
		Timeout:    <<t>> * time.Second,
		MaxRetries: <<n>>,
		UserAgent:  "<<app>>/<<ver>>",
	}
}
""", host=host_for(r, x), secret=x.secret, t=r.choice([10, 30, 60]),
                n=r.randrange(1, 6), app=r.choice(APP),
                ver="%d.%d" % (r.randrange(4), r.randrange(20)))


def c_rust_header(r, x):
    h, v = header_pair(r, x)
    return fill("""    let resp = client
        .post(format!("{}/v1/<<path>>", base_url))
        .header("<<h>>", "<<v>>")
        .header(CONTENT_TYPE, "application/json")
        .json(&body)
        .send()
        .await?
        .error_for_status()?;
""", path=r.choice(PATHS), h=h.lower() if h != "Authorization" else "authorization",
                v=v)


def c_php_laravel(r, x):
    return fill("""<?php

return [

    'mailgun' => [
        'domain' => env('MAILGUN_DOMAIN'),
        'secret' => env('MAILGUN_SECRET'),
    ],

    '<<kw>>' => [
        'endpoint' => env('<<env>>_ENDPOINT', 'https://<<host>>'),
        'key' => env('<<env>>_KEY', '<<secret>>'),
        'timeout' => <<t>>,
    ],

];
""", kw=x.slug.replace("-", "_"), env=x.env, host=host_for(r, x, True),
                secret=x.secret, t=r.choice([5, 15, 30]))


def c_ruby_configure(r, x):
    return fill("""# config/initializers/<<file>>.rb
<<mod>>.configure do |config|
  config.api_key = ENV.fetch("<<env>>_API_KEY", "<<secret>>")
  config.timeout = <<t>>
  config.logger  = Rails.logger
end
""", file=x.slug.replace("-", "_"), mod=x.camel, env=x.env, secret=x.secret,
                t=r.choice([5, 10, 20]))


def c_pytest(r, x):
    fn = r.choice(["search", "ingest", "translate", "notify", "score"])
    return fill("""@pytest.fixture(autouse=True)
def _provider_env(monkeypatch):
    monkeypatch.setenv("<<var>>", "<<secret>>")
    monkeypatch.setenv("UPSTREAM_BASE_URL", "http://localhost:<<port>>")


def test_<<fn>>_sends_key(httpx_mock):
    httpx_mock.add_response(json={"ok": True})
    assert <<fn>>("hello")["ok"]
""", var=r.choice([x.env + "_API_KEY", "API_KEY", "SERVICE_TOKEN"]),
                secret=x.secret, port=r.choice([8080, 9999, 5001]), fn=fn)


def c_spring_value(r, x):
    prop = r.choice(["upstream", "provider", "search", "inference"])
    cls = r.choice(["SearchGateway", "InferenceService", "NotificationClient", "SyncService"])
    return fill("""@Service
public class <<cls>> {

    private final RestClient http;

    public <<cls>>(
            @Value("${<<prop>>.base-url:https://<<host>>}") String baseUrl,
            @Value("${<<prop>>.api-key:<<secret>>}") String apiKey) {
        this.http = RestClient.builder()
            .baseUrl(baseUrl)
            .defaultHeader("<<h>>", apiKey)
            .build();
    }
""", cls=cls, prop=prop, host=host_for(r, x), secret=x.secret,
                h=r.choice(["api-key", "X-API-Key", "Ocp-Apim-Subscription-Key"]))


def c_notebook(r, x):
    var = r.choice(["API_KEY", "SERVICE_KEY", "MODEL_API_KEY"])
    cell = {
        "cell_type": "code",
        "execution_count": r.randrange(1, 12),
        "id": rhex(r, 8),
        "metadata": {},
        "outputs": [],
        "source": [
            "import os\n",
            "os.environ[\"%s\"] = \"%s\"\n" % (var, x.secret),
            "client = %s()\n" % r.choice(["Client", "make_client", "ApiClient"]),
            "resp = client.%s(%r)" % (r.choice(["search", "run", "analyze"]),
                                      r.choice(["hello world", "test doc", "q3 report"])),
        ],
    }
    return json.dumps(cell, indent=1) + ",\n"


def c_curl(r, x):
    h, line = header_line(r, x)
    return fill("""$ curl -sS -X POST "https://<<host>>/v1/<<path>>" \\
    -H "Content-Type: application/json" \\
    -H "<<line>>" \\
    -d '{"query": "<<q>>", "top": <<n>>}' | jq .
""", host=host_for(r, x, r.random() < 0.5), path=r.choice(PATHS), line=line,
                q=r.choice(["invoice 2291", "reset password", "hello"]),
                n=r.choice([3, 5, 10]))


def c_bash_history(r, x):
    n = r.randrange(300, 1900)
    var = r.choice(["API_KEY", "TOKEN", "UPSTREAM_KEY"])
    img = r.choice(APP)
    style = r.randrange(2)
    if style == 0:
        cmd = "docker run --rm -p 8080:8080 -e %s=%s %s:latest" % (var, x.secret, img)
    else:
        cmd = "%s=%s npm run dev" % (var, x.secret)
    lines = ["cd ~/src/%s" % img, "git pull --rebase", "git status", cmd,
             "curl -s localhost:8080/healthz", "history | tail -20"]
    return "".join("%5d  %s\n" % (n + i, c) for i, c in enumerate(lines))


def c_secret_cli(r, x):
    which = r.randrange(4)
    name = r.choice(["%s-api-key" % x.slug, "upstream-key", "provider-token"])
    if which == 0:
        return fill("""kubectl -n <<ns>> create secret generic <<app>>-secrets \\
  --from-literal=<<name>>=<<secret>> \\
  --from-literal=endpoint=https://<<host>> \\
  --dry-run=client -o yaml | kubectl apply -f -
""", ns=r.choice(NS), app=r.choice(APP), name=name, secret=x.secret, host=host_for(r, x))
    if which == 1:
        return fill("""gh secret set <<var>> --repo <<org>>/<<app>> --body "<<secret>>"
gh secret list --repo <<org>>/<<app>>
""", var=x.env + "_API_KEY", org=r.choice(COMPANY).split(".")[0], app=r.choice(APP),
                    secret=x.secret)
    if which == 2:
        return fill("""az keyvault secret set --vault-name kv-<<app>>-<<env>> --name <<name>> --value "<<secret>>" --output none
az keyvault secret show --vault-name kv-<<app>>-<<env>> --name <<name>> --query id -o tsv
""", app=r.choice(APP), env=r.choice(ENVS), name=name, secret=x.secret)
    return fill("""vault kv put secret/<<app>>/<<env>> <<k>>=<<secret>> endpoint=https://<<host>>
vault kv get -field=endpoint secret/<<app>>/<<env>>
""", app=r.choice(APP), env=r.choice(ENVS), k=r.choice(["api_key", "token", "key"]),
                secret=x.secret, host=host_for(r, x))


def c_powershell(r, x):
    h = r.choice(["Ocp-Apim-Subscription-Key", "api-key", "X-Api-Key"])
    return fill("""$headers = @{
    "<<h>>" = "<<secret>>"
    "Content-Type" = "application/json"
}
$body = @{ documents = @(@{ id = "1"; language = "<<lang>>"; text = "<<text>>" }) } | ConvertTo-Json -Depth 4
$resp = Invoke-RestMethod -Method Post -Uri "https://<<host>>/<<path>>" -Headers $headers -Body $body
$resp.documents | Format-Table
""", h=h, secret=x.secret, lang=r.choice(["en", "de", "fr"]),
                text=r.choice(["The delivery was late again.", "Great support team!",
                               "Cannot log in since Monday."]),
                host=host_for(r, x), path=r.choice(PATHS))


def c_debug_log(r, x):
    d = rdate(r)
    hh, mm, ss = r.randrange(24), r.randrange(60), r.randrange(60)
    ms = r.randrange(1000)
    ts = "%s %02d:%02d:%02d,%03d" % (d.isoformat(), hh, mm, ss, ms)
    ts2 = "%s %02d:%02d:%02d,%03d" % (d.isoformat(), hh, mm, ss, min(999, ms + r.randrange(1, 400)))
    host = host_for(r, x)
    path = r.choice(PATHS)
    h, v = header_pair(r, x)
    hdrs = "{'User-Agent': '%s', 'Accept': '*/*', '%s': '%s', 'Content-Type': 'application/json'}" % (
        r.choice(UAS), h, v)
    return (
        "%s DEBUG [urllib3.connectionpool] Starting new HTTPS connection (1): %s:443\n"
        "%s DEBUG [app.http] POST https://%s/v1/%s headers=%s\n"
        "%s DEBUG [urllib3.connectionpool] https://%s:443 \"POST /v1/%s HTTP/1.1\" %d %d\n"
    ) % (ts, host, ts, host, path, hdrs, ts2, host, path,
         r.choice([200, 200, 401, 429]), r.randrange(80, 4000))


def c_traceback_url(r, x):
    host = host_for(r, x)
    return fill("""Traceback (most recent call last):
  File "/app/<<mod>>/tasks.py", line <<ln>>, in <<fn>>
    resp.raise_for_status()
  File "/usr/local/lib/python3.11/site-packages/requests/models.py", line 1021, in raise_for_status
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: <<code>> for url: https://<<host>>/v2/<<path>>?<<param>>=<<secret>>&limit=<<lim>>
""", mod=r.choice(["worker", "sync", "jobs"]), ln=r.randrange(40, 400),
                fn=r.choice(["sync_batch", "refresh_index", "pull_events"]),
                code=r.choice(["403 Client Error: Forbidden", "429 Client Error: Too Many Requests",
                               "500 Server Error: Internal Server Error"]),
                host=host, path=r.choice(PATHS),
                param=r.choice(["api_key", "key", "subscription-key", "token", "apikey"]),
                secret=x.secret, lim=r.choice([50, 100, 500]))


def c_access_log(r, x):
    d = rdate(r)
    mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
           "Nov", "Dec"][d.month - 1]
    hh, mm = r.randrange(24), r.randrange(60)
    ip = lambda: "10.%d.%d.%d" % (r.randrange(256), r.randrange(256), r.randrange(1, 255))
    stamp = lambda s: "%02d/%s/%d:%02d:%02d:%02d +0000" % (d.day, mon, d.year, hh, mm, s)
    s = r.randrange(50)
    param = r.choice(["api_key", "key", "subscription-key", "access_token", "apikey"])
    lines = [
        '%s - - [%s] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29" rt=0.001' % (ip(), stamp(s)),
        '%s - - [%s] "GET /v1/%s?%s=%s&lang=%s HTTP/1.1" 200 %d "-" "%s" rt=0.%03d' % (
            ip(), stamp(s + 1), r.choice(PATHS), param, x.secret, r.choice(["en", "de", "ja"]),
            r.randrange(200, 9000), r.choice(UAS), r.randrange(1, 999)),
        '%s - - [%s] "POST /v1/%s HTTP/1.1" 204 0 "-" "%s" rt=0.%03d' % (
            ip(), stamp(s + 3), r.choice(PATHS), r.choice(UAS), r.randrange(1, 999)),
    ]
    return "\n".join(lines) + "\n"


def c_docker_inspect(r, x):
    cont = r.choice(APP) + "-" + rhex(r, 5)
    var = r.choice([x.env + "_API_KEY", "API_KEY", x.env + "_TOKEN", "UPSTREAM_KEY"])
    env = [
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG=C.UTF-8",
        "PYTHONUNBUFFERED=1",
        "%s=%s" % (var, x.secret),
        "PORT=%d" % r.choice([8000, 8080, 5000]),
    ]
    return ("$ docker inspect --format '{{json .Config.Env}}' %s | jq .\n" % cont
            + json.dumps(env, indent=2) + "\n")


def c_http_request(r, x):
    body = json.dumps({"input": r.choice(["Summarise the attached notes.", "hello",
                                          "ticket 4471 escalation"]),
                       "max_tokens": r.choice([256, 512, 1024])})
    h, line = header_line(r, x)
    return fill("""POST /v1/<<path>> HTTP/1.1
Host: <<host>>
User-Agent: <<ua>>
Accept: application/json
Content-Type: application/json
<<line>>
Content-Length: <<n>>

<<body>>
""", path=r.choice(PATHS), host=host_for(r, x, r.random() < 0.5), ua=r.choice(UAS),
                line=line, n=len(body), body=body)


def c_http_response(r, x):
    d = rdate(r)
    t = rtime(r)
    body = json.dumps({
        "id": r.randrange(1000, 99999),
        "name": r.choice(["ci-bot", "staging-worker", "analytics-export", "local-dev"]),
        "scopes": r.choice([["read"], ["read", "write"], ["admin"]]),
        r.choice(["secret", "key", "token", "api_key"]): x.secret,
        "created_at": "%sT%sZ" % (d.isoformat(), t),
        "last_used_at": None,
    }, separators=(",", ":"))
    return fill("""HTTP/2 201
content-type: application/json; charset=utf-8
date: <<date>>
x-request-id: <<rid>>
cache-control: no-store

<<body>>
""", date="%s %s GMT" % (d.strftime("%a, %d %b %Y"), t), rid=ruuid(r), body=body)


def c_har(r, x):
    host = host_for(r, x)
    path = r.choice(PATHS)
    h, v = header_pair(r, x)
    entry = {
        "startedDateTime": "%sT%s.%03dZ" % (rdate(r).isoformat(), rtime(r), r.randrange(1000)),
        "time": round(r.uniform(20, 900), 3),
        "request": {
            "method": "POST",
            "url": "https://%s/v1/%s" % (host, path),
            "httpVersion": "HTTP/2",
            "headers": [
                {"name": "accept", "value": "application/json"},
                {"name": "content-type", "value": "application/json"},
                {"name": h.lower(), "value": v},
                {"name": "origin", "value": "https://app.%s" % r.choice(COMPANY)},
            ],
            "queryString": [],
            "cookies": [],
            "headersSize": -1,
            "bodySize": r.randrange(40, 900),
        },
    }
    return json.dumps(entry, indent=2) + "\n"


def c_sql_insert(r, x):
    d = rdate(r)
    return fill("""-- <<ver>>__seed_<<env>>_integrations.sql
INSERT INTO integration_credentials (tenant_id, provider, label, api_key, created_at, created_by)
VALUES ('<<tid>>', '<<prov>>', '<<label>>', '<<secret>>', '<<d>> <<t>>+00', 'svc-migrate')
ON CONFLICT (tenant_id, provider) DO UPDATE SET api_key = EXCLUDED.api_key, updated_at = now();
""", ver="V%d" % r.randrange(20, 140), env=r.choice(ENVS), tid=ruuid(r),
                prov=x.slug if r.random() < 0.6 else r.choice(["search", "llm", "email"]),
                label=r.choice(["default", "primary", "backfill", "eu"]),
                secret=x.secret, d=d.isoformat(), t=rtime(r))


def c_psql_output(r, x):
    tenant = r.randrange(2, 500)
    rows = []
    n = r.randrange(2, 4)
    pos = r.randrange(n)
    for i in range(n):
        prov = x.slug if i == pos else r.choice(["sendgrid", "twilio", "stripe", "slack"])
        sec = x.secret if i == pos else r.choice(["", "[revoked]"])
        rows.append([str(r.randrange(1, 900)), prov,
                     r.choice(["default", "primary", "ci", "eu-west"]), sec,
                     "%s %s" % (rdate(r).isoformat(), rtime(r)[:5])])
    hdr = ["id", "provider", "key_name", "secret", "rotated_at"]
    w = [max(len(hdr[j]), max(len(rw[j]) for rw in rows)) for j in range(5)]
    fmt_row = lambda vals: " " + " | ".join(
        (v.rjust(w[j]) if j == 0 else v.ljust(w[j])) for j, v in enumerate(vals)).rstrip()
    out = ["%s=> SELECT id, provider, key_name, secret, rotated_at FROM api_keys WHERE tenant_id = %d;"
           % (r.choice(["app", "billing", "core"]), tenant),
           " " + " | ".join(hdr[j].center(w[j]) for j in range(5)).rstrip(),
           "-" + "-+-".join("-" * w[j] for j in range(5)) + "-"]
    out += [fmt_row(rw) for rw in rows]
    out.append("(%d rows)" % n)
    return "\n".join(out) + "\n"


def c_csv(r, x):
    rows = ["service,environment,owner,key_id,key_value,created,expires"]
    n = r.randrange(2, 5)
    pos = r.randrange(n)
    for i in range(n):
        f, l = person(r)
        d = rdate(r)
        e = d + timedelta(days=365)
        if i == pos:
            rows.append("%s,%s,%s,%d,%s,%s,%s" % (
                x.slug, r.choice(ENVS), email_of(f, l, r.choice(COMPANY)),
                r.randrange(100, 999), x.secret, d.isoformat(), e.isoformat()))
        else:
            rows.append("%s,%s,%s,%d,,%s,%s" % (
                r.choice(["github", "datadog", "pagerduty", "sentry"]), r.choice(ENVS),
                email_of(f, l, r.choice(COMPANY)), r.randrange(100, 999),
                d.isoformat(), e.isoformat()))
    return "\n".join(rows) + "\n"


def c_md_table(r, x):
    envs = r.sample(["dev", "staging", "prod", "qa"], 3)
    pos = r.randrange(3)
    lines = ["## %s environments" % x.disp, "",
             "| Env | Endpoint | Key | Owner |",
             "|-----|----------|-----|-------|"]
    for i, e in enumerate(envs):
        f, _ = person(r)
        key = "`%s`" % x.secret if i == pos else r.choice(["see Key Vault", "ask #platform", "(rotated)"])
        lines.append("| %s | https://%s | %s | @%s |" % (e, host_for(r, x, True), key, f.lower()))
    lines += ["", "_Last updated %s._" % rdate(r).isoformat()]
    return "\n".join(lines) + "\n"


def c_email_en(r, x):
    f1, f2 = r.sample(FIRST, 2)
    l1, l2 = r.sample(LAST, 2)
    dom = r.choice(COMPANY)
    d = rdate(r)
    proj = r.choice(APP)
    return fill("""From: <<f1>> <<l1>> <<<m1>>>
To: <<f2>> <<l2>> <<<m2>>>
Subject: Re: access for the <<proj>> integration
Date: <<date>>

Hi <<f2>>,

As discussed, here's the key for the <<disp>> account we use on <<proj>>:

    <<secret>>

It's the production one, so please don't paste it into tickets. I'll rotate it after the migration on <<d2>>.

Thanks,
<<f1>>
""", f1=f1, l1=l1, m1=email_of(f1, l1, dom), f2=f2, l2=l2, m2=email_of(f2, l2, dom),
                proj=proj, date=d.strftime("%a, %d %b %Y ") + rtime(r) + " +0000",
                disp=x.disp, secret=x.secret, d2=(d + timedelta(days=r.randrange(3, 30))).strftime("%B %d"))


def c_chat_en(r, x):
    a = r.choice(FIRST).lower()
    b = r.choice([n for n in FIRST if n.lower() != a]).lower()
    h, m = r.randrange(8, 18), r.randrange(50)
    what = r.choice(["the staging key", "a working key", "the sandbox token"])
    return fill("""[<<t1>>] <<a>>: anyone have <<what>>? my local setup keeps getting 401s
[<<t2>>] <<b>>: yeah one sec
[<<t2>>] <<b>>: <<secret>>
[<<t3>>] <<a>>: thanks!
[<<t3>>] <<b>>: pls don't commit it this time :)
""", t1="%02d:%02d" % (h, m), t2="%02d:%02d" % (h, m + 1), t3="%02d:%02d" % (h, m + 2),
                a=a, b=b, what=what, secret=x.secret)


def c_ticket_en(r, x):
    f, l = person(r)
    return fill("""<<key>>: <<disp>> calls failing with 401 after deploy
Reporter: <<f>> <<l>>    Priority: High    Component: integrations

Description:
After the <<rel>> release the worker can no longer reach <<disp>>. I checked the portal and the key configured on the box (<<secret>>) still shows as active, so I suspect the new proxy is stripping the header.

Steps to reproduce:
1. Deploy <<rel>> to <<env>>
2. Trigger any job from the admin panel
3. Observe 401 in the worker logs
""", key="%s-%d" % (r.choice(["OPS", "PLAT", "INT", "SUP"]), r.randrange(100, 9999)),
                disp=x.disp, f=f, l=l, rel="%d.%d" % (r.randrange(1, 4), r.randrange(30)),
                secret=x.secret, env=r.choice(ENVS))


def c_email_de(r, x):
    names = ["Jonas", "Lena", "Tobias", "Katrin", "Florian", "Miriam", "Stefan", "Julia"]
    a, b = r.sample(names, 2)
    d = rdate(r)
    return fill("""Betreff: Zugangsdaten für die <<disp>>-Anbindung

Hallo <<b>>,

anbei wie besprochen der API-Schlüssel für unsere <<umg>>:

<<secret>>

Bitte nicht ins Repository einchecken – wir rotieren ihn nach dem Go-live am <<d>>.
Bei Fragen melde dich gern.

Viele Grüße
<<a>>
""", disp=x.disp, b=b, a=a, umg=r.choice(["Testumgebung", "Staging-Umgebung", "Entwicklungsumgebung"]),
                secret=x.secret, d=d.strftime("%d.%m.%Y"))


def c_chat_fr(r, x):
    names = ["Julien", "Camille", "Thomas", "Léa", "Nicolas", "Manon", "Hugo", "Chloé"]
    a, b = r.sample(names, 2)
    h, m = r.randrange(8, 18), r.randrange(55)
    return fill("""<<a>>  <<t1>>
quelqu'un a la clé d'API pour la <<env>> ? la mienne a expiré
<<b>>  <<t2>>
tiens : <<secret>>
pense à la mettre dans le coffre après, je la régénère <<jour>>
<<a>>  <<t2>>
merci !
""", a=a, b=b, t1="%02d:%02d" % (h, m), t2="%02d:%02d" % (h, m + 2),
                env=r.choice(["préprod", "recette", "démo"]), secret=x.secret,
                jour=r.choice(["vendredi", "lundi", "demain", "en fin de sprint"]))


def c_ticket_es(r, x):
    names = ["Carlos", "Lucía", "Javier", "Marta", "Diego", "Elena", "Pablo", "Sara"]
    return fill("""Ticket #<<n>> – Error 401 al llamar a la API de <<disp>>
Prioridad: Alta
Solicitante: <<who>>

Descripción:
Desde ayer todas las llamadas devuelven 401 Unauthorized. En el servidor de <<env>> estamos usando la clave <<secret>>, que según el panel sigue activa.

Pasos para reproducir:
1. Lanzar el proceso de sincronización nocturna.
2. Revisar el log del worker.

¿Podéis confirmar si hubo algún cambio en los permisos?
""", n=r.randrange(10000, 99999), disp=x.disp, who=r.choice(names),
                env=r.choice(["producción", "preproducción", "pruebas"]), secret=x.secret)


def c_doc_ja(r, x):
    names = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村"]
    return fill("""## 引き継ぎメモ（<<proj>>）

- 接続先エンドポイント: https://<<host>>
- <<env>>のAPIキーは <<secret>> です。
- 担当者: <<who>>さん（不在時は #infra チャンネルへ）

※キーは四半期ごとにローテーションしてください。本番用のキーはKey Vaultにのみ保存しています。
""", proj=r.choice(APP), host=host_for(r, x), env=r.choice(["検証環境", "ステージング環境", "開発環境"]),
                secret=x.secret, who=r.choice(names))


def c_chat_zh(r, x):
    names = ["张伟", "李娜", "王磊", "刘洋", "陈静", "赵敏", "孙浩", "周婷"]
    a, b = r.sample(names, 2)
    h, m = r.randrange(9, 19), r.randrange(55)
    return fill("""<<a>> <<t1>>
@<<b>> <<env>>的 key 发你了：<<secret>>
<<b>> <<t2>>
收到，我先配到 CI 里跑一下
<<a>> <<t2>>
用完记得在控制台轮换一下，别提交到仓库
""", a=a, b=b, t1="%02d:%02d" % (h, m), t2="%02d:%02d" % (h, m + 3),
                env=r.choice(["测试环境", "预发环境", "开发环境"]), secret=x.secret)


def c_email_pt(r, x):
    names = ["João", "Ana", "Pedro", "Mariana", "Rafael", "Beatriz", "Lucas", "Camila"]
    a, b = r.sample(names, 2)
    d = rdate(r)
    return fill("""Assunto: Credenciais da integração com <<disp>>

Olá, <<b>>!

Segue a chave de API do ambiente de <<env>>: <<secret>>

Ela expira em <<d>>. Qualquer dúvida me chama no Teams.

Abraços,
<<a>>
""", disp=x.disp, b=b, env=r.choice(["homologação", "desenvolvimento", "testes"]),
                secret=x.secret, d=d.strftime("%d/%m/%Y"), a=a)


def c_wiki_ru(r, x):
    d = rdate(r)
    return fill("""### Доступ к <<disp>>

Ключ для <<env>>: <<secret>>

Срок действия — до <<d>>. Не используйте его в проде: ключ для продакшена лежит в Vault (`secret/<<proj>>/<<slug>>`).
Вопросы — в канал #<<chan>>.
""", disp=x.disp, env=r.choice(["стенда разработки", "тестового стенда", "препрода"]),
                secret=x.secret, d=d.strftime("%d.%m.%Y"), proj=r.choice(APP), slug=x.slug,
                chan=r.choice(["platform", "infra", "backend"]))


CONTEXTS = [
    ("k8s-secret-manifest", c_k8s_secret, False,
     "Kubernetes Secret manifest (YAML) with metadata and labels; value under `stringData` next to an endpoint and a log level."),
    ("compose-service-env", c_compose, False,
     "docker-compose file: a service with image, ports, an `environment:` list (value in one entry) and a Redis dependency."),
    ("terraform-app-settings", c_terraform, False,
     "Terraform resource (Azure function app `app_settings` map or AWS Lambda `environment.variables`) with the value as one setting."),
    ("npmrc-registry-token", c_npmrc, False,
     "`.npmrc` with a scoped private registry and the value as its `//host/:_authToken=`."),
    ("netrc-machine", c_netrc, False,
     "`.netrc` with several machine entries; value as the `password` of the first."),
    ("appsettings-nested-json", c_appsettings, False,
     "ASP.NET `appsettings.json`: logging, a provider section with Endpoint / key / timeout, and a connection string."),
    ("functions-local-settings-connstr", c_local_settings, False,
     "Azure Functions `local.settings.json` whose `Values` hold a connection string (Service Bus, storage, IoT Hub or generic) embedding the value."),
    ("nginx-proxy-header", c_nginx, False,
     "nginx `location` block proxying to an upstream, value set with `proxy_set_header` (subscription header, api-key or Bearer)."),
    ("github-actions-step-env", c_github_actions, False,
     "GitHub Actions workflow (schedule, checkout, setup-python) with the value hard-coded in a step's `env:` with a TODO comment."),
    ("python-client-constructor", c_python_ctor, False,
     "Python factory function returning an SDK client: `AzureKeyCredential(\"...\")` for Azure values, `api_key=\"...\"` keyword otherwise."),
    ("js-fetch-headers", c_js_fetch, False,
     "JavaScript async function calling `fetch` with a headers object containing the value (api key header or Bearer)."),
    ("java-client-builder", c_java_builder, False,
     "Java: Spring `@Bean` building an Azure SDK client with `new AzureKeyCredential(\"...\")`, or an OkHttp `Request.Builder().addHeader(...)`."),
    ("csharp-env-fallback", c_csharp_fallback, False,
     "C# minimal-API startup: `Environment.GetEnvironmentVariable(...) ?? \"value\"` then a named HttpClient adding it as a header."),
    ("go-config-struct", c_go_struct, False,
     "Go `defaultConfig()` returning a `&Config{...}` struct literal with BaseURL, APIKey, Timeout, retries, user agent."),
    ("rust-reqwest-header", c_rust_header, False,
     "Rust reqwest call chain `.post(...).header(\"...\", \"value\").json(&body).send().await?`."),
    ("php-laravel-env-default", c_php_laravel, False,
     "Laravel `config/services.php` array; value as the default of `env('..._KEY', '...')`."),
    ("ruby-configure-block", c_ruby_configure, False,
     "Rails initializer `Provider.configure do |config|` with `ENV.fetch(\"...\", \"value\")` as fallback."),
    ("pytest-monkeypatch-env", c_pytest, False,
     "pytest autouse fixture calling `monkeypatch.setenv(\"...\", \"value\")`, followed by a test using it."),
    ("spring-value-annotation", c_spring_value, False,
     "Spring `@Service` constructor with `@Value(\"${prop.api-key:value}\")` default, building a RestClient."),
    ("notebook-cell-json", c_notebook, False,
     "Raw Jupyter `.ipynb` cell JSON whose `source` lines set `os.environ[...] = \"value\"` before creating a client."),
    ("curl-header-command", c_curl, False,
     "Shell prompt with a multi-line `curl -X POST` passing the value in an `-H` header, JSON body piped to `jq`."),
    ("bash-history-numbered", c_bash_history, False,
     "Numbered `history` output; one command passes the value inline (`docker run -e VAR=...` or `VAR=... npm run dev`)."),
    ("secret-store-cli", c_secret_cli, False,
     "Commands storing the value in a secret store: `kubectl create secret --from-literal`, `gh secret set --body`, `az keyvault secret set --value`, or `vault kv put`."),
    ("powershell-invoke-rest", c_powershell, False,
     "PowerShell hashtable of headers holding the value, then `Invoke-RestMethod` with a JSON body."),
    ("debug-log-headers", c_debug_log, False,
     "Python DEBUG log lines (urllib3 + app) where a request's headers dict including the value is logged."),
    ("traceback-url-query", c_traceback_url, True,
     "Python traceback ending in `requests.exceptions.HTTPError ... for url:` with the value in the query string (URL-safe values only)."),
    ("access-log-query", c_access_log, True,
     "Three nginx-style access-log lines; the middle GET carries the value as a query parameter (URL-safe values only)."),
    ("docker-inspect-env", c_docker_inspect, False,
     "`docker inspect --format '{{json .Config.Env}}' ... | jq .` command and its JSON array output with the value in one `VAR=value` entry."),
    ("http-raw-request", c_http_request, False,
     "Raw HTTP/1.1 POST request dump (Host, User-Agent, headers, Content-Length, JSON body) with the value in an auth header."),
    ("http-response-created", c_http_response, False,
     "Raw HTTP/2 201 response with headers and a compact JSON body of a newly created key object containing the value."),
    ("har-entry-headers", c_har, False,
     "Browser HAR entry (JSON) whose `request.headers` array has `{\"name\": ..., \"value\": <value>}`."),
    ("sql-insert-migration", c_sql_insert, False,
     "SQL seed migration: `INSERT INTO integration_credentials (...) VALUES (...) ON CONFLICT ... DO UPDATE`."),
    ("psql-select-output", c_psql_output, False,
     "psql prompt with a SELECT and its aligned result table; the value in one row's `secret` column, other rows empty or revoked."),
    ("csv-key-export", c_csv, False,
     "CSV export of service keys (service, environment, owner, key id, key value, dates); one row carries the value."),
    ("markdown-wiki-table", c_md_table, False,
     "Markdown wiki page: per-environment table (endpoint, key, owner), value in backticks in one row."),
    ("email-handover-en", c_email_en, False,
     "English e-mail with From/To/Subject/Date headers handing over the key, value on its own indented line."),
    ("chat-log-en", c_chat_en, False,
     "English team-chat transcript with timestamps; someone asks for a key and the value is pasted as a bare message."),
    ("ticket-en", c_ticket_en, False,
     "English issue-tracker ticket about 401 errors; value quoted in parentheses inside the description prose."),
    ("email-de", c_email_de, False,
     "German e-mail (Betreff, Hallo, Viele Grüße) sending the API key on its own line."),
    ("chat-fr", c_chat_fr, False,
     "French chat messages (name + time headers) asking for and pasting the key after `tiens :`."),
    ("ticket-es", c_ticket_es, False,
     "Spanish support ticket (Prioridad, Descripción, Pasos para reproducir) mentioning the key in a sentence."),
    ("doc-ja", c_doc_ja, False,
     "Japanese handover memo in Markdown bullets; the key inside a sentence `…のAPIキーは <value> です。`."),
    ("chat-zh", c_chat_zh, False,
     "Chinese IM exchange; value after a full-width colon `：` in a message."),
    ("email-pt-br", c_email_pt, False,
     "Brazilian Portuguese e-mail (Assunto, Olá, Abraços) with the key at the end of a sentence."),
    ("wiki-ru", c_wiki_ru, False,
     "Russian wiki section `Доступ к …` with `Ключ для …: <value>` and notes about expiry and Vault."),
]


def load():
    items = {}
    for src, path in SOURCES:
        with open(path, encoding="utf-8") as fh:
            items[src] = [Item(src, json.loads(line)) for line in fh if line.strip()]
    return items


def assign(items, rng):
    """Distribute the values over the contexts; URL contexts get URL-safe values."""
    k = len(CONTEXTS)
    ms = list(items["ms"])
    ti = list(items["ti"])
    rng.shuffle(ms)
    rng.shuffle(ti)
    # quotas: each context gets floor/ceil shares of both files
    ti_q = [len(ti) // k] * k
    extra_ti = len(ti) - sum(ti_q)
    for i in rng.sample(range(k), extra_ti):
        ti_q[i] += 1
    ms_q = [len(ms) // k] * k
    extra_ms = len(ms) - sum(ms_q)
    # give the extra Microsoft values preferably to contexts with fewer Titus values
    low = [i for i in range(k) if ti_q[i] == min(ti_q)]
    high = [i for i in range(k) if ti_q[i] != min(ti_q)]
    rng.shuffle(low)
    rng.shuffle(high)
    for i in (low + high)[:extra_ms]:
        ms_q[i] += 1
    buckets = [[] for _ in range(k)]
    order = [i for i in range(k) if CONTEXTS[i][2]] + [i for i in range(k) if not CONTEXTS[i][2]]
    for i in order:
        for pool, q in ((ms, ms_q[i]), (ti, ti_q[i])):
            for _ in range(q):
                j = 0
                if CONTEXTS[i][2]:
                    while not pool[j].url_safe:
                        j += 1
                buckets[i].append(pool.pop(j))
    assert not ms and not ti
    for b in buckets:
        rng.shuffle(b)
    return buckets


def main():
    rng = random.Random(SEED)
    items = load()
    buckets = assign(items, rng)
    out_rows = []
    seen = set()
    for (cid, fn, url_only, _note), bucket in zip(CONTEXTS, buckets):
        for it in bucket:
            text = fn(rng, it)
            if text.count(it.secret) != 1:
                raise AssertionError("secret not exactly once in %s" % cid)
            if url_only and not it.url_safe:
                raise AssertionError("non URL-safe value in %s" % cid)
            if text in seen:
                raise AssertionError("duplicate text in %s" % cid)
            seen.add(text)
            out_rows.append({
                "text": text,
                "label": "risk",
                "kind": it.kind,
                "secret": it.secret,
                "source": SOURCE_TAG,
                "context": cid,
            })
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in out_rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("wrote %d rows in %d contexts to %s" % (len(out_rows), len(CONTEXTS), OUT))


if __name__ == "__main__":
    main()
