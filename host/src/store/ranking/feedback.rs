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

impl Candidate {
    /// The sum, over the hits holding it, of one over one more than the hit's rank: its
    /// weight in [`choose`] is its idf times this.
    pub fn reach(&self) -> f64 {
        self.hits
            .iter()
            .map(|&rank| 1.0 / (1.0 + rank as f64))
            .sum()
    }
}

/// `candidates` split in the order they are counted: those the best hit or several hold, then
/// the others, which are counted only when they could still be chosen ([`settled`]). When
/// there are none of the first kind, the others are counted first: nothing could settle them.
pub fn in_counting_order(candidates: Vec<Candidate>) -> (Vec<Candidate>, Vec<Candidate>) {
    let (first, rest): (Vec<Candidate>, Vec<Candidate>) = candidates
        .into_iter()
        .partition(|c| c.hits.len() > 1 || c.hits.first() == Some(&0));
    if first.is_empty() {
        (rest, first)
    } else {
        (first, rest)
    }
}

/// Whether the words `chosen` among some candidates are those [`choose`] would choose with
/// `rest` counted too, whatever their counts: there are [`WORDS`] of them, and the least
/// outweighs any of the rest held by as few memories as a feedback word may be.
pub fn settled(chosen: &[Chosen], rest: &[Candidate], documents: u64) -> bool {
    let Some(least) = chosen.get(WORDS - 1) else {
        return rest.is_empty();
    };
    let most_idf = idf(MIN_HOLDING, documents);
    rest.iter().all(|c| least.weight > most_idf * c.reach())
}

/// BM25's inverse document frequency of a word `held` of `documents` memories hold, never
/// below 0.
fn idf(held: u64, documents: u64) -> f64 {
    let (held, n) = (held as f64, documents as f64);
    ((n - held + 0.5) / (held + 0.5)).ln().max(0.0)
}

/// Whether two lowercase words are taken for forms of one word: equal, or one the other
/// with an ending (`paint`, `painted`), the shorter of at least [`MIN_ROOT_CHARS`].
fn same_root(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || (short.chars().count() >= MIN_ROOT_CHARS && long.starts_with(short))
}

/// The memories holding a word, as feedback needs to know them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holders {
    /// Every memory holding it, by id: at most [`MAX_HOLDING`].
    Few(Vec<u64>),
    /// More than [`MAX_HOLDING`]: never a feedback word.
    Many,
}

impl Holders {
    /// The holders `ids` lists, which may stop past [`MAX_HOLDING`].
    pub fn of(ids: Vec<u64>) -> Holders {
        if ids.len() as u64 > MAX_HOLDING {
            Holders::Many
        } else {
            Holders::Few(ids)
        }
    }
}

/// A feedback word chosen ([`choose`]), and its inverse document frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    /// The word, lowercase.
    pub word: String,
    /// `ln((N - n + 0.5) / (n + 0.5))` for the `n` of the `N` memories holding it: BM25's
    /// weight of one occurrence in a memory of average length.
    pub idf: f64,
    /// What it was chosen by: its idf times its [`Candidate::reach`].
    pub weight: f64,
    /// The memories holding it, by id.
    pub holders: Vec<u64>,
}

/// The feedback words among `candidates`, given the memories holding each (`holders`, in the
/// same order) of the `documents` there are: those held by [`MIN_HOLDING`] to
/// [`MAX_SHARE`] of the memories and at most [`MAX_HOLDING`] (none in a knowledge base of
/// fewer than 20: no word is rare there), the best [`WORDS`] by the sum, over the hits holding one,
/// of its inverse document frequency divided by one more than the hit's rank; ties
/// alphabetically.
pub fn choose(candidates: &[Candidate], holders: &[Holders], documents: u64) -> Vec<Chosen> {
    let most = ((documents as f64 * MAX_SHARE) as u64).min(MAX_HOLDING);
    let mut chosen: Vec<Chosen> = candidates
        .iter()
        .zip(holders)
        .filter_map(|(candidate, holders)| match holders {
            Holders::Few(ids) if (MIN_HOLDING..=most).contains(&(ids.len() as u64)) => {
                let idf = idf(ids.len() as u64, documents);
                Some(Chosen {
                    word: candidate.word.clone(),
                    idf,
                    weight: idf * candidate.reach(),
                    holders: ids.clone(),
                })
            }
            _ => None,
        })
        .collect();
    chosen.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.word.cmp(&b.word)));
    chosen.truncate(WORDS);
    chosen
}

/// The best `n` memories holding the `chosen` words, best first and ties by id: each scored
/// [`WEIGHT`] of the sum of the idf of the words it holds.
///
/// This is BM25 with each word once in a memory of average length, which is how a feedback
/// word mostly meets a short memory. Scoring from the holders needs no ranking query: the one
/// FTS5 ran cost as much as the first round's.
pub fn ranked(chosen: &[Chosen], n: usize) -> Vec<(u64, f64)> {
    let mut scores: HashMap<u64, f64> = HashMap::new();
    for word in chosen {
        for &id in &word.holders {
            *scores.entry(id).or_default() += WEIGHT * word.idf;
        }
    }
    let mut ranked: Vec<(u64, f64)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(n);
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(candidates: &[Candidate]) -> Vec<&str> {
        candidates.iter().map(|c| c.word.as_str()).collect()
    }

    /// Holders of words held by `counts` memories (ids from 1).
    fn held(counts: &[u64]) -> Vec<Holders> {
        counts
            .iter()
            .map(|&n| Holders::of((1..=n).collect()))
            .collect()
    }

    fn chosen(candidates: &[Candidate], holding: &[u64], documents: u64) -> Vec<String> {
        choose(candidates, &held(holding), documents)
            .into_iter()
            .map(|c| c.word)
            .collect()
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
        let chosen = chosen(&found, &[4, 3, 50, 1], 100);
        // kiln (in both hits) outweighs pottery, which is rarer but in the best hit only.
        assert_eq!(chosen, ["kiln", "pottery"]);
    }

    #[test]
    fn at_most_the_feedback_words_are_chosen_ties_alphabetically() {
        let found = candidates(&["zeta eta theta iota kappa lambda"], &[]);
        let chosen = chosen(&found, &[5; 6], 1_000);
        assert_eq!(chosen, ["eta", "iota", "kappa", "lambda", "theta"]);
    }

    #[test]
    fn a_knowledge_base_too_small_to_tell_rare_words_gets_no_feedback() {
        let found = candidates(&["kiln"], &[]);
        assert!(chosen(&found, &[2], 19).is_empty());
        assert_eq!(chosen(&found, &[2], 20), ["kiln"]);
        assert!(chosen(&found, &[3], 20).is_empty());
    }

    #[test]
    fn holders_past_the_most_a_feedback_word_may_have_are_many() {
        let hundred: Vec<u64> = (1..=100).collect();
        assert_eq!(Holders::of(hundred.clone()), Holders::Few(hundred));
        assert_eq!(Holders::of((1..=101).collect()), Holders::Many);
    }

    #[test]
    fn a_word_more_than_a_hundred_memories_hold_is_never_rare() {
        let found = candidates(&["kiln"], &[]);
        // A tenth of 100,000 memories is 10,000, but counting stops at 101.
        assert!(chosen(&found, &[101], 100_000).is_empty());
        assert_eq!(chosen(&found, &[100], 100_000), ["kiln"]);
    }

    #[test]
    fn a_memory_holding_more_and_rarer_feedback_words_scores_higher() {
        let chosen = [
            Chosen {
                word: "kiln".into(),
                idf: 3.0,
                weight: 3.0,
                holders: vec![7, 8],
            },
            Chosen {
                word: "glaze".into(),
                idf: 1.0,
                weight: 1.0,
                holders: vec![8, 9, 6],
            },
        ];
        let found = ranked(&chosen, 3);
        let ids: Vec<u64> = found.iter().map(|&(id, _)| id).collect();
        // 8 holds both; 7 the rarer; 6 and 9 tie on the commoner, by id.
        assert_eq!(ids, [8, 7, 6]);
        assert!((found[0].1 - WEIGHT * 4.0).abs() < 1e-9);
    }

    #[test]
    fn the_best_hits_words_and_those_several_hold_are_counted_first() {
        let found = candidates(&["kiln glaze", "clay wheel", "wheel slip"], &[]);
        let (first, rest) = in_counting_order(found);
        // "wheel" is in the second and third hits.
        assert_eq!(words_of(&first), ["kiln", "glaze", "wheel"]);
        assert_eq!(words_of(&rest), ["clay", "slip"]);
    }

    #[test]
    fn when_the_best_hit_holds_no_candidate_the_later_hits_words_are_counted_first() {
        let found = candidates(&["research", "clay wheel"], &["research".to_owned()]);
        let (first, rest) = in_counting_order(found);
        assert_eq!(words_of(&first), ["clay", "wheel"]);
        assert!(rest.is_empty());
    }

    #[test]
    fn words_chosen_first_stand_only_when_none_of_the_rest_could_outweigh_them() {
        // Six words of the best hit, each held by 50 of 10,000 memories (idf 5.3); the rest
        // are the second hit's (reach 1/2): held by 2, one would weigh 0.5 * 8.3 = 4.1.
        let found = candidates(&["kiln glaze oxide slip clay cone", "wheel"], &[]);
        let (first, rest) = in_counting_order(found);
        let chosen = choose(&first, &held(&[50; 6]), 10_000);
        assert_eq!(chosen.len(), WORDS);
        assert!(settled(&chosen, &rest, 10_000));
        // Of 1,000 memories, words held by 90 (idf 2.3) could be outweighed by one of the
        // rest held by 2 (0.5 * 6.0).
        let common = choose(&first, &held(&[90; 6]), 1_000);
        assert_eq!(common.len(), WORDS);
        assert!(!settled(&common, &rest, 1_000));
        // Fewer than the words wanted: the rest are counted, if there are any.
        let few = choose(&first[..2], &held(&[50; 2]), 10_000);
        assert!(!settled(&few, &rest, 10_000));
        assert!(settled(&few, &[], 10_000));
    }

    #[test]
    fn counting_in_two_parts_chooses_what_counting_all_at_once_does() {
        let found = candidates(
            &[
                "kiln glaze oxide slip",
                "clay kiln bisque",
                "wheel glaze cone",
            ],
            &[],
        );
        // Counts by word, of 2,000 memories.
        let count = |c: &Candidate| match c.word.as_str() {
            "kiln" => 3,
            "glaze" => 150,
            "oxide" => 40,
            "slip" => 90,
            "clay" => 2,
            "bisque" => 5,
            "wheel" => 60,
            _ => 20,
        };
        let all: Vec<u64> = found.iter().map(count).collect();
        let at_once = choose(&found, &held(&all), 2_000);
        let (first, rest) = in_counting_order(found);
        let held: Vec<u64> = first.iter().map(count).collect();
        let chosen = choose(&first, &self::held(&held), 2_000);
        assert!(
            !settled(&chosen, &rest, 2_000),
            "too few words chosen first"
        );
        let mut both = first;
        both.extend(rest);
        let held: Vec<u64> = both.iter().map(count).collect();
        assert_eq!(choose(&both, &self::held(&held), 2_000), at_once);
    }
}
