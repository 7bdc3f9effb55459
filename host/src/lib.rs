//! kenning, the library: persistent, governed long-term memory for AI agents, whose policy is
//! a sandboxed WebAssembly component. An embedder depends on this crate alone; the servers
//! (`kenning-server`: HTTP, MCP, tokens) and the command-line program (`kenning-cli`) are
//! crates of their own over it.
//!
//! - [`Service`]: the one API every interface dispatches through (tools, turns, review,
//!   settings, statistics), made by [`ServiceBuilder`], which always guards the policy;
//! - [`api`]: the typed requests and responses, and the JSON Schemas made from them;
//! - [`memory`]: a memory as every layer sees it, and the filter that picks memories out;
//! - [`provenance`]: who may write, change and accept what;
//! - [`policy`]: loading policy components under wasmtime (fuel, memory cap, compiled-code
//!   cache) and checking their answers;
//! - [`store`]: one SQLite knowledge base per [`subject`], with migrations and audit, encrypted
//!   at rest when a key is configured ([`encryption`]);
//! - [`private`]: files are private by default (directories `0700`, files `0600`);
//! - [`metrics`]: what it counts for operators (policy calls, fuel, traps, scan verdicts).
//!
//! ```no_run
//! use kenning::{Service, api::MemoryArgs, api::{MemoryActionArg, MemoryTargetArg}, store::Author, subject::Subject};
//! let service = Service::builder("/tmp/kenning").build()?;
//! let subject = Subject::parse("profile:me")?;
//! service.edit_profile(&subject, Author::Human, &MemoryArgs {
//!     action: MemoryActionArg::Add,
//!     target: MemoryTargetArg::User,
//!     content: Some("Prefers short answers.".into()),
//!     old_text: None,
//!     thread: None,
//! })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod api;
pub mod config;
pub mod controls;
pub mod encryption;
pub mod error;
pub mod hex;
pub mod home;
#[cfg(test)]
mod layers;
pub mod memory;
pub mod metadata;
pub mod metrics;
/// Connecting to PostgreSQL as the store does (libpq's `sslmode` and `sslrootcert` over rustls),
/// for other state a team's servers keep in the same database (the HTTP API's tokens).
#[cfg(feature = "postgres")]
pub mod postgres_connect {
    pub use crate::store::postgres::tls::{Connector, Mode, TlsOptions, connect_config, options};
    pub use crate::store::postgres::{database_error, describe};
}
pub mod model_command;
pub mod policy;
pub mod private;
pub mod provenance;
pub mod query;
pub mod service;
pub mod settings;
pub mod store;
pub mod subject;
pub mod time;

pub use crate::error::{KenningError, PolicyError, Result};
pub use crate::service::turn::{Injection, TurnContext};
pub use crate::service::{PolicySource, Service, ServiceBuilder};
