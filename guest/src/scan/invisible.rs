//! Invisible and direction-changing characters: ASCII smuggled through the Unicode tag block,
//! zero-width characters that hide words from a reader, bidi overrides that reorder what is
//! shown.
//!
//! Zero-width joiners and non-joiners are legitimate between letters of scripts that use them
//! (Persian, Indic) and inside emoji sequences; those uses are not reported.

use super::rules::{Family, Hit};

/// The finding kind.
pub const KIND: &str = "invisible-character";

fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{E0000}'..='\u{E007F}'
        | '\u{200B}'..='\u{200D}'
        | '\u{2060}'
        | '\u{FEFF}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}')
}

/// Whether `c` can sit on either side of a legitimate joiner: a non-ASCII letter or mark, an
/// emoji, a variation selector or a skin-tone modifier.
fn joins(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        (!c.is_ascii() && c.is_alphabetic())
            || matches!(c, '\u{2600}'..='\u{27BF}' | '\u{FE0F}' | '\u{1F000}'..='\u{1FAFF}')
    })
}

/// Runs of invisible characters, one hit per run.
pub fn find(text: &str) -> Vec<Hit> {
    if text.is_ascii() {
        return Vec::new();
    }
    let mut hits: Vec<Hit> = Vec::new();
    let mut previous: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let joiner_in_context =
            matches!(c, '\u{200C}' | '\u{200D}') && joins(previous) && joins(next);
        if is_invisible(c) && !joiner_in_context {
            let end = at + c.len_utf8();
            match hits.last_mut() {
                Some(last) if last.end == at => last.end = end,
                _ => hits.push(Hit {
                    family: Family::Unsafe,
                    kind: KIND,
                    start: at,
                    end,
                    priority: 0,
                }),
            }
        }
        previous = Some(c);
    }
    hits.retain(|h| !is_paste_artefact(text, h.start, h.end));
    hits
}

/// Whether the run `start..end` is one or two zero-width spaces (or word joiners) between two
/// visible characters that are not both letters or digits, as copying from a web page leaves
/// them (`[…\u{200B}]`, `bin:\u{200B}\u{200B}/opt`): such a run splits no word and carries no
/// data, where a zero-width space inside a word hides it from a filter and long runs encode
/// hidden bits.
fn is_paste_artefact(text: &str, start: usize, end: usize) -> bool {
    let run = &text[start..end];
    let (before, after) = (
        text[..start].chars().next_back(),
        text[end..].chars().next(),
    );
    run.chars().count() <= 2
        && run.chars().all(|c| matches!(c, '\u{200B}' | '\u{2060}'))
        && before.is_some_and(|b| !b.is_whitespace())
        && after.is_some_and(|a| !a.is_whitespace())
        && !(before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(usize, usize)> {
        find(text).iter().map(|h| (h.start, h.end)).collect()
    }

    #[test]
    fn each_family_is_found_and_runs_merge() {
        assert_eq!(spans("a\u{200B}b"), [(1, 4)]);
        assert_eq!(spans("a\u{200B}\u{2060}b"), [(1, 7)]);
        assert_eq!(spans("\u{FEFF}x"), [(0, 3)]);
        assert_eq!(spans("x\u{202E}gpj.exe"), [(1, 4)]);
        assert_eq!(spans("x\u{2066}y"), [(1, 4)]);
        // "hi" smuggled as tag characters.
        assert_eq!(spans("ok\u{E0068}\u{E0069}"), [(2, 10)]);
        assert_eq!(spans("a\u{200D}b"), [(1, 4)]);
    }

    #[test]
    fn a_zero_width_space_left_between_punctuation_by_a_copy_is_not_reported() {
        assert!(spans("\"crates\": [\u{2026}\u{200B}]").is_empty());
        assert!(spans("PATH=bin:\u{200B}\u{200B}/opt/bin").is_empty());
        // Inside a word, three in a row, or at the text's edge, it still hides something.
        assert_eq!(spans("ig\u{200B}nore"), [(2, 5)]);
        assert_eq!(spans("a:\u{200B}\u{200B}\u{200B}/b"), [(2, 11)]);
        assert_eq!(spans("\u{200B}:x"), [(0, 3)]);
    }

    #[test]
    fn joiners_in_emoji_and_scripts_are_legitimate() {
        assert!(find("family 👨\u{200D}👩\u{200D}👧 photo").is_empty());
        assert!(find("❤\u{FE0F}\u{200D}🔥").is_empty());
        assert!(find("می\u{200C}خواهم").is_empty());
        assert!(find("plain ascii text").is_empty());
        assert!(find("café naïve – “quotes”").is_empty());
    }
}
