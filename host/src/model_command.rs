//! A model command: any program that reads a prompt on standard input and writes the model's
//! reply on standard output (a local llama.cpp server through curl, an OpenAI-compatible
//! endpoint, a script). kenning runs it with `sh -c`, in a process group of its own so that a
//! timeout stops everything it started, and never trusts what it answers.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most bytes of the command's standard error kept for a message.
const STDERR_KEPT: u64 = 2_048;

/// A model command and its bounds.
#[derive(Debug, Clone)]
pub struct ModelCommand {
    /// The shell command line.
    pub command: String,
    /// How long it may take before it is killed.
    pub timeout: Duration,
    /// Most bytes its reply may hold; a longer reply is refused.
    pub max_reply_bytes: usize,
}

/// Why a model command gave no usable reply.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// It could not be started.
    #[error("could not be started: {0}")]
    Spawn(std::io::Error),
    /// It ran longer than its timeout and was killed.
    #[error("took longer than {} s and was stopped", .0.as_secs_f64())]
    TimedOut(Duration),
    /// It exited unsuccessfully.
    #[error("failed ({status}){}", if .stderr.is_empty() { String::new() } else { format!(": {}", .stderr) })]
    Failed {
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The first line of its standard error.
        stderr: String,
    },
    /// Its reply was longer than allowed.
    #[error("answered more than {0} bytes")]
    TooLarge(usize),
    /// Its reply was not UTF-8 text.
    #[error("answered bytes that are not UTF-8 text")]
    NotText,
}

impl ModelCommand {
    /// Runs the command with `prompt` on its standard input and returns its standard output.
    pub fn ask(&self, prompt: &str) -> Result<String, ModelError> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(ModelError::Spawn)?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let prompt = prompt.to_owned();
        // A command that does not read its input must not block us: write from a thread, and
        // a closed pipe is its business.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(prompt.as_bytes());
        });
        let limit = self.max_reply_bytes as u64;
        let stdout = child.stdout.take().expect("stdout is piped");
        let reader = std::thread::spawn(move || {
            let mut reply = Vec::new();
            let _ = stdout.take(limit + 1).read_to_end(&mut reply);
            reply
        });
        let stderr = child.stderr.take().expect("stderr is piped");
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.take(STDERR_KEPT).read_to_string(&mut text);
            text
        });
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() >= deadline => break None,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break None,
            }
        };
        let Some(status) = status else {
            stop(&mut child);
            return Err(ModelError::TimedOut(self.timeout));
        };
        // Something it started may still hold the pipes open: give it a moment, then stop the
        // whole group.
        let grace = Instant::now() + Duration::from_millis(100);
        while !(reader.is_finished() && errors.is_finished()) && Instant::now() < grace {
            std::thread::sleep(Duration::from_millis(5));
        }
        if !(reader.is_finished() && errors.is_finished()) {
            stop(&mut child);
        }
        let _ = writer.join();
        let reply = reader.join().unwrap_or_default();
        let stderr = errors.join().unwrap_or_default();
        if reply.len() > self.max_reply_bytes {
            return Err(ModelError::TooLarge(self.max_reply_bytes));
        }
        if !status.success() {
            return Err(ModelError::Failed {
                status,
                stderr: stderr.lines().next().unwrap_or_default().trim().to_owned(),
            });
        }
        String::from_utf8(reply).map_err(|_| ModelError::NotText)
    }
}

/// Kills the child's process group (the child and whatever it started) and reaps the child.
fn stop(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(command: &str) -> ModelCommand {
        ModelCommand {
            command: command.to_owned(),
            timeout: Duration::from_secs(5),
            max_reply_bytes: 1_000,
        }
    }

    #[test]
    fn the_reply_is_what_the_command_writes_after_reading_the_prompt() {
        assert_eq!(model("tr a-z A-Z").ask("hello").unwrap(), "HELLO");
        assert_eq!(
            model("echo ignored the prompt").ask("x").unwrap(),
            "ignored the prompt\n"
        );
    }

    /// Whether process `pid` has ended: gone, or a zombie no one has reaped yet (where the
    /// test runs as a container's first process, orphans are not reaped).
    fn ended(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => true,
            Err(error) => panic!("read /proc/{pid}/stat: {error}"),
            // The state follows the command's name in parentheses.
            Ok(stat) => stat.rsplit_once(") ").unwrap().1.starts_with(['Z', 'X']),
        }
    }

    /// Runs `command` (which writes the id of a process it started in the background to
    /// `$PIDFILE`) and returns what `ask` answered and that process's id.
    fn ask_starting_one(command: &str, timeout: Duration) -> (Result<String, ModelError>, String) {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut model = model(&format!("PIDFILE='{}'; {command}", pidfile.display()));
        model.timeout = timeout;
        let answer = model.ask("");
        let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_owned();
        assert!(!pid.is_empty());
        (answer, pid)
    }

    /// Waits up to ten seconds for `pid` to end (a kill is delivered at once, but the
    /// process table may lag on a loaded machine), returning whether it did.
    fn ends(pid: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !ended(pid) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    #[test]
    fn a_command_that_outlasts_its_timeout_is_killed_with_everything_it_started() {
        let (answer, pid) = ask_starting_one(
            "sleep 300 & echo $! > \"$PIDFILE\"; sleep 300",
            Duration::from_secs(2),
        );
        assert!(matches!(answer, Err(ModelError::TimedOut(_))), "{answer:?}");
        assert!(
            ends(&pid),
            "the command's background process {pid} still runs"
        );
    }

    #[test]
    fn a_slow_a_failing_an_oversized_or_a_binary_reply_is_an_error() {
        let mut slow = model("sleep 30");
        slow.timeout = Duration::from_millis(200);
        let started = Instant::now();
        assert!(matches!(slow.ask(""), Err(ModelError::TimedOut(_))));
        assert!(started.elapsed() < Duration::from_secs(10));
        let failed = model("echo broken >&2; exit 3").ask("").unwrap_err();
        assert_eq!(failed.to_string(), "failed (exit status: 3): broken");
        assert!(matches!(
            model("yes").ask(""),
            Err(ModelError::TooLarge(1_000))
        ));
        assert!(matches!(
            model("printf '\\377'").ask(""),
            Err(ModelError::NotText)
        ));
    }
}
