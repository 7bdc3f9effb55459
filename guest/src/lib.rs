//! kenning's default memory policy.
//!
//! Five duties, each a pure function of its inputs (no I/O, no clock, no randomness):
//! [`validate`] checks tool calls and records (imports, extraction results) against closed
//! schemas, [`scan`] redacts secrets and blocks unsafe text, [`score`] measures how well
//! memories match where the agent works, [`select`] chooses what enters the prompt and renders
//! it, and [`consolidate`] plans merges, supersessions and expiries.
//!
//! Natively this is an ordinary library (the host links it for benchmarks, golden vectors and
//! fallback); built for `wasm32-unknown-unknown` and made a component it implements
//! `kenning:policy/policy@0.4.0` through [`kenning_contract::Policy`] and
//! [`kenning_contract::export_policy!`], like any policy written against the contract crate.
//!
//! Modules, one concern each: `validate` (closed schemas), `scan` (secrets and unsafe content),
//! `score` (anchor, lexical, confidence and recency parts), `select` (quotas, duplicates,
//! budget), `consolidate` (merges, supersessions, expiries), `similarity` (word sets), `render`
//! (the snapshot text), `tokens` (the token estimate), `detmath` (platform independent
//! arithmetic, so native and wasm agree bit for bit).

#![warn(missing_docs)]

pub mod vectors;

mod consolidate;
mod detmath;
mod render;
mod scan;
mod score;
mod select;
mod similarity;
mod tokens;
mod validate;

/// The boundary types, from the contract crate.
pub use kenning_contract::types;
pub use kenning_contract::{AnchorRef, CandidateRef, Candidates};
pub use kenning_contract::{
    CONTRACT_VERSION, MAX_ANCHORS, MAX_ARGS_BYTES, MAX_CATEGORIES, MAX_EXTRACTION_BYTES,
    MAX_EXTRACTION_ITEMS, MAX_QUERY_BYTES, MAX_RECALL_LIMIT, MAX_TAG_BYTES, MAX_TAGS,
    MAX_TEXT_BYTES, MAX_THREAD_BYTES,
};
pub use validate::args;
pub use validate::schemas;
/// How tool calls read an address written as a string; hosts read their own inputs the same way.
pub use validate::{is_tag, is_thread_id, parse_address};

use types::{
    ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, Retention, ScanItem, ScanResult,
    ScoreParts, Selection, StoredMemory, ValidatedCall,
};

/// The name this policy reports through [`describe`] and prints in its snapshot header.
pub const POLICY_NAME: &str = "kenning-default";

/// The default policy, as the contract crate's [`kenning_contract::Policy`]: each duty is the
/// function of the same name in this crate.
pub struct DefaultPolicy;

impl kenning_contract::Policy for DefaultPolicy {
    const NAME: &'static str = POLICY_NAME;
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    fn validate(tool: &str, args_json: &str) -> Result<ValidatedCall, Vec<FieldError>> {
        validate(tool, args_json)
    }

    fn scan(items: &[ScanItem]) -> Vec<ScanResult> {
        scan(items)
    }

    fn score(context: &Context, candidates: Candidates<'_>) -> Vec<ScoreParts> {
        score(context, candidates)
    }

    fn select(context: &Context, candidates: Candidates<'_>, limits: &Limits) -> Selection {
        select(context, candidates, limits)
    }

    fn consolidate(
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> ConsolidationPlan {
        consolidate(now, memories, retention)
    }

    fn prepare() {
        prepare()
    }
}

kenning_contract::export_policy!(DefaultPolicy);

/// Builds the scanner's automata, compiles its patterns and counts the snapshot's fixed lines
/// now: the build calls this once and snapshots the component, so no call pays for them.
pub fn prepare() {
    scan::prepare();
    render::frame_cost();
}

/// Who this policy is: its name, version, contract version, capabilities and default limits
/// (the contract's default answer: every duty, the documented limits).
pub fn describe() -> PolicyInfo {
    <DefaultPolicy as kenning_contract::Policy>::describe()
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
/// The candidates are a slice of [`types::Candidate`]s or any other [`Candidates`] view.
pub fn score<'a>(context: &Context, candidates: impl Into<Candidates<'a>>) -> Vec<ScoreParts> {
    score::score_all(context, candidates)
}

/// Whether `anchor` no longer matches the live subject described by `context` (a function
/// renamed or moved, a string gone, an address outside every known function). Nothing is stale
/// when the context does not list live functions or strings.
pub fn is_stale<'a>(context: &Context, anchor: impl Into<AnchorRef<'a>>) -> bool {
    score::is_stale(context, anchor)
}

/// Chooses which candidates enter the prompt this turn and renders the snapshot.
///
/// Every candidate id appears exactly once, either in `chosen` (in render order) or in
/// `rejected` (with the reason); the snapshot fits `limits.token_budget` by [`estimate_tokens`]
/// and `limits.max_snapshot_bytes`. The candidates are a slice of [`types::Candidate`]s or any
/// other [`Candidates`] view.
pub fn select<'a>(
    context: &Context,
    candidates: impl Into<Candidates<'a>>,
    limits: &Limits,
) -> Selection {
    select::select(context, candidates, limits)
}

/// Plans a consolidation of one subject's memories at `now`: near-duplicates folded into the
/// memory that says most, older memories a newer one contradicts superseded, suggestions and
/// daily notes past `retention` expired, each with its reason. Only memories about the same
/// place (scope, kind, profile file, anchors) are compared, and suggestions never merge.
pub fn consolidate(
    now: i64,
    memories: &[StoredMemory],
    retention: &Retention,
) -> ConsolidationPlan {
    consolidate::consolidate(now, memories, retention)
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
        assert_eq!(info.capabilities.len(), 5);
        assert_eq!(info.default_limits, Limits::default());
    }

    #[test]
    fn contract_version_matches_the_wit_package() {
        let wit = include_str!("../../contract/wit/since_v0.4.0/policy.wit");
        assert!(wit.contains(&format!("package kenning:policy@{CONTRACT_VERSION};")));
    }
}
