//! `kenning mcp`: the MCP server over standard input and output.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use kenning::subject::Subject;
use kenning::{KenningError, Service};
use kenning_contract::args::Author;
use kenning_server::mcp::{McpConfig, McpServer};

/// `kenning mcp`'s arguments.
#[derive(Args)]
pub struct McpCmd {
    /// The knowledge base tools use when they name none: a file, file:PATH, db:PATH,
    /// account:NAME or profile:NAME.
    #[arg(long, short)]
    pub subject: String,
    /// Another subject a tool may name with its `subject` argument (repeatable).
    #[arg(long = "allow-subject", value_name = "SUBJECT")]
    pub allow_subjects: Vec<String>,
    /// Who the callers are: external (the default: writes await a human's review), or agent
    /// for the host's own built-in agent.
    #[arg(long, default_value = "external", value_parser = parse_author)]
    pub author: Author,
    /// Never ask the client's user to settle a write at once (MCP elicitation): every external
    /// write then awaits `kenning review`.
    #[arg(long)]
    pub no_elicitation_review: bool,
}

fn parse_author(text: &str) -> Result<Author, String> {
    Author::parse(text)
        .ok_or_else(|| format!("{text:?}: expected external, agent, triage, human or peer"))
}

/// Serves MCP until the client closes standard input.
pub fn run(cmd: &McpCmd, service: Service) -> Result<ExitCode, KenningError> {
    let subject = Subject::parse(&cmd.subject)?;
    let allowed = cmd
        .allow_subjects
        .iter()
        .map(|spec| Subject::parse(spec).map(|subject| (spec.clone(), subject)))
        .collect::<Result<Vec<_>, _>>()?;
    let config = McpConfig {
        subject,
        allowed,
        author: cmd.author,
        review_by_elicitation: !cmd.no_elicitation_review,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|source| KenningError::Io {
            path: "<tokio runtime>".into(),
            source,
        })?;
    runtime.block_on(McpServer::new(Arc::new(service), config).serve_stdio())?;
    Ok(ExitCode::SUCCESS)
}
