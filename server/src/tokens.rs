//! Bearer tokens for the HTTP API: who a caller is (their role, the author of every write
//! they make) and which subjects they reach.
//!
//! A token is shown once, when it is made (`kenning token create`); only the SHA-256 of it is
//! kept, in `tokens.sqlite` in the data directory, beside its public id (which `token list`
//! shows and `token revoke` takes), its role and its subjects. A revoked token is kept, marked,
//! so the list stays an honest history. With a PostgreSQL store the same rows live in its
//! database instead ([`database`]), shared by every server on it.

#[cfg(feature = "postgres")]
mod database;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use kenning_contract::types::SubjectKind;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use kenning::encryption::{self, StoreKey};
use kenning::error::{KenningError, Result};
use kenning::subject::Subject;
use kenning_contract::args::Author;

pub use kenning::home::TOKENS_FILE;

/// What every token starts with, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "kn_";

/// A token's role: the author of every write made with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user: writes are NATIVE, may review and change settings.
    Human,
    /// The host's own agent: writes are NATIVE; it may not edit a human's memories in place.
    Agent,
    /// An outside client: writes are PENDING until a human accepts them.
    External,
}

impl Role {
    /// The author of writes made with this role.
    pub fn author(self) -> Author {
        match self {
            Role::Human => Author::Human,
            Role::Agent => Author::Agent,
            Role::External => Author::External,
        }
    }

    /// The role's name.
    pub fn as_str(self) -> &'static str {
        self.author().as_str()
    }

    /// Parses `human`, `agent` or `external`.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "human" => Some(Role::Human),
            "agent" => Some(Role::Agent),
            "external" => Some(Role::External),
            _ => None,
        }
    }
}

/// A subject a token reaches: the spec it is named by in URLs, and where its store is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredSubject {
    spec: String,
    kind: String,
    key: String,
    label: String,
}

/// A token as `token list` shows it (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    /// The public id (`token revoke ID`).
    pub id: String,
    /// Its role.
    pub role: Role,
    /// The subjects it reaches, by spec.
    pub subjects: Vec<String>,
    /// Made at (seconds since the epoch).
    pub created_at: i64,
    /// Revoked at, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<i64>,
}

/// What a valid token grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The token's public id.
    pub id: String,
    /// Its role.
    pub role: Role,
    /// The subjects it reaches, each with the spec that names it, in the order it was given
    /// them (the first is an MCP client's default).
    pub subjects: Vec<(String, Subject)>,
    /// Where each spec is in `subjects`: a token may reach thousands.
    by_spec: HashMap<String, usize>,
}

impl Grant {
    /// A grant of `subjects` to the token `id` with `role`.
    fn new(id: String, role: Role, subjects: Vec<(String, Subject)>) -> Grant {
        let by_spec = subjects
            .iter()
            .enumerate()
            .map(|(at, (spec, _))| (spec.clone(), at))
            .collect();
        Grant {
            id,
            role,
            subjects,
            by_spec,
        }
    }

    /// The subject named `spec`, if this grant reaches it.
    pub fn subject(&self, spec: &str) -> Option<&Subject> {
        self.by_spec.get(spec).map(|&at| &self.subjects[at].1)
    }
}

/// The grants verified since the tokens file last changed, by the token's hash, so that a
/// token reaching thousands of subjects is read once rather than on every request.
#[derive(Default)]
struct Verified {
    /// When the database's change counter was last read (a shared store; see
    /// [`database::FRESHNESS`]).
    #[cfg(feature = "postgres")]
    checked_at: Option<std::time::Instant>,
    /// The tokens file's `PRAGMA data_version` when these were read: SQLite changes it when
    /// another connection commits (`kenning token revoke` in another process), and then
    /// every grant here is read again. This store's own writes clear the grants themselves.
    data_version: i64,
    grants: HashMap<String, Arc<Grant>>,
}

/// Most grants [`Verified`] keeps; past it, it starts again.
const MAX_VERIFIED: usize = 1024;

/// The tokens of a data directory.
///
/// The tokens file is made by the first token made, never before: opening the store, listing,
/// verifying and every refused command (a bad subject, an unknown id, a server that will not
/// start) leave a data directory without one as it was.
pub struct TokenStore {
    /// The open tokens file; `None` while there is none.
    conn: Mutex<Option<Connection>>,
    /// Grants read since the file last changed; locked only while `conn` is.
    verified: Mutex<Verified>,
    path: PathBuf,
    key: Option<StoreKey>,
    /// The tokens in a PostgreSQL store's database, instead of the file.
    #[cfg(feature = "postgres")]
    database: Option<database::DatabaseTokens>,
}

impl TokenStore {
    /// The tokens every server on the PostgreSQL database at `store` shares (in its tables,
    /// made if missing), or, without one, the data directory's file ([`TokenStore::open`]).
    pub fn open_for(
        data_dir: &Path,
        key: Option<&StoreKey>,
        store: Option<&str>,
    ) -> Result<TokenStore> {
        let Some(url) = store else {
            return TokenStore::open(data_dir, key);
        };
        #[cfg(feature = "postgres")]
        {
            let store = TokenStore {
                conn: Mutex::new(None),
                verified: Mutex::default(),
                path: data_dir.join(TOKENS_FILE),
                key: key.cloned(),
                database: Some(database::DatabaseTokens::connect(url)?),
            };
            store.adopt_file_tokens()?;
            Ok(store)
        }
        #[cfg(not(feature = "postgres"))]
        {
            let _ = url;
            Err(KenningError::Usage(
                "this build has no PostgreSQL support for tokens (kenning-server's postgres feature)".into(),
            ))
        }
    }

    /// Copies the data directory's file tokens (hashes, roles, subjects, revocations) into the
    /// database, those it does not hold yet: a server moved onto PostgreSQL keeps the tokens it
    /// had. From then on the database's rows are the ones in force; the file is left as it was.
    #[cfg(feature = "postgres")]
    fn adopt_file_tokens(&self) -> Result<()> {
        let Some(db) = &self.database else {
            return Ok(());
        };
        if !self.path.exists() {
            return Ok(());
        }
        let rows = self
            .with_conn(false, |conn| {
                let mut stmt = conn
                    .prepare("SELECT id, hash, role, subjects, created_at, revoked_at FROM tokens ORDER BY rowid")
                    .map_err(|e| self.err(e))?;
                let rows = stmt
                    .query_map([], |row| {
                        Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?))
                    })
                    .map_err(|e| self.err(e))?;
                rows.collect::<rusqlite::Result<Vec<_>>>().map_err(|e| self.err(e))
            })?
            .unwrap_or_default();
        let added = db.adopt(rows)?;
        if added > 0 {
            tracing::info!(added, file = %self.path.display(), "tokens copied from the data directory into the database");
        }
        Ok(())
    }

    /// Where the tokens are: the file, or the database.
    pub fn location(&self) -> String {
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            return db.location().to_owned();
        }
        self.path.display().to_string()
    }

    /// Opens the data directory's tokens file if there is one, encrypted with `key` like the
    /// knowledge bases (plaintext when `None`; see [`kenning::encryption`]). Without one
    /// nothing is created: [`TokenStore::create`] makes it (and the directory), `0600`, and
    /// until then, or until another process makes it, there are no tokens.
    pub fn open(data_dir: &Path, key: Option<&StoreKey>) -> Result<TokenStore> {
        let store = TokenStore {
            conn: Mutex::new(None),
            verified: Mutex::default(),
            path: data_dir.join(TOKENS_FILE),
            key: key.cloned(),
            #[cfg(feature = "postgres")]
            database: None,
        };
        store.with_conn(false, |_| Ok(()))?;
        Ok(store)
    }

    /// Runs `f` on the tokens file: `None` when there is none and `create` is false; with
    /// `create`, a missing file is made first.
    fn with_conn<T>(
        &self,
        create: bool,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut conn = self.lock();
        if conn.is_none() {
            if !create && !self.path.exists() {
                return Ok(None);
            }
            *conn = Some(self.connect()?);
        }
        f(conn.as_ref().expect("connected above")).map(Some)
    }

    /// Opens the tokens file, making it (and the data directory) when missing.
    fn connect(&self) -> Result<Connection> {
        let path = &self.path;
        let key = self.key.as_ref();
        let err = |source| KenningError::Store {
            path: path.clone(),
            source,
        };
        // Look before touching: a file the key does not open is left as it is.
        encryption::check_file(path, key)?;
        kenning::private::create_parent_dir(path)?;
        // Only hashes are kept, but who holds which subject is nobody else's business: the
        // file (and the journal SQLite makes beside it, with its mode) is 0600.
        kenning::private::create_store_file(path)?;
        let conn = Connection::open(path).map_err(err)?;
        encryption::apply(&conn, path, key)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(err)?;
        encryption::verify(&conn, path, key)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS tokens (
                 id TEXT PRIMARY KEY,
                 hash TEXT NOT NULL UNIQUE,
                 role TEXT NOT NULL,
                 subjects TEXT NOT NULL,
                 created_at INTEGER NOT NULL,
                 revoked_at INTEGER
             );",
        )
        .map_err(err)?;
        Ok(conn)
    }

    /// The tokens file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes a token for `subjects` (specs, each resolved now) with `role`, at `now`. Returns
    /// the token itself, which is never shown again, and its description.
    pub fn create(&self, subjects: &[String], role: Role, now: i64) -> Result<(String, TokenInfo)> {
        if subjects.is_empty() {
            return Err(KenningError::Usage(
                "a token needs at least one --subject".into(),
            ));
        }
        let mut stored: Vec<StoredSubject> = Vec::new();
        for spec in subjects {
            let subject = Subject::parse(spec)?;
            if stored.iter().any(|s| s.spec == *spec) {
                continue;
            }
            stored.push(StoredSubject {
                spec: spec.clone(),
                kind: subject.kind.as_str().to_owned(),
                key: subject.key,
                label: subject.label,
            });
        }
        let id = kenning::hex::lower(&random_bytes::<4>()?);
        let token = format!(
            "{TOKEN_PREFIX}{id}_{}",
            kenning::hex::lower(&random_bytes::<32>()?)
        );
        let subjects_json = serde_json::to_string(&stored).expect("subjects serialise");
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            db.insert(&id, &hash(&token), role.as_str(), &subjects_json, now)?;
            self.forget_verified();
            return Ok((
                token,
                TokenInfo {
                    id,
                    role,
                    subjects: stored.into_iter().map(|s| s.spec).collect(),
                    created_at: now,
                    revoked_at: None,
                },
            ));
        }
        self.with_conn(true, |conn| {
            conn.execute(
                "INSERT INTO tokens (id, hash, role, subjects, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    id,
                    hash(&token),
                    role.as_str(),
                    subjects_json,
                    now
                ],
            )
            .map_err(|e| self.err(e))
        })?;
        let info = TokenInfo {
            id,
            role,
            subjects: stored.into_iter().map(|s| s.spec).collect(),
            created_at: now,
            revoked_at: None,
        };
        Ok((token, info))
    }

    /// Every token, oldest first, revoked ones included.
    pub fn list(&self) -> Result<Vec<TokenInfo>> {
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            return Ok(db
                .rows()?
                .into_iter()
                .map(|r| info_of(r.id, &r.role, &r.subjects, r.created_at, r.revoked_at))
                .collect());
        }
        Ok(self
            .with_conn(false, |conn| self.list_in(conn))?
            .unwrap_or_default())
    }

    fn list_in(&self, conn: &Connection) -> Result<Vec<TokenInfo>> {
        let mut stmt = conn
            .prepare("SELECT id, role, subjects, created_at, revoked_at FROM tokens ORDER BY rowid")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, i64>(3)?,
                    row.get::<_, Option<i64>>(4)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, role, subjects, created_at, revoked_at) = row.map_err(|e| self.err(e))?;
            out.push(info_of(id, &role, &subjects, created_at, revoked_at));
        }
        Ok(out)
    }

    /// Revokes the token with public id `id` at `now`: from then on it is refused. Fails when
    /// there is no such token; revoking a revoked one changes nothing.
    pub fn revoke(&self, id: &str, now: i64) -> Result<TokenInfo> {
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            db.revoke(id, now)?;
            self.forget_verified();
        }
        #[cfg(feature = "postgres")]
        let in_file = self.database.is_none();
        #[cfg(not(feature = "postgres"))]
        let in_file = true;
        if in_file {
            self.revoke_in_file(id, now)?;
        }
        self.list()?
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| {
                KenningError::Usage(format!("no token with id {id:?} (see kenning token list)"))
            })
    }

    fn revoke_in_file(&self, id: &str, now: i64) -> Result<()> {
        self.with_conn(false, |conn| {
            conn.execute(
                "UPDATE tokens SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id, now],
            )
            .map_err(|e| self.err(e))?;
            // Under the connection's lock, so that no check runs between the revocation and
            // the grants it ends being forgotten.
            self.forget_verified();
            Ok(())
        })?;
        Ok(())
    }

    /// How many tokens are in force (not revoked).
    pub fn count_active(&self) -> Result<u64> {
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            return db.count_active();
        }
        let active = self.with_conn(false, |conn| {
            conn.query_row(
                "SELECT count(*) FROM tokens WHERE revoked_at IS NULL",
                [],
                |row| row.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
        })?;
        Ok(active.unwrap_or(0))
    }

    /// What `token` grants, or `None` when it is unknown or revoked. A grant is read from the
    /// file once and kept until the file changes ([`Verified`]), so a revocation, here or in
    /// another process, is refused from the next request on.
    pub fn verify(&self, token: &str) -> Result<Option<Arc<Grant>>> {
        if !token.starts_with(TOKEN_PREFIX) || token.len() > 128 {
            return Ok(None);
        }
        let hash = hash(token);
        #[cfg(feature = "postgres")]
        if let Some(db) = &self.database {
            return self.verify_shared(db, &hash);
        }
        let grant = self.with_conn(false, |conn| {
            let data_version: i64 = conn
                .prepare_cached("PRAGMA data_version")
                .and_then(|mut stmt| stmt.query_row([], |row| row.get(0)))
                .map_err(|e| self.err(e))?;
            let mut verified = self.verified.lock().unwrap_or_else(PoisonError::into_inner);
            if verified.data_version != data_version {
                verified.grants.clear();
                verified.data_version = data_version;
            }
            if let Some(grant) = verified.grants.get(&hash) {
                return Ok(Some(Arc::clone(grant)));
            }
            let Some(grant) = self.read_grant(conn, &hash)? else {
                return Ok(None);
            };
            let grant = Arc::new(grant);
            if verified.grants.len() >= MAX_VERIFIED {
                verified.grants.clear();
            }
            verified.grants.insert(hash.clone(), Arc::clone(&grant));
            Ok(Some(grant))
        })?;
        Ok(grant.flatten())
    }

    /// [`TokenStore::verify`] against the database: the cached grants are trusted for
    /// [`database::FRESHNESS`], then only while the change counter stands still.
    #[cfg(feature = "postgres")]
    fn verify_shared(
        &self,
        db: &database::DatabaseTokens,
        hash: &str,
    ) -> Result<Option<Arc<Grant>>> {
        let mut verified = self.verified.lock().unwrap_or_else(PoisonError::into_inner);
        let stale = verified
            .checked_at
            .is_none_or(|at| at.elapsed() >= database::FRESHNESS);
        if stale {
            let generation = db.generation()?;
            if generation != verified.data_version {
                verified.grants.clear();
                verified.data_version = generation;
            }
            verified.checked_at = Some(std::time::Instant::now());
        }
        if let Some(grant) = verified.grants.get(hash) {
            return Ok(Some(Arc::clone(grant)));
        }
        let Some((id, role, subjects)) = db.grant_row(hash)? else {
            return Ok(None);
        };
        let grant = Arc::new(grant_of(id, &role, &subjects));
        if verified.grants.len() >= MAX_VERIFIED {
            verified.grants.clear();
        }
        verified.grants.insert(hash.to_owned(), Arc::clone(&grant));
        Ok(Some(grant))
    }

    /// The grant of the token whose hash is `hash`, from the file, if it is in force.
    fn read_grant(&self, conn: &Connection, hash: &str) -> Result<Option<Grant>> {
        let row = conn
            .prepare_cached(
                "SELECT id, role, subjects FROM tokens WHERE hash = ?1 AND revoked_at IS NULL",
            )
            .and_then(|mut stmt| {
                stmt.query_row([hash], |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                    ))
                })
                .optional()
            })
            .map_err(|e| self.err(e))?;
        let Some((id, role, subjects)) = row else {
            return Ok(None);
        };
        Ok(Some(grant_of(id, &role, &subjects)))
    }

    /// Forgets every grant read: after this store's own writes, which do not change the
    /// file's `data_version` for its own connection. Called with the connection locked.
    fn forget_verified(&self) {
        self.verified
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .grants
            .clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Connection>> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn err(&self, source: rusqlite::Error) -> KenningError {
        KenningError::Store {
            path: self.path.clone(),
            source,
        }
    }
}

/// A grant from a stored row's id, role and subjects (JSON).
fn grant_of(id: String, role: &str, subjects: &str) -> Grant {
    let stored: Vec<StoredSubject> = serde_json::from_str(subjects).unwrap_or_default();
    let subjects = stored
        .into_iter()
        .filter_map(|s| {
            let kind = SubjectKind::parse(&s.kind)?;
            Some((
                s.spec,
                Subject {
                    kind,
                    key: s.key,
                    label: s.label,
                },
            ))
        })
        .collect();
    Grant::new(id, Role::parse(role).unwrap_or(Role::External), subjects)
}

/// A token's description from a stored row.
fn info_of(
    id: String,
    role: &str,
    subjects: &str,
    created_at: i64,
    revoked_at: Option<i64>,
) -> TokenInfo {
    let stored: Vec<StoredSubject> = serde_json::from_str(subjects).unwrap_or_default();
    TokenInfo {
        id,
        role: Role::parse(role).unwrap_or(Role::External),
        subjects: stored.into_iter().map(|s| s.spec).collect(),
        created_at,
        revoked_at,
    }
}

/// The stored form of a token: SHA-256, hex.
fn hash(token: &str) -> String {
    kenning::hex::lower(&Sha256::digest(token.as_bytes()))
}

fn random_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| KenningError::Io {
        path: "<system random source>".into(),
        source: std::io::Error::other(e.to_string()),
    })?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_grants_its_role_and_subjects_until_revoked() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path(), None).unwrap();
        let subjects = vec!["profile:me".to_owned(), "account:team".to_owned()];
        let (token, info) = store.create(&subjects, Role::External, 100).unwrap();
        assert!(token.starts_with(TOKEN_PREFIX) && token.contains(&info.id));
        let grant = store.verify(&token).unwrap().expect("valid");
        assert_eq!(grant.role, Role::External);
        assert_eq!(grant.subject("account:team").unwrap().key, "team");
        assert!(grant.subject("profile:other").is_none());
        assert_eq!(store.count_active().unwrap(), 1);
        let revoked = store.revoke(&info.id, 200).unwrap();
        assert_eq!(revoked.revoked_at, Some(200));
        assert!(store.verify(&token).unwrap().is_none());
        assert_eq!(store.count_active().unwrap(), 0);
        let unknown = store.revoke("nope", 300).unwrap_err().to_string();
        assert!(unknown.contains("no token with id \"nope\""), "{unknown}");
    }

    #[test]
    fn a_revocation_by_another_connection_is_refused_at_the_next_check() {
        let dir = tempfile::tempdir().unwrap();
        let server = TokenStore::open(dir.path(), None).unwrap();
        let (token, info) = server
            .create(&["profile:me".to_owned()], Role::Agent, 100)
            .unwrap();
        let first = server.verify(&token).unwrap().expect("valid");
        // Read once, then kept: the same grant answers while the file is unchanged.
        let again = server.verify(&token).unwrap().expect("still valid");
        assert!(Arc::ptr_eq(&first, &again));
        // `kenning token revoke` in another process: another connection to the file.
        TokenStore::open(dir.path(), None)
            .unwrap()
            .revoke(&info.id, 200)
            .unwrap();
        assert!(server.verify(&token).unwrap().is_none());
    }

    #[test]
    fn a_grant_finds_each_of_thousands_of_subjects_by_its_spec() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path(), None).unwrap();
        let subjects: Vec<String> = (0..3000).map(|n| format!("account:a{n}")).collect();
        let (token, _) = store.create(&subjects, Role::External, 1).unwrap();
        let grant = store.verify(&token).unwrap().expect("valid");
        assert_eq!(
            grant.subjects[0].0, "account:a0",
            "the first stays the default"
        );
        for spec in &subjects {
            assert_eq!(&grant.subject(spec).unwrap().key, &spec["account:".len()..]);
        }
        assert!(grant.subject("account:a3000").is_none());
    }

    #[test]
    fn no_tokens_file_is_made_until_the_first_token_and_a_store_opened_before_sees_it() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let waiting = TokenStore::open(&data, None).unwrap();
        assert!(waiting.list().unwrap().is_empty());
        assert_eq!(waiting.count_active().unwrap(), 0);
        assert!(waiting.verify("kn_00000000_00").unwrap().is_none());
        let unknown = waiting.revoke("nope", 1).unwrap_err().to_string();
        assert!(unknown.contains("no token with id"), "{unknown}");
        let nowhere = waiting
            .create(&["nowhere:x".to_owned()], Role::Human, 1)
            .unwrap_err()
            .to_string();
        assert!(nowhere.contains("nowhere"), "{nowhere}");
        assert!(!data.exists(), "nothing was made");

        let maker = TokenStore::open(&data, None).unwrap();
        let (token, _) = maker
            .create(&["profile:me".to_owned()], Role::Agent, 1)
            .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&data), 0o700);
            assert_eq!(mode(&data.join(TOKENS_FILE)), 0o600);
        }
        assert_eq!(waiting.verify(&token).unwrap().unwrap().role, Role::Agent);
    }

    #[test]
    fn only_the_hash_of_a_token_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path(), None).unwrap();
        let (token, _) = store
            .create(&["profile:me".to_owned()], Role::Human, 1)
            .unwrap();
        drop(store);
        let bytes = std::fs::read(dir.path().join(TOKENS_FILE)).unwrap();
        let secret = token.rsplit('_').next().unwrap();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the token's secret is not in the file"
        );
    }

    #[test]
    fn an_encrypted_tokens_file_opens_only_with_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let key = StoreKey::new("tokens passphrase", "test").unwrap();
        let store = TokenStore::open(dir.path(), Some(&key)).unwrap();
        let (token, _) = store
            .create(&["profile:plantedsubject".to_owned()], Role::Human, 1)
            .unwrap();
        drop(store);
        let path = dir.path().join(TOKENS_FILE);
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.windows(14).any(|w| w == b"plantedsubject"));
        let store = TokenStore::open(dir.path(), Some(&key)).unwrap();
        assert!(store.verify(&token).unwrap().is_some());
        drop(store);
        let missing = TokenStore::open(dir.path(), None)
            .err()
            .unwrap()
            .to_string();
        assert!(missing.contains("tokens.sqlite") && missing.contains("key missing"));
        let wrong = StoreKey::new("another", "test").unwrap();
        let wrong = TokenStore::open(dir.path(), Some(&wrong))
            .err()
            .unwrap()
            .to_string();
        assert!(wrong.contains("wrong key"), "{wrong}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "left untouched");
    }

    #[test]
    fn unknown_and_malformed_tokens_grant_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path(), None).unwrap();
        assert!(store.verify("kn_00000000_00").unwrap().is_none());
        assert!(store.verify("Bearer x").unwrap().is_none());
        assert!(store.verify(&"kn_".repeat(100)).unwrap().is_none());
        let none = store.create(&[], Role::Human, 1).unwrap_err().to_string();
        assert!(none.contains("at least one --subject"), "{none}");
        let nowhere = store
            .create(&["nowhere:x".to_owned()], Role::Human, 1)
            .unwrap_err()
            .to_string();
        assert!(nowhere.contains("nowhere"), "{nowhere}");
    }
}
