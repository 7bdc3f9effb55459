//! Several `kenning serve` processes on one PostgreSQL database (`--store`), as a team runs
//! them behind a load balancer: concurrent writers through both lose nothing and duplicate
//! nothing, and each server reads what the other wrote; and what `--store` refuses.

use crate::support;

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use support::Server;

const SUBJECT: &str = "profile:team";

/// Runs a test's clients on a runtime of two threads (made after the database: the cluster's
/// admin client blocks).
fn on_a_runtime(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}

#[test]
fn two_servers_on_one_database_keep_every_acknowledged_write_of_thirty_two_clients_once() {
    // Made before the runtime: the cluster's admin client blocks.
    let Some(database) = support::postgres::fresh_database() else {
        return;
    };
    on_a_runtime(thirty_two_clients_through_two_servers(&database));
}

async fn thirty_two_clients_through_two_servers(database: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    // The tokens in the servers' database (a PostgreSQL run gives each data directory its own).
    let created = support::kenning_at(data)
        .env("KENNING_STORE", database)
        .args(["token", "create", "--role", "human", "--subject", SUBJECT])
        .output()
        .unwrap();
    assert!(created.status.success(), "{created:?}");
    let token = String::from_utf8(created.stdout).unwrap().trim().to_owned();
    let store = [("KENNING_STORE", database)];
    let servers = [Server::start(data, &store), Server::start(data, &store)];
    let urls: Vec<String> = servers
        .iter()
        .map(|s| s.url(&format!("/v1/subjects/{SUBJECT}/memories")))
        .collect();
    let client = Client::new();
    let mut writers = Vec::new();
    for writer in 0..32 {
        let (client, url, token) = (client.clone(), urls[writer % 2].clone(), token.clone());
        writers.push(tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            for n in 0..25 {
                let body = json!({"content": format!("Writer {writer} note {n}: the value is {}.", writer * 1000 + n)});
                let response = client.post(&url).bearer_auth(&token).json(&body).send().await.unwrap();
                if response.status() == StatusCode::CREATED {
                    let created: Value = response.json().await.unwrap();
                    acknowledged.push(created["memory_id"].as_u64().unwrap());
                } else {
                    let status = response.status();
                    panic!("writer {writer} note {n}: {status} {}", response.text().await.unwrap());
                }
                // The same note from every writer: the servers race to store it, once.
                let shared = json!({"content": "Stand-up moved to 9:30."});
                let response = client.post(&url).bearer_auth(&token).json(&shared).send().await.unwrap();
                assert!(response.status().is_success(), "{}", response.status());
            }
            acknowledged
        }));
    }
    let mut acknowledged = Vec::new();
    for writer in writers {
        acknowledged.extend(writer.await.unwrap());
    }
    assert_eq!(acknowledged.len(), 32 * 25);
    // Each server lists what both wrote.
    for url in &urls {
        let mut stored = Vec::new();
        let mut shared = 0;
        for page in 1.. {
            let body: Value = client
                .get(format!("{url}?limit=100&page={page}"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let memories = body["memories"].as_array().unwrap();
            if memories.is_empty() {
                break;
            }
            for memory in memories {
                if memory["content"] == "Stand-up moved to 9:30." {
                    shared += 1;
                } else {
                    stored.push(memory["memory_id"].as_u64().unwrap());
                }
            }
        }
        stored.sort_unstable();
        acknowledged.sort_unstable();
        assert_eq!(
            stored, acknowledged,
            "every acknowledged write, once, through {url}"
        );
        assert_eq!(shared, 1, "the note every writer sent is stored once");
    }
    for server in servers {
        let (clean, log) = server.terminate();
        assert!(clean, "{log}");
    }
}

#[test]
fn a_store_key_with_a_postgres_store_is_one_clear_error_before_any_connection() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, "a".repeat(64)).unwrap();
    // Readable by its owner alone: kenning refuses a key file others can read.
    std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let out = support::kenning(
        dir.path(),
        &[
            "--store",
            "host=/nonexistent dbname=nothing",
            "--key-file",
            key.to_str().unwrap(),
            "recall",
            "--subject",
            "account:alice",
            "anything",
        ],
        None,
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("PostgreSQL store"), "{stderr}");
}

#[test]
fn on_postgresql_readiness_follows_the_database_and_metrics_count_its_pool_and_review_queue() {
    let Some(database) = support::postgres::fresh_database() else {
        return;
    };
    on_a_runtime(readiness_and_metrics(&database));
}

async fn readiness_and_metrics(database: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let token = |role: &str| {
        let created = support::kenning_at(data)
            .env("KENNING_STORE", database)
            .args(["token", "create", "--role", role, "--subject", SUBJECT])
            .output()
            .unwrap();
        assert!(created.status.success(), "{created:?}");
        String::from_utf8(created.stdout).unwrap().trim().to_owned()
    };
    let external = token("external");
    let server = Server::start_with(
        data,
        &[("KENNING_STORE", database)],
        &["--metrics-bind", "127.0.0.1:0"],
    );
    let client = Client::new();
    let ready = |client: Client, url: String| async move {
        let response = client.get(url).send().await.unwrap();
        let status = response.status();
        let retry = response.headers().get("retry-after").cloned();
        (status, retry, response.text().await.unwrap())
    };
    let (status, _, body) = ready(client.clone(), server.url("/v1/ready")).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // An external client's write waits for review: the queue's gauge counts it.
    let response = client
        .post(server.url(&format!("/v1/subjects/{SUBJECT}/memories")))
        .bearer_auth(&external)
        .json(&json!({"content": "The on-call phone moved to the second floor."}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let scrape = client
        .get(server.metrics.clone().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for sample in [
        "kenning_pending_review_memories 1",
        r#"kenning_store_pool_connections{state="max"} 16"#,
    ] {
        assert!(scrape.lines().any(|l| l == sample), "{sample} in\n{scrape}");
    }

    // The database refuses every connection, and drops the server's: not ready, with a
    // Retry-After, within the check's two seconds; then ready again once it accepts them.
    let name = database.rsplit("dbname=").next().unwrap().to_owned();
    let admin = database.replace(&format!("dbname={name}"), "dbname=postgres");
    let allow = |allowed: bool| {
        let (admin, name) = (admin.clone(), name.clone());
        support::postgres::with_client(&admin, move |client| {
            client
                .batch_execute(&format!(
                    "ALTER DATABASE {name} ALLOW_CONNECTIONS {allowed}; \
                     SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = '{name}' AND pid <> pg_backend_pid() AND {allowed} = false"
                ))
                .unwrap()
        })
    };
    allow(false);
    let started = std::time::Instant::now();
    let (status, retry, body) = ready(client.clone(), server.url("/v1/ready")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(retry.unwrap(), "5");
    assert!(body.contains("\"unavailable\""), "{body}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    allow(true);
    // Ready again once the database accepts connections: a probe may still meet a connection
    // the database dropped (the server said to retry after five seconds), so it asks again,
    // within those seconds and twice over.
    let back = std::time::Instant::now();
    loop {
        let (status, _, body) = ready(client.clone(), server.url("/v1/ready")).await;
        if status == StatusCode::OK {
            break;
        }
        assert!(
            back.elapsed() < std::time::Duration::from_secs(10),
            "still {status} {:?} after the database accepts connections: {body}",
            back.elapsed()
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

#[test]
fn two_servers_share_the_databases_tokens_and_a_revocation_on_one_reaches_both_within_a_second() {
    let Some(database) = support::postgres::fresh_database() else {
        return;
    };
    on_a_runtime(shared_tokens(&database));
}

async fn shared_tokens(database: &str) {
    // Two data directories: nothing of the tokens is in either.
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let store = [("KENNING_STORE", database)];
    let kenning = |data: &std::path::Path, args: &[&str]| {
        let out = support::kenning_at(data)
            .env("KENNING_STORE", database)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let token = kenning(
        one.path(),
        &["token", "create", "--role", "human", "--subject", SUBJECT],
    );
    let token = token.trim().to_owned();
    assert!(
        !one.path().join("tokens.sqlite").exists(),
        "tokens live in the database"
    );
    let listed = kenning(two.path(), &["token", "list", "--json"]);
    let id = serde_json::from_str::<Value>(listed.lines().next().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let servers = [
        Server::start(one.path(), &store),
        Server::start(two.path(), &store),
    ];
    let client = Client::new();
    let status = |server: &Server| {
        let request = client
            .get(server.url(&format!("/v1/subjects/{SUBJECT}/memories")))
            .bearer_auth(&token)
            .send();
        async move { request.await.unwrap().status() }
    };
    for server in &servers {
        assert_ne!(
            status(server).await,
            StatusCode::UNAUTHORIZED,
            "the token works on both"
        );
    }
    // Revoked through the first server's data directory; both refuse it within a second.
    kenning(one.path(), &["token", "revoke", &id]);
    let revoked = std::time::Instant::now();
    for server in &servers {
        loop {
            if status(server).await == StatusCode::UNAUTHORIZED {
                break;
            }
            assert!(
                revoked.elapsed() < std::time::Duration::from_secs(1),
                "still accepted a second after its revocation"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    let listed = kenning(two.path(), &["token", "list"]);
    assert!(listed.contains("revoked at"), "{listed}");
}
