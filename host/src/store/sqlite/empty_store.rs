//! A new store is a copy of one empty store, made once per process.
//!
//! Creating a store ran every migration's DDL, in a rollback-journal transaction to switch it
//! to WAL and then one to migrate, with half a dozen flushes and a journal file made and
//! unlinked: most of what a server's first write to a new subject cost (`perf` under `kenning
//! bench`'s many-subjects load). The empty store those steps make is the same bytes every time,
//! so a process makes it once (in a scratch folder beside the first store, as a staged store is
//! made, then switched to WAL) and each new plaintext store is those bytes written, flushed and
//! linked into place ([`crate::private::publish_new_file`]): two flushes, nothing parsed. An
//! encrypted store is still made by the migrations, under its own key and salt.

use std::path::Path;
use std::sync::OnceLock;

use super::connection::KnowledgeBase;
use crate::error::{KenningError, Result};

/// The bytes of an empty store at this build's schema, in WAL mode, once made.
static IMAGE: OnceLock<Vec<u8>> = OnceLock::new();

/// Creates the plaintext store at `path` from the empty store's image, unless a file is there
/// already (`Ok(false)`). On an error nothing is at `path` that was not there before, and the
/// caller creates the store by migrating it, which says what is wrong in its own terms.
pub(super) fn create(path: &Path) -> Result<bool> {
    let image = match IMAGE.get() {
        Some(image) => image,
        None => {
            let folder = path.parent().filter(|dir| !dir.as_os_str().is_empty());
            let made = make_image(folder.unwrap_or(Path::new(".")))?;
            IMAGE.get_or_init(|| made)
        }
    };
    crate::private::publish_new_file(path, image)
}

/// Makes an empty store in a scratch folder inside `folder` and reads it back.
fn make_image(folder: &Path) -> Result<Vec<u8>> {
    let io = |source| KenningError::Io {
        path: folder.to_owned(),
        source,
    };
    let scratch = tempfile::Builder::new()
        .prefix(".kenning-empty-store")
        .tempdir_in(folder)
        .map_err(io)?;
    let path = scratch.path().join("empty.sqlite");
    KnowledgeBase::create_staged(&path, None)?.fold_log_and_close()?;
    std::fs::read(&path).map_err(|source| KenningError::Io { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::schema::{APPLICATION_ID, CURRENT_VERSION};

    /// Every schema object's SQL, in order: what two stores must agree on.
    fn schema_of(path: &Path) -> Vec<(String, String, Option<String>)> {
        let conn = rusqlite::Connection::open(path).unwrap();
        let mut stmt = conn
            .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .unwrap();
        stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn a_store_made_from_the_image_is_the_store_the_migrations_make() {
        let dir = tempfile::tempdir().unwrap();
        let copied = dir.path().join("profile-copied.sqlite");
        assert!(create(&copied).unwrap());
        let migrated = dir.path().join("profile-migrated.sqlite");
        KnowledgeBase::create_staged(&migrated, None)
            .unwrap()
            .fold_log_and_close()
            .unwrap();
        assert_eq!(schema_of(&copied), schema_of(&migrated));
        let conn = rusqlite::Connection::open(&copied).unwrap();
        let header: (i64, i64, String) = conn
            .query_row(
                "SELECT (SELECT user_version FROM pragma_user_version),
                        (SELECT application_id FROM pragma_application_id),
                        (SELECT journal_mode FROM pragma_journal_mode)",
                [],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            header,
            (CURRENT_VERSION, i64::from(APPLICATION_ID), "wal".to_owned())
        );
    }

    #[test]
    fn an_existing_file_is_never_replaced_by_the_image() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profile-me.sqlite");
        std::fs::write(&path, b"someone else's bytes").unwrap();
        assert!(!create(&path).unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"someone else's bytes");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("profile-me.sqlite")]);
    }
}
