//! How many memories hold each word, counted with FTS5 up to a cap (a count past the cap
//! stops at the cap and one more) and kept while the store is unchanged: the plan of every
//! query counts its words ([`super::plan`]). The feedback round reads its candidates' holders
//! themselves, up to [`feedback::MAX_HOLDING`], which are kept with the count.
//!
//! A count kept answers a later question with another cap when it can: one taken with a cap
//! at least as high does, and so does one that stopped below its own cap (it is exact).

use std::collections::HashMap;

use rusqlite::Connection;

use super::query::quoted;
use crate::store::ranking::feedback::{self, Holders};
use crate::store::sqlite::reads::limit_sql;

/// The counts taken on an unchanged store, by lowercase word.
#[derive(Debug, Default)]
pub struct WordCounts {
    counted: HashMap<String, Counted>,
}

/// What is kept of one word.
#[derive(Debug, Clone)]
enum Counted {
    /// How many memories hold it, up to `cap` and one more.
    Count { matches: usize, cap: usize },
    /// Every memory holding it, read for feedback: at most [`feedback::MAX_HOLDING`], so the
    /// count they make is exact.
    Holders(Vec<u64>),
}

impl WordCounts {
    /// How many memories hold each of `words` (in order), up to `cap` and one more: the counts
    /// kept that answer it, the others counted in one statement and kept.
    pub fn count(
        &mut self,
        conn: &Connection,
        words: &[impl AsRef<str>],
        cap: usize,
    ) -> rusqlite::Result<Vec<usize>> {
        // FTS5 folds case: a word's count is its lowercase form's.
        let lower = lowercase(words);
        let uncounted = unique(&lower, |word| self.known(word, cap).is_none());
        if !uncounted.is_empty() {
            let counts: Vec<i64> = each_word(conn, &uncounted, "count(*)", cap)?;
            for (word, matches) in uncounted.into_iter().zip(counts) {
                let matches = usize::try_from(matches).unwrap_or(0);
                self.counted
                    .insert(word.to_owned(), Counted::Count { matches, cap });
            }
        }
        Ok(lower
            .iter()
            .map(|w| self.known(w, cap).unwrap_or(0))
            .collect())
    }

    /// The memories holding each of `words` (in order), up to [`feedback::MAX_HOLDING`]: those
    /// kept, the others read in one statement and kept.
    pub fn holders(
        &mut self,
        conn: &Connection,
        words: &[impl AsRef<str>],
    ) -> rusqlite::Result<Vec<Holders>> {
        let cap = feedback::MAX_HOLDING as usize;
        let lower = lowercase(words);
        let unread = unique(&lower, |word| self.held(word).is_none());
        if !unread.is_empty() {
            // One string of ids a word: a row an id cost more than finding it.
            let read: Vec<Option<String>> = each_word(conn, &unread, "group_concat(rowid)", cap)?;
            for (word, ids) in unread.into_iter().zip(read) {
                let ids: Vec<u64> = ids
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|id| id.parse().ok())
                    .collect();
                let matches = ids.len();
                let counted = match Holders::of(ids) {
                    Holders::Few(ids) => Counted::Holders(ids),
                    Holders::Many => Counted::Count { matches, cap },
                };
                self.counted.insert(word.to_owned(), counted);
            }
        }
        Ok(lower
            .iter()
            .map(|w| self.held(w).unwrap_or(Holders::Many))
            .collect())
    }

    /// The holders of `word` (lowercase), if those kept answer: its ids when they were read,
    /// or more than [`feedback::MAX_HOLDING`] when a count says so.
    fn held(&self, word: &str) -> Option<Holders> {
        let cap = feedback::MAX_HOLDING as usize;
        match self.counted.get(word)? {
            Counted::Holders(ids) => Some(Holders::Few(ids.clone())),
            Counted::Count { .. } => (self.known(word, cap)? > cap).then_some(Holders::Many),
        }
    }

    /// The count of `word` (lowercase) up to `cap` and one more, if a count kept answers it.
    fn known(&self, word: &str, cap: usize) -> Option<usize> {
        match *self.counted.get(word)? {
            Counted::Count { matches, cap: kept } => {
                (kept >= cap || matches <= kept).then(|| matches.min(cap + 1))
            }
            Counted::Holders(ref ids) => Some(ids.len().min(cap + 1)),
        }
    }

    /// How many words are kept.
    pub fn len(&self) -> usize {
        self.counted.len()
    }

    /// Forgets every count.
    pub fn clear(&mut self) {
        self.counted.clear();
    }
}

/// `words` in lowercase, as FTS5 folds them.
fn lowercase(words: &[impl AsRef<str>]) -> Vec<String> {
    words.iter().map(|w| w.as_ref().to_lowercase()).collect()
}

/// Each of `words` once, of those `wanted` says are to be read.
fn unique(words: &[String], wanted: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut unique: Vec<&str> = Vec::new();
    for word in words {
        if wanted(word) && !unique.contains(&word.as_str()) {
            unique.push(word);
        }
    }
    unique
}

/// `aggregate` over the `rowid`s of the first `cap` + 1 memories holding each of `words`, in
/// one statement: a statement a word cost as much again as the counting.
fn each_word<T: rusqlite::types::FromSql>(
    conn: &Connection,
    words: &[&str],
    aggregate: &str,
    cap: usize,
) -> rusqlite::Result<Vec<T>> {
    let quoted: Vec<String> = words.iter().map(|w| quoted(w)).collect();
    let list = serde_json::to_string(&quoted).unwrap_or_else(|_| "[]".to_owned());
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT (SELECT {aggregate} FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH w.value{})) FROM json_each(?1) w ORDER BY w.key",
        limit_sql(cap as u64 + 1, 0)
    ))?;
    stmt.query_map([list], |row| row.get::<_, T>(0))?.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store whose index holds "rare" once and "common" in every one of `common` memories.
    fn store(common: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE VIRTUAL TABLE memories_fts USING fts5(text)")
            .unwrap();
        conn.execute("INSERT INTO memories_fts (text) VALUES ('rare common')", [])
            .unwrap();
        for _ in 1..common {
            conn.execute("INSERT INTO memories_fts (text) VALUES ('common')", [])
                .unwrap();
        }
        conn
    }

    #[test]
    fn counts_stop_at_the_cap_and_one_more() {
        let conn = store(50);
        let mut counts = WordCounts::default();
        assert_eq!(
            counts
                .count(&conn, &["common", "rare", "absent"], 10)
                .unwrap(),
            [11, 1, 0]
        );
    }

    #[test]
    fn a_count_kept_answers_a_lower_cap_and_an_exact_one_any_cap() {
        let conn = store(50);
        let mut counts = WordCounts::default();
        counts.count(&conn, &["Common", "rare"], 100).unwrap();
        // Nothing is counted again: the index could change under a count that is not.
        conn.execute("INSERT INTO memories_fts (text) VALUES ('rare common')", [])
            .unwrap();
        assert_eq!(
            counts.count(&conn, &["common", "RARE"], 10).unwrap(),
            [11, 1]
        );
        assert_eq!(counts.count(&conn, &["rare"], 1_000).unwrap(), [1]);
        assert_eq!(counts.len(), 2);
    }

    #[test]
    fn a_count_that_reached_its_cap_is_taken_again_for_a_higher_one() {
        let conn = store(50);
        let mut counts = WordCounts::default();
        assert_eq!(counts.count(&conn, &["common"], 10).unwrap(), [11]);
        assert_eq!(counts.count(&conn, &["common"], 1_000).unwrap(), [50]);
        assert_eq!(counts.count(&conn, &["common"], 10).unwrap(), [11]);
    }

    #[test]
    fn holders_are_read_up_to_the_most_a_feedback_word_may_have_and_kept() {
        let conn = store(150);
        let mut counts = WordCounts::default();
        assert_eq!(
            counts
                .holders(&conn, &["RARE", "common", "absent"])
                .unwrap(),
            [Holders::Few(vec![1]), Holders::Many, Holders::Few(vec![])]
        );
        // Kept: a new memory holding "rare" is not seen, and the count answers the plan.
        conn.execute("INSERT INTO memories_fts (text) VALUES ('rare')", [])
            .unwrap();
        assert_eq!(
            counts.holders(&conn, &["rare"]).unwrap(),
            [Holders::Few(vec![1])]
        );
        assert_eq!(counts.count(&conn, &["rare"], 1_000).unwrap(), [1]);
    }

    #[test]
    fn a_count_past_the_most_a_feedback_word_may_have_needs_no_holders_read() {
        let conn = store(150);
        let mut counts = WordCounts::default();
        assert_eq!(counts.count(&conn, &["common"], 1_000).unwrap(), [150]);
        conn.execute_batch("DROP TABLE memories_fts").unwrap();
        assert_eq!(counts.holders(&conn, &["common"]).unwrap(), [Holders::Many]);
    }
}
