//! `kenning harvest`, `kenning triage` and `kenning review-functions`: the seed's other write
//! paths, a batch of memories each (see [`kenning::service::write_paths`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use kenning::service::write_paths::BatchReport;
use kenning::{KenningError, Result};

use super::{GlobalOpts, PolicyUse, SubjectArg, print_json, service};

/// `kenning harvest`.
#[derive(Args)]
pub struct HarvestCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The staged proposals: `remember` arguments, one JSON object a line; `-` for standard
    /// input.
    #[arg(value_name = "FILE")]
    proposals: PathBuf,
    /// The conversation thread compacted, whose settings apply.
    #[arg(long)]
    thread: Option<String>,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// `kenning triage`.
#[derive(Args)]
pub struct TriageCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The findings: `remember` arguments with at least one anchor, one JSON object a line;
    /// `-` for standard input.
    #[arg(value_name = "FILE")]
    findings: PathBuf,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// `kenning review-functions`.
#[derive(Args)]
pub struct ReviewFunctionsCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The notes: `{"function": {"name", "start", "end"}, "note", "tags"?, "image_base"?}`,
    /// one a line; `-` for standard input.
    #[arg(value_name = "FILE")]
    notes: PathBuf,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// Commits staged proposals of a compacted conversation.
pub fn harvest(global: &GlobalOpts, cmd: &HarvestCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let text = read_input(&cmd.proposals)?;
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let report = service.harvest(&subject, cmd.thread.as_deref(), &text)?;
    print(&report, cmd.json)
}

/// Writes a triage pass's grounded findings.
pub fn triage(global: &GlobalOpts, cmd: &TriageCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let text = read_input(&cmd.findings)?;
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let report = service.triage(&subject, &text)?;
    print(&report, cmd.json)
}

/// Writes one note for each reviewed function.
pub fn review_functions(global: &GlobalOpts, cmd: &ReviewFunctionsCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let text = read_input(&cmd.notes)?;
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let report = service.review_functions(&subject, &text)?;
    print(&report, cmd.json)
}

fn read_input(path: &Path) -> Result<String> {
    let read = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    };
    read.map_err(|source| KenningError::Io {
        path: if path.as_os_str() == "-" {
            "<stdin>".into()
        } else {
            path.to_owned()
        },
        source,
    })
}

/// The report, for a reader or as JSON.
fn print(report: &BatchReport, json: bool) -> Result<ExitCode> {
    if json {
        print_json(report)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{}: {} written, {} awaiting review, {} duplicates, {} refused",
        report.subject,
        report.count("written"),
        report.count("pending"),
        report.count("duplicate"),
        report.count("refused")
    );
    for item in &report.items {
        let id = item.id.map(|id| format!(" #{id}")).unwrap_or_default();
        let detail = item
            .detail
            .as_deref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        outln!("  line {}: {}{id}{detail}", item.line, item.outcome);
    }
    Ok(ExitCode::SUCCESS)
}
