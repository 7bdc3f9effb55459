//! The SQLite statements that add rows: a memory with its anchors (the one insert every write
//! and import goes through), audit events and the jobs' records. Each runs inside the
//! caller's transaction.

use kenning_contract::types::Anchor;
use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::rows::{self, RowState};
use crate::store::{AnchorRow, Event, NewMemory};

/// Inserts the row of `memory` and its anchors; returns the new id. Every way a memory enters
/// the store (a write, an import) goes through this one statement, prepared once per
/// connection.
pub(crate) fn insert_row(tx: &Connection, memory: &NewMemory, state: &RowState<'_>) -> Result<u64> {
    let row = rows::inserted(memory, state);
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        format!(
            "INSERT INTO memories ({}) VALUES ({})",
            rows::column_list(&row),
            rows::placeholders('?', 1, row.len())
        )
    });
    tx.prepare_cached(sql)?.execute(rusqlite::params_from_iter(
        row.iter().map(|(_, value)| value),
    ))?;
    let id = tx.last_insert_rowid() as u64;
    insert_anchors(tx, id, &memory.anchors)?;
    Ok(id)
}

/// Writes a memory's anchors.
pub(crate) fn insert_anchors(tx: &Connection, id: u64, anchors: &[Anchor]) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO anchors (memory_id, kind, start, end, radius, name, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for anchor in anchors {
        let row = AnchorRow::of(anchor);
        stmt.execute(params![
            id as i64, row.kind, row.start, row.end, row.radius, row.name, row.value
        ])?;
    }
    Ok(())
}

/// Appends an audit event, about a memory or (for settings) about none.
pub(crate) fn append_event_for(
    tx: &Connection,
    id: Option<u64>,
    now: i64,
    event: &Event<'_>,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO events (at, actor, action, memory_id, before_hash, after_hash, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![now, event.actor, event.action, id.map(|id| id as i64), event.before_hash, event.after_hash, event.detail])?;
    Ok(())
}

/// Stores `value` under `key` in the `meta` table, replacing what was there.
pub(crate) fn set_meta_value(tx: &Connection, key: &str, value: &str) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )?
    .execute([key, value])
    .map(drop)
}

impl rusqlite::ToSql for rows::Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            rows::Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            rows::Value::Integer(n) => ToSqlOutput::Borrowed(ValueRef::Integer(*n)),
            rows::Value::Real(x) => ToSqlOutput::Borrowed(ValueRef::Real(*x)),
            rows::Value::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
        })
    }
}
