//! The SQLite backend of the [store contract](crate::store::contract): one file per subject in the
//! data directory ([`SqliteFiles`]), its connections kept in a [`StorePool`]; a connection
//! reads, and the same connection inside [`KnowledgeBase::write`]'s immediate transaction
//! writes.
//!
//! Its files mirror PostgreSQL's backend: the connection ([`connection`]), reads (`reads`),
//! writes (`writes`, and [`edits`] for changes to stored rows), search (`search`),
//! interchange ([`interchange`]), settings ([`settings`]), the schema and its migrations
//! ([`schema`], `migrations/`); this module only maps the contract onto them.

mod anchors;
pub mod connection;
pub mod edits;
mod empty_store;
pub mod interchange;
pub mod pool;
mod query;
pub(crate) mod reads;
pub mod schema;
mod search;
pub mod settings;
pub mod staging;
pub(crate) mod writes;

use std::collections::HashMap;
use std::ops::DerefMut;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use self::pool::StorePool;
use self::reads::*;
use self::staging::StagedKb;
use self::writes::*;
use crate::error::Result;
use crate::query::{QueryPlan, QueryRows};
use crate::settings::Settings;
use crate::store::contract::{
    Backend, IndexSoFar, KnowledgeStore, Reads, StagedStore, WritePermit, Writes,
};
use crate::store::{
    Badge, Event, Memory, NewMemory, Placement, RowState, SearchPage, Status, StoredPlacement,
};
use crate::store::{KnowledgeBase, MemoryFilter, StoreKey};
use crate::subject::Subject;

/// Knowledge bases as SQLite files in a data directory, one per subject, encrypted with `key`
/// when one is given.
pub struct SqliteFiles {
    data_dir: PathBuf,
    key: Option<StoreKey>,
    pool: StorePool,
}

impl SqliteFiles {
    /// The knowledge bases in `data_dir`, opened with `key` (`None`: plaintext).
    pub fn new(data_dir: &Path, key: Option<StoreKey>) -> Self {
        SqliteFiles {
            data_dir: data_dir.to_owned(),
            key,
            pool: StorePool::new(),
        }
    }
}

impl Backend for SqliteFiles {
    fn check_ready(&self) -> Result<()> {
        let unready = |problem: String| crate::error::KenningError::Io {
            path: self.data_dir.clone(),
            source: std::io::Error::other(problem),
        };
        match std::fs::metadata(&self.data_dir) {
            // A data directory not made yet is made by the first write.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(unready(e.to_string())),
            Ok(meta) if !meta.is_dir() => Err(unready("not a directory".into())),
            Ok(meta) if meta.permissions().readonly() => Err(unready("read-only".into())),
            Ok(_) => Ok(()),
        }
    }

    fn open(&self, subject: &Subject, create: bool) -> Result<Option<Box<dyn KnowledgeStore>>> {
        let path = subject.store_path(&self.data_dir);
        let key = self.key.as_ref();
        let opened = self.pool.checkout(&path, |path| {
            if create {
                KnowledgeBase::open_or_create_keyed(path, key).map(Some)
            } else {
                KnowledgeBase::open_existing_keyed(path, key)
            }
        })?;
        Ok(opened.map(|kb| Box::new(kb) as Box<dyn KnowledgeStore>))
    }

    fn subjects(&self) -> Result<Vec<Subject>> {
        let mut subjects: Vec<Subject> = std::fs::read_dir(&self.data_dir)
            .map(|entries| {
                entries
                    .filter_map(|entry| Subject::from_file_name(entry.ok()?.file_name().to_str()?))
                    .collect()
            })
            .unwrap_or_default();
        subjects.sort_by_key(Subject::file_name);
        Ok(subjects)
    }

    fn location(&self, subject: &Subject) -> PathBuf {
        subject.store_path(&self.data_dir)
    }

    fn stage(&self, subject: &Subject) -> Result<Option<Box<dyn StagedStore>>> {
        let staged = StagedKb::create(&subject.store_path(&self.data_dir), self.key.as_ref())?;
        Ok(staged.map(|kb| Box::new(kb) as Box<dyn StagedStore>))
    }
}

/// Every way this backend holds a connection: lent by the pool, or staged.
impl<K: DerefMut<Target = KnowledgeBase> + Send> KnowledgeStore for K {
    fn read_with(&self, f: &mut dyn FnMut(&dyn Reads) -> Result<()>) -> Result<()> {
        KnowledgeBase::read(self, f)
    }

    fn write_with(
        &mut self,
        _permit: WritePermit,
        f: &mut dyn FnMut(&dyn Writes) -> Result<()>,
    ) -> Result<()> {
        KnowledgeBase::write(self, f)
    }

    fn search_page(&self, filter: &MemoryFilter) -> Result<SearchPage> {
        KnowledgeBase::search_page(self, filter)
    }

    fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)> {
        KnowledgeBase::list_counted(self, filter)
    }

    fn anchored_ids(
        &self,
        offset: Option<u64>,
        function_start: Option<u64>,
        function_name: Option<&str>,
        strings: &[String],
        limit: u32,
    ) -> Result<Vec<u64>> {
        KnowledgeBase::anchored_ids(self, offset, function_start, function_name, strings, limit)
    }

    fn get_many(&self, ids: &[u64]) -> Result<Vec<Memory>> {
        KnowledgeBase::get_many(self, ids)
    }

    fn recent_globals(&self, limit: u32) -> Result<Vec<Memory>> {
        KnowledgeBase::recent_globals(self, limit)
    }

    fn mark_recalled(&mut self, ids: &[u64], now: i64) -> Result<()> {
        KnowledgeBase::mark_recalled(self, ids, now)
    }

    fn merge_index(&mut self) -> Result<(u64, u64)> {
        KnowledgeBase::merge_index(self)
    }

    fn scrub(&mut self) -> Result<()> {
        KnowledgeBase::scrub(self)
    }

    fn schema_version(&self) -> Result<i64> {
        KnowledgeBase::schema_version(self)
    }

    fn events(&self, limit: u32) -> Result<Vec<serde_json::Value>> {
        KnowledgeBase::events(self, limit)
    }

    fn first_event_details(&self, ids: &[u64]) -> Result<HashMap<u64, String>> {
        KnowledgeBase::first_event_details(self, ids)
    }

    fn query(&self, plan: &QueryPlan<'_>) -> Result<QueryRows> {
        query::run(self.path(), self.store_key(), plan)
    }
}

impl Reads for Connection {
    fn memory(&self, id: u64) -> Result<Option<Memory>> {
        Ok(get_memory(self, id)?)
    }

    fn memories_in_order(&self, active_only: bool, limit: u32) -> Result<Vec<Memory>> {
        Ok(memories_in_order(self, active_only, limit)?)
    }

    fn all_memories(&self) -> Result<Vec<(Memory, Option<u64>)>> {
        Ok(interchange::all_memories(self)?)
    }

    fn ids_by_hash(&self) -> Result<HashMap<String, Vec<u64>>> {
        Ok(interchange::ids_by_hash(self)?)
    }

    fn placement_of(&self, id: u64) -> Result<Option<StoredPlacement>> {
        Ok(interchange::placement_of(self, id)?)
    }

    fn find_active_duplicate(
        &self,
        content_hash: &str,
        placement: Placement<'_>,
    ) -> Result<Option<u64>> {
        edits::find_active_duplicate(self, content_hash, placement)
    }

    fn supersedes(&self, id: u64) -> Result<Option<u64>> {
        Ok(supersedes(self, id)?)
    }

    fn is_superseded_by_another(&self, id: u64) -> Result<bool> {
        Ok(is_superseded_by_another(self, id)?)
    }

    fn forget_proposal_for(&self, id: u64) -> Result<Option<u64>> {
        Ok(forget_proposal_for(self, id)?)
    }

    fn in_review(&self, limit: u32) -> Result<Vec<Memory>> {
        Ok(in_review(self, limit)?)
    }

    fn rejected_before(&self, cutoff: i64) -> Result<Vec<(u64, String)>> {
        let mut stmt = self.prepare_cached(
            "SELECT id, content_hash FROM memories WHERE status = 'rejected' AND text != '' AND updated_at <= ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([cutoff], |row| {
            Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn count_active(&self) -> Result<u64> {
        Ok(count_active(self)?)
    }

    fn stats(&self) -> Result<serde_json::Value> {
        Ok(stats(self)?)
    }

    fn settings(&self, thread: Option<&str>) -> Result<Settings> {
        Ok(settings::effective(self, thread)?)
    }

    fn meta_value(&self, key: &str) -> Result<Option<String>> {
        Ok(meta_value(self, key)?)
    }

    fn index_segments(&self) -> Result<u64> {
        Ok(index_segments(self)?)
    }
}

impl Writes for Connection {
    fn insert_row(&self, memory: &NewMemory, state: &RowState<'_>) -> Result<u64> {
        insert_row(self, memory, state)
    }

    fn bulk_load(&self, load: &mut dyn FnMut(&mut IndexSoFar<'_>) -> Result<()>) -> Result<()> {
        interchange::with_indexing_deferred(self, load)
    }

    fn update_memory(
        &self,
        id: u64,
        revised: &NewMemory,
        content_hash: &str,
        now: i64,
    ) -> Result<()> {
        edits::update_memory(self, id, revised, content_hash, now)
    }

    fn replace_text(&self, id: u64, text: &str, content_hash: &str, now: i64) -> Result<()> {
        edits::replace_text(self, id, text, content_hash, now)
    }

    fn set_status(&self, id: u64, status: Status, now: i64) -> Result<()> {
        edits::set_status(self, id, status, now)
    }

    fn forget(&self, id: u64, now: i64) -> Result<()> {
        edits::forget(self, id, now)
    }

    fn set_supersedes(&self, id: u64, replaces: u64) -> Result<()> {
        edits::set_supersedes(self, id, replaces)
    }

    fn set_forgets(&self, id: u64, target: u64) -> Result<()> {
        edits::set_forgets(self, id, target)
    }

    fn accept(&self, id: u64, badge: Badge, reviewer: &str, now: i64) -> Result<()> {
        edits::accept(self, id, badge, reviewer, now)
    }

    fn reject(&self, id: u64, reviewer: &str, now: i64) -> Result<()> {
        edits::reject(self, id, reviewer, now)
    }

    fn delete_memory(&self, id: u64) -> Result<()> {
        edits::delete(self, id)
    }

    fn append_event(&self, id: Option<u64>, now: i64, event: &Event<'_>) -> Result<()> {
        append_event_for(self, id, now, event)
    }

    fn save_setting(&self, thread: Option<&str>, key: &str, value: &str) -> Result<Option<String>> {
        Ok(settings::save(self, thread, key, value)?)
    }

    fn set_meta_value(&self, key: &str, value: &str) -> Result<()> {
        Ok(set_meta_value(self, key, value)?)
    }
}
