//! Shared by the end-to-end tests that talk to a spawned `kenning serve`.

// Each test crate compiles this module and uses its own part of it.
#![allow(dead_code)]

pub mod postgres;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;

/// One compiled-policy cache for every spawned `kenning` of the tests (`--cache-dir`), so that
/// only the first to start compiles the policy.
pub fn shared_cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("policy-cache")
}

/// `kenning --data-dir DATA --cache-dir SHARED`, with no key from the caller's environment
/// (`KENNING_KEY`, `KENNING_KEY_FILE`), so that the environment never decides a test; on a
/// PostgreSQL run `KENNING_STORE` names the database standing for DATA
/// ([`postgres::store_for`]).
pub fn kenning_at(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kenning"));
    command
        .env_remove("KENNING_KEY")
        .env_remove("KENNING_KEY_FILE")
        .env_remove("KENNING_STORE")
        .env_remove("KENNING_QUERY_STORE")
        .arg("--data-dir")
        .arg(data)
        .arg("--cache-dir")
        .arg(shared_cache_dir());
    if let Some(store) = postgres::store_for(data) {
        // The environment, so that a test's own `--store` still decides.
        command.env("KENNING_QUERY_STORE", postgres::query_login_for(&store));
        command.env("KENNING_STORE", store);
    }
    command
}

/// A library service over `data` on the backend the test run names (with its query login on
/// PostgreSQL), its clock fixed at `now` when given.
pub fn library(data: &Path, now: Option<i64>) -> kenning::Service {
    let mut builder = kenning::Service::builder(data).cache_dir(shared_cache_dir());
    if let Some(now) = now {
        builder = builder.fixed_now(now);
    }
    if let Some(url) = postgres::store_for(data) {
        builder = builder
            .query_login(postgres::query_login_for(&url))
            .postgres(url);
    }
    builder.build().unwrap()
}

/// Spawns `command` with its output discarded, kills it after `delay`, and says whether it was
/// still running then: a kill in the middle of its work rather than after it.
pub fn kill_after(command: &mut Command, delay: std::time::Duration) -> bool {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the command to kill");
    std::thread::sleep(delay);
    let running = child.try_wait().expect("poll the child").is_none();
    let _ = child.kill();
    let _ = child.wait();
    running
}

/// Runs `kenning --data-dir DATA ARGS...` (see [`kenning_at`]) with `stdin` on its standard
/// input (none: empty) and returns what it did.
pub fn kenning(data: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = kenning_at(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kenning");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    pipe.write_all(stdin.unwrap_or("").as_bytes())
        .expect("write kenning's standard input");
    drop(pipe);
    child.wait_with_output().expect("wait for kenning")
}

/// A running `kenning serve --port 0`, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, as the server printed it.
    pub base: String,
    /// `http://ADDR/metrics`, when it was started with `--metrics-bind`.
    pub metrics: Option<String>,
    /// What it logs, read as it comes (a full pipe would stall the server).
    log: Option<JoinHandle<String>>,
}

impl Server {
    /// Starts `kenning --data-dir DATA serve --port 0` with `env` set (and `KENNING_KEY`
    /// removed, so the caller's environment never decides a test) and waits for the address it
    /// prints.
    pub fn start(data: &Path, env: &[(&str, &str)]) -> Server {
        Server::start_with(data, env, &[])
    }

    /// [`Server::start`] with `args` after `serve --port 0`.
    pub fn start_with(data: &Path, env: &[(&str, &str)], args: &[&str]) -> Server {
        let mut child = kenning_at(data)
            .envs(env.iter().copied())
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn kenning serve");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        stdout
            .read_line(&mut line)
            .expect("read the server's first line");
        let metrics = args.contains(&"--metrics-bind").then(|| {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("read the metrics line");
            line.split_whitespace()
                .find(|w| w.starts_with("http://"))
                .unwrap_or_else(|| panic!("no metrics address in {line:?}"))
                .to_owned()
        });
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches("/v1/")
            .to_owned();
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let log = std::thread::spawn(move || {
            // Bytes, so that a line that is not UTF-8 is shown rather than losing the rest.
            let mut log = Vec::new();
            stderr.read_to_end(&mut log).expect("read the server's log");
            String::from_utf8_lossy(&log).into_owned()
        });
        Server {
            child,
            base,
            metrics,
            log: Some(log),
        }
    }

    /// `base` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends SIGTERM, waits for the exit, and returns whether it was clean and what the
    /// server logged.
    pub fn terminate(mut self) -> (bool, String) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let status = self.child.wait().unwrap();
        (status.success(), self.take_log())
    }

    /// Sends SIGTERM and returns at once (see [`Server::wait`]).
    pub fn signal_term(&self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
    }

    /// Waits for the server to exit, and returns whether it was clean and what it logged.
    pub fn wait(mut self) -> (bool, String) {
        let status = self.child.wait().unwrap();
        (status.success(), self.take_log())
    }

    /// Kills the server and returns what it logged.
    pub fn kill(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.take_log()
    }

    fn take_log(&mut self) -> String {
        let log = self.log.take().expect("the log is taken once");
        log.join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Configures `data`'s `kenning.toml` to review every second turn with a scripted model that
/// waits two seconds, touches the returned file, then answers one `memory` call adding "Works
/// nights" to USER.md. Its scripts live in `scratch`. For tests that a turn's answer does not
/// wait for its review.
pub fn slow_reviewer_every_second_turn(data: &Path, scratch: &Path) -> PathBuf {
    let reply = scratch.join("reply.json");
    std::fs::write(
        &reply,
        r#"{"calls": [{"tool": "memory", "arguments": {"action": "add", "target": "user", "content": "Works nights"}}]}"#,
    )
    .expect("write the model's reply");
    let finished = scratch.join("finished");
    let model = format!(
        "cat > /dev/null; sleep 2; touch '{}'; cat '{}'",
        finished.display(),
        reply.display()
    );
    std::fs::create_dir_all(data).expect("make the data directory");
    std::fs::write(
        data.join("kenning.toml"),
        format!("[review]\nevery_turns = 2\nmodel_cmd = {model:?}\n"),
    )
    .expect("write kenning.toml");
    finished
}
