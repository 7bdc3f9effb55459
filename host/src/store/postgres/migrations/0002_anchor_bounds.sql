-- bounds for the anchor index's containment and radius queries (the widest span and
-- radius stored, read from an index).
CREATE INDEX anchors_by_span ON anchors(("end" - start)) WHERE kind IN ('function', 'range');
CREATE INDEX anchors_by_radius ON anchors(radius) WHERE kind = 'near';
