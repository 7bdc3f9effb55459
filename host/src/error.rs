//! Errors, each saying what went wrong and where.

use std::path::PathBuf;

use kenning_contract::types::FieldError;

/// A policy failed: it could not be loaded, it trapped, ran out of its budget, or answered
/// something the host refuses to act on. The store is never touched when this is returned.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The policy file could not be read.
    #[error("policy file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a WebAssembly component wasmtime can compile.
    #[error("policy {policy}: not a valid WebAssembly component: {detail}")]
    NotAComponent {
        /// The policy's name or path.
        policy: String,
        /// What wasmtime said.
        detail: String,
    },
    /// The component does not export the contract this host speaks.
    #[error("policy {policy}: does not implement {contract}: {detail}")]
    WrongContract {
        /// The policy's name or path.
        policy: String,
        /// The interface the host looked for.
        contract: &'static str,
        /// What is missing or mismatched.
        detail: String,
    },
    /// The component imports something: a policy of contract 0.2.0 or later may import
    /// nothing, so it can reach nothing but its inputs.
    #[error("policy {policy}: imports {}; a policy of contract {contract} may import nothing", .imports.join(", "))]
    Imports {
        /// The policy's name or path.
        policy: String,
        /// The contract version it exports.
        contract: &'static str,
        /// Every import, by name.
        imports: Vec<String>,
    },
    /// The policy's contract version has no such duty.
    #[error(
        "policy {policy}: contract {contract} has no {duty} duty; rebuild the policy against contract {latest}"
    )]
    Unsupported {
        /// The policy's name.
        policy: String,
        /// The duty asked for.
        duty: &'static str,
        /// The contract version the policy implements.
        contract: &'static str,
        /// The newest contract version, which has the duty.
        latest: &'static str,
    },
    /// The call used up its fuel: the policy looped or did far too much work.
    #[error("policy {policy}: stopped in {call} after using all its fuel ({fuel} units)")]
    OutOfFuel {
        /// The policy's name.
        policy: String,
        /// The export that was running.
        call: &'static str,
        /// The fuel it was given.
        fuel: u64,
    },
    /// The call ran past its wall-clock deadline.
    #[error("policy {policy}: stopped in {call} at its deadline of {deadline_ms} ms")]
    Deadline {
        /// The policy's name.
        policy: String,
        /// The export that was running.
        call: &'static str,
        /// The deadline in milliseconds.
        deadline_ms: u64,
    },
    /// The policy tried to grow its memory past the cap.
    #[error("policy {policy}: stopped in {call} when it tried to grow its memory past {cap} bytes")]
    MemoryCap {
        /// The policy's name.
        policy: String,
        /// The export that was running.
        call: &'static str,
        /// The cap in bytes.
        cap: usize,
    },
    /// Any other trap (unreachable, out-of-bounds access, a panic inside the policy, ...).
    #[error("policy {policy}: trapped in {call}: {trap}")]
    Trap {
        /// The policy's name.
        policy: String,
        /// The export that was running.
        call: &'static str,
        /// The trap, as wasmtime describes it.
        trap: String,
    },
    /// The policy answered, but the answer breaks the contract (an unknown id, a quota
    /// exceeded, a result count that does not match, an oversize text).
    #[error("policy {policy}: bad answer from {call}: {problem}")]
    BadAnswer {
        /// The policy's name.
        policy: String,
        /// The export that answered.
        call: &'static str,
        /// What is wrong with the answer.
        problem: String,
    },
    /// wasmtime itself failed (engine set-up, cache I/O).
    #[error("policy runtime: {0}")]
    Runtime(String),
}

impl PolicyError {
    /// How a call ended, in one word, as [`crate::metrics`] counts it: `trap`, `out_of_fuel`,
    /// `deadline`, `memory_cap`, `bad_answer` or `error`.
    pub fn outcome(&self) -> &'static str {
        match self {
            PolicyError::Trap { .. } => "trap",
            PolicyError::OutOfFuel { .. } => "out_of_fuel",
            PolicyError::Deadline { .. } => "deadline",
            PolicyError::MemoryCap { .. } => "memory_cap",
            PolicyError::BadAnswer { .. } => "bad_answer",
            _ => "error",
        }
    }
}

/// Everything the kenning library can fail with.
#[derive(Debug, thiserror::Error)]
pub enum KenningError {
    /// Standard output is closed or full: the command's answer could not be written. What the
    /// command stored before that stays stored.
    #[error("could not write to standard output: {0}")]
    Output(std::io::Error),
    /// A tool call or record failed its schema.
    #[error("invalid {tool} arguments: {}", join_field_errors(.errors))]
    Invalid {
        /// The tool or record kind.
        tool: String,
        /// Every problem found, each naming its field.
        errors: Vec<FieldError>,
    },
    /// The scan blocked the text.
    #[error("blocked by the safety scan: {reason}")]
    Blocked {
        /// Why.
        reason: String,
    },
    /// The text to store was too large.
    #[error("{what} is {size} bytes; the limit is {limit}")]
    TooLarge {
        /// What was too large.
        what: String,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The subject spec could not be understood or resolved.
    #[error("subject {}: {problem}", echo(.spec))]
    BadSubject {
        /// What the caller gave.
        spec: String,
        /// What is wrong.
        problem: String,
    },
    /// No knowledge base exists yet for the subject.
    #[error("no knowledge base for subject {subject} (expected {}); write a memory first", .path.display())]
    UnknownSubject {
        /// The subject.
        subject: String,
        /// Where its knowledge base would be.
        path: PathBuf,
    },
    /// No memory has that id.
    #[error("no memory with id {id} in {subject}")]
    NoSuchMemory {
        /// The id.
        id: u64,
        /// The subject.
        subject: String,
    },
    /// `old_text` matched more than one distinct entry.
    #[error("ambiguous: {0}")]
    Ambiguous(String),
    /// The call does not fit the state it found (another writer changed it meanwhile, or it
    /// asks to review what awaits no review); nothing was written.
    #[error("conflict: {0}")]
    Conflict(String),
    /// A consolidation was asked to apply a plan other than the one the store now gives: a
    /// memory was written, changed or forgotten since the preview (or an expiry came due).
    #[error(
        "the consolidation plan changed since it was previewed (previewed {previewed}, now {now}); nothing was changed: preview it again"
    )]
    StalePlan {
        /// The hash that was previewed.
        previewed: String,
        /// The hash of the plan the store gives now.
        now: String,
    },
    /// A consolidation was asked for too soon after the last successful one.
    #[error(
        "the last consolidation ran {hours_ago} hours ago and runs are at least {min_hours} hours apart (next at {next_at}, seconds since the epoch); nothing was changed: force it to run anyway"
    )]
    TooSoon {
        /// Whole hours since the last run.
        hours_ago: i64,
        /// The least hours between runs in force.
        min_hours: u32,
        /// When the next run may happen, in seconds since the epoch.
        next_at: i64,
    },
    /// A consolidation was asked for before enough user turns since the last successful one.
    #[error(
        "{turns} user turns have passed since the last consolidation and runs are at least {min_turns} turns apart; nothing was changed: force it to run anyway"
    )]
    TooFewTurns {
        /// Turns counted since the last run.
        turns: u64,
        /// The least turns between runs in force.
        min_turns: u64,
    },
    /// `old_text` matched nothing.
    #[error("no match: {0}")]
    NoMatch(String),
    /// The knowledge base holds as many memories as its `max_memories` setting allows.
    #[error(
        "the knowledge base is full: it holds its limit of {limit} active memories (setting max_memories); forget some or raise the limit"
    )]
    LimitReached {
        /// The limit in force.
        limit: u64,
    },
    /// The author may not do this.
    #[error("not allowed: {0}")]
    Forbidden(String),
    /// A `query` was refused (not one read-only statement over the views) or stopped at a
    /// budget; nothing was read past that point.
    #[error("query: {problem}")]
    Query {
        /// What was wrong.
        problem: crate::query::QueryProblem,
    },
    /// The store was written by a newer kenning.
    #[error(
        "knowledge base {} has schema version {found}, newer than this kenning supports ({supported}); upgrade kenning, the file was left untouched",
        .path.display()
    )]
    NewerStore {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The newest this build knows.
        supported: i64,
    },
    /// The file is not a kenning knowledge base.
    #[error("{} is not a kenning knowledge base: {problem}", .path.display())]
    NotAStore {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// An encrypted file and the configured key do not fit: the key is missing or wrong, or a
    /// key is configured for a plaintext file. Never carries the key.
    #[error("{}: {problem}", .path.display())]
    Key {
        /// The file.
        path: PathBuf,
        /// What does not fit.
        problem: KeyProblem,
    },
    /// The knowledge base (or its folder) cannot be written: reads still work.
    #[error("{}: permission denied: the knowledge base or its folder is read-only (reads still work, writes cannot)", .path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// A knowledge base that does not exist yet cannot be created, because its folder (the
    /// data directory) cannot be written.
    #[error("{}: permission denied: the data directory is read-only, so the knowledge base {} cannot be created", .folder.display(), .path.display())]
    ReadOnlyFolder {
        /// The folder that cannot be written.
        folder: PathBuf,
        /// The knowledge base's file, which would have been created in it.
        path: PathBuf,
    },
    /// SQLite failed.
    #[error("knowledge base {}: {source}", .path.display())]
    Store {
        /// The file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The knowledge base is held by another writer for longer than this caller waits for it
    /// (SQLite's lock; PostgreSQL's lock conflicts, deadlocks and serialization failures). The
    /// write did not happen; the same request may be sent again.
    #[error("knowledge base {location} is busy: another writer holds it; try again")]
    Busy {
        /// The file, or the database and subject.
        location: String,
    },
    /// The PostgreSQL database cannot be reached right now (restarting, stopped, the network
    /// down, no free connection in time): a request may be sent again, and a write sent again
    /// is stored once (a write whose answer was lost may have been stored).
    #[error("database {location} cannot be reached right now ({reason}); try again")]
    Unavailable {
        /// The database (without its password) and, where known, the subject.
        location: String,
        /// Why, as the connection or the server said.
        reason: String,
    },
    /// The disk under the store is full (SQLite's files, or PostgreSQL's). The write did not
    /// happen; reads still work, and writes again once space is freed.
    #[error("{location}: the disk is full: nothing was written; free space and try again")]
    StorageFull {
        /// The file, or the database and subject.
        location: String,
    },
    /// The PostgreSQL database failed.
    #[error("database {location}: {message}")]
    Database {
        /// The database (without its password) and, where known, the subject.
        location: String,
        /// What went wrong, with the server's detail.
        message: String,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line of an import file is malformed, fails its schema or its hash, or was refused by
    /// the scan; nothing was imported.
    #[error("{source_name} line {line}: {problem}; nothing was imported")]
    BadImport {
        /// The file (or `<stdin>`).
        source_name: String,
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// An import file is the export of another subject; nothing was imported.
    #[error("{source_name} is an export of {found}, not of {expected}; nothing was imported")]
    WrongSubject {
        /// The file (or `<stdin>`).
        source_name: String,
        /// The identity of the subject imported into.
        expected: String,
        /// The identity the file's header names.
        found: String,
    },
    /// The configuration file is unreadable or holds a key or value this build does not know.
    #[error("configuration {}: {problem}", .path.display())]
    BadConfig {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key.
        problem: String,
    },
    /// A model command gave no usable answer: it could not start, timed out, failed, or
    /// answered too much or something that is not an extraction; nothing was written.
    #[error("the model command {0}; nothing was written")]
    Model(String),
    /// A command-line argument could not be understood.
    #[error("{0}")]
    Usage(String),
    /// The policy failed; nothing was written.
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

/// How an error quotes what a caller sent (a subject, a tool's name): quoted, with escapes, and
/// cut to its first 80 characters, so that a megabyte sent is not a megabyte answered.
pub fn echo(sent: &str) -> String {
    const SHOWN: usize = 80;
    match sent.char_indices().nth(SHOWN) {
        None => format!("{sent:?}"),
        Some((cut, _)) => format!(
            "{:?} (cut; {} bytes in all)",
            format!("{}…", &sent[..cut]),
            sent.len()
        ),
    }
}

fn join_field_errors(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

impl KenningError {
    /// The request's field the error is about, where it names one: `text` for a blocked text,
    /// the field a size limit is about (`text`, `sql`; not a description such as "remember
    /// arguments").
    pub fn field(&self) -> Option<&str> {
        match self {
            KenningError::Blocked { .. } => Some("text"),
            KenningError::TooLarge { what, .. }
                if !what.is_empty() && what.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
            {
                Some(what)
            }
            _ => None,
        }
    }

    /// SQLite's `source` on the knowledge base at `path`: [`KenningError::Busy`] when another
    /// connection held the lock past the wait, [`KenningError::StorageFull`] when the disk is
    /// full, else [`KenningError::Store`].
    pub(crate) fn sqlite(path: impl Into<PathBuf>, source: rusqlite::Error) -> KenningError {
        let path = path.into();
        match source.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                KenningError::Busy {
                    location: path.display().to_string(),
                }
            }
            Some(rusqlite::ErrorCode::DiskFull) => KenningError::StorageFull {
                location: path.display().to_string(),
            },
            _ => KenningError::Store { path, source },
        }
    }
}

/// Shorthand for results of the kenning library.
pub type Result<T, E = KenningError> = std::result::Result<T, E>;

/// Why a store and the configured key do not fit together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyProblem {
    /// The file is encrypted and no key is configured.
    Missing,
    /// The configured key does not decrypt the file.
    Wrong,
    /// A key is configured but the file is plaintext.
    NotEncrypted,
    /// SQLCipher refused to key the connection (its error code, never the key).
    Refused(rusqlite::ErrorCode),
}
