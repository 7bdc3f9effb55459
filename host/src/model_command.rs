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
        // The pipes are read on threads that hand over what they read when the pipe closes;
        // a process that left its own group can hold a pipe open for ever, so what they read
        // is waited for no later than the deadline, and a reader still blocked then is left
        // behind (it ends when that process does).
        let stdout = child.stdout.take().expect("stdout is piped");
        let (reply_sent, reply_read) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reply = Vec::new();
            let _ = stdout.take(limit + 1).read_to_end(&mut reply);
            let _ = reply_sent.send(reply);
        });
        let stderr = child.stderr.take().expect("stderr is piped");
        let (errors_sent, errors_read) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.take(STDERR_KEPT).read_to_string(&mut text);
            let _ = errors_sent.send(text);
        });
        // A timeout too long to add to now (a configured 2^63 seconds) is no deadline.
        let deadline = Instant::now().checked_add(self.timeout);
        let past = |deadline: Option<Instant>| deadline.is_some_and(|d| Instant::now() >= d);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if past(deadline) => break None,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break None,
            }
        };
        let Some(status) = status else {
            stop(&mut child);
            return Err(ModelError::TimedOut(self.timeout));
        };
        // Something it started may still hold the pipes open: give it a moment, then stop the
        // whole group, then wait for the pipes until the deadline.
        let grace = Duration::from_millis(100);
        let mut reply = reply_read.recv_timeout(grace).ok();
        if reply.is_none() {
            stop(&mut child);
        }
        if reply.is_none() {
            reply = until(&reply_read, deadline);
        }
        let Some(reply) = reply else {
            return Err(ModelError::TimedOut(self.timeout));
        };
        let stderr: String = errors_read
            .recv_timeout(grace)
            .ok()
            .or_else(|| until(&errors_read, deadline))
            .unwrap_or_default();
        let _ = writer.join();
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

/// What `read` receives before `deadline` (with no deadline, whenever it comes).
fn until<T>(read: &std::sync::mpsc::Receiver<T>, deadline: Option<Instant>) -> Option<T> {
    match deadline {
        Some(deadline) => read
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok(),
        None => read.recv().ok(),
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
    fn a_timeout_too_long_to_add_to_now_is_no_deadline_and_no_panic() {
        let mut patient = model("echo done");
        patient.timeout = Duration::from_secs(u64::MAX);
        assert_eq!(patient.ask("").unwrap(), "done\n");
    }

    #[test]
    fn a_process_that_leaves_the_group_holding_the_reply_open_meets_the_timeout() {
        let mut detached = model("setsid sleep 30 & echo partial");
        detached.timeout = Duration::from_millis(500);
        let started = Instant::now();
        assert!(matches!(detached.ask(""), Err(ModelError::TimedOut(_))));
        assert!(started.elapsed() < Duration::from_secs(20));
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
