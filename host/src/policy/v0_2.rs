//! The adapter for contract `kenning:policy@0.2.0` (frozen in
//! `contract/wit/since_v0.2.0/`): its generated bindings, the conversions between them and the
//! contract's plain types, and one function per duty. Candidates and memories travel packed:
//! every text in one buffer, each item naming its own by span.

use kenning_contract::types as plain;
use wasmtime::Store;

use super::component::Sandbox;
use super::convert::shared_conversions;

wasmtime::component::bindgen!({
    world: "memory-policy",
    path: "../contract/wit/since_v0.2.0",
});

use self::kenning::policy::types as wit;

pub use MemoryPolicy as Bindings;
pub use MemoryPolicyPre as BindingsPre;

/// The interface a 0.2.0 component exports.
pub const INTERFACE: &str = "kenning:policy/policy@0.2.0";

shared_conversions!();

/// Appends texts and anchors to one buffer each and hands out their spans.
#[derive(Default)]
struct Packer {
    texts: String,
    anchors: Vec<wit::Anchor>,
}

impl Packer {
    fn push(&mut self, text: &str) -> wit::Span {
        let start = self.texts.len();
        self.texts.push_str(text);
        span(start, text.len())
    }

    fn push_tags(&mut self, tags: &[String]) -> wit::Span {
        let start = self.texts.len();
        for (i, tag) in tags.iter().enumerate() {
            if i > 0 {
                self.texts.push(' ');
            }
            self.texts.push_str(tag);
        }
        span(start, self.texts.len() - start)
    }

    fn push_anchors(&mut self, anchors: &[plain::Anchor]) -> wit::Span {
        let start = self.anchors.len();
        for a in anchors {
            let anchor = match a {
                plain::Anchor::Function(f) => wit::Anchor::Function(wit::FunctionAnchor {
                    start: f.start,
                    end: f.end,
                    name: self.push(&f.name),
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
                plain::Anchor::String { value } => wit::Anchor::ReferencedString(self.push(value)),
            };
            self.anchors.push(anchor);
        }
        span(start, anchors.len())
    }
}

/// A span; the batches a host builds stay far below 4 GiB (texts are capped at 8 KiB each).
fn span(start: usize, len: usize) -> wit::Span {
    wit::Span {
        start: u32::try_from(start).unwrap_or(u32::MAX),
        len: u32::try_from(len).unwrap_or(0),
    }
}

fn pack(candidates: &[plain::Candidate]) -> wit::Candidates {
    let mut packer = Packer {
        texts: String::with_capacity(candidates.iter().map(|c| c.text.len() + 16).sum()),
        anchors: Vec::with_capacity(candidates.len()),
    };
    let items = candidates
        .iter()
        .map(|c| wit::Candidate {
            id: c.id,
            scope: scope(c.scope),
            kind: kind(c.kind),
            text: packer.push(&c.text),
            tags: packer.push_tags(&c.tags),
            confidence: c.confidence,
            created_at: c.created_at,
            updated_at: c.updated_at,
            anchors: packer.push_anchors(&c.anchors),
            lexical_score: c.lexical_score,
        })
        .collect();
    wit::Candidates {
        texts: packer.texts,
        anchors: packer.anchors,
        items,
    }
}

fn pack_memories(memories: &[plain::StoredMemory]) -> wit::Memories {
    let mut packer = Packer::default();
    let items = memories
        .iter()
        .map(|m| wit::StoredMemory {
            id: m.id,
            scope: scope(m.scope),
            kind: kind(m.kind),
            target: m.target.map(target),
            day: packer.push(m.day.as_deref().unwrap_or_default()),
            text: packer.push(&m.text),
            tags: packer.push_tags(&m.tags),
            confidence: m.confidence,
            created_at: m.created_at,
            updated_at: m.updated_at,
            anchors: packer.push_anchors(&m.anchors),
            pending: m.pending,
        })
        .collect();
    wit::Memories {
        texts: packer.texts,
        anchors: packer.anchors,
        items,
    }
}

fn capability(c: wit::Capability) -> plain::Capability {
    match c {
        wit::Capability::Validate => plain::Capability::Validate,
        wit::Capability::Scan => plain::Capability::Scan,
        wit::Capability::Score => plain::Capability::Score,
        wit::Capability::Select => plain::Capability::Select,
        wit::Capability::Consolidate => plain::Capability::Consolidate,
    }
}

/// Scores candidates, their texts packed in one buffer.
pub(super) fn score(
    b: &MemoryPolicy,
    store: &mut Store<Sandbox>,
    context: &plain::Context,
    candidates: &[plain::Candidate],
) -> wasmtime::Result<Vec<plain::ScoreParts>> {
    let candidates = pack(candidates);
    let scores =
        b.kenning_policy_policy()
            .call_score(store, &self::context(context), &candidates)?;
    Ok(scores.into_iter().map(score_parts).collect())
}

/// Selects among candidates, their texts packed in one buffer.
pub(super) fn select(
    b: &MemoryPolicy,
    store: &mut Store<Sandbox>,
    context: &plain::Context,
    candidates: &[plain::Candidate],
    limits: &plain::Limits,
) -> wasmtime::Result<plain::Selection> {
    let candidates = pack(candidates);
    b.kenning_policy_policy()
        .call_select(
            store,
            &self::context(context),
            &candidates,
            self::limits(limits),
        )
        .map(selection)
}

/// Plans a consolidation.
pub(super) fn consolidate(
    b: &MemoryPolicy,
    store: &mut Store<Sandbox>,
    now: i64,
    memories: &[plain::StoredMemory],
    retention: &plain::Retention,
) -> wasmtime::Result<plain::ConsolidationPlan> {
    let memories = pack_memories(memories);
    let retention = wit::Retention {
        pending_days: retention.pending_days,
        daily_days: retention.daily_days,
    };
    let plan = b
        .kenning_policy_policy()
        .call_consolidate(store, now, &memories, retention)?;
    Ok(plain::ConsolidationPlan {
        merges: plan
            .merges
            .into_iter()
            .map(|m| plain::Merge {
                keep: m.keep,
                duplicates: m.duplicates,
                reason: m.reason,
            })
            .collect(),
        supersessions: plan
            .supersessions
            .into_iter()
            .map(|s| plain::Supersession {
                newer: s.newer,
                older: s.older,
                reason: s.reason,
            })
            .collect(),
        expiries: plan
            .expiries
            .into_iter()
            .map(|e| plain::Expiry {
                id: e.id,
                reason: e.reason,
            })
            .collect(),
    })
}
