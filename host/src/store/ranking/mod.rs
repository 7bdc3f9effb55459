//! Ranking, the same on every backend: the words a query searches for ([`terms`]), the budget
//! that bounds its cost ([`budget`]), BM25 with FTS5's constants where the backend has no FTS5
//! (`bm25`, compiled with the `postgres` feature), context smoothing over threads ([`context`]), and the paging that cuts every
//! page of a query from one ranked list ([`exact_page`]). A change to how recall ranks lands
//! here; `search` (SQLite) and `postgres` only gather matches and read rows.

#[cfg(feature = "postgres")]
pub mod bm25;
pub mod budget;
pub mod context;
pub mod feedback;
pub(crate) mod rounds;
pub mod speakers;
pub mod terms;
pub mod variants;

use std::collections::{HashMap, HashSet};

use crate::memory::{Memory, MemoryFilter};

/// Fewest lexical hits gathered for a query, whatever the page size: smoothing needs hits
/// beyond the page to promote their neighbours into it.
const MIN_POOL: usize = 200;
/// Lexical hits smoothed per result a page holds, above [`MIN_POOL`].
const POOL_PER_RESULT: usize = 4;
/// Most lexical hits gathered for a query.
const MAX_POOL: usize = 2_000;
/// One page of a search.
#[derive(Debug, Clone, Default)]
pub struct SearchPage {
    /// The page's memories, best first (newest first without a query).
    pub hits: Vec<SearchHit>,
    /// Set when the query's cost budget cut it (a common word left out, or only the newest
    /// matches searched): at least this many memories hold a word of the query, before the
    /// filter (the most one word matches, as the plan counted them: SQLite counts up to the
    /// budget and one more, PostgreSQL keeps every word's count). Some of them are out of the
    /// ranking's reach.
    pub estimated_total: Option<u64>,
}

/// A memory a search found.
#[derive(Debug, Clone)]
pub struct SearchHit {
    /// The memory.
    pub memory: Memory,
    /// Its relevance (larger is better; 0 without a query).
    pub score: f32,
    /// Context brought it in: a thread neighbour of matches, or a memory only the feedback
    /// round found ([`rounds`]), placed by their scores rather than by its own words (it holds
    /// none of the query's, or too few to rank among the matches smoothed).
    pub smoothed: bool,
}

impl SearchPage {
    /// The memories and their scores alone.
    pub fn scored(self) -> Vec<(Memory, f32)> {
        self.hits.into_iter().map(|h| (h.memory, h.score)).collect()
    }
}

/// The page `filter` asks for (its `offset` and `limit`), cut from the query's one ranked list:
/// the pool of [`pool_size`] hits of the query of `terms` after every round ([`rounds`])
/// smoothed over their threads, then the first round's matches after it in BM25 order that the
/// smoothed part does not hold. `lexicon` is the backend's search; `members` and `load` are
/// as [`context::smooth`] and [`scored_page`] take them.
///
/// The pool depends on the page's length only, so every page of a query is cut from one list
/// and paging reaches each match once; matches past the pool are read only by a page that
/// reaches past the smoothed part.
pub(crate) fn exact_page<L: rounds::Lexicon>(
    filter: &MemoryFilter,
    terms: &[String],
    lexicon: &mut L,
    members: impl FnMut(u64, u64) -> Result<Vec<(u64, String)>, L::Error>,
    load: impl FnOnce(&[u64]) -> Result<Vec<Memory>, L::Error>,
) -> Result<Vec<SearchHit>, L::Error> {
    let pool = pool_size(filter);
    let rounds::Pool { hits, related } = rounds::pool(lexicon, terms, pool, filter.feedback)?;
    let mut lexical: HashSet<u64> = hits
        .iter()
        .map(|h| h.id)
        .filter(|id| !related.contains(id))
        .collect();
    let mut ranked = context::smooth(&hits, members)?;
    let wanted = (filter.offset as usize).saturating_add(filter.limit as usize);
    if ranked.len() < wanted && hits.len() == pool {
        let listed: HashSet<u64> = ranked.iter().map(|&(id, _)| id).collect();
        // Enough to fill the page even if every memory the smoothed part holds comes again.
        let more = lexicon.first(pool + (wanted - ranked.len()) + listed.len())?;
        for hit in more {
            lexical.insert(hit.id);
            if !listed.contains(&hit.id) {
                ranked.push((hit.id, hit.score));
            }
        }
    }
    Ok(scored_page(ranked, filter, load)?
        .into_iter()
        .map(|(memory, score)| SearchHit {
            smoothed: !lexical.contains(&memory.id),
            memory,
            score,
        })
        .collect())
}

/// The page `filter` asks for, cut from `scored` (best first), as the memories `load` reads
/// (in the order of the ids it is given), each with its score.
pub(crate) fn scored_page<E>(
    scored: Vec<(u64, f64)>,
    filter: &MemoryFilter,
    load: impl FnOnce(&[u64]) -> Result<Vec<Memory>, E>,
) -> Result<Vec<(Memory, f32)>, E> {
    let page: Vec<(u64, f64)> = scored
        .into_iter()
        .skip(filter.offset as usize)
        .take(filter.limit as usize)
        .collect();
    let ids: Vec<u64> = page.iter().map(|&(id, _)| id).collect();
    let scores: HashMap<u64, f64> = page.into_iter().collect();
    Ok(load(&ids)?
        .into_iter()
        .map(|memory| {
            let score = scores.get(&memory.id).copied().unwrap_or(0.0) as f32;
            (memory, score)
        })
        .collect())
}

/// How many lexical hits a ranked query smooths for pages of `filter`'s length: never its
/// offset, so that every page of a query is cut from the same list.
pub(crate) fn pool_size(filter: &MemoryFilter) -> usize {
    (filter.limit as usize)
        .saturating_mul(POOL_PER_RESULT)
        .clamp(MIN_POOL, MAX_POOL)
}

/// `text` with `LIKE`'s wildcards and escape character escaped (by `\\`).
pub(crate) fn like_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
