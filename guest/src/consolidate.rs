//! Consolidation: which memories repeat each other, which a newer one contradicts, and which
//! are past their retention. The policy only plans; the host previews, checks and applies the
//! plan, superseding and never deleting.
//!
//! Memories are compared only with memories about the same place: same scope, kind, profile
//! file and anchors, both accepted (a suggestion awaiting review is never merged into
//! knowledge). Candidates come from prefix filtering (each memory's rarest words), and a memory
//! is compared with at most [`MAX_COMPARISONS`] others, so the work grows linearly with a
//! subject's memories even when thousands of them say nearly the same thing.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::select::DUPLICATE_JACCARD;
use crate::similarity::{jaccard, shared, word_set};
use crate::types::{
    ConsolidationPlan, Expiry, MemoryId, Merge, Retention, StoredMemory, Supersession, Target,
};

const DAY: i64 = 86_400;

/// Least word-set similarity at which two memories about one place are about the same thing,
/// so that the newer one, saying it differently, supersedes the older.
pub const CONTRADICTION_JACCARD: f64 = 0.5;

/// Words two memories must open with, alike, before what follows can contradict.
pub const MIN_SHARED_OPENING: usize = 3;

/// Most distinct words a newer memory may drop from an older one, and most it may add, and
/// still correct it. A correction replaces a value ("at 10.0.0.1" becomes "at 10.0.0.7"); a
/// sentence that drops or adds more restates the older one with less or more detail, or says
/// another thing that holds as well ("supports her writing" beside "supports her ice cream
/// making"), and both are kept.
pub const MAX_CORRECTED_WORDS: usize = 2;

/// Most memories one memory is compared with, for merging and again for superseding. Enough
/// for any real subject; a flood of near-identical memories meets it, and then the earliest
/// clusters (merging) and the most recent memories (superseding) are the ones compared.
pub const MAX_COMPARISONS: usize = 64;

/// Plans a consolidation; see [`crate::consolidate`].
pub fn consolidate(
    now: i64,
    memories: &[StoredMemory],
    retention: &Retention,
) -> ConsolidationPlan {
    let mut plan = ConsolidationPlan::default();
    let mut settled: BTreeSet<MemoryId> = BTreeSet::new();
    for m in memories {
        if let Some(reason) = expiry(now, m, retention) {
            plan.expiries.push(Expiry { id: m.id, reason });
            settled.insert(m.id);
        }
    }

    let mut places: BTreeMap<String, Vec<&StoredMemory>> = BTreeMap::new();
    for m in memories
        .iter()
        .filter(|m| !m.pending && !settled.contains(&m.id))
    {
        let place = format!("{:?}|{:?}|{:?}|{:?}", m.scope, m.kind, m.target, m.anchors);
        places.entry(place).or_default().push(m);
    }
    for group in places.values_mut() {
        group.sort_by_key(|m| m.id);
        let words = WordSets::of(group);
        merges(group, &words, &mut settled, &mut plan);
        supersessions(group, &words, &mut settled, &mut plan);
    }
    plan
}

/// Why `m` has expired at `now`, if it has: a suggestion left unreviewed too long, or a daily
/// note older than the retention window. Profile files and knowledge never expire.
fn expiry(now: i64, m: &StoredMemory, retention: &Retention) -> Option<String> {
    if m.pending {
        let age = now.saturating_sub(m.created_at) / DAY;
        if age > i64::from(retention.pending_days) {
            return Some(format!(
                "suggestion awaiting review for {age} days (suggestions expire after {})",
                retention.pending_days
            ));
        }
    }
    if m.target == Some(Target::Daily) {
        let day = m.day.as_deref().and_then(days_since_epoch)?;
        let age = now.div_euclid(DAY) - day;
        if age > i64::from(retention.daily_days) {
            return Some(format!(
                "daily note of {} is {age} days old (daily notes are kept {} days)",
                m.day.as_deref().unwrap_or_default(),
                retention.daily_days
            ));
        }
    }
    None
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian calendar).
fn days_since_epoch(date: &str) -> Option<i64> {
    let mut parts = date.splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next()?.parse().ok()?;
    let day: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || !(0..=9999).contains(&year) {
        return None;
    }
    // Days from civil, after Howard Hinnant's well-known algorithm.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The word sets of a group's memories, each word an id (sorted, so that sets compare by
/// merging), and every word's rank from rarest to commonest in the group.
struct WordSets {
    sets: Vec<Vec<u32>>,
    rank: Vec<u32>,
}

impl WordSets {
    fn of(group: &[&StoredMemory]) -> WordSets {
        let mut ids: BTreeMap<String, u32> = BTreeMap::new();
        let mut sets = Vec::with_capacity(group.len());
        for m in group {
            let mut set: Vec<u32> = word_set(&m.text)
                .into_iter()
                .map(|w| {
                    let next = ids.len() as u32;
                    *ids.entry(w.text.into_owned()).or_insert(next)
                })
                .collect();
            set.sort_unstable();
            sets.push(set);
        }
        let mut frequency = vec![0usize; ids.len()];
        for &w in sets.iter().flatten() {
            frequency[w as usize] += 1;
        }
        // Rarest first; among equals, by the word itself, so that the order of the memories
        // given never changes the plan.
        let mut order: Vec<(usize, &str, u32)> = ids
            .iter()
            .map(|(w, &id)| (frequency[id as usize], w.as_str(), id))
            .collect();
        order.sort_unstable();
        let mut rank = vec![0u32; ids.len()];
        for (r, &(_, _, id)) in order.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        WordSets { sets, rank }
    }

    /// `|a ∩ b| / |a ∪ b|` of the sets of memories `i` and `j`; two empty sets are identical.
    fn jaccard(&self, i: usize, j: usize) -> f64 {
        jaccard(&self.sets[i], &self.sets[j])
    }

    /// How the words of `newer` differ from those of `older`, from one merge of their sets.
    fn change(&self, older: usize, newer: usize) -> Change {
        let (a, b) = (&self.sets[older], &self.sets[newer]);
        let common = shared(a, b);
        Change {
            dropped: a.len() - common,
            added: b.len() - common,
            common,
        }
    }

    /// Memory `i`'s rarest words, as many as prefix filtering needs: two sets that reach
    /// `threshold` share at least one word of their prefixes.
    fn prefix(&self, i: usize, threshold: f64) -> Vec<u32> {
        let mut rarest = self.sets[i].clone();
        rarest.sort_unstable_by_key(|&w| self.rank[w as usize]);
        let n = rarest.len();
        rarest.truncate((n - (threshold * n as f64).ceil() as usize + 1).min(n));
        rarest
    }
}

/// The distinct words a newer memory drops from an older one, adds to it, and keeps.
struct Change {
    dropped: usize,
    added: usize,
    common: usize,
}

impl Change {
    /// Whether the newer memory corrects a value of the older one rather than saying another
    /// thing: few words changed either way ([`MAX_CORRECTED_WORDS`]), most kept
    /// ([`CONTRADICTION_JACCARD`]).
    fn is_correction(&self) -> bool {
        let union = self.dropped + self.added + self.common;
        self.dropped <= MAX_CORRECTED_WORDS
            && self.added <= MAX_CORRECTED_WORDS
            && self.common as f64 >= CONTRADICTION_JACCARD * union as f64
    }
}

/// Folds near-duplicates into the memory that says most (the longest; the newest of equals).
fn merges(
    group: &[&StoredMemory],
    words: &WordSets,
    settled: &mut BTreeSet<MemoryId>,
    plan: &mut ConsolidationPlan,
) {
    let mut clusters: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut root_of: Vec<usize> = (0..group.len()).collect();
    // For each word, the clusters whose members have it in their prefix, each with the first
    // such member: a memory joins the cluster of the earliest member it shares a prefix word
    // with whose root it resembles, and a cluster of a thousand copies is one comparison.
    let mut postings: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    let mut posted: BTreeSet<(u32, usize)> = BTreeSet::new();
    for (j, root_of_j) in root_of.iter_mut().enumerate() {
        let prefix = words.prefix(j, DUPLICATE_JACCARD);
        let mut candidates: Vec<(usize, usize)> = prefix
            .iter()
            .filter_map(|w| postings.get(w))
            .flat_map(|list| list.iter().take(MAX_COMPARISONS).copied())
            .collect();
        candidates.sort_unstable();
        let mut compared = BTreeSet::new();
        for (_, root) in candidates {
            if compared.len() == MAX_COMPARISONS {
                break;
            }
            if compared.insert(root) && words.jaccard(root, j) >= DUPLICATE_JACCARD {
                *root_of_j = root;
                break;
            }
        }
        for w in prefix {
            if posted.insert((w, *root_of_j)) {
                postings.entry(w).or_default().push((j, *root_of_j));
            }
        }
    }
    for (i, &root) in root_of.iter().enumerate() {
        clusters.entry(root).or_default().push(i);
    }
    for members in clusters.values().filter(|m| m.len() > 1) {
        let keep = *members
            .iter()
            .max_by_key(|&&i| (group[i].text.len(), group[i].updated_at, group[i].id))
            .expect("a cluster has members");
        let duplicates: Vec<MemoryId> = members
            .iter()
            .filter(|&&i| i != keep)
            .map(|&i| group[i].id)
            .collect();
        settled.extend(members.iter().map(|&i| group[i].id));
        plan.merges.push(Merge {
            keep: group[keep].id,
            reason: format!(
                "{} near-duplicate{} of #{}: at least {:.0}% of their words are the same",
                duplicates.len(),
                if duplicates.len() == 1 { "" } else { "s" },
                group[keep].id,
                DUPLICATE_JACCARD * 100.0
            ),
            duplicates,
        });
    }
}

/// A newer memory that opens like an older one about the same place and then corrects a value
/// in it (at most [`MAX_CORRECTED_WORDS`] words dropped and added) supersedes it ("the C2
/// server is at 10.0.0.5" after "the C2 server is at 10.0.0.1").
fn supersessions(
    group: &[&StoredMemory],
    words: &WordSets,
    settled: &mut BTreeSet<MemoryId>,
    plan: &mut ConsolidationPlan,
) {
    let openings: Vec<Vec<Cow<'_, str>>> = group
        .iter()
        .map(|m| crate::similarity::words(&m.text).collect())
        .collect();
    let mut newest_successor: BTreeMap<usize, usize> = BTreeMap::new();
    // Every unsettled memory with its most recent candidates: those sharing a prefix word.
    let mut postings: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut pairs = Vec::new();
    for j in (0..group.len()).filter(|&j| !settled.contains(&group[j].id)) {
        let prefix = words.prefix(j, CONTRADICTION_JACCARD);
        let mut candidates: Vec<usize> = prefix
            .iter()
            .filter_map(|w| postings.get(w))
            .flat_map(|list| list.iter().rev().take(MAX_COMPARISONS).copied())
            .collect();
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        candidates.dedup();
        pairs.extend(candidates.into_iter().take(MAX_COMPARISONS).map(|i| (i, j)));
        for w in prefix {
            postings.entry(w).or_default().push(j);
        }
    }
    for (i, j) in pairs {
        let (older, newer) =
            if (group[i].created_at, group[i].id) < (group[j].created_at, group[j].id) {
                (i, j)
            } else {
                (j, i)
            };
        let alike = openings[older]
            .iter()
            .zip(&openings[newer])
            .take_while(|(a, b)| a == b)
            .count();
        let differs = openings[older].len() > alike || openings[newer].len() > alike;
        if alike >= MIN_SHARED_OPENING && differs && words.change(older, newer).is_correction() {
            let best = newest_successor.entry(older).or_insert(newer);
            if (group[newer].created_at, group[newer].id)
                > (group[*best].created_at, group[*best].id)
            {
                *best = newer;
            }
        }
    }
    for (older, newer) in newest_successor {
        if settled.contains(&group[older].id) {
            continue;
        }
        settled.insert(group[older].id);
        let opening = openings[newer][..MIN_SHARED_OPENING].join(" ");
        plan.supersessions.push(Supersession {
            newer: group[newer].id,
            older: group[older].id,
            reason: format!(
                "#{} says \"{opening} ...\" differently, and is newer",
                group[newer].id
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scope;

    use crate::vectors::stored_fact as memory;

    const NOW: i64 = 1_796_000_000;

    #[test]
    fn near_duplicates_fold_into_the_memory_that_says_most() {
        let memories = [
            memory(1, "the config is encrypted with RC4 using a static key", 10),
            memory(
                2,
                "the config is encrypted with RC4 using a static key!",
                20,
            ),
            memory(3, "the user prefers short answers", 30),
        ];
        let plan = consolidate(NOW, &memories, &Retention::default());
        assert_eq!(plan.merges.len(), 1, "{plan:?}");
        assert_eq!(plan.merges[0].keep, 2);
        assert_eq!(plan.merges[0].duplicates, vec![1]);
        assert!(plan.supersessions.is_empty() && plan.expiries.is_empty());
    }

    #[test]
    fn a_newer_memory_that_says_otherwise_supersedes_the_older() {
        let memories = [
            memory(1, "the c2 server is at 10.0.0.1 port 443", 10),
            memory(2, "the c2 server is at 10.0.0.7 port 443", 20),
        ];
        let plan = consolidate(NOW, &memories, &Retention::default());
        assert_eq!(plan.supersessions.len(), 1, "{plan:?}");
        assert_eq!(
            (plan.supersessions[0].newer, plan.supersessions[0].older),
            (2, 1)
        );
    }

    #[test]
    fn a_newer_memory_with_less_or_more_detail_or_another_fact_supersedes_nothing() {
        for (older, newer) in [
            (
                "the loader decrypts the config with RC4 and then maps the payload into memory",
                "the loader decrypts the config with RC4",
            ),
            (
                "the loader decrypts the config with RC4",
                "the loader decrypts the config with RC4 using a static key",
            ),
            (
                "the sample persists through a scheduled task named updater",
                "the sample persists through a registry run key named updater",
            ),
        ] {
            let memories = [memory(1, older, 10), memory(2, newer, 20)];
            let plan = consolidate(NOW, &memories, &Retention::default());
            assert!(plan.supersessions.is_empty(), "{older} / {newer}: {plan:?}");
        }
    }

    #[test]
    fn memories_about_different_places_are_never_merged() {
        let mut other = memory(2, "the config is encrypted with RC4 using a static key", 20);
        other.scope = Scope::Local;
        let memories = [
            memory(1, "the config is encrypted with RC4 using a static key", 10),
            other,
        ];
        assert_eq!(
            consolidate(NOW, &memories, &Retention::default()),
            ConsolidationPlan::default()
        );
    }

    #[test]
    fn unrelated_memories_are_left_alone() {
        let memories = [
            memory(1, "the user lives in Lisbon", 10),
            memory(2, "the sample beacons every 60 seconds", 20),
        ];
        assert_eq!(
            consolidate(NOW, &memories, &Retention::default()),
            ConsolidationPlan::default()
        );
    }

    #[test]
    fn old_suggestions_and_old_daily_notes_expire_and_profile_files_never_do() {
        let mut suggestion = memory(1, "maybe the user likes tea", NOW - 20 * DAY);
        suggestion.pending = true;
        let mut fresh = memory(2, "maybe the user likes coffee", NOW - 2 * DAY);
        fresh.pending = true;
        let mut daily = memory(3, "met Ana", NOW);
        daily.target = Some(Target::Daily);
        daily.day = Some("2026-01-02".to_owned());
        let mut user = memory(4, "name: Ana", 0);
        user.target = Some(Target::User);
        let plan = consolidate(
            NOW,
            &[suggestion, fresh, daily, user],
            &Retention::default(),
        );
        let expired: Vec<MemoryId> = plan.expiries.iter().map(|e| e.id).collect();
        assert_eq!(expired, vec![1, 3], "{plan:?}");
    }

    #[test]
    fn thousands_of_near_identical_memories_fold_into_one() {
        let memories: Vec<StoredMemory> = (1..=3000)
            .map(|n| {
                let text = format!("the unpacking stub {n} copies the payload into a fresh RWX region and jumps to it");
                memory(n, &text, n as i64)
            })
            .collect();
        let plan = consolidate(NOW, &memories, &Retention::default());
        assert_eq!(plan.merges.len(), 1, "{:?}", plan.merges.len());
        assert_eq!(plan.merges[0].duplicates.len(), 2999);
        assert!(plan.supersessions.is_empty());
    }

    #[test]
    fn thousands_of_revisions_of_one_fact_are_each_superseded_by_a_newer_one() {
        let memories: Vec<StoredMemory> = (1..=3000)
            .map(|n| {
                memory(
                    n,
                    &format!("the c2 server is at 10.0.{}.{} port 443", n / 256, n % 256),
                    n as i64,
                )
            })
            .collect();
        let plan = consolidate(NOW, &memories, &Retention::default());
        assert!(plan.merges.is_empty(), "{:?}", plan.merges.first());
        assert_eq!(plan.supersessions.len(), 2999);
        for s in &plan.supersessions {
            assert!(s.newer > s.older, "{s:?}");
        }
        let superseded: BTreeSet<MemoryId> = plan.supersessions.iter().map(|s| s.older).collect();
        assert!(!superseded.contains(&3000), "the newest stands");
    }

    #[test]
    fn civil_dates_count_days_from_the_epoch() {
        assert_eq!(days_since_epoch("1970-01-01"), Some(0));
        assert_eq!(days_since_epoch("2000-03-01"), Some(11_017));
        assert_eq!(days_since_epoch("2026-13-01"), None);
        assert_eq!(days_since_epoch("not a date"), None);
    }

    #[test]
    fn the_plan_is_the_same_whatever_the_order_of_the_memories() {
        let memories = vec![
            memory(1, "the c2 server is at 10.0.0.1 port 443", 10),
            memory(2, "the c2 server is at 10.0.0.7 port 443", 20),
            memory(3, "the config is encrypted with RC4 using a static key", 30),
            memory(
                4,
                "the config is encrypted with RC4 using a static key!",
                40,
            ),
        ];
        let mut reversed = memories.clone();
        reversed.reverse();
        assert_eq!(
            consolidate(NOW, &memories, &Retention::default()),
            consolidate(NOW, &reversed, &Retention::default())
        );
    }
}
