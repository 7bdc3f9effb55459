//! A SQLite knowledge base's connection: opening (and creating, migrating, encrypting) the
//! file of one subject, its transactions, and the reads it keeps while the file is unchanged.
//!
//! Every write runs in one `BEGIN IMMEDIATE` transaction that also appends its audit event, so
//! a crash, a trap or a concurrent writer never leaves half a change behind.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};

use super::anchors;
use super::reads::*;
use super::schema::{APPLICATION_ID, CURRENT_VERSION, MIGRATIONS};
use super::search::{self, counts::WordCounts};
use crate::encryption::open_immutable;
use crate::encryption::{self, StoreKey};
use crate::error::{KenningError, Result};
use crate::store::contract::{Reads, Writes};
use crate::store::ranking::SearchPage;
use crate::store::{LoggedEvent, Memory, MemoryFilter, split_tag_tokens};
use kenning_contract::types::Scope;

/// Creates the folder a store at `path` goes in, if missing: `0700`, like every folder
/// kenning creates (see [`crate::private`]).
fn create_folder_of(path: &Path) -> Result<()> {
    crate::private::create_parent_dir(path)
}

/// How a writable connection keeps its commits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Durability {
    /// Write-ahead log, flushed at every commit: the store every caller shares.
    CrashSafe,
    /// Rollback journal in memory, never flushed: a store no one else can see yet, discarded
    /// whole if anything fails (see [`KnowledgeBase::create_staged`]).
    Staged,
}

/// How long a writer waits for another writer before giving up.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// An open knowledge base.
pub struct KnowledgeBase {
    conn: Connection,
    path: PathBuf,
    /// Commits made through this connection that can change what a read returns.
    local_writes: u64,
    /// Recall-statistic updates since this connection last checkpointed for them.
    recall_updates_since_checkpoint: u64,
    /// Reads kept while the store is unchanged (see [`ReadCache`]).
    cache: RefCell<ReadCache>,
    /// Opened read-only because the file or its folder cannot be written: writes are refused
    /// with [`KenningError::ReadOnly`], recall statistics are skipped.
    read_only: bool,
    /// Taken around every write transaction when set (see [`KnowledgeBase::set_write_gate`]).
    write_gate: Option<std::sync::Arc<std::sync::Mutex<()>>>,
    /// The key the store is encrypted with (`None`: plaintext), for the copies it makes.
    key: Option<StoreKey>,
}

/// Reads an agent repeats every turn, kept while nothing has changed the store.
///
/// The store counts as unchanged while SQLite's `data_version` (which moves when another
/// connection commits) and this connection's own content writes stay as they were when the
/// entries were read. Recall statistics do not count: no cached read depends on them.
#[derive(Default)]
struct ReadCache {
    /// `(data_version, local_writes)` when the entries were read.
    generation: Option<(i64, u64)>,
    /// How many memories each word matches, capped (see `search::counts`).
    word_counts: WordCounts,
    /// The newest accepted global memories, and how many were asked for.
    globals: Option<(u32, Vec<Memory>)>,
}

/// SQLite's default auto-checkpoint threshold, in pages, restored after recall statistics.
const WAL_AUTOCHECKPOINT_PAGES: i64 = 1000;

/// Recall-statistic row updates (each dirties about one page) after which recall statistics
/// checkpoint the write-ahead log themselves: about 16 MiB of log.
const RECALL_CHECKPOINT_UPDATES: u64 = 4_000;

/// Most query words whose match counts are kept.
const MAX_CACHED_WORDS: usize = 4096;
/// Prepared statements a connection keeps: each distinct page size (see [`super::reads::limit_sql`]) and
/// filter shape is a statement of its own.
const STATEMENT_CACHE_CAPACITY: usize = 64;

impl KnowledgeBase {
    /// Opens an existing knowledge base, migrating it if it is older than this build.
    /// Fails with [`KenningError::UnknownSubject`]-style errors left to the caller when the file
    /// is missing: this returns `Ok(None)`.
    #[cfg(test)]
    pub fn open_existing(path: &Path) -> Result<Option<KnowledgeBase>> {
        Self::open_existing_keyed(path, None)
    }

    /// [`KnowledgeBase::open_existing`] for a store encrypted with `key` (plaintext when
    /// `None`): an encrypted store without a key, a plaintext one with a key, and a wrong key
    /// are each refused with [`KenningError::Key`], the file left untouched.
    pub fn open_existing_keyed(
        path: &Path,
        key: Option<&StoreKey>,
    ) -> Result<Option<KnowledgeBase>> {
        // An empty file is a store another process has only begun to create (or nothing at
        // all): there is nothing to read, and a read must never write the schema into it.
        if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.len() > 0) {
            return Ok(None);
        }
        Self::open(path, key).map(Some)
    }

    /// Opens a knowledge base, creating it (and its folder) when missing.
    #[cfg(test)]
    pub fn open_or_create(path: &Path) -> Result<KnowledgeBase> {
        Self::open_or_create_keyed(path, None)
    }

    /// [`KnowledgeBase::open_or_create`] for a store encrypted with `key` (plaintext when
    /// `None`); a store it creates is encrypted with the key.
    pub fn open_or_create_keyed(path: &Path, key: Option<&StoreKey>) -> Result<KnowledgeBase> {
        create_folder_of(path)?;
        Self::open(path, key)
    }

    /// Opens (and if need be creates or migrates) the store at `path`. While another process
    /// is creating the same store, SQLite can answer "database is locked" at once, without
    /// waiting for its busy timeout (switching a new file to WAL, a first reader of a fresh
    /// log); opening is then tried again until [`BUSY_TIMEOUT`] has passed.
    fn open(path: &Path, key: Option<&StoreKey>) -> Result<KnowledgeBase> {
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        loop {
            match Self::open_once(path, key) {
                Err(error) if is_busy(&error) && std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                opened => return opened,
            }
        }
    }

    fn open_once(path: &Path, key: Option<&StoreKey>) -> Result<KnowledgeBase> {
        if key.is_none() && !path.exists() {
            // Made here, or by another thread or process meanwhile; if neither, it is made by
            // migrating below, which reports any problem.
            let _ = super::empty_store::create(path);
        }
        let existing = path.is_file();
        if existing {
            // Whether the file is encrypted is read from its first bytes, before SQLite opens
            // it.
            encryption::check_file(path, key)?;
        }
        match Self::open_writable(path, key, Durability::CrashSafe, existing) {
            Err(error) if is_permission_error(&error) && path.is_file() => {
                check_version_read_only(path, key)?;
                Self::open_read_only(path, key)
            }
            Err(error) if is_permission_error(&error) => {
                Err(read_only_folder(path).unwrap_or(error))
            }
            opened => opened,
        }
    }

    /// Opens an existing store that this process cannot write (the file or its folder is
    /// read-only), for reading. It is opened immutable, since without write access SQLite
    /// cannot create the shared-memory file a WAL reader needs.
    fn open_read_only(path: &Path, key: Option<&StoreKey>) -> Result<KnowledgeBase> {
        let conn = open_immutable(path, key)?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|source| KenningError::sqlite(path.to_owned(), source))?;
        if version != CURRENT_VERSION {
            // An older store would need migrating, which is a write.
            return Err(KenningError::ReadOnly {
                path: path.to_owned(),
            });
        }
        tune_for_reading(&conn).map_err(|source| KenningError::sqlite(path.to_owned(), source))?;
        Ok(KnowledgeBase {
            conn,
            path: path.to_owned(),
            local_writes: 0,
            recall_updates_since_checkpoint: 0,
            write_gate: None,
            cache: RefCell::new(ReadCache::default()),
            read_only: true,
            key: key.cloned(),
        })
    }

    /// Opens a connection that can write. With `existing`, the file's header is read before
    /// anything could write to it (SQLite writes nothing on opening; the journal mode below
    /// would): a newer or foreign file, or one the key does not open, is left exactly as it is.
    fn open_writable(
        path: &Path,
        key: Option<&StoreKey>,
        durability: Durability,
        existing: bool,
    ) -> Result<KnowledgeBase> {
        let store_err = |source| KenningError::sqlite(path.to_owned(), source);
        // A new store's file is made 0600 first, so that SQLite gives its log and shared
        // memory the same mode. Where it cannot be made, SQLite cannot make it either and
        // says why.
        if !existing {
            let _ = crate::private::create_store_file(path);
        }
        let conn = Connection::open(path).map_err(store_err)?;
        encryption::apply(&conn, path, key)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(store_err)?;
        encryption::verify(&conn, path, key)?;
        if existing {
            let header = read_header(&conn).map_err(|error| {
                if is_permission_code(&error) {
                    // The caller opens it for reading instead, and looks again there.
                    store_err(error)
                } else {
                    classify_header_error(path, key, error)
                }
            })?;
            judge_header(path, header)?;
        }
        let (journal_mode, synchronous) = match durability {
            // FULL: an acknowledged write survives an OS crash or a power cut, not only a
            // killed process (WAL with NORMAL may lose the last commits then).
            Durability::CrashSafe => ("WAL", "FULL"),
            Durability::Staged => ("MEMORY", "OFF"),
        };
        conn.pragma_update(None, "journal_mode", journal_mode)
            .map_err(store_err)?;
        conn.pragma_update(None, "synchronous", synchronous)
            .map_err(store_err)?;
        if durability == Durability::CrashSafe {
            keep_log_files(&conn).map_err(store_err)?;
        }
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(store_err)?;
        // What a forget or a revision removes is overwritten with zeros where it lay, not
        // left in free pages for anyone holding the file to read.
        conn.pragma_update(None, "secure_delete", "ON")
            .map_err(store_err)?;
        tune_for_reading(&conn).map_err(store_err)?;
        let mut kb = KnowledgeBase {
            conn,
            path: path.to_owned(),
            local_writes: 0,
            recall_updates_since_checkpoint: 0,
            write_gate: None,
            cache: RefCell::new(ReadCache::default()),
            read_only: false,
            key: key.cloned(),
        };
        kb.migrate()?;
        Ok(kb)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The key the store is encrypted with (`None`: plaintext).
    pub(crate) fn store_key(&self) -> Option<&StoreKey> {
        self.key.as_ref()
    }

    /// The schema version of the open store.
    pub fn schema_version(&self) -> Result<i64> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.err(e))
    }

    /// A SQLite error on this knowledge base, naming its file.
    pub(crate) fn err(&self, source: rusqlite::Error) -> KenningError {
        KenningError::sqlite(self.path.clone(), source)
    }

    fn migrate(&mut self) -> Result<()> {
        let version = self.schema_version()?;
        if version == CURRENT_VERSION {
            return Ok(());
        }
        if version > 0 {
            self.backup(version)?;
        }
        let path = self.path.clone();
        let store_err = |source| KenningError::sqlite(path.clone(), source);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(store_err)?;
        // Another process may have migrated while we waited for the lock.
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(store_err)?;
        for (index, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql).map_err(store_err)?;
            tx.pragma_update(None, "user_version", index as i64 + 1)
                .map_err(store_err)?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(store_err)?;
        tx.commit().map_err(store_err)
    }

    /// Copies the store, before migrating it, to `<file>.v<version>.bak` with SQLite's online
    /// backup API; an encrypted store is copied with [`encryption::export`] (SQLCipher has no
    /// backup API for it) and its copy is encrypted with the same key.
    fn backup(&self, version: i64) -> Result<PathBuf> {
        let mut name = self.path.file_name().unwrap_or_default().to_owned();
        name.push(format!(".v{version}.bak"));
        let target = self.path.with_file_name(name);
        // A copy left by an earlier, interrupted migration is made again.
        match std::fs::remove_file(&target) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(KenningError::Io {
                    path: target,
                    source: error,
                });
            }
            _ => {}
        }
        if let Some(key) = &self.key {
            encryption::export(&self.conn, &self.path, &target, Some(key))?;
            return Ok(target);
        }
        // Made here, 0600, rather than by the backup with the umask's mode. (Another process
        // migrating the same store at once may have made it: both then copy into it in turn.)
        crate::private::create_store_file(&target)?;
        self.conn
            .backup(
                rusqlite::MAIN_DB,
                &target,
                None::<fn(rusqlite::backup::Progress)>,
            )
            .map_err(|e| self.err(e))?;
        Ok(target)
    }

    /// Runs `f` in one immediate (write-locking) transaction: everything it writes commits
    /// together, or nothing does.
    pub(crate) fn write<T>(&mut self, f: impl FnOnce(&dyn Writes) -> Result<T>) -> Result<T> {
        // Counted before the attempt: a failed commit may still have changed something.
        self.local_writes += 1;
        self.transact(|tx| f(tx))
    }

    /// Runs the reads of `f`, naming this knowledge base's file in any error.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&dyn Reads) -> Result<T>) -> Result<T> {
        f(&self.conn).map_err(|error| naming_file(&self.path, error))
    }

    /// Makes every write transaction through this connection first take `gate`: connections
    /// of one process to one file that share a gate queue for the write lock in memory, where
    /// a waiter wakes as soon as it is free, rather than in SQLite's busy handler, which
    /// sleeps in steps of up to 100 ms (with dozens of writers, most of the time then passes
    /// with the lock free and everyone asleep).
    pub fn set_write_gate(&mut self, gate: std::sync::Arc<std::sync::Mutex<()>>) {
        self.write_gate = Some(gate);
    }

    /// [`KnowledgeBase::write`] for writes no cached read depends on (recall statistics).
    fn transact<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if self.read_only {
            return Err(KenningError::ReadOnly {
                path: self.path.clone(),
            });
        }
        let gate = self.write_gate.clone();
        let _turn = gate.as_deref().map(|gate| {
            gate.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        });
        let path = self.path.clone();
        let store_err = |source| KenningError::sqlite(path.clone(), source);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(store_err)?;
        // Errors raised with `?` inside `f` do not know the file; name it here.
        let value = f(&tx).map_err(|error| naming_file(&path, error))?;
        tx.commit().map_err(store_err)?;
        Ok(value)
    }

    /// Creates a knowledge base at `path`, where no other connection can know of it (a
    /// staged one, which a failure discards whole), without crash safety from its first
    /// statement: the rollback journal kept in memory and no flush at any commit. Its schema
    /// and a bulk load are thus written once, to the file, and never flushed on the way;
    /// [`Self::fold_log_and_close`] puts it in WAL mode and the file is flushed once before
    /// it is published. (Created crash-safe and switched afterwards, a new store took a dozen
    /// flushes, a few milliseconds each, before its first memory.)
    pub(crate) fn create_staged(path: &Path, key: Option<&StoreKey>) -> Result<KnowledgeBase> {
        create_folder_of(path)?;
        Self::open_writable(path, key, Durability::Staged, false)
    }

    /// Sets the journal mode, checking that SQLite took it (it answers the mode in force).
    fn set_journal_mode(&self, mode: &str) -> Result<()> {
        let in_force: String = self
            .conn
            .query_row(&format!("PRAGMA journal_mode = {mode}"), [], |row| {
                row.get(0)
            })
            .map_err(|e| self.err(e))?;
        if !in_force.eq_ignore_ascii_case(mode) {
            return Err(KenningError::Conflict(format!(
                "{} stayed in journal mode {in_force} instead of {mode}",
                self.path.display()
            )));
        }
        Ok(())
    }

    /// Folds the write-ahead log into the file and closes the connection, so that the file
    /// alone holds every commit (a store about to be linked elsewhere), in WAL mode like
    /// every store. Refused while another connection keeps part of the log from being folded.
    pub fn fold_log_and_close(self) -> Result<()> {
        self.set_journal_mode("wal")?;
        let busy: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
            .map_err(|e| self.err(e))?;
        if busy != 0 {
            return Err(KenningError::Conflict(format!(
                "{} is in use by another connection: its log could not be folded into it",
                self.path.display()
            )));
        }
        let path = self.path;
        self.conn
            .close()
            .map_err(|(_, source)| KenningError::sqlite(path, source))
    }

    /// Folds the write-ahead log into the file and empties it, so that the old versions of
    /// pages a forget rewrote are nowhere in the files; a log another connection is reading
    /// from is left for a later checkpoint (the pages it holds are the store's own, and the
    /// next forget or the close folds them).
    pub fn scrub(&mut self) -> Result<()> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(|e| self.err(e))
    }

    /// A read-only view for queries.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The read cache, emptied first if the store changed since it was filled.
    fn fresh_cache(&self) -> Result<std::cell::RefMut<'_, ReadCache>> {
        let data_version: i64 = self
            .conn
            .pragma_query_value(None, "data_version", |row| row.get(0))
            .map_err(|e| self.err(e))?;
        let now = Some((data_version, self.local_writes));
        let mut cache = self.cache.borrow_mut();
        if cache.generation != now {
            *cache = ReadCache {
                generation: now,
                ..ReadCache::default()
            };
        }
        if cache.word_counts.len() > MAX_CACHED_WORDS {
            cache.word_counts.clear();
        }
        Ok(cache)
    }

    /// The `limit` newest accepted, active global memories (what every turn offers the policy
    /// besides its anchored and lexical matches), read once while the store is unchanged.
    pub fn recent_globals(&self, limit: u32) -> Result<Vec<Memory>> {
        let mut cache = self.fresh_cache()?;
        if let Some((cached_limit, memories)) = &cache.globals
            && *cached_limit == limit
        {
            return Ok(memories.clone());
        }
        let filter = MemoryFilter {
            scope: Some(Scope::Global),
            limit,
            ..MemoryFilter::default()
        };
        let memories: Vec<Memory> = search::search(&self.conn, &filter, &mut cache.word_counts)
            .map_err(|e| self.err(e))?
            .hits
            .into_iter()
            .map(|hit| hit.memory)
            .collect();
        cache.globals = Some((limit, memories.clone()));
        Ok(memories)
    }

    /// Memories matching `filter`, most relevant first when there is a query (with BM25
    /// relevance, larger is better), else newest first (relevance 0).
    ///
    /// `#tag` tokens in the query filter by tag instead of matching words.
    #[cfg(test)]
    pub fn search(&self, filter: &MemoryFilter) -> Result<Vec<(Memory, f32)>> {
        self.search_page(filter).map(SearchPage::scored)
    }

    /// [`KnowledgeBase::search`], each memory marked lexical or not, and the page marked when
    /// the query's budget cut it (see [`SearchPage`]).
    pub fn search_page(&self, filter: &MemoryFilter) -> Result<SearchPage> {
        let mut cache = self.fresh_cache()?;
        let (query, tags) = split_tag_tokens(&filter.query);
        if tags.is_empty() {
            return search::search(&self.conn, filter, &mut cache.word_counts)
                .map_err(|e| self.err(e));
        }
        let mut filter = filter.clone();
        filter.query = query;
        filter.tags.extend(tags);
        search::search(&self.conn, &filter, &mut cache.word_counts).map_err(|e| self.err(e))
    }

    /// One page of the memories matching `filter` (its `limit` and `offset`), newest first,
    /// and how many match in all. The query's words must all occur in a memory's text (no
    /// ranking: a listing, not a search); `#tag` tokens filter by tag.
    pub fn list_counted(&self, filter: &MemoryFilter) -> Result<(Vec<Memory>, u64)> {
        let (query, tags) = split_tag_tokens(&filter.query);
        let mut filter = filter.clone();
        filter.query = query;
        filter.tags.extend(tags);
        search::list_counted(&self.conn, &filter).map_err(|e| self.err(e))
    }

    /// How many active memories the knowledge base holds (pending ones included).
    #[cfg(test)]
    pub fn count_active(&self) -> Result<u64> {
        count_active(&self.conn).map_err(|e| self.err(e))
    }

    /// The ids of active, unquarantined local memories with an anchor that can match
    /// `offset` (exact, inside a function or range, within a radius), the function starting at
    /// `function_start` or named `function_name`, or one of `strings`.
    pub fn anchored_ids(
        &self,
        offset: Option<u64>,
        function_start: Option<u64>,
        function_name: Option<&str>,
        strings: &[String],
        limit: u32,
    ) -> Result<Vec<u64>> {
        anchors::anchored_ids(
            &self.conn,
            offset,
            function_start,
            function_name,
            strings,
            limit,
        )
        .map_err(|e| self.err(e))
    }

    /// Merges the full-text index into one segment, in a transaction of its own; returns the
    /// segments before and after. It changes no memory and writes no audit event.
    pub fn merge_index(&mut self) -> Result<(u64, u64)> {
        let before = index_segments(&self.conn).map_err(|e| self.err(e))?;
        if before > 1 {
            self.local_writes += 1;
            self.transact(|tx| {
                tx.execute(
                    "INSERT INTO memories_fts(memories_fts) VALUES ('optimize')",
                    [],
                )?;
                Ok(())
            })?;
        }
        let after = index_segments(&self.conn).map_err(|e| self.err(e))?;
        Ok((before, after))
    }

    /// Loads memories by id, in the order given (missing ids are skipped).
    pub fn get_many(&self, ids: &[u64]) -> Result<Vec<Memory>> {
        get_memories(&self.conn, ids).map_err(|e| self.err(e))
    }

    /// See [`crate::store::KnowledgeStore::first_event_details`].
    pub fn first_event_details(&self, ids: &[u64]) -> Result<HashMap<u64, String>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let id_list = serde_json::to_string(ids).expect("a list of integers serialises");
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT memory_id, detail FROM events WHERE id IN (SELECT min(id) FROM events \
                 WHERE memory_id IN (SELECT value FROM json_each(?1)) GROUP BY memory_id) \
                 AND detail IS NOT NULL",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([&id_list], |row| {
                Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

    /// The most recent audit events, newest first.
    pub fn events(&self, limit: u32) -> Result<Vec<serde_json::Value>> {
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT id, at, actor, action, memory_id, before_hash, after_hash, detail FROM events ORDER BY id DESC{}", limit_sql(limit.into(), 0)))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |row| {
                Ok(LoggedEvent {
                    id: row.get(0)?,
                    at: row.get(1)?,
                    actor: row.get(2)?,
                    action: row.get(3)?,
                    memory_id: row.get(4)?,
                    before_hash: row.get(5)?,
                    after_hash: row.get(6)?,
                    detail: row.get(7)?,
                }
                .to_json())
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

    /// Notes that memories were injected or recalled at `now`.
    pub fn mark_recalled(&mut self, ids: &[u64], now: i64) -> Result<()> {
        if ids.is_empty() || self.read_only {
            return Ok(());
        }
        // Recall statistics are bookkeeping, not memories: they need not wait for a disk flush
        // on every turn (a power cut may lose the last few counts, never a memory), nor pay for
        // a checkpoint (two flushes, tens of milliseconds) on the turn that happens to fill the
        // write-ahead log. The next content write checkpoints as usual, closing the knowledge
        // base checkpoints, and past `RECALL_CHECKPOINT_UPDATES` a turn checkpoints after all.
        self.conn
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| self.err(e))?;
        self.conn
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(|e| self.err(e))?;
        let written = self.transact(|tx| {
            let mut stmt = tx.prepare_cached(
                "UPDATE memories SET recall_count = recall_count + 1, last_recalled = ?2 WHERE id = ?1",
            )?;
            for &id in ids {
                stmt.execute(params![id as i64, now])?;
            }
            Ok(())
        });
        self.conn
            .pragma_update(None, "wal_autocheckpoint", WAL_AUTOCHECKPOINT_PAGES)
            .map_err(|e| self.err(e))?;
        self.recall_updates_since_checkpoint += ids.len() as u64;
        if written.is_ok() && self.recall_updates_since_checkpoint > RECALL_CHECKPOINT_UPDATES {
            self.recall_updates_since_checkpoint = 0;
            // Passive: copies what it can without waiting for readers or writers.
            self.conn
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                .map_err(|e| self.err(e))?;
        }
        self.conn
            .pragma_update(None, "synchronous", "FULL")
            .map_err(|e| self.err(e))?;
        written
    }
}

impl From<rusqlite::Error> for KenningError {
    /// For code inside a knowledge base's write closures, which names the file afterwards.
    fn from(source: rusqlite::Error) -> Self {
        KenningError::sqlite(PathBuf::from("<knowledge base>"), source)
    }
}

/// Encrypts the plaintext knowledge base at `path` with `key`, in one atomic replace (see
/// [`encryption::encrypt_in_place`]), after checking that it is a kenning knowledge base this
/// build can read. Returns the plaintext copies of it left beside it (its migration backups,
/// `<file>.vN.bak`), which are not touched: the caller says so.
pub fn encrypt_store(path: &Path, key: &StoreKey) -> Result<Vec<PathBuf>> {
    if encryption::sniff(path)? == encryption::FileKind::Plain {
        check_version_read_only(path, None)?;
    }
    encryption::encrypt_in_place(path, key)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let mut backups: Vec<PathBuf> = std::fs::read_dir(dir.unwrap_or(Path::new(".")))
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|file| {
                    file.file_name()
                        .and_then(|n| n.to_str())
                        .and_then(|n| n.strip_prefix(name.as_ref()))
                        .and_then(|rest| rest.strip_prefix(".v"))
                        .is_some_and(|rest| rest.ends_with(".bak"))
                        && encryption::sniff(file).is_ok_and(|k| k == encryption::FileKind::Plain)
                })
                .collect()
        })
        .unwrap_or_default();
    backups.sort();
    Ok(backups)
}

/// Refuses a file that is not a kenning knowledge base, or is one of a newer kenning, without
/// writing to it, through a read-only connection of its own: for files this process cannot
/// write (a writable store's own connection reads its header first, see
/// [`KnowledgeBase::open_writable`]).
///
/// The header is read in one statement, so it is one consistent snapshot even while another
/// process is creating the store (its migration commits the schema, the version and the
/// application id together), and with the busy timeout, so a creator's lock is waited for.
fn check_version_read_only(path: &Path, key: Option<&StoreKey>) -> Result<()> {
    encryption::check_file(path, key)?;
    let store_err = |source| KenningError::sqlite(path.to_owned(), source);
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(store_err)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(store_err)?;
    encryption::apply(&conn, path, key)?;
    let classify = |error| classify_header_error(path, key, error);
    let header = read_header(&conn).or_else(|error| {
        if is_permission_code(&error) {
            // Without write access to the folder a WAL store can only be read immutable.
            open_immutable(path, key).and_then(|conn| read_header(&conn).map_err(classify))
        } else {
            Err(classify(error))
        }
    })?;
    judge_header(path, header)
}

/// Refuses a store whose header (see [`read_header`]) says it is another program's file or
/// one of a newer kenning.
fn judge_header(path: &Path, (version, app_id, tables): (i64, i64, i64)) -> Result<()> {
    // Whose file it is comes first: a foreign file is foreign whatever its version says.
    let foreign = if app_id == 0 {
        version != 0 || tables > 0
    } else {
        app_id != i64::from(APPLICATION_ID)
    };
    if foreign {
        return Err(KenningError::NotAStore {
            path: path.to_owned(),
            problem: if app_id == 0 {
                "it is a SQLite database of another program".to_owned()
            } else {
                format!("its application id is {app_id:#x}")
            },
        });
    }
    if version > CURRENT_VERSION {
        return Err(KenningError::NewerStore {
            path: path.to_owned(),
            found: version,
            supported: CURRENT_VERSION,
        });
    }
    Ok(())
}

/// Whether SQLite refused for want of write access (to the file, or to the folder where a WAL
/// store's shared memory would be made).
fn is_permission_code(error: &rusqlite::Error) -> bool {
    matches!(
        error,
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::ReadOnly
                    | rusqlite::ErrorCode::CannotOpen
                    | rusqlite::ErrorCode::PermissionDenied
            )
    )
}

/// `(user_version, application_id, number of schema objects)`, in one statement, so it is one
/// consistent snapshot.
fn read_header(conn: &Connection) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(
        "SELECT (SELECT user_version FROM pragma_user_version),
                (SELECT application_id FROM pragma_application_id),
                (SELECT count(*) FROM sqlite_master)",
        [],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
}

/// A lock held too long is [`KenningError::Busy`]; with a key, a file that will not decrypt
/// is the key's fault; anything else while reading the header means the file is no SQLite
/// database of ours.
fn classify_header_error(
    path: &Path,
    key: Option<&StoreKey>,
    error: rusqlite::Error,
) -> KenningError {
    match error.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) if key.is_some() => {
            encryption::key_error(path, crate::error::KeyProblem::Wrong)
        }
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            KenningError::sqlite(path, error)
        }
        _ => KenningError::NotAStore {
            path: path.to_owned(),
            problem: error.to_string(),
        },
    }
}

/// `error`, raised by code that does not know the file (a `?` on a SQLite error inside a
/// read or a write), naming the knowledge base at `path`.
fn naming_file(path: &Path, error: KenningError) -> KenningError {
    match error {
        KenningError::Store { source, .. } => KenningError::sqlite(path, source),
        KenningError::Busy { .. } => KenningError::Busy {
            location: path.display().to_string(),
        },
        other => other,
    }
}

/// Whether an error is SQLite's "database is locked" (or "busy").
fn is_busy(error: &KenningError) -> bool {
    matches!(error, KenningError::Busy { .. })
}

/// Whether opening for writing failed because the file or its folder is read-only.
fn is_permission_error(error: &KenningError) -> bool {
    matches!(error, KenningError::Store { source, .. } if is_permission_code(source))
}

/// [`KenningError::ReadOnlyFolder`] when the store at `path` does not exist and its folder
/// cannot be written (a file made there to find out is refused for want of permission), where
/// SQLite says only "unable to open database file"; `None` when the folder is not the cause.
fn read_only_folder(path: &Path) -> Option<KenningError> {
    let folder = path.parent().filter(|folder| folder.is_dir())?;
    if path.exists() {
        return None;
    }
    match tempfile::NamedTempFile::new_in(folder) {
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            Some(KenningError::ReadOnlyFolder {
                folder: folder.to_owned(),
                path: path.to_owned(),
            })
        }
        _ => None,
    }
}

/// How much of a store's file a connection maps into memory (SQLite's `mmap_size`).
const MAPPED_BYTES: i64 = 256 << 20;

/// Keeps a store's write-ahead log and its index (`-wal`, `-shm`) when its last connection
/// closes, the log emptied (the close folds it into the file first, and a size limit of 0
/// truncates it), instead of deleting both and making them again at the next open.
///
/// A server with many subjects opens and closes stores all the time: making and unlinking two
/// files each time was its largest cost, in the file system's inode allocation (measured with
/// `perf` under `kenning bench`'s many-subjects load, where `openat` alone took a fifth of the
/// server's time). An empty log holds nothing: a forgotten memory is no more in it than in a
/// deleted one.
fn keep_log_files(conn: &Connection) -> rusqlite::Result<()> {
    let mut keep: std::ffi::c_int = 1;
    // SAFETY: the handle is this open connection's, "main" is its database, and
    // SQLITE_FCNTL_PERSIST_WAL reads and writes one int through the pointer, which outlives
    // the call.
    let code = unsafe {
        rusqlite::ffi::sqlite3_file_control(
            conn.handle(),
            c"main".as_ptr(),
            rusqlite::ffi::SQLITE_FCNTL_PERSIST_WAL,
            (&raw mut keep).cast(),
        )
    };
    if code != rusqlite::ffi::SQLITE_OK {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(code),
            Some("could not keep the write-ahead log between connections".to_owned()),
        ));
    }
    conn.pragma_update(None, "journal_size_limit", 0)
}

/// Settings of every connection that make reads cheaper; none changes what a query answers.
///
/// - The file is mapped (`mmap_size`), so a page already in the operating system's cache is
///   read in place instead of copied by a `pread` system call; a search touches hundreds of
///   pages of the full-text index. (SQLCipher reads an encrypted store through its codec,
///   unmapped.)
/// - The query planner's stability guarantee is on. Without it SQLite re-prepares a statement
///   whenever a bound value crosses a threshold its plan depended on; FTS5's own lookup of a
///   term in a segment binds the segment's id that way, so a search re-parsed that statement
///   for nearly every segment it read (about 8% of a searching server's time). Our
///   statements' plans do not depend on their values (no `ANALYZE` statistics, no prefix
///   `LIKE`).
/// - Prepared statements are kept (see [`STATEMENT_CACHE_CAPACITY`]).
fn tune_for_reading(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "mmap_size", MAPPED_BYTES)?;
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Badge, TEST_EVENT, global_fact};

    #[test]
    fn sqlite_keeps_no_global_allocation_statistics_which_would_put_every_allocation_behind_one_lock()
     {
        let dir = tempfile::tempdir().unwrap();
        let mut kb = KnowledgeBase::open_or_create(&dir.path().join("profile-me.sqlite")).unwrap();
        global_note(&mut kb, "enough work to allocate");
        let (mut used, mut highest) = (0_i64, 0_i64);
        // SAFETY: two valid pointers to i64s, for the duration of the call.
        let code = unsafe {
            rusqlite::ffi::sqlite3_status64(
                rusqlite::ffi::SQLITE_STATUS_MEMORY_USED,
                &raw mut used,
                &raw mut highest,
                0,
            )
        };
        assert_eq!(code, rusqlite::ffi::SQLITE_OK);
        assert_eq!(
            (used, highest),
            (0, 0),
            "SQLITE_DEFAULT_MEMSTATUS=0 (.cargo/config.toml)"
        );
    }

    #[test]
    fn a_write_that_waits_past_the_lock_of_another_writer_is_busy_naming_the_file_and_writes_nothing()
     {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-me.sqlite");
        let mut kb = KnowledgeBase::open_or_create(&path).unwrap();
        kb.conn().busy_timeout(Duration::from_millis(20)).unwrap();
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let error = kb
            .write(|tx| tx.insert_memory(&global_fact("x"), Badge::Native, 1, &TEST_EVENT))
            .unwrap_err();
        match &error {
            KenningError::Busy { location } => {
                assert!(location.ends_with("profile-me.sqlite"), "{location}")
            }
            other => panic!("{other:?}"),
        }
        other.execute_batch("ROLLBACK").unwrap();
        assert_eq!(kb.count_active().unwrap(), 0);
    }

    fn global_note(kb: &mut KnowledgeBase, text: &str) -> u64 {
        kb.write(|tx| tx.insert_memory(&global_fact(text), Badge::Native, 1_000, &TEST_EVENT))
            .unwrap()
    }

    /// How many memories a search for `query` finds.
    fn matches(kb: &KnowledgeBase, query: &str) -> usize {
        kb.search(&MemoryFilter {
            query: query.into(),
            limit: 10,
            ..MemoryFilter::default()
        })
        .unwrap()
        .len()
    }

    /// The statements this connection has planned more than once, with how often, FTS5's own
    /// statements on its shadow tables included.
    fn statements_planned_again(conn: &Connection) -> Vec<(String, i32)> {
        use rusqlite::ffi;
        let mut replanned = Vec::new();
        // SAFETY: the handle is this open connection's, used on this thread only; every
        // statement pointer comes from sqlite3_next_stmt on it and is only read.
        unsafe {
            let db = conn.handle();
            let mut stmt = ffi::sqlite3_next_stmt(db, std::ptr::null_mut());
            while !stmt.is_null() {
                let sql = std::ffi::CStr::from_ptr(ffi::sqlite3_sql(stmt))
                    .to_string_lossy()
                    .into_owned();
                let count = ffi::sqlite3_stmt_status(stmt, ffi::SQLITE_STMTSTATUS_REPREPARE, 0);
                if count > 0 {
                    replanned.push((sql, count));
                }
                stmt = ffi::sqlite3_next_stmt(db, stmt);
            }
        }
        replanned
    }

    fn texts(memories: &[Memory]) -> Vec<&str> {
        memories.iter().map(|m| m.text.as_str()).collect()
    }

    fn key(text: &str) -> StoreKey {
        StoreKey::new(text, "test").unwrap()
    }

    fn file_contains(path: &Path, needle: &[u8]) -> bool {
        std::fs::read(path).is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
    }

    fn key_problem(error: KenningError) -> crate::error::KeyProblem {
        match error {
            KenningError::Key { problem, .. } => problem,
            other => panic!("expected a key error, got {other}"),
        }
    }

    #[test]
    fn searches_and_listings_reuse_their_statements_without_planning_them_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-plans.sqlite");
        let mut kb = KnowledgeBase::open_or_create(&path).unwrap();
        for i in 0..20 {
            global_note(&mut kb, &format!("rc4 key schedule note {i}"));
        }
        for (page, query) in ["rc4 schedule", "key note", "schedule", "rc4 note 3", ""]
            .into_iter()
            .enumerate()
        {
            let filter = MemoryFilter {
                query: query.into(),
                limit: 3 + page as u32,
                ..MemoryFilter::default()
            };
            assert!(!kb.search(&filter).unwrap().is_empty(), "{query}");
            assert!(!kb.list_counted(&filter).unwrap().0.is_empty(), "{query}");
            assert!(in_review(kb.conn(), 5).unwrap().is_empty());
            assert_eq!(memories_in_order(kb.conn(), true, 3).unwrap().len(), 3);
        }
        assert_eq!(statements_planned_again(kb.conn()), Vec::new());
    }

    #[test]
    fn searching_many_index_segments_plans_fts5s_own_lookups_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut kb =
            KnowledgeBase::open_or_create(&dir.path().join("profile-segments.sqlite")).unwrap();
        // One transaction each: every note starts an index segment of its own.
        for i in 0..40 {
            global_note(&mut kb, &format!("segment {i} holds the rc4 key schedule"));
        }
        for query in ["rc4 schedule", "segment key", "holds", "rc4"] {
            assert!(matches(&kb, query) > 0, "{query}");
        }
        assert_eq!(statements_planned_again(kb.conn()), Vec::new());
    }

    #[test]
    fn an_encrypted_store_hides_its_text_and_reads_back_only_with_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-secret.sqlite");
        let wal = dir.path().join("profile-secret.sqlite-wal");
        let right = key("right horse battery staple");
        let mut kb = KnowledgeBase::open_or_create_keyed(&path, Some(&right)).unwrap();
        global_note(&mut kb, "plantedmarker rc4 schedule");
        // While the connection is open the note is in the write-ahead log, then in the file.
        assert!(wal.exists());
        assert!(!file_contains(&wal, b"plantedmarker"));
        assert!(!file_contains(&path, b"plantedmarker"));
        drop(kb);
        assert!(!file_contains(&path, b"plantedmarker"));

        let kb = KnowledgeBase::open_existing_keyed(&path, Some(&right))
            .unwrap()
            .unwrap();
        assert_eq!(matches(&kb, "plantedmarker"), 1);
        drop(kb);

        let before = std::fs::read(&path).unwrap();
        let wrong = KnowledgeBase::open_existing_keyed(&path, Some(&key("wrong")))
            .err()
            .unwrap();
        let message = wrong.to_string();
        assert!(message.contains("profile-secret.sqlite") && message.contains("wrong key"));
        assert!(!message.contains("horse"), "the key never shows: {message}");
        assert_eq!(key_problem(wrong), crate::error::KeyProblem::Wrong);
        let missing = KnowledgeBase::open_or_create(&path).err().unwrap();
        assert!(missing.to_string().contains("key missing"), "{missing}");
        assert_eq!(key_problem(missing), crate::error::KeyProblem::Missing);
        assert_eq!(std::fs::read(&path).unwrap(), before, "left untouched");
    }

    #[test]
    fn concurrent_first_writes_on_a_new_encrypted_store_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let k = key("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        for round in 0..3 {
            let path = dir.path().join(format!("profile-race{round}.sqlite"));
            let writers: Vec<_> = (0..6)
                .map(|n| {
                    let (path, k) = (path.clone(), k.clone());
                    std::thread::spawn(move || {
                        let mut kb = KnowledgeBase::open_or_create_keyed(&path, Some(&k))?;
                        Ok::<u64, KenningError>(global_note(&mut kb, &format!("note {n}")))
                    })
                })
                .collect();
            for writer in writers {
                writer.join().unwrap().expect("every first write succeeds");
            }
            assert_eq!(
                encryption::sniff(&path).unwrap(),
                encryption::FileKind::Encrypted
            );
            let kb = KnowledgeBase::open_existing_keyed(&path, Some(&k))
                .unwrap()
                .unwrap();
            assert_eq!(kb.count_active().unwrap(), 6);
        }
    }

    #[test]
    fn a_key_for_a_plaintext_store_is_refused_and_the_store_stays_plaintext() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-plain.sqlite");
        global_note(&mut KnowledgeBase::open_or_create(&path).unwrap(), "hello");
        let error = KnowledgeBase::open_existing_keyed(&path, Some(&key("k")))
            .err()
            .unwrap();
        assert_eq!(key_problem(error), crate::error::KeyProblem::NotEncrypted);
        assert_eq!(
            encryption::sniff(&path).unwrap(),
            encryption::FileKind::Plain
        );
        assert!(KnowledgeBase::open_existing(&path).unwrap().is_some());
    }

    #[test]
    fn a_plaintext_store_encrypted_in_place_keeps_its_memories() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-convert.sqlite");
        let mut kb = KnowledgeBase::open_or_create(&path).unwrap();
        global_note(&mut kb, "plantedmarker before encryption");
        drop(kb);
        let k = key("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        assert!(encrypt_store(&path, &k).unwrap().is_empty());
        assert!(!file_contains(&path, b"plantedmarker"));
        let mut kb = KnowledgeBase::open_existing_keyed(&path, Some(&k))
            .unwrap()
            .unwrap();
        assert_eq!(kb.count_active().unwrap(), 1);
        global_note(&mut kb, "plantedmarker after encryption");
        assert_eq!(matches(&kb, "plantedmarker"), 2);
    }

    /// Makes a store of the schema version before this build's at `path`, as an older kenning
    /// left it, readable by everyone (`0644`); `key` encrypts it. Returns its version.
    fn older_store(path: &Path, key: Option<&StoreKey>) -> i64 {
        use std::os::unix::fs::PermissionsExt;
        let old = CURRENT_VERSION - 1;
        let conn = Connection::open(path).unwrap();
        encryption::apply(&conn, path, key).unwrap();
        for sql in &MIGRATIONS[..old as usize] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", old).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        drop(conn);
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).unwrap();
        old
    }

    /// The permission bits of `path`, which exists.
    fn mode(path: &Path) -> u32 {
        crate::private::mode_of(path)
            .unwrap()
            .unwrap_or_else(|| panic!("{} is not there", path.display()))
    }

    #[test]
    fn a_store_and_its_write_ahead_log_are_private_while_it_is_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/profile-open.sqlite");
        let kb = KnowledgeBase::open_or_create(&path).unwrap();
        let wal = dir.path().join("new/profile-open.sqlite-wal");
        let shm = dir.path().join("new/profile-open.sqlite-shm");
        assert!(wal.is_file() && shm.is_file(), "the store is in WAL mode");
        assert_eq!(mode(&dir.path().join("new")), 0o700);
        for file in [&path, &wal, &shm] {
            assert_eq!(mode(file), 0o600, "{}", file.display());
        }
        drop(kb);
    }

    #[test]
    fn a_migration_backup_is_private_encrypted_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let k = key("backup passphrase");
        for (name, key) in [("profile-plain", None), ("profile-secret", Some(&k))] {
            let path = dir.path().join(format!("{name}.sqlite"));
            let old = older_store(&path, key);
            drop(
                KnowledgeBase::open_existing_keyed(&path, key)
                    .unwrap()
                    .unwrap(),
            );
            let backup = dir.path().join(format!("{name}.sqlite.v{old}.bak"));
            assert_eq!(mode(&backup), 0o600, "{}", backup.display());
        }
    }

    #[test]
    fn an_encrypted_store_is_migrated_with_an_encrypted_backup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-old.sqlite");
        let k = key("migration key");
        let old = older_store(&path, Some(&k));
        let kb = KnowledgeBase::open_existing_keyed(&path, Some(&k))
            .unwrap()
            .unwrap();
        assert_eq!(kb.schema_version().unwrap(), CURRENT_VERSION);
        let backup = dir.path().join(format!("profile-old.sqlite.v{old}.bak"));
        assert_eq!(
            encryption::sniff(&backup).unwrap(),
            encryption::FileKind::Encrypted
        );
        let copy = Connection::open(&backup).unwrap();
        encryption::apply(&copy, &backup, Some(&k)).unwrap();
        let version: i64 = copy
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .unwrap();
        assert_eq!(version, old);
    }

    #[test]
    fn concurrent_first_writes_on_a_new_store_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-race.sqlite");
        for round in 0..5 {
            let path = path.with_file_name(format!("profile-race{round}.sqlite"));
            let writers: Vec<_> = (0..8)
                .map(|n| {
                    let path = path.clone();
                    std::thread::spawn(move || {
                        let mut kb = KnowledgeBase::open_or_create(&path)?;
                        Ok::<u64, KenningError>(global_note(&mut kb, &format!("note {n}")))
                    })
                })
                .collect();
            for writer in writers {
                writer.join().unwrap().expect("every first write succeeds");
            }
            let kb = KnowledgeBase::open_existing(&path).unwrap().unwrap();
            assert_eq!(kb.count_active().unwrap(), 8);
        }
    }

    #[test]
    fn opening_an_empty_file_for_reading_leaves_it_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-empty.sqlite");
        std::fs::write(&path, b"").unwrap();
        assert!(KnowledgeBase::open_existing(&path).unwrap().is_none());
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    }

    #[test]
    fn a_foreign_file_is_called_foreign_whatever_its_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-x.sqlite");
        Connection::open(&path)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); PRAGMA user_version = 3;")
            .unwrap();
        let error = KnowledgeBase::open_existing(&path)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("another program"), "{error}");
    }

    #[test]
    fn cached_reads_follow_writes_from_this_and_other_connections() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        let mut kb = KnowledgeBase::open_or_create(&path).unwrap();
        global_note(&mut kb, "rc4 key schedule");
        assert_eq!(texts(&kb.recent_globals(8).unwrap()), ["rc4 key schedule"]);
        let rc4 = MemoryFilter {
            query: "rc4".into(),
            limit: 10,
            ..MemoryFilter::default()
        };
        assert_eq!(kb.search(&rc4).unwrap().len(), 1);

        // A write through this connection.
        global_note(&mut kb, "rc4 again");
        assert_eq!(kb.recent_globals(8).unwrap().len(), 2);
        assert_eq!(kb.search(&rc4).unwrap().len(), 2);

        // A write through another connection (another process, say).
        let mut other = KnowledgeBase::open_existing(&path).unwrap().unwrap();
        global_note(&mut other, "rc4 from elsewhere");
        assert_eq!(kb.recent_globals(8).unwrap().len(), 3);
        assert_eq!(kb.search(&rc4).unwrap().len(), 3);

        // Recall statistics change no cached read.
        let ids: Vec<u64> = kb.recent_globals(8).unwrap().iter().map(|m| m.id).collect();
        kb.mark_recalled(&ids, 2_000).unwrap();
        assert_eq!(kb.recent_globals(8).unwrap().len(), 3);
    }

    #[test]
    fn recall_statistics_are_stored_and_leave_the_durability_settings_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        let mut kb = KnowledgeBase::open_or_create(&path).unwrap();
        let id = global_note(&mut kb, "rc4 key schedule");
        for turn in 0..3 {
            kb.mark_recalled(&[id], 2_000 + turn).unwrap();
        }
        let pragma = |name: &str| -> i64 {
            kb.conn()
                .pragma_query_value(None, name, |row| row.get(0))
                .unwrap()
        };
        assert_eq!(pragma("synchronous"), 2, "FULL again");
        assert_eq!(pragma("wal_autocheckpoint"), WAL_AUTOCHECKPOINT_PAGES);
        let other = KnowledgeBase::open_existing(&path).unwrap().unwrap();
        let (count, last): (i64, i64) = other
            .conn()
            .query_row(
                "SELECT recall_count, last_recalled FROM memories WHERE id = ?1",
                [id as i64],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!((count, last), (3, 2_002));
    }
}
