-- the vocabulary BM25 reads, kept by the database as FTS5 keeps its own: how many of a
-- subject's memories hold each stem, and how many memories and stems the subject has.
-- Counting them at each query read every match of every word (and every memory, for the
-- average length): 85 ms a search at 100,000 memories.
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
