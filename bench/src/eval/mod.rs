//! Measurements of the default policy on public and assembled data (`kenning eval`).
//!
//! - [`locomo`]: retrieval quality (recall@k) on the LoCoMo benchmark;
//! - [`scan`]: secret redaction and unsafe-content blocking over labelled corpora.

pub mod locomo;
pub mod scan;
