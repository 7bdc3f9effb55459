//! kenning's servers: the doors an agent runtime reaches a knowledge base through from another
//! process, each a thin adapter over [`kenning::Service`].
//!
//! - [`mcp`]: the MCP server (stdio, and streamable HTTP under the HTTP API);
//! - [`http`]: the HTTP API (`kenning serve`), its OpenAPI document and its routes;
//! - [`tokens`]: the bearer tokens the HTTP API checks: who a caller is and what it reaches.
//!
//! The HTTP API (and MCP at `/v1/mcp`) inside a program of one's own, as `kenning serve` runs it:
//!
//! ```no_run
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! use kenning::Service;
//! use kenning_server::http::{self, McpHttpOptions};
//! use kenning_server::tokens::TokenStore;
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let data_dir = Path::new("/var/lib/kenning");
//! let service = Arc::new(Service::builder(data_dir).build()?);
//! // The tokens `kenning token create` made there (plaintext: no key).
//! let tokens = Arc::new(TokenStore::open(data_dir, None)?);
//! let stop = tokio_util::sync::CancellationToken::new();
//! let app = http::router(service, tokens, &McpHttpOptions::default(), stop)?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, app).await?;
//! # Ok(())
//! # }
//! ```

pub mod http;
pub mod mcp;
pub mod tokens;
