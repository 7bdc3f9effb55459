//! The host's checks on every policy answer. A policy may be buggy or hostile; nothing it
//! returns is acted on before these pass.

use std::collections::HashSet;

use kenning_policy::types::{
    Candidate, Context, FieldError, Limits, PolicyInfo, ScanItem, ScanResult, Scope, ScoreParts,
    Selection, ValidatedCall, Verdict,
};

use super::Policy;
use crate::error::PolicyError;

/// Most bytes a redacted text may grow by for each finding (the replacement marker).
const REDACTION_GROWTH_PER_FINDING: usize = 128;

/// Wraps a policy and refuses answers that break the contract.
pub struct Guarded<P> {
    inner: P,
}

impl<P: Policy> Guarded<P> {
    /// Guards `inner`.
    pub fn new(inner: P) -> Self {
        Guarded { inner }
    }

    /// The guarded policy.
    pub fn inner(&self) -> &P {
        &self.inner
    }

    /// The guarded policy, mutably.
    pub fn inner_mut(&mut self) -> &mut P {
        &mut self.inner
    }

    fn bad(&self, call: &'static str, problem: String) -> PolicyError {
        PolicyError::BadAnswer {
            policy: self.inner.info().name.clone(),
            call,
            problem,
        }
    }
}

impl<P: Policy> Policy for Guarded<P> {
    fn info(&self) -> &PolicyInfo {
        self.inner.info()
    }

    fn validate(
        &self,
        tool: &str,
        args_json: &str,
    ) -> Result<Result<ValidatedCall, Vec<FieldError>>, PolicyError> {
        let answer = self.inner.validate(tool, args_json)?;
        match &answer {
            Ok(call) if call.tool != tool => {
                return Err(self.bad(
                    "validate",
                    format!("validated {:?} when asked for {tool:?}", call.tool),
                ));
            }
            Ok(call)
                if !matches!(
                    serde_json::from_str::<serde_json::Value>(&call.args_json),
                    Ok(serde_json::Value::Object(_))
                ) =>
            {
                return Err(self.bad(
                    "validate",
                    "normalized arguments are not a JSON object".to_owned(),
                ));
            }
            Err(errors) if errors.is_empty() => {
                return Err(self.bad(
                    "validate",
                    "rejected the call without naming an error".to_owned(),
                ));
            }
            _ => {}
        }
        Ok(answer)
    }

    fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>, PolicyError> {
        let results = self.inner.scan(items)?;
        if results.len() != items.len() {
            return Err(self.bad(
                "scan",
                format!("{} results for {} items", results.len(), items.len()),
            ));
        }
        for (index, (item, result)) in items.iter().zip(&results).enumerate() {
            let input_len = item.text.len();
            for finding in &result.findings {
                if finding.start > finding.end || finding.end as usize > input_len {
                    return Err(self.bad(
                        "scan",
                        format!(
                            "item {index}: finding {}..{} outside the {input_len}-byte text",
                            finding.start, finding.end
                        ),
                    ));
                }
            }
            match result.verdict {
                Verdict::Allow if result.text != item.text => {
                    return Err(self.bad(
                        "scan",
                        format!("item {index}: allowed but changed the text"),
                    ));
                }
                Verdict::Block if !result.text.is_empty() => {
                    return Err(
                        self.bad("scan", format!("item {index}: blocked but returned text"))
                    );
                }
                Verdict::Block if result.reason.as_deref().is_none_or(str::is_empty) => {
                    return Err(self.bad("scan", format!("item {index}: blocked without a reason")));
                }
                Verdict::Redact
                    if result.text.len()
                        > input_len
                            + REDACTION_GROWTH_PER_FINDING * result.findings.len().max(1) =>
                {
                    return Err(
                        self.bad("scan", format!("item {index}: redacted text grew too much"))
                    );
                }
                _ => {}
            }
        }
        Ok(results)
    }

    fn score(
        &self,
        context: &Context,
        candidates: &[Candidate],
    ) -> Result<Vec<ScoreParts>, PolicyError> {
        let scores = self.inner.score(context, candidates)?;
        if scores.len() != candidates.len() {
            return Err(self.bad(
                "score",
                format!(
                    "{} scores for {} candidates",
                    scores.len(),
                    candidates.len()
                ),
            ));
        }
        if let Some(index) = scores.iter().position(|s| !s.total.is_finite()) {
            return Err(self.bad("score", format!("score {index} is not a finite number")));
        }
        Ok(scores)
    }

    fn select(
        &self,
        context: &Context,
        candidates: &[Candidate],
        limits: &Limits,
    ) -> Result<Selection, PolicyError> {
        let selection = self.inner.select(context, candidates, limits)?;
        check_selection(candidates, limits, &selection)
            .map_err(|problem| self.bad("select", problem))?;
        Ok(selection)
    }
}

/// Checks a selection against the candidates it was made from and the limits it had to respect.
pub(crate) fn check_selection(
    candidates: &[Candidate],
    limits: &Limits,
    selection: &Selection,
) -> Result<(), String> {
    let scopes: std::collections::HashMap<u64, Scope> =
        candidates.iter().map(|c| (c.id, c.scope)).collect();
    let mut seen = HashSet::new();
    let (mut local, mut global) = (0u32, 0u32);
    for chosen in &selection.chosen {
        let Some(scope) = scopes.get(&chosen.id) else {
            return Err(format!("chose id {} which was not a candidate", chosen.id));
        };
        if !seen.insert(chosen.id) {
            return Err(format!("chose id {} twice", chosen.id));
        }
        match scope {
            Scope::Local => local += 1,
            Scope::Global => global += 1,
        }
    }
    if local > limits.local_quota {
        return Err(format!(
            "chose {local} local memories; the quota is {}",
            limits.local_quota
        ));
    }
    if global > limits.global_quota {
        return Err(format!(
            "chose {global} global memories; the quota is {}",
            limits.global_quota
        ));
    }
    for rejected in &selection.rejected {
        if !scopes.contains_key(&rejected.id) {
            return Err(format!(
                "rejected id {} which was not a candidate",
                rejected.id
            ));
        }
    }
    if selection.snapshot.len() > limits.max_snapshot_bytes as usize {
        return Err(format!(
            "snapshot is {} bytes; the limit is {}",
            selection.snapshot.len(),
            limits.max_snapshot_bytes
        ));
    }
    Ok(())
}
