//! The HTTP API's errors: one JSON shape, `{"error": {"code", "message", "path"}}`, and the
//! status each [`KenningError`] answers with.
//!
//! Messages never carry a file path of the server, a token, or a memory's text: a 404 for a
//! subject the token does not reach reads exactly like one for a subject with no store yet.

use axum::Json;
use axum::http::StatusCode;
use axum::http::header::{HeaderValue, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::Serialize;

use kenning::error::KenningError;

/// The body of every error answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, and where.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorDetail {
    /// A stable, machine-readable code: `invalid_json`, `invalid`, `blocked`, `too_large`,
    /// `unauthorized`, `forbidden`, `not_found`, `method_not_allowed`, `not_acceptable`,
    /// `conflict`, `limit_reached`, `unsupported_media_type`, `unavailable`, `internal`.
    pub code: &'static str,
    /// One sentence naming the problem.
    pub message: String,
    /// The field at fault (`content`, `metadata.tags[0]`, `page`), or `""` for the whole
    /// request.
    pub path: String,
    /// Every field problem, when there are several (absent otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldProblem>,
}

/// One field's problem.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FieldProblem {
    /// The field.
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

/// An error answer: a status and its body.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The body.
    pub body: ErrorBody,
    /// Seconds after which the same request may succeed (`Retry-After`), for answers that pass.
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// An error with `status`, `code`, `message` and the field `path`.
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
        path: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            retry_after: None,
            body: ErrorBody {
                error: ErrorDetail {
                    code,
                    message: message.into(),
                    path: path.into(),
                    errors: Vec::new(),
                },
            },
        }
    }

    /// 507: the disk under `spec`'s store is full (`error` says where, in the server's log).
    fn storage_full(error: &KenningError, spec: &str) -> Self {
        tracing::error!(subject = spec, error = %error, "the disk is full");
        ApiError::new(
            StatusCode::INSUFFICIENT_STORAGE,
            "storage_full",
            "the server's disk is full: nothing was written; reads still work",
            "",
        )
    }

    /// This error, telling the client it may send the same request again after `seconds`.
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// 400: the request is malformed at `path`.
    pub fn bad_request(message: impl Into<String>, path: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid", message, path)
    }

    /// 422: the request is well-formed JSON of the documented shape, but breaks a rule at
    /// `path` (the policy's validation, or a rule across fields such as a function's end before
    /// its start).
    pub fn unprocessable(message: impl Into<String>, path: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid", message, path)
    }

    /// 401: no token, or one that is unknown or revoked.
    pub fn unauthorized() -> Self {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a valid bearer token is required (Authorization: Bearer kn_...; see kenning token create)",
            "",
        )
    }

    /// 403: the token's role may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message, "")
    }

    /// 404 for a subject: the same answer whether it is out of the token's reach or has no
    /// store yet.
    pub fn no_subject(spec: &str) -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "no knowledge base for subject {}",
                kenning::error::echo(spec)
            ),
            "subject",
        )
    }

    /// 413: the body is over `limit` bytes.
    pub fn too_large(limit: usize) -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is over the limit of {limit} bytes"),
            "",
        )
    }

    /// The answer for a service error on `spec`'s knowledge base; `rename` turns the
    /// service's field paths into the request's.
    pub fn from_service(error: KenningError, spec: &str, rename: fn(&str) -> String) -> Self {
        use KenningError as E;
        match error {
            E::Invalid { errors, .. } => {
                let problems: Vec<FieldProblem> = errors
                    .iter()
                    .map(|e| FieldProblem {
                        path: rename(&e.path),
                        message: e.message.clone(),
                    })
                    .collect();
                let first = problems.first().cloned().unwrap_or(FieldProblem {
                    path: String::new(),
                    message: "invalid request".into(),
                });
                let message = problems
                    .iter()
                    .map(|p| {
                        if p.path.is_empty() {
                            p.message.clone()
                        } else {
                            format!("{}: {}", p.path, p.message)
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                let mut answer = ApiError::unprocessable(message, first.path);
                if problems.len() > 1 {
                    answer.body.error.errors = problems;
                }
                answer
            }
            E::Blocked { .. } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "blocked",
                error.to_string(),
                rename("text"),
            ),
            E::TooLarge { .. } => {
                let path = error.field().map(rename).unwrap_or_default();
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    error.to_string(),
                    path,
                )
            }
            E::BadSubject { .. } | E::UnknownSubject { .. } => ApiError::no_subject(spec),
            E::NoSuchMemory { .. } => {
                ApiError::new(StatusCode::NOT_FOUND, "not_found", error.to_string(), "id")
            }
            E::NoMatch(_) => {
                ApiError::new(StatusCode::NOT_FOUND, "not_found", error.to_string(), "")
            }
            E::Ambiguous(_)
            | E::Conflict(_)
            | E::StalePlan { .. }
            | E::TooSoon { .. }
            | E::TooFewTurns { .. } => {
                ApiError::new(StatusCode::CONFLICT, "conflict", error.to_string(), "")
            }
            E::LimitReached { .. } => {
                ApiError::new(StatusCode::CONFLICT, "limit_reached", error.to_string(), "")
            }
            E::Forbidden(_) => ApiError::forbidden(error.to_string()),
            E::Query { ref problem } => match problem {
                kenning::query::QueryProblem::Unavailable(_) => ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    error.to_string(),
                    "",
                ),
                problem if problem.is_budget() => ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "query_budget",
                    error.to_string(),
                    "sql",
                ),
                _ => ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "query_refused",
                    error.to_string(),
                    "sql",
                ),
            },
            E::Model(_) => ApiError::new(
                StatusCode::BAD_GATEWAY,
                "model_failed",
                error.to_string(),
                "",
            ),
            E::Usage(message) => ApiError::bad_request(message, ""),
            E::BadImport { .. } | E::WrongSubject { .. } => {
                ApiError::bad_request(error.to_string(), "")
            }
            E::Busy { .. } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the knowledge base is busy; try again",
                "",
            )
            .retry_after(1),
            E::Unavailable { .. } => {
                tracing::warn!(subject = spec, error = %error, "the database cannot be reached");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    "the server's database cannot be reached right now; try again",
                    "",
                )
                .retry_after(1)
            }
            E::StorageFull { .. } => ApiError::storage_full(&error, spec),
            E::Io { ref source, .. } if source.kind() == std::io::ErrorKind::StorageFull => {
                ApiError::storage_full(&error, spec)
            }
            E::ReadOnly { .. } | E::ReadOnlyFolder { .. } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the knowledge base is read-only on the server: reads work, writes cannot",
                "",
            ),
            E::NewerStore { .. } | E::NotAStore { .. } | E::Key { .. } => {
                tracing::error!(subject = spec, error = %error, "a knowledge base cannot be opened");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the knowledge base cannot be opened by this server (see its log)",
                    "",
                )
            }
            E::Store { .. }
            | E::Database { .. }
            | E::Io { .. }
            | E::Output(_)
            | E::Policy(_)
            | E::BadConfig { .. } => {
                tracing::error!(subject = spec, error = %error, "request failed");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the server failed to carry out the request (see its log); nothing was changed",
                    "",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let unauthorized = self.status == StatusCode::UNAUTHORIZED;
        let retry_after = self.retry_after;
        let mut response = (self.status, Json(self.body)).into_response();
        if unauthorized {
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
