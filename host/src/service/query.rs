//! `query` and `query_schema`: one read-only SQL statement over the views of a subject's
//! knowledge base ([`crate::query`]), as its caller may read them.

use kenning_contract::types::FieldError;

use super::Service;
use crate::api;
use crate::error::{KenningError, Result};
use crate::query::{
    DEFAULT_ROWS, MAX_ROWS, MAX_SQL_BYTES, QueryArgs, QueryPlan, QueryResult, QuerySchema,
    SCHEMA_VERSION, Truncation,
};
use crate::store::Author;
use crate::subject::Subject;

impl Service {
    /// `query`: runs `args.sql`, one read-only `SELECT` over the views, for `reader` (a human
    /// also reads what awaits review; nobody reads forgotten or rejected text). Refused while
    /// recall is off for the subject. The answer holds at most `max_rows` rows and fits the
    /// result bound; what was cut is said.
    pub fn query(
        &self,
        subject: &Subject,
        reader: Author,
        args: &QueryArgs,
    ) -> Result<QueryResult> {
        let invalid = |path: &str, message: String| KenningError::Invalid {
            tool: "query".to_owned(),
            errors: vec![FieldError::new(path, message)],
        };
        if args.sql.len() > MAX_SQL_BYTES {
            return Err(KenningError::TooLarge {
                what: "sql".into(),
                size: args.sql.len(),
                limit: MAX_SQL_BYTES,
            });
        }
        if args.sql.trim().is_empty() {
            return Err(invalid("sql", "expected one SELECT, got no SQL".into()));
        }
        let max_rows = args.max_rows.unwrap_or(DEFAULT_ROWS);
        if !(1..=MAX_ROWS).contains(&max_rows) {
            return Err(invalid(
                "max_rows",
                format!("expected 1 to {MAX_ROWS}, got {max_rows}"),
            ));
        }
        let kb = self.open_existing(subject)?;
        if !kb.settings(None)?.allow_recall {
            return Err(KenningError::Forbidden(format!(
                "recall is disabled for {subject}"
            )));
        }
        let read = kb.query(&QueryPlan {
            sql: &args.sql,
            human: reader == Author::Human,
            now: self.now(),
            max_rows,
        })?;
        let mut answer = QueryResult {
            columns: read.columns,
            rows: read.rows,
            row_count: 0,
            truncated: None,
            schema_version: SCHEMA_VERSION,
        };
        if answer.rows.len() > max_rows as usize {
            answer.rows.truncate(max_rows as usize);
            answer.truncated = Some(Truncation::Rows);
        }
        let envelope = api::json_len(&QueryResult {
            rows: Vec::new(),
            row_count: usize::MAX,
            truncated: Some(Truncation::Size),
            ..answer.clone()
        });
        let keep = api::fitting(&answer.rows, envelope, self.max_result_bytes());
        if keep < answer.rows.len() {
            answer.rows.truncate(keep);
            answer.truncated = Some(Truncation::Size);
        }
        answer.row_count = answer.rows.len();
        Ok(answer)
    }

    /// `query_schema`: the views a query reads, their columns, the functions it may call and
    /// its budgets.
    pub fn query_schema(&self) -> QuerySchema {
        QuerySchema::new(self.max_result_bytes())
    }
}
