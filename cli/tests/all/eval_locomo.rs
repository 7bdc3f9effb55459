//! `kenning eval locomo` end to end: a tiny LoCoMo-format file (tests/data/locomo-tiny.json, two
//! sessions with the known data faults) through the real binary, the real policy component and
//! real SQLite files.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support;

const TINY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/locomo-tiny.json"
);

fn eval(data_dir: &Path, extra: &[&str]) -> std::process::Output {
    support::kenning_at(data_dir)
        .args(["eval", "locomo", "--data", TINY, "--json"])
        .args(extra)
        .output()
        .expect("run kenning")
}

fn last_json_line(output: &std::process::Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.trim_end().lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last line {last:?}: {e}"))
}

#[test]
fn the_tiny_file_scores_as_computed_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let report = last_json_line(&eval(dir.path(), &[]));

    // Six questions. Q1 (D:1:1, cleaned) and Q2 ((D2:4)) are found first; Q3's evidence D2:1
    // holds "marathon" and D2:3, which shares no word with the question, follows it two turns
    // later in its session; Q4's only real evidence (D1:2; D7:2 does not exist) shares no word
    // with the question; Q5 (evidence "D") and Q6 (none) have no usable evidence and score 1.
    // So 5 of 6 at every cut-off.
    assert_eq!(report["questions"], 6);
    for k in [5, 10, 25, 50] {
        assert_eq!(report[format!("recall@{k}")], 83.33, "recall@{k}");
    }
    let by_category = &report["by_category"];
    let expected = [
        ("1", "multi-hop", 1, 100.0),
        ("2", "temporal", 1, 100.0),
        ("3", "open-domain", 1, 100.0),
        ("4", "single-hop", 2, 100.0),
        ("5", "adversarial", 1, 0.0),
    ];
    for (key, name, questions, recall) in expected {
        let category = &by_category[key];
        assert_eq!(category["name"], name);
        assert_eq!(category["questions"], questions, "{name}");
        for k in [5, 10, 25, 50] {
            assert_eq!(category[format!("recall@{k}")], recall, "{name} @{k}");
        }
    }
    assert_eq!(report["turns_stored"], 8);
    assert_eq!(report["evidence_dropped"], 1);
    assert_eq!(report["questions_without_evidence"], 2);
    // Nothing is left behind in the data directory but the compiled-policy cache.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name != "cache")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn an_unknown_conversation_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = eval(dir.path(), &["--conversations", "tiny-1,conv-99"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("conv-99"), "{stderr}");
}

#[test]
fn a_file_of_another_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"sample_id": "x"}"#).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_kenning"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(["eval", "locomo", "--data"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not a LoCoMo-format file"), "{stderr}");
}
