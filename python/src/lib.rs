//! `kenning._kenning`: the [`kenning::Service`] in a Python process, for the package `kenning`
//! (`kenning/__init__.py`), which gives it its Python shape.
//!
//! A thin adapter, like every door: each method takes JSON (the tools' arguments, as MCP and
//! `kenning call` take them) or plain values, releases the interpreter's lock while the service
//! works (the store, the sandboxed policy), and answers JSON, which the package turns into
//! Python values. A failure is one `NativeError(kind, message, errors)`: `kind` names the class
//! of [`kenning::KenningError`] (`invalid`, `blocked`, `not_found`, ...), `errors` the fields at
//! fault as JSON; the package raises its own exception for each kind.

use std::path::PathBuf;
use std::sync::Arc;

use kenning::error::KenningError;
use kenning::service::governance::Decision;
use kenning::service::interchange::{ExportFormat, ImportOptions};
use kenning::store::{Author, StoreKey};
use kenning::subject::Subject;
use kenning::{PolicySource, Service};
use kenning_contract::types::{ScanItem, Target};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::{Value, json};

create_exception!(
    _kenning,
    NativeError,
    PyException,
    "A failure of the kenning service: args are (kind, message, errors as JSON)."
);

/// The service over one data directory (and, optionally, a PostgreSQL store).
#[pyclass(frozen, module = "kenning._kenning", name = "Service")]
struct PyService {
    inner: Arc<Service>,
}

#[pymethods]
impl PyService {
    /// Opens the service: the knowledge bases of `data_dir` (SQLite files) or of the PostgreSQL
    /// database `store`, the embedded default policy or the component file `policy`, stores
    /// encrypted with the key in `key_file` (or `KENNING_KEY_FILE`, `KENNING_KEY`), compiled
    /// policies cached in `cache_dir` (or `KENNING_CACHE_DIR`, else the data directory's
    /// `cache`), the clock fixed at `now` when given (seconds since the epoch).
    #[new]
    #[pyo3(signature = (data_dir=None, *, store=None, query_store=None, policy=None, key_file=None, cache_dir=None, now=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        data_dir: Option<PathBuf>,
        store: Option<String>,
        query_store: Option<String>,
        policy: Option<PathBuf>,
        key_file: Option<PathBuf>,
        cache_dir: Option<PathBuf>,
        now: Option<i64>,
    ) -> PyResult<Self> {
        py.detach(move || {
            let data_dir = data_dir.unwrap_or_else(kenning::home::default_data_dir);
            let mut builder = Service::builder(data_dir);
            if let Some(url) = store {
                builder = builder.postgres(url);
                if let Some(login) = query_store {
                    builder = builder.query_login(login);
                }
            } else {
                builder = builder.store_key(StoreKey::from_config(key_file.as_deref())?);
            }
            if let Some(path) = policy {
                builder = builder.policy(PolicySource::File(path));
            }
            let cache_dir = cache_dir.or_else(|| {
                std::env::var_os("KENNING_CACHE_DIR")
                    .filter(|dir| !dir.is_empty())
                    .map(PathBuf::from)
            });
            if let Some(dir) = cache_dir {
                builder = builder.cache_dir(dir);
            }
            if let Some(now) = now {
                builder = builder.fixed_now(now);
            }
            builder.build()
        })
        .map(|service| PyService {
            inner: Arc::new(service),
        })
        .map_err(native)
    }

    /// Runs one tool (`remember`, `recall`, `context`, `query`, ...) for `subject` as `author`,
    /// from its JSON arguments; its answer, as Python values (dicts, lists, strings, numbers).
    fn call<'py>(
        &self,
        py: Python<'py>,
        subject: String,
        author: String,
        tool: String,
        args_json: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let service = Arc::clone(&self.inner);
        let answer = py
            .detach(move || {
                service.call(
                    &parse_subject(&subject)?,
                    parse_author(&author)?,
                    &tool,
                    &args_json,
                )
            })
            .map_err(native)?;
        python_value(py, &answer)
    }

    /// Counts a successful user turn of `session` (and starts a review in the background when
    /// one is due); the count as JSON.
    #[pyo3(signature = (subject, author, session, transcript=None))]
    fn turn(
        &self,
        py: Python<'_>,
        subject: String,
        author: String,
        session: String,
        transcript: Option<String>,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let args = kenning::api::TurnArgs::parse(
                json!({"session": session, "transcript": transcript}),
            )?;
            let counted = service.record_turn_and_review(
                &parse_subject(&subject)?,
                parse_author(&author)?,
                args,
            )?;
            to_json(&counted)
        })
        .map_err(native)
    }

    /// The memories awaiting review, as JSON (a human's view).
    fn review_list(&self, py: Python<'_>, subject: String, reader: String) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let memories =
                service.review_list(&parse_subject(&subject)?, parse_author(&reader)?)?;
            to_json(&memories)
        })
        .map_err(native)
    }

    /// Accepts (or rejects) memory `id`, awaiting review, on behalf of `reviewer`.
    fn review(
        &self,
        py: Python<'_>,
        subject: String,
        id: u64,
        accept: bool,
        reviewer: String,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        let decision = if accept {
            Decision::Accept
        } else {
            Decision::Reject
        };
        py.detach(move || {
            let reviewed = service.review(&parse_subject(&subject)?, id, decision, &reviewer)?;
            to_json(&reviewed)
        })
        .map_err(native)
    }

    /// The settings in force, globally or in `thread`, as JSON.
    #[pyo3(signature = (subject, thread=None))]
    fn settings(
        &self,
        py: Python<'_>,
        subject: String,
        thread: Option<String>,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let settings = service.settings(&parse_subject(&subject)?, thread.as_deref())?;
            to_json(&settings)
        })
        .map_err(native)
    }

    /// Changes one setting (a human's change, audited), globally or in `thread`.
    #[pyo3(signature = (subject, key, value, thread=None))]
    fn set_setting(
        &self,
        py: Python<'_>,
        subject: String,
        key: String,
        value: String,
        thread: Option<String>,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let settings =
                service.set_setting(&parse_subject(&subject)?, thread.as_deref(), &key, &value)?;
            to_json(&settings)
        })
        .map_err(native)
    }

    /// Every memory of the subject as `kenning-memory/1` JSON lines (or Markdown).
    #[pyo3(signature = (subject, markdown=false))]
    fn export(&self, py: Python<'_>, subject: String, markdown: bool) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        let format = if markdown {
            ExportFormat::Markdown
        } else {
            ExportFormat::Jsonl
        };
        py.detach(move || Ok(service.export(&parse_subject(&subject)?, format)?.text))
            .map_err(native)
    }

    /// Imports a `kenning-memory/1` text into the subject, all or nothing; the report as JSON.
    #[pyo3(signature = (subject, text, importer, dry_run=false, source_name="<python>".to_owned()))]
    fn import_(
        &self,
        py: Python<'_>,
        subject: String,
        text: String,
        importer: String,
        dry_run: bool,
        source_name: String,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let options = ImportOptions {
                importer: parse_author(&importer)?,
                dry_run,
                source_name,
            };
            let report = service.import(
                &parse_subject(&subject)?,
                &text,
                &options,
                &mut |_, _, _| {},
            )?;
            to_json(&report)
        })
        .map_err(native)
    }

    /// Scans `text` as the policy would before storing it as `target` (`global`, `local`,
    /// `user`, `memory`, `daily`) by `author`; the verdict as JSON.
    fn scan(
        &self,
        py: Python<'_>,
        text: String,
        target: String,
        author: String,
    ) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let target: Target =
                serde_json::from_value(Value::String(target.clone())).map_err(|_| {
                    invalid(
                        "scan",
                        "target",
                        format!("expected global, local, user, memory or daily, got {target:?}"),
                    )
                })?;
            let author = parse_author(&author)?;
            let mut results = service.scan(&[ScanItem {
                text,
                target,
                author,
            }])?;
            to_json(&results.remove(0))
        })
        .map_err(native)
    }

    /// Checks `record_json` against the policy's closed schema `schema` (a tool that carries a
    /// memory, `import-record` or `extraction`), writing nothing: `{"valid": true, "canonical":
    /// ...}` or `{"valid": false, "errors": [...]}`.
    fn validate(&self, py: Python<'_>, schema: String, record_json: String) -> PyResult<String> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            if !kenning::api::policy_schemas().contains(&schema.as_str()) {
                return Err(invalid(
                    "validate",
                    "schema",
                    format!(
                        "unknown schema {schema:?}; schemas: {}",
                        kenning::api::policy_schemas().join(", ")
                    ),
                ));
            }
            let answer = match service.policy().validate(&schema, &record_json)? {
                Ok(call) => json!({
                    "valid": true,
                    "canonical": serde_json::from_str::<Value>(&call.args_json).unwrap_or(Value::Null),
                }),
                Err(errors) => json!({"valid": false, "errors": errors}),
            };
            Ok(answer.to_string())
        })
        .map_err(native)
    }

    /// The views `query` reads, their columns, the functions it may call and its budgets, as
    /// JSON.
    fn query_schema(&self) -> PyResult<String> {
        to_json(&self.inner.query_schema()).map_err(native)
    }

    /// The time of each of `iterations` runs of one tool call made from Rust, in microseconds,
    /// measured inside Rust: the baseline `python/bench.py` compares the same call made from
    /// Python with.
    fn time_call_in_rust(
        &self,
        py: Python<'_>,
        subject: String,
        author: String,
        tool: String,
        args_json: String,
        iterations: u32,
    ) -> PyResult<Vec<f64>> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            let subject = parse_subject(&subject)?;
            let author = parse_author(&author)?;
            let mut times = Vec::with_capacity(iterations as usize);
            for _ in 0..iterations {
                let started = std::time::Instant::now();
                std::hint::black_box(service.call(&subject, author, &tool, &args_json)?);
                times.push(started.elapsed().as_secs_f64() * 1e6);
            }
            Ok(times)
        })
        .map_err(native)
    }

    /// The subjects that have a knowledge base, by their specs.
    fn subjects(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let service = Arc::clone(&self.inner);
        py.detach(move || {
            Ok(service
                .subjects()?
                .iter()
                .map(|subject| subject.spec())
                .collect())
        })
        .map_err(native)
    }
}

/// A JSON value as the Python value `json.loads` would make of it, made directly (no text in
/// between: a tool's answer is built once, not written and parsed again).
fn python_value<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
        Value::Number(number) => match (number.as_i64(), number.as_u64()) {
            (Some(signed), _) => signed.into_pyobject(py)?.into_any(),
            (None, Some(unsigned)) => unsigned.into_pyobject(py)?.into_any(),
            (None, None) => number
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any(),
        },
        Value::String(text) => PyString::new(py, text).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(python_value(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, python_value(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn parse_subject(spec: &str) -> kenning::Result<Subject> {
    Subject::parse(spec)
}

fn parse_author(name: &str) -> kenning::Result<Author> {
    Author::parse(name).ok_or_else(|| {
        invalid(
            "call",
            "author",
            format!("expected human, agent, triage, external or peer, got {name:?}"),
        )
    })
}

fn invalid(tool: &str, path: &str, message: String) -> KenningError {
    KenningError::Invalid {
        tool: tool.to_owned(),
        errors: vec![kenning_contract::types::FieldError::new(path, message)],
    }
}

fn to_json(value: &impl serde::Serialize) -> kenning::Result<String> {
    serde_json::to_string(value)
        .map_err(|e| KenningError::Usage(format!("an answer did not serialise: {e}")))
}

/// A service error as the one exception the package translates: its kind, its message, and
/// the fields at fault (JSON).
fn native(error: KenningError) -> PyErr {
    use KenningError as E;
    let kind = match &error {
        E::Invalid { .. } => "invalid",
        E::Blocked { .. } => "blocked",
        E::TooLarge { .. } => "too_large",
        E::BadSubject { .. } => "bad_subject",
        E::UnknownSubject { .. } | E::NoSuchMemory { .. } | E::NoMatch(_) => "not_found",
        E::Ambiguous(_)
        | E::Conflict(_)
        | E::StalePlan { .. }
        | E::TooSoon { .. }
        | E::TooFewTurns { .. } => "conflict",
        E::LimitReached { .. } => "limit_reached",
        E::Forbidden(_) => "not_allowed",
        E::Query { .. } => "query",
        E::Busy { .. } => "busy",
        E::Unavailable { .. } => "unavailable",
        E::StorageFull { .. } => "storage_full",
        E::ReadOnly { .. } | E::ReadOnlyFolder { .. } => "read_only",
        E::Key { .. } => "key",
        E::BadImport { .. } | E::WrongSubject { .. } => "bad_import",
        E::Usage(_) | E::BadConfig { .. } => "usage",
        E::Model(_) => "model",
        E::Policy(_) => "policy",
        E::NewerStore { .. }
        | E::NotAStore { .. }
        | E::Store { .. }
        | E::Database { .. }
        | E::Io { .. }
        | E::Output(_) => "store",
    };
    let errors = match &error {
        E::Invalid { errors, .. } => serde_json::to_string(errors).unwrap_or_else(|_| "[]".into()),
        other => match other.field() {
            Some(path) => json!([{"path": path, "message": error.to_string()}]).to_string(),
            None => "[]".to_owned(),
        },
    };
    NativeError::new_err((kind, error.to_string(), errors))
}

/// The module `kenning._kenning`.
#[pymodule]
fn _kenning(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyService>()?;
    module.add("NativeError", module.py().get_type::<NativeError>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
