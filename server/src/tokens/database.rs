//! The tokens of a team's servers, in their PostgreSQL database (`--store postgres://...`), so
//! every server checks the same tokens and a revocation on one reaches all: the same rows as
//! `tokens.sqlite` (hashes only), in `kenning_tokens`, and a counter in `kenning_token_changes`
//! that every create and revoke moves on in the same transaction, which each server reads at
//! most every [`FRESHNESS`] before trusting the grants it has cached.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use kenning::error::{KenningError, Result};
use kenning::postgres_connect::{Connector, connect_config, database_error, describe};

/// Longest a server trusts its cached grants without asking whether a token changed: a
/// revocation on any server is refused everywhere within this (and one request's time).
pub const FRESHNESS: Duration = Duration::from_millis(250);

/// Taken while the tables are made, so two servers starting at once do not race.
const SCHEMA_LOCK: i64 = -7_531_247;

/// Longest the check of a kept connection waits for the server.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// One row of the tokens table.
pub(super) struct Row {
    pub id: String,
    pub role: String,
    pub subjects: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// The tokens table of one database, on a connection of its own (made again when it breaks).
pub(super) struct DatabaseTokens {
    config: postgres::Config,
    tls: Connector,
    /// The database, for messages (no password).
    location: String,
    client: Mutex<Option<postgres::Client>>,
}

impl DatabaseTokens {
    /// Connects to the database at `url` (with its `sslmode`) and makes the tables if missing.
    pub fn connect(url: &str) -> Result<DatabaseTokens> {
        let (config, tls) = connect_config(url)?;
        let location = describe(&config);
        let tokens = DatabaseTokens {
            config,
            tls,
            location,
            client: Mutex::new(None),
        };
        tokens.with_client(|client| {
            let mut tx = client.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS kenning_tokens (
                     id TEXT PRIMARY KEY,
                     hash TEXT NOT NULL UNIQUE,
                     role TEXT NOT NULL,
                     subjects TEXT NOT NULL,
                     created_at BIGINT NOT NULL,
                     revoked_at BIGINT,
                     made BIGSERIAL
                 );
                 CREATE TABLE IF NOT EXISTS kenning_token_changes (
                     one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
                     generation BIGINT NOT NULL
                 );
                 INSERT INTO kenning_token_changes (one, generation) VALUES (true, 0)
                     ON CONFLICT DO NOTHING;",
            )?;
            tx.commit()
        })?;
        Ok(tokens)
    }

    /// Where the tokens are, for messages.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Runs `f` on the connection (connecting first when there is none, or when the last one
    /// broke); off any async thread, as the client blocks on a runtime of its own.
    fn with_client<T: Send>(
        &self,
        f: impl FnOnce(&mut postgres::Client) -> std::result::Result<T, postgres::Error> + Send,
    ) -> Result<T> {
        let run = || {
            let mut guard = self.client.lock().unwrap_or_else(PoisonError::into_inner);
            // A connection the server dropped (a restart, an outage) looks open until it is
            // used: it is checked first, so that the first request after the database is
            // back is not the one refused. Tokens are read at most every 250 ms each: the
            // round trip is cheap beside that.
            let usable = |client: &mut postgres::Client| {
                !client.is_closed() && client.is_valid(CHECK_TIMEOUT).is_ok()
            };
            if !guard.as_mut().is_some_and(usable) {
                *guard = Some(
                    self.config
                        .connect(self.tls.clone())
                        .map_err(|e| self.error(e))?,
                );
            }
            let client = guard.as_mut().expect("connected above");
            let result = f(client);
            if result.is_err() && client.is_closed() {
                *guard = None;
            }
            result.map_err(|e| self.error(e))
        };
        match tokio::runtime::Handle::try_current() {
            Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(run)
            }
            // A current-thread runtime cannot lend its thread: the call runs on one of its own.
            Ok(_) => std::thread::scope(|scope| {
                scope
                    .spawn(run)
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }),
            Err(_) => run(),
        }
    }

    /// Adds a token's row, and moves the counter on.
    pub fn insert(&self, id: &str, hash: &str, role: &str, subjects: &str, now: i64) -> Result<()> {
        self.with_client(|client| {
            let mut tx = client.transaction()?;
            tx.execute(
                "INSERT INTO kenning_tokens (id, hash, role, subjects, created_at) VALUES ($1, $2, $3, $4, $5)",
                &[&id, &hash, &role, &subjects, &now],
            )?;
            tx.execute("UPDATE kenning_token_changes SET generation = generation + 1", &[])?;
            tx.commit()
        })
    }

    /// Adds the rows (id, hash, role, subjects, created_at, revoked_at) whose id the table does
    /// not hold yet; returns how many it added.
    pub fn adopt(
        &self,
        rows: Vec<(String, String, String, String, i64, Option<i64>)>,
    ) -> Result<usize> {
        self.with_client(move |client| {
            let mut tx = client.transaction()?;
            let mut added = 0;
            for (id, hash, role, subjects, created_at, revoked_at) in &rows {
                added += tx.execute(
                    "INSERT INTO kenning_tokens (id, hash, role, subjects, created_at, revoked_at)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                    &[id, hash, role, subjects, created_at, revoked_at],
                )? as usize;
            }
            if added > 0 {
                tx.execute(
                    "UPDATE kenning_token_changes SET generation = generation + 1",
                    &[],
                )?;
            }
            tx.commit()?;
            Ok(added)
        })
    }

    /// Every row, oldest first.
    pub fn rows(&self) -> Result<Vec<Row>> {
        self.with_client(|client| {
            Ok(client
                .query(
                    "SELECT id, role, subjects, created_at, revoked_at FROM kenning_tokens ORDER BY made",
                    &[],
                )?
                .into_iter()
                .map(|row| Row {
                    id: row.get(0),
                    role: row.get(1),
                    subjects: row.get(2),
                    created_at: row.get(3),
                    revoked_at: row.get(4),
                })
                .collect())
        })
    }

    /// Marks the token `id` revoked at `now` (if it is in force), and moves the counter on.
    pub fn revoke(&self, id: &str, now: i64) -> Result<()> {
        self.with_client(|client| {
            let mut tx = client.transaction()?;
            let changed = tx.execute(
                "UPDATE kenning_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                &[&id, &now],
            )?;
            if changed > 0 {
                tx.execute(
                    "UPDATE kenning_token_changes SET generation = generation + 1",
                    &[],
                )?;
            }
            tx.commit()
        })
    }

    /// How many tokens are in force.
    pub fn count_active(&self) -> Result<u64> {
        self.with_client(|client| {
            let row = client.query_one(
                "SELECT count(*) FROM kenning_tokens WHERE revoked_at IS NULL",
                &[],
            )?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    /// The counter every change moves on.
    pub fn generation(&self) -> Result<i64> {
        self.with_client(|client| {
            Ok(client
                .query_one("SELECT generation FROM kenning_token_changes", &[])?
                .get(0))
        })
    }

    /// The id, role and subjects of the token in force whose hash is `hash`.
    pub fn grant_row(&self, hash: &str) -> Result<Option<(String, String, String)>> {
        self.with_client(|client| {
            Ok(client
                .query_opt(
                    "SELECT id, role, subjects FROM kenning_tokens WHERE hash = $1 AND revoked_at IS NULL",
                    &[&hash],
                )?
                .map(|row| (row.get(0), row.get(1), row.get(2))))
        })
    }

    fn error(&self, error: postgres::Error) -> KenningError {
        match database_error(&self.location, error) {
            KenningError::Database { location, message } => KenningError::Database {
                location,
                message: format!("tokens: {message}"),
            },
            other => other,
        }
    }
}

impl Drop for DatabaseTokens {
    fn drop(&mut self) {
        // A client closes its connection by blocking on a runtime of its own, which panics on a
        // thread that drives async tasks (a server drops its tokens there when it stops).
        let client = self
            .client
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(client) = client {
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}
