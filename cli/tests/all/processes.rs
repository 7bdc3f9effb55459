//! One SQLite store used by several processes at once, as users run kenning: a host embedding
//! the library keeps connections open while the command line, a server or any SQLite client
//! (the `sqlite3` shell, a script) opens the same file and closes it again.

use std::path::Path;

use kenning::Service;
use kenning::store::Author;
use kenning::subject::Subject;
use serde_json::json;

use crate::support;

fn remember(service: &Service, subject: &Subject, text: &str) {
    service
        .call(
            subject,
            Author::Human,
            "remember",
            &json!({ "text": text }).to_string(),
        )
        .unwrap();
}

/// Another process opens the store at `path` with the `sqlite3` shell, as a user inspecting it
/// does, reads it and exits: the last connection of a process folds the write-ahead log into
/// the database and deletes it, unless another process holds the store.
fn another_sqlite_client_reads(path: &Path) {
    let out = std::process::Command::new("sqlite3")
        .arg(path)
        .arg("SELECT count(*) FROM memories")
        .output()
        .expect("the sqlite3 shell (Debian's sqlite3 package), which .ci/run installs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The texts another process reads in the subject's store (the command line's export).
fn texts_read_by_another_process(data: &Path, subject: &str) -> Vec<String> {
    let out = support::kenning(data, &["export", "--subject", subject], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|record| record["text"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn a_connection_opened_beside_kept_ones_keeps_their_locks_and_no_write_is_lost() {
    if support::postgres::on_postgres() {
        return; // SQLite's files and locks: PostgreSQL has neither.
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let subject = Subject::parse("profile:shared").unwrap();
    let open = || {
        Service::builder(&data)
            .cache_dir(support::shared_cache_dir())
            .build()
            .unwrap()
    };
    let host = open();
    remember(&host, &subject, "The first note, by the host");
    // The host keeps that connection; a second connection opens beside it in the process (a
    // second service here, as concurrent requests make a pool open one more).
    let beside = open();
    remember(&beside, &subject, "The second note, beside it");
    drop(beside);
    another_sqlite_client_reads(&subject.store_path(&data));
    remember(&host, &subject, "The third note, by the host again");
    assert_eq!(
        texts_read_by_another_process(&data, "profile:shared"),
        [
            "The first note, by the host",
            "The second note, beside it",
            "The third note, by the host again",
        ]
    );
}
