-- a proposal to forget a memory (an author who may not forget it asked to): the id of the
-- memory it forgets once a reviewer accepts it. No foreign key: retention may delete the
-- memory while the proposal waits, and the review then finds it gone.
ALTER TABLE memories ADD COLUMN forgets INTEGER;
