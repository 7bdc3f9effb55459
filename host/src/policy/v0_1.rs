//! The adapter for contract `kenning:policy@0.1.0`: generated bindings and the conversions
//! between them and the policy crate's plain types. When the contract changes, this version's
//! WIT is frozen and a sibling module adapts the next one; nothing outside `policy/` changes.

use kenning_policy::types as plain;

wasmtime::component::bindgen!({
    world: "memory-policy",
    path: "../wit",
});

use self::kenning::policy::types as wit;

pub use MemoryPolicyPre as PolicyPre;

pub(super) fn context(c: &plain::Context) -> wit::Context {
    wit::Context {
        now: c.now,
        subject_kind: match c.subject_kind {
            plain::SubjectKind::Binary => wit::SubjectKind::Binary,
            plain::SubjectKind::Account => wit::SubjectKind::Account,
            plain::SubjectKind::Profile => wit::SubjectKind::Profile,
        },
        image_base: c.image_base,
        cursor: c.cursor,
        current_function: c.current_function.as_ref().map(live_function),
        referenced_strings: c.referenced_strings.clone(),
        live_functions: c.live_functions.iter().map(live_function).collect(),
        live_strings: c.live_strings.clone(),
        query: c.query.clone(),
    }
}

fn live_function(f: &plain::LiveFunction) -> wit::LiveFunction {
    wit::LiveFunction {
        start: f.start,
        end: f.end,
        name: f.name.clone(),
    }
}

pub(super) fn candidate(c: &plain::Candidate) -> wit::Candidate {
    wit::Candidate {
        id: c.id,
        scope: scope(c.scope),
        kind: match c.kind {
            plain::MemoryKind::Fact => wit::MemoryKind::Fact,
            plain::MemoryKind::Preference => wit::MemoryKind::Preference,
            plain::MemoryKind::Context => wit::MemoryKind::Context,
            plain::MemoryKind::ConversationSummary => wit::MemoryKind::ConversationSummary,
        },
        text: c.text.clone(),
        tags: c.tags.clone(),
        confidence: c.confidence,
        created_at: c.created_at,
        updated_at: c.updated_at,
        anchors: c.anchors.iter().map(anchor).collect(),
        lexical_score: c.lexical_score,
    }
}

fn scope(s: plain::Scope) -> wit::Scope {
    match s {
        plain::Scope::Global => wit::Scope::Global,
        plain::Scope::Local => wit::Scope::Local,
    }
}

fn anchor(a: &plain::Anchor) -> wit::Anchor {
    match a {
        plain::Anchor::Function(f) => wit::Anchor::Function(wit::FunctionAnchor {
            start: f.start,
            end: f.end,
            name: f.name.clone(),
        }),
        plain::Anchor::Range(r) => wit::Anchor::Range(wit::OffsetRange {
            start: r.start,
            end: r.end,
        }),
        plain::Anchor::Address { offset } => wit::Anchor::Address(*offset),
        plain::Anchor::Near(n) => wit::Anchor::Near(wit::OffsetRadius {
            offset: n.offset,
            radius: n.radius,
        }),
        plain::Anchor::String { value } => wit::Anchor::ReferencedString(value.clone()),
    }
}

pub(super) fn limits(l: &plain::Limits) -> wit::Limits {
    wit::Limits {
        local_quota: l.local_quota,
        global_quota: l.global_quota,
        token_budget: l.token_budget,
        max_snapshot_bytes: l.max_snapshot_bytes,
    }
}

fn limits_back(l: wit::Limits) -> plain::Limits {
    plain::Limits {
        local_quota: l.local_quota,
        global_quota: l.global_quota,
        token_budget: l.token_budget,
        max_snapshot_bytes: l.max_snapshot_bytes,
    }
}

pub(super) fn scan_item(i: &plain::ScanItem) -> wit::ScanItem {
    wit::ScanItem {
        text: i.text.clone(),
        target: match i.target {
            plain::Target::User => wit::Target::User,
            plain::Target::Memory => wit::Target::Memory,
            plain::Target::Daily => wit::Target::Daily,
            plain::Target::Global => wit::Target::Global,
            plain::Target::Local => wit::Target::Local,
        },
    }
}

pub(super) fn scan_result(r: wit::ScanResult) -> plain::ScanResult {
    plain::ScanResult {
        verdict: match r.verdict {
            wit::Verdict::Allow => plain::Verdict::Allow,
            wit::Verdict::Redact => plain::Verdict::Redact,
            wit::Verdict::Block => plain::Verdict::Block,
        },
        text: r.text,
        findings: r
            .findings
            .into_iter()
            .map(|f| plain::Finding {
                kind: f.kind,
                start: f.start,
                end: f.end,
            })
            .collect(),
        reason: r.reason,
    }
}

pub(super) fn score_parts(s: wit::ScoreParts) -> plain::ScoreParts {
    plain::ScoreParts {
        anchor: s.anchor,
        lexical: s.lexical,
        confidence: s.confidence,
        recency: s.recency,
        total: s.total,
    }
}

pub(super) fn selection(s: wit::Selection) -> plain::Selection {
    plain::Selection {
        chosen: s
            .chosen
            .into_iter()
            .map(|c| plain::Chosen {
                id: c.id,
                section: match c.section {
                    wit::Section::Global => plain::Section::Global,
                    wit::Section::Local => plain::Section::Local,
                    wit::Section::Facts => plain::Section::Facts,
                    wit::Section::Preferences => plain::Section::Preferences,
                    wit::Section::Context => plain::Section::Context,
                    wit::Section::Conversations => plain::Section::Conversations,
                },
                score: score_parts(c.score),
            })
            .collect(),
        rejected: s
            .rejected
            .into_iter()
            .map(|r| plain::Rejected {
                id: r.id,
                reason: match r.reason {
                    wit::RejectReason::Quota => plain::RejectReason::Quota,
                    wit::RejectReason::Budget => plain::RejectReason::Budget,
                    wit::RejectReason::Duplicate => plain::RejectReason::Duplicate,
                    wit::RejectReason::Stale => plain::RejectReason::Stale,
                    wit::RejectReason::Irrelevant => plain::RejectReason::Irrelevant,
                },
                score: score_parts(r.score),
            })
            .collect(),
        snapshot: s.snapshot,
        snapshot_tokens: s.snapshot_tokens,
    }
}

pub(super) fn validation(
    r: Result<wit::ValidatedCall, Vec<wit::FieldError>>,
) -> Result<plain::ValidatedCall, Vec<plain::FieldError>> {
    match r {
        Ok(call) => Ok(plain::ValidatedCall {
            tool: call.tool,
            args_json: call.args_json,
        }),
        Err(errors) => Err(errors
            .into_iter()
            .map(|e| plain::FieldError {
                path: e.path,
                message: e.message,
            })
            .collect()),
    }
}

pub(super) fn policy_info(i: wit::PolicyInfo) -> plain::PolicyInfo {
    plain::PolicyInfo {
        name: i.name,
        version: i.version,
        contract_version: i.contract_version,
        capabilities: i
            .capabilities
            .into_iter()
            .map(|c| match c {
                wit::Capability::Validate => plain::Capability::Validate,
                wit::Capability::Scan => plain::Capability::Scan,
                wit::Capability::Score => plain::Capability::Score,
                wit::Capability::Select => plain::Capability::Select,
            })
            .collect(),
        default_limits: limits_back(i.default_limits),
    }
}
