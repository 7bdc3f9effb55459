//! A memory's free-form metadata: the keys a writer files a memory under beyond kenning's own
//! (the chat platform's `{"project": "mobile-app", "technology": "react-native"}`), kept as an
//! object of their own and returned as given.
//!
//! [`check`] is the rule: an object of at most [`MAX_KEYS`] keys, each 1 to 64 of
//! `A-Z a-z 0-9 _ . : -`, nested at most [`MAX_DEPTH`] deep, at most [`MAX_BYTES`] of JSON.
//! Its strings are scanned with the memory's other short strings, as `metadata.KEY...`: a
//! secret or a planted instruction in one refuses the write (nothing is redacted from a value
//! the writer expects back as given). Forgetting a memory erases its metadata with its text.

use kenning_contract::types::FieldError;
use serde_json::Value;

/// A memory's free-form metadata: the keys and values its writer gave, returned as given.
pub type Metadata = serde_json::Map<String, serde_json::Value>;

/// Most keys an object of metadata holds.
pub const MAX_KEYS: usize = 32;
/// Most bytes of JSON metadata takes.
pub const MAX_BYTES: usize = 2048;
/// Deepest nesting of objects and arrays within metadata.
pub const MAX_DEPTH: usize = 4;
/// A key: 1 to 64 of `A-Z a-z 0-9 _ . : -`.
pub const KEY_PATTERN: &str = "^[A-Za-z0-9_.:-]{1,64}$";

fn is_key(key: &str) -> bool {
    (1..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// The problems of `metadata` (its field paths under `at`, such as `metadata`), if any.
pub fn check(metadata: &Metadata, at: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if metadata.len() > MAX_KEYS {
        errors.push(FieldError::new(
            at,
            format!("{} keys; the limit is {MAX_KEYS}", metadata.len()),
        ));
    }
    for key in metadata.keys() {
        if !is_key(key) {
            errors.push(FieldError::new(
                format!("{at}.{}", key.chars().take(64).collect::<String>()),
                "a key is 1 to 64 of A-Z a-z 0-9 _ . : -",
            ));
        }
    }
    let size = stored(metadata).len();
    if size > MAX_BYTES {
        errors.push(FieldError::new(
            at,
            format!("{size} bytes of JSON; the limit is {MAX_BYTES}"),
        ));
    }
    for (key, value) in metadata {
        if depth(value) > MAX_DEPTH {
            errors.push(FieldError::new(
                format!("{at}.{key}"),
                format!("nested deeper than {MAX_DEPTH} levels"),
            ));
        }
    }
    errors
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Every string of `metadata`, keys included, with its field path under `at`, to be scanned.
pub fn strings(metadata: &Metadata, at: &str) -> Vec<(String, String)> {
    fn walk(value: &Value, path: String, out: &mut Vec<(String, String)>) {
        match value {
            Value::String(text) => out.push((path, text.clone())),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{path}[{i}]"), out);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    out.push((path.clone(), key.clone()));
                    walk(item, format!("{path}.{key}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&Value::Object(metadata.clone()), at.to_owned(), &mut out);
    out
}

/// The form a store keeps: the object's JSON.
pub fn stored(metadata: &Metadata) -> String {
    serde_json::to_string(metadata).expect("JSON values serialise")
}

/// Metadata as a store kept it ([`stored`]).
pub fn parse_stored(text: &str) -> serde_json::Result<Metadata> {
    serde_json::from_str(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Metadata {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn the_platforms_metadata_passes_and_reads_back_as_given() {
        let given = object(
            json!({"project": "mobile-app", "technology": "react-native", "sprint": 14, "labels": ["ui", {"team": "core"}]}),
        );
        assert!(check(&given, "metadata").is_empty());
        assert_eq!(parse_stored(&stored(&given)).unwrap(), given);
    }

    #[test]
    fn bad_keys_too_many_keys_too_deep_and_too_large_are_named() {
        let bad_key = object(json!({"has space": 1}));
        assert_eq!(check(&bad_key, "metadata")[0].path, "metadata.has space");
        let many: Metadata = (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
        assert!(
            check(&many, "metadata")
                .iter()
                .any(|e| e.message.contains("keys"))
        );
        let deep = object(json!({"a": [[[[["too deep"]]]]]}));
        assert_eq!(check(&deep, "metadata")[0].path, "metadata.a");
        let large = object(json!({"note": "x".repeat(3000)}));
        assert!(check(&large, "metadata")[0].message.contains("bytes"));
    }

    #[test]
    fn every_string_is_found_for_the_scan_with_its_path() {
        let metadata = object(json!({"a": {"b": ["x", "y"]}, "c": "z"}));
        let found = strings(&metadata, "metadata");
        for expected in [
            ("metadata.a.b[1]", "y"),
            ("metadata.c", "z"),
            ("metadata.a", "b"),
        ] {
            assert!(
                found
                    .iter()
                    .any(|(p, t)| p == expected.0 && t == expected.1),
                "{expected:?} in {found:?}"
            );
        }
    }
}
