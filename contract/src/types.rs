//! Plain Rust mirrors of the types of the contract's WIT (`wit/since_v0.4.0/policy.wit`,
//! `kenning:policy/types@0.4.0`).
//!
//! A policy's logic works on these, so it runs and unit-tests natively; the export glue
//! (`export.rs`) and the host's adapter per contract version convert to and from the generated
//! bindings. Where the WIT packs texts into one buffer (candidates, stored memories), these hold
//! the texts themselves; a policy reads candidates through the borrowed view of
//! [`crate::candidates`] instead. Field docs live in the WIT file, which is the contract; only what
//! differs is noted here.

use serde::{Deserialize, Serialize};

use crate::args::{Author, Badge};

/// Seconds since the Unix epoch, UTC.
pub type Timestamp = i64;

/// Identifier of a memory, chosen by the host.
pub type MemoryId = u64;

/// Where a memory applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Applies to the whole subject.
    Global,
    /// Applies to a place in the subject, named by its anchors.
    Local,
}

/// What kind of knowledge a memory holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    /// Something true about the subject.
    Fact,
    /// How the user likes things done.
    Preference,
    /// Background that helps interpret the current work.
    Context,
    /// A summary of a past conversation.
    ConversationSummary,
}

spelled!(Scope { Global = "global", Local = "local" });
spelled!(SubjectKind { Binary = "binary", Account = "account", Profile = "profile" });
spelled!(MemoryKind {
    Fact = "fact",
    Preference = "preference",
    Context = "context",
    ConversationSummary = "conversation_summary",
});

/// What a piece of text is about to become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The user profile (USER.md).
    User,
    /// The assistant's notes (MEMORY.md).
    Memory,
    /// Today's dated note.
    Daily,
    /// A global memory of a knowledge base.
    Global,
    /// A local memory of a knowledge base.
    Local,
}

/// What a knowledge base is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    /// A program under analysis.
    Binary,
    /// A chat account.
    Account,
    /// A personal profile or project.
    Profile,
}

/// A function of the subject, in file offsets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FunctionAnchor {
    /// Offset of the first byte.
    pub start: u64,
    /// Offset one past the last byte, when known.
    pub end: Option<u64>,
    /// The function's name at write time.
    pub name: String,
}

/// A half-open range of file offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OffsetRange {
    /// First offset.
    pub start: u64,
    /// One past the last offset.
    pub end: u64,
}

/// An offset and a radius around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OffsetRadius {
    /// The centre offset.
    pub offset: u64,
    /// How far still counts, in bytes.
    pub radius: u64,
}

/// Where a local memory applies; addresses are file offsets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Anchor {
    /// Inside a function.
    Function(FunctionAnchor),
    /// Inside a range.
    Range(OffsetRange),
    /// At exactly this offset.
    Address {
        /// The offset.
        offset: u64,
    },
    /// Near an offset.
    Near(OffsetRadius),
    /// Wherever this literal is referenced.
    String {
        /// The literal.
        value: String,
    },
}

/// A function of the running image, in addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LiveFunction {
    /// Address of the first byte.
    pub start: u64,
    /// Address one past the last byte.
    pub end: u64,
    /// The current name.
    pub name: String,
}

/// Where the agent is working this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Context {
    /// Now, from the host's clock.
    pub now: Timestamp,
    /// What the knowledge base is about.
    pub subject_kind: SubjectKind,
    /// Load address of the image; 0 when addresses are offsets already.
    pub image_base: u64,
    /// The cursor address.
    pub cursor: Option<u64>,
    /// The function containing the cursor.
    pub current_function: Option<LiveFunction>,
    /// Strings referenced near the cursor.
    pub referenced_strings: Vec<String>,
    /// Every known function; empty means unknown.
    pub live_functions: Vec<LiveFunction>,
    /// Every known string; empty means unknown.
    pub live_strings: Vec<String>,
    /// The query in words.
    pub query: String,
}

impl Context {
    /// An empty context at time `now`: no cursor, no query, nothing live known.
    pub fn at(now: Timestamp, subject_kind: SubjectKind) -> Self {
        Context {
            now,
            subject_kind,
            image_base: 0,
            cursor: None,
            current_function: None,
            referenced_strings: Vec::new(),
            live_functions: Vec::new(),
            live_strings: Vec::new(),
            query: String::new(),
        }
    }
}

/// A memory offered for selection, owned (as a host gathers it; a policy reads candidates as
/// [`crate::CandidateRef`]s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Candidate {
    /// The memory's id.
    pub id: MemoryId,
    /// Global or local.
    pub scope: Scope,
    /// Its kind.
    pub kind: MemoryKind,
    /// Who wrote it (a peer when a record leaves it out: the least trusted).
    #[serde(default = "least_trusted_author")]
    pub author: Author,
    /// Its provenance badge (FOREIGN when a record leaves it out).
    #[serde(default = "least_trusted_badge")]
    pub badge: Badge,
    /// The text, or a prefix long enough for the budget.
    pub text: String,
    /// Tags without `#`.
    pub tags: Vec<String>,
    /// 0 to 1.
    pub confidence: f32,
    /// When written.
    pub created_at: Timestamp,
    /// When last changed.
    pub updated_at: Timestamp,
    /// Where it applies.
    pub anchors: Vec<Anchor>,
    /// The host's BM25 relevance, larger is better, 0 for none.
    pub lexical_score: f32,
}

/// The author a candidate record without one is read as: the least trusted.
fn least_trusted_author() -> Author {
    Author::Peer
}

/// The badge a candidate record without one is read as: FOREIGN, the least trusted of those
/// the host injects.
fn least_trusted_badge() -> Badge {
    Badge::Foreign
}

/// Quotas and budgets for one selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Limits {
    /// Most local memories.
    pub local_quota: u32,
    /// Most global memories.
    pub global_quota: u32,
    /// Most tokens in the snapshot.
    pub token_budget: u32,
    /// Most bytes in the snapshot.
    pub max_snapshot_bytes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            local_quota: 6,
            global_quota: 6,
            token_budget: 1200,
            max_snapshot_bytes: 8192,
        }
    }
}

/// The parts of a score.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScoreParts {
    /// Anchor match, 0 to 1.
    pub anchor: f32,
    /// Normalised lexical relevance, 0 to 1.
    pub lexical: f32,
    /// Confidence, 0 to 1.
    pub confidence: f32,
    /// Freshness, 0 to 1.
    pub recency: f32,
    /// The combined ranking score.
    pub total: f32,
}

/// Snapshot section of a chosen memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// A binary's global memories.
    Global,
    /// A binary's local memories.
    Local,
    /// An account's facts.
    Facts,
    /// An account's preferences.
    Preferences,
    /// An account's context.
    Context,
    /// Past conversations.
    Conversations,
}

/// A chosen memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Chosen {
    /// One of the candidates' ids.
    pub id: MemoryId,
    /// Where it is rendered.
    pub section: Section,
    /// Why it ranked where it did.
    pub score: ScoreParts,
}

/// Why a candidate was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Its scope's quota was full.
    Quota,
    /// It did not fit in the token budget.
    Budget,
    /// It nearly repeats a chosen memory.
    Duplicate,
    /// An anchor no longer matches the live subject.
    Stale,
    /// Nothing about it matches.
    Irrelevant,
}

/// A candidate left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rejected {
    /// The memory's id.
    pub id: MemoryId,
    /// Why.
    pub reason: RejectReason,
    /// Its score.
    pub score: ScoreParts,
}

/// The outcome of one selection.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Selection {
    /// Chosen, in render order.
    pub chosen: Vec<Chosen>,
    /// Every other candidate.
    pub rejected: Vec<Rejected>,
    /// The rendered snapshot.
    pub snapshot: String,
    /// The snapshot's estimated tokens.
    pub snapshot_tokens: u32,
}

/// Text to scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScanItem {
    /// The text.
    pub text: String,
    /// What it is about to become.
    pub target: Target,
    /// Who asks to store it: the scan holds each author to its own operating point.
    pub author: Author,
}

/// What to do with a scanned text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Store as is.
    Allow,
    /// Store the returned, redacted text.
    Redact,
    /// Do not store.
    Block,
    /// Store the returned text only in quarantine, for a reviewer to accept or reject.
    Hold,
}

/// Something a scan found.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    /// What was found.
    pub kind: String,
    /// Byte offset of the first byte in the input.
    pub start: u32,
    /// Byte offset one past the last byte in the input.
    pub end: u32,
}

/// The outcome of scanning one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScanResult {
    /// What to do.
    pub verdict: Verdict,
    /// The text as stored; empty when blocked.
    pub text: String,
    /// Findings in input order.
    pub findings: Vec<Finding>,
    /// Why blocked or held; on a text allowed or redacted, what the scan suspects in it that
    /// was not enough to hold it (the text is kept, marked).
    pub reason: Option<String>,
}

/// A problem with one field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FieldError {
    /// The field path, such as `anchors[0].start`; empty for the whole value.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl FieldError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A tool call that passed validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedCall {
    /// The tool's name.
    pub tool: String,
    /// Canonical JSON arguments.
    pub args_json: String,
}

/// What a policy implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// `validate`.
    Validate,
    /// `scan`.
    Scan,
    /// `score`.
    Score,
    /// `select`.
    Select,
    /// `consolidate` (contract 0.2.0 and later).
    Consolidate,
}

/// Who a policy is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PolicyInfo {
    /// Name.
    pub name: String,
    /// The policy's own version.
    pub version: String,
    /// The contract version it was built against.
    pub contract_version: String,
    /// What it implements.
    pub capabilities: Vec<Capability>,
    /// Recommended limits.
    pub default_limits: Limits,
}

/// A stored memory as consolidation sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StoredMemory {
    /// The memory's id.
    pub id: MemoryId,
    /// Global or local.
    pub scope: Scope,
    /// What kind of knowledge it is.
    pub kind: MemoryKind,
    /// The profile file it belongs to (`user`, `memory` or `daily`), if it is a profile entry.
    pub target: Option<Target>,
    /// The day of a daily note, `YYYY-MM-DD`.
    pub day: Option<String>,
    /// The text.
    pub text: String,
    /// `#tag` tokens, without the `#`.
    pub tags: Vec<String>,
    /// How sure the author was, from 0 to 1.
    pub confidence: f32,
    /// When it was written.
    pub created_at: Timestamp,
    /// When it was last changed.
    pub updated_at: Timestamp,
    /// Where it applies (empty for global memories).
    pub anchors: Vec<Anchor>,
    /// Whether it awaits review: a suggestion, not yet knowledge.
    pub pending: bool,
}

/// How long what is not permanent is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Retention {
    /// Suggestions awaiting review expire after this many days.
    pub pending_days: u32,
    /// Daily notes older than this many days expire (`user` and `memory` entries never do).
    pub daily_days: u32,
}

impl Default for Retention {
    /// The personal assistant's defaults: suggestions for 14 days, daily notes for 180.
    fn default() -> Self {
        Retention {
            pending_days: 14,
            daily_days: 180,
        }
    }
}

/// Near-duplicates folded into one: `keep` stays, each of `duplicates` is superseded by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Merge {
    /// The memory that stays.
    pub keep: MemoryId,
    /// The memories it replaces.
    pub duplicates: Vec<MemoryId>,
    /// Why, in words.
    pub reason: String,
}

/// A newer memory contradicts an older one: the older is kept, marked superseded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Supersession {
    /// The memory that stays.
    pub newer: MemoryId,
    /// The memory it contradicts.
    pub older: MemoryId,
    /// Why, in words.
    pub reason: String,
}

/// A memory past its retention.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Expiry {
    /// The memory that expires.
    pub id: MemoryId,
    /// Why, in words.
    pub reason: String,
}

/// What a consolidation would change; the host checks it before applying it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsolidationPlan {
    /// Near-duplicates to fold.
    pub merges: Vec<Merge>,
    /// Contradictions to resolve in favour of the newer memory.
    pub supersessions: Vec<Supersession>,
    /// Memories past their retention.
    pub expiries: Vec<Expiry>,
}
