//! Reading JSON values against a schema while collecting every error with its field path.
//!
//! Each reader takes the value, its path and the error list, and returns `None` after
//! recording an error, so a schema can read all its fields and report all problems at once.

use std::borrow::Cow;

use kenning_contract::parse_address;

use super::json::{self, Json};

use crate::types::FieldError;

/// The errors found so far in one call.
#[derive(Debug, Default)]
pub struct Errors(pub Vec<FieldError>);

impl Errors {
    /// Records `message` at `path`.
    pub fn push(&mut self, path: &str, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `prefix.key`, or `key` at the top level (borrowed: most fields read cleanly, and their
/// paths are only ever needed for an error).
pub fn field_path<'k>(prefix: &str, key: &'k str) -> Cow<'k, str> {
    if prefix.is_empty() {
        Cow::Borrowed(key)
    } else {
        Cow::Owned(format!("{prefix}.{key}"))
    }
}

/// `prefix[index]`.
pub fn index_path(prefix: &str, index: usize) -> String {
    format!("{prefix}[{index}]")
}

/// The JSON type of `value`, as the schema errors name it.
fn type_name(value: &Json<'_>) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// "expected X, got Y".
pub fn expected(what: &str, value: &Json<'_>) -> String {
    format!("expected {what}, got {}", type_name(value))
}

/// A JSON object whose fields have been checked against a closed list.
pub struct Object<'a> {
    fields: &'a [(Cow<'a, str>, Json<'a>)],
    path: &'a str,
}

impl<'a> Object<'a> {
    /// Opens `value` as an object allowing only `allowed` fields; every other field is an
    /// error at its own path, reported in the sorted order of their names (the order a sorted
    /// map gave them before). `None` (with an error) when `value` is not an object.
    pub fn open(
        value: &'a Json<'a>,
        path: &'a str,
        allowed: &[&str],
        errors: &mut Errors,
    ) -> Option<Self> {
        let Json::Object(fields) = value else {
            errors.push(path, expected("an object", value));
            return None;
        };
        let mut unknown: Vec<&str> = fields
            .iter()
            .map(|(key, _)| key.as_ref())
            .filter(|key| !allowed.iter().any(|name| json::same_name(name, key)))
            .collect();
        // Keys are distinct (the parser refuses a repeated one), so no stable sort is needed.
        unknown.sort_unstable();
        for key in unknown {
            errors.push(
                &field_path(path, key),
                format!("unknown field (expected one of {})", allowed.join(", ")),
            );
        }
        Some(Object { fields, path })
    }

    /// The value of `key`; `None` when absent or null (optional fields treat both alike).
    pub fn get(&self, key: &str) -> Option<&'a Json<'a>> {
        json::find(self.fields, key).filter(|v| !v.is_null())
    }

    /// The path of `key` inside this object.
    pub fn path<'k>(&self, key: &'k str) -> Cow<'k, str> {
        field_path(self.path, key)
    }

    /// The value of a required field, recording "is required" when it is absent or null.
    pub fn required(&self, key: &str, errors: &mut Errors) -> Option<&'a Json<'a>> {
        let value = self.get(key);
        if value.is_none() {
            errors.push(&self.path(key), "required field is missing");
        }
        value
    }
}

/// A string, trimmed, between `min` and `max` bytes long after trimming.
pub fn string(
    value: &Json<'_>,
    path: &str,
    min: usize,
    max: usize,
    errors: &mut Errors,
) -> Option<String> {
    let Json::String(s) = value else {
        errors.push(path, expected("a string", value));
        return None;
    };
    let s = s.trim();
    if s.len() < min {
        errors.push(
            path,
            if min == 1 {
                "must not be empty".to_string()
            } else {
                format!("must be at least {min} bytes")
            },
        );
        return None;
    }
    within_max(s, path, max, errors).map(str::to_string)
}

/// `s` when it is at most `max` bytes long; else records the error at `path`.
fn within_max<'s>(s: &'s str, path: &str, max: usize, errors: &mut Errors) -> Option<&'s str> {
    if s.len() > max {
        errors.push(
            path,
            format!("must be at most {max} bytes (got {})", s.len()),
        );
        return None;
    }
    Some(s)
}

/// A string kept exactly as written (not trimmed): it must hold something other than
/// whitespace and be at most `max` bytes long. For values whose exact bytes matter, such as a
/// string literal of the subject or an imported text whose content hash is checked.
pub fn verbatim(value: &Json<'_>, path: &str, max: usize, errors: &mut Errors) -> Option<String> {
    let Json::String(s) = value else {
        errors.push(path, expected("a string", value));
        return None;
    };
    if s.trim().is_empty() {
        errors.push(path, "must not be empty");
        return None;
    }
    within_max(s, path, max, errors).map(str::to_string)
}

/// A non-negative integer (a JSON number without fraction).
pub fn integer(value: &Json<'_>, path: &str, errors: &mut Errors) -> Option<u64> {
    match value {
        Json::Number(n) => match n.as_u64() {
            Some(v) => Some(v),
            None if n.as_i64().is_some() => {
                errors.push(path, "expected a non-negative integer");
                None
            }
            None => {
                errors.push(path, "expected an integer, got a fractional number");
                None
            }
        },
        other => {
            errors.push(path, expected("an integer", other));
            None
        }
    }
}

/// An integer in `min..=max`.
pub fn integer_in(
    value: &Json<'_>,
    path: &str,
    min: u64,
    max: u64,
    errors: &mut Errors,
) -> Option<u64> {
    let v = integer(value, path, errors)?;
    if !(min..=max).contains(&v) {
        errors.push(path, format!("must be between {min} and {max} (got {v})"));
        return None;
    }
    Some(v)
}

/// An address: a non-negative JSON integer, a hex string such as `"0x401000"`, or a decimal
/// string.
pub fn address(value: &Json<'_>, path: &str, errors: &mut Errors) -> Option<u64> {
    match value {
        Json::String(s) => match parse_address(s) {
            Ok(v) => Some(v),
            Err(message) => {
                errors.push(path, message);
                None
            }
        },
        Json::Number(_) => integer(value, path, errors),
        other => {
            errors.push(
                path,
                expected("an address (an integer or a hex string)", other),
            );
            None
        }
    }
}

/// A finite number in `[min, max]`.
pub fn number_in(
    value: &Json<'_>,
    path: &str,
    min: f64,
    max: f64,
    errors: &mut Errors,
) -> Option<f64> {
    let Some(v) = value.as_f64() else {
        errors.push(path, expected("a number", value));
        return None;
    };
    if !(min..=max).contains(&v) {
        errors.push(path, format!("must be between {min} and {max} (got {v})"));
        return None;
    }
    Some(v)
}

/// One of `choices`, matched case-insensitively after trimming; returned as spelt in
/// `choices`.
pub fn choice(
    value: &Json<'_>,
    path: &str,
    choices: &[&'static str],
    errors: &mut Errors,
) -> Option<&'static str> {
    let Json::String(s) = value else {
        errors.push(path, expected("a string", value));
        return None;
    };
    let found = choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(s.trim()))
        .copied();
    if found.is_none() {
        errors.push(
            path,
            format!(
                "unknown value '{}' (expected one of {})",
                s.trim(),
                choices.join(", ")
            ),
        );
    }
    found
}

/// An array of at most `max` items, each read by `item` at its indexed path. Items that fail
/// are left out of the result (their errors are recorded).
pub fn list<T>(
    value: &Json<'_>,
    path: &str,
    max: usize,
    errors: &mut Errors,
    mut item: impl FnMut(&Json<'_>, &str, &mut Errors) -> Option<T>,
) -> Option<Vec<T>> {
    let Json::Array(values) = value else {
        errors.push(path, expected("an array", value));
        return None;
    };
    if values.len() > max {
        errors.push(
            path,
            format!("at most {max} items allowed (got {})", values.len()),
        );
        return None;
    }
    let before = errors.0.len();
    let items: Vec<T> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| item(v, &index_path(path, i), errors))
        .collect();
    (errors.0.len() == before).then_some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::json::from_value;

    /// `serde_json::json!`, as the readers' tree.
    macro_rules! json {
        ($($value:tt)+) => {
            from_value(&serde_json::json!($($value)+))
        };
    }

    #[test]
    fn addresses_accept_integers_hex_and_decimal_strings() {
        let mut e = Errors::default();
        assert_eq!(address(&json!(4198400), "a", &mut e), Some(0x401000));
        assert_eq!(address(&json!("0x401000"), "a", &mut e), Some(0x401000));
        assert_eq!(address(&json!("0X40100a"), "a", &mut e), Some(0x40100a));
        assert_eq!(address(&json!(" 4198400 "), "a", &mut e), Some(0x401000));
        assert!(e.is_empty());
        assert_eq!(address(&json!("0x"), "a", &mut e), None);
        assert_eq!(address(&json!("40x"), "a", &mut e), None);
        assert_eq!(address(&json!(-1), "a", &mut e), None);
        assert_eq!(address(&json!("0x1ffffffffffffffff"), "a", &mut e), None);
        assert_eq!(address(&json!(true), "a", &mut e), None);
        assert_eq!(e.0.len(), 5);
        assert!(e.0.iter().all(|err| err.path == "a"));
    }

    #[test]
    fn strings_are_trimmed_and_bounded() {
        let mut e = Errors::default();
        assert_eq!(
            string(&json!("  hi "), "s", 1, 4, &mut e).as_deref(),
            Some("hi")
        );
        assert_eq!(string(&json!("   "), "s", 1, 4, &mut e), None);
        assert_eq!(string(&json!("hello"), "s", 1, 4, &mut e), None);
        assert_eq!(string(&json!(5), "s", 1, 4, &mut e), None);
        let messages: Vec<_> = e.0.iter().map(|x| x.message.as_str()).collect();
        assert_eq!(messages[0], "must not be empty");
        assert!(messages[1].starts_with("must be at most 4 bytes"));
        assert_eq!(messages[2], "expected a string, got a number");
    }

    #[test]
    fn verbatim_strings_keep_their_whitespace() {
        let mut e = Errors::default();
        assert_eq!(
            verbatim(&json!(" a b\n"), "s", 5, &mut e).as_deref(),
            Some(" a b\n")
        );
        assert_eq!(verbatim(&json!(" \t"), "s", 4, &mut e), None);
        assert_eq!(verbatim(&json!("abcdef"), "s", 5, &mut e), None);
        assert_eq!(verbatim(&json!(["a"]), "s", 4, &mut e), None);
        let messages: Vec<_> = e.0.iter().map(|x| x.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "must not be empty",
                "must be at most 5 bytes (got 6)",
                "expected a string, got an array"
            ]
        );
    }

    #[test]
    fn integers_reject_fractions_and_negatives() {
        let mut e = Errors::default();
        assert_eq!(integer(&json!(1.5), "n", &mut e), None);
        assert_eq!(integer(&json!(-3), "n", &mut e), None);
        assert_eq!(integer(&json!("3"), "n", &mut e), None);
        assert_eq!(integer_in(&json!(0), "n", 1, 10, &mut e), None);
        assert_eq!(integer_in(&json!(10), "n", 1, 10, &mut e), Some(10));
        assert_eq!(e.0.len(), 4);
        assert!(e.0[2].message.starts_with("expected an integer"));
    }

    #[test]
    fn lists_report_item_paths_and_sizes() {
        let mut e = Errors::default();
        let got = list(&json!(["a", 1, "b"]), "xs", 5, &mut e, |v, p, e| {
            string(v, p, 1, 9, e)
        });
        assert_eq!(got, None);
        assert_eq!(e.0[0].path, "xs[1]");
        let mut e = Errors::default();
        assert_eq!(list(&json!([1, 2, 3]), "xs", 2, &mut e, integer), None);
        assert_eq!(e.0[0].path, "xs");
    }

    #[test]
    fn objects_reject_unknown_fields_at_their_path() {
        let mut e = Errors::default();
        let v = json!({"a": 1, "zz": 2});
        let obj = Object::open(&v, "outer", &["a"], &mut e).unwrap();
        assert_eq!(e.0[0].path, "outer.zz");
        assert!(e.0[0].message.starts_with("unknown field"));
        assert!(obj.get("a").is_some());
        assert!(obj.required("b", &mut e).is_none());
        assert_eq!(e.0[1].path, "outer.b");
    }
}
