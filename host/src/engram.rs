//! The engram service: one entry point per operation, shared by the CLI and (later) the MCP
//! server and the HTTP API, so every interface runs a tool call the same way.
//!
//! A write goes: raw JSON → the policy's `validate` → the policy's `scan` → the host's
//! provenance, dedup and ambiguity rules → one transaction with its audit event.
//! A turn goes: context → candidate retrieval → one policy `select` → the host's checks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engram_policy::args::{
    ForgetMemory, MemoryAction, MemoryEdit, MemoryTarget, Recall, RecallScope, Remember,
    ReviseMemory,
};
use engram_policy::types::{
    Anchor, Candidate, Context, LiveFunction, MemoryKind, ScanItem, ScanResult, Scope, Selection,
    Target, Verdict,
};
use engram_policy::{MAX_ARGS_BYTES, MAX_TEXT_BYTES};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{EngramError, Result};
use crate::policy::Policy;
use crate::store::pool::{PooledKb, StorePool};
use crate::store::{
    self, Author, Badge, Event, KnowledgeBase, Memory, MemoryFilter, NewMemory, ProfileTarget,
    Status, content_hash,
};
use crate::subject::Subject;

/// The tools an agent can call.
pub const TOOLS: &[&str] = &[
    "remember",
    "revise_memory",
    "forget_memory",
    "recall",
    "memory",
];

/// How many candidates of each source a turn considers at most.
const ANCHORED_CANDIDATES: u32 = 200;
const LEXICAL_CANDIDATES: u32 = 50;
const GLOBAL_CANDIDATES: u32 = 64;

/// The engram service over a data directory and a policy.
pub struct Engram {
    data_dir: PathBuf,
    policy: Box<dyn Policy>,
    fixed_now: Option<i64>,
    /// Knowledge bases opened so far, kept open for the next operation.
    stores: StorePool,
}

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
    pub fn to_context(&self, now: i64, subject_kind: engram_policy::types::SubjectKind) -> Context {
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

impl Engram {
    /// A service over `data_dir` using `policy` (wrap it in [`crate::policy::Guarded`]).
    pub fn new(data_dir: impl Into<PathBuf>, policy: Box<dyn Policy>) -> Self {
        Engram {
            data_dir: data_dir.into(),
            policy,
            fixed_now: None,
            stores: StorePool::new(),
        }
    }

    /// Uses a fixed clock (seconds since the epoch): for tests and reproducible runs.
    pub fn with_fixed_now(mut self, now: i64) -> Self {
        self.fixed_now = Some(now);
        self
    }

    /// The data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The policy in use.
    pub fn policy(&mut self) -> &mut dyn Policy {
        self.policy.as_mut()
    }

    /// Now, in seconds since the epoch.
    pub fn now(&self) -> i64 {
        self.fixed_now.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        })
    }

    /// Opens the subject's knowledge base, which must exist. The connection is kept open for
    /// the next operation (see [`StorePool`]).
    pub fn open_existing(&self, subject: &Subject) -> Result<PooledKb> {
        let path = subject.store_path(&self.data_dir);
        self.stores
            .checkout(&path, KnowledgeBase::open_existing)?
            .ok_or_else(|| EngramError::UnknownSubject {
                subject: subject.to_string(),
                path,
            })
    }

    fn open_or_create(&self, subject: &Subject) -> Result<PooledKb> {
        let path = subject.store_path(&self.data_dir);
        let opened = self
            .stores
            .checkout(&path, |p| KnowledgeBase::open_or_create(p).map(Some))?;
        Ok(opened.expect("open_or_create always opens"))
    }

    /// Opens the subject's knowledge base for a write in `thread` (creating it when `create`),
    /// refusing when the settings in force disable writes.
    fn open_for_write(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        create: bool,
    ) -> Result<PooledKb> {
        let kb = if create {
            self.open_or_create(subject)?
        } else {
            self.open_existing(subject)?
        };
        if !kb.settings(thread)?.allow_writes {
            return Err(EngramError::Forbidden(format!(
                "writes are disabled for {subject}{}",
                in_thread(thread)
            )));
        }
        Ok(kb)
    }

    /// Runs one tool call exactly as an agent's call runs: validate, scan, apply.
    /// Returns the JSON answer (without the `ok` field).
    pub fn call(
        &mut self,
        subject: &Subject,
        author: Author,
        tool: &str,
        args_json: &str,
    ) -> Result<Value> {
        if !TOOLS.contains(&tool) {
            // Record kinds (import records, extractions) have schemas too, but are no tool.
            return Err(unknown_tool(tool));
        }
        if args_json.len() > MAX_ARGS_BYTES {
            return Err(EngramError::TooLarge {
                what: format!("{tool} arguments"),
                size: args_json.len(),
                limit: MAX_ARGS_BYTES,
            });
        }
        let validated =
            self.policy
                .validate(tool, args_json)?
                .map_err(|errors| EngramError::Invalid {
                    tool: tool.to_owned(),
                    errors,
                })?;
        let args = &validated.args_json;
        let policy = self.policy.info().name.clone();
        match tool {
            "remember" => self.remember(subject, author, parse_args(&policy, tool, args)?),
            "revise_memory" => self.revise(subject, author, parse_args(&policy, tool, args)?),
            "forget_memory" => self.forget(subject, author, parse_args(&policy, tool, args)?),
            "recall" => self.recall(subject, parse_args(&policy, tool, args)?),
            "memory" => self.profile_memory(subject, author, parse_args(&policy, tool, args)?),
            other => Err(unknown_tool(other)),
        }
    }

    /// Scans texts with the policy.
    pub fn scan(&mut self, items: &[ScanItem]) -> Result<Vec<ScanResult>> {
        Ok(self.policy.scan(items)?)
    }

    /// Scans one text for storage; blocked text is an error, redacted text is returned.
    fn scan_for_storage(&mut self, text: &str, target: Target) -> Result<(String, Vec<String>)> {
        if text.len() > MAX_TEXT_BYTES {
            return Err(EngramError::TooLarge {
                what: "text".to_owned(),
                size: text.len(),
                limit: MAX_TEXT_BYTES,
            });
        }
        let mut results = self.policy.scan(&[ScanItem {
            text: text.to_owned(),
            target,
        }])?;
        let result = results.pop().expect("the guard checks one result per item");
        let kinds = result.findings.iter().map(|f| f.kind.clone()).collect();
        match result.verdict {
            Verdict::Block => Err(EngramError::Blocked {
                reason: result.reason.unwrap_or_default(),
            }),
            Verdict::Redact | Verdict::Allow => Ok((result.text, kinds)),
        }
    }

    fn remember(&mut self, subject: &Subject, author: Author, args: Remember) -> Result<Value> {
        let target = match args.scope {
            Scope::Global => Target::Global,
            Scope::Local => Target::Local,
        };
        let (text, redacted) = self.scan_for_storage(&args.text, target)?;
        let now = self.now();
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), true)?;
        let hash = content_hash(&text);
        if let Some(existing) = find_active_duplicate(&kb, &hash, args.scope, None, &args.anchors)?
        {
            return Ok(json!({ "skipped": true, "reason": "duplicate", "id": existing }));
        }
        let badge = Badge::for_new(author);
        let memory = NewMemory {
            scope: args.scope,
            kind: args.kind,
            target: None,
            day: None,
            text,
            tags: args.tags,
            categories: args.categories,
            confidence: args.confidence as f32,
            author,
            thread: args.thread,
            anchors: args.anchors,
            image_base: args.image_base,
        };
        let id = kb.write(|tx| {
            store::insert_memory(
                tx,
                &memory,
                badge,
                now,
                &Event {
                    actor: author.as_str(),
                    action: "add",
                    before_hash: None,
                    after_hash: None,
                    detail: None,
                },
            )
        })?;
        Ok(json!({
            "id": id,
            "badge": badge,
            "status": if badge.is_quarantined() { "pending" } else { "accepted" },
            "redacted": redacted,
        }))
    }

    fn revise(&mut self, subject: &Subject, author: Author, args: ReviseMemory) -> Result<Value> {
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
        let current = active_memory(&kb, subject, args.id)?;
        if author == Author::Peer && current.badge == Badge::Native {
            return Err(EngramError::Forbidden(format!(
                "memory {} is native: a peer never overwrites a native memory",
                args.id
            )));
        }
        let text = match &args.text {
            Some(text) => {
                let target = if current.scope == Scope::Local {
                    Target::Local
                } else {
                    Target::Global
                };
                Some(self.scan_for_storage(text, target)?.0)
            }
            None => None,
        };
        let now = self.now();
        let revised = NewMemory {
            scope: current.scope,
            kind: args.kind.unwrap_or(current.kind),
            target: current.target,
            day: current.day.clone(),
            text: text.unwrap_or_else(|| current.text.clone()),
            tags: args.tags.unwrap_or_else(|| current.tags.clone()),
            categories: args
                .categories
                .unwrap_or_else(|| current.categories.clone()),
            confidence: args.confidence.map_or(current.confidence, |c| c as f32),
            author,
            thread: args.thread.clone().or_else(|| current.thread.clone()),
            anchors: args.anchors.unwrap_or_else(|| current.anchors.clone()),
            image_base: if args.image_base != 0 {
                args.image_base
            } else {
                current.image_base
            },
        };
        if revised.scope == Scope::Local && revised.anchors.is_empty() {
            return Err(EngramError::Invalid {
                tool: "revise_memory".to_owned(),
                errors: vec![engram_policy::types::FieldError::new(
                    "anchors",
                    "a local memory needs at least one anchor",
                )],
            });
        }
        let after = content_hash(&revised.text);
        let direct = may_edit_directly(author, &current);
        let reason = args.reason.as_deref();
        if direct {
            kb.write(|tx| {
                tx.execute(
                    "UPDATE memories SET kind = ?2, text = ?3, tags = ?4, categories = ?5, confidence = ?6, thread = ?7, content_hash = ?8, image_base = ?9, updated_at = ?10 WHERE id = ?1",
                    rusqlite::params![
                        current.id as i64,
                        store::kind_str(revised.kind),
                        revised.text,
                        revised.tags.join(" "),
                        serde_json::to_string(&revised.categories).expect("strings serialise"),
                        revised.confidence,
                        revised.thread,
                        after,
                        revised.image_base as i64,
                        now,
                    ],
                )?;
                tx.execute("DELETE FROM anchors WHERE memory_id = ?1", [current.id as i64])?;
                store::insert_anchors(tx, current.id, &revised.anchors)?;
                store::append_event(tx, current.id, now, &Event { actor: author.as_str(), action: "revise", before_hash: Some(&current.content_hash), after_hash: Some(&after), detail: reason })
            })?;
            Ok(json!({ "id": current.id, "status": "revised" }))
        } else {
            // An edit the author may only propose: a pending memory that supersedes the current
            // one once a reviewer accepts it.
            let badge = if author == Author::Peer {
                Badge::InboundPending
            } else {
                Badge::Pending
            };
            let proposal = kb.write(|tx| {
                let id = store::insert_memory(
                    tx,
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
                tx.execute(
                    "UPDATE memories SET supersedes = ?2 WHERE id = ?1",
                    rusqlite::params![id as i64, current.id as i64],
                )?;
                Ok(id)
            })?;
            Ok(
                json!({ "id": current.id, "status": "pending", "proposal_id": proposal, "badge": badge }),
            )
        }
    }

    fn forget(&mut self, subject: &Subject, author: Author, args: ForgetMemory) -> Result<Value> {
        let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
        let current = active_memory(&kb, subject, args.id)?;
        if !may_edit_directly(author, &current) {
            return Err(EngramError::Forbidden(format!(
                "a {author} author may not forget memory {} (written by {}, badge {}); ask the user",
                args.id, current.author, current.badge
            )));
        }
        let now = self.now();
        let reason = args.reason.as_deref();
        kb.write(|tx| {
            tx.execute(
                "UPDATE memories SET status = 'forgotten', updated_at = ?2 WHERE id = ?1",
                rusqlite::params![current.id as i64, now],
            )?;
            store::append_event(
                tx,
                current.id,
                now,
                &Event {
                    actor: author.as_str(),
                    action: "forget",
                    before_hash: Some(&current.content_hash),
                    after_hash: None,
                    detail: reason,
                },
            )
        })?;
        Ok(json!({ "id": current.id, "status": "forgotten" }))
    }

    fn recall(&mut self, subject: &Subject, args: Recall) -> Result<Value> {
        let kb = self.open_existing(subject)?;
        if !kb.settings(args.thread.as_deref())?.allow_recall {
            return Err(EngramError::Forbidden(format!(
                "recall is disabled for {subject}{}",
                in_thread(args.thread.as_deref())
            )));
        }
        let scope = match args.scope {
            RecallScope::Global => Some(Scope::Global),
            RecallScope::Local => Some(Scope::Local),
            RecallScope::Any => None,
        };
        let filter = MemoryFilter {
            query: args.query.clone(),
            scope,
            kind: args.kind,
            tags: args.tags.clone(),
            categories: args.categories.clone(),
            target: None,
            include_quarantined: false,
            limit: clamp_u32(args.limit),
            offset: clamp_u32(args.offset),
            posting_budget: Some(store::RECALL_POSTING_BUDGET),
        };
        let hits: Vec<(Memory, f32)> = match &args.anchor {
            None => kb.search(&filter)?,
            Some(anchor) => self.recall_by_anchor(&kb, subject, anchor, &filter)?,
        };
        let memories: Vec<Value> = hits
            .iter()
            .map(|(memory, score)| {
                let mut value = serde_json::to_value(memory).expect("memories serialise");
                value["score"] = json!(score);
                value
            })
            .collect();
        Ok(json!({ "count": memories.len(), "memories": memories }))
    }

    fn recall_by_anchor(
        &mut self,
        kb: &KnowledgeBase,
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
                    end: function.end.unwrap_or(function.start + 1),
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
        let candidates: Vec<Candidate> = memories.iter().map(|m| candidate_of(m, 0.0)).collect();
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

    fn profile_memory(
        &mut self,
        subject: &Subject,
        author: Author,
        args: MemoryEdit,
    ) -> Result<Value> {
        let now = self.now();
        let (target, scan_target) = match args.target {
            MemoryTarget::User => (ProfileTarget::User, Target::User),
            MemoryTarget::Memory => (ProfileTarget::Memory, Target::Memory),
            MemoryTarget::Daily => (ProfileTarget::Daily, Target::Daily),
        };
        let day = (target == ProfileTarget::Daily).then(|| civil_date(now));
        let content = match &args.content {
            Some(content) => Some(self.scan_for_storage(content, scan_target)?.0),
            None => None,
        };
        match args.action {
            MemoryAction::Add => {
                let content = content.expect("validate requires content for add");
                let mut kb = self.open_for_write(subject, args.thread.as_deref(), true)?;
                let hash = content_hash(&content);
                if let Some(existing) = find_active_duplicate(
                    &kb,
                    &hash,
                    Scope::Global,
                    Some((target, day.as_deref())),
                    &[],
                )? {
                    return Ok(json!({ "skipped": true, "reason": "duplicate", "id": existing }));
                }
                let badge = Badge::for_new(author);
                let memory = NewMemory {
                    scope: Scope::Global,
                    kind: if target == ProfileTarget::User {
                        MemoryKind::Preference
                    } else {
                        MemoryKind::Fact
                    },
                    target: Some(target),
                    day,
                    text: content,
                    tags: Vec::new(),
                    categories: Vec::new(),
                    confidence: 1.0,
                    author,
                    thread: args.thread,
                    anchors: Vec::new(),
                    image_base: 0,
                };
                let id = kb.write(|tx| {
                    store::insert_memory(
                        tx,
                        &memory,
                        badge,
                        now,
                        &Event {
                            actor: author.as_str(),
                            action: "add",
                            before_hash: None,
                            after_hash: None,
                            detail: None,
                        },
                    )
                })?;
                Ok(
                    json!({ "id": id, "target": target, "badge": badge, "status": if badge.is_quarantined() { "pending" } else { "accepted" } }),
                )
            }
            action @ (MemoryAction::Replace | MemoryAction::Remove) => {
                let old_text = args
                    .old_text
                    .as_deref()
                    .expect("validate requires old_text");
                let mut kb = self.open_for_write(subject, args.thread.as_deref(), false)?;
                let matches = entries_containing(&kb, target, day.as_deref(), old_text)?;
                let first = matches.first().ok_or_else(|| {
                    EngramError::NoMatch(format!("no {target} entry contains {old_text:?}"))
                })?;
                if matches.iter().any(|m| m.content_hash != first.content_hash) {
                    let names: Vec<String> = matches
                        .iter()
                        .map(|m| format!("#{} {:?}", m.id, preview(&m.text, 60)))
                        .collect();
                    return Err(EngramError::Ambiguous(format!(
                        "{old_text:?} matches {} different {} entries: {}; quote more of the one you mean",
                        matches.len(),
                        target,
                        names.join(", ")
                    )));
                }
                let ids: Vec<u64> = matches.iter().map(|m| m.id).collect();
                let before = first.content_hash.clone();
                if action == MemoryAction::Remove {
                    kb.write(|tx| {
                        for &id in &ids {
                            tx.execute("UPDATE memories SET status = 'forgotten', updated_at = ?2 WHERE id = ?1", rusqlite::params![id as i64, now])?;
                            store::append_event(tx, id, now, &Event { actor: author.as_str(), action: "remove", before_hash: Some(&before), after_hash: None, detail: None })?;
                        }
                        Ok(())
                    })?;
                    Ok(json!({ "removed": ids }))
                } else {
                    let content = content.expect("validate requires content for replace");
                    let after = content_hash(&content);
                    kb.write(|tx| {
                        for &id in &ids {
                            tx.execute("UPDATE memories SET text = ?2, content_hash = ?3, updated_at = ?4 WHERE id = ?1", rusqlite::params![id as i64, content, after, now])?;
                            store::append_event(tx, id, now, &Event { actor: author.as_str(), action: "replace", before_hash: Some(&before), after_hash: Some(&after), detail: None })?;
                        }
                        Ok(())
                    })?;
                    Ok(json!({ "replaced": ids }))
                }
            }
        }
    }

    /// Chooses what enters the prompt this turn.
    pub fn inject(
        &mut self,
        subject: &Subject,
        turn: &TurnContext,
        limits: &engram_policy::types::Limits,
    ) -> Result<Injection> {
        let mut kb = self.open_existing(subject)?;
        if !kb.settings(turn.thread.as_deref())?.include_in_prompts {
            return Ok(Injection {
                selection: Selection::default(),
                candidates: BTreeMap::new(),
            });
        }
        let context = turn.to_context(self.now(), subject.kind);
        let candidates = gather_candidates(&kb, &context)?;
        let list: Vec<Candidate> = candidates.values().cloned().collect();
        let selection = self.policy.select(&context, &list, limits)?;
        let chosen: Vec<u64> = selection.chosen.iter().map(|c| c.id).collect();
        kb.mark_recalled(&chosen, context.now)?;
        Ok(Injection {
            selection,
            candidates,
        })
    }

    /// Lists memories of a subject.
    pub fn list(&self, subject: &Subject, filter: &MemoryFilter) -> Result<Vec<Memory>> {
        let kb = self.open_existing(subject)?;
        Ok(kb.search(filter)?.into_iter().map(|(m, _)| m).collect())
    }
}

/// The candidates for one turn: local memories whose anchors can match, full-text matches for
/// the query, and accepted global memories. Quarantined memories never get here.
pub fn gather_candidates(
    kb: &KnowledgeBase,
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

/// A stored memory as the policy sees it.
pub fn candidate_of(memory: &Memory, lexical_score: f32) -> Candidate {
    Candidate {
        id: memory.id,
        scope: memory.scope,
        kind: memory.kind,
        text: memory.text.clone(),
        tags: memory.tags.clone(),
        confidence: memory.confidence,
        created_at: memory.created_at,
        updated_at: memory.updated_at,
        anchors: memory.anchors.clone(),
        lexical_score,
    }
}

/// The error for a call of a tool the host does not have.
fn unknown_tool(tool: &str) -> EngramError {
    EngramError::Invalid {
        tool: tool.to_owned(),
        errors: vec![engram_policy::types::FieldError::new(
            "",
            format!(
                "unknown tool {tool:?}; expected one of {}",
                TOOLS.join(", ")
            ),
        )],
    }
}

/// Who may change a memory in place. Humans may change anything; the built-in agent and triage
/// may change native memories not written by a human; everything else is only proposed (revise)
/// or refused (forget).
fn may_edit_directly(author: Author, current: &Memory) -> bool {
    match author {
        Author::Human => true,
        Author::Agent | Author::Triage => {
            current.badge == Badge::Native && current.author != Author::Human
        }
        Author::External | Author::Peer => false,
    }
}

/// ` in thread T` for messages, or nothing.
fn in_thread(thread: Option<&str>) -> String {
    thread
        .map(|t| format!(" in thread {t:?}"))
        .unwrap_or_default()
}

fn active_memory(kb: &KnowledgeBase, subject: &Subject, id: u64) -> Result<Memory> {
    match kb.get(id)? {
        Some(memory) if memory.status == Status::Active && !memory.badge.is_quarantined() => {
            Ok(memory)
        }
        _ => Err(EngramError::NoSuchMemory {
            id,
            subject: subject.to_string(),
        }),
    }
}

fn find_active_duplicate(
    kb: &KnowledgeBase,
    hash: &str,
    scope: Scope,
    profile: Option<(ProfileTarget, Option<&str>)>,
    anchors: &[Anchor],
) -> Result<Option<u64>> {
    let mut stmt = kb
        .conn()
        .prepare_cached("SELECT id FROM memories WHERE content_hash = ?1 AND scope = ?2 AND status = 'active' AND target IS ?3 AND day IS ?4")
        .map_err(|e| kb.err(e))?;
    let ids: Vec<u64> = stmt
        .query_map(
            rusqlite::params![
                hash,
                store::scope_str(scope),
                profile.map(|p| p.0.as_str()),
                profile.and_then(|p| p.1)
            ],
            |row| row.get::<_, i64>(0).map(|id| id as u64),
        )
        .and_then(|rows| rows.collect())
        .map_err(|e| kb.err(e))?;
    for id in ids {
        if store::anchors_of(kb.conn(), id).map_err(|e| kb.err(e))? == anchors {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

fn entries_containing(
    kb: &KnowledgeBase,
    target: ProfileTarget,
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

/// `YYYY-MM-DD` (UTC) for a Unix timestamp, by the days-to-civil algorithm.
pub fn civil_date(timestamp: i64) -> String {
    let days = timestamp.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn clamp_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn parse_args<T: for<'de> Deserialize<'de>>(
    policy: &str,
    tool: &str,
    canonical: &str,
) -> Result<T> {
    // The policy's canonical form is checked again: a policy is never trusted.
    serde_json::from_str(canonical).map_err(|e| {
        EngramError::Policy(crate::error::PolicyError::BadAnswer {
            policy: policy.to_owned(),
            call: "validate",
            problem: format!("canonical {tool} arguments do not match the host's schema: {e}"),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_match_the_calendar() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(951_782_400), "2000-02-29");
        assert_eq!(civil_date(1_796_083_200), "2026-12-01");
        assert_eq!(civil_date(-86_400), "1969-12-31");
    }
}
