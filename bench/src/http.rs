//! `http_search_rps`, `http_search_p99_ms` and `http_write_rps`: a spawned `kenning serve`
//! under [`CLIENTS`] concurrent keep-alive HTTP clients (reqwest) in this process, on the
//! same machine, so the clients' own costs are included.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kenning::KenningError;
use kenning_server::tokens::{Role, TokenStore};

/// Concurrent clients, each with its own keep-alive connection.
pub const CLIENTS: usize = 16;

/// Searches each client makes before timing, so connections, caches and the policy are warm.
const WARM_UP: usize = 20;

/// The figures.
#[derive(Debug, Clone, Copy)]
pub struct HttpFigures {
    /// `POST search` answered per second, all clients together.
    pub search_rps: f64,
    /// The 99th percentile of one `POST search` round trip, ms.
    pub search_p99_ms: f64,
    /// `POST memories` (each a new memory) answered per second, all clients together.
    pub write_rps: f64,
}

/// A spawned `kenning serve`, stopped when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves `data_dir` (holding `profile:bench`), then times `searches` searches per client
/// (cycling through `queries`) and `writes` writes per client.
/// `policy_args` go before the command: `--policy PATH` (none for the default policy) and the
/// sandbox limits.
pub fn measure(
    data_dir: &Path,
    policy_args: &[OsString],
    queries: &[String],
    searches: usize,
    writes: usize,
) -> Result<HttpFigures, KenningError> {
    let failed =
        |what: &str, error: String| KenningError::Usage(format!("http bench: {what}: {error}"));
    if queries.is_empty() {
        return Err(failed("queries", "none to time".into()));
    }
    let (token, _) =
        TokenStore::open(data_dir, None)?.create(&["profile:bench".to_owned()], Role::Agent, 0)?;
    let exe = std::env::current_exe().map_err(|e| failed("own executable", e.to_string()))?;
    let mut child = Command::new(exe)
        .arg("--data-dir")
        .arg(data_dir)
        .args(policy_args)
        // Maintenance at start-up would merge the index the bench populated: measure the store
        // as written.
        .args(["serve", "--port", "0", "--no-maintenance"])
        .env("KENNING_LOG", "warn")
        // The bench's own files, whatever store the caller's environment names.
        .env_remove("KENNING_STORE")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| failed("spawn", e.to_string()))?;
    let mut line = String::new();
    let stdout = child.stdout.take();
    let served = Served(child);
    if let Some(stdout) = stdout {
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| failed("address", e.to_string()))?;
    }
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| failed("address", format!("not in {line:?}")))?
        .trim_end_matches("/v1/")
        .to_owned();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| failed("runtime", e.to_string()))?;
    let figures = runtime.block_on(async {
        let search_url = format!("{base}/v1/subjects/profile:bench/search");
        let bodies: Vec<String> = queries
            .iter()
            .map(|q| serde_json::json!({"query": q, "limit": 10}).to_string())
            .collect();
        let (elapsed, mut samples) =
            run_clients(&search_url, &token, &bodies, WARM_UP, searches).await?;
        samples.sort();
        let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
        let search_rps = samples.len() as f64 / elapsed.as_secs_f64();
        let write_url = format!("{base}/v1/subjects/profile:bench/memories");
        let notes: Vec<String> = (0..CLIENTS * writes)
            .map(|i| {
                serde_json::json!({"content": format!("Benchmark note {i}: the cache key rotates every {} minutes.", i + 1)})
                    .to_string()
            })
            .collect();
        let (elapsed, written) = run_clients(&write_url, &token, &notes, 0, writes).await?;
        Ok::<_, KenningError>(HttpFigures {
            search_rps,
            search_p99_ms: p99.as_secs_f64() * 1e3,
            write_rps: written.len() as f64 / elapsed.as_secs_f64(),
        })
    })?;
    drop(served);
    Ok(figures)
}

/// [`CLIENTS`] clients each POST `warm_up` untimed then `count` timed bodies (client `c`
/// takes bodies `c`, `c + CLIENTS`, ... cycling) to `url`; returns the wall time of the timed
/// part and every timed round trip. Any answer but 2xx fails the run.
async fn run_clients(
    url: &str,
    token: &str,
    bodies: &[String],
    warm_up: usize,
    count: usize,
) -> Result<(Duration, Vec<Duration>), KenningError> {
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(CLIENTS + 1));
    let mut tasks = Vec::new();
    for client_index in 0..CLIENTS {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .build()
            .map_err(|e| KenningError::Usage(format!("http bench: client: {e}")))?;
        let (url, token, barrier) = (url.to_owned(), token.to_owned(), barrier.clone());
        let mine: Vec<String> = bodies
            .iter()
            .skip(client_index)
            .step_by(CLIENTS)
            .cloned()
            .collect();
        let mine = if mine.is_empty() {
            bodies.to_vec()
        } else {
            mine
        };
        tasks.push(tokio::spawn(async move {
            let send = |body: String| {
                client
                    .post(&url)
                    .bearer_auth(&token)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
            };
            let mut next = mine.iter().cycle();
            for _ in 0..warm_up {
                let body = next.next().expect("cycles").clone();
                let response = send(body).await.map_err(|e| e.to_string())?;
                let _ = response.bytes().await;
            }
            barrier.wait().await;
            let mut samples = Vec::with_capacity(count);
            for _ in 0..count {
                let body = next.next().expect("cycles").clone();
                let started = Instant::now();
                let response = send(body).await.map_err(|e| e.to_string())?;
                let status = response.status();
                let _ = response.bytes().await.map_err(|e| e.to_string())?;
                if !status.is_success() {
                    return Err(format!("answered {status}"));
                }
                samples.push(started.elapsed());
            }
            Ok::<_, String>(samples)
        }));
    }
    barrier.wait().await;
    let started = Instant::now();
    let mut samples = Vec::new();
    for task in tasks {
        let done = task
            .await
            .map_err(|e| KenningError::Usage(format!("http bench: client: {e}")))?;
        samples.extend(done.map_err(|e| KenningError::Usage(format!("http bench: {e}")))?);
    }
    Ok((started.elapsed(), samples))
}
