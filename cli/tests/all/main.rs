//! Every integration test of the `kenning` program, in one test binary: each module is the
//! program (or a server it starts) driven from outside, over real stores, as its users drive
//! it. One binary links once and starts one throwaway PostgreSQL cluster for all of them
//! (`support::postgres`).

mod support;

mod background_review;
mod cli;
mod docs;
mod encryption;
mod eval_locomo;
mod extract;
mod faults;
mod graph_and_dream;
mod http;
mod interchange;
mod maintain;
mod mcp;
mod one_gate;
mod postgres_servers;
mod postgres_tls;
mod private_files;
mod processes;
mod query;
mod share;
mod store_conformance;
mod write_paths;
