//! The adapter for contract `kenning:policy@0.1.0` (frozen in
//! `contract/wit/since_v0.1.0/`): its generated bindings, the conversions between them and the
//! contract's plain types, and one function per duty. 0.1.0 has no `consolidate` duty.

use kenning_contract::types as plain;
use wasmtime::Store;

use super::convert::{scan_conversions, shared_conversions};
use super::sandbox::Sandbox;

wasmtime::component::bindgen!({
    world: "memory-policy",
    path: "../contract/wit/since_v0.1.0",
});

use self::kenning::policy::types as wit;

pub use MemoryPolicy as Bindings;
pub use MemoryPolicyPre as BindingsPre;

/// The interface a 0.1.0 component exports.
pub const INTERFACE: &str = "kenning:policy/policy@0.1.0";

shared_conversions!();
scan_conversions!();

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

fn candidate(c: &plain::Candidate) -> wit::Candidate {
    wit::Candidate {
        id: c.id,
        scope: scope(c.scope),
        kind: kind(c.kind),
        text: c.text.clone(),
        tags: c.tags.clone(),
        confidence: c.confidence,
        created_at: c.created_at,
        updated_at: c.updated_at,
        anchors: c.anchors.iter().map(anchor).collect(),
        lexical_score: c.lexical_score,
    }
}

fn capability(c: wit::Capability) -> plain::Capability {
    match c {
        wit::Capability::Validate => plain::Capability::Validate,
        wit::Capability::Scan => plain::Capability::Scan,
        wit::Capability::Score => plain::Capability::Score,
        wit::Capability::Select => plain::Capability::Select,
    }
}

/// Candidates as 0.1.0 takes them: records, each text a string of its own.
fn pack(candidates: &[plain::Candidate]) -> Vec<wit::Candidate> {
    candidates.iter().map(candidate).collect()
}
