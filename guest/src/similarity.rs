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

/// The distinct lowercase words of `text`, sorted: a set [`jaccard`] compares by merging.
pub fn word_set(text: &str) -> Vec<Cow<'_, str>> {
    let mut set: Vec<Cow<'_, str>> = words(text).collect();
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
    fn a_word_set_is_the_sorted_distinct_words_a_btree_set_would_hold() {
        let text = "the key, the Key and THE other key: b a B";
        let reference: BTreeSet<String> = text.unicode_words().map(str::to_lowercase).collect();
        let ours: Vec<String> = word_set(text).into_iter().map(Cow::into_owned).collect();
        assert_eq!(ours, reference.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn jaccard_counts_shared_words_over_all_words() {
        assert_eq!(jaccard(&word_set("a b c"), &word_set("b c d")), 0.5);
        assert_eq!(jaccard::<u32>(&[], &[]), 1.0);
        assert_eq!(jaccard(&[1, 2], &[3]), 0.0);
        assert_eq!(jaccard(&word_set("A b"), &word_set("a B")), 1.0);
    }
}
