//! The `settings` table: one row per key, per thread (`''` is global).

use rusqlite::{Connection, OptionalExtension, params};

use crate::settings::{Layer, Settings, apply};

/// The settings in force for `thread` (the global ones when `None`).
pub fn effective(conn: &Connection, thread: Option<&str>) -> rusqlite::Result<Settings> {
    let mut settings = Settings::default();
    let mut stmt = conn.prepare_cached("SELECT key, value FROM settings WHERE thread = ?1")?;
    let layers = std::iter::once(("", Layer::Global)).chain(thread.map(|t| (t, Layer::Thread)));
    for (scope, layer) in layers {
        let rows = stmt.query_map([scope], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (key, value) = row?;
            apply(&mut settings, layer, &key, &value);
        }
    }
    Ok(settings)
}

/// Stores a setting (already normalised); returns the previous stored value, if any.
pub(super) fn save(
    tx: &Connection,
    thread: Option<&str>,
    key: &str,
    value: &str,
) -> rusqlite::Result<Option<String>> {
    let thread = thread.unwrap_or("");
    let previous = tx
        .query_row(
            "SELECT value FROM settings WHERE thread = ?1 AND key = ?2",
            params![thread, key],
            |row| row.get(0),
        )
        .optional()?;
    tx.execute(
        "INSERT INTO settings (thread, key, value) VALUES (?1, ?2, ?3)
         ON CONFLICT (thread, key) DO UPDATE SET value = excluded.value",
        params![thread, key, value],
    )?;
    Ok(previous)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ShareMode;

    fn conn() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(crate::store::SQLITE_MIGRATIONS[0])
            .unwrap();
        conn
    }

    #[test]
    fn a_thread_narrows_the_global_settings_and_only_for_itself() {
        let mut conn = conn();
        let tx = conn.transaction().unwrap();
        save(&tx, None, "allow_writes", "false").unwrap();
        save(&tx, Some("t1"), "allow_writes", "true").unwrap();
        save(&tx, Some("t1"), "share_confirmed_findings", "off").unwrap();
        save(&tx, Some("t2"), "allow_recall", "false").unwrap();
        tx.commit().unwrap();
        assert!(!effective(&conn, None).unwrap().allow_writes);
        assert!(!effective(&conn, Some("t2")).unwrap().allow_writes);
        let t1 = effective(&conn, Some("t1")).unwrap();
        assert!(
            !t1.allow_writes,
            "a thread cannot turn on what is off globally"
        );
        assert_eq!(t1.share_confirmed_findings, ShareMode::Off);
        assert!(t1.allow_recall, "untouched settings keep their defaults");
        assert!(!effective(&conn, Some("t2")).unwrap().allow_recall);
        assert!(
            effective(&conn, None).unwrap().allow_recall,
            "a thread's off is its own"
        );
    }
}
