//! Operating points: what the scan does with a suspicious text, by who asks to store it.
//!
//! The rules name what they find (an override, a forged delimiter, an order addressed to the
//! AI) and are measured to block well under 1% of benign notes, documents and messages. The
//! learned signal alone is not: out of the tuning data its false alarms are mostly benign
//! requests written around trigger words ("ignore the linter", "bypass the cache"). So a text
//! only the learned signal suspects is never lost; what happens to it depends on how far its
//! author is trusted:
//!
//! | author | a rule's finding | the learned signal's alone |
//! | --- | --- | --- |
//! | human | blocked | kept, marked with the reason (a reviewer sees it) |
//! | agent, triage | blocked | held: quarantined (PENDING) with the reason |
//! | external, peer | blocked | held: quarantined with the reason |
//!
//! An agent is trusted to write, but what it writes comes from what it read (e-mails, web
//! pages, tool output), which is where planted orders hide; so its suspected text waits for a
//! human, as an external client's always does. A file a human imports counts as the human's
//! (the human vouches for it); one anybody else imports as a peer's.

use kenning_contract::args::Author;

use super::injection;

/// What the scan does with a text, given its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing unsafe: allow it (or redact its secrets).
    Clean,
    /// Keep it (secrets redacted), marked with what was suspected.
    Mark,
    /// Store it only in quarantine, for a reviewer.
    Hold,
    /// Do not store it.
    Block,
}

/// Whether a finding of `kind` is a suspicion (the learned signal's, or the AI hailed with no
/// order found), which alone never blocks.
pub fn is_suspicion(kind: &str) -> bool {
    injection::SUSPICIONS.contains(&kind)
}

/// The outcome for a text by `author` whose unsafe findings have the kinds `kinds`.
pub fn outcome<'a>(author: Author, kinds: impl IntoIterator<Item = &'a str>) -> Outcome {
    let (mut learned, mut rule) = (false, false);
    for kind in kinds {
        if is_suspicion(kind) {
            learned = true;
        } else {
            rule = true;
        }
    }
    match (rule, learned, author) {
        (true, _, _) => Outcome::Block,
        (false, false, _) => Outcome::Clean,
        (false, true, Author::Human) => Outcome::Mark,
        (false, true, Author::Agent | Author::Triage | Author::External | Author::Peer) => {
            Outcome::Hold
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rules_finding_blocks_whoever_asks() {
        for &author in Author::ALL {
            assert_eq!(outcome(author, ["prompt-injection"]), Outcome::Block);
            assert_eq!(
                outcome(author, [injection::SUSPICIONS[0], "role-marker"]),
                Outcome::Block
            );
        }
    }

    #[test]
    fn the_learned_signal_alone_marks_a_humans_text_and_holds_everyone_elses() {
        assert_eq!(
            outcome(Author::Human, [injection::SUSPICIONS[0]]),
            Outcome::Mark
        );
        for author in &Author::ALL[1..] {
            assert_eq!(outcome(*author, [injection::SUSPICIONS[0]]), Outcome::Hold);
        }
    }

    #[test]
    fn a_text_without_findings_is_clean_for_everyone() {
        for &author in Author::ALL {
            assert_eq!(outcome(author, []), Outcome::Clean);
        }
    }
}
