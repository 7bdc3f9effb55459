//! A turn: what enters the prompt for where the agent is working and what it asks.
//!
//! Context → the subject's knowledge base → bounded candidates (local memories whose anchors
//! can match, full-text matches for the query, accepted global memories; never quarantined
//! ones) → one policy `select` → the guard's checks → recall statistics.

use std::collections::BTreeMap;

use kenning_contract::types::{Candidate, Context, FieldError, Limits, LiveFunction, Selection};

use super::Service;
use crate::api::{
    self, Address, ChosenMemory, ContextArgs, ContextResult, MAX_CONTEXT_QUOTA,
    MAX_CONTEXT_STRING_CHARS, MAX_CONTEXT_STRINGS, MAX_CONTEXT_TOKENS, MAX_FUNCTION_NAME_CHARS,
    RejectedMemory,
};
use crate::error::{KenningError, Result};
use crate::store::{self, KnowledgeStore, Memory, MemoryFilter};
use crate::subject::Subject;

/// How many candidates of each source a turn considers at most.
const ANCHORED_CANDIDATES: u32 = 200;
const LEXICAL_CANDIDATES: u32 = 50;
const GLOBAL_CANDIDATES: u32 = 64;

/// What the agent is looking at this turn. Addresses are those of the running image.
#[derive(Debug, Clone, Default)]
pub struct TurnContext {
    /// Load address of the image (0 when addresses are file offsets).
    pub image_base: u64,
    /// The cursor.
    pub cursor: Option<u64>,
    /// The function containing the cursor.
    pub current_function: Option<LiveFunction>,
    /// Strings referenced near the cursor.
    pub referenced_strings: Vec<String>,
    /// Every function the caller knows of (empty: unknown).
    pub live_functions: Vec<LiveFunction>,
    /// Every string the caller knows of (empty: unknown).
    pub live_strings: Vec<String>,
    /// The agent's query.
    pub query: String,
    /// The conversation thread, whose settings apply.
    pub thread: Option<String>,
}

impl TurnContext {
    /// The policy's view of this turn at `now`.
    pub fn to_context(
        &self,
        now: i64,
        subject_kind: kenning_contract::types::SubjectKind,
    ) -> Context {
        Context {
            now,
            subject_kind,
            image_base: self.image_base,
            cursor: self.cursor,
            current_function: self.current_function.clone(),
            referenced_strings: self.referenced_strings.clone(),
            live_functions: self.live_functions.clone(),
            live_strings: self.live_strings.clone(),
            query: self.query.clone(),
        }
    }
}

/// The outcome of one turn.
#[derive(Debug, Clone)]
pub struct Injection {
    /// The policy's selection, checked by the host.
    pub selection: Selection,
    /// The candidates it chose from, by id, for explanations.
    pub candidates: BTreeMap<u64, Candidate>,
}

impl Service {
    /// Chooses what enters the prompt this turn.
    pub fn inject(
        &self,
        subject: &Subject,
        turn: &TurnContext,
        limits: &Limits,
    ) -> Result<Injection> {
        // A subject with no knowledge base yet has no candidates: the policy renders its
        // empty snapshot (an agent's first turn is no error).
        let mut kb = self.backend.open(subject, false)?;
        if let Some(kb) = &kb
            && !kb.settings(turn.thread.as_deref())?.include_in_prompts
        {
            return Ok(Injection {
                selection: Selection::default(),
                candidates: BTreeMap::new(),
            });
        }
        let context = turn.to_context(self.now(), subject.kind);
        let candidates = match &kb {
            Some(kb) => gather_candidates(&**kb, &context)?,
            None => BTreeMap::new(),
        };
        let list: Vec<Candidate> = candidates.values().cloned().collect();
        let selection = self.policy.select(&context, &list, limits)?;
        let chosen: Vec<u64> = selection.chosen.iter().map(|c| c.id).collect();
        if let Some(kb) = &mut kb {
            match kb.mark_recalled(&chosen, context.now) {
                // Bookkeeping, not memories: a full disk refuses writes, not an agent's turn.
                Err(error @ KenningError::StorageFull { .. }) => {
                    tracing::warn!(error = %error, "recall statistics not recorded");
                }
                other => other?,
            }
        }
        Ok(Injection {
            selection,
            candidates,
        })
    }

    /// The `context` tool: the turn for a place and a query, with the reason for every choice
    /// (the best [`api::MAX_REJECTED_SHOWN`] of the candidates left out).
    pub fn context(&self, subject: &Subject, args: &ContextArgs) -> Result<ContextResult> {
        let (turn, limits) = turn_of(args)?;
        let injection = self.inject(subject, &turn, &limits)?;
        Ok(explain(injection))
    }
}

/// The turn and limits a `context` call asks for, checked.
fn turn_of(args: &ContextArgs) -> Result<(TurnContext, Limits)> {
    let invalid = |path: &str, message: String| KenningError::Invalid {
        tool: "context".to_owned(),
        errors: vec![FieldError::new(path, message)],
    };
    let address = |path: &str, value: &Option<Address>| -> Result<Option<u64>> {
        value
            .as_ref()
            .map(|a| parse_address(a).map_err(|m| invalid(path, m)))
            .transpose()
    };
    if let Some(thread) = &args.thread
        && !kenning_contract::is_thread_id(thread)
    {
        return Err(invalid(
            "thread",
            format!(
                "a thread is 1 to {} of A-Z a-z 0-9 _ . : -",
                kenning_contract::MAX_THREAD_BYTES
            ),
        ));
    }
    let strings = args.strings.clone().unwrap_or_default();
    if strings.len() > MAX_CONTEXT_STRINGS {
        return Err(invalid(
            "strings",
            format!(
                "{} strings; the limit is {MAX_CONTEXT_STRINGS}",
                strings.len()
            ),
        ));
    }
    if let Some(at) = strings
        .iter()
        .position(|s| s.chars().count() > MAX_CONTEXT_STRING_CHARS)
    {
        return Err(invalid(
            &format!("strings[{at}]"),
            format!("a string is at most {MAX_CONTEXT_STRING_CHARS} characters"),
        ));
    }
    let query = args.query.clone().unwrap_or_default();
    if query.len() > kenning_contract::MAX_QUERY_BYTES {
        return Err(invalid(
            "query",
            format!(
                "{} bytes; the limit is {}",
                query.len(),
                kenning_contract::MAX_QUERY_BYTES
            ),
        ));
    }
    let current_function = match &args.function {
        Some(f) => {
            let name_chars = f.name.chars().count();
            if !(1..=MAX_FUNCTION_NAME_CHARS).contains(&name_chars) {
                return Err(invalid(
                    "function.name",
                    format!("a function's name is 1 to {MAX_FUNCTION_NAME_CHARS} characters"),
                ));
            }
            let start = parse_address(&f.start).map_err(|m| invalid("function.start", m))?;
            let end = parse_address(&f.end).map_err(|m| invalid("function.end", m))?;
            if end <= start {
                return Err(invalid(
                    "function.end",
                    "end must be greater than start".into(),
                ));
            }
            Some(LiveFunction {
                start,
                end,
                name: f.name.clone(),
            })
        }
        None => None,
    };
    let defaults = Limits::default();
    let quota = |path: &str, value: Option<u32>, default: u32| -> Result<u32> {
        match value {
            Some(q) if q > MAX_CONTEXT_QUOTA => Err(invalid(
                path,
                format!("{q} is over the limit of {MAX_CONTEXT_QUOTA}"),
            )),
            Some(q) => Ok(q),
            None => Ok(default),
        }
    };
    let token_budget = match args.token_budget {
        Some(0) => return Err(invalid("token_budget", "must be at least 1".into())),
        Some(t) if t > MAX_CONTEXT_TOKENS => {
            return Err(invalid(
                "token_budget",
                format!("{t} is over the limit of {MAX_CONTEXT_TOKENS}"),
            ));
        }
        Some(t) => t,
        None => defaults.token_budget,
    };
    let turn = TurnContext {
        image_base: address("image_base", &args.image_base)?.unwrap_or(0),
        cursor: address("cursor", &args.cursor)?,
        current_function,
        referenced_strings: strings,
        query,
        thread: args.thread.clone(),
        ..TurnContext::default()
    };
    let limits = Limits {
        local_quota: quota("local_quota", args.local_quota, defaults.local_quota)?,
        global_quota: quota("global_quota", args.global_quota, defaults.global_quota)?,
        token_budget,
        ..defaults
    };
    Ok((turn, limits))
}

/// An address as tool calls read it: an integer, or a string in hex (`0x401000`) or decimal.
pub fn parse_address(address: &Address) -> std::result::Result<u64, String> {
    match address {
        Address::Number(n) => Ok(*n),
        Address::Text(text) => {
            kenning_contract::parse_address(text).map_err(|problem| format!("{text:?}: {problem}"))
        }
    }
}

/// The selection with each choice explained.
fn explain(injection: Injection) -> ContextResult {
    let Injection {
        selection,
        candidates,
    } = injection;
    let chosen = selection
        .chosen
        .iter()
        .filter_map(|c| {
            let candidate = candidates.get(&c.id)?;
            Some(ChosenMemory {
                id: c.id,
                section: c.section,
                score: c.score,
                scope: candidate.scope,
                preview: preview(&candidate.text),
            })
        })
        .collect();
    let mut rejected: Vec<RejectedMemory> = selection
        .rejected
        .iter()
        .map(|r| RejectedMemory {
            id: r.id,
            reason: r.reason,
            score: r.score,
        })
        .collect();
    let rejected_total = rejected.len();
    rejected.sort_by(|a, b| {
        b.score
            .total
            .total_cmp(&a.score.total)
            .then(a.id.cmp(&b.id))
    });
    rejected.truncate(api::MAX_REJECTED_SHOWN);
    ContextResult {
        snapshot: selection.snapshot,
        snapshot_tokens: selection.snapshot_tokens,
        chosen,
        rejected,
        rejected_total,
    }
}

/// The first [`api::PREVIEW_CHARS`] characters of a text, with `…` when cut: the snapshot
/// holds the whole text already.
fn preview(text: &str) -> String {
    let mut out: String = text.chars().take(api::PREVIEW_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// The candidates for one turn: local memories whose anchors can match, full-text matches for
/// the query, and accepted global memories. Quarantined memories never get here.
pub(crate) fn gather_candidates(
    kb: &dyn KnowledgeStore,
    context: &Context,
) -> Result<BTreeMap<u64, Candidate>> {
    let to_offset = |address: u64| address.saturating_sub(context.image_base);
    let function = context.current_function.as_ref();
    let ids = kb.anchored_ids(
        context.cursor.map(to_offset),
        function.map(|f| to_offset(f.start)),
        function.map(|f| f.name.as_str()),
        &context.referenced_strings,
        ANCHORED_CANDIDATES,
    )?;
    let mut candidates = BTreeMap::new();
    for memory in kb.get_many(&ids)? {
        candidates.insert(memory.id, candidate_of(&memory, 0.0));
    }
    if !context.query.trim().is_empty() {
        let filter = MemoryFilter {
            query: context.query.clone(),
            limit: LEXICAL_CANDIDATES,
            posting_budget: Some(store::TURN_POSTING_BUDGET),
            ..MemoryFilter::default()
        };
        for (memory, score) in kb.search(&filter)? {
            candidates
                .entry(memory.id)
                .or_insert_with(|| candidate_of(&memory, 0.0))
                .lexical_score = score;
        }
    }
    for memory in kb.recent_globals(GLOBAL_CANDIDATES)? {
        candidates
            .entry(memory.id)
            .or_insert_with(|| candidate_of(&memory, 0.0));
    }
    Ok(candidates)
}

/// The store half of an injection, timed apart from the policy's by `kenning bench` (the
/// `bench-support` feature): one subject's knowledge base held open, asked for a turn's
/// candidates as [`Service::inject`] asks it.
#[cfg(feature = "bench-support")]
pub struct CandidateQuery {
    kb: Box<dyn KnowledgeStore>,
}

#[cfg(feature = "bench-support")]
impl CandidateQuery {
    /// Opens `subject`'s knowledge base, which must exist.
    pub fn open(stores: store::synthetic::Stores, subject: &Subject) -> Result<CandidateQuery> {
        Ok(CandidateQuery {
            kb: stores.open(subject, false)?,
        })
    }

    /// The candidates of a turn in `context`, by id.
    pub fn gather(&self, context: &Context) -> Result<BTreeMap<u64, Candidate>> {
        gather_candidates(&*self.kb, context)
    }
}

/// A stored memory as the policy sees it.
pub fn candidate_of(memory: &Memory, lexical_score: f32) -> Candidate {
    Candidate {
        id: memory.id,
        scope: memory.scope,
        kind: memory.kind,
        author: memory.author,
        badge: memory.badge,
        text: memory.text.clone(),
        tags: memory.tags.clone(),
        confidence: memory.confidence,
        created_at: memory.created_at,
        updated_at: memory.updated_at,
        anchors: memory.anchors.clone(),
        lexical_score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FunctionArg;

    #[test]
    fn context_arguments_become_a_turn_with_defaults_filled_in() {
        let args = ContextArgs {
            query: Some("config".into()),
            image_base: Some(Address::Text("0x400000".into())),
            cursor: Some(Address::Number(0x401080)),
            function: Some(FunctionArg {
                name: "decrypt".into(),
                start: Address::Text("0x401000".into()),
                end: Address::Text("0x401200".into()),
            }),
            local_quota: Some(3),
            ..ContextArgs::default()
        };
        let (turn, limits) = turn_of(&args).unwrap();
        assert_eq!(turn.image_base, 0x400000);
        assert_eq!(turn.cursor, Some(0x401080));
        assert_eq!(turn.current_function.unwrap().end, 0x401200);
        assert_eq!(limits.local_quota, 3);
        assert_eq!(limits.global_quota, Limits::default().global_quota);
    }

    #[test]
    fn bad_context_arguments_name_their_field() {
        let errors = |args: ContextArgs| match turn_of(&args) {
            Err(KenningError::Invalid { errors, .. }) => errors[0].path.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            errors(ContextArgs {
                cursor: Some(Address::Text("0xZZ".into())),
                ..Default::default()
            }),
            "cursor"
        );
        assert_eq!(
            errors(ContextArgs {
                token_budget: Some(MAX_CONTEXT_TOKENS + 1),
                ..Default::default()
            }),
            "token_budget"
        );
        assert_eq!(
            errors(ContextArgs {
                function: Some(FunctionArg {
                    name: "f".into(),
                    start: Address::Number(10),
                    end: Address::Number(10),
                }),
                ..Default::default()
            }),
            "function.end"
        );
    }
}
