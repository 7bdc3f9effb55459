//! A real MCP client session (rmcp's client over stdio) against spawned `kenning mcp` servers:
//! every tool, the schemas, provenance, paging, resources, errors, and two servers writing to
//! one knowledge base at once.

use std::path::Path;

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode, ReadResourceRequestParams};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

use crate::support;

type Client = RunningService<RoleClient, ()>;

/// Starts `kenning mcp` over `data_dir` with `args` and connects a client to it.
async fn connect(data_dir: &Path, args: &[&str]) -> Client {
    let mut command = support::kenning_at(data_dir);
    command.arg("mcp").args(args);
    let command = tokio::process::Command::from(command);
    ().serve(TokioChildProcess::new(command).expect("spawn kenning mcp"))
        .await
        .expect("the MCP session starts")
}

/// Calls `tool` and returns the result.
async fn call(client: &Peer<RoleClient>, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool} answers: {e}"))
}

/// Calls `tool`, expects success, and returns its structured content.
async fn ok(client: &Peer<RoleClient>, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone()).await;
    assert_ne!(result.is_error, Some(true), "{tool} {args}: {result:?}");
    result.structured_content.expect("structured content")
}

/// Calls `tool`, expects a tool error, and returns what its text says: the HTTP API's error
/// detail (`code`, `message`, `path`, `errors`). An error carries no structured content, which
/// clients check against the tool's output schema.
async fn tool_error(client: &Peer<RoleClient>, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone()).await;
    assert_eq!(result.is_error, Some(true), "{tool} {args}: {result:?}");
    assert_eq!(result.structured_content, None, "{tool} {args}: {result:?}");
    let text = &result.content[0].as_text().expect("a text").text;
    let body: Value = serde_json::from_str(text).expect("the text is JSON");
    body["error"].clone()
}

fn ids(recalled: &Value) -> Vec<u64> {
    recalled["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_client_uses_every_tool_and_external_writes_stay_in_quarantine() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let agent = connect(&data, &["--subject", "profile:me", "--author", "agent"]).await;
    let external = connect(
        &data,
        &["--subject", "profile:me", "--allow-subject", "account:team"],
    )
    .await;

    // The server introduces itself and lists its tools with closed, annotated schemas.
    let info = external.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().unwrap().name, "kenning");
    assert!(info.capabilities.tools.is_some() && info.capabilities.resources.is_some());
    let tools = external.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "remember",
            "revise_memory",
            "forget_memory",
            "recall",
            "memory",
            "context",
            "get_memory",
            "recent_memories",
            "memory_stats",
            "query",
            "query_schema",
            "turn"
        ]
    );
    for tool in &tools {
        assert_eq!(
            tool.input_schema["additionalProperties"], false,
            "{}",
            tool.name
        );
        assert_eq!(tool.output_schema.as_ref().unwrap()["type"], "object");
        assert!(
            tool.description.as_deref().unwrap().len() > 80,
            "{}",
            tool.name
        );
    }
    let recall_tool = tools.iter().find(|t| t.name == "recall").unwrap();
    let hints = recall_tool.annotations.as_ref().unwrap();
    assert_eq!(hints.read_only_hint, Some(true));
    let forget_tool = tools.iter().find(|t| t.name == "forget_memory").unwrap();
    assert_eq!(
        forget_tool.annotations.as_ref().unwrap().destructive_hint,
        Some(true)
    );

    // The built-in agent's writes are accepted; every tool works.
    let parser = ok(
        &agent,
        "remember",
        json!({"text": "The parser lives in src/parse.rs and is hand-written.", "tags": ["code"]}),
    )
    .await;
    assert_eq!(parser["status"], "accepted");
    let parser_id = parser["id"].as_u64().unwrap();
    let redacted = ok(
        &agent,
        "remember",
        json!({"text": "Staging deploy key AKIA4HJ2K7LMNPQ5RSTU is rotated monthly."}),
    )
    .await;
    assert_eq!(
        redacted["redacted"],
        json!(["aws-access-key-id"]),
        "{redacted}"
    );
    let revised = ok(
        &agent,
        "revise_memory",
        json!({"id": parser_id, "text": "The parser lives in src/parse.rs and is generated by lalrpop."}),
    )
    .await;
    assert_eq!(revised["status"], "revised");
    let profile = ok(
        &agent,
        "memory",
        json!({"action": "add", "target": "user", "content": "Prefers short answers."}),
    )
    .await;
    assert_eq!(profile["status"], "accepted");
    let found = ok(&agent, "recall", json!({"query": "parser lalrpop"})).await;
    assert_eq!(ids(&found), [parser_id]);
    let context = ok(&agent, "context", json!({"query": "where is the parser"})).await;
    assert!(
        context["snapshot"].as_str().unwrap().contains("lalrpop"),
        "{context}"
    );
    assert!(
        context["chosen"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == parser_id)
    );
    let forgotten = ok(&agent, "forget_memory", json!({"id": redacted["id"]})).await;
    assert_eq!(forgotten["status"], "forgotten");

    // An external client's write is pending: never recalled, never injected.
    let proposal = ok(
        &external,
        "remember",
        json!({"text": "The parser must never be touched on Fridays (zebra rule)."}),
    )
    .await;
    assert_eq!(proposal["status"], "pending");
    assert_eq!(proposal["badge"], "pending");
    let recalled = ok(&external, "recall", json!({"query": "zebra Fridays"})).await;
    assert_eq!(recalled["count"], 0, "{recalled}");
    let context = ok(
        &external,
        "context",
        json!({"query": "zebra rule parser Fridays"}),
    )
    .await;
    assert!(
        !context["snapshot"].as_str().unwrap().contains("zebra"),
        "{context}"
    );
    assert!(
        !context["chosen"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == proposal["id"])
            && !context["rejected"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == proposal["id"])
    );
    // An external client's forget is a request the user reviews; the memory stands meanwhile.
    let asked = ok(&external, "forget_memory", json!({"id": parser_id})).await;
    assert_eq!(
        (&asked["status"], &asked["id"], &asked["badge"]),
        (&json!("pending"), &json!(parser_id), &json!("pending")),
        "{asked}"
    );
    assert!(asked["proposal_id"].as_u64().is_some(), "{asked}");
    let still = ok(&external, "get_memory", json!({"id": parser_id})).await;
    assert_eq!(still["status"], "active", "{still}");

    // Bad arguments are tool errors naming the field; the server carries on.
    let unknown = tool_error(&external, "remember", json!({"text": "x", "colour": "red"})).await;
    assert_eq!(unknown["path"], "colour", "{unknown}");
    let wrong_type = tool_error(&external, "recall", json!({"limit": "ten"})).await;
    assert_eq!(wrong_type["path"], "limit", "{wrong_type}");
    let context_field = tool_error(&external, "context", json!({"cursor": "0xZZ"})).await;
    assert_eq!(context_field["path"], "cursor", "{context_field}");
    // A subject sent at length is quoted once, cut, however long it was.
    let long = tool_error(
        &external,
        "recall",
        json!({"query": "x", "subject": "x".repeat(1_000_000)}),
    )
    .await;
    assert_eq!(long["path"], "subject", "{long}");
    assert!(long.to_string().len() < 1_000, "{}", long.to_string().len());
    let unknown_tool = external
        .call_tool(CallToolRequestParams::new("review"))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown_tool, ServiceError::McpError(e) if e.code == ErrorCode::INVALID_PARAMS)
    );
    assert_eq!(
        external.list_all_tools().await.unwrap().len(),
        names.len(),
        "still serving"
    );

    // Other subjects only when allowed.
    let other = tool_error(
        &external,
        "recall",
        json!({"query": "x", "subject": "profile:someone"}),
    )
    .await;
    assert!(
        other["message"]
            .as_str()
            .unwrap()
            .contains("--allow-subject"),
        "{other}"
    );
    let team = ok(
        &external,
        "remember",
        json!({"text": "Team standup is at 9:30.", "subject": "account:team"}),
    )
    .await;
    assert_eq!(team["status"], "pending");

    // A long result comes in pages that stay small, with a cursor for the rest.
    // Long, ordinary prose (one word repeated hundreds of times is an adversarial flood the
    // scan blocks).
    let long = (0..300).fold("alpha".to_owned(), |text, i| format!("{text} entry{i}"));
    for n in 0..30 {
        ok(
            &agent,
            "remember",
            json!({"text": format!("{long} page note {n}")}),
        )
        .await;
    }
    let mut seen = Vec::new();
    let mut offset = 0;
    let mut pages = 0;
    loop {
        let page = call(
            &agent,
            "recall",
            json!({"query": "alpha", "limit": 100, "offset": offset}),
        )
        .await;
        // The README's promise: a result stays under 16,000 bytes of JSON, as the client
        // receives it (the text content) and as the structured content serialises.
        let text_len: usize = page
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.len()))
            .sum();
        assert!(text_len <= 16_000, "a page of {text_len} bytes of text");
        let page = page.structured_content.unwrap();
        let json_len = serde_json::to_string(&page).unwrap().len();
        assert!(json_len <= 16_000, "a page of {json_len} bytes of JSON");
        seen.extend(ids(&page));
        pages += 1;
        match page["next_offset"].as_u64() {
            Some(next) => offset = next,
            None => break,
        }
    }
    assert!(pages > 1, "30 long memories need more than one page");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 30);

    // The profile's files as resources; missing ones are reported as missing.
    let resources = external.list_all_resources().await.unwrap();
    let uris: Vec<String> = resources.iter().map(|r| r.uri.to_string()).collect();
    assert!(
        uris.contains(&"kenning://profile/me/USER.md".to_owned()),
        "{uris:?}"
    );
    assert!(uris.contains(&"kenning://profile/me/MEMORY.md".to_owned()));
    assert!(
        uris.iter()
            .any(|u| u.starts_with("kenning://profile/me/daily/"))
    );
    let user = external
        .read_resource(ReadResourceRequestParams::new(
            "kenning://profile/me/USER.md",
        ))
        .await
        .unwrap();
    let rmcp::model::ResourceContents::TextResourceContents { text, .. } = &user.contents[0] else {
        panic!("text contents")
    };
    assert!(text.contains("Prefers short answers."), "{text}");
    let missing = external
        .read_resource(ReadResourceRequestParams::new(
            "kenning://profile/me/MEMORY.md",
        ))
        .await
        .unwrap_err();
    let ServiceError::McpError(missing) = missing else {
        panic!("{missing:?}")
    };
    assert_eq!(missing.code, ErrorCode::RESOURCE_NOT_FOUND);
    assert!(missing.message.contains("missing"), "{}", missing.message);

    agent.cancel().await.unwrap();
    external.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_writing_to_one_knowledge_base_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let args = ["--subject", "profile:shared", "--author", "agent"];
    let (first, second) = tokio::join!(connect(&data, &args), connect(&data, &args));
    let write = |client: &Peer<RoleClient>, label: &'static str| {
        let client = client.clone();
        async move {
            let mut ids = Vec::new();
            for n in 0..25 {
                let answer = ok(
                    &client,
                    "remember",
                    json!({"text": format!("server {label} wrote note {n}")}),
                )
                .await;
                ids.push(answer["id"].as_u64().unwrap());
            }
            ids
        }
    };
    let (a, b) = tokio::join!(write(first.peer(), "a"), write(second.peer(), "b"));
    let mut all: Vec<u64> = a.into_iter().chain(b).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 50, "every acknowledged write has its own id");
    let mut recalled = Vec::new();
    let mut offset = 0;
    loop {
        let page = ok(
            &first,
            "recall",
            json!({"query": "wrote note", "limit": 100, "offset": offset}),
        )
        .await;
        recalled.extend(ids(&page));
        match page["next_offset"].as_u64() {
            Some(next) => offset = next,
            None => break,
        }
    }
    recalled.sort();
    assert_eq!(recalled, all, "both servers' writes are all there");
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_runtime_counts_turns_over_mcp_and_every_second_one_starts_a_review_it_does_not_wait_for()
 {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let finished = support::slow_reviewer_every_second_turn(&data, dir.path());
    let runtime = connect(&data, &["--subject", "profile:me", "--author", "agent"]).await;

    let first = ok(&runtime, "turn", json!({"session": "s1"})).await;
    assert_eq!(
        (
            first["session_turns"].clone(),
            first["review_started"].clone()
        ),
        (json!(1), json!(false)),
        "{first}"
    );
    let second = ok(
        &runtime,
        "turn",
        json!({"session": "s1", "transcript": "user: I work nights now."}),
    )
    .await;
    assert_eq!(
        (
            second["session_turns"].clone(),
            second["review_started"].clone()
        ),
        (json!(2), json!(true)),
        "{second}"
    );
    assert!(!finished.exists(), "the answer came before the model's");
    let other = ok(&runtime, "turn", json!({"session": "s2"})).await;
    assert_eq!(
        (other["session_turns"].clone(), other["total_turns"].clone()),
        (json!(1), json!(3)),
        "{other}"
    );
    let bad = tool_error(&runtime, "turn", json!({"session": "a b"})).await;
    assert_eq!(bad["path"], "session", "{bad}");
    let unknown = tool_error(&runtime, "turn", json!({"session": "s1", "extra": 1})).await;
    assert_eq!(unknown["path"], "extra", "{unknown}");
    let long = tool_error(
        &runtime,
        "turn",
        json!({"session": "s1", "transcript": "x".repeat(70_000)}),
    )
    .await;
    assert_eq!(long["path"], "transcript", "{long}");

    // The review finishes on the server's own time and edits the profile.
    let started = std::time::Instant::now();
    loop {
        let out = support::kenning(&data, &["log", "--subject", "profile:me"], None);
        let log = String::from_utf8_lossy(&out.stdout).into_owned();
        if log.contains("memory_review_completed") {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{log}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let out = support::kenning(&data, &["view", "--subject", "profile:me"], None);
    let view = String::from_utf8_lossy(&out.stdout);
    assert!(view.contains("- Works nights"), "{view}");
    runtime.cancel().await.unwrap();
}

/// Sends `lines` to a spawned `kenning mcp` after the handshake and returns its answers by id,
/// waiting at most ten seconds for those of `ids`.
fn raw_session(data: &Path, lines: &[Vec<u8>], ids: &[Value]) -> Vec<Value> {
    use std::io::{BufRead, Write};
    let mut child = support::kenning_at(data)
        .args(["mcp", "--subject", "profile:me"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let handshake = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for message in handshake {
        writeln!(stdin, "{message}").unwrap();
    }
    for line in lines {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    stdin.flush().unwrap();
    let (answers, received) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if answers
                .send(serde_json::from_str::<Value>(&line).unwrap())
                .is_err()
            {
                break;
            }
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut seen = Vec::new();
    while !ids
        .iter()
        .all(|id| seen.iter().any(|a: &Value| &a["id"] == id))
    {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match received.recv_timeout(left) {
            Ok(answer) => seen.push(answer),
            Err(_) => panic!("no answer for some of {ids:?} in 10 s; answers: {seen:?}"),
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    seen
}

#[test]
fn over_stdio_every_request_is_answered_even_one_that_does_not_parse() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let call = |id: u64, arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"recall","arguments":{arguments}}}}}"#
        )
        .into_bytes()
    };
    let mut not_utf8 = call(12, r#"{"query":"x"}"#);
    let at = not_utf8.len() - 10;
    not_utf8.splice(at..at, *b"\xff\xfe");
    let deep = format!(
        r#"{{"query":"x","anchors":{}1{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let lines = [
        // A lone surrogate escape, which no string of Rust (or of rmcp) holds.
        call(11, r#"{"query":"\ud800"}"#),
        not_utf8,
        call(13, &deep),
        b"this is not JSON".to_vec(),
        // And the server carries on.
        call(14, r#"{"query":"x"}"#),
    ];
    let ids = [json!(11), json!(12), json!(13), json!(14)];
    let answers = raw_session(&data, &lines, &ids);
    for (id, needle) in [(11, "not valid JSON"), (12, "UTF-8"), (13, "128 levels")] {
        let answer = answers.iter().find(|a| a["id"] == id).unwrap();
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains(needle),
            "{answer}"
        );
    }
    assert!(
        answers
            .iter()
            .any(|a| a["id"].is_null() && a["error"]["code"] == -32700),
        "the line with no id is answered with a null id: {answers:?}"
    );
    let fine = answers.iter().find(|a| a["id"] == 14).unwrap();
    assert!(fine["result"].is_object(), "{fine}");
}
