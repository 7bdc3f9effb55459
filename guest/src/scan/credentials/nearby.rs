//! Credentials named near their value rather than assigned to it: a typed declaration
//! (`API_TOKEN: &str = "..."`), a hard-coded fallback (`process.env.API_TOKEN || "..."`), a
//! command-line flag (`--api-key ...`), a credential type's constructor
//! (`new ApiKeyCredential("...")`), a sentence (`the staging token: ...`) and a Terraform
//! variable's default, SQL's `IDENTIFIED BY`. The word naming the credential is there, as in an assignment; what
//! stands between it and the value is not `=` or `:`.
//!
//! Every value must pass the same test as an assigned one ([`secret_value`]): long enough,
//! random-looking, not a placeholder, a word or a path; SQL's clause, which names a password,
//! takes what a password assignment takes ([`password_value`]).

use super::super::rules::Rule;
use super::super::secrets::{password_value, secret_value};

/// The words that name a credential in an identifier, for the patterns below (case-insensitive).
macro_rules! secret_word {
    () => {
        r"(?:secret|token|password|passwd|passphrase|api_?key|apikey|credentials?|access_?key|private_?key)"
    };
}

/// A value in double or single quotes (groups 1 and 2, which [`secret_value`] reads as quoted).
macro_rules! quoted_value {
    () => {
        r#"(?:"([^"\r\n]+)"|'([^'\r\n]+)')"#
    };
}

/// The rules of this module.
pub fn rules() -> Vec<Rule> {
    vec![
        // `pub const API_TOKEN: &str = "..."`, `val apiKey: String = "..."`,
        // `private readonly apiKey: string = '...'`.
        Rule::secret(
            "typed-secret-declaration",
            &["secret", "token", "passw", "passphrase", "apikey", "api_key", "credential", "access_key", "accesskey", "private_key", "privatekey"],
            concat!(
                r"(?i)\b[A-Za-z0-9_]*",
                secret_word!(),
                r#"[A-Za-z0-9_]*\s*:\s*&?(?:'static\s+)?[A-Za-z_][A-Za-z0-9_:.<>\[\]]*\??\s*=\s*"#,
                quoted_value!()
            ),
        )
        .accept(secret_value),
        // `process.env.API_TOKEN || "..."`, `os.getenv("API_TOKEN", "...")`,
        // `ENV.fetch("API_TOKEN") { "..." }` is not taken; `${API_TOKEN:-...}` is.
        Rule::secret(
            "secret-fallback",
            &["secret", "token", "passw", "passphrase", "apikey", "api_key", "credential", "access_key", "accesskey", "private_key", "privatekey"],
            concat!(
                r"(?i)\b[A-Za-z0-9_.$]*",
                secret_word!(),
                r#"[A-Za-z0-9_]*["'\])]*\s*(?:\|\||\?\?|\bor\b|,)\s*"#,
                quoted_value!(),
                r"|\$\{[A-Za-z0-9_]*",
                secret_word!(),
                r"[A-Za-z0-9_]*:?-([^}\s]+)\}"
            ),
        )
        .accept(secret_value),
        // `tool login --api-key ... --profile staging`, `--client-secret '...'`.
        Rule::secret(
            "secret-flag",
            &["-token", "-secret", "-key", "-apikey", "-passw", "-passphrase", "-credential"],
            concat!(
                r"(?i)(?:^|\s)--?(?:[a-z0-9]+[-_])*(?:token|secret|api-?key|apikey|password|passwd|passphrase|credentials?|(?:access|auth|private|secret|client|license)[-_]key)\s+",
                r#"(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"'\\]+))"#
            ),
        )
        .accept(secret_value),
        // `new ApiKeyCredential("...")`, `AzureKeyCredential('...')`, `SecretStr("...")`,
        // `new SecretKeySpec("...")`: a credential type built from a literal.
        Rule::secret(
            "credential-constructor",
            &["credential", "apikey", "token", "secret", "password", "keyspec"],
            concat!(
                r"\b(?:[A-Z][A-Za-z0-9_]*)?(?:Credentials?|ApiKey|Token|Secret|Password|KeySpec)[A-Za-z0-9_]*\s*\(\s*",
                quoted_value!()
            ),
        )
        .accept(secret_value),
        // `here's the staging token: ...`, `the API key is ...`, `password → ...`: a
        // credential's name, a few words at most, then `:`, `is` or an arrow and the value.
        Rule::secret(
            "secret-in-prose",
            &["key", "token", "secret", "passw", "passphrase", "credential"],
            concat!(
                r"(?i)\b(?:api[ _-]?keys?|(?:access|secret|private|license)[ _-]keys?|tokens?|secrets?|passwords?|passphrases?|credentials?)\b",
                r"[^\n:=.!?]{0,48}?(?::|\bis\b|\bare\b|->|→)\s*",
                r#"(?:"([^"\r\n]+)"|'([^'\r\n]+)'|`([^`\r\n]+)`|([^\s"'`,;)]+))"#
            ),
        )
        .accept(prose_value),
        // `CREATE USER 'app'@'%' IDENTIFIED BY '...'`: SQL's clause for a password.
        Rule::secret(
            "sql-identified-by",
            &["identified"],
            r"(?i)\bidentified\s+(?:with\s+[a-z0-9_]+\s+)?by\s+(?:password\s+)?'([^'\r\n]+)'",
        )
        .accept(password_value),
        // `variable "stripe_api_token" { ... default = "..." }`: Terraform names the
        // variable, the value is its default a few lines on.
        Rule::secret(
            "secret-variable-default",
            &["variable"],
            concat!(
                r#"(?is)\bvariable\s+"[A-Za-z0-9_-]*"#,
                secret_word!(),
                r#"[A-Za-z0-9_-]*"\s*\{[^{}]{0,400}?\bdefault\s*=\s*"([^"\r\n]+)""#
            ),
        )
        .accept(secret_value),
    ]
}

/// A value that words around it name as a credential (a sentence, a table's header): what
/// [`secret_value`] takes unquoted, in one piece, with letters and digits both. Prose quotes
/// words and phrases often, so the quoted forms' leniency does not apply, and "the token is
/// valid", "tokens: 4096" and "see vault" are not taken.
pub(super) fn named_value(v: &str) -> bool {
    let b = v.as_bytes();
    !b.iter().any(u8::is_ascii_whitespace)
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && secret_value(v, 3)
}

fn prose_value(v: &str, _group: usize) -> bool {
    named_value(v)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    const FOUND: &[(&str, &str, &str)] = &[
        (
            "typed-secret-declaration",
            r#"pub const API_TOKEN: &str = "q8Rt2ZmP0xLk5VbN7wYc";"#,
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "typed-secret-declaration",
            r#"private val clientSecret: String = "Zx81kQp0Lm3RtY7wVq9r""#,
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "secret-fallback",
            r#"const token = process.env.AUTH_TOKEN || "q8Rt2ZmP0xLk5VbN7wYc";"#,
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "secret-fallback",
            r#"key = os.getenv("STRIPE_API_KEY", 'Zx81kQp0Lm3RtY7wVq9r')"#,
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "secret-fallback",
            "curl -H \"Authorization: ${API_TOKEN:-Zx81kQp0Lm3RtY7wVq9r}\"",
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "secret-flag",
            "acme login --api-key q8Rt2ZmP0xLk5VbN7wYc --profile staging",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "secret-flag",
            "az ad sp create --client-secret 'Zx81kQp0Lm3RtY7wVq9r'",
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "credential-constructor",
            r#"var client = new AcmeClient(endpoint, new ApiKeyCredential("q8Rt2ZmP0xLk5VbN7wYc+/="));"#,
            "q8Rt2ZmP0xLk5VbN7wYc+/=",
        ),
        (
            "credential-constructor",
            "settings = Settings(api_key=SecretStr('Zx81kQp0Lm3RtY7wVq9r'))",
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "secret-in-prose",
            "here's the acme token for the staging box: q8Rt2ZmP0xLk5VbN7wYc -- ping me",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "secret-in-prose",
            "The new API key is `Zx81kQp0Lm3RtY7wVq9r`.",
            "Zx81kQp0Lm3RtY7wVq9r",
        ),
        (
            "sql-identified-by",
            "CREATE USER 'sync'@'10.0.%' IDENTIFIED BY 'q8Rt2ZmP0xLk5VbN7wYc';",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "sql-identified-by",
            "ALTER USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY 'Hunter2!x';",
            "Hunter2!x",
        ),
        (
            "secret-variable-default",
            "variable \"acme_api_token\" {\n  type      = string\n  sensitive = true\n  default   = \"q8Rt2ZmP0xLk5VbN7wYc\"\n}",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
    ];

    const LOOK_ALIKES: &[(&str, &str)] = &[
        // Types and fallbacks that are not literals, or literals that are not secrets.
        (
            "typed-secret-declaration",
            "let token: Token = lexer.next();",
        ),
        (
            "typed-secret-declaration",
            r#"const tokenType: string = "bearer";"#,
        ),
        (
            "secret-fallback",
            r#"const token = process.env.AUTH_TOKEN || "";"#,
        ),
        (
            "secret-fallback",
            r#"fields = ("api_token", "refresh_token")"#,
        ),
        (
            "secret-fallback",
            "url=${API_TOKEN_URL:-https://example.com/token}",
        ),
        // Flags whose value is a path, a variable or a word.
        ("secret-flag", "ssh-keygen --private-key ~/.ssh/id_ed25519"),
        ("secret-flag", "deploy --api-key \"$ACME_API_KEY\""),
        ("secret-flag", "kubectl create secret --token-ttl 3600"),
        ("secret-flag", "vault login --token stdin"),
        // Constructors of a credential from something other than a literal key.
        (
            "credential-constructor",
            "new ApiKeyCredential(Environment.GetEnvironmentVariable(\"KEY\"))",
        ),
        ("credential-constructor", r#"Token("IDENTIFIER")"#),
        // Sentences about credentials that hold none.
        ("secret-in-prose", "The token is valid until Friday."),
        ("secret-in-prose", "max tokens: 4096"),
        (
            "secret-in-prose",
            "Passwords are hashed with bcrypt: cost 12",
        ),
        ("secret-in-prose", "the secret is: cache everything"),
        (
            "secret-in-prose",
            "access keys: see the vault entry ops/acme",
        ),
        (
            "secret-variable-default",
            "variable \"acme_api_token\" {\n  type = string\n  default = \"\"\n}",
        ),
        (
            "secret-variable-default",
            "variable \"region\" {\n  default = \"q8Rt2ZmP0xLk5VbN7wYc\"\n}",
        ),
        (
            "sql-identified-by",
            "CREATE USER 'app'@'%' IDENTIFIED BY 'changeme';",
        ),
    ];

    #[test]
    fn every_form_of_naming_a_credential_near_its_value_is_found() {
        finds(&super::rules(), FOUND);
    }

    #[test]
    fn look_alikes_without_a_literal_secret_are_not() {
        misses(&super::rules(), LOOK_ALIKES);
    }
}
