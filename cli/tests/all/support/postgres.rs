//! A throwaway PostgreSQL cluster for the tests that run on both backends: started once per
//! test binary by `scripts/postgres-throwaway.sh`, which stops and deletes it when this process
//! exits (its standard input, a pipe held here, closes).
//!
//! Where PostgreSQL's programs are missing the PostgreSQL half of a test is skipped with a
//! message, unless `KENNING_POSTGRES_REQUIRED=1` (CI sets it), which fails it instead.
//!
//! With `KENNING_TEST_BACKEND=postgres` (`scripts/test-on-postgres.sh`) every service test runs
//! on PostgreSQL: each data directory a test uses gets a database of its own
//! ([`store_for`]) in the running cluster whose socket directory is `KENNING_TEST_POSTGRES`,
//! and the few tests about SQLite's files say they are skipped ([`sqlite_only`]). With
//! `KENNING_TEST_POSTGRES` set, [`fresh_database`] uses that cluster too.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The running cluster: its socket's directory, and the script keeping it.
struct Cluster {
    socket_dir: String,
    _keeper: Option<Child>,
}

static CLUSTER: Mutex<Option<Result<Cluster, String>>> = Mutex::new(None);
static DATABASES: AtomicUsize = AtomicUsize::new(0);

fn start() -> Result<Cluster, String> {
    let (keeper, fields) = throwaway(&[])?;
    match fields.as_slice() {
        [dir] => Ok(Cluster {
            socket_dir: dir.clone(),
            _keeper: Some(keeper),
        }),
        _ => Err(format!(
            "unexpected answer from the cluster's script: {fields:?}"
        )),
    }
}

/// Runs `scripts/postgres-throwaway.sh ARGS`, and returns it (it keeps the cluster until its
/// standard input closes) and the words after "ready" on its first line; else what it said.
fn throwaway(args: &[&str]) -> Result<(Child, Vec<String>), String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/postgres-throwaway.sh");
    let mut keeper = Command::new("bash")
        .arg(&script)
        .args(args)
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
        Some(rest) => Ok((keeper, rest.split_whitespace().map(str::to_owned).collect())),
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

/// The cluster named by `KENNING_TEST_POSTGRES`, kept running by whoever set it.
fn given() -> Option<Result<Cluster, String>> {
    let socket_dir = std::env::var("KENNING_TEST_POSTGRES").ok()?;
    Some(Ok(Cluster {
        socket_dir,
        _keeper: None,
    }))
}

/// The connection string of a new, empty database in the throwaway cluster (started on first
/// use); `None`, after saying so, where PostgreSQL cannot run and is not required.
pub fn fresh_database() -> Option<String> {
    let mut cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let started = cluster.get_or_insert_with(|| given().unwrap_or_else(start));
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
    with_client(
        &format!("host={dir} user=kenning dbname=postgres"),
        |client| {
            client
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .expect("create a database")
        },
    );
    Some(format!("host={dir} user=kenning dbname={name}"))
}

/// Runs `work` with a client connected to `url`, on a thread of its own: the synchronous client
/// runs a runtime of its own, which cannot start (or stop) inside an async test's.
pub fn with_client<T: Send>(url: &str, work: impl FnOnce(&mut postgres::Client) -> T + Send) -> T {
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let mut client = postgres::Client::connect(url, postgres::NoTls)
                .unwrap_or_else(|e| panic!("connect to {url}: {e}"));
            work(&mut client)
        });
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Whether this run puts the service tests on PostgreSQL (`KENNING_TEST_BACKEND=postgres`).
pub fn on_postgres() -> bool {
    std::env::var("KENNING_TEST_BACKEND").as_deref() == Ok("postgres")
}

/// On a PostgreSQL run, the database standing for the data directory `data`, created the first
/// time any process names the directory (its name comes from the path, so a child process
/// finds the same one). `None` on a SQLite run.
pub fn store_for(data: &Path) -> Option<String> {
    if !on_postgres() {
        return None;
    }
    let socket_dir = std::env::var("KENNING_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "KENNING_TEST_BACKEND=postgres needs KENNING_TEST_POSTGRES, a running cluster's \
             socket directory: run the tests with scripts/test-on-postgres.sh"
        )
    });
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(data, &mut hasher);
    let name = format!("kenning_dir_{:016x}", std::hash::Hasher::finish(&hasher));
    let url = format!("host={socket_dir} user=kenning dbname={name}");
    static CREATED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut created = CREATED.lock().unwrap_or_else(|e| e.into_inner());
    if !created.contains(&name) {
        let admin = format!("host={socket_dir} user=kenning dbname=postgres");
        with_client(&admin, |client| {
            if let Err(error) = client.batch_execute(&format!("CREATE DATABASE {name}")) {
                let exists = error.code() == Some(&postgres::error::SqlState::DUPLICATE_DATABASE);
                assert!(exists, "create the database {name}: {}", detail(&error));
            }
        });
        created.push(name);
    }
    Some(url)
}

/// The login `query` runs as in the cluster of `store` (a URL [`store_for`] or
/// [`fresh_database`] gave): the role `kenning_query`, made once per cluster, which holds no
/// privilege on any table, connecting to the same database.
pub fn query_login_for(store: &str) -> String {
    let dbname = store
        .split_whitespace()
        .find_map(|part| part.strip_prefix("dbname="))
        .expect("a database name");
    let host = store
        .split_whitespace()
        .find_map(|part| part.strip_prefix("host="))
        .expect("a socket directory");
    static MADE: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if !made.iter().any(|h| h == host) {
        with_client(
            &format!("host={host} user=kenning dbname=postgres"),
            |client| {
                if let Err(error) = client.batch_execute("CREATE ROLE kenning_query LOGIN") {
                    let exists = error.code() == Some(&postgres::error::SqlState::DUPLICATE_OBJECT);
                    assert!(exists, "create the query login: {}", detail(&error));
                }
            },
        );
        made.push(host.to_owned());
    }
    format!("host={host} user=kenning_query dbname={dbname}")
}

/// What went wrong, with the server's message where there is one (a `postgres::Error` says
/// only "db error").
fn detail(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => error.to_string(),
    }
}

/// True, after saying why, when a test about SQLite's own files runs on PostgreSQL: the test
/// then returns early. `why` names what the test checks that only SQLite has.
pub fn sqlite_only(why: &str) -> bool {
    skipped_on_postgres(why)
}

/// True, after saying why, when a test that opens no knowledge base runs on PostgreSQL: the
/// test then returns early, as the SQLite pass ran it and nothing in it depends on the backend.
/// `what` names what the test checks.
pub fn opens_no_store(what: &str) -> bool {
    skipped_on_postgres(&format!("{what} opens no knowledge base"))
}

/// Whether this run is on PostgreSQL, saying first that the test is skipped and why.
fn skipped_on_postgres(why: &str) -> bool {
    let skipped = on_postgres();
    if skipped {
        eprintln!("skipped on PostgreSQL: {why}");
    }
    skipped
}

/// A direct connection to one knowledge base on the backend this run tests, for tests that
/// prepare a state no command makes (a note aged by a year) or read what no command shows.
/// Each statement comes in both dialects. On PostgreSQL, `memories`, `anchors`, `events`,
/// `settings` and `meta` name temporary views of the one subject's rows (the tables themselves
/// are `public.memories` and so on), so that a statement sees what the SQLite file holds.
pub enum DirectSql {
    /// The subject's SQLite file.
    Sqlite(rusqlite::Connection),
    /// The data directory's database ([`store_for`]), connected to for each statement
    /// ([`with_client`]), and the views of the subject's rows.
    Postgres {
        /// The database.
        url: String,
        /// The statements making the subject's views.
        views: String,
    },
}

impl DirectSql {
    /// Opens the knowledge base whose SQLite file would be `store_file` (a file of the data
    /// directory `data`, named by `Subject::file_name`).
    pub fn open(data: &Path, store_file: &Path) -> DirectSql {
        let Some(url) = store_for(data) else {
            return DirectSql::Sqlite(rusqlite::Connection::open(store_file).expect("open"));
        };
        let name = store_file
            .file_stem()
            .and_then(|stem| stem.to_str())
            .expect("a store file's name");
        let subject = format!("(SELECT id FROM public.subjects WHERE name = '{name}')");
        let views = ["memories", "anchors", "events", "settings", "meta"]
            .map(|table| {
                format!(
                    "CREATE TEMP VIEW {table} AS SELECT * FROM public.{table} \
                     WHERE subject_id = {subject};"
                )
            })
            .concat();
        DirectSql::Postgres { url, views }
    }

    /// Runs `sqlite` or `postgres` (statements without results).
    pub fn execute(&mut self, sqlite: &str, postgres: &str) {
        match self {
            DirectSql::Sqlite(conn) => conn.execute_batch(sqlite).expect(sqlite),
            DirectSql::Postgres { url, views } => with_client(url, |client| {
                client.batch_execute(views).expect("the subject's views");
                client.batch_execute(postgres).expect(postgres)
            }),
        }
    }

    /// The rows of `sqlite` or `postgres`, a query of one text column.
    pub fn texts(&mut self, sqlite: &str, postgres: &str) -> Vec<String> {
        match self {
            DirectSql::Sqlite(conn) => {
                let mut stmt = conn.prepare(sqlite).expect(sqlite);
                stmt.query_map([], |row| row.get::<_, String>(0))
                    .expect(sqlite)
                    .collect::<Result<_, _>>()
                    .expect(sqlite)
            }
            DirectSql::Postgres { url, views } => with_client(url, |client| {
                client.batch_execute(views).expect("the subject's views");
                client
                    .query(postgres, &[])
                    .expect(postgres)
                    .iter()
                    .map(|row| row.get::<_, String>(0))
                    .collect()
            }),
        }
    }

    /// `PRAGMA integrity_check` on SQLite; "ok" on PostgreSQL, which checks its own pages.
    pub fn integrity(&mut self) -> String {
        match self {
            DirectSql::Sqlite(_) => self.texts("PRAGMA integrity_check", "").remove(0),
            DirectSql::Postgres { .. } => "ok".to_owned(),
        }
    }
}

/// The knowledge bases held for the data directory `data` on the backend this run tests, by
/// store name (`Subject::store_name`): its `.sqlite` files, or its database's subjects.
pub fn stores_in(data: &Path) -> Vec<String> {
    if let Some(url) = store_for(data) {
        return with_client(&url, |client| {
            match client.query("SELECT name FROM subjects ORDER BY name", &[]) {
                Ok(rows) => rows.iter().map(|row| row.get(0)).collect(),
                // Before any kenning connects, the schema (and its `subjects`) is not there
                // yet: no stores. Any other failure is no answer, and fails the test.
                Err(error) if error.code() == Some(&postgres::error::SqlState::UNDEFINED_TABLE) => {
                    Vec::new()
                }
                Err(error) => panic!("list the subjects of {url}: {}", detail(&error)),
            }
        });
    }
    let entries = match std::fs::read_dir(data) {
        Ok(entries) => entries,
        // No data directory yet: no stores.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(error) => panic!("list the stores of {}: {error}", data.display()),
    };
    let mut names: Vec<String> = entries
        .map(|entry| entry.unwrap_or_else(|e| panic!("list {}: {e}", data.display())))
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(".sqlite").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// What a store holds, to compare before and after an operation that must write nothing: the
/// SQLite file's bytes, or every memory, event and recorded run of the data directory's
/// PostgreSQL database.
pub fn contents(data: &Path, store_file: &Path) -> Vec<u8> {
    let Some(url) = store_for(data) else {
        return std::fs::read(store_file).expect("read the store");
    };
    with_client(&url, |client| {
        let mut held = Vec::new();
        for query in [
            "SELECT row_to_json(t)::text FROM memories t ORDER BY id",
            "SELECT row_to_json(t)::text FROM anchors t ORDER BY id",
            "SELECT row_to_json(t)::text FROM events t ORDER BY id",
            "SELECT row_to_json(t)::text FROM settings t ORDER BY subject_id, thread, key",
            "SELECT row_to_json(t)::text FROM meta t ORDER BY subject_id, key",
        ] {
            for row in client.query(query, &[]).expect(query) {
                held.extend(row.get::<_, String>(0).into_bytes());
                held.push(b'\n');
            }
        }
        held
    })
}

/// A throwaway cluster of its own that takes only TLS connections on 127.0.0.1
/// (`postgres-throwaway.sh --tls`): stopped and deleted when dropped.
pub struct TlsCluster {
    /// Its TCP port.
    pub port: u16,
    /// The certificate authority that signed its certificate (for `localhost`).
    pub ca: String,
    _keeper: Child,
}

impl TlsCluster {
    /// Starts one; `None`, after saying so, where PostgreSQL cannot run and is not required.
    pub fn start() -> Option<TlsCluster> {
        let started = throwaway(&["--tls"]).and_then(|(keeper, fields)| match fields.as_slice() {
            [_dir, port, ca] => Ok(TlsCluster {
                port: port.parse().map_err(|_| format!("not a port: {port}"))?,
                ca: ca.clone(),
                _keeper: keeper,
            }),
            _ => Err(format!(
                "unexpected answer from the cluster's script: {fields:?}"
            )),
        });
        required_or_skipped(started)
    }
}

/// A throwaway cluster the test may stop, start and restart (`postgres-throwaway.sh
/// --restartable`), stopped and deleted when dropped.
pub struct RestartableCluster {
    /// The folder of its unix socket: `host=` for a connection string.
    pub socket_dir: String,
    data: String,
    bin: String,
    _keeper: Child,
}

impl RestartableCluster {
    /// Starts one; `None`, after saying so, where PostgreSQL cannot run and is not required.
    pub fn start() -> Option<RestartableCluster> {
        let started =
            throwaway(&["--restartable"]).and_then(|(keeper, fields)| match fields.as_slice() {
                [socket_dir, data, bin] => Ok(RestartableCluster {
                    socket_dir: socket_dir.clone(),
                    data: data.clone(),
                    bin: bin.clone(),
                    _keeper: keeper,
                }),
                _ => Err(format!(
                    "unexpected answer from the cluster's script: {fields:?}"
                )),
            });
        required_or_skipped(started)
    }

    /// A connection string for its `postgres` database.
    pub fn url(&self) -> String {
        format!("host={} user=kenning dbname=postgres", self.socket_dir)
    }

    /// Runs `pg_ctl -D DATA ARGS...` (as `postgres` when root), and checks that it succeeded.
    pub fn pg_ctl(&self, args: &[&str]) {
        let pg_ctl = format!("{}/pg_ctl", self.bin);
        let mut command = if is_root() {
            let mut runuser = Command::new("runuser");
            runuser.args(["-u", "postgres", "--", &pg_ctl]);
            runuser
        } else {
            Command::new(&pg_ctl)
        };
        command.args(["-D", &self.data, "-w"]).args(args);
        if matches!(args.first(), Some(&"start" | &"restart")) {
            // Else the server would hold this command's output pipes open.
            command.args(["-l", &format!("{}/server.log", self.socket_dir)]);
        }
        let output = command.output().expect("run pg_ctl");
        assert!(output.status.success(), "pg_ctl {args:?}: {output:?}");
    }
}

/// Whether the tests run as root (the cluster then runs as the `postgres` user).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// The cluster that started; else `None`, after saying why, unless PostgreSQL is required
/// (`KENNING_POSTGRES_REQUIRED=1`, as in CI), when the test fails instead.
fn required_or_skipped<T>(started: Result<T, String>) -> Option<T> {
    match started {
        Ok(cluster) => Some(cluster),
        Err(problem) if std::env::var("KENNING_POSTGRES_REQUIRED").as_deref() == Ok("1") => {
            panic!("PostgreSQL is required (KENNING_POSTGRES_REQUIRED=1): {problem}")
        }
        Err(problem) => {
            eprintln!("skipping a PostgreSQL test: {problem}");
            None
        }
    }
}
