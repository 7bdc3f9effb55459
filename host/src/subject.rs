//! Subjects: what a knowledge base is about, and where its file lives.
//!
//! A spec names the subject on the command line and in tool calls:
//!
//! | spec | subject | key |
//! | --- | --- | --- |
//! | `file:PATH` or an existing `PATH` | a binary under analysis | MD5 of the file's bytes |
//! | `db:PATH` | a binary known only by its analysis database | MD5 of the absolute path |
//! | `account:NAME` | a chat account | the name |
//! | `profile:NAME` | a personal profile or project | the name |

use std::fmt;
use std::path::{Path, PathBuf};

use kenning_contract::types::SubjectKind;
use md5::{Digest, Md5};

use crate::error::{KenningError, Result};

/// What a knowledge base is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// Binary, account or profile.
    pub kind: SubjectKind,
    /// The stable key: an MD5 in hex for binaries, the name otherwise.
    pub key: String,
    /// What the user called it (a path or a name), for messages.
    pub label: String,
}

impl Subject {
    /// Parses and resolves a subject spec (see the module docs). Reads the file to hash it.
    pub fn parse(spec: &str) -> Result<Subject> {
        let bad = |problem: &str| KenningError::BadSubject {
            spec: spec.to_owned(),
            problem: problem.to_owned(),
        };
        if let Some(name) = spec.strip_prefix("account:") {
            return Self::named(SubjectKind::Account, name).ok_or_else(|| bad(NAME_RULE));
        }
        if let Some(name) = spec.strip_prefix("profile:") {
            return Self::named(SubjectKind::Profile, name).ok_or_else(|| bad(NAME_RULE));
        }
        if let Some(path) = spec.strip_prefix("db:") {
            let absolute = std::path::absolute(path).map_err(|e| bad(&e.to_string()))?;
            return Ok(Subject {
                kind: SubjectKind::Binary,
                key: md5_hex(absolute.to_string_lossy().as_bytes()),
                label: absolute.display().to_string(),
            });
        }
        let path = spec.strip_prefix("file:").unwrap_or(spec);
        if spec.is_empty() {
            return Err(bad(
                "empty; use file:PATH, db:PATH, account:NAME or profile:NAME",
            ));
        }
        if !Path::new(path).is_file() {
            return Err(bad(
                "no such file; use file:PATH for a binary, db:PATH, account:NAME or profile:NAME",
            ));
        }
        let bytes = std::fs::read(path).map_err(|source| KenningError::Io {
            path: PathBuf::from(path),
            source,
        })?;
        Ok(Subject {
            kind: SubjectKind::Binary,
            key: md5_hex(&bytes),
            label: path.to_owned(),
        })
    }

    fn named(kind: SubjectKind, name: &str) -> Option<Subject> {
        let valid = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            && !name.starts_with('.');
        valid.then(|| Subject {
            kind,
            key: name.to_owned(),
            label: name.to_owned(),
        })
    }

    /// The spec that names this subject again: `profile:NAME`, `account:NAME`, or the path a
    /// binary was given by.
    pub fn spec(&self) -> String {
        match self.kind {
            SubjectKind::Profile => format!("profile:{}", self.key),
            SubjectKind::Account => format!("account:{}", self.key),
            SubjectKind::Binary => self.label.clone(),
        }
    }

    /// The name its knowledge base is stored under: `binary-MD5`, `account-NAME` or
    /// `profile-NAME`.
    pub fn store_name(&self) -> String {
        format!("{}-{}", self.kind, self.key)
    }

    /// The knowledge base's file name inside the data directory.
    pub fn file_name(&self) -> String {
        format!("{}.sqlite", self.store_name())
    }

    /// The subject whose knowledge base has this file name (see [`Subject::file_name`]); a
    /// binary is labelled by its key, since its path is not recorded. `None` for any other
    /// name.
    pub fn from_file_name(file_name: &str) -> Option<Subject> {
        Self::from_store_name(file_name.strip_suffix(".sqlite")?)
    }

    /// The subject stored under this name (see [`Subject::store_name`]); `None` for any
    /// other name.
    pub fn from_store_name(stem: &str) -> Option<Subject> {
        if let Some(key) = stem.strip_prefix("binary-") {
            let is_md5 =
                key.len() == 32 && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            return is_md5.then(|| Subject {
                kind: SubjectKind::Binary,
                key: key.to_owned(),
                label: format!("binary-{key}"),
            });
        }
        if let Some(name) = stem.strip_prefix("account-") {
            return Self::named(SubjectKind::Account, name);
        }
        Self::named(SubjectKind::Profile, stem.strip_prefix("profile-")?)
    }

    /// The knowledge base's path under `data_dir`.
    pub fn store_path(&self, data_dir: &Path) -> PathBuf {
        data_dir.join(self.file_name())
    }
}

const NAME_RULE: &str =
    "a name is 1 to 64 characters of A-Z a-z 0-9 _ - . and does not start with '.'";

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            SubjectKind::Binary => write!(f, "binary {} ({})", self.label, &self.key[..12]),
            SubjectKind::Account => write!(f, "account {}", self.key),
            SubjectKind::Profile => write!(f, "profile {}", self.key),
        }
    }
}

fn md5_hex(bytes: &[u8]) -> String {
    crate::hex::lower(&Md5::digest(bytes))
}

pub use crate::home::default_data_dir;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_file_name_gives_back_its_subject_and_no_other_name_does() {
        for spec in ["profile:me", "account:alice.b-2"] {
            let subject = Subject::parse(spec).unwrap();
            assert_eq!(Subject::from_file_name(&subject.file_name()), Some(subject));
        }
        let binary = Subject::from_file_name("binary-0123456789abcdef0123456789abcdef.sqlite");
        assert_eq!(binary.map(|s| s.kind), Some(SubjectKind::Binary));
        for name in [
            "profile-me.sqlite-wal",
            "profile-.sqlite",
            "binary-xyz.sqlite",
            "other-me.sqlite",
            "tokens.json",
            "profile-me.v2.bak",
        ] {
            assert_eq!(Subject::from_file_name(name), None, "{name}");
        }
    }

    #[test]
    fn a_binary_is_keyed_by_the_md5_of_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.out");
        std::fs::write(&path, b"hello").unwrap();
        let subject = Subject::parse(path.to_str().unwrap()).unwrap();
        assert_eq!(subject.kind, SubjectKind::Binary);
        assert_eq!(subject.key, "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(
            subject.file_name(),
            "binary-5d41402abc4b2a76b9719d911017c592.sqlite"
        );
        // Same bytes elsewhere: the same knowledge base.
        let copy = dir.path().join("copy");
        std::fs::write(&copy, b"hello").unwrap();
        assert_eq!(
            Subject::parse(&format!("file:{}", copy.display()))
                .unwrap()
                .key,
            subject.key
        );
    }

    #[test]
    fn a_database_path_is_keyed_by_the_hash_of_its_absolute_path() {
        let a = Subject::parse("db:/tmp/x.i64").unwrap();
        let b = Subject::parse("db:/tmp/y.i64").unwrap();
        assert_ne!(a.key, b.key);
        assert_eq!(a.key.len(), 32);
    }

    #[test]
    fn names_are_checked_and_missing_files_are_refused() {
        assert_eq!(
            Subject::parse("account:alice").unwrap().file_name(),
            "account-alice.sqlite"
        );
        for bad in ["profile:../etc", "account:"] {
            let err = Subject::parse(bad).unwrap_err().to_string();
            assert!(err.contains(NAME_RULE), "{bad}: {err}");
        }
        let err = Subject::parse("/no/such/file").unwrap_err().to_string();
        assert!(err.contains("no such file"), "{err}");
    }
}
