//! `kenning extract`: memories a model command proposes from a conversation, checked and
//! written (see [`kenning::service::extract`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use kenning::model_command::ModelCommand;
use kenning::service::extract::{DEFAULT_MIN_CONFIDENCE, ExtractReport, ExtractRequest};
use kenning::{KenningError, Result};
use kenning_contract::MAX_EXTRACTION_BYTES;
use serde_json::Value;

use super::{AuthorArg, GlobalOpts, PolicyUse, SubjectArg, print_json, service, usage};

/// `kenning extract`.
#[derive(Args)]
pub struct ExtractCmd {
    #[command(flatten)]
    subject: SubjectArg,
    /// The conversation: a JSON list of {"role", "content"} messages (or {"messages": [...]}),
    /// or plain text; `-` for standard input.
    #[arg(long, value_name = "FILE")]
    conversation: PathBuf,
    /// The model: a shell command that reads the prompt on standard input and writes the
    /// model's reply on standard output.
    #[arg(long, value_name = "CMD")]
    model_cmd: String,
    /// Proposed memories less sure than this (0 to 1) are dropped.
    #[arg(long, default_value_t = DEFAULT_MIN_CONFIDENCE)]
    min_confidence: f64,
    /// Who the memories are written by: `external` makes them suggestions awaiting review.
    #[arg(long, value_enum, default_value = "agent")]
    author: AuthorArg,
    /// The thread the memories are written in.
    #[arg(long)]
    thread: Option<String>,
    /// Seconds the model command may take.
    #[arg(long, default_value_t = 120)]
    timeout_secs: u64,
    /// Ask the model and check its answer; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print the report as one JSON line.
    #[arg(long)]
    json: bool,
}

/// Runs one extraction.
pub fn run(global: &GlobalOpts, cmd: &ExtractCmd) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&cmd.min_confidence) {
        return Err(usage(format!(
            "--min-confidence {}: expected a number from 0 to 1",
            cmd.min_confidence
        )));
    }
    if cmd.timeout_secs == 0 {
        return Err(usage("--timeout-secs: expected at least 1"));
    }
    let subject = cmd.subject.parse()?;
    let raw = if cmd.conversation.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|source| KenningError::Io {
            path: "<stdin>".into(),
            source,
        })?
    } else {
        std::fs::read_to_string(&cmd.conversation).map_err(|source| KenningError::Io {
            path: cmd.conversation.clone(),
            source,
        })?
    };
    let conversation = conversation_text(&raw)
        .map_err(|problem| usage(format!("{}: {problem}", cmd.conversation.display())))?;
    let service = service(global, None, PolicyUse::Calls)?.build()?;
    let model = ModelCommand {
        command: cmd.model_cmd.clone(),
        timeout: Duration::from_secs(cmd.timeout_secs),
        // Room for a code fence and `worth_extracting` around the largest extraction.
        max_reply_bytes: MAX_EXTRACTION_BYTES + 4_096,
    };
    let request = ExtractRequest {
        conversation,
        author: cmd.author.into(),
        min_confidence: cmd.min_confidence,
        thread: cmd.thread.clone(),
        dry_run: cmd.dry_run,
    };
    let report = service.extract(&subject, &request, &model)?;
    if cmd.json {
        print_json(&report)?;
    } else {
        print_report(&report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The conversation as `role: content` lines when it is a JSON list of messages (or an object
/// holding one under `messages`), else the text as it is.
fn conversation_text(raw: &str) -> std::result::Result<String, String> {
    let Ok(json) = serde_json::from_str::<Value>(raw) else {
        return Ok(raw.to_owned());
    };
    let messages = match &json {
        Value::Array(messages) => messages,
        Value::Object(object) => match object.get("messages") {
            Some(Value::Array(messages)) => messages,
            _ => {
                return Err(
                    "a JSON conversation is a list of messages, or {\"messages\": [...]}".into(),
                );
            }
        },
        _ => return Ok(raw.to_owned()),
    };
    let mut lines = Vec::with_capacity(messages.len());
    for (index, message) in messages.iter().enumerate() {
        let field = |name: &str| message.get(name).and_then(Value::as_str);
        let (Some(role), Some(content)) = (field("role"), field("content")) else {
            return Err(format!(
                "message {index} needs a \"role\" and a \"content\", both strings"
            ));
        };
        lines.push(format!("{role}: {content}"));
    }
    Ok(lines.join("\n"))
}

/// The report for a reader.
fn print_report(report: &ExtractReport) -> Result<()> {
    if let Some(why) = &report.skipped {
        outln!("{}: skipped: {why}", report.subject);
        return Ok(());
    }
    if !report.worth_extracting {
        outln!(
            "{}: the model found nothing worth remembering",
            report.subject
        );
        return Ok(());
    }
    outln!(
        "{}: the model proposed {} memories{}",
        report.subject,
        report.proposals.len(),
        if report.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        }
    );
    for p in &report.proposals {
        let id = p.id.map(|id| format!(" #{id}")).unwrap_or_default();
        let detail = p
            .detail
            .as_deref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        outln!(
            "  {}{id} [{:.2}] {:?}{detail}",
            p.outcome,
            p.confidence,
            p.text
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_conversation_becomes_role_and_content_lines_and_text_stays_text() {
        let json = r#"[{"role": "user", "content": "I moved to Lyon"}, {"role": "assistant", "content": "Noted"}]"#;
        assert_eq!(
            conversation_text(json).unwrap(),
            "user: I moved to Lyon\nassistant: Noted"
        );
        let wrapped = r#"{"messages": [{"role": "user", "content": "hi"}]}"#;
        assert_eq!(conversation_text(wrapped).unwrap(), "user: hi");
        assert_eq!(conversation_text("just text\n").unwrap(), "just text\n");
        assert!(
            conversation_text(r#"[{"role": "user"}]"#)
                .unwrap_err()
                .contains("message 0")
        );
    }
}
