//! How a configuration value is read after its key: the assignment operators of configuration
//! files, environment files and code, and the keyed settings whose name and value are two
//! fields. Shared by the rules that find a key first and then read its value.

use super::super::rules::keyed_value_operator;

/// Whether `b` may be part of a configuration key's name (`api_key`, `stripe.secret-key`).
fn is_key_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_.-".contains(&b)
}

/// Farthest a key's name is followed from a word found in it, either way.
const MAX_KEY_EXTENT: usize = 40;

/// Where the key's name holding the byte at `at` starts: back over name characters, at most
/// [`MAX_KEY_EXTENT`] bytes.
pub fn key_start(bytes: &[u8], at: usize) -> usize {
    let mut begin = at;
    while begin > 0 && at - begin < MAX_KEY_EXTENT && is_key_char(bytes[begin - 1]) {
        begin -= 1;
    }
    begin
}

/// Where the key's name holding the byte before `at` ends: on over name characters, at most
/// [`MAX_KEY_EXTENT`] bytes.
pub fn key_end(bytes: &[u8], at: usize) -> usize {
    let mut end = at;
    while end < bytes.len() && end - at < MAX_KEY_EXTENT && is_key_char(bytes[end]) {
        end += 1;
    }
    end
}

/// Whether `bytes` can hold an assignment at all: every form assigns with `=` or `:`, and
/// most prose has neither.
pub fn may_assign(bytes: &[u8]) -> bool {
    bytes.contains(&b'=') || bytes.contains(&b':')
}

/// The value assigned after the key that ends at `at`, as a byte range: a quote may close
/// the key, then `=`, `:`, `:=`, `=>`, `?=` or `||` (blanks around), or a keyed setting's
/// `value=` (see [`keyed_value_operator`]), an optional quote, and the value up to the next
/// quote, blank or delimiter.
pub fn assigned_value(bytes: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let skip_blanks = |mut i: usize| {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        i
    };
    let keyed = if at < bytes.len() && b"\"'`".contains(&bytes[at]) {
        at += 1;
        keyed_value_operator(bytes, at)
    } else {
        None
    };
    at = match keyed {
        Some(after) => skip_blanks(after),
        None => {
            at = skip_blanks(at);
            let rest = &bytes[at..];
            let op = [&b":="[..], b"=>", b"?=", b"||", b"=", b":"]
                .into_iter()
                .find(|op| rest.starts_with(op))?;
            skip_blanks(at + op.len())
        }
    };
    if at < bytes.len() && b"\"'`".contains(&bytes[at]) {
        at += 1;
    }
    let start = at;
    while at < bytes.len()
        && !bytes[at].is_ascii_whitespace()
        && !b"\"'`,;)}]<>".contains(&bytes[at])
    {
        at += 1;
    }
    (at > start).then_some((start, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
        let at = text.find(key).unwrap() + key.len();
        assigned_value(text.as_bytes(), at).map(|(s, e)| &text[s..e])
    }

    #[test]
    fn every_assignment_form_yields_the_value() {
        for (text, key) in [
            ("API_KEY=Zx81kQp0", "API_KEY"),
            ("api_key = 'Zx81kQp0'", "api_key"),
            ("\"api_key\": \"Zx81kQp0\",", "api_key"),
            ("apiKey := `Zx81kQp0`", "apiKey"),
            ("api_key => Zx81kQp0;", "api_key"),
            ("API_KEY ?= Zx81kQp0", "API_KEY"),
            ("<add key=\"api_key\" value=\"Zx81kQp0\" />", "api_key"),
            (
                "{\"name\": \"api_key\", \"value\": \"Zx81kQp0\"}",
                "api_key",
            ),
        ] {
            assert_eq!(value_after(text, key), Some("Zx81kQp0"), "{text}");
        }
    }

    #[test]
    fn a_key_without_an_assignment_yields_nothing() {
        for (text, key) in [
            ("the api_key is rotated", "api_key"),
            ("<add key=\"api_key\" label=\"Zx81kQp0\" />", "api_key"),
            ("API_KEY=", "API_KEY"),
        ] {
            assert_eq!(value_after(text, key), None, "{text}");
        }
    }
}
