//! Read-only SQL over one subject's knowledge base (the `query` operation): the contract.
//!
//! A caller writes one `SELECT` over documented views ([`VIEWS`]); the tables behind them are
//! not reachable. The views hold only what the caller may read ([`crate::provenance::may_read`]:
//! no forgotten or rejected text, nothing awaiting review for anyone but a human), and the same
//! columns on SQLite and PostgreSQL. Read-only is a property of how the statement runs, not of
//! parsing it:
//!
//! - on SQLite, a read-only connection of its own whose authorizer allows reading the views,
//!   the [`SAFE_FUNCTIONS`] and nothing else (no `ATTACH`, no pragma, no table behind a view),
//!   with `query_only` set, a step budget ([`STEP_BUDGET`]) and a deadline ([`TIME_BUDGET`]);
//! - on PostgreSQL, a read-only transaction on a login of its own (`--query-store`) that holds
//!   no privilege on any table: its views read the subject's rows through a grant made for this
//!   one query, and a statement timeout bounds it.
//!
//! Every answer holds at most [`MAX_ROWS`] rows and fits the service's result bound (about
//! 4,000 tokens); what was cut is said.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version of the views' contract: it changes when a view or column is renamed or removed.
pub const SCHEMA_VERSION: u32 = 1;

/// The longest SQL text accepted, in bytes.
pub const MAX_SQL_BYTES: usize = 16 * 1024;

/// Rows an answer holds unless `max_rows` says otherwise.
pub const DEFAULT_ROWS: u32 = 100;

/// Most rows an answer holds.
pub const MAX_ROWS: u32 = 1000;

/// The longest a query may run.
pub const TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

/// Most SQLite virtual-machine steps a query may take (a few hundred milliseconds of work).
pub const STEP_BUDGET: u64 = 50_000_000;

/// The longest text or blob a value computed by a query may be, in bytes.
pub const MAX_VALUE_BYTES: usize = 1_000_000;

/// The functions a query may call (besides those the views use themselves): aggregates,
/// arithmetic, text, dates and JSON. Nothing that reads files, loads code, sleeps or changes a
/// setting.
pub const SAFE_FUNCTIONS: &[&str] = &[
    // aggregates
    "count",
    "sum",
    "total",
    "avg",
    "min",
    "max",
    "group_concat",
    "string_agg",
    // scalars
    "abs",
    "coalesce",
    "ifnull",
    "iif",
    "nullif",
    "length",
    "lower",
    "upper",
    "trim",
    "ltrim",
    "rtrim",
    "substr",
    "substring",
    "instr",
    "replace",
    "round",
    "hex",
    "printf",
    "format",
    "typeof",
    "like",
    "glob",
    "sign",
    // dates (times are seconds since the epoch)
    "date",
    "time",
    "datetime",
    "strftime",
    "julianday",
    "unixepoch",
    // JSON (the `categories` and `metadata` columns)
    "json",
    "json_extract",
    "json_array_length",
    "json_type",
    "json_valid",
    "json_each",
    "json_group_array",
    "json_group_object",
    "json_object",
    "json_array",
    // window functions
    "row_number",
    "rank",
    "dense_rank",
    "lag",
    "lead",
    "first_value",
    "last_value",
];

/// A column of a view: its name, SQL type and meaning.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct ColumnSpec {
    /// The column's name.
    pub name: &'static str,
    /// `integer`, `real` or `text`.
    #[serde(rename = "type")]
    pub sql_type: &'static str,
    /// What it holds.
    pub description: &'static str,
}

/// A view a query may read.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct ViewSpec {
    /// The view's name.
    pub name: &'static str,
    /// What a row is.
    pub description: &'static str,
    /// Its columns, in order.
    pub columns: &'static [ColumnSpec],
}

const fn column(
    name: &'static str,
    sql_type: &'static str,
    description: &'static str,
) -> ColumnSpec {
    ColumnSpec {
        name,
        sql_type,
        description,
    }
}

/// Every view, in the order the schema lists them. Each backend builds them with exactly these
/// columns (a test holds both to this list).
pub const VIEWS: &[ViewSpec] = &[
    ViewSpec {
        name: "memories",
        description: "One row per memory the caller may read: accepted ones, ones since replaced (status superseded), and for a human also those awaiting review. Forgotten and rejected memories are not here.",
        columns: &[
            column(
                "id",
                "integer",
                "The memory's id (as recall, context and get_memory give it).",
            ),
            column(
                "type",
                "text",
                "fact, preference, context or conversation_summary.",
            ),
            column(
                "scope",
                "text",
                "local (about a place of the subject) or global.",
            ),
            column(
                "target",
                "text",
                "For a profile entry: user, memory or daily; else NULL.",
            ),
            column(
                "day",
                "text",
                "For a daily note: its date (YYYY-MM-DD); else NULL.",
            ),
            column("text", "text", "The memory's text."),
            column(
                "tags",
                "text",
                "Its tags, separated by spaces (see the tags view).",
            ),
            column(
                "categories",
                "text",
                "Its categories, a JSON array (see the categories view).",
            ),
            column("confidence", "real", "How sure its author was, 0 to 1."),
            column("author", "text", "human, agent, triage, external or peer."),
            column(
                "badge",
                "text",
                "native, foreign (accepted from a peer), pending or inbound_pending (awaiting review).",
            ),
            column("status", "text", "active or superseded."),
            column("thread", "text", "The thread it was written in, or NULL."),
            column(
                "image_base",
                "integer",
                "The image base its anchors' offsets are relative to.",
            ),
            column(
                "supersedes",
                "integer",
                "The id of the memory it replaced, or NULL.",
            ),
            column(
                "created_at",
                "integer",
                "When it was written, in seconds since the epoch.",
            ),
            column(
                "updated_at",
                "integer",
                "When it last changed, in seconds since the epoch.",
            ),
            column(
                "recall_count",
                "integer",
                "How many turns selected it for the prompt.",
            ),
            column(
                "last_recalled",
                "integer",
                "When a turn last selected it, in seconds since the epoch, or NULL.",
            ),
        ],
    },
    ViewSpec {
        name: "anchors",
        description: "One row per anchor of a memory in the memories view: where in the subject the memory is about.",
        columns: &[
            column("memory_id", "integer", "The memory (memories.id)."),
            column("kind", "text", "function, range, address, near or string."),
            column(
                "start_offset",
                "integer",
                "For function, range, address and near: the offset (from the memory's image_base) it starts at or names; else NULL.",
            ),
            column(
                "end_offset",
                "integer",
                "For function and range: one past the last offset; else NULL.",
            ),
            column(
                "radius",
                "integer",
                "For near: how far around start_offset it reaches; else NULL.",
            ),
            column(
                "name",
                "text",
                "For function: the function's name, if known; else NULL.",
            ),
            column("value", "text", "For string: the string; else NULL."),
        ],
    },
    ViewSpec {
        name: "tags",
        description: "One row per tag of a memory in the memories view.",
        columns: &[
            column("memory_id", "integer", "The memory (memories.id)."),
            column("tag", "text", "The tag, as written (without #)."),
        ],
    },
    ViewSpec {
        name: "categories",
        description: "One row per category of a memory in the memories view.",
        columns: &[
            column("memory_id", "integer", "The memory (memories.id)."),
            column("category", "text", "The category."),
        ],
    },
    ViewSpec {
        name: "events",
        description: "The audit trail, oldest first: one row per change, with the hashes of the text before and after (never the text).",
        columns: &[
            column("id", "integer", "The event's number."),
            column("at", "integer", "When, in seconds since the epoch."),
            column(
                "actor",
                "text",
                "Who: an author (human, agent, triage, external, peer) or a job.",
            ),
            column(
                "action",
                "text",
                "What: remember, revise, forget, accept, reject, import, ...",
            ),
            column("memory_id", "integer", "The memory it changed, or NULL."),
            column(
                "before_hash",
                "text",
                "The hash of the text before, or NULL.",
            ),
            column("after_hash", "text", "The hash of the text after, or NULL."),
        ],
    },
    ViewSpec {
        name: "settings",
        description: "The settings stored for the subject and its threads.",
        columns: &[
            column("thread", "text", "The thread, or '' for the subject's own."),
            column("key", "text", "The setting."),
            column("value", "text", "Its value."),
        ],
    },
    ViewSpec {
        name: "clock",
        description: "One row: the service's time now, so that \"the last 7 days\" reads the same on every backend.",
        columns: &[column("now", "integer", "Now, in seconds since the epoch.")],
    },
];

/// The view named `name`.
pub fn view(name: &str) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|view| view.name == name)
}

/// The arguments of `query`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryArgs {
    /// One read-only SQL `SELECT` (or `WITH ... SELECT`) over the views `query_schema` lists,
    /// at most 16,384 bytes. Times are seconds since the epoch (`clock.now` is now).
    pub sql: String,
    /// Most rows to return, 1 to 1,000 (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub max_rows: Option<u32>,
}

/// The arguments of `query_schema`: none.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuerySchemaArgs {}

/// Why an answer holds fewer rows than the query gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Truncation {
    /// It reached `max_rows`.
    Rows,
    /// The rows fill the answer's size bound (about 4,000 tokens).
    Size,
}

/// The rows a query gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QueryResult {
    /// The columns, in order.
    pub columns: Vec<String>,
    /// The rows, each a list of values in the columns' order (integers, reals, texts, nulls;
    /// a blob as hexadecimal text).
    pub rows: Vec<Vec<Value>>,
    /// How many rows this answer holds.
    pub row_count: usize,
    /// Set when the query gave more rows than this answer holds, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncation>,
    /// The version of the views the query ran over ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
}

/// What a query may read and how much it may do: the answer of `query_schema`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct QuerySchema {
    /// The version of the views ([`SCHEMA_VERSION`]).
    pub version: u32,
    /// The views, with their columns.
    pub views: Vec<ViewSpec>,
    /// The functions a query may call on every backend.
    pub functions: Vec<&'static str>,
    /// The budgets every query runs within.
    pub limits: QueryLimits,
}

/// The budgets of a query.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct QueryLimits {
    /// The longest SQL text, in bytes.
    pub max_sql_bytes: usize,
    /// Most rows an answer holds.
    pub max_rows: u32,
    /// Rows an answer holds by default.
    pub default_rows: u32,
    /// The longest a query runs, in milliseconds.
    pub time_ms: u64,
    /// Most SQLite steps a query takes.
    pub steps: u64,
    /// The largest answer, in bytes of JSON (about 4,000 tokens).
    pub max_result_bytes: usize,
}

impl QuerySchema {
    /// The schema, with the service's result bound.
    pub fn new(max_result_bytes: usize) -> QuerySchema {
        QuerySchema {
            version: SCHEMA_VERSION,
            views: VIEWS.to_vec(),
            functions: SAFE_FUNCTIONS.to_vec(),
            limits: QueryLimits {
                max_sql_bytes: MAX_SQL_BYTES,
                max_rows: MAX_ROWS,
                default_rows: DEFAULT_ROWS,
                time_ms: TIME_BUDGET.as_millis() as u64,
                steps: STEP_BUDGET,
                max_result_bytes,
            },
        }
    }
}

/// Why a query was refused or stopped; nothing was read past the point it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryProblem {
    /// The text is not one read-only statement over the views (a write, a pragma, `ATTACH`, a
    /// table behind the views, a function not allowed, two statements, a syntax error).
    Refused(String),
    /// It ran past its time budget.
    OutOfTime,
    /// It ran past its step budget.
    OutOfSteps,
    /// It computed a value larger than [`MAX_VALUE_BYTES`].
    TooBig,
    /// This store cannot run queries as configured (on PostgreSQL: no query login was given,
    /// or the one given can reach the tables); the message says what to set up.
    Unavailable(String),
}

impl QueryProblem {
    /// Whether the statement ran and was stopped at a budget (rather than refused before it
    /// ran, or not run at all).
    pub fn is_budget(&self) -> bool {
        matches!(
            self,
            QueryProblem::OutOfTime | QueryProblem::OutOfSteps | QueryProblem::TooBig
        )
    }
}

impl std::fmt::Display for QueryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryProblem::Refused(why) | QueryProblem::Unavailable(why) => write!(f, "{why}"),
            QueryProblem::OutOfTime => write!(
                f,
                "the query ran past its time budget of {} ms and was stopped; narrow it (a WHERE, a LIMIT)",
                TIME_BUDGET.as_millis()
            ),
            QueryProblem::OutOfSteps => write!(
                f,
                "the query ran past its budget of {STEP_BUDGET} steps and was stopped; narrow it (a WHERE, a LIMIT)"
            ),
            QueryProblem::TooBig => write!(
                f,
                "the query computed a value longer than {MAX_VALUE_BYTES} bytes and was stopped"
            ),
        }
    }
}

/// What the backends run: the statement and whose reading it is.
#[derive(Debug, Clone)]
pub(crate) struct QueryPlan<'a> {
    /// The SQL, checked for size.
    pub sql: &'a str,
    /// Whether the reader is a human (who also reads what awaits review).
    pub human: bool,
    /// The service's time now, for the clock view.
    pub now: i64,
    /// Rows to keep at most; one more is read to know whether there were more.
    pub max_rows: u32,
}

/// What a backend read: the columns and up to `max_rows + 1` rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryRows {
    /// The columns, in order.
    pub columns: Vec<String>,
    /// The rows read.
    pub rows: Vec<Vec<Value>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_and_column_is_named_once() {
        let mut views: Vec<&str> = VIEWS.iter().map(|v| v.name).collect();
        views.sort_unstable();
        views.dedup();
        assert_eq!(views.len(), VIEWS.len());
        for view in VIEWS {
            let mut columns: Vec<&str> = view.columns.iter().map(|c| c.name).collect();
            columns.sort_unstable();
            columns.dedup();
            assert_eq!(columns.len(), view.columns.len(), "{}", view.name);
            for column in view.columns {
                assert!(
                    ["integer", "real", "text"].contains(&column.sql_type),
                    "{}.{}",
                    view.name,
                    column.name
                );
            }
        }
    }

    #[test]
    fn no_function_that_reaches_outside_the_rows_is_allowed() {
        for dangerous in [
            "load_extension",
            "readfile",
            "writefile",
            "randomblob",
            "zeroblob",
            "sqlite_offset",
            "fts5",
            "set_config",
            "pg_sleep",
            "query_to_xml",
        ] {
            assert!(!SAFE_FUNCTIONS.contains(&dangerous), "{dangerous}");
        }
    }
}
