//! The SQLite statements that read memories back: by id, in bulk, in review, in order, with
//! their anchors, each row read by its named columns ([`crate::store::rows`]); and the counts
//! and records the jobs read.

use std::collections::HashMap;

use kenning_contract::types::{Anchor, Scope};
use rusqlite::{Connection, OptionalExtension, params};

use crate::store::rows;
use crate::store::{AnchorRow, Memory};

/// ` LIMIT {limit} OFFSET {offset}`, the numbers written into the SQL rather than bound.
///
/// SQLite lets a bound `LIMIT ?` steer the plan, so a statement whose bound limit is cleared or
/// changed is planned again on its next step; rusqlite clears the bindings of every cached
/// statement it takes back. With bound limits every search re-planned every query (about 13%
/// of a recall). Integers in the text are safe, and the few distinct page sizes a store sees
/// each keep a plan of their own.
pub(crate) fn limit_sql(limit: u64, offset: u64) -> String {
    format!(" LIMIT {limit} OFFSET {offset}")
}

/// The value stored under `key` in the store's `meta` table (the jobs' records: last runs,
/// turn counts), if any.
pub(crate) fn meta_value(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
        row.get(0)
    })
    .optional()
}

/// Whether another memory names `id` as the one it supersedes.
pub(crate) fn is_superseded_by_another(conn: &Connection, id: u64) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM memories WHERE supersedes = ?1 AND id != ?1)",
        [id as i64],
        |row| row.get(0),
    )
}

/// The proposal awaiting review that would forget memory `id`, if any.
pub(crate) fn forget_proposal_for(conn: &Connection, id: u64) -> rusqlite::Result<Option<u64>> {
    conn.query_row(
        "SELECT id FROM memories WHERE forgets = ?1 AND status = 'active' AND badge IN ('pending', 'inbound_pending') ORDER BY id LIMIT 1",
        [id as i64],
        |row| row.get::<_, i64>(0),
    )
    .optional()
    .map(|id| id.map(|id| id as u64))
}

/// How many segments the full-text index holds: every query reads each of them.
pub(crate) fn index_segments(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row(
        "SELECT count(DISTINCT segid) FROM memories_fts_idx",
        [],
        |row| row.get::<_, i64>(0),
    )
    .map(|n| n.max(0) as u64)
}

/// The memory a pending proposal would replace once accepted.
pub(crate) fn supersedes(conn: &Connection, id: u64) -> rusqlite::Result<Option<u64>> {
    conn.query_row(
        "SELECT supersedes FROM memories WHERE id = ?1",
        [id as i64],
        |row| row.get::<_, Option<i64>>(0),
    )
    .optional()
    .map(|value| value.flatten().map(|id| id as u64))
}

/// Active memories awaiting review (PENDING and INBOUND-PENDING), oldest first.
pub(crate) fn in_review(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<Memory>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id FROM memories WHERE status = 'active' AND badge IN ('pending', 'inbound_pending') ORDER BY id{}",
        limit_sql(limit.into(), 0)
    ))?;
    let ids: Vec<u64> = stmt
        .query_map([], |row| row.get::<_, i64>(0).map(|id| id as u64))?
        .collect::<rusqlite::Result<_>>()?;
    get_memories(conn, &ids)
}

/// How many active memories the knowledge base holds (pending ones included).
pub(crate) fn count_active(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row(
        "SELECT count(*) FROM memories WHERE status = 'active'",
        [],
        |row| row.get::<_, i64>(0),
    )
    .map(|n| n as u64)
}

/// Totals for `kenning stats`.
pub(crate) fn stats(conn: &Connection) -> rusqlite::Result<serde_json::Value> {
    let group = |column: &str| -> rusqlite::Result<serde_json::Map<String, serde_json::Value>> {
        let mut stmt = conn.prepare(&format!(
            "SELECT {column}, count(*) FROM memories WHERE status = 'active' GROUP BY {column} ORDER BY {column}"
        ))?;
        let rows = stmt.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        rows.map(|row| row.map(|(key, n)| (key, serde_json::Value::from(n))))
            .collect()
    };
    let (oldest, newest): (Option<i64>, Option<i64>) = conn.query_row(
        "SELECT min(created_at), max(created_at) FROM memories WHERE status = 'active'",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    let by_status = {
        let mut stmt =
            conn.prepare("SELECT status, count(*) FROM memories GROUP BY status ORDER BY status")?;
        let rows = stmt.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        rows.map(|row| row.map(|(key, n)| (key, serde_json::Value::from(n))))
            .collect::<rusqlite::Result<serde_json::Map<_, _>>>()?
    };
    Ok(serde_json::json!({
        "active": count_active(conn)?,
        "by_type": group("kind")?,
        "by_scope": group("scope")?,
        "by_badge": group("badge")?,
        "by_status": by_status,
        "oldest": oldest,
        "newest": newest,
    }))
}

/// The subject's memories in id order, with their anchors: only active ones when `active_only`,
/// and at most `limit` of them.
pub(crate) fn memories_in_order(
    conn: &Connection,
    active_only: bool,
    limit: u32,
) -> rusqlite::Result<Vec<Memory>> {
    let mut memories = {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {} FROM memories WHERE (?1 = 0 OR status = 'active') ORDER BY id{}",
            rows::columns(),
            limit_sql(limit.into(), 0)
        ))?;
        stmt.query_map(params![i64::from(active_only)], memory_from_row)?
            .collect::<rusqlite::Result<Vec<Memory>>>()?
    };
    attach_anchors(conn, &mut memories)?;
    Ok(memories)
}

/// Reads one memory with its anchors.
pub(crate) fn get_memory(conn: &Connection, id: u64) -> rusqlite::Result<Option<Memory>> {
    let memory = conn
        .prepare_cached(&format!(
            "SELECT {} FROM memories WHERE id = ?1",
            rows::columns()
        ))?
        .query_row([id as i64], memory_from_row)
        .optional()?;
    match memory {
        Some(mut memory) => {
            memory.anchors = anchors_of(conn, id)?;
            Ok(Some(memory))
        }
        None => Ok(None),
    }
}

/// The memory in a row selected with [`rows::columns`].
pub(crate) fn memory_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Memory> {
    rows::memory(row).map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(error))
    })
}

impl rows::RowRead for rusqlite::Row<'_> {
    fn integer(&self, column: rows::Column) -> std::result::Result<Option<i64>, rows::RowError> {
        self.get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }

    fn real(&self, column: rows::Column) -> std::result::Result<Option<f64>, rows::RowError> {
        self.get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }

    fn text(&self, column: rows::Column) -> std::result::Result<Option<String>, rows::RowError> {
        self.get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }
}

/// A memory's anchors, in the order written.
pub(crate) fn anchors_of(conn: &Connection, id: u64) -> rusqlite::Result<Vec<Anchor>> {
    let mut stmt = conn.prepare_cached(
        "SELECT kind, start, end, radius, name, value FROM anchors WHERE memory_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([id as i64], |row| anchor_from_row(row, 0))?;
    rows.collect()
}

/// Memories by id with their anchors, in the order of `ids` (missing ids skipped), read in two
/// queries whatever their number.
pub(crate) fn get_memories(conn: &Connection, ids: &[u64]) -> rusqlite::Result<Vec<Memory>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let id_list = serde_json::to_string(ids).expect("a list of integers serialises");
    let mut by_id: HashMap<u64, Memory> = HashMap::with_capacity(ids.len());
    {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {} FROM memories WHERE id IN (SELECT value FROM json_each(?1))",
            rows::columns()
        ))?;
        for memory in stmt.query_map([&id_list], memory_from_row)? {
            let memory = memory?;
            by_id.insert(memory.id, memory);
        }
    }
    let mut memories: Vec<Memory> = ids.iter().filter_map(|id| by_id.remove(id)).collect();
    attach_anchors(conn, &mut memories)?;
    Ok(memories)
}

/// Reads the anchors of the local memories among `memories` in one query.
pub(crate) fn attach_anchors(conn: &Connection, memories: &mut [Memory]) -> rusqlite::Result<()> {
    let mut position: HashMap<u64, usize> = HashMap::new();
    for (index, memory) in memories.iter_mut().enumerate() {
        // Only local memories have anchors.
        if memory.scope == Scope::Local {
            memory.anchors.clear();
            position.insert(memory.id, index);
        }
    }
    if position.is_empty() {
        return Ok(());
    }
    let ids: Vec<u64> = position.keys().copied().collect();
    let id_list = serde_json::to_string(&ids).expect("a list of integers serialises");
    let mut stmt = conn.prepare_cached(
        "SELECT memory_id, kind, start, end, radius, name, value FROM anchors WHERE memory_id IN (SELECT value FROM json_each(?1)) ORDER BY memory_id, id",
    )?;
    let rows = stmt.query_map([&id_list], |row| {
        Ok((row.get::<_, i64>(0)? as u64, anchor_from_row(row, 1)?))
    })?;
    for row in rows {
        let (id, anchor) = row?;
        if let Some(&index) = position.get(&id) {
            memories[index].anchors.push(anchor);
        }
    }
    Ok(())
}

/// An anchor from the columns `kind, start, end, radius, name, value` starting at `first`.
fn anchor_from_row(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Anchor> {
    Ok(AnchorRow {
        kind: &row.get::<_, String>(first)?,
        start: row.get(first + 1)?,
        end: row.get(first + 2)?,
        radius: row.get(first + 3)?,
        name: row.get::<_, Option<String>>(first + 4)?.as_deref(),
        value: row.get::<_, Option<String>>(first + 5)?.as_deref(),
    }
    .anchor())
}
