//! The PostgreSQL schema, as numbered migrations: one database for every subject, each row
//! carrying its subject's id (the tenancy and partition key).
//!
//! Full-text search is a generated `tsvector` over the text and tags (the `english`
//! configuration: lower-cased, stemmed, English stop words dropped, as SQLite's `porter
//! unicode61` tokenizer stems) with a GIN index.

/// The migrations, in order, each a file of `migrations/`; migration `n` (from 1) brings the
/// schema to version `n`. A new one is a new file,
/// numbered next (`build.rs` lists them).
pub const MIGRATIONS: &[&str] = include!(concat!(env!("OUT_DIR"), "/postgres_migrations.rs"));
