//! Faults under load, as a team's servers meet them: the PostgreSQL database restarted and
//! stopped under two servers' clients, and the disk under a SQLite data directory full. What
//! must hold: every request in trouble is answered (503 with `Retry-After`, or 507 for a full
//! disk), the servers recover by themselves, and every acknowledged write is there afterwards.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

use crate::support::{self, Server};

const SUBJECT: &str = "account:faults";

/// Clients of the PostgreSQL load, spread over the two servers.
const CLIENTS: usize = 16;

/// What one client saw.
#[derive(Default)]
struct Seen {
    /// Acknowledged writes: the memory's id and its text.
    acknowledged: Vec<(u64, String)>,
    /// When each write was acknowledged, for the recovery check.
    acknowledged_at: Vec<Instant>,
    /// 503 answers, each with whether it carried `Retry-After`.
    unavailable: Vec<bool>,
    /// Any other answer: status and body, or the transport error.
    unexpected: Vec<String>,
}

/// One client's loop until `stop`: a write, then a search, over and over, against `base`.
async fn client_loop(
    client: Client,
    base: String,
    token: String,
    number: usize,
    stop: Arc<AtomicBool>,
) -> Seen {
    let mut seen = Seen::default();
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let unavailable_before = seen.unavailable.len();
        let text = format!("Client {number} note {n}: shard s{number}x{n} rotates weekly.");
        let write = client
            .post(format!("{base}/v1/subjects/{SUBJECT}/memories"))
            .bearer_auth(&token)
            .json(&json!({"content": text}))
            .send()
            .await;
        match write {
            Ok(response) if response.status() == StatusCode::CREATED => {
                let body: Value = response.json().await.unwrap();
                seen.acknowledged
                    .push((body["memory_id"].as_u64().unwrap(), text));
                seen.acknowledged_at.push(Instant::now());
            }
            Ok(response) => note_refusal(&mut seen, response).await,
            Err(error) => seen.unexpected.push(format!("write: {error}")),
        }
        let search = client
            .post(format!("{base}/v1/subjects/{SUBJECT}/search"))
            .bearer_auth(&token)
            .json(&json!({"query": format!("shard s{number}x{n}")}))
            .send()
            .await;
        match search {
            Ok(response) if response.status() == StatusCode::OK => {}
            Ok(response) => note_refusal(&mut seen, response).await,
            Err(error) => seen.unexpected.push(format!("search: {error}")),
        }
        if seen.unavailable.len() > unavailable_before {
            // A client honours Retry-After loosely: it does not spin while the database is away.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    seen
}

/// Records an answer that was not a success: 503 (with or without `Retry-After`), or
/// anything else as unexpected.
async fn note_refusal(seen: &mut Seen, response: reqwest::Response) {
    let status = response.status();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        seen.unavailable.push(
            response
                .headers()
                .contains_key(reqwest::header::RETRY_AFTER),
        );
    } else {
        let body = response.text().await.unwrap_or_default();
        seen.unexpected.push(format!("{status} {body}"));
    }
}

/// Creates a human token for [`SUBJECT`] in the store `database` names (or the data
/// directory's tokens file without one).
fn token(data: &Path, database: Option<&str>) -> String {
    let mut command = support::kenning_at(data);
    if let Some(database) = database {
        command.env("KENNING_STORE", database);
    }
    let created = command
        .args(["token", "create", "--role", "human", "--subject", SUBJECT])
        .output()
        .unwrap();
    assert!(created.status.success(), "{created:?}");
    String::from_utf8(created.stdout).unwrap().trim().to_owned()
}

/// Sends `body` (a GET without one) with `token` and returns the status and the JSON answer
/// (`null` when the answer is not JSON).
async fn send(client: &Client, url: &str, token: &str, body: Option<Value>) -> (StatusCode, Value) {
    let request = match body {
        Some(body) => client.post(url).json(&body),
        None => client.get(url),
    };
    let response = request.bearer_auth(token).send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Checks through `server` that every acknowledged write reads back with its text.
async fn every_acknowledged_write_is_there(
    client: &Client,
    server: &Server,
    token: &str,
    acknowledged: &[(u64, String)],
) {
    for (id, text) in acknowledged {
        let url = server.url(&format!("/v1/subjects/{SUBJECT}/memories/{id}"));
        let (status, memory) = send(client, &url, token, None).await;
        assert_eq!(status, StatusCode::OK, "memory {id} ({text}): {memory}");
        assert_eq!(memory["content"], text.as_str(), "memory {id}");
    }
}

#[test]
fn the_database_restarted_and_stopped_under_load_is_answered_503_with_retry_after_and_loses_no_acknowledged_write()
 {
    if !support::postgres::on_postgres() {
        eprintln!("skipped: runs in the PostgreSQL pass (scripts/test-on-postgres.sh)");
        return;
    }
    let Some(cluster) = support::postgres::RestartableCluster::start() else {
        return;
    };
    let database = cluster.url();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let token = token(data, Some(&database));
    let store = [("KENNING_STORE", database.as_str())];
    let servers = [Server::start(data, &store), Server::start(data, &store)];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let client = Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|number| {
            runtime.spawn(client_loop(
                client.clone(),
                servers[number % 2].base.clone(),
                token.clone(),
                number,
                Arc::clone(&stop),
            ))
        })
        .collect();

    std::thread::sleep(Duration::from_secs(2));
    cluster.pg_ctl(&["restart", "-m", "fast"]);
    std::thread::sleep(Duration::from_secs(2));
    cluster.pg_ctl(&["stop", "-m", "fast"]);
    std::thread::sleep(Duration::from_secs(10));
    cluster.pg_ctl(&["start"]);
    let back = Instant::now();
    std::thread::sleep(Duration::from_secs(4));
    stop.store(true, Ordering::Relaxed);

    let seen: Vec<Seen> = runtime.block_on(async {
        let mut seen = Vec::new();
        for client in clients {
            seen.push(client.await.unwrap());
        }
        seen
    });
    let unexpected: Vec<&String> = seen.iter().flat_map(|s| &s.unexpected).collect();
    assert!(
        unexpected.is_empty(),
        "answers other than 201, 200 and 503: {unexpected:?}"
    );
    let unavailable: Vec<bool> = seen.iter().flat_map(|s| s.unavailable.clone()).collect();
    assert!(
        !unavailable.is_empty(),
        "ten seconds without the database gave no 503"
    );
    assert!(
        unavailable.iter().all(|&retry_after| retry_after),
        "a 503 without Retry-After"
    );
    // Both servers' pools reconnected by themselves: each acknowledged writes afterwards.
    for server in 0..2 {
        let after = seen
            .iter()
            .skip(server)
            .step_by(2)
            .flat_map(|s| &s.acknowledged_at)
            .filter(|&&at| at > back)
            .count();
        assert!(
            after > 0,
            "server {server} acknowledged no write after the database came back"
        );
    }
    let acknowledged: Vec<(u64, String)> = seen.into_iter().flat_map(|s| s.acknowledged).collect();
    runtime.block_on(every_acknowledged_write_is_there(
        &client,
        &servers[1],
        &token,
        &acknowledged,
    ));
    eprintln!(
        "{} writes acknowledged, {} answers 503 with Retry-After",
        acknowledged.len(),
        unavailable.len()
    );
}

/// A tmpfs of `size` mounted at a new folder, unmounted when dropped.
struct SmallDisk {
    mount: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts one; `None`, after saying so, where this process may not mount (not root), unless
    /// `KENNING_FAULTS_REQUIRED=1` (CI) makes that a failure.
    fn mount(size: &str) -> Option<SmallDisk> {
        let mount = tempfile::tempdir().unwrap();
        let output = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(mount.path())
            .output();
        match output {
            Ok(out) if out.status.success() => Some(SmallDisk { mount }),
            other if std::env::var("KENNING_FAULTS_REQUIRED").as_deref() == Ok("1") => {
                panic!("a tmpfs cannot be mounted (KENNING_FAULTS_REQUIRED=1): {other:?}")
            }
            other => {
                eprintln!("skipped: a tmpfs cannot be mounted here: {other:?}");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.mount.path()
    }

    /// Fills the disk with one file, and returns it.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0_u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.mount.path())
            .status();
    }
}

#[test]
fn a_full_disk_refuses_writes_with_one_clear_error_keeps_serving_reads_and_recovers_losing_nothing()
{
    if support::postgres::sqlite_only("a full disk under SQLite's files") {
        return;
    }
    let Some(disk) = SmallDisk::mount("4m") else {
        return;
    };
    let data = disk.path().join("data");
    let token = token(&data, None);
    let server = Server::start(&data, &[]);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = Client::new();
    let url = |path: &str| server.url(&format!("/v1/subjects/{SUBJECT}{path}"));
    let write = |text: &str| {
        let (url, body) = (url("/memories"), json!({"content": text}));
        let (client, token) = (&client, &token);
        async move { send(client, &url, token, Some(body)).await }
    };
    let mut acknowledged = Vec::new();
    runtime.block_on(async {
        for n in 0..5 {
            let text = format!("Before the disk filled, note {n}: bucket b{n} keeps the cache.");
            let (status, body) = write(&text).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
            acknowledged.push((body["memory_id"].as_u64().unwrap(), text));
        }
    });

    let filler = disk.fill();
    runtime.block_on(async {
        for n in 0..3 {
            let (status, body) = write(&format!("While the disk is full, note {n}.")).await;
            assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{body}");
            assert_eq!(body["error"]["code"], "storage_full", "{body}");
            let message = body["error"]["message"].as_str().unwrap();
            assert!(message.contains("disk is full"), "{message}");
        }
        let query = json!({"query": "bucket cache"});
        let (status, found) = send(&client, &url("/search"), &token, Some(query)).await;
        assert_eq!(status, StatusCode::OK, "{found}");
        assert_eq!(
            found["memories"].as_array().map(Vec::len),
            Some(5),
            "{found}"
        );
        let turn = json!({"query": "where is the cache?"});
        let (status, context) = send(&client, &url("/context"), &token, Some(turn)).await;
        assert_eq!(
            status,
            StatusCode::OK,
            "a turn reads; its statistics may wait: {context}"
        );
    });

    std::fs::remove_file(filler).unwrap();
    runtime.block_on(async {
        let text = "After space returned: the cache moved to bucket b9.".to_owned();
        let (status, body) = write(&text).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        acknowledged.push((body["memory_id"].as_u64().unwrap(), text));
        every_acknowledged_write_is_there(&client, &server, &token, &acknowledged).await;
        // Nothing of the refused writes was stored.
        let (_, listed) = send(&client, &url("/memories"), &token, None).await;
        let contents: Vec<&str> = listed["memories"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["content"].as_str())
            .collect();
        assert!(
            !contents
                .iter()
                .any(|c| c.contains("While the disk is full")),
            "{contents:?}"
        );
        assert_eq!(contents.len(), 6, "{contents:?}");
    });
}
