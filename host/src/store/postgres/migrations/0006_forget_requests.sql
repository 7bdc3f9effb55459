-- a proposal to forget a memory: the id of the memory it forgets once accepted (see the
-- SQLite schema's migration 8).
ALTER TABLE memories ADD COLUMN forgets BIGINT;
