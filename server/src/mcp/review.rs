//! Review from inside the client. An external caller's write awaits a human's review; when its
//! client declared MCP elicitation (form mode), the server asks the human, through the client,
//! whether to keep it, while the call waits, and applies the answer as that human's review: the
//! audit event's actor is `reviewer:mcp-elicitation:CLIENT`. Kept, the memory is in force;
//! declined or unticked, it is rejected; dismissed, or unanswered within [`WAIT`], it stays
//! pending for `kenning review`. A request to forget a memory is asked as "Forget it?": ticked,
//! the memory is forgotten for good; declined or unticked, it stays.
//!
//! The question goes to the human, never to the model: MCP clients show an elicitation to their
//! user and do not put it in the model's context, which is why a proposal's text may appear in
//! it although nothing awaiting review is ever returned to a caller.

use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{ElicitationError, ElicitationMode};
use rmcp::{Peer, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use kenning::memory::Memory;
use kenning::service::Service;
use kenning::service::governance::Decision;
use kenning::subject::Subject;
use kenning_contract::args::Author;

/// How long the call waits for the human's answer: within the minute a client commonly gives a
/// request (the TypeScript SDK's default), so that the call's answer still arrives.
pub const WAIT: Duration = Duration::from_secs(50);

/// The form the human answers.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(title = "Keep this memory?")]
pub struct Verdict {
    /// Keep it: it is used in later sessions. Untick (or decline) to reject it.
    #[schemars(title = "Keep it")]
    pub keep: bool,
}

rmcp::elicit_safe!(Verdict);

/// The form the human answers about a request to forget a memory.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(title = "Forget this memory?")]
pub struct ForgetVerdict {
    /// Forget it for good. Untick (or decline) to keep it.
    #[schemars(title = "Forget it")]
    pub forget: bool,
}

rmcp::elicit_safe!(ForgetVerdict);

/// `result`, the answer of `tool` called by `author` on `subject`, after asking the human about
/// the proposal it made, when it made one and the client can ask (see the module docs); the
/// status in it then says what the human decided.
pub async fn settle(
    peer: &Peer<RoleServer>,
    service: &Arc<Service>,
    subject: &Subject,
    author: Author,
    tool: &str,
    mut result: Value,
) -> Value {
    if author != Author::External
        || !peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
    {
        return result;
    }
    let Some((proposal, revised)) = proposal_of(tool, &result) else {
        return result;
    };
    let shown = {
        let (service, subject) = (Arc::clone(service), subject.clone());
        tokio::task::spawn_blocking(move || {
            let proposal = service.memory(&subject, Author::Human, proposal)?;
            let revised = revised
                .map(|id| service.memory(&subject, Author::Human, id))
                .transpose()?;
            Ok::<_, kenning::error::KenningError>((proposal, revised))
        })
        .await
    };
    let Ok(Ok((proposal, revised))) = shown else {
        return result;
    };
    let client = client_name(peer);
    let question = question(subject, &client, &proposal, revised.as_ref());
    // Ticked means "do what was asked" in both forms: keep the memory, or forget it.
    let answer = if proposal.forgets.is_some() {
        peer.elicit_with_timeout::<ForgetVerdict>(question, Some(WAIT))
            .await
            .map(|verdict| verdict.map(|v| v.forget))
    } else {
        peer.elicit_with_timeout::<Verdict>(question, Some(WAIT))
            .await
            .map(|verdict| verdict.map(|v| v.keep))
    };
    let decision = match answer {
        Ok(Some(true)) => Decision::Accept,
        Ok(Some(false)) | Err(ElicitationError::UserDeclined) => Decision::Reject,
        Ok(None) | Err(_) => return result,
    };
    let reviewer = format!("mcp-elicitation:{client}");
    let (service, subject, id) = (Arc::clone(service), subject.clone(), proposal.id);
    let reviewed =
        tokio::task::spawn_blocking(move || service.review(&subject, id, decision, &reviewer))
            .await;
    let outcome = match reviewed {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "the human's answer could not be applied; the proposal stays pending");
            return result;
        }
        Err(_) => return result,
    };
    match (tool, decision) {
        ("remember", Decision::Accept) => {
            result["status"] = json!("accepted");
            result["badge"] = json!(outcome.badge);
        }
        ("remember", Decision::Reject) => {
            result["status"] = json!("rejected");
            if let Some(fields) = result.as_object_mut() {
                fields.remove("badge");
            }
        }
        ("forget_memory", Decision::Accept) => {
            result["status"] = json!("forgotten");
            if let Some(fields) = result.as_object_mut() {
                fields.remove("badge");
            }
        }
        (_, Decision::Accept) => {
            result["status"] = json!("revised");
            result["badge"] = json!(outcome.badge);
        }
        (_, Decision::Reject) => result["status"] = json!("rejected"),
    }
    result
}

/// The proposal a tool's `result` made, if any, and the memory it would revise or forget.
fn proposal_of(tool: &str, result: &Value) -> Option<(u64, Option<u64>)> {
    if result["status"] != "pending" {
        return None;
    }
    match tool {
        "remember" => Some((result["id"].as_u64()?, None)),
        "revise_memory" | "forget_memory" => {
            Some((result["proposal_id"].as_u64()?, result["id"].as_u64()))
        }
        _ => None,
    }
}

/// The client's name as it introduced itself, in the letters a reviewer's name may hold.
fn client_name(peer: &Peer<RoleServer>) -> String {
    let name = peer
        .peer_info()
        .map(|info| info.client_info.name.clone())
        .unwrap_or_default();
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        .take(64)
        .collect();
    if name.is_empty() {
        "client".to_owned()
    } else {
        name
    }
}

/// What the human is asked.
fn question(
    subject: &Subject,
    client: &str,
    proposal: &Memory,
    revised: Option<&Memory>,
) -> String {
    let mut filed = vec![proposal.kind.as_str().to_owned()];
    if !proposal.tags.is_empty() {
        let tags: Vec<String> = proposal.tags.iter().map(|t| format!("#{t}")).collect();
        filed.push(tags.join(" "));
    }
    let what = match revised {
        Some(old) if proposal.forgets == Some(old.id) => {
            return format!(
                "{client} (an external client of kenning) asks: {}\n\nMemory {} of {subject} says:\n\n{}\n\nForget it for good? Declined, it stays. Dismiss this to decide later (kenning review).",
                proposal.text, old.id, old.text
            );
        }
        Some(old) => format!(
            "proposes to change memory {} of {subject} from\n\n{}\n\nto\n\n{}",
            old.id, old.text, proposal.text
        ),
        None => format!("proposes to remember, in {subject}:\n\n{}", proposal.text),
    };
    format!(
        "{client} (an external client of kenning) {what}\n\n({})\n\nKeep it? Kept, it is used in later sessions; declined, it is rejected. Dismiss this to decide later (kenning review).",
        filed.join("; ")
    )
}
