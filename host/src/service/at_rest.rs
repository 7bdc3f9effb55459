//! Encryption at rest of a knowledge base that was written in plaintext: `kenning encrypt`'s
//! behaviour. The file is replaced atomically (see [`crate::encryption::encrypt_in_place`]);
//! its plaintext migration backups are named, never touched.

use std::path::PathBuf;

use super::Service;
use crate::error::{KenningError, Result};
use crate::subject::Subject;

/// What [`Service::encrypt_store`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encrypted {
    /// The knowledge base's file, now encrypted with the service's key.
    pub path: PathBuf,
    /// Plaintext copies of it left beside it (its migration backups, `<file>.vN.bak`), which
    /// the caller should tell the user about: they still hold what the store held.
    pub plaintext_copies: Vec<PathBuf>,
}

impl Service {
    /// Encrypts `subject`'s plaintext knowledge base with the service's store key, after
    /// checking that it is a kenning knowledge base this build reads. Refused without a key
    /// (a PostgreSQL store never has one: the database encrypts at rest by its own means), for
    /// a subject without a knowledge base, and for one already encrypted.
    pub fn encrypt_store(&self, subject: &Subject) -> Result<Encrypted> {
        let key = self.key.as_ref().ok_or_else(|| {
            KenningError::Usage(format!(
                "no key is configured to encrypt {subject}'s knowledge base with"
            ))
        })?;
        let path = self.backend.location(subject);
        if !path.is_file() {
            return Err(KenningError::UnknownSubject {
                subject: subject.to_string(),
                path,
            });
        }
        let plaintext_copies = crate::store::sqlite::connection::encrypt_store(&path, key)?;
        Ok(Encrypted {
            path,
            plaintext_copies,
        })
    }
}
