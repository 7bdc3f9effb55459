//! The `kenning` command-line program.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use kenning::governance::Decision;
use kenning::policy::{Guarded, NativePolicy, Policy, PolicyEngine, SandboxLimits};
use kenning::store::{Author, MemoryFilter};
use kenning::subject::{Subject, default_data_dir};
use kenning::{Kenning, KenningError, TurnContext};
use kenning_policy::types::{FieldError, Limits, LiveFunction, ScanItem, Scope, Target};
use serde_json::{Value, json};

/// Persistent, governed long-term memory for AI agents, with a sandboxed WebAssembly policy.
#[derive(Parser)]
#[command(name = "kenning", version, about, long_about = None)]
struct Cli {
    /// Where knowledge bases live [default: $KENNING_HOME, else $XDG_DATA_HOME/kenning, else ~/.local/share/kenning]
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// A policy component to use instead of the embedded default.
    #[arg(long, global = true, value_name = "PATH")]
    policy: Option<PathBuf>,
    /// Run the default policy natively, without the sandbox (for comparison and debugging).
    #[arg(long, global = true, conflicts_with = "policy")]
    native_policy: bool,
    /// Fuel for each policy call.
    #[arg(long, global = true, default_value_t = SandboxLimits::default().fuel)]
    fuel: u64,
    /// Memory cap of the policy, in MiB.
    #[arg(long, global = true, default_value_t = SandboxLimits::default().memory_bytes >> 20)]
    memory_mib: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Remember a note about a subject (runs the `remember` tool).
    Remember(RememberCmd),
    /// Find memories by words, tags and type (runs the `recall` tool).
    Recall(RecallCmd),
    /// Choose the memories for this turn and print the snapshot.
    Inject(InjectCmd),
    /// Forget a memory by id (runs the `forget_memory` tool).
    Forget(ForgetCmd),
    /// List memories, newest first.
    List(ListCmd),
    /// Scan text for secrets and unsafe content.
    Scan(ScanCmd),
    /// Run one tool call as an agent would and print one JSON line.
    Call(CallCmd),
    /// Check JSON lines against one of the policy's closed schemas; writes nothing.
    Validate(ValidateCmd),
    /// Review memories awaiting review (PENDING, INBOUND-PENDING).
    #[command(subcommand)]
    Review(ReviewCmd),
    /// Show or change settings, globally or for one thread.
    Settings(SettingsCmd),
    /// Totals by type, scope and badge, oldest and newest, limits in force.
    Stats(SubjectOnlyCmd),
    /// The audit log, newest first.
    Log(LogCmd),
    /// Render a profile's USER.md, MEMORY.md and today's note.
    View(SubjectOnlyCmd),
    /// Show the policy's name, version, contract and imports.
    Describe,
    /// Measure the sandbox's costs.
    Bench(BenchCmd),
    /// A scripted session showing remember, redaction and inject.
    Demo,
    /// Measure retrieval and safety on public data sets.
    #[command(subcommand)]
    Eval(EvalCmd),
}

#[derive(Subcommand)]
enum EvalCmd {
    /// Recall@k on a LoCoMo-format file: each turn a memory, each question a `recall` query.
    Locomo(LocomoCmd),
    /// Redaction and blocking rates over labelled JSONL corpora and LoCoMo turns.
    Scan(EvalScanCmd),
}

#[derive(Args)]
struct EvalScanCmd {
    /// A corpus: labelled JSONL ({text, label: risk|informative|benign|attack, ...}) or a
    /// LoCoMo-format JSON file (every turn benign). Repeatable.
    #[arg(long, value_name = "PATH", required = true)]
    data: Vec<PathBuf>,
    /// Print the figures as one JSON object on the last line.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct LocomoCmd {
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

#[derive(Subcommand)]
enum ReviewCmd {
    /// List memories awaiting review.
    List(SubjectOnlyCmd),
    /// Accept a memory: it becomes NATIVE (FOREIGN when shared by a peer), keeping its author.
    Accept(ReviewDecisionCmd),
    /// Reject a memory: it is kept for the audit trail and never used.
    Reject(ReviewDecisionCmd),
}

#[derive(Args)]
struct SubjectOnlyCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ReviewDecisionCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The memory's id.
    id: u64,
    /// Who decides (recorded in the audit log).
    #[arg(long, default_value = "human")]
    reviewer: String,
}

#[derive(Args)]
struct SettingsCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The thread whose settings to show or change (global when absent).
    #[arg(long)]
    thread: Option<String>,
    /// The setting to change: allow_recall, allow_writes, include_in_prompts, harvest_during_compaction, share_confirmed_findings, max_memories.
    key: Option<String>,
    /// Its new value.
    value: Option<String>,
}

#[derive(Args)]
struct LogCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Most events to show.
    #[arg(long, default_value_t = 50)]
    limit: u32,
}

#[derive(Args)]
struct SubjectArg {
    /// The subject: a file (its MD5 keys the knowledge base), file:PATH, db:PATH, account:NAME or profile:NAME.
    #[arg(long, short)]
    subject: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum AuthorArg {
    Human,
    Agent,
    Triage,
    External,
    Peer,
}

impl From<AuthorArg> for Author {
    fn from(a: AuthorArg) -> Author {
        match a {
            AuthorArg::Human => Author::Human,
            AuthorArg::Agent => Author::Agent,
            AuthorArg::Triage => Author::Triage,
            AuthorArg::External => Author::External,
            AuthorArg::Peer => Author::Peer,
        }
    }
}

#[derive(Args)]
struct RememberCmd {
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

#[derive(Args)]
struct RecallCmd {
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

#[derive(Args)]
struct InjectCmd {
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

#[derive(Args)]
struct ForgetCmd {
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

#[derive(Args)]
struct ListCmd {
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

#[derive(Args)]
struct ScanCmd {
    /// Read JSON lines {"text": ..., "target": ...} on stdin; write one JSON line each.
    #[arg(long)]
    jsonl: bool,
    /// What the text is for (without --jsonl).
    #[arg(long, default_value = "memory")]
    target: String,
    /// The text (without --jsonl; stdin when absent).
    text: Option<String>,
}

#[derive(Args)]
struct CallCmd {
    /// remember, revise_memory, forget_memory, recall or memory.
    tool: String,
    /// The arguments as JSON.
    args: String,
    #[command(flatten)]
    subject: SubjectArg,
    /// Who is calling.
    #[arg(long, value_enum, default_value = "agent")]
    author: AuthorArg,
}

#[derive(Args)]
struct ValidateCmd {
    /// The schema: a record kind (import-record, extraction) or a tool (remember, recall, ...).
    #[arg(long, value_name = "NAME")]
    schema: String,
    /// A JSONL file, one value a line (stdin when absent). Blank lines are skipped.
    file: Option<PathBuf>,
}

#[derive(Args)]
struct BenchCmd {
    /// Print the figures as one JSON object on the last line.
    #[arg(long)]
    json: bool,
    /// Candidates in each select call.
    #[arg(long, default_value_t = 1000)]
    candidates: usize,
    /// Repetitions of each call.
    #[arg(long, default_value_t = 50)]
    iterations: usize,
    /// Memories in the knowledge base behind the inject figures.
    #[arg(long, default_value_t = 100_000)]
    memories: usize,
    /// Turns timed over that knowledge base.
    #[arg(long, default_value_t = 200)]
    turns: usize,
}

/// Largest JSON line `scan --jsonl` accepts.
const MAX_SCAN_LINE_BYTES: usize = 1 << 20;
/// Lines scanned per policy call.
const SCAN_BATCH: usize = 256;
/// Largest line `validate` passes to the policy; above the default policy's largest schema
/// (an extraction result, 1 MiB) so that the policy names its own limit.
const MAX_VALIDATE_LINE_BYTES: usize = 2 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("kenning: error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn data_dir(cli: &Cli) -> PathBuf {
    cli.data_dir.clone().unwrap_or_else(default_data_dir)
}

fn load_policy(cli: &Cli) -> Result<Box<dyn Policy>, KenningError> {
    load_policy_for(cli, false)
}

/// Loads the policy; `session` keeps one instance for all the calls of this command (for
/// streams of scans from one caller).
fn load_policy_for(cli: &Cli, session: bool) -> Result<Box<dyn Policy>, KenningError> {
    if cli.native_policy {
        return Ok(Box::new(Guarded::new(NativePolicy::new())));
    }
    let limits = SandboxLimits {
        fuel: cli.fuel,
        memory_bytes: cli.memory_mib << 20,
    };
    let engine = PolicyEngine::new(Some(data_dir(cli).join("cache")))?;
    let mut policy = match &cli.policy {
        Some(path) => engine.load_file(path, limits)?,
        None => engine.load_default(limits)?,
    };
    policy.keep_instance_between_calls(session);
    Ok(Box::new(Guarded::new(policy)))
}

/// An kenning for commands that only read or govern the store and never call the policy
/// (list, review, settings, stats, log, view): it skips compiling the component.
fn store_only(cli: &Cli) -> Kenning {
    Kenning::new(data_dir(cli), Box::new(NativePolicy::new()))
}

fn kenning(cli: &Cli) -> Result<Kenning, KenningError> {
    Ok(Kenning::new(data_dir(cli), load_policy(cli)?))
}

fn run(cli: Cli) -> Result<ExitCode, KenningError> {
    match &cli.command {
        Command::Remember(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let mut anchors = Vec::new();
            for spec in &cmd.function {
                let (name, start, end) = parse_function(spec)?;
                anchors.push(json!({"kind": "function", "name": name, "start": start, "end": end}));
            }
            for address in &cmd.address {
                anchors.push(json!({"kind": "address", "address": parse_address(address)?}));
            }
            for value in &cmd.strings {
                anchors.push(json!({"kind": "string", "value": value}));
            }
            let mut args = json!({"text": cmd.text, "type": cmd.kind, "tags": cmd.tags, "anchors": anchors, "image_base": parse_address(&cmd.image_base)?});
            if let Some(confidence) = cmd.confidence {
                args["confidence"] = json!(confidence);
            }
            let answer =
                kenning(&cli)?.call(&subject, cmd.author.into(), "remember", &args.to_string())?;
            println!("{answer}");
        }
        Command::Recall(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let args = json!({"query": cmd.query, "scope": cmd.scope, "tags": cmd.tags, "categories": cmd.categories, "limit": cmd.limit, "offset": cmd.offset, "thread": cmd.thread});
            let answer =
                kenning(&cli)?.call(&subject, Author::Human, "recall", &args.to_string())?;
            for memory in answer["memories"].as_array().into_iter().flatten() {
                println!(
                    "#{} [{} {}] {}",
                    memory["id"],
                    memory["scope"].as_str().unwrap_or(""),
                    memory["type"].as_str().unwrap_or(""),
                    memory["text"].as_str().unwrap_or("")
                );
            }
        }
        Command::Inject(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
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
            let injection = kenning(&cli)?.inject(&subject, &turn, &limits)?;
            if cmd.json {
                println!(
                    "{}",
                    json!({"snapshot": injection.selection.snapshot, "snapshot_tokens": injection.selection.snapshot_tokens, "chosen": injection.selection.chosen, "rejected": injection.selection.rejected})
                );
            } else {
                print!("{}", injection.selection.snapshot);
                if !injection.selection.snapshot.ends_with('\n')
                    && !injection.selection.snapshot.is_empty()
                {
                    println!();
                }
            }
            if cmd.explain {
                print_explanation(&injection);
            }
        }
        Command::Forget(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let args = json!({"id": cmd.id, "reason": cmd.reason});
            let answer = kenning(&cli)?.call(
                &subject,
                cmd.author.into(),
                "forget_memory",
                &args.to_string(),
            )?;
            println!("{answer}");
        }
        Command::List(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let scope = match cmd.scope.as_deref() {
                None => None,
                Some("global") => Some(Scope::Global),
                Some("local") => Some(Scope::Local),
                Some(other) => {
                    return Err(usage(&format!(
                        "--scope {other:?}: expected global or local"
                    )));
                }
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
            let kenning = store_only(&cli);
            print_memories(
                &kenning.list_page(&subject, &filter, cmd.page)?,
                cmd.json,
                |m| {
                    format!(
                        "{} {} {}",
                        kenning::store::scope_str(m.scope),
                        m.badge,
                        kenning::store::kind_str(m.kind)
                    )
                },
            );
        }
        Command::Scan(cmd) => {
            let mut kenning = Kenning::new(data_dir(&cli), load_policy_for(&cli, cmd.jsonl)?);
            if cmd.jsonl {
                scan_jsonl(&mut kenning)?;
            } else {
                let target = parse_target(&cmd.target).ok_or_else(|| {
                    usage(&format!(
                        "--target {:?}: expected user, memory, daily, global or local",
                        cmd.target
                    ))
                })?;
                let text = match &cmd.text {
                    Some(text) => text.clone(),
                    None => std::io::read_to_string(std::io::stdin()).map_err(|source| {
                        KenningError::Io {
                            path: "<stdin>".into(),
                            source,
                        }
                    })?,
                };
                let result = kenning.scan(&[ScanItem { text, target }])?.remove(0);
                println!(
                    "{}",
                    serde_json::to_string(&result).expect("results serialise")
                );
            }
        }
        Command::Call(cmd) => {
            // `call` refuses record kinds (import-record, extraction): they are no tools.
            let outcome = Subject::parse(&cmd.subject.subject).and_then(|subject| {
                kenning(&cli)?.call(&subject, cmd.author.into(), &cmd.tool, &cmd.args)
            });
            return Ok(match outcome {
                Ok(mut answer) => {
                    let mut line = serde_json::Map::new();
                    line.insert("ok".into(), Value::Bool(true));
                    if let Some(fields) = answer.as_object_mut() {
                        line.append(fields);
                    }
                    println!("{}", Value::Object(line));
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    let mut line = json!({"ok": false, "error": error.to_string()});
                    if let KenningError::Invalid { errors, .. } = &error {
                        line["errors"] = json!(errors);
                    }
                    println!("{line}");
                    ExitCode::FAILURE
                }
            });
        }
        Command::Validate(cmd) => {
            let input: Box<dyn BufRead> = match &cmd.file {
                Some(path) => Box::new(std::io::BufReader::new(
                    std::fs::File::open(path).map_err(|source| KenningError::Io {
                        path: path.clone(),
                        source,
                    })?,
                )),
                None => Box::new(std::io::stdin().lock()),
            };
            let source = cmd.file.clone().unwrap_or_else(|| PathBuf::from("<stdin>"));
            let mut policy = load_policy_for(&cli, true)?;
            let all_valid = validate_jsonl(policy.as_mut(), &cmd.schema, input, &source)?;
            return Ok(if all_valid {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Review(review) => {
            let mut kenning = store_only(&cli);
            match review {
                ReviewCmd::List(cmd) => {
                    let subject = Subject::parse(&cmd.subject.subject)?;
                    print_memories(&kenning.review_list(&subject)?, cmd.json, |m| {
                        format!("{} by {}", m.badge, m.author)
                    });
                }
                ReviewCmd::Accept(cmd) | ReviewCmd::Reject(cmd) => {
                    let decision = if matches!(review, ReviewCmd::Accept(_)) {
                        Decision::Accept
                    } else {
                        Decision::Reject
                    };
                    let subject = Subject::parse(&cmd.subject.subject)?;
                    println!(
                        "{}",
                        kenning.review(&subject, cmd.id, decision, &cmd.reviewer)?
                    );
                }
            }
        }
        Command::Settings(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let mut kenning = store_only(&cli);
            let settings = match (&cmd.key, &cmd.value) {
                (None, None) => kenning.settings(&subject, cmd.thread.as_deref())?,
                (Some(key), Some(value)) => {
                    kenning.set_setting(&subject, cmd.thread.as_deref(), key, value)?
                }
                _ => {
                    return Err(usage(
                        "give both a setting and its value, or neither to show them",
                    ));
                }
            };
            println!(
                "{}",
                serde_json::to_string_pretty(&settings).expect("settings serialise")
            );
        }
        Command::Stats(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let kenning = store_only(&cli);
            let stats = kenning.stats(&subject)?;
            if cmd.json {
                println!("{stats}");
            } else {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&stats).expect("stats serialise")
                );
            }
        }
        Command::Log(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let kenning = store_only(&cli);
            for event in kenning.log(&subject, cmd.limit)? {
                println!("{event}");
            }
        }
        Command::View(cmd) => {
            let subject = Subject::parse(&cmd.subject.subject)?;
            let kenning = store_only(&cli);
            let view = kenning.view(&subject)?;
            if cmd.json {
                println!("{}", serde_json::to_string(&view).expect("views serialise"));
            } else {
                for (file, text) in [("USER.md", &view.user), ("MEMORY.md", &view.memory)] {
                    match text {
                        Some(text) => print!("{text}"),
                        None => println!("{file}: missing (no entries yet)"),
                    }
                    println!();
                }
                if let Some((_, text)) = &view.daily {
                    print!("{text}");
                }
            }
        }
        Command::Describe => {
            let limits = SandboxLimits {
                fuel: cli.fuel,
                memory_bytes: cli.memory_mib << 20,
            };
            let engine = PolicyEngine::new(None)?;
            let (bytes, policy) = match &cli.policy {
                Some(path) => (
                    std::fs::read(path).map_err(|source| KenningError::Io {
                        path: path.clone(),
                        source,
                    })?,
                    engine.load_file(path, limits)?,
                ),
                None => (
                    kenning::policy::DEFAULT_POLICY_WASM.to_vec(),
                    engine.load_default(limits)?,
                ),
            };
            let imports = kenning::policy::component_imports(&engine, &bytes)?;
            println!(
                "{}",
                json!({"policy": policy.info(), "imports": imports, "bytes": bytes.len()})
            );
        }
        Command::Bench(cmd) => {
            let report = kenning::bench::run(&kenning::bench::BenchConfig {
                candidates: cmd.candidates,
                iterations: cmd.iterations,
                memories: cmd.memories,
                turns: cmd.turns,
                ..Default::default()
            })?;
            println!(
                "instantiate          {:>10.1} µs (median, fresh instance from the pre-instantiated component)",
                report.instantiate_us
            );
            println!(
                "select, sandboxed    {:>10.1} µs (median, {} candidates, instantiation included)",
                report.policy_call_us, report.candidates
            );
            println!(
                "select, native       {:>10.1} µs (same inputs)",
                report.policy_native_call_us
            );
            println!("sandbox / native     {:>10.2}x", report.sandbox_ratio);
            println!("cold compile         {:>10.1} ms", report.compile_ms);
            println!("load from cache      {:>10.2} ms", report.cached_load_ms);
            println!(
                "inject, p50          {:>10.1} µs ({} memories, {} turns)",
                report.inject_p50_us, report.memories, cmd.turns
            );
            println!("inject, p99          {:>10.1} µs", report.inject_p99_us);
            println!(
                "candidate queries    {:>10.1} µs (median, same contexts)",
                report.candidate_query_us
            );
            println!("inject / queries     {:>10.2}x", report.inject_over_query);
            println!("scan in component    {:>10.1} MB/s", report.scan_mb_s);
            if cmd.json {
                println!(
                    "{}",
                    serde_json::to_string(&report).expect("report serialises")
                );
            }
        }
        Command::Eval(EvalCmd::Scan(cmd)) => {
            let mut rows = Vec::new();
            for path in &cmd.data {
                rows.extend(kenning::eval::scan::load(path)?);
            }
            let mut kenning = Kenning::new(data_dir(&cli), load_policy_for(&cli, true)?);
            let report = kenning::eval::scan::evaluate(&mut kenning, &rows, true)?;
            print!("{}", kenning::eval::scan::render(&report));
            if cmd.json {
                println!("{}", report.to_json());
            }
        }
        Command::Eval(EvalCmd::Locomo(cmd)) => {
            let samples = kenning::eval::locomo::load(&cmd.data)?;
            let scratch = kenning::eval::locomo::ScratchDir::new("locomo")?;
            let mut kenning = Kenning::new(scratch.path().join("data"), load_policy(&cli)?);
            let options = kenning::eval::locomo::Options {
                conversations: cmd.conversations.clone(),
            };
            let report =
                kenning::eval::locomo::evaluate(&mut kenning, &samples, &options, &mut |line| {
                    eprintln!("{line}")
                })?;
            print!("{}", kenning::eval::locomo::render_table(&report));
            if cmd.json {
                println!(
                    "{}",
                    serde_json::to_string(&report).expect("report serialises")
                );
            }
        }
        Command::Demo => {
            let work = std::env::temp_dir().join(format!("kenning-demo-{}", std::process::id()));
            let data = cli.data_dir.clone().unwrap_or_else(|| work.join("data"));
            let engine = PolicyEngine::new(Some(data.join("cache")))?;
            let policy = engine.load_default(SandboxLimits {
                fuel: cli.fuel,
                memory_bytes: cli.memory_mib << 20,
            })?;
            let mut kenning = Kenning::new(&data, Box::new(Guarded::new(policy)));
            kenning::demo::run(&mut kenning, &work, &mut std::io::stdout())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints memories one a line: JSON, or `#id [label] text`.
fn print_memories(
    memories: &[kenning::store::Memory],
    json: bool,
    label: impl Fn(&kenning::store::Memory) -> String,
) {
    for memory in memories {
        if json {
            println!(
                "{}",
                serde_json::to_string(memory).expect("memories serialise")
            );
        } else {
            println!("#{} [{}] {}", memory.id, label(memory), memory.text);
        }
    }
}

fn usage(message: &str) -> KenningError {
    KenningError::Usage(message.to_owned())
}

fn parse_target(text: &str) -> Option<Target> {
    serde_json::from_value(Value::String(text.to_owned())).ok()
}

/// `0x401000`, `401000h` or decimal.
fn parse_address(text: &str) -> Result<u64, KenningError> {
    let t = text.trim();
    let parsed = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16)
    } else {
        t.parse()
    };
    parsed.map_err(|_| {
        usage(&format!(
            "{text:?} is not an address (use 0x401000 or decimal)"
        ))
    })
}

/// `NAME@START[-END]`.
fn parse_function(spec: &str) -> Result<(String, u64, Option<u64>), KenningError> {
    let (name, range) = spec
        .rsplit_once('@')
        .ok_or_else(|| usage(&format!("{spec:?}: expected NAME@START[-END]")))?;
    let (start, end) = match range.split_once('-') {
        Some((start, end)) => (parse_address(start)?, Some(parse_address(end)?)),
        None => (parse_address(range)?, None),
    };
    Ok((name.to_owned(), start, end))
}

fn print_explanation(injection: &kenning::Injection) {
    println!(
        "\n{:<8} {:<8} {:<11} {:>6} {:>7} {:>6} {:>7} {:>6}  text",
        "id", "scope", "outcome", "anchor", "lexical", "conf", "recency", "total"
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
        println!(
            "{id:<8} {scope:<8} {outcome:<11} {:>6.3} {:>7.3} {:>6.2} {:>7.3} {:>6.3}  {text}",
            s.anchor, s.lexical, s.confidence, s.recency, s.total
        );
    }
}

/// `kenning scan --jsonl`: one output line per input line; a bad line gets `{"error": ...}`.
fn scan_jsonl(kenning: &mut Kenning) -> Result<(), KenningError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Line {
        text: String,
        target: Option<Target>,
    }
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io = |source| KenningError::Io {
        path: "<stdout>".into(),
        source,
    };
    // Each slot is either an item to scan or the error line for its input.
    let mut pending: Vec<Result<ScanItem, String>> = Vec::new();
    let mut flush = |pending: &mut Vec<Result<ScanItem, String>>,
                     out: &mut dyn Write|
     -> Result<(), KenningError> {
        let items: Vec<ScanItem> = pending
            .iter()
            .filter_map(|p| p.as_ref().ok().cloned())
            .collect();
        let mut results = kenning.scan(&items)?.into_iter();
        for slot in pending.drain(..) {
            let line = match slot {
                Ok(_) => serde_json::to_string(&results.next().expect("one result per item"))
                    .expect("results serialise"),
                Err(error) => json!({ "error": error }).to_string(),
            };
            writeln!(out, "{line}").map_err(io)?;
        }
        Ok(())
    };
    for (number, line) in stdin.split(b'\n').enumerate() {
        let bytes = line.map_err(|source| KenningError::Io {
            path: "<stdin>".into(),
            source,
        })?;
        let slot = if bytes.len() > MAX_SCAN_LINE_BYTES {
            Err(format!(
                "line {}: {} bytes; the limit is {MAX_SCAN_LINE_BYTES}",
                number + 1,
                bytes.len()
            ))
        } else {
            match serde_json::from_slice::<Line>(&bytes) {
                Ok(line) => Ok(ScanItem {
                    text: line.text,
                    target: line.target.unwrap_or(Target::Memory),
                }),
                Err(error) => Err(format!("line {}: {error}", number + 1)),
            }
        };
        pending.push(slot);
        if pending.len() >= SCAN_BATCH {
            flush(&mut pending, &mut out)?;
        }
    }
    flush(&mut pending, &mut out)?;
    out.flush().map_err(io)
}

/// `kenning validate`: checks each non-blank line of `input` against the policy's schema named
/// `schema` and prints one JSON line for it, `{"line": N, "ok": true, "canonical": {...}}` or
/// `{"line": N, "ok": false, "errors": [{"path", "message"}]}`, N counting every input line
/// from 1. Returns whether every line was valid. Nothing is written but standard output.
fn validate_jsonl(
    policy: &mut dyn Policy,
    schema: &str,
    input: impl BufRead,
    source: &std::path::Path,
) -> Result<bool, KenningError> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let write_error = |source| KenningError::Io {
        path: "<stdout>".into(),
        source,
    };
    let whole_line = |message: String| Err(vec![FieldError::new("", message)]);
    let mut all_valid = true;
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let bytes = line.map_err(|source_error| KenningError::Io {
            path: source.to_path_buf(),
            source: source_error,
        })?;
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let answer = if bytes.len() > MAX_VALIDATE_LINE_BYTES {
            whole_line(format!(
                "line is {} bytes; the limit is {MAX_VALIDATE_LINE_BYTES}",
                bytes.len()
            ))
        } else {
            match std::str::from_utf8(bytes) {
                Ok(text) => policy.validate(schema, text)?,
                Err(error) => whole_line(format!("not valid UTF-8: {error}")),
            }
        };
        let line = match answer {
            // The guard has checked that the canonical JSON is an object; it is printed as
            // the policy wrote it, keeping its field order.
            Ok(call) => format!(
                "{{\"line\":{number},\"ok\":true,\"canonical\":{}}}",
                call.args_json
            ),
            Err(errors) => {
                all_valid = false;
                format!(
                    "{{\"line\":{number},\"ok\":false,\"errors\":{}}}",
                    serde_json::to_string(&errors).expect("field errors serialise")
                )
            }
        };
        writeln!(out, "{line}").map_err(write_error)?;
    }
    out.flush().map_err(write_error)?;
    Ok(all_valid)
}
