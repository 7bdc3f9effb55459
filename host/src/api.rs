//! The service's typed requests and responses, and the one list of tools.
//!
//! Every interface speaks these shapes: the CLI's JSON output, the MCP server's tool schemas
//! and results, and (later) the HTTP API. Their JSON Schemas are generated from the same types
//! ([`input_schema`], [`output_schema`]) and are closed (`additionalProperties: false`) like the
//! policy's own validation, which stays the authority: a request is always serialised and
//! checked by the policy's `validate` before the host acts on it.

use std::borrow::Cow;

use kenning_contract::types::{MemoryKind, RejectReason, Scope, ScoreParts, Section};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::{Badge, Memory, MemoryTarget};

/// An address: an integer, or a string in hex (`0x401000`) or decimal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Address {
    /// A number.
    Number(u64),
    /// `0x...` hex or decimal digits.
    Text(String),
}

impl From<u64> for Address {
    fn from(value: u64) -> Self {
        Address::Number(value)
    }
}

impl JsonSchema for Address {
    fn schema_name() -> Cow<'static, str> {
        "Address".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An address: an integer, or a string in hex (0x401000) or decimal.",
            "anyOf": [
                {"type": "integer", "minimum": 0, "maximum": u64::MAX},
                {"type": "string", "pattern": "^\\s*(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20})\\s*$"}
            ]
        })
    }
}

/// An anchor as a caller writes it: addresses of the running image (rebased with the call's
/// `image_base`), or file offsets when `image_base` is 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnchorArg {
    /// Inside a function.
    Function {
        /// The function's name.
        #[schemars(length(min = 1, max = 256))]
        name: String,
        /// Its first address.
        start: Address,
        /// One past its last address.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<Address>,
    },
    /// Inside an address range.
    Range {
        /// The first address.
        start: Address,
        /// One past the last address.
        end: Address,
    },
    /// At exactly this address.
    Address {
        /// The address.
        address: Address,
    },
    /// Within `radius` bytes of an address.
    Near {
        /// The centre.
        address: Address,
        /// How far still counts, 1 to 1 MiB.
        #[schemars(range(min = 1, max = 1048576))]
        radius: u64,
    },
    /// Wherever this string literal is referenced (kept exactly as written).
    String {
        /// The literal.
        #[schemars(length(min = 1, max = 512))]
        value: String,
    },
}

/// A tag: `#` optional, then 1 to 64 of `A-Z a-z 0-9 _ . : / -`; stored lowercase.
pub const TAG_PATTERN: &str = "^#?[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,63}$";
/// A category: 1 to 64 characters (and bytes), none of them a control character.
pub const CATEGORY_PATTERN: &str = "^[^\\x00-\\x1F\\x7F-\\x9F]{1,64}$";
/// A thread id: 1 to 128 of `A-Z a-z 0-9 _ . : -`.
pub const THREAD_PATTERN: &str = "^[A-Za-z0-9_.:-]{1,128}$";

/// `remember`: store a new memory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RememberArgs {
    /// The memory's text, up to 8 KiB of UTF-8. Secrets are redacted and planted
    /// instructions refused.
    #[schemars(length(min = 1, max = 8192))]
    pub text: String,
    /// `global` (the whole subject) or `local` (where its anchors point); defaults to local
    /// when anchors are given, else global.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// fact, preference, context or conversation_summary; defaults to fact.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MemoryKind>,
    /// Where a local memory applies (up to 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 16))]
    pub anchors: Option<Vec<AnchorArg>>,
    /// Tags (up to 32).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 32), inner(regex(pattern = TAG_PATTERN)))]
    pub tags: Option<Vec<String>>,
    /// Free categories (up to 16, 1 to 64 bytes each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 16), inner(regex(pattern = CATEGORY_PATTERN)))]
    pub categories: Option<Vec<String>>,
    /// How sure the author is, 0 to 1; defaults to 0.8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// The image base the anchors' addresses are relative to (0: they are file offsets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_base: Option<Address>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// `revise_memory`: change fields of a memory; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviseMemoryArgs {
    /// The memory's id.
    #[schemars(range(min = 1))]
    pub id: u64,
    /// New text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 8192))]
    pub text: Option<String>,
    /// New kind.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MemoryKind>,
    /// New anchors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 16))]
    pub anchors: Option<Vec<AnchorArg>>,
    /// New tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 32), inner(regex(pattern = TAG_PATTERN)))]
    pub tags: Option<Vec<String>>,
    /// New categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 16), inner(regex(pattern = CATEGORY_PATTERN)))]
    pub categories: Option<Vec<String>>,
    /// New confidence, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// The image base the new anchors' addresses are relative to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_base: Option<Address>,
    /// Why the memory changes (kept in the audit log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 512))]
    pub reason: Option<String>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// `forget_memory`: retire a memory (it stays in the audit trail).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetMemoryArgs {
    /// The memory's id.
    #[schemars(range(min = 1))]
    pub id: u64,
    /// Why (kept in the audit log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 512))]
    pub reason: Option<String>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// Which scopes `recall` searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecallScopeArg {
    /// Global memories only.
    Global,
    /// Local memories only.
    Local,
    /// Both.
    Any,
}

/// `recall`: search accepted memories by words, tags, categories, type or anchor.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallArgs {
    /// Words to look for (BM25 over the memories' text); `#tag` tokens filter by tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 1024))]
    pub query: Option<String>,
    /// global, local or any (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<RecallScopeArg>,
    /// Only memories of this kind.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MemoryKind>,
    /// Only memories carrying all these tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 32), inner(regex(pattern = TAG_PATTERN)))]
    pub tags: Option<Vec<String>>,
    /// Only memories in all these categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 16), inner(regex(pattern = CATEGORY_PATTERN)))]
    pub categories: Option<Vec<String>>,
    /// Only memories whose anchors match this place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<AnchorArg>,
    /// The image base the anchor's addresses are relative to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_base: Option<Address>,
    /// Most memories to return, 1 to 100; defaults to 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u64>,
    /// Results to skip: the `next_offset` of the previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// What the `memory` tool does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryActionArg {
    /// Append `content` (an exact duplicate is skipped).
    Add,
    /// Replace the one entry containing `old_text` with `content`.
    Replace,
    /// Remove the one entry containing `old_text`.
    Remove,
}

/// Which profile file the `memory` tool edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryTargetArg {
    /// USER.md: who the user is and what they prefer.
    User,
    /// MEMORY.md: the agent's notes about the work.
    Memory,
    /// Today's dated note.
    Daily,
}

/// `memory`: edit a profile's USER.md, MEMORY.md or today's note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryArgs {
    /// add, replace or remove.
    pub action: MemoryActionArg,
    /// user, memory or daily.
    pub target: MemoryTargetArg,
    /// The new entry (add, replace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 8192))]
    pub content: Option<String>,
    /// Text that occurs in exactly one entry (replace, remove).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 8192))]
    pub old_text: Option<String>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// A function the caller is in: its name and address range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FunctionArg {
    /// Its current name.
    #[schemars(length(min = 1, max = 256))]
    pub name: String,
    /// Its first address.
    pub start: Address,
    /// One past its last address.
    pub end: Address,
}

/// `context`: the memories the policy selects for a place and a query, rendered for the prompt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// What the agent is asking about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 1024))]
    pub query: Option<String>,
    /// The load address of the image the addresses belong to (0: file offsets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_base: Option<Address>,
    /// The cursor address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Address>,
    /// The function containing the cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<FunctionArg>,
    /// String literals referenced near the cursor (up to 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 64), inner(length(max = 512)))]
    pub strings: Option<Vec<String>>,
    /// Most local memories, 0 to 24; defaults to 6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 24))]
    pub local_quota: Option<u32>,
    /// Most global memories, 0 to 24; defaults to 6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 24))]
    pub global_quota: Option<u32>,
    /// The snapshot's token budget, 1 to 3000; defaults to 1200.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3000))]
    pub token_budget: Option<u32>,
    /// The conversation thread, whose settings apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = THREAD_PATTERN))]
    pub thread: Option<String>,
}

/// `get_memory`: one memory by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetMemoryArgs {
    /// The memory's id.
    #[schemars(range(min = 1))]
    pub id: u64,
}

/// `recent_memories`: the accepted memories written in a time window, newest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecentMemoriesArgs {
    /// The window's start, RFC 3339 (2026-12-01T09:00:00Z) or a date (2026-12-01); defaults
    /// to 7 days before `until`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 10, max = 40))]
    pub since: Option<String>,
    /// The window's end, as `since`; defaults to now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 10, max = 40))]
    pub until: Option<String>,
    /// Only memories of this type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MemoryKind>,
    /// Most memories listed, 1 to 50; defaults to 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 50))]
    pub limit: Option<u32>,
}

/// Most memories [`RecentMemoriesArgs::limit`] lists.
pub const MAX_RECENT: u32 = 50;

/// What `recent_memories` found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RecentMemories {
    /// How many memories are listed.
    pub count: usize,
    /// The memories written in the window, newest first.
    pub memories: Vec<Memory>,
    /// More were written in the window than are listed (the limit, or the answer's size):
    /// narrow the window for the rest.
    pub truncated: bool,
    /// The window's start, RFC 3339.
    pub since: String,
    /// The window's end, RFC 3339.
    pub until: String,
}

/// `memory_stats` takes no arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryStatsArgs {}

/// What `memory_stats` counts: the active memories (awaiting review included) unless it says
/// otherwise.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemoryStats {
    /// Active memories, awaiting review included.
    pub active: u64,
    /// Of them, how many await a human's review.
    pub awaiting_review: u64,
    /// By type: fact, preference, context, conversation_summary.
    pub by_type: std::collections::BTreeMap<String, u64>,
    /// By scope: global, local.
    pub by_scope: std::collections::BTreeMap<String, u64>,
    /// By badge: native, pending, inbound_pending, foreign.
    pub by_badge: std::collections::BTreeMap<String, u64>,
    /// Every memory ever written, by status: active, forgotten, rejected, superseded.
    pub by_status: std::collections::BTreeMap<String, u64>,
    /// When the oldest active memory was written, RFC 3339.
    pub oldest: Option<String>,
    /// When the newest active memory was written, RFC 3339.
    pub newest: Option<String>,
    /// Most memories the knowledge base keeps; absent when there is no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_memories: Option<u64>,
    /// Whether memory is on: recalled, written and injected.
    pub memory_enabled: bool,
}

/// Most strings [`ContextArgs::strings`] may list.
pub const MAX_CONTEXT_STRINGS: usize = 64;
/// Longest name of a [`FunctionArg`], in characters.
pub const MAX_FUNCTION_NAME_CHARS: usize = 256;
/// Longest string [`ContextArgs::strings`] may hold, in characters.
pub const MAX_CONTEXT_STRING_CHARS: usize = 512;
/// Largest quota [`ContextArgs`] accepts.
pub const MAX_CONTEXT_QUOTA: u32 = 24;
/// Largest token budget [`ContextArgs`] accepts.
pub const MAX_CONTEXT_TOKENS: u32 = 3000;

/// Whether a new memory or profile entry is in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteStatus {
    /// Stored and in force.
    Accepted,
    /// Stored as a proposal awaiting a human's review: not injected, not recalled until then.
    Pending,
    /// Not stored: an identical memory exists (its id is given).
    Duplicate,
    /// Stored as a proposal, and rejected at once by the human its client asked (MCP
    /// elicitation): never in force.
    Rejected,
}

/// What `remember` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Remembered {
    /// The new memory's id (the existing one's for a duplicate).
    pub id: u64,
    /// accepted, pending or duplicate.
    pub status: WriteStatus,
    /// The new memory's provenance badge (absent for a duplicate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
    /// Kinds of secrets redacted from the text before it was stored.
    pub redacted: Vec<String>,
}

/// Whether a revision took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviseStatus {
    /// Changed in place.
    Revised,
    /// Stored as a proposal (`proposal_id`) that replaces the memory once a human accepts it.
    Pending,
    /// Proposed, and rejected at once by the human its client asked (MCP elicitation): the
    /// memory stands as it was.
    Rejected,
}

/// What `revise_memory` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Revised {
    /// The memory revised.
    pub id: u64,
    /// revised or pending.
    pub status: ReviseStatus,
    /// The proposal's id, when pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal_id: Option<u64>,
    /// The proposal's badge, when pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
}

/// What a review decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// In force now (a request to forget: carried out).
    Accepted,
    /// Never used; read only on the review routes until retention erases it.
    Rejected,
}

/// What a review did (`kenning review accept|reject`, `POST review/{id}/accept|reject`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reviewed {
    /// The proposal decided on.
    pub id: u64,
    /// accepted or rejected.
    pub status: ReviewStatus,
    /// The badge it now has, when accepted (a request to forget has none: it is settled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
    /// The memory an accepted revision superseded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded: Option<u64>,
    /// The memory an accepted request to forget forgot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forgotten: Option<u64>,
}

/// Whether a forget took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForgetStatus {
    /// Forgotten for good.
    Forgotten,
    /// Asked for: stored as a proposal (`proposal_id`) that forgets the memory once a human
    /// accepts it; until then the memory stands.
    Pending,
    /// Asked for, and refused at once by the human its client asked (MCP elicitation): the
    /// memory stands.
    Rejected,
}

/// What `forget_memory` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Forgotten {
    /// The memory forgotten (or asked to be).
    pub id: u64,
    /// forgotten, pending or rejected.
    pub status: ForgetStatus,
    /// The proposal's id, when the forget awaits review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal_id: Option<u64>,
    /// The proposal's badge, when the forget awaits review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
}

/// A memory found by `recall`, with its relevance.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RecalledMemory {
    /// The memory.
    #[serde(flatten)]
    pub memory: Memory,
    /// Relevance (BM25, or the anchor score for an anchor search); larger is better.
    pub score: f32,
    /// Context brought it in, not its own words: a neighbour, in its thread, of memories that
    /// hold the query's words, or a memory holding the rare words of the best matches
    /// (feedback); placed by their scores rather than its own (it holds none of the query's
    /// words, or too few to rank among the best matches).
    pub smoothed: bool,
}

/// What `recall` found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Recalled {
    /// How many memories this page holds.
    pub count: usize,
    /// The memories, best first.
    pub memories: Vec<RecalledMemory>,
    /// The `offset` of the next page, when there are more results. Every page of a query is
    /// cut from one ranked list: paging reaches each match within reach once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    /// The query's cost budget cut its candidates (a common word left out, or only the newest
    /// matches searched): some matches are out of reach of every page. Narrow the query.
    pub truncated: bool,
    /// When `truncated`: at least this many memories hold a word of the query (before the
    /// filter; the count of its commonest word, as far as the budget counted it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_total: Option<u64>,
}

impl Recalled {
    /// A page with nothing in it.
    pub fn empty() -> Recalled {
        Recalled {
            count: 0,
            memories: Vec::new(),
            next_offset: None,
            truncated: false,
            estimated_total: None,
        }
    }

    /// Keeps the leading memories that fit, with the rest of the page, in `max_bytes` of JSON
    /// (at least one), pointing `next_offset` at the first one left out; `offset` is the
    /// page's first position.
    pub fn fit(&mut self, offset: u64, max_bytes: usize) {
        fit_page(self, offset, max_bytes, |page| {
            (&mut page.memories, &mut page.count, &mut page.next_offset)
        });
    }
}

/// Cuts `page` (a page of a listing that began at `offset`, whose items, count and next offset
/// `parts` reaches) to the leading items that fit, with the rest of the page, in `max_bytes` of
/// JSON (at least one), pointing its next offset at the first one left out.
pub fn fit_page<P: Serialize + Clone, T: Serialize>(
    page: &mut P,
    offset: u64,
    max_bytes: usize,
    parts: impl Fn(&mut P) -> (&mut Vec<T>, &mut usize, &mut Option<u64>),
) {
    let mut envelope = page.clone();
    let (items, _, next) = parts(&mut envelope);
    let len = items.len();
    items.clear();
    *next = Some(offset + len as u64);
    let envelope = json_len(&envelope);
    let (items, count, next) = parts(page);
    let keep = fitting(items, envelope, max_bytes);
    if keep < items.len() {
        items.truncate(keep);
        *count = keep;
        *next = Some(offset + keep as u64);
    }
}

/// How many of `items`, from the first, fit in `max_bytes` of JSON beside an envelope of
/// `envelope` bytes (always at least one, so that a page is never empty for want of room).
pub fn fitting<T: Serialize>(items: &[T], envelope: usize, max_bytes: usize) -> usize {
    let mut used = envelope;
    for (at, item) in items.iter().enumerate() {
        // Each item and the comma before the next.
        used += json_len(item) + 1;
        if used > max_bytes && at > 0 {
            return at;
        }
    }
    items.len()
}

/// The length of `value`'s JSON as an answer carries it: through a [`Value`], as every door
/// sends it, where an `f32` is written as the `f64` it widens to (`0.800000011920929`, not
/// `0.8`).
pub fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_value(value)
        .and_then(|value| serde_json::to_vec(&value))
        .map_or(0, |bytes| bytes.len())
}

/// What the `memory` tool did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EditStatus {
    /// A new entry, in force.
    Accepted,
    /// A new entry awaiting review.
    Pending,
    /// Not added: the same entry exists.
    Duplicate,
    /// Entries replaced.
    Replaced,
    /// Entries removed.
    Removed,
}

/// What the `memory` tool did to a profile file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileEdited {
    /// The file: user, memory or daily.
    pub target: MemoryTarget,
    /// accepted, pending, duplicate, replaced or removed.
    pub status: EditStatus,
    /// The entries added, found as duplicates, replaced or removed.
    pub ids: Vec<u64>,
    /// The new entry's badge (add).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<Badge>,
}

/// A memory the policy chose for the prompt, and why.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ChosenMemory {
    /// The memory's id.
    pub id: u64,
    /// The snapshot section it is rendered in.
    pub section: Section,
    /// The parts of its score.
    pub score: ScoreParts,
    /// Global or local.
    pub scope: Scope,
    /// The start of its text (the snapshot holds the whole).
    pub preview: String,
}

/// A candidate the policy left out, and why.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RejectedMemory {
    /// The memory's id.
    pub id: u64,
    /// quota, budget, duplicate, stale or irrelevant.
    pub reason: RejectReason,
    /// The parts of its score.
    pub score: ScoreParts,
}

/// What `context` selected.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ContextResult {
    /// The rendered snapshot to place in the prompt (empty when nothing applies or injection
    /// is disabled).
    pub snapshot: String,
    /// Its estimated tokens.
    pub snapshot_tokens: u32,
    /// The memories chosen, in render order.
    pub chosen: Vec<ChosenMemory>,
    /// The best-scoring candidates left out (at most [`MAX_REJECTED_SHOWN`]).
    pub rejected: Vec<RejectedMemory>,
    /// How many candidates were left out in all.
    pub rejected_total: usize,
}

/// Most characters of a chosen memory's text a [`ChosenMemory`] repeats.
pub const PREVIEW_CHARS: usize = 100;

/// Most rejected candidates a [`ContextResult`] lists.
pub const MAX_REJECTED_SHOWN: usize = 20;

/// How a tool behaves, for clients that decide what to confirm with the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolHints {
    /// It changes nothing.
    pub read_only: bool,
    /// It may retire or overwrite what exists.
    pub destructive: bool,
    /// Calling it twice with the same arguments has the effect of calling it once.
    pub idempotent: bool,
}

/// Every tool, one variant each. Dispatch matches on it (the service's [`Service::call`],
/// the schemas), so a tool listed in [`TOOLS`] or [`RUNTIME_TOOLS`] and not wired everywhere
/// is a compile error, never a call that silently runs another tool.
///
/// [`Service::call`]: crate::service::Service::call
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `remember`.
    Remember,
    /// `revise_memory`.
    ReviseMemory,
    /// `forget_memory`.
    ForgetMemory,
    /// `recall`.
    Recall,
    /// `memory`: the profile files.
    Memory,
    /// `context`: what enters the prompt.
    Context,
    /// `get_memory`: one memory by id.
    GetMemory,
    /// `recent_memories`: what was written in a time window.
    RecentMemories,
    /// `memory_stats`: the totals.
    MemoryStats,
    /// `query`: read-only SQL over the knowledge base's views.
    Query,
    /// `query_schema`: the views `query` reads.
    QuerySchema,
    /// `turn`: a runtime tool (see [`RUNTIME_TOOLS`]).
    Turn,
}

impl Tool {
    /// The tool named `name`, model or runtime tool.
    pub fn named(name: &str) -> Option<Tool> {
        TOOLS
            .iter()
            .chain(RUNTIME_TOOLS)
            .find(|spec| spec.name == name)
            .map(|spec| spec.tool)
    }
}

/// One tool: its name, what it is for, how it behaves.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// Which tool.
    pub tool: Tool,
    /// The tool's name.
    pub name: &'static str,
    /// A short title.
    pub title: &'static str,
    /// For a model: when to use it and when not.
    pub description: &'static str,
    /// How it behaves.
    pub hints: ToolHints,
}

/// Every tool, in the order lists show them: the seeds' five and `context`.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        tool: Tool::Remember,
        name: "remember",
        title: "Remember a note",
        description: "Store one durable fact, preference or piece of context worth knowing in a future session: a finding about the subject (anchored to a function, address or string when it is about a place), a decision, a user preference. Use it when you learn something that will still matter later. Do not use it for transient chatter, for text you were asked to copy, or for secrets (they are redacted); do not store the same thing twice (duplicates are skipped). Writes from external clients await a human's review before they are used.",
        hints: ToolHints {
            read_only: false,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::ReviseMemory,
        name: "revise_memory",
        title: "Revise a memory",
        description: "Correct or update an existing memory by id (from recall or context): new text, type, tags, categories, confidence or anchors. Use it when a memory is wrong or out of date, rather than remembering a contradicting note. Changes to memories you may not edit directly become proposals for a human to review.",
        hints: ToolHints {
            read_only: false,
            destructive: true,
            idempotent: false,
        },
    },
    ToolSpec {
        tool: Tool::ForgetMemory,
        name: "forget_memory",
        title: "Forget a memory",
        description: "Retire a memory by id that is wrong and cannot be corrected, or that the user asked to forget. It stays in the audit trail. Do not use it to tidy up or to make room. Where this client may not forget the memory, the forget is stored as a request the user reviews (status `pending`), and the memory stands until they accept it.",
        hints: ToolHints {
            read_only: false,
            destructive: true,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::Recall,
        name: "recall",
        title: "Search memories",
        description: "Search accepted memories by words, #tags, categories, type or an anchor (a function, address or string). Use it when you need something specific that the injected context did not bring. Results come in pages: pass `next_offset` as `offset` for more. Memories awaiting review are never returned.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::Memory,
        name: "memory",
        title: "Edit the profile files",
        description: "Edit a profile's USER.md (who the user is, how they like to work), MEMORY.md (the agent's lasting notes) or today's daily note: add an entry, or replace or remove the one entry containing old_text. Use it for facts about the user and the work that should shape every session. Do not store link lists or document dumps in USER.md; if old_text matches several different entries the edit is refused, so quote more of the one you mean.",
        hints: ToolHints {
            read_only: false,
            destructive: true,
            idempotent: false,
        },
    },
    ToolSpec {
        tool: Tool::Context,
        name: "context",
        title: "Memories for this place and question",
        description: "Get the memories the policy selects for where you are working (cursor, function, image base, referenced strings) and what you are asking, rendered as a bounded snapshot for the prompt, with the reason for every choice. Use it at the start of a task or when you move to another function. It changes nothing but recall statistics.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::GetMemory,
        name: "get_memory",
        title: "One memory by id",
        description: "Read one accepted memory by its id (from recall, context or recent_memories), whole: its text, type, tags, anchors, badge and times. Use it before revising a memory, or to see all of one a snapshot cut short. A memory forgotten, rejected or awaiting review (for any caller but the human) is not found; one since replaced is history, still found.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::RecentMemories,
        name: "recent_memories",
        title: "Recent memories",
        description: "List the accepted memories written in a time window, newest first: `since` and `until` are RFC 3339 times or dates (default: the last 7 days). Use it to catch up on what was learned lately, or at the start of a session. For something specific, recall is better.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::MemoryStats,
        name: "memory_stats",
        title: "Memory totals",
        description: "The knowledge base's totals: memories by type, scope, badge and status, how many await review, the oldest and newest, the limit, and whether memory is on. Use it to tell the user what is remembered, not to find a memory.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::Query,
        name: "query",
        title: "Ask the knowledge base in SQL",
        description: "Run one read-only SQL SELECT over the knowledge base's views (memories, anchors, tags, categories, events, settings, clock; query_schema lists their columns) for questions recall cannot answer: counts, groupings, joins, time windows. Example: SELECT a.name, count(*) AS notes FROM anchors a JOIN memories m ON m.id = a.memory_id WHERE a.kind = 'function' AND m.author = 'triage' GROUP BY a.name HAVING count(*) > 3. Times are seconds since the epoch (clock.now is now). It cannot write, and reads only what you may read. For finding memories by meaning, use recall.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
    ToolSpec {
        tool: Tool::QuerySchema,
        name: "query_schema",
        title: "The views a query reads",
        description: "List the views query reads, with every column's type and meaning, the functions a query may call and its budgets (rows, time, size). Call it once before writing your first query.",
        hints: ToolHints {
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    },
];

/// Tools for the agent runtime rather than the model: events of the conversation the memory
/// follows. The policy does not validate them (they carry no memory) and [`Service::call`]
/// does not run them; the MCP server and the HTTP API do, through the service.
///
/// [`Service::call`]: crate::service::Service::call
pub const RUNTIME_TOOLS: &[ToolSpec] = &[ToolSpec {
    tool: Tool::Turn,
    name: "turn",
    title: "Count a user turn",
    description: "For the agent runtime, after each successful user turn: counts the turn of a session; every few turns of a session (10 by default) a review of the profile by the configured model starts in the background, and the answer does not wait for it. A model answering a user has no reason to call it.",
    hints: ToolHints {
        read_only: false,
        destructive: false,
        idempotent: false,
    },
}];

/// A successful user turn of a session (the `turn` runtime tool, `POST turns`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnArgs {
    /// The session (conversation) the turn belongs to: 1 to 128 of A-Z a-z 0-9 _ . : -.
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.:-]{1,128}$"))]
    pub session: String,
    /// The recent conversation, for the review this turn may start: at most 65,536 bytes of
    /// UTF-8.
    #[serde(default)]
    pub transcript: Option<String>,
}

impl TurnArgs {
    /// The arguments of a `turn` call, or an error naming the field at fault.
    pub fn parse(args: Value) -> crate::error::Result<TurnArgs> {
        serde_json::from_value(args).map_err(|error| {
            let message = error.to_string();
            // serde names the field in its message: "unknown field `x`", "missing field `x`".
            let path = message
                .split('`')
                .nth(1)
                .filter(|_| message.contains(" field `"))
                .unwrap_or("")
                .to_owned();
            crate::error::KenningError::Invalid {
                tool: "turn".into(),
                errors: vec![kenning_contract::types::FieldError::new(path, message)],
            }
        })
    }
}

/// The turn counted, and whether a memory review started in the background.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TurnCounted {
    /// The count.
    #[serde(flatten)]
    pub record: TurnRecord,
    /// Whether a review started (it runs after the answer, off the request).
    pub review_started: bool,
}

/// The runtime tool named `name`.
pub fn runtime_tool(name: &str) -> Option<&'static ToolSpec> {
    RUNTIME_TOOLS.iter().find(|t| t.name == name)
}

/// The record kinds the policy's `validate` checks besides tool calls: one line of a
/// `kenning-memory/1` export, and a model's extraction result. They are data, never tools.
pub const RECORD_KINDS: &[&str] = kenning_contract::RECORDS;

/// Every schema the policy's `validate` knows: the tools it validates (those that carry a
/// memory, [`kenning_contract::TOOLS`]; the host checks its read tools' arguments itself) and
/// the [`RECORD_KINDS`].
pub fn policy_schemas() -> Vec<&'static str> {
    kenning_contract::TOOLS
        .iter()
        .copied()
        .chain(RECORD_KINDS.iter().copied())
        .collect()
}

/// The tool named `name`.
pub fn tool(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

/// The names of every tool, for messages.
pub fn tool_names() -> Vec<&'static str> {
    TOOLS.iter().map(|t| t.name).collect()
}

/// A turn counted.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TurnRecord {
    /// The session.
    pub session: String,
    /// Turns of this session so far, this one included.
    pub session_turns: u64,
    /// Turns of every session of the subject so far.
    pub total_turns: u64,
    /// Whether this turn is one a review follows (a model command is configured and the
    /// session's turns are a multiple of `every_turns`).
    pub review_due: bool,
}

/// The JSON Schema of a tool's arguments.
pub fn input_schema(tool: &str) -> Option<Value> {
    Some(match Tool::named(tool)? {
        Tool::Remember => schema::<RememberArgs>(),
        Tool::ReviseMemory => schema::<ReviseMemoryArgs>(),
        Tool::ForgetMemory => schema::<ForgetMemoryArgs>(),
        Tool::Recall => schema::<RecallArgs>(),
        Tool::Memory => schema::<MemoryArgs>(),
        Tool::Context => schema::<ContextArgs>(),
        Tool::GetMemory => schema::<GetMemoryArgs>(),
        Tool::RecentMemories => schema::<RecentMemoriesArgs>(),
        Tool::MemoryStats => schema::<MemoryStatsArgs>(),
        Tool::Query => schema::<crate::query::QueryArgs>(),
        Tool::QuerySchema => schema::<crate::query::QuerySchemaArgs>(),
        Tool::Turn => schema::<TurnArgs>(),
    })
}

/// The JSON Schema of a tool's result.
pub fn output_schema(tool: &str) -> Option<Value> {
    Some(match Tool::named(tool)? {
        Tool::Remember => schema::<Remembered>(),
        Tool::ReviseMemory => schema::<Revised>(),
        Tool::ForgetMemory => schema::<Forgotten>(),
        Tool::Recall => schema::<Recalled>(),
        Tool::Memory => schema::<ProfileEdited>(),
        Tool::Context => schema::<ContextResult>(),
        Tool::GetMemory => schema::<Memory>(),
        Tool::RecentMemories => schema::<RecentMemories>(),
        Tool::MemoryStats => schema::<MemoryStats>(),
        Tool::Query => schema::<crate::query::QueryResult>(),
        Tool::QuerySchema => schema::<crate::query::QuerySchema>(),
        Tool::Turn => schema::<TurnCounted>(),
    })
}

fn schema<T: JsonSchema>() -> Value {
    let generator = schema_settings().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<T>()).expect("schemas serialise")
}

/// The settings every published schema (tool schemas, the OpenAPI document) is generated with:
/// draft 2020-12, and every integer bounded by its Rust type, so that a number a schema admits is
/// one the host can read (schemars leaves `u32`, `u64`, `i64` and `usize` without a `maximum`,
/// and a client may then send 10^33 and be told it is not an integer).
pub fn schema_settings() -> schemars::generate::SchemaSettings {
    schemars::generate::SchemaSettings::draft2020_12()
        .with_transform(schemars::transform::RecursiveTransform(bound_integer))
}

/// Gives an integer schema the bounds of the Rust type its `format` names, where it has none.
fn bound_integer(schema: &mut Schema) {
    let bounds: (i128, i128) = match schema.get("format").and_then(Value::as_str) {
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") | Some("uint") => (0, u64::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("int64") | Some("int") => (i64::MIN.into(), i64::MAX.into()),
        _ => return,
    };
    let number = |n: i128| -> Value {
        match (u64::try_from(n), i64::try_from(n)) {
            (Ok(n), _) => n.into(),
            (_, Ok(n)) => n.into(),
            _ => unreachable!("the bounds above fit in u64 or i64"),
        }
    };
    if schema.get("minimum").is_none() {
        schema.insert("minimum".into(), number(bounds.0));
    }
    if schema.get("maximum").is_none() {
        schema.insert("maximum".into(), number(bounds.1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_closed_object_schemas_for_its_input_and_output() {
        for tool in TOOLS.iter().chain(RUNTIME_TOOLS) {
            let input = input_schema(tool.name).unwrap();
            assert_eq!(input["type"], "object", "{}", tool.name);
            assert_eq!(input["additionalProperties"], false, "{}", tool.name);
            let output = output_schema(tool.name).unwrap();
            assert_eq!(output["type"], "object", "{}", tool.name);
        }
        assert!(input_schema("import-record").is_none());
    }

    /// The policy's own validation, natively: the authority the schemas must agree with.
    fn policy_errors(tool: &str, args: &Value) -> Vec<(String, String)> {
        match kenning_policy::validate(tool, &args.to_string()) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| (e.path, e.message)).collect(),
        }
    }

    #[test]
    fn the_schemas_name_exactly_the_fields_the_policy_accepts_and_requires() {
        // The tools the policy validates; the host reads the read tools' arguments itself.
        for tool in TOOLS
            .iter()
            .map(|t| t.name)
            .filter(|t| kenning_contract::TOOLS.contains(t))
        {
            let schema = input_schema(tool).unwrap();
            let properties: Vec<&String> =
                schema["properties"].as_object().unwrap().keys().collect();
            for property in &properties {
                let args = serde_json::json!({ property.as_str(): null });
                let unknown = policy_errors(tool, &args)
                    .into_iter()
                    .any(|(path, message)| &path == *property && message.starts_with("unknown"));
                assert!(!unknown, "{tool}: the policy does not know {property}");
            }
            let stranger = policy_errors(tool, &serde_json::json!({"not_a_field": 1}));
            assert!(
                stranger
                    .iter()
                    .any(|(path, message)| path == "not_a_field" && message.starts_with("unknown")),
                "{tool}: {stranger:?}"
            );
            let mut required: Vec<String> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            let mut missing: Vec<String> = policy_errors(tool, &serde_json::json!({}))
                .into_iter()
                .filter(|(_, message)| message.contains("required field"))
                .map(|(path, _)| path)
                .collect();
            required.sort();
            missing.sort();
            assert_eq!(required, missing, "{tool}");
        }
    }

    #[test]
    fn optional_arguments_are_left_out_when_serialised() {
        let args = RememberArgs {
            text: "x".into(),
            ..Default::default()
        };
        assert_eq!(serde_json::to_string(&args).unwrap(), r#"{"text":"x"}"#);
    }

    #[test]
    fn a_recall_page_is_cut_to_fit_and_points_at_the_rest() {
        let memory = |id| RecalledMemory {
            memory: crate::memory::sample_memory(
                id,
                &"word ".repeat(200),
                crate::store::Author::Human,
                Badge::Native,
            ),
            score: 0.1,
            smoothed: false,
        };
        let mut page = Recalled {
            count: 10,
            memories: (1..=10).map(memory).collect(),
            ..Recalled::empty()
        };
        page.fit(20, 3000);
        assert!(page.count >= 1 && page.count < 10, "{}", page.count);
        // The whole page as a door sends it (through a Value, where a score of 0.1 is
        // 0.10000000149011612): within the bound, envelope and all, whatever the bound.
        for bound in (1500..12_000).step_by(7) {
            let mut page = Recalled {
                count: 10,
                memories: (1..=10).map(memory).collect(),
                ..Recalled::empty()
            };
            page.fit(20, bound);
            let sent = serde_json::to_vec(&serde_json::to_value(&page).unwrap()).unwrap();
            assert!(sent.len() <= bound, "{} bytes for {bound}", sent.len());
        }
        assert_eq!(page.memories.len(), page.count);
        assert_eq!(page.next_offset, Some(20 + page.count as u64));
        let mut one = Recalled {
            count: 1,
            memories: vec![memory(1)],
            ..Recalled::empty()
        };
        one.fit(0, 10);
        assert_eq!(one.count, 1, "a page always holds at least one memory");
        assert_eq!(one.next_offset, None);
    }
}
