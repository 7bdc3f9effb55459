//! kenning's default memory policy.
//!
//! Four duties, each a pure function of its inputs (no I/O, no clock, no randomness):
//! [`validate`] checks tool calls and records (imports, extraction results) against closed
//! schemas, [`scan`] redacts secrets and blocks unsafe text, [`score`] measures how well
//! memories match where the agent works, and [`select`] chooses what enters the prompt and
//! renders it.
//!
//! Natively this is an ordinary library (the host links it for benchmarks, golden vectors and
//! fallback); built for `wasm32-wasip2` it is the component that implements
//! `kenning:policy/policy@0.1.0` (see `wit/policy.wit`).
//!
//! Modules, one concern each: `validate` (closed schemas), `scan` (secrets and unsafe content),
//! `score` (anchor, lexical, confidence and recency parts), `select` (quotas, duplicates,
//! budget), `render` (the snapshot text), `tokens` (the token estimate), `detmath` (platform
//! independent arithmetic, so native and wasm agree bit for bit).

#![warn(missing_docs)]

pub mod types;
pub mod vectors;

mod detmath;
mod render;
mod scan;
mod score;
mod select;
mod tokens;
mod validate;

#[cfg(target_arch = "wasm32")]
mod component;

pub use validate::args;
/// How tool calls read an address written as a string; hosts read their own inputs the same way.
pub use validate::{is_tag, is_thread_id, parse_address};

use types::{
    Anchor, Candidate, Capability, Context, FieldError, Limits, PolicyInfo, ScanItem, ScanResult,
    ScoreParts, Selection, ValidatedCall,
};

/// The contract version this policy implements.
pub const CONTRACT_VERSION: &str = "0.1.0";

/// The name this policy reports through [`describe`] and prints in its snapshot header.
pub const POLICY_NAME: &str = "kenning-default";

/// Largest `args_json` accepted by [`validate`] for a tool call or an import record, in bytes.
pub const MAX_ARGS_BYTES: usize = 65536;
/// Largest extraction result accepted by [`validate`], in bytes.
pub const MAX_EXTRACTION_BYTES: usize = 1 << 20;
/// Most memories one extraction result may propose.
pub const MAX_EXTRACTION_ITEMS: usize = 32;
/// Largest memory text (and `memory` tool content), in bytes after trimming.
pub const MAX_TEXT_BYTES: usize = 8192;
/// Largest `recall` query, in bytes after trimming.
pub const MAX_QUERY_BYTES: usize = 1024;
/// Most tags on one memory or query.
pub const MAX_TAGS: usize = 32;
/// Longest tag, in bytes, without its leading `#`.
pub const MAX_TAG_BYTES: usize = 64;
/// Longest conversation thread id, in bytes.
pub const MAX_THREAD_BYTES: usize = 128;
/// Most categories on one memory or query.
pub const MAX_CATEGORIES: usize = 16;
/// Most anchors on one memory.
pub const MAX_ANCHORS: usize = 16;
/// Largest `recall` limit.
pub const MAX_RECALL_LIMIT: u64 = 100;

/// Who this policy is: its name, version, contract version, capabilities and default limits.
pub fn describe() -> PolicyInfo {
    PolicyInfo {
        name: POLICY_NAME.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        contract_version: CONTRACT_VERSION.to_string(),
        capabilities: vec![
            Capability::Validate,
            Capability::Scan,
            Capability::Score,
            Capability::Select,
        ],
        default_limits: Limits::default(),
    }
}

/// Checks `args_json` against the closed schema named by `tool`: a tool's arguments
/// (`remember`, `revise_memory`, `forget_memory`, `recall`, `memory`) or a record kind
/// (`import-record`, one line of a JSONL export; `extraction`, a model's proposed memories).
///
/// On success the value comes back as canonical JSON (every field present, defaults filled
/// in, strings trimmed, addresses rebased to file offsets, fields in a fixed order; see
/// [`args`] for the shapes). On failure every problem found is listed, each with its field path.
pub fn validate(tool: &str, args_json: &str) -> Result<ValidatedCall, Vec<FieldError>> {
    validate::validate(tool, args_json)
}

/// Scans texts before they are stored: one result per item, in order.
///
/// Secrets are redacted (`[REDACTED:<kind>]`), unsafe content (prompt injection, forged role
/// markers, exfiltration instructions, data-carrying images, invisible characters, and for the
/// user profile link and document dumps) is blocked with a reason.
pub fn scan(items: &[ScanItem]) -> Vec<ScanResult> {
    items.iter().map(scan::scan_item).collect()
}

/// Scores how strongly each candidate matches the context: one result per candidate, in order.
pub fn score(context: &Context, candidates: &[Candidate]) -> Vec<ScoreParts> {
    score::score_all(context, candidates)
}

/// Whether `anchor` no longer matches the live subject described by `context` (a function
/// renamed or moved, a string gone, an address outside every known function). Nothing is stale
/// when the context does not list live functions or strings.
pub fn is_stale(context: &Context, anchor: &Anchor) -> bool {
    score::is_stale(context, anchor)
}

/// Chooses which candidates enter the prompt this turn and renders the snapshot.
///
/// Every candidate id appears exactly once, either in `chosen` (in render order) or in
/// `rejected` (with the reason); the snapshot fits `limits.token_budget` by [`estimate_tokens`]
/// and `limits.max_snapshot_bytes`.
pub fn select(context: &Context, candidates: &[Candidate], limits: &Limits) -> Selection {
    select::select(context, candidates, limits)
}

/// The policy's token estimate for `text`: per line, the larger of its word-bound segments and
/// a quarter of its grapheme clusters, plus one for the line itself.
pub fn estimate_tokens(text: &str) -> u32 {
    tokens::estimate_tokens(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_reports_every_capability_and_default_limits() {
        let info = describe();
        assert_eq!(info.name, "kenning-default");
        assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
        assert_eq!(info.contract_version, CONTRACT_VERSION);
        assert_eq!(info.capabilities.len(), 4);
        assert_eq!(info.default_limits, Limits::default());
    }

    #[test]
    fn contract_version_matches_the_wit_package() {
        let wit = include_str!("../../wit/policy.wit");
        assert!(wit.contains(&format!("package kenning:policy@{CONTRACT_VERSION};")));
    }
}
