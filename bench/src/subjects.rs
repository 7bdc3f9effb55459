//! Many subjects behind one server, and two servers behind one database:
//! - `new_subject_write_rps`: `POST memories` answered per second when each is the first write
//!   to its subject (its store is created by the write), [`CLIENTS`] keep-alive clients;
//! - `cold_subject_search_rps`: `POST search` answered per second when each is on a subject
//!   whose store is not open (every subject is searched once, in the order written, so the
//!   server's open stores are always others);
//! - `serve_subjects_rss_mib`: the server's peak resident memory after both, MiB;
//! - with a PostgreSQL database, `http_mixed_rps` and `http_mixed_p99_ms`: [`MIXED_CLIENTS`]
//!   clients over two servers on that one database, nine searches to one write, timed after
//!   each client's first requests (as the other HTTP figures are: connections opened, the
//!   servers' pools filled), and every acknowledged write read back afterwards.

use std::ffi::OsString;
use std::path::Path;

use kenning::KenningError;
use kenning_server::tokens::{Role, TokenStore};
use serde::Serialize;

use crate::http::{CLIENTS, Request, Served, WARM_UP, p99_ms, run_clients, runtime};

/// Clients of the mixed load, spread over the two servers.
pub const MIXED_CLIENTS: usize = 64;

/// Subjects the mixed load reads and writes (the first of the many).
const MIXED_SUBJECTS: usize = 256;

/// Requests each mixed client times (after [`WARM_UP`] untimed ones).
const MIXED_REQUESTS: usize = 50;

/// The figures of one backend.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SubjectFigures {
    /// First writes to new subjects answered per second.
    pub new_subject_write_rps: f64,
    /// Searches on subjects whose store is not open, answered per second.
    pub cold_subject_search_rps: f64,
    /// The server's peak resident memory, MiB.
    pub serve_subjects_rss_mib: f64,
}

/// The mixed load's figures.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct MixedFigures {
    /// Requests answered per second, both servers together.
    pub http_mixed_rps: f64,
    /// The 99th percentile of one request's round trip, ms.
    pub http_mixed_p99_ms: f64,
}

/// The subjects' specs: `account:many-00000`, ...
fn specs(subjects: usize) -> Vec<String> {
    (0..subjects)
        .map(|i| format!("account:many-{i:05}"))
        .collect()
}

/// A note for subject `i`, each with words of its own.
fn note(i: usize) -> String {
    format!(
        "Subject {i} keeps its build cache in bucket b{i} and rotates the key every {} days.",
        i % 90 + 1
    )
}

/// Measures [`SubjectFigures`] on a new `kenning serve` over `data_dir` (empty) and, when
/// given, the PostgreSQL database `store` (holding none of the subjects): `subjects` subjects,
/// each written once then searched once.
pub fn measure(
    data_dir: &Path,
    store: Option<&str>,
    policy_args: &[OsString],
    subjects: usize,
) -> Result<SubjectFigures, KenningError> {
    let specs = specs(subjects);
    let (token, _) = TokenStore::open_for(data_dir, None, store)?.create(&specs, Role::Human, 0)?;
    let served = Served::spawn(data_dir, store, policy_args)?;
    let base = served.base.clone();
    let per_client = subjects.div_ceil(CLIENTS);
    let (write_rps, search_rps) = runtime()?.block_on(async {
        let writes: Vec<Request> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| Request {
                url: format!("{base}/v1/subjects/{spec}/memories"),
                body: serde_json::json!({ "content": note(i) }).to_string(),
            })
            .collect();
        let (elapsed, written) = run_clients(CLIENTS, &writes, &token, 0, per_client).await?;
        let write_rps = written.len() as f64 / elapsed.as_secs_f64();
        let searches: Vec<Request> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| Request {
                url: format!("{base}/v1/subjects/{spec}/search"),
                body: serde_json::json!({ "query": format!("bucket b{i} key"), "limit": 10 })
                    .to_string(),
            })
            .collect();
        let (elapsed, searched) = run_clients(CLIENTS, &searches, &token, 0, per_client).await?;
        Ok::<_, KenningError>((write_rps, searched.len() as f64 / elapsed.as_secs_f64()))
    })?;
    let rss = peak_rss_mib(served.pid())?;
    drop(served);
    Ok(SubjectFigures {
        new_subject_write_rps: write_rps,
        cold_subject_search_rps: search_rps,
        serve_subjects_rss_mib: rss,
    })
}

/// Measures [`MixedFigures`]: two servers over `data_dir_a` and `data_dir_b` on the database
/// `store`, after [`measure`] has written its `subjects` subjects there (the load uses the
/// first [`MIXED_SUBJECTS`]); then checks that every write acknowledged is there.
pub fn measure_mixed(
    data_dir_a: &Path,
    data_dir_b: &Path,
    store: &str,
    policy_args: &[OsString],
    subjects: usize,
) -> Result<MixedFigures, KenningError> {
    let failed = |message: String| KenningError::Usage(format!("mixed bench: {message}"));
    let mixed_subjects = MIXED_SUBJECTS.min(subjects).max(1);
    let specs = specs(mixed_subjects);
    let (token, _) =
        TokenStore::open_for(data_dir_a, None, Some(store))?.create(&specs, Role::Human, 0)?;
    let servers = [
        Served::spawn(data_dir_a, Some(store), policy_args)?,
        Served::spawn(data_dir_b, Some(store), policy_args)?,
    ];
    let runtime = runtime()?;
    let before = runtime.block_on(count_memories(&servers[0].base, &specs, &token))?;
    // Client `c` makes requests `c`, `c + MIXED_CLIENTS`, ... (the first `WARM_UP` untimed),
    // all to server `c % 2`; every tenth of each client's is a write (a new memory), the
    // clients a step apart, so that both servers mix reads and writes all along.
    let requests: Vec<Request> = (0..MIXED_CLIENTS * (WARM_UP + MIXED_REQUESTS))
        .map(|n| {
            let base = &servers[n % 2].base;
            let subject = n * 7 % mixed_subjects;
            let spec = &specs[subject];
            let (client, step) = (n % MIXED_CLIENTS, n / MIXED_CLIENTS);
            if (client + step) % 10 == 9 {
                Request {
                    url: format!("{base}/v1/subjects/{spec}/memories"),
                    body: serde_json::json!({ "content": format!("Mixed write {n}: deploy window {} opens at {}:00.", subject, n % 24) })
                        .to_string(),
                }
            } else {
                Request {
                    url: format!("{base}/v1/subjects/{spec}/search"),
                    body: serde_json::json!({ "query": format!("bucket b{subject} cache"), "limit": 10 })
                        .to_string(),
                }
            }
        })
        .collect();
    let writes = requests
        .iter()
        .filter(|r| r.url.ends_with("/memories"))
        .count();
    let (elapsed, mut samples) = runtime.block_on(run_clients(
        MIXED_CLIENTS,
        &requests,
        &token,
        WARM_UP,
        MIXED_REQUESTS,
    ))?;
    // Every request was answered 2xx (run_clients fails the run otherwise), each write once.
    let after = runtime.block_on(count_memories(&servers[1].base, &specs, &token))?;
    if after != before + writes as u64 {
        return Err(failed(format!(
            "{writes} writes acknowledged, but the subjects hold {after} memories where they held {before}"
        )));
    }
    samples.sort();
    Ok(MixedFigures {
        http_mixed_rps: samples.len() as f64 / elapsed.as_secs_f64(),
        http_mixed_p99_ms: p99_ms(&samples),
    })
}

/// How many memories `specs` hold in all, as `GET memories` counts them.
async fn count_memories(base: &str, specs: &[String], token: &str) -> Result<u64, KenningError> {
    let failed = |message: String| KenningError::Usage(format!("mixed bench: {message}"));
    let client = reqwest::Client::new();
    let mut total = 0;
    for spec in specs {
        let response = client
            .get(format!("{base}/v1/subjects/{spec}/memories?limit=1"))
            .bearer_auth(token)
            .send()
            .await
            .map_err(|e| failed(e.to_string()))?;
        let page: serde_json::Value = response.json().await.map_err(|e| failed(e.to_string()))?;
        total += page["total"]
            .as_u64()
            .ok_or_else(|| failed(format!("no total in {page}")))?;
    }
    Ok(total)
}

/// The peak resident memory of process `pid` (`VmHWM`), MiB.
fn peak_rss_mib(pid: u32) -> Result<f64, KenningError> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| KenningError::Usage(format!("subjects bench: the server's memory: {e}")))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| {
            value
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map(|kib| kib / 1024.0)
        .ok_or_else(|| KenningError::Usage("subjects bench: no VmHWM in /proc status".into()))
}
