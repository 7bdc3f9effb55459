//! Pooled connections to the database ([`r2d2`]), each keeping the statements it has
//! prepared.
//!
//! A statement given as text is parsed, planned and described by the server every time, a
//! round trip before the one that runs it: a turn's dozen statements spent 2 ms planning and
//! as long again waiting on the extra round trips (at 100,000 memories). A [`Session`]
//! prepares each statement once and runs it by name afterwards.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use postgres::{Client, Config, Statement};

use super::tls::Connector;

/// Statements one connection keeps prepared at most: the queries a store makes are a few
/// dozen shapes, but some carry a page's limit in their text, and those must not pile up.
const MOST_STATEMENTS: usize = 256;

/// How long after it was last handed out a connection is handed out again without asking the
/// server whether it is still there (pgbouncer's `server_check_delay`). Asking is a round trip
/// of its own, one in five of a search's; a connection that went away in this time (the server
/// restarted) fails the one request that uses it, as a request in flight would have failed,
/// and the pool drops it.
const TRUSTED_FOR: Duration = Duration::from_secs(1);

/// One connection and the statements prepared on it: borrowed apart, as a transaction borrows
/// the client while statements are prepared through it.
pub(super) struct Session {
    pub(super) client: Client,
    pub(super) statements: Statements,
    /// When the pool last handed it out (or opened it).
    handed_out: Instant,
}

impl Deref for Session {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.client
    }
}

/// The statements prepared on one connection, by their text.
#[derive(Default)]
pub(super) struct Statements(HashMap<String, Statement>);

impl Statements {
    /// The statement for `sql`, prepared through `client` (the connection they belong to, or
    /// a transaction on it) the first time.
    pub(super) fn prepared(
        &mut self,
        client: &mut impl postgres::GenericClient,
        sql: &str,
    ) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.0.get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        if self.0.len() >= MOST_STATEMENTS {
            self.0.clear();
        }
        self.0.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    /// Forgets the statement for `sql`, which failed: the next use prepares it again (another
    /// server may have migrated the schema under it).
    pub(super) fn forget(&mut self, sql: &str) {
        self.0.remove(sql);
    }
}

/// Opens [`Session`]s for the pool.
pub(super) struct Manager {
    config: Config,
    tls: Connector,
    oltp: bool,
}

impl Manager {
    /// Sessions as the server makes them.
    pub(super) fn new(config: Config, tls: Connector) -> Manager {
        Manager {
            config,
            tls,
            oltp: false,
        }
    }

    /// Sessions for the store's own statements, each a few index ranges of one subject's
    /// rows, whatever its arguments:
    /// - planned once, for any arguments: left to choose, the server planned the anchors'
    ///   query anew for every turn (its plan for each set of arguments looked cheaper than the
    ///   general one), 0.9 ms each time, where the general plan runs in 0.1 ms;
    /// - run by the session alone, without parallel workers, whose start (8 ms on a 2-core
    ///   machine) cost ten times the search the general plan gave them.
    pub(super) fn oltp(self) -> Manager {
        Manager { oltp: true, ..self }
    }
}

impl r2d2::ManageConnection for Manager {
    type Connection = Session;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Session, postgres::Error> {
        let mut client = self.config.connect(self.tls.clone())?;
        if self.oltp {
            client.batch_execute(
                "SET plan_cache_mode = force_generic_plan; SET max_parallel_workers_per_gather = 0",
            )?;
        }
        Ok(Session {
            client,
            statements: Statements::default(),
            handed_out: Instant::now(),
        })
    }

    fn is_valid(&self, session: &mut Session) -> Result<(), postgres::Error> {
        let last = std::mem::replace(&mut session.handed_out, Instant::now());
        if last.elapsed() < TRUSTED_FOR {
            return Ok(());
        }
        session.client.simple_query("").map(drop)
    }

    fn has_broken(&self, session: &mut Session) -> bool {
        session.client.is_closed()
    }
}
