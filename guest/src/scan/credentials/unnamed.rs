//! Strongly random values with no name near them: a key stored in a hash under its provider's
//! name (`HSET integrations acme "..."`), passed as a positional argument, pasted alone in a
//! chat. Every other rule needs a name, a prefix or a header; these values have none, and what
//! gives them away is the value itself: long, random in the way only keys and digests are, in
//! the letters keys are written in.
//!
//! The bar is higher than for a value after a credential's name (see [`super::proximity`]):
//! 32 characters or more, upper- and lower-case letters and digits (so no hex digest, no
//! lower-case id), spread as randomly as its alphabet allows, not written in words or as a
//! path. What else is written so is left alone: anything in a URL, digests and ids named as
//! such (`integrity="sha384-..."`, `X-Amz-Cf-Id: ...`), base64 that decodes to text, the
//! base58 of crypto addresses and content ids, and PEM blocks (public keys and certificates;
//! the private ones have rules of their own).

use super::super::rules::{Family, Hit};
use super::proximity::{
    DIGEST_OR_ID_WORDS, follows_digest_mark, is_value_byte, line_start, run_end, strongly_random,
};

/// Fewest characters of a value taken with no name near it.
const MIN_BYTES: usize = 32;

/// How far before a value a word naming a digest or an id makes it one.
const LABEL_BYTES: usize = 48;

/// Every strongly random value of `text` standing alone (see the module's documentation).
pub fn find(text: &str) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let mut hits = Vec::new();
    // Whether the text holds a PEM block, asked once a value is found.
    let mut pem: Option<bool> = None;
    // A value of MIN_BYTES or more covers one of every MIN_BYTES positions: only those are
    // read, and around any that is a value byte, the stretch of value bytes holding it.
    let mut probe = MIN_BYTES - 1;
    while probe < bytes.len() {
        if !is_value_byte(bytes[probe]) {
            probe += MIN_BYTES;
            continue;
        }
        let mut start = probe;
        while start > 0 && is_value_byte(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && is_value_byte(bytes[end]) {
            end += 1;
        }
        // A `=` inside the stretch joins a name to its value (`KEY_ID=...`): the value is
        // named, for the assignment rules to judge.
        if run_end(bytes, start) == end {
            let (start, stop) = trim(bytes, start, end);
            if stop - start >= MIN_BYTES
                && stands_alone(text, start, stop)
                && !*pem.get_or_insert_with(|| text.contains("-----BEGIN "))
            {
                hits.push(Hit {
                    family: Family::Secret,
                    kind: "unnamed-random-value",
                    start,
                    end: stop,
                    priority: usize::MAX,
                });
            }
        }
        probe = end + MIN_BYTES;
    }
    hits
}

/// The run `start..stop` without the punctuation that ends sentences and paths around it.
fn trim(bytes: &[u8], mut start: usize, mut stop: usize) -> (usize, usize) {
    while start < stop && matches!(bytes[start], b'.' | b'-' | b'/' | b'=' | b'_') {
        start += 1;
    }
    while stop > start && matches!(bytes[stop - 1], b'.' | b'-' | b'/' | b'_') {
        stop -= 1;
    }
    (start, stop)
}

/// Whether the value at `start..stop` is a key standing alone: strongly random, a part of it
/// mixing upper- and lower-case letters and digits, not base58 of crypto addresses, not base64 of text, not
/// in a URL and not named as a digest or an id.
fn stands_alone(text: &str, start: usize, stop: usize) -> bool {
    let value = &text[start..stop];
    value.split(['-', '_', '.']).any(mixes_cases_and_digits)
        && !is_base58_address(value)
        && strongly_random(value, MIN_BYTES)
        && !decodes_to_text(value)
        && !in_url(text, start)
        && !named_as_digest_or_id(text, start)
}

/// Whether `part` is 16 characters or more with upper- and lower-case letters and two digits:
/// a key's random part, not a name before hex digits (`dryRun-754a08dd...`).
fn mixes_cases_and_digits(part: &str) -> bool {
    let b = part.as_bytes();
    b.len() >= 16
        && b.iter().any(u8::is_ascii_uppercase)
        && b.iter().any(u8::is_ascii_lowercase)
        && b.iter().filter(|c| c.is_ascii_digit()).count() >= 2
}

/// Whether `v` is written in base58 (no `0`, `O`, `I`, `l` or punctuation) and no longer than
/// 50 characters: a Bitcoin or Solana address, an IPFS content id. A random base64 key of 32
/// characters avoids those letters one time in fifty; a longer one almost never does.
fn is_base58_address(v: &str) -> bool {
    v.len() <= 50
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() && !b"0OIl".contains(&c))
}

/// Whether `v`, read as base64 (standard or URL-safe), decodes to printable text: encoded
/// text, not a key, whose bytes are random.
fn decodes_to_text(v: &str) -> bool {
    let digits: Vec<u8> = v
        .bytes()
        .take_while(|&c| c != b'=')
        .map_while(sextet)
        .collect();
    if digits.len() < v.trim_end_matches('=').len() {
        return false;
    }
    let mut printable = 0;
    let mut total = 0;
    for chunk in digits.chunks(4) {
        let mut n: u32 = 0;
        for (k, d) in chunk.iter().enumerate() {
            n |= u32::from(*d) << (18 - 6 * k);
        }
        for k in 0..chunk.len().saturating_sub(1) {
            let byte = (n >> (16 - 8 * k)) as u8;
            total += 1;
            if byte == b'\n' || byte == b'\t' || (0x20..0x7f).contains(&byte) {
                printable += 1;
            }
        }
    }
    total > 0 && printable * 10 >= total * 9
}

/// The six bits a base64 digit stands for, in either alphabet.
fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Whether the value starting at `start` is part of a URL or a data URI: its blank-delimited
/// word holds `://` or `base64,` before it, or it follows a `/`, `?`, `&`, `#` or `@` directly.
fn in_url(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    if start > 0 && b"/?&#@%".contains(&bytes[start - 1]) {
        return true;
    }
    let word_start = bytes[..start]
        .iter()
        .rposition(|b| b.is_ascii_whitespace() || b"\"'`<>()[]{}".contains(b))
        .map_or(0, |i| i + 1);
    let word = &text[word_start..start];
    word.contains("://") || word.contains("base64,")
}

/// Whether the text before `start`, within [`LABEL_BYTES`] and on its line or the one before
/// (an argument list's previous line), names a digest or an id (`integrity="sha384-`,
/// `X-Amz-Cf-Id: `, `request_id=`, `nonce-`, `remote_fingerprint,`), or a digest's mark stands
/// right before it (`go.sum`'s `h1:`).
fn named_as_digest_or_id(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    if follows_digest_mark(bytes, start) {
        return true;
    }
    let previous_line_start = line_start(bytes, line_start(bytes, start).saturating_sub(1));
    let from = text.floor_char_boundary(start.saturating_sub(LABEL_BYTES).max(previous_line_start));
    let label = text[from..start].to_ascii_lowercase();
    DIGEST_OR_ID_WORDS
        .iter()
        .chain(&[
            "integrity",
            "nonce",
            "signature",
            "-id",
            "id:",
            "id=",
            "id\"",
        ])
        .any(|w| label.contains(w))
}

#[cfg(test)]
mod tests {
    use super::super::tests::spans;
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        spans(text, find(text))
    }

    #[test]
    fn long_random_keys_with_no_name_near_them_are_found() {
        for (text, value) in [
            (
                "127.0.0.1:6379[6]> HSET tenant:7224:integrations azurecosmosdb \"zXPXLYRC5VZ2d4pjosVri7Pnb98u2h0AJTVHKg2yLlKKn27DN2GM1XwhpaBrOk5p0BqhTIrqT4poACDb8IOFRw==\"",
                "zXPXLYRC5VZ2d4pjosVri7Pnb98u2h0AJTVHKg2yLlKKn27DN2GM1XwhpaBrOk5p0BqhTIrqT4poACDb8IOFRw==",
            ),
            (
                "HSET tenant:2644:integrations ollama \"b4698cc62c32d2049f321e616048fe28.d_FXxJzuoylxwYX2C3BwZyD8\"",
                "b4698cc62c32d2049f321e616048fe28.d_FXxJzuoylxwYX2C3BwZyD8",
            ),
            (
                "$s = ConvertTo-SecureString 'AO+X9dbpuHwtrJ0S5O8Klf4U2QTaTK96dAZEGLoDg8N=' -AsPlainText",
                "AO+X9dbpuHwtrJ0S5O8Klf4U2QTaTK96dAZEGLoDg8N=",
            ),
            (
                "here you go: q8Rt2ZmP0xLk5VbN7wYcZx81kQp0Lm3RtY7w",
                "q8Rt2ZmP0xLk5VbN7wYcZx81kQp0Lm3RtY7w",
            ),
        ] {
            assert_eq!(found(text), [value], "{text}");
        }
    }

    #[test]
    fn digests_ids_urls_encoded_text_and_public_keys_are_not() {
        for text in [
            // Hex digests and commit ids, lower-case ids, words and paths.
            "sha256 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "pod payments-api-7d9f8b6c5d-x2x7k restarted; trace 4bf92f3577b34da6a3ce929d0e0e4736",
            "see src/components/settings/NotificationPreferencesPanel2.tsx",
            "ReadOnlyAccessForReportingDashboards2024 and beyond",
            "==> writing image dryRun-754a08ddf8bcb1cf22f310f09206dd783d42f7dd",
            "check(\n    remote_fingerprint,\n    \"yn+pONDn0EcgdOCVptgB4RZd/wqmsVKrPnQMLtrvhw8\",\n)",
            // A named value, which the assignment rules judge.
            "export AWS_ACCESS_KEY_ID=yLryKGwcGc3ez9G8YAnjeYMQOcq8Rt2ZmP0xLk5VbN",
            "a == b, =yLryKGwcGc3ez9G8YAnjeYMQOcq8Rt2ZmP0xLk5VbN",
            // In a URL or a data URI.
            "https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
            "<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\">",
            // Digests and ids named as such.
            "<script src=\"app.js\" integrity=\"sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC\"></script>",
            "X-Amz-Cf-Id: 6b0Z4zvFm5y0sgS8Ea8pIrFvi6nXJrYf8jr3lXQr2pFfh4p9ZlB5Pw==",
            "golang.org/x/sys v0.1.0 h1:kunALQeHf1/185U1i0GOB/fy1IPRDDpuoOOqRReG0ss=",
            // Base64 of text, base58 addresses and content ids, public keys.
            "the header was VGhpcyBpcyBqdXN0IGEgdGVzdCBzdHJpbmcgZm9yIGRlY29kaW5n",
            "send it to 1BoatSLRHtKNngkdXEeobR76b53LETtpyT please",
            "pinned QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG on the gateway",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
