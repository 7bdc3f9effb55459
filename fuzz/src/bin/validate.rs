//! Fuzzes `kenning_policy::validate`: the first byte picks a schema, the rest is the JSON text.
//!
//! Invariants: on Ok, `args_json` is a JSON object and the tool name is echoed back;
//! on Err, at least one field error is reported.

fn main() {
    let schemas: Vec<&str> = kenning_policy::schemas().collect();
    afl::fuzz!(|data: &[u8]| {
        let Some((&pick, rest)) = data.split_first() else {
            return;
        };
        let schema = schemas[pick as usize % schemas.len()];
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        match kenning_policy::validate(schema, text) {
            Ok(call) => {
                assert_eq!(call.tool, schema, "validated call names another tool");
                let value: serde_json::Value = serde_json::from_str(&call.args_json)
                    .unwrap_or_else(|e| panic!("args_json is not JSON ({e}): {}", call.args_json));
                assert!(value.is_object(), "args_json is not an object: {}", call.args_json);
            }
            Err(errors) => assert!(!errors.is_empty(), "validation failed with no errors"),
        }
    });
}
