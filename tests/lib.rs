//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};

use kenning::policy::{PolicyEngine, SandboxLimits};
use kenning::store::Author;
use kenning::subject::Subject;
use kenning::{PolicySource, Service};

/// The hostile policy component built by `build.rs` (contract 0.2.0, lean).
pub const HOSTILE_POLICY_WASM: &str = env!("HOSTILE_POLICY_WASM");

/// The hostile policy with `describe` trapping.
pub const HOSTILE_DESCRIBE_TRAP_WASM: &str = env!("HOSTILE_DESCRIBE_TRAP_WASM");

/// The hostile policy built for wasm32-wasip2: it imports `wasi:` interfaces.
pub const HOSTILE_WASI_WASM: &str = env!("HOSTILE_WASI_WASM");

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
        Service::builder(self.data_dir())
            .policy(policy)
            .without_cache()
            .fixed_now(NOW)
            .build()
            .expect("the policy loads")
    }

    /// A service with the hostile fixture under `limits`.
    pub fn hostile_service(&self, limits: SandboxLimits) -> Service {
        Service::builder(self.data_dir())
            .policy(PolicySource::File(HOSTILE_POLICY_WASM.into()))
            .limits(limits)
            .without_cache()
            .fixed_now(NOW)
            .build()
            .expect("the hostile fixture implements the contract")
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
    /// `PRAGMA integrity_check`.
    pub integrity: String,
}

/// Reads a store's state directly with SQLite.
pub fn store_state(path: &Path) -> StoreState {
    let conn = rusqlite::Connection::open(path).expect("open store");
    let mut stmt = conn
        .prepare(
            "SELECT id, text, status, badge, recall_count, updated_at FROM memories ORDER BY id",
        )
        .unwrap();
    let memories = stmt
        .query_map([], |row| {
            Ok(format!(
                "{}|{}|{}|{}|{}|{}",
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, i64>(5)?
            ))
        })
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let events = conn
        .query_row("SELECT count(*) FROM events", [], |row| row.get(0))
        .unwrap();
    let integrity = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    StoreState {
        memories,
        events,
        integrity,
    }
}

/// `n` plain global candidates with ids 1 to `n`, for selection tests.
pub fn candidates(n: u64) -> Vec<kenning_contract::types::Candidate> {
    (1..=n)
        .map(|id| kenning_contract::types::Candidate {
            id,
            scope: kenning_contract::types::Scope::Global,
            kind: kenning_contract::types::MemoryKind::Fact,
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
