//! The rows of a knowledge base as Rust values.

use kenning_contract::types::{Anchor, FunctionAnchor, OffsetRadius, OffsetRange, Scope};
use serde::Serialize;

// The shared vocabulary is the contract's, defined there once: who wrote a memory, its badge,
// its life-cycle state and its profile file.
pub use kenning_contract::args::{Author, Badge, MemoryTarget, Status};
// A memory as every layer sees it is the core's.
#[cfg(test)]
pub(crate) use crate::memory::sample_memory;
pub use crate::memory::{Memory, NewMemory, content_hash};

pub use crate::metadata::Metadata;

/// Where a stored memory is placed: its scope (as stored), profile target, day and anchors.
pub type StoredPlacement = (String, Option<MemoryTarget>, Option<String>, Vec<Anchor>);

/// An imported memory as it is stored: its (scanned) content, the badge this knowledge base
/// gives it, and the state and times the export carried.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The memory; its text is already scanned.
    pub memory: NewMemory,
    /// SHA-256 of `memory.text`, hex.
    pub content_hash: String,
    /// The badge given here (see [`crate::provenance::badge_for_import`]).
    pub badge: Badge,
    /// The life-cycle state the export carried.
    pub status: Status,
    /// When it was first written, as exported.
    pub created_at: i64,
    /// When it last changed, as exported.
    pub updated_at: i64,
}

/// An audit event as it is read back (`kenning log`, `GET .../log`): both backends answer
/// with this shape.
#[derive(Debug, Clone, Serialize)]
pub struct LoggedEvent {
    /// Its place in the log.
    pub id: i64,
    /// When, in seconds since the epoch.
    pub at: i64,
    /// Who.
    pub actor: String,
    /// What.
    pub action: String,
    /// The memory it is about, if any.
    pub memory_id: Option<i64>,
    /// Content hash before.
    pub before_hash: Option<String>,
    /// Content hash after.
    pub after_hash: Option<String>,
    /// Free detail.
    pub detail: Option<String>,
}

impl LoggedEvent {
    /// As JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("an event serialises")
    }
}

/// An anchor as both backends store it: its kind and the columns `start`, `end`, `radius`,
/// `name` and `value`, each used by some kinds only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnchorRow<'a> {
    /// `function`, `range`, `address`, `near` or `string`.
    pub kind: &'a str,
    /// The offset, or the first offset of a span.
    pub start: Option<i64>,
    /// The end of a span.
    pub end: Option<i64>,
    /// The radius of a `near` anchor.
    pub radius: Option<i64>,
    /// A function's name.
    pub name: Option<&'a str>,
    /// A string anchor's literal.
    pub value: Option<&'a str>,
}

impl<'a> AnchorRow<'a> {
    /// The columns storing `anchor`.
    pub fn of(anchor: &'a Anchor) -> AnchorRow<'a> {
        let row = |kind| AnchorRow {
            kind,
            start: None,
            end: None,
            radius: None,
            name: None,
            value: None,
        };
        match anchor {
            Anchor::Function(f) => AnchorRow {
                start: Some(f.start as i64),
                end: f.end.map(|e| e as i64),
                name: Some(&f.name),
                ..row("function")
            },
            Anchor::Range(r) => AnchorRow {
                start: Some(r.start as i64),
                end: Some(r.end as i64),
                ..row("range")
            },
            Anchor::Address { offset } => AnchorRow {
                start: Some(*offset as i64),
                ..row("address")
            },
            Anchor::Near(n) => AnchorRow {
                start: Some(n.offset as i64),
                radius: Some(n.radius as i64),
                ..row("near")
            },
            Anchor::String { value } => AnchorRow {
                value: Some(value),
                ..row("string")
            },
        }
    }

    /// The anchor these columns store.
    pub fn anchor(&self) -> Anchor {
        let start = self.start.unwrap_or(0) as u64;
        let end = self.end.map(|e| e as u64);
        match self.kind {
            "function" => Anchor::Function(FunctionAnchor {
                start,
                end,
                name: self.name.unwrap_or_default().to_owned(),
            }),
            "range" => Anchor::Range(OffsetRange {
                start,
                end: end.unwrap_or(start),
            }),
            "address" => Anchor::Address { offset: start },
            "near" => Anchor::Near(OffsetRadius {
                offset: start,
                radius: self.radius.unwrap_or(0) as u64,
            }),
            _ => Anchor::String {
                value: self.value.unwrap_or_default().to_owned(),
            },
        }
    }
}

/// An audit event to append with a write.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    /// Who did it (an author name, or `reviewer`).
    pub actor: &'a str,
    /// What was done: add, replace, remove, revise, forget, accept, reject, import.
    pub action: &'a str,
    /// Content hash before the change.
    pub before_hash: Option<&'a str>,
    /// Content hash after the change.
    pub after_hash: Option<&'a str>,
    /// Free detail (a reason, a thread).
    pub detail: Option<&'a str>,
}

/// Where a new memory would be placed, for duplicate detection: its scope, its profile file
/// and day (profile entries), and its anchors.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    /// Global or local.
    pub scope: Scope,
    /// The profile file and the day of a daily note, for profile entries.
    pub profile: Option<(MemoryTarget, Option<&'a str>)>,
    /// The anchors, as file offsets.
    pub anchors: &'a [Anchor],
}

/// How a backend's pool of connections is used (a database's; SQLite files pool none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections open (idle or in use).
    pub open: u32,
    /// Of those, idle.
    pub idle: u32,
    /// Most it keeps open.
    pub max: u32,
}
