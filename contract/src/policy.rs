//! The trait a policy implements. Every duty but [`Policy::describe`] has a default, so a
//! policy overrides only what it decides differently; [`crate::export_policy!`] turns an
//! implementation into the exports of a WebAssembly component.

use crate::args::{ForgetMemory, MemoryEdit, Recall, Remember, ReviseMemory};
use crate::candidates::Candidates;
use crate::spotlight::{CLOSE, OPEN, data_text, provenance};
use crate::types::{
    Capability, ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, RejectReason, Rejected,
    Retention, ScanItem, ScanResult, ScoreParts, Section, Selection, StoredMemory, ValidatedCall,
    Verdict,
};
use crate::{CONTRACT_VERSION, TOOLS};

/// A memory policy: pure functions of their inputs (no I/O, no clock, no randomness; the host
/// passes `now`), answering the same on every call with the same inputs.
pub trait Policy {
    /// The policy's name and version, as [`describe`](Policy::describe) reports them.
    const NAME: &'static str;
    /// The policy's own version.
    const VERSION: &'static str;

    /// Builds whatever the policy would otherwise build lazily on its first call (lookup
    /// tables, automata, compiled patterns). Hosts give every call a fresh instance, so work
    /// left for the first call is paid on every call; work done here is paid once, at build
    /// time, when the build pre-initialises the component (`kenning-build` snapshots the
    /// module after calling it, as Wizer does). It must depend on nothing but constants. By
    /// default: nothing.
    fn prepare() {}

    /// Who this policy is, the contract it implements, its capabilities and default limits.
    fn describe() -> PolicyInfo {
        PolicyInfo {
            name: Self::NAME.to_owned(),
            version: Self::VERSION.to_owned(),
            contract_version: CONTRACT_VERSION.to_owned(),
            capabilities: vec![
                Capability::Validate,
                Capability::Scan,
                Capability::Score,
                Capability::Select,
                Capability::Consolidate,
            ],
            default_limits: Limits::default(),
        }
    }

    /// Checks a tool call or record against its closed schema. By default: the tool must be
    /// one of [`TOOLS`]; the agent's short form is made whole (the documented defaults of
    /// `remember`, `revise_memory` and `recall` filled in, texts trimmed, anchor addresses
    /// rebased to file offsets); then the arguments must read as the tool's closed record
    /// (unknown fields, wrong types and missing required fields are errors); the canonical JSON
    /// is that record written back.
    fn validate(tool: &str, args_json: &str) -> Result<ValidatedCall, Vec<FieldError>> {
        fn closed<T: serde::de::DeserializeOwned + serde::Serialize>(
            tool: &str,
            args_json: &str,
        ) -> Result<ValidatedCall, Vec<FieldError>> {
            let args_json = crate::short_form::complete(tool, args_json)?;
            let args: T = serde_json::from_str(&args_json).map_err(|e| {
                vec![FieldError {
                    path: String::new(),
                    message: e.to_string(),
                }]
            })?;
            Ok(ValidatedCall {
                tool: tool.to_owned(),
                args_json: serde_json::to_string(&args).expect("records serialise"),
            })
        }
        match tool {
            "remember" => closed::<Remember>(tool, args_json),
            "revise_memory" => closed::<ReviseMemory>(tool, args_json),
            "forget_memory" => closed::<ForgetMemory>(tool, args_json),
            "recall" => closed::<Recall>(tool, args_json),
            "memory" => closed::<MemoryEdit>(tool, args_json),
            other => Err(vec![FieldError {
                path: String::new(),
                message: format!(
                    "unknown tool {other:?}; expected one of {}",
                    TOOLS.join(", ")
                ),
            }]),
        }
    }

    /// Scans texts before they are stored; one result per item. By default everything is
    /// allowed unchanged.
    fn scan(items: &[ScanItem]) -> Vec<ScanResult> {
        items
            .iter()
            .map(|item| ScanResult {
                verdict: Verdict::Allow,
                text: item.text.clone(),
                findings: Vec::new(),
                reason: None,
            })
            .collect()
    }

    /// Scores each candidate for this turn; one result per candidate. By default only the
    /// host's lexical score counts, squashed into 0..1.
    ///
    /// The candidates are borrowed from the batch the host sent: reading them allocates
    /// nothing (see [`Candidates`]).
    fn score(_context: &Context, candidates: Candidates<'_>) -> Vec<ScoreParts> {
        candidates
            .iter()
            .map(|c| {
                let lexical = c.lexical_score.max(0.0) / (1.0 + c.lexical_score.max(0.0));
                ScoreParts {
                    anchor: 0.0,
                    lexical,
                    confidence: c.confidence.clamp(0.0, 1.0),
                    recency: 0.0,
                    total: lexical,
                }
            })
            .collect()
    }

    /// Chooses what enters the prompt and renders the snapshot. By default: the candidates in
    /// order of [`score`](Policy::score), within the quotas, the token budget and the snapshot
    /// size, rendered as one line each under a heading per scope, each memory's text quoted as
    /// data after its id and provenance ([`crate::spotlight`]).
    fn select(context: &Context, candidates: Candidates<'_>, limits: &Limits) -> Selection {
        let scores = Self::score(context, candidates);
        let score_of = |i: usize| scores.get(i).copied().unwrap_or_default();
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| {
            score_of(b)
                .total
                .total_cmp(&score_of(a).total)
                .then(candidates.id(a).cmp(&candidates.id(b)))
        });
        let mut selection = Selection::default();
        let (mut local, mut global, mut tokens) = (0u32, 0u32, 0u32);
        let mut lines: Vec<(Section, String)> = Vec::new();
        for (i, c) in order
            .into_iter()
            .filter_map(|i| Some((i, candidates.get(i)?)))
        {
            let score = score_of(i);
            let line = format!(
                "- [#{} {}] {OPEN}{}{CLOSE}\n",
                c.id,
                provenance(c.author, c.badge),
                data_text(c.text)
            );
            let cost = estimate_tokens(&line);
            let section = match c.scope {
                crate::types::Scope::Local => Section::Local,
                crate::types::Scope::Global => Section::Global,
            };
            let quota_full = match section {
                Section::Local => local >= limits.local_quota,
                _ => global >= limits.global_quota,
            };
            let bytes: usize = lines.iter().map(|(_, l)| l.len()).sum::<usize>() + line.len() + 64;
            let reason = if quota_full {
                Some(RejectReason::Quota)
            } else if tokens + cost > limits.token_budget
                || bytes > limits.max_snapshot_bytes as usize
            {
                Some(RejectReason::Budget)
            } else {
                None
            };
            match reason {
                Some(reason) => selection.rejected.push(Rejected {
                    id: c.id,
                    reason,
                    score,
                }),
                None => {
                    if section == Section::Local {
                        local += 1;
                    } else {
                        global += 1;
                    }
                    tokens += cost;
                    selection.chosen.push(crate::types::Chosen {
                        id: c.id,
                        section,
                        score,
                    });
                    lines.push((section, line));
                }
            }
        }
        let mut snapshot = String::new();
        for (heading, section) in [
            ("## Global\n", Section::Global),
            ("## Local\n", Section::Local),
        ] {
            if lines.iter().any(|(s, _)| *s == section) {
                snapshot.push_str(heading);
                for (_, line) in lines.iter().filter(|(s, _)| *s == section) {
                    snapshot.push_str(line);
                }
            }
        }
        selection.snapshot_tokens = estimate_tokens(&snapshot);
        selection.snapshot = snapshot;
        selection
    }

    /// Plans a consolidation of one subject's memories at `now`. By default nothing changes.
    fn consolidate(
        _now: i64,
        _memories: &[StoredMemory],
        _retention: &Retention,
    ) -> ConsolidationPlan {
        ConsolidationPlan::default()
    }
}

/// A simple token estimate: one token per four bytes, rounded up.
pub fn estimate_tokens(text: &str) -> u32 {
    u32::try_from(text.len().div_ceil(4)).unwrap_or(u32::MAX)
}
