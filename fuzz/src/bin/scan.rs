//! Fuzzes `kenning_policy::scan`: the first byte picks the target and the author, the rest is
//! the text.
//!
//! Invariants: one result per item; a blocked result has an empty text and a reason, a held
//! one a reason; for every verdict but block, every finding's span lies within the input, on
//! char boundaries.

use kenning_policy::args::Author;
use kenning_policy::types::{ScanItem, Target, Verdict};

const TARGETS: [Target; 5] = [
    Target::User,
    Target::Memory,
    Target::Daily,
    Target::Global,
    Target::Local,
];

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((&pick, rest)) = data.split_first() else {
            return;
        };
        let target = TARGETS[pick as usize % TARGETS.len()];
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        let items = [ScanItem {
            text: text.to_string(),
            target,
            author: Author::ALL[pick as usize / TARGETS.len() % Author::ALL.len()],
        }];
        let results = kenning_policy::scan(&items);
        assert_eq!(results.len(), items.len(), "one result per item");
        let result = &results[0];
        match result.verdict {
            Verdict::Block => {
                assert!(result.text.is_empty(), "blocked text is returned: {:?}", result.text);
                assert!(result.reason.is_some(), "blocked without a reason");
            }
            Verdict::Allow | Verdict::Redact | Verdict::Hold => {
                if result.verdict == Verdict::Hold {
                    assert!(result.reason.is_some(), "held without a reason");
                }
                for f in &result.findings {
                    let (start, end) = (f.start as usize, f.end as usize);
                    assert!(start <= end, "finding {f:?} has start > end");
                    assert!(end <= text.len(), "finding {f:?} past the input ({} bytes)", text.len());
                    assert!(text.is_char_boundary(start), "finding {f:?} starts inside a char");
                    assert!(text.is_char_boundary(end), "finding {f:?} ends inside a char");
                }
                if result.verdict == Verdict::Allow {
                    assert_eq!(result.text, text, "allowed text was changed");
                }
            }
        }
    });
}
