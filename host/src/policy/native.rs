//! The default policy linked into the host as ordinary Rust.

use engram_policy::types::{
    Candidate, Context, FieldError, Limits, PolicyInfo, ScanItem, ScanResult, ScoreParts,
    Selection, ValidatedCall,
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
            info: engram_policy::describe(),
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
        &mut self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError> {
        Ok(engram_policy::validate(tool, args_json))
    }

    fn scan(&mut self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError> {
        Ok(engram_policy::scan(items))
    }

    fn score(
        &mut self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError> {
        Ok(engram_policy::score(context, candidates))
    }

    fn select(
        &mut self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError> {
        Ok(engram_policy::select(context, candidates, limits))
    }
}
