//! The agent's short form of a tool call, made whole before the default `validate` reads it
//! strictly: an agent writes `{"text": "…"}` and the documented defaults fill in the rest
//! (`scope` from the anchors, `type` fact, confidence 0.8, empty lists, `image_base` 0, recall's
//! `limit` 10 and `offset` 0); texts are trimmed; anchors written with addresses (numbers or
//! `0x…` strings, relative to `image_base`) become the canonical anchors in file offsets.

use serde_json::{Map, Value, json};

use crate::types::FieldError;

/// `args_json` with the defaults of `tool` filled in, or the input unchanged when it is not a
/// JSON object or `tool` has no defaults (the strict read then reports what is wrong).
pub(crate) fn complete(tool: &str, args_json: &str) -> Result<String, Vec<FieldError>> {
    if !matches!(tool, "remember" | "revise_memory" | "recall") {
        return Ok(args_json.to_owned());
    }
    let Ok(Value::Object(mut args)) = serde_json::from_str::<Value>(args_json) else {
        return Ok(args_json.to_owned());
    };
    fill(tool, &mut args)?;
    Ok(Value::Object(args).to_string())
}

fn fill(tool: &str, args: &mut Map<String, Value>) -> Result<(), Vec<FieldError>> {
    let at = |path: &str, message: String| vec![FieldError::new(path, message)];
    let image_base = match args.get("image_base") {
        None => 0,
        Some(v) => address(v).map_err(|m| at("image_base", m))?,
    };
    args.insert("image_base".into(), json!(image_base));
    for key in ["text", "query"] {
        if let Some(Value::String(s)) = args.get_mut(key) {
            *s = s.trim().to_owned();
            if key == "text" && s.is_empty() {
                return Err(at(key, "must not be empty".to_owned()));
            }
        }
    }
    if let Some(Value::Array(anchors)) = args.get_mut("anchors") {
        for (i, a) in anchors.iter_mut().enumerate() {
            *a = anchor(a, image_base).map_err(|m| at(&format!("anchors[{i}]"), m))?;
        }
    }
    if let Some(a) = args.get_mut("anchor").filter(|a| !a.is_null()) {
        *a = anchor(a, image_base).map_err(|m| at("anchor", m))?;
    }
    let anchored = args
        .get("anchors")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    let defaults = match tool {
        "remember" => json!({
            "scope": if anchored { "local" } else { "global" }, "type": "fact", "anchors": [],
            "tags": [], "categories": [], "confidence": 0.8, "thread": null,
        }),
        "recall" => json!({
            "query": "", "scope": "any", "tags": [], "categories": [], "limit": 10, "offset": 0,
        }),
        _ => json!({}),
    };
    if let Value::Object(defaults) = defaults {
        for (key, value) in defaults {
            args.entry(key).or_insert(value);
        }
    }
    Ok(())
}

/// An address written as a number or a decimal or `0x` string.
fn address(value: &Value) -> Result<u64, String> {
    match value {
        Value::Number(n) => n.as_u64().ok_or_else(|| "expected an address".to_owned()),
        Value::String(s) => crate::parse_address(s).map_err(str::to_owned),
        _ => Err("expected an address".to_owned()),
    }
}

/// One agent anchor in the canonical form: addresses rebased to file offsets, `address` and
/// `near` naming their place `offset`.
fn anchor(value: &Value, image_base: u64) -> Result<Value, String> {
    let Value::Object(fields) = value else {
        return Err("expected an anchor object".to_owned());
    };
    let kind = fields.get("kind").and_then(Value::as_str);
    let mut out = Map::new();
    for (key, v) in fields {
        let key = match (kind, key.as_str()) {
            (Some("address" | "near"), "address") => "offset",
            (_, key) => key,
        };
        let v = match key {
            "start" | "end" | "offset" if !v.is_null() => {
                let offset = address(v)?.checked_sub(image_base);
                json!(offset.ok_or_else(|| format!("{key} lies below the image base"))?)
            }
            _ => v.clone(),
        };
        out.insert(key.to_owned(), v);
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn a_bare_remember_gets_the_documented_defaults() {
        let whole = complete("remember", r#"{"text": " x "}"#).unwrap();
        let record: crate::args::Remember = serde_json::from_str(&whole).unwrap();
        assert_eq!(record.text, "x");
        assert_eq!(record.scope, crate::types::Scope::Global);
        assert_eq!(record.confidence, 0.8);
    }

    #[test]
    fn anchors_written_with_addresses_become_file_offsets() {
        let whole = complete(
            "remember",
            r#"{"text": "x", "image_base": "0x400000", "anchors": [{"kind": "near", "address": "0x401000", "radius": 16}]}"#,
        )
        .unwrap();
        let record: crate::args::Remember = serde_json::from_str(&whole).unwrap();
        assert_eq!(record.scope, crate::types::Scope::Local);
        assert_eq!(
            record.anchors,
            vec![crate::types::Anchor::Near(crate::types::OffsetRadius {
                offset: 0x1000,
                radius: 16
            })]
        );
    }
}
