//! A memory as every layer sees it: the value the store reads back, the service returns and
//! the doors render ([`Memory`]), the filter that picks memories out ([`MemoryFilter`]), and
//! the hash stored with its text ([`content_hash`]). Below the store and the API alike, so that
//! neither the doors nor the rules reach into the store for it.

use kenning_contract::args::{Author, Badge, MemoryTarget, Status};
use kenning_contract::types::{Anchor, MemoryKind, Scope};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::metadata::Metadata;

/// A stored memory.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Memory {
    /// Its id.
    pub id: u64,
    /// Global or local.
    pub scope: Scope,
    /// Its kind.
    #[serde(rename = "type")]
    pub kind: MemoryKind,
    /// The profile target, for profile memories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<MemoryTarget>,
    /// The day of a daily note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// The text.
    pub text: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Categories.
    pub categories: Vec<String>,
    /// Confidence.
    pub confidence: f32,
    /// Author.
    pub author: Author,
    /// Provenance badge.
    pub badge: Badge,
    /// Life-cycle state.
    pub status: Status,
    /// Thread, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    /// SHA-256 of the text, hex.
    pub content_hash: String,
    /// Image base at write time.
    pub image_base: u64,
    /// Anchors as file offsets.
    pub anchors: Vec<Anchor>,
    /// Written at.
    pub created_at: i64,
    /// Last changed at.
    pub updated_at: i64,
    /// Free-form metadata its writer gave, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    /// For a proposal to forget a memory: that memory's id, forgotten when a reviewer accepts
    /// the proposal. (Such a proposal is a request, not knowledge: its text only says what it
    /// asks.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forgets: Option<u64>,
}

impl Memory {
    /// Whether it was forgotten for good (the store's forget): its text is gone and only
    /// its id, times and content hash remain. (A daily note archived by retention is forgotten
    /// with its text kept.)
    pub fn is_erased(&self) -> bool {
        self.status == Status::Forgotten && self.text.is_empty()
    }
}

/// A memory about to be written.
#[derive(Debug, Clone)]
pub struct NewMemory {
    /// Global or local.
    pub scope: Scope,
    /// Fact, preference, ...
    pub kind: MemoryKind,
    /// The profile file it belongs to, for profile memories.
    pub target: Option<MemoryTarget>,
    /// The date of a daily note, `YYYY-MM-DD`.
    pub day: Option<String>,
    /// The (already scanned) text.
    pub text: String,
    /// Lowercase tags without `#`.
    pub tags: Vec<String>,
    /// Free categories.
    pub categories: Vec<String>,
    /// 0 to 1.
    pub confidence: f32,
    /// Who wrote it.
    pub author: Author,
    /// The thread it was written in, if any.
    pub thread: Option<String>,
    /// Anchors as file offsets.
    pub anchors: Vec<Anchor>,
    /// The image base the anchors were written against.
    pub image_base: u64,
    /// Free-form metadata its writer gave (checked and scanned: [`crate::metadata`]).
    pub metadata: Option<Metadata>,
}

impl NewMemory {
    /// A global fact by `author` holding `text` and nothing more: no profile file, day, tags,
    /// categories, thread, anchors or metadata, confidence 1. A writer sets what it has on top
    /// (`NewMemory { tags, ..NewMemory::new(author, text) }`), so that a field added to a memory
    /// is left empty by every writer that does not know it.
    pub fn new(author: Author, text: String) -> NewMemory {
        NewMemory {
            scope: Scope::Global,
            kind: MemoryKind::Fact,
            target: None,
            day: None,
            text,
            tags: Vec::new(),
            categories: Vec::new(),
            confidence: 1.0,
            author,
            thread: None,
            anchors: Vec::new(),
            image_base: 0,
            metadata: None,
        }
    }
}

/// What a stored memory holds, to be written again (a revision, a copy): every field but its
/// id and how its row stands, so that a field added to a memory is carried over by every
/// writer that starts from one.
impl From<&Memory> for NewMemory {
    fn from(memory: &Memory) -> NewMemory {
        NewMemory {
            scope: memory.scope,
            kind: memory.kind,
            target: memory.target,
            day: memory.day.clone(),
            text: memory.text.clone(),
            tags: memory.tags.clone(),
            categories: memory.categories.clone(),
            confidence: memory.confidence,
            author: memory.author,
            thread: memory.thread.clone(),
            anchors: memory.anchors.clone(),
            image_base: memory.image_base,
            metadata: memory.metadata.clone(),
        }
    }
}

/// The content hash stored with a memory: SHA-256 of its text, hex.
pub fn content_hash(text: &str) -> String {
    crate::hex::lower(&Sha256::digest(text.as_bytes()))
}

/// A filter for listing and searching memories.
#[derive(Debug, Clone, Default)]
pub struct MemoryFilter {
    /// Words to match with the full-text index; empty for all.
    pub query: String,
    /// Only this scope.
    pub scope: Option<Scope>,
    /// Only this kind.
    pub kind: Option<MemoryKind>,
    /// Only memories carrying every one of these tags.
    pub tags: Vec<String>,
    /// Only memories in every one of these categories.
    pub categories: Vec<String>,
    /// Only this profile target.
    pub target: Option<MemoryTarget>,
    /// Include quarantined (pending) memories; recall and inject never set this.
    pub include_quarantined: bool,
    /// Only quarantined memories (those awaiting review); implies `include_quarantined`.
    pub only_quarantined: bool,
    /// At most this many.
    pub limit: u32,
    /// Skip this many.
    pub offset: u32,
    /// Most matches the query's BM25 scores (`None`: the budget of recall); the
    /// commonest query words are left out beyond it (see the store's search plan).
    pub posting_budget: Option<usize>,
    /// Run the query's feedback round (the rare words of its best hits searched too; see the
    /// store's ranking rounds): recall sets it; a turn's candidates do without, as it would
    /// double their cost.
    pub feedback: bool,
}

/// A memory for tests: global, active, written by `author` with `badge`.
#[cfg(test)]
pub(crate) fn sample_memory(id: u64, text: &str, author: Author, badge: Badge) -> Memory {
    Memory {
        id,
        scope: Scope::Global,
        kind: MemoryKind::Fact,
        target: None,
        day: None,
        text: text.to_owned(),
        tags: vec![],
        categories: vec![],
        confidence: 1.0,
        author,
        badge,
        status: Status::Active,
        thread: None,
        content_hash: content_hash(text),
        image_base: 0,
        anchors: vec![],
        created_at: 0,
        updated_at: 0,
        metadata: None,
        forgets: None,
    }
}
