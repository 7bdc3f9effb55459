//! `kenning inject`: what enters the prompt this turn, as the snapshot, as JSON, or with every
//! candidate's score explained.

use std::process::ExitCode;

use clap::Args;
use kenning::{Injection, Result, TurnContext};
use kenning_contract::types::{Limits, LiveFunction, Scope};
use serde_json::json;

use super::{GlobalOpts, PolicyUse, SubjectArg, parse_address, parse_function, service, usage};

/// `kenning inject`.
#[derive(Args)]
pub struct InjectCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The image base of the addresses given.
    #[arg(long, default_value = "0")]
    image_base: String,
    /// The cursor address.
    #[arg(long)]
    cursor: Option<String>,
    /// The current function: NAME@START-END.
    #[arg(long, value_name = "NAME@START-END")]
    function: Option<String>,
    /// A string referenced near the cursor (repeatable).
    #[arg(long = "string")]
    strings: Vec<String>,
    /// What the agent is asking about.
    #[arg(long, default_value = "")]
    query: String,
    /// Most local memories.
    #[arg(long, default_value_t = Limits::default().local_quota)]
    local_quota: u32,
    /// Most global memories.
    #[arg(long, default_value_t = Limits::default().global_quota)]
    global_quota: u32,
    /// Token budget of the snapshot.
    #[arg(long, default_value_t = Limits::default().token_budget)]
    token_budget: u32,
    /// The conversation thread, whose settings apply.
    #[arg(long)]
    thread: Option<String>,
    /// Show every candidate with the parts of its score.
    #[arg(long)]
    explain: bool,
    /// Print JSON instead of the snapshot.
    #[arg(long)]
    json: bool,
}

/// Chooses the memories for the turn described and prints the snapshot (or JSON), then the
/// explanation when asked.
pub fn run(global: &GlobalOpts, cmd: &InjectCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let current_function = match &cmd.function {
        Some(spec) => {
            let (name, start, end) = parse_function(spec)?;
            let end = end.ok_or_else(|| usage("--function needs NAME@START-END"))?;
            Some(LiveFunction { start, end, name })
        }
        None => None,
    };
    let turn = TurnContext {
        image_base: parse_address(&cmd.image_base)?,
        cursor: cmd.cursor.as_deref().map(parse_address).transpose()?,
        current_function,
        referenced_strings: cmd.strings.clone(),
        query: cmd.query.clone(),
        thread: cmd.thread.clone(),
        ..TurnContext::default()
    };
    let limits = Limits {
        local_quota: cmd.local_quota,
        global_quota: cmd.global_quota,
        token_budget: cmd.token_budget,
        ..Limits::default()
    };
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let injection = service.inject(&subject, &turn, &limits)?;
    let selection = &injection.selection;
    if cmd.json {
        outln!(
            "{}",
            json!({"snapshot": selection.snapshot, "snapshot_tokens": selection.snapshot_tokens, "chosen": selection.chosen, "rejected": selection.rejected})
        );
    } else {
        out!("{}", selection.snapshot);
        if !selection.snapshot.is_empty() && !selection.snapshot.ends_with('\n') {
            outln!();
        }
    }
    if cmd.explain {
        print_explanation(&injection)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A table of every candidate: chosen or why not, and the parts of its score.
fn print_explanation(injection: &Injection) -> Result<()> {
    outln!(
        "\n{:<8} {:<8} {:<11} {:>6} {:>7} {:>6} {:>7} {:>6}  text",
        "id",
        "scope",
        "outcome",
        "anchor",
        "lexical",
        "conf",
        "recency",
        "total"
    );
    let rows = injection
        .selection
        .chosen
        .iter()
        .map(|c| (c.id, "chosen".to_owned(), c.score))
        .chain(
            injection
                .selection
                .rejected
                .iter()
                .map(|r| (r.id, format!("{:?}", r.reason).to_lowercase(), r.score)),
        );
    for (id, outcome, s) in rows {
        let candidate = &injection.candidates[&id];
        let scope = if candidate.scope == Scope::Local {
            "local"
        } else {
            "global"
        };
        let text: String = candidate.text.chars().take(50).collect();
        outln!(
            "{id:<8} {scope:<8} {outcome:<11} {:>6.3} {:>7.3} {:>6.2} {:>7.3} {:>6.3}  {text}",
            s.anchor,
            s.lexical,
            s.confidence,
            s.recency,
            s.total
        );
    }
    Ok(())
}
