//! The rounds a ranked query runs after its first (the query's own words, by BM25), which
//! find evidence that shares few words with the question (issue 47, measured on LoCoMo):
//!
//! 1. **verb forms** ([`variants`]): the other forms of the query's irregular verbs, searched
//!    as a query of their own whose BM25 adds [`VARIANT_WEIGHT`] of itself;
//! 2. **feedback** ([`feedback`]), for recall only ([`MemoryFilter::feedback`]): the rare words
//!    of the best hits so far, searched the same way at [`feedback::WEIGHT`];
//! 3. **the speaker named** ([`speakers`]): a hit spoken by a person the query names gains
//!    [`speakers::BOOST`] of its score.
//!
//! Every round is planned within the query's budget as the first is, and gathers as many hits
//! as the first (feedback, [`feedback::DEPTH`]); hits a later round finds join the pool. The
//! pool is then cut to its size again, best first, ties by id.

use std::collections::{HashMap, HashSet};

use super::context::Hit;
use super::{feedback, speakers, variants};
#[cfg(doc)]
use crate::memory::MemoryFilter;

/// The share of its BM25 score a match of the query's other verb forms adds.
pub const VARIANT_WEIGHT: f64 = 0.5;

/// What the rounds need of a backend, for one search (its filter and budget fixed).
pub(crate) trait Lexicon {
    /// The backend's error.
    type Error;

    /// The first round's best `n` hits (the query's own words, by BM25), best first and ties
    /// by id: the same order whatever `n`.
    fn first(&mut self, n: usize) -> Result<Vec<Hit>, Self::Error>;

    /// The best `n` memories passing the search's filter holding any of `words`, by BM25,
    /// best first and ties by id, planned within the search's budget.
    fn best_of(&mut self, words: &[String], n: usize) -> Result<Vec<Hit>, Self::Error>;

    /// The memories holding each of `words` (in order), the filter not applied
    /// ([`feedback::Holders`]), and how many memories the index holds (an upper bound will do).
    fn holders(&mut self, words: &[String]) -> Result<(Vec<feedback::Holders>, u64), Self::Error>;

    /// Those of `ids` the search's filter admits, with their threads.
    fn admitted(&mut self, ids: &[u64]) -> Result<HashMap<u64, Option<String>>, Self::Error>;

    /// The first `chars` characters of the text of each of `ids` (all of it for `None`).
    fn texts(
        &mut self,
        ids: &[u64],
        chars: Option<usize>,
    ) -> Result<HashMap<u64, String>, Self::Error>;
}

/// The pool of a query: its best hits after every round, best first, and those of them only
/// feedback found (they hold none of the query's words nor their verb forms).
#[derive(Debug, Default)]
pub(crate) struct Pool {
    /// At most the pool's size, best first, ties by id.
    pub hits: Vec<Hit>,
    /// The hits found by feedback alone.
    pub related: HashSet<u64>,
}

/// The pool of `size` hits of a query of `terms`: the first round's best, then the later
/// rounds' (feedback only `with_feedback`).
pub(crate) fn pool<L: Lexicon>(
    lexicon: &mut L,
    terms: &[String],
    size: usize,
    with_feedback: bool,
) -> Result<Pool, L::Error> {
    let first = lexicon.first(size)?;
    if first.is_empty() {
        return Ok(Pool::default());
    }
    let mut hits: HashMap<u64, Hit> = first.into_iter().map(|h| (h.id, h)).collect();
    let verbs = variants::of(terms);
    if !verbs.is_empty() {
        add(&mut hits, lexicon.best_of(&verbs, size)?, VARIANT_WEIGHT);
    }
    // Memories feedback alone found: not yet read, so not yet known to pass the filter.
    let mut unread = if with_feedback {
        feedback_round(lexicon, terms, &mut hits, size)?
    } else {
        HashSet::new()
    };
    let names = speakers::named(terms);
    if !names.is_empty() {
        let ids: Vec<u64> = hits.keys().copied().collect();
        for (id, opening) in lexicon.texts(&ids, Some(speakers::OPENING_CHARS))? {
            if speakers::spoken_by(&opening, &names)
                && let Some(hit) = hits.get_mut(&id)
            {
                hit.score *= 1.0 + speakers::BOOST;
            }
        }
    }
    // Only the unread memories that make the pool are read: most of feedback's fall short.
    let mut related = HashSet::new();
    loop {
        let pooled = best(&hits, size);
        let read: Vec<u64> = pooled
            .iter()
            .map(|h| h.id)
            .filter(|id| unread.contains(id))
            .collect();
        if read.is_empty() {
            return Ok(Pool {
                hits: pooled,
                related,
            });
        }
        let admitted = lexicon.admitted(&read)?;
        for id in read {
            unread.remove(&id);
            match admitted.get(&id) {
                Some(thread) => {
                    if let Some(hit) = hits.get_mut(&id) {
                        hit.thread.clone_from(thread);
                    }
                    related.insert(id);
                }
                None => {
                    hits.remove(&id);
                }
            }
        }
    }
}

/// The feedback round: the rare words of the best hits in `hits` ([`feedback::choose`]); the
/// memories holding them gain [`feedback::ranked`]'s score, and those not in `hits` join it,
/// threadless. Returns those: whether the filter admits them is still to be read.
fn feedback_round<L: Lexicon>(
    lexicon: &mut L,
    terms: &[String],
    hits: &mut HashMap<u64, Hit>,
    size: usize,
) -> Result<HashSet<u64>, L::Error> {
    let top: Vec<u64> = best(hits, feedback::HITS).iter().map(|h| h.id).collect();
    let texts = lexicon.texts(&top, None)?;
    let texts: Vec<&str> = top
        .iter()
        .filter_map(|id| texts.get(id).map(String::as_str))
        .collect();
    let (mut candidates, rest) = feedback::in_counting_order(feedback::candidates(&texts, terms));
    if candidates.is_empty() {
        return Ok(HashSet::new());
    }
    let (mut holders, documents) = lexicon.holders(&words_of(&candidates))?;
    let mut chosen = feedback::choose(&candidates, &holders, documents);
    if !feedback::settled(&chosen, &rest, documents) {
        holders.extend(lexicon.holders(&words_of(&rest))?.0);
        candidates.extend(rest);
        chosen = feedback::choose(&candidates, &holders, documents);
    }
    let found = feedback::ranked(&chosen, feedback::DEPTH.min(size))
        .into_iter()
        .map(|(id, score)| Hit {
            id,
            thread: None,
            score,
        });
    Ok(add(hits, found, 1.0))
}

/// The words of `candidates`, in order.
fn words_of(candidates: &[feedback::Candidate]) -> Vec<String> {
    candidates.iter().map(|c| c.word.clone()).collect()
}

/// Adds `weight` of each of `found`'s scores to the hit of the same memory in `hits`, which
/// `found`'s others join; returns those that joined.
fn add(
    hits: &mut HashMap<u64, Hit>,
    found: impl IntoIterator<Item = Hit>,
    weight: f64,
) -> HashSet<u64> {
    let mut joined = HashSet::new();
    for hit in found {
        let (id, share) = (hit.id, weight * hit.score);
        hits.entry(id)
            .and_modify(|h| h.score += share)
            .or_insert_with(|| {
                joined.insert(id);
                Hit {
                    score: share,
                    ..hit
                }
            });
    }
    joined
}

/// The best `n` of `hits`, best first, ties by id (only those are copied).
fn best(hits: &HashMap<u64, Hit>, n: usize) -> Vec<Hit> {
    let mut ranked: Vec<&Hit> = hits.values().collect();
    ranked.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    ranked.into_iter().take(n).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A knowledge base of texts (id = position + 1), scored by how many query words a text
    /// holds, as a backend's BM25 would order them.
    struct Texts(Vec<&'static str>, Vec<String>);

    impl Lexicon for Texts {
        type Error = std::convert::Infallible;

        fn first(&mut self, n: usize) -> Result<Vec<Hit>, Self::Error> {
            let terms = self.1.clone();
            self.best_of(&terms, n)
        }

        fn best_of(&mut self, words: &[String], n: usize) -> Result<Vec<Hit>, Self::Error> {
            let mut hits: Vec<Hit> = self
                .0
                .iter()
                .enumerate()
                .filter_map(|(at, text)| {
                    let lower = text.to_lowercase();
                    let held = super::super::terms::words(&lower)
                        .filter(|w| words.iter().any(|q| q.to_lowercase() == *w))
                        .count();
                    (held > 0).then(|| Hit {
                        id: at as u64 + 1,
                        thread: None,
                        score: held as f64,
                    })
                })
                .collect();
            hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
            hits.truncate(n);
            Ok(hits)
        }

        fn holders(
            &mut self,
            words: &[String],
        ) -> Result<(Vec<feedback::Holders>, u64), Self::Error> {
            let holders = words
                .iter()
                .map(|w| {
                    let hits = self.best_of(std::slice::from_ref(w), usize::MAX).unwrap();
                    feedback::Holders::of(hits.iter().map(|h| h.id).collect())
                })
                .collect();
            Ok((holders, self.0.len() as u64))
        }

        /// The filter admits every memory but those whose text says it is forgotten.
        fn admitted(&mut self, ids: &[u64]) -> Result<HashMap<u64, Option<String>>, Self::Error> {
            Ok(ids
                .iter()
                .filter(|&&id| !self.0[id as usize - 1].starts_with("(forgotten)"))
                .map(|&id| (id, None))
                .collect())
        }

        fn texts(
            &mut self,
            ids: &[u64],
            chars: Option<usize>,
        ) -> Result<HashMap<u64, String>, Self::Error> {
            Ok(ids
                .iter()
                .map(|&id| {
                    let text = self.0[id as usize - 1];
                    let cut = chars.map_or(text.to_owned(), |n| text.chars().take(n).collect());
                    (id, cut)
                })
                .collect())
        }
    }

    fn ids(hits: &[Hit]) -> Vec<u64> {
        hits.iter().map(|h| h.id).collect()
    }

    /// The pool of `n` for `query` over `texts`.
    fn pooled(texts: Vec<&'static str>, query: &str, n: usize) -> Pool {
        let terms = super::super::terms::query_terms(query);
        let mut kb = Texts(texts, terms.clone());
        pool(&mut kb, &terms, n, true).unwrap()
    }

    fn rounds(texts: Vec<&'static str>, query: &str, n: usize) -> Vec<Hit> {
        pooled(texts, query, n).hits
    }

    /// `texts` and 30 memories about the weather: a knowledge base large enough for feedback.
    fn among_others(mut texts: Vec<&'static str>) -> Vec<&'static str> {
        texts.extend(std::iter::repeat_n("Melanie: the weather is fine", 30));
        texts
    }

    #[test]
    fn another_form_of_a_verb_finds_what_the_question_words_miss() {
        let found = rounds(
            vec![
                "Melanie: we go camping",
                "Caroline: I went to the museum",
                "filler",
            ],
            "When did Caroline go?",
            10,
        );
        assert_eq!(ids(&found), [2, 1], "{found:?}");
    }

    #[test]
    fn the_best_hits_rare_words_find_memories_without_the_question_words() {
        let texts = among_others(vec![
            "Caroline: I researched adoption agencies",
            "Melanie: the adoption interview went well",
        ]);
        let found = pooled(texts, "What did Caroline research?", 10);
        // The second memory shares no word with the question: the first one's rare word,
        // "adoption", finds it, and it is marked as found so.
        assert_eq!(ids(&found.hits), [1, 2], "{found:?}");
        assert_eq!(found.related, HashSet::from([2]));
    }

    #[test]
    fn feedback_runs_on_the_later_hits_words_when_the_best_hit_has_none() {
        let texts = among_others(vec![
            "Caroline: research, research",
            "Caroline: research on adoption",
            "Melanie: adoption papers",
        ]);
        let found = pooled(texts, "What did Caroline research?", 10);
        assert_eq!(ids(&found.hits), [1, 2, 3], "{found:?}");
        assert_eq!(found.related, HashSet::from([3]));
    }

    #[test]
    fn a_memory_only_feedback_found_joins_the_pool_only_if_the_filter_admits_it() {
        let texts = among_others(vec![
            "Caroline: I researched adoption agencies",
            "(forgotten) adoption papers",
            "Melanie: the adoption interview went well",
        ]);
        let found = pooled(texts, "What did Caroline research?", 10);
        assert_eq!(ids(&found.hits), [1, 3], "{found:?}");
        assert_eq!(found.related, HashSet::from([3]));
    }

    #[test]
    fn the_best_are_ranked_by_score_then_id() {
        let hits: HashMap<u64, Hit> = [(5, 1.0), (2, 3.0), (9, 3.0), (1, 0.5), (7, 2.0)]
            .into_iter()
            .map(|(id, score)| {
                let hit = Hit {
                    id,
                    thread: None,
                    score,
                };
                (id, hit)
            })
            .collect();
        assert_eq!(ids(&best(&hits, 3)), [2, 9, 7]);
        assert_eq!(ids(&best(&hits, 10)), [2, 9, 7, 5, 1]);
    }

    #[test]
    fn the_speaker_the_query_names_ranks_first_among_equal_matches() {
        let found = rounds(
            vec!["Melanie: painting is fun", "Caroline: painting is fun"],
            "painting Caroline",
            10,
        );
        assert_eq!(ids(&found), [2, 1]);
    }

    #[test]
    fn a_pool_never_grows_past_its_size() {
        let found = rounds(vec!["went", "went", "went", "go", "go"], "go", 3);
        assert_eq!(found.len(), 3);
    }

    #[test]
    fn nothing_found_first_runs_no_other_round() {
        assert!(rounds(vec!["went"], "absent", 10).is_empty());
    }
}
