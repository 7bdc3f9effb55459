//! Who is calling: the bearer token of every request but `/v1/health` and the OpenAPI
//! document, checked against the [`TokenStore`] on each request (so a revoked token is
//! refused at once).

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use crate::mcp::McpConfig;
use crate::tokens::Grant;
use kenning::subject::Subject;

/// A request's verified token.
#[derive(Debug, Clone)]
pub struct Caller(pub Arc<Grant>);

impl Caller {
    /// The subject named `spec` in the URL, when this token reaches it; otherwise the same
    /// 404 a subject without a knowledge base answers.
    pub fn subject(&self, spec: &str) -> Result<Subject, ApiError> {
        self.0
            .subject(spec)
            .cloned()
            .ok_or_else(|| ApiError::no_subject(spec))
    }
}

/// The grant of the request's `Authorization: Bearer` token.
fn verify(parts: &Parts, state: &AppState) -> Result<Arc<Grant>, ApiError> {
    let token = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            // The scheme's name is case-insensitive (RFC 9110, 11.1): `BEARER` is `Bearer`.
            let (scheme, token) = value.trim_start().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then_some(token)
        })
        .map(str::trim)
        .ok_or_else(ApiError::unauthorized)?;
    match state.tokens.verify(token) {
        Ok(Some(grant)) => Ok(grant),
        Ok(None) => Err(ApiError::unauthorized()),
        Err(error) => {
            tracing::error!(error = %error, "the tokens file could not be read");
            Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "tokens cannot be checked right now; try again",
                "",
            )
            .retry_after(1))
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        verify(parts, state).map(Caller)
    }
}

/// Lets an MCP request through only with a valid token, and tells the MCP server whom it
/// serves for this request: the token's subjects (the first is the default) and its role as
/// the author of writes.
pub async fn mcp_auth(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let grant = match verify(&parts, &state) {
        Ok(grant) => grant,
        Err(error) => return error.into_response(),
    };
    let mut subjects = grant.subjects.iter().cloned();
    let Some((_, subject)) = subjects.next() else {
        return ApiError::unauthorized().into_response();
    };
    // Shared, not copied, by the MCP server's handlers: a token may reach thousands of subjects.
    parts.extensions.insert(Arc::new(McpConfig {
        subject,
        allowed: subjects.collect(),
        author: grant.role.author(),
        review_by_elicitation: state.elicitation_review,
    }));
    next.run(Request::from_parts(parts, body)).await
}
