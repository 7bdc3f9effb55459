-- memories, anchors, full-text index, audit events, settings.
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
