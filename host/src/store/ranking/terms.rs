//! The words a query searches for, on every backend.
//!
//! English function words ("what", "did", "the", ...) are dropped first: they match almost
//! every memory and only add noise to the ranking. A query made of nothing but function words
//! keeps them all, so that it still finds something. Each backend then matches any of the words
//! (SQLite: quoted and OR-ed in FTS5's syntax; PostgreSQL: stemmed into a `tsquery`), so BM25
//! ranks a memory by how many of the rare words it shares with the query.

/// Most words a query keeps.
pub const MAX_WORDS: usize = 64;

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

/// The words of `text`: runs of letters, digits and `_` (so never a `"`).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
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

/// Splits `#tag` tokens (lowercased, without `#`) out of a query; returns the remaining words.
pub fn split_tag_tokens(query: &str) -> (String, Vec<String>) {
    let mut words = Vec::new();
    let mut tags = Vec::new();
    for token in query.split_whitespace() {
        match token.strip_prefix('#') {
            Some(tag)
                if !tag.is_empty()
                    && tag
                        .chars()
                        .all(|c| c.is_alphanumeric() || "_-.:/".contains(c)) =>
            {
                tags.push(tag.to_lowercase())
            }
            _ => words.push(token),
        }
    }
    (words.join(" "), tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_list_is_sorted_lowercase_and_unique() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOPWORDS.iter().all(|w| *w == w.to_lowercase()));
    }

    #[test]
    fn repeated_words_are_searched_once() {
        assert_eq!(
            query_terms("Key key KEY rc4 key"),
            vec!["Key".to_owned(), "rc4".to_owned()]
        );
    }
}
