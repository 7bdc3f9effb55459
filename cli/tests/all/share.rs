//! `kenning share` end to end: the spawned program over two real stores.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::support;

use support::postgres::{DirectSql, stores_in};

struct Linked {
    dir: tempfile::TempDir,
}

impl Linked {
    /// Two binaries (two builds of one program), the first with two confirmed findings (#1
    /// anchored, #2 global) and a suggestion awaiting review (#3).
    fn new() -> Linked {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.bin"), "build one").unwrap();
        std::fs::write(dir.path().join("b.bin"), "build two").unwrap();
        let linked = Linked { dir };
        let a = linked.a();
        linked.ok(&[
            "remember",
            "-s",
            &a,
            "--address",
            "0x401000",
            "--image-base",
            "0x400000",
            "sub_401000 decrypts the config with RC4",
        ]);
        linked.ok(&[
            "remember",
            "-s",
            &a,
            "The sample beacons to its C2 every 60 seconds",
        ]);
        linked.ok(&[
            "remember",
            "-s",
            &a,
            "--author",
            "external",
            "Maybe packed with UPX",
        ]);
        linked
    }

    fn a(&self) -> String {
        self.dir.path().join("a.bin").display().to_string()
    }

    fn b(&self) -> String {
        self.dir.path().join("b.bin").display().to_string()
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, args: &[&str]) -> Output {
        support::kenning(&self.data(), args, None)
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "kenning {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    fn share(&self, extra: &[&str]) -> Output {
        let (a, b) = (self.a(), self.b());
        let mut args = vec!["share", "--from", a.as_str(), "--to", b.as_str(), "--json"];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    /// Whether the knowledge base of `binary` exists on the backend this run tests: its
    /// SQLite file, or its subject in the data directory's PostgreSQL database.
    fn holds(&self, binary: &str) -> bool {
        let name = kenning::subject::Subject::parse(binary)
            .unwrap()
            .store_name();
        stores_in(&self.data()).contains(&name)
    }

    fn store_of(&self, binary: &str) -> PathBuf {
        kenning::subject::Subject::parse(binary)
            .unwrap()
            .store_path(&self.data())
    }
}

fn one_error(output: &Output) -> String {
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// The rows of a query of one text column on the store of `store` (a data directory's file),
/// in SQLite's dialect or PostgreSQL's.
fn rows_in(store: &Path, sqlite: &str, postgres: &str) -> Vec<String> {
    DirectSql::open(store.parent().unwrap(), store).texts(sqlite, postgres)
}

/// [`rows_in`] for a query both dialects read alike.
fn rows(store: &Path, sql: &str) -> Vec<String> {
    rows_in(store, sql, sql)
}

/// The rows of a query of one JSON array per row, parsed.
fn json_rows(store: &Path, columns: &str, rest: &str) -> Vec<Value> {
    rows_in(
        store,
        &format!("SELECT json_array({columns}) {rest}"),
        &format!("SELECT json_build_array({columns})::text {rest}"),
    )
    .iter()
    .map(|row| serde_json::from_str(row).unwrap())
    .collect()
}

#[test]
fn confirmed_findings_arrive_inbound_pending_with_their_origin_and_become_foreign_when_accepted() {
    let l = Linked::new();
    let report: Value = serde_json::from_slice(&l.share(&["1", "2", "--yes"]).stdout).unwrap();
    let outcomes: Vec<&Value> = report["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["outcome"])
        .collect();
    assert_eq!(outcomes, ["shared", "shared"], "{report}");
    let b_store = l.store_of(&l.b());
    assert_eq!(
        json_rows(
            &b_store,
            "id, badge, author, scope, text",
            "FROM memories ORDER BY id"
        ),
        [
            json!([
                1,
                "inbound_pending",
                "peer",
                "local",
                "sub_401000 decrypts the config with RC4"
            ]),
            json!([
                2,
                "inbound_pending",
                "peer",
                "global",
                "The sample beacons to its C2 every 60 seconds"
            ])
        ]
    );
    let anchors = json_rows(&b_store, "kind, start", "FROM anchors");
    assert_eq!(
        anchors,
        [json!(["address", 4096])],
        "the anchor came along as its file offset"
    );
    let origins = rows_in(
        &b_store,
        "SELECT json_extract(detail, '$.from_id') || ' ' || json_extract(detail, '$.from.key') \
         FROM events WHERE action = 'share' ORDER BY id",
        "SELECT (detail::json->>'from_id') || ' ' || (detail::json#>>'{from,key}') \
         FROM events WHERE action = 'share' ORDER BY id",
    );
    let a_key = kenning::subject::Subject::parse(&l.a()).unwrap().key;
    assert_eq!(origins, [format!("1 {a_key}"), format!("2 {a_key}")]);

    let b = l.b();
    let pending = l.ok(&["review", "list", "-s", &b]);
    assert!(pending.contains("sub_401000"), "{pending}");
    l.ok(&["review", "accept", "-s", &b, "1"]);
    assert_eq!(
        rows(&b_store, "SELECT badge FROM memories WHERE id = 1"),
        ["foreign"]
    );
    let recalled = l.ok(&["recall", "-s", &b, "RC4 config"]);
    assert!(
        recalled.contains("sub_401000"),
        "an accepted copy is knowledge: {recalled}"
    );

    let again: Value = serde_json::from_slice(&l.share(&["1", "2", "--yes"]).stdout).unwrap();
    assert_eq!(again["memories"][0]["outcome"], "duplicate");
    assert_eq!(again["memories"][1]["outcome"], "duplicate");
    assert_eq!(rows(&b_store, "SELECT count(*) || '' FROM memories"), ["2"]);
}

#[test]
fn the_source_setting_decides_and_a_refused_share_writes_nothing() {
    let l = Linked::new();
    let (a, b) = (l.a(), l.b());
    let error = one_error(&l.share(&["1"]));
    assert!(error.contains("share_confirmed_findings = ask"), "{error}");
    assert!(!l.holds(&b), "nothing was written");

    l.ok(&["settings", "-s", &a, "share_confirmed_findings", "off"]);
    let error = one_error(&l.share(&["1", "--yes"]));
    assert!(error.contains("sharing is off"), "{error}");
    assert!(!l.holds(&b), "nothing was written");

    l.ok(&["settings", "-s", &a, "share_confirmed_findings", "on"]);
    let report: Value = serde_json::from_slice(&l.share(&["2"]).stdout).unwrap();
    assert_eq!(report["memories"][0]["outcome"], "shared");
    assert!(
        l.holds(&b),
        "the check above sees a knowledge base that exists"
    );
}

#[test]
fn off_means_off_at_both_ends_of_a_share() {
    let l = Linked::new();
    let (a, b) = (l.a(), l.b());
    l.ok(&["settings", "-s", &a, "allow_recall", "false"]);
    let error = one_error(&l.share(&["1", "--yes"]));
    assert!(error.contains("allow_recall = false"), "{error}");
    assert!(!l.holds(&b), "nothing was written");

    l.ok(&["settings", "-s", &a, "allow_recall", "true"]);
    l.ok(&["remember", "-s", &b, "The second build drops the RC4 layer"]);
    l.ok(&["settings", "-s", &b, "allow_writes", "false"]);
    let error = one_error(&l.share(&["1", "--yes"]));
    assert!(error.contains("allow_writes = false"), "{error}");
    let store = l.store_of(&b);
    assert_eq!(rows(&store, "SELECT count(*) || '' FROM memories"), ["1"]);
}

#[test]
fn a_suggestion_or_a_missing_id_refuses_the_whole_share_naming_it() {
    let l = Linked::new();
    let error = one_error(&l.share(&["1", "3", "--yes"]));
    assert!(
        error.contains("memory 3") && error.contains("PENDING"),
        "{error}"
    );
    assert!(!l.holds(&l.b()), "nothing was written");
    let error = one_error(&l.share(&["1", "42", "--yes"]));
    assert!(error.contains("42"), "{error}");
    assert!(!l.holds(&l.b()), "nothing was written");
}

#[test]
fn a_peers_copy_never_replaces_the_native_memory_it_repeats() {
    let l = Linked::new();
    let b = l.b();
    l.ok(&[
        "remember",
        "-s",
        &b,
        "The sample beacons to its C2 every 60 seconds",
    ]);
    let report: Value = serde_json::from_slice(&l.share(&["2", "--yes"]).stdout).unwrap();
    assert_eq!(report["memories"][0]["outcome"], "duplicate");
    assert_eq!(
        rows(
            &l.store_of(&b),
            "SELECT badge || ' ' || author FROM memories ORDER BY id"
        ),
        ["native human"]
    );
}
