//! `query` on PostgreSQL: one read-only statement over the views of [`crate::query`], on a
//! login of its own (`--query-store`).
//!
//! Read-only by construction:
//!
//! - the query login holds no privilege on any table (checked before its first query: a login
//!   that can read or write a table of the store is refused), so it reaches rows only through
//!   the views of schema `kenning_query`, which the service's own login owns;
//! - those views (security barriers, so no condition of the caller's runs before theirs) show
//!   only the subject and the rows named by a grant: a row of `query_grants` the service makes
//!   for one query, with a random token the reading session sets as `kenning.query_grant`
//!   (bound as a parameter, so it is in no statement's text) and that no other session can
//!   read; the grant is removed when the query ends and expires by itself within a minute;
//! - the statement runs in a read-only transaction with a statement timeout, through the
//!   extended protocol (one statement, never two), and the session is reset afterwards
//!   (`DISCARD ALL`: settings, advisory locks, prepared statements).

use std::sync::OnceLock;

use postgres::error::SqlState;
use serde_json::Value;

use super::database_error;
use crate::error::{KenningError, Result};
use crate::provenance::readable_sql;
use crate::query::{QueryPlan, QueryProblem, QueryRows, TIME_BUDGET, VIEWS};
use crate::store::query_views::{ANCHOR_COLUMNS, EVENT_COLUMNS, MEMORY_COLUMNS, SETTING_COLUMNS};

/// Connections the query login keeps open at most.
const POOL_SIZE: u32 = 4;

/// How long a grant stands if the service never removes it (it crashed mid-query).
const GRANT_SECONDS: i64 = 60;

/// The tables of the store a query login must not reach.
const STORE_TABLES: &[&str] = &[
    "subjects",
    "memories",
    "anchors",
    "events",
    "settings",
    "meta",
    "query_grants",
];

type Pool = r2d2::Pool<super::pool::Manager>;

/// The query login's connections, and whether it was found to hold no table privilege.
pub(crate) struct QueryLogin {
    /// `None` only while it is dropped.
    pool: Option<Pool>,
    location: String,
    /// Set once the login was found to hold no table privilege (until then, every query
    /// checks).
    checked: OnceLock<()>,
}

impl QueryLogin {
    /// A pool for the login `url` names (connecting on first use).
    pub(crate) fn new(url: &str) -> Result<QueryLogin> {
        let (config, tls) = super::tls::connect_config(url).map_err(|e| match e {
            KenningError::Usage(message) => {
                KenningError::Usage(message.replacen("--store", "--query-store", 1))
            }
            other => other,
        })?;
        let location = super::describe(&config);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            .connection_timeout(std::time::Duration::from_secs(10))
            .build_unchecked(super::pool::Manager::new(config, tls));
        Ok(QueryLogin {
            pool: Some(pool),
            location,
            checked: OnceLock::new(),
        })
    }
}

impl Drop for QueryLogin {
    fn drop(&mut self) {
        // As the store's own pool: closed on a thread of its own, never one driving async tasks.
        if let Some(pool) = self.pool.take() {
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

/// The views of [`VIEWS`] in schema `kenning_query`, for the service's login to (re)create
/// after migrating: each reads the rows of the grant in force in the reading session.
pub(crate) fn views_sql() -> String {
    let grant = "g.token = current_setting('kenning.query_grant', true) \
                 AND g.expires_at > extract(epoch FROM clock_timestamp())";
    let subject = format!("(SELECT g.subject_id FROM query_grants g WHERE {grant})");
    let readable = readable_sql("g.human");
    let views = format!(
        "CREATE OR REPLACE VIEW kenning_query.memories WITH (security_barrier) AS
             SELECT {MEMORY_COLUMNS} FROM memories m, query_grants g
             WHERE {grant} AND m.subject_id = g.subject_id AND {readable};
         CREATE OR REPLACE VIEW kenning_query.anchors WITH (security_barrier) AS
             SELECT {ANCHOR_COLUMNS} FROM anchors a JOIN kenning_query.memories v ON v.id = a.memory_id
             WHERE a.subject_id = {subject};
         CREATE OR REPLACE VIEW kenning_query.tags WITH (security_barrier) AS
             SELECT v.id AS memory_id, t.tag AS tag
             FROM kenning_query.memories v, unnest(string_to_array(v.tags, ' ')) AS t(tag)
             WHERE v.tags <> '';
         CREATE OR REPLACE VIEW kenning_query.categories WITH (security_barrier) AS
             SELECT v.id AS memory_id, c.category AS category
             FROM kenning_query.memories v, json_array_elements_text(v.categories::json) AS c(category);
         CREATE OR REPLACE VIEW kenning_query.events WITH (security_barrier) AS
             SELECT {EVENT_COLUMNS} FROM events e WHERE e.subject_id = {subject};
         CREATE OR REPLACE VIEW kenning_query.settings WITH (security_barrier) AS
             SELECT {SETTING_COLUMNS} FROM settings s WHERE s.subject_id = {subject};
         CREATE OR REPLACE VIEW kenning_query.clock WITH (security_barrier) AS
             SELECT g.now AS now FROM query_grants g WHERE {grant};"
    );
    let grants: String = VIEWS
        .iter()
        .map(|view| format!("GRANT SELECT ON kenning_query.{} TO PUBLIC;\n", view.name))
        .collect();
    format!("{views}\n{grants}")
}

/// Runs `plan` for subject `subject_id`: the grant on `main` (the service's login), the
/// statement on the query login.
pub(crate) fn run(
    login: Option<&QueryLogin>,
    main: &mut postgres::Client,
    main_location: &str,
    subject_id: i64,
    plan: &QueryPlan<'_>,
) -> Result<QueryRows> {
    let login = login.ok_or_else(|| KenningError::Query {
        problem: QueryProblem::Unavailable(
            "query on a PostgreSQL store needs a login of its own that holds no table privilege: \
             create one (CREATE ROLE kenning_query LOGIN PASSWORD '...') and name it with \
             --query-store or KENNING_QUERY_STORE (see docs/query.md)"
                .into(),
        ),
    })?;
    let main_error = |e| database_error(main_location, e);
    let login_error = |e| database_error(&login.location, e);
    let pool = login.pool.as_ref().ok_or_else(|| KenningError::Database {
        location: login.location.clone(),
        message: "the store is closing".into(),
    })?;
    let mut reader = pool.get().map_err(|e| KenningError::Database {
        location: login.location.clone(),
        message: format!("no connection: {e}"),
    })?;
    if login.checked.get().is_none() {
        holds_no_table(main, &mut reader, &login.location)?;
        let _ = login.checked.set(());
    }

    let token = random_token()?;
    main.execute(
        "WITH expired AS (DELETE FROM query_grants WHERE expires_at < extract(epoch FROM clock_timestamp()))
         INSERT INTO query_grants (token, subject_id, human, now, expires_at)
         VALUES ($1, $2, $3, $4, extract(epoch FROM clock_timestamp())::bigint + $5)",
        &[&token, &subject_id, &plan.human, &plan.now, &GRANT_SECONDS],
    )
    .map_err(main_error)?;
    let answer = run_granted(&mut reader, &token, plan);
    // The session is left as it was found, whatever the statement did to it.
    let reset = reader.batch_execute("DISCARD ALL");
    // DISCARD ALL deallocated every prepared statement: none may be run by name again.
    reader.statements = Default::default();
    let removed = main
        .execute("DELETE FROM query_grants WHERE token = $1", &[&token])
        .map_err(main_error);
    let rows = answer.map_err(|e| classify(e, &login.location))?;
    reset.map_err(login_error)?;
    removed?;
    rows.ok_or_else(|| KenningError::Query {
        problem: QueryProblem::Refused("only a SELECT that returns rows may run".into()),
    })
}

/// The statement, on the query login, under the grant `token`; `None` when it returns no rows
/// (it is no `SELECT`), which is refused before it runs.
fn run_granted(
    reader: &mut postgres::Client,
    token: &str,
    plan: &QueryPlan<'_>,
) -> std::result::Result<Option<QueryRows>, postgres::Error> {
    let mut tx = reader
        .build_transaction()
        .read_only(true)
        .isolation_level(postgres::IsolationLevel::RepeatableRead)
        .start()?;
    tx.batch_execute(&format!(
        "SET LOCAL statement_timeout = {}; SET LOCAL search_path = kenning_query",
        TIME_BUDGET.as_millis()
    ))?;
    tx.execute(
        "SELECT set_config('kenning.query_grant', $1, true)",
        &[&token],
    )?;
    let sql = plan.sql.trim_end().trim_end_matches(';');
    let statement = tx.prepare(sql)?;
    let columns: Vec<String> = statement
        .columns()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    // Each row comes back as one JSON object, so that every type the server has (numeric,
    // timestamps, arrays) arrives as JSON; its columns are renamed by position (c0, c1, ...), so
    // that two columns of one name (`count`, `count`) stay two values.
    let names: Vec<String> = (0..columns.len()).map(|i| format!("c{i}")).collect();
    let wrapped = format!(
        "SELECT row_to_json(q)::text FROM (\n{sql}\n) AS q({}) LIMIT {}",
        names.join(", "),
        u64::from(plan.max_rows) + 1
    );
    if columns.is_empty() {
        return Ok(None);
    }
    let rows = tx.query(wrapped.as_str(), &[])?;
    tx.rollback()?;
    let mut read = Vec::with_capacity(rows.len());
    for row in rows {
        let text: String = row.get(0);
        let object: serde_json::Map<String, Value> =
            serde_json::from_str(&text).unwrap_or_default();
        read.push(
            names
                .iter()
                .map(|name| object.get(name).cloned().unwrap_or(Value::Null))
                .collect(),
        );
    }
    Ok(Some(QueryRows {
        columns,
        rows: read,
    }))
}

/// Checks that the query login holds no privilege on the store's tables.
fn holds_no_table(
    main: &mut postgres::Client,
    reader: &mut postgres::Client,
    location: &str,
) -> Result<()> {
    let detail = |e: postgres::Error| database_error(location, e);
    let mut oids: Vec<u32> = Vec::new();
    for table in STORE_TABLES {
        let row = main
            .query_one("SELECT to_regclass($1)::oid", &[table])
            .map_err(detail)?;
        if let Some(oid) = row.get::<_, Option<u32>>(0) {
            oids.push(oid);
        }
    }
    let row = reader
        .query_one(
            "SELECT current_user::text, coalesce(bool_or(has_table_privilege(o, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')), false)
             FROM unnest($1::oid[]) o",
            &[&oids],
        )
        .map_err(detail)?;
    let (user, privileged): (String, bool) = (row.get(0), row.get(1));
    if privileged {
        return Err(KenningError::Query {
            problem: QueryProblem::Unavailable(format!(
                "the query login {user} can read or write the store's tables directly; a query \
                 must run as a login of its own that holds no table privilege (see docs/query.md)"
            )),
        });
    }
    Ok(())
}

/// What a failed statement means for its caller.
fn classify(error: postgres::Error, location: &str) -> KenningError {
    let refused = |problem| KenningError::Query { problem };
    let Some(db) = error.as_db_error() else {
        return database_error(location, error);
    };
    let code = db.code();
    if code == &SqlState::QUERY_CANCELED {
        refused(QueryProblem::OutOfTime)
    } else if code == &SqlState::INSUFFICIENT_PRIVILEGE {
        refused(QueryProblem::Refused(format!(
            "{}: a query reads only the views {}",
            db.message(),
            VIEWS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
        )))
    } else if code == &SqlState::READ_ONLY_SQL_TRANSACTION {
        refused(QueryProblem::Refused(format!(
            "only a SELECT may run ({})",
            db.message()
        )))
    } else if code == &SqlState::PROGRAM_LIMIT_EXCEEDED || code == &SqlState::OUT_OF_MEMORY {
        refused(QueryProblem::TooBig)
    } else if code.code().starts_with("08") || code.code().starts_with("57P") {
        // The connection failed or the server is shutting down: not the statement's fault.
        database_error(location, error)
    } else {
        refused(QueryProblem::Refused(format!(
            "the SQL is not valid: {}",
            db.message()
        )))
    }
}

/// 32 random bytes, as hexadecimal text.
fn random_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| KenningError::Database {
        location: "<query grant>".into(),
        message: format!("no randomness for a grant token: {e}"),
    })?;
    Ok(crate::hex::lower(&bytes))
}
