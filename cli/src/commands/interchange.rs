//! `kenning export` and `kenning import`: a subject's memories to and from `kenning-memory/1`
//! JSONL files (export also as Markdown), and a profile's USER.md, MEMORY.md and daily notes to
//! and from a directory, over [`kenning::service::interchange`] and
//! [`kenning::service::profile_files`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kenning::service::interchange::{ExportFormat, ImportOptions, ImportReport, ImportStage};
use kenning::service::profile_files::ProfileFile;
use kenning::{KenningError, Result, Service};

use super::{AuthorArg, GlobalOpts, PolicyUse, SubjectArg, print_json, service, usage};

/// `kenning export`.
#[derive(Args)]
pub struct ExportCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// `jsonl` (kenning-memory/1, which import reads), `markdown` (for reading), or `profile`
    /// (a profile's USER.md, MEMORY.md and daily/YYYY-MM-DD.md in the --output directory,
    /// which import reads back).
    #[arg(long, value_enum, default_value = "jsonl")]
    format: FormatArg,
    /// Write to this file (a new or empty directory for `profile`) instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    output: Option<PathBuf>,
}

/// What `--format` names.
#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// kenning-memory/1 JSON lines.
    Jsonl,
    /// Markdown.
    Markdown,
    /// A profile's files, in a directory.
    Profile,
}

/// `kenning import`.
#[derive(Args)]
pub struct ImportCmd {
    /// A kenning-memory/1 JSONL file (`-` for standard input), or a directory of a profile's
    /// USER.md, MEMORY.md and daily/YYYY-MM-DD.md.
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
        FormatArg::Profile => return export_profile(&service, cmd),
    };
    if let Some(path) = &cmd.output {
        refuse_over_a_store(&service, path)?;
    }
    let export = service.export(&cmd.subject.parse()?, format)?;
    match &cmd.output {
        Some(path) => {
            // 0600, like every file kenning writes: an export holds every memory.
            kenning::private::write_file(path, export.text.as_bytes())?;
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

/// Refuses an `--output` that would write over what kenning keeps in its data directory: a
/// file there that exists (a store, its log, the tokens), or a new one named as a store or its
/// log would be, which the next command would take for a knowledge base. Resolved through
/// links, so another name for a store's file is refused too. No command overwrites a store.
fn refuse_over_a_store(service: &Service, output: &Path) -> Result<()> {
    let resolve = |path: &Path| -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        match std::fs::canonicalize(&absolute) {
            Ok(real) => Some(real),
            // A new file: where its folder really is, and its name.
            Err(_) => Some(
                std::fs::canonicalize(absolute.parent()?)
                    .ok()?
                    .join(absolute.file_name()?),
            ),
        }
    };
    let (Some(real), Some(data)) = (resolve(output), resolve(service.data_dir())) else {
        return Ok(());
    };
    let name = real
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let store_like = [".sqlite", "-wal", "-shm", "-journal"]
        .iter()
        .any(|end| name.ends_with(end));
    if real.starts_with(&data) && (real.is_file() || store_like) {
        return Err(usage(format!(
            "--output {} would write over what kenning keeps in the data directory {}: an export never does; name a file elsewhere",
            output.display(),
            service.data_dir().display()
        )));
    }
    Ok(())
}

/// Writes a profile's files into `--output`, a new or empty directory.
fn export_profile(service: &Service, cmd: &ExportCmd) -> Result<ExitCode> {
    let Some(dir) = &cmd.output else {
        return Err(usage(
            "--format profile writes several files: name a new or empty directory with --output DIR",
        ));
    };
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| KenningError::Io { path, source }
    };
    refuse_over_a_store(service, dir)?;
    let files = service.export_profile_files(&cmd.subject.parse()?)?;
    if dir.exists() && std::fs::read_dir(dir).map_err(io(dir))?.next().is_some() {
        return Err(usage(format!(
            "{} is not empty: export profile files into a new or empty directory",
            dir.display()
        )));
    }
    kenning::private::create_dir_all(&dir.join("daily"))?;
    for file in &files {
        kenning::private::write_file(&dir.join(&file.path), file.text.as_bytes())?;
    }
    eprintln!(
        "exported {} profile files to {}",
        files.len(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A profile's files in `dir`: USER.md, MEMORY.md and every file under daily/ (any other name
/// there is the import's to refuse).
fn read_profile_dir(dir: &Path) -> Result<Vec<ProfileFile>> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| KenningError::Io { path, source }
    };
    let mut files = Vec::new();
    for name in ["USER.md", "MEMORY.md"] {
        let path = dir.join(name);
        if path.exists() {
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            files.push(ProfileFile {
                path: name.to_owned(),
                text,
            });
        }
    }
    let daily = dir.join("daily");
    if daily.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(&daily)
            .map_err(io(&daily))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        for name in names {
            let path = daily.join(&name);
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            files.push(ProfileFile {
                path: format!("daily/{name}"),
                text,
            });
        }
    }
    if files.is_empty() {
        return Err(usage(format!(
            "{} holds no USER.md, MEMORY.md or daily/ notes",
            dir.display()
        )));
    }
    Ok(files)
}

/// Imports a file (or a profile's directory) into the subject, all or nothing.
pub fn import(global: &GlobalOpts, cmd: &ImportCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let profile = if cmd.file.is_dir() {
        Some(read_profile_dir(&cmd.file)?)
    } else {
        None
    };
    let (source_name, text) = if profile.is_some() {
        (cmd.file.display().to_string(), String::new())
    } else if cmd.file.as_os_str() == "-" {
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
    let mut progress = |stage, done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
            bar.set_message(match stage {
                ImportStage::Checking => "checking",
                ImportStage::Writing if cmd.dry_run => "comparing",
                ImportStage::Writing => "writing",
            });
        }
    };
    let report = match &profile {
        Some(files) => service.import_profile_files(&subject, files, &options, &mut progress),
        None => service.import(&subject, &text, &options, &mut progress),
    };
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
