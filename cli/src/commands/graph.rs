//! `kenning graph`: a subject's memories, their anchors and shared tags as a graph, in JSON
//! (`kenning-graph/1`, what the browser page draws) or Graphviz DOT. Never calls the policy.

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use kenning::Result;
use kenning::service::graph::{DEFAULT_GRAPH_MEMORIES, GraphRequest};

use super::{GlobalOpts, PolicyUse, SubjectArg, print_pretty, service};

/// The graph's output format.
#[derive(Clone, Copy, ValueEnum)]
pub enum GraphFormat {
    /// `kenning-graph/1` JSON.
    Json,
    /// Graphviz DOT (`kenning graph ... --format dot | dot -Tsvg`).
    Dot,
}

/// `kenning graph`.
#[derive(Args)]
pub struct GraphCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// json or dot.
    #[arg(long, value_enum, default_value = "json")]
    format: GraphFormat,
    /// Also show forgotten, rejected and superseded memories.
    #[arg(long)]
    all: bool,
    /// At most this many memories, the oldest first.
    #[arg(long, default_value_t = DEFAULT_GRAPH_MEMORIES)]
    limit: u32,
}

/// Prints the graph.
pub fn run(global: &GlobalOpts, cmd: &GraphCmd) -> Result<ExitCode> {
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    let graph = service.graph(
        &cmd.subject.parse()?,
        GraphRequest {
            include_inactive: cmd.all,
            limit: cmd.limit,
        },
    )?;
    match cmd.format {
        GraphFormat::Json => print_pretty(&graph)?,
        GraphFormat::Dot => out!("{}", graph.to_dot()),
    }
    Ok(ExitCode::SUCCESS)
}
