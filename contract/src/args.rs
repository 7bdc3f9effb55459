//! The canonical records `validate` returns, one per tool and one per record kind
//! ([`ImportRecord`], [`Extraction`]).
//!
//! `validate` serialises these as its `args_json`: every field present (absent optional
//! values as `null`, defaults filled in), in declaration order, strings trimmed (except where a
//! field says otherwise), anchors as file offsets. They deserialise with `deny_unknown_fields`,
//! so a host can read canonical JSON back strictly.

use serde::{Deserialize, Serialize};

use crate::types::{Anchor, MemoryKind, Scope};

/// Canonical `remember` arguments: store a new memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Remember {
    /// The memory's text.
    pub text: String,
    /// Global or local; defaults to local when anchors are given, else global.
    pub scope: Scope,
    /// What kind of knowledge it is; defaults to fact.
    #[serde(rename = "type")]
    pub kind: MemoryKind,
    /// Where it applies, in file offsets (empty for global memories).
    pub anchors: Vec<Anchor>,
    /// Lowercase tags without `#`, first occurrence kept.
    pub tags: Vec<String>,
    /// Free-form categories.
    pub categories: Vec<String>,
    /// How sure the author is, 0 to 1; defaults to 0.8.
    pub confidence: f64,
    /// The image base the caller's addresses were relative to (0 when they were offsets).
    pub image_base: u64,
    /// The conversation thread, if any.
    pub thread: Option<String>,
}

/// Canonical `revise_memory` arguments: change fields of an existing memory. `None` leaves a
/// field unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReviseMemory {
    /// The memory to revise.
    pub id: u64,
    /// New text.
    pub text: Option<String>,
    /// New kind.
    #[serde(rename = "type")]
    pub kind: Option<MemoryKind>,
    /// New anchors, in file offsets.
    pub anchors: Option<Vec<Anchor>>,
    /// New tags.
    pub tags: Option<Vec<String>>,
    /// New categories.
    pub categories: Option<Vec<String>>,
    /// New confidence.
    pub confidence: Option<f64>,
    /// The image base the new anchors' addresses were relative to.
    pub image_base: u64,
    /// Why the memory changes.
    pub reason: Option<String>,
    /// The conversation thread, if any.
    pub thread: Option<String>,
}

/// Canonical `forget_memory` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ForgetMemory {
    /// The memory to forget.
    pub id: u64,
    /// Why.
    pub reason: Option<String>,
    /// The conversation thread, if any.
    pub thread: Option<String>,
}

/// Which scopes a recall searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecallScope {
    /// Global memories only.
    Global,
    /// Local memories only.
    Local,
    /// Both.
    Any,
}

/// Canonical `recall` arguments: search memories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Recall {
    /// Words to search for; may be empty.
    pub query: String,
    /// Which scopes to search; defaults to any.
    pub scope: RecallScope,
    /// Only memories of this kind.
    #[serde(rename = "type")]
    pub kind: Option<MemoryKind>,
    /// Only memories with all these tags.
    pub tags: Vec<String>,
    /// Only memories in these categories.
    pub categories: Vec<String>,
    /// Only memories whose anchors match this one (in file offsets).
    pub anchor: Option<Anchor>,
    /// The image base the anchor's addresses were relative to.
    pub image_base: u64,
    /// Most results, 1 to `MAX_RECALL_LIMIT`; defaults to 10.
    pub limit: u64,
    /// Results to skip; defaults to 0.
    pub offset: u64,
    /// The conversation thread, if any.
    pub thread: Option<String>,
}

/// What the `memory` tool does to a profile file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MemoryAction {
    /// Append `content`.
    Add,
    /// Replace `old_text` with `content`.
    Replace,
    /// Remove `old_text`.
    Remove,
}

/// A profile memory's file: the one the `memory` tool edits, or an import record names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MemoryTarget {
    /// USER.md.
    User,
    /// MEMORY.md.
    Memory,
    /// Today's dated note.
    Daily,
}

/// Canonical `memory` arguments: edit the profile files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MemoryEdit {
    /// What to do.
    pub action: MemoryAction,
    /// Which file.
    pub target: MemoryTarget,
    /// The new text (add, replace).
    pub content: Option<String>,
    /// The text to find (replace, remove).
    pub old_text: Option<String>,
    /// The conversation thread, if any.
    pub thread: Option<String>,
}

/// The version tag every import record carries in its `format` field.
pub const IMPORT_FORMAT: &str = "kenning-memory/1";

/// Who wrote a memory: as a store keeps it, and as an import record names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Author {
    /// The user, by hand.
    Human,
    /// The built-in agent.
    Agent,
    /// The background triage.
    Triage,
    /// An external client (an MCP or HTTP caller).
    External,
    /// A linked knowledge base sharing its findings.
    Peer,
}

/// A memory's provenance badge: as a store keeps it, and as an import record names it (the
/// exporting knowledge base's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Badge {
    /// Written there by a trusted author (or an external proposal accepted in review).
    Native,
    /// An external client's proposal awaiting review.
    Pending,
    /// A peer's share awaiting review.
    InboundPending,
    /// A peer's share accepted in review.
    Foreign,
}

/// A memory's life-cycle state: as a store keeps it, and as an import record names it (the
/// exporting knowledge base's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// In force.
    Active,
    /// Forgotten; kept for the audit trail.
    Forgotten,
    /// A proposal that review rejected.
    Rejected,
    /// Replaced by a newer memory.
    Superseded,
}

spelled!(MemoryTarget { User = "user", Memory = "memory", Daily = "daily" });
spelled!(Author { Human = "human", Agent = "agent", Triage = "triage", External = "external", Peer = "peer" });
spelled!(Badge { Native = "native", Pending = "pending", InboundPending = "inbound_pending", Foreign = "foreign" });
spelled!(Status { Active = "active", Forgotten = "forgotten", Rejected = "rejected", Superseded = "superseded" });

impl From<MemoryTarget> for crate::types::Target {
    /// What a profile entry's text is scanned as: its file.
    fn from(target: MemoryTarget) -> Self {
        match target {
            MemoryTarget::User => crate::types::Target::User,
            MemoryTarget::Memory => crate::types::Target::Memory,
            MemoryTarget::Daily => crate::types::Target::Daily,
        }
    }
}

impl Badge {
    /// How people read the badge (NATIVE, PENDING, INBOUND-PENDING, FOREIGN): in snapshots,
    /// Markdown exports and messages.
    pub fn label(self) -> &'static str {
        match self {
            Badge::Native => "NATIVE",
            Badge::Pending => "PENDING",
            Badge::InboundPending => "INBOUND-PENDING",
            Badge::Foreign => "FOREIGN",
        }
    }

    /// Whether memories with this badge stay out of prompts and recall (they await review).
    pub fn is_quarantined(self) -> bool {
        matches!(self, Badge::Pending | Badge::InboundPending)
    }
}

/// Canonical `import-record`: one memory, one line of a JSONL export (`format`
/// [`IMPORT_FORMAT`]). It describes the memory as the exporting knowledge base holds it; the
/// importer decides what provenance it gets here.
///
/// The schema `validate("import-record", ..)` checks (unknown fields are errors):
///
/// | field | required | rule |
/// | --- | --- | --- |
/// | `format` | yes | exactly `"kenning-memory/1"` ([`IMPORT_FORMAT`]) |
/// | `id` | yes | the exporter's id, an integer from 1 to 2^63 - 1 |
/// | `scope` | yes | `global` or `local` |
/// | `type` | yes | `fact`, `preference`, `context` or `conversation_summary` |
/// | `target` | no | `user`, `memory` or `daily`: a profile entry, which must be global |
/// | `day` | with `target: daily` only | a calendar date `YYYY-MM-DD`; required then |
/// | `text` | yes | 1 to 8 KiB, kept exactly as written (not trimmed; not only whitespace) |
/// | `tags`, `categories` | no | as for `remember`; default `[]` |
/// | `confidence` | yes | a number from 0 to 1 |
/// | `anchors` | no | as for `remember` (addresses relative to `image_base`); default `[]`; a local memory needs one, a global memory has none |
/// | `image_base` | no | an address; default 0 |
/// | `author` | yes | `human`, `agent`, `triage`, `external` or `peer` |
/// | `badge` | no | `native`, `pending`, `inbound_pending` or `foreign`, fitting the author: a peer's memory is `inbound_pending` or `foreign`, an external client's `pending` or `native`, anyone else's `native` |
/// | `status` | no | `active` (default), `forgotten`, `rejected` or `superseded` |
/// | `thread` | no | as for the tools |
/// | `content_hash` | no | 64 hex digits (SHA-256 of `text`), lowercased; only the form is checked |
/// | `supersedes` | no | the exporter's id of the memory this one replaced; not `id` itself |
/// | `created_at` | yes | seconds since the Unix epoch, 0 to 2^63 - 1 |
/// | `updated_at` | yes | likewise, and not before `created_at` |
///
/// Anchors are written as in a tool call (`address` keys, absolute when `image_base` is given);
/// this canonical record holds them as file offsets, like the tools' canonical arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ImportRecord {
    /// Always [`IMPORT_FORMAT`].
    pub format: String,
    /// The exporter's id of the memory (1 to 2^63 - 1); `supersedes` refers to these ids.
    pub id: u64,
    /// Global or local.
    pub scope: Scope,
    /// What kind of knowledge it is.
    #[serde(rename = "type")]
    pub kind: MemoryKind,
    /// The profile file of a profile entry (always global, never anchored).
    pub target: Option<MemoryTarget>,
    /// The date of a daily entry, `YYYY-MM-DD`; present exactly when `target` is daily.
    pub day: Option<String>,
    /// The text exactly as exported (not trimmed, so `content_hash` stays checkable).
    pub text: String,
    /// Lowercase tags without `#`, first occurrence kept.
    pub tags: Vec<String>,
    /// Free-form categories.
    pub categories: Vec<String>,
    /// How sure the author was, 0 to 1.
    pub confidence: f64,
    /// Where it applies, in file offsets (empty for global memories).
    pub anchors: Vec<Anchor>,
    /// The image base the anchors' addresses were relative to (0 when they were offsets).
    pub image_base: u64,
    /// Who wrote it.
    pub author: Author,
    /// Its badge in the exporting knowledge base, when the exporter gave one.
    pub badge: Option<Badge>,
    /// Its life-cycle state there; defaults to active.
    pub status: Status,
    /// The conversation thread it was written in, if any.
    pub thread: Option<String>,
    /// SHA-256 of `text` as 64 lowercase hex digits, when the exporter gave one. Only its form
    /// is checked here; the importer compares it with the text.
    pub content_hash: Option<String>,
    /// The exporter's id of the memory this one replaced, if any.
    pub supersedes: Option<u64>,
    /// When it was written, seconds since the Unix epoch.
    pub created_at: i64,
    /// When it last changed, seconds since the Unix epoch; never before `created_at`.
    pub updated_at: i64,
}

/// One memory a model proposes in an [`Extraction`]; checked like `remember`'s arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExtractedMemory {
    /// The memory's text.
    pub text: String,
    /// Global or local; defaults to local when anchors are given, else global.
    pub scope: Scope,
    /// What kind of knowledge it is; defaults to fact.
    #[serde(rename = "type")]
    pub kind: MemoryKind,
    /// Where it applies, in file offsets (empty for global memories).
    pub anchors: Vec<Anchor>,
    /// Lowercase tags without `#`, first occurrence kept.
    pub tags: Vec<String>,
    /// Free-form categories.
    pub categories: Vec<String>,
    /// How sure the model is, 0 to 1; defaults to 0.8.
    pub confidence: f64,
    /// The image base the anchors' addresses were relative to (0 when they were offsets).
    pub image_base: u64,
    /// Why the model proposes it, if it said.
    pub reason: Option<String>,
}

/// Canonical `extraction`: the memories a model-driven extraction step proposes after reading
/// a conversation, at most [`crate::MAX_EXTRACTION_ITEMS`] of them (none is a valid answer).
///
/// The schema `validate("extraction", ..)` checks: `{"memories": [...]}`, nothing else; each
/// item takes `remember`'s fields except `thread` (`text` required; `scope`, `type`, `anchors`,
/// `image_base`, `tags`, `categories`, `confidence` with the same rules and defaults) plus an
/// optional `reason` of up to 512 bytes. Errors name the item, such as `memories[2].text`. The
/// whole result may be [`crate::MAX_EXTRACTION_BYTES`] long.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Extraction {
    /// The proposed memories, in the model's order.
    pub memories: Vec<ExtractedMemory>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelled_as_serde<T>(all: &[T], parse: fn(&str) -> Option<T>)
    where
        T: Serialize + Copy + core::fmt::Display + PartialEq + core::fmt::Debug,
    {
        for &value in all {
            let serde = serde_json::to_value(value).unwrap();
            assert_eq!(serde.as_str(), Some(value.to_string().as_str()));
            assert_eq!(parse(&value.to_string()), Some(value));
        }
    }

    #[test]
    fn the_stored_spelling_of_every_shared_enum_is_its_serde_spelling() {
        spelled_as_serde(MemoryTarget::ALL, MemoryTarget::parse);
        spelled_as_serde(Author::ALL, Author::parse);
        spelled_as_serde(Badge::ALL, Badge::parse);
        spelled_as_serde(Status::ALL, Status::parse);
        spelled_as_serde(crate::types::Scope::ALL, crate::types::Scope::parse);
        spelled_as_serde(
            crate::types::MemoryKind::ALL,
            crate::types::MemoryKind::parse,
        );
        spelled_as_serde(
            crate::types::SubjectKind::ALL,
            crate::types::SubjectKind::parse,
        );
        let names: Vec<&str> = Badge::ALL.iter().map(|b| b.as_str()).collect();
        assert_eq!(names, Badge::NAMES);
        assert_eq!(Author::parse("Human"), None);
    }

    #[test]
    fn a_badges_label_is_its_spelling_upper_cased_with_hyphens() {
        for badge in Badge::ALL {
            assert_eq!(
                badge.label(),
                badge.as_str().replace('_', "-").to_uppercase()
            );
        }
    }
}
