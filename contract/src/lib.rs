//! The contract between kenning's host and a memory policy, for policy authors and hosts alike.
//!
//! - [`types`]: the data that crosses the boundary (contexts, candidates, selections, scan
//!   results, consolidation plans), as plain Rust values;
//! - [`candidates`]: candidates as a policy reads them, borrowed in place ([`Candidates`],
//!   [`CandidateRef`], [`AnchorRef`]), and the column layout they travel in;
//! - [`spotlight`]: how a snapshot shows memories as data, with their provenance, so that no
//!   memory's text can pass for an instruction or a role;
//! - [`args`]: the closed records of the agent's tool calls and of imported and extracted
//!   memories, as a policy's `validate` returns them;
//! - the documented limits (`MAX_*`), the tools ([`TOOLS`]) and record kinds ([`RECORDS`]);
//! - [`parse_address`], [`is_thread_id`] and [`is_tag`], the input rules hosts and policies share;
//! - [`Policy`], the trait a policy implements (every duty but `describe` has a default), and
//!   [`export_policy!`], which exports an implementation as a WebAssembly component;
//! - the WIT of every released contract version, frozen under `wit/since_vX.Y.Z/` (the
//!   repository's top-level `wit/` holds the current one, the same as its frozen copy).
//!
//! A minimal policy (the export exists when building for `wasm32`; the rest compiles and runs
//! anywhere, as this example does):
//!
//! ```
//! struct Newest;
//! impl kenning_contract::Policy for Newest {
//!     const NAME: &'static str = "newest";
//!     const VERSION: &'static str = "0.1.0";
//! }
//! # #[cfg(target_arch = "wasm32")]
//! kenning_contract::export_policy!(Newest);
//! # assert_eq!(<Newest as kenning_contract::Policy>::describe().name, "newest");
//! ```

#![warn(missing_docs)]

#[macro_use]
mod spelling;

pub mod args;
pub mod candidates;
pub mod spotlight;
pub mod types;

mod input;
mod policy;
mod short_form;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod export;
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod snapshot_alloc;

pub use candidates::{AnchorRef, Anchors, CandidateRef, Candidates, Tags};
pub use input::{is_tag, is_thread_id, parse_address};
pub use policy::{Policy, estimate_tokens};

/// The contract version this crate implements (its WIT is `wit/since_v0.4.0/`).
pub const CONTRACT_VERSION: &str = "0.4.0";

/// Every contract version a kenning host accepts, oldest first; each has its WIT frozen under
/// `wit/since_vX.Y.Z/`.
pub const CONTRACT_VERSIONS: &[&str] = &["0.1.0", "0.2.0", "0.3.0", "0.4.0"];

/// The tools an agent may call, in the order error messages list them.
pub const TOOLS: &[&str] = &[
    "remember",
    "revise_memory",
    "forget_memory",
    "recall",
    "memory",
];

/// The record kinds `validate` also checks: data the host reads from elsewhere, never an
/// agent's call. `import-record` is one line of a JSONL export ([`args::ImportRecord`]);
/// `extraction` is what a model-driven extraction step proposes ([`args::Extraction`]).
pub const RECORDS: &[&str] = &[IMPORT_RECORD, "extraction"];

/// The record kind of one line of a `kenning-memory/1` export.
pub const IMPORT_RECORD: &str = "import-record";

/// Largest `args_json` a tool call or an import record may have, in bytes.
pub const MAX_ARGS_BYTES: usize = 65536;
/// Largest extraction result, in bytes.
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

/// Exports a type implementing [`Policy`] as the component's `kenning:policy/policy` interface
/// (contract [`CONTRACT_VERSION`]), and [`Policy::prepare`] as the core function
/// `wizer-initialize` a pre-initialiser calls. Use it once, at the root of a `cdylib` crate built for
/// `wasm32-unknown-unknown` and made a component (see the README's "Write your own policy").
///
/// It also installs the crate's global allocator: one heap for `prepare` and one, sealed off
/// from the first when `prepare` returns, for every call after it (so a call's allocations land
/// in fresh pages rather than in the holes `prepare` left in the snapshot).
#[macro_export]
macro_rules! export_policy {
    ($policy:ty) => {
        #[cfg(target_arch = "wasm32")]
        type __KenningExportedPolicy = $crate::export::Export<$policy>;
        #[cfg(target_arch = "wasm32")]
        $crate::export::export_bindings!(__KenningExportedPolicy with_types_in $crate::export);
        // A core export outside the WIT world, which componentisation ignores: the build's
        // pre-initialiser calls it, snapshots the memory, and drops the export.
        #[cfg(target_arch = "wasm32")]
        #[unsafe(export_name = "wizer-initialize")]
        extern "C" fn __kenning_prepare() {
            <$policy as $crate::Policy>::prepare();
            $crate::snapshot_alloc::seal();
        }
        #[cfg(target_arch = "wasm32")]
        #[global_allocator]
        static __KENNING_ALLOCATOR: $crate::snapshot_alloc::SnapshotAllocator =
            $crate::snapshot_alloc::SnapshotAllocator::new();
    };
}
