//! The WebAssembly component: exports `kenning:policy/policy` by converting the generated
//! binding types to and from the plain types in [`crate::types`] and calling the library.
//!
//! Compiled only for `wasm32`. Every conversion matches every variant, so a contract change
//! fails to compile here rather than misbehaving.

wit_bindgen::generate!({
    world: "memory-policy",
    path: "../wit",
});

use self::kenning::policy::types as wit;
use crate::types as plain;
use exports::kenning::policy::policy::Guest;

/// The exported policy.
struct DefaultPolicy;

export!(DefaultPolicy);

impl Guest for DefaultPolicy {
    fn describe() -> wit::PolicyInfo {
        let info = crate::describe();
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
        crate::validate(&tool, &args_json)
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
            })
            .collect();
        crate::scan(&items).into_iter().map(scan_result).collect()
    }

    fn score(context: wit::Context, candidates: Vec<wit::Candidate>) -> Vec<wit::ScoreParts> {
        let candidates: Vec<plain::Candidate> = candidates.into_iter().map(candidate).collect();
        crate::score(&context_in(context), &candidates)
            .into_iter()
            .map(score_out)
            .collect()
    }

    fn select(
        context: wit::Context,
        candidates: Vec<wit::Candidate>,
        limits: wit::Limits,
    ) -> wit::Selection {
        let candidates: Vec<plain::Candidate> = candidates.into_iter().map(candidate).collect();
        let limits = plain::Limits {
            local_quota: limits.local_quota,
            global_quota: limits.global_quota,
            token_budget: limits.token_budget,
            max_snapshot_bytes: limits.max_snapshot_bytes,
        };
        let s = crate::select(&context_in(context), &candidates, &limits);
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
}

fn capability(c: plain::Capability) -> wit::Capability {
    match c {
        plain::Capability::Validate => wit::Capability::Validate,
        plain::Capability::Scan => wit::Capability::Scan,
        plain::Capability::Score => wit::Capability::Score,
        plain::Capability::Select => wit::Capability::Select,
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

fn scan_result(r: plain::ScanResult) -> wit::ScanResult {
    wit::ScanResult {
        verdict: match r.verdict {
            plain::Verdict::Allow => wit::Verdict::Allow,
            plain::Verdict::Redact => wit::Verdict::Redact,
            plain::Verdict::Block => wit::Verdict::Block,
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

fn anchor(a: wit::Anchor) -> plain::Anchor {
    match a {
        wit::Anchor::Function(f) => plain::Anchor::Function(plain::FunctionAnchor {
            start: f.start,
            end: f.end,
            name: f.name,
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
        wit::Anchor::ReferencedString(value) => plain::Anchor::String { value },
    }
}

fn candidate(c: wit::Candidate) -> plain::Candidate {
    plain::Candidate {
        id: c.id,
        scope: match c.scope {
            wit::Scope::Global => plain::Scope::Global,
            wit::Scope::Local => plain::Scope::Local,
        },
        kind: match c.kind {
            wit::MemoryKind::Fact => plain::MemoryKind::Fact,
            wit::MemoryKind::Preference => plain::MemoryKind::Preference,
            wit::MemoryKind::Context => plain::MemoryKind::Context,
            wit::MemoryKind::ConversationSummary => plain::MemoryKind::ConversationSummary,
        },
        text: c.text,
        tags: c.tags,
        confidence: c.confidence,
        created_at: c.created_at,
        updated_at: c.updated_at,
        anchors: c.anchors.into_iter().map(anchor).collect(),
        lexical_score: c.lexical_score,
    }
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
