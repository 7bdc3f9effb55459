-- the postings BM25 reads, kept by the database beside the vocabulary (migration 4): for each
-- stem of a memory, how many times it occurs, keyed by subject, stem and memory as FTS5 keeps
-- its posting lists. The GIN index over `words` finds a stem's memories in no order: ranking
-- read every match's whole tsvector (4 ms a search at 100,000 memories), and a stem's newest
-- matches were found by walking the subject's memories backwards (up to 3 ms a stem). Here
-- both are a range of one index.
CREATE TABLE postings (
    subject_id  BIGINT NOT NULL,
    lexeme      TEXT   NOT NULL,
    memory_id   BIGINT NOT NULL,
    occurrences INT    NOT NULL,
    PRIMARY KEY (subject_id, lexeme, memory_id) INCLUDE (occurrences)
);
CREATE OR REPLACE FUNCTION kenning_count_stems() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A bulk load counts the subject's stems and postings once, at its end.
    IF current_setting('kenning.stems_deferred', true) = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE stems s SET documents = s.documents - 1
            FROM unnest(tsvector_to_array(OLD.words)) l
            WHERE s.subject_id = OLD.subject_id AND s.lexeme = l;
        DELETE FROM postings
            WHERE subject_id = OLD.subject_id AND memory_id = OLD.id
              AND lexeme = ANY(tsvector_to_array(OLD.words));
        UPDATE text_totals
            SET documents = documents - 1, total_length = total_length - length(OLD.words)
            WHERE subject_id = OLD.subject_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO stems (subject_id, lexeme, documents)
            SELECT NEW.subject_id, l, 1 FROM unnest(tsvector_to_array(NEW.words)) l
            ON CONFLICT (subject_id, lexeme) DO UPDATE SET documents = stems.documents + 1;
        -- A stem without positions (none are dropped by to_tsvector) counts once, as the
        -- tsvector's text form reads.
        INSERT INTO postings (subject_id, lexeme, memory_id, occurrences)
            SELECT NEW.subject_id, u.lexeme, NEW.id, coalesce(array_length(u.positions, 1), 1)
            FROM unnest(NEW.words) u;
        INSERT INTO text_totals (subject_id, documents, total_length)
            VALUES (NEW.subject_id, 1, length(NEW.words))
            ON CONFLICT (subject_id) DO UPDATE SET
                documents = text_totals.documents + 1,
                total_length = text_totals.total_length + excluded.total_length;
    END IF;
    RETURN NULL;
END $$;
INSERT INTO postings (subject_id, lexeme, memory_id, occurrences)
    SELECT m.subject_id, u.lexeme, m.id, coalesce(array_length(u.positions, 1), 1)
    FROM memories m, unnest(m.words) u;
