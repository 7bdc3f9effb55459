//! The MCP server: kenning's tools and a profile's files over the Model Context Protocol, an
//! adapter over the [`Service`] (rmcp, stdio).
//!
//! - Tools: the [`crate::api::TOOLS`], with input and output schemas generated from the
//!   service's types and annotations from their hints. Every call goes through
//!   [`Service::call`], so the policy validates and scans it like any other. Then the
//!   [`crate::api::RUNTIME_TOOLS`], for the agent runtime: `turn` counts a user turn through
//!   [`Service::record_turn_and_review`].
//! - Authorship comes from the server's configuration, never from the model: an MCP caller is
//!   `external` by default, so its writes are PENDING until a human accepts them. Review is not
//!   a tool: it is a human's decision.
//! - Subjects: the server's own, and the ones it was started with `--allow-subject` for; a
//!   tool names another with its optional `subject` argument. Over HTTP ([`McpServer::over_http`])
//!   each request brings its own [`McpConfig`], made from its bearer token.
//! - Resources: `USER.md`, `MEMORY.md` and today's daily note of every profile subject served.
//! - Failures are tool errors (`isError`) naming the field at fault; a malformed request never
//!   ends the server.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::api;
use crate::error::{KenningError, Result};
use crate::service::{Service, civil_date};
use crate::store::Author;
use crate::subject::Subject;
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
    /// request, as an [`McpConfig`] in its HTTP extensions (put there by the HTTP API's token
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
            .and_then(|parts| parts.extensions.get::<McpConfig>())
            .map(|config| Caller(Arc::new(config.clone())))
            .ok_or_else(|| {
                ErrorData::invalid_request("no caller: a bearer token is required", None)
            })
    }

    /// Serves MCP over standard input and output until the client closes the connection.
    pub async fn serve_stdio(self) -> Result<()> {
        let running = self
            .serve(rmcp::transport::stdio_pipes())
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session did not start: {e}")))?;
        running
            .waiting()
            .await
            .map_err(|e| KenningError::Usage(format!("MCP session failed: {e}")))?;
        Ok(())
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
                format!(
                    "subject {spec:?} is not served here; this server serves {}{} (start it with --allow-subject {spec} to allow it)",
                    config.subject.spec(),
                    config
                        .allowed
                        .iter()
                        .map(|(spec, _)| format!(", {spec}"))
                        .collect::<String>()
                )
            })
    }

    /// Every profile subject served.
    fn profiles(&self) -> Vec<Subject> {
        std::iter::once(&self.0.subject)
            .chain(self.0.allowed.iter().map(|(_, s)| s))
            .filter(|s| s.kind == SubjectKind::Profile)
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

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("tool schemas are objects (checked by api's tests)"),
    }
}

/// A failed call as a tool error: one line naming the problem, and the field errors when the
/// arguments failed their schema.
fn tool_error(error: &KenningError) -> CallToolResult {
    let mut detail = json!({ "error": error.to_string() });
    if let KenningError::Invalid { errors, .. } = error {
        detail["errors"] = json!(errors);
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(error.to_string())]);
    result.structured_content = Some(detail);
    result
}

fn usage_error(message: String) -> CallToolResult {
    tool_error(&KenningError::Usage(message))
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
                format!("unknown tool {tool:?}; tools: {}", names.join(", ")),
                None,
            ));
        }
        let mut args = request.arguments.unwrap_or_default();
        let subject = match args.remove("subject") {
            None | Some(Value::Null) => caller.subject_for(None),
            Some(Value::String(spec)) => caller.subject_for(Some(&spec)),
            Some(other) => Err(format!("subject: expected a string, got {other}")),
        };
        let subject = match subject {
            Ok(subject) => subject,
            Err(message) => return Ok(usage_error(message).into()),
        };
        let service = Arc::clone(&self.service);
        let author = caller.0.author;
        let outcome = tokio::task::spawn_blocking(move || match tool.as_str() {
            "turn" => serde_json::from_value::<api::TurnArgs>(Value::Object(args))
                .map_err(|e| KenningError::Usage(format!("turn: {e}")))
                .and_then(|turn| service.record_turn_and_review(&subject, author, turn))
                .map(|counted| serde_json::to_value(counted).expect("tool results serialise")),
            _ => service.call(&subject, author, &tool, &Value::Object(args).to_string()),
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the call did not finish: {e}"), None))?;
        Ok(match outcome {
            Ok(value) => CallToolResult::structured(value),
            Err(error) => tool_error(&error),
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
        let resources = caller
            .profiles()
            .iter()
            .flat_map(|profile| {
                let name = &profile.key;
                [
                    (
                        "USER.md".to_owned(),
                        "who the user is and how they like to work",
                    ),
                    ("MEMORY.md".to_owned(), "the agent's lasting notes"),
                    (format!("daily/{today}.md"), "today's note"),
                ]
                .map(|(file, what)| {
                    Resource::new(format!("kenning://profile/{name}/{file}"), file.clone())
                        .with_title(format!("{name}/{file}"))
                        .with_description(format!("Profile {name}: {what}"))
                        .with_mime_type("text/markdown")
                })
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
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
        let Some((name, file)) = uri
            .strip_prefix("kenning://profile/")
            .and_then(|rest| rest.split_once('/'))
        else {
            return Err(not_found(format!("no such resource: {uri}")));
        };
        let Some(profile) = caller.profiles().into_iter().find(|p| p.key == name) else {
            return Err(not_found(format!("profile {name:?} is not served here")));
        };
        let service = Arc::clone(&self.service);
        let view = tokio::task::spawn_blocking(move || service.view(&profile))
            .await
            .map_err(|e| {
                ErrorData::internal_error(format!("the read did not finish: {e}"), None)
            })?;
        let view = match view {
            Ok(view) => view,
            Err(KenningError::UnknownSubject { .. }) => {
                return Err(not_found(format!(
                    "{file} of profile {name} is missing: the profile has no entries yet"
                )));
            }
            Err(error) => return Err(ErrorData::internal_error(error.to_string(), None)),
        };
        let today = civil_date(self.service.now());
        let text = match file {
            "USER.md" => view.user,
            "MEMORY.md" => view.memory,
            daily if daily == format!("daily/{today}.md") => view.daily.map(|(_, text)| text),
            daily if daily.starts_with("daily/") => {
                return Err(not_found(format!(
                    "{file}: only today's note (daily/{today}.md) is served"
                )));
            }
            _ => return Err(not_found(format!("no such resource: {uri}"))),
        };
        let text = text.ok_or_else(|| {
            not_found(format!(
                "{file} of profile {name} is missing: it has no entries yet"
            ))
        })?;
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
            assert!(tool.annotations.is_some(), "{}", tool.name);
        }
    }
}
