//! Provenance: who may write, change and accept what. Every rule about authors and badges
//! lives here, so the service, the review queue and every interface apply the same ones.
//!
//! | author | a new memory | editing a memory |
//! | --- | --- | --- |
//! | human | NATIVE | in place, anything |
//! | agent, triage | NATIVE | in place when NATIVE and not a human's; else proposed (PENDING) |
//! | external (MCP, HTTP clients) | PENDING | proposed (PENDING); never forgets |
//! | peer (a linked knowledge base) | INBOUND-PENDING | proposed (INBOUND-PENDING); never touches a NATIVE memory |
//!
//! An imported memory (`kenning import`) keeps the author the export names, and its badge says
//! that it came from another knowledge base; an import never makes a memory NATIVE:
//!
//! | badge in the export | imported by a human | imported by anyone else |
//! | --- | --- | --- |
//! | NATIVE, FOREIGN, none | FOREIGN | INBOUND-PENDING |
//! | PENDING | PENDING | PENDING |
//! | INBOUND-PENDING | INBOUND-PENDING | INBOUND-PENDING |
//!
//! PENDING and INBOUND-PENDING memories are quarantined: never injected, never recalled, until
//! a reviewer accepts them (NATIVE, or FOREIGN for a peer's) or rejects them.

use crate::memory::Memory;
use kenning_contract::args::{Author, Badge, Status};

/// Whether `reader` may read `memory` (by id, in a listing, in a search or a turn): a
/// forgotten memory's text is gone, so nobody reads it; a rejected proposal is read only on
/// the review routes, never here; a quarantined one (PENDING, INBOUND-PENDING) only by a
/// human, who reviews it. Superseded memories stay readable: they are history, not secrets.
pub fn may_read(reader: Author, memory: &Memory) -> bool {
    match memory.status {
        Status::Forgotten | Status::Rejected => false,
        Status::Active if memory.badge.is_quarantined() => reader == Author::Human,
        Status::Active | Status::Superseded => true,
    }
}

/// [`may_read`] as a SQL condition over the memories table aliased `m`, for the views a
/// `query` reads ([`crate::query`]); `human` is a boolean SQL expression saying whether the
/// reader is a human. Both backends build their views with it, and a test holds it to
/// [`may_read`] for every status and badge.
pub(crate) fn readable_sql(human: &str) -> String {
    format!(
        "(m.status = 'superseded' OR (m.status = 'active' AND (m.badge NOT IN ('pending', 'inbound_pending') OR {human})))"
    )
}

/// Whether `reader` may see the review queue (what awaits review, and decide on it).
pub fn may_review(reader: Author) -> bool {
    reader == Author::Human
}

/// The author a job started by `caller` (a review after a turn, an extraction) writes as:
/// the built-in agent when a human or the agent started it (a model's proposals are never a
/// human's own words), the caller itself otherwise, so that a job an external client or a peer
/// starts only proposes what its model answers.
pub fn job_author(caller: Author) -> Author {
    match caller {
        Author::Human | Author::Agent => Author::Agent,
        Author::Triage | Author::External | Author::Peer => caller,
    }
}

/// The badge a new memory by `author` receives.
pub fn badge_for_new(author: Author) -> Badge {
    match author {
        Author::Human | Author::Agent | Author::Triage => Badge::Native,
        Author::External => Badge::Pending,
        Author::Peer => Badge::InboundPending,
    }
}

/// The badge of a memory that would have `badge` when the safety scan held its text for review
/// (it suspected the text at its author's operating point): quarantined, so nobody but a human
/// reads it and nothing injects it until a reviewer accepts it: what would be NATIVE awaits
/// review as PENDING, what would be FOREIGN (another knowledge base's) as INBOUND-PENDING, so
/// accepting it gives the badge it would have had; what was quarantined stays as it was.
pub fn held(badge: Badge) -> Badge {
    match badge {
        Badge::Native => Badge::Pending,
        Badge::Foreign => Badge::InboundPending,
        Badge::Pending | Badge::InboundPending => badge,
    }
}

/// Who the safety scan holds an import by `importer` to: a human vouches for the file, as a
/// reviewer accepting a peer's share does, so it is scanned as the human's; anyone else's
/// import is scanned as a peer's.
pub fn import_scanned_as(importer: Author) -> Author {
    match importer {
        Author::Human => Author::Human,
        Author::Agent | Author::Triage | Author::External | Author::Peer => Author::Peer,
    }
}

/// `badge`, or [`held`] of it when the safety scan `held` the text.
pub fn held_if(held: bool, badge: Badge) -> Badge {
    if held { self::held(badge) } else { badge }
}

/// The badge an imported memory receives when `importer` imports it with the badge `exported`
/// it had in the exporting knowledge base (see the module's table). What was accepted there is
/// FOREIGN here when a human imports it (the human vouches for the file, as a reviewer accepts
/// a peer's share) and awaits review as INBOUND-PENDING otherwise; what was quarantined there
/// stays quarantined. Never NATIVE: NATIVE means written here.
pub fn badge_for_import(importer: Author, exported: Option<Badge>) -> Badge {
    match exported {
        Some(Badge::Pending) => Badge::Pending,
        Some(Badge::InboundPending) => Badge::InboundPending,
        Some(Badge::Native | Badge::Foreign) | None if importer == Author::Human => Badge::Foreign,
        Some(Badge::Native | Badge::Foreign) | None => Badge::InboundPending,
    }
}

/// What may happen when `author` asks to change (revise or forget) a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditRight {
    /// The change is made in place.
    Direct,
    /// The change is stored as a proposal with this badge, superseding the memory once a
    /// reviewer accepts it.
    Propose(Badge),
    /// The change is refused: a peer never overwrites a NATIVE memory.
    Refused,
}

/// Whether `author` may change `current` in place, only propose the change, or not at all.
pub fn edit_right(author: Author, current: &Memory) -> EditRight {
    match author {
        Author::Human => EditRight::Direct,
        Author::Agent | Author::Triage
            if current.badge == Badge::Native && current.author != Author::Human =>
        {
            EditRight::Direct
        }
        Author::Agent | Author::Triage | Author::External => EditRight::Propose(Badge::Pending),
        Author::Peer if current.badge == Badge::Native => EditRight::Refused,
        Author::Peer => EditRight::Propose(Badge::InboundPending),
    }
}

/// Whether `author` may forget `current`. Forgetting is never proposed: who may not forget
/// directly must ask the user.
pub fn may_forget(author: Author, current: &Memory) -> bool {
    edit_right(author, current) == EditRight::Direct
}

/// The badge an accepted proposal takes: FOREIGN for what a peer shared, NATIVE otherwise.
pub fn badge_when_accepted(proposal: Badge) -> Badge {
    if proposal == Badge::InboundPending {
        Badge::Foreign
    } else {
        Badge::Native
    }
}

/// Whether accepting `proposal` may supersede `replaced`: a peer's proposal never replaces a
/// NATIVE memory, whoever accepts it.
pub fn may_supersede(proposal: Badge, replaced: Badge) -> bool {
    !(proposal == Badge::InboundPending && replaced == Badge::Native)
}

/// Whether a consolidation may fold `replaced` into `survivor` (a merge) or let `survivor`
/// supersede it: only between accepted memories (a suggestion awaiting review is not yet
/// knowledge, and knowledge is never folded into one), and never a peer's memory replacing a
/// NATIVE one.
pub fn may_consolidate(survivor: Badge, replaced: Badge) -> bool {
    !(survivor.is_quarantined()
        || replaced.is_quarantined()
        || peer_over_native(survivor, replaced))
}

/// Whether letting `survivor` replace `replaced` would let a peer's accepted memory (FOREIGN)
/// replace a NATIVE one: never done, and the one consolidation step a policy cannot see (it is
/// told which memories await review, not where they came from).
pub fn peer_over_native(survivor: Badge, replaced: Badge) -> bool {
    survivor == Badge::Foreign && replaced == Badge::Native
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTHORS: [Author; 5] = [
        Author::Human,
        Author::Agent,
        Author::Triage,
        Author::External,
        Author::Peer,
    ];
    const BADGES: [Badge; 4] = [
        Badge::Native,
        Badge::Pending,
        Badge::InboundPending,
        Badge::Foreign,
    ];

    fn memory(author: Author, badge: Badge) -> Memory {
        crate::memory::sample_memory(1, "x", author, badge)
    }

    #[test]
    fn the_sql_rule_of_the_query_views_reads_what_may_read_reads() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let statuses = [
            Status::Active,
            Status::Forgotten,
            Status::Rejected,
            Status::Superseded,
        ];
        for reader in AUTHORS {
            let human = if reader == Author::Human {
                "TRUE"
            } else {
                "FALSE"
            };
            let sql = format!(
                "SELECT {} FROM (SELECT ?1 AS status, ?2 AS badge) m",
                readable_sql(human)
            );
            for badge in BADGES {
                for status in statuses {
                    let mut memory = memory(Author::Agent, badge);
                    memory.status = status;
                    let readable: bool = conn
                        .query_row(&sql, [status.as_str(), badge.as_str()], |row| row.get(0))
                        .unwrap();
                    assert_eq!(
                        readable,
                        may_read(reader, &memory),
                        "{reader:?} reading a {status:?} {badge:?} memory"
                    );
                }
            }
        }
    }

    #[test]
    fn only_trusted_authors_write_native_memories() {
        assert_eq!(badge_for_new(Author::Human), Badge::Native);
        assert_eq!(badge_for_new(Author::Agent), Badge::Native);
        assert_eq!(badge_for_new(Author::Triage), Badge::Native);
        assert_eq!(badge_for_new(Author::External), Badge::Pending);
        assert_eq!(badge_for_new(Author::Peer), Badge::InboundPending);
    }

    #[test]
    fn a_held_text_is_quarantined_and_accepting_it_gives_the_badge_it_would_have_had() {
        for badge in [
            Badge::Native,
            Badge::Pending,
            Badge::InboundPending,
            Badge::Foreign,
        ] {
            assert!(held(badge).is_quarantined(), "{badge:?}");
        }
        assert_eq!(held(Badge::Native), Badge::Pending);
        assert_eq!(held(Badge::Foreign), Badge::InboundPending);
    }

    #[test]
    fn a_human_edits_anything_in_place() {
        for author in AUTHORS {
            for badge in BADGES {
                assert_eq!(
                    edit_right(Author::Human, &memory(author, badge)),
                    EditRight::Direct
                );
            }
        }
    }

    #[test]
    fn the_agent_edits_only_native_memories_no_human_wrote() {
        for agent in [Author::Agent, Author::Triage] {
            assert_eq!(
                edit_right(agent, &memory(Author::Agent, Badge::Native)),
                EditRight::Direct
            );
            assert_eq!(
                edit_right(agent, &memory(Author::Human, Badge::Native)),
                EditRight::Propose(Badge::Pending)
            );
            assert_eq!(
                edit_right(agent, &memory(Author::Peer, Badge::Foreign)),
                EditRight::Propose(Badge::Pending)
            );
        }
    }

    #[test]
    fn an_external_client_only_proposes_and_never_forgets() {
        for author in AUTHORS {
            for badge in BADGES {
                let current = memory(author, badge);
                assert_eq!(
                    edit_right(Author::External, &current),
                    EditRight::Propose(Badge::Pending)
                );
                assert!(!may_forget(Author::External, &current));
            }
        }
    }

    #[test]
    fn a_peer_never_overwrites_a_native_memory() {
        for author in AUTHORS {
            let native = memory(author, Badge::Native);
            assert_eq!(edit_right(Author::Peer, &native), EditRight::Refused);
            assert!(!may_forget(Author::Peer, &native));
            assert!(!may_supersede(Badge::InboundPending, Badge::Native));
        }
        assert_eq!(
            edit_right(Author::Peer, &memory(Author::Peer, Badge::Foreign)),
            EditRight::Propose(Badge::InboundPending)
        );
        assert!(may_supersede(Badge::InboundPending, Badge::Foreign));
        assert!(may_supersede(Badge::Pending, Badge::Native));
    }

    #[test]
    fn consolidation_never_lets_a_peer_or_a_suggestion_replace_knowledge() {
        assert!(may_consolidate(Badge::Native, Badge::Native));
        assert!(may_consolidate(Badge::Native, Badge::Foreign));
        assert!(may_consolidate(Badge::Foreign, Badge::Foreign));
        assert!(!may_consolidate(Badge::Foreign, Badge::Native));
        for quarantined in [Badge::Pending, Badge::InboundPending] {
            for other in BADGES {
                assert!(!may_consolidate(quarantined, other));
                assert!(!may_consolidate(other, quarantined));
            }
        }
    }

    #[test]
    fn an_import_never_makes_a_memory_native_and_keeps_quarantine() {
        for importer in AUTHORS {
            for exported in BADGES.into_iter().map(Some).chain([None]) {
                let badge = badge_for_import(importer, exported);
                assert_ne!(badge, Badge::Native, "{importer:?} importing {exported:?}");
                if exported.is_some_and(Badge::is_quarantined) {
                    assert_eq!(Some(badge), exported);
                }
            }
        }
        assert_eq!(
            badge_for_import(Author::Human, Some(Badge::Native)),
            Badge::Foreign
        );
        assert_eq!(
            badge_for_import(Author::Agent, Some(Badge::Native)),
            Badge::InboundPending
        );
    }

    #[test]
    fn forgotten_and_rejected_memories_are_read_by_nobody_and_quarantined_ones_by_humans_only() {
        for reader in AUTHORS {
            for badge in BADGES {
                let mut m = memory(Author::Agent, badge);
                for status in [Status::Forgotten, Status::Rejected] {
                    m.status = status;
                    assert!(!may_read(reader, &m), "{reader:?} read a {status} memory");
                }
                m.status = Status::Active;
                assert_eq!(
                    may_read(reader, &m),
                    !badge.is_quarantined() || reader == Author::Human,
                    "{reader:?} reading an active {badge} memory"
                );
                m.status = Status::Superseded;
                assert!(may_read(reader, &m));
            }
            assert_eq!(may_review(reader), reader == Author::Human);
        }
    }

    #[test]
    fn a_job_never_writes_with_more_authority_than_its_caller() {
        for caller in AUTHORS {
            let job = job_author(caller);
            assert_ne!(job, Author::Human, "a model's words are never a human's");
            if badge_for_new(caller) != Badge::Native {
                assert_eq!(badge_for_new(job), badge_for_new(caller), "{caller:?}");
            }
        }
        assert_eq!(badge_for_new(job_author(Author::External)), Badge::Pending);
    }

    #[test]
    fn accepted_proposals_keep_where_they_came_from() {
        assert_eq!(badge_when_accepted(Badge::Pending), Badge::Native);
        assert_eq!(badge_when_accepted(Badge::InboundPending), Badge::Foreign);
    }
}
