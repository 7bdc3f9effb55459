//! Memory policies behind one trait: the sandboxed component ([`ComponentPolicy`]) and, with
//! the `native-policy` feature, the same default logic linked natively (`NativePolicy`, for
//! benchmarks and golden vectors) and the conformance kit that measures a component against it.
//!
//! The host never trusts a policy: [`Guarded`] checks every answer against the request before
//! anything acts on it.

mod cache;
mod component;
#[cfg(feature = "native-policy")]
pub mod conformance;
mod convert;
mod guard;
#[cfg(feature = "native-policy")]
mod native;
mod sandbox;
mod v0_1;
mod v0_2;
mod v0_3;
mod v0_4;

pub use cache::CacheOutcome;
pub use component::{
    ComponentPolicy, EPOCH_TICK, MAX_DEADLINE_MS, MAX_MEMORY_BYTES, MIN_MEMORY_BYTES, PolicyEngine,
    SandboxLimits, component_imports,
};
pub use guard::Guarded;
#[cfg(feature = "native-policy")]
pub use native::NativePolicy;

use kenning_contract::types::{
    Candidate, ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, Retention, ScanItem,
    ScanResult, ScoreParts, Selection, StoredMemory, ValidatedCall,
};

use crate::error::PolicyError;

/// The default policy component, built from `guest/` by `build.rs` and embedded in the binary.
///
/// A `static`, not a `const`: the cache recognises it by address to use the digest the build
/// computed, and a `const` may be a separate copy at each place it is used.
pub static DEFAULT_POLICY_WASM: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/kenning_policy.wasm"));

/// The SHA-256 of [`DEFAULT_POLICY_WASM`], computed by `build.rs`.
pub const DEFAULT_POLICY_SHA256: &[u8; 32] =
    include_bytes!(concat!(env!("OUT_DIR"), "/kenning_policy.sha256"));

/// The contract interfaces a policy component may export, one per accepted contract version,
/// oldest first.
pub const CONTRACT_INTERFACES: &[&str] = &[
    v0_1::INTERFACE,
    v0_2::INTERFACE,
    v0_3::INTERFACE,
    v0_4::INTERFACE,
];

/// The duties of a memory policy plus `describe`, as the host calls them.
///
/// Every method takes `&self`, so one loaded policy serves many threads at once; a policy call
/// keeps nothing between calls (a scan session's instance aside).
///
/// An `Err` means the policy failed (trapped, ran out of fuel or memory, answered nonsense); a
/// validation failure of the input is an `Ok(Err(..))` from [`Policy::validate`].
pub trait Policy: Send + Sync {
    /// Who the policy is (cached at load time).
    fn info(&self) -> &PolicyInfo;

    /// Checks a tool call against its closed schema.
    fn validate(
        &self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError>;

    /// Scans texts before they are stored; one result per item.
    fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError>;

    /// Scores candidates against a context; one result per candidate.
    fn score(
        &self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError>;

    /// Chooses what to inject and renders the snapshot.
    fn select(
        &self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError>;

    /// Plans a consolidation of one subject's memories at `now`. A policy of contract 0.1.0
    /// has no such duty and answers [`PolicyError::Unsupported`].
    fn consolidate(
        &self,
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> Result<ConsolidationPlan, PolicyError>;
}

/// A boxed policy is a policy, so an embedder's own can be guarded like the built-in ones.
impl<P: Policy + ?Sized> Policy for Box<P> {
    fn info(&self) -> &PolicyInfo {
        (**self).info()
    }

    fn validate(
        &self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError> {
        (**self).validate(tool, args_json)
    }

    fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError> {
        (**self).scan(items)
    }

    fn score(
        &self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError> {
        (**self).score(context, candidates)
    }

    fn select(
        &self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError> {
        (**self).select(context, candidates, limits)
    }

    fn consolidate(
        &self,
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> Result<ConsolidationPlan, PolicyError> {
        (**self).consolidate(now, memories, retention)
    }
}
