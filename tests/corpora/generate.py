#!/usr/bin/env python3
"""Writes secrets-extra.jsonl and benign-engineering.jsonl (seeded: the output is the same on
every run). Every credential is fabricated from random characters in the public shape of its
format; none is real. Run from this folder: python3 generate.py"""
import json
import random
import string

R = random.Random(20240611)
UP, LO, DI = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DI
B64 = AN + "+/"
URLSAFE = AN + "-_"
HEX = "0123456789abcdef"


def rnd(alphabet, n):
    # Every fabricated value mixes classes (so a draw never degenerates into one letter).
    while True:
        s = "".join(R.choice(alphabet) for _ in range(n))
        needs_digit = n >= 6 and any(c.isdigit() for c in alphabet) and alphabet != HEX
        if not needs_digit or any(c.isdigit() for c in s):
            return s


def b64(n):
    return rnd(B64, n)


def uuid():
    return "-".join(rnd(HEX, k) for k in (8, 4, 4, 4, 12))


# Each format: (kind, function returning (text, secret)). The secret is the exact credential
# that must not survive in the stored text.
def fmt(kind):
    def deco(f):
        FORMATS.append((kind, f))
        return f
    return deco


FORMATS = []


@fmt("aws-access-key-id")
def _():
    k = "AKIA" + rnd(UP + "234567", 16)
    return R.choice([f"aws_access_key_id = {k}", f"the leaked key {k} belongs to the ci user", f'"AccessKeyId": "{k}",']), k


@fmt("aws-secret-access-key")
def _():
    k = b64(40)
    return R.choice([f"aws_secret_access_key = {k}", f"AWS_SECRET_ACCESS_KEY={k}", f'"SecretAccessKey": "{k}"']), k


@fmt("gcp-service-account-key")
def _():
    body = "\\n".join(b64(64) for _ in range(4))
    k = f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n"
    return f'{{"type": "service_account", "project_id": "demo-{rnd(LO, 6)}", "private_key": "{k}", "client_email": "svc@demo.iam.gserviceaccount.com"}}', k


@fmt("google-api-key")
def _():
    k = "AIza" + rnd(URLSAFE, 35)
    return R.choice([f"maps key AIza... full: {k}", f"GOOGLE_MAPS_KEY={k}", f"https://maps.googleapis.com/maps/api/js?key={k}"]), k


@fmt("gcp-oauth-client-secret")
def _():
    k = "GOCSPX-" + rnd(URLSAFE, 28)
    return f'"client_secret": "{k}"', k


@fmt("azure-storage-connection-string")
def _():
    k = b64(86) + "=="
    return f"DefaultEndpointsProtocol=https;AccountName=st{rnd(LO, 8)};AccountKey={k};EndpointSuffix=core.windows.net", k


@fmt("azure-sas-signature")
def _():
    k = b64(43).replace("+", "%2B").replace("/", "%2F") + "%3D"
    return f"https://acct.blob.core.windows.net/c/f.zip?sv=2022-11-02&ss=b&sp=r&se=2025-01-01&sig={k}", k


@fmt("azure-client-secret")
def _():
    k = rnd(AN, 3) + R.choice(DI) + "Q~" + rnd(AN + "_~.-", 34)
    return f"AZURE_CLIENT_SECRET={k}", k


@fmt("digitalocean-token")
def _():
    k = "dop_v1_" + rnd(HEX, 64)
    return R.choice([f"doctl auth init -t {k}", f"DIGITALOCEAN_TOKEN={k}"]), k


@fmt("heroku-api-key")
def _():
    k = "HRKU-" + rnd(URLSAFE, 60)
    return f"heroku token: {k}", k


@fmt("heroku-api-key-uuid")
def _():
    k = uuid()
    return f"HEROKU_API_KEY={k}", k


@fmt("github-token")
def _():
    k = R.choice(["ghp_", "gho_", "ghs_", "ghu_"]) + rnd(AN, 36)
    return R.choice([f"git clone https://{k}@github.com/acme/tool.git", f"GITHUB_TOKEN: {k}", f"token {k} has repo scope"]), k


@fmt("github-fine-grained-token")
def _():
    k = "github_pat_" + rnd(AN, 22) + "_" + rnd(AN, 59)
    return f"export GH_TOKEN={k}", k


@fmt("gitlab-token")
def _():
    k = "glpat-" + rnd(URLSAFE, 20)
    return R.choice([f"GITLAB_TOKEN={k}", f"curl --header 'PRIVATE-TOKEN: {k}' https://gitlab.example.com/api/v4/projects"]), k


@fmt("bitbucket-app-password")
def _():
    k = "ATBB" + rnd(AN, 32)
    return f"bitbucket app password {k}", k


@fmt("slack-token")
def _():
    k = f"xoxb-{rnd(DI, 12)}-{rnd(DI, 13)}-{rnd(AN, 24)}"
    return R.choice([f"SLACK_BOT_TOKEN={k}", f"slack bot uses {k}"]), k


@fmt("slack-webhook")
def _():
    k = f"T{rnd(UP + DI, 8)}/B{rnd(UP + DI, 10)}/{rnd(AN, 24)}"
    return f"alerts go to https://hooks.slack.com/services/{k}", k


@fmt("discord-bot-token")
def _():
    k = "M" + rnd(AN, 25) + "." + rnd(URLSAFE, 6) + "." + rnd(URLSAFE, 38)
    return R.choice([f"DISCORD_TOKEN={k}", f"discord bot token {k}", f"Authorization: Bot {k}"]), k


@fmt("discord-webhook")
def _():
    k = rnd(DI, 18) + "/" + rnd(URLSAFE, 68)
    return f"https://discord.com/api/webhooks/{k}", k


@fmt("telegram-bot-token")
def _():
    k = rnd(DI, 10) + ":AA" + rnd(URLSAFE, 33)
    return R.choice([f"TELEGRAM_BOT_TOKEN={k}", f"https://api.telegram.org/bot{k}/sendMessage"]), k


@fmt("stripe-key")
def _():
    k = R.choice(["sk_live_", "rk_live_", "sk_test_"]) + rnd(AN, 24)
    return R.choice([f"stripe.api_key = '{k}'", f"STRIPE_SECRET_KEY={k}", f"curl https://api.stripe.com/v1/charges -u {k}:"]), k


@fmt("stripe-webhook-secret")
def _():
    k = "whsec_" + rnd(AN, 32)
    return f"STRIPE_WEBHOOK_SECRET={k}", k


@fmt("square-token")
def _():
    k = "EAAA" + rnd(URLSAFE, 60)
    return R.choice([f"SQUARE_ACCESS_TOKEN={k}", f"square prod token {k}"]), k


@fmt("square-oauth-secret")
def _():
    k = "sq0csp-" + rnd(URLSAFE, 43)
    return f"square_oauth_secret: {k}", k


@fmt("braintree-token")
def _():
    k = f"access_token$production${rnd(LO + DI, 16)}${rnd(HEX, 32)}"
    return f"BRAINTREE_ACCESS_TOKEN={k}", k


@fmt("openai-api-key")
def _():
    k = "sk-proj-" + rnd(URLSAFE, 48)
    return R.choice([f"OPENAI_API_KEY={k}", f"client = OpenAI(api_key=\"{k}\")", f"my openai key is {k}"]), k


@fmt("anthropic-api-key")
def _():
    k = "sk-ant-api03-" + rnd(URLSAFE, 93) + "AA"
    return R.choice([f"ANTHROPIC_API_KEY={k}", f"x-api-key: {k}"]), k


@fmt("huggingface-token")
def _():
    k = "hf_" + rnd(UP + LO, 34)
    return R.choice([f"HF_TOKEN={k}", f"huggingface-cli login --token {k}"]), k


@fmt("cohere-api-key")
def _():
    k = rnd(AN, 40)
    return f"COHERE_API_KEY={k}", k


@fmt("groq-api-key")
def _():
    k = "gsk_" + rnd(AN, 52)
    return f"groq key {k}", k


@fmt("npm-token")
def _():
    k = "npm_" + rnd(AN, 36)
    return R.choice([f"//registry.npmjs.org/:_authToken={k}", f"NPM_TOKEN={k}"]), k


@fmt("pypi-token")
def _():
    k = "pypi-AgEIcHlwaS5vcmc" + rnd(URLSAFE, 60)
    return R.choice([f"password = {k}", f"TWINE_PASSWORD={k}", f"uv publish --token {k}"]), k


@fmt("sendgrid-api-key")
def _():
    k = "SG." + rnd(URLSAFE, 22) + "." + rnd(URLSAFE, 43)
    return f"SENDGRID_API_KEY={k}", k


@fmt("twilio-api-key")
def _():
    k = "SK" + rnd(HEX, 32)
    return f"twilio api key sid {k}", k


@fmt("twilio-auth-token")
def _():
    k = rnd(HEX, 32)
    return f"TWILIO_AUTH_TOKEN={k}", k


@fmt("mailgun-api-key")
def _():
    k = "key-" + rnd(HEX, 32)
    return f"MAILGUN_API_KEY={k}", k


@fmt("mailchimp-api-key")
def _():
    k = rnd(HEX, 32) + "-us" + str(R.randint(1, 20))
    return f"mailchimp: {k}", k


@fmt("shopify-token")
def _():
    k = "shpat_" + rnd(HEX, 32)
    return f"X-Shopify-Access-Token: {k}", k


@fmt("jwt")
def _():
    k = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + rnd(URLSAFE, 60) + "." + rnd(URLSAFE, 43)
    return R.choice([f"session cookie jwt={k}", f"id_token: {k}"]), k


@fmt("pem-private-key")
def _():
    kind = R.choice(["RSA ", "EC ", "", "ENCRYPTED ", "DSA "])
    body = "\n".join(b64(64) for _ in range(R.randint(3, 6))) + "\n" + b64(20) + "=="
    k = f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----"
    return f"the deploy key:\n{k}\nrotate it monthly", k


@fmt("openssh-private-key")
def _():
    body = "b3BlbnNzaC1rZXktdjEAAAAA" + b64(40) + "\n" + "\n".join(b64(70) for _ in range(4))
    k = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----"
    return k, k


@fmt("pgp-private-key")
def _():
    body = "\n".join(b64(64) for _ in range(4))
    k = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n=" + b64(4) + "\n-----END PGP PRIVATE KEY BLOCK-----"
    return k, k


@fmt("putty-private-key")
def _():
    priv = "\n".join(b64(64) for _ in range(3)) + "\n" + b64(28) + "="
    pub = "AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + b64(34)
    text = f"PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-2024\nPublic-Lines: 1\n{pub}\nPrivate-Lines: 4\n{priv}\nPrivate-MAC: {rnd(HEX, 64)}"
    return text, priv


@fmt("age-secret-key")
def _():
    k = "AGE-SECRET-KEY-1" + rnd("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    return f"# created: 2024-01-01\n{k}", k


@fmt("url-credentials")
def _():
    pw = rnd(AN, 12)
    scheme = R.choice(["postgres", "mysql", "mongodb+srv", "redis", "amqp", "https", "ftp"])
    user = R.choice(["app", "admin", "svc_etl", ""])
    return f"{scheme}://{user}:{pw}@db-{rnd(LO, 5)}.internal:5432/main", pw


@fmt("db-connection-string")
def _():
    pw = rnd(AN + "!#", 14)
    return R.choice([
        f"Server=tcp:sql.example.net,1433;Database=shop;User ID=sa;Password={pw};Encrypt=true",
        f"jdbc:mysql://db.local:3306/app?user=app&password={pw}&useSSL=false",
        f"host=db port=5432 dbname=app user=etl password={pw}",
    ]), pw


@fmt("authorization-header")
def _():
    k = rnd(URLSAFE, 40)
    basic = b64(28) + "="
    return R.choice([(f"Authorization: Bearer {k}", k), (f'curl -H "Authorization: token {k}" https://api.example.com', k), (f"Authorization: Basic {basic}", basic)])


@fmt("netrc")
def _():
    pw = rnd(AN, 10)
    return f"machine api.example.com login deploy password {pw}", pw


@fmt("pgpass")
def _():
    pw = rnd(AN + "!@", 12)
    return f"db.internal:5432:*:replicator:{pw}", pw


@fmt("ftp-config")
def _():
    pw = rnd(AN, 11)
    return R.choice([f'{{"host": "ftp.example.com", "user": "web", "pass": "{pw}"}}', f"<Server><Host>ftp.example.com</Host><User>web</User><Pass>{pw}</Pass></Server>"]), pw


@fmt("password-assignment")
def _():
    pw = rnd(AN + "!$%", 12)
    return R.choice([f"DB_PASSWORD={pw}", f"password: '{pw}'", f'"password": "{pw}"', f"spring.datasource.password={pw}"]), pw


@fmt("password-hash")
def _():
    h = "$2b$12$" + rnd(AN + "./", 53)
    return f"admin row: ('admin', '{h}')", h


@fmt("generic-api-key")
def _():
    k = rnd(AN, 32)
    key = R.choice(["api_key", "apiKey", "API_KEY", "client_secret", "access_token", "auth_token", "secret_key", "APP_SECRET"])
    return R.choice([f"{key} = \"{k}\"", f"{key}: {k}", f'"{key}": "{k}"', f"export {key}={k}"]), k


def risk_rows():
    rows = []
    for kind, f in FORMATS:
        for _ in range(4):
            text, secret = f()
            row = {"text": text, "label": "risk", "kind": kind}
            if secret is not None:
                row["secret"] = secret
            rows.append(row)
    return rows


def sha(n):
    return rnd(HEX, n)


def benign_rows():
    b = []

    def add(kind, text):
        b.append({"text": text, "label": "benign", "kind": kind})

    for _ in range(8):
        add("hash", f"md5 of the sample: {sha(32)}")
        add("hash", f"sha1 {sha(40)}  dropper.exe")
        add("hash", f"SHA-256: {sha(64)}")
        add("hash", f"{sha(64)}  build/kenning-x86_64.tar.gz")
        add("commit", f"regression introduced in commit {sha(40)}, fixed by {sha(7)}")
        add("commit", f"git cherry-pick {sha(12)} onto release/1.4")
        add("uuid", f"request id {uuid()} timed out after 30 s")
        add("uuid", f'"session_id": "{uuid()}"')
        add("address", f"sub_{sha(6)} at 0x{sha(6)} calls VirtualAlloc then jumps to 0x{sha(8)}")
        add("address", f"image base 0x400000, entry point 0x{sha(6)}, .text spans 0x401000-0x{sha(6)}")
    for text in [
        "AES S-box starts 63 7c 77 7b f2 6b 6f c5; the key schedule uses Rcon 0x01, 0x02, 0x04",
        "TEA uses delta 0x9E3779B9 and 32 rounds; the key is read from the stack at [ebp-0x20]",
        "SHA-256 initial hash values: 0x6a09e667 0xbb67ae85 0x3c6ef372 0xa54ff53a",
        "CRC32 polynomial 0xEDB88320 (reflected), table built at 0x4021a0",
        "MD5 constants K[0]=0xd76aa478, K[1]=0xe8c7b756 found in sub_402f10",
        "RC4 key schedule at sub_401230: 256-byte S array, key length 16 taken from the config blob",
        "XOR key 0x5A applied to the strings table; decoded strings start at 0x40a000",
        "ChaCha20 constant 'expand 32-byte k' appears at 0x41c008",
        "Curve25519 base point 9; the blob at 0x409000 is the attacker's public key, not a private one",
        "The RSA public exponent is 65537 (0x10001); modulus is 2048 bits",
        "FNV-1a offset basis 0xcbf29ce484222325, prime 0x100000001b3 used for API hashing",
        "ROR13 API hashing: 0x726774c = kernel32!LoadLibraryA",
        "key = 0x401000",
        "the license check compares the serial against a hard-coded checksum 0xDEADBEEF",
        "PE timestamp 0x5F3E2A10; rich header hash 7f2c...; imphash f34d5f2d4577ed6d9ceec516c1f5a744",
        "The config key 'C2_HOST' is decoded with base64 then XOR",
        "mutex name Global\\\\{8F6F0AC4-B9A1-45fd-A8CF-72F04E6BDE8F} prevents double infection",
        "registry key HKLM\\\\Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run persists the implant",
        "sub_4011A0 builds the token table for the bytecode VM (opcodes 0x00-0x3F)",
        "password check at 0x401337 compares the input with a strcmp against the decoded buffer",
        "token_count = 4096",
        "max_tokens: 1024",
        "tokenizer = cl100k_base",
        "primary_key: id",
        "sort_key = created_at",
        "cache_key = f\"{user_id}:{page}\"",
        "KEY_SIZE = 32",
        "hotkey: ctrl+shift+k",
        "secret_santa_budget: 25",
        "api_key = os.environ[\"API_KEY\"]",
        "api_key = os.getenv('OPENAI_API_KEY')",
        "token = process.env.GITHUB_TOKEN",
        "password: ${DB_PASSWORD}",
        "password = \"${POSTGRES_PASSWORD}\"",
        "DB_PASSWORD=$DB_PASSWORD",
        "set PASSWORD=%DB_PASS%",
        "api_key: <your-api-key>",
        "OPENAI_API_KEY=<your key here>",
        "SECRET_KEY=changeme",
        "password: changeme",
        "token: xxxxxxxxxxxxxxxxxxxx",
        "AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "stripe key looks like sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "api_key: \"your_api_key_here\"",
        "client_secret: {{ vault_client_secret }}",
        "password: \"{{ lookup('env', 'DB_PASS') }}\"",
        "secret_key = settings.SECRET_KEY",
        "token = request.headers.get(\"Authorization\")",
        "password = getpass.getpass()",
        "if password == confirm_password:",
        "def check_password(password: str) -> bool:",
        "password_hash = bcrypt.hashpw(password, bcrypt.gensalt())",
        "The password is stored in 1Password under 'prod db'.",
        "Rotate the API key every 90 days; the key lives in Vault at secret/data/prod/api.",
        "auth: required",
        "credentials: ~/.aws/credentials",
        "secretName: db-credentials",
        "secret: db-credentials",
        "token_url: https://oauth2.googleapis.com/token",
        "access_token_lifetime: 3600",
        "AUTH_TOKEN_HEADER=X-Auth-Token",
        "PASSWORD_MIN_LENGTH=12",
        "password: None",
        "password = null",
        "api_key: string",
        "postgres://app:${DB_PASSWORD}@db:5432/app",
        "postgres://localhost:5432/app",
        "redis://cache:6379/0",
        "https://example.com:8443/api/v1/users?page=2",
        "git@github.com:acme/kenning.git",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop",
        "The JWT header is base64url of {\"alg\":\"HS256\"}; we verify the signature with the shared key from Vault.",
        "Bearer tokens expire after an hour; refresh with the refresh endpoint.",
        "Authorization: Bearer $TOKEN",
        "curl -H \"Authorization: Bearer ${API_TOKEN}\" https://api.example.com/v1/me",
        "export GITHUB_TOKEN=$(gh auth token)",
        "docker login -u $DOCKER_USER -p \"$DOCKER_PASS\" registry.example.com",
        "eval $(ssh-agent) && ssh-add ~/.ssh/id_ed25519",
        "let key = HashMap::<String, u32>::new();",
        "for (key, value) in map.iter() { println!(\"{key}: {value}\"); }",
        "const SECRET_HEADER: &str = \"x-kenning-signature\";",
        "fn token_at(&self, i: usize) -> Option<&Token> { self.tokens.get(i) }",
        "SELECT id, password_hash FROM users WHERE email = $1",
        "-----BEGIN PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE----- is the start of the server certificate chain",
        "AES-256-GCM with a 96-bit nonce; the key comes from HKDF-SHA256",
        "uuid v4 example: 550e8400-e29b-41d4-a716-446655440000",
        "Windows GUID {6B29FC40-CA47-1067-B31D-00DD010662DA}",
        "npm config set registry https://registry.npmjs.org/",
        "pip install --index-url https://pypi.org/simple requests",
        "The ELF has .got.plt at 0x0804a000; PLT stub for puts at 0x08048310",
        "integrity sha512-z8bJ3vBX5+0bKmJp/KmRrL5qQ2R1HhA7J1kX2sO9pFw5vzxNKaGDQ4g9oUc2LWy6t1d7uVZ3mQ8r6tY0lXhE1w==",
        "base64 of 'hello world' is aGVsbG8gd29ybGQ=",
        "version 1.2.3-rc.4+build.5678",
        "IPv6 fe80::1ff:fe23:4567:890a and IPv4 10.0.0.12:8080",
        "timestamps 12:30:45 and 2024-05-01T10:00:00Z",
        "the ssh host key fingerprint is SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
    ]:
        add("engineering", text)
    return b


def main():
    rows = risk_rows()
    with open("secrets-extra.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    with open("benign-engineering.jsonl", "w") as f:
        for r in benign_rows():
            f.write(json.dumps(r) + "\n")
    print(len(rows), "risk rows,", len(FORMATS), "formats")


if __name__ == "__main__":
    main()
