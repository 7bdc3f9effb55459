//! The speaker a memory names: a transcript's turn is kept as `Name: what was said`, and a
//! question about a person ("What did Caroline paint?") is most often answered by what that
//! person said. A hit spoken by someone the query names gains [`BOOST`] of its score.

/// The share of its score a hit spoken by a person the query names gains.
pub const BOOST: f64 = 0.3;
/// Longest speaker label, in bytes.
const MAX_LABEL_BYTES: usize = 40;
/// Most words in a speaker label.
const MAX_LABEL_WORDS: usize = 3;
/// Characters of a memory's opening read to find its label: the label, its colon and a blank.
pub const OPENING_CHARS: usize = MAX_LABEL_BYTES + 2;

/// The speaker label `text` opens with: up to [`MAX_LABEL_WORDS`] capitalised words before a
/// colon that a blank or the end follows (`Caroline: I went…`, `Dr Lina Ortiz: …`); `None`
/// for any other opening (`Note: …` is a label too: a false one costs nothing unless a query
/// names it).
pub fn label(text: &str) -> Option<&str> {
    split(text).0
}

/// `text`'s speaker label ([`label`]) and what was said after it; without a label, `None` and
/// all of `text`.
pub fn split(text: &str) -> (Option<&str>, &str) {
    let Some((label, rest)) = text.split_once(':') else {
        return (None, text);
    };
    let label = label.trim();
    let words: Vec<&str> = label.split_whitespace().collect();
    let fits = !label.is_empty()
        && label.len() <= MAX_LABEL_BYTES
        && words.len() <= MAX_LABEL_WORDS
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '.' || c == '-' || c == '\'')
        })
        && rest.chars().next().is_none_or(char::is_whitespace);
    if fits {
        (Some(label), rest)
    } else {
        (None, text)
    }
}

/// The words of a query that may name a person: its capitalised terms, lowercase.
pub fn named(terms: &[String]) -> Vec<String> {
    terms
        .iter()
        .filter(|t| t.chars().next().is_some_and(char::is_uppercase))
        .map(|t| t.to_lowercase())
        .collect()
}

/// Whether a memory opening with `opening` is spoken by one of `names` (lowercase, as
/// [`named`] gives them): its label, or the label's first word, is one of them.
pub fn spoken_by(opening: &str, names: &[String]) -> bool {
    let Some(label) = label(opening) else {
        return false;
    };
    let label = label.to_lowercase();
    let first = label.split_whitespace().next().unwrap_or_default();
    names.iter().any(|name| *name == label || name == first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_of_a_transcript_names_its_speaker() {
        assert_eq!(
            label("Caroline: I went to a support group"),
            Some("Caroline")
        );
        assert_eq!(label("Dr Lina Ortiz: fine"), Some("Dr Lina Ortiz"));
        assert_eq!(label("Melanie:"), Some("Melanie"));
        assert_eq!(split("Melanie: hi"), (Some("Melanie"), " hi"));
        assert_eq!(split("12:30 lunch"), (None, "12:30 lunch"));
    }

    #[test]
    fn other_openings_name_no_one() {
        for text in [
            "the key is at 0x40: rc4",
            "12:30 lunch",
            "https://example.com",
            "Caroline:x",
            ": nothing",
            "A Very Long Label Of Many Words: text",
            "no colon at all",
        ] {
            assert_eq!(label(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_query_naming_the_speaker_matches_their_turns_only() {
        let names = named(&["Caroline".into(), "support".into(), "group".into()]);
        assert_eq!(names, ["caroline"]);
        assert!(spoken_by("Caroline: I went", &names));
        assert!(spoken_by("CAROLINE Smith: I went", &names));
        assert!(!spoken_by("Melanie: Caroline went", &names));
        assert!(!spoken_by("Caroline went to the group", &names));
    }
}
