//! The agent's tools: `remember`, `revise_memory`, `forget_memory`, `recall`, `memory` and
//! `context`. Each has a typed entry point (for embedders); [`Service::call`] runs any of them
//! from JSON (for interfaces that receive JSON), and both go through the policy's `validate`.

use kenning_contract::MAX_ARGS_BYTES;
use kenning_contract::args::{
    ForgetMemory, MemoryAction, MemoryEdit, MemoryTarget, Recall, RecallScope, Remember,
    ReviseMemory,
};
use kenning_contract::types::{
    Anchor, Context, FieldError, LiveFunction, MemoryKind, Scope, Target,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Scanned, Service, civil_date, in_thread};
use crate::api::{
    self, EditStatus, ForgetMemoryArgs, ForgetStatus, Forgotten, MemoryArgs, ProfileEdited,
    RecallArgs, Recalled, RecalledMemory, RememberArgs, Remembered, ReviseMemoryArgs, ReviseStatus,
    Revised, WriteStatus,
};
use crate::error::{KenningError, PolicyError, Result};
use crate::provenance::{self, EditRight};
use crate::store::Placement;
use crate::store::{
    self, Author, Badge, Event, KnowledgeStore, Memory, MemoryFilter, Metadata, NewMemory, Reads,
    Status, Writes, content_hash,
};
use crate::subject::Subject;

impl Service {
    /// Runs one tool call from its JSON arguments, exactly as an agent's call runs: validate,
    /// scan, apply. Returns the tool's result as JSON (the shapes of [`crate::api`]).
    pub fn call(
        &self,
        subject: &Subject,
        author: Author,
        tool: &str,
        args_json: &str,
    ) -> Result<Value> {
        // Record kinds (import records, extractions) have schemas too, but are no tool.
        let spec = api::tool(tool).ok_or_else(|| unknown_tool(tool))?;
        match spec.tool {
            api::Tool::Remember => {
                to_value(self.run_remember(subject, author, self.validated(tool, args_json)?, None))
            }
            api::Tool::ReviseMemory => {
                to_value(self.run_revise(subject, author, self.validated(tool, args_json)?, None))
            }
            api::Tool::ForgetMemory => {
                to_value(self.run_forget(subject, author, self.validated(tool, args_json)?))
            }
            api::Tool::Recall => {
                to_value(self.run_recall(subject, self.validated(tool, args_json)?.args))
            }
            api::Tool::Memory => {
                to_value(self.run_profile_edit(subject, author, self.validated(tool, args_json)?))
            }
            api::Tool::Context => {
                check_size(tool, args_json)?;
                to_value(self.context(subject, &parse_args(tool, args_json)?))
            }
            api::Tool::GetMemory => {
                check_size(tool, args_json)?;
                to_value(self.get_memory(subject, author, &parse_args(tool, args_json)?))
            }
            api::Tool::RecentMemories => {
                check_size(tool, args_json)?;
                to_value(self.recent_memories(subject, author, &parse_args(tool, args_json)?))
            }
            api::Tool::MemoryStats => {
                check_size(tool, args_json)?;
                let _: api::MemoryStatsArgs = parse_args(tool, args_json)?;
                to_value(self.memory_stats(subject))
            }
            api::Tool::Query => {
                check_size(tool, args_json)?;
                to_value(self.query(subject, author, &parse_args(tool, args_json)?))
            }
            api::Tool::QuerySchema => {
                check_size(tool, args_json)?;
                let _: crate::query::QuerySchemaArgs = parse_args(tool, args_json)?;
                to_value(Ok(self.query_schema()))
            }
            // Not in `api::TOOLS`: the servers run it through `record_turn_and_review`.
            api::Tool::Turn => Err(unknown_tool(tool)),
        }
    }

    /// Runs one `remember` call of a job that writes many (a batch, an extraction) and says
    /// what became of it. A refusal of this one memory (the scan, its arguments, its size) is
    /// an outcome, so the job goes on; any other error (writes disabled, the store) ends it.
    pub(super) fn remember_one(
        &self,
        subject: &Subject,
        author: Author,
        args_json: &str,
    ) -> Result<WriteOutcome> {
        match self.call(subject, author, "remember", args_json) {
            Ok(answer) => {
                let written: Remembered = serde_json::from_value(answer)
                    .map_err(|e| KenningError::Usage(format!("remember answered: {e}")))?;
                Ok(WriteOutcome {
                    outcome: match written.status {
                        WriteStatus::Accepted => "written",
                        WriteStatus::Pending => "pending",
                        WriteStatus::Duplicate => "duplicate",
                        WriteStatus::Rejected => "rejected",
                    },
                    id: Some(written.id),
                    detail: (!written.redacted.is_empty())
                        .then(|| format!("redacted: {}", written.redacted.join(", "))),
                })
            }
            Err(
                error @ (KenningError::Blocked { .. }
                | KenningError::Invalid { .. }
                | KenningError::TooLarge { .. }),
            ) => Ok(WriteOutcome {
                outcome: "refused",
                id: None,
                detail: Some(error.to_string()),
            }),
            Err(other) => Err(other),
        }
    }

    /// `remember`: stores a new memory.
    pub fn remember(
        &self,
        subject: &Subject,
        author: Author,
        args: &RememberArgs,
    ) -> Result<Remembered> {
        self.remember_with_metadata(subject, author, args, None)
    }

    /// `remember`, with free-form `metadata` kept beside the memory ([`crate::metadata`]):
    /// checked, and its strings scanned with the call's other short strings.
    pub fn remember_with_metadata(
        &self,
        subject: &Subject,
        author: Author,
        args: &RememberArgs,
        metadata: Option<Metadata>,
    ) -> Result<Remembered> {
        let mut canonical = self.validated("remember", &to_json(args))?;
        with_metadata("remember", &mut canonical, metadata.as_ref())?;
        self.run_remember(subject, author, canonical, metadata)
    }

    /// `revise_memory`: changes a memory, or proposes the change (see [`crate::provenance`]).
    pub fn revise_memory(
        &self,
        subject: &Subject,
        author: Author,
        args: &ReviseMemoryArgs,
    ) -> Result<Revised> {
        self.revise_memory_with_metadata(subject, author, args, None)
    }

    /// `revise_memory`, replacing the memory's free-form `metadata` when some is given (see
    /// [`Self::remember_with_metadata`]).
    pub fn revise_memory_with_metadata(
        &self,
        subject: &Subject,
        author: Author,
        args: &ReviseMemoryArgs,
        metadata: Option<Metadata>,
    ) -> Result<Revised> {
        let nothing_else = args.text.is_none()
            && args.kind.is_none()
            && args.anchors.is_none()
            && args.tags.is_none()
            && args.categories.is_none()
            && args.confidence.is_none();
        let mut args = args.clone();
        if metadata.is_some() && nothing_else {
            // A change of metadata alone: the policy validates a revision that keeps the
            // type, which the revision then applies under the write lock as usual.
            let current = self.memory(subject, Author::Human, args.id)?;
            args.kind = Some(current.kind);
        }
        let mut canonical = self.validated("revise_memory", &to_json(&args))?;
        with_metadata("revise_memory", &mut canonical, metadata.as_ref())?;
        self.run_revise(subject, author, canonical, metadata)
    }

    /// `forget_memory`: retires a memory; it stays in the audit trail.
    pub fn forget_memory(
        &self,
        subject: &Subject,
        author: Author,
        args: &ForgetMemoryArgs,
    ) -> Result<Forgotten> {
        let canonical = self.validated("forget_memory", &to_json(args))?;
        self.run_forget(subject, author, canonical)
    }

    /// `recall`: searches accepted memories.
    pub fn recall(&self, subject: &Subject, args: &RecallArgs) -> Result<Recalled> {
        let canonical = self.validated("recall", &to_json(args))?;
        self.run_recall(subject, canonical.args)
    }

    /// `memory`: edits a profile's USER.md, MEMORY.md or today's note.
    pub fn edit_profile(
        &self,
        subject: &Subject,
        author: Author,
        args: &MemoryArgs,
    ) -> Result<ProfileEdited> {
        let canonical = self.validated("memory", &to_json(args))?;
        self.run_profile_edit(subject, author, canonical)
    }

    /// Checks `args_json` with the policy and reads its canonical form back strictly (a
    /// policy is never trusted to answer in the host's schema). For a write, the raw short
    /// strings come along to be scanned with its text: the raw form, because the canonical
    /// one lowercases tags, which hides a secret's shape.
    fn validated<T: DeserializeOwned>(&self, tool: &str, args_json: &str) -> Result<Checked<T>> {
        check_size(tool, args_json)?;
        let call =
            self.policy
                .validate(tool, args_json)?
                .map_err(|errors| KenningError::Invalid {
                    tool: tool.to_owned(),
                    errors,
                })?;
        let args = serde_json::from_str(&call.args_json).map_err(|e| {
            KenningError::Policy(PolicyError::BadAnswer {
                policy: self.policy.info().name.clone(),
                call: "validate",
                problem: format!("canonical {tool} arguments do not match the host's schema: {e}"),
            })
        })?;
        let fields = if WRITES.contains(&tool) {
            super::string_fields(args_json, MEMORY_TEXT_FIELDS).unwrap_or_default()
        } else {
            Vec::new()
        };
        Ok(Checked { args, fields })
    }

    fn run_remember(
        &self,
        subject: &Subject,
        author: Author,
        Checked { args, fields }: Checked<Remember>,
        metadata: Option<Metadata>,
    ) -> Result<Remembered> {
        let target = match args.scope {
            Scope::Global => Target::Global,
            Scope::Local => Target::Local,
        };
        let scanned = self.scan_for_storage("remember", author, &args.text, target, &fields)?;
        let now = self.now();
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), true)?;
        let badge = scanned.badge(provenance::badge_for_new(author));
        let detail = scanned.detail(None);
        let memory = NewMemory {
            scope: args.scope,
            kind: args.kind,
            tags: args.tags,
            categories: args.categories,
            confidence: args.confidence as f32,
            thread: args.thread,
            anchors: args.anchors,
            image_base: args.image_base,
            metadata,
            ..NewMemory::new(author, scanned.text)
        };
        let placement = Placement {
            scope: memory.scope,
            profile: None,
            anchors: &memory.anchors,
        };
        let written = kb.write(|tx| {
            insert_unless_duplicate(tx, &memory, placement, badge, now, detail.as_deref())
        })?;
        let redacted = scanned.redacted;
        Ok(match written {
            Insert::New(id) => Remembered {
                id,
                status: write_status(badge),
                badge: Some(badge),
                redacted,
            },
            Insert::Duplicate(existing) => Remembered {
                id: existing,
                status: WriteStatus::Duplicate,
                badge: None,
                redacted,
            },
        })
    }

    fn run_revise(
        &self,
        subject: &Subject,
        author: Author,
        Checked { args, fields }: Checked<ReviseMemory>,
        metadata: Option<Metadata>,
    ) -> Result<Revised> {
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
        // Refused now what would be refused anyway, before the policy scans; the decision is
        // taken again under the write lock on the memory as it then stands.
        let seen = active_memory(kb.get(args.id)?, subject, args.id)?;
        proposal_badge(author, &seen, false)?;
        let target = if seen.scope == Scope::Local {
            Target::Local
        } else {
            Target::Global
        };
        let scanned = self.scan_write(
            "revise_memory",
            author,
            args.text.as_deref().map(|text| (text, target)),
            &fields,
        )?;
        let held = scanned.as_ref().is_some_and(Scanned::is_held);
        let detail = match &scanned {
            Some(scanned) => scanned.detail(args.reason.as_deref()),
            None => args.reason.clone(),
        };
        let reason = detail.as_deref();
        let text = scanned.map(|scanned| scanned.text);
        let now = self.now();
        kb.write(|tx| {
            // Read under the write lock: a revision racing this one is applied first, and this
            // one then changes what it left, never the text both started from.
            let current = active_memory(tx.memory(args.id)?, subject, args.id)?;
            let proposal_badge = proposal_badge(author, &current, held)?;
            let revised = revision_of(&current, &args, text.clone(), author, metadata.clone())?;
            let after = content_hash(&revised.text);
            match proposal_badge {
                None => {
                    tx.update_memory(current.id, &revised, &after, now)?;
                    tx.append_event(
                        Some(current.id),
                        now,
                        &Event {
                            actor: author.as_str(),
                            action: "revise",
                            before_hash: Some(&current.content_hash),
                            after_hash: Some(&after),
                            detail: reason,
                        },
                    )?;
                    Ok(Revised {
                        id: current.id,
                        status: ReviseStatus::Revised,
                        proposal_id: None,
                        badge: None,
                    })
                }
                // An edit the author may only propose: a quarantined memory that supersedes
                // the current one once a reviewer accepts it.
                Some(badge) => {
                    let proposal = tx.insert_memory(
                        &revised,
                        badge,
                        now,
                        &Event {
                            actor: author.as_str(),
                            action: "propose",
                            before_hash: Some(&current.content_hash),
                            after_hash: None,
                            detail: reason,
                        },
                    )?;
                    tx.set_supersedes(proposal, current.id)?;
                    Ok(Revised {
                        id: current.id,
                        status: ReviseStatus::Pending,
                        proposal_id: Some(proposal),
                        badge: Some(badge),
                    })
                }
            }
        })
    }

    fn run_forget(
        &self,
        subject: &Subject,
        author: Author,
        Checked { args, fields }: Checked<ForgetMemory>,
    ) -> Result<Forgotten> {
        self.check_fields("forget_memory", author, &fields)?;
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
        let now = self.now();
        let forgotten = kb.write(|tx| {
            // Decided under the write lock, so a memory revised or forgotten meanwhile is not
            // forgotten (again) on the strength of an old read.
            let current = active_memory(tx.memory(args.id)?, subject, args.id)?;
            if let Some(badge) = proposal_badge(author, &current, false)? {
                return propose_forget(tx, author, &current, badge, args.reason.as_deref(), now);
            }
            tx.forget(current.id, now)?;
            tx.append_event(
                Some(current.id),
                now,
                &Event {
                    actor: author.as_str(),
                    action: "forget",
                    before_hash: Some(&current.content_hash),
                    after_hash: None,
                    detail: args.reason.as_deref(),
                },
            )?;
            Ok(Forgotten {
                id: current.id,
                status: ForgetStatus::Forgotten,
                proposal_id: None,
                badge: None,
            })
        })?;
        // A request to forget erased nothing yet.
        if forgotten.status == ForgetStatus::Forgotten {
            super::scrub(&mut kb);
        }
        Ok(forgotten)
    }

    fn run_recall(&self, subject: &Subject, args: Recall) -> Result<Recalled> {
        // A subject with no knowledge base yet has nothing to recall: an empty page, as for a
        // query that matches nothing (an agent's first call is no error).
        let Some(kb) = self.backend.open(subject, false)? else {
            return Ok(Recalled::empty());
        };
        let refused = || {
            KenningError::Forbidden(format!(
                "recall is disabled for {subject}{}",
                in_thread(args.thread.as_deref())
            ))
        };
        let scope = match args.scope {
            RecallScope::Global => Some(Scope::Global),
            RecallScope::Local => Some(Scope::Local),
            RecallScope::Any => None,
        };
        let limit = clamp_u32(args.limit);
        // One more than asked for tells whether another page follows.
        let filter = MemoryFilter {
            query: args.query.clone(),
            scope,
            kind: args.kind,
            tags: args.tags.clone(),
            categories: args.categories.clone(),
            target: None,
            include_quarantined: false,
            only_quarantined: false,
            limit: limit.saturating_add(1),
            offset: clamp_u32(args.offset),
            posting_budget: Some(store::RECALL_POSTING_BUDGET),
            feedback: true,
        };
        let (mut hits, estimated_total): (Vec<RecalledMemory>, Option<u64>) = match &args.anchor {
            None => {
                // The settings come with the search (one round trip fewer on PostgreSQL); a
                // page they refuse is never seen.
                let (_, page) =
                    kb.settings_and_search_page(args.thread.as_deref(), &filter, &|settings| {
                        settings.allow_recall
                    })?;
                let page = page.ok_or_else(refused)?;
                let hits = page
                    .hits
                    .into_iter()
                    .map(|hit| RecalledMemory {
                        smoothed: hit.smoothed,
                        memory: hit.memory,
                        score: hit.score,
                    })
                    .collect();
                (hits, page.estimated_total)
            }
            Some(_) if !kb.settings(args.thread.as_deref())?.allow_recall => {
                return Err(refused());
            }
            Some(anchor) => (
                self.recall_by_anchor(&*kb, subject, anchor, &filter)?
                    .into_iter()
                    .map(|(memory, score)| RecalledMemory {
                        memory,
                        score,
                        smoothed: false,
                    })
                    .collect(),
                None,
            ),
        };
        let more = hits.len() > limit as usize;
        hits.truncate(limit as usize);
        let mut page = Recalled {
            count: hits.len(),
            next_offset: more.then(|| args.offset + hits.len() as u64),
            memories: hits,
            truncated: estimated_total.is_some(),
            estimated_total,
        };
        page.fit(args.offset, self.max_result_bytes);
        Ok(page)
    }

    fn recall_by_anchor(
        &self,
        kb: &dyn KnowledgeStore,
        subject: &Subject,
        anchor: &Anchor,
        filter: &MemoryFilter,
    ) -> Result<Vec<(Memory, f32)>> {
        let mut context = Context::at(self.now(), subject.kind);
        match anchor {
            Anchor::Address { offset } => context.cursor = Some(*offset),
            Anchor::Near(near) => context.cursor = Some(near.offset),
            Anchor::Range(range) => context.cursor = Some(range.start),
            Anchor::Function(function) => {
                context.cursor = Some(function.start);
                context.current_function = Some(LiveFunction {
                    start: function.start,
                    end: function.end.unwrap_or(function.start.saturating_add(1)),
                    name: function.name.clone(),
                });
            }
            Anchor::String { value } => context.referenced_strings = vec![value.clone()],
        }
        let function = context.current_function.as_ref();
        let ids = kb.anchored_ids(
            context.cursor,
            function.map(|f| f.start),
            function.map(|f| f.name.as_str()),
            &context.referenced_strings,
            1000,
        )?;
        let memories: Vec<Memory> = kb
            .get_many(&ids)?
            .into_iter()
            .filter(|m| filter.kind.is_none_or(|k| m.kind == k))
            .filter(|m| filter.scope.is_none_or(|s| m.scope == s))
            .filter(|m| filter.tags.iter().all(|t| m.tags.contains(t)))
            .filter(|m| filter.categories.iter().all(|c| m.categories.contains(c)))
            .collect();
        let candidates: Vec<_> = memories
            .iter()
            .map(|m| super::turn::candidate_of(m, 0.0))
            .collect();
        let scores = self.policy.score(&context, &candidates)?;
        let mut scored: Vec<(Memory, f32)> = memories
            .into_iter()
            .zip(scores)
            .filter(|(_, s)| s.anchor > 0.0)
            .map(|(m, s)| (m, s.anchor))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.id.cmp(&b.0.id)));
        Ok(scored
            .into_iter()
            .skip(filter.offset as usize)
            .take(filter.limit as usize)
            .collect())
    }

    fn run_profile_edit(
        &self,
        subject: &Subject,
        author: Author,
        Checked { args, fields }: Checked<MemoryEdit>,
    ) -> Result<ProfileEdited> {
        let now = self.now();
        let (target, scan_target) = (args.target, Target::from(args.target));
        let day = (target == MemoryTarget::Daily).then(|| civil_date(now));
        let scanned = self.scan_write(
            "memory",
            author,
            args.content
                .as_deref()
                .map(|content| (content, scan_target)),
            &fields,
        )?;
        let held = scanned.as_ref().is_some_and(Scanned::is_held);
        let detail = scanned.as_ref().and_then(|scanned| scanned.detail(None));
        let content = scanned.map(|scanned| scanned.text);
        let edited = |status, ids, badge| ProfileEdited {
            target,
            status,
            ids,
            badge,
        };
        match args.action {
            MemoryAction::Add => {
                let content = content.expect("validate requires content for add");
                let mut kb = self.open_for_write(subject, args.thread.as_deref(), true)?;
                let badge = provenance::held_if(held, provenance::badge_for_new(author));
                let memory = NewMemory {
                    kind: if target == MemoryTarget::User {
                        MemoryKind::Preference
                    } else {
                        MemoryKind::Fact
                    },
                    target: Some(target),
                    day,
                    thread: args.thread,
                    ..NewMemory::new(author, content)
                };
                let placement = Placement {
                    scope: Scope::Global,
                    profile: Some((target, memory.day.as_deref())),
                    anchors: &[],
                };
                let id = match kb.write(|tx| {
                    insert_unless_duplicate(tx, &memory, placement, badge, now, detail.as_deref())
                })? {
                    Insert::New(id) => id,
                    Insert::Duplicate(existing) => {
                        return Ok(edited(EditStatus::Duplicate, vec![existing], None));
                    }
                };
                let status = match write_status(badge) {
                    WriteStatus::Pending => EditStatus::Pending,
                    _ => EditStatus::Accepted,
                };
                Ok(edited(status, vec![id], Some(badge)))
            }
            action @ (MemoryAction::Replace | MemoryAction::Remove) => {
                let old_text = args
                    .old_text
                    .as_deref()
                    .expect("validate requires old_text");
                let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
                let matches = entries_containing(&*kb, target, day.as_deref(), old_text)?;
                let first = matches.first().ok_or_else(|| {
                    KenningError::NoMatch(format!("no {target} entry contains {old_text:?}"))
                })?;
                if matches.iter().any(|m| m.content_hash != first.content_hash) {
                    let names: Vec<String> = matches
                        .iter()
                        .map(|m| format!("#{} {:?}", m.id, preview(&m.text, 60)))
                        .collect();
                    return Err(KenningError::Ambiguous(format!(
                        "{old_text:?} matches {} different {} entries: {}; quote more of the one you mean",
                        matches.len(),
                        target,
                        names.join(", ")
                    )));
                }
                let ids: Vec<u64> = matches.iter().map(|m| m.id).collect();
                let before = first.content_hash.clone();
                let event = |action, after_hash| Event {
                    actor: author.as_str(),
                    action,
                    before_hash: Some(&before),
                    after_hash,
                    detail: detail.as_deref(),
                };
                if action == MemoryAction::Remove {
                    // Removing an entry forgets it: only who may forget every entry matched.
                    if let Some(kept) = matches.iter().find(|m| !provenance::may_forget(author, m))
                    {
                        return Err(KenningError::Forbidden(format!(
                            "a {author} author may not remove {target} entry #{} (written by {}, badge {}), so nothing was removed; ask the user",
                            kept.id, kept.author, kept.badge
                        )));
                    }
                    super::forgetting(&mut kb, |tx| {
                        for &id in &ids {
                            unchanged_entry(tx, id, &before, target)?;
                            tx.forget(id, now)?;
                            tx.append_event(Some(id), now, &event("remove", None))?;
                        }
                        Ok(())
                    })?;
                    Ok(edited(EditStatus::Removed, ids, None))
                } else {
                    let content = content.expect("validate requires content for replace");
                    let after = content_hash(&content);
                    // An author who may only propose the change proposes it: a quarantined
                    // entry that replaces the first one matched once a reviewer accepts it.
                    let rights = matches
                        .iter()
                        .map(|m| proposal_badge(author, m, held))
                        .collect::<Result<Vec<_>>>()?;
                    if let Some(badge) = rights.into_iter().flatten().next() {
                        let proposal = NewMemory {
                            kind: first.kind,
                            target: Some(target),
                            day: first.day.clone(),
                            thread: args.thread.clone(),
                            ..NewMemory::new(author, content)
                        };
                        let id = kb.write(|tx| {
                            unchanged_entry(tx, first.id, &before, target)?;
                            let id =
                                tx.insert_memory(&proposal, badge, now, &event("propose", None))?;
                            tx.set_supersedes(id, first.id)?;
                            Ok(id)
                        })?;
                        return Ok(edited(EditStatus::Pending, vec![id], Some(badge)));
                    }
                    kb.write(|tx| {
                        for &id in &ids {
                            unchanged_entry(tx, id, &before, target)?;
                            tx.replace_text(id, &content, &after, now)?;
                            tx.append_event(Some(id), now, &event("replace", Some(&after)))?;
                        }
                        Ok(())
                    })?;
                    Ok(edited(EditStatus::Replaced, ids, None))
                }
            }
        }
    }
}

/// A tool call's canonical arguments and, for a write, the short strings it stores or logs
/// besides its text, with their field paths, still to be scanned.
struct Checked<T> {
    args: T,
    fields: Vec<(String, String)>,
}

/// The tools that store or log what they are given.
const WRITES: &[&str] = &["remember", "revise_memory", "forget_memory", "memory"];

/// Fields scanned as a memory's text (redacted where needed) rather than as short strings;
/// `old_text` is only looked for, never stored.
const MEMORY_TEXT_FIELDS: &[&str] = &["text", "content", "old_text"];

/// Refuses arguments over [`MAX_ARGS_BYTES`] before any policy or parser reads them.
fn check_size(tool: &str, args_json: &str) -> Result<()> {
    if args_json.len() > MAX_ARGS_BYTES {
        return Err(KenningError::TooLarge {
            what: format!("{tool} arguments"),
            size: args_json.len(),
            limit: MAX_ARGS_BYTES,
        });
    }
    Ok(())
}

/// Checks a write's free-form `metadata` ([`crate::metadata::check`]), and adds its strings to
/// those the write's scan refuses it for.
fn with_metadata<T>(
    tool: &str,
    checked: &mut Checked<T>,
    metadata: Option<&Metadata>,
) -> Result<()> {
    let Some(metadata) = metadata else {
        return Ok(());
    };
    let errors = crate::metadata::check(metadata, "metadata");
    if !errors.is_empty() {
        return Err(KenningError::Invalid {
            tool: tool.to_owned(),
            errors,
        });
    }
    checked
        .fields
        .extend(crate::metadata::strings(metadata, "metadata"));
    Ok(())
}

/// Reads the arguments of `tool`, one the host reads itself (the read tools), strictly, naming
/// the field of the first problem.
fn parse_args<T: serde::de::DeserializeOwned>(tool: &str, args_json: &str) -> Result<T> {
    let invalid = |path: String, message: String| KenningError::Invalid {
        tool: tool.to_owned(),
        errors: vec![FieldError::new(path, message)],
    };
    let mut deserializer = serde_json::Deserializer::from_str(args_json);
    let args: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        invalid(path, e.into_inner().to_string())
    })?;
    deserializer
        .end()
        .map_err(|e| invalid(String::new(), e.to_string()))?;
    Ok(args)
}

/// What [`insert_unless_duplicate`] did.
enum Insert {
    /// Stored as this new memory.
    New(u64),
    /// An active memory with the same text and placement exists already: nothing was written.
    Duplicate(u64),
}

/// Inserts `memory` with its audit event, unless an active memory with the same text and
/// placement exists. Runs in the write transaction, so identical writes racing each other store
/// one memory.
fn insert_unless_duplicate(
    tx: &dyn Writes,
    memory: &NewMemory,
    placement: Placement<'_>,
    badge: Badge,
    now: i64,
    detail: Option<&str>,
) -> Result<Insert> {
    if let Some(existing) = tx.find_active_duplicate(&content_hash(&memory.text), placement)? {
        return Ok(Insert::Duplicate(existing));
    }
    tx.insert_memory(memory, badge, now, &added_by(memory.author, detail))
        .map(Insert::New)
}

/// The audit event of a new memory by `author`, with what the scan suspected in it, if
/// anything, as its `detail`.
fn added_by(author: Author, detail: Option<&str>) -> Event<'_> {
    Event {
        actor: author.as_str(),
        action: "add",
        before_hash: None,
        after_hash: None,
        detail,
    }
}

fn write_status(badge: Badge) -> WriteStatus {
    if badge.is_quarantined() {
        WriteStatus::Pending
    } else {
        WriteStatus::Accepted
    }
}

/// The error for a call of a tool the host does not have.
pub(crate) fn unknown_tool(tool: &str) -> KenningError {
    KenningError::Invalid {
        tool: tool.to_owned(),
        errors: vec![FieldError::new(
            "",
            format!(
                "unknown tool {tool:?}; expected one of {}",
                api::tool_names().join(", ")
            ),
        )],
    }
}

/// `memory` (memory `id`, as just read) if it is active and out of quarantine: the memories a
/// tool call may revise or forget.
fn active_memory(memory: Option<Memory>, subject: &Subject, id: u64) -> Result<Memory> {
    match memory {
        Some(memory) if memory.status == Status::Active && !memory.badge.is_quarantined() => {
            Ok(memory)
        }
        _ => Err(KenningError::NoSuchMemory {
            id,
            subject: subject.to_string(),
        }),
    }
}

/// Fails unless profile entry `id`, matched before the write lock was taken, is still active
/// with the text hashed `hash`: a writer that changed it meanwhile wins, and this edit writes
/// nothing.
fn unchanged_entry(tx: &dyn Reads, id: u64, hash: &str, target: MemoryTarget) -> Result<()> {
    match tx.memory(id)? {
        Some(entry) if entry.status == Status::Active && entry.content_hash == hash => Ok(()),
        _ => Err(KenningError::Conflict(format!(
            "{target} entry #{id} changed while this edit ran; nothing was written: read the entries again"
        ))),
    }
}

/// A proposal by `author`, with `badge`, to forget `current` once a reviewer accepts it
/// ([`Memory::forgets`]); a second one while the first waits is the first. Its text says only
/// what it asks (and why), never what the memory says: a request to forget must not become
/// another copy of what is to be forgotten.
fn propose_forget(
    tx: &dyn crate::store::Writes,
    author: Author,
    current: &Memory,
    badge: Badge,
    reason: Option<&str>,
    now: i64,
) -> Result<Forgotten> {
    let pending = |proposal| Forgotten {
        id: current.id,
        status: ForgetStatus::Pending,
        proposal_id: Some(proposal),
        badge: Some(badge),
    };
    if let Some(waiting) = tx.forget_proposal_for(current.id)? {
        return Ok(pending(waiting));
    }
    let text = match reason {
        Some(reason) => format!("Forget memory {}. Reason: {reason}", current.id),
        None => format!("Forget memory {}.", current.id),
    };
    let request = NewMemory {
        scope: current.scope,
        kind: current.kind,
        thread: current.thread.clone(),
        ..NewMemory::new(author, text)
    };
    let proposal = tx.insert_memory(
        &request,
        badge,
        now,
        &Event {
            actor: author.as_str(),
            action: "propose-forget",
            before_hash: Some(&current.content_hash),
            after_hash: None,
            detail: reason,
        },
    )?;
    tx.set_forgets(proposal, current.id)?;
    Ok(pending(proposal))
}

/// How `author` may revise `current`: `None` in place, `Some(badge)` only as a proposal with
/// that badge (always when the scan `held` the new text); an error when not at all.
fn proposal_badge(author: Author, current: &Memory, held: bool) -> Result<Option<Badge>> {
    match provenance::edit_right(author, current) {
        EditRight::Direct if held => Ok(Some(provenance::held(Badge::Native))),
        EditRight::Direct => Ok(None),
        EditRight::Propose(badge) => Ok(Some(badge)),
        EditRight::Refused => Err(KenningError::Forbidden(format!(
            "memory {} is native: a peer never overwrites a native memory",
            current.id
        ))),
    }
}

/// `current` as `args` revise it by `author`, with the revised (scanned) `text` and the new
/// `metadata`, if any.
fn revision_of(
    current: &Memory,
    args: &ReviseMemory,
    text: Option<String>,
    author: Author,
    metadata: Option<Metadata>,
) -> Result<NewMemory> {
    let current_fields = NewMemory::from(current);
    let revised = NewMemory {
        kind: args.kind.unwrap_or(current.kind),
        text: text.unwrap_or(current_fields.text),
        tags: args.tags.clone().unwrap_or(current_fields.tags),
        categories: args.categories.clone().unwrap_or(current_fields.categories),
        confidence: args.confidence.map_or(current.confidence, |c| c as f32),
        author,
        thread: args.thread.clone().or(current_fields.thread),
        anchors: args.anchors.clone().unwrap_or(current_fields.anchors),
        image_base: if args.image_base != 0 {
            args.image_base
        } else {
            current.image_base
        },
        metadata: metadata.or(current_fields.metadata),
        ..current_fields
    };
    if revised.scope == Scope::Local && revised.anchors.is_empty() {
        return Err(KenningError::Invalid {
            tool: "revise_memory".to_owned(),
            errors: vec![FieldError::new(
                "anchors",
                "a local memory needs at least one anchor",
            )],
        });
    }
    Ok(revised)
}

fn entries_containing(
    kb: &dyn KnowledgeStore,
    target: MemoryTarget,
    day: Option<&str>,
    needle: &str,
) -> Result<Vec<Memory>> {
    let filter = MemoryFilter {
        target: Some(target),
        limit: 10_000,
        include_quarantined: false,
        ..MemoryFilter::default()
    };
    Ok(kb
        .search(&filter)?
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| day.is_none() || m.day.as_deref() == day)
        .filter(|m| m.text.contains(needle))
        .collect())
}

fn preview(text: &str, max_chars: usize) -> String {
    let mut out: String = text.chars().take(max_chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn clamp_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn to_json(args: &impl Serialize) -> String {
    serde_json::to_string(args).expect("tool arguments serialise")
}

fn to_value<T: Serialize>(result: Result<T>) -> Result<Value> {
    result.map(|value| serde_json::to_value(value).expect("tool results serialise"))
}

/// What became of one memory a job wrote through `remember`.
pub(super) struct WriteOutcome {
    /// `written`, `pending` (written, awaiting review), `duplicate` or `refused`.
    pub outcome: &'static str,
    /// The memory's id, when written (or the existing one's for a duplicate).
    pub id: Option<u64>,
    /// Why it was refused, or the kinds of secrets redacted from it.
    pub detail: Option<String>,
}
