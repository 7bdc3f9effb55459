//! `kenning bench`: the command's flags and its table. The measurements are `kenning-bench`'s
//! ([`kenning_bench::measure`]), all made in one run so they compare as ratios.

use std::process::ExitCode;

use clap::Args;
use kenning::{KenningError, Result};
use kenning_bench::{BenchConfig, IMPORT_RUNS, SCAN_ROUNDS, measure};

use super::{GlobalOpts, print_json};

/// `kenning bench`.
#[derive(Args)]
pub struct BenchCmd {
    /// Print the figures as one JSON object on the last line.
    #[arg(long)]
    json: bool,
    /// Candidates in each select call.
    #[arg(long, default_value_t = 1000)]
    candidates: usize,
    /// Repetitions of each call (and of the cold compile, up to three).
    #[arg(long, default_value_t = 50)]
    iterations: usize,
    /// Memories in the knowledge base behind the inject figures; the doors' figures (MCP, HTTP,
    /// whole processes) use at most 10,000 of them, the import at most 20,000.
    #[arg(long, default_value_t = 100_000)]
    memories: usize,
    /// Turns timed over that knowledge base.
    #[arg(long, default_value_t = 200)]
    turns: usize,
    /// Subjects behind the many-subjects figures (each written once, then searched once, on
    /// one server); at most `--memories`.
    #[arg(long, default_value_t = kenning_bench::measure::SUBJECTS)]
    subjects: usize,
    /// Also time the inject figures on this PostgreSQL database (an empty one: the bench
    /// writes its memories there), as `inject_postgres_p50_us` and `inject_postgres_p99_us`,
    /// the many-subjects figures (`subjects_postgres`), and two servers on it under a mixed
    /// load (`http_mixed_rps`, `http_mixed_p99_ms`).
    #[arg(long, value_name = "URL")]
    postgres: Option<String>,
}

/// Measures and prints the figures, one a line, then (with `--json`) all of them as one JSON
/// object on the last line.
pub fn run(global: &GlobalOpts, cmd: &BenchCmd) -> Result<ExitCode> {
    if global.native_policy {
        return Err(KenningError::Usage(
            "bench measures a policy component in its sandbox (and the native default beside \
             it); --native-policy does not apply"
                .to_owned(),
        ));
    }
    let report = measure(&BenchConfig {
        postgres: cmd.postgres.clone(),
        policy: global.policy.clone(),
        limits: global.limits()?,
        subjects: cmd.subjects.min(cmd.memories),
        ..BenchConfig::sized(cmd.candidates, cmd.iterations, cmd.memories, cmd.turns)
    })?;
    outln!(
        "instantiate          {:>10.1} µs (median, fresh instance from the pre-instantiated component)",
        report.instantiate_us
    );
    outln!(
        "select, sandboxed    {:>10.1} µs (median, {} candidates, instantiation included)",
        report.policy_call_us,
        report.candidates
    );
    outln!(
        "select, native       {:>10.1} µs (same inputs)",
        report.policy_native_call_us
    );
    outln!("sandbox / native     {:>10.2}x", report.sandbox_ratio);
    outln!(
        "select on real turns {:>10.1} µs sandboxed, {:.1} µs native, {:.2}x ({:.0} candidates a turn)",
        report.select_turn_us,
        report.select_turn_native_us,
        report.select_turn_ratio,
        report.turn_candidates
    );
    outln!("cold compile         {:>10.1} ms", report.compile_ms);
    outln!("load from cache      {:>10.2} ms", report.cached_load_ms);
    outln!(
        "inject, p50          {:>10.1} µs ({} memories, {} turns)",
        report.inject_p50_us,
        report.memories,
        cmd.turns
    );
    outln!("inject, p99          {:>10.1} µs", report.inject_p99_us);
    if let (Some(p50), Some(p99)) = (report.inject_postgres_p50_us, report.inject_postgres_p99_us) {
        outln!(
            "inject on PostgreSQL {:>10.1} µs p50, {:.1} µs p99 (same memories and turns)",
            p50,
            p99
        );
    }
    outln!(
        "kenning recall       {:>10.1} ms (whole process, compiled component cached)",
        report.cold_recall_ms
    );
    outln!(
        "candidate queries    {:>10.1} µs (median, same contexts)",
        report.candidate_query_us
    );
    outln!("inject / queries     {:>10.2}x", report.inject_over_query);
    outln!(
        "scan in component    {:>10.1} MB/s (median of {SCAN_ROUNDS} rounds)",
        report.scan_mb_s
    );
    outln!(
        "scan fuel            {:>10.1} per byte (WebAssembly instructions, as counted by fuel)",
        report.scan_fuel_per_byte
    );
    outln!(
        "scan, fresh instance {:>10.1} µs (median, one memory's text, as every write scans it)",
        report.scan_fresh_us
    );
    outln!(
        "MCP recall           {:>10.1} µs (median round trip over stdio, {} memories)",
        report.mcp_recall_us,
        report.door_memories
    );
    outln!(
        "recall in process    {:>10.1} µs (same calls, same store; MCP / in process {:.2}x)",
        report.recall_us,
        report.mcp_over_recall
    );
    outln!(
        "HTTP search          {:>10.0} req/s ({} keep-alive clients, {} memories; p99 {:.1} ms)",
        report.http_search_rps,
        kenning_bench::http::CLIENTS,
        report.door_memories,
        report.http_search_p99_ms
    );
    outln!("HTTP write           {:>10.0} req/s", report.http_write_rps);
    outln!(
        "import               {:>10.0} memories/s (median of {IMPORT_RUNS}, {} kenning-memory/1 records into a fresh store)",
        report.import_per_s,
        report.import_memories
    );
    let subjects =
        |backend: &str, figures: &kenning_bench::subjects::SubjectFigures| -> Result<()> {
            outln!(
                "new subject writes   {:>10.0} req/s ({}, {} subjects, the first write of each)",
                figures.new_subject_write_rps,
                backend,
                report.subjects
            );
            outln!(
                "cold subject search  {:>10.0} req/s (each on a subject whose store is not open)",
                figures.cold_subject_search_rps
            );
            outln!(
                "server peak memory   {:>10.1} MiB (after both)",
                figures.serve_subjects_rss_mib
            );
            Ok(())
        };
    subjects("SQLite files", &report.subjects_files)?;
    if let Some(figures) = &report.subjects_postgres {
        subjects("PostgreSQL", figures)?;
    }
    if let Some(mixed) = &report.mixed {
        outln!(
            "mixed, two servers   {:>10.0} req/s ({} clients, 9 searches to 1 write, one database; p99 {:.1} ms)",
            mixed.http_mixed_rps,
            kenning_bench::subjects::MIXED_CLIENTS,
            mixed.http_mixed_p99_ms
        );
    }
    if cmd.json {
        print_json(&report)?;
    }
    Ok(ExitCode::SUCCESS)
}
