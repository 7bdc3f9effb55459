//! The `kenning` command-line program: the clap definition of its commands and their dispatch.
//! Each command group lives in its own file under [`cli`], a thin adapter over
//! [`kenning::Service`].

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Persistent, governed long-term memory for AI agents, with a sandboxed WebAssembly policy.
#[derive(Parser)]
#[command(name = "kenning", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    global: cli::GlobalOpts,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Remember a note about a subject (runs the `remember` tool).
    Remember(cli::memory::RememberCmd),
    /// Find memories by words, tags and type (runs the `recall` tool).
    Recall(cli::memory::RecallCmd),
    /// Choose the memories for this turn and print the snapshot.
    Inject(cli::inject::InjectCmd),
    /// Forget a memory by id (runs the `forget_memory` tool).
    Forget(cli::memory::ForgetCmd),
    /// List memories, newest first.
    List(cli::memory::ListCmd),
    /// Scan text for secrets and unsafe content.
    Scan(cli::scan::ScanCmd),
    /// Run one tool call as an agent would and print one JSON line.
    Call(cli::memory::CallCmd),
    /// Check JSON lines against one of the policy's closed schemas; writes nothing.
    Validate(cli::scan::ValidateCmd),
    /// Review memories awaiting review (PENDING, INBOUND-PENDING).
    #[command(subcommand)]
    Review(cli::review::ReviewCmd),
    /// Show or change settings, globally or for one thread.
    Settings(cli::settings::SettingsCmd),
    /// Totals by type, scope and badge, oldest and newest, limits in force.
    Stats(cli::SubjectOnlyCmd),
    /// The audit log, newest first.
    Log(cli::settings::LogCmd),
    /// Render a profile's USER.md, MEMORY.md and today's note.
    View(cli::SubjectOnlyCmd),
    /// Show the policy's name, version, contract and imports.
    Describe,
    /// Measure the sandbox's costs.
    Bench(cli::bench::BenchCmd),
    /// A scripted session showing remember, redaction and inject.
    Demo,
    /// Measure retrieval and safety on public data sets.
    #[command(subcommand)]
    Eval(cli::eval::EvalCmd),
    /// Serve a knowledge base to MCP clients over stdio.
    Mcp(cli::mcp::McpCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("kenning: error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> kenning::Result<ExitCode> {
    let global = &cli.global;
    match &cli.command {
        Command::Remember(cmd) => cli::memory::remember(global, cmd),
        Command::Recall(cmd) => cli::memory::recall(global, cmd),
        Command::Inject(cmd) => cli::inject::run(global, cmd),
        Command::Forget(cmd) => cli::memory::forget(global, cmd),
        Command::List(cmd) => cli::memory::list(global, cmd),
        Command::Scan(cmd) => cli::scan::scan(global, cmd),
        Command::Call(cmd) => cli::memory::call(global, cmd),
        Command::Validate(cmd) => cli::scan::validate(global, cmd),
        Command::Review(cmd) => cli::review::run(global, cmd),
        Command::Settings(cmd) => cli::settings::settings(global, cmd),
        Command::Stats(cmd) => cli::settings::stats(global, cmd),
        Command::Log(cmd) => cli::settings::log(global, cmd),
        Command::View(cmd) => cli::settings::view(global, cmd),
        Command::Describe => cli::describe::run(global),
        Command::Bench(cmd) => cli::bench::run(cmd),
        Command::Demo => cli::demo::run(global),
        // A service shared by concurrent calls, so never a scan session.
        Command::Mcp(cmd) => cli::mcp::run(
            cmd,
            cli::service(global, None, cli::PolicyUse::Calls)?.build()?,
        ),
        Command::Eval(cmd) => cli::eval::run(global, cmd),
    }
}
