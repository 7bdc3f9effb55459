//! The select lists of the `query` views ([`crate::query::VIEWS`]) that both backends share:
//! the same columns, named the same, from the same table columns. What differs (splitting tags
//! and categories into rows, how a backend finds the subject and the reader) lives with each
//! backend.

/// The `memories` view's columns, over the memories table aliased `m`.
pub(crate) const MEMORY_COLUMNS: &str = "m.id AS id, m.kind AS type, m.scope AS scope, \
    m.target AS target, m.day AS day, m.text AS text, m.tags AS tags, \
    m.categories AS categories, m.confidence AS confidence, m.author AS author, \
    m.badge AS badge, m.status AS status, m.thread AS thread, m.image_base AS image_base, \
    m.supersedes AS supersedes, m.created_at AS created_at, m.updated_at AS updated_at, \
    m.recall_count AS recall_count, m.last_recalled AS last_recalled";

/// The `anchors` view's columns, over the anchors table aliased `a`.
pub(crate) const ANCHOR_COLUMNS: &str = "a.memory_id AS memory_id, a.kind AS kind, \
    a.start AS start_offset, a.\"end\" AS end_offset, a.radius AS radius, a.name AS name, \
    a.value AS value";

/// The `events` view's columns, over the events table aliased `e`: hashes, never the detail
/// (which may quote a text).
pub(crate) const EVENT_COLUMNS: &str = "e.id AS id, e.at AS at, e.actor AS actor, \
    e.action AS action, e.memory_id AS memory_id, e.before_hash AS before_hash, \
    e.after_hash AS after_hash";

/// The `settings` view's columns, over the settings table aliased `s`.
pub(crate) const SETTING_COLUMNS: &str = "s.thread AS thread, s.key AS key, s.value AS value";
