//! `kenning turn`, `kenning memory-review` and dream's turn threshold end to end: the spawned
//! program, scripted model commands, real stores.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support;

const SUBJECT: &str = "profile:me";

struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A data directory whose `kenning.toml` reviews every `every` turns with `model_cmd`.
    fn new(model_cmd: Option<&str>, every: u32) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        let s = Scratch { dir };
        let mut config = format!("[review]\nevery_turns = {every}\n");
        if let Some(model_cmd) = model_cmd {
            config.push_str(&format!("model_cmd = {}\n", toml_string(model_cmd)));
        }
        std::fs::write(s.data().join("kenning.toml"), config).unwrap();
        s
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
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

    fn turn(&self, session: &str, extra: &[&str]) -> Value {
        let mut args = vec!["turn", "-s", SUBJECT, "--session", session, "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&self.ok(&args)).unwrap()
    }

    fn events(&self) -> Vec<Value> {
        self.ok(&["log", "-s", SUBJECT])
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn actions(&self) -> Vec<String> {
        let mut actions: Vec<String> = self
            .events()
            .iter()
            .map(|e| e["action"].as_str().unwrap().to_owned())
            .collect();
        actions.reverse();
        actions
    }
}

fn toml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

fn write_reply(path: &Path, reply: &str) {
    std::fs::write(path, reply).unwrap();
}

const ADD_LYON: &str = r#"{"calls": [
  {"tool": "memory", "arguments": {"action": "add", "target": "user", "content": "Lives in Lyon"}},
  {"tool": "memory", "arguments": {"action": "remove", "target": "memory", "old_text": "no such entry"}}
]}"#;

#[test]
fn every_nth_turn_of_a_session_starts_a_review_that_the_turn_does_not_wait_for() {
    let dir = tempfile::tempdir().unwrap();
    let (prompt, reply, finished) = (
        dir.path().join("prompt.txt"),
        dir.path().join("reply.json"),
        dir.path().join("finished"),
    );
    write_reply(&reply, ADD_LYON);
    let model = format!(
        "cat > '{}'; sleep 3; touch '{}'; cat '{}'",
        prompt.display(),
        finished.display(),
        reply.display()
    );
    let s = Scratch::new(Some(&model), 3);
    let transcript = s.path("transcript.txt");
    std::fs::write(&transcript, "user: I moved to Lyon last week.").unwrap();

    let counts: Vec<(Value, Value)> = (0..2)
        .map(|_| {
            let t = s.turn("s1", &[]);
            (t["session_turns"].clone(), t["review_due"].clone())
        })
        .collect();
    assert_eq!(counts, [(1.into(), false.into()), (2.into(), false.into())]);
    assert_eq!(
        s.turn("s2", &[])["session_turns"],
        1,
        "sessions count apart"
    );
    let third = s.turn("s1", &["--transcript", transcript.to_str().unwrap()]);
    assert_eq!(third["total_turns"], 4);
    assert_eq!(
        (third["review_due"].clone(), third["review_started"].clone()),
        (true.into(), true.into())
    );
    assert!(
        !finished.exists(),
        "the turn returned before the model answered"
    );

    let started = Instant::now();
    while !s.actions().contains(&"memory_review_completed".to_owned()) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{:?}",
            s.actions()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        s.actions(),
        ["memory_review_started", "add", "memory_review_completed"]
    );
    let completed = &s.events()[0];
    let detail: Value = serde_json::from_str(completed["detail"].as_str().unwrap()).unwrap();
    assert_eq!(detail["applied"], 1);
    assert_eq!(
        detail["refused"], 1,
        "the remove matched nothing; the add still applied"
    );
    let view = s.ok(&["view", "-s", SUBJECT]);
    assert!(view.contains("- Lives in Lyon"), "{view}");
    let prompt = std::fs::read_to_string(&prompt).unwrap();
    assert!(prompt.contains("I moved to Lyon last week."), "{prompt}");
    assert!(
        prompt.contains("only one tool") || prompt.contains("one tool, `memory`"),
        "{prompt}"
    );
}

#[test]
fn a_failing_stalling_or_overreaching_review_model_is_recorded_as_failed_and_writes_nothing() {
    let s = Scratch::new(Some("placeholder"), 10);
    let reply = s.path("reply.json");
    for (model, expected) in [
        ("echo down >&2; exit 2".to_owned(), "failed"),
        (
            "sleep 30".to_owned(),
            "took longer than 1 s and was stopped",
        ),
        (format!("cat '{}'", reply.display()), "only the memory tool"),
    ] {
        write_reply(
            &reply,
            r#"{"calls": [{"tool": "memory", "arguments": {"action": "add", "target": "user", "content": "ok"}},
                          {"tool": "remember", "arguments": {"text": "sneaky"}}]}"#,
        );
        std::fs::write(
            s.data().join("kenning.toml"),
            format!(
                "[review]\nmodel_cmd = {}\ntimeout_secs = 1\n",
                toml_string(&model)
            ),
        )
        .unwrap();
        let output = s.run(&["memory-review", "-s", SUBJECT, "--session", "s1"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{model}");
        assert!(stderr.contains(expected), "{model}: {stderr}");
        assert_eq!(
            s.actions().last().map(String::as_str),
            Some("memory_review_failed")
        );
        assert!(
            !s.actions().contains(&"add".to_owned()),
            "nothing was written"
        );
    }
    write_reply(
        &reply,
        r#"{"calls": [{"tool": "memory", "arguments": {"action": "add", "target": "user", "content": "ok"}},
                      {"tool": "memory", "arguments": {"action": "shred", "target": "user"}}]}"#,
    );
    let output = s.run(&["memory-review", "-s", SUBJECT, "--session", "s1"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("calls[1]"));
    assert!(
        !s.actions().contains(&"add".to_owned()),
        "no call applies when one is invalid"
    );
}

#[test]
fn without_a_review_model_turns_are_counted_and_no_review_is_ever_due() {
    let s = Scratch::new(None, 1);
    let turn = s.turn("s1", &[]);
    assert_eq!(
        (turn["review_due"].clone(), turn["review_started"].clone()),
        (false.into(), false.into())
    );
    let output = s.run(&["memory-review", "-s", SUBJECT, "--session", "s1"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("model_cmd"));
    let bad = s.run(&["turn", "-s", SUBJECT, "--session", "no spaces allowed"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("session"));
}

#[test]
fn consolidation_waits_for_its_minimum_of_user_turns_unless_forced() {
    let s = Scratch::new(None, 10);
    s.ok(&[
        "remember",
        "-s",
        SUBJECT,
        "The deploy script lives in tools/deploy.sh",
    ]);
    let plan = |min_turns: &str| -> Value {
        serde_json::from_str(&s.ok(&[
            "dream",
            "-s",
            SUBJECT,
            "--dry-run",
            "--json",
            "--min-turns",
            min_turns,
        ]))
        .unwrap()
    };
    let execute = |min_turns: &str, hash: &str| {
        s.run(&[
            "dream",
            "-s",
            SUBJECT,
            "--execute",
            "--yes",
            "--plan-hash",
            hash,
            "--min-turns",
            min_turns,
        ])
    };
    let previewed = plan("2");
    assert_eq!(
        (
            previewed["due"].clone(),
            previewed["turns_since_last_run"].clone()
        ),
        (false.into(), 0.into())
    );
    let hash = previewed["plan_hash"].as_str().unwrap().to_owned();
    let refused = execute("2", &hash);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("turns"),
        "{refused:?}"
    );
    s.turn("s1", &[]);
    s.turn("s2", &[]);
    assert_eq!(plan("2")["due"], true);
    assert!(execute("2", &hash).status.success());
    let after = plan("0");
    assert_eq!(after["turns_since_last_run"], 0, "{after}");
    assert_eq!(after["last_run"]["turns"], 2);
}

#[test]
fn where_writes_are_disabled_a_review_fails_without_asking_its_model() {
    let s = Scratch::new(Some("placeholder"), 10);
    s.ok(&[
        "remember",
        "-s",
        SUBJECT,
        "The deploy script lives in tools/deploy.sh",
    ]);
    s.ok(&["settings", "-s", SUBJECT, "allow_writes", "false"]);
    let asked = s.path("asked");
    let reply = s.path("reply.json");
    write_reply(&reply, ADD_LYON);
    let model = format!("touch '{}'; cat '{}'", asked.display(), reply.display());
    std::fs::write(
        s.data().join("kenning.toml"),
        format!("[review]\nmodel_cmd = {}\n", toml_string(&model)),
    )
    .unwrap();
    let output = s.run(&["memory-review", "-s", SUBJECT, "--session", "s1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("writes are disabled"), "{stderr}");
    assert!(!asked.exists(), "the model was asked for nothing");
    assert_eq!(
        s.actions().last().map(String::as_str),
        Some("memory_review_failed")
    );
}
