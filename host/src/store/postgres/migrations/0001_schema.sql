-- subjects, memories, anchors, events, settings and the jobs' records.
CREATE TABLE subjects (
    id         BIGSERIAL PRIMARY KEY,
    name       TEXT   NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE memories (
    id            BIGSERIAL PRIMARY KEY,
    subject_id    BIGINT  NOT NULL REFERENCES subjects(id),
    scope         TEXT    NOT NULL CHECK (scope IN ('global', 'local')),
    kind          TEXT    NOT NULL CHECK (kind IN ('fact', 'preference', 'context', 'conversation_summary')),
    target        TEXT             CHECK (target IN ('user', 'memory', 'daily')),
    day           TEXT,
    text          TEXT    NOT NULL,
    tags          TEXT    NOT NULL DEFAULT '',
    categories    TEXT    NOT NULL DEFAULT '[]',
    confidence    DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    author        TEXT    NOT NULL CHECK (author IN ('human', 'agent', 'triage', 'external', 'peer')),
    badge         TEXT    NOT NULL CHECK (badge IN ('native', 'pending', 'inbound_pending', 'foreign')),
    status        TEXT    NOT NULL CHECK (status IN ('active', 'forgotten', 'rejected', 'superseded')),
    thread        TEXT,
    content_hash  TEXT    NOT NULL,
    image_base    BIGINT  NOT NULL DEFAULT 0,
    supersedes    BIGINT  REFERENCES memories(id),
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT  NOT NULL,
    recall_count  BIGINT  NOT NULL DEFAULT 0,
    last_recalled BIGINT,
    reviewed_at   BIGINT,
    reviewed_by   TEXT,
    words         TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text || ' ' || tags)) STORED
);
CREATE INDEX memories_by_subject ON memories(subject_id, status, scope, updated_at);
CREATE INDEX memories_by_hash ON memories(subject_id, content_hash);
CREATE INDEX memories_in_review ON memories(subject_id, id)
    WHERE status = 'active' AND badge IN ('pending', 'inbound_pending');
CREATE INDEX memories_by_thread ON memories(subject_id, thread, id) WHERE thread IS NOT NULL;
CREATE INDEX memories_words ON memories USING GIN (words);

CREATE TABLE anchors (
    id        BIGSERIAL PRIMARY KEY,
    memory_id BIGINT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    kind      TEXT   NOT NULL CHECK (kind IN ('function', 'range', 'address', 'near', 'string')),
    start     BIGINT,
    "end"     BIGINT,
    radius    BIGINT,
    name      TEXT,
    value     TEXT
);
CREATE INDEX anchors_by_memory ON anchors(memory_id);
CREATE INDEX anchors_by_start ON anchors(start) WHERE start IS NOT NULL;
CREATE INDEX anchors_by_name ON anchors(name) WHERE name IS NOT NULL;
CREATE INDEX anchors_by_value ON anchors(value) WHERE value IS NOT NULL;

CREATE TABLE events (
    id          BIGSERIAL PRIMARY KEY,
    subject_id  BIGINT NOT NULL REFERENCES subjects(id),
    at          BIGINT NOT NULL,
    actor       TEXT   NOT NULL,
    action      TEXT   NOT NULL,
    memory_id   BIGINT,
    before_hash TEXT,
    after_hash  TEXT,
    detail      TEXT
);
CREATE INDEX events_by_subject ON events(subject_id, id);

CREATE TABLE settings (
    subject_id BIGINT NOT NULL REFERENCES subjects(id),
    thread     TEXT   NOT NULL DEFAULT '',
    key        TEXT   NOT NULL,
    value      TEXT   NOT NULL,
    PRIMARY KEY (subject_id, thread, key)
);

CREATE TABLE meta (
    subject_id BIGINT NOT NULL REFERENCES subjects(id),
    key        TEXT   NOT NULL,
    value      TEXT   NOT NULL,
    PRIMARY KEY (subject_id, key)
);
