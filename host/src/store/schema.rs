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
];
