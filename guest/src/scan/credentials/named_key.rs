//! Values assigned to a key whose name ends in the word "key" (`FIRECRAWL_KEY=`, `stripeKey:`,
//! `<add key="AcmeKey" value="...">`), for providers no rule names.
//!
//! "Key" alone says less than "secret" or "token": sort, partition, cache and object keys are
//! ids, and crypto constants in reverse-engineering notes are keys that are not credentials.
//! So the name must end in "key" as a word of its own, no part of it may name one of those
//! other kinds of key (nor a cipher's or a digest's), and the value must be random-looking in a
//! way ids and constants are not: letters and digits mixed, hex only as long as API keys are
//! written in it, not a path or a reference.

use super::super::literals::Literal;
use super::super::rules::{Family, Hit};
use super::super::secrets::{
    has_digit, is_hex_or_dashed, is_placeholder, is_uuid, shannon_entropy, spread_like_random,
};
use super::assignment::{assigned_value, key_start};

/// Parts of a key's name that make it a key of another kind: public halves and identities,
/// database and cache keys, object and file keys, keyboard keys, message and translation keys,
/// cipher and digest keys.
pub(super) const OTHER_KEYS: &[&str] = &[
    "public",
    "pub",
    "publishable",
    "verify",
    "verification",
    "primary",
    "foreign",
    "sort",
    "partition",
    "shard",
    "cache",
    "routing",
    "idempotency",
    "dedup",
    "lookup",
    "hash",
    "index",
    "unique",
    "composite",
    "object",
    "bucket",
    "file",
    "path",
    "registry",
    "hot",
    "shortcut",
    "map",
    "dict",
    "row",
    "column",
    "group",
    "message",
    "i18n",
    "translation",
    "label",
    "locale",
    // Public identities: OpenPGP fingerprints and SSH host keys.
    "gpg",
    "pgp",
    "fingerprint",
    "host",
    // Keys of ciphers and digests, as reverse-engineering notes record them: constants of a
    // sample, not credentials of a service.
    "aes",
    "des",
    "rc4",
    "xor",
    "tea",
    "xtea",
    "blowfish",
    "twofish",
    "chacha",
    "chacha20",
    "salsa",
    "salsa20",
    "camellia",
    "rsa",
    "dsa",
    "ecdsa",
    "ed25519",
    "cipher",
    "crypto",
    "round",
    "sbox",
    "expanded",
    "derived",
    "wrapped",
    "session",
    "checksum",
    "digest",
    "md5",
    "sha1",
    "sha256",
    "crc",
    "commit",
    "build",
    "device",
    "user",
];

/// Fewest characters of a value taken on the strength of a "key" name alone.
const MIN_VALUE_BYTES: usize = 16;

/// Shannon entropy, in bits per character, above which a value is spread enough whatever its
/// alphabet; below it, it must be spread as a random string of its own alphabet is (a prefix of
/// other letters can make a value's alphabet look larger than the one it was drawn from).
const ENOUGH_ENTROPY: f64 = 3.5;

/// The word this module looks for, for the scanner's literal index (which matches its letters
/// in either case).
pub const KEY_WORD: &[&str] = &["key"];

/// Every random-looking value assigned to a key named "...key", given where [`KEY_WORD`]
/// occurs in `text`.
pub fn find(text: &str, keys: &[Literal]) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let mut hits = Vec::new();
    for key in keys {
        let (at, from) = (key.start, key.end);
        if !ends_a_name_in_key(bytes, at)
            || names_another_kind_of_key(&text[key_start(bytes, at)..at])
        {
            continue;
        }
        let Some((start, stop)) = assigned_value(bytes, from) else {
            continue;
        };
        if random_key_value(&text[start..stop]) {
            hits.push(Hit {
                family: Family::Secret,
                kind: "key-assignment",
                start,
                end: stop,
                priority: usize::MAX - 1,
            });
        }
    }
    hits
}

/// [`find`] given where the scan's literal pass finds [`KEY_WORD`] in `text` (for tests and
/// timing).
#[cfg(test)]
pub fn find_in(text: &str) -> Vec<Hit> {
    use super::super::{literals_in, vocabulary};
    find(text, literals_in(text).all(vocabulary::KEY_WORD))
}

/// Whether the "key" at `at` is the last word of a longer name: something before it, joined
/// by `_`, `-` or `.` or by a change of case (`stripeKey`, `S3Key`), and nothing of the name
/// after it (`keyboard` and `monkey` are not).
fn ends_a_name_in_key(bytes: &[u8], at: usize) -> bool {
    let after = bytes.get(at + 3);
    if after.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
        return false;
    }
    let Some(&before) = at.checked_sub(1).and_then(|i| bytes.get(i)) else {
        return false;
    };
    let separated =
        matches!(before, b'_' | b'-' | b'.') && at >= 2 && bytes[at - 2].is_ascii_alphanumeric();
    let camel = bytes[at] == b'K' && (before.is_ascii_lowercase() || before.is_ascii_digit());
    separated || camel
}

/// Whether a part of the name before "key" (split at `_`, `-`, `.` and changes of case)
/// names another kind of key.
fn names_another_kind_of_key(name: &str) -> bool {
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            parts.push(std::mem::take(&mut part));
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            parts.push(std::mem::take(&mut part));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        part.push(c.to_ascii_lowercase());
    }
    parts.push(part);
    parts.iter().any(|p| OTHER_KEYS.contains(&p.as_str()))
}

/// Whether `v` is random enough to be a credential on a "key" name alone: 16 to 512
/// characters of the alphabets keys are written in, letters and digits mixed, spread enough
/// (3.5 bits a character, or as a random string of its alphabet and length is), not a name written in words, not a
/// placeholder or reference, and with a `/` only as base64 has it (long, no `.`), not as a
/// path has it. Hex counts only as API keys are written in it, 32
/// digits or more or a UUID: shorter runs are ids, offsets and constants.
fn random_key_value(v: &str) -> bool {
    let b = v.as_bytes();
    let alphabet = |c: &u8| c.is_ascii_alphanumeric() || b"_-+/=.~".contains(c);
    let hex_id_or_constant = is_hex_or_dashed(v)
        && !(b.len() >= 32 && b.iter().all(u8::is_ascii_hexdigit))
        && !is_uuid(v);
    let base64_slash = !v.contains('/')
        || (b.len() >= 32 && !v.contains('.') && b.iter().any(u8::is_ascii_uppercase));
    (MIN_VALUE_BYTES..=512).contains(&b.len())
        && b.iter().all(alphabet)
        && !v.starts_with(['/', '~', '.'])
        && has_digit(v)
        && b.iter().any(u8::is_ascii_alphabetic)
        && !hex_id_or_constant
        && base64_slash
        && (shannon_entropy(v) >= ENOUGH_ENTROPY || spread_like_random(v))
        && !named_in_words(v)
        && !is_placeholder(v)
}

/// Whether `v` is a name written in words (`settings-panel-v2`, `release_2023_candidate`):
/// every part between `-`, `_` and `.` is letters alone, digits alone, or too short to be
/// random (`v2`, `s3`). A key's digits sit inside long runs of letters and digits instead.
fn named_in_words(v: &str) -> bool {
    v.split(['-', '_', '.']).all(|part| {
        part.len() <= 3
            || part.bytes().all(|b| b.is_ascii_alphabetic())
            || part.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::spans;
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        spans(text, find_in(text))
    }

    #[test]
    fn random_values_of_keys_named_key_are_found() {
        for (text, value) in [
            ("ACME_KEY=q8Rt2ZmP0xLk5VbN7wYc", "q8Rt2ZmP0xLk5VbN7wYc"),
            (
                r#"<add key="AcmeKey" value="ak-Q8Rt2ZmP0xLk5VbN7wYc91" />"#,
                "ak-Q8Rt2ZmP0xLk5VbN7wYc91",
            ),
            (
                r#"{"name": "widget.key", "value": "Zx81kQp0Lm3RtY7wVq9r"}"#,
                "Zx81kQp0Lm3RtY7wVq9r",
            ),
            (
                "storage_key: Wm9vYmFyQmF6UXV4MTIzNDU2Nzg5MA+/aBcDeFgH==",
                "Wm9vYmFyQmF6UXV4MTIzNDU2Nzg5MA+/aBcDeFgH==",
            ),
            (
                r#"<add key="acme_key" value="4f0c2a9e8b7d6c5a4f3e2d1c0b9a8f7e" />"#,
                "4f0c2a9e8b7d6c5a4f3e2d1c0b9a8f7e",
            ),
            (
                "WIDGET_KEY=7913993e-d6da-209d-a990-98b260ff3ac1",
                "7913993e-d6da-209d-a990-98b260ff3ac1",
            ),
            // Random, though under 3.5 bits a character: as spread as their alphabets allow.
            (
                "ACME_KEY=a4c123b1612dd272d1371c17149d4395",
                "a4c123b1612dd272d1371c17149d4395",
            ),
            ("widget_key: oe95b9ee0vbgi09q", "oe95b9ee0vbgi09q"),
        ] {
            assert_eq!(found(text), [value], "{text}");
        }
    }

    #[test]
    fn other_keys_and_other_values_are_not() {
        for text in [
            // Other kinds of key.
            "PARTITION_KEY=q8Rt2ZmP0xLk5VbN7wYc",
            "publicKey: q8Rt2ZmP0xLk5VbN7wYc",
            r#"{"cacheKey": "user42Profile9xQz"}"#,
            "s3_object_key = q8Rt2ZmP0xLk5VbN7wYc",
            // Not a name ending in the word "key".
            "monkey = q8Rt2ZmP0xLk5VbN7wYc",
            "keyboard: q8Rt2ZmP0xLk5VbN7wYc",
            "key = q8Rt2ZmP0xLk5VbN7wYc",
            "KEY_ID=q8Rt2ZmP0xLk5VbN7wYc",
            // Values that are not random credentials: hex, UUIDs, paths, words, short ones.
            "aes_key = 2b7e151628aed2a6abf7158809cf4f3c",
            "rc4Key: 2b7e151628aed2a6abf7158809cf4f3c",
            "xor_key: 0x5A3C9E1F",
            "session_key = 7913993e-d6da-209d-a990-98b260ff3ac1",
            "user_key = 5f3c9a1e7b4d4e8f",
            "GPG_KEY=3AA5C34371567BD2A7D1C9E0B4F6E8D2C1A0B9F8",
            "ssh_host_key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "widget_key = 7913993e-d6da-209d",
            "upload_key: uploads/2024/x1y2z3/photo.jpg",
            "tls_key = /etc/ssl/private/server.key",
            "widget_key: settings-panel-v2",
            "deploy_key = release_2024_candidate_build",
            "theme_key: dashboard-dark-v12-compact",
            "acme_key = Zx81kQp0",
            "acme_key = ${ACME_KEY}",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
