//! A new subject's knowledge base built out of sight, for a bulk load that must leave nothing
//! behind when it fails (see [`crate::store::contract::StagedStore`]).
//!
//! The store is created under a hidden name beside where it belongs
//! (`.SUBJECT.sqlite.PID.staged`), which no listing of subjects and no other connection
//! knows. Nothing can see it, and a failure or a crash discards it whole, so from its schema on
//! it is written without a journal on disk and never flushed. Publishing puts it in WAL mode,
//! flushes it once, and links it under the subject's name only if that name is still
//! free, so a store another writer created meanwhile is never replaced. Dropped unpublished, the staged files are deleted; files a
//! killed process left behind are deleted by the next staging of the same subject.

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::store::contract::StagedStore;
use crate::store::{KnowledgeBase, StoreKey};

/// What ends a staged store's file name.
const STAGED_SUFFIX: &str = ".staged";

/// Distinguishes the stores one process stages at once.
static NEXT_STAGE: AtomicU64 = AtomicU64::new(0);

/// A knowledge base being built under a hidden name until [`StagedStore::publish`].
pub struct StagedKb {
    kb: Option<KnowledgeBase>,
    staged: PathBuf,
    target: PathBuf,
}

impl StagedKb {
    /// A new, empty knowledge base staged for `target`, encrypted with `key` when given;
    /// `None` when a file is already at `target` (the store exists, or another process is
    /// creating it).
    pub fn create(target: &Path, key: Option<&StoreKey>) -> Result<Option<StagedKb>> {
        remove_abandoned(target);
        if target.exists() {
            return Ok(None);
        }
        let stage = NEXT_STAGE.fetch_add(1, Ordering::Relaxed);
        let staged = sibling(target, &format!(".{}-{stage}", std::process::id()));
        remove_files(&staged);
        let kb =
            KnowledgeBase::create_staged(&staged, key).inspect_err(|_| remove_files(&staged))?;
        Ok(Some(StagedKb {
            kb: Some(kb),
            staged,
            target: target.to_owned(),
        }))
    }
}

impl StagedStore for StagedKb {
    fn publish(mut self: Box<Self>) -> Result<bool> {
        let kb = self.kb.take().expect("present until published or dropped");
        kb.fold_log_and_close()?;
        crate::private::link_new(&self.staged, &self.target)
    }
}

impl Deref for StagedKb {
    type Target = KnowledgeBase;

    fn deref(&self) -> &KnowledgeBase {
        self.kb
            .as_ref()
            .expect("present until published or dropped")
    }
}

impl DerefMut for StagedKb {
    fn deref_mut(&mut self) -> &mut KnowledgeBase {
        self.kb
            .as_mut()
            .expect("present until published or dropped")
    }
}

impl Drop for StagedKb {
    fn drop(&mut self) {
        drop(self.kb.take());
        remove_files(&self.staged);
    }
}

/// `target`'s hidden sibling `.NAME{tag}.staged`.
fn sibling(target: &Path, tag: &str) -> PathBuf {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(".{name}{tag}{STAGED_SUFFIX}"))
}

/// A staged store's file and the log and index SQLite keeps beside it.
fn remove_files(staged: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut path = staged.as_os_str().to_owned();
        path.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(path));
    }
}

/// Deletes the stores staged for `target` by processes that no longer run (killed during an
/// import). Where the running processes cannot be told (no `/proc`), none is deleted.
fn remove_abandoned(target: &Path) {
    let Some(dir) = target.parent() else { return };
    let prefix = sibling(target, ".");
    let prefix = prefix.file_name().unwrap_or_default().to_string_lossy();
    let prefix = prefix.trim_end_matches(STAGED_SUFFIX);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(tag) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|n| n.strip_suffix(STAGED_SUFFIX))
        else {
            continue;
        };
        let Some(pid) = tag.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new("/proc").join(pid.to_string()).exists() {
            remove_files(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::KnowledgeStore;

    fn memories(path: &Path) -> i64 {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.query_row("SELECT count(*) FROM memories", [], |row| row.get(0))
            .unwrap()
    }

    fn write_one(store: &mut dyn KnowledgeStore) {
        store
            .write_with(crate::store::contract::WritePermit::new(), &mut |tx| {
                tx.bulk_load(&mut |_| Ok(()))?;
                Ok(())
            })
            .unwrap();
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_staged_store_keeps_no_journal_on_disk_and_flushes_nothing_from_its_first_statement() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        let staged = StagedKb::create(&target, None).unwrap().unwrap();
        let pragma = |name: &str| -> String {
            staged
                .conn()
                .query_row(&format!("PRAGMA {name}"), [], |row| {
                    row.get::<_, rusqlite::types::Value>(0)
                })
                .map(|v| format!("{v:?}"))
                .unwrap()
        };
        assert_eq!(pragma("journal_mode"), r#"Text("memory")"#);
        assert_eq!(pragma("synchronous"), "Integer(0)", "OFF");
        assert_eq!(files_in(dir.path()).len(), 1, "{:?}", files_in(dir.path()));
    }

    #[test]
    fn a_published_store_appears_whole_under_the_subjects_name_and_nothing_else_stays() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        let mut staged = Box::new(StagedKb::create(&target, None).unwrap().unwrap());
        write_one(&mut *staged);
        assert!(!target.exists(), "not visible before it is published");
        assert!(staged.publish().unwrap());
        assert_eq!(files_in(dir.path()), ["profile-me.sqlite"]);
        assert_eq!(memories(&target), 0);
        let conn = rusqlite::Connection::open(&target).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "wal", "published in WAL mode like every store");
        assert!(KnowledgeBase::open_existing(&target).unwrap().is_some());
    }

    #[test]
    fn a_store_dropped_unpublished_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        let mut staged = StagedKb::create(&target, None).unwrap().unwrap();
        write_one(&mut staged);
        drop(staged);
        assert_eq!(files_in(dir.path()), Vec::<String>::new());
    }

    #[test]
    #[cfg(unix)]
    fn publishing_never_replaces_a_store_created_meanwhile() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        let staged = Box::new(StagedKb::create(&target, None).unwrap().unwrap());
        let theirs = KnowledgeBase::open_or_create(&target).unwrap();
        let inode = std::fs::metadata(&target).unwrap().ino();
        assert!(!staged.publish().unwrap());
        assert_eq!(std::fs::metadata(&target).unwrap().ino(), inode);
        drop(theirs);
        // Theirs, with its (emptied) log kept; nothing of the staged one.
        assert_eq!(
            files_in(dir.path()),
            [
                "profile-me.sqlite",
                "profile-me.sqlite-shm",
                "profile-me.sqlite-wal"
            ]
        );
    }

    #[test]
    fn an_existing_store_is_not_staged_again_and_what_a_dead_process_staged_for_it_goes() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        drop(KnowledgeBase::open_or_create(&target).unwrap());
        let dead = sibling(&target, ".4294967295-0");
        std::fs::write(&dead, b"").unwrap();
        assert!(StagedKb::create(&target, None).unwrap().is_none());
        assert!(!dead.exists());
    }

    #[test]
    fn a_store_a_dead_process_staged_is_deleted_and_a_live_ones_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("profile-me.sqlite");
        // Process ids are below 2^22 on Linux, so this one runs nowhere.
        let dead = sibling(&target, ".4294967295-0");
        let live = sibling(&target, &format!(".{}-999", std::process::id()));
        let other = dir.path().join(".profile-you.sqlite.4294967295-0.staged");
        for path in [&dead, &live, &other] {
            std::fs::write(path, b"").unwrap();
        }
        let staged = StagedKb::create(&target, None).unwrap().unwrap();
        assert!(!dead.exists(), "a dead process's store is deleted");
        assert!(live.exists(), "a running process's store is kept");
        assert!(
            other.exists(),
            "another subject's is not this staging's business"
        );
        drop(staged);
    }
}
