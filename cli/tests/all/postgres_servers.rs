//! Several `kenning serve` processes on one PostgreSQL database (`--store`), as a team runs
//! them behind a load balancer: concurrent writers through both lose nothing and duplicate
//! nothing, and each server reads what the other wrote; and what `--store` refuses.

use crate::support;

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use support::Server;

const SUBJECT: &str = "profile:team";

#[test]
fn two_servers_on_one_database_keep_every_acknowledged_write_of_thirty_two_clients_once() {
    // Made before the runtime: the cluster's admin client blocks.
    let Some(database) = support::postgres::fresh_database() else {
        return;
    };
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(thirty_two_clients_through_two_servers(&database));
}

async fn thirty_two_clients_through_two_servers(database: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let created = support::kenning(
        data,
        &["token", "create", "--role", "human", "--subject", SUBJECT],
        None,
    );
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
