//! Where knowledge bases live, and finding the ones left under the project's old name.
//!
//! kenning was called engram. Knowledge bases written then sit in `$ENGRAM_HOME`,
//! `$XDG_DATA_HOME/engram` or `~/.local/share/engram`; [`adopt_legacy_stores`] moves them to
//! today's directory so that no one's memories are silently abandoned. Another program also
//! uses those directories, so only files that are kenning knowledge bases by name and by their
//! SQLite `application_id` are moved, and nothing is ever overwritten.

use std::path::{Path, PathBuf};

use crate::store::APPLICATION_ID;

/// The file, inside the data directory, that holds the HTTP API's tokens' hashes (the server's,
/// but re-encrypted with the knowledge bases by `kenning encrypt` and `kenning rekey`).
pub const TOKENS_FILE: &str = "tokens.sqlite";

/// The data directory: `KENNING_HOME`, else `$XDG_DATA_HOME/kenning`, else
/// `~/.local/share/kenning` (`--data-dir` overrides all of these).
pub fn default_data_dir() -> PathBuf {
    named_data_dir("KENNING_HOME", "kenning")
}

/// Where the same rules found knowledge bases under the old name.
pub fn legacy_data_dir() -> PathBuf {
    named_data_dir("ENGRAM_HOME", "engram")
}

fn named_data_dir(variable: &str, name: &str) -> PathBuf {
    if let Some(home) = std::env::var_os(variable).filter(|v| !v.is_empty()) {
        return PathBuf::from(home);
    }
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg).join(name);
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home).join(".local/share").join(name),
        None => PathBuf::from(format!(".{name}")),
    }
}

/// Moves the old name's knowledge bases into the default data directory when that is the one
/// in use (`KENNING_HOME` unset; the caller gave no directory of its own): a directory the user
/// named is theirs to fill. Returns the line to tell the user, if anything was found.
pub fn adopt_into_default_data_dir() -> Option<String> {
    if std::env::var_os("KENNING_HOME").is_some_and(|v| !v.is_empty()) {
        return None;
    }
    let (legacy, data_dir) = (legacy_data_dir(), default_data_dir());
    adopt_legacy_stores(&legacy, &data_dir).summary(&legacy, &data_dir)
}

/// What [`adopt_legacy_stores`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Adoption {
    /// Knowledge bases moved (their main files, now in the new directory).
    pub moved: Vec<PathBuf>,
    /// Knowledge bases left where they were, each with the reason.
    pub left: Vec<(PathBuf, String)>,
}

impl Adoption {
    /// One line for the user, or `None` when nothing was found.
    pub fn summary(&self, from: &Path, to: &Path) -> Option<String> {
        if self.moved.is_empty() && self.left.is_empty() {
            return None;
        }
        let mut line = format!(
            "kenning (formerly engram): moved {} knowledge base(s) from {} to {}",
            self.moved.len(),
            from.display(),
            to.display()
        );
        if let Some((path, why)) = self.left.first() {
            line.push_str(&format!(
                "; left {} in place ({}: {why}), move it by hand",
                self.left.len(),
                path.display()
            ));
        }
        Some(line)
    }
}

/// Moves kenning knowledge bases (with their write-ahead log, shared-memory and backup files)
/// from `legacy` to `data_dir`. Files that are not kenning's, and files whose name is taken in
/// `data_dir`, stay where they are.
pub fn adopt_legacy_stores(legacy: &Path, data_dir: &Path) -> Adoption {
    let mut adoption = Adoption::default();
    if legacy == data_dir {
        return adoption;
    }
    let Ok(entries) = std::fs::read_dir(legacy) else {
        return adoption;
    };
    let mut stores: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| is_store_name(path) && is_kenning_store(path))
        .collect();
    stores.sort();
    for store in stores {
        let name = store
            .file_name()
            .expect("store files have names")
            .to_owned();
        let target = data_dir.join(&name);
        if target.exists() {
            adoption
                .left
                .push((store, format!("{} exists", target.display())));
            continue;
        }
        if let Err(error) = crate::private::create_dir_all(data_dir) {
            adoption.left.push((store, error.to_string()));
            continue;
        }
        // The log first: a store moved without its log would lose the commits still in it.
        let name = name.to_string_lossy().into_owned();
        let companions = ["-wal", "-shm"]
            .map(|suffix| format!("{name}{suffix}"))
            .into_iter()
            .chain(backups_of(legacy, &name));
        let moved = companions
            .filter(|file| legacy.join(file).exists())
            .try_for_each(|file| std::fs::rename(legacy.join(&file), data_dir.join(&file)))
            .and_then(|()| std::fs::rename(&store, &target));
        match moved {
            Ok(()) => adoption.moved.push(target),
            Err(error) => adoption.left.push((store, error.to_string())),
        }
    }
    adoption
}

/// `binary-*.sqlite`, `account-*.sqlite` or `profile-*.sqlite`.
fn is_store_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.ends_with(".sqlite")
        && ["binary-", "account-", "profile-"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

/// Whether the SQLite header carries kenning's `application_id`, read through SQLite (see
/// [`crate::encryption::sniff`] for why never through a descriptor of our own).
fn is_kenning_store(path: &Path) -> bool {
    crate::encryption::open_immutable(path, None).is_ok_and(|conn| {
        conn.query_row("PRAGMA application_id", [], |row| row.get::<_, i32>(0))
            .is_ok_and(|id| id == APPLICATION_ID)
    })
}

/// The names of `name`'s migration backups (`NAME.vN.bak`) in `dir`.
fn backups_of(dir: &Path, name: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|file| {
                    file.strip_prefix(name)
                        .and_then(|rest| rest.strip_prefix(".v"))
                        .is_some_and(|rest| rest.ends_with(".bak"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::KnowledgeBase;

    #[test]
    fn knowledge_bases_under_the_old_name_are_moved_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let legacy = root.path().join("engram");
        let data = root.path().join("kenning");
        std::fs::create_dir_all(&legacy).unwrap();
        let ours = legacy.join("profile-me.sqlite");
        drop(KnowledgeBase::open_or_create(&ours).unwrap());
        std::fs::write(legacy.join("profile-me.sqlite.v1.bak"), b"backup").unwrap();
        // Another program's database with a store-like name, and an unrelated file.
        let theirs = legacy.join("account-other.sqlite");
        rusqlite::Connection::open(&theirs)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        std::fs::write(legacy.join("memories.db"), b"not ours").unwrap();

        let adoption = adopt_legacy_stores(&legacy, &data);
        assert_eq!(adoption.moved, vec![data.join("profile-me.sqlite")]);
        assert!(adoption.left.is_empty());
        assert!(
            KnowledgeBase::open_existing(&data.join("profile-me.sqlite"))
                .unwrap()
                .is_some()
        );
        assert!(data.join("profile-me.sqlite.v1.bak").exists());
        assert!(!ours.exists());
        assert!(theirs.exists(), "another program's file stays");
        assert!(legacy.join("memories.db").exists());
        assert!(
            adoption
                .summary(&legacy, &data)
                .unwrap()
                .contains("moved 1")
        );
    }

    #[test]
    fn a_store_whose_name_is_taken_is_left_in_place_and_reported() {
        let root = tempfile::tempdir().unwrap();
        let legacy = root.path().join("engram");
        let data = root.path().join("kenning");
        std::fs::create_dir_all(&legacy).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        drop(KnowledgeBase::open_or_create(&legacy.join("profile-me.sqlite")).unwrap());
        drop(KnowledgeBase::open_or_create(&data.join("profile-me.sqlite")).unwrap());
        let adoption = adopt_legacy_stores(&legacy, &data);
        assert!(adoption.moved.is_empty());
        assert_eq!(adoption.left.len(), 1);
        assert!(legacy.join("profile-me.sqlite").exists());
        assert!(
            adoption
                .summary(&legacy, &data)
                .unwrap()
                .contains("move it by hand")
        );
    }

    #[test]
    fn nothing_found_says_nothing() {
        let root = tempfile::tempdir().unwrap();
        let adoption = adopt_legacy_stores(&root.path().join("none"), root.path());
        assert_eq!(adoption.summary(root.path(), root.path()), None);
    }
}
