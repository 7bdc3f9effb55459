//! The adapter for contract `kenning:policy@0.2.0` (frozen in
//! `contract/wit/since_v0.2.0/`): its generated bindings, the conversions between them and the
//! contract's plain types, and one function per duty. Candidates and memories travel packed:
//! every text in one buffer, each item naming its own by span.

use kenning_contract::types as plain;
use wasmtime::Store;

use super::convert::{packed_batches, scan_conversions, shared_conversions};
use super::sandbox::Sandbox;

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
scan_conversions!();
packed_batches!();

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
