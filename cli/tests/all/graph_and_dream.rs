//! `kenning graph` and `kenning dream` end to end: the spawned program over real stores.

use std::path::{Path, PathBuf};
use std::process::Output;

use kenning::subject::Subject;
use serde_json::Value;

use crate::support;

use support::postgres::DirectSql;

fn kenning(data_dir: &Path, args: &[&str]) -> Output {
    support::kenning_at(data_dir)
        .args(args)
        .output()
        .expect("run kenning")
}

/// Runs kenning, asserting success, and returns its standard output.
fn ok(data_dir: &Path, args: &[&str]) -> String {
    let output = kenning(data_dir, args);
    assert!(
        output.status.success(),
        "kenning {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn remember(data_dir: &Path, subject: &str, text: &str, extra: &[&str]) {
    let mut args = vec!["remember", "--subject", subject, text];
    args.extend_from_slice(extra);
    ok(data_dir, &args);
}

fn store_path(data_dir: &Path, subject: &str) -> PathBuf {
    Subject::parse(subject).unwrap().store_path(data_dir)
}

/// A direct connection to the store at `path` (a data directory's file) on the backend this run
/// tests.
fn sql(path: &Path) -> DirectSql {
    DirectSql::open(path.parent().unwrap(), path)
}

/// Every row of `table` (`memories`, `events` or `meta`) as a JSON array of its columns, in
/// order; an event's columns are `id, at, actor, action, memory_id, before_hash, after_hash,
/// detail`.
fn rows(path: &Path, table: &str) -> Vec<String> {
    let (columns, order) = match table {
        "memories" => (
            "id, scope, kind, text, tags, confidence, author, badge, status, content_hash, \
             supersedes, created_at, updated_at, recall_count, reviewed_at, reviewed_by",
            "id",
        ),
        "events" => (
            "id, at, actor, action, memory_id, before_hash, after_hash, detail",
            "id",
        ),
        "meta" => ("key, value", "key"),
        other => panic!("no such table {other}"),
    };
    sql(path).texts(
        &format!("SELECT json_array({columns}) FROM {table} ORDER BY {order}"),
        &format!("SELECT json_build_array({columns})::text FROM {table} ORDER BY {order}"),
    )
}

/// The memories, audit events and recorded runs of a store: what a consolidation may change.
fn snapshot(path: &Path) -> [Vec<String>; 3] {
    [
        rows(path, "memories"),
        rows(path, "events"),
        rows(path, "meta"),
    ]
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

// ---------------------------------------------------------------------------------------------
// graph

/// Statements of a DOT document, checked for well-formed quoting: every quoted string closes
/// on its line, escapes are complete, and a statement ends with `;`.
fn dot_statements(dot: &str) -> Vec<String> {
    let body = dot
        .strip_prefix("digraph kenning {\n")
        .and_then(|rest| rest.strip_suffix("}\n"))
        .unwrap_or_else(|| panic!("not a digraph: {dot}"));
    let mut statements = Vec::new();
    for line in body.lines() {
        let (mut in_string, mut escaped) = (false, false);
        for c in line.chars() {
            match (in_string, escaped, c) {
                (true, true, _) => {
                    assert!(
                        matches!(c, '"' | '\\' | 'n'),
                        "unknown escape \\{c} in {line}"
                    );
                    escaped = false;
                }
                (true, false, '\\') => escaped = true,
                (_, false, '"') => in_string = !in_string,
                _ => {}
            }
        }
        assert!(!in_string && !escaped, "unclosed string in {line:?}");
        assert!(line.trim_end().ends_with(';'), "no `;` ending {line:?}");
        statements.push(line.trim().to_owned());
    }
    statements
}

#[test]
fn the_graph_counts_memories_distinct_anchors_and_shared_tags_and_renders_valid_dot() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let s = "account:graph";
    let decrypt = "decrypt@0x401000-0x401200";
    remember(
        data,
        s,
        "the config is decrypted by decrypt",
        &["--function", decrypt, "--tag", "crypto"],
    );
    remember(
        data,
        s,
        "decrypt uses RC4 with a \"static\" key\nfrom C:\\keys\\rc4.bin",
        &[
            "--function",
            decrypt,
            "--string",
            "RC4 key",
            "--tag",
            "crypto",
            "--tag",
            "rc4",
        ],
    );
    remember(
        data,
        s,
        "the user prefers short answers",
        &["--tag", "style"],
    );
    remember(
        data,
        s,
        "the C2 address is built at runtime",
        &["--address", "0x402000", "--tag", "network"],
    );

    let graph = json(&ok(data, &["graph", "--subject", s, "--format", "json"]));
    assert_eq!(graph["format"], "kenning-graph/1");
    let nodes = graph["nodes"].as_array().unwrap();
    let of_kind = |kind: &str| nodes.iter().filter(|n| n["kind"] == kind).count();
    assert_eq!(
        (of_kind("memory"), of_kind("anchor"), of_kind("tag")),
        (4, 3, 1),
        "{graph:#}"
    );
    assert_eq!(graph["counts"]["edges"], 6);
    assert_eq!(graph["edges"].as_array().unwrap().len(), 6);
    let function = nodes
        .iter()
        .find(|n| n["anchor_kind"] == "function")
        .unwrap();
    assert_eq!(function["value"], "decrypt@0x401000-0x401200");
    assert_eq!(function["memories"], 2);
    let tag = nodes.iter().find(|n| n["kind"] == "tag").unwrap();
    assert_eq!(
        (&tag["tag"], &tag["memories"]),
        (&"crypto".into(), &2.into())
    );
    let memory = &nodes[0];
    for field in ["id", "preview", "badge", "status", "scope"] {
        assert!(memory[field].is_string(), "{field} missing in {memory}");
    }
    // Every edge joins a memory to a node of the graph.
    let ids: Vec<&str> = nodes.iter().map(|n| n["id"].as_str().unwrap()).collect();
    for edge in graph["edges"].as_array().unwrap() {
        assert!(edge["from"].as_str().unwrap().starts_with("m:"));
        assert!(ids.contains(&edge["to"].as_str().unwrap()), "{edge}");
    }

    let dot = ok(data, &["graph", "--subject", s, "--format", "dot"]);
    let statements = dot_statements(&dot);
    let edges = statements.iter().filter(|l| l.contains(" -> ")).count();
    let node_lines = statements
        .iter()
        .filter(|l| l.starts_with('"') && !l.contains(" -> "))
        .count();
    assert_eq!((node_lines, edges), (8, 6), "{dot}");
    assert!(dot.contains(r#"\"static\""#), "quotes escaped: {dot}");
    assert!(
        dot.contains(r#"C:\\keys\\rc4.bin"#),
        "backslashes escaped: {dot}"
    );
}

#[test]
fn a_graph_of_a_subject_that_does_not_exist_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = kenning(dir.path(), &["graph", "--subject", "account:nobody"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("nobody"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// dream

const DREAM: &str = "account:dream";

/// A store with a near-duplicate pair, a contradiction and a memory neither touches.
fn planted(data: &Path) -> PathBuf {
    for text in [
        "the config is encrypted with RC4 using a static key",
        "the config is encrypted with RC4 using a static key!",
        "the c2 server is at 10.0.0.1 port 443",
        "the c2 server is at 10.0.0.7 port 443",
        "the user prefers short answers",
    ] {
        remember(data, DREAM, text, &[]);
    }
    store_path(data, DREAM)
}

fn dry_run(data: &Path) -> Value {
    json(&ok(
        data,
        &["dream", "--subject", DREAM, "--dry-run", "--json"],
    ))
}

/// The hash of the plan a dry run previews now.
fn previewed_hash(data: &Path) -> String {
    dry_run(data)["plan_hash"].as_str().unwrap().to_owned()
}

fn execute(data: &Path, hash: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "dream",
        "--subject",
        DREAM,
        "--execute",
        "--yes",
        "--plan-hash",
        hash,
    ];
    args.extend_from_slice(extra);
    kenning(data, &args)
}

fn status_of(path: &Path, id: u64) -> String {
    let query = format!("SELECT status FROM memories WHERE id = {id}");
    sql(path).texts(&query, &query).remove(0)
}

#[test]
fn a_dry_run_shows_the_merge_and_the_supersession_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let before = snapshot(&path);
    let plan = dry_run(dir.path());
    assert_eq!(plan["counts"]["merges"], 1, "{plan:#}");
    assert_eq!(plan["counts"]["merged"], 1, "{plan:#}");
    assert_eq!(plan["counts"]["superseded"], 1, "{plan:#}");
    assert_eq!(plan["memories"], 5);
    assert_eq!(plan["plan_hash"].as_str().unwrap().len(), 64);
    let steps = plan["steps"].as_array().unwrap();
    let supersede = steps.iter().find(|s| s["action"] == "supersede").unwrap();
    assert!(
        supersede["older"]["preview"]
            .as_str()
            .unwrap()
            .contains("10.0.0.1")
    );
    assert!(
        supersede["newer"]["preview"]
            .as_str()
            .unwrap()
            .contains("10.0.0.7")
    );
    let text = ok(dir.path(), &["dream", "--subject", DREAM, "--dry-run"]);
    assert!(text.contains("merge into #"), "{text}");
    assert!(text.contains("--plan-hash"), "{text}");
    assert_eq!(snapshot(&path), before, "a dry run writes nothing");
}

#[test]
fn executing_the_previewed_plan_applies_it_with_an_audit_event_for_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let plan = dry_run(dir.path());
    let hash = plan["plan_hash"].as_str().unwrap();
    let output = execute(dir.path(), hash, &["--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let outcome = json(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(outcome["run"]["plan_hash"], hash);
    assert_eq!(outcome["events"], 3);

    let mut changed = Vec::new();
    for step in plan["steps"].as_array().unwrap() {
        match step["action"].as_str().unwrap() {
            "merge" => {
                let keep = step["keep"]["id"].as_u64().unwrap();
                assert_eq!(status_of(&path, keep), "active");
                for d in step["duplicates"].as_array().unwrap() {
                    changed.push((d["id"].as_u64().unwrap(), "merge"));
                }
            }
            "supersede" => {
                assert_eq!(
                    status_of(&path, step["newer"]["id"].as_u64().unwrap()),
                    "active"
                );
                changed.push((step["older"]["id"].as_u64().unwrap(), "supersede"));
            }
            other => panic!("unexpected step {other}"),
        }
    }
    assert_eq!(changed.len(), 2);
    let events: Vec<Value> = rows(&path, "events").iter().map(|e| json(e)).collect();
    for (id, action) in &changed {
        assert_eq!(
            status_of(&path, *id),
            "superseded",
            "kept, marked superseded"
        );
        let audited: Vec<&Value> = events
            .iter()
            .filter(|e| e[4] == *id && e[3] == *action)
            .collect();
        assert_eq!(audited.len(), 1, "one {action} event for {id}: {events:?}");
        let detail = json(audited[0][7].as_str().unwrap());
        assert_eq!(detail["plan"], hash);
        assert!(detail["reason"].as_str().is_some_and(|r| !r.is_empty()));
    }
    let runs: Vec<&Value> = events.iter().filter(|e| e[3] == "dream").collect();
    assert_eq!(runs.len(), 1, "the run itself is audited");
    assert_eq!(
        status_of(&path, 5),
        "active",
        "the memory no step names is untouched"
    );
}

#[test]
fn a_plan_gone_stale_since_the_preview_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let hash = previewed_hash(dir.path());
    remember(dir.path(), DREAM, "the sample was packed with UPX", &[]);
    let before = snapshot(&path);
    let output = execute(dir.path(), &hash, &[]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("changed since it was previewed"),
        "{stderr}"
    );
    assert_eq!(snapshot(&path), before, "nothing was written");
}

#[test]
fn a_failure_late_in_the_consolidation_leaves_the_store_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let hash = previewed_hash(dir.path());
    // The run's own audit event is the transaction's last write: failing it fails the run
    // after every memory has been marked.
    sql(&path).execute(
        "CREATE TRIGGER fail_late BEFORE INSERT ON events WHEN NEW.action = 'dream' \
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
        "CREATE FUNCTION fail_late() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
         IF NEW.action = 'dream' THEN RAISE EXCEPTION 'injected failure'; END IF; \
         RETURN NEW; END $$; \
         CREATE TRIGGER fail_late BEFORE INSERT ON public.events FOR EACH ROW \
         EXECUTE FUNCTION fail_late();",
    );
    let before = snapshot(&path);
    let output = execute(dir.path(), &hash, &[]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("injected failure"), "{stderr}");
    assert_eq!(snapshot(&path), before, "the store is as it was");

    sql(&path).execute(
        "DROP TRIGGER fail_late;",
        "DROP TRIGGER fail_late ON public.events;",
    );
    let output = execute(dir.path(), &hash, &[]);
    assert!(
        output.status.success(),
        "the same plan applies once the failure is gone: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_second_run_within_the_threshold_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let first = dry_run(dir.path());
    assert_eq!(first["due"], true);
    let output = execute(dir.path(), first["plan_hash"].as_str().unwrap(), &[]);
    assert!(output.status.success());

    let second = dry_run(dir.path());
    assert_eq!(second["due"], false);
    assert!(second["next_due_at"].as_i64().unwrap() > second["last_run"]["at"].as_i64().unwrap());
    let hash = second["plan_hash"].as_str().unwrap();
    let before = snapshot(&path);
    let refused = execute(dir.path(), hash, &[]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("24 hours apart"), "{stderr}");
    assert_eq!(snapshot(&path), before);

    let forced = execute(dir.path(), hash, &["--force"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    let runs = rows(&path, "events")
        .iter()
        .filter(|e| json(e)[3] == "dream")
        .count();
    assert_eq!(runs, 2);
}

#[test]
fn execute_without_confirmation_or_a_previewed_hash_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted(dir.path());
    let before = snapshot(&path);
    let hash = previewed_hash(dir.path());
    let unconfirmed = kenning(
        dir.path(),
        &[
            "dream",
            "--subject",
            DREAM,
            "--execute",
            "--plan-hash",
            &hash,
        ],
    );
    assert!(!unconfirmed.status.success());
    assert!(String::from_utf8_lossy(&unconfirmed.stderr).contains("--yes"));
    let unhashed = kenning(
        dir.path(),
        &["dream", "--subject", DREAM, "--execute", "--yes"],
    );
    assert!(!unhashed.status.success());
    assert!(String::from_utf8_lossy(&unhashed.stderr).contains("--plan-hash"));
    assert_eq!(snapshot(&path), before);
}

/// A profile store of `count` memories that a consolidation supersedes one after another
/// (each opens like the one before it and then differs), imported in one go.
fn many_supersessions(data: &Path, count: usize) -> PathBuf {
    use sha2::{Digest, Sha256};
    let mut file = serde_json::json!({"format": "kenning-memory/1",
        "subject": {"kind": "profile", "key": "big", "label": "big"},
        "exported_at": 1_700_000_000, "memories": count})
    .to_string();
    for i in 1..=count {
        let text = format!("The unpacking stub {i} copies the payload with a rolling xor key");
        let hash: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let record = serde_json::json!({"format": "kenning-memory/1", "id": i, "scope": "global",
            "type": "fact", "text": text, "confidence": 0.5, "author": "human", "badge": "native",
            "content_hash": hash, "created_at": 1_700_000_000 + i, "updated_at": 1_700_000_000 + i});
        file.push('\n');
        file.push_str(&record.to_string());
    }
    let path = data.join("big.jsonl");
    std::fs::create_dir_all(data).unwrap();
    std::fs::write(&path, file).unwrap();
    ok(
        data,
        &["import", path.to_str().unwrap(), "--subject", "profile:big"],
    );
    store_path(data, "profile:big")
}

#[test]
fn thousands_of_near_identical_memories_are_planned_within_the_policys_fuel() {
    // Each opens like the one before it: every pair is a candidate for prefix filtering, which
    // once made the plan's work grow with the square of the count and exhaust the fuel at 600.
    const MEMORIES: usize = 5_000;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    many_supersessions(data, MEMORIES);
    let plan: Value = json(&ok(
        data,
        &["dream", "--subject", "profile:big", "--dry-run", "--json"],
    ));
    assert_eq!(
        plan["counts"]["superseded"].as_u64(),
        Some(MEMORIES as u64 - 1),
        "{}",
        plan["counts"]
    );
}

#[test]
fn a_consolidation_killed_at_any_moment_leaves_the_store_as_before_or_wholly_consolidated() {
    const MEMORIES: usize = 300;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let path = many_supersessions(data, MEMORIES);
    let plan: Value = json(&ok(
        data,
        &["dream", "--subject", "profile:big", "--dry-run", "--json"],
    ));
    let changes = plan["counts"]["superseded"].as_u64().unwrap() as usize;
    assert!(
        changes > MEMORIES / 2,
        "a plan with many steps: {}",
        plan["counts"]
    );
    let hash = plan["plan_hash"].as_str().unwrap().to_owned();
    let before = snapshot(&path);
    let superseded = |path: &Path| -> usize {
        let mut conn = sql(path);
        assert_eq!(conn.integrity(), "ok");
        let count = "SELECT count(*) || '' FROM memories WHERE status = 'superseded'";
        conn.texts(count, count).remove(0).parse().unwrap()
    };
    let mut killed_while_running = 0;
    // A consolidation of this store runs for a few hundred milliseconds here: kill it every
    // 15 ms of that span, then later, until one has finished.
    let delays = (0..30u64).map(|i| 20 + 15 * i).chain([1_000, 2_000, 5_000]);
    for delay_ms in delays {
        let mut dream = support::kenning_at(data);
        dream.args([
            "dream",
            "--subject",
            "profile:big",
            "--execute",
            "--yes",
            "--plan-hash",
            &hash,
        ]);
        if support::kill_after(&mut dream, std::time::Duration::from_millis(delay_ms)) {
            killed_while_running += 1;
        }
        match superseded(&path) {
            0 => assert_eq!(snapshot(&path), before, "killed after {delay_ms} ms"),
            n => {
                assert_eq!(
                    n, changes,
                    "killed after {delay_ms} ms: part of the plan applied"
                );
                break;
            }
        }
    }
    assert!(
        killed_while_running > 0,
        "no consolidation was killed while it ran"
    );
}
