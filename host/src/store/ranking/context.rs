//! Context smoothing: a memory's relevance is raised by that of its neighbours in its thread.
//!
//! Memories written one after another in the same thread (the turns of one conversation, the
//! notes of one working session) explain each other: the answer to a question is often the turn
//! after the one that shares the question's words, and a passage that matches in several
//! consecutive memories is more likely to be the one asked about than a lone stray match. So
//! each lexical hit lends a fixed share of its BM25 score to the memories up to
//! [`WINDOW`] places before and after it in its thread, and those neighbours become candidates
//! even when they share no word with the query. Memories without a thread are left as they are.

use std::collections::{BTreeMap, HashMap};

/// How many memories on each side of a hit receive a share of its score.
pub const WINDOW: usize = 2;
/// The share of a hit's score each neighbour receives.
pub const WEIGHT: f64 = 0.3;
/// How far (in memory ids) to look on each side of a hit for its thread neighbours. Threads
/// written concurrently interleave their ids; a neighbour further away than this is not one.
pub const SPAN: u64 = 16;

/// A lexical hit: a memory id, its thread and its BM25 score (higher is better).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The memory.
    pub id: u64,
    /// Its thread, if any.
    pub thread: Option<String>,
    /// Its lexical score.
    pub score: f64,
}

/// Smoothed scores of the hits and their thread neighbours, best first (ties by id).
///
/// `members(first, last)` is the backend's query: the memories with ids from `first` to `last`
/// that have a thread and pass the same filter as the hits, as `(id, thread)` in id order.
pub fn smooth<E>(
    hits: &[Hit],
    mut members: impl FnMut(u64, u64) -> Result<Vec<(u64, String)>, E>,
) -> Result<Vec<(u64, f64)>, E> {
    let mut scores: HashMap<u64, f64> = hits.iter().map(|h| (h.id, h.score)).collect();
    let threads = thread_members(hits, &mut members)?;
    for hit in hits {
        let Some(members) = hit.thread.as_ref().and_then(|t| threads.get(t)) else {
            continue;
        };
        let Ok(position) = members.binary_search(&hit.id) else {
            continue;
        };
        let before = members[..position].iter().rev().take(WINDOW);
        let after = members[position + 1..].iter().take(WINDOW);
        for &neighbour in before.chain(after) {
            if neighbour.abs_diff(hit.id) <= SPAN {
                *scores.entry(neighbour).or_insert(0.0) += WEIGHT * hit.score;
            }
        }
    }
    let mut ranked: Vec<(u64, f64)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked)
}

/// The ids (ascending) of each hit's thread within [`SPAN`] of a hit, read in one query per
/// run of overlapping id ranges.
fn thread_members<E>(
    hits: &[Hit],
    members: &mut impl FnMut(u64, u64) -> Result<Vec<(u64, String)>, E>,
) -> Result<BTreeMap<String, Vec<u64>>, E> {
    let mut ranges: Vec<(u64, u64)> = hits
        .iter()
        .filter(|h| h.thread.is_some())
        .map(|h| (h.id.saturating_sub(SPAN), h.id.saturating_add(SPAN)))
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    let mut threads: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (start, end) in merged {
        for (id, thread) in members(start, end)? {
            threads.entry(thread).or_default().push(id);
        }
    }
    Ok(threads)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Memories `(id, thread)`, every one passing the filter.
    type Store = Vec<(u64, Option<&'static str>)>;

    fn store(rows: &[(u64, Option<&'static str>)]) -> Store {
        rows.to_vec()
    }

    /// [`smooth`] over `store`.
    fn smooth_in(store: &Store, hits: &[Hit]) -> Vec<(u64, f64)> {
        smooth(hits, |first, last| {
            Ok::<_, ()>(
                store
                    .iter()
                    .filter(|(id, _)| (first..=last).contains(id))
                    .filter_map(|(id, thread)| Some((*id, (*thread)?.to_owned())))
                    .collect(),
            )
        })
        .unwrap()
    }

    fn hit(id: u64, thread: Option<&str>, score: f64) -> Hit {
        Hit {
            id,
            thread: thread.map(str::to_owned),
            score,
        }
    }

    fn score_of(ranked: &[(u64, f64)], id: u64) -> Option<f64> {
        ranked.iter().find(|(i, _)| *i == id).map(|(_, s)| *s)
    }

    #[test]
    fn neighbours_in_the_thread_share_a_hit_score() {
        let rows: Vec<(u64, Option<&str>)> = (1..=9).map(|id| (id, Some("s1"))).collect();
        let store = store(&rows);
        let ranked = smooth_in(&store, &[hit(5, Some("s1"), 10.0)]);
        assert_eq!(score_of(&ranked, 5), Some(10.0));
        for id in [3, 4, 6, 7] {
            assert_eq!(score_of(&ranked, id), Some(10.0 * WEIGHT), "memory {id}");
        }
        assert_eq!(score_of(&ranked, 2), None, "outside the window");
        assert_eq!(ranked[0].0, 5);
        assert_eq!(
            ranked.iter().map(|r| r.0).collect::<Vec<_>>(),
            [5, 3, 4, 6, 7],
            "ties by id"
        );
    }

    #[test]
    fn a_run_of_hits_outranks_a_lone_stronger_hit() {
        let mut rows: Vec<(u64, Option<&str>)> = (1..=5).map(|id| (id, Some("a"))).collect();
        rows.extend((6..=10).map(|id| (id, Some("b"))));
        let store = store(&rows);
        let hits = [
            hit(2, Some("a"), 5.0),
            hit(3, Some("a"), 5.0),
            hit(8, Some("b"), 6.0),
        ];
        let ranked = smooth_in(&store, &hits);
        assert!(score_of(&ranked, 2).unwrap() > score_of(&ranked, 8).unwrap());
    }

    #[test]
    fn other_threads_and_threadless_memories_are_not_neighbours() {
        let store = store(&[
            (1, Some("a")),
            (2, Some("b")),
            (3, Some("a")),
            (4, None),
            (5, Some("a")),
            (6, Some("a")),
            (40, Some("a")),
        ]);
        let ranked = smooth_in(&store, &[hit(3, Some("a"), 1.0), hit(4, None, 2.0)]);
        let ids: Vec<u64> = ranked.iter().map(|r| r.0).collect();
        // Thread a around 3: 1 before, 5 and 6 after (window 2); 40 is too far away.
        assert_eq!(ids, [4, 3, 1, 5, 6]);
    }
}
