//! The HTTP API (`kenning serve`): the service's operations as REST routes under
//! `/v1/subjects/{subject}/`, the MCP server over streamable HTTP at `/v1/mcp`, and the
//! OpenAPI 3.1 document at `/v1/openapi.json`. An adapter: every route makes one call to the
//! [`Service`], as the caller's token's role, on a subject the token reaches.
//!
//! - [`auth`]: bearer tokens ([`crate::tokens`]), checked on every request;
//! - [`routes`]: the handlers, and the strict readers of bodies and queries;
//! - [`readers`]: the threads that answer reads, one a core, in the order they arrive;
//! - [`model`]: the request and response shapes (the chat platform's field names);
//! - [`error`]: `{"error": {"code", "message", "path"}}` and the status of each failure;
//! - [`openapi`]: the document, generated from the handlers' types;
//! - [`page`]: the memory browser at `/`, embedded in the binary;
//! - [`metrics`]: Prometheus metrics, served on an address of their own.

mod arrays;
pub mod auth;
pub mod error;
pub mod metrics;
pub mod model;
pub mod openapi;
pub mod page;
pub mod readers;
pub mod routes;

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use bytes::Bytes;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::mcp::McpServer;
use crate::tokens::TokenStore;
use kenning::Service;
use kenning::error::KenningError;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The one service.
    pub service: Arc<Service>,
    /// The tokens, checked on every request.
    pub tokens: Arc<TokenStore>,
    /// The OpenAPI document, rendered once.
    pub openapi: Bytes,
    /// The threads that answer reads, in order.
    pub readers: Arc<readers::Readers>,
    /// Whether MCP clients' users may settle writes at once ([`McpHttpOptions`]).
    pub elicitation_review: bool,
}

/// How the MCP endpoint serves: what it accepts beyond loopback (the DNS-rebinding checks), and
/// whether its clients' users settle writes at once.
#[derive(Debug, Clone, Default)]
pub struct McpHttpOptions {
    /// `Host` values accepted besides `localhost`, `127.0.0.1` and `::1` (the name or
    /// address clients reach the server by, when it is not loopback).
    pub extra_hosts: Vec<String>,
    /// Browser origins allowed to call it (`https://app.example.com`); with none, a request
    /// carrying an `Origin` header is refused.
    pub allowed_origins: Vec<String>,
    /// Whether an MCP client's user may settle an external token's write at once
    /// ([`crate::mcp::McpConfig::review_by_elicitation`]).
    pub elicitation_review: bool,
}

/// The whole API, with its reader threads started. `shutdown` ends MCP sessions (and their
/// streams) when it is cancelled.
pub fn router(
    service: Arc<Service>,
    tokens: Arc<TokenStore>,
    mcp: &McpHttpOptions,
    shutdown: CancellationToken,
) -> Result<Router, KenningError> {
    let readers = readers::Readers::one_per_core().map_err(|source| KenningError::Io {
        path: "<reader threads>".into(),
        source,
    })?;
    let openapi = serde_json::to_vec_pretty(&openapi::document()).expect("the document serialises");
    let state = AppState {
        service: Arc::clone(&service),
        tokens,
        openapi: Bytes::from(openapi),
        readers: Arc::new(readers),
        elicitation_review: mcp.elicitation_review,
    };
    let subject = "/v1/subjects/{subject}";
    let api = Router::new()
        .route("/v1/health", get(routes::health))
        .route("/v1/ready", get(routes::ready))
        .route("/v1/openapi.json", get(routes::openapi))
        .route("/v1/token", get(routes::token))
        .route(
            &format!("{subject}/memories"),
            get(routes::list_memories)
                .post(routes::create_memory)
                .delete(routes::delete_all),
        )
        .route(
            &format!("{subject}/memories/{{id}}"),
            get(routes::get_memory)
                .patch(routes::update_memory)
                .delete(routes::delete_memory),
        )
        .route(&format!("{subject}/stats"), get(routes::stats))
        .route(
            &format!("{subject}/settings"),
            get(routes::get_settings).put(routes::put_settings),
        )
        .route(
            &format!("{subject}/threads/{{thread}}/settings"),
            get(routes::get_settings).put(routes::put_settings),
        )
        .route(&format!("{subject}/search"), post(routes::search))
        .route(&format!("{subject}/context"), post(routes::context))
        .route(&format!("{subject}/query"), post(routes::query))
        .route(
            &format!("{subject}/query/schema"),
            get(routes::query_schema),
        )
        .route(&format!("{subject}/turns"), post(routes::turn))
        .route(&format!("{subject}/review"), get(routes::review_list))
        .route(
            &format!("{subject}/review/{{id}}/accept"),
            post(routes::review_accept),
        )
        .route(
            &format!("{subject}/review/{{id}}/reject"),
            post(routes::review_reject),
        );
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(mcp.extra_hosts.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(mcp.allowed_origins.clone())
        .enforce_origin_validation()
        .with_max_request_body_bytes(routes::MAX_BODY_BYTES)
        .with_cancellation_token(shutdown);
    let mcp_service = StreamableHttpService::new(
        move || Ok(McpServer::over_http(Arc::clone(&service))),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mcp_routes = Router::new()
        .route_service("/v1/mcp", mcp_service)
        .layer(middleware::from_fn(mcp_answers_in_json))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::mcp_auth,
        ));
    Ok(api
        .route_layer(middleware::from_fn(log_request))
        .layer(DefaultBodyLimit::max(routes::MAX_BODY_BYTES))
        .with_state(state)
        .merge(mcp_routes.layer(middleware::from_fn(log_request)))
        .method_not_allowed_fallback(routes::method_not_allowed)
        .fallback(page_or_not_found))
}

/// A file of the page ([`page`]), or the API's 404.
async fn page_or_not_found(
    method: axum::http::Method,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    match page::serve(&method, &uri, &headers) {
        Some(response) => response,
        None => routes::not_found().await.into_response(),
    }
}

/// One structured log line per request: the method, the route's template (never the
/// concrete path's query, and never a body or a token), the status and the time taken.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let matched = request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned());
    // The log names an unmatched request by its path; a metric never does (a label per path).
    let path = matched.is_none().then(|| request.uri().path().to_owned());
    let route = matched.as_deref().or(path.as_deref()).unwrap_or_default();
    let started = Instant::now();
    let response = next.run(request).await;
    metrics::record_request(
        method.as_str(),
        matched.as_deref().unwrap_or("unmatched"),
        response.status().as_u16(),
        started.elapsed(),
    );
    tracing::info!(
        target: "kenning::http",
        method = %method,
        route = %route,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
    response
}

/// Every answer of `/v1/mcp` in JSON. A `POST` whose body is no message rmcp can read (a lone
/// surrogate escape, bytes that are not UTF-8, nesting deeper than 128 levels, JSON that is no
/// MCP client message) gets the JSON-RPC error stdio gives it, naming the problem and the
/// request's id ([`crate::mcp::jsonrpc::unparsable`]), as does the wrong `Accept` or
/// `Content-Type`, or a body over the limit; and an error rmcp answers in plain text (a request
/// without its session's `Mcp-Session-Id`) becomes a JSON-RPC error with that text, which
/// clients read as their request's error. (A missing or refused token is the API's 401 or 403.)
/// A session's end (`DELETE`) is a 200.
async fn mcp_answers_in_json(request: Request, next: Next) -> Response {
    if request.method() != axum::http::Method::POST {
        let ending = request.method() == axum::http::Method::DELETE;
        let mut response = json_rpc_errors(next.run(request).await, b"").await;
        // rmcp answers a session's end with 202, which the Python SDK reports as a failure
        // (it takes 200 or 204): the session has ended, so 200.
        if ending && response.status() == axum::http::StatusCode::ACCEPTED {
            *response.status_mut() = axum::http::StatusCode::OK;
        }
        return response;
    }
    let accept = header_of(&request, axum::http::header::ACCEPT);
    let content_type = header_of(&request, axum::http::header::CONTENT_TYPE);
    let refuse = |status, message: &str| {
        let answer =
            crate::mcp::jsonrpc::error_answer(b"", crate::mcp::jsonrpc::INVALID_REQUEST, message);
        (status, axum::Json(answer)).into_response()
    };
    if !(accept.contains("application/json") && accept.contains("text/event-stream")) {
        return refuse(
            axum::http::StatusCode::NOT_ACCEPTABLE,
            "an MCP client must accept both application/json and text/event-stream",
        );
    }
    if !content_type.starts_with("application/json") {
        return refuse(
            axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "an MCP message is JSON (Content-Type: application/json)",
        );
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, routes::MAX_BODY_BYTES).await else {
        return refuse(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "the message is over the limit of {} bytes",
                routes::MAX_BODY_BYTES
            ),
        );
    };
    if let Some(answer) = crate::mcp::jsonrpc::unparsable(&bytes) {
        return (axum::http::StatusCode::BAD_REQUEST, axum::Json(answer)).into_response();
    }
    let request = Request::from_parts(parts, axum::body::Body::from(bytes.clone()));
    json_rpc_errors(next.run(request).await, &bytes).await
}

/// `response`, or, when it is an error in plain text, the same error as a JSON-RPC error
/// answering `message` (its id, when it has one).
async fn json_rpc_errors(response: Response, message: &[u8]) -> Response {
    let status = response.status();
    let content_type = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !(status.is_client_error() || status.is_server_error())
        || content_type.starts_with("application/json")
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let code = if status.is_server_error() {
        -32603
    } else {
        crate::mcp::jsonrpc::INVALID_REQUEST
    };
    let answer = crate::mcp::jsonrpc::error_answer(message, code, text.trim());
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, axum::body::Body::from(answer.to_string()))
}

fn header_of(request: &Request, name: axum::http::header::HeaderName) -> String {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}
