//! The contract's reads over one subject's rows on PostgreSQL: memories by id, in bulk, in
//! review, in order, with their anchors, each row read by its named columns
//! ([`crate::store::rows`]); listings, the anchor index, the log and the counts.

use std::collections::HashMap;

use postgres::GenericClient;

use super::connection::{Args, Pg};
use crate::error::{KenningError, Result};
use crate::settings::Settings;
use crate::store::Placement;
use crate::store::StoredPlacement;
use crate::store::contract::Reads;
use crate::store::ranking::terms;
use crate::store::rows::{self};
use crate::store::{AnchorRow, LoggedEvent, Memory, MemoryFilter, MemoryTarget};

impl<'a, C: GenericClient> Pg<'a, C> {
    /// Memories (`m`) of this subject matching `conditions`, ordered and cut by `tail`, each
    /// local one with its anchors: one statement (a local memory's anchors as one JSON array,
    /// in their order), where a second for the anchors cost a round trip on every read.
    pub(super) fn memories_where(
        &self,
        conditions: &str,
        tail: &str,
        args: &Args,
    ) -> Result<Vec<Memory>> {
        self.memories_from(
            "memories m",
            &format!("m.subject_id = $1 AND {conditions} {tail}"),
            args,
        )
    }

    /// The memories of this subject whose ids are the argument `list` (a `bigint[]`), as
    /// [`Pg::memories_where`] reads them, in no order.
    ///
    /// Each is found by its key, one lookup an id. Asked as `m.id = ANY(list)`, the plan made
    /// once for every subject (`Manager::oltp`) read the whole of a large subject to find
    /// them: 9.7 ms for 4 of 10,000 memories in a database of 1,000 subjects.
    pub(super) fn memories_with_ids(&self, list: &str, args: &Args) -> Result<Vec<Memory>> {
        self.memories_from(
            &format!(
                "unnest({list}::bigint[]) AS wanted(id) CROSS JOIN LATERAL
                 (SELECT * FROM memories WHERE subject_id = $1 AND id = wanted.id OFFSET 0) m"
            ),
            "TRUE",
            args,
        )
    }

    /// The memories read `FROM from WHERE rest` (`rest` may end with an order and a limit).
    fn memories_from(&self, from: &str, rest: &str, args: &Args) -> Result<Vec<Memory>> {
        let sql = format!(
            r#"SELECT {}, CASE WHEN m.scope = 'local' THEN (
                   SELECT json_agg(json_build_array(kind, start, "end", radius, name, value) ORDER BY id)::text
                   FROM anchors WHERE subject_id = m.subject_id AND memory_id = m.id) END
               FROM {from} WHERE {rest}"#,
            rows::columns_of_m(),
        );
        self.query(&sql, &args.refs())?
            .iter()
            .map(|row| {
                let mut memory = memory_from_row(row)?;
                memory.anchors = anchors_from_json(row.get(rows::Column::ALL.len()))?;
                Ok(memory)
            })
            .collect()
    }

    pub(super) fn anchors_of(&self, id: u64) -> Result<Vec<kenning_contract::types::Anchor>> {
        let rows = self.query(
            r#"SELECT kind, start, "end", radius, name, value FROM anchors WHERE subject_id = $2 AND memory_id = $1 ORDER BY id"#,
            &[&(id as i64), &self.subject],
        )?;
        Ok(rows.iter().map(|row| anchor_from_row(row, 0)).collect())
    }

    /// See [`crate::store::KnowledgeStore::list_counted`].
    pub(super) fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)> {
        let (words, tags) = crate::store::split_tag_tokens(&filter.query);
        let mut filter = filter.clone();
        filter.tags.extend(tags);
        let mut args = self.args();
        let mut clause = Self::filter_clause(&filter, &mut args);
        let terms = terms::query_terms(&words);
        if !terms.is_empty() {
            clause.push_str(&format!(
                " AND m.words @@ to_tsquery('english', {})",
                args.add(terms.join(" & "))
            ));
        }
        let total: i64 = self
            .query_one(
                &format!("SELECT count(*) FROM memories m WHERE m.subject_id = $1{clause}"),
                &args.refs(),
            )?
            .get(0);
        let memories = self.memories_where(
            &format!("TRUE{clause}"),
            &format!(
                "ORDER BY m.created_at DESC, m.id DESC LIMIT {} OFFSET {}",
                i64::from(filter.limit),
                i64::from(filter.offset)
            ),
            &args,
        )?;
        Ok((memories, total.max(0) as u64))
    }

    /// See [`crate::store::KnowledgeStore::get_many`].
    pub(super) fn get_many(&self, ids: &[u64]) -> Result<Vec<Memory>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut args = self.args();
        let list = args.add(ids.iter().map(|&id| id as i64).collect::<Vec<i64>>());
        let mut by_id: HashMap<u64, Memory> = self
            .memories_with_ids(&list, &args)?
            .into_iter()
            .map(|m| (m.id, m))
            .collect();
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// See [`crate::store::KnowledgeStore::anchored_ids`].
    pub(super) fn anchored_ids(
        &self,
        offset: Option<u64>,
        function_start: Option<u64>,
        function_name: Option<&str>,
        strings: &[String],
        limit: u32,
    ) -> Result<Vec<u64>> {
        // Each kind of match is its own indexed query, as in SQLite's anchor index: one `OR`
        // of them all made PostgreSQL read every anchor (122 ms at 70,000 anchors, against
        // under 1 ms so). Containment and radii are bounded by the widest span and radius
        // stored (migration 2's indexes). The matches are gathered once into an array: as an
        // `IN (...)` they could be planned as a subquery run for every memory of the subject
        // (over 100 s at 100,000 memories when a bulk load had left no statistics yet).
        let mut args = self.args();
        let mut matches: Vec<String> = Vec::new();
        if let Some(offset) = offset {
            let o = args.add(offset as i64);
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind = 'address' AND start = {o}"
            ));
            matches.push(format!(
                r#"SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind IN ('function', 'range') AND "end" > {o}
                   AND start BETWEEN {o} - (SELECT coalesce(max("end" - start), 0) FROM anchors WHERE subject_id = $1 AND kind IN ('function', 'range')) AND {o}"#
            ));
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind = 'near' AND abs(start - {o}) <= radius
                   AND start BETWEEN {o} - (SELECT coalesce(max(radius), 0) FROM anchors WHERE subject_id = $1 AND kind = 'near')
                                 AND {o} + (SELECT coalesce(max(radius), 0) FROM anchors WHERE subject_id = $1 AND kind = 'near')"
            ));
        }
        if let Some(start) = function_start {
            let s = args.add(start as i64);
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind = 'function' AND start = {s}"
            ));
        }
        if let Some(name) = function_name {
            let n = args.add(name.to_owned());
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind = 'function' AND name = {n}"
            ));
        }
        let strings: Vec<String> = strings.iter().take(256).cloned().collect();
        if !strings.is_empty() {
            let v = args.add(strings);
            matches.push(format!(
                "SELECT a.memory_id FROM unnest({v}::text[]) AS wanted(value) CROSS JOIN LATERAL
                 (SELECT memory_id FROM anchors WHERE subject_id = $1 AND kind = 'string' AND value = wanted.value OFFSET 0) a"
            ));
        }
        if matches.is_empty() {
            return Ok(Vec::new());
        }
        // Each match's memory by its key (see `memories_with_ids`).
        let sql = format!(
            "SELECT m.id FROM (SELECT DISTINCT memory_id FROM ({}) x) a CROSS JOIN LATERAL
             (SELECT id FROM memories WHERE subject_id = $1 AND id = a.memory_id
                AND status = 'active' AND badge IN ('native', 'foreign') OFFSET 0) m
             ORDER BY m.id DESC LIMIT {}",
            matches.join(" UNION ALL "),
            i64::from(limit)
        );
        Ok(self
            .query(&sql, &args.refs())?
            .iter()
            .map(|row| row.get::<_, i64>(0) as u64)
            .collect())
    }

    /// See [`crate::store::KnowledgeStore::first_event_details`].
    pub(super) fn first_event_details(&self, ids: &[u64]) -> Result<HashMap<u64, String>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let ids: Vec<i64> = ids.iter().map(|&id| id as i64).collect();
        let rows = self.query(
            "SELECT memory_id, detail FROM events WHERE id IN (SELECT min(id) FROM events \
             WHERE subject_id = $1 AND memory_id = ANY($2) GROUP BY memory_id) \
             AND detail IS NOT NULL",
            &[&self.subject, &ids],
        )?;
        Ok(rows
            .iter()
            .map(|row| (row.get::<_, i64>(0) as u64, row.get::<_, String>(1)))
            .collect())
    }

    /// See [`crate::store::KnowledgeStore::events`].
    pub(super) fn events(&self, limit: u32) -> Result<Vec<serde_json::Value>> {
        let rows = self.query(
            "SELECT id, at, actor, action, memory_id, before_hash, after_hash, detail FROM events WHERE subject_id = $1 ORDER BY id DESC LIMIT $2",
            &[&self.subject, &i64::from(limit)],
        )?;
        Ok(rows
            .iter()
            .map(|row| {
                LoggedEvent {
                    id: row.get(0),
                    at: row.get(1),
                    actor: row.get(2),
                    action: row.get(3),
                    memory_id: row.get(4),
                    before_hash: row.get(5),
                    after_hash: row.get(6),
                    detail: row.get(7),
                }
                .to_json()
            })
            .collect())
    }

    pub(super) fn count(&self, sql: &str) -> Result<u64> {
        let n: i64 = self
            .client
            .borrow_mut()
            .query_one(sql, &[&self.subject])?
            .get(0);
        Ok(n.max(0) as u64)
    }

    pub(super) fn group(&self, column: &str) -> Result<serde_json::Map<String, serde_json::Value>> {
        let rows = self.query(
            &format!(
                "SELECT {column}, count(*) FROM memories WHERE subject_id = $1 AND status = 'active' GROUP BY {column} ORDER BY {column}"
            ),
            &[&self.subject],
        )?;
        Ok(rows
            .iter()
            .map(|row| (row.get::<_, String>(0), row.get::<_, i64>(1).into()))
            .collect())
    }
}

impl<C: GenericClient> Reads for Pg<'_, C> {
    fn memory(&self, id: u64) -> Result<Option<Memory>> {
        let mut args = self.args();
        let id = args.add(id as i64);
        Ok(self
            .memories_where(&format!("m.id = {id}"), "", &args)?
            .pop())
    }

    fn memories_in_order(&self, active_only: bool, limit: u32) -> Result<Vec<Memory>> {
        let condition = if active_only {
            "m.status = 'active'"
        } else {
            "TRUE"
        };
        self.memories_where(
            condition,
            &format!("ORDER BY m.id LIMIT {}", i64::from(limit)),
            &self.args(),
        )
    }

    fn all_memories(&self) -> Result<Vec<(Memory, Option<u64>)>> {
        let memories = self.memories_where("TRUE", "ORDER BY m.id", &self.args())?;
        let supersedes: HashMap<u64, u64> = self
            .query(
                "SELECT id, supersedes FROM memories WHERE subject_id = $1 AND supersedes IS NOT NULL",
                &[&self.subject],
            )?
            .iter()
            .map(|row| (row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64))
            .collect();
        Ok(memories
            .into_iter()
            .map(|m| {
                let replaced = supersedes.get(&m.id).copied();
                (m, replaced)
            })
            .collect())
    }

    fn ids_by_hash(&self) -> Result<HashMap<String, Vec<u64>>> {
        let mut index: HashMap<String, Vec<u64>> = HashMap::new();
        for row in self.query(
            "SELECT id, content_hash FROM memories WHERE subject_id = $1 ORDER BY id",
            &[&self.subject],
        )? {
            index
                .entry(row.get(1))
                .or_default()
                .push(row.get::<_, i64>(0) as u64);
        }
        Ok(index)
    }

    fn placement_of(&self, id: u64) -> Result<Option<StoredPlacement>> {
        let Some(row) = self.query_opt(
            "SELECT scope, target, day FROM memories WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64)],
        )?
        else {
            return Ok(None);
        };
        let target = row
            .get::<_, Option<String>>(1)
            .and_then(|t| MemoryTarget::parse(&t));
        Ok(Some((row.get(0), target, row.get(2), self.anchors_of(id)?)))
    }

    fn find_active_duplicate(
        &self,
        content_hash: &str,
        placement: Placement<'_>,
    ) -> Result<Option<u64>> {
        let rows = self.query(
            "SELECT id FROM memories WHERE subject_id = $1 AND content_hash = $2 AND scope = $3 AND status = 'active'
               AND target IS NOT DISTINCT FROM $4 AND day IS NOT DISTINCT FROM $5 ORDER BY id",
            &[
                &self.subject,
                &content_hash,
                &placement.scope.as_str(),
                &placement.profile.map(|p| p.0.as_str()),
                &placement.profile.and_then(|p| p.1),
            ],
        )?;
        for row in rows {
            let id = row.get::<_, i64>(0) as u64;
            if self.anchors_of(id)? == placement.anchors {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    fn supersedes(&self, id: u64) -> Result<Option<u64>> {
        Ok(self
            .query_opt(
                "SELECT supersedes FROM memories WHERE subject_id = $1 AND id = $2",
                &[&self.subject, &(id as i64)],
            )?
            .and_then(|row| row.get::<_, Option<i64>>(0))
            .map(|id| id as u64))
    }

    fn forget_proposal_for(&self, id: u64) -> Result<Option<u64>> {
        Ok(self
            .query_opt(
                "SELECT id FROM memories WHERE subject_id = $1 AND forgets = $2 AND status = 'active' AND badge IN ('pending', 'inbound_pending') ORDER BY id LIMIT 1",
                &[&self.subject, &(id as i64)],
            )?
            .map(|row| row.get::<_, i64>(0) as u64))
    }

    fn is_superseded_by_another(&self, id: u64) -> Result<bool> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM memories WHERE subject_id = $1 AND supersedes = $2 AND id != $2 LIMIT 1",
                &[&self.subject, &(id as i64)],
            )?
            .is_some())
    }

    fn in_review(&self, limit: u32) -> Result<Vec<Memory>> {
        self.memories_where(
            "m.status = 'active' AND m.badge IN ('pending', 'inbound_pending')",
            &format!("ORDER BY m.id LIMIT {}", i64::from(limit)),
            &self.args(),
        )
    }

    fn rejected_before(&self, cutoff: i64) -> Result<Vec<(u64, String)>> {
        Ok(self
            .query(
                "SELECT id, content_hash FROM memories WHERE subject_id = $1 AND status = 'rejected' AND text <> '' AND updated_at <= $2 ORDER BY id",
                &[&self.subject, &cutoff],
            )?
            .iter()
            .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
            .collect())
    }

    fn count_active(&self) -> Result<u64> {
        self.count("SELECT count(*) FROM memories WHERE subject_id = $1 AND status = 'active'")
    }

    fn stats(&self) -> Result<serde_json::Value> {
        let row = self.query_one(
            "SELECT min(created_at), max(created_at) FROM memories WHERE subject_id = $1 AND status = 'active'",
            &[&self.subject],
        )?;
        let (oldest, newest): (Option<i64>, Option<i64>) = (row.get(0), row.get(1));
        let by_status: serde_json::Map<String, serde_json::Value> = self
            .query(
                "SELECT status, count(*) FROM memories WHERE subject_id = $1 GROUP BY status ORDER BY status",
                &[&self.subject],
            )?
            .iter()
            .map(|row| (row.get::<_, String>(0), row.get::<_, i64>(1).into()))
            .collect();
        Ok(serde_json::json!({
            "active": self.count_active()?,
            "by_type": self.group("kind")?,
            "by_scope": self.group("scope")?,
            "by_badge": self.group("badge")?,
            "by_status": by_status,
            "oldest": oldest,
            "newest": newest,
        }))
    }

    fn settings(&self, thread: Option<&str>) -> Result<Settings> {
        // Both layers in one round trip (the thread's only when there is one), each by key.
        static SETTINGS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            format!(
                "SELECT s.of_thread = 1, s.key, s.value FROM ({}) s",
                settings_rows("$2")
            )
        });
        let rows = self.query(&SETTINGS, &[&self.subject, &thread.unwrap_or_default()])?;
        Ok(settings_of(
            rows.iter().map(|row| (row.get(0), row.get(1), row.get(2))),
        ))
    }

    fn meta_value(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .query_opt(
                "SELECT value FROM meta WHERE subject_id = $1 AND key = $2",
                &[&self.subject, &key],
            )?
            .map(|row| row.get(0)))
    }

    fn index_segments(&self) -> Result<u64> {
        Ok(0)
    }
}

/// The statement reading the settings rows of the subject (`$1`) and of the thread the SQL
/// expression `thread` names (`''` for none): `key`, `value` and `of_thread` (0 the subject's,
/// 1 the thread's). [`Reads::settings`] reads them alone; a search reads them in its first
/// statement.
pub(super) fn settings_rows(thread: &str) -> String {
    format!(
        "SELECT key, value, 0 AS of_thread FROM settings WHERE subject_id = $1 AND thread = ''
         UNION ALL
         SELECT key, value, 1 FROM settings WHERE subject_id = $1 AND thread = {thread} AND {thread} <> ''"
    )
}

/// The settings the stored rows `(of a thread, key, value)` make, in any order: the
/// subject's rows first, then the thread's over them ([`crate::settings::apply`]).
pub(super) fn settings_of<'r>(rows: impl Iterator<Item = (bool, &'r str, &'r str)>) -> Settings {
    use crate::settings::Layer;
    let mut rows: Vec<_> = rows.collect();
    rows.sort_by_key(|&(of_thread, _, _)| of_thread);
    let mut settings = Settings::default();
    for (of_thread, key, value) in rows {
        let layer = if of_thread {
            Layer::Thread
        } else {
            Layer::Global
        };
        crate::settings::apply(&mut settings, layer, key, value);
    }
    settings
}

/// The memory in a row selected with [`rows::columns_of_m`].
pub(super) fn memory_from_row(row: &postgres::Row) -> Result<Memory> {
    rows::memory(row).map_err(|error| KenningError::Database {
        location: "<database>".to_owned(),
        message: error.to_string(),
    })
}

impl rows::RowRead for postgres::Row {
    fn integer(&self, column: rows::Column) -> std::result::Result<Option<i64>, rows::RowError> {
        self.try_get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }

    fn real(&self, column: rows::Column) -> std::result::Result<Option<f64>, rows::RowError> {
        self.try_get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }

    fn text(&self, column: rows::Column) -> std::result::Result<Option<String>, rows::RowError> {
        self.try_get(column.index())
            .map_err(|e| rows::RowError::new(column, e.to_string()))
    }
}

/// The anchors in a JSON array of `[kind, start, end, radius, name, value]` arrays (`None`
/// when there are none), in order.
fn anchors_from_json(json: Option<&str>) -> Result<Vec<kenning_contract::types::Anchor>> {
    type Columns = (
        String,
        Option<i64>,
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<String>,
    );
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let rows: Vec<Columns> = serde_json::from_str(json).map_err(|e| KenningError::Database {
        location: "<database>".to_owned(),
        message: format!("a memory's anchors as the database gave them: {e}"),
    })?;
    Ok(rows
        .iter()
        .map(|(kind, start, end, radius, name, value)| {
            AnchorRow {
                kind,
                start: *start,
                end: *end,
                radius: *radius,
                name: name.as_deref(),
                value: value.as_deref(),
            }
            .anchor()
        })
        .collect())
}

/// An anchor from the columns `kind, start, end, radius, name, value` starting at `first`.
pub(super) fn anchor_from_row(
    row: &postgres::Row,
    first: usize,
) -> kenning_contract::types::Anchor {
    AnchorRow {
        kind: row.get(first),
        start: row.get(first + 1),
        end: row.get(first + 2),
        radius: row.get(first + 3),
        name: row.get(first + 4),
        value: row.get(first + 5),
    }
    .anchor()
}
