//! Maintenance: retention and index upkeep, run on demand (`kenning maintain`) and by the
//! server once every [`MaintenanceConfig::interval_hours`].
//!
//! - **Retention.** Which memories are past their time is the policy's decision: the
//!   expiries of its `consolidate` plan (suggestions awaiting review longer than
//!   `suggestion_ttl_days`, daily notes older than `daily_retention_days`), checked by the
//!   host as [`Service::dream_plan`] checks them. Maintenance applies only those expiries,
//!   never a merge or a supersession (that is consolidation's, previewed and confirmed).
//!   Suggestions are marked `forgotten`; daily notes are marked `forgotten`
//!   ([`DailyMode::Archive`], the default) or deleted ([`DailyMode::Delete`]). `USER.md` and
//!   `MEMORY.md` entries never expire. The whole run is one transaction, each change with
//!   its audit event, and the run is recorded (`meta` key `maintain.last_run` and a
//!   `maintain` event).
//! - **Index upkeep.** The full-text index grows a segment with every batch of writes, and
//!   every query reads each segment (a store of 10,000 memories written in one batch had 8;
//!   merged into one, a search took about a quarter less time). After its retention
//!   transaction a run merges the index into one segment, in a transaction of its own.
//!
//! The configuration is the `[maintenance]` table of the data directory's `kenning.toml`
//! ([`crate::config`]).

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Service;
use super::dream::{Prepared, StepMemory};
use crate::config::{DailyMode, MaintenanceConfig};
use crate::error::Result;
use crate::store::{Event, MemoryTarget, Reads, Status};
use crate::subject::Subject;

/// The `meta` key the last run is recorded under.
const LAST_RUN_KEY: &str = "maintain.last_run";

/// Who the audit events of maintenance name.
const ACTOR: &str = "maintain";

/// One memory a run expired.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Expired {
    /// The memory.
    pub memory: StepMemory,
    /// Why, in the policy's words.
    pub reason: String,
    /// `forgotten` (a suggestion, or an archived daily note) or `deleted`.
    pub outcome: &'static str,
}

/// What one run did (or, dry, would do) to one subject.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MaintenanceReport {
    /// The subject.
    pub subject: String,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// The active memories the policy considered.
    pub memories: usize,
    /// The memories past their retention.
    pub expired: Vec<Expired>,
    /// Full-text index segments before the run's merge, and after (equal on a dry run).
    pub index_segments: (u64, u64),
    /// Audit events written.
    pub events: usize,
}

/// The last run of maintenance on a subject.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MaintenanceRun {
    /// When, in seconds since the epoch.
    pub at: i64,
    /// Memories marked forgotten.
    pub forgotten: usize,
    /// Daily notes deleted.
    pub deleted: usize,
}

impl Service {
    /// The maintenance configuration in force.
    pub fn maintenance(&self) -> &MaintenanceConfig {
        &self.config.maintenance
    }

    /// Runs maintenance on the subject (see the module docs); with `dry_run`, reports what a
    /// run would expire and writes nothing.
    pub fn maintain(&self, subject: &Subject, dry_run: bool) -> Result<MaintenanceReport> {
        let now = self.now();
        if dry_run {
            let kb = self.open_existing(subject)?;
            let (prepared, segments, expired) = kb.read(|store| {
                let prepared = self.prepare(store, now)?;
                let (expired, _) = self.expired(store, &prepared, now)?;
                Ok((prepared, store.index_segments()?, expired))
            })?;
            return Ok(MaintenanceReport {
                subject: subject.to_string(),
                dry_run,
                memories: prepared.considered,
                expired,
                index_segments: (segments, segments),
                events: 0,
            });
        }
        let mut kb = self.open_for_write(subject, None, false)?;
        let (memories, expired, events) = super::forgetting(&mut kb, |tx| {
            let prepared = self.prepare(tx, now)?;
            let (expired, rejected) = self.expired(tx, &prepared, now)?;
            let mut events = 0;
            for step in &expired {
                let id = step.memory.id;
                let detail = serde_json::json!({"reason": step.reason}).to_string();
                let (action, hash) = match (prepared.by_id.get(&id), rejected.get(&id)) {
                    (Some(memory), _) if step.outcome == "deleted" => {
                        tx.delete_memory(id)?;
                        ("delete", &memory.content_hash)
                    }
                    // A suggestion nobody accepted: retention removes it for good.
                    (Some(memory), _) if memory.badge.is_quarantined() => {
                        tx.forget(id, now)?;
                        ("expire", &memory.content_hash)
                    }
                    (Some(memory), _) => {
                        tx.set_status(id, Status::Forgotten, now)?;
                        ("expire", &memory.content_hash)
                    }
                    // A rejected proposal: gone from its row and the index, as a forget.
                    (None, Some(hash)) => {
                        tx.forget(id, now)?;
                        ("expire", hash)
                    }
                    (None, None) => continue,
                };
                // A deleted memory's event keeps its id and content hash.
                tx.append_event(
                    Some(id),
                    now,
                    &Event {
                        actor: ACTOR,
                        action,
                        before_hash: Some(hash),
                        after_hash: None,
                        detail: Some(&detail),
                    },
                )?;
                events += 1;
            }
            let deleted = expired.iter().filter(|e| e.outcome == "deleted").count();
            let run = MaintenanceRun {
                at: now,
                forgotten: expired.len() - deleted,
                deleted,
            };
            let record = serde_json::to_string(&run).expect("a run serialises");
            tx.record_job_run(now, ACTOR, "maintain", Some(LAST_RUN_KEY), &record)?;
            Ok((prepared.considered, expired, events + 1))
        })?;
        // The retention transaction has committed: a failure from here on is the index's.
        let index_segments = kb.merge_index()?;
        Ok(MaintenanceReport {
            subject: subject.to_string(),
            dry_run,
            memories,
            expired,
            index_segments,
            events,
        })
    }

    /// Runs maintenance on every subject whose last run is [`MaintenanceConfig::interval_hours`]
    /// old or older (or that never had one), one after another; returns each subject's report
    /// or error (an error alone when the subjects cannot be listed). The server calls it on
    /// its schedule.
    pub fn maintain_due(&self) -> Result<Vec<(Subject, Result<MaintenanceReport>)>> {
        let due_before = self.now() - i64::from(self.config.maintenance.interval_hours) * 3600;
        Ok(self
            .subjects()?
            .into_iter()
            .filter(|subject| {
                self.last_maintenance(subject)
                    .map(|run| run.is_none_or(|run| run.at <= due_before))
                    .unwrap_or(true)
            })
            .map(|subject| {
                let report = self.maintain(&subject, false);
                (subject, report)
            })
            .collect())
    }

    /// The last maintenance run recorded for the subject, if any.
    pub fn last_maintenance(&self, subject: &Subject) -> Result<Option<MaintenanceRun>> {
        let kb = self.open_existing(subject)?;
        let value = kb.read(|store| store.meta_value(LAST_RUN_KEY))?;
        Ok(value.and_then(|v| serde_json::from_str(&v).ok()))
    }

    /// The plan's expiries, each with what becomes of it under the configured daily mode, then
    /// the rejected proposals decided `suggestion_ttl_days` ago or earlier: retention removes
    /// them (their text is read on the review routes until then, never elsewhere).
    ///
    /// With them, the rejected proposals' content hashes by id, for their audit events.
    fn expired(
        &self,
        store: &dyn Reads,
        prepared: &Prepared,
        now: i64,
    ) -> Result<(Vec<Expired>, HashMap<u64, String>)> {
        let mut expired = self.expired_in_plan(store, prepared)?;
        let days = self.config.maintenance.suggestion_ttl_days;
        let cutoff = now.saturating_sub(i64::from(days) * 86_400);
        let rejected: HashMap<u64, String> = store.rejected_before(cutoff)?.into_iter().collect();
        for &id in rejected.keys() {
            expired.push(Expired {
                memory: StepMemory {
                    id,
                    preview: String::new(),
                },
                reason: format!("a proposal rejected {days} days ago or more"),
                outcome: "forgotten",
            });
        }
        // Oldest first, as the store lists them.
        expired[prepared.plan.expiries.len()..].sort_by_key(|e| e.memory.id);
        Ok((expired, rejected))
    }

    /// The plan's expiries, each with what becomes of it under the configured daily mode.
    fn expired_in_plan(&self, store: &dyn Reads, prepared: &Prepared) -> Result<Vec<Expired>> {
        let mut expired = Vec::with_capacity(prepared.plan.expiries.len());
        for expiry in &prepared.plan.expiries {
            let memory = &prepared.by_id[&expiry.id];
            let delete = self.config.maintenance.daily_mode == DailyMode::Delete
                && memory.target == Some(MemoryTarget::Daily)
                && !store.is_superseded_by_another(memory.id)?;
            expired.push(Expired {
                memory: StepMemory::of(memory),
                reason: expiry.reason.clone(),
                outcome: if delete { "deleted" } else { "forgotten" },
            });
        }
        Ok(expired)
    }
}
