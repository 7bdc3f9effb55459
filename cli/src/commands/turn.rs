//! `kenning turn` counts a user turn and, when a review is due, starts `kenning memory-review`
//! in the background; `kenning memory-review` runs one now (see
//! [`kenning::service::background_review`]).

use std::path::PathBuf;
use std::process::{ExitCode, Stdio};

use clap::Args;
use kenning::{KenningError, Result};

use super::{AuthorArg, GlobalOpts, PolicyUse, SubjectArg, print_json, service};

/// `kenning turn`.
#[derive(Args)]
pub struct TurnCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The session (conversation) the turn belongs to.
    #[arg(long)]
    session: String,
    /// The recent conversation, for the review this turn may start (a file it reads).
    #[arg(long, value_name = "FILE")]
    transcript: Option<PathBuf>,
    /// Who reports the turn: the review it may start writes with their authority.
    #[arg(long, value_enum, default_value = "agent")]
    author: AuthorArg,
    /// Print the count as one JSON line.
    #[arg(long)]
    json: bool,
}

/// `kenning memory-review`.
#[derive(Args)]
pub struct MemoryReviewCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The session whose turns are reviewed.
    #[arg(long)]
    session: String,
    /// The recent conversation.
    #[arg(long, value_name = "FILE")]
    transcript: Option<PathBuf>,
    /// Who started the review: its writes are made with their authority (an external
    /// client's review only proposes).
    #[arg(long, value_enum, default_value = "agent")]
    author: AuthorArg,
    /// Print what the review did as one JSON line.
    #[arg(long)]
    json: bool,
}

/// Counts the turn; starts the review when one is due, without waiting for it.
pub fn turn(global: &GlobalOpts, cmd: &TurnCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let subject = cmd.subject.parse()?;
    let record = service.record_turn(&subject, &cmd.session)?;
    // The count has committed: from here on nothing may report the turn as failed.
    let started = record.review_due && start_review(global, cmd).is_ok();
    if cmd.json {
        let mut answer = serde_json::to_value(&record).expect("a record serialises");
        answer["review_started"] = started.into();
        print_json(&answer)?;
    } else {
        outln!(
            "turn {} of session {} ({} in all){}",
            record.session_turns,
            record.session,
            record.total_turns,
            if started {
                "; a memory review started in the background"
            } else if record.review_due {
                "; a memory review was due but could not be started"
            } else {
                ""
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Starts `kenning memory-review` for the turn's session as a process of its own, detached
/// from this one (its own process group, no terminal streams), and does not wait for it.
fn start_review(global: &GlobalOpts, cmd: &TurnCmd) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut review = global.child(&exe);
    review
        .args([
            "memory-review",
            "--subject",
            &cmd.subject.subject,
            "--session",
            &cmd.session,
            "--author",
            author_name(cmd.author),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(transcript) = &cmd.transcript {
        review
            .arg("--transcript")
            .arg(std::path::absolute(transcript)?);
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut review, 0);
    // Not waited for: when this process exits first, init reaps it.
    review.spawn().map(drop)
}

/// `author` as `--author` spells it.
fn author_name(author: AuthorArg) -> &'static str {
    kenning_contract::args::Author::from(author).as_str()
}

/// Runs a review now.
pub fn memory_review(global: &GlobalOpts, cmd: &MemoryReviewCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let subject = cmd.subject.parse()?;
    let transcript = cmd
        .transcript
        .as_ref()
        .map(|path| {
            std::fs::read_to_string(path).map_err(|source| KenningError::Io {
                path: path.clone(),
                source,
            })
        })
        .transpose()?;
    let outcome = service.background_review(
        &subject,
        cmd.author.into(),
        &cmd.session,
        transcript.as_deref(),
    )?;
    if cmd.json {
        print_json(&outcome)?;
    } else {
        let applied = outcome
            .calls
            .iter()
            .filter(|c| c.outcome == "applied")
            .count();
        outln!(
            "memory review of session {}: {} of {} calls applied",
            outcome.session,
            applied,
            outcome.calls.len()
        );
        for call in &outcome.calls {
            outln!("  {} {} ({})", call.outcome, call.arguments, call.detail);
        }
    }
    Ok(ExitCode::SUCCESS)
}
