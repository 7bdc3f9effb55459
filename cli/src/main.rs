//! The `kenning` command-line program: the clap definition of its commands and their dispatch.
//! Each command group lives in its own file under [`commands`], a thin adapter over
//! [`kenning::Service`].

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kenning::KenningError;

/// Persistent, governed long-term memory for AI agents, with a sandboxed WebAssembly policy.
#[derive(Parser)]
#[command(name = "kenning", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    global: commands::GlobalOpts,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Remember a note about a subject (runs the `remember` tool).
    Remember(commands::memory::RememberCmd),
    /// Find memories by words, tags and type (runs the `recall` tool).
    Recall(commands::memory::RecallCmd),
    /// Choose the memories for this turn and print the snapshot.
    Inject(commands::inject::InjectCmd),
    /// Forget a memory by id (runs the `forget_memory` tool).
    Forget(commands::memory::ForgetCmd),
    /// List memories, newest first.
    List(commands::memory::ListCmd),
    /// Scan text for secrets and unsafe content.
    Scan(commands::scan::ScanCmd),
    /// Run one tool call as an agent would and print one JSON line.
    Call(commands::memory::CallCmd),
    /// Ask a subject's knowledge base one read-only SQL question (runs the `query` tool).
    Query(commands::query::QueryCmd),
    /// Check JSON lines against one of the policy's closed schemas; writes nothing.
    Validate(commands::scan::ValidateCmd),
    /// Review memories awaiting review (PENDING, INBOUND-PENDING).
    #[command(subcommand)]
    Review(commands::review::ReviewCmd),
    /// Show or change settings, globally or for one thread.
    Settings(commands::settings::SettingsCmd),
    /// Totals by type, scope and badge, oldest and newest, limits in force.
    Stats(commands::SubjectOnlyCmd),
    /// The audit log, newest first.
    Log(commands::settings::LogCmd),
    /// Render a profile's USER.md, MEMORY.md and today's note.
    View(commands::SubjectOnlyCmd),
    /// Memories, their anchors and shared tags as a graph (JSON or Graphviz DOT).
    Graph(commands::graph::GraphCmd),
    /// Consolidate ("AutoDream"): preview the policy's plan, then apply exactly that plan.
    Dream(commands::dream::DreamCmd),
    /// Count a successful user turn; every few turns a memory review starts in the background.
    Turn(commands::turn::TurnCmd),
    /// Review the profile with the configured model now (what `turn` starts in the background).
    MemoryReview(commands::turn::MemoryReviewCmd),
    /// Copy confirmed findings of one subject into another, awaiting review there.
    Share(commands::share::ShareCmd),
    /// Memories a model command proposes from a conversation, checked and written.
    Extract(commands::extract::ExtractCmd),
    /// Commit the proposals staged during a conversation, now compacted (the agent's).
    Harvest(commands::write_paths::HarvestCmd),
    /// Write a triage pass's grounded findings (anchored ones only) as the triage author.
    Triage(commands::write_paths::TriageCmd),
    /// Write one note for each function of a reviewed list, anchored to it.
    ReviewFunctions(commands::write_paths::ReviewFunctionsCmd),
    /// Retention (expired suggestions and daily notes) and index upkeep; see kenning.toml.
    Maintain(commands::maintain::MaintainCmd),
    /// Write every memory of a subject as kenning-memory/1 JSONL (or Markdown, for reading).
    Export(commands::interchange::ExportCmd),
    /// Import a kenning-memory/1 file into a subject: verified, scanned, all or nothing.
    Import(commands::interchange::ImportCmd),
    /// Show the policy's name, version, contract and imports.
    Describe,
    /// Check a policy component against the contract (the conformance kit).
    #[command(subcommand)]
    Policy(commands::policy::PolicyCmd),
    /// Measure the sandbox's costs: of the component --policy names (else the default), under
    /// --fuel, --memory-mib and --deadline-ms, over stores of its own.
    Bench(commands::bench::BenchCmd),
    /// A scripted session showing remember, redaction and inject.
    Demo,
    /// Measure retrieval and safety on public data sets.
    #[command(subcommand)]
    Eval(commands::eval::EvalCmd),
    /// Serve a knowledge base to MCP clients over stdio.
    Mcp(commands::mcp::McpCmd),
    /// Serve the HTTP API (REST, OpenAPI, MCP over HTTP) until SIGTERM.
    Serve(commands::serve::ServeCmd),
    /// Encrypt an existing plaintext knowledge base (or the tokens file) with the configured key.
    Encrypt(commands::encrypt::EncryptCmd),
    /// Re-encrypt every encrypted store of the data directory from the configured key to a new one.
    Rekey(commands::rekey::RekeyCmd),
    /// Make, list and revoke the HTTP API's bearer tokens.
    #[command(subcommand)]
    Token(commands::token::TokenCmd),
}

/// The exit status when the command did its work but standard output would not take its
/// answer (full, or an error other than a reader that went away).
const OUTPUT_FAILED: u8 = 3;

/// The exit status of a command line clap refuses.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return refuse_command_line(&error),
    };
    match run(&cli) {
        Ok(code) => code,
        // The reader went away (`kenning list | head`): nothing more to say, to anyone.
        Err(KenningError::Output(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(KenningError::Output(error)) => {
            say(&format!(
                "kenning: could not write the answer to standard output ({error}); anything the command stored stays stored"
            ));
            ExitCode::from(OUTPUT_FAILED)
        }
        Err(error) => {
            say(&format!("kenning: error: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// Help and version go out as clap writes them; any other refusal is one line naming the
/// problem (clap's first line), not clap's usage block.
fn refuse_command_line(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(USAGE))
        }
        _ => {
            say(&format!(
                "kenning: error: {} (see kenning --help)",
                command_line_problem(&error.render().to_string())
            ));
            ExitCode::from(USAGE)
        }
    }
}

/// The problem clap names, as one line: its first line, with the indented lines that follow
/// it (clap lists the missing arguments there, one a line) joined on, up to its usage block.
fn command_line_problem(rendered: &str) -> String {
    let mut lines = rendered.lines();
    let first = lines.next().unwrap_or("invalid command line");
    let mut problem = first.strip_prefix("error: ").unwrap_or(first).to_owned();
    for detail in lines
        .take_while(|line| !line.is_empty() && !line.starts_with("Usage:"))
        .map(str::trim)
    {
        problem.push(' ');
        problem.push_str(detail);
    }
    problem
}

/// One line on standard error; a closed standard error is no reason to panic.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{}", kenning::controls::escape(line));
}

fn run(cli: &Cli) -> kenning::Result<ExitCode> {
    let global = &cli.global;
    match &cli.command {
        Command::Remember(cmd) => commands::memory::remember(global, cmd),
        Command::Recall(cmd) => commands::memory::recall(global, cmd),
        Command::Inject(cmd) => commands::inject::run(global, cmd),
        Command::Forget(cmd) => commands::memory::forget(global, cmd),
        Command::List(cmd) => commands::memory::list(global, cmd),
        Command::Scan(cmd) => commands::scan::scan(global, cmd),
        Command::Call(cmd) => commands::memory::call(global, cmd),
        Command::Query(cmd) => commands::query::run(global, cmd),
        Command::Validate(cmd) => commands::scan::validate(global, cmd),
        Command::Review(cmd) => commands::review::run(global, cmd),
        Command::Settings(cmd) => commands::settings::settings(global, cmd),
        Command::Stats(cmd) => commands::settings::stats(global, cmd),
        Command::Log(cmd) => commands::settings::log(global, cmd),
        Command::View(cmd) => commands::settings::view(global, cmd),
        Command::Graph(cmd) => commands::graph::run(global, cmd),
        Command::Dream(cmd) => commands::dream::run(global, cmd),
        Command::Maintain(cmd) => commands::maintain::run(global, cmd),
        Command::Extract(cmd) => commands::extract::run(global, cmd),
        Command::Share(cmd) => commands::share::run(global, cmd),
        Command::Harvest(cmd) => commands::write_paths::harvest(global, cmd),
        Command::Triage(cmd) => commands::write_paths::triage(global, cmd),
        Command::ReviewFunctions(cmd) => commands::write_paths::review_functions(global, cmd),
        Command::Turn(cmd) => commands::turn::turn(global, cmd),
        Command::MemoryReview(cmd) => commands::turn::memory_review(global, cmd),
        Command::Export(cmd) => commands::interchange::export(global, cmd),
        Command::Import(cmd) => commands::interchange::import(global, cmd),
        Command::Describe => commands::describe::run(global),
        Command::Policy(cmd) => commands::policy::run(cmd, global),
        Command::Bench(cmd) => commands::bench::run(global, cmd),
        Command::Demo => commands::demo::run(global),
        // A service shared by concurrent calls, so never a scan session.
        Command::Mcp(cmd) => commands::mcp::run(
            cmd,
            commands::service(global, None, commands::PolicyUse::Calls)?.build()?,
        ),
        Command::Eval(cmd) => commands::eval::run(global, cmd),
        Command::Serve(cmd) => commands::serve::run(cmd, global),
        Command::Token(cmd) => commands::token::run(global, cmd),
        Command::Encrypt(cmd) => commands::encrypt::run(global, cmd),
        Command::Rekey(cmd) => commands::rekey::run(global, cmd),
    }
}
