//! `kenning export` and `kenning import`: a subject's memories to and from `kenning-memory/1`
//! JSONL files (export also as Markdown), over [`kenning::service::interchange`].

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kenning::service::interchange::{ExportFormat, ImportOptions, ImportReport, ImportStage};
use kenning::{KenningError, Result};

use super::{AuthorArg, GlobalOpts, PolicyUse, SubjectArg, print_json, service};

/// `kenning export`.
#[derive(Args)]
pub struct ExportCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// `jsonl` (kenning-memory/1, which import reads) or `markdown` (for reading).
    #[arg(long, value_enum, default_value = "jsonl")]
    format: FormatArg,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// What `--format` names.
#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// kenning-memory/1 JSON lines.
    Jsonl,
    /// Markdown.
    Markdown,
}

/// `kenning import`.
#[derive(Args)]
pub struct ImportCmd {
    /// A kenning-memory/1 JSONL file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    subject: SubjectArg,
    /// Check everything and report what would be imported; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Who is importing: a human's import keeps accepted memories as FOREIGN, anyone else's
    /// await review as INBOUND-PENDING.
    #[arg(long, value_enum, default_value = "human")]
    author: AuthorArg,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// Exports every memory of the subject.
pub fn export(global: &GlobalOpts, cmd: &ExportCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let format = match cmd.format {
        FormatArg::Jsonl => ExportFormat::Jsonl,
        FormatArg::Markdown => ExportFormat::Markdown,
    };
    let export = service.export(&cmd.subject.parse()?, format)?;
    match &cmd.output {
        Some(path) => {
            std::fs::write(path, &export.text).map_err(|source| KenningError::Io {
                path: path.clone(),
                source,
            })?;
            eprintln!(
                "exported {} memories to {}",
                export.memories,
                path.display()
            );
        }
        None => out!("{}", export.text),
    }
    Ok(ExitCode::SUCCESS)
}

/// Imports a file into the subject, all or nothing.
pub fn import(global: &GlobalOpts, cmd: &ImportCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let (source_name, text) = if cmd.file.as_os_str() == "-" {
        let text =
            std::io::read_to_string(std::io::stdin()).map_err(|source| KenningError::Io {
                path: "<stdin>".into(),
                source,
            })?;
        ("<stdin>".to_owned(), text)
    } else {
        let text = std::fs::read_to_string(&cmd.file).map_err(|source| KenningError::Io {
            path: cmd.file.clone(),
            source,
        })?;
        (cmd.file.display().to_string(), text)
    };
    // One policy instance for every batch of the file: the scanner is built once.
    let service = service(global, None, PolicyUse::Session)?.build()?;
    let options = ImportOptions {
        importer: cmd.author.into(),
        dry_run: cmd.dry_run,
        source_name,
    };
    let bar = progress_bar();
    let report = service.import(&subject, &text, &options, &mut |stage, done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
            bar.set_message(match stage {
                ImportStage::Checking => "checking",
                ImportStage::Writing if cmd.dry_run => "comparing",
                ImportStage::Writing => "writing",
            });
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = report?;
    if cmd.json {
        print_json(&report)?;
    } else {
        print_report(&report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on standard error when it is a terminal; none otherwise, so logs and pipes
/// never receive drawing codes.
fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} records")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    Some(bar)
}

fn print_report(report: &ImportReport) -> Result<()> {
    let verb = if report.dry_run {
        "would import"
    } else {
        "imported"
    };
    let badges: Vec<String> = report
        .badges
        .iter()
        .map(|(badge, n)| format!("{n} {badge}"))
        .collect();
    outln!(
        "{verb} {} of {} records into {} ({} duplicates skipped, {} redacted){}{}",
        report.imported,
        report.records,
        report.subject,
        report.duplicates,
        report.redacted,
        if badges.is_empty() { "" } else { "; badges: " },
        badges.join(", ")
    );
    if report.dry_run {
        outln!("dry run: nothing was written");
    }
    Ok(())
}
