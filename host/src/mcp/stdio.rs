//! MCP over standard input and output, with every request answered (and [`unparsable`], the
//! check HTTP's `/v1/mcp` makes too).
//!
//! rmcp drops a line that is not JSON without a word (answering a peer's garbage could start an
//! error storm), so a client whose request failed to parse waits out its timeout: a lone
//! surrogate escape (`"\ud800"`, which no Rust string holds), bytes that are not UTF-8, or
//! arguments nested deeper than the parser's 128 levels, which a Python client sends without
//! complaint. Each line is read here first: what parses goes on to rmcp unchanged; what does not
//! is answered at once with a JSON-RPC parse error (-32700) that carries the request's `id` when
//! it can be read from the line, `null` otherwise. The answer is a response, never a request, so
//! a peer that echoed it would be sending a response to no request, which rmcp ignores.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::error::{KenningError, Result};

/// The longest message read; a longer one is answered as too large and skipped.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// How much of its input or output rmcp may have in flight before the pumps wait.
const PIPE_BYTES: usize = 256 * 1024;

/// JSON-RPC's code for a message that does not parse.
const PARSE_ERROR: i64 = -32700;

/// JSON-RPC's code for a message that is not a valid request (here: one too large to read).
const INVALID_REQUEST: i64 = -32600;

/// Serves `server` over `input` and `output` (the process's standard streams) until the
/// client closes `input` or `output` fails.
pub async fn serve<S>(
    server: S,
    input: impl AsyncRead + Unpin + Send + 'static,
    mut output: impl AsyncWrite + Unpin + Send + 'static,
) -> Result<()>
where
    S: rmcp::ServerHandler,
{
    let (mut to_rmcp, rmcp_input) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_output, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (lines, mut outgoing) = mpsc::channel::<Vec<u8>>(64);

    // One writer, so that rmcp's answers and ours are never interleaved within a line.
    let writer = tokio::spawn(async move {
        while let Some(line) = outgoing.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                // Standard output is closed: nobody reads an answer any more.
                break;
            }
        }
    });
    let answers = lines.clone();
    let forward_answers = tokio::spawn(async move {
        let mut from_rmcp = BufReader::new(from_rmcp);
        loop {
            let mut line = Vec::new();
            match from_rmcp.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if answers.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    let read_requests = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        while let Ok(Some(message)) = read_message(&mut input).await {
            let forwarded = match message {
                Message::Line(line) => match check(&line) {
                    Ok(()) => to_rmcp.write_all(&line).await,
                    Err(answer) => {
                        let _ = lines.send(answer).await;
                        Ok(())
                    }
                },
                Message::TooLarge(start) => {
                    let answer = error_answer(
                        &start,
                        INVALID_REQUEST,
                        &format!("the message is over {MAX_MESSAGE_BYTES} bytes"),
                    );
                    let mut line = answer.to_string().into_bytes();
                    line.push(b'\n');
                    let _ = lines.send(line).await;
                    Ok(())
                }
            };
            if forwarded.is_err() {
                break;
            }
        }
        // Dropping `to_rmcp` is the end of input for rmcp.
    });

    let outcome = async {
        let running = rmcp::ServiceExt::serve(server, (rmcp_input, rmcp_output))
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session did not start: {e}")))?;
        running
            .waiting()
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session failed: {e}")))?;
        Ok(())
    }
    .await;
    // rmcp has stopped (its input ended, or its output failed): what it answered is written
    // out, and nothing more is read.
    read_requests.abort();
    let _ = forward_answers.await;
    let _ = read_requests.await;
    let _ = writer.await;
    outcome
}

/// One message as read: a whole line (with its line feed, if it had one), or the first bytes
/// of one over [`MAX_MESSAGE_BYTES`], whose rest was skipped.
enum Message {
    Line(Vec<u8>),
    TooLarge(Vec<u8>),
}

/// Reads the next message; `None` at the end of input.
async fn read_message(
    input: &mut (impl tokio::io::AsyncBufRead + Unpin),
) -> std::io::Result<Option<Message>> {
    let mut line = Vec::new();
    let limit = MAX_MESSAGE_BYTES as u64 + 1;
    if (&mut *input)
        .take(limit)
        .read_until(b'\n', &mut line)
        .await?
        == 0
    {
        return Ok(None);
    }
    if line.len() <= MAX_MESSAGE_BYTES || line.ends_with(b"\n") {
        return Ok(Some(Message::Line(line)));
    }
    // Skip to the end of the line, a bounded piece at a time.
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let read = (&mut *input)
            .take(PIPE_BYTES as u64)
            .read_until(b'\n', &mut rest)
            .await?;
        if read == 0 || rest.ends_with(b"\n") {
            break;
        }
    }
    line.truncate(4096);
    Ok(Some(Message::TooLarge(line)))
}

/// Whether rmcp can read `line`; if not, the answer to write instead (one line).
fn check(line: &[u8]) -> std::result::Result<(), Vec<u8>> {
    match unparsable(line) {
        None => Ok(()),
        Some(answer) => {
            let mut line = answer.to_string().into_bytes();
            line.push(b'\n');
            Err(line)
        }
    }
}

/// The JSON-RPC error answering `message` when it is not JSON rmcp can read (see the module
/// docs); `None` when it is, or when it is blank. Also answers such a body over HTTP.
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
        Ok(_) => None,
        // Well-formed JSON of the wrong shape is rmcp's to answer (an invalid request).
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
fn error_answer(body: &[u8], code: i64, message: &str) -> Value {
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
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(rest.len());
        &rest[..end]
    };
    match serde_json::from_str::<Value>(token).ok()? {
        id @ (Value::String(_) | Value::Number(_)) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Option<Value> {
        check(line.as_bytes())
            .err()
            .map(|answer| serde_json::from_slice(&answer).unwrap())
    }

    #[test]
    fn a_request_that_parses_goes_on_to_rmcp() {
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(answer("\n"), None);
        // The wrong shape is rmcp's to answer.
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"method":7}"#), None);
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
        let answer: Value = serde_json::from_slice(&check(&line).unwrap_err()).unwrap();
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
