//! The OpenAPI 3.1 document, generated from the handlers' own request and response types
//! (their JSON Schemas, by schemars, are the components) and the one table of routes,
//! [`OPERATIONS`], which the router's tests check against.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use super::error::ErrorBody;
use super::model::{
    ContextAnswer, CreateMemory, Created, DeleteAllQuery, ExplainedMemory, Health, ListQuery,
    MemoryList, Ready, ReviewList, SearchResults, SetEnabled, SettingsView, TokenView,
    UpdateMemory,
};
use super::routes::MAX_BODY_BYTES;
use kenning::api::{
    ContextArgs, Forgotten, MemoryStats, RecallArgs, Reviewed, Revised, TurnArgs, TurnCounted,
};
use kenning::service::governance::ForgottenAll;

type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// One operation of the API.
pub struct Operation {
    /// GET, POST, PUT, PATCH or DELETE.
    pub method: &'static str,
    /// The path, with `{subject}`, `{id}`, `{thread}` parameters.
    pub path: &'static str,
    /// What it does.
    pub summary: &'static str,
    /// Whether a bearer token is needed.
    pub auth: bool,
    /// The JSON body's schema, if it takes one.
    pub body: Option<SchemaFn>,
    /// The query's schema (an object whose properties are the parameters), if any.
    pub query: Option<SchemaFn>,
    /// The success status and its body's schema.
    pub ok: (u16, SchemaFn),
}

fn of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

fn any_object(_: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({"type": "object"})
}

/// The body `/v1/mcp` takes, as far as JSON Schema can say: the messages and their parameters
/// are MCP's (its own schema), and which are allowed depends on the session's state.
fn jsonrpc_message(_: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "One JSON-RPC 2.0 message of the Model Context Protocol (https://modelcontextprotocol.io/specification): a request (`id`, `method`, `params`), a notification (`method`, `params`) or a response to a request of the server's. Which messages are valid, and their parameters, are MCP's: the first request of a session is `initialize` (answered with an `Mcp-Session-Id` header), and every later one carries that header. A message that is none of these gets a JSON-RPC error with code -32600.",
        "required": ["jsonrpc"],
        "properties": {
            "jsonrpc": {"const": "2.0"},
            "id": {"type": ["string", "integer"], "minimum": i64::MIN, "maximum": i64::MAX},
            "method": {"type": "string"},
            "params": {"type": "object"},
            "result": {"type": "object"},
            "error": {"type": "object"}
        }
    })
}

fn text(_: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({"type": "object", "description": "An OpenAPI 3.1 document."})
}

/// Every route the server answers, in the order the document lists them.
pub const OPERATIONS: &[Operation] = &[
    Operation {
        method: "get",
        path: "/v1/health",
        summary: "The server is up (no token needed)",
        auth: false,
        body: None,
        query: None,
        ok: (200, of::<Health>),
    },
    Operation {
        method: "get",
        path: "/v1/ready",
        summary: "The server can serve: its store answers (no token needed); 503 with Retry-After when it cannot",
        auth: false,
        body: None,
        query: None,
        ok: (200, of::<Ready>),
    },
    Operation {
        method: "get",
        path: "/v1/openapi.json",
        summary: "This document (no token needed)",
        auth: false,
        body: None,
        query: None,
        ok: (200, text),
    },
    Operation {
        method: "get",
        path: "/v1/token",
        summary: "What the request's token grants: its id, role and subjects",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<TokenView>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/memories",
        summary: "One page of memories, newest first",
        auth: true,
        body: None,
        query: Some(of::<ListQuery>),
        ok: (200, of::<MemoryList>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/memories",
        summary: "Remember a new memory (an external token's is pending until a human accepts it)",
        auth: true,
        body: Some(of::<CreateMemory>),
        query: None,
        ok: (201, of::<Created>),
    },
    Operation {
        method: "delete",
        path: "/v1/subjects/{subject}/memories",
        summary: "Forget every memory; only with confirm=true",
        auth: true,
        body: None,
        query: Some(of::<DeleteAllQuery>),
        ok: (200, of::<ForgottenAll>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/memories/{id}",
        summary: "One memory, whatever its status",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<ExplainedMemory>),
    },
    Operation {
        method: "patch",
        path: "/v1/subjects/{subject}/memories/{id}",
        summary: "Revise a memory, or propose the change when the token may not make it",
        auth: true,
        body: Some(of::<UpdateMemory>),
        query: None,
        ok: (200, of::<Revised>),
    },
    Operation {
        method: "delete",
        path: "/v1/subjects/{subject}/memories/{id}",
        summary: "Forget a memory for good, or ask for it (a proposal awaiting a human's review) when the token may not",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<Forgotten>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/stats",
        summary: "Totals by type, scope, badge and status; how many await review; oldest and newest; the limit; whether memory is enabled (the memory_stats tool)",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<MemoryStats>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/settings",
        summary: "The settings in force",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<SettingsView>),
    },
    Operation {
        method: "put",
        path: "/v1/subjects/{subject}/settings",
        summary: "Turn memory on or off (human tokens)",
        auth: true,
        body: Some(of::<SetEnabled>),
        query: None,
        ok: (200, of::<SettingsView>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/threads/{thread}/settings",
        summary: "The settings in force in a thread",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<SettingsView>),
    },
    Operation {
        method: "put",
        path: "/v1/subjects/{subject}/threads/{thread}/settings",
        summary: "Turn memory on or off in a thread (human tokens)",
        auth: true,
        body: Some(of::<SetEnabled>),
        query: None,
        ok: (200, of::<SettingsView>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/search",
        summary: "Search accepted memories (the recall tool)",
        auth: true,
        body: Some(of::<RecallArgs>),
        query: None,
        ok: (200, of::<SearchResults>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/context",
        summary: "The memories for this turn, rendered for the prompt, with the reason for every choice",
        auth: true,
        body: Some(of::<ContextArgs>),
        query: None,
        ok: (200, of::<ContextAnswer>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/query",
        summary: "Run one read-only SQL SELECT over the subject's views (the query tool)",
        auth: true,
        body: Some(of::<kenning::query::QueryArgs>),
        query: None,
        ok: (200, of::<kenning::query::QueryResult>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/query/schema",
        summary: "The views a query reads, their columns, the functions it may call and its budgets",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<kenning::query::QuerySchema>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/turns",
        summary: "Count a successful user turn; every few turns of a session a memory review starts in the background",
        auth: true,
        body: Some(of::<TurnArgs>),
        query: None,
        ok: (200, of::<TurnCounted>),
    },
    Operation {
        method: "get",
        path: "/v1/subjects/{subject}/review",
        summary: "Memories awaiting review (human tokens)",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<ReviewList>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/review/{id}/accept",
        summary: "Accept a memory awaiting review (human tokens)",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<Reviewed>),
    },
    Operation {
        method: "post",
        path: "/v1/subjects/{subject}/review/{id}/reject",
        summary: "Reject a memory awaiting review (human tokens)",
        auth: true,
        body: None,
        query: None,
        ok: (200, of::<Reviewed>),
    },
    Operation {
        method: "get",
        path: "/v1/mcp",
        summary: "MCP over streamable HTTP: the server-sent event stream of a session (its Mcp-Session-Id), for messages the server starts",
        auth: true,
        body: None,
        query: None,
        ok: (200, text),
    },
    Operation {
        method: "delete",
        path: "/v1/mcp",
        summary: "MCP over streamable HTTP: end the session named in Mcp-Session-Id",
        auth: true,
        body: None,
        query: None,
        ok: (200, any_object),
    },
    Operation {
        method: "post",
        path: "/v1/mcp",
        summary: "MCP over streamable HTTP: the same tools as kenning mcp, for the token's subjects and as its role",
        auth: true,
        body: Some(jsonrpc_message),
        query: None,
        ok: (200, any_object),
    },
];

/// The OpenAPI 3.1 document of [`OPERATIONS`].
pub fn document() -> Value {
    let mut generator = kenning::api::schema_settings()
        .with(|s| s.definitions_path = "/components/schemas".into())
        .into_generator();
    let error = generator.subschema_for::<ErrorBody>();
    let mut paths: Map<String, Value> = Map::new();
    for op in OPERATIONS {
        let mut parameters: Vec<Value> = Vec::new();
        for name in ["subject", "id", "thread"] {
            if op.path.contains(&format!("{{{name}}}")) {
                let (schema, description) = match name {
                    "subject" => (
                        json!({"type": "string"}),
                        "The subject: profile:NAME, account:NAME, or the spec the token was made for",
                    ),
                    "id" => (
                        json!({"type": "integer", "minimum": 1, "maximum": i64::MAX}),
                        "A memory's id",
                    ),
                    _ => (
                        json!({"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,128}$"}),
                        "A conversation thread",
                    ),
                };
                parameters.push(json!({"name": name, "in": "path", "required": true, "description": description, "schema": schema}));
            }
        }
        if op.path == "/v1/mcp" && op.method == "post" {
            parameters.push(json!({"name": "Accept", "in": "header", "required": true, "description": "What streamable HTTP requires of an MCP client", "schema": {"type": "string", "const": "application/json, text/event-stream"}}));
        }
        if op.path == "/v1/mcp" && op.method == "get" {
            parameters.push(json!({"name": "Accept", "in": "header", "required": true, "description": "The stream is server-sent events", "schema": {"type": "string", "const": "text/event-stream"}}));
        }
        if op.path == "/v1/mcp" {
            let required = op.method != "post";
            parameters.push(json!({"name": "Mcp-Session-Id", "in": "header", "required": required, "description": "The session, from the answer to initialize; every message after initialize carries it", "schema": {"type": "string"}}));
        }
        if let Some(query) = op.query {
            let schema = query(&mut generator);
            let schema = resolve(&generator, schema.as_value());
            let required = schema.get("required").and_then(Value::as_array);
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    let required = required.is_some_and(|r| r.contains(&json!(name)));
                    let mut property = property.clone();
                    let description = property
                        .as_object_mut()
                        .and_then(|p| p.remove("description"))
                        .unwrap_or(Value::String(String::new()));
                    parameters.push(json!({"name": name, "in": "query", "required": required, "description": description, "schema": property}));
                }
            }
        }
        let ok_schema = (op.ok.1)(&mut generator);
        let mut responses = Map::new();
        responses.insert(
            op.ok.0.to_string(),
            json!({"description": "Success", "content": {"application/json": {"schema": ok_schema}}}),
        );
        if op.ok.0 == 201 {
            responses.insert(
                "200".into(),
                json!({"description": "Already there: the same text at the same place, which is not written twice", "content": {"application/json": {"schema": ok_schema}}}),
            );
        }
        for (status, description) in error_statuses(op) {
            responses.insert(
                status.to_string(),
                json!({"description": description, "content": {"application/json": {"schema": error.clone()}}}),
            );
        }
        if op.path == "/v1/mcp" {
            describe_mcp_answers(op.method, &mut responses);
        }
        let mut operation = json!({
            "operationId": operation_id(op),
            "summary": op.summary,
            "parameters": parameters,
            "responses": responses,
        });
        if let Some(body) = op.body {
            operation["requestBody"] = json!({
                "required": true,
                "description": format!("JSON, at most {MAX_BODY_BYTES} bytes"),
                "content": {"application/json": {"schema": body(&mut generator)}}
            });
        }
        if op.auth {
            operation["security"] = json!([{"bearer": []}]);
        } else {
            operation["security"] = json!([]);
        }
        paths
            .entry(op.path)
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .expect("path items are objects")
            .insert(op.method.to_owned(), operation);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "kenning",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Persistent, governed long-term memory for AI agents. Every route runs through the same service as the CLI and the MCP server: the policy validates and scans every write, provenance decides what is pending, every write is one transaction with its audit event.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"}
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": generator.take_definitions(true),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "A token from `kenning token create`"}
            }
        }
    })
}

/// `/v1/mcp`'s answers as streamable HTTP gives them (`method`'s): a JSON-RPC response as JSON
/// or as a server-sent event stream, 202 for a notification or a response, 200 for a session's
/// end; and, but for a
/// token refused (401, 403), every error a JSON-RPC error: a message that is no MCP message or
/// lacks its session (400), an unknown session (404), the wrong `Accept` (406) or
/// `Content-Type` (415), a body over the limit (413).
fn describe_mcp_answers(method: &str, responses: &mut Map<String, Value>) {
    let error = json!({
        "type": "object",
        "description": "A JSON-RPC 2.0 error",
        "required": ["jsonrpc", "id", "error"],
        "properties": {
            "jsonrpc": {"const": "2.0"},
            "id": {"type": ["string", "integer", "null"], "minimum": i64::MIN, "maximum": i64::MAX},
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {"code": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}, "message": {"type": "string"}}
            }
        }
    });
    match method {
        "post" => {
            responses.insert(
                "200".into(),
                json!({"description": "The JSON-RPC response to a request, as JSON or as a stream of server-sent events", "content": {
                    "application/json": {"schema": {"type": "object"}},
                    "text/event-stream": {"schema": {"type": "string"}}
                }}),
            );
            responses.insert(
                "202".into(),
                json!({"description": "A notification or a response, accepted"}),
            );
        }
        "get" => {
            responses.insert(
                "200".into(),
                json!({"description": "The session's stream of server-sent events", "content": {"text/event-stream": {"schema": {"type": "string"}}}}),
            );
        }
        _ => {
            responses.insert("200".into(), json!({"description": "The session ended"}));
        }
    }
    let errors: &[(u16, &str)] = &[
        (
            400,
            "No MCP message (-32700 for JSON that does not parse, -32600 otherwise), or one without its session's Mcp-Session-Id",
        ),
        (
            404,
            "The session named in Mcp-Session-Id is unknown or ended; start a new one with initialize",
        ),
        (
            406,
            "The client must accept both application/json and text/event-stream (text/event-stream for GET)",
        ),
        (413, "The message is over the limit"),
        (415, "The message is not JSON (Content-Type)"),
    ];
    for (status, description) in errors {
        if method != "post" && matches!(status, 413 | 415) {
            continue;
        }
        responses.insert(
            status.to_string(),
            json!({"description": description, "content": {"application/json": {"schema": error}}}),
        );
    }
    responses.remove("409");
    responses.remove("422");
}

/// The errors `op` can answer with, each with what it means; every one has the error body.
fn error_statuses(op: &Operation) -> Vec<(u16, &'static str)> {
    let writes = op.method != "get";
    let mut statuses = Vec::new();
    if op.body.is_some() || op.query.is_some() || op.path.contains('{') {
        statuses.push((400, "The request cannot be read as this operation's input: malformed JSON, a body that is not an object, an array where the schema has none, a field missing, an unknown field, a wrong type (`path` names the field)"));
        statuses.push((422, "Read, but refused by a rule: a pattern or bound of the schema, the policy's validation, a rule across fields (a function's end before its start, an anchor below the image base), or a text the safety scan blocked (`path` names the field); nothing is written"));
    }
    if op.auth {
        statuses.push((401, "No valid bearer token"));
        statuses.push((403, "The token's role may not do this"));
    }
    if op.path.contains('{') {
        statuses.push((
            404,
            "No such subject (or not the token's), memory or proposal",
        ));
    }
    if writes && op.auth {
        statuses.push((
            409,
            "A conflict: the memory changed meanwhile, a limit was reached, or a job is not due",
        ));
    }
    if writes && op.auth {
        statuses.push((
            507,
            "The server's disk is full: nothing was written; reads still work",
        ));
    }
    if op.body.is_some() {
        statuses.push((413, "The body is over the limit"));
        statuses.push((415, "The body is not JSON (Content-Type)"));
    }
    if op.auth {
        statuses.push((500, "The server failed; nothing was changed (see its log)"));
        statuses.push((
            503,
            "The knowledge base is busy or read-only, or the server's database cannot be reached; \
             try again (after Retry-After, when given)",
        ));
    }
    statuses
}

/// A schema, or the component it refers to.
fn resolve(generator: &SchemaGenerator, schema: &Value) -> Value {
    let reference = schema.get("$ref").and_then(Value::as_str);
    match reference.and_then(|r| r.strip_prefix("#/components/schemas/")) {
        Some(name) => generator
            .definitions()
            .get(name)
            .cloned()
            .unwrap_or_else(|| schema.clone()),
        None => schema.clone(),
    }
}

fn operation_id(op: &Operation) -> String {
    let mut id = op.method.to_owned();
    for part in op.path.split('/').filter(|p| !p.is_empty() && *p != "v1") {
        let part = part.trim_matches(['{', '}']).replace(['.', '-'], "_");
        id.push('_');
        id.push_str(&part);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_in_the_document_resolves_to_a_component() {
        let document = document();
        let schemas = document["components"]["schemas"].as_object().unwrap();
        fn walk(value: &Value, found: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(r)) = map.get("$ref") {
                        found.push(r.clone());
                    }
                    map.values().for_each(|v| walk(v, found));
                }
                Value::Array(items) => items.iter().for_each(|v| walk(v, found)),
                _ => {}
            }
        }
        let mut refs = Vec::new();
        walk(&document, &mut refs);
        assert!(!refs.is_empty());
        for reference in refs {
            let name = reference
                .strip_prefix("#/components/schemas/")
                .unwrap_or_else(|| panic!("{reference} points into the components"));
            assert!(schemas.contains_key(name), "{reference}");
        }
    }

    /// Every integer schema under `value`, found by walking it, that lacks a bound.
    fn unbounded_integers(value: &Value, at: String, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                let integer = map.get("type").is_some_and(|t| {
                    t == "integer"
                        || t.as_array()
                            .is_some_and(|ts| ts.iter().any(|t| t == "integer"))
                });
                if integer && !(map.contains_key("minimum") && map.contains_key("maximum")) {
                    found.push(at.clone());
                }
                for (key, v) in map {
                    unbounded_integers(v, format!("{at}/{key}"), found);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    unbounded_integers(v, format!("{at}/{i}"), found);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_integer_a_schema_admits_is_one_the_host_can_read() {
        let mut found = Vec::new();
        unbounded_integers(&document(), "#".into(), &mut found);
        for tool in kenning::api::tool_names() {
            let input = kenning::api::input_schema(tool).unwrap();
            unbounded_integers(&input, format!("{tool}#"), &mut found);
        }
        assert!(
            found.is_empty(),
            "integers without a minimum and a maximum: {found:#?}"
        );
    }

    #[test]
    fn operation_ids_are_unique() {
        let mut ids: Vec<String> = OPERATIONS.iter().map(operation_id).collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), count);
    }
}
