//! Word-level similarity, one definition for selection (near-duplicates in one turn) and
//! consolidation (near-duplicates and contradictions in a store).

use std::borrow::Cow;

use unicode_segmentation::UnicodeSegmentation;

/// The lowercase words of `text`, in order. A word is borrowed from `text` when lowercasing
/// would not change it: selection compares the words of every memory it picks, and a string
/// allocated for each word cost more than the comparison inside the component.
pub fn words(text: &str) -> impl Iterator<Item = Cow<'_, str>> + '_ {
    text.unicode_words().map(lowercase)
}

/// `word` lowercased as [`str::to_lowercase`] does, borrowed when that changes nothing.
fn lowercase(word: &str) -> Cow<'_, str> {
    if !word.is_ascii() {
        Cow::Owned(word.to_lowercase())
    } else if word.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(word.to_ascii_lowercase())
    } else {
        Cow::Borrowed(word)
    }
}

/// One word of a [`word_set`], ordered by a hash of it first: merging two sets then compares
/// numbers and reads the words only when their hashes are equal. Comparing the words
/// themselves, byte by byte, was the largest part of selecting a real turn inside the component.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SetWord<'a> {
    hash: u64,
    /// The lowercase word.
    pub text: Cow<'a, str>,
}

impl<'a> SetWord<'a> {
    fn new(text: Cow<'a, str>) -> Self {
        // FNV-1a: deterministic everywhere, and a few instructions a byte.
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        SetWord { hash, text }
    }
}

/// The distinct lowercase words of `text`, as a set [`jaccard`] compares by merging: sorted by
/// [`SetWord`]'s order (a hash, then the word), without repeats.
pub fn word_set(text: &str) -> Vec<SetWord<'_>> {
    let mut set: Vec<SetWord<'_>> = words(text).map(SetWord::new).collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// How many items two sorted, deduplicated sets share, by merging them.
pub fn shared<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut x, mut y, mut common) = (0, 0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                x += 1;
                y += 1;
            }
        }
    }
    common
}

/// `|a ∩ b| / |a ∪ b|` of two sorted sets without repeats; two empty sets are identical.
pub fn jaccard<T: Ord>(a: &[T], b: &[T]) -> f64 {
    let common = shared(a, b);
    let union = a.len() + b.len() - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn words_are_lowercased_as_to_lowercase_does_and_borrowed_when_already_lower() {
        let text = "Decrypt the CONFIG at 0x40A000; ǅemal said ΣΟΦΙΑ, straße and İstanbul";
        let ours: Vec<Cow<'_, str>> = words(text).collect();
        let reference: Vec<String> = text.unicode_words().map(str::to_lowercase).collect();
        assert_eq!(ours, reference);
        assert!(matches!(ours[1], Cow::Borrowed("the")));
        assert!(matches!(ours[0], Cow::Owned(_)));
    }

    #[test]
    fn a_word_set_holds_the_distinct_words_a_btree_set_would_hold() {
        let text = "the key, the Key and THE other key: b a B";
        let reference: BTreeSet<String> = text.unicode_words().map(str::to_lowercase).collect();
        let ours: BTreeSet<String> = word_set(text)
            .into_iter()
            .map(|w| w.text.into_owned())
            .collect();
        assert_eq!(ours, reference);
        assert_eq!(word_set(text).len(), ours.len(), "no word twice");
    }

    #[test]
    fn jaccard_counts_shared_words_over_all_words() {
        assert_eq!(jaccard(&word_set("a b c"), &word_set("b c d")), 0.5);
        assert_eq!(jaccard::<u32>(&[], &[]), 1.0);
        assert_eq!(jaccard(&[1, 2], &[3]), 0.0);
        assert_eq!(jaccard(&word_set("A b"), &word_set("a B")), 1.0);
    }
}
