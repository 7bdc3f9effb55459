//! `kenning policy check PATH`: the conformance kit a policy author runs on their component
//! (see [`kenning::policy::conformance`]). A readable report, or one JSON object with `--json`;
//! exit 1 when any check fails.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use kenning::Result;
use kenning::policy::{PolicyEngine, conformance};
use serde_json::json;

use super::GlobalOpts;

/// What to do with a policy component.
#[derive(Subcommand)]
pub enum PolicyCmd {
    /// Check a policy component against the contract: version, determinism, the guard's
    /// invariants, schemas, hostile inputs and timing.
    Check(CheckCmd),
}

/// `policy check`.
#[derive(Args)]
pub struct CheckCmd {
    /// The component (`.wasm`) to check.
    pub path: PathBuf,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
}

/// Runs a `policy` subcommand.
pub fn run(cmd: &PolicyCmd, global: &GlobalOpts) -> Result<ExitCode> {
    let PolicyCmd::Check(check) = cmd;
    let engine = PolicyEngine::new(None)?;
    let limits = global.limits()?;
    let mut policy = engine.load_file(&check.path, limits)?;
    // Timed against the embedded default component: both pay the sandbox's costs alike.
    let reference = engine.load_default(limits)?;
    let report = conformance::check(&mut policy, &reference);
    if check.json {
        outln!(
            "{}",
            json!({
                "policy": report.policy,
                "contract_version": report.contract_version,
                "passed": report.passed(),
                "checks": report.checks,
            })
        );
    } else {
        outln!(
            "{} (contract {}): {}",
            report.policy,
            report.contract_version,
            check.path.display()
        );
        for c in &report.checks {
            outln!(
                "  {} {}: {}",
                if c.passed { "ok  " } else { "FAIL" },
                c.name,
                c.detail
            );
        }
        let failed = report.checks.iter().filter(|c| !c.passed).count();
        if failed == 0 {
            outln!("every check passed ({})", report.checks.len());
        } else {
            outln!("{failed} of {} checks failed", report.checks.len());
        }
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
