-- review bookkeeping; indexes for the review queue, anchor bounds and threads.
ALTER TABLE memories ADD COLUMN reviewed_at INTEGER;
ALTER TABLE memories ADD COLUMN reviewed_by TEXT;
CREATE INDEX memories_in_review ON memories(id)
    WHERE status = 'active' AND badge IN ('pending', 'inbound_pending');
-- Bounds for the anchor index's containment and radius queries.
CREATE INDEX anchors_by_span ON anchors(end - start) WHERE kind IN ('function', 'range');
CREATE INDEX anchors_by_radius ON anchors(radius) WHERE kind = 'near';
-- Memories written together in one thread, for context around a match.
CREATE INDEX memories_by_thread ON memories(thread, id) WHERE thread IS NOT NULL;
