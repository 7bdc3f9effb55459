//! The canonical argument records `validate` returns, one per tool.
//!
//! `validate` serialises these as its `args_json`: every field present (absent optional
//! values as `null`, defaults filled in), in declaration order, strings trimmed, anchors as
//! file offsets. They deserialise with `deny_unknown_fields`, so a host can read canonical JSON
//! back strictly.

use serde::{Deserialize, Serialize};

use crate::types::{Anchor, MemoryKind, Scope};

/// Canonical `remember` arguments: store a new memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[serde(rename_all = "snake_case")]
pub enum MemoryAction {
    /// Append `content`.
    Add,
    /// Replace `old_text` with `content`.
    Replace,
    /// Remove `old_text`.
    Remove,
}

/// Which profile file the `memory` tool edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
