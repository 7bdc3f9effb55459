//! Encryption at rest: the one place that decides how kenning's SQLite files are keyed.
//!
//! kenning is built on SQLCipher (rusqlite's `bundled-sqlcipher`), so every SQLite file it
//! opens (knowledge bases, their migration backups, `tokens.sqlite`) can be encrypted with
//! AES-256 page by page, the write-ahead log included. A data directory has at most one key,
//! which the program reads once ([`StoreKey::from_config`]: `--key-file`, else
//! `KENNING_KEY_FILE`, else `KENNING_KEY`) and hands to the [`crate::Service`] (and the token
//! store), which applies it on every connection it opens.
//!
//! The rules:
//!
//! - a key is either 64 hexadecimal digits, used as the raw 256-bit key (opening a store then
//!   costs nothing extra), or any other text, a passphrase that SQLCipher stretches with
//!   PBKDF2-HMAC-SHA512 each time a connection opens (a few hundred milliseconds);
//! - stores are written with SQLCipher 4's settings, pinned ([`CIPHER_COMPATIBILITY`]), so a
//!   later SQLCipher with other defaults still opens them;
//! - whether a file is encrypted is read from its first bytes before anything opens it
//!   ([`sniff`]): a plaintext SQLite file starts with `SQLite format 3\0`, an encrypted one
//!   with its random salt. An encrypted file opened without a key, or a plaintext one opened
//!   with a key, is refused with [`KeyProblem::Missing`] or [`KeyProblem::NotEncrypted`]
//!   before SQLite sees it; a key that does not decrypt the file is [`KeyProblem::Wrong`],
//!   found by a read-only connection, so nothing is ever written to a file the key does not
//!   open;
//! - the key never appears in an error, a log line or an audit event: [`StoreKey`] prints as
//!   `StoreKey(..)`, and errors from keying a connection carry SQLite's error code only;
//! - a key file others can read or change (any group or world permission bit) is refused
//!   before it is read, as ssh refuses such a private key;
//! - a file changes key only by a verified copy renamed over it ([`encrypt_in_place`],
//!   [`rekey_in_place`]), so it always opens with its old key or its new one; the copy is
//!   `0600`, like every file kenning makes ([`crate::private`]).

pub mod rekey;

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::error::{KenningError, KeyProblem, Result};

/// The environment variable naming a file that holds the key.
pub const KEY_FILE_VAR: &str = "KENNING_KEY_FILE";

/// The environment variable holding the key itself (a file is safer: the environment of a
/// process can be read by others running as the same user).
pub const KEY_VAR: &str = "KENNING_KEY";

/// The SQLCipher major version whose settings (page size, KDF, HMAC) every store uses.
pub const CIPHER_COMPATIBILITY: u32 = 4;

/// The smallest SQLite page: every database file is a whole number of pages.
const MIN_PAGE: u64 = 512;

/// A key for encrypted stores. It never prints: `Debug` shows `StoreKey(..)` and there is no
/// `Display`. Its bytes are overwritten when it is dropped.
#[derive(Clone)]
pub struct StoreKey {
    /// The value given to `PRAGMA key`: the passphrase, or `x'HEX'` for a raw key.
    pragma_value: String,
}

impl std::fmt::Debug for StoreKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreKey(..)")
    }
}

impl Drop for StoreKey {
    fn drop(&mut self) {
        wipe(std::mem::take(&mut self.pragma_value));
    }
}

/// Overwrites a string's bytes before freeing them.
fn wipe(text: String) {
    let mut bytes = text.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&bytes);
}

/// Where a key came from, for errors (never the key itself).
fn refuse(source: &str, problem: &str) -> KenningError {
    KenningError::Usage(format!("the key in {source} {problem}"))
}

impl StoreKey {
    /// A key from text: 64 hexadecimal digits are a raw 256-bit key, anything else a
    /// passphrase. `source` names where the text came from, for errors. Empty text, and text
    /// with a NUL character, are refused.
    pub fn new(text: &str, source: &str) -> Result<StoreKey> {
        if text.trim().is_empty() {
            return Err(refuse(source, "is empty"));
        }
        if text.contains('\0') {
            return Err(refuse(source, "contains a NUL character"));
        }
        let pragma_value = if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            format!("x'{text}'")
        } else {
            text.to_owned()
        };
        Ok(StoreKey { pragma_value })
    }

    /// The key in a file: its text, less the line ending that ends it. A file others can
    /// read or change (any group or world permission bit, as ssh judges a private key) is
    /// refused, naming the file and its mode, before it is read.
    pub fn from_file(path: &Path) -> Result<StoreKey> {
        check_key_file_mode(path)?;
        let bytes = std::fs::read(path).map_err(|source| KenningError::Io {
            path: path.to_owned(),
            source,
        })?;
        let source = format!("key file {}", path.display());
        let text = String::from_utf8(bytes).map_err(|error| {
            wipe(String::from_utf8_lossy(&error.into_bytes()).into_owned());
            refuse(
                &source,
                "is not UTF-8 text: write a passphrase or 64 hex digits",
            )
        })?;
        let key = StoreKey::new(text.trim_end_matches(['\n', '\r']), &source);
        wipe(text);
        key
    }

    /// The key configured for this process: `key_file` (the `--key-file` option) when given,
    /// else the file named by `KENNING_KEY_FILE`, else the text of `KENNING_KEY`; `None` when
    /// none is set (stores are then plaintext). Setting both variables is refused, as an
    /// ambiguity.
    pub fn from_config(key_file: Option<&Path>) -> Result<Option<StoreKey>> {
        Self::from_sources(
            key_file,
            std::env::var_os(KEY_FILE_VAR).filter(|v| !v.is_empty()),
            std::env::var_os(KEY_VAR).filter(|v| !v.is_empty()),
        )
    }

    fn from_sources(
        key_file: Option<&Path>,
        file_var: Option<std::ffi::OsString>,
        key_var: Option<std::ffi::OsString>,
    ) -> Result<Option<StoreKey>> {
        if let Some(path) = key_file {
            return StoreKey::from_file(path).map(Some);
        }
        match (file_var, key_var) {
            (Some(_), Some(_)) => Err(KenningError::Usage(format!(
                "both {KEY_FILE_VAR} and {KEY_VAR} are set: set only one"
            ))),
            (Some(path), None) => StoreKey::from_file(Path::new(&path)).map(Some),
            (None, Some(text)) => {
                let text = text
                    .into_string()
                    .map_err(|_| refuse(KEY_VAR, "is not UTF-8 text"))?;
                let key = StoreKey::new(&text, KEY_VAR);
                wipe(text);
                key.map(Some)
            }
            (None, None) => Ok(None),
        }
    }

    /// Whether this is a raw 256-bit key (no key derivation when a store opens).
    pub fn is_raw(&self) -> bool {
        self.pragma_value.starts_with("x'")
    }
}

/// Refuses a key file whose mode lets anyone but its owner read or change it: a key others
/// can read is a key others have, and one they can change is a key they choose.
fn check_key_file_mode(path: &Path) -> Result<()> {
    match crate::private::mode_of(path)? {
        Some(mode) if mode & crate::private::SHARED_BITS != 0 => Err(KenningError::Usage(format!(
            "key file {path} has mode {mode:04o}: others can read or change it, so it is refused (as ssh refuses such a private key); make it yours alone with `chmod 600 {path}`",
            path = path.display()
        ))),
        _ => Ok(()),
    }
}

// The message names the key's environment variables, which this module defines; the kind of
// problem is the error type's.
impl std::fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyProblem::Missing => write!(
                f,
                "key missing: the file is encrypted and no key is configured (give --key-file, or set {KEY_FILE_VAR} or {KEY_VAR})"
            ),
            KeyProblem::Wrong => f.write_str(
                "wrong key: the file is encrypted and the configured key does not decrypt it; the file was left untouched",
            ),
            KeyProblem::NotEncrypted => f.write_str(
                "not encrypted: a key is configured but the file is plaintext; encrypt it first (kenning encrypt), or run without the key",
            ),
            KeyProblem::Refused(code) => write!(f, "SQLCipher refused the key ({code:?})"),
        }
    }
}

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// No file, or an empty one.
    Empty,
    /// A plaintext SQLite database.
    Plain,
    /// Whole pages without SQLite's header: an encrypted database (or random bytes).
    Encrypted,
    /// Anything else: no SQLite database, encrypted or not.
    NotSqlite,
}

/// Reads what kind of file `path` is, from its length and from SQLite's check of its header
/// (the first 16 bytes), made on a connection that takes no lock and creates no file.
///
/// Never through a file descriptor of kenning's own: closing any descriptor of a file releases
/// every POSIX lock the process holds on it, those of the connections it keeps open included.
/// Another process then believes itself the store's last user, folds the write-ahead log into
/// the database and deletes it under them, and what they write next is lost (SQLite's "How To
/// Corrupt An SQLite Database File", 2.2). SQLite closes a descriptor of its own only once the
/// process holds no lock on the file.
pub fn sniff(path: &Path) -> Result<FileKind> {
    let len = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(FileKind::Empty),
        Err(source) => {
            return Err(KenningError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    if len == 0 {
        return Ok(FileKind::Empty);
    }
    let conn = open_immutable(path, None)?;
    // Reading a header field reads page 1, whose first 16 bytes SQLite checks before anything
    // else ("not a database" when they are not its own). An immutable connection reads the file
    // alone, without its write-ahead log: a header whose page count is ahead of the file, as
    // while a checkpoint grows it, reads as "malformed", which says the 16 bytes passed.
    match conn.query_row("PRAGMA application_id", [], |_| Ok(())) {
        Ok(()) => Ok(FileKind::Plain),
        Err(error) if error.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
            Ok(FileKind::Plain)
        }
        Err(error) if error.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) => {
            Ok(if len >= MIN_PAGE && len % MIN_PAGE == 0 {
                FileKind::Encrypted
            } else {
                FileKind::NotSqlite
            })
        }
        Err(source) => Err(KenningError::sqlite(path.to_owned(), source)),
    }
}

/// The error for a key problem with the file at `path`.
pub fn key_error(path: &Path, problem: KeyProblem) -> KenningError {
    KenningError::Key {
        path: path.to_owned(),
        problem,
    }
}

/// Checks, before anything opens `path`, that its encryption and `key` agree: an encrypted
/// file needs a key, a plaintext one must have none. Returns what the file is. Whether the key
/// is the right one is for [`verify`] to find out.
pub fn check_file(path: &Path, key: Option<&StoreKey>) -> Result<FileKind> {
    let kind = sniff(path)?;
    match (kind, key) {
        (FileKind::Encrypted, None) => Err(key_error(path, KeyProblem::Missing)),
        (FileKind::Plain, Some(_)) => Err(key_error(path, KeyProblem::NotEncrypted)),
        (FileKind::NotSqlite, Some(_)) => Err(KenningError::NotAStore {
            path: path.to_owned(),
            problem: "it is not a SQLite database, encrypted or not".to_owned(),
        }),
        _ => Ok(kind),
    }
}

/// Keys a connection just opened on `path` (the first thing done with it), when there is a
/// key. Nothing is read yet: a wrong key shows at the first read (see [`verify`]).
pub fn apply(conn: &Connection, path: &Path, key: Option<&StoreKey>) -> Result<()> {
    let Some(key) = key else {
        return Ok(());
    };
    // SQLCipher logs a failed decryption to stderr by default: kenning reports it once, as a
    // `wrong key` error. (The setting is the process's; repeating it costs nothing.)
    let mut sql = String::with_capacity(key.pragma_value.len() + 64);
    sql.push_str("PRAGMA cipher_log_level = NONE; ");
    // PRAGMA takes no parameters: the key is quoted into the statement, which is wiped after.
    sql.push_str("PRAGMA key = '");
    sql.push_str(&key.pragma_value.replace('\'', "''"));
    sql.push_str("';");
    let keyed = conn.execute_batch(&sql);
    wipe(sql);
    keyed
        .and_then(|()| {
            conn.execute_batch(&format!(
                "PRAGMA cipher_compatibility = {CIPHER_COMPATIBILITY};"
            ))
        })
        .map_err(|error| key_error(path, KeyProblem::Refused(code_of(&error))))
}

/// Reads the schema through a keyed connection: a key that does not decrypt the file is
/// [`KeyProblem::Wrong`]. Without a key there is nothing to check.
pub fn verify(conn: &Connection, path: &Path, key: Option<&StoreKey>) -> Result<()> {
    if key.is_none() {
        return Ok(());
    }
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))
        .map_err(|error| match code_of(&error) {
            rusqlite::ErrorCode::NotADatabase => key_error(path, KeyProblem::Wrong),
            _ => KenningError::sqlite(path.to_owned(), error),
        })
}

/// SQLite's error code, for errors that must not carry their message.
fn code_of(error: &rusqlite::Error) -> rusqlite::ErrorCode {
    error
        .sqlite_error_code()
        .unwrap_or(rusqlite::ErrorCode::Unknown)
}

/// Copies the database `conn` has open (its main schema: tables, indexes, triggers, full-text
/// indexes, rows, and its `user_version` and `application_id`) into a new file at `target`,
/// encrypted with `key` (plaintext when `None`), with SQLCipher's `sqlcipher_export`. The
/// target must not exist. SQLCipher refuses its backup API for encrypted databases, so this is
/// how an encrypted store is copied.
pub fn export(
    conn: &Connection,
    source: &Path,
    target: &Path,
    key: Option<&StoreKey>,
) -> Result<()> {
    let store_err = |source_error| KenningError::sqlite(source.to_owned(), source_error);
    let target_text = target.to_str().ok_or_else(|| {
        KenningError::Usage(format!(
            "{}: the path is not UTF-8, which SQLite's ATTACH needs",
            target.display()
        ))
    })?;
    let (version, app_id): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id)",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .map_err(store_err)?;
    // The copy is created here, 0600 and empty (SQLite takes an empty file for a new
    // database), rather than by ATTACH with the umask's mode; an existing file is refused.
    crate::private::create_new_file(target)?;
    // ATTACH takes the key as a bound parameter: it never enters SQL text. An empty key makes
    // a plaintext copy.
    let empty = String::new();
    let key_value = key.map_or(&empty, |key| &key.pragma_value);
    conn.execute(
        "ATTACH DATABASE ?1 AS kenning_export KEY ?2",
        rusqlite::params![target_text, key_value],
    )
    .map_err(|error| key_error(target, KeyProblem::Refused(code_of(&error))))?;
    let copied = (|| -> rusqlite::Result<()> {
        if key.is_some() {
            conn.execute_batch(&format!(
                "PRAGMA kenning_export.cipher_compatibility = {CIPHER_COMPATIBILITY};"
            ))?;
        }
        conn.query_row("SELECT sqlcipher_export('kenning_export')", [], |_| Ok(()))?;
        conn.execute_batch(&format!(
            "PRAGMA kenning_export.user_version = {version}; PRAGMA kenning_export.application_id = {app_id};"
        ))
    })();
    let detached = conn.execute_batch("DETACH DATABASE kenning_export");
    copied.and(detached).map_err(store_err)
}

/// Encrypts the plaintext SQLite file at `path` with `key`, in one atomic replace: the file is
/// taken exclusively (another process using it makes this fail, having changed nothing),
/// copied with [`export`] to `<file>.encrypting`, the copy is checked, synced and renamed over
/// the original. The original's write-ahead log is folded in first, so no log of the
/// plaintext file is left beside the encrypted one. The encrypted file is `0600`.
pub fn encrypt_in_place(path: &Path, key: &StoreKey) -> Result<()> {
    match sniff(path)? {
        FileKind::Plain => {}
        FileKind::Encrypted => {
            return Err(KenningError::Usage(format!(
                "{} is already encrypted",
                path.display()
            )));
        }
        FileKind::Empty | FileKind::NotSqlite => {
            return Err(KenningError::NotAStore {
                path: path.to_owned(),
                problem: "it is no SQLite database to encrypt".to_owned(),
            });
        }
    }
    replace_with_copy(path, None, key, "encrypting")
}

/// Re-encrypts the SQLite file at `path` from key `old` to key `new`, in one atomic replace
/// like [`encrypt_in_place`] (`<file>.rekeying`, checked with the new key, synced, renamed
/// over the original): at every moment the file at `path` opens with one of the two keys.
/// A key `old` does not open is [`KeyProblem::Wrong`] and the file is left untouched; so is a
/// file in use by another process. The new file is `0600`.
pub fn rekey_in_place(path: &Path, old: &StoreKey, new: &StoreKey) -> Result<()> {
    if sniff(path)? != FileKind::Encrypted {
        return Err(KenningError::NotAStore {
            path: path.to_owned(),
            problem: "it is no encrypted SQLite database to re-encrypt".to_owned(),
        });
    }
    replace_with_copy(path, Some(old), new, "rekeying")
}

/// Which of two keys opens an encrypted file: `Ok(true)` for `first`, `Ok(false)` for
/// `second`, [`KeyProblem::Wrong`] for neither. Reads only, and immutably: no lock is taken
/// and no log or shared-memory file is made beside it.
pub fn which_key_opens(path: &Path, first: &StoreKey, second: &StoreKey) -> Result<bool> {
    let opens = |key: &StoreKey| -> Result<bool> {
        let conn = open_immutable(path, Some(key))?;
        match verify(&conn, path, Some(key)) {
            Ok(()) => Ok(true),
            Err(KenningError::Key {
                problem: KeyProblem::Wrong,
                ..
            }) => Ok(false),
            Err(error) => Err(error),
        }
    };
    if opens(first)? {
        Ok(true)
    } else if opens(second)? {
        Ok(false)
    } else {
        Err(key_error(path, KeyProblem::Wrong))
    }
}

/// Replaces the SQLite file at `path` (opened with `source_key`, plaintext when `None`) by a
/// copy encrypted with `target_key`, made at `<file>.<purpose>` and checked before the rename.
fn replace_with_copy(
    path: &Path,
    source_key: Option<&StoreKey>,
    target_key: &StoreKey,
    purpose: &str,
) -> Result<()> {
    let store_err = |source| KenningError::sqlite(path.to_owned(), source);
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".{purpose}"));
    let temporary = path.with_file_name(name);
    let conn = Connection::open(path).map_err(store_err)?;
    apply(&conn, path, source_key)?;
    // A short wait: a server holding the store keeps it for as long as it runs.
    conn.busy_timeout(std::time::Duration::from_secs(2))
        .map_err(store_err)?;
    // A key that does not open the file is found before anything is written to it.
    verify(&conn, path, source_key)?;
    // Exclusive: nobody else reads or writes until this connection closes, after the rename.
    // Leaving WAL mode needs every other connection gone, and folds the log into the file.
    conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE;")
        .map_err(store_err)?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode = DELETE", [], |row| row.get(0))
        .map_err(|error| match code_of(&error) {
            rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked => {
                KenningError::Conflict(format!(
                    "{} is in use by another process: stop it (a kenning serve or mcp) and try again; nothing was changed",
                    path.display()
                ))
            }
            _ => store_err(error),
        })?;
    if mode != "delete" {
        return Err(KenningError::Conflict(format!(
            "{} is in use by another process (its journal stays {mode}): stop it and try again; nothing was changed",
            path.display()
        )));
    }
    // The file is ours alone now: a copy an interrupted run left is removed only under the
    // lock, so a second run at once can never remove the copy the first is making.
    let _ = std::fs::remove_file(&temporary);
    let result = (|| {
        export(&conn, path, &temporary, Some(target_key))?;
        // Check the copy before it replaces anything (opened without creating: a copy that is
        // not there is an error, never an empty database).
        let copy = Connection::open_with_flags(
            &temporary,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| KenningError::sqlite(temporary.clone(), source))?;
        apply(&copy, &temporary, Some(target_key))?;
        verify(&copy, &temporary, Some(target_key))?;
        let check: String = copy
            .query_row("PRAGMA quick_check", [], |row| row.get(0))
            .map_err(|source| KenningError::sqlite(temporary.clone(), source))?;
        drop(copy);
        if check != "ok" {
            return Err(KenningError::NotAStore {
                path: temporary.clone(),
                problem: format!("the {purpose} copy failed its check: {check}"),
            });
        }
        let io = |source| KenningError::Io {
            path: temporary.clone(),
            source,
        };
        std::fs::File::open(&temporary)
            .and_then(|file| file.sync_all())
            .map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::File::open(dir).and_then(|dir| dir.sync_all());
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    drop(conn);
    result
}

/// Whether two keys are the same key (the same passphrase, or the same raw key however its
/// hexadecimal digits are cased).
pub fn same_key(a: &StoreKey, b: &StoreKey) -> bool {
    if a.is_raw() && b.is_raw() {
        a.pragma_value.eq_ignore_ascii_case(&b.pragma_value)
    } else {
        a.pragma_value == b.pragma_value
    }
}

/// Opens the SQLite file at `path` read-only and immutable (SQLite takes no locks and creates
/// no files), keyed with `key`.
pub fn open_immutable(path: &Path, key: Option<&StoreKey>) -> Result<Connection> {
    let mut uri = String::from("file:");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'?' | b'#' | b'%' | 0x80.. => uri.push_str(&format!("%{byte:02X}")),
            _ => uri.push(char::from(byte)),
        }
    }
    uri.push_str("?immutable=1");
    let conn = Connection::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|source| KenningError::sqlite(path.to_owned(), source))?;
    apply(&conn, path, key)?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    /// Makes a key file readable by its owner alone, as kenning requires.
    fn private_key_file(path: &Path) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let _ = path;
    }

    #[test]
    fn a_key_never_prints() {
        let key = StoreKey::new("correct horse battery staple", "test").unwrap();
        assert_eq!(format!("{key:?}"), "StoreKey(..)");
        assert!(!key.is_raw());
    }

    #[test]
    fn sixty_four_hex_digits_are_a_raw_key_and_other_text_a_passphrase() {
        assert!(StoreKey::new(RAW, "test").unwrap().is_raw());
        assert!(!StoreKey::new(&RAW[..63], "test").unwrap().is_raw());
    }

    #[test]
    fn an_empty_key_is_refused_naming_where_it_came_from() {
        let error = StoreKey::new(" \n", "KENNING_KEY").unwrap_err().to_string();
        assert!(
            error.contains("KENNING_KEY") && error.contains("empty"),
            "{error}"
        );
        let nul = StoreKey::new("a\0b", "test").unwrap_err().to_string();
        assert!(nul.contains("test") && nul.contains("NUL"), "{nul}");
    }

    #[test]
    fn a_key_file_gives_its_text_without_the_line_ending() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, format!("{RAW}\r\n")).unwrap();
        private_key_file(&file);
        assert!(StoreKey::from_file(&file).unwrap().is_raw());
        let missing = StoreKey::from_file(&dir.path().join("none"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("none"), "{missing}");
    }

    #[cfg(unix)]
    #[test]
    fn a_key_file_others_can_read_or_change_is_refused_naming_it_and_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, RAW).unwrap();
        for mode in [0o644, 0o640, 0o604, 0o660, 0o602] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            let error = StoreKey::from_file(&file).unwrap_err().to_string();
            let shown = format!("{mode:04o}");
            assert!(
                error.contains(&file.display().to_string())
                    && error.contains(&shown)
                    && error.contains("chmod 600"),
                "{error}"
            );
            assert!(!error.contains(RAW), "the key never shows: {error}");
        }
        for mode in [0o600, 0o400] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            assert!(StoreKey::from_file(&file).unwrap().is_raw());
        }
    }

    #[test]
    fn the_option_wins_over_the_environment_and_two_variables_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, RAW).unwrap();
        private_key_file(&file);
        let from_option =
            StoreKey::from_sources(Some(&file), None, Some("passphrase".into())).unwrap();
        assert!(from_option.unwrap().is_raw());
        let both = StoreKey::from_sources(None, Some(file.clone().into()), Some("x".into()));
        assert!(both.unwrap_err().to_string().contains("only one"));
        let from_var = StoreKey::from_sources(None, None, Some("passphrase".into())).unwrap();
        assert!(!from_var.unwrap().is_raw());
        assert!(StoreKey::from_sources(None, None, None).unwrap().is_none());
    }

    #[test]
    fn sniffing_tells_plaintext_encrypted_and_other_files_apart() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.sqlite");
        Connection::open(&plain)
            .unwrap()
            .execute_batch("CREATE TABLE t (x)")
            .unwrap();
        assert_eq!(sniff(&plain).unwrap(), FileKind::Plain);
        let secret = dir.path().join("secret.sqlite");
        let key = StoreKey::new(RAW, "test").unwrap();
        let conn = Connection::open(&secret).unwrap();
        apply(&conn, &secret, Some(&key)).unwrap();
        conn.execute_batch("CREATE TABLE t (x)").unwrap();
        drop(conn);
        assert_eq!(sniff(&secret).unwrap(), FileKind::Encrypted);
        let text = dir.path().join("notes.sqlite");
        std::fs::write(&text, "just some notes").unwrap();
        assert_eq!(sniff(&text).unwrap(), FileKind::NotSqlite);
        assert_eq!(sniff(&dir.path().join("none")).unwrap(), FileKind::Empty);
    }

    #[test]
    fn a_wrong_key_is_found_by_a_read_and_named_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.sqlite");
        let conn = Connection::open(&path).unwrap();
        apply(&conn, &path, Some(&StoreKey::new("right", "test").unwrap())).unwrap();
        conn.execute_batch("CREATE TABLE t (x)").unwrap();
        drop(conn);
        let conn = Connection::open(&path).unwrap();
        let wrong = StoreKey::new("wrong", "test").unwrap();
        apply(&conn, &path, Some(&wrong)).unwrap();
        let error = verify(&conn, &path, Some(&wrong)).unwrap_err();
        assert!(matches!(
            error,
            KenningError::Key {
                problem: KeyProblem::Wrong,
                ..
            }
        ));
        let message = error.to_string();
        assert!(
            message.contains("secret.sqlite") && message.contains("wrong"),
            "{message}"
        );
        assert!(!message.contains("right"), "the key never shows: {message}");
    }

    #[test]
    fn encrypting_in_place_keeps_every_row_and_the_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plain.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA user_version = 7; PRAGMA application_id = 42;
             CREATE TABLE t (x); INSERT INTO t VALUES ('planted-plaintext-marker');
             CREATE VIRTUAL TABLE f USING fts5(x); INSERT INTO f VALUES ('searchable words');",
        )
        .unwrap();
        drop(conn);
        let key = StoreKey::new("passphrase", "test").unwrap();
        encrypt_in_place(&path, &key).unwrap();
        assert_eq!(sniff(&path).unwrap(), FileKind::Encrypted);
        assert!(!dir.path().join("plain.sqlite-wal").exists());
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.windows(8).any(|w| w == b"planted-"));
        let conn = Connection::open(&path).unwrap();
        apply(&conn, &path, Some(&key)).unwrap();
        verify(&conn, &path, Some(&key)).unwrap();
        let (text, version, app): (String, i64, i64) = conn
            .query_row(
                "SELECT (SELECT x FROM t), (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id)",
                [],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (text.as_str(), version, app),
            ("planted-plaintext-marker", 7, 42)
        );
        let found: i64 = conn
            .query_row(
                "SELECT count(*) FROM f WHERE f MATCH 'searchable'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 1);
        let again = encrypt_in_place(&path, &key).unwrap_err().to_string();
        assert!(again.contains("already encrypted"), "{again}");
    }

    /// A store at `path` encrypted with `key`, holding one row.
    fn encrypted_store(path: &Path, key: &StoreKey) {
        let conn = Connection::open(path).unwrap();
        apply(&conn, path, Some(key)).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA user_version = 5;
             CREATE TABLE t (x); INSERT INTO t VALUES ('kept across keys');",
        )
        .unwrap();
    }

    #[test]
    fn rekeying_in_place_moves_the_file_to_the_new_key_and_keeps_every_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.sqlite");
        let (old, new) = (
            StoreKey::new("old", "test").unwrap(),
            StoreKey::new(RAW, "test").unwrap(),
        );
        encrypted_store(&path, &old);
        rekey_in_place(&path, &old, &new).unwrap();
        assert!(
            !which_key_opens(&path, &old, &new).unwrap(),
            "the new key opens it"
        );
        let conn = Connection::open(&path).unwrap();
        apply(&conn, &path, Some(&new)).unwrap();
        let (text, version): (String, i64) = conn
            .query_row(
                "SELECT (SELECT x FROM t), (SELECT user_version FROM pragma_user_version)",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!((text.as_str(), version), ("kept across keys", 5));
        drop(conn);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no copy is left beside it"
        );
        #[cfg(unix)]
        assert_eq!(crate::private::mode_of(&path).unwrap(), Some(0o600));
    }

    #[test]
    fn rekeying_with_a_wrong_old_key_or_a_file_in_use_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.sqlite");
        let (old, new) = (
            StoreKey::new(RAW, "test").unwrap(),
            StoreKey::new("new", "test").unwrap(),
        );
        encrypted_store(&path, &old);
        let before = std::fs::read(&path).unwrap();
        let wrong = StoreKey::new("not the old key", "test").unwrap();
        let error = rekey_in_place(&path, &wrong, &new).unwrap_err();
        assert!(
            matches!(
                error,
                KenningError::Key {
                    problem: KeyProblem::Wrong,
                    ..
                }
            ),
            "{error}"
        );
        let neither = which_key_opens(&path, &wrong, &new)
            .unwrap_err()
            .to_string();
        assert!(neither.contains("wrong key"), "neither opens it: {neither}");
        assert_eq!(std::fs::read(&path).unwrap(), before);

        let other = Connection::open(&path).unwrap();
        apply(&other, &path, Some(&old)).unwrap();
        other
            .query_row("SELECT count(*) FROM t", [], |_| Ok(()))
            .unwrap();
        let busy = rekey_in_place(&path, &old, &new).unwrap_err().to_string();
        assert!(busy.contains("in use"), "{busy}");
        assert!(
            which_key_opens(&path, &old, &new).unwrap(),
            "still the old key's"
        );
    }

    #[test]
    fn a_second_run_on_a_store_in_use_leaves_the_copy_the_first_is_making() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.sqlite");
        let (old, new) = (
            StoreKey::new(RAW, "test").unwrap(),
            StoreKey::new("new", "test").unwrap(),
        );
        encrypted_store(&path, &old);
        // The first run holds the store and is writing its copy.
        let first = Connection::open(&path).unwrap();
        apply(&first, &path, Some(&old)).unwrap();
        first
            .query_row("SELECT count(*) FROM t", [], |_| Ok(()))
            .unwrap();
        let copy = dir.path().join("secret.sqlite.rekeying");
        std::fs::write(&copy, b"the first run's copy, half written").unwrap();
        let busy = rekey_in_place(&path, &old, &new).unwrap_err().to_string();
        assert!(busy.contains("in use"), "{busy}");
        assert!(
            copy.exists(),
            "the second run left the first run's copy alone"
        );
    }

    #[test]
    fn a_file_in_use_elsewhere_is_not_encrypted_and_not_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("busy.sqlite");
        let other = Connection::open(&path).unwrap();
        other
            .execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);",
            )
            .unwrap();
        let key = StoreKey::new("passphrase", "test").unwrap();
        // Without a busy wait: the other connection keeps its shared lock for as long as it
        // likes, so the wait would be the whole timeout.
        other
            .query_row("SELECT count(*) FROM t", [], |_| Ok(()))
            .unwrap();
        let error = encrypt_in_place(&path, &key).unwrap_err().to_string();
        assert!(error.contains("in use"), "{error}");
        assert_eq!(sniff(&path).unwrap(), FileKind::Plain);
        let count: i64 = other
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(count, 1);
    }
}
