//! `kenning review`: the quarantine queue, and a human's decision on each memory in it. Review
//! never calls the policy.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use kenning::Result;
use kenning::service::governance::Decision;
use kenning_contract::args::Author;

use super::{GlobalOpts, PolicyUse, SubjectArg, SubjectOnlyCmd, print_json, service};

/// `kenning review`.
#[derive(Subcommand)]
pub enum ReviewCmd {
    /// List memories awaiting review.
    List(SubjectOnlyCmd),
    /// Accept a memory: it becomes NATIVE (FOREIGN when shared by a peer), keeping its author.
    Accept(ReviewDecisionCmd),
    /// Reject a memory: it is kept for the audit trail and never used.
    Reject(ReviewDecisionCmd),
}

/// `kenning review accept|reject`.
#[derive(Args)]
pub struct ReviewDecisionCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The memory's id.
    id: u64,
    /// Who decides (recorded in the audit log).
    #[arg(long, default_value = "human")]
    reviewer: String,
}

/// Lists the queue, or accepts or rejects one memory and prints the outcome as one JSON line.
pub fn run(global: &GlobalOpts, review: &ReviewCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    match review {
        ReviewCmd::List(cmd) => {
            let subject = cmd.subject.parse()?;
            // Each proposal, then (indented) why it was written as it was, when its first
            // audit event says: what the scan held it for, a revision's reason, an import's file.
            for m in service.review_list(&subject, Author::Human)? {
                if cmd.json {
                    print_json(&m)?;
                    continue;
                }
                let label = match m.forgets {
                    Some(target) => format!("{} by {}, forgets memory {target}", m.badge, m.author),
                    None => format!("{} by {}", m.badge, m.author),
                };
                outln!("#{} [{label}] {}", m.id, m.text);
                if let Some(why) = &m.why {
                    outln!("    why: {why}");
                }
            }
        }
        ReviewCmd::Accept(cmd) | ReviewCmd::Reject(cmd) => {
            let decision = if matches!(review, ReviewCmd::Accept(_)) {
                Decision::Accept
            } else {
                Decision::Reject
            };
            let subject = cmd.subject.parse()?;
            print_json(&service.review(&subject, cmd.id, decision, &cmd.reviewer)?)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
