//! A real MCP client session (rmcp's client over stdio) against spawned `kenning mcp` servers:
//! every tool, the schemas, provenance, paging, resources, errors, and two servers writing to
//! one knowledge base at once.

use std::path::Path;

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode, ReadResourceRequestParams};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

mod support;

type Client = RunningService<RoleClient, ()>;

/// Starts `kenning mcp` over `data_dir` with `args` and connects a client to it.
async fn connect(data_dir: &Path, args: &[&str]) -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_kenning")).configure(|c| {
        c.arg("--data-dir")
            .arg(data_dir)
            .arg("--cache-dir")
            .arg(support::shared_cache_dir())
            .arg("mcp")
            .args(args);
    });
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

/// Calls `tool`, expects a tool error, and returns its structured detail.
async fn tool_error(client: &Peer<RoleClient>, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone()).await;
    assert_eq!(result.is_error, Some(true), "{tool} {args}: {result:?}");
    result.structured_content.expect("errors carry detail")
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
            "context"
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
    // External clients may not forget; they are told to ask the user.
    let refused = tool_error(&external, "forget_memory", json!({"id": parser_id})).await;
    assert!(
        refused["error"].as_str().unwrap().contains("ask the user"),
        "{refused}"
    );

    // Bad arguments are tool errors naming the field; the server carries on.
    let unknown = tool_error(&external, "remember", json!({"text": "x", "colour": "red"})).await;
    assert_eq!(unknown["errors"][0]["path"], "colour", "{unknown}");
    let wrong_type = tool_error(&external, "recall", json!({"limit": "ten"})).await;
    assert_eq!(wrong_type["errors"][0]["path"], "limit", "{wrong_type}");
    let context_field = tool_error(&external, "context", json!({"cursor": "0xZZ"})).await;
    assert_eq!(
        context_field["errors"][0]["path"], "cursor",
        "{context_field}"
    );
    let unknown_tool = external
        .call_tool(CallToolRequestParams::new("review"))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown_tool, ServiceError::McpError(e) if e.code == ErrorCode::INVALID_PARAMS)
    );
    assert_eq!(
        external.list_all_tools().await.unwrap().len(),
        6,
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
        other["error"].as_str().unwrap().contains("--allow-subject"),
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
        let text_len: usize = page
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.len()))
            .sum();
        assert!(text_len <= 20_000, "a page of {text_len} bytes");
        let page = page.structured_content.unwrap();
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
