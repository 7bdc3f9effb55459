-- a memory's free-form metadata (a JSON object, as its writer gave it).
ALTER TABLE memories ADD COLUMN metadata TEXT;
