//! Where memories are kept: the contract every backend keeps (`contract`), the values they
//! trade in (`model`, and `rows` for a memory's columns), the ranking they share
//! (`ranking`), and the backends, each in a folder of its own that mirrors the other:
//! `sqlite` (one file per subject) and `postgres` (one database for every subject).

pub(crate) mod contract;
mod model;
/// One PostgreSQL database for every subject, for teams (the `postgres` feature).
#[cfg(feature = "postgres")]
pub(crate) mod postgres;
pub(crate) mod query_views;
pub(crate) mod ranking;
mod rows;
pub(crate) mod sqlite;
/// Seeded noise written past the service's rules, for `kenning bench`: behind the
/// `bench-support` feature, which only `kenning-bench` turns on.
#[cfg(feature = "bench-support")]
pub mod synthetic;

pub use crate::encryption::StoreKey;
pub use crate::memory::MemoryFilter;
pub(crate) use contract::{Backend, KnowledgeStore, Reads, Writes};
#[cfg(test)]
pub(crate) use model::sample_memory;
pub(crate) use model::{AnchorRow, LoggedEvent, NewMemory, Placement, StoredPlacement};
pub use model::{
    Author, Badge, Event, Imported, Memory, MemoryTarget, Metadata, PoolUse, Status, content_hash,
};
/// PostgreSQL's schema, one migration per version (the `postgres` feature).
#[cfg(feature = "postgres")]
pub use postgres::MIGRATIONS as POSTGRES_MIGRATIONS;
#[cfg(feature = "postgres")]
pub(crate) use ranking::SearchHit;
pub(crate) use ranking::SearchPage;
pub(crate) use ranking::budget::{RECALL_POSTING_BUDGET, TURN_POSTING_BUDGET};
pub(crate) use ranking::terms::split_tag_tokens;
pub(crate) use rows::RowState;
pub(crate) use sqlite::connection::KnowledgeBase;
pub(crate) use sqlite::schema::APPLICATION_ID;
pub use sqlite::schema::CURRENT_VERSION;
#[cfg(test)]
pub(crate) use sqlite::schema::MIGRATIONS as SQLITE_MIGRATIONS;

/// A global fact by a human, as the store's tests write one.
#[cfg(test)]
pub(crate) fn global_fact(text: &str) -> NewMemory {
    NewMemory {
        confidence: 0.8,
        ..NewMemory::new(Author::Human, text.to_owned())
    }
}

/// The audit event the store's tests write with each memory.
#[cfg(test)]
pub(crate) const TEST_EVENT: Event<'static> = Event {
    actor: "test",
    action: "add",
    before_hash: None,
    after_hash: None,
    detail: None,
};
