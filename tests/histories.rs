//! Random histories of writes, revisions, forgets and reviews, run by concurrent writer
//! processes, some of them killed (SIGKILL) mid-way: every acknowledged write is in the store or
//! explicitly superseded by a later one, every memory's audit trail is one unbroken chain that
//! ends at what is stored, nothing is decided twice, and `integrity_check` is ok.
//!
//! Each writer is the `writer` binary in `script` mode, calling the service as the CLI and the
//! MCP server do, and printing a line after each write commits.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use kenning::store::content_hash;
use kenning::subject::Subject;
use kenning_e2e::{rows_of, state_of};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::Value;

/// Agent memories every history starts with (ids 1..=4), which writers revise and forget.
const SEED_NOTES: u64 = 4;
/// External memories awaiting review every history starts with (ids 5..=7).
const SEED_PROPOSALS: u64 = 3;

/// One operation of a writer's script.
#[derive(Debug, Clone)]
enum Op {
    Remember { external: bool },
    Revise { external: bool, seed: u64 },
    Forget { seed: u64 },
    Review { target: Option<u64>, accept: bool },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any::<bool>().prop_map(|external| Op::Remember { external }),
        3 => (any::<bool>(), 1..=SEED_NOTES).prop_map(|(external, seed)| Op::Revise { external, seed }),
        1 => (1..=SEED_NOTES).prop_map(|seed| Op::Forget { seed }),
        2 => (prop::option::of(SEED_NOTES + 1..=SEED_NOTES + SEED_PROPOSALS), any::<bool>())
            .prop_map(|(target, accept)| Op::Review { target, accept }),
    ]
}

/// A writer: its operations, and after how many answered operations it is killed, if it is.
fn writer() -> impl Strategy<Value = (Vec<Op>, Option<usize>)> {
    (
        prop::collection::vec(op(), 1..10),
        prop::option::weighted(0.4, 0..6usize),
    )
}

fn who(external: bool) -> &'static str {
    if external { "external" } else { "agent" }
}

/// The script line of `op`, the `n`th operation of writer `w`; every text is unique.
fn line(w: usize, n: usize, op: &Op) -> String {
    let tag = format!("w{w}o{n}");
    match op {
        Op::Remember { external } => format!("remember {} {tag}", who(*external)),
        Op::Revise { external, seed } => format!("revise {} {seed} {tag}", who(*external)),
        Op::Forget { seed } => format!("forget agent {seed}"),
        Op::Review { target, accept } => format!(
            "review {} {}",
            target.map_or("first".to_owned(), |id| id.to_string()),
            if *accept { "accept" } else { "reject" }
        ),
    }
}

fn script_writer(data: &Path, subject: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_writer"));
    command
        .arg("script")
        .arg(data)
        .arg(subject)
        // One compiled-policy cache for every history, so that none compiles it.
        .env("KENNING_CACHE_DIR", kenning_e2e::policy_cache_dir());
    command
}

/// Starts one writer process with `script` written to its standard input, its answers piped.
fn start_writer(data: &Path, subject: &str, script: &str) -> Child {
    let mut child = script_writer(data, subject)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start a writer");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child
}

/// Runs `script` in one writer process to the end and returns its answer lines.
fn run_to_end(data: &Path, subject: &str, script: &str) -> Vec<String> {
    let output = start_writer(data, subject, script)
        .wait_with_output()
        .unwrap();
    assert!(output.status.success(), "a writer failed");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// What one acknowledged line says was written.
#[derive(Debug)]
struct Ack {
    words: Vec<String>,
    answer: Value,
}

fn acks(lines: &[String]) -> Vec<Ack> {
    lines
        .iter()
        .filter_map(|line| {
            let rest = line.strip_prefix("ack ")?;
            let (op, answer) = rest.split_once(" => ").expect("ack <op> => <answer>");
            Some(Ack {
                words: op.split_whitespace().map(str::to_owned).collect(),
                answer: serde_json::from_str(answer).expect("answer JSON"),
            })
        })
        .collect()
}

#[derive(Debug)]
struct Row {
    text: String,
    hash: String,
    status: String,
    badge: String,
    supersedes: Option<u64>,
}

#[derive(Debug)]
struct Event {
    action: String,
    memory: u64,
    before: Option<String>,
    after: Option<String>,
}

fn rows(data: &Path, subject: &Subject) -> (BTreeMap<u64, Row>, Vec<Event>) {
    let id = |text: &Option<String>| text.as_deref().map(|id| id.parse::<u64>().unwrap());
    let columns = [
        "id",
        "text",
        "content_hash",
        "status",
        "badge",
        "supersedes",
    ];
    let rows = rows_of(data, subject, "memories", &columns)
        .into_iter()
        .map(|mut r| {
            let row = Row {
                text: r[1].take().unwrap(),
                hash: r[2].take().unwrap(),
                status: r[3].take().unwrap(),
                badge: r[4].take().unwrap(),
                supersedes: id(&r[5]),
            };
            (id(&r[0]).unwrap(), row)
        })
        .collect();
    let columns = ["action", "memory_id", "before_hash", "after_hash"];
    let events = rows_of(data, subject, "events", &columns)
        .into_iter()
        .map(|mut r| Event {
            action: r[0].take().unwrap(),
            memory: id(&r[1]).unwrap(),
            before: r[2].take(),
            after: r[3].take(),
        })
        .collect();
    (rows, events)
}

/// Runs one history and checks it; returns a description of the first broken rule.
fn check_history(writers: &[(Vec<Op>, Option<usize>)]) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let subject = "account:history";

    // The seeds, written by one writer that runs to the end (the first also warms the cache).
    let mut seed = String::new();
    for n in 1..=SEED_NOTES {
        seed += &format!("remember agent seed{n}\n");
    }
    for n in 1..=SEED_PROPOSALS {
        seed += &format!("remember external proposal{n}\n");
    }
    let seeded = acks(&run_to_end(&data, subject, &seed));
    let seed_ids: Vec<u64> = seeded
        .iter()
        .map(|a| a.answer["id"].as_u64().unwrap())
        .collect();
    assert_eq!(
        seed_ids,
        (1..=SEED_NOTES + SEED_PROPOSALS).collect::<Vec<_>>()
    );

    // The writers, all at once.
    let children: Vec<_> = writers
        .iter()
        .enumerate()
        .map(|(w, (ops, kill_after))| {
            let script: String = ops
                .iter()
                .enumerate()
                .map(|(n, op)| line(w, n, op) + "\n")
                .collect();
            (start_writer(&data, subject, &script), *kill_after)
        })
        .collect();
    let mut answered = Vec::new();
    let mut killed = 0;
    for (mut child, kill_after) in children {
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        if let Some(k) = kill_after {
            for _ in 0..k {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap() == 0 {
                    break;
                }
                answered.push(line.trim_end().to_owned());
            }
            if child.try_wait().unwrap().is_none() {
                killed += 1;
            }
            child.kill().ok();
        }
        // Lines printed before the kill were printed after their commits: they count too.
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).unwrap();
        answered.extend(rest.lines().map(str::to_owned));
        let status = child.wait().unwrap();
        if kill_after.is_none() && !status.success() {
            return Err(format!("a writer that was not killed failed: {status}"));
        }
    }
    let acked = acks(&answered);

    let parsed = Subject::parse(subject).unwrap();
    let state = state_of(&data, &parsed);
    if state.integrity != "ok" {
        return Err(format!("integrity_check: {}", state.integrity));
    }
    let (rows, events) = rows(&data, &parsed);
    let seed_events = (SEED_NOTES + SEED_PROPOSALS) as usize;

    // Every acknowledged write made exactly one audit event; a killed writer may have committed
    // one more write that it never acknowledged.
    let made = events.len() - seed_events;
    if made < acked.len() || made > acked.len() + killed {
        return Err(format!(
            "{} events for {} acknowledged writes and {killed} killed writers:\n{answered:#?}\n{events:#?}",
            made,
            acked.len()
        ));
    }

    // The text each memory was created with, where known.
    let mut created: BTreeMap<u64, String> = BTreeMap::new();
    for (n, id) in seed_ids.iter().enumerate() {
        let tag = if (n as u64) < SEED_NOTES {
            format!("seed{}", n + 1)
        } else {
            format!("proposal{}", n as u64 - SEED_NOTES + 1)
        };
        created.insert(*id, format!("note {tag}"));
    }
    for ack in &acked {
        let id = |field: &str| ack.answer[field].as_u64();
        match ack.words[0].as_str() {
            "remember" => {
                let id = id("id").ok_or("remember answered no id")?;
                created.insert(id, format!("note {}", ack.words[2]));
            }
            "revise" if ack.answer["status"] == "pending" => {
                let proposal = id("proposal_id").ok_or("a proposal without its id")?;
                created.insert(proposal, format!("note {}", ack.words[3]));
            }
            _ => {}
        }
    }

    // Every acknowledged write is in the store.
    for ack in &acked {
        let op = ack.words.join(" ");
        let id = ack.answer["id"].as_u64().ok_or(format!("{op}: no id"))?;
        let present = match ack.words[0].as_str() {
            "remember" => rows.contains_key(&id),
            "revise" if ack.answer["status"] == "pending" => {
                let proposal = ack.answer["proposal_id"].as_u64().unwrap();
                rows.get(&proposal)
                    .is_some_and(|r| r.supersedes == Some(id))
            }
            "revise" => {
                let after = content_hash(&format!("note {}", ack.words[3]));
                events.iter().any(|e| {
                    e.memory == id && e.action == "revise" && e.after.as_deref() == Some(&after)
                })
            }
            "forget" => events
                .iter()
                .any(|e| e.memory == id && e.action == "forget"),
            "review" => {
                let action = if ack.words[2] == "accept" {
                    "accept"
                } else {
                    "reject"
                };
                events.iter().any(|e| e.memory == id && e.action == action)
            }
            other => return Err(format!("unexpected acknowledgement {other}")),
        };
        if !present {
            return Err(format!(
                "acknowledged write `{op}` ({}) is missing",
                ack.answer
            ));
        }
    }

    for (id, row) in &rows {
        let trail: Vec<&Event> = events.iter().filter(|e| e.memory == *id).collect();
        // The revisions of a memory form one chain from its first text to its stored text: a
        // revision based on a text that had already changed is a lost update.
        let mut hash = created.get(id).map(|text| content_hash(text));
        for event in trail.iter().filter(|e| e.action == "revise") {
            if let Some(expected) = &hash
                && event.before.as_ref() != Some(expected)
            {
                return Err(format!(
                    "memory {id}: a revision of {:?} was applied over {expected:?} (lost update): {trail:#?}",
                    event.before
                ));
            }
            hash = event.after.clone();
        }
        if let Some(expected) = &hash
            && &row.hash != expected
        {
            return Err(format!(
                "memory {id} holds {:?}, not the end of its trail: {trail:#?}",
                row.text
            ));
        }
        // Each memory ends at most once, and its status says how.
        let superseded_by: Vec<u64> = rows
            .iter()
            .filter(|(p, r)| {
                r.supersedes == Some(*id)
                    && events
                        .iter()
                        .any(|e| e.memory == **p && e.action == "accept")
            })
            .map(|(p, _)| *p)
            .collect();
        let forgets = trail.iter().filter(|e| e.action == "forget").count();
        let rejects = trail.iter().filter(|e| e.action == "reject").count();
        let accepts = trail.iter().filter(|e| e.action == "accept").count();
        if accepts + rejects > 1 {
            return Err(format!(
                "memory {id} was decided {} times: {trail:#?}",
                accepts + rejects
            ));
        }
        let endings = forgets + rejects + superseded_by.len();
        let expected_status = match (forgets, rejects, superseded_by.len()) {
            (0, 0, 0) => "active",
            (1, 0, 0) => "forgotten",
            (0, 1, 0) => "rejected",
            (0, 0, 1) => "superseded",
            _ => {
                return Err(format!(
                    "memory {id} ended {endings} times (forgotten {forgets}, rejected {rejects}, superseded by {superseded_by:?}): {trail:#?}"
                ));
            }
        };
        if row.status != expected_status {
            return Err(format!(
                "memory {id} is {} but its trail says {expected_status}: {trail:#?}",
                row.status
            ));
        }
        // Nothing changes a memory after it ended.
        if let Some(end) = trail
            .iter()
            .position(|e| matches!(e.action.as_str(), "forget" | "reject"))
            && trail.len() > end + 1
        {
            return Err(format!("memory {id} changed after it ended: {trail:#?}"));
        }
        if accepts == 1 && row.badge != "native" {
            return Err(format!("memory {id} was accepted but is {}", row.badge));
        }
    }

    // The store still opens and takes a write.
    let after = acks(&run_to_end(&data, subject, "remember agent after\n"));
    if after.len() != 1 {
        return Err("the store refused a write after the history".to_owned());
    }
    Ok(())
}

proptest! {
    // Failing cases are kept beside this file and replayed first.
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_acknowledged_write_survives_concurrent_writers_and_kills(
        writers in prop::collection::vec(writer(), 2..=4)
    ) {
        if let Err(broken) = check_history(&writers) {
            let scripts: Vec<Vec<String>> = writers
                .iter()
                .enumerate()
                .map(|(w, (ops, _))| ops.iter().enumerate().map(|(n, op)| line(w, n, op)).collect())
                .collect();
            prop_assert!(false, "{broken}\nscripts: {scripts:#?}");
        }
    }
}
