//! The query SQLite's FTS5 runs for a query's words ([`crate::store::ranking::terms`]): each
//! word quoted, so no FTS5 syntax gets through, and the words OR-ed.

/// The FTS5 query matching any of `terms`: each quoted, OR-ed. `None` for no terms.
pub fn any_of(terms: &[impl AsRef<str>]) -> Option<String> {
    let quoted: Vec<String> = terms.iter().map(|t| quoted(t.as_ref())).collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

/// One word as an FTS5 string (words never contain `"`; see [`crate::store::ranking::terms::words`]).
pub fn quoted(term: &str) -> String {
    format!("\"{term}\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ranking::terms::{MAX_WORDS, query_terms};

    /// The FTS5 query a search runs for `text` when no word is over its budget.
    fn fts_query(text: &str) -> Option<String> {
        any_of(&query_terms(text))
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
}
