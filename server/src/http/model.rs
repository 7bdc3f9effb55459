//! The HTTP API's own request and response shapes: the chat platform's field names
//! (`content`, `memory_type`, `confidence_score`, `memory_id`, `source_thread_id`) and RFC 3339
//! times over the service's types, the same in every answer (list, get, search, context,
//! stats). Conversions only: every rule stays in the service and the policy.

use kenning_contract::types::{Anchor, MemoryKind, Scope};
use kenning_contract::types::{RejectReason, ScoreParts, Section};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use kenning::api::{
    Address, AnchorArg, CATEGORY_PATTERN, ContextResult, Recalled, RememberArgs, ReviseMemoryArgs,
    TAG_PATTERN, THREAD_PATTERN,
};
use kenning::memory::Memory;
use kenning::metadata::Metadata;
use kenning::service::governance::{InReview, ListStatus, MemoryPage};
use kenning::settings::Settings;
use kenning::time::rfc3339;
use kenning_contract::args::{Author, Badge, MemoryTarget, Status};

/// Where a memory applies and how it is filed: kenning's own keys (`scope`, `tags`,
/// `categories`, `anchors`, `image_base`, `thread`), read as such, and any others, free-form
/// (`project`, `technology`), kept as the memory's metadata and returned as given
/// ([`kenning::metadata`]).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[schemars(extend(
    "propertyNames" = {"pattern": kenning::metadata::KEY_PATTERN},
    "maxProperties" = kenning::metadata::MAX_KEYS + 6
))]
pub struct MemoryMetadata {
    /// `global` (the whole subject) or `local` (where its anchors point); defaults to local
    /// when anchors are given, else global. Only when creating.
    #[serde(default)]
    pub scope: Option<Scope>,
    /// Tags (up to 32), `#` optional.
    #[serde(default)]
    #[schemars(length(max = 32), inner(regex(pattern = TAG_PATTERN)))]
    pub tags: Option<Vec<String>>,
    /// Free categories (up to 16).
    #[serde(default)]
    #[schemars(length(max = 16), inner(regex(pattern = CATEGORY_PATTERN)))]
    pub categories: Option<Vec<String>>,
    /// Where a local memory applies (up to 16).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub anchors: Option<Vec<AnchorArg>>,
    /// The image base the anchors' addresses are relative to (0: file offsets).
    #[serde(default)]
    pub image_base: Option<Address>,
    /// The conversation thread it comes from, whose settings apply.
    #[serde(default)]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
    /// Every other key: free-form, kept and returned as given (up to 32 keys and 2 KiB of
    /// JSON; their strings are scanned, and a secret or a planted instruction refuses the
    /// write).
    #[serde(flatten)]
    pub free_form: Metadata,
}

impl MemoryMetadata {
    /// The free-form keys, `None` when there are none.
    fn free_form(&mut self) -> Option<Metadata> {
        (!self.free_form.is_empty()).then(|| std::mem::take(&mut self.free_form))
    }
}

/// `POST memories`: a new memory.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMemory {
    /// The memory's text, up to 8 KiB of UTF-8. Secrets are redacted and planted
    /// instructions refused.
    #[schemars(length(min = 1))]
    pub content: String,
    /// fact, preference, context or conversation_summary; defaults to fact.
    #[serde(default)]
    pub memory_type: Option<MemoryKind>,
    /// How sure the author is, 0 to 1; defaults to 0.8.
    #[serde(default)]
    pub confidence_score: Option<f64>,
    /// Scope, tags, categories, anchors, image base and thread.
    #[serde(default)]
    pub metadata: Option<MemoryMetadata>,
}

impl CreateMemory {
    /// The `remember` call, and the free-form metadata kept beside it.
    pub fn into_parts(self) -> (RememberArgs, Option<Metadata>) {
        let body = self;
        let mut metadata = body.metadata.unwrap_or_default();
        let free_form = metadata.free_form();
        let args = RememberArgs {
            text: body.content,
            scope: metadata.scope,
            kind: body.memory_type,
            anchors: metadata.anchors,
            tags: metadata.tags,
            categories: metadata.categories,
            confidence: body.confidence_score,
            image_base: metadata.image_base,
            thread: metadata.thread,
        };
        (args, free_form)
    }
}

/// `PATCH memories/{id}`: the fields to change; absent ones stay as they are.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateMemory {
    /// New text.
    #[serde(default)]
    pub content: Option<String>,
    /// New type.
    #[serde(default)]
    pub memory_type: Option<MemoryKind>,
    /// New confidence, 0 to 1.
    #[serde(default)]
    pub confidence_score: Option<f64>,
    /// New tags, categories, anchors (with their image base) or thread; a scope cannot change.
    #[serde(default)]
    pub metadata: Option<MemoryMetadata>,
    /// Why it changes (kept in the audit log).
    #[serde(default)]
    pub reason: Option<String>,
}

impl UpdateMemory {
    /// The `revise_memory` call for memory `id`, and the free-form metadata that replaces the
    /// memory's, if any; a scope in the metadata is refused.
    pub fn into_args(
        self,
        id: u64,
    ) -> Result<(ReviseMemoryArgs, Option<Metadata>), (&'static str, &'static str)> {
        let mut metadata = self.metadata.unwrap_or_default();
        let free_form = metadata.free_form();
        if metadata.scope.is_some() {
            return Err((
                "metadata.scope",
                "a memory's scope cannot change; forget it and create another",
            ));
        }
        let args = ReviseMemoryArgs {
            id,
            text: self.content,
            kind: self.memory_type,
            anchors: metadata.anchors,
            tags: metadata.tags,
            categories: metadata.categories,
            confidence: self.confidence_score,
            image_base: metadata.image_base,
            reason: self.reason,
            thread: metadata.thread,
        };
        Ok((args, free_form))
    }
}

/// The request's name for a field the service names `path` (`text` is `content`, `tags[0]`
/// is `metadata.tags[0]`).
pub fn memory_field(path: &str) -> String {
    let (head, rest) = match path.find(['.', '[']) {
        Some(at) => path.split_at(at),
        None => (path, ""),
    };
    let renamed = match head {
        "text" => "content",
        "type" => "memory_type",
        "confidence" => "confidence_score",
        "scope" | "tags" | "categories" | "anchors" | "image_base" | "thread" => {
            return format!("metadata.{head}{rest}");
        }
        other => other,
    };
    format!("{renamed}{rest}")
}

/// A memory as the API lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ListedMemory {
    /// Its id.
    pub memory_id: u64,
    /// Its text.
    pub content: String,
    /// fact, preference, context or conversation_summary.
    pub memory_type: MemoryKind,
    /// 0 to 1.
    pub confidence_score: f32,
    /// The conversation thread it came from, if any.
    pub source_thread_id: Option<String>,
    /// Written at, RFC 3339 in UTC.
    pub created_at: String,
    /// Last changed at, RFC 3339 in UTC.
    pub updated_at: String,
    /// global or local.
    pub scope: Scope,
    /// Where a local memory applies (addresses as file offsets).
    pub anchors: Vec<Anchor>,
    /// The image base its anchors were written against.
    pub image_base: u64,
    /// Tags.
    pub tags: Vec<String>,
    /// Categories.
    pub categories: Vec<String>,
    /// Who wrote it.
    pub author: Author,
    /// Its provenance: native, pending, inbound_pending or foreign.
    pub badge: Badge,
    /// active, forgotten, rejected or superseded.
    pub status: Status,
    /// The profile file it belongs to, for profile memories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<MemoryTarget>,
    /// The free-form metadata it was written with, as given (`{}` when none).
    pub metadata: Metadata,
    /// For a request to forget a memory, awaiting review: that memory's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgets: Option<u64>,
}

impl From<Memory> for ListedMemory {
    fn from(m: Memory) -> Self {
        ListedMemory {
            memory_id: m.id,
            content: m.text,
            memory_type: m.kind,
            confidence_score: m.confidence,
            source_thread_id: m.thread,
            created_at: rfc3339(m.created_at),
            updated_at: rfc3339(m.updated_at),
            scope: m.scope,
            anchors: m.anchors,
            image_base: m.image_base,
            tags: m.tags,
            categories: m.categories,
            author: m.author,
            badge: m.badge,
            status: m.status,
            target: m.target,
            metadata: m.metadata.unwrap_or_default(),
            forgets: m.forgets,
        }
    }
}

/// A memory `POST search` found: a listed memory, with its relevance.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FoundMemory {
    /// The memory, in the names of a listing.
    #[serde(flatten)]
    pub memory: ListedMemory,
    /// Relevance (BM25, or the anchor score for an anchor search); larger is better.
    pub score: f32,
    /// Context smoothing brought it in: a neighbour, in its thread, of memories that hold the
    /// query's words.
    pub smoothed: bool,
}

/// `POST search`'s answer: the `recall` tool's, in the API's names.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SearchResults {
    /// How many memories this page holds.
    pub count: usize,
    /// The memories, best first.
    pub memories: Vec<FoundMemory>,
    /// The `offset` of the next page, when there are more results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    /// The query's cost budget cut its candidates: narrow the query.
    pub truncated: bool,
    /// When `truncated`: at least this many memories hold a word of the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_total: Option<u64>,
}

impl SearchResults {
    /// Keeps the leading memories that fit, with the rest of the page, in `max_bytes` of JSON
    /// (at least one), as the `recall` tool's page does in its own names (which are shorter):
    /// `next_offset` then points at the first one left out of the page that began at `offset`.
    pub fn fit(&mut self, offset: u64, max_bytes: usize) {
        kenning::api::fit_page(self, offset, max_bytes, |page| {
            (&mut page.memories, &mut page.count, &mut page.next_offset)
        });
    }
}

impl From<Recalled> for SearchResults {
    fn from(found: Recalled) -> Self {
        SearchResults {
            count: found.count,
            memories: found
                .memories
                .into_iter()
                .map(|m| FoundMemory {
                    memory: m.memory.into(),
                    score: m.score,
                    smoothed: m.smoothed,
                })
                .collect(),
            next_offset: found.next_offset,
            truncated: found.truncated,
            estimated_total: found.estimated_total,
        }
    }
}

/// A memory `POST context` chose.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChosenView {
    /// The memory's id.
    pub memory_id: u64,
    /// The snapshot section it is rendered in.
    pub section: Section,
    /// The parts of its score.
    pub score: ScoreParts,
    /// global or local.
    pub scope: Scope,
    /// The start of its text (the snapshot holds the whole).
    pub preview: String,
}

/// A candidate `POST context` left out, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RejectedView {
    /// The memory's id.
    pub memory_id: u64,
    /// quota, budget, duplicate, stale or irrelevant.
    pub reason: RejectReason,
    /// The parts of its score.
    pub score: ScoreParts,
}

/// `POST context`'s answer: the `context` tool's, in the API's names.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ContextAnswer {
    /// The rendered snapshot to place in the prompt.
    pub snapshot: String,
    /// Its estimated tokens.
    pub snapshot_tokens: u32,
    /// The memories chosen, in render order.
    pub chosen: Vec<ChosenView>,
    /// The best-scoring candidates left out.
    pub rejected: Vec<RejectedView>,
    /// How many candidates were left out in all.
    pub rejected_total: usize,
}

impl From<ContextResult> for ContextAnswer {
    fn from(context: ContextResult) -> Self {
        ContextAnswer {
            snapshot: context.snapshot,
            snapshot_tokens: context.snapshot_tokens,
            chosen: context
                .chosen
                .into_iter()
                .map(|c| ChosenView {
                    memory_id: c.id,
                    section: c.section,
                    score: c.score,
                    scope: c.scope,
                    preview: c.preview,
                })
                .collect(),
            rejected: context
                .rejected
                .into_iter()
                .map(|r| RejectedView {
                    memory_id: r.id,
                    reason: r.reason,
                    score: r.score,
                })
                .collect(),
            rejected_total: context.rejected_total,
        }
    }
}

/// `GET memories`: one page.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemoryList {
    /// The memories of this page, newest first.
    pub memories: Vec<ListedMemory>,
    /// How many memories match in all.
    pub total: u64,
    /// This page, from 1.
    pub page: u32,
    /// Most memories a page holds.
    pub limit: u32,
    /// How many pages there are.
    pub pages: u64,
}

impl From<MemoryPage> for MemoryList {
    fn from(page: MemoryPage) -> Self {
        MemoryList {
            memories: page.memories.into_iter().map(ListedMemory::from).collect(),
            total: page.total,
            page: page.page,
            limit: page.limit,
            pages: page.pages,
        }
    }
}

/// `GET memories`' query.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// The page, from 1 (default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = 4_294_967_295u32))]
    pub page: Option<u32>,
    /// Memories a page holds, 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
    /// Only memories of this type.
    #[serde(default)]
    pub memory_type: Option<MemoryKind>,
    /// Only memories carrying this tag.
    #[serde(default)]
    #[schemars(regex(pattern = TAG_PATTERN))]
    pub tag: Option<String>,
    /// Only memories whose text holds every word of this.
    #[serde(default)]
    pub q: Option<String>,
    /// accepted (default), pending or all.
    #[serde(default)]
    pub status: Option<ListStatus>,
}

/// `DELETE memories`' query: the confirmation deleting everything needs.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteAllQuery {
    /// Must be `true`: forgetting everything is never a default.
    #[schemars(extend("const" = true))]
    pub confirm: bool,
    /// The conversation thread whose settings apply.
    #[serde(default)]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// `POST memories`' answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Created {
    /// The new memory's id (the existing one's for a duplicate).
    pub memory_id: u64,
    /// accepted, pending (awaiting a human's review) or duplicate.
    pub status: kenning::api::WriteStatus,
    /// The new memory's badge (absent for a duplicate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
    /// Kinds of secrets redacted from the text before it was stored.
    pub redacted: Vec<String>,
}

/// `PUT settings`: turn memory on or off.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetEnabled {
    /// Whether memory is recalled, written and injected.
    pub enabled: bool,
}

/// The settings in force.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SettingsView {
    /// Whether memory is on: recalled, written and injected.
    pub memory_enabled: bool,
    /// Every setting in force.
    pub settings: Settings,
}

impl From<Settings> for SettingsView {
    fn from(settings: Settings) -> Self {
        SettingsView {
            memory_enabled: settings.memory_enabled(),
            settings,
        }
    }
}

/// `GET review`: what awaits a human's decision.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReviewList {
    /// How many.
    pub count: usize,
    /// The memories, oldest first.
    pub memories: Vec<ExplainedMemory>,
}

/// A memory with why it was written as it was (awaiting review, or read alone by a human).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExplainedMemory {
    /// The memory.
    #[serde(flatten)]
    pub memory: ListedMemory,
    /// The detail of its first audit event, when it has one: what the safety scan held it for
    /// ("held for review: ..."), a proposal's reason, the file an import read it from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl From<InReview> for ExplainedMemory {
    fn from(m: InReview) -> Self {
        ExplainedMemory {
            memory: m.memory.into(),
            why: m.why,
        }
    }
}

/// `GET /v1/token`: what the request's token grants (never the token itself).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TokenView {
    /// The token's public id (`kenning token revoke ID`).
    pub id: String,
    /// human, agent or external: the author of its writes; only human tokens review.
    pub role: String,
    /// How many subjects it reaches.
    pub subject_count: usize,
    /// The subjects it reaches, by the spec URLs name them with, in the order it was given
    /// them (the first [`TOKEN_VIEW_SUBJECTS`] of them).
    pub subjects: Vec<String>,
}

/// Most subjects [`TokenView`] lists: a token may reach thousands.
pub const TOKEN_VIEW_SUBJECTS: usize = 1000;

/// `GET /v1/ready`, when the server can serve.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Ready {
    /// Always `ready` (otherwise the answer is a 503 error).
    pub status: &'static str,
}

/// `GET /v1/health`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: &'static str,
    /// The server's version.
    pub version: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_field_paths_are_renamed_to_the_requests_own() {
        assert_eq!(memory_field("text"), "content");
        assert_eq!(memory_field("type"), "memory_type");
        assert_eq!(memory_field("confidence"), "confidence_score");
        assert_eq!(memory_field("tags[2]"), "metadata.tags[2]");
        assert_eq!(memory_field("anchors[0].name"), "metadata.anchors[0].name");
        assert_eq!(memory_field("reason"), "reason");
        assert_eq!(memory_field(""), "");
    }
}
