//! Concurrent writers and a killed writer lose nothing and corrupt nothing.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use kenning::subject::Subject;
use kenning_e2e::{rows_of, state_of};

fn spawn_writer(data_dir: &Path, subject: &str, label: &str, count: u64) -> Child {
    Command::new(env!("CARGO_BIN_EXE_writer"))
        .arg(data_dir)
        .arg(subject)
        .arg(label)
        .arg(count.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start a writer")
}

/// Parses `ack <id> <n>` lines into id → n.
fn acks(lines: impl Iterator<Item = String>) -> BTreeMap<u64, u64> {
    lines
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            (parts.next() == Some("ack")).then(|| {
                let id = parts.next().unwrap().parse().unwrap();
                let n = parts.next().unwrap().parse().unwrap();
                (id, n)
            })
        })
        .collect()
}

fn texts_by_id(data: &Path, subject: &str) -> BTreeMap<u64, String> {
    let subject = Subject::parse(subject).unwrap();
    rows_of(data, &subject, "memories", &["id", "text"])
        .into_iter()
        .map(|row| {
            let id = row[0].as_deref().unwrap().parse().unwrap();
            (id, row[1].clone().unwrap())
        })
        .collect()
}

/// Compiles the policy into the shared cache once, so the writers start quickly.
fn warm_cache(data_dir: &Path, subject: &str) {
    let status = spawn_writer(data_dir, subject, "warm", 1).wait().unwrap();
    assert!(status.success());
}

#[test]
fn four_concurrent_writer_processes_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let subject = "account:shared";
    warm_cache(&data, subject);
    const PER_WRITER: u64 = 40;
    let writers: Vec<(String, Child)> = (0..4)
        .map(|w| {
            (
                format!("w{w}"),
                spawn_writer(&data, subject, &format!("w{w}"), PER_WRITER),
            )
        })
        .collect();
    let mut acknowledged = Vec::new();
    for (label, mut child) in writers {
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let acked = acks(stdout.lines().map(Result::unwrap));
        assert!(child.wait().unwrap().success(), "writer {label} failed");
        assert_eq!(
            acked.len() as u64,
            PER_WRITER,
            "writer {label} acknowledged every write"
        );
        acknowledged.extend(
            acked
                .into_iter()
                .map(|(id, n)| (id, format!("writer {label} note {n}"))),
        );
    }
    let stored = texts_by_id(&data, subject);
    for (id, text) in &acknowledged {
        assert_eq!(
            stored.get(id),
            Some(text),
            "acknowledged write {id} is in the store"
        );
    }
    assert_eq!(
        stored.len(),
        acknowledged.len() + 1,
        "the warm-up note plus every acknowledged write"
    );
    assert_eq!(
        state_of(&data, &Subject::parse(subject).unwrap()).integrity,
        "ok"
    );
}

#[test]
fn a_writer_killed_mid_stream_leaves_a_sound_store_with_every_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let subject = "account:killed";
    warm_cache(&data, subject);
    let mut child = spawn_writer(&data, subject, "k", 1_000_000);
    let mut lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap);
    let acknowledged = acks(lines.by_ref().take(60));
    assert_eq!(acknowledged.len(), 60);
    child.kill().expect("SIGKILL the writer");
    child.wait().unwrap();
    // Acknowledgements printed after the 60th but before the kill are committed too.
    let late = acks(lines);

    assert_eq!(
        state_of(&data, &Subject::parse(subject).unwrap()).integrity,
        "ok"
    );
    let stored = texts_by_id(&data, subject);
    for (id, n) in acknowledged.iter().chain(&late) {
        assert_eq!(stored.get(id), Some(&format!("writer k note {n}")));
    }
    // The store still opens and takes writes through kenning.
    let status = spawn_writer(&data, subject, "after", 1).wait().unwrap();
    assert!(status.success());
}

#[test]
fn eight_processes_writing_first_to_a_new_subject_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    warm_cache(&data, "account:warm");
    for round in 0..6 {
        let subject = format!("profile:fresh{round}");
        let writers: Vec<Child> = (0..8)
            .map(|n| spawn_writer(&data, &subject, &format!("w{n}"), 3))
            .collect();
        for writer in writers {
            let output = writer.wait_with_output().unwrap();
            assert!(output.status.success(), "a first write was refused");
            assert_eq!(
                acks(
                    String::from_utf8_lossy(&output.stdout)
                        .lines()
                        .map(str::to_owned)
                )
                .len(),
                3
            );
        }
        assert_eq!(texts_by_id(&data, &subject).len(), 24);
    }
}
