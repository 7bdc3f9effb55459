-- a memory forgotten leaves the full-text index at once: with FTS5's secure-delete, a
-- row's entries are removed from the index's segments when it is deleted or updated,
-- instead of being masked by a tombstone until the next merge (the words stayed in the
-- file until then).
INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);
