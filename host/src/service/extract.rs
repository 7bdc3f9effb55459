//! Extraction from conversations (the chat platform's pipeline): a model reads a conversation
//! and proposes memories; the policy and the host decide which are written.
//!
//! 1. A conversation under [`MIN_CONVERSATION_CHARS`] characters is skipped: the model is not
//!    asked. Nor is it when the subject's settings disable writes (unless in a dry run): the
//!    run is refused first.
//! 2. The prompt is [`PROMPT_TEMPLATE`] (`host/prompts/extraction.md`) with the conversation
//!    in it; the model command ([`ModelCommand`]) answers within its timeout and size limit,
//!    or the run fails writing nothing ([`KenningError::Model`]).
//! 3. The answer is one JSON object (a Markdown code fence around it is tolerated):
//!    `worth_extracting: false` ends the run writing nothing; the rest must pass the policy's
//!    `extraction` schema as a whole, or nothing is written.
//! 4. Each proposed memory below the confidence threshold is dropped; each other one is
//!    written as a `remember` call by the configured author would be: validated, scanned
//!    (secrets redacted; a blocked text is refused and reported, the others still written),
//!    deduplicated, through the write gate, one transaction with its audit event each.

use kenning_contract::MAX_EXTRACTION_BYTES;
use kenning_contract::args::Extraction;
use kenning_contract::types::{ScanItem, Target, Verdict};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::interchange::anchor_arg;
use super::{Service, string_fields};
use crate::error::{KenningError, PolicyError, Result};
use crate::model_command::ModelCommand;
use crate::store::Author;
use crate::subject::Subject;

/// The prompt the model command reads; `{{conversation}}` stands for the conversation.
pub const PROMPT_TEMPLATE: &str = include_str!("../../prompts/extraction.md");

/// Conversations shorter than this (in characters, surrounding space left out) are skipped.
pub const MIN_CONVERSATION_CHARS: usize = 20;

/// What a report shows instead of a text the scan blocks.
const WITHHELD: &str = "(withheld: blocked by the safety scan)";

/// Proposed memories less sure than this are dropped, unless configured.
pub const DEFAULT_MIN_CONFIDENCE: f64 = 0.7;

/// How an extraction runs.
#[derive(Debug, Clone)]
pub struct ExtractRequest {
    /// The conversation, as text.
    pub conversation: String,
    /// Who the written memories are by (their provenance and the write gate follow it).
    pub author: Author,
    /// Proposed memories less sure than this are dropped.
    pub min_confidence: f64,
    /// The thread the memories are written in, if any.
    pub thread: Option<String>,
    /// Ask the model and check its answer, but write nothing.
    pub dry_run: bool,
}

/// A proposed memory and what became of it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Proposal {
    /// Its place in the model's answer, from 0.
    pub index: usize,
    /// Its text as it would be stored (secrets redacted), or a placeholder when the scan
    /// blocks it.
    pub text: String,
    /// How sure the model was.
    pub confidence: f64,
    /// `written`, `duplicate`, `pending` (written, awaiting review), `below_threshold`,
    /// `refused` (by the scan or the checks of a write), or in a dry run `would_write` or
    /// `would_hold` (the scan would hold it for review; `detail` says why).
    pub outcome: String,
    /// The memory's id, when written (or the existing one's for a duplicate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// Why it was refused, or the kinds of secrets redacted from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What an extraction did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExtractReport {
    /// The subject.
    pub subject: String,
    /// Whether nothing was written on purpose (a dry run).
    pub dry_run: bool,
    /// Why the conversation was skipped without asking the model, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// The model's verdict (false: nothing worth remembering).
    pub worth_extracting: bool,
    /// Every proposed memory, with its outcome.
    pub proposals: Vec<Proposal>,
}

impl Service {
    /// Runs an extraction (see the module docs) with `model`.
    pub fn extract(
        &self,
        subject: &Subject,
        request: &ExtractRequest,
        model: &ModelCommand,
    ) -> Result<ExtractReport> {
        let mut report = ExtractReport {
            subject: subject.to_string(),
            dry_run: request.dry_run,
            skipped: None,
            worth_extracting: false,
            proposals: Vec::new(),
        };
        if request.conversation.trim().chars().count() < MIN_CONVERSATION_CHARS {
            report.skipped = Some(format!(
                "the conversation is under {MIN_CONVERSATION_CHARS} characters"
            ));
            return Ok(report);
        }
        if !request.dry_run {
            self.refuse_unless_writable_if_stored(subject, request.thread.as_deref())?;
        }
        let prompt = PROMPT_TEMPLATE.replace("{{conversation}}", request.conversation.trim());
        let reply = model
            .ask(&prompt)
            .map_err(|e| KenningError::Model(e.to_string()))?;
        let Some((extraction, raw_fields)) = self.read_reply(&reply)? else {
            return Ok(report);
        };
        report.worth_extracting = true;
        // The report never repeats what the scan would not store: texts are shown redacted,
        // and a blocked one not at all.
        let items: Vec<ScanItem> = extraction
            .memories
            .iter()
            .map(|m| ScanItem {
                text: m.text.clone(),
                target: Target::Memory,
                author: request.author,
            })
            .collect();
        let scanned = self.scan(&items)?;
        let shown: Vec<String> = scanned
            .iter()
            .map(|result| match result.verdict {
                Verdict::Block => WITHHELD.to_owned(),
                _ => result.text.clone(),
            })
            .collect();
        for (index, item) in extraction.memories.iter().enumerate() {
            let mut proposal = Proposal {
                index,
                text: shown
                    .get(index)
                    .cloned()
                    .unwrap_or_else(|| WITHHELD.to_owned()),
                confidence: item.confidence,
                outcome: String::new(),
                id: None,
                detail: None,
            };
            if item.confidence < request.min_confidence {
                proposal.outcome = "below_threshold".to_owned();
            } else if request.dry_run {
                proposal.outcome = match scanned.get(index) {
                    Some(result) if result.verdict == Verdict::Block => {
                        proposal.detail = result.reason.clone();
                        "refused".to_owned()
                    }
                    Some(result) if result.verdict == Verdict::Hold => {
                        proposal.detail = result.reason.clone();
                        "would_hold".to_owned()
                    }
                    _ => "would_write".to_owned(),
                };
            } else {
                let args = serde_json::json!({
                    "text": item.text,
                    "scope": item.scope.as_str(),
                    "type": item.kind.as_str(),
                    "anchors": item.anchors.iter().map(|a| anchor_arg(a, item.image_base)).collect::<Vec<_>>(),
                    "image_base": item.image_base,
                    "tags": item.tags,
                    "categories": item.categories,
                    "confidence": item.confidence,
                    "thread": request.thread,
                });
                // The short strings as the model wrote them: the canonical form lowercases
                // tags, which hides a secret's shape from the scan.
                let fields = raw_fields.get(index).map_or(&[][..], Vec::as_slice);
                match self.check_fields("extraction", request.author, fields) {
                    Err(refused @ KenningError::Invalid { .. }) => {
                        proposal.outcome = "refused".to_owned();
                        proposal.detail = Some(refused.to_string());
                    }
                    Err(other) => return Err(other),
                    Ok(()) => {
                        let written =
                            self.remember_one(subject, request.author, &args.to_string())?;
                        proposal.outcome = written.outcome.to_owned();
                        proposal.id = written.id;
                        proposal.detail = written.detail;
                    }
                }
            }
            report.proposals.push(proposal);
        }
        Ok(report)
    }

    /// The model's answer as a checked extraction, with each memory's short strings (tags,
    /// categories, anchor names) as the model wrote them, by field path; or `None` when it found
    /// nothing worth extracting.
    fn read_reply(&self, reply: &str) -> Result<Option<(Extraction, Vec<RawFields>)>> {
        let model_error = |problem: String| KenningError::Model(problem);
        let text = strip_code_fence(reply);
        let mut answer: Value = serde_json::from_str(text)
            .map_err(|e| model_error(format!("answered something that is not JSON ({e})")))?;
        let Some(object) = answer.as_object_mut() else {
            return Err(model_error(
                "answered JSON that is not an object".to_owned(),
            ));
        };
        match object.remove("worth_extracting") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => return Ok(None),
            Some(other) => {
                return Err(model_error(format!(
                    "answered worth_extracting: {other}, which is not true or false"
                )));
            }
        }
        let json = answer.to_string();
        if json.len() > MAX_EXTRACTION_BYTES {
            return Err(model_error(format!(
                "answered an extraction of {} bytes; the limit is {MAX_EXTRACTION_BYTES}",
                json.len()
            )));
        }
        let checked = self
            .policy
            .validate("extraction", &json)?
            .map_err(|errors| {
                let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
                model_error(format!(
                    "answered an extraction the policy refuses: {}",
                    problems.join("; ")
                ))
            })?;
        let mut raw: Vec<RawFields> = Vec::new();
        for (path, value) in string_fields(&json, &[]).unwrap_or_default() {
            let Some((index, field)) = path
                .strip_prefix("memories[")
                .and_then(|rest| rest.split_once("]."))
                .and_then(|(index, field)| Some((index.parse::<usize>().ok()?, field)))
            else {
                continue;
            };
            if field == "text" {
                continue;
            }
            if raw.len() <= index {
                raw.resize_with(index + 1, Vec::new);
            }
            raw[index].push((path, value));
        }
        serde_json::from_str(&checked.args_json)
            .map(|extraction| Some((extraction, raw)))
            .map_err(|e| {
                KenningError::Policy(PolicyError::BadAnswer {
                    policy: self.policy.info().name.clone(),
                    call: "validate",
                    problem: format!("its canonical extraction does not parse: {e}"),
                })
            })
    }
}

/// Short strings of one proposed memory, with their field paths in the model's answer.
type RawFields = Vec<(String, String)>;

/// The text inside a Markdown code fence (```json ... ```), or the whole text.
pub(super) fn strip_code_fence(reply: &str) -> &str {
    let trimmed = reply.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return trimmed;
    };
    let body = rest.split_once('\n').map_or("", |(_, body)| body);
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_fence_around_the_answer_is_taken_off() {
        assert_eq!(strip_code_fence("```json\n{\"a\": 1}\n```\n"), "{\"a\": 1}");
        assert_eq!(strip_code_fence("  {\"a\": 1} "), "{\"a\": 1}");
        assert_eq!(strip_code_fence("```\n{}\n```"), "{}");
    }

    #[test]
    fn the_prompt_template_has_a_place_for_the_conversation() {
        assert_eq!(PROMPT_TEMPLATE.matches("{{conversation}}").count(), 1);
    }
}
