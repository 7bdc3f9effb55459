//! Pseudo-relevance feedback: the words the best hits of a query hold and few other memories
//! do, searched as a round of their own. "What did Caroline research?" finds the turn about
//! adoption agencies; its rare words ("adoption", "agencies") find the turns about adoption
//! that share no word with the question.

use std::collections::HashMap;

use super::speakers;
use super::terms::{is_stopword, words};

/// The best hits whose words seed the feedback round.
pub const HITS: usize = 3;
/// Feedback words searched.
pub const WORDS: usize = 5;
/// The best matches of the feedback words gathered: those further down add too little to move
/// a hit (half of recall's pool gave the same recall on LoCoMo's tuning part as all of it).
pub const DEPTH: usize = 100;
/// The share of its BM25 score a match of the feedback words adds.
pub const WEIGHT: f64 = 0.3;
/// Shortest feedback word, in characters.
const MIN_CHARS: usize = 3;
/// Shortest word taken for the root of a longer one ([`same_root`]).
const MIN_ROOT_CHARS: usize = 4;
/// Words of one hit considered, in the order they come: bounds the counting a long memory
/// costs.
const PER_HIT: usize = 24;
/// Fewest memories holding a feedback word: a word only its hit holds finds nothing new.
const MIN_HOLDING: u64 = 2;
/// Largest share of the memories holding a feedback word: a common word drifts off the
/// question's subject.
const MAX_SHARE: f64 = 0.1;
/// Most memories holding a feedback word, however large the knowledge base: a word more hold
/// names no subject, and counting a word's memories costs time in proportion to them.
pub const MAX_HOLDING: u64 = 100;

/// A word that may seed feedback, and the ranks (0 for the best) of the hits holding it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The word, lowercase.
    pub word: String,
    /// The hits holding it, by rank.
    pub hits: Vec<usize>,
}

/// The words of the best hits' `texts` (best first) that may seed feedback, each once, in the
/// order they come: the first [`PER_HIT`] of each text after its speaker label, none of them
/// a query term, a function word, shorter than [`MIN_CHARS`] or a hit's speaker.
pub fn candidates(texts: &[&str], terms: &[String]) -> Vec<Candidate> {
    let split: Vec<(Option<&str>, &str)> = texts.iter().map(|t| speakers::split(t)).collect();
    let mut left_out: Vec<String> = terms.iter().map(|t| t.to_lowercase()).collect();
    for (label, _) in &split {
        left_out.extend(label.iter().flat_map(|l| words(l)).map(str::to_lowercase));
    }
    let mut found: Vec<Candidate> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (rank, (_, body)) in split.iter().enumerate() {
        let kept = words(body)
            .filter(|w| w.chars().count() >= MIN_CHARS && !is_stopword(w))
            .map(str::to_lowercase)
            .filter(|w| !left_out.iter().any(|out| same_root(w, out)))
            .take(PER_HIT);
        for word in kept {
            match at.get(&word) {
                Some(&index) => {
                    let hits = &mut found[index].hits;
                    if hits.last() != Some(&rank) {
                        hits.push(rank);
                    }
                }
                None => {
                    at.insert(word.clone(), found.len());
                    found.push(Candidate {
                        word,
                        hits: vec![rank],
                    });
                }
            }
        }
    }
    found
}

/// Whether two lowercase words are taken for forms of one word: equal, or one the other
/// with an ending (`paint`, `painted`), the shorter of at least [`MIN_ROOT_CHARS`].
fn same_root(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || (short.chars().count() >= MIN_ROOT_CHARS && long.starts_with(short))
}

/// The feedback words among `candidates`, given how many memories hold each (`holding`, in
/// the same order) of the `documents` there are: those held by [`MIN_HOLDING`] to
/// [`MAX_SHARE`] of the memories and at most [`MAX_HOLDING`] (none in a knowledge base of
/// fewer than 20: no word is rare there), the best [`WORDS`] by the sum, over the hits holding one,
/// of its inverse document frequency divided by one more than the hit's rank; ties
/// alphabetically.
pub fn choose(candidates: &[Candidate], holding: &[u64], documents: u64) -> Vec<String> {
    let most = ((documents as f64 * MAX_SHARE) as u64).min(MAX_HOLDING);
    let n = documents as f64;
    let mut scored: Vec<(f64, &str)> = candidates
        .iter()
        .zip(holding)
        .filter(|&(_, &held)| (MIN_HOLDING..=most).contains(&held))
        .map(|(candidate, &held)| {
            let held = held as f64;
            let idf = ((n - held + 0.5) / (held + 0.5)).ln().max(0.0);
            let weight: f64 = candidate
                .hits
                .iter()
                .map(|&rank| idf / (1.0 + rank as f64))
                .sum();
            (weight, candidate.word.as_str())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(WORDS)
        .map(|(_, word)| word.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(candidates: &[Candidate]) -> Vec<&str> {
        candidates.iter().map(|c| c.word.as_str()).collect()
    }

    #[test]
    fn query_words_speakers_and_function_words_never_seed_feedback() {
        let found = candidates(
            &[
                "Caroline: I researched adoption agencies with Melanie",
                "Melanie: adoption is a big step, Caroline",
            ],
            &["Caroline".into(), "research".into(), "researched".into()],
        );
        assert_eq!(words_of(&found), ["adoption", "agencies", "big", "step"]);
        assert_eq!(found[0].hits, [0, 1]);
        assert_eq!(found[1].hits, [0]);
    }

    #[test]
    fn rare_words_of_the_best_hits_are_chosen_first() {
        let found = candidates(&["pottery kiln glaze", "kiln clay"], &[]);
        // 100 memories: at most 10 may hold a feedback word, at least 2.
        let chosen = choose(&found, &[4, 3, 50, 1], 100);
        // kiln (in both hits) outweighs pottery, which is rarer but in the best hit only.
        assert_eq!(chosen, ["kiln", "pottery"]);
    }

    #[test]
    fn at_most_the_feedback_words_are_chosen_ties_alphabetically() {
        let found = candidates(&["zeta eta theta iota kappa lambda"], &[]);
        let chosen = choose(&found, &[5; 6], 1_000);
        assert_eq!(chosen, ["eta", "iota", "kappa", "lambda", "theta"]);
    }

    #[test]
    fn a_knowledge_base_too_small_to_tell_rare_words_gets_no_feedback() {
        let found = candidates(&["kiln"], &[]);
        assert!(choose(&found, &[2], 19).is_empty());
        assert_eq!(choose(&found, &[2], 20), ["kiln"]);
        assert!(choose(&found, &[3], 20).is_empty());
    }

    #[test]
    fn a_word_more_than_a_hundred_memories_hold_is_never_rare() {
        let found = candidates(&["kiln"], &[]);
        // A tenth of 100,000 memories is 10,000, but counting stops at 101.
        assert!(choose(&found, &[101], 100_000).is_empty());
        assert_eq!(choose(&found, &[100], 100_000), ["kiln"]);
    }
}
