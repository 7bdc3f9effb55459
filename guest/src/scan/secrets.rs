//! Secret-like values to redact: provider keys and tokens with a recognisable shape, private key
//! blocks and the key material of their lines, password hashes, passwords in URLs, connection
//! strings and configuration files, authorisation headers, and values assigned to secret-named
//! keys that look random enough to be real.
//!
//! Precision matters as much as recall: hex digests, UUIDs, commit ids, addresses, crypto
//! constants, placeholders and environment variable references are not secrets and must survive
//! intact. Three layers keep them: provider rules only fire on their own prefixes and shapes,
//! assignment rules only on secret-named keys, and every value passes an acceptance check
//! (placeholders, references, paths, code and low-entropy words are refused).

use super::rules::{Family, Gate, Hit, Rule};
use crate::detmath;

/// The pattern of how an assignment rule's key meets its value: an optional quote closing the
/// key, then `=`, `:=`, `:` or `=>`, or a keyed setting's `" value="` (the form
/// `rules::keyed_value_operator` reads); then the value quoted with `"` (capture group 1) or
/// `'` (group 2), or bare (group 3).
macro_rules! assignment_pattern {
    () => {
        r#"(?:["']?\s*(?:=|:=|:|=>)|["']\s*,?\s*["']?value["']?\s*[=:])\s*(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"',;&)}\]<>]+))"#
    };
}

/// A provider token: a distinctive prefix and shape, so only masks are refused.
pub(super) fn token(
    kind: &'static str,
    triggers: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule::secret(kind, triggers, pattern).accept(not_mask)
}

/// Every secret rule; earlier rules win when spans overlap.
pub fn rules() -> Vec<Rule> {
    use Gate::{Assignment, LineStart, UrlCredentials};
    vec![
        // Key blocks: lazy up to the first END line, or to the end of the text when it is
        // missing; a lone END line is redacted too (the material above it was cut off).
        Rule::secret(
            "private-key",
            &["-----BEGIN", "-----END", "BEGIN PGP", "BEGIN OPENSSH"],
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\z)|-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        ),
        Rule::secret(
            "putty-private-key",
            &["private-lines"],
            r"(?m)^Private-Lines:[ \t]*\d+[ \t]*\r?\n((?:[A-Za-z0-9+/=]+[ \t]*(?:\r?\n|\z))+)",
        ),
        Rule::secret(
            "age-secret-key",
            &["AGE-SECRET-KEY-1"],
            r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b",
        ),
        // Cloud.
        token(
            "aws-access-key-id",
            &["AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA", "A3T"],
            r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b",
        )
        .within(super::rules::twenty_bytes_from_trigger),
        Rule::secret(
            "aws-secret-access-key",
            &["secret_access", "secretaccess", "secret-access", "aws_secret", "awssecret"],
            r#"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret[_-]?access[_-]?key)["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9/+=]{30,60})(?:[^A-Za-z0-9/+=]|$)"#,
        )
        .gate(Assignment)
        .accept(not_mask),
        token("google-api-key", &["AIza"], r"\bAIza[0-9A-Za-z_-]{35}"),
        token("gcp-oauth-client-secret", &["GOCSPX-"], r"\bGOCSPX-[A-Za-z0-9_-]{28}"),
        token("gcp-oauth-access-token", &["ya29."], r"\bya29\.[A-Za-z0-9_-]{30,}"),
        Rule::secret(
            "azure-storage-key",
            &["accountkey", "sharedaccesskey"],
            r"(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{30,}={0,2})",
        )
        .accept(not_mask),
        token(
            "azure-sas-signature",
            &["sig="],
            r"[?&;]sig=((?:[A-Za-z0-9+/]|%2[bBfF]){30,}(?:=|%3[dD]){0,2})",
        ),
        token(
            "azure-client-secret",
            &["q~"],
            r"\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}\b",
        ),
        token("digitalocean-token", &["_v1_"], r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
        token("heroku-api-key", &["HRKU-"], r"\bHRKU-[A-Za-z0-9_-]{60}\b"),
        // Version control.
        token(
            "github-token",
            &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{82})\b",
        ),
        token(
            "gitlab-token",
            &["glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-", "glffct-", "glimt-", "glagent-", "gloas-", "GR1348941", "_gitlab_session="],
            r"\b(?:gl(?:pat|dt|rt|ptt|ft|soat|cbt|ffct|imt|agent|oas)-[A-Za-z0-9_.-]{20,}|GR1348941[A-Za-z0-9_-]{20,})|_gitlab_session=([0-9a-z]{32})\b",
        ),
        token(
            "bitbucket-token",
            &["ATBB", "ATATT3", "ATCTT3"],
            r"\b(?:ATBB[A-Za-z0-9_=.-]{28,}|AT[AC]TT3[A-Za-z0-9_=.-]{40,})",
        ),
        // Chat.
        token(
            "slack-token",
            &["xox", "xapp-"],
            r"\b(?:xox[abeoprs]-[A-Za-z0-9-]{10,}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{140,}|xapp-\d-[A-Z0-9]+-\d+-[A-Za-z0-9]+)",
        )
        .accept(|v, _| has_digit(v) && not_mask(v, 0)),
        token(
            "slack-webhook",
            &["hooks.slack.com"],
            r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+-]{20,})",
        ),
        token(
            "discord-webhook",
            &["/api/webhooks/"],
            r"discord(?:app)?\.com/api/webhooks/(\d{5,}/[A-Za-z0-9_-]{40,})",
        ),
        token(
            "discord-bot-token",
            &["discord", "bot m", "bot n", "bot o"],
            r"\b([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})\b",
        ),
        token(
            "telegram-bot-token",
            &[":AA"],
            r"(?:\bbot|\b)(\d{8,10}:AA[A-Za-z0-9_-]{33})\b",
        ),
        // Payment.
        token(
            "stripe-key",
            &["k_live_", "k_test_", "k_prod_", "whsec_"],
            r"\b(?:[rs]k_(?:live|test|prod)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b",
        ),
        token(
            "square-token",
            &["sq0atp-", "sq0csp-", "EAAA"],
            r"\b(?:sq0atp-[A-Za-z0-9_-]{22,}|sq0csp-[A-Za-z0-9_-]{40,}|EAAA[A-Za-z0-9_-]{22,60})\b",
        )
        .accept(|v, g| has_digit(v) && not_mask(v, g)),
        token(
            "braintree-token",
            &["access_token$"],
            r"\baccess_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}\b",
        ),
        token("shopify-token", &["shpat_", "shpss_", "shpca_", "shppa_"], r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
        // AI providers.
        token("anthropic-api-key", &["sk-ant-"], r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
        // Letters and digits both: excludes kebab-case names such as "sk-learn-compatible-api".
        Rule::secret("openai-api-key", &["sk-"], r"\bsk-[A-Za-z0-9_-]{20,}")
            .accept(|v, g| has_digit(v) && v.bytes().any(|b| b.is_ascii_alphabetic()) && not_mask(v, g)),
        // Letters in either case or both: a token of one case must be spread like random
        // letters, which identifiers such as "hf_transformersmodelloader" are not.
        token("huggingface-token", &["hf_", "api_org_"], r"\b(?:hf|api_org)_[A-Za-z0-9]{30,40}\b")
            .accept(|v, g| {
                let body = v.trim_start_matches("api_org_").trim_start_matches("hf_");
                (has_upper_lower(body) || random_letters(body)) && not_mask(v, g)
            }),
        token("groq-api-key", &["gsk_"], r"\bgsk_[A-Za-z0-9]{40,}\b"),
        token("replicate-token", &["r8_"], r"\br8_[A-Za-z0-9]{37}\b"),
        token("perplexity-api-key", &["pplx-"], r"\bpplx-[A-Za-z0-9]{40,}\b"),
        token("xai-api-key", &["xai-"], r"\bxai-[A-Za-z0-9]{60,}\b"),
        Rule::secret(
            "cohere-api-key",
            &["cohere"],
            r#"(?i)cohere[A-Za-z0-9_.-]{0,24}["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9]{40})\b"#,
        )
        .accept(|v, g| has_digit(v) && not_mask(v, g)),
        // Package registries.
        token("npm-token", &["npm_"], r"\bnpm_[A-Za-z0-9]{36}\b"),
        Rule::secret(
            "npm-auth",
            &["_authtoken", "_auth", "_password"],
            r#"(?i)(?:^|[\s:"'])_(?:authToken|auth|password)["']?\s*[=:]\s*["']?([^\s"']{8,})"#,
        )
        .gate(Gate::Check(super::rules::after_blank_or_quote))
        .accept(|v, _| !is_placeholder(v)),
        token("pypi-token", &["pypi-AgEI"], r"\bpypi-AgEI[A-Za-z0-9_-]{50,}"),
        // Messaging and e-mail services.
        // SendGrid keys are "SG." and 66 characters: an id and a secret of the base64url
        // alphabet joined by a dot. The whole length is the fact a copy keeps; where the dot
        // falls is not checked, so a key split or padded differently is still taken whole.
        token(
            "sendgrid-api-key",
            &["SG."],
            r"\b(SG\.[A-Za-z0-9_=-][A-Za-z0-9_.=-]{64}[A-Za-z0-9_=-])(?:[^A-Za-z0-9_.=-]|$)",
        )
        .accept(|v, g| has_digit(v) && not_mask(v, g)),
        // Twilio API key SIDs are "SK" and 32 hex digits, distinctive on their own (a digest
        // is not glued to "SK"); hex in one case, as any hex value may be written. Auth tokens
        // are bare hex, so they need the provider's name.
        token("twilio-api-key", &["SK"], r"\bSK(?:[0-9a-f]{32}|[0-9A-F]{32})\b")
            .accept(|v, g| v[2..].bytes().any(|b| b.is_ascii_alphabetic()) && has_digit(&v[2..]) && not_mask(v, g)),
        token(
            "twilio-auth-token",
            &["twilio"],
            r#"(?i:twilio[A-Za-z0-9_.-]{0,20}(?:auth|token|secret)[A-Za-z0-9_.-]{0,12})["']?\s*(?:=|:)\s*["']?([0-9a-f]{32})\b"#,
        ),
        token("mailgun-api-key", &["key-"], r"\bkey-[0-9a-f]{32}\b"),
        token("mailchimp-api-key", &["-us"], r"\b[0-9a-f]{32}-us\d{1,2}\b"),
        // Other SaaS keys with their own prefixes.
        token("linear-api-key", &["lin_api_"], r"\blin_api_[A-Za-z0-9]{40}\b"),
        token("notion-token", &["ntn_", "secret_"], r"\b(?:ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43})\b")
            .accept(|v, g| has_digit(v) && has_upper_lower(v) && not_mask(v, g)),
        token("newrelic-api-key", &["NRAK-"], r"\bNRAK-[A-Z0-9]{27}\b"),
        token(
            "jwt",
            &["eyJ"],
            r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ),
        // Password hashes: crackable, so as sensitive as the password. Besides the crypt(3)
        // family: Cisco IOS type 8 (PBKDF2-SHA256) and 9 (scrypt) secrets, and the Kerberos
        // AS-REP and TGS-REP hashes that roasting attacks collect (`$krb5asrep$`, `$krb5tgs$`).
        Rule::secret(
            "password-hash",
            &["$2a$", "$2b$", "$2y$", "$2x$", "$1$", "$apr1$", "$5$", "$6$", "$y$", "$argon2", "$8$", "$9$", "$krb5"],
            r"\$(?:[89]\$[./A-Za-z0-9]{4,20}\$[./A-Za-z0-9]{43}|krb5asrep\$\d{1,2}\$(?:[^$:\s]{1,128}:)?[0-9a-fA-F]{32}\$[0-9a-fA-F]{32,}|krb5tgs\$\d{1,2}\$\*[^*\s]{1,256}\*\$[0-9a-fA-F]{32}\$[0-9a-fA-F]{32,}|2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}|y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{43}|argon2(?:id|i|d)\$v=\d+\$[a-z0-9=,]+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]{16,})",
        ),
        // Credentials in URLs and connection strings.
        Rule::secret(
            "url-password",
            &["://"],
            r"\b[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/]*:([^\s/]+)@[A-Za-z0-9_.\[\]-]",
        )
        .gate(UrlCredentials)
        .within(super::rules::url_authority)
        .accept(|v, _| !is_placeholder(v) && !v.bytes().all(|b| b.is_ascii_digit())),
        Rule::secret(
            "authorization-header",
            &["authorization"],
            r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?\s*(?:(?:bearer|basic|token|digest|bot|apikey)\s+)?([A-Za-z0-9._~+/=-]{8,})"#,
        )
        .gate(Assignment)
        .accept(|v, _| !is_placeholder(v)),
        Rule::secret(
            "api-key-header",
            &["x-api-key", "x-auth-token", "x-access-token", "api-key:", "x-goog-api-key"],
            r#"(?i)\b(?:x-api-key|x-auth-token|x-access-token|x-goog-api-key|api-key)["']?\s*:\s*["']?([A-Za-z0-9._~+/=-]{12,})"#,
        )
        .accept(secret_value),
        Rule::secret("bearer-token", &["bearer"], r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
            .accept(secret_value),
        Rule::secret(
            "basic-auth",
            &["-u ", "--user "],
            r#"(?:\s-u|--user)\s+["']?[A-Za-z0-9_.@+-]+:([^\s"']{4,})"#,
        )
        .also(&["curl", "wget", "http"])
        .accept(password_value),
        // Configuration files.
        Rule::secret(
            "netrc-password",
            &["password"],
            r#"(?i)\b(?:machine|default|login|user)\s+\S+\s+(?:(?:login|user)\s+\S+\s+)?password\s+(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"']+))"#,
        )
        .also(&["machine", "login", "default", "user"])
        .accept(password_value),
        Rule::secret(
            "config-password",
            &["password", "passwd"],
            r#"(?im)^[ \t]*(?:set[ \t]+)?pass(?:word|wd)[ \t]+(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"']+))[ \t;]*$"#,
        )
        .gate(LineStart)
        .accept(password_value),
        Rule::secret(
            "pgpass-password",
            &[":*:", ":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9"],
            r"(?m)^[ \t]*[A-Za-z0-9_.*\[\]-]+:(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(\S+)[ \t]*$",
        )
        .gate(Gate::Check(super::rules::colon_fields_line))
        .accept(|v, _| v.len() >= 4 && !is_placeholder(v) && !v.bytes().all(|b| b.is_ascii_digit())),
        Rule::secret(
            "xml-password",
            &["<pass", "<pwd", "<secret", "<token", "<api", "<client"],
            r"(?i)<(?:pass|password|passwd|pwd|secret|token|api[_-]?key|client[_-]?secret|access[_-]?token)(?:\s[^>]{0,80})?>([^<\r\n]{4,256})</",
        )
        .accept(password_value),
        Rule::secret(
            "php-define-secret",
            &["define(", "define ("],
            r#"(?i)\bdefine\(\s*['"][A-Z0-9_]*(?:KEY|SALT|PASSWORD|PASS|PASSWD|SECRET|TOKEN)['"]\s*,\s*(?:'([^'\r\n]*)'|"([^"\r\n]*)")"#,
        )
        .accept(password_value),
        Rule::secret(
            "login-call-password",
            &["login(", "logon(", "authenticate(", "signin(", "sign_in(", "auth=("],
            r#"(?i)\b(?:login|logon|authenticate|signin|sign_in|auth\s*=\s*)\(\s*['"][^'"\r\n]{1,100}['"]\s*,\s*(?:'([^'\r\n]{4,100})'|"([^"\r\n]{4,100})")"#,
        )
        .accept(password_value),
        Rule::secret(
            "password",
            &["pass", "pwd"],
            concat!(
                r#"(?i)(?:\b[A-Za-z0-9_.$-]*?(?:password|passwd|passphrase|passcode)|\b(?:[A-Za-z0-9_.$-]*[_.-])?(?:pass|pwd)|\b[A-Za-z0-9_$]*[a-z0-9](?-i:Pass|PASS|Pwd|PWD))"#,
                assignment_pattern!()
            ),
        )
        .gate(Assignment)
        .accept(password_value),
        Rule::secret(
            "secret-assignment",
            &["secret", "token", "key", "salt", "credential", "auth", "encrypted"],
            concat!(
                r#"(?i)\b[A-Za-z0-9_.$-]*?(?:secret|token|salt|credentials?|_?auth|encrypted[a-z]*|api[_-]?key|apikey|(?:access|auth|app|master|client|consumer|signing|encryption|private|session|nonce|hmac|jwt|license|webhook|account|storage|service|deploy|secret)[_-]?key)(?:[_-]?key)?(?:[_-]?base)?"#,
                assignment_pattern!()
            ),
        )
        // Stricter than `Assignment`: the key's name must end at the trigger, as the
        // pattern's does (one trigger of every match stands there).
        .gate(Gate::Check(super::rules::secret_name_then_assignment))
        .accept(secret_value),
    ]
}

/// Lines that are nothing but key material: the base64 body of a PEM, OpenSSH or PuTTY key
/// block seen without its header (a key pasted line by line, or a block cut in the middle).
///
/// A line qualifies when, trimmed, it is one run of 20 or more base64 characters that mixes
/// upper case, lower case and digits, is not plain hex, has enough distinct characters to be
/// random (entropy at least 4 bits per character), and either is long (40 or more) or carries
/// base64's `+`, `/` or `=` padding. Words, identifiers, hex digests and UUIDs never qualify.
pub fn key_material_lines(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim();
        if is_key_material(trimmed) {
            let start = at + (body.len() - body.trim_start().len());
            hits.push(Hit {
                family: Family::Secret,
                kind: "private-key-material",
                start,
                end: start + trimmed.len(),
                priority: usize::MAX,
            });
        }
        at += line.len();
    }
    hits
}

fn is_key_material(v: &str) -> bool {
    let b = v.as_bytes();
    if b.len() < 20 || b.len() > 4096 {
        return false;
    }
    let base64 = |c: &u8| c.is_ascii_alphanumeric() || b"+/=".contains(c);
    let body = v.trim_end_matches('=');
    if !b.iter().all(base64) || body.contains('=') || v.len() - body.len() > 2 {
        return false;
    }
    let symbols = b.iter().any(|c| b"+/=".contains(c));
    (b.len() >= 40 || symbols)
        && !b.iter().all(u8::is_ascii_hexdigit)
        && has_upper_lower(v)
        && has_digit(v)
        && shannon_entropy(v) >= 4.0
}

pub(super) fn has_digit(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_digit())
}

/// Whether `v` is hex digits alone, `-` allowed between groups (a UUID, a dashed id).
pub(super) fn is_hex_or_dashed(v: &str) -> bool {
    v.bytes().all(|c| c.is_ascii_hexdigit() || c == b'-')
}

/// Whether `v` is a UUID: 8-4-4-4-12 hex digits.
pub(super) fn is_uuid(v: &str) -> bool {
    v.len() == 36
        && v.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

pub(super) fn has_upper_lower(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_uppercase()) && v.bytes().any(|b| b.is_ascii_lowercase())
}

/// Whether `v`, letters alone, is spread like random letters rather than words: as varied as
/// random letters of its length are, and with under 30% vowels (random letters hold about 19%,
/// words about 40%).
pub(super) fn random_letters(v: &str) -> bool {
    let vowels = v.bytes().filter(|b| b"aeiouAEIOU".contains(b)).count();
    v.bytes().all(|b| b.is_ascii_alphabetic()) && spread_like_random(v) && vowels * 10 < v.len() * 3
}

/// Longest assigned value taken for a secret; longer values are prose or data.
const MAX_SECRET_BYTES: usize = 512;

/// Whether a token matched by a provider rule is a documentation mask rather than a key:
/// `sk_live_xxxxxxxx`, `ghp_****`, `<...>`.
pub(super) fn not_mask(v: &str, _group: usize) -> bool {
    let lower = v.to_ascii_lowercase();
    !["xxxx", "****", "<", "..."]
        .iter()
        .any(|m| lower.contains(m))
}

/// Values that stand for a secret rather than being one: templates and references
/// (`${VAR}`, `{{ var }}`, `$VAR`, `%VAR%`, `os.environ[...]`), masks (`xxxx`, `****`), and
/// words that say where the secret would go (`changeme`, `<your-key>`, `your_token_here`,
/// `none`, `required`, type names).
pub fn is_placeholder(v: &str) -> bool {
    let v = v.trim();
    let lower = v.to_ascii_lowercase();
    const MARKERS: &[&str] = &[
        "changeme",
        "change_me",
        "change-me",
        "change me",
        "replace_me",
        "replaceme",
        "replace-me",
        "placeholder",
        "your_",
        "your-",
        "your ",
        "yourpass",
        "yourkey",
        "yoursecret",
        "yourtoken",
        "xxxx",
        "****",
        "•••",
        "...",
        "redacted",
        "insert_",
        "insert-",
        "insert ",
        "environ",
        "getenv",
        "process.env",
        "env(",
        "env[",
        "env.",
        "secrets.",
        "vault:",
        "unique phrase",
        "_here",
        "-here",
        " here",
    ];
    const WORDS: &[&str] = &[
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "yes",
        "no",
        "required",
        "optional",
        "hidden",
        "empty",
        "string",
        "str",
        "int",
        "bool",
        "bytes",
        "text",
        "varchar",
        "secretstr",
        "example",
        "sample",
        "dummy",
        "fake",
        "todo",
        "tbd",
        "n/a",
        "na",
        "unset",
        "default",
        "secret",
        "token",
        "masked",
        "omitted",
        "removed",
        "nothing",
    ];
    let first = v.chars().next();
    let one_char = first.is_some_and(|f| v.chars().all(|c| c == f));
    let reference = v.starts_with('$')
        && v[1..].starts_with(|c: char| c.is_ascii_alphabetic() || "_{(".contains(c))
        && !is_crypt_format(v);
    let tag_like = v
        .find('<')
        .and_then(|i| v[i + 1..].find('>').map(|j| &v[i + 1..i + 1 + j]))
        .is_some_and(|inner| {
            !inner.is_empty()
                && inner.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && inner
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_ .-".contains(&b))
        });
    v.is_empty()
        || has_template(v)
        || MARKERS.iter().any(|m| lower.contains(m))
        || WORDS.contains(&lower.as_str())
        || one_char
        || reference
        || tag_like
        || (v.starts_with('%') && v.ends_with('%') && v.len() > 2)
}

/// Whether `v` is in the crypt format of password hashes, `$id$` and `$`-separated fields
/// ending in a long hash (`$krb5asrep$23$...`, `$8$salt$hash`), which starts like a `$NAME`
/// reference but is not one.
fn is_crypt_format(v: &str) -> bool {
    let mut fields = v.split('$');
    let (Some(""), Some(id)) = (fields.next(), fields.next()) else {
        return false;
    };
    let rest: Vec<&str> = fields.collect();
    let hash_like = |f: &str| {
        f.len() >= 16
            && f.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"./+=".contains(&b))
    };
    !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && rest.len() >= 2
        && rest.last().is_some_and(|last| hash_like(last))
}

/// Whether `v` holds a template or interpolation: `${NAME}`, `{{ name }}`, `#{name}`,
/// `$(command)`, `%(name)s`. The opener must be followed by a name and the closer within 64
/// bytes, so random punctuation in a real secret (`h#{D[-t>`) does not count.
fn has_template(v: &str) -> bool {
    const FORMS: &[(&str, u8)] = &[("${", b'}'), ("#{", b'}'), ("$(", b')'), ("%(", b')')];
    let jinja = v.find("{{").is_some_and(|i| v[i + 2..].contains("}}"));
    jinja
        || FORMS.iter().any(|&(open, close)| {
            v.match_indices(open).any(|(i, _)| {
                let rest = v[i + open.len()..].trim_start().as_bytes();
                rest.first()
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                    && rest
                        .iter()
                        .take(64)
                        .take_while(|&&b| b != close)
                        .all(|b| b.is_ascii_alphanumeric() || b"_.-: '\"[]|".contains(b))
                    && rest.iter().take(64).any(|&b| b == close)
            })
        })
}

/// Whether an unquoted value is a path, a URL, a number, an address or a code expression
/// rather than a literal secret.
fn is_structural(v: &str) -> bool {
    // `get`, not indexing: byte 2 may fall inside a character (`password=日本語`).
    let is_address = v
        .get(..2)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("0x"))
        && v.len() > 2
        && v[2..].bytes().all(|b| b.is_ascii_hexdigit());
    let is_path = v.starts_with(['/', '~', '.']) || v.get(1..3) == Some(":\\");
    let is_url = v.contains("://");
    let is_number = v
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    let is_code = v.contains(['(', ')', '[', ']', '{', '}']);
    // `settings.SECRET_KEY`, `config.api.token`: an attribute reference.
    let is_reference = v.contains('.')
        && !has_digit(v)
        && v.split('.').all(|part| {
            part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
    is_address || is_path || is_url || is_number || is_code || is_reference
}

/// Lower-case words joined by `-`, `_` or `.` with no digit: a name such as `db-credentials`
/// or `signing.key.name`, not a random value.
fn is_wordish(v: &str) -> bool {
    v.bytes()
        .all(|b| b.is_ascii_lowercase() || b"-_.".contains(&b))
}

fn character_classes(v: &str) -> usize {
    [
        v.bytes().any(|b| b.is_ascii_lowercase()),
        v.bytes().any(|b| b.is_ascii_uppercase()),
        v.bytes().any(|b| b.is_ascii_digit()),
        v.bytes().any(|b| !b.is_ascii_alphanumeric()),
    ]
    .iter()
    .filter(|&&c| c)
    .count()
}

/// Whether a value assigned to a password-named key is a real password. Quoted values (capture
/// groups 1 and 2 of the assignment rules) count from 4 characters unless they are
/// placeholders: a password in quotes is a literal even when it is a word. Unquoted values must
/// also not be paths, numbers or code, and must mix two character classes, so prose after
/// "password:" is not taken for one.
pub fn password_value(v: &str, group: usize) -> bool {
    let v = v.trim();
    if !(4..=MAX_SECRET_BYTES).contains(&v.len()) || is_placeholder(v) {
        return false;
    }
    let quoted = matches!(group, 1 | 2);
    quoted || (!is_structural(v) && character_classes(v) >= 2)
}

/// Whether a value assigned to a secret-named key looks like a real secret: 8 to 512 bytes, not
/// a placeholder, not a name made of words, not (unquoted) a path, number or code, and
/// random-looking: from 16 bytes on, Shannon entropy of at least 3 bits per character or as
/// much as a random string of its alphabet and length has (16 random hex digits fall under 3
/// bits one time in seven), two or more character classes below.
pub fn secret_value(v: &str, group: usize) -> bool {
    let v = v.trim();
    if !(8..=MAX_SECRET_BYTES).contains(&v.len()) || is_placeholder(v) || is_wordish(v) {
        return false;
    }
    let quoted = matches!(group, 1 | 2);
    if !quoted && is_structural(v) {
        return false;
    }
    if quoted && v.contains(char::is_whitespace) && v.split_whitespace().count() > 2 {
        // A sentence, not a key.
        return v.len() >= 40 && shannon_entropy(v) >= 4.5;
    }
    if v.len() >= 16 {
        return shannon_entropy(v) >= 3.0 || spread_like_random(v);
    }
    character_classes(v) >= 2
}

/// Whether `v` is spread like a random string of its own alphabet and length: its Shannon
/// entropy falls short of what such a string is expected to have by no more than chance
/// allows. A fixed threshold cannot say this: 32 random hex digits average 3.6 bits a
/// character and 16 random letters and digits 3.6 too, so a bar of 3.5 turns away a fifth of
/// real keys of either kind, while long base64 clears it with any structure at all. The
/// allowance, 3/sqrt(n) bits, is what 999 of 1,000 random strings of 16 to 128 characters stay
/// within, whatever their alphabet.
pub(super) fn spread_like_random(v: &str) -> bool {
    let n = v.len();
    n > 0 && shannon_entropy(v) >= expected_entropy(n, alphabet_size(v)) - 3.0 / (n as f64).sqrt()
}

/// How many symbols the alphabet `v` is drawn from has: 16 for hex, 10, 26 or 26 for each of
/// digits, lower- and upper-case letters present, and one for each distinct other byte.
fn alphabet_size(v: &str) -> usize {
    let b = v.as_bytes();
    let digits = b.iter().any(u8::is_ascii_digit);
    let lower = b.iter().any(u8::is_ascii_lowercase);
    let upper = b.iter().any(u8::is_ascii_uppercase);
    let hex_letters = |c: &u8| !c.is_ascii_alphabetic() || c.is_ascii_hexdigit();
    let mut others = [false; 256];
    for &c in b.iter().filter(|c| !c.is_ascii_alphanumeric()) {
        others[c as usize] = true;
    }
    let others = others.iter().filter(|&&o| o).count();
    let letters_and_digits = if digits && (lower != upper) && b.iter().all(hex_letters) {
        16
    } else {
        10 * usize::from(digits) + 26 * usize::from(lower) + 26 * usize::from(upper)
    };
    letters_and_digits + others
}

/// The Shannon entropy, in bits a character, that a string of `n` characters drawn uniformly
/// from `m` symbols has on average: log2 n less the mean of c log2 c over each symbol's count
/// c, which is binomial (n, 1/m).
fn expected_entropy(n: usize, m: usize) -> f64 {
    if n < 2 || m < 2 {
        return 0.0;
    }
    let q = 1.0 / m as f64;
    let mut p = (0..n).fold(1.0, |p, _| p * (1.0 - q));
    let mut mean = 0.0;
    for k in 1..=n {
        p *= (n - k + 1) as f64 / k as f64 * q / (1.0 - q);
        // Past the mode the terms only shrink: stop once they no longer move the sum.
        if k as f64 > n as f64 * q && p < 1e-12 {
            break;
        }
        mean += p * k as f64 * detmath::log2(k as f64);
    }
    detmath::log2(n as f64) - m as f64 / n as f64 * mean
}

/// Shannon entropy of `v`'s bytes, in bits per byte.
pub fn shannon_entropy(v: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in v.bytes() {
        counts[b as usize] += 1;
    }
    let n = v.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * detmath::log2(p)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `scan` fuzz target: a key=value secret whose value starts with a
    /// multi-byte character made the address check slice inside that character.
    #[test]
    fn values_starting_with_a_multibyte_character_do_not_panic() {
        for text in [
            "password=日本語",
            "AccountKey=\u{E006F}\u{E0072}\u{E0065}",
            "token=é0x",
        ] {
            for target in [crate::types::Target::Memory, crate::types::Target::Global] {
                let results = crate::scan(&[crate::types::ScanItem {
                    text: text.to_owned(),
                    target,
                    author: kenning_contract::args::Author::Agent,
                }]);
                assert_eq!(results.len(), 1, "{text}");
            }
        }
    }
    use crate::scan::rules::{Hit, RuleSet};
    use std::sync::LazyLock;

    fn find(text: &str) -> Vec<Hit> {
        static SET: LazyLock<RuleSet> = LazyLock::new(|| RuleSet::new(rules()));
        SET.find_alone(text)
    }

    /// (kind, secret text) for every hit.
    fn found(text: &str) -> Vec<(&'static str, &str)> {
        find(text)
            .iter()
            .map(|h| (h.kind, &text[h.start..h.end]))
            .collect()
    }

    #[test]
    fn provider_tokens_are_found_with_exact_spans() {
        let cases = [
            ("aws-access-key-id", "AKIAIOSFODNN7EXAMPLE"),
            ("github-token", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
            ("slack-token", "xoxb-123456789012-abcdefABCDEF"),
            ("stripe-key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
            ("anthropic-api-key", "sk-ant-api03-abcdefGHIJKL0123456789"),
            ("openai-api-key", "sk-proj-Abc123def456GHI789jkl012"),
            ("google-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
            (
                "jwt",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            ),
        ];
        for (kind, secret) in cases {
            let text = format!("use {secret} for it");
            let hits = found(&text);
            assert!(hits.contains(&(kind, secret)), "{kind}: {hits:?}");
        }
        let pat = format!("github_pat_{}", "A1b2".repeat(20) + "xy");
        assert_eq!(
            found(&format!("t {pat} t")),
            [("github-token", pat.as_str())]
        );
    }

    /// One fabricated sample per rule: (kind, text, the exact span that must be reported).
    const SAMPLES: &[(&str, &str, &str)] = &[
        (
            "putty-private-key",
            "Private-Lines: 2\nAAAAgQC7k2Lm9Qx+/abc\nZ3Rm0PqL8sT2vW=\nPrivate-MAC: 00",
            "AAAAgQC7k2Lm9Qx+/abc\nZ3Rm0PqL8sT2vW=\n",
        ),
        (
            "age-secret-key",
            "k AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE",
            "AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE",
        ),
        (
            "gcp-oauth-client-secret",
            "\"client_secret\": \"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\"",
            "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",
        ),
        (
            "gcp-oauth-access-token",
            "tok ya29.a0AfH6SMBx7Qk2LmN0pQrStUvWxYz12345",
            "ya29.a0AfH6SMBx7Qk2LmN0pQrStUvWxYz12345",
        ),
        (
            "azure-storage-key",
            "AccountName=st1;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx==;EndpointSuffix=x",
            "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx==",
        ),
        (
            "azure-sas-signature",
            "https://a.blob.core.windows.net/c?sv=2022&sig=Q2xr9Tz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2%2Bqs%3D",
            "Q2xr9Tz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2%2Bqs%3D",
        ),
        (
            "azure-client-secret",
            "AZURE_CLIENT_SECRET=abc8Q~x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu",
            "abc8Q~x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu",
        ),
        (
            "digitalocean-token",
            "t dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ),
        (
            "heroku-api-key",
            "heroku HRKU-AbCdEfGh0123456789_AbCdEfGh0123456789-AbCdEfGh0123456789AbCd",
            "HRKU-AbCdEfGh0123456789_AbCdEfGh0123456789-AbCdEfGh0123456789AbCd",
        ),
        (
            "gitlab-token",
            "GITLAB_TOKEN=glpat-Ab12Cd34Ef56Gh78Ij90",
            "glpat-Ab12Cd34Ef56Gh78Ij90",
        ),
        (
            "gitlab-token",
            "GITLAB_AGENT_TOKEN=glagent-Q7xk2mVb9LpR4tNw8ZcY3hJd6FsG1aUe5oTi0EyHQ7xk2mVb9L",
            "glagent-Q7xk2mVb9LpR4tNw8ZcY3hJd6FsG1aUe5oTi0EyHQ7xk2mVb9L",
        ),
        (
            "gitlab-token",
            "Cookie: _gitlab_session=0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e",
            "0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e",
        ),
        (
            "slack-token",
            "SLACK_TOKEN=xoxo-2318294531-2318294533-1234567890123-8f3b2a",
            "xoxo-2318294531-2318294533-1234567890123-8f3b2a",
        ),
        (
            "stripe-key",
            "STRIPE_KEY=sk_prod_Q7xk2mVb9LpR4tNw8ZcY3hJd",
            "sk_prod_Q7xk2mVb9LpR4tNw8ZcY3hJd",
        ),
        (
            "bitbucket-token",
            "app password ATBBx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsT",
            "ATBBx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsT",
        ),
        (
            "slack-webhook",
            "https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/x7Yz0Lm3Np7Vw5Yb8Xc1Kd4F",
            "T01ABCDEF/B02GHIJKL/x7Yz0Lm3Np7Vw5Yb8Xc1Kd4F",
        ),
        (
            "discord-webhook",
            "https://discord.com/api/webhooks/123456789012345678/x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsT",
            "123456789012345678/x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsT",
        ),
        (
            "discord-bot-token",
            "DISCORD_TOKEN MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs1",
            "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs1",
        ),
        (
            "telegram-bot-token",
            "https://api.telegram.org/bot1234567890:AAx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu/getMe",
            "1234567890:AAx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu",
        ),
        (
            "stripe-key",
            "whsec_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu",
            "whsec_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu",
        ),
        (
            "square-token",
            "sq0csp-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5",
            "sq0csp-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5",
        ),
        (
            "braintree-token",
            "access_token$production$ab12cd34ef56gh78$0123456789abcdef0123456789abcdef",
            "access_token$production$ab12cd34ef56gh78$0123456789abcdef0123456789abcdef",
        ),
        (
            "shopify-token",
            "X-Shopify-Access-Token: shpat_0123456789abcdef0123456789abcdef",
            "shpat_0123456789abcdef0123456789abcdef",
        ),
        (
            "huggingface-token",
            "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
            "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
        ),
        (
            "groq-api-key",
            "gsk_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb",
            "gsk_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb",
        ),
        (
            "replicate-token",
            "r8_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz",
            "r8_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz",
        ),
        (
            "perplexity-api-key",
            "pplx-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw",
            "pplx-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw",
        ),
        (
            "xai-api-key",
            "xai-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0L",
            "xai-x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0L",
        ),
        (
            "cohere-api-key",
            "COHERE_API_KEY=x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm",
            "x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm",
        ),
        (
            "npm-token",
            "NPM_TOKEN npm_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Y",
            "npm_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Y",
        ),
        (
            "npm-auth",
            "//registry.npmjs.org/:_authToken=26dfe8d8-1111-4380-92ff-9c3c6ea5d930",
            "26dfe8d8-1111-4380-92ff-9c3c6ea5d930",
        ),
        (
            "pypi-token",
            "pypi-AgEIcHlwaS5vcmcCJDx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb",
            "pypi-AgEIcHlwaS5vcmcCJDx7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7Vw5Yb",
        ),
        (
            "sendgrid-api-key",
            "SG.x7Yz0Lm3Np7Vw5Yb8Xc1Kd.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np",
            "SG.x7Yz0Lm3Np7Vw5Yb8Xc1Kd.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np",
        ),
        (
            "twilio-api-key",
            "sid SK0123456789abcdef0123456789abcdef",
            "SK0123456789abcdef0123456789abcdef",
        ),
        (
            "twilio-auth-token",
            "TWILIO_AUTH_TOKEN=9f86d081884c7d659a2feaa0c55ad015",
            "9f86d081884c7d659a2feaa0c55ad015",
        ),
        (
            "mailgun-api-key",
            "key-0123456789abcdef0123456789abcdef",
            "key-0123456789abcdef0123456789abcdef",
        ),
        (
            "mailchimp-api-key",
            "38c47f19e349153fa963bb3b3212fe8e-us11",
            "38c47f19e349153fa963bb3b3212fe8e-us11",
        ),
        (
            "linear-api-key",
            "lin_api_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm",
            "lin_api_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm",
        ),
        (
            "notion-token",
            "ntn_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7V",
            "ntn_x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7V",
        ),
        (
            "newrelic-api-key",
            "NRAK-0123456789ABCDEFGHIJKLMNOPQ",
            "NRAK-0123456789ABCDEFGHIJKLMNOPQ",
        ),
        (
            "password-hash",
            "admin:$apr1$tp8glkbm$fjg65tI1eipoBh62aEjIy0",
            "$apr1$tp8glkbm$fjg65tI1eipoBh62aEjIy0",
        ),
        (
            "api-key-header",
            "X-Api-Key: x7Yz0Lm3Np7Vw5Yb8Xc1",
            "x7Yz0Lm3Np7Vw5Yb8Xc1",
        ),
        (
            "basic-auth",
            "curl -u deploy:Zx81kQp0 https://api.example.com",
            "Zx81kQp0",
        ),
        (
            "netrc-password",
            "machine api.example.com login me password Zx81kQp0",
            "Zx81kQp0",
        ),
        ("config-password", "password \"hunter22\"", "hunter22"),
        (
            "pgpass-password",
            "db.internal:5432:*:replicator:Zx81kQp0",
            "Zx81kQp0",
        ),
        (
            "xml-password",
            "<Pass encoding=\"base64\">c2VjcmV0cGFzcw==</Pass>",
            "c2VjcmV0cGFzcw==",
        ),
        (
            "php-define-secret",
            "define('AUTH_SALT', 'j@cGIZ(>Jf {ObpP');",
            "j@cGIZ(>Jf {ObpP",
        ),
        (
            "login-call-password",
            "conn.login('me@example.com', 'sfpassword', cb)",
            "sfpassword",
        ),
    ];

    #[test]
    fn every_format_is_found_with_its_exact_span() {
        let missed: Vec<_> = SAMPLES
            .iter()
            .filter(|(kind, text, secret)| !found(text).contains(&(*kind, *secret)))
            .map(|(kind, text, _)| (*kind, found(text)))
            .collect();
        assert!(missed.is_empty(), "{missed:?}");
    }

    #[test]
    fn every_rule_has_a_sample() {
        let tested = [
            "private-key",
            "aws-access-key-id",
            "aws-secret-access-key",
            "google-api-key",
            "github-token",
            "slack-token",
            "anthropic-api-key",
            "openai-api-key",
            "jwt",
            "url-password",
            "authorization-header",
            "bearer-token",
            "password",
            "secret-assignment",
        ];
        for rule in rules() {
            assert!(
                SAMPLES.iter().any(|s| s.0 == rule.kind) || tested.contains(&rule.kind),
                "no sample for {}",
                rule.kind
            );
        }
    }

    #[test]
    fn leaky_config_forms() {
        assert_eq!(
            found("export RDS_PASSWORD='dummy-pass'"),
            [("password", "dummy-pass")]
        );
        assert_eq!(found("IRC_PASS=irc_pass"), [("password", "irc_pass")]);
        assert_eq!(
            found("    $dbpasswd = 'pass123';"),
            [("password", "pass123")]
        );
        assert_eq!(
            found("\"sshPassphrase\" : \"SSHPass123\","),
            [("password", "SSHPass123")]
        );
        assert_eq!(
            found("APP_KEY=base64:4StVx8PvCLC6gkJXgGd"),
            [("secret-assignment", "base64:4StVx8PvCLC6gkJXgGd")]
        );
        assert_eq!(
            found("\"auth\": \"X3Rva2VuOjEyMzQuMThq\""),
            [("secret-assignment", "X3Rva2VuOjEyMzQuMThq")]
        );
        assert_eq!(
            found("https://me@example.com:pa!#@498@github.com"),
            [("url-password", "pa!#@498")]
        );
        assert_eq!(
            found("redis://:Zx81kQp0@cache:6379"),
            [("url-password", "Zx81kQp0")]
        );
        assert_eq!(
            found("SECRET_KEY = 'zh!=!gq(w^_t[sBR29954x)HI+$eh'"),
            [("secret-assignment", "zh!=!gq(w^_t[sBR29954x)HI+$eh")]
        );
    }

    #[test]
    fn bare_key_block_lines_are_key_material() {
        let line = "MIIEogIBAAKCAQEAjosMtDUqbE1/8zxZac1t8fkh2SxGuMXHk9yxniyM2m76donW";
        let hits = key_material_lines(&format!("  {line}\r\nnext"));
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].start, hits[0].end), (2, 2 + line.len()));
        assert_eq!(key_material_lines("oS6nDkCtJF50fFdawQoU4eQ=").len(), 1);
        for text in [
            "5d41402abc4b2a76b9719d911017c592",
            "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d",
            "123e4567-e89b-12d3-a456-426614174000",
            "ThisIsALongCamelCaseIdentifierName",
            "a sentence with words in it",
            "aGVsbG8gd29ybGQ=",
        ] {
            assert!(key_material_lines(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn masks_templates_and_references_are_refused() {
        for text in [
            "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "client_secret: {{ vault_client_secret }}",
            "password: \"{{ lookup('env', 'DB_PASS') }}\"",
            "secret_key = settings.SECRET_KEY",
            "api_key: \"your_api_key_here\"",
            "OPENAI_API_KEY=<your key here>",
            "secret: db-credentials",
            "credentials: ~/.aws/credentials",
            "PASSWORD_MIN_LENGTH=12",
            "bypass = cache_layer",
            "password: reset it tomorrow",
            "postgres://app:${DB_PASSWORD}@db:5432/app",
            "docker login -u $DOCKER_USER -p \"$DOCKER_PASS\" registry.example.com",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
        assert!(has_template("a${HOME}b") && has_template("#{name}") && !has_template("h#{D[-t>y"));
    }

    #[test]
    fn aws_secret_key_value_only() {
        let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        let text = format!("aws_secret_access_key = {secret}\n");
        let hits = found(&text);
        assert_eq!(hits[0], ("aws-secret-access-key", secret));
    }

    #[test]
    fn private_key_blocks_with_or_without_end() {
        let block = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
        let text = format!("key:\n{block}\nafter");
        assert_eq!(found(&text), [("private-key", block)]);
        let cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA";
        assert_eq!(found(&format!("x {cut}")), [("private-key", cut)]);
        let enc = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nabc\n-----END ENCRYPTED PRIVATE KEY-----";
        assert_eq!(found(enc), [("private-key", enc)]);
    }

    #[test]
    fn url_password_span_is_the_password_only() {
        assert_eq!(
            found("postgres://admin:s3cr3t-Pw@db.internal:5432/app"),
            [("url-password", "s3cr3t-Pw")]
        );
        assert!(found("postgres://admin:${DB_PASSWORD}@db/app").is_empty());
        assert!(found("see https://example.com:8080/path and http://host/a@b").is_empty());
    }

    #[test]
    fn headers_and_assignments() {
        assert_eq!(
            found("Authorization: Bearer abcDEF123456ghiJKL789"),
            [
                ("authorization-header", "abcDEF123456ghiJKL789"),
                ("bearer-token", "abcDEF123456ghiJKL789")
            ]
        );
        assert_eq!(found("password=hunter22"), [("password", "hunter22")]);
        assert_eq!(
            found(r#"{"api_key": "Zx81kQp0Lm3RtY7w"}"#),
            [("secret-assignment", "Zx81kQp0Lm3RtY7w")]
        );
        assert_eq!(
            found("export GITHUB_TOKEN='q8Rt2ZmP0xLk5VbN'"),
            [("secret-assignment", "q8Rt2ZmP0xLk5VbN")]
        );
        assert_eq!(
            found("SECRET_KEY: Vq9-rT3_zX81LmKp4w"),
            [("secret-assignment", "Vq9-rT3_zX81LmKp4w")]
        );
        // A value refused as a whole (a URL) may hold an assignment of its own.
        assert_eq!(
            found("otpauth://totp/Acme:me%40example.com?secret=u-ZSYBRDJ_0RGD1F5&issuer=Acme"),
            [("secret-assignment", "u-ZSYBRDJ_0RGD1F5")]
        );
        // Random hex of 16 digits under 3 bits a character: as spread as random hex is.
        assert_eq!(
            found("API_SECRET=b2f2d0f0cc022238"),
            [("secret-assignment", "b2f2d0f0cc022238")]
        );
    }

    #[test]
    fn keyed_settings_are_assignments() {
        assert_eq!(
            found(r#"<add key="StripeApiKey" value="Zx81kQp0Lm3RtY7wVq9rT3zX" />"#),
            [("secret-assignment", "Zx81kQp0Lm3RtY7wVq9rT3zX")]
        );
        assert_eq!(
            found(r#"{"name": "SESSION_SECRET", "value": "q8Rt2ZmP0xLk5VbN7wYc"}"#),
            [("secret-assignment", "q8Rt2ZmP0xLk5VbN7wYc")]
        );
        assert_eq!(
            found(r#"<property name="db.password" value="hunter22x"/>"#),
            [("password", "hunter22x")]
        );
        for text in [
            r#"<add key="CacheKey" value="user-profile-v2" />"#,
            r#"{"name": "token_type", "value": "bearer"}"#,
            r#"<add key="ApiToken" label="Zx81kQp0Lm3RtY7wVq9rT3zX" />"#,
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn cisco_and_kerberos_password_hashes_are_found() {
        for (text, hash) in [
            (
                "enable secret 8 $8$/YaaW2vlhFqbX1$WZOBPkdwHNwUj71j/N4DgeR8YfxpmkTyw1G3AC5p6wk",
                "$8$/YaaW2vlhFqbX1$WZOBPkdwHNwUj71j/N4DgeR8YfxpmkTyw1G3AC5p6wk",
            ),
            (
                "username ops secret 9 $9$sAOYy/.HMMIicj$BstZXLDC05/cktz5IsGDUZKMjIC0Wq.cBgm9k85SkC4",
                "$9$sAOYy/.HMMIicj$BstZXLDC05/cktz5IsGDUZKMjIC0Wq.cBgm9k85SkC4",
            ),
            (
                "roasted: $krb5asrep$23$svc_sql@CORP.LOCAL:0aae281aa61440ffc7ec090d7d3fdd49$ff311309ae654d8d8fe7c6a2d11fcd503dfa2f4d5b1bc6670a71ba5f7afb3f5b",
                "$krb5asrep$23$svc_sql@CORP.LOCAL:0aae281aa61440ffc7ec090d7d3fdd49$ff311309ae654d8d8fe7c6a2d11fcd503dfa2f4d5b1bc6670a71ba5f7afb3f5b",
            ),
            (
                "$krb5tgs$23$*svc_web$CORP.LOCAL$http/web01*$19189a23d3f20d0d3c6b58a68a09098a$d5e7ce8978039e218e557cb26536bc83b6c97e0597c67a329cc46c88de3ffed2fbc145b4f6fc62cf",
                "$krb5tgs$23$*svc_web$CORP.LOCAL$http/web01*$19189a23d3f20d0d3c6b58a68a09098a$d5e7ce8978039e218e557cb26536bc83b6c97e0597c67a329cc46c88de3ffed2fbc145b4f6fc62cf",
            ),
        ] {
            assert_eq!(found(text), [("password-hash", hash)], "{text}");
        }
        for text in [
            "type 8 secrets look like $8$salt$hash",
            "$krb5asrep$23$ is the hashcat prefix for AS-REP roasting",
            "enable secret 9 $9$sAOYy/.HMMIicj$BstZXLDC05/cktz5IsGDUZKMjIC0Wq.cBgm9k85SkC",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_password_hash_assigned_to_a_secret_name_is_not_taken_for_a_reference() {
        assert!(!is_placeholder(
            "$8$/YaaW2vlhFqbX1$WZOBPkdwHNwUj71j/N4DgeR8YfxpmkTyw1G3AC5p6wk"
        ));
        assert!(is_placeholder("$DB_PASSWORD"));
        assert!(is_placeholder("$HOME/.config/token"));
        assert!(is_placeholder("${API_KEY}"));
    }

    #[test]
    fn placeholders_and_references_are_not_secrets() {
        for text in [
            "password=changeme",
            "password: <your-password>",
            "api_key = ${API_KEY}",
            "token=$GITHUB_TOKEN",
            "secret: xxxxxxxxxxxxxxxx",
            "password = ********",
            "api_key: \"your_api_key_here\"",
            "token = os.environ[\"TOKEN\"]",
            "password: required",
            "token: abc",
            "tokenizer: cl100k_base",
            "secret = aaaaaaaaaaaaaaaaaaaa",
            "key = 0x401000",
            "the password is in the vault",
            "%APPDATA%\\x password=%DB_PASS%",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn hashes_uuids_commits_and_addresses_are_not_secrets() {
        for text in [
            "md5 5d41402abc4b2a76b9719d911017c592",
            "sha1: aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d",
            "sha256=2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "request id 123e4567-e89b-12d3-a456-426614174000",
            "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
            "sub_401000 at 0x401000 calls 0x7ff6a1b2c3d4",
            "set $HOME and ${PATH} before running",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn twilio_and_square_look_alikes_one_character_off_are_not_secrets() {
        for text in [
            // 31 hex after "SK", then hex of mixed case, then no letter at all.
            "sid SK0123456789abcdef0123456789abcde",
            "sid SK0123456789ABCDEF0123456789abcdef",
            "part SK01234567890123456789012345678901",
            "TWILIO_AUTH_TOKEN=9f86d081884c7d659a2feaa0c55ad01",
            "token EAAAl2Qx9VkZ7pMnB4cR8tW",
        ] {
            // The generic assignment rule may still take a bare value; the provider rules not.
            let provider: Vec<_> = found(text)
                .into_iter()
                .filter(|(k, _)| k.starts_with("twilio") || k.starts_with("square"))
                .collect();
            assert!(provider.is_empty(), "{text}: {provider:?}");
        }
    }

    #[test]
    fn provider_tokens_in_one_case_or_split_differently_are_still_found() {
        let hf = "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";
        let sendgrid = "SG.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTu.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsT";
        let twilio = "SK0123456789ABCDEF0123456789ABCDEF";
        for (kind, text, secret) in [
            ("huggingface-token", format!("HF_TOKEN={hf}"), hf),
            (
                "sendgrid-api-key",
                format!("key: {sendgrid}, id 4"),
                sendgrid,
            ),
            ("twilio-api-key", format!("sid {twilio}"), twilio),
        ] {
            assert!(
                found(&text).contains(&(kind, secret)),
                "{text}: {:?}",
                found(&text)
            );
        }
    }

    #[test]
    fn identifiers_and_off_length_values_after_those_prefixes_are_not_secrets() {
        for text in [
            // Words after "hf_", one case: not spread like random letters.
            "call hf_transformersautomodelforcausallmloader here",
            "api_org_internationalizationconfigurationentry",
            // 65 and 67 characters after "SG.".
            "SG.x7Yz0Lm3Np7Vw5Yb8Xc1Kd.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3N",
            "SG.x7Yz0Lm3Np7Vw5Yb8Xc1Kd.x7Yz0Lm3Np7Vw5Yb8Xc1Kd4Fg6Hj2qsTux7Yz0Lm3Np7",
        ] {
            let provider: Vec<_> = found(text)
                .into_iter()
                .filter(|(k, _)| k.starts_with("huggingface") || k.starts_with("sendgrid"))
                .collect();
            assert!(provider.is_empty(), "{text}: {provider:?}");
        }
    }

    #[test]
    fn terraform_passwords_are_found() {
        let text = "administrator_login_password = \"Zx81kQp0Lm3R\"";
        assert_eq!(found(text), [("password", "Zx81kQp0Lm3R")]);
    }

    #[test]
    fn random_strings_are_told_by_the_spread_of_their_own_alphabet() {
        // Random keys whose entropy a fixed bar of 3.5 bits turns away: 32 hex digits (3.40),
        // 16 lower-case letters and digits (3.75 of an expected 3.6), a UUID.
        for random in [
            "9fd0fab79bd9ece9c8f0f660a26796f0",
            "k3j9x0a7m2p5q8w1",
            "7913993e-d6da-209d-a990-98b260ff3ac1",
            "Wm9vYmFyQmF6UXV4MTIzNDU2Nzg5MA+/aBcDeFgH==",
        ] {
            assert!(spread_like_random(random), "{random}");
        }
        for repetitive in [
            "aaaaaaaabbbbbbbb12",
            "abcabcabcabc1234abc",
            "password1password1",
            "00000000000000000000000000000001",
        ] {
            assert!(!spread_like_random(repetitive), "{repetitive}");
        }
    }

    #[test]
    fn the_alphabet_of_a_value_is_read_from_its_characters() {
        assert_eq!(alphabet_size("9fd0fab79bd9ece9"), 16);
        assert_eq!(alphabet_size("9FD0FAB79BD9ECE9"), 16);
        assert_eq!(alphabet_size("7913993e-d6da-209d"), 17);
        assert_eq!(alphabet_size("k3j9x0a7m2p5q8w1"), 36);
        assert_eq!(alphabet_size("q8Rt2ZmP0xLk5VbN"), 62);
        assert_eq!(alphabet_size("Zm9v+/=="), 62 + 3);
        assert_eq!(alphabet_size("2490241512401536"), 10);
    }

    #[test]
    fn the_expected_entropy_matches_what_random_strings_show() {
        // Averages of 20,000 random strings each, measured apart.
        for (n, m, mean) in [
            (32, 16, 3.61),
            (16, 36, 3.62),
            (20, 62, 4.03),
            (64, 16, 3.82),
        ] {
            let e = expected_entropy(n, m);
            assert!((e - mean).abs() < 0.015, "{n} of {m}: {e} against {mean}");
        }
    }

    #[test]
    fn entropy_separates_words_from_keys() {
        assert!(shannon_entropy("aaaaaaaaaaaaaaaa") < 0.01);
        assert!((shannon_entropy("abcd") - 2.0).abs() < 1e-12);
        assert!(secret_value("Zx81kQp0Lm3RtY7w", 3));
        assert!(!secret_value("abababababababab", 3));
    }
}
