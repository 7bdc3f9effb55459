//! kenning's measurements, unpublished: `kenning bench` and `kenning eval` are the command
//! line's doors onto them, so that neither the library nor the servers carry benchmark code.
//! The one crate that turns on the library's `bench-support` feature, its one test-support
//! hook: `kenning::store::synthetic` writes seeded noise (a bulk load no caller's text can
//! reach) past the service's rules.
//!
//! - [`measure`]: every figure of `kenning bench --json`, in one run;
//! - [`mcp`] and [`http`]: the round trips through a spawned `kenning mcp` and `kenning serve`;
//! - [`eval`]: retrieval quality on LoCoMo and the scan's rates over labelled corpora.

pub mod eval;
pub mod http;
pub mod mcp;
pub mod measure;
pub mod subjects;

pub use measure::{
    BenchConfig, BenchReport, IMPORT_MEMORIES, IMPORT_RUNS, MCP_MEMORIES, SCAN_ROUNDS, measure,
};
