//! Changes to stored memories after they are written: revisions, status changes, profile
//! entry edits, review decisions. Each runs inside the caller's transaction, which also appends
//! the audit event (see [`super::connection::KnowledgeBase::write`]).

use rusqlite::{Connection, params};

use super::reads::anchors_of;
use super::writes::insert_anchors;
use crate::error::Result;
use crate::store::{Badge, NewMemory, Placement, Status};

/// Overwrites memory `id` with `revised` (text, kind, tags, categories, confidence, thread,
/// image base and anchors), whose text hashes to `content_hash`.
pub(super) fn update_memory(
    tx: &Connection,
    id: u64,
    revised: &NewMemory,
    content_hash: &str,
    now: i64,
) -> Result<()> {
    let set = crate::store::rows::revised(revised, content_hash, now);
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        format!(
            "UPDATE memories SET {} WHERE id = ?1",
            crate::store::rows::set_list('?', 2, &set)
        )
    });
    let row_id = id as i64;
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&row_id];
    values.extend(set.iter().map(|(_, value)| value as &dyn rusqlite::ToSql));
    tx.prepare_cached(sql)?.execute(values.as_slice())?;
    tx.execute("DELETE FROM anchors WHERE memory_id = ?1", [row_id])?;
    insert_anchors(tx, id, &revised.anchors)
}

/// Replaces the text of memory `id` (a profile entry), whose new text hashes to `content_hash`.
pub(super) fn replace_text(
    tx: &Connection,
    id: u64,
    text: &str,
    content_hash: &str,
    now: i64,
) -> Result<()> {
    tx.execute(
        "UPDATE memories SET text = ?2, content_hash = ?3, updated_at = ?4 WHERE id = ?1",
        params![id as i64, text, content_hash, now],
    )?;
    Ok(())
}

/// Sets the life-cycle status of memory `id` (forgotten, superseded, ...).
pub(super) fn set_status(tx: &Connection, id: u64, status: Status, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE memories SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id as i64, status.as_str(), now],
    )?;
    Ok(())
}

/// Forgets memory `id`: status `forgotten`, and its text, tags, categories, thread, metadata
/// and anchors erased (the full-text index follows the row through its update trigger).
pub(super) fn forget(tx: &Connection, id: u64, now: i64) -> Result<()> {
    tx.prepare_cached(&format!(
        "UPDATE memories SET {}, updated_at = ?2 WHERE id = ?1",
        crate::store::rows::FORGOTTEN
    ))?
    .execute(params![id as i64, now])?;
    tx.execute("DELETE FROM anchors WHERE memory_id = ?1", [id as i64])?;
    Ok(())
}

/// Records that proposal `id` would replace memory `replaces` once accepted.
pub(super) fn set_supersedes(tx: &Connection, id: u64, replaces: u64) -> Result<()> {
    tx.execute(
        "UPDATE memories SET supersedes = ?2 WHERE id = ?1",
        params![id as i64, replaces as i64],
    )?;
    Ok(())
}

/// Records that proposal `id` forgets memory `target` once accepted.
pub(super) fn set_forgets(tx: &Connection, id: u64, target: u64) -> Result<()> {
    tx.execute(
        "UPDATE memories SET forgets = ?2 WHERE id = ?1",
        params![id as i64, target as i64],
    )?;
    Ok(())
}

/// Accepts proposal `id` with `badge`, naming the reviewer.
pub(super) fn accept(
    tx: &Connection,
    id: u64,
    badge: Badge,
    reviewer: &str,
    now: i64,
) -> Result<()> {
    tx.execute(
        "UPDATE memories SET badge = ?2, reviewed_at = ?3, reviewed_by = ?4, updated_at = ?3 WHERE id = ?1",
        params![id as i64, badge.as_str(), now, reviewer],
    )?;
    Ok(())
}

/// Rejects proposal `id`, naming the reviewer; the row stays for the audit trail.
pub(super) fn reject(tx: &Connection, id: u64, reviewer: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE memories SET status = 'rejected', reviewed_at = ?2, reviewed_by = ?3, updated_at = ?2 WHERE id = ?1",
        params![id as i64, now, reviewer],
    )?;
    Ok(())
}

/// Deletes memory `id` for good; its anchors and its full-text entry go with it.
pub(super) fn delete(tx: &Connection, id: u64) -> Result<()> {
    tx.execute("DELETE FROM memories WHERE id = ?1", [id as i64])?;
    Ok(())
}

/// An active memory with the same content hash and the same placement, if any. Writers ask
/// inside their write transaction, so two identical writes racing each other store one memory.
pub(super) fn find_active_duplicate(
    conn: &Connection,
    content_hash: &str,
    placement: Placement<'_>,
) -> Result<Option<u64>> {
    let mut stmt = conn.prepare_cached("SELECT id FROM memories WHERE content_hash = ?1 AND scope = ?2 AND status = 'active' AND target IS ?3 AND day IS ?4")?;
    let ids: Vec<u64> = stmt
        .query_map(
            params![
                content_hash,
                placement.scope.as_str(),
                placement.profile.map(|p| p.0.as_str()),
                placement.profile.and_then(|p| p.1)
            ],
            |row| row.get::<_, i64>(0).map(|id| id as u64),
        )
        .and_then(|rows| rows.collect())?;
    for id in ids {
        if anchors_of(conn, id)? == placement.anchors {
            return Ok(Some(id));
        }
    }
    Ok(None)
}
