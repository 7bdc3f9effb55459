//! The contract's writes over one subject's rows on PostgreSQL, inside the caller's
//! transaction: a memory with its anchors (the one insert every write and import goes
//! through), the changes to stored rows, audit events, settings and the jobs' records.

use postgres::GenericClient;
use postgres::types::ToSql;

use super::connection::Pg;
use crate::error::Result;
use crate::store::contract::{IndexSoFar, Writes};
use crate::store::rows::{self, RowState};
use crate::store::{AnchorRow, Badge, Event, NewMemory, Status};

impl<'a, C: GenericClient> Pg<'a, C> {
    pub(super) fn insert_anchors(
        &self,
        id: u64,
        anchors: &[kenning_contract::types::Anchor],
    ) -> Result<()> {
        for anchor in anchors {
            let row = AnchorRow::of(anchor);
            self.execute(
                r#"INSERT INTO anchors (subject_id, memory_id, kind, start, "end", radius, name, value) VALUES ($8, $1, $2, $3, $4, $5, $6, $7)"#,
                &[&(id as i64), &row.kind, &row.start, &row.end, &row.radius, &row.name, &row.value, &self.subject],
            )?;
        }
        Ok(())
    }
}

/// Outside any transaction: a statement here commits on its own.
impl Pg<'_, postgres::Client> {
    /// See [`crate::store::KnowledgeStore::mark_recalled`].
    pub(super) fn mark_recalled(&self, ids: &[u64], now: i64) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        // Recall statistics are a turn's by-product, as on SQLite (whose write-ahead log syncs
        // at checkpoints, not at each commit): the turn does not wait for the server to flush
        // them to disk, which a crash can cost the last fraction of a second of. One round
        // trip, a transaction of its own (the statements of one simple query); every value is
        // an integer.
        let ids: Vec<String> = ids.iter().map(u64::to_string).collect();
        self.client.borrow_mut().batch_execute(&format!(
            "SET LOCAL synchronous_commit TO OFF;
             UPDATE memories SET recall_count = recall_count + 1, last_recalled = {now}
             WHERE subject_id = {} AND id IN ({})",
            self.subject,
            ids.join(", ")
        ))?;
        Ok(())
    }
}

impl Writes for Pg<'_, postgres::Transaction<'_>> {
    /// Inserts a memory's row and anchors; returns its id, the subject's largest plus one (the
    /// caller's transaction holds the subject's write lock, so no other writer takes it).
    fn insert_row(&self, memory: &NewMemory, state: &RowState<'_>) -> Result<u64> {
        let row = rows::inserted(memory, state);
        static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sql = SQL.get_or_init(|| {
            format!(
                "INSERT INTO memories (id, subject_id, {}) \
                 VALUES ((SELECT coalesce(max(id), 0) + 1 FROM memories WHERE subject_id = $1), $1, {}) \
                 RETURNING id",
                rows::column_list(&row),
                rows::placeholders('$', 2, row.len())
            )
        });
        let mut values: Vec<&(dyn ToSql + Sync)> = vec![&self.subject];
        values.extend(row.iter().map(|(_, value)| value as &(dyn ToSql + Sync)));
        let row = self.query_one(sql, &values)?;
        let id = row.get::<_, i64>(0) as u64;
        self.insert_anchors(id, &memory.anchors)?;
        Ok(id)
    }

    fn bulk_load(&self, load: &mut dyn FnMut(&mut IndexSoFar<'_>) -> Result<()>) -> Result<()> {
        // The GIN index takes new rows into its pending list cheaply; the vocabulary's trigger
        // costs a statement a stem, so it waits (for this transaction only) and the subject's
        // stems and postings are counted once at the end.
        self.execute(
            "SELECT set_config('kenning.stems_deferred', 'on', true)",
            &[],
        )?;
        // The GIN index takes each row as it is inserted: there is nothing to index early.
        load(&mut || Ok(()))?;
        self.execute(
            "SELECT set_config('kenning.stems_deferred', 'off', true)",
            &[],
        )?;
        self.execute("DELETE FROM stems WHERE subject_id = $1", &[&self.subject])?;
        self.execute(
            "INSERT INTO stems (subject_id, lexeme, documents)
             SELECT $1, l, count(*) FROM memories, unnest(tsvector_to_array(words)) l
             WHERE subject_id = $1 GROUP BY l",
            &[&self.subject],
        )?;
        self.execute(
            "DELETE FROM postings WHERE subject_id = $1",
            &[&self.subject],
        )?;
        self.execute(
            "INSERT INTO postings (subject_id, lexeme, memory_id, occurrences)
             SELECT $1, u.lexeme, m.id, coalesce(array_length(u.positions, 1), 1)
             FROM memories m, unnest(m.words) u WHERE m.subject_id = $1",
            &[&self.subject],
        )?;
        self.execute(
            "INSERT INTO text_totals (subject_id, documents, total_length)
             SELECT $1, count(*), coalesce(sum(length(words)), 0) FROM memories WHERE subject_id = $1
             ON CONFLICT (subject_id) DO UPDATE SET
                 documents = excluded.documents, total_length = excluded.total_length",
            &[&self.subject],
        )?;
        // As PostgreSQL advises after loading data: without statistics of the new rows, the
        // first searches after a large load were planned for an empty table (p99 786 ms at
        // 100,000 memories, against 11 ms at the median).
        self.client
            .borrow_mut()
            .batch_execute("ANALYZE memories, anchors, stems, postings")?;
        Ok(())
    }

    fn update_memory(
        &self,
        id: u64,
        revised: &NewMemory,
        content_hash: &str,
        now: i64,
    ) -> Result<()> {
        let set = rows::revised(revised, content_hash, now);
        static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sql = SQL.get_or_init(|| {
            format!(
                "UPDATE memories SET {} WHERE subject_id = $1 AND id = $2",
                rows::set_list('$', 3, &set)
            )
        });
        let id_value = id as i64;
        let mut values: Vec<&(dyn ToSql + Sync)> = vec![&self.subject, &id_value];
        values.extend(set.iter().map(|(_, value)| value as &(dyn ToSql + Sync)));
        self.execute(sql, &values)?;
        self.execute(
            "DELETE FROM anchors WHERE subject_id = $2 AND memory_id = $1",
            &[&(id as i64), &self.subject],
        )?;
        self.insert_anchors(id, &revised.anchors)
    }

    fn replace_text(&self, id: u64, text: &str, content_hash: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET text = $3, content_hash = $4, updated_at = $5 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &text, &content_hash, &now],
        )?;
        Ok(())
    }

    fn set_status(&self, id: u64, status: Status, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET status = $3, updated_at = $4 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &status.as_str(), &now],
        )?;
        Ok(())
    }

    fn forget(&self, id: u64, now: i64) -> Result<()> {
        self.execute(
            &format!(
                "UPDATE memories SET {}, updated_at = $3 WHERE subject_id = $1 AND id = $2",
                rows::FORGOTTEN
            ),
            &[&self.subject, &(id as i64), &now],
        )?;
        self.execute(
            "DELETE FROM anchors WHERE subject_id = $2 AND memory_id = $1",
            &[&(id as i64), &self.subject],
        )?;
        Ok(())
    }

    fn set_supersedes(&self, id: u64, replaces: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET supersedes = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &(replaces as i64)],
        )?;
        Ok(())
    }

    fn set_forgets(&self, id: u64, target: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET forgets = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &(target as i64)],
        )?;
        Ok(())
    }

    fn accept(&self, id: u64, badge: Badge, reviewer: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET badge = $3, reviewed_at = $4, reviewed_by = $5, updated_at = $4 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &badge.as_str(), &now, &reviewer],
        )?;
        Ok(())
    }

    fn reject(&self, id: u64, reviewer: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET status = 'rejected', reviewed_at = $3, reviewed_by = $4, updated_at = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &now, &reviewer],
        )?;
        Ok(())
    }

    fn delete_memory(&self, id: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET supersedes = NULL WHERE subject_id = $1 AND supersedes = $2",
            &[&self.subject, &(id as i64)],
        )?;
        self.execute(
            "DELETE FROM memories WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64)],
        )?;
        Ok(())
    }

    fn append_event(&self, id: Option<u64>, now: i64, event: &Event<'_>) -> Result<()> {
        self.execute(
            "INSERT INTO events (subject_id, at, actor, action, memory_id, before_hash, after_hash, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &self.subject,
                &now,
                &event.actor,
                &event.action,
                &id.map(|id| id as i64),
                &event.before_hash,
                &event.after_hash,
                &event.detail,
            ],
        )?;
        Ok(())
    }

    fn save_setting(&self, thread: Option<&str>, key: &str, value: &str) -> Result<Option<String>> {
        let thread = thread.unwrap_or("");
        let previous = self
            .query_opt(
                "SELECT value FROM settings WHERE subject_id = $1 AND thread = $2 AND key = $3",
                &[&self.subject, &thread, &key],
            )?
            .map(|row| row.get(0));
        self.execute(
            "INSERT INTO settings (subject_id, thread, key, value) VALUES ($1, $2, $3, $4)
             ON CONFLICT (subject_id, thread, key) DO UPDATE SET value = excluded.value",
            &[&self.subject, &thread, &key, &value],
        )?;
        Ok(previous)
    }

    fn set_meta_value(&self, key: &str, value: &str) -> Result<()> {
        self.execute(
            "INSERT INTO meta (subject_id, key, value) VALUES ($1, $2, $3)
             ON CONFLICT (subject_id, key) DO UPDATE SET value = excluded.value",
            &[&self.subject, &key, &value],
        )?;
        Ok(())
    }
}

/// A value bound as the column's own type; one the column cannot hold is refused, never
/// written as another type's bytes.
impl ToSql for rows::Value<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        let refused = || format!("{self:?} bound to a column of type {ty}").into();
        match self {
            rows::Value::Null => Ok(postgres::types::IsNull::Yes),
            rows::Value::Integer(n) if <i64 as ToSql>::accepts(ty) => n.to_sql(ty, out),
            rows::Value::Real(x) if <f64 as ToSql>::accepts(ty) => x.to_sql(ty, out),
            rows::Value::Text(text) if <&str as ToSql>::accepts(ty) => {
                text.as_ref().to_sql(ty, out)
            }
            _ => Err(refused()),
        }
    }

    fn accepts(ty: &postgres::types::Type) -> bool {
        <i64 as ToSql>::accepts(ty) || <f64 as ToSql>::accepts(ty) || <&str as ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}
