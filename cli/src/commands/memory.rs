//! `kenning remember`, `recall`, `forget`, `list` and `call`: the agent's tools from the command
//! line, and the listing of a knowledge base.

use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::api::{AnchorArg, ForgetMemoryArgs, RecallArgs, RecallScopeArg, RememberArgs};
use kenning::memory::MemoryFilter;
use kenning_contract::args::Author;
use kenning_contract::types::{MemoryKind, Scope};

use super::{
    AuthorArg, GlobalOpts, PolicyUse, SubjectArg, envelope, parse_address, parse_function,
    parse_word, print_json, print_memories, service,
};

/// `kenning remember`.
#[derive(Args)]
pub struct RememberCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The note.
    text: String,
    /// fact, preference, context or conversation_summary.
    #[arg(long = "type", default_value = "fact")]
    kind: String,
    /// A tag (repeatable).
    #[arg(long = "tag")]
    tags: Vec<String>,
    /// Anchor to a function: NAME@START[-END].
    #[arg(long, value_name = "NAME@START[-END]")]
    function: Vec<String>,
    /// Anchor to an exact address.
    #[arg(long)]
    address: Vec<String>,
    /// Anchor to a referenced string.
    #[arg(long = "string")]
    strings: Vec<String>,
    /// The image base the addresses are relative to.
    #[arg(long, default_value = "0")]
    image_base: String,
    /// Confidence from 0 to 1.
    #[arg(long)]
    confidence: Option<f64>,
    /// Who is writing.
    #[arg(long, value_enum, default_value = "human")]
    author: AuthorArg,
}

/// `kenning recall`.
#[derive(Args)]
pub struct RecallCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Words to look for.
    #[arg(default_value = "")]
    query: String,
    /// global, local or any.
    #[arg(long, default_value = "any")]
    scope: String,
    /// A tag the memories must carry (repeatable).
    #[arg(long = "tag")]
    tags: Vec<String>,
    /// A category the memories must be in (repeatable).
    #[arg(long = "category")]
    categories: Vec<String>,
    /// Results to skip (for paging).
    #[arg(long, default_value_t = 0)]
    offset: u32,
    /// The conversation thread, whose settings apply.
    #[arg(long)]
    thread: Option<String>,
    /// Most memories to return.
    #[arg(long, default_value_t = 10)]
    limit: u32,
}

/// `kenning forget`.
#[derive(Args)]
pub struct ForgetCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The memory's id.
    id: u64,
    /// Why.
    #[arg(long)]
    reason: Option<String>,
    /// Who is forgetting.
    #[arg(long, value_enum, default_value = "human")]
    author: AuthorArg,
}

/// `kenning list`.
#[derive(Args)]
pub struct ListCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Only global or local memories.
    #[arg(long)]
    scope: Option<String>,
    /// Only memories with this tag (repeatable).
    #[arg(long = "tag")]
    tags: Vec<String>,
    /// Only memories in this category (repeatable).
    #[arg(long = "category")]
    categories: Vec<String>,
    /// Only memories matching these words (full-text); `#tag` tokens filter by tag.
    #[arg(long, default_value = "")]
    query: String,
    /// Include pending (quarantined) memories.
    #[arg(long)]
    pending: bool,
    /// Page number, from 1; a page holds up to 1,000 memories of each scope.
    #[arg(long, default_value_t = 1)]
    page: u32,
    /// Print JSON lines.
    #[arg(long)]
    json: bool,
}

/// `kenning call`.
#[derive(Args)]
pub struct CallCmd {
    /// The tool (its list comes from the operation table).
    #[arg(help = format!("The tool: {}", kenning::api::tool_names().join(", ")))]
    tool: String,
    /// The arguments as JSON.
    args: String,
    #[command(flatten)]
    subject: SubjectArg,
    /// Who is calling.
    #[arg(long, value_enum, default_value = "agent")]
    author: AuthorArg,
}

/// Runs the `remember` tool and prints its result as one JSON line.
pub fn remember(global: &GlobalOpts, cmd: &RememberCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let kind: MemoryKind = parse_word(
        "--type",
        &cmd.kind,
        "fact, preference, context or conversation_summary",
    )?;
    let mut anchors = Vec::new();
    for spec in &cmd.function {
        let (name, start, end) = parse_function(spec)?;
        anchors.push(AnchorArg::Function {
            name,
            start: start.into(),
            end: end.map(Into::into),
        });
    }
    for address in &cmd.address {
        anchors.push(AnchorArg::Address {
            address: parse_address(address)?.into(),
        });
    }
    for value in &cmd.strings {
        anchors.push(AnchorArg::String {
            value: value.clone(),
        });
    }
    let args = RememberArgs {
        text: cmd.text.clone(),
        kind: Some(kind),
        tags: Some(cmd.tags.clone()),
        anchors: Some(anchors),
        image_base: Some(parse_address(&cmd.image_base)?.into()),
        confidence: cmd.confidence,
        ..RememberArgs::default()
    };
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    print_json(&service.remember(&subject, cmd.author.into(), &args)?)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs the `recall` tool and prints `#id [scope type] text` for each memory found.
pub fn recall(global: &GlobalOpts, cmd: &RecallCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let scope: RecallScopeArg = parse_word("--scope", &cmd.scope, "global, local or any")?;
    let args = RecallArgs {
        query: Some(cmd.query.clone()),
        scope: Some(scope),
        tags: Some(cmd.tags.clone()),
        categories: Some(cmd.categories.clone()),
        limit: Some(cmd.limit.into()),
        offset: Some(cmd.offset.into()),
        thread: cmd.thread.clone(),
        ..RecallArgs::default()
    };
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let page = service.recall(&subject, &args)?;
    for found in &page.memories {
        let memory = &found.memory;
        outln!(
            "#{} [{} {}] {}",
            memory.id,
            memory.scope.as_str(),
            memory.kind.as_str(),
            memory.text
        );
    }
    if let Some(next) = page.next_offset {
        // Standard error, so that standard output stays one memory a line.
        eprintln!("more: --offset {next}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the `forget_memory` tool and prints its result as one JSON line.
pub fn forget(global: &GlobalOpts, cmd: &ForgetCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let args = ForgetMemoryArgs {
        id: cmd.id,
        reason: cmd.reason.clone(),
        thread: None,
    };
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    print_json(&service.forget_memory(&subject, cmd.author.into(), &args)?)?;
    Ok(ExitCode::SUCCESS)
}

/// Lists one page of memories, newest first, without calling the policy.
pub fn list(global: &GlobalOpts, cmd: &ListCmd) -> Result<ExitCode> {
    let subject = cmd.subject.parse()?;
    let scope = match cmd.scope.as_deref() {
        None => None,
        Some(other) => Some(parse_word::<Scope>("--scope", other, "global or local")?),
    };
    let filter = MemoryFilter {
        scope,
        query: cmd.query.clone(),
        tags: cmd
            .tags
            .iter()
            .map(|t| t.trim_start_matches('#').to_lowercase())
            .collect(),
        categories: cmd.categories.clone(),
        include_quarantined: cmd.pending,
        ..MemoryFilter::default()
    };
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    print_memories(
        &service.list_page(&subject, Author::Human, &filter, cmd.page)?,
        cmd.json,
        |m| format!("{} {} {}", m.scope.as_str(), m.badge, m.kind.as_str()),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one tool call from JSON as an agent's call runs and prints one JSON line,
/// `{"ok": true, ...}` (exit 0) or `{"ok": false, "error": ...}` (exit 1). Record kinds
/// (`import-record`, `extraction`) are refused: they are no tools.
pub fn call(global: &GlobalOpts, cmd: &CallCmd) -> Result<ExitCode> {
    let author: Author = cmd.author.into();
    let outcome = cmd.subject.parse().and_then(|subject| {
        let service = service(global, None, PolicyUse::Calls)?.build()?;
        service.call(&subject, author, &cmd.tool, &cmd.args)
    });
    outln!("{}", envelope(&outcome));
    Ok(if outcome.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_outside_its_list_names_the_flag() {
        let error = parse_word::<Scope>("--scope", "everywhere", "global or local")
            .unwrap_err()
            .to_string();
        assert_eq!(error, r#"--scope "everywhere": expected global or local"#);
        assert_eq!(
            parse_word::<MemoryKind>("--type", "conversation_summary", "").unwrap(),
            MemoryKind::ConversationSummary
        );
    }
}
