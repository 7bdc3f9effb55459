//! The policy's token estimate and grapheme-safe truncation.
//!
//! The estimate is additive over lines (the estimate of `a\nb` is the estimate of `a` plus that
//! of `b`), which lets the selection account for the snapshot line by line and still agree
//! exactly with `estimate_tokens` of the whole rendered text.

use kenning_contract::spotlight::{CLOSE, OPEN};
use unicode_segmentation::UnicodeSegmentation;

/// Tokens for one line without its terminator: the larger of its non-space word-bound
/// segments (words, numbers, punctuation marks, emoji) and a quarter of its grapheme clusters
/// rounded up, plus one for the line break.
pub fn line_tokens(line: &str) -> u32 {
    let (segments, graphemes) = delimited_ascii_counts(line).unwrap_or_else(|| {
        let segments = line
            .split_word_bounds()
            .filter(|s| !s.trim().is_empty())
            .count();
        (segments, line.graphemes(true).count())
    });
    let tokens = segments.max(graphemes.div_ceil(4)).saturating_add(1);
    u32::try_from(tokens).unwrap_or(u32::MAX)
}

/// The segments and grapheme clusters of a line that is ASCII but for the snapshot's
/// delimiters (`⟦`, `⟧`), counted without the segmenter; `None` for any other line. Each
/// delimiter is a segment and a cluster of its own, with a boundary on both sides (open and
/// close punctuation: UAX #29 rules WB999 and GB999; no ASCII character extends or joins it),
/// so the line counts as its ASCII pieces plus one each. Every memory's line holds the two, and
/// the segmenter would cost them a binary search a character.
fn delimited_ascii_counts(line: &str) -> Option<(usize, usize)> {
    if line.is_ascii() {
        return Some((ascii_segments(line.as_bytes()), ascii_graphemes(line)));
    }
    let (mut segments, mut graphemes) = (0, 0);
    for piece in line.split([OPEN, CLOSE]) {
        if !piece.is_ascii() {
            return None;
        }
        segments += ascii_segments(piece.as_bytes());
        graphemes += ascii_graphemes(piece);
    }
    let delimiters = line.matches([OPEN, CLOSE]).count();
    Some((segments + delimiters, graphemes + delimiters))
}

/// The word-bound segments (UAX #29) of ASCII `line` that hold something other than
/// whitespace, counted without the segmenter: its tables cost a binary search for every
/// character, the largest part of selecting inside the component. In ASCII the rules come
/// down to these: letters, digits and `_` join one another (WB5, WB8 to WB10, WB13a, WB13b);
/// `.`, `'` and `:` join letters on both sides (WB6, WB7) and `.`, `'`, `,` and `;` join digits
/// on both sides (WB11, WB12); every other character is a segment of its own (WB999), except
/// that runs of spaces (WB3d) and CR LF (WB3) are one segment, whitespace like tab, LF, VT, FF
/// and CR alone, and so never counted.
fn ascii_segments(line: &[u8]) -> usize {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let joins = |at: usize| {
        let Some(&after) = line.get(at + 1) else {
            return false;
        };
        let (before, mark) = (line[at - 1], line[at]);
        let between_letters = before.is_ascii_alphabetic() && after.is_ascii_alphabetic();
        let between_digits = before.is_ascii_digit() && after.is_ascii_digit();
        matches!(mark, b'.' | b'\'' | b':') && between_letters
            || matches!(mark, b'.' | b'\'' | b',' | b';') && between_digits
    };
    let mut segments = 0;
    let mut at = 0;
    while at < line.len() {
        let b = line[at];
        at += 1;
        if is_word(b) {
            while at < line.len() && (is_word(line[at]) || joins(at)) {
                at += 1;
            }
            segments += 1;
        } else if !matches!(b, b'\t'..=b'\r' | b' ') {
            segments += 1;
        }
    }
    segments
}

/// The extended grapheme clusters of ASCII `text`, counted without the segmenter: every
/// character is a cluster of its own except CR LF (UAX #29 rules GB3 and GB999).
fn ascii_graphemes(text: &str) -> usize {
    // A pair of bytes compared in place: a substring search costs more inside the component.
    let crlf = text.as_bytes().windows(2).filter(|w| *w == b"\r\n").count();
    text.len() - crlf
}

/// The token estimate of `text`: the sum of [`line_tokens`] over its lines; 0 for "".
pub fn estimate_tokens(text: &str) -> u32 {
    text.lines()
        .map(line_tokens)
        .fold(0u32, u32::saturating_add)
}

/// The longest prefix of `text` made of at most `count` whole grapheme clusters.
pub fn grapheme_prefix(text: &str, count: usize) -> &str {
    match text.grapheme_indices(true).nth(count) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text_costs_nothing() {
        assert_eq!(estimate_tokens(""), 0);
    }

    #[test]
    fn words_and_punctuation_count_per_line() {
        // "hello", ",", "world", "!" plus the line.
        assert_eq!(estimate_tokens("hello, world!"), 5);
        assert_eq!(estimate_tokens("hello, world!\nhello, world!"), 10);
        // A trailing newline ends the last line; it does not add one.
        assert_eq!(estimate_tokens("one two\n"), 3);
    }

    #[test]
    fn long_unbroken_text_counts_graphemes() {
        let blob = "a".repeat(40);
        assert_eq!(estimate_tokens(&blob), 11);
        // Ten family emoji are ten graphemes, however many code points each has.
        let family = "👨‍👩‍👧".repeat(10);
        assert_eq!(family.graphemes(true).count(), 10);
        assert!(estimate_tokens(&family) >= 4);
    }

    #[test]
    fn estimate_is_additive_over_lines() {
        let a = "- [#1] sub_401000 parses the header";
        let b = "### Local";
        assert_eq!(
            estimate_tokens(&format!("{a}\n{b}\n")),
            line_tokens(a) + line_tokens(b)
        );
    }

    #[test]
    fn the_ascii_count_agrees_with_the_segmenter() {
        for text in [
            "",
            "plain words, numbers 0x401000 and punctuation!?",
            "a\r\nb\rc\nd\r\n\r\n",
            "\t tabs\u{7f} and controls \u{1}\u{2}",
            "~`!@#$%^&*()_+-={}[]|\\:;\"'<>,.?/",
        ] {
            assert_eq!(
                ascii_graphemes(text),
                text.graphemes(true).count(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_line_with_the_snapshots_delimiters_counts_as_the_segmenter_does() {
        // Every ASCII character on either side of each delimiter, and whole memory lines.
        let mut lines: Vec<String> = vec![
            crate::render::PREAMBLE.to_owned(),
            "- [#12 agent @ sub_401000+0x10] ⟦The C2 host is read, from the config.⟧".to_owned(),
            "⟦⟧".to_owned(),
            "⟦ ⟧ ⟦\r\n⟧".to_owned(),
        ];
        for a in 0u8..128 {
            for b in [b'a', b'0', b'.', b' ', b'\r', b'\n', b'\'', b'_'] {
                for delimiter in [OPEN, CLOSE] {
                    lines.push(format!("{}{delimiter}{}", a as char, b as char));
                    lines.push(format!("{}{delimiter}{}", b as char, a as char));
                }
            }
        }
        for line in lines {
            let counts = delimited_ascii_counts(&line).expect("ASCII but for the delimiters");
            assert_eq!(
                counts,
                (segmenter_count(&line), line.graphemes(true).count()),
                "{line:?}"
            );
        }
        assert_eq!(delimited_ascii_counts("⟦é⟧"), None);
    }

    /// The segmenter's count, which [`ascii_segments`] must reproduce.
    fn segmenter_count(text: &str) -> usize {
        text.split_word_bounds()
            .filter(|s| !s.trim().is_empty())
            .count()
    }

    #[test]
    fn the_ascii_segment_count_agrees_with_the_segmenter_on_every_short_text() {
        // Every ASCII text of up to two characters, and every text of three from one
        // representative of each class the rules tell apart.
        let all: Vec<u8> = (0..128).collect();
        let representatives = b"aZ09_.',:;\" \t\r\n\x0b\x0c-#\x01\x7f";
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        texts.extend(all.iter().map(|&a| vec![a]));
        texts.extend(
            all.iter()
                .flat_map(|&a| all.iter().map(move |&b| vec![a, b])),
        );
        for &a in representatives {
            for &b in representatives {
                texts.extend(representatives.iter().map(|&c| vec![a, b, c]));
            }
        }
        for text in texts {
            let text = String::from_utf8(text).unwrap();
            assert_eq!(
                ascii_segments(text.as_bytes()),
                segmenter_count(&text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_ascii_segment_count_agrees_with_the_segmenter_on_random_texts() {
        let alphabet = b"abcXYZ0189_.',:;\" \t\r\n\x0b\x0c-#()!?/\x01\x7f";
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        for _ in 0..50_000 {
            let len = next() % 24;
            let text: String = (0..len)
                .map(|_| alphabet[next() % alphabet.len()] as char)
                .collect();
            assert_eq!(
                ascii_segments(text.as_bytes()),
                segmenter_count(&text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn grapheme_prefix_never_splits_a_cluster() {
        let text = "e\u{301}👍🏽x";
        assert_eq!(grapheme_prefix(text, 1), "e\u{301}");
        assert_eq!(grapheme_prefix(text, 2), "e\u{301}👍🏽");
        assert_eq!(grapheme_prefix(text, 9), text);
        assert_eq!(grapheme_prefix(text, 0), "");
    }
}
