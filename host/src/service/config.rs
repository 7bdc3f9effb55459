//! The one way to make a [`Service`]: which policy (the embedded default, a component file,
//! the default linked natively, or an embedder's own), its sandbox limits and its compiled-code
//! cache, and the configuration of its jobs (the data directory's `kenning.toml` unless
//! given). Whatever the source, the policy is wrapped in the answer guard.

use std::path::PathBuf;

use super::Service;
use crate::config::Config;
use crate::error::{KenningError, Result};
#[cfg(feature = "native-policy")]
use crate::policy::NativePolicy;
use crate::policy::{Guarded, Policy, PolicyEngine, SandboxLimits};
use crate::store::Backend;
use crate::store::StoreKey;
use crate::store::sqlite::SqliteFiles;

/// Where the policy comes from.
pub enum PolicySource {
    /// The default policy component embedded in this build.
    Default,
    /// A policy component file implementing the contract.
    File(PathBuf),
    /// The default policy linked natively, without the sandbox (debugging, comparisons; the
    /// `native-policy` feature).
    #[cfg(feature = "native-policy")]
    Native,
    /// An embedder's own implementation; it is guarded like any other.
    Custom(Box<dyn Policy>),
}

/// Configures and builds a [`Service`].
pub struct ServiceBuilder {
    data_dir: PathBuf,
    source: PolicySource,
    limits: SandboxLimits,
    cache_dir: Option<PathBuf>,
    use_cache: bool,
    session: bool,
    fixed_now: Option<i64>,
    max_result_bytes: usize,
    key: Option<StoreKey>,
    backend: Option<Box<dyn Backend>>,
    /// The PostgreSQL database to connect to at build, when no backend was given.
    #[cfg(feature = "postgres")]
    postgres: Option<String>,
    /// The login read-only queries run as on PostgreSQL.
    #[cfg(feature = "postgres")]
    query_login: Option<String>,
    config: Option<Config>,
}

impl ServiceBuilder {
    /// The embedded default policy over `data_dir`, default limits, compiled code cached in
    /// `data_dir/cache`.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        ServiceBuilder {
            data_dir: data_dir.into(),
            source: PolicySource::Default,
            limits: SandboxLimits::default(),
            cache_dir: None,
            use_cache: true,
            session: false,
            fixed_now: None,
            max_result_bytes: super::DEFAULT_MAX_RESULT_BYTES,
            key: None,
            backend: None,
            #[cfg(feature = "postgres")]
            postgres: None,
            #[cfg(feature = "postgres")]
            query_login: None,
            config: None,
        }
    }

    /// Keeps every subject in the PostgreSQL database at `url` (`postgres://...` or a
    /// `key=value` string) instead of SQLite files in the data directory, connecting when the
    /// service is built (the `postgres` feature). A store key does not go with it: the
    /// database is encrypted at rest by its own means.
    #[cfg(feature = "postgres")]
    pub fn postgres(mut self, url: impl Into<String>) -> Self {
        self.postgres = Some(url.into());
        self
    }

    /// On a PostgreSQL store, the login `query` runs as (`postgres://...` or a `key=value`
    /// string): a role of its own that holds no privilege on any table, so that what a query
    /// reads is only what the views show (see [`crate::query`]). Without one, `query` is
    /// refused on PostgreSQL; SQLite files need none.
    #[cfg(feature = "postgres")]
    pub fn query_login(mut self, url: impl Into<String>) -> Self {
        self.query_login = Some(url.into());
        self
    }

    /// Where the knowledge bases live (default: SQLite files in the data directory, encrypted
    /// with the [`ServiceBuilder::store_key`]); outside the crate, [`ServiceBuilder::postgres`]
    /// is the one other choice.
    #[cfg(test)]
    pub(crate) fn backend(mut self, backend: Box<dyn Backend>) -> Self {
        self.backend = Some(backend);
        self
    }

    /// Where the policy comes from.
    pub fn policy(mut self, source: PolicySource) -> Self {
        self.source = source;
        self
    }

    /// Fuel and memory cap of every policy call.
    pub fn limits(mut self, limits: SandboxLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Where compiled policies are cached (default `data_dir/cache`).
    pub fn cache_dir(mut self, dir: PathBuf) -> Self {
        self.cache_dir = Some(dir);
        self
    }

    /// Compiles the policy without reading or writing the cache.
    pub fn without_cache(mut self) -> Self {
        self.use_cache = false;
        self
    }

    /// Makes the policy's calls share one instance (a session) for a stream of calls from one
    /// caller, such as a scan of a whole file (see
    /// [`crate::policy::ComponentPolicy::keep_instance_between_calls`]). Never for a service
    /// shared by several callers.
    pub fn scan_session(mut self, session: bool) -> Self {
        self.session = session;
        self
    }

    /// Uses a fixed clock (seconds since the epoch): for tests and reproducible runs.
    pub fn fixed_now(mut self, now: i64) -> Self {
        self.fixed_now = Some(now);
        self
    }

    /// Most bytes of JSON a page of results holds (default 16,000, about 4,000 tokens): a
    /// longer page is cut and points at the rest, so no client receives a dump it refuses.
    pub fn max_result_bytes(mut self, bytes: usize) -> Self {
        self.max_result_bytes = bytes;
        self
    }

    /// Encrypts every knowledge base the service creates with `key`, and opens existing ones
    /// with it (`None`, the default: plaintext stores). See [`crate::encryption`].
    pub fn store_key(mut self, key: Option<StoreKey>) -> Self {
        self.key = key;
        self
    }

    /// Uses this configuration instead of the data directory's `kenning.toml`.
    pub fn config(mut self, config: Config) -> Self {
        self.config = Some(config);
        self
    }

    /// Loads the policy and makes the service.
    // `mut` serves the `postgres` feature's store, made here from its URL.
    #[cfg_attr(not(feature = "postgres"), allow(unused_mut))]
    pub fn build(mut self) -> Result<Service> {
        self.limits.check()?;
        #[cfg(feature = "postgres")]
        if let Some(url) = self.postgres.take().filter(|_| self.backend.is_none()) {
            if self.key.is_some() {
                return Err(KenningError::Usage(
                    "a store key encrypts SQLite files; a PostgreSQL store is encrypted at rest by the database's own means: give one or the other".into(),
                ));
            }
            self.backend = Some(Box::new(crate::store::postgres::PostgresStore::connect(
                &url,
                self.query_login.as_deref(),
            )?));
        }
        let config = match self.config {
            Some(config) => config,
            None => Config::load(&self.data_dir)?,
        };
        let cache = self.use_cache.then(|| {
            self.cache_dir
                .unwrap_or_else(|| self.data_dir.join("cache"))
        });
        let policy: Box<dyn Policy> = match self.source {
            #[cfg(feature = "native-policy")]
            PolicySource::Native => Box::new(Guarded::new(NativePolicy::new())),
            PolicySource::Custom(policy) => Box::new(Guarded::new(policy)),
            PolicySource::Default | PolicySource::File(_) => {
                let engine = PolicyEngine::new(cache)?;
                let mut component = match &self.source {
                    PolicySource::File(path) => engine.load_file(path, self.limits)?,
                    _ => engine.load_default(self.limits)?,
                };
                component.keep_instance_between_calls(self.session);
                Box::new(Guarded::new(component))
            }
        };
        let backend = self
            .backend
            .unwrap_or_else(|| Box::new(SqliteFiles::new(&self.data_dir, self.key.clone())));
        Ok(Service {
            backend,
            data_dir: self.data_dir,
            policy,
            fixed_now: self.fixed_now,
            max_result_bytes: self.max_result_bytes,
            key: self.key,
            config,
        })
    }
}

impl SandboxLimits {
    /// Refuses limits the sandbox cannot honour.
    pub fn check(&self) -> Result<()> {
        if self.fuel == 0 {
            return Err(KenningError::Usage(
                "the policy's fuel must be at least 1".into(),
            ));
        }
        if self.memory_bytes < crate::policy::MIN_MEMORY_BYTES
            || self.memory_bytes > crate::policy::MAX_MEMORY_BYTES
        {
            return Err(KenningError::Usage(format!(
                "the policy's memory cap must be between {} MiB and {} MiB",
                crate::policy::MIN_MEMORY_BYTES >> 20,
                crate::policy::MAX_MEMORY_BYTES >> 20
            )));
        }
        if self.deadline_ms == 0 || self.deadline_ms > crate::policy::MAX_DEADLINE_MS {
            return Err(KenningError::Usage(format!(
                "the policy's deadline must be between 1 ms and {} ms",
                crate::policy::MAX_DEADLINE_MS
            )));
        }
        Ok(())
    }
}
