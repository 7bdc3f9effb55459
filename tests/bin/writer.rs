//! A writer process for the reliability tests. It prints a line after each write commits, so a
//! test can kill it at any point and check that every acknowledged write survived.
//!
//! Usage:
//! - `writer DATA_DIR SUBJECT LABEL COUNT`: remembers `COUNT` notes `writer LABEL note N`,
//!   printing `ack <id> <n>` after each.
//! - `writer script DATA_DIR SUBJECT`: runs the operations read from stdin, one a line, and
//!   prints `ack <line> => <answer JSON>` or `err <line> => <message>` for each:
//!   - `remember agent|external TAG`: remembers the text `note TAG`;
//!   - `revise agent|external ID TAG`: revises memory `ID` to the text `note TAG`;
//!   - `forget agent|external ID`;
//!   - `review ID|first accept|reject`: decides on memory `ID`, or on the oldest memory awaiting
//!     review, as the human reviewer `tester`.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use kenning::Service;
use kenning::service::governance::Decision;
use kenning::store::Author;
use kenning::subject::Subject;
use serde_json::{Value, json};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.as_slice() {
        [_, mode, data_dir, subject] if mode == "script" => script(data_dir, subject),
        [_, data_dir, subject, label, count] => notes(data_dir, subject, label, count),
        _ => {
            eprintln!(
                "usage: writer DATA_DIR SUBJECT LABEL COUNT | writer script DATA_DIR SUBJECT"
            );
            std::process::exit(2);
        }
    }
}

/// Where the compiled policy is cached, when the caller shares one cache between data
/// directories (the default is one per data directory): the variable `kenning` itself reads.
const CACHE_DIR_VAR: &str = "KENNING_CACHE_DIR";

fn service(data_dir: &str, subject: &str) -> (Service, Subject) {
    let subject = Subject::parse(subject).expect("subject");
    let data_dir = PathBuf::from(data_dir);
    let mut builder = kenning_e2e::on_this_backend(Service::builder(&data_dir), &data_dir);
    if let Some(cache) = std::env::var_os(CACHE_DIR_VAR) {
        builder = builder.cache_dir(PathBuf::from(cache));
    }
    let service = builder.build().expect("policy");
    (service, subject)
}

fn notes(data_dir: &str, subject: &str, label: &str, count: &str) {
    let count: u64 = count.parse().expect("COUNT is a number");
    let (service, subject) = service(data_dir, subject);
    let mut out = std::io::stdout().lock();
    for n in 0..count {
        let args = json!({ "text": format!("writer {label} note {n}") }).to_string();
        let answer = service
            .call(&subject, Author::Agent, "remember", &args)
            .expect("remember");
        writeln!(out, "ack {} {n}", answer["id"]).expect("stdout");
        out.flush().expect("stdout");
    }
}

fn script(data_dir: &str, subject: &str) {
    let (service, subject) = service(data_dir, subject);
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let outcome = run(&service, &subject, &line);
        match outcome {
            Ok(answer) => writeln!(out, "ack {line} => {answer}"),
            Err(message) => writeln!(out, "err {line} => {message}"),
        }
        .expect("stdout");
        out.flush().expect("stdout");
    }
}

fn author(name: &str) -> Author {
    match name {
        "agent" => Author::Agent,
        "external" => Author::External,
        other => panic!("unknown author {other}"),
    }
}

fn run(service: &Service, subject: &Subject, line: &str) -> Result<Value, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let result = match words.as_slice() {
        ["remember", who, tag] => service.call(
            subject,
            author(who),
            "remember",
            &json!({ "text": format!("note {tag}") }).to_string(),
        ),
        ["revise", who, id, tag] => service.call(
            subject,
            author(who),
            "revise_memory",
            &json!({ "id": id.parse::<u64>().unwrap(), "text": format!("note {tag}") }).to_string(),
        ),
        ["forget", who, id] => service.call(
            subject,
            author(who),
            "forget_memory",
            &json!({ "id": id.parse::<u64>().unwrap() }).to_string(),
        ),
        ["review", which, decision] => {
            let id = if *which == "first" {
                match service
                    .review_list(subject, Author::Human)
                    .map_err(|e| e.to_string())?
                    .first()
                {
                    Some(memory) => memory.id,
                    None => return Err("nothing awaits review".to_owned()),
                }
            } else {
                which.parse().unwrap()
            };
            let decision = if *decision == "accept" {
                Decision::Accept
            } else {
                Decision::Reject
            };
            service
                .review(subject, id, decision, "tester")
                .map(|done| serde_json::json!(done))
        }
        _ => panic!("unknown operation {line:?}"),
    };
    result.map_err(|e| e.to_string())
}
