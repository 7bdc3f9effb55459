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

/// Requests each client makes before timing, so connections, caches and the policy are warm.
pub(crate) const WARM_UP: usize = 20;

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
pub(crate) struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub(crate) base: String,
}

impl Served {
    /// Spawns `kenning serve` on a free port over `data_dir` (and the PostgreSQL database
    /// `store`, if given), `policy_args` before the command; returns once it listens.
    pub(crate) fn spawn(
        data_dir: &Path,
        store: Option<&str>,
        policy_args: &[OsString],
    ) -> Result<Served, KenningError> {
        let failed =
            |what: &str, error: String| KenningError::Usage(format!("http bench: {what}: {error}"));
        let exe = std::env::current_exe().map_err(|e| failed("own executable", e.to_string()))?;
        let mut command = Command::new(exe);
        command
            .arg("--data-dir")
            .arg(data_dir)
            .args(policy_args)
            // Maintenance at start-up would merge the index the bench populated: measure the
            // store as written.
            .args(["serve", "--port", "0", "--no-maintenance"])
            .env("KENNING_LOG", "warn")
            // The bench's own store, whatever the caller's environment names.
            .env_remove("KENNING_STORE")
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(url) = store {
            command.args(["--store", url]);
        }
        let mut child = command
            .spawn()
            .map_err(|e| failed("spawn", e.to_string()))?;
        let stdout = child.stdout.take();
        let mut served = Served {
            child,
            base: String::new(),
        };
        let mut line = String::new();
        if let Some(stdout) = stdout {
            BufReader::new(stdout)
                .read_line(&mut line)
                .map_err(|e| failed("address", e.to_string()))?;
        }
        served.base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .ok_or_else(|| failed("address", format!("not in {line:?}")))?
            .trim_end_matches("/v1/")
            .to_owned();
        Ok(served)
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request a client makes: `POST body` to `url`.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) url: String,
    pub(crate) body: String,
}

/// The HTTP clients' runtime: two worker threads, as the machine the figures are for has two
/// cores.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, KenningError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| KenningError::Usage(format!("http bench: runtime: {e}")))
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
    let served = Served::spawn(data_dir, None, policy_args)?;
    let base = served.base.clone();
    let figures = runtime()?.block_on(async {
        let search_url = format!("{base}/v1/subjects/profile:bench/search");
        let searches_made: Vec<Request> = queries
            .iter()
            .map(|q| Request {
                url: search_url.clone(),
                body: serde_json::json!({"query": q, "limit": 10}).to_string(),
            })
            .collect();
        let (elapsed, mut samples) =
            run_clients(CLIENTS, &searches_made, &token, WARM_UP, searches).await?;
        samples.sort();
        let search_rps = samples.len() as f64 / elapsed.as_secs_f64();
        let write_url = format!("{base}/v1/subjects/profile:bench/memories");
        let notes: Vec<Request> = (0..CLIENTS * writes)
            .map(|i| Request {
                url: write_url.clone(),
                body: serde_json::json!({"content": format!("Benchmark note {i}: the cache key rotates every {} minutes.", i + 1)})
                    .to_string(),
            })
            .collect();
        let (elapsed, written) = run_clients(CLIENTS, &notes, &token, 0, writes).await?;
        Ok::<_, KenningError>(HttpFigures {
            search_rps,
            search_p99_ms: p99_ms(&samples),
            write_rps: written.len() as f64 / elapsed.as_secs_f64(),
        })
    })?;
    drop(served);
    Ok(figures)
}

/// The 99th percentile of sorted `samples`, ms.
pub(crate) fn p99_ms(samples: &[Duration]) -> f64 {
    samples
        .get((samples.len() * 99 / 100).min(samples.len().saturating_sub(1)))
        .map_or(0.0, |p99| p99.as_secs_f64() * 1e3)
}

/// `clients` clients each POST `warm_up` untimed then `count` timed requests (client `c`
/// takes requests `c`, `c + clients`, ... cycling) with `token`; returns the wall time of the
/// timed part and every timed round trip. Any answer but 2xx fails the run.
pub(crate) async fn run_clients(
    clients: usize,
    requests: &[Request],
    token: &str,
    warm_up: usize,
    count: usize,
) -> Result<(Duration, Vec<Duration>), KenningError> {
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(clients + 1));
    let mut tasks = Vec::new();
    for client_index in 0..clients {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .build()
            .map_err(|e| KenningError::Usage(format!("http bench: client: {e}")))?;
        let (token, barrier) = (token.to_owned(), barrier.clone());
        let mine: Vec<Request> = requests
            .iter()
            .skip(client_index)
            .step_by(clients)
            .cloned()
            .collect();
        let mine = if mine.is_empty() {
            requests.to_vec()
        } else {
            mine
        };
        tasks.push(tokio::spawn(async move {
            let send = |request: &Request| {
                client
                    .post(&request.url)
                    .bearer_auth(&token)
                    .header("content-type", "application/json")
                    .body(request.body.clone())
                    .send()
            };
            let mut next = mine.iter().cycle();
            for _ in 0..warm_up {
                let response = send(next.next().expect("cycles"))
                    .await
                    .map_err(|e| e.to_string())?;
                let _ = response.bytes().await;
            }
            barrier.wait().await;
            let mut samples = Vec::with_capacity(count);
            for _ in 0..count {
                let request = next.next().expect("cycles");
                let started = Instant::now();
                let response = send(request).await.map_err(|e| e.to_string())?;
                let status = response.status();
                let body = response.bytes().await.map_err(|e| e.to_string())?;
                if !status.is_success() {
                    return Err(format!(
                        "{} answered {status}: {}",
                        request.url,
                        String::from_utf8_lossy(&body)
                    ));
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
