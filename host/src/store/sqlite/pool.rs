//! Open knowledge bases kept between operations.
//!
//! Opening a knowledge base costs a few hundred microseconds (the version check, the pragmas,
//! the schema), and a connection's first write pays for setting up its write-ahead log; an
//! agent runtime that injects memories every turn should pay that once. The pool keeps the
//! connections a [`crate::Service`] has opened and lends them out again: several per knowledge
//! base (up to [`MAX_PER_STORE`]), so concurrent requests on one subject (a server's) each
//! find a warm connection instead of opening and closing one. Before lending one it
//! checks that the file is still the one it opened (same device and inode, so a store deleted
//! or replaced behind its back is reopened or reported missing) and still at this build's schema
//! version (a store another kenning migrated is reopened, which refuses a newer one).

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::schema::CURRENT_VERSION;
use crate::error::Result;
use crate::store::KnowledgeBase;

/// Most knowledge bases a pool keeps open.
pub const MAX_OPEN: usize = 8;

/// Most idle connections a pool keeps to one knowledge base.
pub const MAX_PER_STORE: usize = 16;

/// A set of open knowledge bases, by file.
#[derive(Default, Clone)]
pub struct StorePool {
    open: Arc<Mutex<HashMap<PathBuf, Vec<Pooled>>>>,
    /// One write gate per file, shared by every connection the pool lends to it.
    gates: Arc<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>>,
}

/// A kept connection and the identity of the file it opened.
struct Pooled {
    kb: KnowledgeBase,
    identity: Option<FileIdentity>,
}

/// Which file a path named when it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
}

impl FileIdentity {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileIdentity> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileIdentity {
            device: meta.dev(),
            inode: meta.ino(),
        })
    }

    /// Without inode numbers a kept connection is never trusted.
    #[cfg(not(unix))]
    fn of(_path: &Path) -> Option<FileIdentity> {
        None
    }
}

impl StorePool {
    /// An empty pool.
    pub fn new() -> Self {
        StorePool::default()
    }

    /// The knowledge base at `path`: the kept connection when it is still valid, else one
    /// opened by `open` (which returns `None` when there is no store there).
    pub fn checkout(
        &self,
        path: &Path,
        open: impl FnOnce(&Path) -> Result<Option<KnowledgeBase>>,
    ) -> Result<Option<PooledKb>> {
        let kept = self.lock().get_mut(path).and_then(Vec::pop);
        let identity = FileIdentity::of(path);
        if let Some(pooled) = kept {
            let same_file = identity.is_some() && pooled.identity == identity;
            let same_schema = pooled
                .kb
                .schema_version()
                .is_ok_and(|v| v == CURRENT_VERSION);
            if same_file && same_schema {
                return Ok(Some(self.lend(pooled.kb, identity)));
            }
        }
        Ok(open(path)?.map(|kb| self.lend(kb, FileIdentity::of(path))))
    }

    /// How many connections the pool holds (those lent out are not counted).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().values().map(Vec::len).sum()
    }

    /// Whether the pool holds no connection.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lend(&self, mut kb: KnowledgeBase, identity: Option<FileIdentity>) -> PooledKb {
        let gate = {
            let mut gates = self.gates.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(gates.entry(kb.path().to_owned()).or_default())
        };
        kb.set_write_gate(gate);
        PooledKb {
            kb: Some(kb),
            identity,
            pool: self.clone(),
        }
    }

    fn give_back(&self, kb: KnowledgeBase, identity: Option<FileIdentity>) {
        // Connections let go are closed after the lock is released.
        let mut closed: Vec<Pooled> = Vec::new();
        {
            let mut open = self.lock();
            if open.len() >= MAX_OPEN && !open.contains_key(kb.path()) {
                // Any one will do: reopening costs less than a millisecond.
                if let Some(evicted) = open.keys().next().cloned() {
                    closed.extend(open.remove(&evicted).unwrap_or_default());
                }
            }
            let kept = open.entry(kb.path().to_owned()).or_default();
            // A connection of another file (the store was replaced) is no use any more.
            let (same, stale): (Vec<Pooled>, Vec<Pooled>) = std::mem::take(kept)
                .into_iter()
                .partition(|p| p.identity == identity);
            *kept = same;
            closed.extend(stale);
            if kept.len() < MAX_PER_STORE {
                kept.push(Pooled { kb, identity });
            } else {
                closed.push(Pooled { kb, identity });
            }
        }
        drop(closed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Vec<Pooled>>> {
        // A panic while holding the lock leaves a map of whole connections: still usable.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A knowledge base lent by a [`StorePool`]; it goes back to the pool when dropped.
pub struct PooledKb {
    kb: Option<KnowledgeBase>,
    identity: Option<FileIdentity>,
    pool: StorePool,
}

impl Deref for PooledKb {
    type Target = KnowledgeBase;

    fn deref(&self) -> &KnowledgeBase {
        self.kb.as_ref().expect("present until dropped")
    }
}

impl DerefMut for PooledKb {
    fn deref_mut(&mut self) -> &mut KnowledgeBase {
        self.kb.as_mut().expect("present until dropped")
    }
}

impl Drop for PooledKb {
    fn drop(&mut self) {
        if let Some(kb) = self.kb.take() {
            // A connection is only kept outside a transaction: `KnowledgeBase::write` commits
            // or rolls back before it returns.
            if kb.conn().is_autocommit() {
                self.pool.give_back(kb, self.identity);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &Path) -> Result<Option<KnowledgeBase>> {
        KnowledgeBase::open_existing(path)
    }

    #[test]
    fn a_connection_is_kept_and_lent_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        KnowledgeBase::open_or_create(&path).unwrap();
        let pool = StorePool::new();
        let first = pool.checkout(&path, open).unwrap().unwrap();
        assert!(pool.is_empty(), "lent out, not kept");
        drop(first);
        assert_eq!(pool.len(), 1);
        let mut opened_again = false;
        let again = pool
            .checkout(&path, |p| {
                opened_again = true;
                open(p)
            })
            .unwrap();
        assert!(again.is_some() && !opened_again);
    }

    #[test]
    fn a_deleted_store_is_reported_missing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        KnowledgeBase::open_or_create(&path).unwrap();
        let pool = StorePool::new();
        drop(pool.checkout(&path, open).unwrap());
        std::fs::remove_file(&path).unwrap();
        assert!(pool.checkout(&path, open).unwrap().is_none());
    }

    #[test]
    fn a_replaced_store_is_reopened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        let other = dir.path().join("other.sqlite");
        KnowledgeBase::open_or_create(&path).unwrap();
        KnowledgeBase::open_or_create(&other)
            .unwrap()
            .write(|tx| tx.set_meta_value("marker", "other"))
            .unwrap();
        let pool = StorePool::new();
        drop(pool.checkout(&path, open).unwrap());
        std::fs::rename(&other, &path).unwrap();
        let kb = pool.checkout(&path, open).unwrap().unwrap();
        let marker: Option<String> = kb
            .conn()
            .query_row("SELECT value FROM meta WHERE key = 'marker'", [], |r| {
                r.get(0)
            })
            .ok();
        assert_eq!(marker.as_deref(), Some("other"));
    }

    #[test]
    fn connections_lent_at_once_are_all_kept_and_lent_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kb.sqlite");
        KnowledgeBase::open_or_create(&path).unwrap();
        let pool = StorePool::new();
        let lent: Vec<PooledKb> = (0..3)
            .map(|_| pool.checkout(&path, open).unwrap().unwrap())
            .collect();
        drop(lent);
        assert_eq!(pool.len(), 3);
        let mut opened = 0;
        let again: Vec<PooledKb> = (0..3)
            .map(|_| {
                pool.checkout(&path, |p| {
                    opened += 1;
                    open(p)
                })
                .unwrap()
                .unwrap()
            })
            .collect();
        assert_eq!(opened, 0, "all three were warm");
        drop(again);
        let many: Vec<PooledKb> = (0..MAX_PER_STORE + 2)
            .map(|_| pool.checkout(&path, open).unwrap().unwrap())
            .collect();
        drop(many);
        assert_eq!(pool.len(), MAX_PER_STORE);
    }

    #[test]
    fn the_pool_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let pool = StorePool::new();
        for i in 0..MAX_OPEN + 3 {
            let path = dir.path().join(format!("kb{i}.sqlite"));
            KnowledgeBase::open_or_create(&path).unwrap();
            drop(pool.checkout(&path, open).unwrap());
        }
        assert_eq!(pool.len(), MAX_OPEN);
    }
}
