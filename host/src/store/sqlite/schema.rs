//! The schema and its numbered migrations.
//!
//! `PRAGMA user_version` holds the schema version and `PRAGMA application_id` marks the file as
//! kenning's. Migration `n` (1-based) takes a store from version `n - 1` to `n`; all of them run
//! in one transaction after a backup copy of the old file is made.

/// Marks a SQLite file as a kenning knowledge base ("engr").
pub const APPLICATION_ID: i32 = 0x656e_6772;

/// The schema version this build writes.
pub const CURRENT_VERSION: i64 = MIGRATIONS.len() as i64;

/// Each entry migrates from the previous version to the next.
pub const MIGRATIONS: &[&str] = &[
    // 1: memories, anchors, full-text index, audit events, settings.
    r#"
    CREATE TABLE memories (
        id            INTEGER PRIMARY KEY,
        scope         TEXT    NOT NULL CHECK (scope IN ('global', 'local')),
        kind          TEXT    NOT NULL CHECK (kind IN ('fact', 'preference', 'context', 'conversation_summary')),
        target        TEXT             CHECK (target IN ('user', 'memory', 'daily')),
        day           TEXT,
        text          TEXT    NOT NULL,
        tags          TEXT    NOT NULL DEFAULT '',
        categories    TEXT    NOT NULL DEFAULT '[]',
        confidence    REAL    NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        author        TEXT    NOT NULL CHECK (author IN ('human', 'agent', 'triage', 'external', 'peer')),
        badge         TEXT    NOT NULL CHECK (badge IN ('native', 'pending', 'inbound_pending', 'foreign')),
        status        TEXT    NOT NULL CHECK (status IN ('active', 'forgotten', 'rejected', 'superseded')),
        thread        TEXT,
        content_hash  TEXT    NOT NULL,
        image_base    INTEGER NOT NULL DEFAULT 0,
        supersedes    INTEGER REFERENCES memories(id),
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        recall_count  INTEGER NOT NULL DEFAULT 0,
        last_recalled INTEGER
    );
    CREATE INDEX memories_by_status_scope ON memories(status, scope, updated_at);
    CREATE INDEX memories_by_hash ON memories(content_hash);

    CREATE TABLE anchors (
        id        INTEGER PRIMARY KEY,
        memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        kind      TEXT    NOT NULL CHECK (kind IN ('function', 'range', 'address', 'near', 'string')),
        start     INTEGER,
        end       INTEGER,
        radius    INTEGER,
        name      TEXT,
        value     TEXT
    );
    CREATE INDEX anchors_by_memory ON anchors(memory_id);
    CREATE INDEX anchors_by_start ON anchors(start) WHERE start IS NOT NULL;
    CREATE INDEX anchors_by_name ON anchors(name) WHERE name IS NOT NULL;
    CREATE INDEX anchors_by_value ON anchors(value) WHERE value IS NOT NULL;

    CREATE VIRTUAL TABLE memories_fts USING fts5(
        text, tags, content='memories', content_rowid='id', tokenize='porter unicode61'
    );
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', old.id, old.text, old.tags);
    END;
    CREATE TRIGGER memories_fts_update AFTER UPDATE OF text, tags ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', old.id, old.text, old.tags);
        INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
    END;

    CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        at          INTEGER NOT NULL,
        actor       TEXT    NOT NULL,
        action      TEXT    NOT NULL,
        memory_id   INTEGER,
        before_hash TEXT,
        after_hash  TEXT,
        detail      TEXT
    );

    CREATE TABLE settings (
        thread TEXT NOT NULL DEFAULT '',
        key    TEXT NOT NULL,
        value  TEXT NOT NULL,
        PRIMARY KEY (thread, key)
    );

    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    "#,
    // 2: review bookkeeping; indexes for the review queue, anchor bounds and threads.
    r#"
    ALTER TABLE memories ADD COLUMN reviewed_at INTEGER;
    ALTER TABLE memories ADD COLUMN reviewed_by TEXT;
    CREATE INDEX memories_in_review ON memories(id)
        WHERE status = 'active' AND badge IN ('pending', 'inbound_pending');
    -- Bounds for the anchor index's containment and radius queries.
    CREATE INDEX anchors_by_span ON anchors(end - start) WHERE kind IN ('function', 'range');
    CREATE INDEX anchors_by_radius ON anchors(radius) WHERE kind = 'near';
    -- Memories written together in one thread, for context around a match.
    CREATE INDEX memories_by_thread ON memories(thread, id) WHERE thread IS NOT NULL;
    "#,
    // 3: a bulk load (an import) may index its rows in one statement at the end instead of
    // one trigger run a row, which costs several times more; see store::interchange.
    r#"
    DROP TRIGGER memories_fts_insert;
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
        WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts.deferred')
    BEGIN
        INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
    END;
    "#,
    // 4: the same CHECK constraints, written as comparisons. SQLite checks `x IN (a, b, c)`
    // (more than two values) against a temporary table it builds again on every INSERT, which
    // cost an insert about as much again as writing the row. The constraints are equivalent, so
    // no row changes: only the schema's text is rewritten, by SQLite's documented procedure for
    // changing a table's constraints in place.
    r#"
    PRAGMA writable_schema = ON;
    UPDATE sqlite_schema SET sql = replace(replace(replace(replace(replace(sql,
        'CHECK (kind IN (''fact'', ''preference'', ''context'', ''conversation_summary''))',
        'CHECK (kind = ''fact'' OR kind = ''preference'' OR kind = ''context'' OR kind = ''conversation_summary'')'),
        'CHECK (target IN (''user'', ''memory'', ''daily''))',
        'CHECK (target = ''user'' OR target = ''memory'' OR target = ''daily'')'),
        'CHECK (author IN (''human'', ''agent'', ''triage'', ''external'', ''peer''))',
        'CHECK (author = ''human'' OR author = ''agent'' OR author = ''triage'' OR author = ''external'' OR author = ''peer'')'),
        'CHECK (badge IN (''native'', ''pending'', ''inbound_pending'', ''foreign''))',
        'CHECK (badge = ''native'' OR badge = ''pending'' OR badge = ''inbound_pending'' OR badge = ''foreign'')'),
        'CHECK (status IN (''active'', ''forgotten'', ''rejected'', ''superseded''))',
        'CHECK (status = ''active'' OR status = ''forgotten'' OR status = ''rejected'' OR status = ''superseded'')')
    WHERE type = 'table' AND name = 'memories';
    UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (kind IN (''function'', ''range'', ''address'', ''near'', ''string''))',
        'CHECK (kind = ''function'' OR kind = ''range'' OR kind = ''address'' OR kind = ''near'' OR kind = ''string'')')
    WHERE type = 'table' AND name = 'anchors';
    PRAGMA writable_schema = RESET;
    "#,
    // 5: a bulk load drops the index trigger for its duration (see store::interchange) instead
    // of setting a flag the trigger read on every insert; a trigger that fires also made every
    // insert keep a statement journal.
    r#"
    DROP TRIGGER memories_fts_insert;
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
    END;
    DELETE FROM meta WHERE key = 'fts.deferred';
    "#,
    // 6: a memory forgotten leaves the full-text index at once: with FTS5's secure-delete, a
    // row's entries are removed from the index's segments when it is deleted or updated,
    // instead of being masked by a tombstone until the next merge (the words stayed in the
    // file until then).
    r#"
    INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);
    "#,
    // 7: a memory's free-form metadata (a JSON object, as its writer gave it).
    r#"
    ALTER TABLE memories ADD COLUMN metadata TEXT;
    "#,
    // 8: a proposal to forget a memory (an author who may not forget it asked to): the id of the
    // memory it forgets once a reviewer accepts it. No foreign key: retention may delete the
    // memory while the proposal waits, and the review then finds it gone.
    r#"
    ALTER TABLE memories ADD COLUMN forgets INTEGER;
    "#,
];

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
