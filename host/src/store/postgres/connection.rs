//! A PostgreSQL connection to one subject's rows ([`Pg`]): on a client or inside a
//! transaction, every statement scoped to the subject, and a statement's numbered arguments.

use std::cell::RefCell;

use postgres::GenericClient;
use postgres::types::ToSql;

use crate::error::Result;

/// One subject's rows, through a client or a transaction.
pub(super) struct Pg<'a, C: GenericClient> {
    pub(super) client: RefCell<&'a mut C>,
    pub(super) subject: i64,
}

/// A statement's arguments, numbered as they are added.
#[derive(Default)]
pub(super) struct Args {
    values: Vec<Box<dyn ToSql + Sync + Send>>,
}

impl Args {
    /// Adds `value`; returns its placeholder (`$n`).
    pub(super) fn add(&mut self, value: impl ToSql + Sync + Send + 'static) -> String {
        self.values.push(Box::new(value));
        format!("${}", self.values.len())
    }

    pub(super) fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.values
            .iter()
            .map(|v| v.as_ref() as &(dyn ToSql + Sync))
            .collect()
    }
}

impl<'a, C: GenericClient> Pg<'a, C> {
    pub(super) fn new(client: &'a mut C, subject: i64) -> Self {
        Pg {
            client: RefCell::new(client),
            subject,
        }
    }

    pub(super) fn query(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>> {
        Ok(self.client.borrow_mut().query(sql, args)?)
    }

    pub(super) fn query_opt(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<postgres::Row>> {
        Ok(self.client.borrow_mut().query_opt(sql, args)?)
    }

    pub(super) fn execute(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<u64> {
        Ok(self.client.borrow_mut().execute(sql, args)?)
    }
}
