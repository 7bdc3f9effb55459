//! `kenning maintain`: retention and index upkeep for one subject, several, or every subject
//! in the data directory (see [`kenning::service::maintain`]).

use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::service::maintain::MaintenanceReport;
use kenning::subject::Subject;

use super::{GlobalOpts, PolicyUse, print_json, service};

/// `kenning maintain`.
#[derive(Args)]
pub struct MaintainCmd {
    /// A subject to maintain (repeatable); without one, every subject in the data directory.
    #[arg(long, short)]
    subject: Vec<String>,
    /// Show what would expire; change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print one JSON report per subject, a line each.
    #[arg(long)]
    json: bool,
}

/// Runs maintenance; fails on the first subject whose run fails (earlier ones stay done).
pub fn run(global: &GlobalOpts, cmd: &MaintainCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let subjects: Vec<Subject> = if cmd.subject.is_empty() {
        service.subjects()?
    } else {
        cmd.subject
            .iter()
            .map(|spec| Subject::parse(spec))
            .collect::<Result<_>>()?
    };
    for subject in &subjects {
        let report = service.maintain(subject, cmd.dry_run)?;
        if cmd.json {
            print_json(&report)?;
        } else {
            print_report(&report)?;
        }
    }
    if subjects.is_empty() && !cmd.json {
        outln!("no knowledge base in the data directory");
    }
    Ok(ExitCode::SUCCESS)
}

/// A report for a reader.
fn print_report(report: &MaintenanceReport) -> Result<()> {
    let (before, after) = report.index_segments;
    let verb = if report.dry_run {
        "would expire"
    } else {
        "expired"
    };
    outln!(
        "{}: {verb} {} of {} active memories; index segments {before} -> {after}",
        report.subject,
        report.expired.len(),
        report.memories
    );
    for expired in &report.expired {
        outln!(
            "  {} #{} {:?} ({})",
            expired.outcome,
            expired.memory.id,
            expired.memory.preview,
            expired.reason
        );
    }
    Ok(())
}
