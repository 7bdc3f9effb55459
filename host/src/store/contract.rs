//! The store contract: what the service asks of one subject's knowledge base, in terms of
//! memories, events and settings, never of a database's types.
//!
//! [`Reads`] are the queries the service makes, inside a write or outside one; [`Writes`] are
//! the changes it makes, always inside one transaction that also appends their audit events
//! ([`super::KnowledgeBase::write`] hands the closure a `&dyn Writes`, and a `&dyn Writes` is
//! also a `&dyn Reads` of the same transaction). A backend implements both; the SQLite one is
//! [`super::sqlite`].
//!
//! Errors are [`crate::error::KenningError`]s; a backend names its store in them where it can,
//! and [`super::KnowledgeBase::read`] and [`super::KnowledgeBase::write`] name it otherwise.

use std::collections::HashMap;

use super::Placement;
use super::{
    Badge, Event, Imported, Memory, MemoryFilter, NewMemory, RowState, SearchPage, Status,
    StoredPlacement, content_hash,
};
use crate::error::{KenningError, Result};
use crate::query::{QueryPlan, QueryRows};
use crate::settings::Settings;
use crate::subject::Subject;

/// The queries the service makes of a knowledge base.
pub(crate) trait Reads {
    /// One memory by id, in any state, with its anchors.
    fn memory(&self, id: u64) -> Result<Option<Memory>>;

    /// The memories in id order with their anchors: only active ones when `active_only`, and
    /// at most `limit`.
    fn memories_in_order(&self, active_only: bool, limit: u32) -> Result<Vec<Memory>>;

    /// Every memory in any state, oldest id first, with its anchors and the id of the memory
    /// it supersedes (if any): an export's contents.
    fn all_memories(&self) -> Result<Vec<(Memory, Option<u64>)>>;

    /// The ids of the stored memories (in any state) by content hash.
    fn ids_by_hash(&self) -> Result<HashMap<String, Vec<u64>>>;

    /// Where stored memory `id` is placed (scope, profile target, day, anchors); `None` when
    /// there is no such memory.
    fn placement_of(&self, id: u64) -> Result<Option<StoredPlacement>>;

    /// An active memory with this content hash and this placement, if any. Writers ask inside
    /// their write, so two identical writes racing each other store one memory.
    fn find_active_duplicate(
        &self,
        content_hash: &str,
        placement: Placement<'_>,
    ) -> Result<Option<u64>>;

    /// The memory that memory `id` (a pending proposal, or a newer memory) supersedes.
    fn supersedes(&self, id: u64) -> Result<Option<u64>>;

    /// Whether another memory names `id` as the one it supersedes.
    fn is_superseded_by_another(&self, id: u64) -> Result<bool>;

    /// The proposal awaiting review that would forget memory `id`, if any.
    fn forget_proposal_for(&self, id: u64) -> Result<Option<u64>>;

    /// Active memories awaiting review (PENDING and INBOUND-PENDING), oldest first, at most
    /// `limit`.
    fn in_review(&self, limit: u32) -> Result<Vec<Memory>>;

    /// Rejected proposals whose text is still held, decided at `cutoff` or before, as
    /// `(id, content hash)`, oldest first: what retention removes.
    fn rejected_before(&self, cutoff: i64) -> Result<Vec<(u64, String)>>;

    /// How many active memories there are (pending ones included).
    fn count_active(&self) -> Result<u64>;

    /// Totals for `kenning stats`: active, by type, scope, badge and status, oldest and newest.
    fn stats(&self) -> Result<serde_json::Value>;

    /// The settings in force for `thread` (the global ones when `None`).
    fn settings(&self, thread: Option<&str>) -> Result<Settings>;

    /// The value the jobs stored under `key` (last runs, turn counts), if any.
    fn meta_value(&self, key: &str) -> Result<Option<String>>;

    /// How many segments the full-text index is in (every query reads each of them); 0 for a
    /// backend whose index needs no merging.
    fn index_segments(&self) -> Result<u64>;
}

/// Indexes, during a [`Writes::bulk_load`], the memories the load has inserted so far (a
/// backend that indexes each row as it is inserted does nothing).
pub type IndexSoFar<'a> = dyn FnMut() -> Result<()> + 'a;

/// The changes the service makes, inside one transaction with their audit events.
pub(crate) trait Writes: Reads {
    /// Inserts the row of `memory` in `state` and its anchors, and nothing else; returns the
    /// new id. Every way a memory enters the store goes through it ([`Writes::insert_memory`],
    /// [`Writes::insert_imported`]).
    fn insert_row(&self, memory: &NewMemory, state: &RowState<'_>) -> Result<u64>;

    /// Inserts `memory` (active, with `badge`) and its anchors and appends `event` with the
    /// new text's hash; returns the new id. Refused with
    /// [`crate::error::KenningError::LimitReached`] at the `max_memories` setting.
    fn insert_memory(
        &self,
        memory: &NewMemory,
        badge: Badge,
        now: i64,
        event: &Event<'_>,
    ) -> Result<u64> {
        if let Some(limit) = self.settings(None)?.max_memories
            && self.count_active()? >= limit
        {
            return Err(crate::error::KenningError::LimitReached { limit });
        }
        let hash = content_hash(&memory.text);
        let id = self.insert_row(memory, &RowState::active(badge, &hash, now))?;
        self.append_event(
            Some(id),
            now,
            &Event {
                after_hash: Some(&hash),
                ..event.clone()
            },
        )?;
        Ok(id)
    }

    /// Inserts an imported memory with the state and times it carried, its anchors and its
    /// audit event (at `now`); returns its id. The caller checks the limit once per import.
    fn insert_imported(&self, imported: &Imported, now: i64, event: &Event<'_>) -> Result<u64> {
        let id = self.insert_row(&imported.memory, &RowState::imported(imported))?;
        self.append_event(Some(id), now, event)?;
        Ok(id)
    }

    /// Runs `load` (which inserts memories) and leaves the full-text index whole afterwards, a
    /// backend free to index the new rows in bulk rather than one by one. `load` is handed
    /// [`IndexSoFar`], which a long load calls now and then, so that the indexing overlaps its
    /// other work (checking the records still to come) instead of all waiting for the end.
    /// Into an empty store, the backend may also build its other indexes only at the end, so
    /// `load` finds memories by id alone (the import keeps what else it needs in memory).
    fn bulk_load(&self, load: &mut dyn FnMut(&mut IndexSoFar<'_>) -> Result<()>) -> Result<()>;

    /// Overwrites memory `id` with `revised` (text, kind, tags, categories, confidence,
    /// thread, image base and anchors), whose text hashes to `content_hash`.
    fn update_memory(
        &self,
        id: u64,
        revised: &NewMemory,
        content_hash: &str,
        now: i64,
    ) -> Result<()>;

    /// Replaces the text of memory `id` (a profile entry), whose new text hashes to
    /// `content_hash`.
    fn replace_text(&self, id: u64, text: &str, content_hash: &str, now: i64) -> Result<()>;

    /// Sets the life-cycle status of memory `id` (superseded; forgotten only for a daily note
    /// archived by retention, whose text is kept: a memory someone forgets goes through
    /// [`Writes::forget`]).
    fn set_status(&self, id: u64, status: Status, now: i64) -> Result<()>;

    /// Forgets memory `id` for good: marks it `forgotten` and erases what it said (its text,
    /// tags, categories, thread and anchors) from its row and from the full-text index, in
    /// this transaction. The row keeps its id, timestamps and content hash, so the audit
    /// trail still names what was forgotten without holding it.
    fn forget(&self, id: u64, now: i64) -> Result<()>;

    /// Records that memory `id` supersedes (or, pending, would replace) memory `replaces`.
    fn set_supersedes(&self, id: u64, replaces: u64) -> Result<()>;

    /// Records that proposal `id` forgets memory `target` once accepted.
    fn set_forgets(&self, id: u64, target: u64) -> Result<()>;

    /// Accepts proposal `id` with `badge`, naming the reviewer.
    fn accept(&self, id: u64, badge: Badge, reviewer: &str, now: i64) -> Result<()>;

    /// Rejects proposal `id`, naming the reviewer; the row stays for the audit trail.
    fn reject(&self, id: u64, reviewer: &str, now: i64) -> Result<()>;

    /// Deletes memory `id` and its anchors for good (retention of daily notes); the caller
    /// appends the event.
    fn delete_memory(&self, id: u64) -> Result<()>;

    /// Appends an audit event about memory `id`, or about none (settings, job runs).
    fn append_event(&self, id: Option<u64>, now: i64, event: &Event<'_>) -> Result<()>;

    /// Stores a setting (already normalised) for `thread` (all threads when `None`); returns
    /// the value it replaced, if any.
    fn save_setting(&self, thread: Option<&str>, key: &str, value: &str) -> Result<Option<String>>;

    /// Stores `value` under the jobs' `key`, replacing what was there.
    fn set_meta_value(&self, key: &str, value: &str) -> Result<()>;

    /// Records a run of a job: its audit event, about no memory, with `detail`, and, under
    /// `meta_key` when given, `detail` as the job's last run.
    fn record_job_run(
        &self,
        now: i64,
        actor: &str,
        action: &str,
        meta_key: Option<&str>,
        detail: &str,
    ) -> Result<()> {
        if let Some(key) = meta_key {
            self.set_meta_value(key, detail)?;
        }
        self.append_event(
            None,
            now,
            &Event {
                actor,
                action,
                before_hash: None,
                after_hash: None,
                detail: Some(detail),
            },
        )
    }
}

/// Leave to write to a knowledge base: only this crate can make one, so that nothing outside
/// the service writes a row past its rules (a store opened through [`Backend::open`] can be
/// read by anyone, and written only through [`crate::Service`]).
#[derive(Debug)]
pub struct WritePermit(());

impl WritePermit {
    /// A permit, for the service's own writes and the backends' tests.
    pub(crate) fn new() -> WritePermit {
        WritePermit(())
    }
}

/// One subject's knowledge base, open: its transactions, and the queries whose cost a backend
/// bounds its own way (ranked search, listings, the anchor index, recall statistics).
pub(crate) trait KnowledgeStore: Send {
    /// Runs `f`'s reads (called once), naming this store in any error.
    fn read_with(&self, f: &mut dyn FnMut(&dyn Reads) -> Result<()>) -> Result<()>;

    /// Runs `f` (called once) in one write transaction: everything it writes commits
    /// together with its audit events, or nothing does. Only the service can make the
    /// [`WritePermit`], so every write passes its rules (validation, scan, provenance).
    fn write_with(
        &mut self,
        permit: WritePermit,
        f: &mut dyn FnMut(&dyn Writes) -> Result<()>,
    ) -> Result<()>;

    /// Memories matching `filter`, most relevant first when it has a query (relevance larger
    /// is better), else newest first (relevance 0). `#tag` tokens in the query filter by tag.
    fn search(&self, filter: &MemoryFilter) -> Result<Vec<(Memory, f32)>> {
        self.search_page(filter).map(SearchPage::scored)
    }

    /// [`KnowledgeStore::search`]'s page, cut from the query's one ranked list (every match
    /// within the budget reachable once by paging), each memory marked when it holds no query
    /// word, and the page marked when the budget cut the query (see [`SearchPage`]).
    fn search_page(&self, filter: &MemoryFilter) -> Result<SearchPage>;

    /// The settings in force for `thread` (as [`Reads::settings`] reads them) and, when
    /// `wanted` accepts them, [`KnowledgeStore::search_page`]'s page of `filter`: the page is
    /// `None` when `wanted` refuses the settings. A backend may read both at once (PostgreSQL
    /// reads the settings in the search's first statement, a round trip fewer for every
    /// search); what it read of a refused page is dropped unseen.
    fn settings_and_search_page(
        &self,
        thread: Option<&str>,
        filter: &MemoryFilter,
        wanted: &dyn Fn(&Settings) -> bool,
    ) -> Result<(Settings, Option<SearchPage>)> {
        let mut read = None;
        self.read_with(&mut |store| {
            read = Some(store.settings(thread)?);
            Ok(())
        })?;
        let settings = read.ok_or_else(never_ran)?;
        let page = if wanted(&settings) {
            Some(self.search_page(filter)?)
        } else {
            None
        };
        Ok((settings, page))
    }

    /// One page of the memories matching `filter`, newest first, and how many match in all;
    /// every word of the query must occur in a memory's text.
    fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)>;

    /// The ids of active, unquarantined local memories with an anchor that can match
    /// `offset` (exact, inside a function or range, within a radius), the function starting at
    /// `function_start` or named `function_name`, or one of `strings`; at most `limit`.
    fn anchored_ids(
        &self,
        offset: Option<u64>,
        function_start: Option<u64>,
        function_name: Option<&str>,
        strings: &[String],
        limit: u32,
    ) -> Result<Vec<u64>>;

    /// Memories by id with their anchors, in the order of `ids` (missing ids skipped).
    fn get_many(&self, ids: &[u64]) -> Result<Vec<Memory>>;

    /// The `limit` newest accepted, active global memories: what every turn offers the
    /// policy besides its anchored and lexical matches.
    fn recent_globals(&self, limit: u32) -> Result<Vec<Memory>>;

    /// Notes that memories were injected or recalled at `now` (bookkeeping, not memories: a
    /// backend may make it less durable than a write).
    fn mark_recalled(&mut self, ids: &[u64], now: i64) -> Result<()>;

    /// Merges the full-text index (where the backend's index needs it); returns its segments
    /// before and after. Changes no memory.
    fn merge_index(&mut self) -> Result<(u64, u64)>;

    /// After a forget has committed: clears what the forgotten text left in the store's files
    /// beyond its rows (SQLite's write-ahead log keeps old versions of the pages it rewrote).
    /// Nothing for a backend that keeps no such copies within reach.
    fn scrub(&mut self) -> Result<()>;

    /// The schema version of the open store.
    fn schema_version(&self) -> Result<i64>;

    /// The most recent audit events, newest first, at most `limit`.
    fn events(&self, limit: u32) -> Result<Vec<serde_json::Value>>;

    /// The detail of the first audit event of each memory of `ids` that has one: why it was
    /// written as it was (a revision's reason, what the scan held or marked it for, the file an
    /// import read it from), for a reviewer.
    fn first_event_details(&self, ids: &[u64]) -> Result<HashMap<u64, String>>;

    /// Runs one read-only statement over the views of [`crate::query`], as `plan`'s reader
    /// may read them: at most `plan.max_rows + 1` rows, within the query's budgets. Nothing
    /// it runs can write, nor read a table behind the views.
    fn query(&self, plan: &QueryPlan<'_>) -> Result<QueryRows>;
}

impl dyn KnowledgeStore + '_ {
    /// Runs the reads of `f`, naming this store in any error.
    pub fn read<T>(&self, f: impl FnOnce(&dyn Reads) -> Result<T>) -> Result<T> {
        let (mut f, mut answer) = (Some(f), None);
        self.read_with(&mut |reads| {
            answer = Some(f.take().ok_or_else(ran_twice)?(reads)?);
            Ok(())
        })?;
        answer.ok_or_else(never_ran)
    }

    /// Runs `f` in one write transaction (see [`KnowledgeStore::write_with`]).
    pub(crate) fn write<T>(&mut self, f: impl FnOnce(&dyn Writes) -> Result<T>) -> Result<T> {
        let (mut f, mut answer) = (Some(f), None);
        self.write_with(WritePermit::new(), &mut |writes| {
            answer = Some(f.take().ok_or_else(ran_twice)?(writes)?);
            Ok(())
        })?;
        answer.ok_or_else(never_ran)
    }

    /// The settings in force for `thread` (the global ones when `None`).
    pub fn settings(&self, thread: Option<&str>) -> Result<Settings> {
        self.read(|store| store.settings(thread))
    }

    /// One memory by id, in any state, with its anchors.
    pub fn get(&self, id: u64) -> Result<Option<Memory>> {
        self.read(|store| store.memory(id))
    }
}

/// A backend broke the contract by running a transaction's work twice.
fn ran_twice() -> KenningError {
    KenningError::Usage("the store ran a transaction's work twice".to_owned())
}

/// A backend broke the contract by ending a transaction without running its work.
fn never_ran() -> KenningError {
    KenningError::Usage("the store ended a transaction without running its work".to_owned())
}

/// Where knowledge bases live: one SQLite file per subject in a data directory, or one
/// database with subjects as its partition key.
pub(crate) trait Backend: Send + Sync {
    /// The subject's knowledge base: `None` when it has none and `create` is false.
    fn open(&self, subject: &Subject, create: bool) -> Result<Option<Box<dyn KnowledgeStore>>>;

    /// The subjects that have a knowledge base.
    fn subjects(&self) -> Result<Vec<Subject>>;

    /// Where a subject's knowledge base is (a file, or a database and a subject), for
    /// messages.
    fn location(&self, subject: &Subject) -> std::path::PathBuf;

    /// A new knowledge base for `subject`, built where nobody sees it until it is published
    /// (see [`StagedStore`]): for a bulk load that must leave nothing behind if it fails.
    /// `None` when the subject has a knowledge base already, or when this backend does not
    /// stage (the caller then opens the store as usual).
    fn stage(&self, _subject: &Subject) -> Result<Option<Box<dyn StagedStore>>> {
        Ok(None)
    }

    /// Whether knowledge bases can be opened now: `Err` says why not (the database cannot be
    /// reached, the data directory is gone or read-only).
    fn check_ready(&self) -> Result<()>;

    /// How the backend's own connections are used, for operators; `None` when it pools none.
    fn pool_use(&self) -> Option<super::PoolUse> {
        None
    }

    /// How many memories await review in every subject, when the backend can count them in one
    /// query (a database); `None` otherwise.
    fn pending_review_total(&self) -> Result<Option<u64>> {
        Ok(None)
    }
}

/// A knowledge base built out of sight for a subject that had none (see [`Backend::stage`]).
/// Dropped without being published, it is discarded.
pub(crate) trait StagedStore: KnowledgeStore {
    /// Makes the staged knowledge base the subject's. `false`, and the staged one discarded,
    /// when the subject got a knowledge base of its own meanwhile: that one is never replaced.
    fn publish(self: Box<Self>) -> Result<bool>;
}
