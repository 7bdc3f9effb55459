//! The adapter for contract `kenning:policy@0.3.0` (frozen in
//! `contract/wit/since_v0.3.0/`): its generated bindings, the conversions between them and the
//! contract's plain types, and one function per duty. Candidates travel as columns, laid out by
//! [`CandidateColumns`](kenning_contract::candidates::CandidateColumns) (the layout's one definition, which the component glue reads back);
//! memories travel packed as in 0.2.0. Candidates' authors and badges (0.4.0's) are left out.

use kenning_contract::types as plain;
use wasmtime::Store;

use super::convert::{column_batches, packed_batches, scan_conversions, shared_conversions};
use super::sandbox::Sandbox;

wasmtime::component::bindgen!({
    world: "memory-policy",
    path: "../contract/wit/since_v0.3.0",
});

use self::kenning::policy::types as wit;

pub use MemoryPolicy as Bindings;
pub use MemoryPolicyPre as BindingsPre;

/// The interface a 0.3.0 component exports.
pub const INTERFACE: &str = "kenning:policy/policy@0.3.0";

shared_conversions!();
scan_conversions!();
packed_batches!();
column_batches!();
