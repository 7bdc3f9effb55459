-- a bulk load (an import) may index its rows in one statement at the end instead of
-- one trigger run a row, which costs several times more; see sqlite/interchange.rs.
DROP TRIGGER memories_fts_insert;
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts.deferred')
BEGIN
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
END;
