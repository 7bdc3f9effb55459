//! The documentation as a reader follows it: every shell block of `README.md` and `docs/*.md`
//! marked runnable runs against the built program, and what the text says it prints is checked.
//!
//! The convention (`docs/development.md` describes it for writers):
//! - A fenced block whose info string is `sh run` is runnable; a plain `sh` block is shown only.
//! - The runnable blocks of one file run in order, in one fresh scratch directory, with
//!   `KENNING_HOME` and `HOME` fresh and empty and the built `kenning` first on `PATH`; each
//!   under `bash -euo pipefail`, within [`BLOCK_DEADLINE`]. Whatever a block leaves running is
//!   stopped when it ends.
//! - A `text output` block right after a runnable one says what it prints: each of its
//!   non-empty lines must be found, in order, in a line of the block's standard output and
//!   error; `...` in a line stands for anything.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;

/// Longest a runnable block may take.
const BLOCK_DEADLINE: Duration = Duration::from_secs(60);

/// A runnable block: where it is, its script and what the text says it prints.
#[derive(Debug, PartialEq)]
struct Block {
    /// The line of its opening fence (1-based).
    line: usize,
    script: String,
    /// The lines of the `text output` block after it, if there is one.
    prints: Option<Vec<String>>,
}

/// The runnable blocks of a Markdown text, in order.
fn runnable_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut lines = markdown.lines().enumerate();
    // Whether the last fenced block was runnable and nothing but blank lines followed it.
    let mut after_runnable = false;
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            if !line.trim().is_empty() {
                after_runnable = false;
            }
            continue;
        };
        let indent = line.len() - trimmed.len();
        let mut body = Vec::new();
        for (_, inner) in lines.by_ref() {
            if inner.trim() == "```" {
                break;
            }
            body.push(inner.get(indent..).unwrap_or(inner.trim_start()).to_owned());
        }
        match info.trim() {
            "sh run" => {
                blocks.push(Block {
                    line: index + 1,
                    script: body.join("\n") + "\n",
                    prints: None,
                });
                after_runnable = true;
            }
            "text output" if after_runnable => {
                if let Some(last) = blocks.last_mut() {
                    last.prints = Some(body);
                }
                after_runnable = false;
            }
            _ => after_runnable = false,
        }
    }
    blocks
}

/// Whether `line` holds `pattern`, where `...` in the pattern stands for anything.
fn line_matches(line: &str, pattern: &str) -> bool {
    let mut rest = line;
    for part in pattern.trim().split("...") {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The first line the text says a block prints that its output does not hold, in order.
fn first_missing<'a>(output: &str, prints: &'a [String]) -> Option<&'a str> {
    let mut lines = output.lines();
    prints
        .iter()
        .filter(|pattern| !pattern.trim().is_empty())
        .find(|pattern| !lines.any(|line| line_matches(line, pattern)))
        .map(String::as_str)
}

/// Runs `script` in `dir` as a reader would, and returns its exit status and output, or why it
/// did not finish.
fn run_block(
    script: &str,
    dir: &Path,
    home: &Path,
    data: &Path,
    deadline: Duration,
) -> Result<(bool, String), String> {
    let program_dir = Path::new(env!("CARGO_BIN_EXE_kenning")).parent().unwrap();
    let path = format!(
        "{}:{}",
        program_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let log = dir.join("../block-output.txt");
    let out = File::create(&log).unwrap();
    let mut child = Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", home)
        .env("KENNING_HOME", data)
        .env("KENNING_CACHE_DIR", support::shared_cache_dir())
        .env_remove("KENNING_KEY")
        .env_remove("KENNING_KEY_FILE")
        .env_remove("KENNING_STORE")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("bash: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // The block's process group: whatever it left running in the background goes with it.
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.wait();
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    match status {
        Some(status) => Ok((status.success(), output)),
        None => Err(format!(
            "did not finish within {deadline:?}; it printed:\n{output}"
        )),
    }
}

/// The Markdown files whose blocks run: the README and every page of `docs/`.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = vec![root.join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// Runs the runnable blocks of `file` in order, and describes each that failed.
fn run_document(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let (dir, home, data) = (
        scratch.path().join("work"),
        scratch.path().join("home"),
        scratch.path().join("data"),
    );
    for made in [&dir, &home, &data] {
        std::fs::create_dir_all(made).unwrap();
    }
    let mut failures = Vec::new();
    for block in runnable_blocks(&text) {
        let at = format!("{}:{}", file.display(), block.line);
        match run_block(&block.script, &dir, &home, &data, BLOCK_DEADLINE) {
            Err(why) => failures.push(format!("{at}: {why}")),
            Ok((false, output)) => failures.push(format!("{at}: failed; it printed:\n{output}")),
            Ok((true, output)) => {
                if let Some(missing) = block
                    .prints
                    .as_deref()
                    .and_then(|prints| first_missing(&output, prints))
                {
                    failures.push(format!(
                        "{at}: the text says it prints {missing:?}; it printed:\n{output}"
                    ));
                }
            }
        }
    }
    failures
}

#[test]
fn every_runnable_block_of_the_readme_and_the_docs_runs_and_prints_what_the_text_says() {
    if support::postgres::sqlite_only("the documentation's blocks use the default stores") {
        return;
    }
    let files = documents();
    let readme = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        runnable_blocks(&readme).len() >= 3,
        "the README's first steps are runnable blocks"
    );
    // Each file in its own scratch directory, side by side.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .iter()
            .map(|file| scope.spawn(|| run_document(file)))
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_runnable_block_and_what_it_prints_are_read_from_the_markdown() {
    let markdown = "Intro.\n\n```sh run\nkenning --version\n```\n\n```text output\nkenning ...\n```\n\n\
                    ```sh\ncargo install kenning\n```\n\n```text output\nnot after a runnable block\n```\n\n\
                    - a list:\n\n  ```sh run\n  echo indented\n  ```\n\nText between.\n\n```text output\nnot right after it\n```\n";
    assert_eq!(
        runnable_blocks(markdown),
        [
            Block {
                line: 3,
                script: "kenning --version\n".into(),
                prints: Some(vec!["kenning ...".into()]),
            },
            Block {
                line: 21,
                script: "echo indented\n".into(),
                prints: None,
            },
        ]
    );
}

#[test]
fn output_is_checked_line_by_line_in_order_with_dots_for_anything() {
    let output = "remembered memory 7 (accepted)\nrecall: 1 match\n  7  Prefers short answers\n";
    let prints = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert_eq!(
        first_missing(
            output,
            &prints(&[
                "remembered memory ... (accepted)",
                "",
                "...Prefers short..."
            ])
        ),
        None
    );
    // Out of order, or a word the output does not hold, is caught.
    assert_eq!(
        first_missing(output, &prints(&["recall: 1 match", "remembered memory 7"])),
        Some("remembered memory 7")
    );
    assert_eq!(
        first_missing(output, &prints(&["remembered memory ... (pending)"])),
        Some("remembered memory ... (pending)")
    );
}

#[test]
fn a_block_that_fails_or_never_ends_is_reported_with_what_it_printed() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("work");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |script: &str, deadline: u64| {
        run_block(script, &dir, &dir, &dir, Duration::from_secs(deadline))
    };
    let (succeeded, output) = run("echo before\nfalse\necho after\n", 30).unwrap();
    assert!(!succeeded && output == "before\n", "{output:?}");
    let error = run("echo waiting\nsleep 30\n", 1).unwrap_err();
    assert!(
        error.contains("did not finish") && error.ends_with("waiting\n"),
        "{error}"
    );
    let (succeeded, output) = run("kenning --version\n", 30).unwrap();
    assert!(succeeded && output.starts_with("kenning "), "{output:?}");
}
