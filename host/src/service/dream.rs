//! Consolidation ("AutoDream"): the policy's `consolidate` duty plans which memories repeat
//! each other, which a newer one contradicts and which are past their retention; the host
//! previews the plan, then applies exactly the plan that was previewed.
//!
//! - [`Service::dream_plan`] reads the subject's active memories, asks the policy for a plan,
//!   checks it, and names it by a hash of the memories it was made from and of its steps. It
//!   writes nothing.
//! - [`Service::dream_execute`] does the same again under the write lock and applies the plan
//!   only when its hash is the one previewed: a memory written, changed or forgotten in
//!   between, or a day passing that expires another note, changes the hash and the run is
//!   refused ([`KenningError::StalePlan`]). The whole run is one transaction: duplicates and
//!   contradicted memories become `superseded`, expired ones `forgotten` (nothing is deleted),
//!   each change with its audit event, and the run itself is recorded (in the store's `meta`
//!   table, for the threshold, and as a `dream` audit event).
//!
//! The host never trusts the plan. The answer guard ([`crate::policy::Guarded`]) already
//! refuses ids that were not offered, a memory in two steps and missing or oversized reasons;
//! here the provenance rules ([`provenance::may_consolidate`]) keep suggestions awaiting review
//! out of merges and supersessions and a peer's memory from replacing a native one, only
//! suggestions and daily notes may expire, and every reason passes the safety scan before it
//! enters the audit log.
//!
//! Thresholds: a run is refused within [`DEFAULT_MIN_HOURS`] (configurable) of the last
//! successful one, or before `min_turns` user turns (counted by [`Service::record_turn`]) have
//! passed since it, unless forced.

use std::collections::HashMap;

use kenning_contract::types::{ConsolidationPlan, StoredMemory, Target};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Service;
use super::background_review::total_turns;
use crate::error::{KenningError, PolicyError, Result};
use crate::provenance;
use crate::store::{Author, Event, Memory, MemoryTarget, Reads, Status, Writes};
use crate::subject::Subject;

/// Least hours between two consolidations of one subject, unless configured or forced.
pub const DEFAULT_MIN_HOURS: u32 = 24;

/// Most active memories one consolidation considers; a larger subject is refused.
pub const MAX_DREAM_MEMORIES: usize = 50_000;

/// The `meta` key the last successful run is recorded under.
const LAST_RUN_KEY: &str = "dream.last_run";

/// Who the audit events of a consolidation name.
const ACTOR: &str = "dream";

/// Most characters of a memory's text a step shows.
const PREVIEW_CHARS: usize = 100;

/// How a consolidation is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DreamRequest {
    /// Least hours since the last successful run.
    pub min_hours: u32,
    /// Least user turns (counted by [`Service::record_turn`]) since the last successful run.
    pub min_turns: u64,
    /// Run even within `min_hours` or `min_turns` of the last run.
    pub force: bool,
}

impl Default for DreamRequest {
    fn default() -> Self {
        DreamRequest {
            min_hours: DEFAULT_MIN_HOURS,
            min_turns: 0,
            force: false,
        }
    }
}

/// A successful consolidation, as recorded for the threshold and in its audit event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DreamRun {
    /// When it ran, in seconds since the epoch.
    pub at: i64,
    /// The hash of the plan it applied.
    pub plan_hash: String,
    /// Memories folded into another.
    pub merged: usize,
    /// Memories a newer one superseded.
    pub superseded: usize,
    /// Memories expired.
    pub expired: usize,
    /// User turns counted for the subject when it ran (0 in records older than the count).
    #[serde(default)]
    pub turns: u64,
}

/// A memory a step names: its id and the start of its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StepMemory {
    /// The memory's id.
    pub id: u64,
    /// The first characters of its text.
    pub preview: String,
}

impl StepMemory {
    /// The memory's id and the start of its text.
    pub(super) fn of(memory: &Memory) -> StepMemory {
        StepMemory {
            id: memory.id,
            preview: preview(&memory.text),
        }
    }
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum DreamStep {
    /// Near-duplicates folded into the memory that stays; they become `superseded`.
    Merge {
        /// The memory that stays.
        keep: StepMemory,
        /// The memories folded into it.
        duplicates: Vec<StepMemory>,
        /// Why, as the policy put it.
        reason: String,
    },
    /// A newer memory contradicting an older one; the older becomes `superseded`.
    Supersede {
        /// The memory that stays.
        newer: StepMemory,
        /// The memory it replaces.
        older: StepMemory,
        /// Why, as the policy put it.
        reason: String,
    },
    /// A memory past its retention; it becomes `forgotten`.
    Expire {
        /// The memory.
        memory: StepMemory,
        /// Why, as the policy put it.
        reason: String,
    },
}

/// How many changes a plan makes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DreamCounts {
    /// Merge steps.
    pub merges: usize,
    /// Memories the merges fold into others.
    pub merged: usize,
    /// Memories a newer one supersedes.
    pub superseded: usize,
    /// Memories that expire.
    pub expired: usize,
}

impl DreamCounts {
    /// Memories the plan changes.
    pub fn changes(&self) -> usize {
        self.merged + self.superseded + self.expired
    }
}

/// A consolidation plan as previewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DreamPlan {
    /// The subject, as it was named.
    pub subject: String,
    /// The policy that made the plan.
    pub policy: String,
    /// SHA-256 (hex) of the memories the plan was made from and of its steps: what
    /// [`Service::dream_execute`] must be given to apply it.
    pub plan_hash: String,
    /// Active memories considered.
    pub memories: usize,
    /// How many changes the plan makes.
    pub counts: DreamCounts,
    /// The steps, merges first, then supersessions, then expiries.
    pub steps: Vec<DreamStep>,
    /// The last successful run, if any.
    pub last_run: Option<DreamRun>,
    /// Whether the thresholds let a run happen now (without forcing it).
    pub due: bool,
    /// When the hours threshold next lets a run happen, if not now.
    pub next_due_at: Option<i64>,
    /// User turns since the last successful run (all counted turns before the first run).
    pub turns_since_last_run: u64,
}

/// What [`Service::dream_execute`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DreamOutcome {
    /// The run as recorded.
    pub run: DreamRun,
    /// Audit events written: one per changed memory and one for the run.
    pub events: usize,
}

/// A plan checked against the memories it was made from, ready to preview or apply.
/// A checked plan, hashed, with the memories it was made from.
pub(super) struct Prepared {
    hash: String,
    /// The active memories the policy considered.
    pub(super) considered: usize,
    /// The plan, checked.
    pub(super) plan: ConsolidationPlan,
    /// The memories considered, by id.
    pub(super) by_id: HashMap<u64, Memory>,
}

impl Prepared {
    fn counts(&self) -> DreamCounts {
        DreamCounts {
            merges: self.plan.merges.len(),
            merged: self.plan.merges.iter().map(|m| m.duplicates.len()).sum(),
            superseded: self.plan.supersessions.len(),
            expired: self.plan.expiries.len(),
        }
    }

    fn step_memory(&self, id: u64) -> StepMemory {
        StepMemory::of(&self.by_id[&id])
    }

    fn steps(&self) -> Vec<DreamStep> {
        let merges = self.plan.merges.iter().map(|m| DreamStep::Merge {
            keep: self.step_memory(m.keep),
            duplicates: m.duplicates.iter().map(|&d| self.step_memory(d)).collect(),
            reason: m.reason.clone(),
        });
        let supersessions = self
            .plan
            .supersessions
            .iter()
            .map(|s| DreamStep::Supersede {
                newer: self.step_memory(s.newer),
                older: self.step_memory(s.older),
                reason: s.reason.clone(),
            });
        let expiries = self.plan.expiries.iter().map(|e| DreamStep::Expire {
            memory: self.step_memory(e.id),
            reason: e.reason.clone(),
        });
        merges.chain(supersessions).chain(expiries).collect()
    }
}

impl Service {
    /// Previews a consolidation of the subject: the policy's plan, checked, with its hash and
    /// whether the threshold lets it run now. Writes nothing.
    pub fn dream_plan(&self, subject: &Subject, request: DreamRequest) -> Result<DreamPlan> {
        let kb = self.open_existing(subject)?;
        let now = self.now();
        let (prepared, last_run, turns) = kb.read(|store| {
            Ok((
                self.prepare(store, now)?,
                last_run(store)?,
                total_turns(store)?,
            ))
        })?;
        let next_due_at = last_run
            .as_ref()
            .map(|run| run.at + i64::from(request.min_hours) * 3600)
            .filter(|&next| next > now);
        let turns_since_last_run = turns.saturating_sub(last_run.as_ref().map_or(0, |r| r.turns));
        Ok(DreamPlan {
            subject: subject.to_string(),
            policy: self.policy.info().name.clone(),
            plan_hash: prepared.hash.clone(),
            memories: prepared.considered,
            counts: prepared.counts(),
            steps: prepared.steps(),
            last_run,
            due: next_due_at.is_none() && turns_since_last_run >= request.min_turns,
            next_due_at,
            turns_since_last_run,
        })
    }

    /// Applies the plan [`Service::dream_plan`] previewed with hash `plan_hash`, in one
    /// transaction: refused, with nothing written, when the plan the store now gives has
    /// another hash ([`KenningError::StalePlan`]) or when the last run is too recent and the
    /// request does not force it ([`KenningError::TooSoon`]).
    pub fn dream_execute(
        &self,
        subject: &Subject,
        plan_hash: &str,
        request: DreamRequest,
    ) -> Result<DreamOutcome> {
        let mut kb = self.open_for_write(subject, None, false)?;
        let now = self.now();
        super::forgetting(&mut kb, |tx| {
            let turns = total_turns(tx)?;
            let last = last_run(tx)?;
            if !request.force
                && let Some(last) = &last
            {
                let next_at = last.at + i64::from(request.min_hours) * 3600;
                if now < next_at {
                    return Err(KenningError::TooSoon {
                        hours_ago: (now - last.at) / 3600,
                        min_hours: request.min_hours,
                        next_at,
                    });
                }
            }
            let turns_since = turns.saturating_sub(last.as_ref().map_or(0, |r| r.turns));
            if !request.force && turns_since < request.min_turns {
                return Err(KenningError::TooFewTurns {
                    turns: turns_since,
                    min_turns: request.min_turns,
                });
            }
            let prepared = self.prepare(tx, now)?;
            if prepared.hash != plan_hash {
                return Err(KenningError::StalePlan {
                    previewed: plan_hash.to_owned(),
                    now: prepared.hash,
                });
            }
            let events = apply(tx, &prepared, now)?;
            let counts = prepared.counts();
            let run = DreamRun {
                at: now,
                plan_hash: prepared.hash.clone(),
                merged: counts.merged,
                superseded: counts.superseded,
                expired: counts.expired,
                turns,
            };
            let record = serde_json::to_string(&run).expect("a run serialises");
            // Last, so that a failure anywhere before it leaves no record of a run.
            tx.record_job_run(now, ACTOR, "dream", Some(LAST_RUN_KEY), &record)?;
            Ok(DreamOutcome {
                run,
                events: events + 1,
            })
        })
    }

    /// Reads the active memories from `store`, asks the (guarded) policy for a plan, checks
    /// it against the provenance rules and scans its reasons, and hashes it.
    pub(super) fn prepare(&self, store: &dyn Reads, now: i64) -> Result<Prepared> {
        let memories = store.memories_in_order(true, MAX_DREAM_MEMORIES as u32 + 1)?;
        if memories.len() > MAX_DREAM_MEMORIES {
            return Err(KenningError::Usage(format!(
                "the subject has more than {MAX_DREAM_MEMORIES} active memories, more than one consolidation considers"
            )));
        }
        let stored: Vec<StoredMemory> = memories.iter().map(stored_memory).collect();
        let plan = self
            .policy
            .consolidate(now, &stored, &self.config.maintenance.retention())?;
        let by_id: HashMap<u64, Memory> = memories.into_iter().map(|m| (m.id, m)).collect();
        let mut plan = plan;
        withhold_peer_over_native(&mut plan, &by_id);
        check_provenance(&plan, &by_id).map_err(|problem| {
            KenningError::Policy(PolicyError::BadAnswer {
                policy: self.policy.info().name.clone(),
                call: "consolidate",
                problem,
            })
        })?;
        let reasons: Vec<(String, String)> = plan
            .merges
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("merges[{i}].reason"), m.reason.clone()))
            .chain(
                plan.supersessions
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (format!("supersessions[{i}].reason"), s.reason.clone())),
            )
            .chain(
                plan.expiries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (format!("expiries[{i}].reason"), e.reason.clone())),
            )
            .collect();
        // The reasons are the policy's words, stored for the agent that runs consolidation.
        self.check_fields("consolidate", Author::Agent, &reasons)?;
        let hash = plan_hash(&stored, &by_id, &plan);
        Ok(Prepared {
            hash,
            considered: stored.len(),
            plan,
            by_id,
        })
    }
}

/// The hash naming a plan: SHA-256 over the state of every memory it was made from (id,
/// content hash, badge, last change) and over its steps, so that any write in between, or
/// another plan from the same memories, changes it.
fn plan_hash(
    stored: &[StoredMemory],
    by_id: &HashMap<u64, Memory>,
    plan: &ConsolidationPlan,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"kenning-dream/1\n");
    for m in stored {
        let memory = &by_id[&m.id];
        hasher.update(
            format!(
                "{} {} {} {}\n",
                memory.id, memory.content_hash, memory.badge, memory.updated_at
            )
            .as_bytes(),
        );
    }
    hasher.update(serde_json::to_vec(plan).expect("a plan serialises"));
    crate::hex::lower(&hasher.finalize())
}

/// Takes out of `plan` every step that would let a peer's memory (FOREIGN) replace a NATIVE
/// one. The policy cannot know (it is told only which memories await review), so such a step
/// is no bad answer: it is not taken, and the rest of the plan stands. A peer's or an import's
/// correction of a native memory that a human accepted stays beside it.
fn withhold_peer_over_native(plan: &mut ConsolidationPlan, by_id: &HashMap<u64, Memory>) {
    let peer_over_native =
        |survivor: u64, replaced: u64| match (by_id.get(&survivor), by_id.get(&replaced)) {
            (Some(s), Some(r)) => provenance::peer_over_native(s.badge, r.badge),
            _ => false,
        };
    for merge in &mut plan.merges {
        let keep = merge.keep;
        merge
            .duplicates
            .retain(|&duplicate| !peer_over_native(keep, duplicate));
    }
    plan.merges.retain(|merge| !merge.duplicates.is_empty());
    plan.supersessions
        .retain(|s| !peer_over_native(s.newer, s.older));
}

/// The provenance checks on a plan the guard has already checked for shape: merges and
/// supersessions only between accepted memories and never a peer's replacing a native one
/// ([`provenance::may_consolidate`]); only suggestions awaiting review and daily notes expire.
fn check_provenance(
    plan: &ConsolidationPlan,
    by_id: &HashMap<u64, Memory>,
) -> std::result::Result<(), String> {
    let pair = |survivor: u64, replaced: u64, step: &str| {
        let (s, r) = (&by_id[&survivor], &by_id[&replaced]);
        if provenance::may_consolidate(s.badge, r.badge) {
            Ok(())
        } else {
            Err(format!(
                "{step}: a {} memory ({survivor}) may not replace a {} one ({replaced})",
                s.badge, r.badge
            ))
        }
    };
    for merge in &plan.merges {
        for &duplicate in &merge.duplicates {
            pair(
                merge.keep,
                duplicate,
                &format!("a merge into {}", merge.keep),
            )?;
        }
    }
    for s in &plan.supersessions {
        pair(s.newer, s.older, &format!("a supersession of {}", s.older))?;
    }
    for e in &plan.expiries {
        let memory = &by_id[&e.id];
        if !memory.badge.is_quarantined() && memory.target != Some(MemoryTarget::Daily) {
            return Err(format!(
                "the expiry of {}: only suggestions awaiting review and daily notes expire",
                e.id
            ));
        }
    }
    Ok(())
}

/// Applies a checked plan inside the run's transaction; returns the audit events written.
fn apply(tx: &dyn Writes, prepared: &Prepared, now: i64) -> Result<usize> {
    let by_id = &prepared.by_id;
    let mut events = 0;
    let mut change = |id: u64,
                      status: Status,
                      action: &str,
                      after: Option<&str>,
                      detail: serde_json::Value|
     -> Result<()> {
        if status == Status::Forgotten && by_id[&id].badge.is_quarantined() {
            // A suggestion nobody accepted: retention removes it for good.
            tx.forget(id, now)?;
        } else {
            tx.set_status(id, status, now)?;
        }
        let detail = detail.to_string();
        tx.append_event(
            Some(id),
            now,
            &Event {
                actor: ACTOR,
                action,
                before_hash: Some(&by_id[&id].content_hash),
                after_hash: after,
                detail: Some(&detail),
            },
        )?;
        events += 1;
        Ok(())
    };
    let plan_hash = &prepared.hash;
    for merge in &prepared.plan.merges {
        for &duplicate in &merge.duplicates {
            change(
                duplicate,
                Status::Superseded,
                "merge",
                Some(&by_id[&merge.keep].content_hash),
                serde_json::json!({"into": merge.keep, "reason": merge.reason, "plan": plan_hash}),
            )?;
        }
    }
    for s in &prepared.plan.supersessions {
        change(
            s.older,
            Status::Superseded,
            "supersede",
            Some(&by_id[&s.newer].content_hash),
            serde_json::json!({"by": s.newer, "reason": s.reason, "plan": plan_hash}),
        )?;
        // The link a reviewed revision would leave, unless the newer memory already has one.
        if tx.supersedes(s.newer)?.is_none() {
            tx.set_supersedes(s.newer, s.older)?;
        }
    }
    for e in &prepared.plan.expiries {
        change(
            e.id,
            Status::Forgotten,
            "expire",
            None,
            serde_json::json!({"reason": e.reason, "plan": plan_hash}),
        )?;
    }
    Ok(events)
}

/// The last successful run recorded in the store, if any.
fn last_run(store: &dyn Reads) -> Result<Option<DreamRun>> {
    // A record this build cannot read counts as no run: the threshold then never blocks.
    Ok(store
        .meta_value(LAST_RUN_KEY)?
        .and_then(|v| serde_json::from_str(&v).ok()))
}

/// A stored memory as the policy's `consolidate` duty takes it.
fn stored_memory(m: &Memory) -> StoredMemory {
    StoredMemory {
        id: m.id,
        scope: m.scope,
        kind: m.kind,
        target: m.target.map(Target::from),
        day: m.day.clone(),
        text: m.text.clone(),
        tags: m.tags.clone(),
        confidence: m.confidence,
        created_at: m.created_at,
        updated_at: m.updated_at,
        anchors: m.anchors.clone(),
        pending: m.badge.is_quarantined(),
    }
}

/// The first [`PREVIEW_CHARS`] characters of `text`, whitespace collapsed.
fn preview(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}

#[cfg(test)]
mod tests {
    use kenning_contract::types::{Expiry, Merge, Supersession};

    use super::*;
    use crate::store::{Author, Badge, sample_memory};

    fn memories(badges: &[Badge]) -> HashMap<u64, Memory> {
        badges
            .iter()
            .enumerate()
            .map(|(i, &badge)| {
                let id = i as u64 + 1;
                (id, sample_memory(id, "note", Author::Human, badge))
            })
            .collect()
    }

    fn merge(keep: u64, duplicate: u64) -> ConsolidationPlan {
        ConsolidationPlan {
            merges: vec![Merge {
                keep,
                duplicates: vec![duplicate],
                reason: "alike".into(),
            }],
            ..ConsolidationPlan::default()
        }
    }

    #[test]
    fn a_plan_folding_a_suggestion_or_letting_a_peer_replace_a_native_memory_is_refused() {
        let by_id = memories(&[Badge::Native, Badge::Pending, Badge::Foreign, Badge::Native]);
        assert!(check_provenance(&merge(1, 4), &by_id).is_ok());
        assert!(check_provenance(&merge(4, 3), &by_id).is_ok());
        for (keep, folded) in [(1, 2), (2, 1)] {
            let problem = check_provenance(&merge(keep, folded), &by_id).unwrap_err();
            assert!(
                problem.contains("a merge into") && problem.contains("pending"),
                "{problem}"
            );
        }
        let peer_over_native = ConsolidationPlan {
            supersessions: vec![Supersession {
                newer: 3,
                older: 1,
                reason: "newer".into(),
            }],
            ..ConsolidationPlan::default()
        };
        let problem = check_provenance(&peer_over_native, &by_id).unwrap_err();
        assert!(problem.contains("foreign"), "{problem}");
    }

    #[test]
    fn only_suggestions_and_daily_notes_may_expire() {
        let mut by_id = memories(&[Badge::Native, Badge::Pending, Badge::Native]);
        by_id.get_mut(&3).unwrap().target = Some(MemoryTarget::Daily);
        let expire = |id| ConsolidationPlan {
            expiries: vec![Expiry {
                id,
                reason: "old".into(),
            }],
            ..ConsolidationPlan::default()
        };
        let problem = check_provenance(&expire(1), &by_id).unwrap_err();
        assert!(
            problem.contains("only suggestions awaiting review and daily notes expire"),
            "{problem}"
        );
        assert!(check_provenance(&expire(2), &by_id).is_ok());
        assert!(check_provenance(&expire(3), &by_id).is_ok());
    }

    #[test]
    fn the_plan_hash_follows_every_change_to_the_memories_it_was_made_from() {
        let by_id = memories(&[Badge::Native, Badge::Native]);
        let stored: Vec<StoredMemory> = (1..=2).map(|id| stored_memory(&by_id[&id])).collect();
        let plan = merge(1, 2);
        let hash = plan_hash(&stored, &by_id, &plan);
        assert_eq!(hash, plan_hash(&stored, &by_id, &plan), "deterministic");
        let mut touched = by_id.clone();
        touched.get_mut(&2).unwrap().updated_at += 1;
        assert_ne!(hash, plan_hash(&stored, &touched, &plan));
        assert_ne!(hash, plan_hash(&stored, &by_id, &merge(2, 1)));
    }
}
