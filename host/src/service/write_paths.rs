//! The reverse-engineering seed's other write paths: batches of memories an agent runtime hands
//! over at one moment, each with its own rule.
//!
//! - **Harvest** ([`Service::harvest`]): proposals the agent staged during a conversation,
//!   committed when the conversation is compacted, only if `harvest_during_compaction` is on
//!   for its thread; written by the agent.
//! - **Triage** ([`Service::triage`]): findings of an automatic triage pass, each grounded
//!   (anchored to at least one place), written directly by the `triage` author when the subject
//!   allows writes.
//! - **Function review** ([`Service::review_functions`]): one note for each function of a
//!   reviewed list, anchored to that function and filed under [`FUNCTION_REVIEW_CATEGORY`];
//!   written by the agent.
//!
//! A batch is checked whole first: every line must be a JSON object that the path's rule and
//! the policy's `remember` schema accept, else nothing is written and the error names the
//! line. Then each memory is written as its own `remember` call: scanned (a secret redacted; a
//! blocked text refused and reported while the others are still written), deduplicated,
//! through the write gate and provenance, one transaction with its audit event each. A last
//! audit event records the batch: its path, its counts and the ids written.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Service, in_thread};
use crate::api::{Address, FunctionArg};
use crate::error::{KenningError, Result};
use crate::settings::check_thread;
use crate::store::Author;
use crate::subject::Subject;

/// The category every function review note is filed under.
pub const FUNCTION_REVIEW_CATEGORY: &str = "function-review";

/// Most lines one batch may hold.
pub const MAX_BATCH_LINES: usize = 10_000;

/// A write path: who writes, and what its batch's audit event is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WritePath {
    /// Staged proposals committed at compaction.
    Harvest,
    /// Grounded findings of a triage pass.
    Triage,
    /// Notes on a list of reviewed functions.
    FunctionReview,
}

impl WritePath {
    fn author(self) -> Author {
        match self {
            WritePath::Harvest | WritePath::FunctionReview => Author::Agent,
            WritePath::Triage => Author::Triage,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            WritePath::Harvest => "harvest",
            WritePath::Triage => "triage",
            WritePath::FunctionReview => "function_review",
        }
    }
}

/// One line of a function review: a function of the list and the note about it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FunctionNote {
    function: FunctionArg,
    note: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    image_base: Option<Address>,
}

/// One line of a batch and what became of it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BatchItem {
    /// Its line in the batch, from 1.
    pub line: usize,
    /// `written`, `pending` (written, awaiting review), `duplicate`, or `refused` (by the scan
    /// or the checks of a write).
    pub outcome: &'static str,
    /// The memory's id, when written (or the existing one's for a duplicate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// Why it was refused, or the kinds of secrets redacted from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What a batch did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BatchReport {
    /// The subject.
    pub subject: String,
    /// The write path.
    pub path: WritePath,
    /// Every line, in order.
    pub items: Vec<BatchItem>,
}

impl BatchReport {
    /// How many lines had `outcome`.
    pub fn count(&self, outcome: &str) -> usize {
        self.items.iter().filter(|i| i.outcome == outcome).count()
    }
}

impl Service {
    /// Commits the proposals staged during a conversation of `thread` (`remember` arguments,
    /// one JSON object a line) now that it is compacted, as the agent, when the thread's
    /// `harvest_during_compaction` setting is on; see the module docs.
    pub fn harvest(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        proposals: &str,
    ) -> Result<BatchReport> {
        if let Some(thread) = thread {
            check_thread(thread)?;
        }
        let kb = self.open_for_write(subject, thread, true)?;
        if !kb.settings(thread)?.harvest_during_compaction {
            return Err(KenningError::Forbidden(format!(
                "harvesting during compaction is off for {subject}{} (setting harvest_during_compaction)",
                in_thread(thread)
            )));
        }
        drop(kb);
        let calls = read_lines(proposals, |mut args| {
            match (args.get("thread"), thread) {
                (None, Some(thread)) => {
                    args.insert("thread".into(), thread.into());
                }
                (Some(Value::String(own)), Some(thread)) if own != thread => {
                    return Err(format!(
                        "thread {own:?} is not the thread harvested ({thread:?})"
                    ));
                }
                _ => {}
            }
            Ok(args)
        })?;
        self.write_batch(subject, WritePath::Harvest, calls)
    }

    /// Writes the grounded findings of a triage pass (`remember` arguments with at least one
    /// anchor, one JSON object a line) as the `triage` author; see the module docs.
    pub fn triage(&self, subject: &Subject, findings: &str) -> Result<BatchReport> {
        let calls = read_lines(findings, |args| {
            match args.get("anchors") {
                Some(Value::Array(anchors)) if !anchors.is_empty() => Ok(args),
                _ => Err(
                    "a triage finding is grounded: it needs at least one anchor (a function, address, range or string)"
                        .to_owned(),
                ),
            }
        })?;
        self.open_for_write(subject, None, true)?;
        self.write_batch(subject, WritePath::Triage, calls)
    }

    /// Writes one note for each function of a reviewed list (`{"function": {"name", "start",
    /// "end"}, "note", "tags"?, "image_base"?}`, one a line), each anchored to its function, as
    /// the agent; see the module docs.
    pub fn review_functions(&self, subject: &Subject, notes: &str) -> Result<BatchReport> {
        let calls = read_lines(notes, |line| {
            let note: FunctionNote =
                serde_json::from_value(Value::Object(line)).map_err(|e| e.to_string())?;
            let FunctionArg { name, start, end } = note.function;
            let mut args = serde_json::json!({
                "text": note.note,
                "scope": "local",
                "anchors": [{"kind": "function", "name": name, "start": start, "end": end}],
                "categories": [FUNCTION_REVIEW_CATEGORY],
                "tags": note.tags,
            });
            if let Some(base) = note.image_base {
                args["image_base"] = serde_json::to_value(base).expect("addresses serialise");
            }
            match args {
                Value::Object(args) => Ok(args),
                _ => unreachable!("built as an object"),
            }
        })?;
        self.write_batch(subject, WritePath::FunctionReview, calls)
    }

    /// Checks every call against the policy's `remember` schema (nothing is written unless all
    /// pass), then writes each one and records the batch.
    fn write_batch(
        &self,
        subject: &Subject,
        path: WritePath,
        calls: Vec<(usize, String)>,
    ) -> Result<BatchReport> {
        for (line, call) in &calls {
            if let Err(errors) = self.policy.validate("remember", call)? {
                let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
                return Err(KenningError::Usage(format!(
                    "line {line}: {}",
                    problems.join("; ")
                )));
            }
        }
        let mut report = BatchReport {
            subject: subject.to_string(),
            path,
            items: Vec::with_capacity(calls.len()),
        };
        for (line, call) in calls {
            let written = self.remember_one(subject, path.author(), &call)?;
            report.items.push(BatchItem {
                line,
                outcome: written.outcome,
                id: written.id,
                detail: written.detail,
            });
        }
        self.record_batch(subject, &report)?;
        Ok(report)
    }

    /// The batch's own audit event: its path, its counts and the ids it wrote.
    fn record_batch(&self, subject: &Subject, report: &BatchReport) -> Result<()> {
        let written: Vec<u64> = report
            .items
            .iter()
            .filter(|i| matches!(i.outcome, "written" | "pending"))
            .filter_map(|i| i.id)
            .collect();
        let detail = serde_json::json!({
            "lines": report.items.len(),
            "written": report.count("written"),
            "pending": report.count("pending"),
            "duplicates": report.count("duplicate"),
            "refused": report.count("refused"),
            "ids": written,
        })
        .to_string();
        let now = self.now();
        let actor = report.path.author().as_str();
        let mut kb = self.open_or_create(subject)?;
        kb.write(|tx| tx.record_job_run(now, actor, report.path.as_str(), None, &detail))
    }
}

/// The batch's lines (blank ones skipped) as `remember` arguments made by `shape` from each
/// JSON object, with their line numbers; the first bad line fails the batch, naming it.
fn read_lines(
    text: &str,
    shape: impl Fn(Map<String, Value>) -> std::result::Result<Map<String, Value>, String>,
) -> Result<Vec<(usize, String)>> {
    let mut calls = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        if calls.len() == MAX_BATCH_LINES {
            return Err(KenningError::Usage(format!(
                "line {number}: a batch holds at most {MAX_BATCH_LINES} lines"
            )));
        }
        let bad = |problem: String| KenningError::Usage(format!("line {number}: {problem}"));
        let object = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(object)) => object,
            Ok(_) => return Err(bad("expected a JSON object".to_owned())),
            Err(e) => return Err(bad(format!("not JSON ({e})"))),
        };
        let args = shape(object).map_err(bad)?;
        calls.push((number, Value::Object(args).to_string()));
    }
    if calls.is_empty() {
        return Err(KenningError::Usage(
            "the batch is empty: expected one JSON object a line".to_owned(),
        ));
    }
    Ok(calls)
}
