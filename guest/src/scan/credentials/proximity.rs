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

use super::super::literals::Literal;
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
    "schluessel",
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
    "haslo",
    // Turkish, Swedish, Danish and Norwegian, Finnish, Czech, Hungarian, Romanian,
    // Indonesian, Vietnamese, Greek, Arabic, Hebrew and Hindi.
    "anahtar",
    "şifre",
    "parola",
    "lösenord",
    "nyckel",
    "adgangskode",
    "passord",
    "nøgle",
    "nøkkel",
    "salasana",
    "avain",
    "heslo",
    "klíč",
    "jelszó",
    "kulcs",
    "parolă",
    "cheie",
    "kata sandi",
    "kunci",
    "mật khẩu",
    "khóa",
    "κωδικός",
    "Κωδικός",
    "κλειδί",
    "Κλειδί",
    "كلمة المرور",
    "مفتاح",
    "סיסמה",
    "מפתח",
    "पासवर्ड",
    "कुंजी",
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

/// Every strongly random value close after a credential word; `words` are the text's
/// credential words ([`word_spans`]).
pub fn find(text: &str, words: &[(usize, usize)]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    for &(at, end) in words {
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
    hits
}

/// Finds the other words of [`WORDS`]; searched only in texts that are not all ASCII.
static OTHER_WORD_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(WORDS.iter().filter(|w| !w.is_ascii()))
        .expect("the credential words build an automaton")
});

/// The ASCII words of [`WORDS`], for the scanner's literal index (which matches their
/// letters in either case).
pub fn ascii_words() -> &'static [&'static str] {
    static ASCII: LazyLock<Vec<&'static str>> =
        LazyLock::new(|| WORDS.iter().copied().filter(|w| w.is_ascii()).collect());
    &ASCII
}

/// Where each credential word of `text` stands, in text order (by start), given the
/// [`ascii_words`] a leftmost-longest search found in it.
pub(super) fn word_spans(text: &str, ascii: &[Literal]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = ascii.iter().map(|m| (m.start, m.end)).collect();
    if !text.is_ascii() {
        spans.extend(
            OTHER_WORD_FINDER
                .find_iter(text)
                .map(|m| (m.start(), m.end())),
        );
        // Each search finds its words in text order; the two lists interleave.
        spans.sort_unstable();
    }
    spans
}

/// Builds the automaton of the words that are not ASCII now rather than on first use.
pub fn prepare() {
    LazyLock::force(&OTHER_WORD_FINDER);
}

/// [`word_spans`] given the ASCII words the scan's literal pass finds in `text` (for tests and
/// timing).
#[cfg(test)]
pub(super) fn word_spans_in(text: &str) -> Vec<(usize, usize)> {
    use super::super::{literals_in, vocabulary::CREDENTIAL_WORDS};
    word_spans(text, &literals_in(text).leftmost_longest(CREDENTIAL_WORDS))
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
    // `oauth2` names a protocol, not a credential (`golang.org/x/oauth2 v0.21.0 h1:...`).
    let protocol = text[at..end].eq_ignore_ascii_case("auth") && before.ends_with('o');
    if protocol
        || before.contains("public")
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
        i = run_end(bytes, start);
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
        let taken = if follows_digest_mark(bytes, start) {
            false
        } else if is_hex_or_dashed(value) {
            hex_taken(value, &text[from..start], on_its_line(bytes, start, stop))
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
pub(super) const DIGEST_OR_ID_WORDS: &[&str] = &[
    // `sha1`, `sha-256`, `SHA256`, not `shared`.
    "sha1",
    "sha2",
    "sha3",
    "sha5",
    "sha-",
    "sha_",
    "sha ",
    "sha:",
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
    // The same in the other scripts of [`WORDS`]: hash, digest, checksum, fingerprint.
    "哈希",
    "摘要",
    "校验",
    "指纹",
    "ハッシュ",
    "해시",
];

/// Whether hex digits (`v`) found `between` text after a credential's name are the
/// credential: hex is how digests, commit ids and UUIDs are written, so only with nothing
/// between naming a digest or an id, and placed as a value is:
/// - on the name's line, a UUID or 20 digits or more; 40 or 64 (a SHA-1's or a SHA-256's
///   length: a commit id or a digest) only when joined to the name by punctuation alone
///   (`.bearer_auth("...")`, `密钥：...`, `"key": "value", "value": "..."`);
/// - on the next line, a UUID;
/// - alone on a later line, below a name whose line ends with a colon ("the API key for the
///   test system:", a blank line, the digits), or labelled as the value of the key the name
///   heads in a listing (`"keyName": "key1",` and on a later line `"value": "..."`).
fn hex_taken(v: &str, between: &str, line: OnItsLine) -> bool {
    let digits = v.bytes().filter(u8::is_ascii_hexdigit).count();
    let lower = between.to_ascii_lowercase();
    let lines = between.matches('\n').count();
    let digest_length = digits == 40 || digits == 64;
    let long_hex = digits >= 20 && !v.contains('-');
    let placed = match lines {
        0 => is_uuid(v) || (long_hex && (!digest_length || joined_by_punctuation(&lower))),
        _ => {
            (lines == 1 && is_uuid(v))
                || (long_hex
                    && match line {
                        OnItsLine::Alone => introduced_below(between),
                        OnItsLine::Labelled => true,
                        OnItsLine::AmongText => false,
                    })
        }
    };
    placed
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        && v.bytes().any(|c| c.is_ascii_digit())
        && !DIGEST_OR_ID_WORDS.iter().any(|w| lower.contains(w))
        && spread_like_random(v)
}

/// Whether the text between a name and its value (lower-cased), short of 32 bytes, joins the
/// two as a value is joined to its name: punctuation and blanks, or words in a script other
/// than Latin (`("`, `", "\"`, `发你了：`; a key-value list's own word "value" does not
/// count: `"key": "value", "value": "`), or anything ending in an assignment
/// (`: &str = "`, `: string = '`).
fn joined_by_punctuation(between: &str) -> bool {
    let assigned = between
        .trim_end_matches(|c: char| c.is_ascii_whitespace() || "\"'`".contains(c))
        .ends_with('=');
    between.len() <= 32
        && (assigned
            || !between
                .replace("value", "")
                .bytes()
                .any(|b| b.is_ascii_alphanumeric()))
}

/// Whether `between`, text from a name to a value on a later line, introduces the value
/// below it: the name's line ends with a colon and the lines between are blank or open a
/// Markdown code block (` ``` `, ` ~~~ `).
fn introduced_below(between: &str) -> bool {
    let (first, rest) = between.split_once('\n').unwrap_or((between, ""));
    let first = first.trim_end();
    (first.ends_with(':') || first.ends_with('：'))
        && rest.lines().all(|line| {
            let line = line.trim();
            line.is_empty() || line.starts_with("```") || line.starts_with("~~~")
        })
}

/// How a value stands on its own line.
#[derive(Clone, Copy, PartialEq)]
enum OnItsLine {
    /// Alone, but for blanks, quotes and a trailing comma or semicolon.
    Alone,
    /// After a label saying it is the value, as in a listing of keys (`"value": "..."`).
    Labelled,
    /// With other text.
    AmongText,
}

/// How the value at `start..stop` stands on its line.
fn on_its_line(bytes: &[u8], start: usize, stop: usize) -> OnItsLine {
    let line_end = bytes[stop..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| stop + i);
    let framing = |b: &u8| b.is_ascii_whitespace() || b"\"'`,;".contains(b);
    let label = || {
        bytes[line_start(bytes, start)..start]
            .iter()
            .filter(|b| !framing(b))
            .map(u8::to_ascii_lowercase)
    };
    if !bytes[stop..line_end].iter().all(framing) {
        OnItsLine::AmongText
    } else if label().next().is_none() {
        OnItsLine::Alone
    } else if label().eq(b"value:".iter().copied()) {
        OnItsLine::Labelled
    } else {
        OnItsLine::AmongText
    }
}

/// Where the line holding byte `at` starts.
pub(super) fn line_start(bytes: &[u8], at: usize) -> usize {
    bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// Whether the value starting at `start` follows a mark saying it is a digest, in the base64
/// forms digests take: Go's module checksums (`go.sum`: `... v0.20.0 h1:...=`) and subresource
/// integrity (`sha384-...`).
pub(super) fn follows_digest_mark(bytes: &[u8], start: usize) -> bool {
    let before = &bytes[start.saturating_sub(7)..start];
    let ends = |mark: &[u8]| {
        before.len() >= mark.len() && before[before.len() - mark.len()..].eq_ignore_ascii_case(mark)
    };
    ends(b"h1:") || ends(b"sha1-") || ends(b"sha256-") || ends(b"sha384-") || ends(b"sha512-")
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

/// Where the run of value bytes starting at `start` ends: at the first byte that is not one, or
/// at a `=` inside the run, which joins a name to its value (`KEY_ID=...`; the value is a run of
/// its own). Only base64's padding ends a value with `=`.
pub(super) fn run_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < bytes.len() && is_value_byte(bytes[i]) {
        if bytes[i] == b'='
            && bytes
                .get(i + 1)
                .is_some_and(|&b| is_value_byte(b) && b != b'=')
        {
            break;
        }
        i += 1;
    }
    i
}

/// The bytes a credential value is written in: letters, digits and base64's and tokens'
/// punctuation.
pub(super) fn is_value_byte(b: u8) -> bool {
    VALUE_BYTES[usize::from(b)]
}

/// [`is_value_byte`] as a table: the scans call it on every byte of a text.
static VALUE_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'+' | b'/' | b'=' | b'_' | b'-' | b'.' | b'~');
        b += 1;
    }
    table
};

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
/// written in words, not a public key (`AAAA...`, `k3.public....`), not a placeholder.
pub(super) fn strongly_random(v: &str, least: usize) -> bool {
    let b = v.as_bytes();
    let body = without_prefix(v);
    (least..=512).contains(&b.len())
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && !v.starts_with("AAAA")
        && !names_itself(v)
        && !written_in_words(v)
        && (shannon_entropy(body) >= 4.0 || spread_like_random(body))
        && !is_placeholder(v)
}

/// Whether `v` holds a word that names what it is, so is a name, not a key: a public key
/// (`k3.public....`), an identifier (`fastapis-oauth2passwordbearer`).
fn names_itself(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    ["public", "password", "bearer", "oauth"]
        .iter()
        .any(|w| lower.contains(w))
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
        spans(text, find(text, &word_spans_in(text)))
    }

    const KEY: &str = "q8Rt2ZmP0xLk5VbN7wYc+Zx81kQp0Lm3RtY7w=";

    #[test]
    fn no_credential_word_can_cross_a_table_cell_or_csv_field_edge() {
        // The table search looks for the words of the whole text inside each header cell.
        for word in WORDS {
            assert!(!word.contains([',', '|']), "{word}");
            assert_eq!(word.trim(), *word, "{word}");
        }
    }

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
            format!("Konu: test ortamı\nAPI anahtarı: {KEY}"),
            format!("Här är testmiljöns API-nyckel: {KEY}"),
            format!("Το κλειδί API είναι {KEY}"),
            format!("مفتاح API الخاص بالاختبار: {KEY}"),
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
            // A digest's length, joined to the name by punctuation alone.
            (
                r#"    .bearer_auth("45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1")"#,
                "45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1",
            ),
            (
                "@陈静 预发环境的接口密钥发你了：45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1",
                "45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1",
            ),
            (
                r#"buildConfigField("String", "MAPS_KEY", "\"9d1c3f0e7b2a4c5d8e6f1a0b3c2d4e5f6a7b8c9d\"")"#,
                "9d1c3f0e7b2a4c5d8e6f1a0b3c2d4e5f6a7b8c9d",
            ),
            (
                r#"  "apikey": [ { "key": "value", "value": "65a4215e7ca22794fd5076021b6391aa5c0b1d2e3f4a5b6c7d8e9f0a1b2c3d4e" } ]"#,
                "65a4215e7ca22794fd5076021b6391aa5c0b1d2e3f4a5b6c7d8e9f0a1b2c3d4e",
            ),
            // Hex alone on its line below a name ending in a colon.
            (
                "anbei der API-Schlüssel für die Testumgebung:\n\n4b1eede52eb5c5a2c299\n\nBitte nicht weitergeben.",
                "4b1eede52eb5c5a2c299",
            ),
            (
                "Entegrasyon testleri için API anahtarı aşağıdadır:\n\n    0f806f3000f111dcac12\n",
                "0f806f3000f111dcac12",
            ),
            (
                "2. Usa la siguiente clave de acceso (solo para pruebas):\n\n   ```\n   45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1\n   ```",
                "45497dd09e34feb5babbbf4b701fb1a283093d46fea2f21d5709bfbd3ddb9cc1",
            ),
            (
                "[\n  {\n    \"keyName\": \"key1\",\n    \"permissions\": \"FULL\",\n    \"value\": \"4fd66c3b01f4a72c43aa12cbe1de1e3d\"\n  }\n]",
                "4fd66c3b01f4a72c43aa12cbe1de1e3d",
            ),
            (
                r#"pub const API_TOKEN: &str = "65a4215e7ca22794fd5076021b6391aa5c8eac36923941d7f3eb61cf915c104b";"#,
                "65a4215e7ca22794fd5076021b6391aa5c8eac36923941d7f3eb61cf915c104b",
            ),
            (
                "- clay api key (prod, shared): 0f806f3000f111dcac12",
                "0f806f3000f111dcac12",
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
            // A digest's length with words between, hex below a name not introducing it, or
            // not alone on its line.
            "the token was rotated with 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "API key fingerprint:\n\n9fd0fab79bd9ece9c8f0f660a26796f0e1d2c3b4",
            "the API key rotation\n\n4b1eede52eb5c5a2c299",
            "API key for staging:\n\nsee 4b1eede52eb5c5a2c299 for the change",
            "令牌哈希：2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "cloud.google.com/go/auth v0.20.0 h1:kXTqLTs0QhfAvZJr1aL5zQvN5aqZL4kRo+Q3jLzBq3A=",
            "golang.org/x/oauth2 v0.21.0 h1:kXTqLTs0QhfAvZJr1aL5zQvN5aqZL4kRo+Q3jLzBq3A=\ngolang.org/x/sync v0.0.0-20220722155255-886fb9371eb4/go.mod h1:RxMgew5VJxzue5WJaW3",
            "[CREDENTIAL] paseto login\nk3.public.AmDwjlyf8jAV3gm5Z7Kz9xAOcsKslt_Vwp5v-emjFzBHLCtcANzTaVE",
            "## `OAuth2PasswordBearer` в **FastAPI** {{ #fastapis-oauth2passwordbearer }}",
            "token cache:\n  \"commit\": \"9fd0fab79bd9ece9c8f0f660a26796f0e1d2c3b4\"",
            "token digest = \"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\"",
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
