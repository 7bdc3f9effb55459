//! Word-level similarity, one definition for selection (near-duplicates in one turn) and
//! consolidation (near-duplicates and contradictions in a store).

use std::collections::BTreeSet;

use unicode_segmentation::UnicodeSegmentation;

/// The lowercase words of `text`, in order.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.unicode_words().map(str::to_lowercase)
}

/// The set of lowercase words of `text`.
pub fn word_set(text: &str) -> BTreeSet<String> {
    words(text).collect()
}

/// `|a ∩ b| / |a ∪ b|`; two empty sets are identical.
pub fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let common = a.intersection(b).count();
    let union = a.len() + b.len() - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}
