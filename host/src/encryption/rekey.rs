//! Moving a data directory from one key to another (`kenning rekey`): every encrypted
//! knowledge base, its encrypted migration backups and the tokens file, each re-encrypted in
//! one atomic replace ([`encryption::rekey_in_place`]).
//!
//! Before anything is changed, every encrypted file is checked to open with the old key or
//! the new one: a file neither opens (the old key is wrong, or the file has a key of its own)
//! refuses the whole run with nothing changed. Files the new key already opens are left as they
//! are, so a run that stopped half-way (a store in use, a full disk) is finished by running it
//! again. Plaintext files are not touched: they are reported, for `kenning encrypt`.

use std::path::{Path, PathBuf};

use super::{FileKind, StoreKey};
use crate::encryption;
use crate::error::{KenningError, Result};
use crate::home::TOKENS_FILE;
use crate::subject::Subject;

/// What [`rekey_data_dir`] did, file by file, in the order it went.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RekeyReport {
    /// Files re-encrypted from the old key to the new one.
    pub rekeyed: Vec<PathBuf>,
    /// Encrypted files the new key already opened, left as they were.
    pub already: Vec<PathBuf>,
    /// Plaintext files, left as they were (`kenning encrypt` encrypts them).
    pub plaintext: Vec<PathBuf>,
}

/// Re-encrypts every encrypted store of `data_dir` (knowledge bases, their migration backups,
/// `tokens.sqlite`) from `old` to `new`, one atomic replace each. Calls `done` after each file
/// is settled, so a caller can say what was done even if a later file fails.
///
/// Refused, with nothing changed, when `new` is `old`, or when an encrypted file opens with
/// neither key ([`crate::error::KeyProblem::Wrong`], naming it). A file in use by another process
/// stops the run there ([`KenningError::Conflict`]): the files before it are under the new key,
/// it and the rest still under the old one, and running again finishes the work.
pub fn rekey_data_dir(
    data_dir: &Path,
    old: &StoreKey,
    new: &StoreKey,
    mut done: impl FnMut(&Path, bool),
) -> Result<RekeyReport> {
    if encryption::same_key(old, new) {
        return Err(KenningError::Usage(
            "the new key is the same as the old one: nothing to do".to_owned(),
        ));
    }
    let mut report = RekeyReport::default();
    // Look at every file first: nothing is changed unless every encrypted file opens.
    let mut to_rekey = Vec::new();
    for path in store_files(data_dir)? {
        match encryption::sniff(&path)? {
            FileKind::Plain => report.plaintext.push(path),
            FileKind::Encrypted => {
                if encryption::which_key_opens(&path, old, new)? {
                    to_rekey.push(path);
                } else {
                    report.already.push(path);
                }
            }
            // A store another process has only begun to create, or no store at all.
            FileKind::Empty | FileKind::NotSqlite => {}
        }
    }
    for path in &report.already {
        done(path, false);
    }
    for path in to_rekey {
        encryption::rekey_in_place(&path, old, new)?;
        done(&path, true);
        report.rekeyed.push(path);
    }
    Ok(report)
}

/// The SQLite files of a data directory that hold kenning's data: each knowledge base
/// (`binary-*`, `account-*`, `profile-*.sqlite`), its migration backups (`NAME.vN.bak`) and
/// `tokens.sqlite`, sorted. Logs and staged stores are not among them.
fn store_files(data_dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(data_dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(KenningError::Io {
                path: data_dir.to_owned(),
                source,
            });
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name().into_string().ok()?;
            let ours = name == TOKENS_FILE
                || Subject::from_file_name(&name).is_some()
                || backup_of(&name).is_some_and(|store| Subject::from_file_name(store).is_some());
            (ours && entry.file_type().ok()?.is_file()).then(|| entry.path())
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The store a migration backup's name (`NAME.vN.bak`) belongs to.
fn backup_of(name: &str) -> Option<&str> {
    let (store, version) = name.strip_suffix(".bak")?.rsplit_once(".v")?;
    (!version.is_empty() && version.bytes().all(|b| b.is_ascii_digit())).then_some(store)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::KnowledgeBase;

    /// A raw key (no key derivation: opening stays quick), one for each `n`.
    fn key(n: u8) -> StoreKey {
        StoreKey::new(&format!("{n:064x}"), "test").unwrap()
    }

    #[test]
    fn every_store_moves_to_the_new_key_and_a_second_run_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (old, new) = (key(1), key(2));
        let stores = ["profile-me.sqlite", "account-team.sqlite"].map(|n| dir.path().join(n));
        for store in &stores {
            drop(KnowledgeBase::open_or_create_keyed(store, Some(&old)).unwrap());
        }
        // A migration backup is a copy under the same key.
        let backup = dir.path().join("profile-me.sqlite.v3.bak");
        std::fs::copy(&stores[0], &backup).unwrap();
        let plain = dir.path().join("profile-plain.sqlite");
        drop(KnowledgeBase::open_or_create(&plain).unwrap());
        std::fs::write(dir.path().join("notes.txt"), b"not a store").unwrap();

        let mut said = Vec::new();
        let report = rekey_data_dir(dir.path(), &old, &new, |path, rekeyed| {
            said.push((path.to_owned(), rekeyed))
        })
        .unwrap();
        let mut expected = stores.to_vec();
        expected.push(backup.clone());
        expected.sort();
        assert_eq!(report.rekeyed, expected);
        assert_eq!(report.plaintext, vec![plain.clone()]);
        assert!(report.already.is_empty());
        assert_eq!(said.len(), 3);
        for store in &expected {
            let new_opens = !encryption::which_key_opens(store, &old, &new).unwrap();
            assert!(new_opens, "{}", store.display());
        }

        let again = rekey_data_dir(dir.path(), &old, &new, |_, _| {}).unwrap();
        assert!(again.rekeyed.is_empty());
        assert_eq!(again.already, expected);
    }

    #[test]
    fn a_file_neither_key_opens_refuses_the_run_before_anything_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (old, new, other) = (key(1), key(2), key(3));
        let mine = dir.path().join("account-a.sqlite");
        let theirs = dir.path().join("profile-z.sqlite");
        drop(KnowledgeBase::open_or_create_keyed(&mine, Some(&old)).unwrap());
        drop(KnowledgeBase::open_or_create_keyed(&theirs, Some(&other)).unwrap());
        let before = std::fs::read(&mine).unwrap();
        let error = rekey_data_dir(dir.path(), &old, &new, |_, _| {}).unwrap_err();
        assert!(
            matches!(&error, KenningError::Key { path, problem: crate::error::KeyProblem::Wrong } if path == &theirs),
            "{error}"
        );
        assert_eq!(std::fs::read(&mine).unwrap(), before, "nothing changed");
        let same = rekey_data_dir(dir.path(), &old, &key(1), |_, _| {}).unwrap_err();
        assert!(same.to_string().contains("the same"), "{same}");
    }

    #[test]
    fn backups_are_known_by_their_store_and_version() {
        assert_eq!(
            backup_of("profile-me.sqlite.v3.bak"),
            Some("profile-me.sqlite")
        );
        assert_eq!(backup_of("profile-me.sqlite.vx.bak"), None);
        assert_eq!(backup_of("profile-me.sqlite.v.bak"), None);
        assert_eq!(backup_of("profile-me.sqlite"), None);
    }
}
