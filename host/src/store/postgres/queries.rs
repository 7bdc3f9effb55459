//! The SQL of the PostgreSQL backend: the contract's reads and writes over one subject's rows,
//! on a client or inside a transaction, and the ranked search.
//!
//! A match is scored by BM25 as FTS5 scores it ([`bm25`]), over PostgreSQL's stems; the pool
//! of hits and the thread smoothing of [`context`] are the same code as SQLite's.

use std::cell::RefCell;
use std::collections::HashMap;

use postgres::GenericClient;
use postgres::types::ToSql;

use crate::error::{KenningError, Result};
use crate::settings::Settings;
use crate::store::Placement;
use crate::store::contract::{IndexSoFar, Reads, Writes};
use crate::store::ranking::{bm25, budget, context, exact_page, like_escape, terms};
use crate::store::rows::{self, RowState};
use crate::store::{
    AnchorRow, Badge, Event, LoggedEvent, Memory, MemoryFilter, MemoryTarget, NewMemory, Status,
    content_hash,
};
use crate::store::{Imported, SearchHit, SearchPage, StoredPlacement};

/// One subject's rows, through a client or a transaction.
pub(super) struct Pg<'a, C: GenericClient> {
    client: RefCell<&'a mut C>,
    subject: i64,
}

/// A statement's arguments, numbered as they are added.
#[derive(Default)]
struct Args {
    values: Vec<Box<dyn ToSql + Sync + Send>>,
}

impl Args {
    /// Adds `value`; returns its placeholder (`$n`).
    fn add(&mut self, value: impl ToSql + Sync + Send + 'static) -> String {
        self.values.push(Box::new(value));
        format!("${}", self.values.len())
    }

    fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.values
            .iter()
            .map(|v| v.as_ref() as &(dyn ToSql + Sync))
            .collect()
    }
}

impl<'a, C: GenericClient> Pg<'a, C> {
    pub(super) fn new(client: &'a mut C, subject: i64) -> Self {
        Pg {
            client: RefCell::new(client),
            subject,
        }
    }

    fn query(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<Vec<postgres::Row>> {
        Ok(self.client.borrow_mut().query(sql, args)?)
    }

    fn query_opt(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<Option<postgres::Row>> {
        Ok(self.client.borrow_mut().query_opt(sql, args)?)
    }

    fn execute(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<u64> {
        Ok(self.client.borrow_mut().execute(sql, args)?)
    }

    /// Memories (`m`) of this subject matching `conditions`, ordered and cut by `tail`.
    fn memories_where(&self, conditions: &str, tail: &str, args: &Args) -> Result<Vec<Memory>> {
        let sql = format!(
            "SELECT {} FROM memories m WHERE m.subject_id = {} AND {conditions} {tail}",
            rows::columns_of_m(),
            self.subject
        );
        let rows = self.query(&sql, &args.refs())?;
        let mut memories = rows
            .iter()
            .map(memory_from_row)
            .collect::<Result<Vec<Memory>>>()?;
        self.attach_anchors(&mut memories)?;
        Ok(memories)
    }

    /// Reads the anchors of the local memories among `memories` in one query.
    fn attach_anchors(&self, memories: &mut [Memory]) -> Result<()> {
        let mut position: HashMap<u64, usize> = HashMap::new();
        for (index, memory) in memories.iter_mut().enumerate() {
            if memory.scope == kenning_contract::types::Scope::Local {
                memory.anchors.clear();
                position.insert(memory.id, index);
            }
        }
        if position.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = position.keys().map(|&id| id as i64).collect();
        let rows = self.query(
            r#"SELECT memory_id, kind, start, "end", radius, name, value FROM anchors WHERE subject_id = $2 AND memory_id = ANY($1) ORDER BY memory_id, id"#,
            &[&ids, &self.subject],
        )?;
        for row in rows {
            let id = row.get::<_, i64>(0) as u64;
            if let Some(&index) = position.get(&id) {
                memories[index].anchors.push(anchor_from_row(&row, 1));
            }
        }
        Ok(())
    }

    fn anchors_of(&self, id: u64) -> Result<Vec<kenning_contract::types::Anchor>> {
        let rows = self.query(
            r#"SELECT kind, start, "end", radius, name, value FROM anchors WHERE subject_id = $2 AND memory_id = $1 ORDER BY id"#,
            &[&(id as i64), &self.subject],
        )?;
        Ok(rows.iter().map(|row| anchor_from_row(row, 0)).collect())
    }

    fn insert_anchors(&self, id: u64, anchors: &[kenning_contract::types::Anchor]) -> Result<()> {
        for anchor in anchors {
            let row = AnchorRow::of(anchor);
            self.execute(
                r#"INSERT INTO anchors (subject_id, memory_id, kind, start, "end", radius, name, value) VALUES ($8, $1, $2, $3, $4, $5, $6, $7)"#,
                &[&(id as i64), &row.kind, &row.start, &row.end, &row.radius, &row.name, &row.value, &self.subject],
            )?;
        }
        Ok(())
    }

    /// Inserts a memory's row and anchors; returns its id, the subject's largest plus one (the
    /// caller's transaction holds the subject's write lock, so no other writer takes it).
    fn insert_row(&self, memory: &NewMemory, state: &RowState<'_>) -> Result<u64> {
        let row = rows::inserted(memory, state);
        static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sql = SQL.get_or_init(|| {
            let places: Vec<String> = (2..=row.len() + 1).map(|n| format!("${n}")).collect();
            format!(
                "INSERT INTO memories (id, subject_id, {}) \
                 VALUES ((SELECT coalesce(max(id), 0) + 1 FROM memories WHERE subject_id = $1), $1, {}) \
                 RETURNING id",
                rows::column_list(&row),
                places.join(", ")
            )
        });
        let mut values: Vec<&(dyn ToSql + Sync)> = vec![&self.subject];
        values.extend(row.iter().map(|(_, value)| value as &(dyn ToSql + Sync)));
        let row = self.client.borrow_mut().query_one(sql.as_str(), &values)?;
        let id = row.get::<_, i64>(0) as u64;
        self.insert_anchors(id, &memory.anchors)?;
        Ok(id)
    }

    /// The conditions of `filter` on `m` (status, quarantine, scope, kind, target, tags,
    /// categories), as ` AND ...` clauses.
    fn filter_clause(filter: &MemoryFilter, args: &mut Args) -> String {
        let mut sql = String::from(" AND m.status = 'active'");
        if filter.only_quarantined {
            sql.push_str(" AND m.badge IN ('pending', 'inbound_pending')");
        } else if !filter.include_quarantined {
            sql.push_str(" AND m.badge IN ('native', 'foreign')");
        }
        if let Some(scope) = filter.scope {
            sql.push_str(&format!(" AND m.scope = {}", args.add(scope.as_str())));
        }
        if let Some(kind) = filter.kind {
            sql.push_str(&format!(" AND m.kind = {}", args.add(kind.as_str())));
        }
        if let Some(target) = filter.target {
            sql.push_str(&format!(" AND m.target = {}", args.add(target.as_str())));
        }
        for tag in &filter.tags {
            let pattern = format!("% {} %", like_escape(tag));
            sql.push_str(&format!(
                " AND (' ' || m.tags || ' ') LIKE {} ESCAPE '\\'",
                args.add(pattern)
            ));
        }
        for category in &filter.categories {
            sql.push_str(&format!(
                " AND m.categories::jsonb ? {}",
                args.add(category.clone())
            ));
        }
        sql
    }

    /// See [`crate::store::KnowledgeStore::search_page`].
    pub(super) fn search(&self, filter: &MemoryFilter) -> Result<SearchPage> {
        let (words, tags) = crate::store::split_tag_tokens(&filter.query);
        let mut filter = filter.clone();
        filter.tags.extend(tags);
        let terms = terms::query_terms(&words);
        let mut args = Args::default();
        let clause = Self::filter_clause(&filter, &mut args);
        let page = format!(
            "LIMIT {} OFFSET {}",
            i64::from(filter.limit),
            i64::from(filter.offset)
        );
        if terms.is_empty() {
            let memories = self.memories_where(
                &format!("TRUE{clause}"),
                &format!("ORDER BY m.updated_at DESC, m.id DESC {page}"),
                &args,
            )?;
            let hits = memories
                .into_iter()
                .map(|memory| SearchHit {
                    memory,
                    score: 0.0,
                    smoothed: false,
                })
                .collect();
            return Ok(SearchPage {
                hits,
                estimated_total: None,
            });
        }
        let budget = filter
            .posting_budget
            .unwrap_or(crate::store::RECALL_POSTING_BUDGET);
        // Every hit is scored here, so the ranking is made once and each `best(n)` is its
        // first `n`.
        let mut ranking: Option<(Vec<context::Hit>, Option<u64>)> = None;
        let mut args = Some(args);
        let mut best = |pool: usize| -> Result<Vec<context::Hit>> {
            if let Some(args) = args.take() {
                ranking = Some(self.ranked_hits(&terms, &clause, args, budget)?);
            }
            let (hits, _) = ranking.as_ref().expect("ranked above");
            Ok(hits.iter().take(pool).cloned().collect())
        };
        let members = |first: u64, last: u64| {
            let mut args = Args::default();
            let clause = Self::filter_clause(&filter, &mut args);
            let first = args.add(i64::try_from(first).unwrap_or(i64::MAX));
            let last = args.add(i64::try_from(last).unwrap_or(i64::MAX));
            let sql = format!(
                "SELECT m.id, m.thread FROM memories m WHERE m.subject_id = {} AND m.id BETWEEN {first} AND {last} AND m.thread IS NOT NULL{clause} ORDER BY m.id",
                self.subject
            );
            Ok::<_, KenningError>(
                self.query(&sql, &args.refs())?
                    .iter()
                    .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
                    .collect(),
            )
        };
        let hits = exact_page(&filter, &mut best, members, |ids| self.get_many(ids))?;
        let estimated_total = ranking.and_then(|(_, cut)| cut);
        Ok(SearchPage {
            hits,
            estimated_total,
        })
    }

    /// The memories (`m`, restricted by `clause` over `args`) holding any of `terms`, scored
    /// by BM25 (see [`bm25`]), best first and ties by id; at most about `budget` matches are
    /// scored, as SQLite plans it (`store::ranking::budget`). With them, when the budget cut the
    /// query, how many memories the commonest of its stems is in.
    fn ranked_hits(
        &self,
        terms: &[String],
        clause: &str,
        mut args: Args,
        budget: usize,
    ) -> Result<(Vec<context::Hit>, Option<u64>)> {
        let all_stems: Vec<String> = self
            .query(
                "SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $1::text)) ORDER BY lexeme",
                &[&terms.join(" ")],
            )?
            .iter()
            .map(|row| row.get(0))
            .collect();
        let holding = self.documents_holding(&all_stems)?;
        let (stems, min_id) = match self.plan(&all_stems, &holding, budget.max(1))? {
            Some(planned) => planned,
            None => return Ok((Vec::new(), None)),
        };
        // The most one stem matches, from the counts the plan read: no query more.
        let cut = (min_id.is_some() || stems.len() < holding.len())
            .then(|| holding.values().copied().max().unwrap_or(0));
        let literals: Vec<String> = stems.iter().map(|stem| tsquery_literal(stem)).collect();
        let totals = self.client.borrow_mut().query_opt(
            "SELECT documents, total_length FROM text_totals WHERE subject_id = $1",
            &[&self.subject],
        )?;
        let (documents, total_length) = totals.map_or((0, 0), |row| {
            (row.get::<_, i64>(0).max(0), row.get::<_, i64>(1).max(0))
        });
        let corpus = bm25::Corpus {
            documents: documents as u64,
            average_length: if documents == 0 {
                0.0
            } else {
                total_length as f64 / documents as f64
            },
            holding,
        };
        let any = args.add(literals.join(" | "));
        let window = match min_id {
            Some(min) => format!(" AND m.id >= {}", args.add(min)),
            None => String::new(),
        };
        let sql = format!(
            "SELECT m.id, m.thread, length(m.words), m.words::text FROM memories m
             WHERE m.subject_id = {} AND m.words @@ {any}::text::tsquery{window}{clause}",
            self.subject
        );
        let mut hits: Vec<context::Hit> = self
            .query(&sql, &args.refs())?
            .iter()
            .map(|row| {
                let counts = bm25::stem_counts(row.get(3));
                let occurrences = stems
                    .iter()
                    .filter_map(|stem| Some((stem.as_str(), *counts.get(stem)?)));
                context::Hit {
                    id: row.get::<_, i64>(0) as u64,
                    thread: row.get(1),
                    score: corpus.score(f64::from(row.get::<_, i32>(2)), occurrences),
                }
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        Ok((hits, cut))
    }

    /// How many of the subject's memories hold each of `stems` (migration 4's `stems`), for
    /// the stems some memory holds.
    fn documents_holding(&self, stems: &[String]) -> Result<HashMap<String, u64>> {
        Ok(self
            .query(
                "SELECT lexeme, documents FROM stems WHERE subject_id = $1 AND lexeme = ANY($2) AND documents > 0",
                &[&self.subject, &stems],
            )?
            .iter()
            .map(|row| (row.get(0), row.get::<_, i64>(1) as u64))
            .collect())
    }

    /// The stems to search and the least id to search from, chosen within `budget` scored
    /// matches as [`budget::choose`] chooses for SQLite; `None` when no stem matches. `holding`
    /// counts each stem's matches.
    fn plan(
        &self,
        stems: &[String],
        holding: &HashMap<String, u64>,
        budget: usize,
    ) -> Result<Option<(Vec<String>, Option<i64>)>> {
        let cap = budget as i64 + 1;
        let mut counted: Vec<(usize, usize)> = stems
            .iter()
            .enumerate()
            .filter_map(|(position, stem)| Some((*holding.get(stem)? as usize, position)))
            .collect();
        Ok(match budget::choose(&mut counted, budget) {
            budget::Choice::Nothing => None,
            budget::Choice::Words(kept) => {
                Some((kept.iter().map(|&p| stems[p].clone()).collect(), None))
            }
            budget::Choice::Newest => {
                // The stem whose newest `budget + 1` matches reach least far back.
                let mut best: Option<(i64, usize)> = None;
                for &(_, position) in &counted {
                    let reach: i64 = self
                        .client
                        .borrow_mut()
                        .query_one(
                            "SELECT coalesce(min(id), 0) FROM (SELECT id FROM memories WHERE subject_id = $1 AND words @@ $2::text::tsquery ORDER BY id DESC LIMIT $3) x",
                            &[&self.subject, &tsquery_literal(&stems[position]), &cap],
                        )?
                        .get(0);
                    if best.is_none_or(|(least, _)| reach < least) {
                        best = Some((reach, position));
                    }
                }
                best.map(|(reach, position)| (vec![stems[position].clone()], Some(reach)))
            }
        })
    }

    /// See [`crate::store::KnowledgeStore::list_counted`].
    pub(super) fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)> {
        let (words, tags) = crate::store::split_tag_tokens(&filter.query);
        let mut filter = filter.clone();
        filter.tags.extend(tags);
        let mut args = Args::default();
        let mut clause = Self::filter_clause(&filter, &mut args);
        let terms = terms::query_terms(&words);
        if !terms.is_empty() {
            clause.push_str(&format!(
                " AND m.words @@ to_tsquery('english', {})",
                args.add(terms.join(" & "))
            ));
        }
        let total: i64 = self
            .client
            .borrow_mut()
            .query_one(
                &format!(
                    "SELECT count(*) FROM memories m WHERE m.subject_id = {}{clause}",
                    self.subject
                ),
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
        let mut args = Args::default();
        let list = args.add(ids.iter().map(|&id| id as i64).collect::<Vec<i64>>());
        let mut by_id: HashMap<u64, Memory> = self
            .memories_where(&format!("m.id = ANY({list})"), "", &args)?
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
        let subject = self.subject;
        let mut args = Args::default();
        let mut matches: Vec<String> = Vec::new();
        if let Some(offset) = offset {
            let o = args.add(offset as i64);
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind = 'address' AND start = {o}"
            ));
            matches.push(format!(
                r#"SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind IN ('function', 'range') AND "end" > {o}
                   AND start BETWEEN {o} - (SELECT coalesce(max("end" - start), 0) FROM anchors WHERE subject_id = {subject} AND kind IN ('function', 'range')) AND {o}"#
            ));
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind = 'near' AND abs(start - {o}) <= radius
                   AND start BETWEEN {o} - (SELECT coalesce(max(radius), 0) FROM anchors WHERE subject_id = {subject} AND kind = 'near')
                                 AND {o} + (SELECT coalesce(max(radius), 0) FROM anchors WHERE subject_id = {subject} AND kind = 'near')"
            ));
        }
        if let Some(start) = function_start {
            let s = args.add(start as i64);
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind = 'function' AND start = {s}"
            ));
        }
        if let Some(name) = function_name {
            let n = args.add(name.to_owned());
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind = 'function' AND name = {n}"
            ));
        }
        let strings: Vec<String> = strings.iter().take(256).cloned().collect();
        if !strings.is_empty() {
            let v = args.add(strings);
            matches.push(format!(
                "SELECT memory_id FROM anchors WHERE subject_id = {subject} AND kind = 'string' AND value = ANY({v})"
            ));
        }
        if matches.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT m.id FROM memories m
             WHERE m.subject_id = {} AND m.status = 'active' AND m.badge IN ('native', 'foreign')
               AND m.id = ANY(ARRAY({})) ORDER BY m.id DESC LIMIT {}",
            self.subject,
            matches.join(" UNION ALL "),
            i64::from(limit)
        );
        Ok(self
            .query(&sql, &args.refs())?
            .iter()
            .map(|row| row.get::<_, i64>(0) as u64)
            .collect())
    }

    /// See [`crate::store::KnowledgeStore::mark_recalled`].
    pub(super) fn mark_recalled(&self, ids: &[u64], now: i64) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = ids.iter().map(|&id| id as i64).collect();
        self.execute(
            "UPDATE memories SET recall_count = recall_count + 1, last_recalled = $2 WHERE subject_id = $3 AND id = ANY($1)",
            &[&ids, &now, &self.subject],
        )?;
        Ok(())
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

    fn count(&self, sql: &str) -> Result<u64> {
        let n: i64 = self
            .client
            .borrow_mut()
            .query_one(sql, &[&self.subject])?
            .get(0);
        Ok(n.max(0) as u64)
    }

    fn group(&self, column: &str) -> Result<serde_json::Map<String, serde_json::Value>> {
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
        let mut args = Args::default();
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
            &Args::default(),
        )
    }

    fn all_memories(&self) -> Result<Vec<(Memory, Option<u64>)>> {
        let memories = self.memories_where("TRUE", "ORDER BY m.id", &Args::default())?;
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
            &Args::default(),
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
        let row = self.client.borrow_mut().query_one(
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
        let mut settings = Settings::default();
        use crate::settings::Layer;
        let layers = std::iter::once(("", Layer::Global)).chain(thread.map(|t| (t, Layer::Thread)));
        for (scope, layer) in layers {
            for row in self.query(
                "SELECT key, value FROM settings WHERE subject_id = $1 AND thread = $2",
                &[&self.subject, &scope],
            )? {
                crate::settings::apply(&mut settings, layer, row.get(0), row.get(1));
            }
        }
        Ok(settings)
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

impl Writes for Pg<'_, postgres::Transaction<'_>> {
    fn insert_memory(
        &self,
        memory: &NewMemory,
        badge: Badge,
        now: i64,
        event: &Event<'_>,
    ) -> Result<u64> {
        if let Some(limit) = self.settings(None)?.max_memories
            && self.count_active()? >= limit
        {
            return Err(KenningError::LimitReached { limit });
        }
        let hash = content_hash(&memory.text);
        let id = self.insert_row(
            memory,
            &RowState {
                badge,
                status: Status::Active,
                content_hash: &hash,
                created_at: now,
                updated_at: now,
            },
        )?;
        self.append_event(
            Some(id),
            now,
            &Event {
                after_hash: Some(&hash),
                ..event.clone()
            },
        )?;
        Ok(id)
    }

    fn insert_imported(&self, imported: &Imported, now: i64, event: &Event<'_>) -> Result<u64> {
        let id = self.insert_row(
            &imported.memory,
            &RowState {
                badge: imported.badge,
                status: imported.status,
                content_hash: &imported.content_hash,
                created_at: imported.created_at,
                updated_at: imported.updated_at,
            },
        )?;
        self.append_event(Some(id), now, event)?;
        Ok(id)
    }

    fn bulk_load(&self, load: &mut dyn FnMut(&mut IndexSoFar<'_>) -> Result<()>) -> Result<()> {
        // The GIN index takes new rows into its pending list cheaply; the vocabulary's trigger
        // costs a statement a stem, so it waits (for this transaction only) and the subject's
        // stems are counted once at the end.
        self.execute(
            "SELECT set_config('kenning.stems_deferred', 'on', true)",
            &[],
        )?;
        // The GIN index takes each row as it is inserted: there is nothing to index early.
        load(&mut || Ok(()))?;
        self.execute(
            "SELECT set_config('kenning.stems_deferred', 'off', true)",
            &[],
        )?;
        self.execute("DELETE FROM stems WHERE subject_id = $1", &[&self.subject])?;
        self.execute(
            "INSERT INTO stems (subject_id, lexeme, documents)
             SELECT $1, l, count(*) FROM memories, unnest(tsvector_to_array(words)) l
             WHERE subject_id = $1 GROUP BY l",
            &[&self.subject],
        )?;
        self.execute(
            "INSERT INTO text_totals (subject_id, documents, total_length)
             SELECT $1, count(*), coalesce(sum(length(words)), 0) FROM memories WHERE subject_id = $1
             ON CONFLICT (subject_id) DO UPDATE SET
                 documents = excluded.documents, total_length = excluded.total_length",
            &[&self.subject],
        )?;
        // As PostgreSQL advises after loading data: without statistics of the new rows, the
        // first searches after a large load were planned for an empty table (p99 786 ms at
        // 100,000 memories, against 11 ms at the median).
        self.client
            .borrow_mut()
            .batch_execute("ANALYZE memories, anchors, stems")?;
        Ok(())
    }

    fn update_memory(
        &self,
        id: u64,
        revised: &NewMemory,
        content_hash: &str,
        now: i64,
    ) -> Result<()> {
        let set = rows::revised(revised, content_hash, now);
        static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sql = SQL.get_or_init(|| {
            let assignments: Vec<String> = set
                .iter()
                .enumerate()
                .map(|(n, (column, _))| format!("{column} = ${}", n + 3))
                .collect();
            format!(
                "UPDATE memories SET {} WHERE subject_id = $1 AND id = $2",
                assignments.join(", ")
            )
        });
        let id_value = id as i64;
        let mut values: Vec<&(dyn ToSql + Sync)> = vec![&self.subject, &id_value];
        values.extend(set.iter().map(|(_, value)| value as &(dyn ToSql + Sync)));
        self.execute(sql, &values)?;
        self.execute(
            "DELETE FROM anchors WHERE subject_id = $2 AND memory_id = $1",
            &[&(id as i64), &self.subject],
        )?;
        self.insert_anchors(id, &revised.anchors)
    }

    fn replace_text(&self, id: u64, text: &str, content_hash: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET text = $3, content_hash = $4, updated_at = $5 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &text, &content_hash, &now],
        )?;
        Ok(())
    }

    fn set_status(&self, id: u64, status: Status, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET status = $3, updated_at = $4 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &status.as_str(), &now],
        )?;
        Ok(())
    }

    fn forget(&self, id: u64, now: i64) -> Result<()> {
        self.execute(
            &format!(
                "UPDATE memories SET {}, updated_at = $3 WHERE subject_id = $1 AND id = $2",
                rows::FORGOTTEN
            ),
            &[&self.subject, &(id as i64), &now],
        )?;
        self.execute(
            "DELETE FROM anchors WHERE subject_id = $2 AND memory_id = $1",
            &[&(id as i64), &self.subject],
        )?;
        Ok(())
    }

    fn set_supersedes(&self, id: u64, replaces: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET supersedes = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &(replaces as i64)],
        )?;
        Ok(())
    }

    fn set_forgets(&self, id: u64, target: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET forgets = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &(target as i64)],
        )?;
        Ok(())
    }

    fn accept(&self, id: u64, badge: Badge, reviewer: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET badge = $3, reviewed_at = $4, reviewed_by = $5, updated_at = $4 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &badge.as_str(), &now, &reviewer],
        )?;
        Ok(())
    }

    fn reject(&self, id: u64, reviewer: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE memories SET status = 'rejected', reviewed_at = $3, reviewed_by = $4, updated_at = $3 WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64), &now, &reviewer],
        )?;
        Ok(())
    }

    fn delete_memory(&self, id: u64) -> Result<()> {
        self.execute(
            "UPDATE memories SET supersedes = NULL WHERE subject_id = $1 AND supersedes = $2",
            &[&self.subject, &(id as i64)],
        )?;
        self.execute(
            "DELETE FROM memories WHERE subject_id = $1 AND id = $2",
            &[&self.subject, &(id as i64)],
        )?;
        Ok(())
    }

    fn append_event(&self, id: Option<u64>, now: i64, event: &Event<'_>) -> Result<()> {
        self.execute(
            "INSERT INTO events (subject_id, at, actor, action, memory_id, before_hash, after_hash, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &self.subject,
                &now,
                &event.actor,
                &event.action,
                &id.map(|id| id as i64),
                &event.before_hash,
                &event.after_hash,
                &event.detail,
            ],
        )?;
        Ok(())
    }

    fn save_setting(&self, thread: Option<&str>, key: &str, value: &str) -> Result<Option<String>> {
        let thread = thread.unwrap_or("");
        let previous = self
            .query_opt(
                "SELECT value FROM settings WHERE subject_id = $1 AND thread = $2 AND key = $3",
                &[&self.subject, &thread, &key],
            )?
            .map(|row| row.get(0));
        self.execute(
            "INSERT INTO settings (subject_id, thread, key, value) VALUES ($1, $2, $3, $4)
             ON CONFLICT (subject_id, thread, key) DO UPDATE SET value = excluded.value",
            &[&self.subject, &thread, &key, &value],
        )?;
        Ok(previous)
    }

    fn set_meta_value(&self, key: &str, value: &str) -> Result<()> {
        self.execute(
            "INSERT INTO meta (subject_id, key, value) VALUES ($1, $2, $3)
             ON CONFLICT (subject_id, key) DO UPDATE SET value = excluded.value",
            &[&self.subject, &key, &value],
        )?;
        Ok(())
    }
}

/// A stem as a tsquery literal: quoted, so that it is not stemmed again.
fn tsquery_literal(stem: &str) -> String {
    format!("'{}'", stem.replace('\\', "\\\\").replace('\'', "''"))
}

/// The memory in a row selected with [`rows::columns_of_m`].
fn memory_from_row(row: &postgres::Row) -> Result<Memory> {
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

/// A value bound as the column's own type; one the column cannot hold is refused, never
/// written as another type's bytes.
impl ToSql for rows::Value<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        let refused = || format!("{self:?} bound to a column of type {ty}").into();
        match self {
            rows::Value::Null => Ok(postgres::types::IsNull::Yes),
            rows::Value::Integer(n) if <i64 as ToSql>::accepts(ty) => n.to_sql(ty, out),
            rows::Value::Real(x) if <f64 as ToSql>::accepts(ty) => x.to_sql(ty, out),
            rows::Value::Text(text) if <&str as ToSql>::accepts(ty) => {
                text.as_ref().to_sql(ty, out)
            }
            _ => Err(refused()),
        }
    }

    fn accepts(ty: &postgres::types::Type) -> bool {
        <i64 as ToSql>::accepts(ty) || <f64 as ToSql>::accepts(ty) || <&str as ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}

/// An anchor from the columns `kind, start, end, radius, name, value` starting at `first`.
fn anchor_from_row(row: &postgres::Row, first: usize) -> kenning_contract::types::Anchor {
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
