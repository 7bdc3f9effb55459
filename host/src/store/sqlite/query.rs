//! `query` on a SQLite knowledge base: one read-only statement over the views of
//! [`crate::query`], on a connection of its own.
//!
//! Read-only by construction: the connection is opened read-only, `query_only` is set, and its
//! authorizer (consulted while SQLite compiles the statement) allows a `SELECT`, reads made by
//! the views' own definitions, and calls of [`SAFE_FUNCTIONS`]; everything else (a table behind
//! the views, `sqlite_schema`, a pragma, `ATTACH`, a write, a transaction) is denied before
//! anything runs. The views are `TEMP` views made on this connection only, before the
//! authorizer is installed. A progress handler stops the statement at its step budget or its
//! deadline, and SQLite's length limit stops a value grown past [`MAX_VALUE_BYTES`].

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use serde_json::Value;

use crate::encryption::{self, StoreKey};
use crate::error::{KenningError, Result};
use crate::hex;
use crate::provenance::readable_sql;
use crate::query::{
    MAX_SQL_BYTES, MAX_VALUE_BYTES, QueryPlan, QueryProblem, QueryRows, SAFE_FUNCTIONS,
    STEP_BUDGET, TIME_BUDGET, VIEWS,
};
use crate::store::query_views::{ANCHOR_COLUMNS, EVENT_COLUMNS, MEMORY_COLUMNS, SETTING_COLUMNS};

/// Virtual-machine steps between two looks at the budgets.
const STEPS_PER_CHECK: u64 = 1000;

/// Runs `plan` over the knowledge base at `path` (encrypted with `key`, if any).
pub(crate) fn run(path: &Path, key: Option<&StoreKey>, plan: &QueryPlan<'_>) -> Result<QueryRows> {
    let store_err = |source| KenningError::sqlite(path.to_owned(), source);
    let mut conn = open_for_reading(path, key)?;
    conn.execute_batch(&views_sql(plan)).map_err(store_err)?;
    conn.pragma_update(None, "query_only", true)
        .map_err(store_err)?;
    for (limit, value) in [
        (Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES as i32),
        (Limit::SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES as i32 + 1),
        (Limit::SQLITE_LIMIT_ATTACHED, 0),
    ] {
        conn.set_limit(limit, value).map_err(store_err)?;
    }

    let denied: Arc<Mutex<Option<String>>> = Arc::default();
    let noted = Arc::clone(&denied);
    conn.authorizer(Some(move |context: AuthContext<'_>| {
        match authorize(&context) {
            Ok(()) => Authorization::Allow,
            Err(why) => {
                noted
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(why);
                Authorization::Deny
            }
        }
    }))
    .map_err(store_err)?;
    let stopped: Arc<Mutex<Option<QueryProblem>>> = Arc::default();
    let stop = Arc::clone(&stopped);
    let deadline = Instant::now() + TIME_BUDGET;
    let mut steps = 0u64;
    conn.progress_handler(
        STEPS_PER_CHECK as i32,
        Some(move || {
            steps += STEPS_PER_CHECK;
            let problem = if steps > STEP_BUDGET {
                QueryProblem::OutOfSteps
            } else if Instant::now() > deadline {
                QueryProblem::OutOfTime
            } else {
                return false;
            };
            *stop.lock().unwrap_or_else(PoisonError::into_inner) = Some(problem);
            true
        }),
    )
    .map_err(store_err)?;

    let refused = |problem: QueryProblem| KenningError::Query { problem };
    let explain = |error: rusqlite::Error| -> KenningError {
        if let Some(problem) = stopped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            return refused(problem);
        }
        // A denial is why the statement failed to compile, whatever SQLite's own message.
        if let Some(why) = denied.lock().unwrap_or_else(PoisonError::into_inner).take() {
            return refused(QueryProblem::Refused(why));
        }
        match error.sqlite_error_code() {
            Some(ErrorCode::TooBig) => refused(QueryProblem::TooBig),
            // The store itself failed (busy, unreadable, damaged): not the statement's fault.
            Some(
                ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::CannotOpen
                | ErrorCode::SystemIoFailure
                | ErrorCode::DatabaseCorrupt
                | ErrorCode::NotADatabase
                | ErrorCode::OutOfMemory
                | ErrorCode::DiskFull,
            ) => store_err(error),
            _ => refused(QueryProblem::Refused(match error {
                rusqlite::Error::MultipleStatement => {
                    "the text holds more than one statement; send one SELECT".into()
                }
                rusqlite::Error::SqliteFailure(_, Some(message)) => {
                    format!("the SQL is not valid: {message}")
                }
                rusqlite::Error::SqlInputError { msg, .. } => {
                    format!("the SQL is not valid: {msg}")
                }
                other => format!("the SQL is not valid: {other}"),
            })),
        }
    };

    let mut statement = conn.prepare(plan.sql).map_err(explain)?;
    if !statement.readonly() || statement.column_count() == 0 {
        return Err(refused(QueryProblem::Refused(
            "only a SELECT that returns rows may run".into(),
        )));
    }
    let columns: Vec<String> = statement.column_names().map(str::to_owned).collect();
    let mut rows = statement.raw_query();
    let mut read = Vec::new();
    while read.len() <= plan.max_rows as usize {
        let Some(row) = rows.next().map_err(explain)? else {
            break;
        };
        let values = (0..columns.len())
            .map(|i| row.get_ref(i).map(json_value))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(explain)?;
        read.push(values);
    }
    Ok(QueryRows {
        columns,
        rows: read,
    })
}

/// A read-only connection of the query's own. Where the folder cannot be written (no
/// shared-memory file for the write-ahead log), the file is read immutable.
fn open_for_reading(path: &Path, key: Option<&StoreKey>) -> Result<Connection> {
    let opened = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|source| KenningError::sqlite(path.to_owned(), source))
    .and_then(|conn| {
        encryption::apply(&conn, path, key)?;
        conn.busy_timeout(super::connection::BUSY_TIMEOUT)
            .map_err(|source| KenningError::sqlite(path.to_owned(), source))?;
        // Reading the schema proves the file opens (a read-only folder fails here).
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
            .map_err(|source| KenningError::sqlite(path.to_owned(), source))?;
        Ok(conn)
    });
    match opened {
        Err(KenningError::Store { source, .. })
            if matches!(
                source.sqlite_error_code(),
                Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied)
            ) =>
        {
            encryption::open_immutable(path, key)
        }
        other => other,
    }
}

/// The views of [`VIEWS`] as `TEMP` views of this connection, for this reader. Each reads at
/// least one column of its table in its `WHERE`, in a condition SQLite cannot drop as always
/// true (`e.action = e.action`, not `IS NOT NULL` on a `NOT NULL` column): where a statement
/// uses no column of a table (`SELECT count(*) FROM events`), SQLite reports the table's read
/// as the statement's own, not the view's, and the authorizer would refuse it.
fn views_sql(plan: &QueryPlan<'_>) -> String {
    let readable = readable_sql(if plan.human { "TRUE" } else { "FALSE" });
    let now = plan.now;
    format!(
        "CREATE TEMP VIEW memories AS SELECT {MEMORY_COLUMNS} FROM main.memories m WHERE {readable};
         CREATE TEMP VIEW anchors AS SELECT {ANCHOR_COLUMNS} FROM main.anchors a
             WHERE a.memory_id IN (SELECT id FROM temp.memories);
         CREATE TEMP VIEW tags AS SELECT m.id AS memory_id, j.value AS tag
             FROM temp.memories m, json_each('[\"' || replace(m.tags, ' ', '\",\"') || '\"]') j
             WHERE m.tags <> '';
         CREATE TEMP VIEW categories AS SELECT m.id AS memory_id, j.value AS category
             FROM temp.memories m, json_each(m.categories) j;
         CREATE TEMP VIEW events AS SELECT {EVENT_COLUMNS} FROM main.events e
             WHERE e.action = e.action;
         CREATE TEMP VIEW settings AS SELECT {SETTING_COLUMNS} FROM main.settings s
             WHERE s.key = s.key;
         CREATE TEMP VIEW clock AS SELECT {now} AS now;"
    )
}

/// Whether the statement being compiled may do `context`'s action, and if not, why.
fn authorize(context: &AuthContext<'_>) -> std::result::Result<(), String> {
    let views = || {
        VIEWS
            .iter()
            .map(|view| view.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // What the views' own definitions read and call is theirs, not the caller's.
    if context
        .accessor
        .is_some_and(|accessor| VIEWS.iter().any(|view| view.name == accessor))
    {
        return Ok(());
    }
    match context.action {
        AuthAction::Select | AuthAction::Recursive => Ok(()),
        AuthAction::Function { function_name } => {
            if SAFE_FUNCTIONS
                .iter()
                .any(|safe| safe.eq_ignore_ascii_case(function_name))
            {
                Ok(())
            } else {
                Err(format!(
                    "the function {function_name}() is not allowed in a query (see query_schema for those that are)"
                ))
            }
        }
        // Reading a view's own columns (SQLite reports them as reads of the view), a common
        // table expression's (which belongs to no database), or what `json_each` and
        // `json_tree` make of their argument.
        AuthAction::Read { table_name, .. }
            if (context.database_name == Some("temp")
                && VIEWS.iter().any(|view| view.name == table_name))
                || context.database_name.is_none()
                || table_name == "json_each"
                || table_name == "json_tree" =>
        {
            Ok(())
        }
        AuthAction::Read { table_name, .. } => Err(format!(
            "{table_name} is not a view a query may read; the views are {}",
            views()
        )),
        AuthAction::Pragma { pragma_name, .. } => Err(format!(
            "PRAGMA {pragma_name} is not allowed: a query is one SELECT over the views"
        )),
        AuthAction::Attach { .. } | AuthAction::Detach { .. } => {
            Err("ATTACH and DETACH are not allowed: a query reads one knowledge base".into())
        }
        other => Err(format!(
            "only a SELECT may run (this statement would {})",
            describe(&other)
        )),
    }
}

/// What a denied action would have done, in a few words.
fn describe(action: &AuthAction<'_>) -> &'static str {
    match action {
        // Making or dropping a table writes the schema's own table.
        AuthAction::Insert { table_name }
        | AuthAction::Update { table_name, .. }
        | AuthAction::Delete { table_name }
            if table_name.starts_with("sqlite_") =>
        {
            "change the schema"
        }
        AuthAction::Insert { .. } => "insert rows",
        AuthAction::Update { .. } => "update rows",
        AuthAction::Delete { .. } => "delete rows",
        AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => {
            "begin or end a transaction"
        }
        AuthAction::Analyze { .. } | AuthAction::Reindex { .. } => "rebuild statistics or indexes",
        _ => "change the schema",
    }
}

/// A SQLite value as JSON: a blob as hexadecimal text, a real that is not finite as null.
fn json_value(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::from(n),
        ValueRef::Real(x) => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        ValueRef::Text(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        ValueRef::Blob(bytes) => Value::String(hex::lower(bytes)),
    }
}
