//! Sharing between subjects (the reverse-engineering seed's linked databases): confirmed
//! findings of one subject are copied into another as INBOUND-PENDING, awaiting review there.
//!
//! - **Gate.** The source's `share_confirmed_findings` setting decides: `off` refuses,
//!   `ask` needs the caller's confirmation (the CLI's `--yes`), `on` shares without asking.
//!   A source whose recall is off (memory switched off) is not read, to share or otherwise,
//!   and a destination whose writes are off takes nothing: off means off at both ends.
//! - **What.** Only confirmed findings: active memories with an accepted badge (NATIVE or
//!   FOREIGN). A suggestion awaiting review, a forgotten or superseded memory, or an id that
//!   does not exist refuses the whole share, naming the id.
//! - **How.** The copies keep text, scope, type, profile target and day, tags, categories,
//!   confidence and anchors, and are written by a peer: INBOUND-PENDING, so a reviewer of the
//!   destination accepts them (they become FOREIGN, [`crate::provenance`]) or rejects them, and
//!   a peer's copy never replaces a native memory. Each text passes the destination's scan
//!   again (redacted or refused). A copy whose text and placement the destination already
//!   holds is skipped. All copies are written in one transaction of the destination, each with
//!   a `share` audit event naming its origin (subject, id, content hash).

use kenning_contract::types::{ScanItem, Target};
use schemars::JsonSchema;
use serde::Serialize;

use super::{Scanned, Service};
use crate::error::{KenningError, Result};
use crate::settings::ShareMode;
use crate::store::Placement;
use crate::store::{Author, Badge, Event, NewMemory, Status, content_hash};
use crate::subject::Subject;

/// Most memories one share copies.
pub const MAX_SHARED: usize = 1_000;

/// One memory shared, or skipped as already there.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SharedMemory {
    /// Its id in the source.
    pub from_id: u64,
    /// The copy's id in the destination (the existing memory's, for a duplicate).
    pub to_id: u64,
    /// `shared`, or `duplicate` when the destination already held it.
    pub outcome: &'static str,
    /// Kinds of secrets the destination's scan redacted from the copy.
    pub redacted: Vec<String>,
}

/// What a share did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ShareReport {
    /// The source subject.
    pub from: String,
    /// The destination subject.
    pub to: String,
    /// Each memory asked for, in order.
    pub memories: Vec<SharedMemory>,
}

impl Service {
    /// Shares the memories `ids` of `from` into `to` (see the module docs); `confirmed` is the
    /// caller's confirmation that the `ask` setting asks for.
    pub fn share(
        &self,
        from: &Subject,
        to: &Subject,
        ids: &[u64],
        confirmed: bool,
    ) -> Result<ShareReport> {
        if from.file_name() == to.file_name() {
            return Err(KenningError::Usage(format!(
                "{from} is both the source and the destination"
            )));
        }
        if ids.is_empty() || ids.len() > MAX_SHARED {
            return Err(KenningError::Usage(format!(
                "share 1 to {MAX_SHARED} memories at a time (got {})",
                ids.len()
            )));
        }
        let source = self.open_existing(from)?;
        let settings = source.settings(None)?;
        if !settings.allow_recall {
            return Err(KenningError::Forbidden(format!(
                "memory is off for {from} (setting allow_recall = false): nothing is read from it to share"
            )));
        }
        match settings.share_confirmed_findings {
            ShareMode::Off => {
                return Err(KenningError::Forbidden(format!(
                    "sharing is off for {from} (setting share_confirmed_findings)"
                )));
            }
            ShareMode::Ask if !confirmed => {
                return Err(KenningError::Forbidden(format!(
                    "sharing from {from} asks for confirmation each time (setting share_confirmed_findings = ask): confirm it"
                )));
            }
            ShareMode::Ask | ShareMode::On => {}
        }
        let found = source.get_many(ids)?;
        drop(source);
        let mut memories = Vec::with_capacity(ids.len());
        for &id in ids {
            let memory =
                found
                    .iter()
                    .find(|m| m.id == id)
                    .ok_or_else(|| KenningError::NoSuchMemory {
                        id,
                        subject: from.to_string(),
                    })?;
            if memory.status != Status::Active
                || !matches!(memory.badge, Badge::Native | Badge::Foreign)
            {
                return Err(KenningError::Forbidden(format!(
                    "memory {id} of {from} is not a confirmed finding (it is {}, {}): only active, accepted memories are shared",
                    memory.status,
                    memory.badge.label()
                )));
            }
            memories.push(memory);
        }
        let items: Vec<ScanItem> = memories
            .iter()
            .map(|m| ScanItem {
                text: m.text.clone(),
                target: Target::Memory,
                author: Author::Peer,
            })
            .collect();
        let scanned = memories
            .iter()
            .zip(self.scan(&items)?)
            .map(|(memory, result)| {
                Scanned::of(&memory.text, result).map_err(|error| match error {
                    KenningError::Blocked { reason } => KenningError::Blocked {
                        reason: format!("memory {} of {from}: {reason}", memory.id),
                    },
                    other => other,
                })
            })
            .collect::<Result<Vec<Scanned>>>()?;
        let now = self.now();
        let origin = super::interchange::SubjectIdentity::of(from);
        let mut destination = self.open_for_write(to, None, true)?;
        let shared = destination.write(|tx| {
            let mut shared = Vec::with_capacity(memories.len());
            for (memory, result) in memories.iter().zip(&scanned) {
                // A copy keeps what the memory says, not the thread it was said in.
                let copy = NewMemory {
                    text: result.text.clone(),
                    author: Author::Peer,
                    thread: None,
                    ..NewMemory::from(*memory)
                };
                let placement = Placement {
                    scope: copy.scope,
                    profile: copy.target.map(|t| (t, copy.day.as_deref())),
                    anchors: &copy.anchors,
                };
                let redacted = result.redacted.clone();
                if let Some(existing) =
                    tx.find_active_duplicate(&content_hash(&copy.text), placement)?
                {
                    shared.push(SharedMemory {
                        from_id: memory.id,
                        to_id: existing,
                        outcome: "duplicate",
                        redacted,
                    });
                    continue;
                }
                let mut detail = serde_json::json!({
                    "from": origin,
                    "from_id": memory.id,
                    "from_hash": memory.content_hash,
                });
                if let Some(note) = result.detail(None) {
                    detail["scan"] = note.into();
                }
                let detail = detail.to_string();
                let to_id = tx.insert_memory(
                    &copy,
                    result.badge(Badge::InboundPending),
                    now,
                    &Event {
                        actor: Author::Peer.as_str(),
                        action: "share",
                        before_hash: None,
                        after_hash: None,
                        detail: Some(&detail),
                    },
                )?;
                shared.push(SharedMemory {
                    from_id: memory.id,
                    to_id,
                    outcome: "shared",
                    redacted,
                });
            }
            Ok(shared)
        })?;
        Ok(ShareReport {
            from: from.to_string(),
            to: to.to_string(),
            memories: shared,
        })
    }
}
