//! `kenning eval`: the command's flags and its tables. The measurements are `kenning-bench`'s
//! ([`kenning_bench::eval`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use kenning::Result;
use kenning_bench::eval::{locomo, scan};

use super::{GlobalOpts, PolicyUse, parse_word, print_json, service};

/// `kenning eval`.
#[derive(Subcommand)]
pub enum EvalCmd {
    /// Recall@k on a LoCoMo-format file: each turn a memory, each question a `recall` query.
    Locomo(LocomoCmd),
    /// Redaction and blocking rates over labelled JSONL corpora and LoCoMo conversations.
    Scan(EvalScanCmd),
}

/// `kenning eval scan`.
#[derive(Args)]
pub struct EvalScanCmd {
    /// A corpus: labelled JSONL ({text, label: risk|informative|benign|attack, ...}) or a
    /// LoCoMo-format JSON file (every turn and every observed fact benign). Repeatable.
    #[arg(long, value_name = "PATH", required = true)]
    data: Vec<PathBuf>,
    /// Who the texts are scanned as asking to store them: human, agent, triage, external or
    /// peer. An attack counts as stopped when blocked or held for review; for a human, a text
    /// only the learned signal suspects is kept, marked (not stopped).
    #[arg(long, default_value = "agent")]
    author: String,
    /// Print the figures as one JSON object on the last line.
    #[arg(long)]
    json: bool,
}

/// `kenning eval locomo`.
#[derive(Args)]
pub struct LocomoCmd {
    /// The LoCoMo-format JSON file.
    #[arg(long, value_name = "PATH")]
    data: PathBuf,
    /// Only these conversations (sample ids, comma-separated).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    conversations: Vec<String>,
    /// Print the figures as one JSON object on the last line.
    #[arg(long)]
    json: bool,
}

/// Runs one evaluation and prints its table, then (with `--json`) its figures as one JSON
/// object on the last line.
pub fn run(global: &GlobalOpts, eval: &EvalCmd) -> Result<ExitCode> {
    match eval {
        EvalCmd::Scan(cmd) => {
            let mut rows = Vec::new();
            for path in &cmd.data {
                rows.extend(scan::load(path)?);
            }
            let author = parse_word(
                "--author",
                &cmd.author,
                "human, agent, triage, external or peer",
            )?;
            let service = service(global, None, PolicyUse::Session)?.build()?;
            let report = scan::evaluate(&service, &rows, author, true)?;
            out!("{}", scan::render(&report));
            if cmd.json {
                outln!("{}", report.to_json());
            }
        }
        EvalCmd::Locomo(cmd) => {
            let samples = locomo::load(&cmd.data)?;
            // The knowledge bases are scratch; the compiled policy is kept where it always is.
            let scratch = locomo::ScratchDir::new("locomo")?;
            let service = service(global, Some(&scratch.path().join("data")), PolicyUse::Calls)?
                .cache_dir(global.cache_dir())
                .build()?;
            let options = locomo::Options {
                conversations: cmd.conversations.clone(),
            };
            let report = locomo::evaluate(&service, &samples, &options, &mut |line| {
                eprintln!("{line}")
            })?;
            out!("{}", locomo::render_table(&report));
            if cmd.json {
                print_json(&report)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
