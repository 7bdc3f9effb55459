//! `kenning bench`'s figures, all measured in one run so they compare as ratios: the sandbox's
//! costs (instantiate, select, scan, compile), a whole inject over a large knowledge base on
//! either backend, and the doors (MCP over stdio, HTTP, whole processes, import).
//!
//! Figures are medians: these machines are shared and noisy. Everything here goes through the
//! library's public API: the service for whole turns, a component loaded with
//! [`PolicyEngine`] for the calls measured one by one.

use std::borrow::Cow;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use kenning::policy::{
    ComponentPolicy, DEFAULT_POLICY_WASM, NativePolicy, Policy, PolicyEngine, SandboxLimits,
};
use kenning::service::turn::CandidateQuery;

use kenning::store::synthetic::{Rng, Stores, populate, populate_files, word};
use kenning::subject::Subject;
use kenning::{PolicyError, PolicySource, Result, Service, TurnContext};
use kenning_contract::args::Author;
use kenning_contract::types::{Limits, LiveFunction, ScanItem, SubjectKind, Target};
use kenning_policy::vectors::{scan_workload, workload};
use serde::Serialize;

/// The median of `Service::call("recall", ...)` for each query, in this process, over the
/// `profile:bench` store in `data_dir`.
fn recall_in_process_us(
    data_dir: &std::path::Path,
    component: &Component,
    queries: &[String],
) -> Result<f64> {
    let service = component.service(data_dir).build()?;
    let subject = Subject::parse("profile:bench")?;
    let args: Vec<String> = queries
        .iter()
        .map(|query| serde_json::json!({"query": query, "limit": 10}).to_string())
        .collect();
    let mut next = args.iter().cycle();
    median_us(queries.len(), || {
        let args = next.next().expect("a cycle never ends");
        service
            .call(&subject, Author::Agent, "recall", args)
            .map(drop)
    })
}

/// Times whole `kenning recall` processes (this executable) on the store in `data_dir`, after
/// one run that fills the compiled-component cache.
fn cold_recall_ms(
    data_dir: &std::path::Path,
    component: &Component,
    queries: &[String],
) -> Result<f64> {
    let exe = std::env::current_exe().map_err(|e| PolicyError::Runtime(e.to_string()))?;
    let run = |query: &str| -> Result<()> {
        let status = std::process::Command::new(&exe)
            .arg("--data-dir")
            .arg(data_dir)
            .args(component.args())
            .args(["recall", "--subject", "profile:bench", query])
            // The bench's own files, whatever store the caller's environment names.
            .env_remove("KENNING_STORE")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| PolicyError::Runtime(format!("could not run {}: {e}", exe.display())))?;
        if !status.success() {
            return Err(PolicyError::Runtime(format!("kenning recall failed: {status}")).into());
        }
        Ok(())
    };
    run("warm the cache")?;
    let mut next = queries.iter().cycle();
    median_ms(20, || run(next.next().expect("a cycle never ends")))
}

/// Memories in the knowledge base behind `mcp_recall_us` and the HTTP figures, by default.
pub const MCP_MEMORIES: usize = 10_000;

/// Records in the file behind `import_per_s`, by default.
pub const IMPORT_MEMORIES: usize = 20_000;

/// What a run measures and how many times each measurement repeats. [`BenchConfig::sized`]
/// derives the sizes behind the doors' figures from the memories and repetitions asked for.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Candidates passed to one select call.
    pub candidates: usize,
    /// Memories in the knowledge base the inject figures use.
    pub memories: usize,
    /// Turns (distinct contexts) timed over that knowledge base.
    pub turns: usize,
    /// Repetitions of each call measurement.
    pub iterations: usize,
    /// Cold compiles to time.
    pub compiles: usize,
    /// Memories in the knowledge base behind the doors' figures (MCP, HTTP, whole processes).
    pub door_memories: usize,
    /// Records in the file behind `import_per_s`.
    pub import_memories: usize,
    /// `POST search` requests each HTTP client times.
    pub http_searches: usize,
    /// `POST memories` requests each HTTP client times.
    pub http_writes: usize,
    /// Subjects behind the many-subjects figures ([`crate::subjects`]).
    pub subjects: usize,
    /// A PostgreSQL database to time the inject, many-subjects and mixed figures on as well.
    pub postgres: Option<String>,
    /// The policy component to measure instead of the embedded default (`--policy`).
    pub policy: Option<PathBuf>,
    /// The sandbox's limits for every call measured (`--fuel`, `--memory-mib`,
    /// `--deadline-ms`).
    pub limits: SandboxLimits,
}

/// The policy component a bench measures, the embedded default or a file, and the limits
/// it runs under.
struct Component {
    label: String,
    wasm: Cow<'static, [u8]>,
    path: Option<PathBuf>,
    limits: SandboxLimits,
    /// The compiled-code cache every service and spawned program of the run loads it from,
    /// once `compile_ms` (the only cold compiles the bench means to time) has been measured.
    cache_dir: Option<PathBuf>,
}

impl Component {
    /// The component `config` names, read now, or the embedded default.
    fn new(config: &BenchConfig) -> Result<Self> {
        let (label, wasm) = match &config.policy {
            None => (
                "kenning-default".to_owned(),
                Cow::Borrowed(DEFAULT_POLICY_WASM),
            ),
            Some(path) => (
                path.display().to_string(),
                Cow::Owned(std::fs::read(path).map_err(|source| PolicyError::Read {
                    path: path.to_owned(),
                    source,
                })?),
            ),
        };
        Ok(Component {
            label,
            wasm,
            path: config.policy.clone(),
            limits: config.limits,
            cache_dir: None,
        })
    }

    /// Loads it into `engine`.
    fn load(&self, engine: &PolicyEngine) -> Result<ComponentPolicy> {
        Ok(engine.load_bytes(&self.label, &self.wasm, self.limits)?)
    }

    /// Where a service takes it from.
    fn source(&self) -> PolicySource {
        match &self.path {
            None => PolicySource::Default,
            Some(path) => PolicySource::File(path.clone()),
        }
    }

    /// A service over `data_dir` that uses it, under the same limits, from the run's cache.
    fn service(&self, data_dir: &std::path::Path) -> kenning::ServiceBuilder {
        let builder = Service::builder(data_dir)
            .policy(self.source())
            .limits(self.limits);
        match &self.cache_dir {
            Some(cache) => builder.cache_dir(cache.clone()),
            None => builder,
        }
    }

    /// The arguments that make a spawned `kenning` use it, under the same limits, from the
    /// run's cache.
    fn args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = match &self.path {
            None => Vec::new(),
            Some(path) => vec!["--policy".into(), path.into()],
        };
        if let Some(cache) = &self.cache_dir {
            args.extend(["--cache-dir".into(), cache.into()]);
        }
        args.extend([
            "--fuel".into(),
            self.limits.fuel.to_string().into(),
            "--memory-mib".into(),
            (self.limits.memory_bytes >> 20).to_string().into(),
            "--deadline-ms".into(),
            self.limits.deadline_ms.to_string().into(),
        ]);
        args
    }
}

impl BenchConfig {
    /// A run of `iterations` repetitions, `candidates` a select call, and `turns` timed over
    /// `memories` memories, with the embedded default policy. The doors' store holds at most
    /// [`MCP_MEMORIES`] of those memories and the import file at most [`IMPORT_MEMORIES`];
    /// each HTTP client times five searches a repetition, up to 250, and the cold compile is
    /// timed once a repetition, up to three times. The defaults are `sized(1000, 50, 100_000,
    /// 200)`, and a small run is quick.
    pub fn sized(candidates: usize, iterations: usize, memories: usize, turns: usize) -> Self {
        BenchConfig {
            candidates,
            memories,
            turns,
            iterations,
            compiles: iterations.min(3),
            door_memories: memories.min(MCP_MEMORIES),
            import_memories: memories.min(IMPORT_MEMORIES),
            http_searches: iterations.saturating_mul(5).min(250),
            http_writes: 25,
            subjects: SUBJECTS.min(memories),
            postgres: None,
            policy: None,
            limits: SandboxLimits::default(),
        }
    }
}

/// Subjects behind the many-subjects figures by default (at most the memories asked for, so
/// that a small run is quick).
pub const SUBJECTS: usize = 10_000;

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig::sized(1000, 50, 100_000, 200)
    }
}

/// The figures `kenning bench --json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Median time to instantiate the policy from the pre-instantiated component, µs.
    pub instantiate_us: f64,
    /// Median of one sandboxed select call with `candidates` candidates (fresh instance
    /// included), µs.
    pub policy_call_us: f64,
    /// The same select compiled natively, same inputs, µs.
    pub policy_native_call_us: f64,
    /// `policy_call_us / policy_native_call_us`.
    pub sandbox_ratio: f64,
    /// Median sandboxed select on the candidates of the inject benchmark's real turns (fresh
    /// instance included), µs.
    pub select_turn_us: f64,
    /// The same selects compiled natively, µs.
    pub select_turn_native_us: f64,
    /// `select_turn_us / select_turn_native_us`.
    pub select_turn_ratio: f64,
    /// Candidates per real turn, on average.
    pub turn_candidates: f64,
    /// Median cold compile of the default component, ms.
    pub compile_ms: f64,
    /// Median load of the compiled component from the on-disk cache, ms.
    pub cached_load_ms: f64,
    /// Median of one full inject (candidate queries, one sandboxed select, checks, recall
    /// statistics) over a knowledge base of `memories` memories, µs.
    pub inject_p50_us: f64,
    /// 99th percentile of the same, µs.
    pub inject_p99_us: f64,
    /// `inject_p50_us` on PostgreSQL (`--postgres`), µs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inject_postgres_p50_us: Option<f64>,
    /// `inject_p99_us` on PostgreSQL (`--postgres`), µs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inject_postgres_p99_us: Option<f64>,
    /// Median of the host's candidate queries alone, same contexts, µs.
    pub candidate_query_us: f64,
    /// `inject_p50_us / candidate_query_us`.
    pub inject_over_query: f64,
    /// Scanning throughput inside the component, MB/s (batches of 256 texts; the median round).
    pub scan_mb_s: f64,
    /// Fuel the component spends scanning one byte of the same texts: the work behind
    /// `scan_mb_s`, counted in WebAssembly instructions, the same on any machine however busy.
    pub scan_fuel_per_byte: f64,
    /// Median of one scan of one memory's text in a fresh instance, µs: what every write pays
    /// for its scan (automata the policy built lazily would be rebuilt here each time).
    pub scan_fresh_us: f64,
    /// Median round trip of one `recall` tool call from an MCP client to a spawned
    /// `kenning mcp` over stdio, on `door_memories` memories, µs.
    pub mcp_recall_us: f64,
    /// The same `recall` calls on the same store through [`Service::call`] in this process,
    /// µs: what the MCP round trip adds to.
    pub recall_us: f64,
    /// `mcp_recall_us / recall_us`.
    pub mcp_over_recall: f64,
    /// Median wall time of a whole `kenning recall` process on the same store, the compiled
    /// component already in the cache: start-up, load, one recall, exit. ms.
    pub cold_recall_ms: f64,
    /// `POST search` answered per second by a spawned `kenning serve` on `door_memories`
    /// memories, under 16 concurrent keep-alive clients in this process (clients included).
    pub http_search_rps: f64,
    /// The 99th percentile of one of those searches' round trips, ms.
    pub http_search_p99_ms: f64,
    /// `POST memories` answered per second under the same 16 clients.
    pub http_write_rps: f64,
    /// Memories imported per second by [`Service::import`] from a `kenning-memory/1` export of
    /// `import_memories` memories into a fresh store: schema, hash and scan of every record
    /// (one policy session), duplicate checks, one transaction. The median of
    /// [`IMPORT_RUNS`] imports.
    pub import_per_s: f64,
    /// One server's figures over `subjects` subjects, each written once then searched once,
    /// on SQLite files ([`crate::subjects`]).
    #[serde(flatten)]
    pub subjects_files: crate::subjects::SubjectFigures,
    /// The same on PostgreSQL (`--postgres`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subjects_postgres: Option<crate::subjects::SubjectFigures>,
    /// Two servers on one PostgreSQL database under a mixed load (`--postgres`).
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub mixed: Option<crate::subjects::MixedFigures>,
    /// Subjects behind the many-subjects figures.
    pub subjects: usize,
    /// Memories in the inject knowledge base.
    pub memories: usize,
    /// Memories in the knowledge base behind the doors' figures.
    pub door_memories: usize,
    /// Records in the file behind `import_per_s`.
    pub import_memories: usize,
    /// Size of the default component, bytes.
    pub component_bytes: usize,
    /// Candidates per select call.
    pub candidates: usize,
    /// Repetitions behind each call median.
    pub iterations: usize,
}

/// Runs every measurement.
pub fn measure(config: &BenchConfig) -> Result<BenchReport> {
    let runtime = |e: std::io::Error| PolicyError::Runtime(e.to_string());
    let mut component = Component::new(config)?;
    let engine = PolicyEngine::new(None)?;
    let compile_ms = median_ms(config.compiles, || {
        engine.compile(&component.label, &component.wasm).map(drop)
    })?;

    let cache_dir = scratch_dir().map_err(runtime)?;
    let cached = PolicyEngine::new(Some(cache_dir.path().to_owned()))?;
    // From here on the component loads from this cache: the bench times cold compiles above,
    // never again by the way.
    component.cache_dir = Some(cache_dir.path().to_owned());
    cached.compile(&component.label, &component.wasm)?;
    let cached_load_ms = median_ms(config.compiles.max(5), || {
        cached.compile(&component.label, &component.wasm).map(drop)
    })?;

    let mut policy = component.load(&cached)?;
    let instantiate_us = median_us(config.iterations * 4, || policy.instantiate_only())?;

    let (context, candidates) = workload(config.candidates);
    let limits = Limits::default();
    let policy_call_us = median_us(config.iterations, || {
        policy.select(&context, &candidates, &limits).map(drop)
    })?;
    let native = NativePolicy::new();
    let policy_native_call_us = median_us(config.iterations, || {
        native.select(&context, &candidates, &limits).map(drop)
    })?;

    let (scan_mb_s, scan_fuel_per_byte) = scan_throughput(&mut policy)?;
    let one_memory = [ScanItem {
        text: "sub_401000 walks the import table and resolves ws2_32 ordinals; key in .data"
            .to_owned(),
        target: Target::Memory,
        author: kenning_contract::args::Author::Agent,
    }];
    let scan_fresh_us = median_us(config.iterations, || policy.scan(&one_memory).map(drop))?;
    let inject = inject_figures(&cached, &component, config, None)?;
    let mcp_scratch = scratch_dir().map_err(runtime)?;
    let mcp_dir = mcp_scratch.path().join("mcp");
    populate_files(&mcp_dir, "profile:bench", config.door_memories, NOW)?;
    let queries: Vec<String> = (0..config.iterations as u64 * 4)
        .map(|i| turn(i).query)
        .collect();
    let cold_recall_ms = cold_recall_ms(&mcp_dir, &component, &queries);
    let recall_us = recall_in_process_us(&mcp_dir, &component, &queries);
    let mcp_recall_us = crate::mcp::recall_round_trip_us(&mcp_dir, &component.args(), &queries);
    drop(mcp_scratch);
    let (recall_us, mcp_recall_us, cold_recall_ms) = (recall_us?, mcp_recall_us?, cold_recall_ms?);
    let http_scratch = scratch_dir().map_err(runtime)?;
    let http_dir = http_scratch.path().join("http");
    populate_files(&http_dir, "profile:bench", config.door_memories, NOW)?;
    let http = crate::http::measure(
        &http_dir,
        &component.args(),
        &queries,
        config.http_searches,
        config.http_writes,
    );
    drop(http_scratch);
    let http = http?;
    let import_scratch = scratch_dir().map_err(runtime)?;
    let import_per_s = import_throughput(
        &import_scratch.path().join("import"),
        &component,
        config.import_memories,
    );
    drop(import_scratch);
    let import_per_s = import_per_s?;
    let subjects_scratch = scratch_dir().map_err(runtime)?;
    let subjects_files = crate::subjects::measure(
        &subjects_scratch.path().join("files"),
        None,
        &component.args(),
        config.subjects,
    )?;
    let (subjects_postgres, mixed) = match &config.postgres {
        Some(url) => {
            let (a, b) = (
                subjects_scratch.path().join("a"),
                subjects_scratch.path().join("b"),
            );
            let figures =
                crate::subjects::measure(&a, Some(url), &component.args(), config.subjects)?;
            let mixed =
                crate::subjects::measure_mixed(&a, &b, url, &component.args(), config.subjects)?;
            (Some(figures), Some(mixed))
        }
        None => (None, None),
    };
    drop(subjects_scratch);
    // After the many subjects, as on a team's database: one large subject among thousands of
    // small ones, whose statistics a plan made once for every subject must survive.
    let inject_postgres = match &config.postgres {
        Some(url) => Some(inject_figures(&cached, &component, config, Some(url))?),
        None => None,
    };

    Ok(BenchReport {
        instantiate_us,
        policy_call_us,
        policy_native_call_us,
        sandbox_ratio: policy_call_us / policy_native_call_us.max(f64::EPSILON),
        mcp_recall_us,
        recall_us,
        cold_recall_ms,
        mcp_over_recall: mcp_recall_us / recall_us.max(f64::EPSILON),
        http_search_rps: http.search_rps,
        http_search_p99_ms: http.search_p99_ms,
        http_write_rps: http.write_rps,
        compile_ms,
        cached_load_ms,
        inject_p50_us: inject.p50_us,
        inject_p99_us: inject.p99_us,
        inject_postgres_p50_us: inject_postgres.as_ref().map(|i| i.p50_us),
        inject_postgres_p99_us: inject_postgres.as_ref().map(|i| i.p99_us),
        select_turn_us: inject.select_turn_us,
        select_turn_native_us: inject.select_turn_native_us,
        select_turn_ratio: inject.select_turn_us / inject.select_turn_native_us.max(f64::EPSILON),
        turn_candidates: inject.turn_candidates,
        candidate_query_us: inject.query_us,
        inject_over_query: inject.p50_us / inject.query_us.max(f64::EPSILON),
        scan_mb_s,
        scan_fuel_per_byte,
        scan_fresh_us,
        import_per_s,
        subjects_files,
        subjects_postgres,
        mixed,
        subjects: config.subjects,
        memories: config.memories,
        component_bytes: component.wasm.len(),
        candidates: config.candidates,
        iterations: config.iterations,
        door_memories: config.door_memories,
        import_memories: config.import_memories,
    })
}

/// Exports `memories` memories written by [`populate`] under `dir` and times
/// [`IMPORT_RUNS`] imports of the file, each into a fresh store, as `kenning import` runs it
/// (one policy session); returns the median of their memories per second.
fn import_throughput(dir: &std::path::Path, component: &Component, memories: usize) -> Result<f64> {
    use kenning::service::interchange::{ExportFormat, ImportOptions};
    let subject = Subject::parse("profile:bench")?;
    let from = dir.join("from");
    populate_files(&from, "profile:bench", memories, NOW)?;
    let export = Service::builder(&from)
        .policy(PolicySource::Native)
        .build()?
        .export(&subject, ExportFormat::Jsonl)?;
    let options = ImportOptions {
        importer: Author::Human,
        dry_run: false,
        source_name: "bench.jsonl".to_owned(),
    };
    let (mut times, mut records) = (Vec::with_capacity(IMPORT_RUNS), 0);
    for run in 0..IMPORT_RUNS {
        let service = component
            .service(&dir.join(format!("to-{run}")))
            .scan_session(true)
            .build()?;
        let start = Instant::now();
        records = service
            .import(&subject, &export.text, &options, &mut |_, _, _| {})?
            .records;
        times.push(start.elapsed());
    }
    let time = median(times).as_secs_f64();
    Ok(records as f64 / time.max(f64::EPSILON))
}

/// Imports behind `import_per_s`: one import is a single half-second sample, which one
/// neighbour's burst on a shared machine can move by a third.
pub const IMPORT_RUNS: usize = 3;

/// Rounds behind `scan_mb_s`, each timed on its own.
pub const SCAN_ROUNDS: usize = 12;

/// Scans a deterministic mix of prose, notes and config lines (some with secrets) in batches of
/// 256 texts, as `scan --jsonl` and imports do, [`SCAN_ROUNDS`] times; returns the median
/// round's megabytes (10^6 bytes) per second, and the fuel spent per byte scanned.
fn scan_throughput(policy: &mut ComponentPolicy) -> Result<(f64, f64)> {
    let items = scan_workload();
    let bytes: usize = items.iter().map(|i| i.text.len()).sum();
    // A stream of scans from one caller shares one instance, as `scan --jsonl` does.
    policy.keep_instance_between_calls(true);
    policy.scan(&items)?; // warm-up
    let fuel_before = policy.fuel_spent();
    let rounds = sample(SCAN_ROUNDS, || policy.scan(&items).map(drop));
    let fuel = policy.fuel_spent() - fuel_before;
    policy.keep_instance_between_calls(false);
    let round = median(rounds?);
    let fuel_per_byte = fuel as f64 / (SCAN_ROUNDS * bytes.max(1)) as f64;
    Ok((
        bytes as f64 / 1e6 / round.as_secs_f64().max(f64::EPSILON),
        fuel_per_byte,
    ))
}

struct InjectFigures {
    p50_us: f64,
    p99_us: f64,
    query_us: f64,
    select_turn_us: f64,
    select_turn_native_us: f64,
    turn_candidates: f64,
}

/// Median select over real turns' candidates, sandboxed and native; the two alternate turn by
/// turn, so neither always runs with the other's data in the cache.
fn select_on_turns(
    sandboxed: &ComponentPolicy,
    turns: &[(
        kenning_contract::types::Context,
        Vec<kenning_contract::types::Candidate>,
    )],
) -> Result<(f64, f64)> {
    let native = NativePolicy::new();
    let limits = Limits::default();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for (i, (context, candidates)) in turns.iter().enumerate() {
        let time = |policy: &dyn Policy, into: &mut Vec<Duration>| -> Result<()> {
            let start = Instant::now();
            policy.select(context, candidates, &limits)?;
            into.push(start.elapsed());
            Ok(())
        };
        if i % 2 == 0 {
            time(sandboxed, &mut ours)?;
            time(&native, &mut theirs)?;
        } else {
            time(&native, &mut theirs)?;
            time(sandboxed, &mut ours)?;
        }
    }
    Ok((
        median(ours).as_secs_f64() * 1e6,
        median(theirs).as_secs_f64() * 1e6,
    ))
}

/// Builds a knowledge base of `config.memories` memories and times full injects against the
/// candidate queries alone, over the same contexts.
/// The inject figures over SQLite files, or over the PostgreSQL database at `postgres` (which
/// must not hold the bench's subject yet).
fn inject_figures(
    engine: &PolicyEngine,
    component: &Component,
    config: &BenchConfig,
    postgres: Option<&str>,
) -> Result<InjectFigures> {
    let scratch = scratch_dir().map_err(|e| PolicyError::Runtime(e.to_string()))?;
    let dir = scratch.path();
    let result = (|| {
        let subject = Subject::parse("account:bench")?;
        let stores = match postgres {
            Some(url) => Stores::Postgres(url),
            None => Stores::Files(dir),
        };
        populate(&subject, stores, config.memories, NOW)?;
        // The component from the run's cache, so the figures leave compiling out.
        let policy = component.load(engine)?;
        let mut builder = Service::builder(dir)
            .policy(PolicySource::Custom(Box::new(policy)))
            .fixed_now(NOW);
        if let Some(url) = postgres {
            builder = builder.postgres(url);
        }
        let service = builder.build()?;
        let turns: Vec<TurnContext> = (0..config.turns.max(2)).map(|i| turn(i as u64)).collect();
        let kb = CandidateQuery::open(stores, &subject)?;
        let mut query = Vec::with_capacity(turns.len());
        let mut inject = Vec::with_capacity(turns.len());
        let mut turn_candidates = Vec::with_capacity(turns.len());
        // Each turn runs both; which goes first alternates, so neither always finds the other's
        // pages already in the operating system's cache.
        for (i, turn) in turns.iter().enumerate() {
            let context = turn.to_context(NOW, SubjectKind::Binary);
            let mut time_query = || -> Result<()> {
                let start = Instant::now();
                let candidates = kb.gather(&context)?;
                query.push(start.elapsed());
                turn_candidates.push((context.clone(), candidates.into_values().collect()));
                Ok(())
            };
            if i % 2 == 0 {
                time_query()?;
            }
            let start = Instant::now();
            service.inject(&subject, turn, &Limits::default())?;
            inject.push(start.elapsed());
            if i % 2 == 1 {
                time_query()?;
            }
        }
        inject.sort();
        let p99 = inject[(inject.len() * 99 / 100).min(inject.len() - 1)];
        let (select_turn_us, select_turn_native_us) =
            select_on_turns(&component.load(engine)?, &turn_candidates)?;
        Ok(InjectFigures {
            p50_us: median(inject).as_secs_f64() * 1e6,
            p99_us: p99.as_secs_f64() * 1e6,
            query_us: median(query).as_secs_f64() * 1e6,
            select_turn_us,
            select_turn_native_us,
            turn_candidates: turn_candidates.iter().map(|(_, c)| c.len()).sum::<usize>() as f64
                / turn_candidates.len().max(1) as f64,
        })
    })();
    drop(scratch);
    result
}

const NOW: i64 = 1_790_000_000;

/// The `i`th bench turn: a cursor somewhere in the image, inside its function, and a query.
pub fn turn(i: u64) -> TurnContext {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i + 1).wrapping_mul(0x1000_0000_01b3));
    let function_start = (rng.draw() % 0x4000) * 0x400;
    let base = 0x40_0000;
    TurnContext {
        image_base: base,
        cursor: Some(base + function_start + rng.draw() % 0x400),
        current_function: Some(LiveFunction {
            start: base + function_start,
            end: base + function_start + 0x400,
            name: format!("fn_{function_start:x}"),
        }),
        referenced_strings: vec![format!("str_{}", rng.draw() % 20_000)],
        query: (0..4)
            .map(|_| word(rng.zipf(20_000)))
            .collect::<Vec<_>>()
            .join(" "),
        ..TurnContext::default()
    }
}

/// A new folder under the temporary directory, deleted with everything in it when dropped,
/// whether the measurement it serves succeeded or not.
fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix("kenning-bench-").tempdir()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn sample<E>(n: usize, mut f: impl FnMut() -> Result<(), E>) -> Result<Vec<Duration>, E> {
    (0..n.max(1))
        .map(|_| {
            let start = Instant::now();
            f()?;
            Ok(start.elapsed())
        })
        .collect()
}

fn median_ms<E>(n: usize, f: impl FnMut() -> Result<(), E>) -> Result<f64, E> {
    Ok(median(sample(n, f)?).as_secs_f64() * 1e3)
}

fn median_us<E>(n: usize, f: impl FnMut() -> Result<(), E>) -> Result<f64, E> {
    Ok(median(sample(n, f)?).as_secs_f64() * 1e6)
}
