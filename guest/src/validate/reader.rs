//! Reading JSON values against a schema while collecting every error with its field path.
//!
//! Each reader takes the value, its path and the error list, and returns `None` after
//! recording an error, so a schema can read all its fields and report all problems at once.

use std::borrow::Cow;

use serde_json::{Map, Value};

use kenning_contract::parse_address;

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
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// "expected X, got Y".
pub fn expected(what: &str, value: &Value) -> String {
    format!("expected {what}, got {}", type_name(value))
}

/// Whether field name `a` is `b`: compared here, inline, because most names differ in their
/// length or first byte, and a call to `memcmp` for each pair was a tenth of a record's
/// validation inside the component.
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// A JSON object whose fields have been checked against a closed list.
pub struct Object<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Object<'a> {
    /// Opens `value` as an object allowing only `allowed` fields; every other field is an
    /// error at its own path. `None` (with an error) when `value` is not an object.
    pub fn open(
        value: &'a Value,
        path: &str,
        allowed: &[&str],
        errors: &mut Errors,
    ) -> Option<Self> {
        let Value::Object(map) = value else {
            errors.push(path, expected("an object", value));
            return None;
        };
        for key in map.keys() {
            if !allowed.iter().any(|name| same_name(name, key)) {
                errors.push(
                    &field_path(path, key),
                    format!("unknown field (expected one of {})", allowed.join(", ")),
                );
            }
        }
        Some(Object {
            map,
            path: path.to_string(),
        })
    }

    /// The value of `key`; `None` when absent or null (optional fields treat both alike).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// The path of `key` inside this object.
    pub fn path<'k>(&self, key: &'k str) -> Cow<'k, str> {
        field_path(&self.path, key)
    }

    /// The value of a required field, recording "is required" when it is absent or null.
    pub fn required(&self, key: &str, errors: &mut Errors) -> Option<&'a Value> {
        let value = self.get(key);
        if value.is_none() {
            errors.push(&self.path(key), "required field is missing");
        }
        value
    }
}

/// A string, trimmed, between `min` and `max` bytes long after trimming.
pub fn string(
    value: &Value,
    path: &str,
    min: usize,
    max: usize,
    errors: &mut Errors,
) -> Option<String> {
    let Value::String(s) = value else {
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
pub fn verbatim(value: &Value, path: &str, max: usize, errors: &mut Errors) -> Option<String> {
    let Value::String(s) = value else {
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
pub fn integer(value: &Value, path: &str, errors: &mut Errors) -> Option<u64> {
    match value {
        Value::Number(n) => match n.as_u64() {
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
    value: &Value,
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
pub fn address(value: &Value, path: &str, errors: &mut Errors) -> Option<u64> {
    match value {
        Value::String(s) => match parse_address(s) {
            Ok(v) => Some(v),
            Err(message) => {
                errors.push(path, message);
                None
            }
        },
        Value::Number(_) => integer(value, path, errors),
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
    value: &Value,
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
    value: &Value,
    path: &str,
    choices: &[&'static str],
    errors: &mut Errors,
) -> Option<&'static str> {
    let Value::String(s) = value else {
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
    value: &Value,
    path: &str,
    max: usize,
    errors: &mut Errors,
    mut item: impl FnMut(&Value, &str, &mut Errors) -> Option<T>,
) -> Option<Vec<T>> {
    let Value::Array(values) = value else {
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

/// Parses JSON as [`serde_json::from_str`] does, except that an object naming one key twice is
/// refused: with the usual last-one-wins, `{"text": "a", "text": "b"}` would pass a closed
/// schema that reads only one of the two.
pub fn parse_strict(json: &str) -> Result<Value, String> {
    serde_json::from_str::<Strict>(json)
        .map(|strict| strict.0)
        .map_err(|e| e.to_string())
}

/// A JSON value read without duplicate keys.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key \"{key}\"")));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_named_twice_is_refused_at_any_depth() {
        assert!(parse_strict(r#"{"text": "a", "tags": ["x"], "n": 1.5}"#).is_ok());
        let top = parse_strict(r#"{"text": "a", "text": "b"}"#).unwrap_err();
        assert!(top.contains(r#"duplicate key "text""#), "{top}");
        let nested = parse_strict(r#"{"anchors": [{"kind": "address", "kind": "string"}]}"#);
        assert!(nested.unwrap_err().contains(r#"duplicate key "kind""#));
        assert_eq!(
            parse_strict(r#"{"a": [1, -2, 3.5, null, true, "s", {}]}"#).unwrap(),
            serde_json::json!({"a": [1, -2, 3.5, null, true, "s", {}]})
        );
    }
    use serde_json::json;

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
