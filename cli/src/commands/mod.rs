//! The `kenning` program's commands, one file per command group, each a thin adapter over
//! [`kenning::Service`]; this module holds what they share: the global options and the one
//! function that turns them into a [`ServiceBuilder`], subject and address parsing, printing,
//! and the `{"ok": ...}` envelope of `call`.
//!
//! - `remember`, `recall`, `forget`, `list`, `call`: [`memory`];
//! - `inject`: [`inject`];
//! - `scan`, `validate`: [`scan`];
//! - `review list|accept|reject`: [`review`];
//! - `settings`, `stats`, `log`, `view`: [`settings`];
//! - `describe`: [`describe`];
//! - `dream`: [`dream`], consolidation previewed, then applied as previewed;
//! - `graph`: [`graph`], memories, anchors and shared tags as JSON or DOT;
//! - `export`, `import`: [`interchange`], kenning-memory/1 files;
//! - `encrypt`: [`encrypt`], encrypting existing stores with the configured key;
//! - `rekey`: [`rekey`], moving a data directory's encrypted stores to a new key;
//! - `serve`, `token`: [`serve`], [`token`], the HTTP API and its bearer tokens;
//! - `bench`, `eval`, `demo`: [`bench`], [`eval`], [`demo`], measurements and the scripted
//!   session, which use only the library's public API.

/// `println!` for a command's answer: a closed or full standard output becomes
/// [`KenningError::Output`] (returned with `?`), never a panic.
macro_rules! outln {
    () => {
        $crate::commands::write_stdout(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::commands::write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` for a command's answer (see [`outln!`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::write_stdout(format_args!($($arg)*))?
    };
}

pub mod bench;
pub mod demo;
pub mod describe;
pub mod dream;
pub mod encrypt;
pub mod eval;
pub mod extract;
pub mod graph;
pub mod inject;
pub mod interchange;
pub mod maintain;
pub mod mcp;
pub mod memory;
pub mod policy;
pub mod query;
pub mod rekey;
pub mod review;
pub mod scan;
pub mod serve;
pub mod settings;
pub mod share;
pub mod token;
pub mod turn;
pub mod write_paths;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use kenning::encryption::StoreKey;
use kenning::memory::Memory;
use kenning::policy::SandboxLimits;
use kenning::subject::{Subject, default_data_dir};
use kenning::{KenningError, PolicySource, Result, Service, ServiceBuilder};
use kenning_contract::args::Author;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The options every command accepts.
#[derive(Args)]
pub struct GlobalOpts {
    /// Where knowledge bases live [default: $KENNING_HOME, else $XDG_DATA_HOME/kenning, else ~/.local/share/kenning]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// A policy component to use instead of the embedded default.
    #[arg(long, global = true, value_name = "PATH")]
    pub policy: Option<PathBuf>,
    /// Run the default policy natively, without the sandbox (for comparison and debugging).
    #[arg(long, global = true, conflicts_with = "policy")]
    pub native_policy: bool,
    /// Fuel for each policy call.
    #[arg(long, global = true, default_value_t = SandboxLimits::default().fuel)]
    pub fuel: u64,
    /// Memory cap of the policy, in MiB.
    #[arg(long, global = true, default_value_t = SandboxLimits::default().memory_bytes >> 20)]
    pub memory_mib: usize,
    /// Wall-clock deadline of each policy call, in milliseconds.
    #[arg(long, global = true, default_value_t = SandboxLimits::default().deadline_ms)]
    pub deadline_ms: u64,
    /// A file holding the key of encrypted stores: 64 hex digits (a raw key) or a passphrase
    /// [default: $KENNING_KEY_FILE, else the key in $KENNING_KEY, else none: plaintext stores]
    #[arg(long, global = true, value_name = "PATH")]
    pub key_file: Option<PathBuf>,
    /// Where compiled policies are cached, shared by every data directory that names it
    /// [default: $KENNING_CACHE_DIR, else `cache` in the data directory]
    #[arg(long, global = true, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Keep knowledge bases in this PostgreSQL database (`postgres://USER@HOST/DB`, or
    /// `host=/run/postgresql dbname=kenning`) instead of SQLite files in the data directory,
    /// which still holds tokens, settings and the cache [default: $KENNING_STORE, else SQLite]
    #[arg(long, global = true, value_name = "URL")]
    pub store: Option<String>,
    /// With a PostgreSQL store: the login `query` runs as, one that holds no privilege on any
    /// table (see docs/query.md) [default: $KENNING_QUERY_STORE, else none: query is refused]
    #[arg(long, global = true, value_name = "URL")]
    pub query_store: Option<String>,
}

impl GlobalOpts {
    /// The data directory: `--data-dir`, else the default one.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(default_data_dir)
    }

    /// Where compiled policies are cached: `--cache-dir`, else `KENNING_CACHE_DIR`, else `cache`
    /// in the data directory.
    pub fn cache_dir(&self) -> PathBuf {
        self.chosen_cache_dir()
            .unwrap_or_else(|| self.data_dir().join("cache"))
    }

    /// The PostgreSQL database named by `--store` or `KENNING_STORE`, if either is set.
    pub fn store_url(&self) -> Option<String> {
        self.store
            .clone()
            .filter(|url| !url.is_empty())
            .or_else(|| {
                std::env::var("KENNING_STORE")
                    .ok()
                    .filter(|url| !url.is_empty())
            })
    }

    /// The query login named by `--query-store` or `KENNING_QUERY_STORE`, if either is set.
    pub fn query_store_url(&self) -> Option<String> {
        self.query_store
            .clone()
            .filter(|url| !url.is_empty())
            .or_else(|| {
                std::env::var("KENNING_QUERY_STORE")
                    .ok()
                    .filter(|url| !url.is_empty())
            })
    }

    /// The cache directory named by `--cache-dir` or `KENNING_CACHE_DIR`, if either is set.
    fn chosen_cache_dir(&self) -> Option<PathBuf> {
        self.cache_dir.clone().or_else(|| {
            std::env::var_os("KENNING_CACHE_DIR")
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from)
        })
    }

    /// The key of encrypted stores, read once: `--key-file`, else `KENNING_KEY_FILE`, else
    /// `KENNING_KEY`; `None` when none is set.
    pub fn store_key(&self) -> Result<Option<StoreKey>> {
        StoreKey::from_config(self.key_file.as_deref())
    }

    /// Another `kenning` process (a job started in the background) with these options: the
    /// data directory resolved, the store given through `KENNING_STORE` (so that a URL's
    /// password is never in an argument list others can read), the rest of the environment
    /// inherited.
    pub fn child(&self, exe: &std::path::Path) -> std::process::Command {
        let mut child = std::process::Command::new(exe);
        child.args(self.as_args());
        if let Some(store) = self.store_url() {
            child.env("KENNING_STORE", store);
        }
        if let Some(login) = self.query_store_url() {
            child.env("KENNING_QUERY_STORE", login);
        }
        child
    }

    fn as_args(&self) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = vec!["--data-dir".into(), self.data_dir().into()];
        if let Some(policy) = &self.policy {
            args.extend(["--policy".into(), policy.into()]);
        }
        if self.native_policy {
            args.push("--native-policy".into());
        }
        if let Some(key_file) = &self.key_file {
            args.extend(["--key-file".into(), key_file.into()]);
        }
        if let Some(cache_dir) = &self.cache_dir {
            args.extend(["--cache-dir".into(), cache_dir.into()]);
        }
        args.extend([
            "--fuel".into(),
            self.fuel.to_string().into(),
            "--memory-mib".into(),
            self.memory_mib.to_string().into(),
            "--deadline-ms".into(),
            self.deadline_ms.to_string().into(),
        ]);
        args
    }

    /// The sandbox limits asked for; a memory cap too large to count in bytes is refused here,
    /// one out of the sandbox's range by [`SandboxLimits::check`].
    pub fn limits(&self) -> Result<SandboxLimits> {
        let memory_bytes = self.memory_mib.checked_mul(1 << 20).ok_or_else(|| {
            usage(format!(
                "--memory-mib {} is too large: the cap must fit in {} bytes",
                self.memory_mib,
                usize::MAX
            ))
        })?;
        let limits = SandboxLimits {
            fuel: self.fuel,
            memory_bytes,
            deadline_ms: self.deadline_ms,
        };
        limits.check()?;
        Ok(limits)
    }
}

/// How a command uses the policy, which decides what its service loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyUse {
    /// A few calls, each in a fresh instance.
    Calls,
    /// A stream of calls from this one caller (`scan --jsonl`, `validate`, `eval scan`): one
    /// instance for all of them, so the policy builds its state once.
    Session,
    /// None: the command only reads or governs the store (`list`, `review`, `settings`,
    /// `stats`, `log`, `view`), so the component is not even compiled.
    StoreOnly,
}

/// The service the global options ask for, over `data_dir` (the global one when `None`), ready
/// to build or to adjust further. Opening the user's own data directory first moves in the
/// knowledge bases left under the project's old name.
pub fn service(
    global: &GlobalOpts,
    data_dir: Option<&Path>,
    policy_use: PolicyUse,
) -> Result<ServiceBuilder> {
    let limits = global.limits()?;
    let data_dir = match data_dir {
        Some(dir) => dir.to_path_buf(),
        None => {
            let dir = global.data_dir();
            if global.data_dir.is_none()
                && let Some(line) = kenning::home::adopt_into_default_data_dir()
            {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "{line}");
            }
            dir
        }
    };
    let source = match (&global.policy, policy_use) {
        (_, PolicyUse::StoreOnly) => PolicySource::Native,
        _ if global.native_policy => PolicySource::Native,
        (Some(path), _) => PolicySource::File(path.clone()),
        (None, _) => PolicySource::Default,
    };
    let mut builder = Service::builder(data_dir)
        .store_key(global.store_key()?)
        .policy(source)
        .limits(limits)
        .scan_session(policy_use == PolicyUse::Session);
    if let Some(cache) = global.chosen_cache_dir() {
        builder = builder.cache_dir(cache);
    }
    if let Some(url) = global.store_url() {
        builder = builder.postgres(url);
        if let Some(login) = global.query_store_url() {
            builder = builder.query_login(login);
        }
    }
    Ok(builder)
}

/// The `--subject` option.
#[derive(Args)]
pub struct SubjectArg {
    /// The subject: a file (its MD5 keys the knowledge base), file:PATH, db:PATH, account:NAME or profile:NAME.
    #[arg(long, short)]
    pub subject: String,
}

impl SubjectArg {
    /// The subject, resolved.
    pub fn parse(&self) -> Result<Subject> {
        Subject::parse(&self.subject)
    }
}

/// A subject and `--json`, for commands that need nothing else.
#[derive(Args)]
pub struct SubjectOnlyCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Who is writing, as `--author` names them.
#[derive(Clone, Copy, ValueEnum)]
pub enum AuthorArg {
    /// The user, through a trusted interface.
    Human,
    /// The host's own agent.
    Agent,
    /// An automatic triage pass.
    Triage,
    /// An external client (its writes await review).
    External,
    /// A peer sharing its findings (its writes await review as INBOUND-PENDING).
    Peer,
}

impl From<AuthorArg> for Author {
    fn from(a: AuthorArg) -> Author {
        match a {
            AuthorArg::Human => Author::Human,
            AuthorArg::Agent => Author::Agent,
            AuthorArg::Triage => Author::Triage,
            AuthorArg::External => Author::External,
            AuthorArg::Peer => Author::Peer,
        }
    }
}

/// A command-line usage error.
pub fn usage(message: impl Into<String>) -> KenningError {
    KenningError::Usage(message.into())
}

/// Reads a word as one of the library's snake_case enums (a scope, a target, a kind), or says
/// which `flag` was wrong and what it expects.
pub fn parse_word<T: DeserializeOwned>(flag: &str, text: &str, expected: &str) -> Result<T> {
    serde_json::from_value(Value::String(text.to_owned()))
        .map_err(|_| usage(format!("{flag} {text:?}: expected {expected}")))
}

/// `0x401000`, `0X401000` or decimal.
pub fn parse_address(text: &str) -> Result<u64> {
    kenning_contract::parse_address(text).map_err(|problem| usage(format!("{text:?}: {problem}")))
}

/// `NAME@START[-END]`: a function's name, first address and, when given, the address past
/// its end.
pub fn parse_function(spec: &str) -> Result<(String, u64, Option<u64>)> {
    let (name, range) = spec
        .rsplit_once('@')
        .ok_or_else(|| usage(format!("{spec:?}: expected NAME@START[-END]")))?;
    let (start, end) = match range.split_once('-') {
        Some((start, end)) => (parse_address(start)?, Some(parse_address(end)?)),
        None => (parse_address(range)?, None),
    };
    Ok((name.to_owned(), start, end))
}

/// One value as one JSON line.
pub fn print_json(value: &impl serde::Serialize) -> Result<()> {
    outln!(
        "{}",
        serde_json::to_string(value).expect("results serialise")
    );
    Ok(())
}

/// One value as indented JSON.
pub fn print_pretty(value: &impl serde::Serialize) -> Result<()> {
    outln!(
        "{}",
        serde_json::to_string_pretty(value).expect("results serialise")
    );
    Ok(())
}

/// Prints memories one a line: JSON, or `#id [label] text`.
pub fn print_memories(
    memories: &[Memory],
    json: bool,
    label: impl Fn(&Memory) -> String,
) -> Result<()> {
    for memory in memories {
        if json {
            print_json(memory)?;
        } else {
            outln!("#{} [{}] {}", memory.id, label(memory), memory.text);
        }
    }
    Ok(())
}

/// The one JSON line `call` prints: the result's fields with `"ok": true`, or `"ok": false`
/// with the error (and, for invalid arguments, every field error).
pub fn envelope(outcome: &Result<Value>) -> Value {
    match outcome {
        Ok(answer) => {
            let mut line = serde_json::Map::new();
            line.insert("ok".into(), Value::Bool(true));
            if let Some(fields) = answer.as_object() {
                line.extend(fields.clone());
            }
            Value::Object(line)
        }
        Err(error) => {
            let mut line = json!({"ok": false, "error": error.to_string()});
            if let KenningError::Invalid { errors, .. } = error {
                line["errors"] = json!(errors);
            }
            line
        }
    }
}

/// Writes a command's answer to standard output, control characters escaped
/// ([`kenning::controls::escape`]: what a store, a model or a file holds is shown, never obeyed),
/// and flushes it, so
/// that a closed or full output is seen here, as [`KenningError::Output`].
pub fn write_stdout(text: std::fmt::Arguments<'_>) -> Result<()> {
    use std::io::Write;
    let text = text.to_string();
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(kenning::controls::escape(&text).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(KenningError::Output)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(memory_mib: usize) -> GlobalOpts {
        GlobalOpts {
            data_dir: None,
            policy: None,
            native_policy: false,
            fuel: 1,
            memory_mib,
            deadline_ms: 1_000,
            key_file: None,
            cache_dir: None,
            store: None,
            query_store: None,
        }
    }

    #[test]
    fn a_background_job_gets_the_store_in_its_environment_and_not_in_its_arguments() {
        let url = "postgres://kenning:secret@db/kenning";
        let login = "postgres://kenning_query:other@db/kenning";
        let global = GlobalOpts {
            store: Some(url.to_owned()),
            query_store: Some(login.to_owned()),
            ..opts(64)
        };
        let child = global.child(Path::new("/bin/kenning"));
        let env = |var: &str| {
            child
                .get_envs()
                .find(|(name, _)| *name == var)
                .and_then(|(_, value)| value)
        };
        assert_eq!(env("KENNING_STORE"), Some(std::ffi::OsStr::new(url)));
        assert_eq!(
            env("KENNING_QUERY_STORE"),
            Some(std::ffi::OsStr::new(login))
        );
        assert!(
            child
                .get_args()
                .all(|arg| arg.to_str() != Some(url) && arg.to_str() != Some(login))
        );
    }

    #[test]
    fn addresses_are_hex_or_decimal() {
        assert_eq!(parse_address("0x401000").unwrap(), 0x40_1000);
        assert_eq!(parse_address(" 0X10 ").unwrap(), 16);
        assert_eq!(parse_address("4096").unwrap(), 4096);
        let error = parse_address("401000h").unwrap_err().to_string();
        assert!(
            error.contains("\"401000h\": expected an address"),
            "the error names the text and what was expected: {error}"
        );
    }

    #[test]
    fn functions_are_a_name_and_a_range() {
        assert_eq!(
            parse_function("decrypt@0x401000-0x401200").unwrap(),
            ("decrypt".into(), 0x40_1000, Some(0x40_1200))
        );
        assert_eq!(
            parse_function("a@b@0x10").unwrap(),
            ("a@b".into(), 16, None)
        );
        let error = parse_function("decrypt").unwrap_err().to_string();
        assert!(
            error.contains("\"decrypt\": expected NAME@START[-END]"),
            "{error}"
        );
    }

    #[test]
    fn a_memory_cap_too_large_to_count_is_refused() {
        let error = opts(usize::MAX).limits().unwrap_err().to_string();
        assert!(error.contains("--memory-mib"), "{error}");
        let error = opts(1 << 44).limits().unwrap_err().to_string();
        assert!(error.contains("--memory-mib"), "{error}");
        assert_eq!(opts(64).limits().unwrap().memory_bytes, 64 << 20);
    }

    #[test]
    fn the_envelope_puts_ok_beside_the_fields() {
        let ok = envelope(&Ok(json!({"id": 3, "status": "accepted"})));
        assert_eq!(ok, json!({"ok": true, "id": 3, "status": "accepted"}));
        let failed = envelope(&Err(usage("bad")));
        assert_eq!(failed, json!({"ok": false, "error": "bad"}));
    }
}
