//! The handlers: each reads its request strictly, resolves the subject through the caller's
//! token, and makes one call to the [`kenning::Service`] after the whole body has arrived (so a
//! slow client never holds a store lock): a read on a reader thread ([`super::readers`]), a
//! write on one of tokio's blocking threads.

use std::collections::HashMap;

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::AppState;
use super::auth::Caller;
use super::error::ApiError;
use super::model::{
    ContextAnswer, CreateMemory, Created, DeleteAllQuery, ExplainedMemory, Health, ListQuery,
    MemoryList, Ready, ReviewList, SearchResults, SetEnabled, SettingsView, TOKEN_VIEW_SUBJECTS,
    TokenView, UpdateMemory, memory_field,
};
use crate::tokens::Role;
use kenning::api::{ContextArgs, ForgetMemoryArgs, RecallArgs, TurnArgs, TurnCounted, WriteStatus};
use kenning::error::KenningError;
use kenning::service::governance::{Decision, ListRequest};

/// Most bytes a request body may hold: the limit of a tool call's arguments.
pub const MAX_BODY_BYTES: usize = kenning_contract::MAX_ARGS_BYTES;

/// A JSON body read strictly: malformed JSON, unknown fields and wrong types are a 400 naming
/// the field; a body over [`MAX_BODY_BYTES`] is a 413.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned + JsonSchema + 'static, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        refuse_other_media_types(&request)?;
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::too_large(MAX_BODY_BYTES)
                } else {
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "invalid_json",
                        format!(
                            "the request body could not be read: {}",
                            rejection.body_text()
                        ),
                        "",
                    )
                }
            })?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// Refuses (415) a body whose `Content-Type` says it is not JSON (`application/json`, or a
/// `+json` type); a body sent without one is read as JSON.
fn refuse_other_media_types(request: &Request) -> Result<(), ApiError> {
    let Some(value) = request.headers().get(axum::http::header::CONTENT_TYPE) else {
        return Ok(());
    };
    let media_type = value
        .to_str()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if media_type == "application/json" || media_type.ends_with("+json") {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        format!(
            "the body must be JSON (Content-Type: application/json), not {}",
            kenning::error::echo(&media_type)
        ),
        "",
    ))
}

/// Reads `bytes` as one JSON value of type `T`, naming the field of the first problem.
///
/// A number with no fraction is an integer whatever its spelling (`26.0` is 26, as JSON
/// Schema's `integer` says), so it is read as one before the fields take their types.
pub fn parse_json<T: DeserializeOwned + JsonSchema + 'static>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut value: Value = serde_json::from_slice(bytes).map_err(|inner| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            format!("the request body is not valid JSON: {inner}"),
            "",
        )
    })?;
    if !value.is_object() {
        return Err(ApiError::bad_request(
            "the request body must be a JSON object",
            "",
        ));
    }
    if let Some(path) = super::arrays::check::<T>(&value) {
        return Err(ApiError::bad_request(
            format!(
                "{}: an array, where the schema has none",
                display_path(&path)
            ),
            path,
        ));
    }
    integral_numbers_as_integers(&mut value);
    serde_path_to_error::deserialize(value).map_err(|error| {
        let inner = error.inner().to_string();
        let path = field_path(&error.path().to_string(), &inner);
        ApiError::bad_request(format!("{}: {inner}", display_path(&path)), path)
    })
}

/// Rewrites every number of `value` that has no fraction (and fits 64 bits) as an integer.
fn integral_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            // Within 2^63, where every integral f64 is an i64 and an u64 exactly.
            if float.fract() == 0.0 && float.abs() < 9.2e18 {
                *number = if float < 0.0 {
                    serde_json::Number::from(float as i64)
                } else {
                    serde_json::Number::from(float as u64)
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers_as_integers),
        Value::Object(map) => map.values_mut().for_each(integral_numbers_as_integers),
        _ => {}
    }
}

/// A query string read strictly (unknown parameters and wrong types are a 400 naming the
/// parameter).
pub struct QueryArgs<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryArgs<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        let deserializer =
            serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(deserializer)
            .map(QueryArgs)
            .map_err(|error| {
                let inner = error.inner().to_string();
                let path = field_path(&error.path().to_string(), &inner);
                ApiError::bad_request(
                    format!("query parameter {}: {inner}", display_path(&path)),
                    path,
                )
            })
    }
}

/// The field a serde error at `path` is about: `path` itself, or, for a missing field, that
/// field within it (serde names a missing field only in its message).
fn field_path(path: &str, message: &str) -> String {
    let path = if path == "." || path == "?" { "" } else { path };
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match missing {
        Some(field) if path.is_empty() => field.to_owned(),
        Some(field) => format!("{path}.{field}"),
        None => path.to_owned(),
    }
}

fn display_path(path: &str) -> &str {
    if path.is_empty() { "the request" } else { path }
}

/// The path parameters, all as text (`subject`, `id`, `thread`).
type Params = Path<HashMap<String, String>>;

fn param<'a>(params: &'a HashMap<String, String>, name: &str) -> &'a str {
    params.get(name).map(String::as_str).unwrap_or_default()
}

/// The `id` path parameter: a memory id.
fn memory_id(params: &HashMap<String, String>) -> Result<u64, ApiError> {
    let text = param(params, "id");
    text.parse::<u64>()
        .ok()
        .filter(|&id| id > 0)
        .ok_or_else(|| {
            ApiError::bad_request(
                format!(
                    "{:?} is not a memory id (a positive integer)",
                    text.chars().take(40).collect::<String>()
                ),
                "id",
            )
        })
}

/// Runs `work` (a service call that only reads) on a reader thread, after the reads that
/// arrived before it ([`super::readers`]), and maps its error for `spec` with `rename` (the
/// service's field paths to the request's).
async fn read<T: Send + 'static>(
    state: &AppState,
    spec: &str,
    rename: fn(&str) -> String,
    work: impl FnOnce() -> Result<T, KenningError> + Send + 'static,
) -> Result<T, ApiError> {
    match state.readers.run(work).await {
        Ok(outcome) => outcome.map_err(|error| ApiError::from_service(error, spec, rename)),
        Err(failed) => Err(unfinished(&failed)),
    }
}

/// Runs `work` (a service call that writes) on one of tokio's blocking threads: a write waits
/// on the disk and on other writers, so it does not take a reader's place. Its error is
/// mapped as [`read`] maps it.
async fn write<T: Send + 'static>(
    spec: &str,
    rename: fn(&str) -> String,
    work: impl FnOnce() -> Result<T, KenningError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(outcome) => outcome.map_err(|error| ApiError::from_service(error, spec, rename)),
        Err(join) => Err(unfinished(&join)),
    }
}

/// The answer to a request whose work ended without an outcome (it panicked, or the server
/// is stopping): logged, and a 500 that names no detail.
fn unfinished(why: &dyn std::fmt::Display) -> ApiError {
    tracing::error!(error = %why, "a request's work did not finish");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the server failed to carry out the request (see its log)",
        "",
    )
}

fn same(path: &str) -> String {
    path.to_owned()
}

fn human_only(caller: &Caller, what: &str) -> Result<(), ApiError> {
    if caller.0.role == Role::Human {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "{what} needs a human token; this one is {}",
            caller.0.role.as_str()
        )))
    }
}

/// `GET /v1/health`: the server is up (no token needed).
pub async fn health() -> Json<Health> {
    Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// `GET /v1/openapi.json`: the OpenAPI 3.1 document (no token needed).
pub async fn openapi(State(state): State<AppState>) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        state.openapi.clone(),
    )
        .into_response()
}

/// `GET /v1/ready`: whether this server can serve now (no token needed): 200 when its store
/// answers, else 503 with `Retry-After` and what is wrong, so a load balancer sends requests
/// elsewhere while the database is unreachable.
pub async fn ready(State(state): State<AppState>) -> Response {
    let service = state.service.clone();
    let checked = tokio::task::spawn_blocking(move || service.check_ready()).await;
    let problem = match checked {
        Ok(Ok(())) => return Json(Ready { status: "ready" }).into_response(),
        Ok(Err(error)) => error.to_string(),
        Err(_) => "the readiness check failed".to_owned(),
    };
    let mut response =
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", problem, "").into_response();
    response.headers_mut().insert(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("5"),
    );
    response
}

/// `GET /v1/token`: what the caller's token grants, so a client (the page's sign-in) can
/// offer its subjects and the actions its role may take.
pub async fn token(caller: Caller) -> Json<TokenView> {
    let grant = &caller.0;
    Json(TokenView {
        id: grant.id.clone(),
        role: grant.role.as_str().to_owned(),
        subject_count: grant.subjects.len(),
        subjects: grant
            .subjects
            .iter()
            .take(TOKEN_VIEW_SUBJECTS)
            .map(|(spec, _)| spec.clone())
            .collect(),
    })
}

/// `GET memories`: one page of memories, newest first.
pub async fn list_memories(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    QueryArgs(query): QueryArgs<ListQuery>,
) -> Result<Json<MemoryList>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let request = ListRequest {
        kind: query.memory_type,
        tag: query.tag,
        words: query.q,
        status: query.status.unwrap_or_default(),
        page: query.page.unwrap_or(1),
        limit: query.limit.unwrap_or(ListRequest::default().limit),
    };
    let author = caller.0.role.author();
    let service = state.service.clone();
    let page = read(&state, spec, same, move || {
        service.list_memories(&subject, author, &request)
    })
    .await?;
    Ok(Json(page.into()))
}

/// `GET memories/{id}`: one memory the token's role may read (never a forgotten or rejected
/// one; one awaiting review only with a human token), and for a human token why it was
/// written as it was (see [`kenning::Service::memory_and_why`]).
pub async fn get_memory(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<ExplainedMemory>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let id = memory_id(&params)?;
    let author = caller.0.role.author();
    let service = state.service.clone();
    let (memory, why) = read(&state, spec, same, move || {
        service.memory_and_why(&subject, author, id)
    })
    .await?;
    Ok(Json(ExplainedMemory {
        memory: memory.into(),
        why,
    }))
}

/// `POST memories`: remember a new memory (the `remember` tool, written by the token's role).
pub async fn create_memory(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(body): JsonBody<CreateMemory>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let author = caller.0.role.author();
    let (args, metadata) = body.into_parts();
    let service = state.service.clone();
    let done = write(spec, memory_field, move || {
        service.remember_with_metadata(&subject, author, &args, metadata)
    })
    .await?;
    let status = if done.status == WriteStatus::Duplicate {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((
        status,
        Json(Created {
            memory_id: done.id,
            status: done.status,
            badge: done.badge,
            redacted: done.redacted,
        }),
    ))
}

/// `PATCH memories/{id}`: revise a memory (the `revise_memory` tool), or propose the change.
pub async fn update_memory(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(body): JsonBody<UpdateMemory>,
) -> Result<Json<kenning::api::Revised>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let id = memory_id(&params)?;
    let (args, metadata) = body
        .into_args(id)
        .map_err(|(path, message)| ApiError::unprocessable(format!("{path}: {message}"), path))?;
    let author = caller.0.role.author();
    let service = state.service.clone();
    let revised = write(spec, memory_field, move || {
        service.revise_memory_with_metadata(&subject, author, &args, metadata)
    })
    .await?;
    Ok(Json(revised))
}

/// `DELETE memories/{id}`: forget a memory (the `forget_memory` tool).
pub async fn delete_memory(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<kenning::api::Forgotten>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let id = memory_id(&params)?;
    let author = caller.0.role.author();
    let service = state.service.clone();
    let args = ForgetMemoryArgs {
        id,
        reason: None,
        thread: None,
    };
    let forgotten = write(spec, same, move || {
        service.forget_memory(&subject, author, &args)
    })
    .await?;
    Ok(Json(forgotten))
}

/// `DELETE memories?confirm=true`: forget every memory, only with the confirmation.
pub async fn delete_all(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    QueryArgs(query): QueryArgs<DeleteAllQuery>,
) -> Result<Json<kenning::service::governance::ForgottenAll>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    if !query.confirm {
        return Err(ApiError::bad_request(
            "deleting every memory needs confirm=true",
            "confirm",
        ));
    }
    let author = caller.0.role.author();
    let service = state.service.clone();
    let thread = query.thread;
    let done = write(spec, same, move || {
        service.forget_all(&subject, author, thread.as_deref())
    })
    .await?;
    Ok(Json(done))
}

/// `GET stats`: the totals, as the `memory_stats` tool gives them.
pub async fn stats(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<kenning::api::MemoryStats>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let service = state.service.clone();
    let stats = read(&state, spec, same, move || service.memory_stats(&subject)).await?;
    Ok(Json(stats))
}

/// `GET settings` and `GET threads/{thread}/settings`.
pub async fn get_settings(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<SettingsView>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let thread = params.get("thread").cloned();
    let service = state.service.clone();
    let settings = read(&state, spec, thread_field, move || {
        service.settings(&subject, thread.as_deref())
    })
    .await?;
    Ok(Json(settings.into()))
}

/// `PUT settings` and `PUT threads/{thread}/settings`: turn memory on or off (human tokens).
pub async fn put_settings(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(body): JsonBody<SetEnabled>,
) -> Result<Json<SettingsView>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    human_only(&caller, "changing settings")?;
    let thread = params.get("thread").cloned();
    let author = caller.0.role.author();
    let service = state.service.clone();
    let settings = write(spec, thread_field, move || {
        service.set_memory_enabled(&subject, thread.as_deref(), author, body.enabled)
    })
    .await?;
    Ok(Json(settings.into()))
}

fn thread_field(path: &str) -> String {
    if path.is_empty() {
        "thread".to_owned()
    } else {
        path.to_owned()
    }
}

/// `POST search`: the `recall` tool.
pub async fn search(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(args): JsonBody<RecallArgs>,
) -> Result<Json<SearchResults>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let service = state.service.clone();
    let offset = args.offset.unwrap_or(0);
    let max_bytes = service.max_result_bytes();
    let found = read(&state, spec, same, move || service.recall(&subject, &args)).await?;
    let mut found = SearchResults::from(found);
    found.fit(offset, max_bytes);
    Ok(Json(found))
}

/// `POST query`: the `query` tool, one read-only SQL statement over the subject's views.
pub async fn query(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(args): JsonBody<kenning::query::QueryArgs>,
) -> Result<Json<kenning::query::QueryResult>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let reader = caller.0.role.author();
    let service = state.service.clone();
    let answer = read(&state, spec, same, move || {
        service.query(&subject, reader, &args)
    })
    .await?;
    Ok(Json(answer))
}

/// `GET query/schema`: the views a query reads, their columns, the functions it may call and
/// its budgets (the `query_schema` tool).
pub async fn query_schema(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<kenning::query::QuerySchema>, ApiError> {
    caller.subject(param(&params, "subject"))?;
    Ok(Json(state.service.query_schema()))
}

/// `POST turns`: counts a successful user turn; when a memory review is due it starts on a
/// thread of its own and the answer does not wait for it.
pub async fn turn(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(body): JsonBody<TurnArgs>,
) -> Result<Json<TurnCounted>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let author = caller.0.role.author();
    let service = state.service.clone();
    let counted = write(spec, same, move || {
        service.record_turn_and_review(&subject, author, body)
    })
    .await?;
    Ok(Json(counted))
}

/// `POST context`: the memories for this turn, rendered, with the reason for every choice.
pub async fn context(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    JsonBody(args): JsonBody<ContextArgs>,
) -> Result<Json<ContextAnswer>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    let service = state.service.clone();
    // A turn counts its recalls (bookkeeping written to the store), so it may wait for the
    // writer's lock: it runs as a write.
    let chosen = write(spec, same, move || service.context(&subject, &args)).await?;
    Ok(Json(chosen.into()))
}

/// `GET review`: memories awaiting review (human tokens).
pub async fn review_list(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
) -> Result<Json<ReviewList>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    human_only(&caller, "review")?;
    let author = caller.0.role.author();
    let service = state.service.clone();
    let memories = read(&state, spec, same, move || {
        service.review_list(&subject, author)
    })
    .await?;
    Ok(Json(ReviewList {
        count: memories.len(),
        memories: memories.into_iter().map(ExplainedMemory::from).collect(),
    }))
}

/// `POST review/{id}/accept`.
pub async fn review_accept(
    state: State<AppState>,
    caller: Caller,
    params: Params,
) -> Result<Json<kenning::api::Reviewed>, ApiError> {
    decide(state, caller, params, Decision::Accept).await
}

/// `POST review/{id}/reject`.
pub async fn review_reject(
    state: State<AppState>,
    caller: Caller,
    params: Params,
) -> Result<Json<kenning::api::Reviewed>, ApiError> {
    decide(state, caller, params, Decision::Reject).await
}

async fn decide(
    State(state): State<AppState>,
    caller: Caller,
    Path(params): Params,
    decision: Decision,
) -> Result<Json<kenning::api::Reviewed>, ApiError> {
    let spec = param(&params, "subject");
    let subject = caller.subject(spec)?;
    human_only(&caller, "review")?;
    let id = memory_id(&params)?;
    let reviewer = format!("http-{}", caller.0.id);
    let service = state.service.clone();
    let outcome = write(spec, same, move || {
        service.review(&subject, id, decision, &reviewer)
    })
    .await?;
    Ok(Json(outcome))
}

/// A route that exists, asked with a method it does not take: a 405 in the API's shape.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method (see /v1/openapi.json)",
        "",
    )
}

/// Any other path: a 404 in the API's shape.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such route (see /v1/openapi.json)",
        "",
    )
}
