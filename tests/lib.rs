//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};

use kenning::policy::{PolicyEngine, SandboxLimits};
use kenning::store::Author;
use kenning::subject::Subject;
use kenning::{PolicySource, Service, ServiceBuilder};

/// The throwaway PostgreSQL cluster and the switch that puts these tests on it
/// (`KENNING_TEST_BACKEND=postgres`), shared with the host's tests.
#[path = "../cli/tests/all/support/postgres.rs"]
pub mod postgres;

/// The hostile policy component built by `build.rs` (the current contract, lean).
pub const HOSTILE_POLICY_WASM: &str = env!("HOSTILE_POLICY_WASM");

/// The hostile policy with `describe` trapping.
pub const HOSTILE_DESCRIBE_TRAP_WASM: &str = env!("HOSTILE_DESCRIBE_TRAP_WASM");

/// The hostile policy built for wasm32-wasip2: it imports `wasi:` interfaces.
pub const HOSTILE_WASI_WASM: &str = env!("HOSTILE_WASI_WASM");

/// The compiled-policy cache every test process shares (the host's tests too), set by
/// `build.rs`: without it each service a test builds would compile the default policy again.
pub fn policy_cache_dir() -> PathBuf {
    PathBuf::from(env!("KENNING_TEST_POLICY_CACHE"))
}

/// A policy engine over the tests' shared cache ([`policy_cache_dir`]).
pub fn policy_engine() -> PolicyEngine {
    PolicyEngine::new(Some(policy_cache_dir())).expect("engine")
}

/// A fixed clock for reproducible tests: 2026-11-30T00:00:00Z.
pub const NOW: i64 = 1_796_083_200 - 86_400;

/// A temporary data directory with a binary subject in it.
pub struct Workspace {
    /// Removed on drop.
    pub dir: tempfile::TempDir,
    /// The subject (a small file in `dir`).
    pub subject: Subject,
}

impl Workspace {
    /// A fresh workspace.
    pub fn new() -> Workspace {
        let dir = tempfile::tempdir().expect("temp dir");
        let binary = dir.path().join("sample.bin");
        std::fs::write(&binary, b"\x7fELF a sample under analysis").expect("write sample");
        let subject = Subject::parse(binary.to_str().unwrap()).expect("subject");
        Workspace { dir, subject }
    }

    /// Where knowledge bases live.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The subject's knowledge base file.
    pub fn store_path(&self) -> PathBuf {
        self.subject.store_path(&self.data_dir())
    }

    /// A service over this workspace with the embedded default component.
    pub fn service(&self) -> Service {
        self.service_with(PolicySource::Default)
    }

    /// A service over this workspace with the given policy, at the fixed clock [`NOW`].
    pub fn service_with(&self, policy: PolicySource) -> Service {
        self.builder()
            .policy(policy)
            .build()
            .expect("the policy loads")
    }

    /// A service with the hostile fixture under `limits`.
    pub fn hostile_service(&self, limits: SandboxLimits) -> Service {
        self.builder()
            .policy(PolicySource::File(HOSTILE_POLICY_WASM.into()))
            .limits(limits)
            .build()
            .expect("the hostile fixture implements the contract")
    }

    /// A service builder over this workspace at the fixed clock [`NOW`], with the tests' shared
    /// policy cache ([`policy_cache_dir`]), on the backend this run tests
    /// ([`postgres::store_for`]).
    pub fn builder(&self) -> ServiceBuilder {
        on_this_backend(Service::builder(self.data_dir()), &self.data_dir())
            .cache_dir(policy_cache_dir())
            .fixed_now(NOW)
    }

    /// Whether the subject's knowledge base exists, on the backend this run tests.
    pub fn exists(&self) -> bool {
        postgres::stores_in(&self.data_dir()).contains(&self.subject.store_name())
    }

    /// Everything the backend this run tests holds, as bytes to search for what must never be
    /// stored: every file of the data directory, and on PostgreSQL every row of the subject's
    /// database.
    pub fn held_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let data_dir = self.data_dir();
        let entries = match std::fs::read_dir(&data_dir) {
            Ok(entries) => entries.collect::<Result<Vec<_>, _>>(),
            // No data directory: no files.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(error) => Err(error),
        }
        .unwrap_or_else(|e| panic!("list {}: {e}", data_dir.display()));
        for path in entries.iter().map(|entry| entry.path()) {
            if path.is_file() {
                match std::fs::read(&path) {
                    Ok(held) => bytes.extend(held),
                    // Removed since it was listed (a journal SQLite deleted): nothing held.
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                    Err(error) => panic!("read {}: {error}", path.display()),
                }
            }
        }
        if postgres::on_postgres() {
            bytes.extend(postgres::contents(&self.data_dir(), &self.store_path()));
        }
        bytes
    }

    /// What this workspace's subject holds now, on the backend this run tests.
    pub fn state(&self) -> StoreState {
        state_of(&self.data_dir(), &self.subject)
    }

    /// Remembers through the default policy and returns the new id.
    pub fn remember(&self, service: &Service, author: Author, args: &str) -> u64 {
        let answer = service
            .call(&self.subject, author, "remember", args)
            .expect("remember succeeds");
        answer["id"].as_u64().expect("an id")
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Self::new()
    }
}

/// Loads the hostile fixture.
pub fn hostile_policy(limits: SandboxLimits) -> kenning::policy::ComponentPolicy {
    let engine = PolicyEngine::new(None).expect("engine");
    engine
        .load_file(Path::new(HOSTILE_POLICY_WASM), limits)
        .expect("the hostile fixture implements the contract")
}

/// What a store holds, to compare before and after a failed operation.
#[derive(Debug, PartialEq, Eq)]
pub struct StoreState {
    /// Every memory row as text.
    pub memories: Vec<String>,
    /// How many audit events.
    pub events: i64,
    /// `PRAGMA integrity_check` (always "ok" on PostgreSQL).
    pub integrity: String,
}

/// `builder` on the backend this run tests: on a PostgreSQL run, the database standing for
/// `data_dir`.
pub fn on_this_backend(builder: ServiceBuilder, data_dir: &Path) -> ServiceBuilder {
    match postgres::store_for(data_dir) {
        Some(url) => builder
            .query_login(postgres::query_login_for(&url))
            .postgres(url),
        None => builder,
    }
}

/// What `subject` holds in the knowledge bases of `data_dir`, read directly from the backend
/// this run tests.
pub fn state_of(data_dir: &Path, subject: &Subject) -> StoreState {
    let columns = [
        "id",
        "text",
        "status",
        "badge",
        "recall_count",
        "updated_at",
    ];
    let memories = rows_of(data_dir, subject, "memories", &columns)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(Option::unwrap_or_default)
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    let events = rows_of(data_dir, subject, "events", &["id"]).len() as i64;
    let integrity = postgres::DirectSql::open(data_dir, &subject.store_path(data_dir)).integrity();
    StoreState {
        memories,
        events,
        integrity,
    }
}

/// The rows of `table` (`memories` or `events`) that `subject` holds in the knowledge bases of
/// `data_dir`, in the order of their ids, each column as text (`None` for NULL), read directly
/// from the backend this run tests.
pub fn rows_of(
    data_dir: &Path,
    subject: &Subject,
    table: &str,
    columns: &[&str],
) -> Vec<Vec<Option<String>>> {
    if let Some(url) = postgres::store_for(data_dir) {
        let select: Vec<String> = columns.iter().map(|c| format!("{c}::text")).collect();
        let sql = format!(
            "SELECT {} FROM {table} WHERE subject_id = (SELECT id FROM subjects WHERE name = $1) \
             ORDER BY id",
            select.join(", ")
        );
        return postgres::with_client(&url, |client| {
            client
                .query(&sql, &[&subject.store_name()])
                .expect("read the rows")
                .iter()
                .map(|row| (0..columns.len()).map(|i| row.get(i)).collect())
                .collect()
        });
    }
    let select: Vec<String> = columns
        .iter()
        .map(|c| format!("CAST({c} AS TEXT)"))
        .collect();
    let sql = format!("SELECT {} FROM {table} ORDER BY id", select.join(", "));
    let conn = rusqlite::Connection::open(subject.store_path(data_dir)).expect("open store");
    let mut stmt = conn.prepare(&sql).expect("prepare");
    stmt.query_map([], |row| (0..columns.len()).map(|i| row.get(i)).collect())
        .expect("read the rows")
        .collect::<Result<_, _>>()
        .expect("read the rows")
}

/// `n` plain global candidates with ids 1 to `n`, for selection tests.
pub fn candidates(n: u64) -> Vec<kenning_contract::types::Candidate> {
    (1..=n)
        .map(|id| kenning_contract::types::Candidate {
            id,
            scope: kenning_contract::types::Scope::Global,
            kind: kenning_contract::types::MemoryKind::Fact,
            author: kenning_contract::args::Author::Agent,
            badge: kenning_contract::args::Badge::Native,
            text: format!("config note number {id}"),
            tags: Vec::new(),
            confidence: 0.8,
            created_at: NOW,
            updated_at: NOW,
            anchors: Vec::new(),
            lexical_score: 0.0,
        })
        .collect()
}
