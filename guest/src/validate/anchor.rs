//! The anchor schema: five kinds tagged by `"kind"`, addresses rebased to file offsets.

use super::json::Json;
use super::reader::{self, Errors, Object};
use crate::types::{Anchor, FunctionAnchor, OffsetRadius, OffsetRange};

/// The anchor kinds, as written in tool calls.
const KINDS: &[&str] = &["function", "range", "address", "near", "string"];
/// Largest `near` radius, in bytes.
pub const MAX_RADIUS: u64 = 1 << 20;
/// Longest function name, in bytes.
const MAX_NAME_BYTES: usize = 256;
/// Longest string anchor, in bytes.
const MAX_STRING_BYTES: usize = 512;

/// Reads one anchor object at `path`. Addresses are absolute when `image_base > 0`, and come
/// back as file offsets (`address - image_base`); an address below the image base is an error.
///
/// A string anchor's value is kept exactly as written (not trimmed): it must equal the literal
/// in the subject.
pub fn anchor(
    value: &Json<'_>,
    path: &str,
    image_base: u64,
    errors: &mut Errors,
) -> Option<Anchor> {
    let kind_path = reader::field_path(path, "kind");
    let kind = match value {
        Json::Object(_) => match value.get("kind") {
            Some(kind) => reader::choice(kind, &kind_path, KINDS, errors)?,
            None => {
                errors.push(
                    &kind_path,
                    format!("required field is missing (one of {})", KINDS.join(", ")),
                );
                return None;
            }
        },
        other => {
            errors.push(path, reader::expected("an anchor object", other));
            return None;
        }
    };
    let fields: &[&str] = match kind {
        "function" => &["kind", "start", "end", "name"],
        "range" => &["kind", "start", "end"],
        "address" => &["kind", "address"],
        "near" => &["kind", "address", "radius"],
        _ => &["kind", "value"],
    };
    let before = errors.0.len();
    let obj = Object::open(value, path, fields, errors)?;
    let offset = |key: &str, errors: &mut Errors| -> Option<u64> {
        let at = obj.path(key);
        let address = reader::address(obj.required(key, errors)?, &at, errors)?;
        rebase(address, image_base, &at, errors)
    };
    let anchor = match kind {
        "function" => {
            let start = offset("start", errors);
            let end = obj.get("end").map(|v| {
                let at = obj.path("end");
                reader::address(v, &at, errors).and_then(|a| rebase(a, image_base, &at, errors))
            });
            let name = obj
                .required("name", errors)
                .and_then(|v| reader::string(v, &obj.path("name"), 1, MAX_NAME_BYTES, errors));
            if let (Some(s), Some(Some(e))) = (start, end) {
                check_order(s, e, &obj, errors);
            }
            Anchor::Function(FunctionAnchor {
                start: start?,
                end: end.flatten(),
                name: name?,
            })
        }
        "range" => {
            let (start, end) = (offset("start", errors), offset("end", errors));
            if let (Some(s), Some(e)) = (start, end) {
                check_order(s, e, &obj, errors);
            }
            Anchor::Range(OffsetRange {
                start: start?,
                end: end?,
            })
        }
        "address" => Anchor::Address {
            offset: offset("address", errors)?,
        },
        "near" => {
            let centre = offset("address", errors);
            let radius = obj
                .required("radius", errors)
                .and_then(|v| reader::integer_in(v, &obj.path("radius"), 1, MAX_RADIUS, errors));
            Anchor::Near(OffsetRadius {
                offset: centre?,
                radius: radius?,
            })
        }
        _ => {
            let value = obj.required("value", errors)?;
            Anchor::String {
                value: reader::verbatim(value, &obj.path("value"), MAX_STRING_BYTES, errors)?,
            }
        }
    };
    // Unknown fields were recorded without stopping the reading of known ones.
    (errors.0.len() == before).then_some(anchor)
}

/// `address - image_base`, or an error when the address lies below the image base.
fn rebase(address: u64, image_base: u64, path: &str, errors: &mut Errors) -> Option<u64> {
    let offset = address.checked_sub(image_base);
    if offset.is_none() {
        errors.push(
            path,
            format!("address {address:#x} is below image_base {image_base:#x}"),
        );
    }
    offset
}

/// Records an error at `end` unless it lies past `start` (the path is built only then).
fn check_order(start: u64, end: u64, obj: &Object<'_>, errors: &mut Errors) {
    if end <= start {
        errors.push(&obj.path("end"), "end must be greater than start");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn read(v: Value, base: u64) -> Result<Anchor, Vec<(String, String)>> {
        let mut e = Errors::default();
        match anchor(
            &super::super::json::from_value(&v),
            "anchors[0]",
            base,
            &mut e,
        ) {
            Some(a) if e.is_empty() => Ok(a),
            _ => Err(e.0.into_iter().map(|f| (f.path, f.message)).collect()),
        }
    }

    #[test]
    fn every_kind_reads_and_rebases() {
        let base = 0x400000;
        assert_eq!(
            read(
                json!({"kind": "function", "start": "0x401000", "name": " main "}),
                base
            ),
            Ok(Anchor::Function(FunctionAnchor {
                start: 0x1000,
                end: None,
                name: "main".into()
            }))
        );
        assert_eq!(
            read(
                json!({"kind": "function", "start": "0x401000", "end": 4198656, "name": "f"}),
                base
            ),
            Ok(Anchor::Function(FunctionAnchor {
                start: 0x1000,
                end: Some(0x1100),
                name: "f".into()
            }))
        );
        assert_eq!(
            read(
                json!({"kind": "range", "start": "0x401000", "end": "0x401010"}),
                base
            ),
            Ok(Anchor::Range(OffsetRange {
                start: 0x1000,
                end: 0x1010
            }))
        );
        assert_eq!(
            read(json!({"kind": "address", "address": "0x401234"}), base),
            Ok(Anchor::Address { offset: 0x1234 })
        );
        assert_eq!(
            read(
                json!({"kind": "near", "address": "0x401234", "radius": 64}),
                base
            ),
            Ok(Anchor::Near(OffsetRadius {
                offset: 0x1234,
                radius: 64
            }))
        );
        assert_eq!(
            read(json!({"kind": "string", "value": " Bad key "}), base),
            Ok(Anchor::String {
                value: " Bad key ".into()
            })
        );
        // Without an image base, addresses are already offsets.
        assert_eq!(
            read(json!({"kind": "address", "address": 16}), 0),
            Ok(Anchor::Address { offset: 16 })
        );
    }

    #[test]
    fn address_below_image_base_is_an_error_at_its_path() {
        let err = read(json!({"kind": "address", "address": "0x1000"}), 0x400000).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].address");
        assert!(err[0].1.contains("below image_base"));
    }

    #[test]
    fn bad_anchors_name_every_problem() {
        let err = read(
            json!({"kind": "range", "start": 10, "end": 10, "extra": 1}),
            0,
        )
        .unwrap_err();
        let paths: Vec<_> = err.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["anchors[0].extra", "anchors[0].end"]);

        let err = read(json!({"kind": "near", "address": 1, "radius": 0}), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].radius");
        let err = read(
            json!({"kind": "near", "address": 1, "radius": 2_000_000}),
            0,
        )
        .unwrap_err();
        assert_eq!(err[0].0, "anchors[0].radius");

        let err = read(json!({"kind": "function", "start": 1}), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].name");

        let err = read(json!({"kind": "blob"}), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].kind");
        let err = read(json!({"start": 1}), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].kind");
        let err = read(json!("0x401000"), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0]");

        let err = read(json!({"kind": "string", "value": "x".repeat(513)}), 0).unwrap_err();
        assert_eq!(err[0].0, "anchors[0].value");
    }
}
