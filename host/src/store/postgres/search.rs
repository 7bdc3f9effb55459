//! Ranked search on PostgreSQL. A match is scored by BM25 as FTS5 scores it
//! ([`crate::store::ranking::bm25`]), over PostgreSQL's stems; the pool of hits and the
//! thread smoothing ([`crate::store::ranking::context`]) are the same code as SQLite's.

use std::collections::HashMap;

use postgres::GenericClient;

use super::connection::{Args, Pg};
use crate::error::{KenningError, Result};
use crate::store::MemoryFilter;
use crate::store::ranking::{bm25, budget, context, exact_page, like_escape, terms};
use crate::store::{SearchHit, SearchPage};

impl<'a, C: GenericClient> Pg<'a, C> {
    /// The conditions of `filter` on `m` (status, quarantine, scope, kind, target, tags,
    /// categories), as ` AND ...` clauses.
    pub(super) fn filter_clause(filter: &MemoryFilter, args: &mut Args) -> String {
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
    pub(super) fn ranked_hits(
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
    pub(super) fn documents_holding(&self, stems: &[String]) -> Result<HashMap<String, u64>> {
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
    pub(super) fn plan(
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
}

/// A stem as a tsquery literal: quoted, so that it is not stemmed again.
pub(super) fn tsquery_literal(stem: &str) -> String {
    format!("'{}'", stem.replace('\\', "\\\\").replace('\'', "''"))
}
