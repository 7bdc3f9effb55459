//! Turning free text into an FTS5 query.
//!
//! Every word is quoted (so no FTS5 syntax gets through) and the words are OR-ed, so BM25 ranks a
//! memory by how many of the rare words it shares with the query. English function words
//! ("what", "did", "the", ...) are dropped first: they match almost every memory and only add
//! noise to the ranking. A query made of nothing but function words keeps them all, so that it
//! still finds something.

/// Most words a query keeps.
const MAX_WORDS: usize = 64;

/// English function words, lowercase and sorted (for binary search). The usual IR stop list
/// (pronouns, articles, auxiliaries, prepositions, conjunctions, question words), plus the
/// fragments that contractions leave once apostrophes split words ("didn", "t", "ll").
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "aren",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "cannot",
    "could",
    "couldn",
    "d",
    "did",
    "didn",
    "do",
    "does",
    "doesn",
    "doing",
    "don",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "hadn",
    "has",
    "hasn",
    "have",
    "haven",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "it",
    "its",
    "itself",
    "let",
    "ll",
    "m",
    "me",
    "more",
    "most",
    "mustn",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "ought",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "re",
    "s",
    "same",
    "shan",
    "she",
    "should",
    "shouldn",
    "so",
    "some",
    "such",
    "t",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "ve",
    "very",
    "was",
    "wasn",
    "we",
    "were",
    "weren",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "with",
    "would",
    "wouldn",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Whether `word` is an English function word (any case).
pub fn is_stopword(word: &str) -> bool {
    let lower = word.to_lowercase();
    STOPWORDS.binary_search(&lower.as_str()).is_ok()
}

/// The words of `text`: runs of letters, digits and `_`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
}

/// The words of `text` a query searches for: its content words (function words dropped unless
/// nothing else is left), distinct (ignoring case), in order, at most [`MAX_WORDS`].
pub fn query_terms(text: &str) -> Vec<String> {
    let content: Vec<&str> = words(text).filter(|w| !is_stopword(w)).collect();
    let chosen: Vec<&str> = if content.is_empty() {
        words(text).collect()
    } else {
        content
    };
    let mut seen = std::collections::HashSet::new();
    chosen
        .into_iter()
        .filter(|w| seen.insert(w.to_lowercase()))
        .take(MAX_WORDS)
        .map(str::to_owned)
        .collect()
}

/// The FTS5 query matching any of `terms`: each quoted, OR-ed. `None` for no terms.
pub fn any_of(terms: &[impl AsRef<str>]) -> Option<String> {
    let quoted: Vec<String> = terms.iter().map(|t| quoted(t.as_ref())).collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

/// One word as an FTS5 string (words never contain `"`; see [`words`]).
pub fn quoted(term: &str) -> String {
    format!("\"{term}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FTS5 query a search runs for `text` when no word is over its budget.
    fn fts_query(text: &str) -> Option<String> {
        any_of(&query_terms(text))
    }

    #[test]
    fn the_stop_list_is_sorted_lowercase_and_unique() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOPWORDS.iter().all(|w| *w == w.to_lowercase()));
    }

    #[test]
    fn function_words_are_dropped() {
        assert_eq!(
            fts_query("When did Caroline go to the LGBTQ support group?").as_deref(),
            Some(r#""Caroline" OR "go" OR "LGBTQ" OR "support" OR "group""#)
        );
        assert_eq!(
            fts_query("What didn't she like?").as_deref(),
            Some(r#""like""#)
        );
    }

    #[test]
    fn a_query_of_function_words_keeps_them() {
        assert_eq!(
            fts_query("Who are you?").as_deref(),
            Some(r#""Who" OR "are" OR "you""#)
        );
    }

    #[test]
    fn fts_syntax_never_gets_through() {
        assert_eq!(
            fts_query(r#"NEAR("a" b) * col:x"#).as_deref(),
            Some(r#""NEAR" OR "b" OR "col" OR "x""#)
        );
        assert_eq!(fts_query("  ?!  "), None);
        assert_eq!(fts_query(""), None);
    }

    #[test]
    fn long_queries_are_cut_to_the_word_limit() {
        let text = (0..100)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let query = fts_query(&text).unwrap();
        assert_eq!(query.matches(" OR ").count(), MAX_WORDS - 1);
    }

    #[test]
    fn repeated_words_are_searched_once() {
        assert_eq!(
            query_terms("Key key KEY rc4 key"),
            vec!["Key".to_owned(), "rc4".to_owned()]
        );
    }
}
