//! BM25 over PostgreSQL's `tsvector`s, so that a lexical match is scored on PostgreSQL as FTS5
//! scores it on SQLite: Okapi BM25 with FTS5's constants (k1 = 1.2, b = 0.75) and its inverse
//! document frequency, over the subject's stemmed words.
//!
//! One difference is kept, and documented in the README: a document's length is the number of
//! distinct stems in it (`length(tsvector)`), where FTS5 counts every token.

use std::collections::HashMap;

/// FTS5's `k1`: how quickly repeating a word stops adding to a match.
const K1: f64 = 1.2;
/// FTS5's `b`: how much a long memory's matches are discounted.
const B: f64 = 0.75;

/// What scoring a query needs to know of the subject's memories.
#[derive(Debug, Clone, PartialEq)]
pub struct Corpus {
    /// Memories in the subject's index (every state, as FTS5 counts its rows).
    pub documents: u64,
    /// Their average length, in distinct stems.
    pub average_length: f64,
    /// How many memories hold each query stem.
    pub holding: HashMap<String, u64>,
}

impl Corpus {
    /// FTS5's inverse document frequency of `stem`, never below a millionth.
    fn idf(&self, stem: &str) -> f64 {
        let n = self.documents as f64;
        let holding = self.holding.get(stem).copied().unwrap_or(0) as f64;
        ((n - holding + 0.5) / (holding + 0.5)).ln().max(1e-6)
    }

    /// The BM25 score (larger is better) of a memory of `length` distinct stems whose query
    /// stems occur as `occurrences` (stem, times).
    pub fn score<'a>(
        &self,
        length: f64,
        occurrences: impl IntoIterator<Item = (&'a str, usize)>,
    ) -> f64 {
        let norm = K1 * (1.0 - B + B * length / self.average_length.max(f64::EPSILON));
        occurrences
            .into_iter()
            .map(|(stem, times)| {
                let tf = times as f64;
                self.idf(stem) * tf * (K1 + 1.0) / (tf + norm)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Corpus {
        Corpus {
            documents: 100,
            average_length: 10.0,
            holding: [("rare".to_owned(), 1), ("common".to_owned(), 90)].into(),
        }
    }

    #[test]
    fn a_rare_word_outweighs_a_common_one() {
        let corpus = corpus();
        assert!(corpus.score(10.0, [("rare", 1)]) > 10.0 * corpus.score(10.0, [("common", 1)]));
    }

    #[test]
    fn repeats_add_less_and_less_and_long_memories_score_lower() {
        let corpus = corpus();
        let (once, twice, thrice) = (
            corpus.score(10.0, [("rare", 1)]),
            corpus.score(10.0, [("rare", 2)]),
            corpus.score(10.0, [("rare", 3)]),
        );
        assert!(twice > once && thrice > twice && thrice - twice < twice - once);
        assert!(corpus.score(40.0, [("rare", 1)]) < once);
    }
}
