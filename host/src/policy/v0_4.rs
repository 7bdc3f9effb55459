//! The adapter for contract `kenning:policy@0.4.0` (frozen in
//! `contract/wit/since_v0.4.0/`): its generated bindings, the conversions between them and the
//! contract's plain types, and one function per duty. Candidates travel as columns, laid out by
//! [`CandidateColumns`](kenning_contract::candidates::CandidateColumns) (the layout's one definition, which the component glue reads back),
//! with each candidate's author and badge; memories travel packed as in 0.2.0.

use kenning_contract::types as plain;
use wasmtime::Store;

use super::convert::{column_batches, packed_batches, scan_conversions, shared_conversions};
use super::sandbox::Sandbox;

wasmtime::component::bindgen!({
    world: "memory-policy",
    path: "../contract/wit/since_v0.4.0",
});

use self::kenning::policy::types as wit;

pub use MemoryPolicy as Bindings;
pub use MemoryPolicyPre as BindingsPre;

/// The interface a 0.4.0 component exports.
pub const INTERFACE: &str = "kenning:policy/policy@0.4.0";

shared_conversions!();
scan_conversions!(author, Hold);
packed_batches!();
column_batches!(authors, badges);
