//! `kenning dream`: consolidation ("AutoDream"). `--dry-run` prints the policy's plan and its
//! hash; `--execute --yes --plan-hash H` applies exactly that plan in one transaction, or
//! refuses when the store changed since the preview.

use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::service::dream::{DEFAULT_MIN_HOURS, DreamPlan, DreamRequest, DreamStep};

use super::{GlobalOpts, PolicyUse, SubjectArg, print_json, print_pretty, service, usage};

/// `kenning dream`.
#[derive(Args)]
pub struct DreamCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Print the plan and its hash; change nothing.
    #[arg(long, conflicts_with = "execute")]
    dry_run: bool,
    /// Apply the plan previewed with --dry-run (needs --yes and --plan-hash).
    #[arg(long)]
    execute: bool,
    /// Confirm the changes --execute makes.
    #[arg(long)]
    yes: bool,
    /// The hash --dry-run printed: the run is refused unless the plan is still that one.
    #[arg(long, value_name = "HASH")]
    plan_hash: Option<String>,
    /// Least hours since the last successful run.
    #[arg(long, default_value_t = DEFAULT_MIN_HOURS)]
    min_hours: u32,
    /// Least user turns (kenning turn) since the last successful run.
    #[arg(long, default_value_t = 0)]
    min_turns: u64,
    /// Run even within --min-hours or --min-turns of the last run.
    #[arg(long)]
    force: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Previews or applies a consolidation.
pub fn run(global: &GlobalOpts, cmd: &DreamCmd) -> Result<ExitCode> {
    if cmd.dry_run == cmd.execute {
        return Err(usage(
            "kenning dream needs --dry-run (preview the plan) or --execute --yes --plan-hash HASH (apply it)",
        ));
    }
    if cmd.execute && !cmd.yes {
        return Err(usage(
            "--execute changes memories: confirm with --yes (preview first with --dry-run)",
        ));
    }
    if cmd.execute && cmd.plan_hash.is_none() {
        return Err(usage(
            "--execute applies the plan a preview named: give its --plan-hash (from --dry-run)",
        ));
    }
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let subject = cmd.subject.parse()?;
    let request = DreamRequest {
        min_hours: cmd.min_hours,
        min_turns: cmd.min_turns,
        force: cmd.force,
    };
    if cmd.dry_run {
        let plan = service.dream_plan(&subject, request)?;
        if cmd.json {
            print_pretty(&plan)?;
        } else {
            print_plan(&plan, &cmd.subject.subject)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let hash = cmd.plan_hash.as_deref().expect("checked above");
    let outcome = service.dream_execute(&subject, hash, request)?;
    if cmd.json {
        print_json(&outcome)?;
    } else {
        let run = &outcome.run;
        outln!(
            "applied plan {}: {} merged, {} superseded, {} expired ({} audit events)",
            run.plan_hash,
            run.merged,
            run.superseded,
            run.expired,
            outcome.events
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The plan for a reader.
fn print_plan(plan: &DreamPlan, subject: &str) -> Result<()> {
    let c = &plan.counts;
    outln!(
        "plan {} by {} over {} active memories: {} merges folding {} memories, {} supersessions, {} expiries",
        plan.plan_hash,
        plan.policy,
        plan.memories,
        c.merges,
        c.merged,
        c.superseded,
        c.expired
    );
    for step in &plan.steps {
        match step {
            DreamStep::Merge {
                keep,
                duplicates,
                reason,
            } => {
                outln!("merge into #{} {:?} ({reason})", keep.id, keep.preview);
                for d in duplicates {
                    outln!("  fold #{} {:?}", d.id, d.preview);
                }
            }
            DreamStep::Supersede {
                newer,
                older,
                reason,
            } => {
                outln!("supersede #{} {:?} ({reason})", older.id, older.preview);
                outln!("  by #{} {:?}", newer.id, newer.preview);
            }
            DreamStep::Expire { memory, reason } => {
                outln!("expire #{} {:?} ({reason})", memory.id, memory.preview);
            }
        }
    }
    match plan.next_due_at {
        None if !plan.due => outln!(
            "not due: {} user turns since the last run (--min-turns); to apply now: kenning dream --subject {subject} --execute --yes --force --plan-hash {}",
            plan.turns_since_last_run,
            plan.plan_hash
        ),
        None => outln!(
            "to apply: kenning dream --subject {subject} --execute --yes --plan-hash {}",
            plan.plan_hash
        ),
        Some(next) => outln!(
            "not due until {next} (seconds since the epoch; --min-hours); to apply now: kenning dream --subject {subject} --execute --yes --force --plan-hash {}",
            plan.plan_hash
        ),
    }
    Ok(())
}
