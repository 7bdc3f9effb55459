//! A PostgreSQL connection to one subject's rows ([`Pg`]): on a client or inside a
//! transaction, every statement scoped to the subject and prepared once on its connection
//! ([`Statements`]), and a statement's numbered arguments.

use std::cell::RefCell;

use postgres::GenericClient;
use postgres::types::ToSql;

use super::pool::Statements;
use crate::error::Result;

/// One subject's rows, through a client or a transaction.
pub(super) struct Pg<'a, C: GenericClient> {
    pub(super) client: RefCell<&'a mut C>,
    statements: RefCell<&'a mut Statements>,
    pub(super) subject: i64,
}

/// A statement's arguments, numbered as they are added after the subject, which is always `$1`
/// ([`Pg::args`]).
pub(super) struct Args {
    values: Vec<Box<dyn ToSql + Sync + Send>>,
}

impl Args {
    /// Adds `value`; returns its placeholder (`$n`).
    pub(super) fn add(&mut self, value: impl ToSql + Sync + Send + 'static) -> String {
        self.values.push(Box::new(value));
        format!("${}", self.values.len())
    }

    /// How many arguments there are: a mark for [`Args::drop_after`].
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// Drops the arguments added after the first `mark`, for another statement that shares
    /// those.
    pub(super) fn drop_after(&mut self, mark: usize) {
        self.values.truncate(mark);
    }

    /// The arguments as the client takes them.
    pub(super) fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.values
            .iter()
            .map(|v| v.as_ref() as &(dyn ToSql + Sync))
            .collect()
    }
}

impl<'a, C: GenericClient> Pg<'a, C> {
    pub(super) fn new(client: &'a mut C, statements: &'a mut Statements, subject: i64) -> Self {
        Pg {
            client: RefCell::new(client),
            statements: RefCell::new(statements),
            subject,
        }
    }

    /// The arguments of a statement over this subject's rows, which names the subject as `$1`:
    /// an argument, not text, so that a statement's text is the same for every subject and is
    /// prepared once on a connection. With the subject in the text, every subject had
    /// statements of its own, and a server searching many subjects prepared them anew on each
    /// connection (a round trip and a plan each), a third of a search's round trips.
    pub(super) fn args(&self) -> Args {
        let mut args = Args { values: Vec::new() };
        args.add(self.subject);
        args
    }

    /// Runs `sql` as the statement prepared for it on this connection (preparing it the first
    /// time), with `run`; a statement that fails is prepared again next time.
    fn prepared<T>(
        &self,
        sql: &str,
        run: impl FnOnce(&mut C, &postgres::Statement) -> std::result::Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut client = self.client.borrow_mut();
        let mut statements = self.statements.borrow_mut();
        let statement = statements.prepared(&mut **client, sql)?;
        run(&mut **client, &statement).map_err(|error| {
            statements.forget(sql);
            error.into()
        })
    }

    pub(super) fn query(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>> {
        self.prepared(sql, |client, statement| client.query(statement, args))
    }

    pub(super) fn query_opt(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<postgres::Row>> {
        self.prepared(sql, |client, statement| client.query_opt(statement, args))
    }

    pub(super) fn query_one(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<postgres::Row> {
        self.prepared(sql, |client, statement| client.query_one(statement, args))
    }

    pub(super) fn execute(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<u64> {
        self.prepared(sql, |client, statement| client.execute(statement, args))
    }
}
