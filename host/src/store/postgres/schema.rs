//! The PostgreSQL schema, as numbered migrations: one database for every subject, each row
//! carrying its subject's id (the tenancy and partition key).
//!
//! Full-text search is a generated `tsvector` over the text and tags (the `english`
//! configuration: lower-cased, stemmed, English stop words dropped, as SQLite's `porter
//! unicode61` tokenizer stems) with a GIN index.

/// The migrations, in order; migration `n` (from 1) brings the schema to version `n`.
pub const MIGRATIONS: &[&str] = &[
    // 1: subjects, memories, anchors, events, settings and the jobs' records.
    r#"
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
    "#,
    // 2: bounds for the anchor index's containment and radius queries (the widest span and
    // radius stored, read from an index).
    r#"
    CREATE INDEX anchors_by_span ON anchors(("end" - start)) WHERE kind IN ('function', 'range');
    CREATE INDEX anchors_by_radius ON anchors(radius) WHERE kind = 'near';
    "#,
    // 3: a memory's id counts within its subject, as in a subject's SQLite file: ids are the
    // same on both backends, one tenant's ids say nothing of another's writes, and a thread's
    // neighbours are the nearby ids. A new id is the subject's largest plus one, taken under
    // the subject's write lock. Ids given before stay as they were (unique, so still unique
    // within their subject).
    r#"
    ALTER TABLE anchors ADD COLUMN subject_id BIGINT;
    UPDATE anchors a SET subject_id = m.subject_id FROM memories m WHERE m.id = a.memory_id;
    ALTER TABLE anchors ALTER COLUMN subject_id SET NOT NULL;
    ALTER TABLE anchors DROP CONSTRAINT anchors_memory_id_fkey;
    ALTER TABLE memories DROP CONSTRAINT memories_supersedes_fkey;
    ALTER TABLE memories DROP CONSTRAINT memories_pkey;
    ALTER TABLE memories ADD PRIMARY KEY (subject_id, id);
    ALTER TABLE memories ALTER COLUMN id DROP DEFAULT;
    DROP SEQUENCE memories_id_seq;
    ALTER TABLE memories ADD FOREIGN KEY (subject_id, supersedes) REFERENCES memories (subject_id, id);
    ALTER TABLE anchors ADD FOREIGN KEY (subject_id, memory_id)
        REFERENCES memories (subject_id, id) ON DELETE CASCADE;
    DROP INDEX anchors_by_memory, anchors_by_start, anchors_by_name, anchors_by_value,
        anchors_by_span, anchors_by_radius;
    CREATE INDEX anchors_by_memory ON anchors(subject_id, memory_id);
    CREATE INDEX anchors_by_start ON anchors(subject_id, start) WHERE start IS NOT NULL;
    CREATE INDEX anchors_by_name ON anchors(subject_id, name) WHERE name IS NOT NULL;
    CREATE INDEX anchors_by_value ON anchors(subject_id, value) WHERE value IS NOT NULL;
    CREATE INDEX anchors_by_span ON anchors(subject_id, ("end" - start))
        WHERE kind IN ('function', 'range');
    CREATE INDEX anchors_by_radius ON anchors(subject_id, radius) WHERE kind = 'near';
    "#,
    // 4: the vocabulary BM25 reads, kept by the database as FTS5 keeps its own: how many of a
    // subject's memories hold each stem, and how many memories and stems the subject has.
    // Counting them at each query read every match of every word (and every memory, for the
    // average length): 85 ms a search at 100,000 memories.
    r#"
    CREATE TABLE stems (
        subject_id BIGINT NOT NULL REFERENCES subjects(id),
        lexeme     TEXT   NOT NULL,
        documents  BIGINT NOT NULL,
        PRIMARY KEY (subject_id, lexeme)
    );
    CREATE TABLE text_totals (
        subject_id   BIGINT PRIMARY KEY REFERENCES subjects(id),
        documents    BIGINT NOT NULL,
        total_length BIGINT NOT NULL
    );
    CREATE FUNCTION kenning_count_stems() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- A bulk load counts the subject's stems once, at its end.
        IF current_setting('kenning.stems_deferred', true) = 'on' THEN
            RETURN NULL;
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
            UPDATE stems s SET documents = s.documents - 1
                FROM unnest(tsvector_to_array(OLD.words)) l
                WHERE s.subject_id = OLD.subject_id AND s.lexeme = l;
            UPDATE text_totals
                SET documents = documents - 1, total_length = total_length - length(OLD.words)
                WHERE subject_id = OLD.subject_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO stems (subject_id, lexeme, documents)
                SELECT NEW.subject_id, l, 1 FROM unnest(tsvector_to_array(NEW.words)) l
                ON CONFLICT (subject_id, lexeme) DO UPDATE SET documents = stems.documents + 1;
            INSERT INTO text_totals (subject_id, documents, total_length)
                VALUES (NEW.subject_id, 1, length(NEW.words))
                ON CONFLICT (subject_id) DO UPDATE SET
                    documents = text_totals.documents + 1,
                    total_length = text_totals.total_length + excluded.total_length;
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER memories_count_stems AFTER INSERT OR DELETE OR UPDATE OF text, tags
        ON memories FOR EACH ROW EXECUTE FUNCTION kenning_count_stems();
    INSERT INTO stems (subject_id, lexeme, documents)
        SELECT subject_id, l, count(*) FROM memories, unnest(tsvector_to_array(words)) l
        GROUP BY subject_id, l;
    INSERT INTO text_totals (subject_id, documents, total_length)
        SELECT subject_id, count(*), sum(length(words)) FROM memories GROUP BY subject_id;
    "#,
    // 5: a memory's free-form metadata (a JSON object, as its writer gave it).
    r#"
    ALTER TABLE memories ADD COLUMN metadata TEXT;
    "#,
    // 6: a proposal to forget a memory: the id of the memory it forgets once accepted (see the
    // SQLite schema's migration 8).
    r#"
    ALTER TABLE memories ADD COLUMN forgets BIGINT;
    "#,
];
