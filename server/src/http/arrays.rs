//! Arrays only where the schema has them.
//!
//! serde reads a struct from a JSON array too, field by field in order (`"metadata": [null,
//! null]` is a metadata with its first two fields absent), which the OpenAPI document, generated
//! from the same types, says is wrong: an object there is `"type": "object"`. [`check`] holds a
//! request's JSON against the JSON Schema of the type it is read into, before serde reads it,
//! and names the first array found where the schema has no array.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The path (`metadata`, `anchors[0].function`) of the first array in `value` where `T`'s
/// JSON Schema allows none; `None` when there is none.
pub fn check<T: JsonSchema + 'static>(value: &Value) -> Option<String> {
    let schema = schema_of::<T>();
    let definitions = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    misplaced_array(value, &schema, &definitions, "")
}

/// `T`'s schema, generated once.
fn schema_of<T: JsonSchema + 'static>() -> Arc<Value> {
    static SCHEMAS: OnceLock<Mutex<HashMap<TypeId, Arc<Value>>>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(Default::default);
    let mut schemas = schemas
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Arc::clone(
        schemas
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(schemars::schema_for!(T).to_value())),
    )
}

fn misplaced_array(
    value: &Value,
    schema: &Value,
    definitions: &Map<String, Value>,
    path: &str,
) -> Option<String> {
    let branches = branches(schema, definitions);
    match value {
        Value::Array(items) => {
            let allowing: Vec<&Value> = branches
                .iter()
                .copied()
                .filter(|b| allows_array(b))
                .collect();
            if allowing.is_empty() {
                return Some(path.to_owned());
            }
            for (at, item) in items.iter().enumerate() {
                let item_path = format!("{path}[{at}]");
                let misplaced: Vec<Option<String>> = allowing
                    .iter()
                    .map(|b| match b.get("items") {
                        Some(items) => misplaced_array(item, items, definitions, &item_path),
                        None => None,
                    })
                    .collect();
                if misplaced.iter().all(Option::is_some) {
                    return misplaced.into_iter().next().flatten();
                }
            }
            None
        }
        Value::Object(members) => {
            let objects: Vec<&Value> = branches
                .iter()
                .copied()
                .filter(|b| b.get("properties").is_some())
                .collect();
            for (name, member) in members {
                let member_path = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                let schemas: Vec<&Value> = objects
                    .iter()
                    .filter_map(|b| b["properties"].get(name))
                    .collect();
                if schemas.is_empty() {
                    continue; // Unknown fields are serde's to refuse, by name.
                }
                if schemas
                    .iter()
                    .all(|s| misplaced_array(member, s, definitions, &member_path).is_some())
                {
                    return misplaced_array(member, schemas[0], definitions, &member_path);
                }
            }
            None
        }
        _ => None,
    }
}

/// The alternatives `schema` allows, its `$ref`s followed and its `anyOf`, `oneOf` and
/// `allOf` spread out.
fn branches<'a>(schema: &'a Value, definitions: &'a Map<String, Value>) -> Vec<&'a Value> {
    let mut out = Vec::new();
    let mut todo = vec![schema];
    while let Some(schema) = todo.pop() {
        if let Some(name) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            if let Some(target) = definitions.get(name) {
                todo.push(target);
            }
            continue;
        }
        let mut spread = false;
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(alternatives) = schema.get(key).and_then(Value::as_array) {
                todo.extend(alternatives);
                spread = true;
            }
        }
        if !spread || schema.get("properties").is_some() || schema.get("type").is_some() {
            out.push(schema);
        }
    }
    out
}

/// Whether `schema` (one branch) lets an array stand here: it says `array`, or names no type.
fn allows_array(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
        _ => schema.get("properties").is_none() && schema.get("enum").is_none(),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        a: Option<u32>,
        list: Option<Vec<Inner>>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        inner: Option<Inner>,
        many: Vec<Inner>,
    }

    #[test]
    fn an_array_standing_for_an_object_is_named_by_its_path() {
        assert_eq!(
            check::<Outer>(&json!({"name": "x", "inner": [null], "many": []})),
            Some("inner".into())
        );
        assert_eq!(
            check::<Outer>(&json!({"name": "x", "many": [{"a": 1}, [1]]})),
            Some("many[1]".into())
        );
        assert_eq!(
            check::<Outer>(&json!({"name": "x", "many": [{"list": [{"list": [[]]}]}]})),
            Some("many[0].list[0].list[0]".into())
        );
    }

    #[test]
    fn arrays_where_the_schema_has_them_pass() {
        assert_eq!(
            check::<Outer>(&json!({"name": "x", "inner": {"list": [{"a": 1}]}, "many": [{}]})),
            None
        );
        // Types and unknown fields are serde's to refuse, naming the field.
        assert_eq!(
            check::<Outer>(&json!({"name": [1], "other": [], "many": 3})),
            Some("name".into())
        );
    }
}
