//! The anchor index: which memories have an anchor that can match a place in the subject.
//!
//! Each kind of match is its own indexed query. Containment ("the cursor is inside this
//! function or range") is bounded by the widest span stored, read from an index, so the scan
//! covers only anchors that start close enough below the cursor; radii likewise.

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, params};

/// The ids of active, unquarantined memories with an anchor that can match `offset` (exact,
/// inside a function or range, within a radius), the function starting at `function_start` or
/// named `function_name`, or one of `strings`: the `limit` newest.
pub(super) fn anchored_ids(
    conn: &Connection,
    offset: Option<u64>,
    function_start: Option<u64>,
    function_name: Option<&str>,
    strings: &[String],
    limit: u32,
) -> rusqlite::Result<Vec<u64>> {
    let mut ids = BTreeSet::new();
    let mut collect = |sql: &str, args: &[&dyn rusqlite::ToSql]| -> rusqlite::Result<()> {
        let mut stmt = conn.prepare_cached(sql)?;
        let rows = stmt.query_map(args, |row| row.get::<_, i64>(0))?;
        for id in rows {
            ids.insert(id? as u64);
        }
        Ok(())
    };
    if let Some(offset) = offset {
        let o = offset as i64;
        collect(
            "SELECT memory_id FROM anchors WHERE start = ?1 AND kind = 'address'",
            &[&o],
        )?;
        if let Some(span) = widest(
            conn,
            "SELECT max(end - start) FROM anchors WHERE kind IN ('function', 'range')",
        )? {
            collect(
                "SELECT memory_id FROM anchors
                 WHERE start BETWEEN ?1 - ?2 AND ?1 AND kind IN ('function', 'range') AND end > ?1",
                &[&o, &span],
            )?;
        }
        if let Some(radius) = widest(conn, "SELECT max(radius) FROM anchors WHERE kind = 'near'")? {
            collect(
                "SELECT memory_id FROM anchors
                 WHERE start BETWEEN ?1 - ?2 AND ?1 + ?2 AND kind = 'near' AND abs(start - ?1) <= radius",
                &[&o, &radius],
            )?;
        }
    }
    if let Some(start) = function_start {
        collect(
            "SELECT memory_id FROM anchors WHERE start = ?1 AND kind = 'function'",
            &[&(start as i64)],
        )?;
    }
    if let Some(name) = function_name {
        collect(
            "SELECT memory_id FROM anchors WHERE name = ?1 AND kind = 'function'",
            &[&name],
        )?;
    }
    for value in strings.iter().take(256) {
        collect(
            "SELECT memory_id FROM anchors WHERE value = ?1 AND kind = 'string'",
            &[value],
        )?;
    }
    // Newest first, only memories that may be used.
    let mut usable = conn.prepare_cached(
        "SELECT 1 FROM memories WHERE id = ?1 AND status = 'active' AND badge IN ('native', 'foreign')",
    )?;
    let mut out = Vec::new();
    for &id in ids.iter().rev() {
        if out.len() >= limit as usize {
            break;
        }
        if usable
            .query_row(params![id as i64], |_| Ok(()))
            .optional()?
            .is_some()
        {
            out.push(id);
        }
    }
    Ok(out)
}

/// The widest span or radius stored (`None` when there are no such anchors).
fn widest(conn: &Connection, sql: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(sql)?
        .query_row([], |row| row.get::<_, Option<i64>>(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SQLITE_MIGRATIONS as MIGRATIONS;

    /// kind, start, end, radius, name, value: one memory each.
    type Row<'a> = (
        &'a str,
        i64,
        Option<i64>,
        Option<i64>,
        Option<&'a str>,
        Option<&'a str>,
    );

    fn store(anchors: &[Row<'_>]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for migration in MIGRATIONS {
            conn.execute_batch(migration).unwrap();
        }
        for (n, (kind, start, end, radius, name, value)) in anchors.iter().enumerate() {
            conn.execute(
                "INSERT INTO memories (id, scope, kind, text, confidence, author, badge, status, content_hash, created_at, updated_at)
                 VALUES (?1, 'local', 'fact', 'x', 0.5, 'agent', 'native', 'active', 'h', 0, 0)",
                [n as i64 + 1],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO anchors (memory_id, kind, start, end, radius, name, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![n as i64 + 1, kind, start, end, radius, name, value],
            )
            .unwrap();
        }
        conn
    }

    #[test]
    fn every_kind_of_anchor_matches_its_place_and_nothing_else() {
        let conn = store(&[
            ("address", 0x1000, None, None, None, None),
            ("function", 0x2000, Some(0x2400), None, Some("parse"), None),
            ("range", 0x3000, Some(0x3010), None, None, None),
            ("near", 0x5000, None, Some(0x20), None, None),
            ("string", 0, None, None, None, Some("GetProcAddress")),
            ("function", 0x9000, None, None, Some("main"), None),
        ]);
        let at = |offset: u64| anchored_ids(&conn, Some(offset), None, None, &[], 100).unwrap();
        assert_eq!(at(0x1000), vec![1]);
        assert_eq!(at(0x1001), Vec::<u64>::new());
        assert_eq!(at(0x23ff), vec![2]);
        assert_eq!(at(0x2400), Vec::<u64>::new(), "ends are exclusive");
        assert_eq!(at(0x300f), vec![3]);
        assert_eq!(at(0x4fe0), vec![4]);
        assert_eq!(at(0x4fdf), Vec::<u64>::new());
        let strings = vec!["GetProcAddress".to_owned()];
        assert_eq!(
            anchored_ids(&conn, None, None, None, &strings, 100).unwrap(),
            vec![5]
        );
        assert_eq!(
            anchored_ids(&conn, None, Some(0x9000), None, &[], 100).unwrap(),
            vec![6]
        );
        assert_eq!(
            anchored_ids(&conn, None, None, Some("main"), &[], 100).unwrap(),
            vec![6]
        );
    }

    #[test]
    fn quarantined_and_forgotten_memories_never_match_and_the_newest_come_first() {
        let conn = store(&[
            ("address", 0x10, None, None, None, None),
            ("address", 0x10, None, None, None, None),
            ("address", 0x10, None, None, None, None),
            ("address", 0x10, None, None, None, None),
        ]);
        conn.execute("UPDATE memories SET badge = 'pending' WHERE id = 2", [])
            .unwrap();
        conn.execute("UPDATE memories SET status = 'forgotten' WHERE id = 3", [])
            .unwrap();
        assert_eq!(
            anchored_ids(&conn, Some(0x10), None, None, &[], 100).unwrap(),
            vec![4, 1]
        );
        assert_eq!(
            anchored_ids(&conn, Some(0x10), None, None, &[], 1).unwrap(),
            vec![4]
        );
    }
}
