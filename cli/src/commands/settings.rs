//! `kenning settings`, `stats`, `log` and `view`: a knowledge base's settings, totals, audit
//! trail and profile files. None of them calls the policy.

use std::process::ExitCode;

use clap::Args;
use kenning::Result;

use super::{
    GlobalOpts, PolicyUse, SubjectArg, SubjectOnlyCmd, print_json, print_pretty, service, usage,
};

/// `kenning settings`.
#[derive(Args)]
pub struct SettingsCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The thread whose settings to show or change (global when absent).
    #[arg(long)]
    thread: Option<String>,
    /// The setting to change: allow_recall, allow_writes, include_in_prompts, harvest_during_compaction, share_confirmed_findings, max_memories.
    key: Option<String>,
    /// Its new value.
    value: Option<String>,
}

/// `kenning log`.
#[derive(Args)]
pub struct LogCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Most events to show.
    #[arg(long, default_value_t = 50)]
    limit: u32,
}

/// Shows the settings in force, or changes one and shows the result.
pub fn settings(global: &GlobalOpts, cmd: &SettingsCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let thread = cmd.thread.as_deref();
    let settings = match (&cmd.key, &cmd.value) {
        (None, None) => service.settings(&subject, thread)?,
        (Some(key), Some(value)) => service.set_setting(&subject, thread, key, value)?,
        _ => {
            return Err(usage(
                "give both a setting and its value, or neither to show them",
            ));
        }
    };
    print_pretty(&settings)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the totals, indented or as one JSON line.
pub fn stats(global: &GlobalOpts, cmd: &SubjectOnlyCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let stats = service.stats(&subject)?;
    if cmd.json {
        print_json(&stats)?;
    } else {
        print_pretty(&stats)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the newest audit events, one JSON line each.
pub fn log(global: &GlobalOpts, cmd: &LogCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    for event in service.log(&subject, cmd.limit)? {
        print_json(&event)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a profile's USER.md, MEMORY.md and today's note, or all three as one JSON line.
pub fn view(global: &GlobalOpts, cmd: &SubjectOnlyCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let view = service.view(&subject)?;
    if cmd.json {
        print_json(&view)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (file, text) in [("USER.md", &view.user), ("MEMORY.md", &view.memory)] {
        match text {
            Some(text) => out!("{text}"),
            None => outln!("{file}: missing (no entries yet)"),
        }
        outln!();
    }
    if let Some((_, text)) = &view.daily {
        out!("{text}");
    }
    Ok(ExitCode::SUCCESS)
}
