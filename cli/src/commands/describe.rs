//! `kenning describe`: who the policy component is (name, version, contract, capabilities,
//! default limits), what it imports and how large it is. It inspects the component itself, so
//! it loads it directly rather than through a service.

use std::process::ExitCode;

use kenning::policy::{DEFAULT_POLICY_WASM, Policy, PolicyEngine, component_imports};
use kenning::{KenningError, Result};
use serde_json::json;

use super::GlobalOpts;

/// Prints one JSON line: `{"policy": {...}, "imports": [...], "bytes": N}`.
pub fn run(global: &GlobalOpts) -> Result<ExitCode> {
    let limits = global.limits()?;
    let engine = PolicyEngine::new(None)?;
    let (bytes, policy) = match &global.policy {
        Some(path) => (
            std::fs::read(path).map_err(|source| KenningError::Io {
                path: path.clone(),
                source,
            })?,
            engine.load_file(path, limits)?,
        ),
        None => (DEFAULT_POLICY_WASM.to_vec(), engine.load_default(limits)?),
    };
    let imports = component_imports(&engine, &bytes)?;
    outln!(
        "{}",
        json!({"policy": policy.info(), "imports": imports, "bytes": bytes.len()})
    );
    Ok(ExitCode::SUCCESS)
}
