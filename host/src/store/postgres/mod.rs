//! The PostgreSQL backend of the [store contract](super::contract): every subject's knowledge
//! base in one database, for teams running several `kenning serve` processes on it.
//!
//! - Subjects are the tenancy key: every row names its subject, every query is restricted to
//!   one.
//! - A write is one transaction that first takes the subject's advisory lock, so writers of one
//!   subject (in any process) queue as SQLite's writers do, and a duplicate check and the insert
//!   it guards see the same state.
//! - Connections come from a pool ([`r2d2`]); the schema is migrated once, under a lock, when
//!   the backend connects.

mod connection;
mod pool;
mod query;
mod reads;
mod schema;
mod search;
pub mod tls;
mod writes;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

pub use self::schema::MIGRATIONS;
use super::PoolUse;
use super::contract::{Backend, KnowledgeStore, Reads, WritePermit, Writes};
use super::{Memory, MemoryFilter};
use crate::error::{KenningError, Result};
use crate::settings::Settings;
use crate::subject::Subject;
use connection::Pg;

/// Connections a backend keeps open at most.
const POOL_SIZE: u32 = 16;

/// How long a request waits for a connection (all in use, or the database unreachable while
/// the pool tries to reconnect) before it is answered that the database cannot be reached
/// ([`KenningError::Unavailable`]: 503 with `Retry-After` over HTTP), rather than holding its
/// client through a whole outage.
const CONNECTION_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Longest a readiness check waits for a connection.
const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The advisory lock key (besides subject ids, which are positive) taken while migrating.
const MIGRATION_LOCK: i64 = -7_531_246;

type Pool = r2d2::Pool<pool::Manager>;
type Connection = r2d2::PooledConnection<pool::Manager>;

/// Knowledge bases in one PostgreSQL database.
pub struct PostgresStore {
    /// `None` only while the store is dropped.
    pool: Option<Pool>,
    /// The database, for messages (no password).
    location: String,
    /// Subjects' ids by store name, once looked up: a subject is never renumbered or removed.
    subject_ids: std::sync::Mutex<std::collections::HashMap<String, i64>>,
    /// The login `query` runs as, if one was given.
    query_login: Option<std::sync::Arc<query::QueryLogin>>,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://...` or a `key=value` string, with
    /// libpq's `sslmode` and `sslrootcert`: see [`tls`]) and brings its schema up to date. `query_url` names the login read-only queries run as
    /// (one that holds no table privilege); without it `query` is refused.
    pub fn connect(url: &str, query_url: Option<&str>) -> Result<PostgresStore> {
        let (config, tls) = tls::connect_config(url)?;
        let location = describe(&config);
        let fail = |message: String| KenningError::Database {
            location: location.clone(),
            message,
        };
        // One connection first, on a thread of its own (the client blocks on a runtime of its
        // own): its error says why, where the pool would only time out after retrying.
        let (first, tls) = {
            let (config, tls) = (config.clone(), tls.clone());
            std::thread::spawn(move || (config.connect(tls.clone()).map(drop), tls))
                .join()
                .map_err(|_| fail("the first connection's thread panicked".into()))?
        };
        first.map_err(|e| match database_error(&location, e) {
            KenningError::Database {
                message: reason, ..
            }
            | KenningError::Unavailable { reason, .. } => fail(format!("cannot connect: {reason}")),
            other => other,
        })?;
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            .connection_timeout(CONNECTION_WAIT)
            .build(pool::Manager::new(config, tls).oltp())
            .map_err(|e| fail(format!("cannot connect: {e}")))?;
        let query_login = query_url
            .map(|url| query::QueryLogin::new(url).map(std::sync::Arc::new))
            .transpose()?;
        let store = PostgresStore {
            pool: Some(pool),
            location,
            subject_ids: Default::default(),
            query_login,
        };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&self) -> Result<()> {
        let mut conn = self.connection()?;
        let mut tx = conn.transaction().map_err(|e| self.error(e))?;
        let step =
            |tx: &mut postgres::Transaction<'_>| -> std::result::Result<(), postgres::Error> {
                tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
                tx.batch_execute(
                    "CREATE TABLE IF NOT EXISTS kenning_migrations (version BIGINT PRIMARY KEY)",
                )?;
                let current = version(tx)?;
                for (index, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
                    tx.batch_execute(sql)?;
                    tx.execute(
                        "INSERT INTO kenning_migrations (version) VALUES ($1)",
                        &[&(index as i64 + 1)],
                    )?;
                }
                if version(tx)? == MIGRATIONS.len() as i64 {
                    tx.batch_execute(&query::views_sql())?;
                }
                Ok(())
            };
        step(&mut tx).map_err(|e| self.error(e))?;
        let current = version(&mut tx).map_err(|e| self.error(e))?;
        if current > MIGRATIONS.len() as i64 {
            return Err(KenningError::Database {
                location: self.location.clone(),
                message: format!(
                    "the schema is at version {current}, newer than this build's {}: upgrade kenning",
                    MIGRATIONS.len()
                ),
            });
        }
        tx.commit().map_err(|e| self.error(e))
    }

    fn connection(&self) -> Result<Connection> {
        self.pool
            .as_ref()
            .ok_or_else(|| self.unavailable("the store is closing".into()))?
            .get()
            .map_err(|e| self.unavailable(e.to_string()))
    }

    fn unavailable(&self, reason: String) -> KenningError {
        KenningError::Unavailable {
            location: self.location.clone(),
            reason: format!("no connection: {reason}"),
        }
    }

    fn knowledge_base(
        &self,
        conn: Connection,
        id: i64,
        subject: &Subject,
    ) -> Box<dyn KnowledgeStore> {
        Box::new(PostgresKnowledgeBase {
            conn: RefCell::new(conn),
            subject: id,
            location: format!("{} subject {}", self.location, subject.spec()),
            query_login: self.query_login.clone(),
        })
    }

    fn error(&self, error: postgres::Error) -> KenningError {
        database_error(&self.location, error)
    }

    /// Vacuums and analyses the store's tables (every subject's), as autovacuum does some time
    /// after a large write: the benchmarks measure a settled database.
    #[cfg(feature = "bench-support")]
    pub(crate) fn settle(&self) -> Result<()> {
        self.connection()?
            .batch_execute(
                "VACUUM (ANALYZE) memories, anchors, postings, stems, text_totals, events",
            )
            .map_err(|e| self.error(e))
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        // A client closes its connection by blocking on a runtime of its own, which panics on a
        // thread that drives async tasks (a server drops its service there when it stops): the
        // pool is closed on a thread of its own.
        if let Some(pool) = self.pool.take() {
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

impl Backend for PostgresStore {
    fn open(&self, subject: &Subject, create: bool) -> Result<Option<Box<dyn KnowledgeStore>>> {
        let mut conn = self.connection()?;
        let name = subject.store_name();
        let known = self
            .subject_ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&name)
            .copied();
        let found = match known {
            Some(id) => return Ok(Some(self.knowledge_base(conn, id, subject))),
            None => conn
                .query_opt("SELECT id FROM subjects WHERE name = $1", &[&name])
                .map_err(|e| self.error(e))?,
        };
        let id: i64 = match (found, create) {
            (Some(row), _) => row.get(0),
            (None, false) => return Ok(None),
            (None, true) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as i64)
                    .unwrap_or(0);
                conn.execute(
                    "INSERT INTO subjects (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                    &[&name, &now],
                )
                .map_err(|e| self.error(e))?;
                conn.query_one("SELECT id FROM subjects WHERE name = $1", &[&name])
                    .map_err(|e| self.error(e))?
                    .get(0)
            }
        };
        self.subject_ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(name, id);
        Ok(Some(self.knowledge_base(conn, id, subject)))
    }

    fn subjects(&self) -> Result<Vec<Subject>> {
        let mut conn = self.connection()?;
        let rows = conn
            .query("SELECT name FROM subjects ORDER BY name", &[])
            .map_err(|e| self.error(e))?;
        Ok(rows
            .iter()
            .filter_map(|row| Subject::from_store_name(row.get(0)))
            .collect())
    }

    fn location(&self, subject: &Subject) -> PathBuf {
        PathBuf::from(format!("{} subject {}", self.location, subject.spec()))
    }

    fn check_ready(&self) -> Result<()> {
        // A load balancer asks every few seconds: it must hear "not ready" before it asks again.
        let mut conn = self
            .pool
            .as_ref()
            .ok_or_else(|| self.unavailable("the store is closing".into()))?
            .get_timeout(READY_TIMEOUT)
            .map_err(|e| self.unavailable(e.to_string()))?;
        conn.simple_query("SELECT 1")
            .map(drop)
            .map_err(|e| self.error(e))
    }

    fn pool_use(&self) -> Option<PoolUse> {
        let pool = self.pool.as_ref()?;
        let state = pool.state();
        Some(PoolUse {
            open: state.connections,
            idle: state.idle_connections,
            max: pool.max_size(),
        })
    }

    fn pending_review_total(&self) -> Result<Option<u64>> {
        let row = self
            .connection()?
            .query_one(
                "SELECT count(*) FROM memories WHERE status = 'active' AND badge IN ('pending', 'inbound_pending')",
                &[],
            )
            .map_err(|e| self.error(e))?;
        Ok(Some(row.get::<_, i64>(0) as u64))
    }
}

/// One subject's knowledge base in the database, on a pooled connection.
pub struct PostgresKnowledgeBase {
    conn: RefCell<Connection>,
    subject: i64,
    location: String,
    query_login: Option<std::sync::Arc<query::QueryLogin>>,
}

impl PostgresKnowledgeBase {
    /// Runs `f` over the connection outside a transaction, naming the subject in errors.
    fn reading<T>(&self, f: impl FnOnce(&Pg<'_, postgres::Client>) -> Result<T>) -> Result<T> {
        let mut conn = self.conn.borrow_mut();
        let session = &mut **conn;
        let pg = Pg::new(&mut session.client, &mut session.statements, self.subject);
        f(&pg).map_err(|e| self.named(e))
    }

    fn named(&self, error: KenningError) -> KenningError {
        match error {
            KenningError::Database { message, .. } => KenningError::Database {
                location: self.location.clone(),
                message,
            },
            KenningError::Unavailable { reason, .. } => KenningError::Unavailable {
                location: self.location.clone(),
                reason,
            },
            KenningError::StorageFull { .. } => KenningError::StorageFull {
                location: self.location.clone(),
            },
            other => other,
        }
    }
}

impl KnowledgeStore for PostgresKnowledgeBase {
    fn read_with(&self, f: &mut dyn FnMut(&dyn Reads) -> Result<()>) -> Result<()> {
        self.reading(|pg| f(pg))
    }

    fn write_with(
        &mut self,
        _permit: WritePermit,
        f: &mut dyn FnMut(&dyn Writes) -> Result<()>,
    ) -> Result<()> {
        let mut conn = self.conn.borrow_mut();
        let session = &mut **conn;
        let mut tx = session
            .client
            .transaction()
            .map_err(|e| database_error(&self.location, e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&self.subject])
            .map_err(|e| database_error(&self.location, e))?;
        {
            let pg = Pg::new(&mut tx, &mut session.statements, self.subject);
            f(&pg).map_err(|e| self.named(e))?;
        }
        tx.commit().map_err(|e| database_error(&self.location, e))
    }

    fn search_page(&self, filter: &MemoryFilter) -> Result<crate::store::SearchPage> {
        self.reading(|pg| pg.search(filter, None))
    }

    fn settings_and_search_page(
        &self,
        thread: Option<&str>,
        filter: &MemoryFilter,
        wanted: &dyn Fn(&Settings) -> bool,
    ) -> Result<(Settings, Option<crate::store::SearchPage>)> {
        self.reading(|pg| {
            let mut read = search::SettingsRead::of(thread);
            let page = pg.search(filter, Some(&mut read))?;
            let settings = read.settings(pg)?;
            let page = wanted(&settings).then_some(page);
            Ok((settings, page))
        })
    }

    fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)> {
        self.reading(|pg| pg.list_counted(filter))
    }

    fn anchored_ids(
        &self,
        offset: Option<u64>,
        function_start: Option<u64>,
        function_name: Option<&str>,
        strings: &[String],
        limit: u32,
    ) -> Result<Vec<u64>> {
        self.reading(|pg| pg.anchored_ids(offset, function_start, function_name, strings, limit))
    }

    fn get_many(&self, ids: &[u64]) -> Result<Vec<Memory>> {
        self.reading(|pg| pg.get_many(ids))
    }

    fn recent_globals(&self, limit: u32) -> Result<Vec<Memory>> {
        let filter = MemoryFilter {
            scope: Some(kenning_contract::types::Scope::Global),
            limit,
            ..MemoryFilter::default()
        };
        Ok(self
            .search(&filter)?
            .into_iter()
            .map(|(memory, _)| memory)
            .collect())
    }

    fn mark_recalled(&mut self, ids: &[u64], now: i64) -> Result<()> {
        self.reading(|pg| pg.mark_recalled(ids, now))
    }

    fn merge_index(&mut self) -> Result<(u64, u64)> {
        // A GIN index needs no merging by hand: autovacuum keeps its pending list short.
        Ok((0, 0))
    }

    fn scrub(&mut self) -> Result<()> {
        // The old row versions an UPDATE leaves are the server's to vacuum; no client of the
        // database reads them.
        Ok(())
    }

    fn schema_version(&self) -> Result<i64> {
        let mut conn = self.conn.borrow_mut();
        version(&mut conn.client).map_err(|e| database_error(&self.location, e))
    }

    fn events(&self, limit: u32) -> Result<Vec<serde_json::Value>> {
        self.reading(|pg| pg.events(limit))
    }

    fn first_event_details(&self, ids: &[u64]) -> Result<HashMap<u64, String>> {
        self.reading(|pg| pg.first_event_details(ids))
    }

    fn query(&self, plan: &crate::query::QueryPlan<'_>) -> Result<crate::query::QueryRows> {
        let mut conn = self.conn.borrow_mut();
        query::run(
            self.query_login.as_deref(),
            &mut conn.client,
            &self.location,
            self.subject,
            plan,
        )
    }
}

/// The schema version: the highest migration applied (0 before any).
fn version(client: &mut impl postgres::GenericClient) -> std::result::Result<i64, postgres::Error> {
    let exists: bool = client
        .query_one("SELECT to_regclass('kenning_migrations') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    Ok(client
        .query_one(
            "SELECT coalesce(max(version), 0) FROM kenning_migrations",
            &[],
        )?
        .get(0))
}

/// The database a configuration names, for messages: `postgres://user@host[:port]/dbname`,
/// never the password.
pub fn describe(config: &postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|host| match host {
            postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_default();
    // The port only when it is not the default, as a URL would be written.
    let port = match config.get_ports().first() {
        Some(&port) if port != 5432 => format!(":{port}"),
        _ => String::new(),
    };
    format!(
        "postgres://{}@{host}{port}/{}",
        config.get_user().unwrap_or(""),
        config.get_dbname().unwrap_or("")
    )
}

/// A database error with the server's message and detail (or the cause's chain), at `location`.
pub fn database_error(location: &str, error: postgres::Error) -> KenningError {
    use postgres::error::SqlState;
    if let Some(code) = error.code()
        && [
            SqlState::LOCK_NOT_AVAILABLE,
            SqlState::T_R_DEADLOCK_DETECTED,
            SqlState::T_R_SERIALIZATION_FAILURE,
        ]
        .contains(code)
    {
        return KenningError::Busy {
            location: location.to_owned(),
        };
    }
    if error.code() == Some(&SqlState::DISK_FULL) {
        return KenningError::StorageFull {
            location: location.to_owned(),
        };
    }
    let unreachable = error.is_closed()
        || error.code().is_some_and(|code| {
            // Class 08 (connection exceptions), and the server shutting down or starting.
            code.code().starts_with("08")
                || [
                    SqlState::ADMIN_SHUTDOWN,
                    SqlState::CRASH_SHUTDOWN,
                    SqlState::CANNOT_CONNECT_NOW,
                ]
                .contains(code)
        })
        // No answer from a server at all: the connection was refused, reset or timed out.
        || (error.as_db_error().is_none()
            && std::error::Error::source(&error).is_some_and(|cause| cause.is::<std::io::Error>()));
    let message = match error.as_db_error() {
        Some(db) => match db.detail() {
            Some(detail) => format!("{} ({detail})", db.message()),
            None => db.message().to_owned(),
        },
        // The cause says what failed (a TLS handshake's certificate, a refused connection).
        None => {
            let mut message = error.to_string();
            let mut cause = std::error::Error::source(&error);
            while let Some(inner) = cause {
                message = format!("{message}: {inner}");
                cause = inner.source();
            }
            message
        }
    };
    if unreachable {
        return KenningError::Unavailable {
            location: location.to_owned(),
            reason: message,
        };
    }
    KenningError::Database {
        location: location.to_owned(),
        message,
    }
}

impl From<postgres::Error> for KenningError {
    /// For code inside a knowledge base's reads and writes, which names the subject afterwards.
    fn from(error: postgres::Error) -> Self {
        database_error("<database>", error)
    }
}
