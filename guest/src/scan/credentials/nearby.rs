//! Credentials named near their value rather than assigned to it, in forms whose value may be
//! short or plain (a password), or that come before their name, which [`super::proximity`]
//! leaves to them: a command-line flag (`--api-key ...`), a value piped into a command that
//! reads it from its input (`echo ... | docker login --password-stdin`), SQL's
//! `IDENTIFIED BY '...'`, PowerShell's `ConvertTo-SecureString '...' -AsPlainText` and a
//! Terraform variable's default. The
//! word naming the credential is there, as in an assignment; what stands between it and the
//! value is not `=` or `:`.
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

/// The rules of this module.
pub fn rules() -> Vec<Rule> {
    vec![
        // `tool login --api-key ... --profile staging`, `--client-secret '...'`.
        Rule::secret(
            "secret-flag",
            &["-token", "-secret", "-key", "-apikey", "-passw", "-passphrase", "-credential"],
            concat!(
                r"(?i)(?:^|\s)--?(?:[a-z0-9]+[-_])*(?:token|secret|api-?key|apikey|password|passwd|passphrase|credentials?|(?:access|auth|private|secret|client|license)[-_]key)\s+",
                r#"(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"'\\]+))"#
            ),
        )
        .within(around_trigger)
        .accept(secret_value),
        // `CREATE USER 'app'@'%' IDENTIFIED BY '...'`: SQL's clause for a password.
        Rule::secret(
            "sql-identified-by",
            &["identified"],
            r"(?i)\bidentified\s+(?:with\s+[a-z0-9_]+\s+)?by\s+(?:password\s+)?'([^'\r\n]+)'",
        )
        .within(around_trigger)
        .accept(password_value),
        // `ConvertTo-SecureString '...' -AsPlainText -Force`: PowerShell's way to make a
        // password or key of a literal; the cmdlet names what the value is, the variable need
        // not (`$secure = ...`).
        Rule::secret(
            "secure-string-literal",
            &["convertto-securestring"],
            concat!(
                r#"(?i)\bconvertto-securestring\s+(?:-asplaintext\s+|-force\s+)*(?:-string\s+)?"#,
                r#"(?:"([^"\r\n]+)"|'([^'\r\n]+)')(?:\s+-force)?\s+-asplaintext\b"#,
                r#"|\bconvertto-securestring\s+(?:-force\s+)?-asplaintext\s+(?:-force\s+)?(?:-string\s+)?(?:"([^"\r\n]+)"|'([^'\r\n]+)')"#,
            ),
        )
        .within(around_trigger)
        // Every group is a quoted literal, which a password's test takes as one.
        .accept(|value, _| password_value(value, 1)),
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
        .within(around_trigger)
        .accept(secret_value),
        // `echo "..." | docker login -u ci --password-stdin`: the value comes first, piped
        // into a command that reads a password or token from its input.
        Rule::secret(
            "piped-secret",
            &["-stdin"],
            concat!(
                r#"(?i)\b(?:echo|printf)\s+(?:-[ne]+\s+)?(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"'|;]+))"#,
                r"\s*\|[^\n|]{0,200}?--?(?:[a-z]+[-_])?(?:password|passwd|token|secret|passphrase|api-?key)[-_]stdin\b"
            ),
        )
        .within(before_trigger)
        .accept(secret_value),
    ]
}

/// Where every match holding a `-stdin` trigger lies: the value and its `echo` come before
/// the trigger, at most 300 bytes before it (a value of 512 would not fit: such a line is
/// not taken).
fn before_trigger(_bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    (start.saturating_sub(300), end)
}

/// Where every match holding a trigger lies: the patterns start at the trigger (or a few bytes
/// before: a flag's dashes, `variable "`) and the value ends within 768 bytes after it (a
/// Terraform block's lines, a quoted value of at most 512).
fn around_trigger(_bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    (start.saturating_sub(48), end + 768)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    const FOUND: &[(&str, &str, &str)] = &[
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
            "piped-secret",
            "echo \"q8Rt2ZmP0xLk5VbN7wYc+/=\" | docker login registry.example.com -u ci --password-stdin",
            "q8Rt2ZmP0xLk5VbN7wYc+/=",
        ),
        (
            "piped-secret",
            "echo -n 'Zx81kQp0Lm3RtY7wVq9r' | gpg --batch --passphrase-stdin -d backup.gpg",
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
            "secure-string-literal",
            "$secure = ConvertTo-SecureString '0f806f3000f111dcac12' -AsPlainText -Force",
            "0f806f3000f111dcac12",
        ),
        (
            "secure-string-literal",
            "$pw = ConvertTo-SecureString -String \"Hunter2!x\" -AsPlainText -Force",
            "Hunter2!x",
        ),
        (
            "secure-string-literal",
            "ConvertTo-SecureString -AsPlainText -Force 'q8Rt2ZmP0xLk5VbN7wYc'",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
        (
            "secret-variable-default",
            "variable \"acme_api_token\" {\n  type      = string\n  sensitive = true\n  default   = \"q8Rt2ZmP0xLk5VbN7wYc\"\n}",
            "q8Rt2ZmP0xLk5VbN7wYc",
        ),
    ];

    const LOOK_ALIKES: &[(&str, &str)] = &[
        ("secret-flag", "ssh-keygen --private-key ~/.ssh/id_ed25519"),
        ("secret-flag", "deploy --api-key \"$ACME_API_KEY\""),
        ("secret-flag", "kubectl create secret --token-ttl 3600"),
        ("secret-flag", "vault login --token stdin"),
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
        (
            "secure-string-literal",
            "$secure = ConvertTo-SecureString $env:ACME_PASSWORD -AsPlainText -Force",
        ),
        (
            "secure-string-literal",
            "$secure = Get-Content key.txt | ConvertTo-SecureString -Key $aesKey",
        ),
        (
            "secure-string-literal",
            "$secure = ConvertTo-SecureString '01000000d08c9ddf0115d1118c7a00c04fc297eb'",
        ),
        (
            "piped-secret",
            "echo \"$REGISTRY_PASSWORD\" | docker login -u ci --password-stdin",
        ),
        (
            "piped-secret",
            "printf '%s' \"$T\" | acme auth --token-stdin",
        ),
        (
            "piped-secret",
            "echo done | tee log.txt; acme auth --token-stdin < token.txt",
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
