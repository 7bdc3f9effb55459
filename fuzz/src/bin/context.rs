//! Fuzzes the turn context: the JSON of a `Context` as a host hands it to the policy, then
//! `score` and `select` of the benchmark workload's candidates in that context, and
//! `parse_address` of the query (the reader of the addresses an agent types).
//!
//! Invariants: one score per candidate, each part finite and the anchor, lexical, confidence
//! and recency parts within 0..=1; every candidate is chosen or rejected exactly once.

use kenning_policy::types::{Context, Limits};
use std::collections::HashMap;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let _ = std::str::from_utf8(data).map(kenning_policy::parse_address);
        let Ok(context) = serde_json::from_slice::<Context>(data) else {
            return;
        };
        let (_, candidates) = kenning_policy::vectors::workload(12);

        let scores = kenning_policy::score(&context, &candidates);
        assert_eq!(scores.len(), candidates.len(), "one score per candidate");
        for parts in &scores {
            for (name, value) in [
                ("anchor", parts.anchor),
                ("lexical", parts.lexical),
                ("confidence", parts.confidence),
                ("recency", parts.recency),
            ] {
                assert!((0.0..=1.0).contains(&value), "{name} part {value} out of 0..=1");
            }
            assert!(parts.total.is_finite(), "total {} is not finite", parts.total);
        }

        let selection = kenning_policy::select(&context, &candidates, &Limits::default());
        let mut seen: HashMap<u64, usize> = candidates.iter().map(|c| (c.id, 0)).collect();
        for id in selection
            .chosen
            .iter()
            .map(|c| c.id)
            .chain(selection.rejected.iter().map(|r| r.id))
        {
            *seen
                .get_mut(&id)
                .unwrap_or_else(|| panic!("id {id} is not a candidate")) += 1;
        }
        for (id, count) in &seen {
            assert_eq!(*count, 1, "candidate {id} appears {count} times");
        }
    });
}
