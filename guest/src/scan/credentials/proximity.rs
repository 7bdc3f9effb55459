//! Strongly random values close after a word naming a credential, however the two are joined:
//! `setx ACME_API_KEY "..."`, `.apiKey("...")`, `metadata.Pairs("x-api-key", "...")`,
//! `proxy_set_header X-API-Key "..."`, `login --with-token <<EOF` and the value on the next
//! line, "Your new API key is:" and the value below, "the job uses token ... directly".
//!
//! Assignments, declarations and flags each have a form of their own; people write credentials
//! in more forms than any list holds. What they share is the name, then, on the same line or
//! the next one that is not blank, the value. So this rule asks only that: a credential word,
//! and after it, within that reach, a value random in a way names, words, paths, numbers,
//! digests and ids are not. It is stricter about the value than the assignment rules are, since
//! the word alone binds it less.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::super::rules::{Family, Hit};
use super::super::secrets::{
    is_hex_or_dashed, is_placeholder, is_uuid, shannon_entropy, spread_like_random,
};
use super::named_key::OTHER_KEYS;

/// Words naming a credential (ASCII letters matched case-insensitively, as a whole word or the
/// end of an identifier's part: `API_KEY`, `apiKey`, `x-api-key`, `tokens`), in English and in
/// the languages most notes, tickets and chats are written in.
const WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "credential",
    "apikey",
    "auth",
    "bearer",
    "key",
    // The same words in the languages people write notes, tickets and chats in.
    "schlüssel",
    "passwort",
    "kennwort",
    "zugangsdaten",
    "clé",
    "mot de passe",
    "jeton",
    "identifiants",
    "clave",
    "contraseña",
    "secreto",
    "credenciales",
    "chave",
    "senha",
    "segredo",
    "credenciais",
    "chiave",
    "segreto",
    "credenziali",
    "sleutel",
    "wachtwoord",
    "klucz",
    "hasło",
    "ключ",
    "Ключ",
    "пароль",
    "Пароль",
    "токен",
    "Токен",
    "キー",
    "パスワード",
    "トークン",
    "シークレット",
    "密钥",
    "秘钥",
    "密码",
    "密碼",
    "金鑰",
    "令牌",
    "口令",
    "비밀번호",
    "토큰",
    "키",
];

/// How far after the word the value may start, in bytes, on its line and the next non-blank
/// ones (see [`FOLLOWING_LINES`]).
const REACH: usize = 240;

/// How many non-blank lines after the word's own the value may stand on: a key's fields in a
/// listing (`"keyName": "key1",` then `"value": "..."` two lines on) or a reply in a chat.
const FOLLOWING_LINES: usize = 3;

/// Fewest characters of a value taken on a nearby word alone.
const MIN_VALUE_BYTES: usize = 20;

/// Fewest characters of a value standing right after the word (`KeyCredential("...")`,
/// `token=...`): the closer the name, the less the value needs to prove.
const MIN_ADJACENT_BYTES: usize = 16;

/// How close after the word a value counts as standing right after it, in bytes.
const ADJACENT_BYTES: usize = 4;

/// Every strongly random value close after a credential word; `None` when the text holds no
/// credential word at all (so that no other search for one need run).
pub fn find(text: &str) -> Option<Vec<Hit>> {
    let words = word_spans(text);
    if words.is_empty() {
        return None;
    }
    let mut hits: Vec<Hit> = Vec::new();
    for (at, end) in words {
        if !names_a_credential(text, at, end) {
            continue;
        }
        if let Some((start, stop)) = first_random_value(text, end) {
            hits.push(Hit {
                family: Family::Secret,
                kind: "secret-near-name",
                start,
                end: stop,
                priority: usize::MAX - 2,
            });
        }
    }
    hits.sort_by_key(|h| (h.start, h.end));
    hits.dedup_by_key(|h| (h.start, h.end));
    Some(hits)
}

/// Finds the ASCII words of [`WORDS`] in one pass, letters in either case, the longest where
/// two start together (`apikey`, not `api`): a DFA, fast to step and small for these words.
static WORD_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .kind(Some(AhoCorasickKind::DFA))
        .build(WORDS.iter().filter(|w| w.is_ascii()))
        .expect("the credential words build an automaton")
});

/// Finds the other words of [`WORDS`]; searched only in texts that are not all ASCII.
static OTHER_WORD_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(WORDS.iter().filter(|w| !w.is_ascii()))
        .expect("the credential words build an automaton")
});

/// Where each credential word of `text` stands, in no particular order.
pub(super) fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = WORD_FINDER
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .collect();
    if !text.is_ascii() {
        spans.extend(
            OTHER_WORD_FINDER
                .find_iter(text)
                .map(|m| (m.start(), m.end())),
        );
    }
    spans
}

/// Builds the word automaton now rather than on first use.
pub fn prepare() {
    LazyLock::force(&WORD_FINDER);
    LazyLock::force(&OTHER_WORD_FINDER);
}

/// Whether `text` holds a word naming a credential (see [`WORDS`]).
pub(super) fn mentions_credential(text: &str) -> bool {
    WORD_FINDER.is_match(text) || (!text.is_ascii() && OTHER_WORD_FINDER.is_match(text))
}

/// Whether the word at `at..end` names a credential. It must end an identifier's part (what
/// follows is no letter, an `s` and then no letter, or an upper-case letter after a
/// lower-case word: `API_KEY`, `apiKey`, `tokens`, not `tokenizer` or `keyboard`), and no
/// public key be meant. "Key" says less than the other words, so it must also start a part
/// or follow a qualifier naming a credential's key (`apikey`, `secretkey`), and the part
/// before it must not name another kind of key (a sort, cache, host or cipher key).
fn names_a_credential(text: &str, at: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let next = bytes.get(end).copied();
    let plural = next == Some(b's') && !bytes.get(end + 1).is_some_and(u8::is_ascii_alphabetic);
    let ends_part = match next {
        None => true,
        Some(b) if b.is_ascii_lowercase() => plural,
        Some(b) if b.is_ascii_uppercase() => bytes[end - 1].is_ascii_lowercase(),
        // `key1`, `token2`: one of a numbered pair, as clouds issue keys.
        Some(b) if b.is_ascii_digit() => !bytes
            .get(end + 1)
            .is_some_and(|c| c.is_ascii_alphanumeric()),
        Some(_) => true,
    };
    if !ends_part {
        return false;
    }
    let before = text[text.floor_char_boundary(at.saturating_sub(12))..at].to_ascii_lowercase();
    if before.contains("public")
        || before.ends_with("pub_")
        || before.ends_with("pub-")
        || NOT_THE_VALUE.contains(&next_part(bytes, end).to_ascii_lowercase().as_str())
    {
        return false;
    }
    if !text[at..end].eq_ignore_ascii_case("key") {
        return true;
    }
    let previous = previous_part(bytes, at);
    let starts_part = at == 0
        || !bytes[at - 1].is_ascii_alphabetic()
        || (bytes[at].is_ascii_uppercase() && bytes[at - 1].is_ascii_lowercase());
    let qualified = KEY_QUALIFIERS
        .iter()
        .any(|q| previous.eq_ignore_ascii_case(q));
    (starts_part || qualified) && !OTHER_KEYS.contains(&previous.to_ascii_lowercase().as_str())
}

/// Parts after the word that make the name one of something about the credential, not of
/// the credential: `ACCESS_KEY_ID`, `token_type`, `secretName`, `password_file`.
const NOT_THE_VALUE: &[&str] = &[
    "id", "ids", "name", "type", "file", "path", "url", "uri", "length", "len", "size", "count",
    "expiry", "expires", "ttl", "prefix", "hint", "format", "endpoint", "policy", "version",
];

/// The identifier part just after byte `end`: across one `_`, `-` or `.`, or from a change of
/// case, the letters up to the next separator or change of case.
fn next_part(bytes: &[u8], end: usize) -> &str {
    let mut start = end;
    if matches!(bytes.get(start), Some(b'_' | b'-' | b'.')) {
        start += 1;
    }
    let mut stop = start;
    while stop < bytes.len()
        && bytes[stop].is_ascii_alphabetic()
        && !(stop > start
            && bytes[stop].is_ascii_uppercase()
            && bytes[stop - 1].is_ascii_lowercase())
    {
        stop += 1;
    }
    std::str::from_utf8(&bytes[start..stop]).unwrap_or("")
}

/// Words that, joined to "key" without a separator, make it a credential's key.
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "app",
    "client",
    "license",
    "master",
    "admin",
    "signing",
    "service",
    "subscription",
    "account",
];

/// The identifier part just before byte `at`: the letters and digits before it, across one
/// separator (`_`, `-`, `.`, a blank) if none is joined to it, stopping at a change of case.
fn previous_part(bytes: &[u8], at: usize) -> &str {
    let mut stop = at;
    if stop > 0 && matches!(bytes[stop - 1], b'_' | b'-' | b'.' | b' ') {
        stop -= 1;
    }
    let mut start = stop;
    while start > 0 && bytes[start - 1].is_ascii_alphanumeric() {
        start -= 1;
        if bytes[start].is_ascii_uppercase()
            && start + 1 < stop
            && bytes[start + 1].is_ascii_lowercase()
        {
            break;
        }
    }
    std::str::from_utf8(&bytes[start..stop]).unwrap_or("")
}

/// The first strongly random value starting after `from`, on its line or the next line that
/// is not blank, within [`REACH`] bytes.
fn first_random_value(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let limit = reach_end(bytes, from);
    let mut i = from;
    while i < limit {
        if !is_value_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_value_byte(bytes[i]) {
            // `=` inside a run joins a name to its value (`KEY_ID=...`): the value starts
            // after it. Only base64's padding ends a value with `=`.
            if bytes[i] == b'='
                && bytes
                    .get(i + 1)
                    .is_some_and(|&b| is_value_byte(b) && b != b'=')
            {
                break;
            }
            i += 1;
        }
        if i == start {
            // A lone `=` before a value.
            i += 1;
            continue;
        }
        let (start, stop) = trim_value(bytes, start, i);
        let adjacent = start - from <= ADJACENT_BYTES;
        let least = if adjacent {
            MIN_ADJACENT_BYTES
        } else {
            MIN_VALUE_BYTES
        };
        if stop - start < least {
            continue;
        }
        let value = &text[start..stop];
        let taken = if is_hex_or_dashed(value) {
            hex_taken(value, &text[from..start])
        } else {
            strongly_random(value, least)
        };
        if taken {
            return Some((start, stop));
        }
    }
    None
}

/// Words that, between a credential's name and hex digits, say the digits are a digest or an
/// id, not the credential: `token cache keyed by sha256 ...`, `secret rotated in commit ...`.
const DIGEST_OR_ID_WORDS: &[&str] = &[
    "sha",
    "md5",
    "hash",
    "digest",
    "checksum",
    "commit",
    "fingerprint",
    "crc",
    " id",
    "_id",
    "uuid",
    "guid",
    "request",
    "trace",
    "build",
    "version",
    "etag",
    "revision",
    "rev ",
];

/// Whether hex digits (`v`) found `between` text after a credential's name are the
/// credential: hex is how digests, commit ids and UUIDs are written, so only with nothing
/// between naming a digest or an id, and either a UUID (on the name's line or the next) or 20
/// digits or more on the name's own line, but not 40 or 64 (a SHA-1 or SHA-256: a commit id or
/// a digest).
fn hex_taken(v: &str, between: &str) -> bool {
    let digits = v.bytes().filter(u8::is_ascii_hexdigit).count();
    let lower = between.to_ascii_lowercase();
    let lines = between.matches('\n').count();
    (lines == 0 || (lines == 1 && is_uuid(v)))
        && (is_uuid(v) || (digits >= 20 && !v.contains('-') && digits != 40 && digits != 64))
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        && v.bytes().any(|c| c.is_ascii_digit())
        && !DIGEST_OR_ID_WORDS.iter().any(|w| lower.contains(w))
        && spread_like_random(v)
}

/// Where the search for a value after `from` stops: the end of the [`FOLLOWING_LINES`]th
/// non-blank line after the word's own, and no further than [`REACH`] bytes.
fn reach_end(bytes: &[u8], from: usize) -> usize {
    let cap = (from + REACH).min(bytes.len());
    let mut end = from;
    let mut lines = 0;
    while end < cap {
        let Some(eol) = bytes[end..cap].iter().position(|&b| b == b'\n') else {
            return cap;
        };
        let line_start = end;
        end += eol + 1;
        if bytes[line_start..end]
            .iter()
            .any(|b| !b.is_ascii_whitespace())
            || line_start == from
        {
            lines += 1;
        }
        if lines > FOLLOWING_LINES {
            return end - 1;
        }
    }
    cap
}

/// The bytes a credential value is written in: letters, digits and base64's and tokens'
/// punctuation.
fn is_value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"+/=_-.~".contains(&b)
}

/// The run `start..stop` without the punctuation around it that no key starts or ends with
/// (`.`, `-`, `~`, and a leading `=` or `_`).
fn trim_value(bytes: &[u8], mut start: usize, mut stop: usize) -> (usize, usize) {
    while start < stop && matches!(bytes[start], b'.' | b'-' | b'~' | b'=' | b'_') {
        start += 1;
    }
    while stop > start && matches!(bytes[stop - 1], b'.' | b'-' | b'~') {
        stop -= 1;
    }
    (start, stop)
}

/// Whether `v`, not hex alone, is random the way keys are and names, words and paths are not:
/// `least` to 512 characters, letters and digits, spread enough (past a provider's prefix), not
/// written in words, not a public key's base64 (`AAAA...`), not a placeholder.
fn strongly_random(v: &str, least: usize) -> bool {
    let b = v.as_bytes();
    let body = without_prefix(v);
    (least..=512).contains(&b.len())
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && !v.starts_with("AAAA")
        && !written_in_words(v)
        && (shannon_entropy(body) >= 4.0 || spread_like_random(body))
        && !is_placeholder(v)
}

/// `v` without a short lower- or upper-case prefix joined by `-` or `_` (`cr-`, `tgp_`,
/// `sk-`): the random part a provider's prefix stands before, whose alphabet the prefix's
/// letters would make look larger than it is.
fn without_prefix(v: &str) -> &str {
    let b = v.as_bytes();
    let letters = b
        .iter()
        .take(6)
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if (1..=5).contains(&letters)
        && matches!(b.get(letters), Some(b'-' | b'_'))
        && b.len() > letters + 16
    {
        &v[letters + 1..]
    } else {
        v
    }
}

/// Whether every part of `v`, split at `-`, `_`, `.`, `/` and where a lower-case letter meets
/// an upper-case one, is letters, digits, letters then digits, or at most three characters: a
/// name (`ReadOnlyAccess2024`), a path or a version, not a key.
fn written_in_words(v: &str) -> bool {
    let b = v.as_bytes();
    let mut part_start = 0;
    for i in 0..=b.len() {
        let split = i == b.len()
            || b"-_./".contains(&b[i])
            || (i > 0 && b[i].is_ascii_uppercase() && b[i - 1].is_ascii_lowercase());
        if !split {
            continue;
        }
        let part = &b[part_start..i];
        let letters = part.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        let wordish = part.len() <= 3
            || part[letters..].iter().all(u8::is_ascii_digit)
            || part.iter().all(u8::is_ascii_digit);
        if !wordish {
            return false;
        }
        part_start = if i < b.len() && b"-_./".contains(&b[i]) {
            i + 1
        } else {
            i
        };
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::tests::spans;
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        spans(text, find(text).unwrap_or_default())
    }

    const KEY: &str = "q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=";

    #[test]
    fn random_values_close_after_a_credential_word_are_found() {
        for text in [
            format!(r#"C:\> setx ACME_API_KEY "{KEY}""#),
            format!(r#"    .apiKey("{KEY}")"#),
            format!(r#"md := metadata.Pairs("x-api-key", "{KEY}")"#),
            format!(r#"proxy_set_header X-API-Key "{KEY}";"#),
            format!("acme auth login --with-token <<'EOF'\n{KEY}\nEOF"),
            format!("Your new API key is:\n\n    {KEY}\n\nKeep it safe."),
            format!("[08:40] a: can you send me the acme key for dev?\n[08:42] b: {KEY}"),
            format!("until then the job uses token {KEY} directly."),
            format!("$secret = ConvertTo-SecureString '{KEY}' -AsPlainText"),
            format!("otpauth://totp/Acme:me?secret={KEY}&issuer=Acme"),
            format!("cache-01:6379> AUTH default {KEY}"),
            format!("wie besprochen der API-Schlüssel für das Produktivsystem:\n\n{KEY}\n\nGrüße"),
            format!(
                "Pode me confirmar qual chave de API está configurada?\nCliente: Claro, é esta: {KEY}"
            ),
            format!("APIキー：{KEY}"),
            format!("iterable 운영 계정 API 키: {KEY} (외부 공유 금지)"),
            format!("| 09:12 | Un jeton d'accès est publié : `{KEY}` |"),
            format!(
                "[\n  {{\n    \"keyName\": \"key1\",\n    \"permissions\": \"FULL\",\n    \"value\": \"{KEY}\"\n  }}\n]"
            ),
        ] {
            assert_eq!(found(&text), [KEY], "{text}");
        }
        // Hex and UUIDs on the name's line; a provider's prefix; one case of letters.
        for (text, value) in [
            (
                r#"proxy_set_header X-Api-Key "4aa4234fac1b590cc844";"#,
                "4aa4234fac1b590cc844",
            ),
            (
                r#"AuthException: 401 - API key "ed138f5a-9cd6-1559-dc81-9a87656e6395" was rejected"#,
                "ed138f5a-9cd6-1559-dc81-9a87656e6395",
            ),
            (
                r#"dotnet user-secrets set "Acme:ApiKey" "cr-e1a9073283e52a2c15ba8926241ce1c2ae7c8e15""#,
                "cr-e1a9073283e52a2c15ba8926241ce1c2ae7c8e15",
            ),
            (
                r#"md := metadata.Pairs("x-api-key", "ARJKOQZFWUH437U4YHDF")"#,
                "ARJKOQZFWUH437U4YHDF",
            ),
            (
                r#"var credential = new AzureKeyCredential("u-ZSYBRDJ_0RGD1F5");"#,
                "u-ZSYBRDJ_0RGD1F5",
            ),
            (
                "$ az cognitiveservices account keys list --query key1 --output tsv\n3246c352-a643-c15e-ed72-de3c8b1a819b",
                "3246c352-a643-c15e-ed72-de3c8b1a819b",
            ),
            (
                "+  auth:\n+    bearer: b105fdff-7f94-b794-0e25-da5571c89b6f",
                "b105fdff-7f94-b794-0e25-da5571c89b6f",
            ),
        ] {
            assert_eq!(found(text), [value], "{text}");
        }
    }

    #[test]
    fn values_that_are_not_random_keys_or_not_near_a_credential_word_are_not() {
        for text in [
            // Digests, commit ids, UUIDs, public keys and paths near the words.
            "token cache keyed by sha256 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "the secret rotation landed in 9fd0fab79bd9ece9c8f0f660a26796f0e1d2c3b4",
            "api key id: 7913993e-d6da-409d-a990-98b260ff3ac1",
            "the token of request 7913993e-d6da-409d-a990-98b260ff3ac1 expired",
            "the password change landed in a4c123b1612dd272d1371c17149d4395e1d2c3b4",
            "the password change landed in\na4c123b1612dd272d1371c17149d4395e1d2c3",
            // Names of something about the credential, not of the credential.
            "export AWS_ACCESS_KEY_ID=yLryKGwcGc3ez9G8YAnjeYMQOc",
            "token_type: q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            "public key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
            "my ssh key AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
            "token file at /var/lib/acme/tokens/service-account-2024.json",
            "password policy: see docs/security/password-rotation-v2.md",
            // Random values with no credential word near them.
            "the build id is q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            "tokenizer vocab: q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            "keyboard layout q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            // A word, then the value four lines on; words that hold a credential's word.
            "the token\nis rotated\nweekly\nby the job\nq8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            "un article sur le cycle: q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=",
            // Words, versions and names.
            "token: ReadOnlyAccessForReportingDashboards2024",
            r#"new AzureKeyCredential("ReadOnlyAccess2024")"#,
            "token=session-cache-v2-eu1",
            "secret manager path projects/acme-prod/secrets/db-password/versions/12",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
