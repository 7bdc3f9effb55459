//! Ranked search on PostgreSQL. A match is scored by BM25 as FTS5 scores it
//! ([`crate::store::ranking::bm25`]), over PostgreSQL's stems; the pool of hits and the
//! thread smoothing ([`crate::store::ranking::context`]) are the same code as SQLite's.

use std::collections::HashMap;

use postgres::GenericClient;

use super::connection::{Args, Pg};
use super::reads;
use crate::error::{KenningError, Result};
use crate::settings::Settings;
use crate::store::MemoryFilter;
use crate::store::contract::Reads;
use crate::store::ranking::{
    bm25, budget, context, exact_page, feedback, like_escape, rounds, terms,
};
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

    /// See [`crate::store::KnowledgeStore::search_page`]; with `settings`, the settings in
    /// force for its thread are read too, in the search's first statement when it ranks (else
    /// [`SettingsRead::settings`] reads them after).
    pub(super) fn search(
        &self,
        filter: &MemoryFilter,
        settings: Option<&mut SettingsRead<'_>>,
    ) -> Result<SearchPage> {
        let (words, tags) = crate::store::split_tag_tokens(&filter.query);
        let mut filter = filter.clone();
        filter.tags.extend(tags);
        let terms = terms::query_terms(&words);
        if terms.is_empty() {
            let mut args = self.args();
            let clause = Self::filter_clause(&filter, &mut args);
            let page = format!(
                "LIMIT {} OFFSET {}",
                i64::from(filter.limit),
                i64::from(filter.offset)
            );
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
        let members = |first: u64, last: u64| {
            let mut args = self.args();
            let clause = Self::filter_clause(&filter, &mut args);
            let first = args.add(i64::try_from(first).unwrap_or(i64::MAX));
            let last = args.add(i64::try_from(last).unwrap_or(i64::MAX));
            let sql = format!(
                "SELECT m.id, m.thread FROM memories m WHERE m.subject_id = $1 AND m.id BETWEEN {first} AND {last} AND m.thread IS NOT NULL{clause} ORDER BY m.id"
            );
            Ok::<_, KenningError>(
                self.query(&sql, &args.refs())?
                    .iter()
                    .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
                    .collect(),
            )
        };
        let mut lexicon = Lexicon {
            pg: self,
            terms: &terms,
            filter: &filter,
            budget,
            settings,
            ranking: None,
        };
        let hits = exact_page(&filter, &terms, &mut lexicon, members, |ids| {
            self.get_many(ids)
        })?;
        let estimated_total = lexicon.ranking.and_then(|(_, cut)| cut);
        Ok(SearchPage {
            hits,
            estimated_total,
        })
    }

    /// The memories (`m`, restricted by `clause` over `args`) holding any of `terms`, scored
    /// by BM25 (see [`bm25`]), best first and ties by id; at most about `budget` matches are
    /// scored, as SQLite plans it (`store::ranking::budget`). With them, when the budget cut the
    /// query, how many memories the commonest of its stems is in. `settings` are read in the
    /// first statement.
    pub(super) fn ranked_hits(
        &self,
        terms: &[String],
        clause: &str,
        mut args: Args,
        budget: usize,
        settings: Option<&mut SettingsRead<'_>>,
    ) -> Result<(Vec<context::Hit>, Option<u64>)> {
        let budget = budget.max(1);
        let (
            Vocabulary {
                stems: all_stems,
                holding,
                documents,
                total_length,
            },
            fitted,
        ) = self.vocabulary(terms, clause, &mut args, budget, settings)?;
        let (stems, min_id, postings) = match fitted {
            // Every matching stem fits the budget (the plan would keep them all): searched.
            Some(postings) => {
                let stems = all_stems
                    .iter()
                    .filter(|stem| holding.contains_key(*stem))
                    .cloned()
                    .collect();
                (stems, None, postings)
            }
            None => {
                let Some((stems, min_id)) = self.plan(&all_stems, &holding, budget)? else {
                    return Ok((Vec::new(), None));
                };
                let any = args.add(stems.clone());
                let window = match min_id {
                    Some(min) => format!(" AND memory_id >= {}", args.add(min)),
                    None => String::new(),
                };
                let sql = format!(
                    "SELECT p.lexeme, m.id, m.thread, length(m.words), p.occurrences
                     FROM unnest({any}::text[]) AS stem(lexeme) {}",
                    postings_of("stem.lexeme", &window, clause)
                );
                let postings = self
                    .query(&sql, &args.refs())?
                    .iter()
                    .map(|row| Posting::from_row(row, 0))
                    .collect();
                (stems, min_id, postings)
            }
        };
        if stems.is_empty() {
            return Ok((Vec::new(), None));
        }
        // The most one stem matches, from the counts the plan read: no query more.
        let cut = (min_id.is_some() || stems.len() < holding.len())
            .then(|| holding.values().copied().max().unwrap_or(0));
        let corpus = bm25::Corpus {
            documents,
            average_length: if documents == 0 {
                0.0
            } else {
                total_length as f64 / documents as f64
            },
            holding,
        };
        let position: HashMap<&str, usize> = stems
            .iter()
            .enumerate()
            .map(|(index, stem)| (stem.as_str(), index))
            .collect();
        // Each memory's thread, length and occurrences of each stem (by the stem's position).
        let mut matched: HashMap<i64, (Option<String>, i32, Vec<usize>)> = HashMap::new();
        for posting in postings {
            let Some(&index) = position.get(posting.stem.as_str()) else {
                continue;
            };
            let (_, _, occurrences) = matched
                .entry(posting.id)
                .or_insert_with(|| (posting.thread, posting.length, vec![0; stems.len()]));
            occurrences[index] = posting.occurrences.max(0) as usize;
        }
        let mut hits: Vec<context::Hit> = matched
            .into_iter()
            .map(|(id, (thread, length, occurrences))| {
                // Summed in the query's stem order, so that a score is the same bits however
                // the rows arrived.
                let found = stems
                    .iter()
                    .zip(&occurrences)
                    .filter(|(_, times)| **times > 0)
                    .map(|(stem, times)| (stem.as_str(), *times));
                context::Hit {
                    id: id as u64,
                    thread,
                    score: corpus.score(f64::from(length), found),
                }
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        Ok((hits, cut))
    }

    /// The distinct stems of `terms` (PostgreSQL's `english` stems, in order), how many of the
    /// subject's memories hold each (migration 4's `stems`, for the stems some memory holds)
    /// and the subject's totals; and when the matches of all its stems together fit `budget`
    /// (the plan would search them all), their postings among the memories `clause` admits:
    /// one round trip, where the counts and then the postings took two; with `settings`, the
    /// settings rows of the subject and the thread too. `args` are the clause's, left as they
    /// were given.
    fn vocabulary(
        &self,
        terms: &[String],
        clause: &str,
        args: &mut Args,
        budget: usize,
        settings: Option<&mut SettingsRead<'_>>,
    ) -> Result<(Vocabulary, Option<Vec<Posting>>)> {
        let mark = args.len();
        let text = args.add(terms.join(" "));
        let most = args.add(i64::try_from(budget).unwrap_or(i64::MAX));
        let settings_rows = match &settings {
            Some(read) => {
                let thread = args.add(read.thread.unwrap_or_default().to_owned());
                format!(
                    "UNION ALL
                     SELECT {SETTING}, s.key, NULL, NULL, NULL, NULL, s.value, NULL, NULL, s.of_thread, NULL
                     FROM ({}) s",
                    reads::settings_rows(&thread)
                )
            }
            None => String::new(),
        };
        // A row is a stem's (its place in the stems' order, its count, the subject's totals),
        // a posting's (from column 6) or a setting's (key, value, of the thread or not), as its
        // first column says. Each count is looked up by its key: a join let the plan made once
        // for every subject read all of a large subject's stems.
        let sql = format!(
            "WITH v AS MATERIALIZED (
                 SELECT l, (SELECT documents FROM stems WHERE subject_id = $1 AND lexeme = q.l) AS documents
                 FROM (SELECT DISTINCT lexeme AS l FROM unnest(to_tsvector('english', {text}::text))) q)
             SELECT {STEM}, v.l, row_number() OVER (ORDER BY v.l), v.documents, t.documents, t.total_length,
                    NULL::text, NULL::bigint, NULL::text, NULL::int, NULL::int
             FROM v LEFT JOIN text_totals t ON t.subject_id = $1
             UNION ALL
             SELECT {POSTING}, NULL, NULL, NULL, NULL, NULL, p.lexeme, m.id, m.thread, length(m.words), p.occurrences
             FROM (SELECT l FROM v WHERE documents > 0
                   AND (SELECT coalesce(sum(documents), 0)::bigint FROM v WHERE documents > 0) <= {most}) stem
             {}
             {settings_rows}",
            postings_of("stem.l", "", clause)
        );
        let rows = self.query(&sql, &args.refs())?;
        args.drop_after(mark);
        let mut vocabulary = Vocabulary::default();
        let mut stems: Vec<(i64, String)> = Vec::new();
        let mut postings = Vec::new();
        let mut stored = Vec::new();
        for row in &rows {
            match row.get::<_, i32>(0) {
                STEM => {
                    let stem: String = row.get(1);
                    if let Some(documents) = row.get::<_, Option<i64>>(3).filter(|&d| d > 0) {
                        vocabulary.holding.insert(stem.clone(), documents as u64);
                    }
                    stems.push((row.get(2), stem));
                    vocabulary.documents = row.get::<_, Option<i64>>(4).unwrap_or(0).max(0) as u64;
                    vocabulary.total_length =
                        row.get::<_, Option<i64>>(5).unwrap_or(0).max(0) as u64;
                }
                POSTING => postings.push(Posting::from_row(row, 6)),
                _ => stored.push((row.get::<_, i32>(9) == 1, row.get(1), row.get(6))),
            }
        }
        if let Some(read) = settings {
            read.read = Some(reads::settings_of(stored.into_iter()));
        }
        stems.sort_unstable();
        vocabulary.stems = stems.into_iter().map(|(_, stem)| stem).collect();
        // The statement's test, on the same counts.
        let fits = vocabulary.holding.values().sum::<u64>() <= budget as u64;
        Ok((vocabulary, fits.then_some(postings)))
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
                // The stem whose newest `budget + 1` matches reach furthest back (the rarest
                // lately), as SQLite chooses: each stem's reach read from the end of its
                // postings, all in one query.
                let candidates: Vec<&str> =
                    counted.iter().map(|&(_, p)| stems[p].as_str()).collect();
                let reaches: HashMap<String, i64> = self
                    .query(
                        "SELECT l, (SELECT coalesce(min(memory_id), 0) FROM (
                             SELECT memory_id FROM postings WHERE subject_id = $1 AND lexeme = l
                             ORDER BY memory_id DESC LIMIT $3) x)
                         FROM unnest($2::text[]) l",
                        &[&self.subject, &candidates, &cap],
                    )?
                    .iter()
                    .map(|row| (row.get(0), row.get(1)))
                    .collect();
                let mut best: Option<(i64, usize)> = None;
                for &(_, position) in &counted {
                    let reach = reaches.get(&stems[position]).copied().unwrap_or(0);
                    if best.is_none_or(|(least, _)| reach < least) {
                        best = Some((reach, position));
                    }
                }
                best.map(|(reach, position)| (vec![stems[position].clone()], Some(reach)))
            }
        })
    }
}

/// One search's view of the subject's index for the rounds of its ranking ([`rounds`]).
struct Lexicon<'s, 't, 'p, 'a, C: GenericClient> {
    pg: &'p Pg<'a, C>,
    /// The query's words and filter.
    terms: &'s [String],
    filter: &'s MemoryFilter,
    budget: usize,
    /// The settings to read with the first round.
    settings: Option<&'s mut SettingsRead<'t>>,
    /// The first round's ranking of every match (each `first(n)` is its first `n`) and the
    /// count its budget cut, once made.
    ranking: Option<(Vec<context::Hit>, Option<u64>)>,
}

impl<C: GenericClient> Lexicon<'_, '_, '_, '_, C> {
    /// Every match of `words` the filter admits, ranked ([`Pg::ranked_hits`]), with `settings`
    /// read in the same statement.
    fn ranked(
        &self,
        words: &[String],
        settings: Option<&mut SettingsRead<'_>>,
    ) -> Result<(Vec<context::Hit>, Option<u64>)> {
        let mut args = self.pg.args();
        let clause = Pg::<C>::filter_clause(self.filter, &mut args);
        self.pg
            .ranked_hits(words, &clause, args, self.budget, settings)
    }
}

impl<C: GenericClient> rounds::Lexicon for Lexicon<'_, '_, '_, '_, C> {
    type Error = KenningError;

    fn first(&mut self, n: usize) -> Result<Vec<context::Hit>> {
        if self.ranking.is_none() {
            let settings = self.settings.take();
            self.ranking = Some(self.ranked(self.terms, settings)?);
        }
        let (hits, _) = self.ranking.as_ref().expect("ranked above");
        Ok(hits.iter().take(n).cloned().collect())
    }

    fn best_of(&mut self, words: &[String], n: usize) -> Result<Vec<context::Hit>> {
        let (mut hits, _) = self.ranked(words, None)?;
        hits.truncate(n);
        Ok(hits)
    }

    fn holders(&mut self, words: &[String]) -> Result<(Vec<feedback::Holders>, u64)> {
        let most = feedback::MAX_HOLDING as i64 + 1;
        let rows = self.pg.query(
            "SELECT (SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM (
                        SELECT DISTINCT p.memory_id AS id
                        FROM unnest(to_tsvector('english', w)) AS l
                        JOIN postings p ON p.subject_id = $1 AND p.lexeme = l.lexeme
                        ORDER BY 1 LIMIT $3) x),
                    (SELECT coalesce(max(documents), 0) FROM text_totals WHERE subject_id = $1)
             FROM unnest($2::text[]) WITH ORDINALITY AS t(w, at) ORDER BY at",
            &[&self.pg.subject, &words, &most],
        )?;
        let documents = rows.first().map_or(0, |row| row.get::<_, i64>(1)).max(0) as u64;
        let holders = rows
            .iter()
            .map(|row| {
                let ids = row.get::<_, Vec<i64>>(0);
                feedback::Holders::of(ids.into_iter().map(|id| id as u64).collect())
            })
            .collect();
        Ok((holders, documents))
    }

    fn admitted(&mut self, ids: &[u64]) -> Result<HashMap<u64, Option<String>>> {
        let mut args = self.pg.args();
        let list = args.add(ids.iter().map(|&id| id as i64).collect::<Vec<i64>>());
        let clause = Pg::<C>::filter_clause(self.filter, &mut args);
        Ok(self
            .pg
            .query(
                &format!(
                    "SELECT m.id, m.thread FROM memories m WHERE m.subject_id = $1 AND m.id = ANY({list}){clause}"
                ),
                &args.refs(),
            )?
            .iter()
            .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
            .collect())
    }

    fn texts(&mut self, ids: &[u64], chars: Option<usize>) -> Result<HashMap<u64, String>> {
        let ids: Vec<i64> = ids.iter().map(|&id| id as i64).collect();
        let chars = chars.map_or(i32::MAX, |c| i32::try_from(c).unwrap_or(i32::MAX));
        Ok(self
            .pg
            .query(
                "SELECT id, left(text, $3) FROM memories WHERE subject_id = $1 AND id = ANY($2)",
                &[&self.pg.subject, &ids, &chars],
            )?
            .iter()
            .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
            .collect())
    }
}

/// What a row of [`Pg::vocabulary`] is, in its first column.
const STEM: i32 = 0;
/// See [`STEM`].
const POSTING: i32 = 1;
/// See [`STEM`].
const SETTING: i32 = 2;

/// The settings in force for a search's thread, read with the search ([`Pg::search`]).
pub(super) struct SettingsRead<'t> {
    /// The thread, or `None` for the subject's settings alone.
    thread: Option<&'t str>,
    /// The settings, once read.
    read: Option<Settings>,
}

impl<'t> SettingsRead<'t> {
    /// The settings of `thread`, not read yet.
    pub(super) fn of(thread: Option<&'t str>) -> SettingsRead<'t> {
        SettingsRead { thread, read: None }
    }

    /// The settings, read by the search or, when it read none (a query of no words, or one
    /// answered before its ranking), now through `pg` in a statement of their own.
    pub(super) fn settings<C: GenericClient>(self, pg: &Pg<'_, C>) -> Result<Settings> {
        match self.read {
            Some(settings) => Ok(settings),
            None => pg.settings(self.thread),
        }
    }
}

/// The joins that read, for each stem `stem` names, its postings (those of memories from
/// `window`) and each posting's memory, if `clause` admits it: `p` and `m`.
///
/// One lookup a stem in the postings' index (migration 8), and the memory's row by its key
/// (only for its state, thread and length), each its own (`LATERAL`) so that no plan can do
/// otherwise: the plan made once for every subject read all of a large subject's postings for
/// `lexeme = ANY(stems)` (32 ms against 0.4 ms, 10,000 memories among 1,000 subjects).
fn postings_of(stem: &str, window: &str, clause: &str) -> String {
    format!(
        "CROSS JOIN LATERAL (SELECT lexeme, memory_id, occurrences FROM postings
             WHERE subject_id = $1 AND lexeme = {stem}{window} OFFSET 0) p
         CROSS JOIN LATERAL (SELECT * FROM memories m
             WHERE m.subject_id = $1 AND m.id = p.memory_id{clause} OFFSET 0) m"
    )
}

/// One posting a search scores: `stem` occurs `occurrences` times in memory `id` (of
/// `thread`, `length` distinct stems long).
struct Posting {
    stem: String,
    id: i64,
    thread: Option<String>,
    length: i32,
    occurrences: i32,
}

impl Posting {
    /// From `row`'s columns `lexeme, id, thread, length, occurrences`, the first at `at`.
    fn from_row(row: &postgres::Row, at: usize) -> Posting {
        Posting {
            stem: row.get(at),
            id: row.get(at + 1),
            thread: row.get(at + 2),
            length: row.get(at + 3),
            occurrences: row.get(at + 4),
        }
    }
}

/// What BM25 needs to know of a query's stems in a subject ([`Pg::vocabulary`]).
#[derive(Default)]
struct Vocabulary {
    /// The query's distinct stems, in order.
    stems: Vec<String>,
    /// How many memories hold each stem some memory holds.
    holding: HashMap<String, u64>,
    /// Memories in the subject's index.
    documents: u64,
    /// Their lengths' sum, in distinct stems.
    total_length: u64,
}
