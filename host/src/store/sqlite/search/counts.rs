//! How many memories hold each word, counted with FTS5 up to a cap (a count past the cap
//! stops at the cap and one more) and kept while the store is unchanged: the plan of every
//! query counts its words ([`super::plan`]), and the feedback round its candidates.
//!
//! A count kept answers a later question with another cap when it can: one taken with a cap
//! at least as high does, and so does one that stopped below its own cap (it is exact).

use std::collections::HashMap;

use rusqlite::Connection;

use super::query::quoted;
use crate::store::sqlite::reads::limit_sql;

/// The counts taken on an unchanged store, by lowercase word.
#[derive(Debug, Default)]
pub struct WordCounts {
    counted: HashMap<String, Counted>,
}

/// One word's count, and the cap it was taken with.
#[derive(Debug, Clone, Copy)]
struct Counted {
    matches: usize,
    cap: usize,
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
        let lower: Vec<String> = words.iter().map(|w| w.as_ref().to_lowercase()).collect();
        let mut uncounted: Vec<&str> = Vec::new();
        for word in &lower {
            if self.known(word, cap).is_none() && !uncounted.contains(&word.as_str()) {
                uncounted.push(word);
            }
        }
        if !uncounted.is_empty() {
            // One statement for every word: a statement a word cost as much again as the
            // counting.
            let quoted: Vec<String> = uncounted.iter().map(|w| quoted(w)).collect();
            let list = serde_json::to_string(&quoted).unwrap_or_else(|_| "[]".to_owned());
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT (SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH w.value{})) FROM json_each(?1) w ORDER BY w.key",
                limit_sql(cap as u64 + 1, 0)
            ))?;
            let counts = stmt
                .query_map([list], |row| row.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()?;
            for (word, matches) in uncounted.into_iter().zip(counts) {
                let matches = usize::try_from(matches).unwrap_or(0);
                self.counted
                    .insert(word.to_owned(), Counted { matches, cap });
            }
        }
        Ok(lower
            .iter()
            .map(|w| self.known(w, cap).unwrap_or(0))
            .collect())
    }

    /// The count of `word` (lowercase) up to `cap` and one more, if a count kept answers it.
    fn known(&self, word: &str, cap: usize) -> Option<usize> {
        let kept = self.counted.get(word)?;
        (kept.cap >= cap || kept.matches <= kept.cap).then(|| kept.matches.min(cap + 1))
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
}
