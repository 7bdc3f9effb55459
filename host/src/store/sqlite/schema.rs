//! The schema and its numbered migrations, each a file of `migrations/` (`NNNN_what.sql`).
//!
//! `PRAGMA user_version` holds the schema version and `PRAGMA application_id` marks the file as
//! kenning's. Migration `n` (1-based) takes a store from version `n - 1` to `n`; all of them run
//! in one transaction after a backup copy of the old file is made.

/// Marks a SQLite file as a kenning knowledge base ("engr").
pub const APPLICATION_ID: i32 = 0x656e_6772;

/// The schema version this build writes.
pub const CURRENT_VERSION: i64 = MIGRATIONS.len() as i64;

/// Each entry migrates from the previous version to the next. A new one is a new file of
/// `migrations/`, numbered next (`build.rs` lists them).
pub const MIGRATIONS: &[&str] = include!(concat!(env!("OUT_DIR"), "/sqlite_migrations.rs"));

#[cfg(test)]
mod tests {
    use crate::store::KnowledgeBase;

    /// The opcodes of `sql`'s program on a new knowledge base's connection.
    fn opcodes(kb: &KnowledgeBase, sql: &str) -> Vec<String> {
        let mut stmt = kb.conn().prepare(&format!("EXPLAIN {sql}")).unwrap();
        let rows = stmt.query_map([], |row| row.get::<_, String>(1)).unwrap();
        rows.map(Result::unwrap).collect()
    }

    const MEMORY: &str = "INSERT INTO memories (scope, kind, target, text, confidence, author, badge, status, content_hash, created_at, updated_at) VALUES ('global', 'fact', NULL, 'x', 0.5, 'agent', 'native', 'active', 'h', 1, 1)";

    #[test]
    fn writing_a_memory_or_an_anchor_builds_no_temporary_table() {
        let dir = tempfile::tempdir().unwrap();
        let kb = KnowledgeBase::open_or_create(&dir.path().join("profile-x.sqlite")).unwrap();
        for sql in [
            MEMORY,
            "INSERT INTO anchors (memory_id, kind, start) VALUES (1, 'address', 16)",
        ] {
            let program = opcodes(&kb, sql);
            assert!(
                program.iter().any(|op| op == "Insert"),
                "{sql}: {program:?}"
            );
            assert!(
                !program.iter().any(|op| op == "OpenEphemeral"),
                "{sql}: {program:?}"
            );
        }
    }

    #[test]
    fn the_rewritten_constraints_still_refuse_a_value_outside_them() {
        let dir = tempfile::tempdir().unwrap();
        let kb = KnowledgeBase::open_or_create(&dir.path().join("profile-x.sqlite")).unwrap();
        kb.conn().execute(MEMORY, []).unwrap();
        for (column, good, bad) in [
            ("kind", "'fact'", "'rumour'"),
            ("target", "'daily'", "'nowhere'"),
            ("author", "'peer'", "'stranger'"),
            ("badge", "'foreign'", "'gold'"),
            ("status", "'superseded'", "'lost'"),
        ] {
            let set = |value: &str| {
                kb.conn()
                    .execute(&format!("UPDATE memories SET {column} = {value}"), [])
            };
            set(good).unwrap_or_else(|e| panic!("{column} = {good}: {e}"));
            let refused = set(bad).expect_err(bad).to_string();
            assert!(refused.contains("CHECK constraint failed"), "{refused}");
        }
        kb.conn()
            .execute("UPDATE memories SET target = NULL", [])
            .unwrap();
        let anchor = "INSERT INTO anchors (memory_id, kind) VALUES (1, 'hunch')";
        let refused = kb.conn().execute(anchor, []).expect_err("kind").to_string();
        assert!(refused.contains("CHECK constraint failed"), "{refused}");
    }
}
