//! The MCP server: kenning's tools and a profile's files over the Model Context Protocol, an
//! adapter over the [`Service`] (rmcp, stdio).
//!
//! - Tools: the [`kenning::api::TOOLS`], with input and output schemas generated from the
//!   service's types and annotations from their hints. Every call goes through
//!   [`Service::call`], so the policy validates and scans it like any other. Then the
//!   [`kenning::api::RUNTIME_TOOLS`], for the agent runtime: `turn` counts a user turn through
//!   [`Service::record_turn_and_review`].
//! - Authorship comes from the server's configuration, never from the model: an MCP caller is
//!   `external` by default, so its writes are PENDING until a human accepts them. Review is not
//!   a tool: it is a human's decision, which a client with elicitation asks its user for at
//!   once ([`review`]).
//! - Subjects: the server's own, and the ones it was started with `--allow-subject` for; a
//!   tool names another with its optional `subject` argument. Over HTTP ([`McpServer::over_http`])
//!   each request brings its own [`McpConfig`], made from its bearer token.
//! - Resources ([`resources`]): a profile's `USER.md`, `MEMORY.md` and daily notes (any day's,
//!   by a template), an account's memories, and what awaits review in either, without its text.
//! - Failures are tool errors (`isError`) whose text is the HTTP API's error body, naming the
//!   field at fault, and which carry no structured content (see [`tool_error`]); a malformed
//!   request never ends the server, and over stdio every request is answered ([`stdio`], [`jsonrpc`]).

pub mod jsonrpc;
pub mod resources;
pub mod review;
pub mod stdio;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::http::error::ApiError;
use kenning::api;
use kenning::error::{KenningError, Result, echo};
use kenning::service::{Service, civil_date};
use kenning::subject::Subject;
use kenning_contract::args::Author;
use kenning_contract::types::SubjectKind;

/// What the server tells a client about itself when it connects.
const INSTRUCTIONS: &str = "kenning is this agent's long-term memory. Call `context` when you start a task or move to another place (function, address) to get what is known there; call `recall` to look for something specific; call `remember` when you learn something that will matter in a later session, and `revise_memory` when a memory is wrong. Profile subjects also have `memory` for USER.md, MEMORY.md and today's note, and expose those files as resources. Writes from this client may await a human's review before they are used.";

/// How a server is set up: whom it serves and as whom its callers write.
#[derive(Debug, Clone)]
pub struct McpConfig {
    /// The subject tools use when they name none.
    pub subject: Subject,
    /// Other subjects a tool may name, by the spec it must give (`profile:NAME`, ...).
    pub allowed: Vec<(String, Subject)>,
    /// Who the callers are: `external` unless this server is the host's own agent.
    pub author: Author,
    /// Whether the client's user may settle a write the caller proposes at once, asked through
    /// the client ([`review`]): on for `kenning mcp`, whose client the user runs; off over HTTP
    /// unless `kenning serve --elicitation-review`, as the holder of an external token is not
    /// the user, and its client's answer would be its own.
    pub review_by_elicitation: bool,
}

/// The MCP server over one service.
#[derive(Clone)]
pub struct McpServer {
    service: Arc<Service>,
    /// Whom it serves; `None` over HTTP, where each request carries its own.
    config: Option<Arc<McpConfig>>,
    tools: Arc<[Tool]>,
}

impl McpServer {
    /// A server for `service` as configured.
    pub fn new(service: Arc<Service>, config: McpConfig) -> Self {
        McpServer {
            service,
            config: Some(Arc::new(config)),
            tools: tools().into(),
        }
    }

    /// A server for the streamable HTTP transport: whom a request serves comes with the
    /// request, as an `Arc<McpConfig>` in its HTTP extensions (put there by the HTTP API's token
    /// check); a request without one is refused.
    pub fn over_http(service: Arc<Service>) -> Self {
        McpServer {
            service,
            config: None,
            tools: tools().into(),
        }
    }

    /// Whom this request serves: the server's configuration, or the request's own.
    fn caller(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> std::result::Result<Caller, ErrorData> {
        if let Some(config) = &self.config {
            return Ok(Caller(Arc::clone(config)));
        }
        context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Arc<McpConfig>>())
            .map(|config| Caller(Arc::clone(config)))
            .ok_or_else(|| {
                ErrorData::invalid_request("no caller: a bearer token is required", None)
            })
    }

    /// Serves MCP over standard input and output until the client closes the connection,
    /// answering every request ([`stdio`]).
    pub async fn serve_stdio(self) -> Result<()> {
        let (input, output) = rmcp::transport::stdio_pipes();
        stdio::serve(self, input, output).await
    }
}

/// Whom one request serves.
struct Caller(Arc<McpConfig>);

impl Caller {
    /// The subject a call names (its `subject` argument) or the server's own.
    fn subject_for(&self, spec: Option<&str>) -> std::result::Result<Subject, String> {
        let config = &self.0;
        let Some(spec) = spec else {
            return Ok(config.subject.clone());
        };
        if spec == config.subject.spec() {
            return Ok(config.subject.clone());
        }
        config
            .allowed
            .iter()
            .find(|(allowed, _)| allowed == spec)
            .map(|(_, subject)| subject.clone())
            .ok_or_else(|| {
                let spec = echo(spec);
                format!(
                    "subject {spec} is not served here; this server serves {}{} (start it with --allow-subject and the subject to allow it)",
                    config.subject.spec(),
                    config
                        .allowed
                        .iter()
                        .map(|(spec, _)| format!(", {spec}"))
                        .collect::<String>()
                )
            })
    }

    /// Every profile and account subject served: those with resources ([`resources`]).
    fn with_resources(&self) -> Vec<Subject> {
        std::iter::once(&self.0.subject)
            .chain(self.0.allowed.iter().map(|(_, s)| s))
            .filter(|s| s.kind != SubjectKind::Binary)
            .cloned()
            .collect()
    }
}

/// The tools as MCP describes them: the service's schemas, plus an optional `subject`.
fn tools() -> Vec<Tool> {
    api::TOOLS
        .iter()
        .chain(api::RUNTIME_TOOLS)
        .map(|spec| {
            let mut input = object(api::input_schema(spec.name).expect("every tool has a schema"));
            input.entry("properties").or_insert_with(|| json!({}));
            if let Some(Value::Object(properties)) = input.get_mut("properties") {
                properties.insert(
                    "subject".into(),
                    json!({
                        "type": "string",
                        "description": "Another knowledge base this server was allowed to serve (profile:NAME, account:NAME, or a binary's path); the server's own when absent."
                    }),
                );
            }
            let output = object(api::output_schema(spec.name).expect("every tool has a schema"));
            let (input, output) = (standard_formats(input), standard_formats(output));
            Tool::new(spec.name, spec.description, Arc::new(input))
                .with_title(spec.title)
                .with_raw_output_schema(Arc::new(output))
                .with_annotations(
                    ToolAnnotations::with_title(spec.title)
                        .read_only(spec.hints.read_only)
                        .destructive(spec.hints.destructive)
                        .idempotent(spec.hints.idempotent)
                        .open_world(false),
                )
        })
        .collect()
}

/// `schema` without the integer formats schemars writes (`uint64`, `int32`, ...), which JSON
/// Schema does not define: a client's validator warns of each one it meets (the TypeScript
/// SDK's, twice a field). The bounds they stand for stay, as `minimum` and `maximum`.
fn standard_formats(mut schema: JsonObject) -> JsonObject {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                let integer_format = map.get("format").and_then(Value::as_str).is_some_and(|f| {
                    f.strip_prefix('u')
                        .unwrap_or(f)
                        .strip_prefix("int")
                        .is_some_and(|bits| bits.chars().all(|c| c.is_ascii_digit()))
                });
                if integer_format {
                    map.remove("format");
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    schema.values_mut().for_each(strip);
    schema
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("tool schemas are objects (checked by api's tests)"),
    }
}

/// A failed call on `subject` as a tool error every client reads: its text is the HTTP API's
/// error body (`{"error": {"code", "message", "path", "errors"}}`, the field at fault in
/// `path`), and it has no structured content. A client checks structured content against the
/// tool's output schema, which describes the tool's answer, not an error: the TypeScript SDK
/// refuses the whole result when they differ, and the model never sees the message.
fn tool_error(error: KenningError, subject: &str) -> CallToolResult {
    error_result(ApiError::from_service(error, subject, str::to_owned))
}

/// A tool error made of `error`'s body (see [`tool_error`]).
fn error_result(error: ApiError) -> CallToolResult {
    let text = serde_json::to_string(&error.body).expect("error bodies serialise");
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("kenning", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let caller = self.caller(&context)?;
        let tool = request.name.to_string();
        if api::tool(&tool).is_none() && api::runtime_tool(&tool).is_none() {
            let runtime = api::RUNTIME_TOOLS.iter().map(|t| t.name);
            let names: Vec<&str> = api::tool_names().into_iter().chain(runtime).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool {}; tools: {}", echo(&tool), names.join(", ")),
                None,
            ));
        }
        let mut args = request.arguments.unwrap_or_default();
        let subject = match args.remove("subject") {
            None | Some(Value::Null) => caller.subject_for(None),
            Some(Value::String(spec)) => caller.subject_for(Some(&spec)),
            Some(other) => Err(format!(
                "subject: expected a string, got {}",
                echo(&other.to_string())
            )),
        };
        let subject = match subject {
            Ok(subject) => subject,
            Err(message) => {
                let refused = ApiError::new(
                    axum::http::StatusCode::NOT_FOUND,
                    "not_found",
                    message,
                    "subject",
                );
                return Ok(error_result(refused).into());
            }
        };
        let spec = subject.spec();
        let service = Arc::clone(&self.service);
        let author = caller.0.author;
        let (called, name) = (subject.clone(), tool.clone());
        let outcome = tokio::task::spawn_blocking(move || match name.as_str() {
            "turn" => api::TurnArgs::parse(Value::Object(args))
                .and_then(|turn| service.record_turn_and_review(&called, author, turn))
                .map(|counted| serde_json::to_value(counted).expect("tool results serialise")),
            _ => service.call(&called, author, &name, &Value::Object(args).to_string()),
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the call did not finish: {e}"), None))?;
        Ok(match outcome {
            Ok(value) => {
                let value = if caller.0.review_by_elicitation {
                    review::settle(&context.peer, &self.service, &subject, author, &tool, value)
                        .await
                } else {
                    value
                };
                CallToolResult::structured(value)
            }
            Err(error) => tool_error(error, &spec),
        }
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListResourcesResult, ErrorData> {
        let caller = self.caller(&context)?;
        let today = civil_date(self.service.now());
        Ok(ListResourcesResult::with_all_items(resources::listed(
            &caller.with_resources(),
            &today,
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<ReadResourceResponse, ErrorData> {
        let caller = self.caller(&context)?;
        let uri = request.uri.to_string();
        let not_found =
            |message: String| ErrorData::resource_not_found(message, Some(json!({ "uri": uri })));
        let (subject, document) =
            resources::parse(&uri, &caller.with_resources()).map_err(not_found)?;
        let service = Arc::clone(&self.service);
        let reader = caller.0.author;
        let (read_subject, read_document) = (subject.clone(), document.clone());
        let text = tokio::task::spawn_blocking(move || {
            resources::read(&service, &read_subject, &read_document, reader)
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the read did not finish: {e}"), None))?;
        let text = match text {
            Ok(Some(text)) => text,
            Ok(None) | Err(KenningError::UnknownSubject { .. }) => {
                return Err(not_found(format!(
                    "{uri} is missing: {} has no entries there yet",
                    subject.spec()
                )));
            }
            Err(error) => return Err(ErrorData::internal_error(error.to_string(), None)),
        };
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri.clone()).with_mime_type("text/markdown"),
        ])
        .into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_takes_an_optional_subject_and_declares_its_output() {
        for tool in tools() {
            let properties = tool.input_schema["properties"].as_object().unwrap();
            assert!(properties.contains_key("subject"), "{}", tool.name);
            let required = tool.input_schema.get("required").and_then(Value::as_array);
            assert!(
                !required.is_some_and(|r| r.contains(&json!("subject"))),
                "{}",
                tool.name
            );
            assert!(tool.output_schema.is_some(), "{}", tool.name);
            let schemas = format!("{:?} {:?}", tool.input_schema, tool.output_schema);
            assert!(!schemas.contains("uint64"), "{}: {schemas}", tool.name);
            assert!(tool.annotations.is_some(), "{}", tool.name);
        }
    }
}
