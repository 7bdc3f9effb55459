//! A throwaway PostgreSQL cluster for the tests that run on both backends: started once per
//! test binary by `scripts/postgres-throwaway.sh`, which stops and deletes it when this process
//! exits (its standard input, a pipe held here, closes).
//!
//! Where PostgreSQL's programs are missing the PostgreSQL half of a test is skipped with a
//! message, unless `KENNING_POSTGRES_REQUIRED=1` (CI sets it), which fails it instead.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The running cluster: its socket's directory, and the script keeping it.
struct Cluster {
    socket_dir: String,
    _keeper: Child,
}

static CLUSTER: Mutex<Option<Result<Cluster, String>>> = Mutex::new(None);
static DATABASES: AtomicUsize = AtomicUsize::new(0);

fn start() -> Result<Cluster, String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/postgres-throwaway.sh");
    let mut keeper = Command::new("bash")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let mut line = String::new();
    let stdout = keeper.stdout.take().ok_or("no standard output")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    match line.trim().strip_prefix("ready ") {
        Some(dir) => Ok(Cluster {
            socket_dir: dir.to_owned(),
            _keeper: keeper,
        }),
        None => {
            let mut problem = String::new();
            if let Some(stderr) = keeper.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut problem);
            }
            let _ = keeper.wait();
            Err(format!(
                "the throwaway cluster did not start: {}",
                problem.trim()
            ))
        }
    }
}

/// The connection string of a new, empty database in the throwaway cluster (started on first
/// use); `None`, after saying so, where PostgreSQL cannot run and is not required.
pub fn fresh_database() -> Option<String> {
    let mut cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let started = cluster.get_or_insert_with(start);
    let dir = match started {
        Ok(cluster) => cluster.socket_dir.clone(),
        Err(problem) => {
            if std::env::var("KENNING_POSTGRES_REQUIRED").as_deref() == Ok("1") {
                panic!("PostgreSQL is required (KENNING_POSTGRES_REQUIRED=1): {problem}");
            }
            eprintln!("skipping the PostgreSQL half of this test: {problem}");
            return None;
        }
    };
    drop(cluster);
    let name = format!(
        "kenning_test_{}_{}",
        std::process::id(),
        DATABASES.fetch_add(1, Ordering::Relaxed)
    );
    let admin = format!("host={dir} user=kenning dbname=postgres");
    let mut client =
        postgres::Client::connect(&admin, postgres::NoTls).expect("connect to the cluster");
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a database");
    Some(format!("host={dir} user=kenning dbname={name}"))
}
