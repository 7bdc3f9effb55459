//! The WebAssembly side of the contract (compiled for `wasm32` only): the bindings of the
//! current WIT version and the glue that exports any [`Policy`] through them. Candidates arrive
//! as columns, one list per field and one buffer of texts; the glue hands the policy a view of
//! them as they arrived ([`crate::Candidates`]), so nothing is allocated per candidate.

use core::marker::PhantomData;

use crate::Policy;
use crate::candidates::CandidateColumns;
use crate::types as plain;

wit_bindgen::generate!({
    world: "memory-policy",
    path: "wit/since_v0.4.0",
    pub_export_macro: true,
    export_macro_name: "export_bindings",
    default_bindings_module: "kenning_contract::export",
});

use self::exports::kenning::policy::policy::Guest;
use self::kenning::policy::types as wit;

/// Exports the policy `P`; named through [`crate::export_policy!`].
pub struct Export<P>(PhantomData<P>);

impl<P: Policy> Guest for Export<P> {
    fn describe() -> wit::PolicyInfo {
        let info = P::describe();
        wit::PolicyInfo {
            name: info.name,
            version: info.version,
            contract_version: info.contract_version,
            capabilities: info.capabilities.into_iter().map(capability).collect(),
            default_limits: limits_out(info.default_limits),
        }
    }

    fn validate(
        tool: String,
        args_json: String,
    ) -> Result<wit::ValidatedCall, Vec<wit::FieldError>> {
        P::validate(&tool, &args_json)
            .map(|c| wit::ValidatedCall {
                tool: c.tool,
                args_json: c.args_json,
            })
            .map_err(|errors| {
                errors
                    .into_iter()
                    .map(|e| wit::FieldError {
                        path: e.path,
                        message: e.message,
                    })
                    .collect()
            })
    }

    fn scan(items: Vec<wit::ScanItem>) -> Vec<wit::ScanResult> {
        let items: Vec<plain::ScanItem> = items
            .into_iter()
            .map(|i| plain::ScanItem {
                text: i.text,
                target: target(i.target),
                author: author(i.author),
            })
            .collect();
        P::scan(&items).into_iter().map(scan_result).collect()
    }

    fn score(context: wit::Context, candidates: wit::Candidates) -> Vec<wit::ScoreParts> {
        let candidates = columns(candidates);
        P::score(&context_in(context), candidates.view())
            .into_iter()
            .map(score_out)
            .collect()
    }

    fn select(
        context: wit::Context,
        candidates: wit::Candidates,
        limits: wit::Limits,
    ) -> wit::Selection {
        let candidates = columns(candidates);
        let limits = plain::Limits {
            local_quota: limits.local_quota,
            global_quota: limits.global_quota,
            token_budget: limits.token_budget,
            max_snapshot_bytes: limits.max_snapshot_bytes,
        };
        let s = P::select(&context_in(context), candidates.view(), &limits);
        wit::Selection {
            chosen: s
                .chosen
                .into_iter()
                .map(|c| wit::Chosen {
                    id: c.id,
                    section: section(c.section),
                    score: score_out(c.score),
                })
                .collect(),
            rejected: s
                .rejected
                .into_iter()
                .map(|r| wit::Rejected {
                    id: r.id,
                    reason: reason(r.reason),
                    score: score_out(r.score),
                })
                .collect(),
            snapshot: s.snapshot,
            snapshot_tokens: s.snapshot_tokens,
        }
    }

    fn consolidate(
        now: wit::Timestamp,
        memories: wit::Memories,
        retention: wit::Retention,
    ) -> wit::ConsolidationPlan {
        let (texts, anchors) = (memories.texts, memories.anchors);
        let memories: Vec<plain::StoredMemory> = memories
            .items
            .into_iter()
            .map(|m| plain::StoredMemory {
                id: m.id,
                scope: scope(m.scope),
                kind: kind(m.kind),
                target: m.target.map(target),
                day: Some(cut(&texts, m.day)).filter(|d| !d.is_empty()),
                text: cut(&texts, m.text),
                tags: tags(&texts, m.tags),
                confidence: m.confidence,
                created_at: m.created_at,
                updated_at: m.updated_at,
                anchors: anchors_of(&texts, &anchors, m.anchors),
                pending: m.pending,
            })
            .collect();
        let retention = plain::Retention {
            pending_days: retention.pending_days,
            daily_days: retention.daily_days,
        };
        let plan = P::consolidate(now, &memories, &retention);
        wit::ConsolidationPlan {
            merges: plan
                .merges
                .into_iter()
                .map(|m| wit::Merge {
                    keep: m.keep,
                    duplicates: m.duplicates,
                    reason: m.reason,
                })
                .collect(),
            supersessions: plan
                .supersessions
                .into_iter()
                .map(|s| wit::Supersession {
                    newer: s.newer,
                    older: s.older,
                    reason: s.reason,
                })
                .collect(),
            expiries: plan
                .expiries
                .into_iter()
                .map(|e| wit::Expiry {
                    id: e.id,
                    reason: e.reason,
                })
                .collect(),
        }
    }
}

/// The text `span` names in `texts`; empty if the span is out of bounds or splits a character
/// (the host never sends one, but a policy never panics on what it is given).
fn slice(texts: &str, span: wit::Span) -> &str {
    let start = span.start as usize;
    let end = start.saturating_add(span.len as usize);
    texts.get(start..end).unwrap_or_default()
}

/// The text `span` names in `texts`, owned (see [`slice`]).
fn cut(texts: &str, span: wit::Span) -> String {
    slice(texts, span).to_owned()
}

/// The tags `span` names in `texts`, separated by single spaces.
fn tags(texts: &str, span: wit::Span) -> Vec<String> {
    slice(texts, span)
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The batch's columns, moved as they are (no copy).
fn columns(batch: wit::Candidates) -> CandidateColumns {
    CandidateColumns {
        ids: batch.ids,
        scopes: batch.scopes,
        kinds: batch.kinds,
        authors: batch.authors,
        badges: batch.badges,
        confidences: batch.confidences,
        created_at: batch.created_at,
        updated_at: batch.updated_at,
        lexical_scores: batch.lexical_scores,
        texts: batch.texts,
        text_ends: batch.text_ends,
        anchor_ends: batch.anchor_ends,
        anchor_kinds: batch.anchor_kinds,
        anchor_values: batch.anchor_values,
        anchor_texts: batch.anchor_texts,
        anchor_text_ends: batch.anchor_text_ends,
    }
}

fn scope(s: wit::Scope) -> plain::Scope {
    match s {
        wit::Scope::Global => plain::Scope::Global,
        wit::Scope::Local => plain::Scope::Local,
    }
}

fn kind(k: wit::MemoryKind) -> plain::MemoryKind {
    match k {
        wit::MemoryKind::Fact => plain::MemoryKind::Fact,
        wit::MemoryKind::Preference => plain::MemoryKind::Preference,
        wit::MemoryKind::Context => plain::MemoryKind::Context,
        wit::MemoryKind::ConversationSummary => plain::MemoryKind::ConversationSummary,
    }
}

fn capability(c: plain::Capability) -> wit::Capability {
    match c {
        plain::Capability::Validate => wit::Capability::Validate,
        plain::Capability::Scan => wit::Capability::Scan,
        plain::Capability::Score => wit::Capability::Score,
        plain::Capability::Select => wit::Capability::Select,
        plain::Capability::Consolidate => wit::Capability::Consolidate,
    }
}

fn limits_out(l: plain::Limits) -> wit::Limits {
    wit::Limits {
        local_quota: l.local_quota,
        global_quota: l.global_quota,
        token_budget: l.token_budget,
        max_snapshot_bytes: l.max_snapshot_bytes,
    }
}

fn target(t: wit::Target) -> plain::Target {
    match t {
        wit::Target::User => plain::Target::User,
        wit::Target::Memory => plain::Target::Memory,
        wit::Target::Daily => plain::Target::Daily,
        wit::Target::Global => plain::Target::Global,
        wit::Target::Local => plain::Target::Local,
    }
}

fn author(a: wit::Author) -> crate::args::Author {
    use crate::args::Author;
    match a {
        wit::Author::Human => Author::Human,
        wit::Author::Agent => Author::Agent,
        wit::Author::Triage => Author::Triage,
        wit::Author::External => Author::External,
        wit::Author::Peer => Author::Peer,
    }
}

fn scan_result(r: plain::ScanResult) -> wit::ScanResult {
    wit::ScanResult {
        verdict: match r.verdict {
            plain::Verdict::Allow => wit::Verdict::Allow,
            plain::Verdict::Redact => wit::Verdict::Redact,
            plain::Verdict::Block => wit::Verdict::Block,
            plain::Verdict::Hold => wit::Verdict::Hold,
        },
        text: r.text,
        findings: r
            .findings
            .into_iter()
            .map(|f| wit::Finding {
                kind: f.kind,
                start: f.start,
                end: f.end,
            })
            .collect(),
        reason: r.reason,
    }
}

fn live_function(f: wit::LiveFunction) -> plain::LiveFunction {
    plain::LiveFunction {
        start: f.start,
        end: f.end,
        name: f.name,
    }
}

fn context_in(c: wit::Context) -> plain::Context {
    plain::Context {
        now: c.now,
        subject_kind: match c.subject_kind {
            wit::SubjectKind::Binary => plain::SubjectKind::Binary,
            wit::SubjectKind::Account => plain::SubjectKind::Account,
            wit::SubjectKind::Profile => plain::SubjectKind::Profile,
        },
        image_base: c.image_base,
        cursor: c.cursor,
        current_function: c.current_function.map(live_function),
        referenced_strings: c.referenced_strings,
        live_functions: c.live_functions.into_iter().map(live_function).collect(),
        live_strings: c.live_strings,
        query: c.query,
    }
}

/// The anchors `span` names in a batch's `anchors`, their strings cut from `texts`; none if
/// the span is out of bounds.
fn anchors_of(texts: &str, anchors: &[wit::Anchor], span: wit::Span) -> Vec<plain::Anchor> {
    let start = span.start as usize;
    let end = start.saturating_add(span.len as usize);
    anchors
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(|a| match *a {
            wit::Anchor::Function(f) => plain::Anchor::Function(plain::FunctionAnchor {
                start: f.start,
                end: f.end,
                name: cut(texts, f.name),
            }),
            wit::Anchor::Range(r) => plain::Anchor::Range(plain::OffsetRange {
                start: r.start,
                end: r.end,
            }),
            wit::Anchor::Address(offset) => plain::Anchor::Address { offset },
            wit::Anchor::Near(n) => plain::Anchor::Near(plain::OffsetRadius {
                offset: n.offset,
                radius: n.radius,
            }),
            wit::Anchor::ReferencedString(value) => plain::Anchor::String {
                value: cut(texts, value),
            },
        })
        .collect()
}

fn score_out(s: plain::ScoreParts) -> wit::ScoreParts {
    wit::ScoreParts {
        anchor: s.anchor,
        lexical: s.lexical,
        confidence: s.confidence,
        recency: s.recency,
        total: s.total,
    }
}

fn section(s: plain::Section) -> wit::Section {
    match s {
        plain::Section::Global => wit::Section::Global,
        plain::Section::Local => wit::Section::Local,
        plain::Section::Facts => wit::Section::Facts,
        plain::Section::Preferences => wit::Section::Preferences,
        plain::Section::Context => wit::Section::Context,
        plain::Section::Conversations => wit::Section::Conversations,
    }
}

fn reason(r: plain::RejectReason) -> wit::RejectReason {
    match r {
        plain::RejectReason::Quota => wit::RejectReason::Quota,
        plain::RejectReason::Budget => wit::RejectReason::Budget,
        plain::RejectReason::Duplicate => wit::RejectReason::Duplicate,
        plain::RejectReason::Stale => wit::RejectReason::Stale,
        plain::RejectReason::Irrelevant => wit::RejectReason::Irrelevant,
    }
}
