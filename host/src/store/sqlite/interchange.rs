//! The SQL of exports and imports (see [`crate::service::interchange`]): every memory in any
//! state for an export, the content-hash index an import checks duplicates against, and the
//! insert of an imported memory with its own timestamps, status and audit event.
//!
//! An import inserts thousands of rows in one transaction, so every statement here is prepared
//! once per connection (`prepare_cached`) and no insert re-reads the settings.

use std::collections::HashMap;

use rusqlite::Connection;

use super::reads::{attach_anchors, memory_from_row};
use crate::error::Result;
use crate::store::contract::IndexSoFar;
use crate::store::{Memory, MemoryTarget, StoredPlacement};

/// Every memory in any state, oldest id first, with its anchors and the id of the memory it
/// supersedes (if any).
pub(super) fn all_memories(conn: &Connection) -> rusqlite::Result<Vec<(Memory, Option<u64>)>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {}, supersedes FROM memories ORDER BY id",
        crate::store::rows::columns()
    ))?;
    let mut supersedes = Vec::new();
    let mut memories: Vec<Memory> = stmt
        .query_map([], |row| {
            supersedes.push(
                row.get::<_, Option<i64>>(crate::store::rows::Column::ALL.len())?
                    .map(|id| id as u64),
            );
            memory_from_row(row)
        })?
        .collect::<rusqlite::Result<_>>()?;
    attach_anchors(conn, &mut memories)?;
    Ok(memories.into_iter().zip(supersedes).collect())
}

/// The ids of the stored memories (in any state) by content hash.
pub(super) fn ids_by_hash(conn: &Connection) -> rusqlite::Result<HashMap<String, Vec<u64>>> {
    let mut stmt = conn.prepare("SELECT id, content_hash FROM memories")?;
    let mut index: HashMap<String, Vec<u64>> = HashMap::new();
    let rows = stmt.query_map([], |row| {
        Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
    })?;
    for row in rows {
        let (id, hash) = row?;
        index.entry(hash).or_default().push(id);
    }
    Ok(index)
}

/// Runs `load`, which inserts memories, with the full-text index's insert trigger dropped,
/// then indexes every row it inserted that is not indexed yet and puts the trigger back exactly
/// as it was, all inside `tx`: the index is whole when the transaction commits, and a failure
/// anywhere rolls everything back, the trigger's removal included. `load` may index the rows it
/// inserted so far through the callback it is handed. Into an empty store the other indexes of
/// the memories and anchors are dropped and built again at the end too (see [`drop_indexes`]).
///
/// Indexing rows many at a time costs several times less than one trigger run a row; and an
/// insert that fires no trigger needs no statement journal, which SQLite otherwise writes
/// for each one.
pub(super) fn with_indexing_deferred<T>(
    tx: &Connection,
    load: impl FnOnce(&mut IndexSoFar<'_>) -> Result<T>,
) -> Result<T> {
    let mut indexed: i64 = last_id(tx)?;
    let trigger: String = tx.query_row(
        "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?1",
        [FTS_INSERT_TRIGGER],
        |row| row.get(0),
    )?;
    tx.execute_batch(&format!("DROP TRIGGER {FTS_INSERT_TRIGGER}"))?;
    let indexes = if indexed == 0 {
        drop_indexes(tx)?
    } else {
        Vec::new()
    };
    let mut index_so_far = || -> Result<()> {
        let last = last_id(tx)?;
        tx.prepare_cached(
            "INSERT INTO memories_fts(rowid, text, tags)
             SELECT id, text, tags FROM memories WHERE id > ?1 AND id <= ?2",
        )?
        .execute([indexed, last])?;
        indexed = last;
        Ok(())
    };
    let loaded = load(&mut index_so_far)?;
    index_so_far()?;
    tx.execute_batch(&trigger)?;
    for index in indexes {
        tx.execute_batch(&index)?;
    }
    Ok(loaded)
}

/// Drops the indexes of the memories and their anchors, returning the statements that create
/// them again. Only for a load into an empty store: building an index once over all its rows
/// (one sort) costs less than putting each row in its place as it comes, but rebuilding the
/// index of a large store to add a few rows would cost more. Nothing a load reads uses them:
/// an empty store has no duplicates to look up.
fn drop_indexes(tx: &Connection) -> Result<Vec<String>> {
    let indexes: Vec<(String, String)> = tx
        .prepare(
            "SELECT name, sql FROM sqlite_schema
             WHERE type = 'index' AND tbl_name IN ('memories', 'anchors') AND sql IS NOT NULL",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (name, _) in &indexes {
        tx.execute_batch(&format!("DROP INDEX \"{name}\""))?;
    }
    Ok(indexes.into_iter().map(|(_, sql)| sql).collect())
}

/// The highest memory id in use (0 in an empty store).
fn last_id(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT coalesce(max(id), 0) FROM memories", [], |row| {
        row.get(0)
    })
}

/// The trigger that indexes each inserted memory for full-text search (schema migration 5).
const FTS_INSERT_TRIGGER: &str = "memories_fts_insert";

/// Where stored memory `id` is placed: scope, profile target, day and anchors, for comparing
/// with a memory about to be imported. `None` when there is no such memory.
pub(super) fn placement_of(
    conn: &Connection,
    id: u64,
) -> rusqlite::Result<Option<StoredPlacement>> {
    let mut stmt = conn.prepare_cached("SELECT scope, target, day FROM memories WHERE id = ?1")?;
    let mut rows = stmt.query([id as i64])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let scope: String = row.get(0)?;
    let target = row
        .get::<_, Option<String>>(1)?
        .and_then(|t| MemoryTarget::parse(&t));
    let day: Option<String> = row.get(2)?;
    Ok(Some((scope, target, day, super::anchors_of(conn, id)?)))
}

#[cfg(test)]
mod tests {
    use crate::error::KenningError;
    use kenning_contract::types::{Anchor, FunctionAnchor, OffsetRadius, Scope};

    use crate::store::{Badge, KnowledgeBase, NewMemory, TEST_EVENT, global_fact};

    /// The stored text of the full-text index's insert trigger.
    fn index_trigger(kb: &KnowledgeBase) -> String {
        kb.conn()
            .query_row(
                "SELECT sql FROM sqlite_schema WHERE name = 'memories_fts_insert'",
                [],
                |row| row.get(0),
            )
            .unwrap()
    }

    #[test]
    fn a_bulk_load_puts_the_index_trigger_back_as_it_was_whether_it_succeeds_or_fails() {
        let dir = tempfile::tempdir().unwrap();
        let mut kb = KnowledgeBase::open_or_create(&dir.path().join("profile-x.sqlite")).unwrap();
        let before = index_trigger(&kb);
        kb.write(|tx| {
            tx.bulk_load(&mut |_| {
                tx.insert_memory(
                    &global_fact("loaded in bulk"),
                    Badge::Native,
                    1,
                    &TEST_EVENT,
                )
                .map(drop)
            })
        })
        .unwrap();
        assert_eq!(index_trigger(&kb), before);
        let failed =
            kb.write(|tx| tx.bulk_load(&mut |_| Err(KenningError::Forbidden("stop".into()))));
        assert!(
            matches!(&failed, Err(KenningError::Forbidden(stop)) if stop == "stop"),
            "the load's own error comes back: {failed:?}"
        );
        assert_eq!(index_trigger(&kb), before);
        kb.write(|tx| {
            tx.insert_memory(
                &global_fact("written one by one"),
                Badge::Native,
                2,
                &TEST_EVENT,
            )
            .map(drop)
        })
        .unwrap();
        let indexed: i64 = kb
            .conn()
            .query_row(
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'bulk OR one'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(
            indexed, 2,
            "both the loaded and the later memory are indexed"
        );
    }

    /// The name and statement of every index of the memories and their anchors.
    fn indexes(kb: &KnowledgeBase) -> Vec<(String, String)> {
        kb.conn()
            .prepare(
                "SELECT name, sql FROM sqlite_schema
                 WHERE type = 'index' AND tbl_name IN ('memories', 'anchors') AND sql IS NOT NULL
                 ORDER BY name",
            )
            .unwrap()
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn a_bulk_load_into_an_empty_store_builds_its_indexes_at_the_end_exactly_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let mut kb = KnowledgeBase::open_or_create(&dir.path().join("binary-x.sqlite")).unwrap();
        let before = indexes(&kb);
        assert!(before.len() >= 10, "{before:?}");
        let anchored = |i: u64| NewMemory {
            scope: Scope::Local,
            anchors: vec![
                Anchor::Function(FunctionAnchor {
                    start: 0x1000 * i,
                    end: Some(0x1000 * i + 0x80),
                    name: format!("fn_{i}"),
                }),
                Anchor::Near(OffsetRadius {
                    offset: 0x1000 * i,
                    radius: 16,
                }),
            ],
            ..global_fact(&format!("loaded note {i}"))
        };
        let failed = kb.write(|tx| {
            tx.bulk_load(&mut |_| {
                tx.insert_memory(&anchored(1), Badge::Native, 1, &TEST_EVENT)?;
                Err(KenningError::Forbidden("stop".into()))
            })
        });
        assert!(
            matches!(&failed, Err(KenningError::Forbidden(stop)) if stop == "stop"),
            "the load's own error comes back: {failed:?}"
        );
        assert_eq!(indexes(&kb), before, "a failed load drops nothing");
        for round in 0..2 {
            kb.write(|tx| {
                tx.bulk_load(&mut |_| {
                    for i in 1..=50 {
                        tx.insert_memory(
                            &anchored(round * 100 + i),
                            Badge::Native,
                            1,
                            &TEST_EVENT,
                        )?;
                    }
                    Ok(())
                })
            })
            .unwrap();
            assert_eq!(indexes(&kb), before, "after load {round}");
        }
        let conn = kb.conn();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok", "every index holds exactly its table's rows");
        let by_name: i64 = conn
            .query_row(
                "SELECT count(*) FROM anchors INDEXED BY anchors_by_name WHERE name = 'fn_107'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(by_name, 1);
    }

    #[test]
    fn rows_indexed_during_a_bulk_load_are_indexed_once_and_the_rest_at_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let mut kb = KnowledgeBase::open_or_create(&dir.path().join("profile-x.sqlite")).unwrap();
        let words = ["alpha", "bravo", "charlie", "delta", "echo"];
        kb.write(|tx| {
            tx.bulk_load(&mut |index_so_far| {
                for (i, word) in words.iter().enumerate() {
                    let fact = global_fact(&format!("loaded {word}"));
                    tx.insert_memory(&fact, Badge::Native, 1, &TEST_EVENT)?;
                    // Twice in a row after the second row, once after the fourth: a round
                    // with nothing new to index is harmless.
                    if i == 1 {
                        index_so_far()?;
                        index_so_far()?;
                    }
                    if i == 3 {
                        index_so_far()?;
                    }
                }
                Ok(())
            })
        })
        .unwrap();
        let conn = kb.conn();
        // The index of an external-content table is checked against the rows themselves:
        // a row indexed twice or never fails the check.
        conn.execute_batch(
            "INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)",
        )
        .unwrap();
        for word in words {
            let found: i64 = conn
                .query_row(
                    "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?1",
                    [word],
                    |row| row.get(0),
                )
                .unwrap();
            assert_eq!(found, 1, "{word} is indexed once");
        }
    }
}
