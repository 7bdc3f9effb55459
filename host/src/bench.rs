//! `engram bench`: the sandbox's costs, measured in one run so they compare as ratios.
//!
//! Figures are medians: these machines are shared and noisy.

use std::time::{Duration, Instant};

use engram_policy::types::{
    Anchor, Candidate, Context, FunctionAnchor, Limits, LiveFunction, MemoryKind, Scope,
    SubjectKind,
};
use serde::Serialize;

use crate::error::{PolicyError, Result};
use crate::policy::{DEFAULT_POLICY_WASM, NativePolicy, Policy, PolicyEngine, SandboxLimits};

/// How many times each measurement repeats.
#[derive(Debug, Clone, Copy)]
pub struct BenchConfig {
    /// Candidates passed to one select call.
    pub candidates: usize,
    /// Repetitions of each call measurement.
    pub iterations: usize,
    /// Cold compiles to time.
    pub compiles: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            candidates: 1000,
            iterations: 50,
            compiles: 3,
        }
    }
}

/// The figures `engram bench --json` prints.
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
    /// Median cold compile of the default component, ms.
    pub compile_ms: f64,
    /// Median load of the compiled component from the on-disk cache, ms.
    pub cached_load_ms: f64,
    /// Size of the default component, bytes.
    pub component_bytes: usize,
    /// Candidates per select call.
    pub candidates: usize,
    /// Repetitions behind each call median.
    pub iterations: usize,
}

/// Runs every measurement.
pub fn run(config: &BenchConfig) -> Result<BenchReport> {
    let runtime = |e: std::io::Error| PolicyError::Runtime(e.to_string());
    let engine = PolicyEngine::new(None)?;
    let compile_ms = median_ms(config.compiles, || {
        engine
            .compile("engram-default", DEFAULT_POLICY_WASM)
            .map(drop)
    })?;

    let cache_dir = tempfile_dir().map_err(runtime)?;
    let cached = PolicyEngine::new(Some(cache_dir.clone()))?;
    cached.compile("engram-default", DEFAULT_POLICY_WASM)?;
    let cached_load_ms = median_ms(config.compiles.max(5), || {
        cached
            .compile("engram-default", DEFAULT_POLICY_WASM)
            .map(drop)
    })?;
    let _ = std::fs::remove_dir_all(&cache_dir);

    let mut policy = engine.load_default(SandboxLimits::default())?;
    let instantiate_us = median_us(config.iterations * 4, || policy.instantiate_only())?;

    let (context, candidates) = workload(config.candidates);
    let limits = Limits::default();
    let policy_call_us = median_us(config.iterations, || {
        policy.select(&context, &candidates, &limits).map(drop)
    })?;
    let mut native = NativePolicy::new();
    let policy_native_call_us = median_us(config.iterations, || {
        native.select(&context, &candidates, &limits).map(drop)
    })?;

    Ok(BenchReport {
        instantiate_us,
        policy_call_us,
        policy_native_call_us,
        sandbox_ratio: policy_call_us / policy_native_call_us.max(f64::EPSILON),
        compile_ms,
        cached_load_ms,
        component_bytes: DEFAULT_POLICY_WASM.len(),
        candidates: config.candidates,
        iterations: config.iterations,
    })
}

fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("engram-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
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

/// A deterministic turn over `n` candidates: a third anchored near the cursor, a third
/// matching the query, a third global.
pub fn workload(n: usize) -> (Context, Vec<Candidate>) {
    let mut context = Context::at(1_790_000_000, SubjectKind::Binary);
    context.image_base = 0x40_0000;
    context.cursor = Some(0x40_1050);
    context.current_function = Some(LiveFunction {
        start: 0x40_1000,
        end: 0x40_1200,
        name: "decrypt_config".into(),
    });
    context.query = "where is the config decrypted".into();
    let words = [
        "config", "decrypt", "key", "buffer", "parse", "header", "network", "socket", "rc4", "xor",
        "loop", "table",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let candidates = (0..n as u64)
        .map(|i| {
            let text: Vec<&str> = (0..16)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect();
            let (scope, anchors) = match i % 3 {
                0 => (
                    Scope::Local,
                    vec![Anchor::Function(FunctionAnchor {
                        start: 0x1000 + (next() % 4) * 0x200,
                        end: None,
                        name: "decrypt_config".into(),
                    })],
                ),
                1 => (
                    Scope::Local,
                    vec![Anchor::Address {
                        offset: next() % 0x10000,
                    }],
                ),
                _ => (Scope::Global, Vec::new()),
            };
            Candidate {
                id: i + 1,
                scope,
                kind: MemoryKind::Fact,
                text: format!("memory {i}: {}", text.join(" ")),
                tags: vec!["re".into()],
                confidence: 0.5 + (next() % 50) as f32 / 100.0,
                created_at: 1_780_000_000 - (next() % 10_000_000) as i64,
                updated_at: 1_780_000_000,
                anchors,
                lexical_score: if i % 3 == 1 {
                    (next() % 100) as f32 / 10.0
                } else {
                    0.0
                },
            }
        })
        .collect();
    (context, candidates)
}
