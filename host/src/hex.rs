//! Lower-case hexadecimal, as content hashes and token ids are written.

/// `bytes` as lower-case hexadecimal, two digits a byte.
pub fn lower(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_becomes_two_lower_case_digits_high_half_first() {
        assert_eq!(lower(&[]), "");
        assert_eq!(lower(&[0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c");
        let all: Vec<u8> = (0..=255).collect();
        let expected: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(lower(&all), expected);
    }
}
