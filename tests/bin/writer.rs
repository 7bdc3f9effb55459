//! A writer process for the reliability tests: remembers `COUNT` notes through the real
//! component and prints `ack <id> <n>` after each write commits, so a test can kill it at any
//! point and check that every acknowledged write survived.
//!
//! Usage: `writer DATA_DIR SUBJECT LABEL COUNT`

use std::io::Write;
use std::path::PathBuf;

use kenning::Service;
use kenning::store::Author;
use kenning::subject::Subject;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, data_dir, subject, label, count] = args.as_slice() else {
        eprintln!("usage: writer DATA_DIR SUBJECT LABEL COUNT");
        std::process::exit(2);
    };
    let data_dir = PathBuf::from(data_dir);
    let count: u64 = count.parse().expect("COUNT is a number");
    let subject = Subject::parse(subject).expect("subject");
    let service = Service::builder(&data_dir).build().expect("policy");
    let mut out = std::io::stdout().lock();
    for n in 0..count {
        let args = serde_json::json!({ "text": format!("writer {label} note {n}") }).to_string();
        let answer = service
            .call(&subject, Author::Agent, "remember", &args)
            .expect("remember");
        writeln!(out, "ack {} {n}", answer["id"]).expect("stdout");
        out.flush().expect("stdout");
    }
}
