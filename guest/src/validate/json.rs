//! A JSON tree that borrows from the text it was read from, for the schema readers.
//!
//! A call is read once and thrown away, so the tree keeps what the readers ask of it and no
//! more: strings without escapes point into the input, an object is its fields in document
//! order (a handful of keys, searched by scanning), and a number keeps the kind serde_json
//! gives it, because the readers tell integers, negative integers and fractions apart.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value whose strings borrow from the input where they hold no escapes.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, classified as serde_json classifies it.
    Number(Number),
    /// A string, decoded.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object: its fields in document order, each key once.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// A JSON number, kept as [`serde_json::Number`] keeps it: a non-negative integer, a negative
/// integer, or a finite float (which is what `1.0`, `1e3` and `-0` are).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer from 0 to `u64::MAX`.
    PosInt(u64),
    /// An integer below 0, down to `i64::MIN`.
    NegInt(i64),
    /// Any other number: written with a fraction or an exponent, or too negative for `i64`.
    Float(f64),
}

impl Number {
    /// The value when it is a non-negative integer.
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Number::PosInt(n) => Some(n),
            Number::NegInt(_) | Number::Float(_) => None,
        }
    }

    /// The value when it is an integer that fits `i64`.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Number::PosInt(n) => i64::try_from(n).ok(),
            Number::NegInt(n) => Some(n),
            Number::Float(_) => None,
        }
    }

    /// The value as a float (integers rounded to the nearest one).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::PosInt(n) => n as f64,
            Number::NegInt(n) => n as f64,
            Number::Float(f) => f,
        }
    }
}

impl<'a> Json<'a> {
    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The number as a float, when this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// The value of field `key` (null included), when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(fields) => find(fields, key),
            _ => None,
        }
    }
}

/// The value of `key` among `fields`.
pub fn find<'v, 'a>(fields: &'v [(Cow<'a, str>, Json<'a>)], key: &str) -> Option<&'v Json<'a>> {
    fields
        .iter()
        .find(|(name, _)| same_name(name, key))
        .map(|(_, value)| value)
}

/// Whether field name `a` is `b`: compared here, inline, because most names differ in their
/// length or first byte, and a call to `memcmp` for each pair was a tenth of a record's
/// validation inside the component.
pub fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// Parses JSON as [`serde_json::from_str`] does (the same errors, trailing text refused),
/// except that an object naming one key twice, at any depth, is refused: with the usual
/// last-one-wins, `{"text": "a", "text": "b"}` would pass a closed schema that reads only one
/// of the two.
pub fn parse_strict(json: &str) -> Result<Json<'_>, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

/// Objects with more fields than this look for a repeated key in a set rather than by
/// scanning the fields read so far, so a large extraction cannot make the check quadratic.
const MOST_KEYS_SCANNED: usize = 32;

/// Room for the fields of a record, so that reading one grows its object at most once.
const OBJECT_CAPACITY: usize = 16;

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(match u64::try_from(v) {
            Ok(n) => Number::PosInt(n),
            Err(_) => Number::NegInt(v),
        }))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::PosInt(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json<'de>, E> {
        // As `serde_json::Value` has it: a number that is not finite reads as null.
        Ok(if v.is_finite() {
            Json::Number(Number::Float(v))
        } else {
            Json::Null
        })
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v)))
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut fields: Vec<(Cow<'de, str>, Json<'de>)> = Vec::with_capacity(OBJECT_CAPACITY);
        let mut many_keys: Option<BTreeSet<Cow<'de, str>>> = None;
        while let Some(Key(key)) = map.next_key()? {
            let repeated = match &mut many_keys {
                Some(keys) => !keys.insert(key.clone()),
                None => find(&fields, &key).is_some(),
            };
            if repeated {
                return Err(de::Error::custom(format!("duplicate key \"{key}\"")));
            }
            let value = map.next_value()?;
            fields.push((key, value));
            if many_keys.is_none() && fields.len() == MOST_KEYS_SCANNED {
                many_keys = Some(fields.iter().map(|(name, _)| name.clone()).collect());
            }
        }
        Ok(Json::Object(fields))
    }
}

/// An object key, borrowed from the input when it has no escapes (serde's own `Cow` always
/// copies).
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(v)))
    }
}

/// The tree of a `serde_json::Value`, for tests that build their input with `json!`.
#[cfg(test)]
pub fn from_value(value: &serde_json::Value) -> Json<'static> {
    use serde_json::Value;
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => Json::Number(match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Number::PosInt(u),
            (None, Some(i), _) => Number::NegInt(i),
            (None, None, f) => Number::Float(f.expect("a JSON number is a float")),
        }),
        Value::String(s) => Json::String(Cow::Owned(s.clone())),
        Value::Array(items) => Json::Array(items.iter().map(from_value).collect()),
        Value::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), from_value(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_named_twice_is_refused_at_any_depth_and_in_large_objects() {
        assert!(parse_strict(r#"{"text": "a", "tags": ["x"], "n": 1.5}"#).is_ok());
        let top = parse_strict(r#"{"text": "a", "text": "b"}"#).unwrap_err();
        assert!(top.contains(r#"duplicate key "text""#), "{top}");
        let nested = parse_strict(r#"{"anchors": [{"kind": "address", "kind": "string"}]}"#);
        assert!(nested.unwrap_err().contains(r#"duplicate key "kind""#));
        let escaped = parse_strict(r#"{"kind": 1, "\u006bind": 2}"#).unwrap_err();
        assert!(escaped.contains(r#"duplicate key "kind""#), "{escaped}");
        let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        let large = format!("{{{}}}", keys.join(", "));
        assert!(parse_strict(&large).is_ok());
        let repeated = format!("{{{}, \"k40\": 0}}", keys.join(", "));
        assert!(
            parse_strict(&repeated)
                .unwrap_err()
                .contains(r#"duplicate key "k40""#)
        );
        let early = format!("{{{}, \"k3\": 0}}", keys.join(", "));
        assert!(
            parse_strict(&early)
                .unwrap_err()
                .contains(r#"duplicate key "k3""#)
        );
    }

    #[test]
    fn fields_keep_document_order_and_strings_borrow_unless_escaped() {
        let text = r#"{"b": "plain", "a": "esc\naped", "c": [1, -2, 3.5, null, true, {}]}"#;
        let Json::Object(fields) = parse_strict(text).unwrap() else {
            panic!("an object");
        };
        let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert!(matches!(&fields[0].1, Json::String(Cow::Borrowed("plain"))));
        assert!(matches!(&fields[1].1, Json::String(Cow::Owned(s)) if s == "esc\naped"));
        assert_eq!(
            fields[2].1,
            Json::Array(vec![
                Json::Number(Number::PosInt(1)),
                Json::Number(Number::NegInt(-2)),
                Json::Number(Number::Float(3.5)),
                Json::Null,
                Json::Bool(true),
                Json::Object(Vec::new()),
            ])
        );
    }

    #[test]
    fn numbers_are_classified_as_serde_json_classifies_them() {
        let number = |text: &str| match parse_strict(text).unwrap() {
            Json::Number(n) => n,
            other => panic!("{other:?}"),
        };
        assert_eq!(number("18446744073709551615"), Number::PosInt(u64::MAX));
        assert_eq!(number("-9223372036854775808"), Number::NegInt(i64::MIN));
        assert_eq!(
            number("-9223372036854775809"),
            Number::Float(-9223372036854775809.0)
        );
        assert_eq!(
            number("18446744073709551616"),
            Number::Float(18446744073709551616.0)
        );
        assert_eq!(number("1.0"), Number::Float(1.0));
        assert_eq!(number("1e3"), Number::Float(1000.0));
        assert!(matches!(number("-0"), Number::Float(f) if f == 0.0 && f.is_sign_negative()));
        assert_eq!(Number::PosInt(u64::MAX).as_i64(), None);
        assert!(
            parse_strict("1e400")
                .unwrap_err()
                .contains("number out of range")
        );
        assert!(
            parse_strict("{} x")
                .unwrap_err()
                .contains("trailing characters")
        );
    }
}
