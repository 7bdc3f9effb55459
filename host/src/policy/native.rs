//! The default policy linked into the host as ordinary Rust.

use kenning_contract::types::{
    Candidate, ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, Retention, ScanItem,
    ScanResult, ScoreParts, Selection, StoredMemory, ValidatedCall,
};

use super::Policy;
use crate::error::PolicyError;

/// The default policy compiled natively: the same logic as the embedded component, without the
/// sandbox. Used to measure the sandbox's cost and to check that both builds agree.
pub struct NativePolicy {
    info: PolicyInfo,
}

impl NativePolicy {
    /// The native default policy.
    pub fn new() -> Self {
        NativePolicy {
            info: kenning_policy::describe(),
        }
    }
}

impl Default for NativePolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl Policy for NativePolicy {
    fn info(&self) -> &PolicyInfo {
        &self.info
    }

    fn validate(
        &self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError> {
        Ok(kenning_policy::validate(tool, args_json))
    }

    fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError> {
        Ok(kenning_policy::scan(items))
    }

    fn score(
        &self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError> {
        Ok(kenning_policy::score(context, candidates))
    }

    fn select(
        &self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError> {
        Ok(kenning_policy::select(context, candidates, limits))
    }

    fn consolidate(
        &self,
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> Result<ConsolidationPlan, PolicyError> {
        Ok(kenning_policy::consolidate(now, memories, retention))
    }
}
