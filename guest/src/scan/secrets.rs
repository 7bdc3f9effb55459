//! Secret-like values to redact: provider keys and tokens with a recognisable shape, private key
//! blocks, passwords in URLs and authorisation headers, and values assigned to secret-named keys
//! that look random enough to be real.
//!
//! Precision matters as much as recall: hex digests, UUIDs, commit ids, addresses and
//! environment variable references are not secrets and must survive intact.

use super::rules::{Gate, Rule};
use crate::detmath;

/// Every secret rule; earlier rules win when spans overlap.
pub fn rules() -> Vec<Rule> {
    use Gate::{Assignment, UrlCredentials};
    vec![
        // Lazy up to the first END line, or to the end of the text when it is missing.
        Rule::secret(
            "private-key",
            &["-----BEGIN"],
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        ),
        Rule::secret(
            "aws-access-key-id",
            &["AKIA", "ASIA", "ABIA", "ACCA"],
            r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        ),
        Rule::secret(
            "aws-secret-access-key",
            &["secret_access", "secretaccess", "aws_secret", "awssecret"],
            r#"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        )
        .gate(Assignment),
        Rule::secret(
            "github-token",
            &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{82})\b",
        ),
        Rule::secret("slack-token", &["xox"], r"\bxox[abeprs]-[A-Za-z0-9-]{10,}").accept(has_digit),
        Rule::secret("stripe-key", &["k_live_"], r"\b[rs]k_live_[A-Za-z0-9]{16,}\b"),
        Rule::secret("anthropic-api-key", &["sk-ant-"], r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
        // Letters and digits both: excludes kebab-case names such as "sk-learn-compatible-api".
        Rule::secret("openai-api-key", &["sk-"], r"\bsk-[A-Za-z0-9_-]{20,}")
            .accept(|v| has_digit(v) && v.bytes().any(|b| b.is_ascii_alphabetic())),
        Rule::secret("google-api-key", &["AIza"], r"\bAIza[0-9A-Za-z_-]{35}"),
        Rule::secret(
            "jwt",
            &["eyJ"],
            r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ),
        Rule::secret(
            "url-password",
            &["://"],
            r"\b[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/?#@]+:([^\s/?#@]+)@",
        )
        .gate(UrlCredentials)
        .accept(|v| !is_placeholder(v)),
        Rule::secret(
            "authorization-header",
            &["authorization"],
            r#"(?i)\bauthorization["']?\s*[:=]\s*["']?\s*(?:(?:bearer|basic|token|digest)\s+)?([A-Za-z0-9._~+/=-]{8,})"#,
        )
        .gate(Assignment)
        .accept(|v| !is_placeholder(v)),
        Rule::secret("bearer-token", &["bearer"], r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
            .accept(looks_secret),
        Rule::secret(
            "password",
            &["pass"],
            r#"(?i)\b[A-Za-z0-9_.-]*?(?:password|passwd|passphrase)["']?\s*(?:=|:=|:|=>)\s*(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"',;)}\]]+))"#,
        )
        .gate(Assignment)
        .accept(looks_secret),
        Rule::secret(
            "secret-assignment",
            &["secret", "token", "key"],
            r#"(?i)\b[A-Za-z0-9_.-]*?(?:secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key)(?:[_-]?key)?["']?\s*(?:=|:=|:|=>)\s*(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"',;)}\]]+))"#,
        )
        .gate(Assignment)
        .accept(looks_secret),
    ]
}

fn has_digit(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_digit())
}

/// Longest assigned value taken for a secret; longer values are prose or data.
const MAX_SECRET_BYTES: usize = 512;

/// Values that stand for a secret rather than being one: templates, references, masks,
/// documentation examples.
fn is_placeholder(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    const MARKERS: &[&str] = &[
        "changeme",
        "change_me",
        "change-me",
        "example",
        "placeholder",
        "your_",
        "your-",
        "yourpass",
        "<",
        ">",
        "${",
        "{{",
        "xxxx",
        "****",
        "....",
        "redacted",
        "dummy",
        "sample",
        "fake",
        "notreal",
        "not_real",
        "insert",
        "environ",
        "getenv",
        "process.env",
    ];
    const WORDS: &[&str] = &[
        "password",
        "passwd",
        "secret",
        "token",
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "required",
        "optional",
        "hidden",
        "pass",
    ];
    let mut chars = v.chars();
    let first = chars.next();
    let one_char = first.is_some_and(|f| v.chars().all(|c| c == f));
    MARKERS.iter().any(|m| lower.contains(m))
        || WORDS.contains(&lower.as_str())
        || one_char
        || v.starts_with('$')
        || (v.starts_with('%') && v.ends_with('%'))
}

/// Whether an assigned value looks like a real secret: 8 to 512 bytes, not a placeholder,
/// not an address or code expression, and random-looking (two or more character classes when
/// short, Shannon entropy of at least 3 bits per character from 16 bytes on).
pub fn looks_secret(v: &str) -> bool {
    let v = v.trim();
    if !(8..=MAX_SECRET_BYTES).contains(&v.len()) || is_placeholder(v) {
        return false;
    }
    let is_address = v.len() > 2
        && v[..2].eq_ignore_ascii_case("0x")
        && v[2..].bytes().all(|b| b.is_ascii_hexdigit());
    let is_code = v.contains(['(', ')', '[', ']', '{', '}']);
    if is_address || is_code {
        return false;
    }
    if v.len() >= 16 {
        return shannon_entropy(v) >= 3.0;
    }
    let classes = [
        v.bytes().any(|b| b.is_ascii_lowercase()),
        v.bytes().any(|b| b.is_ascii_uppercase()),
        v.bytes().any(|b| b.is_ascii_digit()),
        v.bytes().any(|b| !b.is_ascii_alphanumeric()),
    ];
    classes.iter().filter(|&&c| c).count() >= 2
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
    use crate::scan::rules::{Hit, RuleSet};
    use std::sync::LazyLock;

    fn find(text: &str) -> Vec<Hit> {
        static SET: LazyLock<RuleSet> = LazyLock::new(|| RuleSet::new(rules()));
        SET.find(text)
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
    fn entropy_separates_words_from_keys() {
        assert!(shannon_entropy("aaaaaaaaaaaaaaaa") < 0.01);
        assert!((shannon_entropy("abcd") - 2.0).abs() < 1e-12);
        assert!(looks_secret("Zx81kQp0Lm3RtY7w"));
        assert!(!looks_secret("abababababababab"));
    }
}
