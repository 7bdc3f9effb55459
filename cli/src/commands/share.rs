//! `kenning share`: confirmed findings of one subject copied into another, awaiting review
//! there (see [`kenning::service::share`]).

use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::subject::Subject;

use super::{GlobalOpts, PolicyUse, print_json, service};

/// `kenning share`.
#[derive(Args)]
pub struct ShareCmd {
    /// The subject the memories are in.
    #[arg(long, value_name = "SUBJECT")]
    from: String,
    /// The subject they are copied into, as INBOUND-PENDING.
    #[arg(long, value_name = "SUBJECT")]
    to: String,
    /// The ids of the memories to share.
    #[arg(required = true)]
    ids: Vec<u64>,
    /// Confirm the share, as the source's share_confirmed_findings = ask requires.
    #[arg(long)]
    yes: bool,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// Shares the memories.
pub fn run(global: &GlobalOpts, cmd: &ShareCmd) -> Result<ExitCode> {
    let from = Subject::parse(&cmd.from)?;
    let to = Subject::parse(&cmd.to)?;
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let report = service.share(&from, &to, &cmd.ids, cmd.yes)?;
    if cmd.json {
        print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let shared = report
        .memories
        .iter()
        .filter(|m| m.outcome == "shared")
        .count();
    outln!(
        "shared {shared} of {} memories from {} into {}, awaiting review there (kenning review list --subject {})",
        report.memories.len(),
        report.from,
        report.to,
        cmd.to
    );
    for m in &report.memories {
        outln!("  #{} -> #{} {}", m.from_id, m.to_id, m.outcome);
    }
    Ok(ExitCode::SUCCESS)
}
