//! Fuzzes `kenning_policy::select` on the benchmark workload with fuzzed query and texts.
//!
//! Layout: byte 0 = number of candidates (1..=16), byte 1 = token budget scale, then the rest
//! split on 0xFF: the first piece is the query, each further piece replaces one candidate's
//! text (in order). Invalid UTF-8 is replaced lossily.
//!
//! Invariants: every chosen id is a candidate's id, every candidate id appears exactly once in
//! `chosen` or `rejected`, and the snapshot respects `max_snapshot_bytes`.

use kenning_policy::types::Limits;
use std::collections::HashMap;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if data.len() < 2 {
            return;
        }
        let n = 1 + (data[0] as usize % 16);
        let (mut context, mut candidates) = kenning_policy::vectors::workload(n);
        let limits = Limits {
            token_budget: 50 + u32::from(data[1]) * 10,
            ..Limits::default()
        };
        let mut pieces = data[2..].split(|&b| b == 0xFF);
        if let Some(query) = pieces.next() {
            context.query = String::from_utf8_lossy(query).into_owned();
        }
        for (candidate, piece) in candidates.iter_mut().zip(pieces) {
            candidate.text = String::from_utf8_lossy(piece).into_owned();
        }

        let selection = kenning_policy::select(&context, &candidates, &limits);

        let mut seen: HashMap<u64, usize> = candidates.iter().map(|c| (c.id, 0)).collect();
        for chosen in &selection.chosen {
            let count = seen
                .get_mut(&chosen.id)
                .unwrap_or_else(|| panic!("chosen id {} is not a candidate", chosen.id));
            *count += 1;
        }
        for rejected in &selection.rejected {
            let count = seen
                .get_mut(&rejected.id)
                .unwrap_or_else(|| panic!("rejected id {} is not a candidate", rejected.id));
            *count += 1;
        }
        for (id, count) in &seen {
            assert_eq!(*count, 1, "candidate {id} appears {count} times in chosen + rejected");
        }
        assert!(
            selection.snapshot.len() <= limits.max_snapshot_bytes as usize,
            "snapshot of {} bytes exceeds {}",
            selection.snapshot.len(),
            limits.max_snapshot_bytes
        );
        assert_eq!(
            selection.snapshot_tokens,
            kenning_policy::estimate_tokens(&selection.snapshot),
            "snapshot_tokens disagrees with estimate_tokens"
        );
        assert!(
            selection.snapshot.is_empty() || selection.snapshot_tokens <= limits.token_budget,
            "snapshot of {} tokens exceeds the budget {}",
            selection.snapshot_tokens,
            limits.token_budget
        );
    });
}
