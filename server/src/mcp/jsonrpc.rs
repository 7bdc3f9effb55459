//! JSON-RPC messages rmcp cannot read, answered rather than dropped.
//!
//! rmcp drops a message that is not JSON without a word (answering a peer's garbage could start
//! an error storm), so a client whose request failed to parse waits out its timeout: a lone
//! surrogate escape (`"\ud800"`, which no Rust string holds), bytes that are not UTF-8, or
//! arguments nested deeper than the parser's 128 levels, which a Python client sends without
//! complaint. [`unparsable`] gives the answer to such a message, a JSON-RPC parse error (-32700)
//! carrying the request's `id` when it can be read, `null` otherwise. JSON that is no MCP
//! client message (`{}`, `[null]`, a request whose parameters do not fit its method) gets an
//! invalid request (-32600) with its `id`, where rmcp's own answer carries no id over stdio and
//! is a plain-text 415 over HTTP. Stdio ([`super::stdio`]) and HTTP's `/v1/mcp` both send these.
//! Each is a response, never a request, so a peer that echoed it would be sending a response to
//! no request, which rmcp ignores.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

/// JSON-RPC's code for a message that does not parse.
pub const PARSE_ERROR: i64 = -32700;

/// JSON-RPC's code for a message that is not a valid request (no MCP client message, or one
/// too large to read).
pub const INVALID_REQUEST: i64 = -32600;

/// The JSON-RPC error answering `message` when it is not an MCP client message rmcp can read
/// (see the module docs); `None` when it is, or when it is blank.
pub fn unparsable(message: &[u8]) -> Option<Value> {
    let body = message.strip_suffix(b"\n").unwrap_or(message);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(error) => {
            return Some(error_answer(
                body,
                PARSE_ERROR,
                &format!(
                    "the message is not UTF-8 (an invalid byte at offset {})",
                    error.valid_up_to()
                ),
            ));
        }
    };
    match serde_json::from_str::<Value>(text) {
        Ok(_) => match serde_json::from_str::<ClientJsonRpcMessage>(text) {
            Ok(_) => None,
            Err(error) => Some(error_answer(
                body,
                INVALID_REQUEST,
                &format!(
                    "not a JSON-RPC 2.0 message an MCP server takes ({}): a request needs \"jsonrpc\": \"2.0\", an \"id\", a known \"method\" and the \"params\" it takes",
                    error
                ),
            )),
        },
        Err(error) if error.is_data() => None,
        Err(error) => {
            let problem = error.to_string();
            let why = if problem.starts_with("recursion limit exceeded") {
                "the message nests arrays and objects deeper than 128 levels".to_owned()
            } else {
                format!("the message is not valid JSON: {problem}")
            };
            Some(error_answer(body, PARSE_ERROR, &why))
        }
    }
}

/// A JSON-RPC error response to the message `body`.
pub fn error_answer(body: &[u8], code: i64, message: &str) -> Value {
    let id = top_level_id(&String::from_utf8_lossy(body)).unwrap_or(Value::Null);
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    })
}

/// The `id` member of the object `text` holds at its top level (a string or an integer), read
/// without parsing the rest: the member `id` of an argument nested inside is not it.
pub fn top_level_id(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // Whether the next string at depth 1 is a member's name.
    let mut name_next = false;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'{' | b'[' => {
                depth += 1;
                name_next = depth == 1 && bytes[at] == b'{';
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => name_next = depth == 1,
            b'"' => {
                let end = string_end(bytes, at);
                let is_id = depth == 1 && name_next && &bytes[at + 1..end] == b"id";
                name_next = false;
                at = end;
                if is_id {
                    return id_value(&text[end + 1..]);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// Where the string starting with the quote at `start` ends: its closing quote, or the end.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at,
            _ => at += 1,
        }
    }
    bytes.len().saturating_sub(1).max(start)
}

/// The id after a member name: `: 7` or `: "abc"`.
fn id_value(rest: &str) -> Option<Value> {
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let token = if rest.starts_with('"') {
        let end = string_end(rest.as_bytes(), 0);
        rest.get(..=end)?
    } else {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
            .unwrap_or(rest.len());
        &rest[..end]
    };
    // An id is what rmcp reads as one: a string or a 64-bit signed integer. Any other number
    // (a fraction, or beyond i64) is no id, so the answer's is null, as JSON-RPC asks.
    match serde_json::from_str::<Value>(token).ok()? {
        id @ Value::String(_) => Some(id),
        Value::Number(n) => n.as_i64().map(Value::from),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Option<Value> {
        unparsable(line.as_bytes())
    }

    #[test]
    fn a_request_that_parses_goes_on_to_rmcp() {
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(answer("\n"), None);
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            None
        );
    }

    #[test]
    fn json_that_is_no_client_message_is_an_invalid_request_with_its_id() {
        for (line, id) in [
            ("{}", Value::Null),
            ("[null, null]", Value::Null),
            (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, json!(1)),
            (r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#, json!("a")),
            (
                r#"{"id":-9223372036854775808,"method":""}"#,
                json!(i64::MIN),
            ),
            (r#"{"id":-9223372036854775809,"method":""}"#, Value::Null),
            (r#"{"id":9223372036854775808,"method":""}"#, Value::Null),
            (r#"{"id":1.5,"method":""}"#, Value::Null),
            (r#"{"id":1e3,"method":""}"#, Value::Null),
        ] {
            let answer = answer(line).unwrap_or_else(|| panic!("{line} answered"));
            assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{line}");
            assert_eq!(answer["id"], id, "{line}");
        }
    }

    #[test]
    fn a_lone_surrogate_is_answered_with_the_requests_id() {
        let line = r#"{"method":"tools/call","params":{"name":"remember","arguments":{"id":9,"text":"\ud800"}},"jsonrpc":"2.0","id":42}"#;
        let answer = answer(line).expect("answered");
        assert_eq!(answer["id"], 42);
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not valid JSON"),
            "{answer}"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_answered() {
        let mut line =
            br#"{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"x":""#.to_vec();
        line.extend_from_slice(b"\xff\xfe\"}}");
        let answer = unparsable(&line).expect("answered");
        assert_eq!(answer["id"], "req-1");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("UTF-8")
        );
    }

    #[test]
    fn nesting_past_the_parsers_limit_is_answered_naming_the_limit() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"arguments":{{"x":{deep}}}}}}}"#
        );
        let answer = answer(&line).expect("answered");
        assert_eq!(answer["id"], 3);
        assert!(
            answer["error"]["message"].as_str().unwrap().contains("128"),
            "{answer}"
        );
    }

    #[test]
    fn the_id_is_the_top_level_members_and_null_when_unreadable() {
        assert_eq!(
            top_level_id(r#"{"params":{"id":5,"s":"\"id\": 6"},"id":7}"#),
            Some(json!(7))
        );
        assert_eq!(top_level_id(r#"{"id" : "a\"b"}"#), Some(json!("a\"b")));
        assert_eq!(top_level_id(r#"{"method":"x"}"#), None);
        assert_eq!(top_level_id(r#"{"id":null}"#), None);
        assert_eq!(top_level_id("not json at all"), None);
        assert_eq!(answer("garbage").unwrap()["id"], Value::Null);
    }
}
