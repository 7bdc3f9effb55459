-- a memory's id counts within its subject, as in a subject's SQLite file: ids are the
-- same on both backends, one tenant's ids say nothing of another's writes, and a thread's
-- neighbours are the nearby ids. A new id is the subject's largest plus one, taken under
-- the subject's write lock. Ids given before stay as they were (unique, so still unique
-- within their subject).
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
