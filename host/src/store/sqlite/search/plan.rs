//! Bounding the cost of a lexical query.
//!
//! FTS5's `bm25()` costs time in proportion to the memories each query word matches: it counts
//! every match of every word (for the word's inverse document frequency) and scores every
//! matching memory. A word found in 60,000 of 100,000 memories costs tens of milliseconds, yet
//! says almost nothing about which memory is meant (its weight `ln(N / df)` is near zero). So a
//! query is planned before it runs:
//!
//! 1. each word's matches are counted, up to the budget + 1 (cheap: no scoring);
//! 2. the words are taken rarest first while their matches together stay within the budget;
//!    the commoner words are left out (they could only reorder memories a rarer word found);
//! 3. when even the rarest word matches more than the budget, only that word is searched, and
//!    only among its newest [`POSTING_BUDGET`] + 1 matches.
//!
//! The budget is [`crate::store::RECALL_POSTING_BUDGET`] for `recall` and [`crate::store::TURN_POSTING_BUDGET`] for the
//! candidates of a turn. A query whose words all stay within the budget runs exactly as written, so a knowledge base
//! of a few thousand memories is ranked by plain BM25 over every word.

use rusqlite::Connection;

use super::counts::WordCounts;
use super::query::{any_of, quoted};
use crate::store::ranking::budget::{Choice, choose};
use crate::store::sqlite::reads::limit_sql;

/// What to run: an FTS5 query, and the least rowid it may match (`None`: no bound).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The FTS5 query (quoted words, OR-ed).
    pub query: String,
    /// Only memories with this id or a later one are searched.
    pub min_rowid: Option<i64>,
    /// The budget cut the query: a word that matches was left out, or only the newest
    /// matches are searched. Some matches are then out of the ranking's reach.
    pub cut: bool,
    /// The most matches one word of the query has, as counted for the plan (up to the budget
    /// and one more): at least this many memories hold a word of the query.
    pub at_least: usize,
}

/// Plans the search for `terms` within `budget` scored matches; `None` when no term matches
/// any memory. `counts` holds the words' counts already taken on the unchanged store, and
/// keeps those taken here.
pub fn plan(
    conn: &Connection,
    terms: &[String],
    budget: usize,
    counts: &mut WordCounts,
) -> rusqlite::Result<Option<Plan>> {
    let budget = budget.max(1);
    // (matches, up to budget + 1; position in the query)
    let mut counted: Vec<(usize, usize)> = counts
        .count(conn, terms, budget)?
        .into_iter()
        .enumerate()
        .filter(|&(_, matches)| matches > 0)
        .map(|(position, matches)| (matches, position))
        .collect();
    let at_least = counted
        .iter()
        .map(|&(matches, _)| matches)
        .max()
        .unwrap_or(0);
    match choose(&mut counted, budget) {
        Choice::Nothing => Ok(None),
        Choice::Newest => {
            newest_window(conn, terms, &counted, budget).map(|plan| Some(Plan { at_least, ..plan }))
        }
        Choice::Words(kept) => {
            let cut = kept.len() < counted.len();
            let words: Vec<&str> = kept.iter().map(|&p| terms[p].as_str()).collect();
            Ok(any_of(&words).map(|query| Plan {
                query,
                min_rowid: None,
                cut,
                at_least,
            }))
        }
    }
}

/// The plan when every word matches more than `budget` memories: the word whose newest
/// `budget` + 1 matches reach furthest back (the rarest lately), searched among those matches.
fn newest_window(
    conn: &Connection,
    terms: &[String],
    counted: &[(usize, usize)],
    budget: usize,
) -> rusqlite::Result<Plan> {
    // Walking a word's matches newest first costs more than oldest first, so only words
    // known to be over the budget are walked this way.
    let mut oldest = conn.prepare_cached(&format!(
        "SELECT min(rowid) FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid DESC{})",
        limit_sql(budget as u64 + 1, 0)
    ))?;
    let mut best: Option<(i64, usize)> = None;
    for &(_, position) in counted {
        let reach: i64 = oldest.query_row([quoted(&terms[position])], |row| row.get(0))?;
        if best.is_none_or(|(least, _)| reach < least) {
            best = Some((reach, position));
        }
    }
    let (min_rowid, position) = best.expect("called with at least one word");
    Ok(Plan {
        query: quoted(&terms[position]),
        min_rowid: Some(min_rowid),
        cut: true,
        at_least: budget + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An FTS table with `common` memories holding "common" (and "often" in the first
    /// `often` of them), then one memory with "rare".
    fn store(common: usize, often: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE VIRTUAL TABLE memories_fts USING fts5(text)")
            .unwrap();
        {
            let mut insert = conn
                .prepare("INSERT INTO memories_fts(rowid, text) VALUES (?1, ?2)")
                .unwrap();
            for i in 0..common {
                let text = if i < often { "common often" } else { "common" };
                insert.execute((i as i64 + 1, text)).unwrap();
            }
            insert.execute((common as i64 + 1, "rare common")).unwrap();
        }
        conn
    }

    fn plan_fresh(
        conn: &Connection,
        terms: &[String],
        budget: usize,
    ) -> rusqlite::Result<Option<Plan>> {
        plan(conn, terms, budget, &mut WordCounts::default())
    }

    fn terms(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn words_within_the_budget_run_as_written() {
        let conn = store(5, 3);
        let plan = plan_fresh(&conn, &terms(&["common", "rare", "often"]), 100).unwrap();
        assert_eq!(
            plan,
            Some(Plan {
                query: r#""common" OR "rare" OR "often""#.into(),
                min_rowid: None,
                cut: false,
                // "common": the five memories and the rare one.
                at_least: 6,
            })
        );
    }

    #[test]
    fn common_words_are_left_out_rarest_first() {
        let conn = store(50, 30);
        // rare: 1 match, often: 30, common: 51; budget 40 keeps rare and often.
        let first = plan_fresh(&conn, &terms(&["common", "rare", "often"]), 40).unwrap();
        assert!(
            first.as_ref().unwrap().cut,
            "a word that matches was left out"
        );
        assert_eq!(
            first.unwrap().query,
            r#""rare" OR "often""#,
            "the commonest word goes first"
        );
        let second = plan_fresh(&conn, &terms(&["common", "often", "rare"]), 20).unwrap();
        assert_eq!(second.unwrap().query, r#""rare""#);
    }

    #[test]
    fn words_that_match_nothing_are_dropped() {
        let conn = store(5, 0);
        assert_eq!(plan_fresh(&conn, &terms(&["absent"]), 10).unwrap(), None);
        let found = plan_fresh(&conn, &terms(&["absent", "rare"]), 10).unwrap();
        assert_eq!(found.unwrap().query, r#""rare""#);
    }

    #[test]
    fn when_every_word_is_common_only_the_newest_matches_of_the_rarest_are_searched() {
        let conn = store(50, 30);
        let windowed = plan_fresh(&conn, &terms(&["common", "often"]), 10)
            .unwrap()
            .unwrap();
        assert_eq!(windowed.query, r#""often""#);
        // "often" is in memories 1..=30 and "common" in 1..=51: the 11 newest matches of
        // "often" reach back to 20, those of "common" only to 41.
        assert_eq!(windowed.min_rowid, Some(20));
    }
}
