//! The host's checks on every policy answer. A policy may be buggy or hostile; nothing it
//! returns is acted on before these pass.

use std::collections::HashSet;

use kenning_contract::types::{
    Candidate, ConsolidationPlan, Context, FieldError, Limits, PolicyInfo, Retention, ScanItem,
    ScanResult, Scope, ScoreParts, Selection, StoredMemory, ValidatedCall, Verdict,
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

/// Whether `text` is one JSON object, read through without building it: the guard checks
/// every validated call, an import's every record.
fn is_json_object(text: &str) -> bool {
    struct Object;
    impl<'de> serde::de::Visitor<'de> for Object {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            use serde::de::IgnoredAny;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(())
        }
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    serde::Deserializer::deserialize_map(&mut reader, Object).is_ok() && reader.end().is_ok()
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
            Ok(call) if !is_json_object(&call.args_json) => {
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
                Verdict::Block | Verdict::Hold
                    if result.reason.as_deref().is_none_or(str::is_empty) =>
                {
                    return Err(self.bad(
                        "scan",
                        format!("item {index}: {:?} without a reason", result.verdict),
                    ));
                }
                Verdict::Hold if result.text.is_empty() && input_len > 0 => {
                    return Err(
                        self.bad("scan", format!("item {index}: held but returned no text"))
                    );
                }
                Verdict::Redact | Verdict::Hold
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
        for result in &results {
            crate::metrics::scan_verdict(result.verdict);
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

    fn consolidate(
        &self,
        now: i64,
        memories: &[StoredMemory],
        retention: &Retention,
    ) -> Result<ConsolidationPlan, PolicyError> {
        let plan = self.inner.consolidate(now, memories, retention)?;
        check_plan(memories, &plan).map_err(|problem| self.bad("consolidate", problem))?;
        Ok(plan)
    }
}

/// Longest reason a consolidation step may give, in bytes.
pub const MAX_REASON_BYTES: usize = 1024;

/// Checks a consolidation plan against the memories it was made from: every id is one of
/// them, no memory appears in two steps (or twice in one), a merge keeps one memory and folds
/// at least one other into it, nothing supersedes itself, and every step says why in at most
/// [`MAX_REASON_BYTES`].
pub(crate) fn check_plan(
    memories: &[StoredMemory],
    plan: &ConsolidationPlan,
) -> Result<(), String> {
    let offered: HashSet<u64> = memories.iter().map(|m| m.id).collect();
    let mut used = HashSet::new();
    let mut claim = |id: u64, step: &str| -> Result<(), String> {
        if !offered.contains(&id) {
            return Err(format!("{step} names memory {id}, which was not offered"));
        }
        if !used.insert(id) {
            return Err(format!(
                "{step} names memory {id}, which another step already names"
            ));
        }
        Ok(())
    };
    let reason_ok = |reason: &str, step: &str| -> Result<(), String> {
        if reason.trim().is_empty() {
            return Err(format!("{step} gives no reason"));
        }
        if reason.len() > MAX_REASON_BYTES {
            return Err(format!(
                "{step} gives a reason of {} bytes; the limit is {MAX_REASON_BYTES}",
                reason.len()
            ));
        }
        Ok(())
    };
    for merge in &plan.merges {
        let step = format!("a merge into {}", merge.keep);
        if merge.duplicates.is_empty() {
            return Err(format!("{step} folds nothing into it"));
        }
        claim(merge.keep, &step)?;
        for &id in &merge.duplicates {
            claim(id, &step)?;
        }
        reason_ok(&merge.reason, &step)?;
    }
    for s in &plan.supersessions {
        let step = format!("a supersession of {} by {}", s.older, s.newer);
        claim(s.older, &step)?;
        if s.newer == s.older {
            return Err(format!("{step} supersedes a memory by itself"));
        }
        if !offered.contains(&s.newer) {
            return Err(format!(
                "{step} names memory {}, which was not offered",
                s.newer
            ));
        }
        reason_ok(&s.reason, &step)?;
    }
    for e in &plan.expiries {
        let step = format!("the expiry of {}", e.id);
        claim(e.id, &step)?;
        reason_ok(&e.reason, &step)?;
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::{MAX_REASON_BYTES, check_plan, is_json_object};
    use kenning_contract::types::{
        ConsolidationPlan, Expiry, MemoryKind, Merge, Scope, StoredMemory, Supersession,
    };

    /// Memories 1, 2 and 3, as offered to `consolidate`.
    fn offered() -> Vec<StoredMemory> {
        (1..=3)
            .map(|id| StoredMemory {
                id,
                scope: Scope::Global,
                kind: MemoryKind::Fact,
                target: None,
                day: None,
                text: format!("note {id}"),
                tags: Vec::new(),
                confidence: 1.0,
                created_at: 0,
                updated_at: 0,
                anchors: Vec::new(),
                pending: false,
            })
            .collect()
    }

    fn merge(keep: u64, duplicates: &[u64], reason: &str) -> Merge {
        Merge {
            keep,
            duplicates: duplicates.to_vec(),
            reason: reason.to_owned(),
        }
    }

    fn supersession(newer: u64, older: u64) -> Supersession {
        Supersession {
            newer,
            older,
            reason: "newer".to_owned(),
        }
    }

    #[test]
    fn a_plan_naming_only_offered_memories_once_each_with_short_reasons_passes() {
        let plan = ConsolidationPlan {
            merges: vec![merge(1, &[2], &"r".repeat(MAX_REASON_BYTES))],
            supersessions: Vec::new(),
            expiries: vec![Expiry {
                id: 3,
                reason: "old".to_owned(),
            }],
        };
        assert_eq!(check_plan(&offered(), &plan), Ok(()));
    }

    #[test]
    fn a_plan_is_refused_for_a_memory_not_offered_in_any_role() {
        let refused = |plan: ConsolidationPlan| check_plan(&offered(), &plan).unwrap_err();
        assert_eq!(
            refused(ConsolidationPlan {
                merges: vec![merge(1, &[42], "alike")],
                ..ConsolidationPlan::default()
            }),
            "a merge into 1 names memory 42, which was not offered"
        );
        assert_eq!(
            refused(ConsolidationPlan {
                merges: vec![merge(42, &[1], "alike")],
                ..ConsolidationPlan::default()
            }),
            "a merge into 42 names memory 42, which was not offered"
        );
        assert_eq!(
            refused(ConsolidationPlan {
                supersessions: vec![supersession(42, 1)],
                ..ConsolidationPlan::default()
            }),
            "a supersession of 1 by 42 names memory 42, which was not offered"
        );
        assert_eq!(
            refused(ConsolidationPlan {
                expiries: vec![Expiry {
                    id: 42,
                    reason: "old".to_owned()
                }],
                ..ConsolidationPlan::default()
            }),
            "the expiry of 42 names memory 42, which was not offered"
        );
    }

    #[test]
    fn a_plan_is_refused_for_a_memory_in_two_steps_or_twice_in_one() {
        let refused = |plan: ConsolidationPlan| check_plan(&offered(), &plan).unwrap_err();
        assert_eq!(
            refused(ConsolidationPlan {
                merges: vec![merge(1, &[2], "alike")],
                supersessions: vec![supersession(3, 2)],
                ..ConsolidationPlan::default()
            }),
            "a supersession of 2 by 3 names memory 2, which another step already names"
        );
        assert_eq!(
            refused(ConsolidationPlan {
                supersessions: vec![supersession(3, 1)],
                expiries: vec![Expiry {
                    id: 1,
                    reason: "old".to_owned()
                }],
                ..ConsolidationPlan::default()
            }),
            "the expiry of 1 names memory 1, which another step already names"
        );
        assert_eq!(
            refused(ConsolidationPlan {
                merges: vec![merge(1, &[2, 2], "alike")],
                ..ConsolidationPlan::default()
            }),
            "a merge into 1 names memory 2, which another step already names"
        );
    }

    #[test]
    fn a_plan_is_refused_for_a_reason_over_1_kib_or_none() {
        let refused = |reason: &str| {
            check_plan(
                &offered(),
                &ConsolidationPlan {
                    merges: vec![merge(1, &[2], reason)],
                    ..ConsolidationPlan::default()
                },
            )
            .unwrap_err()
        };
        assert_eq!(MAX_REASON_BYTES, 1024, "the README's 1 KiB");
        assert_eq!(
            refused(&"r".repeat(1025)),
            "a merge into 1 gives a reason of 1025 bytes; the limit is 1024"
        );
        // Bytes, not characters: 342 three-byte characters are 1026 bytes.
        assert_eq!(
            refused(&"\u{20ac}".repeat(342)),
            "a merge into 1 gives a reason of 1026 bytes; the limit is 1024"
        );
        assert_eq!(refused(" \n"), "a merge into 1 gives no reason");
    }

    #[test]
    fn only_one_whole_json_object_counts_as_an_object() {
        assert!(is_json_object(
            r#"{"text": "a", "anchors": [{"kind": "address"}], "n": 1.5}"#
        ));
        assert!(is_json_object(" {} "));
        for not_one in [
            "[]",
            "\"{}\"",
            "null",
            "{} {}",
            "{\"a\": 1} trailing",
            "{\"a\": }",
            "{\"a\": 1",
            "",
        ] {
            assert!(!is_json_object(not_one), "{not_one:?}");
        }
    }
}
