-- a bulk load drops the index trigger for its duration (see sqlite/interchange.rs) instead
-- of setting a flag the trigger read on every insert; a trigger that fires also made every
-- insert keep a statement journal.
DROP TRIGGER memories_fts_insert;
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
END;
DELETE FROM meta WHERE key = 'fts.deferred';
