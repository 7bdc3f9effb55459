//! engram's host: persistent, governed long-term memory for AI agents, whose policy is a
//! sandboxed WebAssembly component.
//!
//! - [`policy`]: loading policy components under wasmtime (fuel, memory cap, compiled-code
//!   cache) and checking their answers;
//! - [`store`]: one SQLite knowledge base per [`subject`], with migrations and audit;
//! - [`engram`]: the operations (tool calls, turns, scans) every interface dispatches through;
//! - [`bench`] and [`demo`]: what `engram bench` and `engram demo` run.
//!
//! ```no_run
//! use engram::{Engram, policy::{Guarded, PolicyEngine, SandboxLimits}, store::Author, subject::Subject};
//! let engine = PolicyEngine::new(None)?;
//! let policy = Guarded::new(engine.load_default(SandboxLimits::default())?);
//! let mut engram = Engram::new("/tmp/engram", Box::new(policy));
//! let subject = Subject::parse("profile:me")?;
//! engram.call(&subject, Author::Human, "memory", r#"{"action":"add","target":"user","content":"Prefers short answers."}"#)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bench;
pub mod demo;
pub mod engram;
pub mod error;
pub mod eval;
pub mod governance;
pub mod policy;
pub mod settings;
pub mod store;
pub mod subject;

pub use crate::engram::{Engram, Injection, TurnContext};
pub use crate::error::{EngramError, PolicyError, Result};
