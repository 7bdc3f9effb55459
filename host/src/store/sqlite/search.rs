//! SQLite's candidate retrieval: full-text search (FTS5 BM25) with filters, and the anchor
//! index. The ranking itself is the backends' shared one ([`crate::store::ranking`]).
//!
//! A query is ranked in two steps: FTS5's BM25 over the query's content words
//! ([`query_terms`], the commonest left out when they would cost too much: [`plan`]) gathers a
//! pool of lexical hits, then context smoothing ([`context::smooth`]) lets each hit lend part
//! of its score to its neighbours in its thread.
//!
//! Every page is cut from one ranked list per query ([`exact_page`]): the smoothed pool, whose
//! size depends on the page's length and never on its offset, followed by the remaining
//! matches in BM25 order. So paging through a query reaches every match it can reach exactly
//! once. A thread neighbour that smoothing brought in is marked ([`SearchHit::smoothed`]), and
//! when the budget cut the query ([`plan::Plan::cut`]) the page says how many memories hold a
//! query word ([`SearchPage::estimated_total`]).

pub mod counts;
pub mod plan;
pub mod query;

use std::collections::HashMap;

use rusqlite::Connection;
use rusqlite::types::Value;

use self::counts::WordCounts;
use super::reads::{attach_anchors, get_memories, limit_sql, memory_from_row};
use crate::store::ranking::budget::RECALL_POSTING_BUDGET;
use crate::store::ranking::feedback::Holders;
use crate::store::ranking::terms::query_terms;
use crate::store::ranking::{SearchHit, SearchPage, context, exact_page, like_escape, rounds};
use crate::store::{Memory, MemoryFilter};

/// Matches ranked without the filter for each hit wanted ([`best_unfiltered`]): room for
/// some to fail it.
const UNFILTERED_PER_HIT: usize = 2;

/// The filter's conditions on `memories m` as ` AND ...` clauses, with their arguments.
fn filter_clause(filter: &MemoryFilter) -> (String, Vec<Value>) {
    let mut sql = String::from(" AND m.status = 'active'");
    let mut args: Vec<Value> = Vec::new();
    if filter.only_quarantined {
        sql.push_str(" AND m.badge IN ('pending', 'inbound_pending')");
    } else if !filter.include_quarantined {
        sql.push_str(" AND m.badge IN ('native', 'foreign')");
    }
    if let Some(scope) = filter.scope {
        sql.push_str(" AND m.scope = ?");
        args.push(scope.as_str().to_owned().into());
    }
    if let Some(kind) = filter.kind {
        sql.push_str(" AND m.kind = ?");
        args.push(kind.as_str().to_owned().into());
    }
    if let Some(target) = filter.target {
        sql.push_str(" AND m.target = ?");
        args.push(target.as_str().to_owned().into());
    }
    for tag in &filter.tags {
        sql.push_str(" AND (' ' || m.tags || ' ') LIKE ? ESCAPE '\\'");
        args.push(format!("% {} %", like_escape(tag)).into());
    }
    for category in &filter.categories {
        sql.push_str(" AND EXISTS (SELECT 1 FROM json_each(m.categories) WHERE value = ?)");
        args.push(category.clone().into());
    }
    (sql, args)
}

/// Memories matching `filter`; `word_counts` holds the words' match counts already taken
/// (see [`counts`]) and keeps the new ones.
pub(super) fn search(
    conn: &Connection,
    filter: &MemoryFilter,
    word_counts: &mut WordCounts,
) -> rusqlite::Result<SearchPage> {
    let terms = query_terms(&filter.query);
    if terms.is_empty() {
        let hits = listed(conn, filter)?
            .into_iter()
            .map(|(memory, score)| SearchHit {
                memory,
                score,
                smoothed: false,
            })
            .collect();
        return Ok(SearchPage {
            hits,
            estimated_total: None,
        });
    }
    match plan::plan(
        conn,
        &terms,
        filter.posting_budget.unwrap_or(RECALL_POSTING_BUDGET),
        word_counts,
    )? {
        Some(plan) => Ok(SearchPage {
            hits: ranked(conn, filter, &terms, &plan, word_counts)?,
            // The planner's own count: no query more.
            estimated_total: plan.cut.then_some(plan.at_least as u64),
        }),
        None => Ok(SearchPage::default()),
    }
}

/// Memories matching the filter, newest first (no query words).
fn listed(conn: &Connection, filter: &MemoryFilter) -> rusqlite::Result<Vec<(Memory, f32)>> {
    let (clause, args) = filter_clause(filter);
    let cols = crate::store::rows::columns_of_m();
    let sql = format!(
        "SELECT {cols} FROM memories m WHERE 1{clause} ORDER BY m.updated_at DESC, m.id DESC{}",
        limit_sql(filter.limit.into(), filter.offset.into())
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), memory_from_row)?;
    let mut memories = rows.collect::<rusqlite::Result<Vec<Memory>>>()?;
    attach_anchors(conn, &mut memories)?;
    Ok(memories.into_iter().map(|m| (m, 0.0)).collect())
}

/// A page of the memories matching the filter whose text holds every content word of its
/// query, newest first, and how many match in all.
pub(super) fn list_counted(
    conn: &Connection,
    filter: &MemoryFilter,
) -> rusqlite::Result<(Vec<Memory>, u64)> {
    let (mut clause, mut args) = filter_clause(filter);
    let terms = query_terms(&filter.query);
    if !terms.is_empty() {
        let all_of: Vec<String> = terms.iter().map(|t| query::quoted(t)).collect();
        clause.push_str(" AND m.id IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)");
        args.push(all_of.join(" AND ").into());
    }
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM memories m WHERE 1{clause}"))?
        .query_row(rusqlite::params_from_iter(args.iter()), |row| row.get(0))?;
    let cols = crate::store::rows::columns_of_m();
    let sql = format!(
        "SELECT {cols} FROM memories m WHERE 1{clause} ORDER BY m.created_at DESC, m.id DESC{}",
        limit_sql(filter.limit.into(), filter.offset.into())
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), memory_from_row)?;
    let mut memories = rows.collect::<rusqlite::Result<Vec<Memory>>>()?;
    attach_anchors(conn, &mut memories)?;
    Ok((memories, u64::try_from(total).unwrap_or(0)))
}

/// The page of memories relevant to the query of `terms`, cut from its one ranked list
/// ([`exact_page`]).
fn ranked(
    conn: &Connection,
    filter: &MemoryFilter,
    terms: &[String],
    plan: &plan::Plan,
    word_counts: &mut WordCounts,
) -> rusqlite::Result<Vec<SearchHit>> {
    let (clause, filter_args) = filter_clause(filter);
    let neighbours = format!(
        "SELECT m.id, m.thread FROM memories m WHERE m.id BETWEEN ? AND ? AND m.thread IS NOT NULL{clause} ORDER BY m.id"
    );
    let members = |first: u64, last: u64| {
        let mut args: Vec<Value> = vec![
            Value::Integer(i64::try_from(first).unwrap_or(i64::MAX)),
            Value::Integer(i64::try_from(last).unwrap_or(i64::MAX)),
        ];
        args.extend(filter_args.iter().cloned());
        let mut stmt = conn.prepare_cached(&neighbours)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(args), |row| {
            Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
        })?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    };
    let mut lexicon = Lexicon {
        conn,
        clause: &clause,
        filter_args: &filter_args,
        plan,
        budget: filter.posting_budget.unwrap_or(RECALL_POSTING_BUDGET),
        word_counts,
    };
    exact_page(filter, terms, &mut lexicon, members, |ids| {
        get_memories(conn, ids)
    })
}

/// One search's view of the index for the rounds of its ranking ([`rounds`]).
struct Lexicon<'a> {
    conn: &'a Connection,
    /// The filter's clause on `m` and its arguments.
    clause: &'a str,
    filter_args: &'a [Value],
    /// The first round's plan.
    plan: &'a plan::Plan,
    budget: usize,
    /// Words' match counts ([`counts`]).
    word_counts: &'a mut WordCounts,
}

impl Lexicon<'_> {
    /// The best `n` hits of `plan` passing the filter.
    fn best(&self, plan: &plan::Plan, n: usize) -> rusqlite::Result<Vec<context::Hit>> {
        match best_unfiltered(self.conn, self.clause, self.filter_args, plan, n)? {
            Some(hits) => Ok(hits),
            None => best_filtered(self.conn, self.clause, self.filter_args, plan, n),
        }
    }
}

impl rounds::Lexicon for Lexicon<'_> {
    type Error = rusqlite::Error;

    fn first(&mut self, n: usize) -> rusqlite::Result<Vec<context::Hit>> {
        self.best(self.plan, n)
    }

    fn best_of(&mut self, words: &[String], n: usize) -> rusqlite::Result<Vec<context::Hit>> {
        match plan::plan(self.conn, words, self.budget, self.word_counts)? {
            Some(plan) => self.best(&plan, n),
            None => Ok(Vec::new()),
        }
    }

    fn holders(&mut self, words: &[String]) -> rusqlite::Result<(Vec<Holders>, u64)> {
        let holders = self.word_counts.holders(self.conn, words)?;
        // The largest id: never fewer than the memories indexed, found in one seek.
        let documents: Option<i64> =
            self.conn
                .query_row("SELECT max(id) FROM memories", [], |row| row.get(0))?;
        Ok((holders, documents.unwrap_or(0).max(0) as u64))
    }

    fn admitted(&mut self, ids: &[u64]) -> rusqlite::Result<HashMap<u64, Option<String>>> {
        admitted(self.conn, self.clause, self.filter_args, ids)
    }

    fn texts(
        &mut self,
        ids: &[u64],
        chars: Option<usize>,
    ) -> rusqlite::Result<HashMap<u64, String>> {
        let chars = chars.map_or(i64::MAX, |c| i64::try_from(c).unwrap_or(i64::MAX));
        // The ids lead the join, as in `admitted`.
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.id, substr(m.text, 1, ?2) FROM json_each(?1) j JOIN memories m ON m.id = j.value",
        )?;
        let rows = stmt.query_map(rusqlite::params![json_ids(ids), chars], |row| {
            Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
        })?;
        rows.collect()
    }
}

/// The `window` clause on the index's rowids a plan asks for, and its argument.
fn window(plan: &plan::Plan) -> (&'static str, Option<Value>) {
    match plan.min_rowid {
        Some(min) => (" AND memories_fts.rowid >= ?", Some(Value::Integer(min))),
        None => ("", None),
    }
}

/// The best `pool` hits passing the filter, found among the best [`UNFILTERED_PER_HIT`] ×
/// `pool` matches of the query alone; `None` when too few of those pass to be sure of the
/// answer (the caller then ranks with the filter applied to every match).
///
/// Ranking every match after joining it to its memory row read that row for every match,
/// though a filter rarely removes one (most memories are active and native): two B-tree seeks
/// a match instead of one. Here only the best matches' rows are read.
fn best_unfiltered(
    conn: &Connection,
    clause: &str,
    filter_args: &[Value],
    plan: &plan::Plan,
    pool: usize,
) -> rusqlite::Result<Option<Vec<context::Hit>>> {
    let (window, window_arg) = window(plan);
    let considered = pool.saturating_mul(UNFILTERED_PER_HIT);
    let sql = format!(
        "SELECT f.id, m.thread, f.rank, (1{clause}) FROM (SELECT memories_fts.rowid AS id, -bm25(memories_fts) AS rank FROM memories_fts WHERE memories_fts MATCH ?{window} ORDER BY rank DESC, memories_fts.rowid{}) f JOIN memories m ON m.id = f.id ORDER BY f.rank DESC, f.id",
        limit_sql(considered as u64, 0)
    );
    let mut args: Vec<Value> = filter_args.to_vec();
    args.push(plan.query.clone().into());
    args.extend(window_arg);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
    let (mut hits, mut seen) = (Vec::with_capacity(pool), 0usize);
    while let Some(row) = rows.next()? {
        seen += 1;
        if row.get::<_, Option<bool>>(3)? == Some(true) {
            hits.push(hit_from_row(row)?);
            if hits.len() == pool {
                return Ok(Some(hits));
            }
        }
    }
    // Fewer than `considered` matches in all: every one was seen, the filter on each.
    Ok((seen < considered).then_some(hits))
}

/// Those of `ids` the filter (`clause` and its arguments) admits, with their threads: one
/// seek a memory.
fn admitted(
    conn: &Connection,
    clause: &str,
    filter_args: &[Value],
    ids: &[u64],
) -> rusqlite::Result<HashMap<u64, Option<String>>> {
    let mut args: Vec<Value> = filter_args.to_vec();
    args.push(json_ids(ids).into());
    // The filter is a column, not a condition, and the ids lead the join: in the WHERE
    // clause the filter led the planner to walk the status index through every memory, and
    // `id IN (...)` builds a temporary index of the ids first.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.id, m.thread, (1{clause}) FROM json_each(?) j JOIN memories m ON m.id = j.value"
    ))?;
    let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
    let mut admitted = HashMap::with_capacity(ids.len());
    while let Some(row) = rows.next()? {
        if row.get::<_, Option<bool>>(2)? == Some(true) {
            admitted.insert(row.get::<_, i64>(0)? as u64, row.get(1)?);
        }
    }
    Ok(admitted)
}

/// `ids` as a JSON array, for `json_each`.
fn json_ids(ids: &[u64]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned())
}

/// The best `pool` hits passing the filter, the filter applied to every match.
fn best_filtered(
    conn: &Connection,
    clause: &str,
    filter_args: &[Value],
    plan: &plan::Plan,
    pool: usize,
) -> rusqlite::Result<Vec<context::Hit>> {
    let (window, window_arg) = window(plan);
    let sql = format!(
        "SELECT m.id, m.thread, -bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid WHERE memories_fts MATCH ?{window}{clause} ORDER BY rank DESC, m.id{}",
        limit_sql(pool as u64, 0)
    );
    let mut args: Vec<Value> = vec![plan.query.clone().into()];
    args.extend(window_arg);
    args.extend(filter_args.iter().cloned());
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), hit_from_row)?;
    rows.collect()
}

/// A hit from a ranking row's first three columns: id, thread, score.
fn hit_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<context::Hit> {
    Ok(context::Hit {
        id: row.get::<_, i64>(0)? as u64,
        thread: row.get(1)?,
        score: row.get(2)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Badge, KnowledgeBase, TEST_EVENT, global_fact};

    /// A knowledge base holding `(text, badge)` notes, written in one transaction.
    fn kb_of(notes: &[(String, Badge)]) -> (tempfile::TempDir, KnowledgeBase) {
        let dir = tempfile::tempdir().unwrap();
        let mut kb =
            KnowledgeBase::open_or_create(&dir.path().join("profile-rank.sqlite")).unwrap();
        kb.write(|tx| {
            for (text, badge) in notes {
                tx.insert_memory(&global_fact(text), *badge, 1_000, &TEST_EVENT)?;
            }
            Ok(())
        })
        .unwrap();
        (dir, kb)
    }

    fn plan_of(query: &str) -> plan::Plan {
        plan::Plan {
            query: query::any_of(&query_terms(query)).unwrap(),
            min_rowid: None,
            cut: false,
            at_least: 0,
        }
    }

    #[test]
    fn ranking_the_best_matches_first_finds_what_filtering_every_match_finds() {
        // Every third note is quarantined (left out by the default filter).
        let notes: Vec<(String, Badge)> = (0..600)
            .map(|i| {
                let words = ["rc4", "key", "schedule", "sbox", "xor"];
                let text = (0..1 + i % 7)
                    .map(|j| words[(i + j * j) % words.len()])
                    .collect::<Vec<_>>()
                    .join(" ");
                let badge = if i % 3 == 0 {
                    Badge::Pending
                } else {
                    Badge::Native
                };
                (format!("note {i}: {text}"), badge)
            })
            .collect();
        let (_dir, kb) = kb_of(&notes);
        let filter = MemoryFilter::default();
        let (clause, args) = filter_clause(&filter);
        for query in ["rc4", "key schedule", "sbox xor rc4", "note"] {
            let plan = plan_of(query);
            for pool in [5, 50, 200] {
                let first = best_unfiltered(kb.conn(), &clause, &args, &plan, pool).unwrap();
                let every = best_filtered(kb.conn(), &clause, &args, &plan, pool).unwrap();
                let first = first.unwrap_or_else(|| panic!("{query:?}, {pool}: gave up"));
                assert_eq!(first, every, "{query:?}, pool {pool}");
            }
        }
    }

    #[test]
    fn a_filter_that_removes_the_best_matches_still_finds_those_that_pass() {
        // The best 450 matches are quarantined; the five that pass rank below all of them.
        let mut notes: Vec<(String, Badge)> = (0..450)
            .map(|i| (format!("quokka quokka quokka {i}"), Badge::Pending))
            .collect();
        notes.extend((0..5).map(|i| {
            (
                format!(
                    "a long field note {i} about the island, its ferry, its weather, and one quokka"
                ),
                Badge::Native,
            )
        }));
        let (_dir, kb) = kb_of(&notes);
        let filter = MemoryFilter::default();
        let (clause, args) = filter_clause(&filter);
        let plan = plan_of("quokka");
        assert_eq!(
            best_unfiltered(kb.conn(), &clause, &args, &plan, 200).unwrap(),
            None,
            "too few of the best matches pass to be sure"
        );
        let found = kb
            .search(&MemoryFilter {
                query: "quokka".into(),
                limit: 10,
                ..MemoryFilter::default()
            })
            .unwrap();
        let mut texts: Vec<&str> = found.iter().map(|(m, _)| m.text.as_str()).collect();
        texts.sort();
        assert_eq!(texts.len(), 5, "{texts:?}");
        assert!(
            texts.iter().all(|t| t.starts_with("a long field note")),
            "{texts:?}"
        );
    }
}
