//! Input rules that hosts and policies share, so an address or a thread id reads the same on
//! both sides of the boundary.

use crate::MAX_THREAD_BYTES;

/// Parses an address written as a string: `0x`-prefixed hex (any case) or decimal.
pub fn parse_address(text: &str) -> Result<u64, &'static str> {
    let t = text.trim();
    let (digits, radix) = match t.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => (&t[2..], 16),
        _ => (t, 10),
    };
    let well_formed = !digits.is_empty()
        && digits.chars().all(|c| {
            if radix == 16 {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        });
    if !well_formed {
        return Err(
            "expected an address: a non-negative integer, a hex string such as \"0x401000\" or a decimal string",
        );
    }
    u64::from_str_radix(digits, radix).map_err(|_| "address does not fit in 64 bits")
}

/// Whether `id` is a conversation thread id: 1 to [`MAX_THREAD_BYTES`] bytes of
/// `[A-Za-z0-9_.:-]`.
pub fn is_thread_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_THREAD_BYTES
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b))
}

/// Whether `tag` (without its `#`) is a tag: `[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,63}`. The one
/// rule, so a tag the host filters by is one a tool call can store.
pub fn is_tag(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= crate::MAX_TAG_BYTES
        && (bytes[0].is_ascii_alphanumeric() || bytes[0] == b'_')
        && bytes[1..]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"_.:/-".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_as_hex_or_decimal_and_nothing_else() {
        assert_eq!(parse_address("0x401000"), Ok(0x40_1000));
        assert_eq!(parse_address(" 0X1f "), Ok(0x1f));
        assert_eq!(parse_address("4096"), Ok(4096));
        let malformed = "expected an address: a non-negative integer, a hex string such as \"0x401000\" or a decimal string";
        for text in ["0x", "-1", "0x1_000", "401000h", ""] {
            assert_eq!(parse_address(text), Err(malformed), "{text:?}");
        }
        assert_eq!(parse_address("0xffffffffffffffff"), Ok(u64::MAX));
        assert_eq!(
            parse_address("0x10000000000000000"),
            Err("address does not fit in 64 bits")
        );
    }

    #[test]
    fn thread_ids_are_short_and_plain() {
        assert!(is_thread_id("chat-42:a.b_c"));
        assert!(!is_thread_id(""));
        assert!(!is_thread_id("has space"));
        assert!(!is_thread_id(&"x".repeat(MAX_THREAD_BYTES + 1)));
    }
}
