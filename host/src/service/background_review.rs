//! The background review (the personal assistant's): successful user turns are counted, and
//! every [`crate::config::ReviewConfig::every_turns`] turns of a session a model reviews the profile with
//! only the `memory` tool available.
//!
//! - [`Service::record_turn`] counts a turn (per session, and in all) in one transaction, and
//!   says whether a review is due. It never runs the review itself: the caller starts
//!   [`Service::background_review`] off the turn's path ([`Service::record_turn_and_review`]
//!   on a thread for the servers, the CLI in a detached process), so a slow or failing model
//!   never blocks the turn that triggered it.
//! - [`Service::background_review`] records `memory_review_started`, asks the model command
//!   ([`PROMPT_TEMPLATE`], with the profile's files and the recent conversation if given;
//!   not where the settings disable writes in the session's thread: the review fails first),
//!   checks the whole answer (only `memory` calls, each passing the policy's schema) before
//!   applying any call, applies them one by one as `memory` calls with the authority of whoever
//!   started the review ([`crate::provenance::job_author`]: the agent's for a human or the
//!   agent, an external client's own, so that its review only proposes), scanned, through the
//!   write gate (a call that fails, such as a `replace` matching nothing, is reported and the
//!   rest still apply), and records `memory_review_completed` with what it did, or
//!   `memory_review_failed` with why.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use std::sync::Arc;

use super::Service;
use super::extract::strip_code_fence;
use crate::api::TurnRecord;
use crate::api::{TurnArgs, TurnCounted};
use crate::error::{KenningError, Result};
use crate::model_command::ModelCommand;
use crate::provenance;
use crate::settings::check_thread;
use crate::store::{Author, Reads};
use crate::subject::Subject;
use kenning_contract::types::FieldError;

/// The prompt the model command reads; `{{profile}}` and `{{conversation}}` stand for the
/// profile's files and the recent conversation.
pub const PROMPT_TEMPLATE: &str = include_str!("../../prompts/review.md");

/// Most `memory` calls one review may make.
pub const MAX_REVIEW_CALLS: usize = 32;

/// Most bytes of a review's answer.
const MAX_REPLY_BYTES: usize = 256 * 1024;

/// Who a review's audit events name.
const ACTOR: &str = "review";

/// The `meta` key counting every user turn of the subject.
const TOTAL_TURNS_KEY: &str = "turns.total";

/// One `memory` call of a review and what became of it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReviewCall {
    /// The call's arguments, as the model gave them.
    pub arguments: Value,
    /// `applied`, or `refused` with why.
    pub outcome: &'static str,
    /// The tool's answer, or why it was refused.
    pub detail: Value,
}

/// What a review did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReviewOutcome {
    /// The subject.
    pub subject: String,
    /// The session reviewed.
    pub session: String,
    /// Every call, in order.
    pub calls: Vec<ReviewCall>,
}

/// The longest transcript a turn brings for its review (UTF-8 bytes): a tool call's limit.
pub const MAX_TRANSCRIPT_BYTES: usize = kenning_contract::MAX_ARGS_BYTES;

impl Service {
    /// Counts a successful user turn of `session` (see the module docs).
    pub fn record_turn(&self, subject: &Subject, session: &str) -> Result<TurnRecord> {
        check_thread(session).map_err(|e| match e {
            KenningError::Usage(message) => KenningError::Invalid {
                tool: "turn".into(),
                errors: vec![FieldError::new("session", message)],
            },
            other => other,
        })?;
        // The session's name is stored (a meta key, the review's events): scanned as every
        // stored string is.
        self.check_fields(
            "turn",
            Author::Agent,
            &[("session".to_owned(), session.to_owned())],
        )?;
        let mut kb = self.open_or_create(subject)?;
        let session_key = format!("turns.session.{session}");
        let (session_turns, total_turns) = kb.write(|tx| {
            let bump = |key: &str| -> Result<u64> {
                let next = counted(tx, key)? + 1;
                tx.set_meta_value(key, &next.to_string())?;
                Ok(next)
            };
            Ok((bump(&session_key)?, bump(TOTAL_TURNS_KEY)?))
        })?;
        let review = &self.config.review;
        Ok(TurnRecord {
            session: session.to_owned(),
            session_turns,
            total_turns,
            review_due: review.model_cmd.is_some()
                && session_turns % u64::from(review.every_turns) == 0,
        })
    }

    /// Counts a successful user turn (as [`Service::record_turn`]) and, when a review is due,
    /// starts it on a thread of its own: the answer does not wait for the model. For servers
    /// that outlive the turn (MCP, HTTP); the CLI starts the review in a detached process.
    ///
    /// The review acts with `caller`'s authority ([`provenance::job_author`]): what it writes
    /// for an external client awaits review, as that client's own writes do.
    pub fn record_turn_and_review(
        self: &Arc<Self>,
        subject: &Subject,
        caller: Author,
        turn: TurnArgs,
    ) -> Result<TurnCounted> {
        if let Some(transcript) = &turn.transcript
            && transcript.len() > MAX_TRANSCRIPT_BYTES
        {
            return Err(KenningError::Invalid {
                tool: "turn".into(),
                errors: vec![FieldError::new(
                    "transcript",
                    format!(
                        "{} bytes; the limit is {MAX_TRANSCRIPT_BYTES} (send the recent turns only)",
                        transcript.len()
                    ),
                )],
            });
        }
        let record = self.record_turn(subject, &turn.session)?;
        let review_started = record.review_due && {
            let service = Arc::clone(self);
            let subject = subject.clone();
            // A thread, not a runtime's blocking pool: shutdown does not wait for a model to
            // answer, and a review cut short leaves only its committed transactions.
            std::thread::Builder::new()
                .name("memory-review".into())
                .spawn(move || {
                    let transcript = turn.transcript.as_deref();
                    if let Err(error) =
                        service.background_review(&subject, caller, &turn.session, transcript)
                    {
                        tracing::warn!(error = %error, "memory review failed");
                    }
                })
                .is_ok()
        };
        Ok(TurnCounted {
            record,
            review_started,
        })
    }

    /// The user turns counted for the subject so far (0 for a subject never counted).
    pub fn total_turns(&self, subject: &Subject) -> Result<u64> {
        let kb = self.open_existing(subject)?;
        kb.read(total_turns)
    }

    /// Runs a review of the profile now (see the module docs), with `conversation` (the
    /// recent turns) if given, on behalf of `caller`: the review's writes are made as
    /// [`provenance::job_author`] of the caller, so a review an external client started only
    /// proposes (PENDING) what the model answers. Runs on the caller's thread: start it off
    /// the turn's path.
    pub fn background_review(
        &self,
        subject: &Subject,
        caller: Author,
        session: &str,
        conversation: Option<&str>,
    ) -> Result<ReviewOutcome> {
        self.check_fields(
            "memory review",
            caller,
            &[("session".to_owned(), session.to_owned())],
        )?;
        let Some(command) = self.config.review.model_cmd.clone() else {
            return Err(KenningError::Usage(
                "no review model: set model_cmd in the [review] table of kenning.toml".to_owned(),
            ));
        };
        let detail = serde_json::json!({"session": session}).to_string();
        self.review_event(subject, "memory_review_started", &detail)?;
        let model = ModelCommand {
            command,
            timeout: std::time::Duration::from_secs(self.config.review.timeout_secs),
            max_reply_bytes: MAX_REPLY_BYTES,
        };
        match self.review_with(subject, caller, session, conversation, &model) {
            Ok(outcome) => {
                let applied = outcome
                    .calls
                    .iter()
                    .filter(|c| c.outcome == "applied")
                    .count();
                let detail = serde_json::json!({
                    "session": session,
                    "calls": outcome.calls.len(),
                    "applied": applied,
                    "refused": outcome.calls.len() - applied,
                })
                .to_string();
                self.review_event(subject, "memory_review_completed", &detail)?;
                Ok(outcome)
            }
            Err(error) => {
                let detail =
                    serde_json::json!({"session": session, "error": error.to_string()}).to_string();
                // The failure is recorded; the error that caused it is what the caller hears.
                let _ = self.review_event(subject, "memory_review_failed", &detail);
                Err(error)
            }
        }
    }

    fn review_with(
        &self,
        subject: &Subject,
        caller: Author,
        session: &str,
        conversation: Option<&str>,
        model: &ModelCommand,
    ) -> Result<ReviewOutcome> {
        // The review's calls are writes in the session's thread: where they would all be
        // refused, the model is not asked.
        self.refuse_unless_writable_if_stored(subject, Some(session))?;
        let view = self.view(subject)?;
        let profile: Vec<String> = [view.user, view.memory, view.daily.map(|(_, text)| text)]
            .into_iter()
            .flatten()
            .collect();
        let profile = if profile.is_empty() {
            "(nothing yet)".to_owned()
        } else {
            profile.join("\n")
        };
        let prompt = PROMPT_TEMPLATE.replace("{{profile}}", &profile).replace(
            "{{conversation}}",
            conversation.map_or("(not given)", str::trim),
        );
        let reply = model
            .ask(&prompt)
            .map_err(|e| KenningError::Model(e.to_string()))?;
        let calls = self.read_review_reply(&reply)?;
        let author = provenance::job_author(caller);
        let mut done = Vec::with_capacity(calls.len());
        for arguments in calls {
            let mut args = arguments.clone();
            if let Some(object) = args.as_object_mut() {
                object
                    .entry("thread")
                    .or_insert_with(|| Value::String(session.to_owned()));
            }
            let (outcome, detail) = match self.call(subject, author, "memory", &args.to_string()) {
                Ok(answer) => ("applied", answer),
                Err(
                    error @ (KenningError::Store { .. }
                    | KenningError::Busy { .. }
                    | KenningError::Policy(_)),
                ) => {
                    return Err(error);
                }
                Err(error) => ("refused", Value::String(error.to_string())),
            };
            done.push(ReviewCall {
                arguments,
                outcome,
                detail,
            });
        }
        Ok(ReviewOutcome {
            subject: subject.to_string(),
            session: session.to_owned(),
            calls: done,
        })
    }

    /// The `memory` arguments of every call in the model's answer, each checked by the
    /// policy's schema, or an error naming the first call at fault (nothing is applied then).
    fn read_review_reply(&self, reply: &str) -> Result<Vec<Value>> {
        let model_error = |problem: String| KenningError::Model(problem);
        let answer: Value = serde_json::from_str(strip_code_fence(reply))
            .map_err(|e| model_error(format!("answered something that is not JSON ({e})")))?;
        let Some(calls) = answer.get("calls").and_then(Value::as_array) else {
            return Err(model_error("answered without a \"calls\" list".to_owned()));
        };
        if calls.len() > MAX_REVIEW_CALLS {
            return Err(model_error(format!(
                "answered {} calls; a review makes at most {MAX_REVIEW_CALLS}",
                calls.len()
            )));
        }
        let mut checked = Vec::with_capacity(calls.len());
        for (index, call) in calls.iter().enumerate() {
            let tool = call.get("tool").and_then(Value::as_str);
            if tool != Some("memory") {
                return Err(model_error(format!(
                    "called {} in calls[{index}]; a review has only the memory tool",
                    tool.map_or_else(|| "no tool".to_owned(), |t| format!("{t:?}"))
                )));
            }
            let arguments = call.get("arguments").cloned().unwrap_or(Value::Null);
            if let Err(errors) = self.policy.validate("memory", &arguments.to_string())? {
                let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
                return Err(model_error(format!(
                    "answered calls[{index}] the policy refuses: {}",
                    problems.join("; ")
                )));
            }
            checked.push(arguments);
        }
        Ok(checked)
    }

    /// Appends a review's audit event, in a transaction of its own.
    fn review_event(&self, subject: &Subject, action: &str, detail: &str) -> Result<()> {
        let mut kb = self.open_or_create(subject)?;
        let now = self.now();
        kb.write(|tx| tx.record_job_run(now, ACTOR, action, None, detail))
    }
}

/// The user turns counted in the store.
pub(crate) fn total_turns(store: &dyn Reads) -> Result<u64> {
    counted(store, TOTAL_TURNS_KEY)
}

/// The count stored under `key` in `meta` (0 when none is).
fn counted(store: &dyn Reads, key: &str) -> Result<u64> {
    Ok(store
        .meta_value(key)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_template_has_a_place_for_the_profile_and_the_conversation() {
        assert_eq!(PROMPT_TEMPLATE.matches("{{profile}}").count(), 1);
        assert_eq!(PROMPT_TEMPLATE.matches("{{conversation}}").count(), 1);
    }
}
