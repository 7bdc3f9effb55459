//! `kenning maintain` and the server's maintenance schedule end to end: the spawned program
//! over real stores, aged with SQL where a test needs the past.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kenning::subject::Subject;
use serde_json::Value;
use support::postgres::DirectSql;

use crate::support;

const SUBJECT: &str = "profile:me";

/// Runs kenning, asserting success, and returns its standard output.
fn ok(data: &Path, args: &[&str]) -> String {
    let output = support::kenning(data, args, None);
    assert!(
        output.status.success(),
        "kenning {args:?} failed ({}): {}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn store_path(data: &Path) -> PathBuf {
    Subject::parse(SUBJECT).unwrap().store_path(data)
}

fn sql(data: &Path) -> DirectSql {
    DirectSql::open(data, &store_path(data))
}

/// One row per memory: `id status target`.
fn statuses(data: &Path) -> Vec<String> {
    let query = "SELECT id || ' ' || status || ' ' || coalesce(target, '-') FROM memories \
                 ORDER BY id";
    sql(data).texts(query, query)
}

/// Every row of the store's memories, events and meta tables, as text.
fn snapshot(data: &Path) -> Vec<String> {
    let mut conn = sql(data);
    let mut rows = Vec::new();
    for (sqlite, postgres) in [
        (
            "SELECT json_array(id, status, badge, text, updated_at) FROM memories ORDER BY id",
            "SELECT json_build_array(id, status, badge, text, updated_at)::text FROM memories \
             ORDER BY id",
        ),
        (
            "SELECT json_array(id, action, memory_id, detail) FROM events ORDER BY id",
            "SELECT json_build_array(id, action, memory_id, detail)::text FROM events ORDER BY id",
        ),
        (
            "SELECT json_array(key, value) FROM meta ORDER BY key",
            "SELECT json_build_array(key, value)::text FROM meta ORDER BY key",
        ),
    ] {
        rows.extend(conn.texts(sqlite, postgres));
    }
    rows
}

/// A store holding one of each: knowledge (1), a suggestion (2), a daily note (3), a USER.md
/// entry (4) and a MEMORY.md entry (5), all written long ago: the suggestion 20 days, the
/// daily note's day 300 days, the profile entries 400 days.
fn aged_store(data: &Path) {
    ok(
        data,
        &[
            "remember",
            "-s",
            SUBJECT,
            "The build server runs nightly at two",
        ],
    );
    ok(
        data,
        &[
            "remember",
            "-s",
            SUBJECT,
            "--author",
            "external",
            "Maybe the user prefers tabs",
        ],
    );
    for (target, content) in [
        ("daily", "Met Bob about the migration plan"),
        ("user", "Prefers short answers"),
        ("memory", "The staging database is called atlas"),
    ] {
        let args = serde_json::json!({"action": "add", "target": target, "content": content});
        ok(data, &["call", "-s", SUBJECT, "memory", &args.to_string()]);
    }
    let day = 86_400;
    let aged = format!(
        "UPDATE memories SET created_at = created_at - {long}, updated_at = updated_at - {long}",
        long = 400 * day
    );
    // Twenty days and a half: its age in whole days is 20 however many seconds pass between
    // this update and the runs that read it, so a dry run and a run report the same age.
    let suggestion_age = 20 * day + day / 2;
    let mut conn = sql(data);
    conn.execute(&aged, &aged);
    conn.execute(
        &format!(
            "UPDATE memories SET created_at = strftime('%s', 'now') - {} WHERE badge = 'pending'",
            suggestion_age
        ),
        &format!(
            "UPDATE memories SET created_at = extract(epoch FROM now())::bigint - {} \
             WHERE badge = 'pending'",
            suggestion_age
        ),
    );
    conn.execute(
        "UPDATE memories SET day = date('now', '-300 days') WHERE target = 'daily'",
        "UPDATE memories SET day = to_char(now() - interval '300 days', 'YYYY-MM-DD') \
         WHERE target = 'daily'",
    );
}

fn reports(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn maintenance_expires_an_old_suggestion_and_daily_note_and_never_a_profile_entry() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    aged_store(data);
    let before = snapshot(data);

    let dry = reports(&ok(data, &["maintain", "--dry-run", "--json"]));
    assert_eq!(dry.len(), 1, "one subject in the data directory");
    let ids: Vec<&Value> = dry[0]["expired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["memory"]["id"])
        .collect();
    assert_eq!(ids, [2, 3], "{}", dry[0]);
    assert_eq!(snapshot(data), before, "a dry run writes nothing");

    let run = reports(&ok(data, &["maintain", "-s", SUBJECT, "--json"]));
    assert_eq!(
        run[0]["expired"], dry[0]["expired"],
        "the run does what was previewed"
    );
    assert_eq!(
        statuses(data),
        [
            "1 active -",
            "2 forgotten -",
            "3 forgotten daily",
            "4 active user",
            "5 active memory"
        ]
    );
    let (segments_before, segments_after) = (
        run[0]["index_segments"][0].as_u64().unwrap(),
        run[0]["index_segments"][1].as_u64().unwrap(),
    );
    // FTS5's index grows a segment a write; PostgreSQL's GIN index has none to merge.
    if !support::postgres::on_postgres() {
        assert!(
            segments_before > 1,
            "five writes made several index segments"
        );
        assert_eq!(segments_after, 1, "the run merged them");
    }

    let log = ok(data, &["log", "-s", SUBJECT]);
    let events: Vec<Value> = reports(&log);
    let expiries: Vec<&Value> = events.iter().filter(|e| e["action"] == "expire").collect();
    assert_eq!(expiries.len(), 2, "{log}");
    assert!(
        expiries
            .iter()
            .all(|e| e["actor"] == "maintain" && e["before_hash"].is_string())
    );
    assert_eq!(
        events.iter().filter(|e| e["action"] == "maintain").count(),
        1
    );

    let again = reports(&ok(data, &["maintain", "--json"]));
    assert_eq!(
        again[0]["expired"],
        serde_json::json!([]),
        "nothing expires twice"
    );
    let recalled = ok(data, &["recall", "-s", SUBJECT, "tabs"]);
    assert!(
        !recalled.contains("Maybe the user prefers tabs"),
        "{recalled}"
    );
}

#[test]
fn in_delete_mode_an_old_daily_note_is_deleted_with_its_audit_event_and_the_store_stays_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    aged_store(data);
    std::fs::write(
        data.join("kenning.toml"),
        "[maintenance]\ndaily_mode = \"delete\"\nsuggestion_ttl_days = 30\n",
    )
    .unwrap();
    let run = reports(&ok(data, &["maintain", "--json"]));
    assert_eq!(run[0]["expired"][0]["outcome"], "deleted", "{}", run[0]);
    assert_eq!(
        run[0]["expired"].as_array().unwrap().len(),
        1,
        "the suggestion is 20 of 30 days old"
    );
    assert_eq!(
        statuses(data),
        [
            "1 active -",
            "2 active -",
            "4 active user",
            "5 active memory"
        ]
    );
    let mut conn = sql(data);
    assert_eq!(conn.integrity(), "ok");
    let indexed = conn.texts(
        "SELECT count(*) || '' FROM memories_fts WHERE memories_fts MATCH 'migration'",
        "SELECT count(*)::text FROM memories WHERE words @@ to_tsquery('english', 'migration')",
    );
    assert_eq!(indexed, ["0"], "the deleted note left the full-text index");
    let deleted = "SELECT memory_id || ' ' || before_hash FROM events WHERE action = 'delete'";
    let deleted = conn.texts(deleted, deleted).remove(0);
    let (memory_id, hash) = deleted.split_once(' ').unwrap();
    assert_eq!(memory_id, "3");
    assert_eq!(
        hash.len(),
        64,
        "the audit event keeps the deleted note's hash"
    );
}

#[test]
fn a_bad_configuration_file_is_one_error_naming_it_and_nothing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    aged_store(data);
    let before = snapshot(data);
    std::fs::write(
        data.join("kenning.toml"),
        "[maintenance]\ndaily_mode = \"shred\"\n",
    )
    .unwrap();
    let output = support::kenning(data, &["maintain"], None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("kenning.toml") && stderr.contains("shred"),
        "{stderr}"
    );
    assert_eq!(snapshot(data), before);
}

#[test]
fn the_server_maintains_the_subjects_due_at_start_up_unless_told_not_to() {
    // First a server that maintains, timed: how long one needs to maintain this store.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    aged_store(data);
    let server = support::Server::start(data, &[]);
    let started = Instant::now();
    while statuses(data)[1] != "2 forgotten -" {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the server never maintained the store: {:?}",
            statuses(data)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let needed = started.elapsed();
    let (clean, log) = server.terminate();
    assert!(clean, "{log}");
    assert!(log.contains("\"maintenance\""), "the run is logged: {log}");
    assert_eq!(statuses(data)[2], "3 forgotten daily");

    // Then one told not to, over the same aged store, given twice that time (and a second at
    // least): it leaves the store alone and logs no run.
    let quiet_dir = tempfile::tempdir().unwrap();
    let quiet_data = quiet_dir.path();
    aged_store(quiet_data);
    let before = snapshot(quiet_data);
    let quiet = support::Server::start_with(quiet_data, &[], &["--no-maintenance"]);
    std::thread::sleep((needed * 2).max(Duration::from_secs(1)));
    let (clean, log) = quiet.terminate();
    assert!(clean, "{log}");
    assert!(!log.contains("\"maintenance\""), "no run is logged: {log}");
    assert_eq!(
        statuses(quiet_data)[1],
        "2 active -",
        "--no-maintenance left the store alone"
    );
    assert_eq!(snapshot(quiet_data), before);
}

#[test]
fn the_schedule_maintains_only_the_subjects_whose_last_run_is_an_interval_old() {
    if support::postgres::sqlite_only("builds the service over the data directory's SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let (first, second) = ("profile:first", "profile:second");
    let shown = |spec: &str| Subject::parse(spec).unwrap().to_string();
    for subject in [first, second] {
        ok(
            data,
            &["remember", "-s", subject, "The deploy key rotates monthly"],
        );
    }
    let start = 1_800_000_000;
    let hour = 3_600;
    let service_at = |now: i64| {
        kenning::Service::builder(data)
            .cache_dir(support::shared_cache_dir())
            .fixed_now(now)
            .build()
            .unwrap()
    };
    let due_at = |now: i64| -> Vec<String> {
        let mut ran: Vec<String> = service_at(now)
            .maintain_due()
            .unwrap()
            .into_iter()
            .map(|(subject, report)| {
                report.unwrap();
                subject.to_string()
            })
            .collect();
        ran.sort();
        ran
    };
    assert_eq!(
        due_at(start),
        [shown(first), shown(second)],
        "never maintained: both due"
    );
    assert!(due_at(start + hour).is_empty(), "an hour later: neither");
    service_at(start + 12 * hour)
        .maintain(&Subject::parse(second).unwrap(), false)
        .unwrap();
    assert!(
        due_at(start + 24 * hour - 1).is_empty(),
        "a second short of a day: neither"
    );
    assert_eq!(
        due_at(start + 24 * hour),
        [shown(first)],
        "a day after its run: only the first"
    );
    assert_eq!(
        due_at(start + 36 * hour),
        [shown(second)],
        "a day after its own run: the second"
    );
}
