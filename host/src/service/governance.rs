//! Governance of a knowledge base: the review queue, settings, statistics, the audit log and
//! the rendered profile files. Every change here is one transaction with its audit event.

use kenning_contract::types::{FieldError, MemoryKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Service, civil_date};
use crate::api::{ReviewStatus, Reviewed};
use crate::error::{KenningError, Result};
use crate::provenance;
use crate::settings;
use crate::store::{Author, Event, Memory, MemoryFilter, MemoryTarget, Status};
use crate::subject::Subject;

/// The most entries a review listing shows.
const REVIEW_PAGE: u32 = 1000;

/// The decision on a memory awaiting review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Accept it: it becomes NATIVE (or FOREIGN when a peer shared it), keeping its author.
    Accept,
    /// Reject it: it is kept for the audit trail and never used.
    Reject,
}

/// Most memories one page of [`Service::list_memories`] holds.
pub const MAX_LIST_LIMIT: u32 = 100;

/// Which memories a listing shows, by where they stand in review.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListStatus {
    /// In force: accepted (NATIVE or FOREIGN) and active.
    #[default]
    Accepted,
    /// Awaiting review (PENDING or INBOUND-PENDING).
    Pending,
    /// Both.
    All,
}

/// What one page of a listing asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRequest {
    /// Only memories of this type.
    pub kind: Option<MemoryKind>,
    /// Only memories carrying this tag (`#` optional, any case).
    pub tag: Option<String>,
    /// Only memories whose text holds every content word of this.
    pub words: Option<String>,
    /// Accepted, pending or both.
    pub status: ListStatus,
    /// The page, from 1.
    pub page: u32,
    /// Memories a page holds, 1 to [`MAX_LIST_LIMIT`].
    pub limit: u32,
}

impl Default for ListRequest {
    fn default() -> Self {
        ListRequest {
            kind: None,
            tag: None,
            words: None,
            status: ListStatus::Accepted,
            page: 1,
            limit: 20,
        }
    }
}

/// One page of a subject's active memories, newest first, and how many there are in all.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryPage {
    /// The memories of this page.
    pub memories: Vec<Memory>,
    /// How many memories match in all.
    pub total: u64,
    /// This page, from 1.
    pub page: u32,
    /// Most memories a page holds.
    pub limit: u32,
    /// How many pages there are (0 when nothing matches).
    pub pages: u64,
}

/// What [`Service::forget_all`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ForgottenAll {
    /// How many memories were forgotten.
    pub forgotten: u64,
}

/// A profile's files as the agent would read them.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileView {
    /// USER.md, or `None` when it has no entries.
    pub user: Option<String>,
    /// MEMORY.md, or `None` when it has no entries.
    pub memory: Option<String>,
    /// Today's date and its daily note, or `None` when today has no entries.
    pub daily: Option<(String, String)>,
}

/// A memory awaiting review, with why it was written as it was.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InReview {
    /// The memory.
    #[serde(flatten)]
    pub memory: Memory,
    /// The detail of its first audit event, when it has one: what the safety scan held it for
    /// ("held for review: ..."), a proposal's reason, the file an import read it from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl std::ops::Deref for InReview {
    type Target = Memory;

    fn deref(&self) -> &Memory {
        &self.memory
    }
}

impl Service {
    /// Memories awaiting review (PENDING and INBOUND-PENDING), oldest first, each with why it
    /// was written as it was, for a human `reader` (anyone else is refused: see
    /// [`provenance::may_review`]).
    pub fn review_list(&self, subject: &Subject, reader: Author) -> Result<Vec<InReview>> {
        refuse_unless_reviewer(reader, "the review queue")?;
        let kb = self.open_existing(subject)?;
        let memories = kb.read(|store| store.in_review(REVIEW_PAGE))?;
        let ids: Vec<u64> = memories.iter().map(|m| m.id).collect();
        let mut why = kb.first_event_details(&ids)?;
        Ok(memories
            .into_iter()
            .map(|memory| InReview {
                why: why.remove(&memory.id),
                memory,
            })
            .collect())
    }

    /// Accepts or rejects a memory awaiting review, on behalf of `reviewer`.
    ///
    /// Accepting a proposal that revises another memory supersedes that memory; accepting one
    /// that forgets another ([`Memory::forgets`]) forgets both for good, the request being
    /// settled. A peer's proposal can never replace a NATIVE memory. Decided under the write lock, on the memories
    /// as they then stand: of two reviewers deciding on one proposal at once, one decides and
    /// the other is told it no longer awaits review.
    pub fn review(
        &self,
        subject: &Subject,
        id: u64,
        decision: Decision,
        reviewer: &str,
    ) -> Result<Reviewed> {
        // Only a human reviews (see `provenance::may_review`).
        self.check_fields(
            "review",
            Author::Human,
            &[("reviewer".to_owned(), reviewer.to_owned())],
        )?;
        let mut kb = self.open_existing(subject)?;
        let now = self.now();
        let actor = format!("reviewer:{reviewer}");
        let reviewed = kb.write(|tx| {
            let proposal = match tx.memory(id)? {
                Some(m) if m.status == Status::Active && m.badge.is_quarantined() => m,
                Some(m) => {
                    return Err(KenningError::Conflict(format!(
                        "memory {id} is not awaiting review (status {}, badge {})",
                        m.status, m.badge
                    )));
                }
                None => {
                    return Err(KenningError::NoSuchMemory {
                        id,
                        subject: subject.to_string(),
                    });
                }
            };
            let (verb, changed) = match proposal.forgets {
                Some(target) => ("forgets", Some(target)),
                None => ("revises", tx.supersedes(id)?),
            };
            let replaced = match changed {
                Some(old) => match tx.memory(old)? {
                    Some(m) if m.status == Status::Active => Some(m),
                    // What it would have changed is gone: it can still be rejected.
                    _ if decision == Decision::Reject => None,
                    _ => {
                        return Err(KenningError::Usage(format!(
                            "memory {id} {verb} memory {old}, which is no longer active; reject it instead"
                        )));
                    }
                },
                None => None,
            };
            if decision == Decision::Reject {
                tx.reject(proposal.id, reviewer, now)?;
                tx.append_event(
                    Some(proposal.id),
                    now,
                    &Event {
                        actor: &actor,
                        action: "reject",
                        before_hash: Some(&proposal.content_hash),
                        after_hash: None,
                        detail: None,
                    },
                )?;
                return Ok(Reviewed {
                    id: proposal.id,
                    status: ReviewStatus::Rejected,
                    badge: None,
                    superseded: None,
                    forgotten: None,
                });
            }
            let badge = provenance::badge_when_accepted(proposal.badge);
            if let Some(old) = &replaced
                && !provenance::may_supersede(proposal.badge, old.badge)
            {
                return Err(KenningError::Forbidden(format!(
                    "memory {id} was shared by a peer and would overwrite native memory {}: a peer never overwrites a native memory",
                    old.id
                )));
            }
            tx.accept(id, badge, reviewer, now)?;
            // A request to forget, settled, is forgotten with the memory it names; a revision
            // supersedes the memory it revises.
            let forgotten = proposal.forgets.is_some();
            if let Some(old) = &replaced {
                if forgotten {
                    tx.forget(old.id, now)?;
                    tx.forget(id, now)?;
                    tx.append_event(
                        Some(old.id),
                        now,
                        &Event {
                            actor: &actor,
                            action: "forget",
                            before_hash: Some(&old.content_hash),
                            after_hash: None,
                            detail: Some(&format!("as memory {id} asked")),
                        },
                    )?;
                } else {
                    tx.set_status(old.id, Status::Superseded, now)?;
                }
            }
            tx.append_event(
                Some(id),
                now,
                &Event {
                    actor: &actor,
                    action: "accept",
                    before_hash: replaced.as_ref().map(|m| m.content_hash.as_str()),
                    after_hash: (!forgotten).then_some(proposal.content_hash.as_str()),
                    detail: None,
                },
            )?;
            let changed = replaced.map(|m| m.id);
            Ok(Reviewed {
                id,
                status: ReviewStatus::Accepted,
                badge: (!forgotten).then_some(badge),
                superseded: changed.filter(|_| !forgotten),
                forgotten: changed.filter(|_| forgotten),
            })
        })?;
        // Only an accepted request to forget erased text.
        if reviewed.forgotten.is_some() {
            super::scrub(&mut kb);
        }
        Ok(reviewed)
    }

    /// One memory by id, as `reader` may read it ([`provenance::may_read`]): a forgotten or
    /// rejected memory, or one awaiting review asked for by anyone but a human, is no memory
    /// here, exactly as an id never used.
    pub fn memory(&self, subject: &Subject, reader: Author, id: u64) -> Result<Memory> {
        readable(self.open_existing(subject)?.get(id)?, subject, reader, id)
    }

    /// Memory `id` as [`Service::memory`] reads it, with why it was written as it was when
    /// `reader` is a human (the audit trail is a reviewer's, see [`provenance::may_review`]):
    /// the detail of its first audit event, such as what the safety scan marked or held it for.
    pub fn memory_and_why(
        &self,
        subject: &Subject,
        reader: Author,
        id: u64,
    ) -> Result<(Memory, Option<String>)> {
        let kb = self.open_existing(subject)?;
        let memory = readable(kb.get(id)?, subject, reader, id)?;
        let why = if provenance::may_review(reader) {
            kb.first_event_details(&[id])?.remove(&id)
        } else {
            None
        };
        Ok((memory, why))
    }

    /// One page of a subject's active memories, newest first, with the totals. Memories
    /// awaiting review are listed (`pending`, `all`) to a human `reader` only.
    pub fn list_memories(
        &self,
        subject: &Subject,
        reader: Author,
        request: &ListRequest,
    ) -> Result<MemoryPage> {
        if request.status != ListStatus::Accepted {
            refuse_unless_reviewer(reader, "memories awaiting review")?;
        }
        let invalid = |path: &str, message: String| KenningError::Invalid {
            tool: "list".to_owned(),
            errors: vec![FieldError::new(path, message)],
        };
        if request.page == 0 {
            return Err(invalid("page", "pages count from 1".into()));
        }
        if !(1..=MAX_LIST_LIMIT).contains(&request.limit) {
            return Err(invalid(
                "limit",
                format!("expected 1 to {MAX_LIST_LIMIT}, got {}", request.limit),
            ));
        }
        if let Some(words) = &request.words
            && words.len() > kenning_contract::MAX_QUERY_BYTES
        {
            return Err(KenningError::TooLarge {
                what: "the query".into(),
                size: words.len(),
                limit: kenning_contract::MAX_QUERY_BYTES,
            });
        }
        let tags = match request.tag.as_deref().map(|t| t.trim_start_matches('#')) {
            None => Vec::new(),
            Some(tag) if kenning_contract::is_tag(tag) => vec![tag.to_ascii_lowercase()],
            Some(tag) => {
                return Err(invalid(
                    "tag",
                    format!(
                        "{:?} is not a tag: 1 to 64 of A-Z a-z 0-9 _ . : / -",
                        tag.chars().take(40).collect::<String>()
                    ),
                ));
            }
        };
        let filter = MemoryFilter {
            query: request.words.clone().unwrap_or_default(),
            kind: request.kind,
            tags,
            include_quarantined: request.status == ListStatus::All,
            only_quarantined: request.status == ListStatus::Pending,
            limit: request.limit,
            offset: (request.page - 1).saturating_mul(request.limit),
            ..MemoryFilter::default()
        };
        let (memories, total) = self.open_existing(subject)?.list_counted(&filter)?;
        Ok(MemoryPage {
            memories,
            total,
            page: request.page,
            limit: request.limit,
            pages: total.div_ceil(u64::from(request.limit)),
        })
    }

    /// Forgets every active memory of a subject (accepted or awaiting review) in one
    /// transaction, each with its audit event; when `author` may not forget one of them
    /// (see [`provenance::may_forget`]) nothing is forgotten.
    pub fn forget_all(
        &self,
        subject: &Subject,
        author: Author,
        thread: Option<&str>,
    ) -> Result<ForgottenAll> {
        if let Some(thread) = thread {
            settings::check_thread(thread)?;
        }
        let mut kb = self.open_for_write(subject, thread, false)?;
        let filter = MemoryFilter {
            include_quarantined: true,
            limit: u32::MAX,
            ..MemoryFilter::default()
        };
        let (memories, _) = kb.list_counted(&filter)?;
        if let Some(kept) = memories.iter().find(|m| !provenance::may_forget(author, m)) {
            return Err(KenningError::Forbidden(format!(
                "a {author} author may not forget memory {} (written by {}, badge {}), so nothing was forgotten; ask the user",
                kept.id, kept.author, kept.badge
            )));
        }
        let now = self.now();
        super::forgetting(&mut kb, |tx| {
            for memory in &memories {
                tx.forget(memory.id, now)?;
                tx.append_event(
                    Some(memory.id),
                    now,
                    &Event {
                        actor: author.as_str(),
                        action: "forget",
                        before_hash: Some(&memory.content_hash),
                        after_hash: None,
                        detail: Some("forget all"),
                    },
                )?;
            }
            Ok(())
        })?;
        Ok(ForgottenAll {
            forgotten: memories.len() as u64,
        })
    }

    /// Memories of a subject matching `filter`; one that includes memories awaiting review
    /// is for a human `reader` only.
    pub fn list(
        &self,
        subject: &Subject,
        reader: Author,
        filter: &MemoryFilter,
    ) -> Result<Vec<Memory>> {
        if filter.include_quarantined || filter.only_quarantined {
            refuse_unless_reviewer(reader, "memories awaiting review")?;
        }
        let kb = self.open_existing(subject)?;
        Ok(kb.search(filter)?.into_iter().map(|(m, _)| m).collect())
    }

    /// One page (from 1) of memories matching `filter`: up to 1,000 of each scope (or of the
    /// filter's scope), global ones first.
    pub fn list_page(
        &self,
        subject: &Subject,
        reader: Author,
        filter: &MemoryFilter,
        page: u32,
    ) -> Result<Vec<Memory>> {
        const PAGE: u32 = 1000;
        let scopes = match filter.scope {
            Some(scope) => vec![scope],
            None => vec![
                kenning_contract::types::Scope::Global,
                kenning_contract::types::Scope::Local,
            ],
        };
        let mut out = Vec::new();
        for scope in scopes {
            let filter = MemoryFilter {
                scope: Some(scope),
                limit: PAGE,
                offset: page.max(1).saturating_sub(1).saturating_mul(PAGE),
                ..filter.clone()
            };
            out.extend(self.list(subject, reader, &filter)?);
        }
        Ok(out)
    }

    /// The settings in force for `thread` (global when `None`).
    pub fn settings(&self, subject: &Subject, thread: Option<&str>) -> Result<settings::Settings> {
        if let Some(thread) = thread {
            settings::check_thread(thread)?;
        }
        self.open_existing(subject)?.settings(thread)
    }

    /// Changes a setting, globally or for one thread; the change is audited.
    pub fn set_setting(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        key: &str,
        value: &str,
    ) -> Result<settings::Settings> {
        self.set_settings(subject, thread, Author::Human, &[(key, value)])
    }

    /// Turns memory on or off ([`settings::MEMORY_SWITCH`]: recall, writes and injection
    /// together), globally or for one thread, in one audited transaction.
    pub fn set_memory_enabled(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        author: Author,
        enabled: bool,
    ) -> Result<settings::Settings> {
        let value = if enabled { "true" } else { "false" };
        let changes: Vec<(&str, &str)> = settings::MEMORY_SWITCH
            .iter()
            .map(|&key| (key, value))
            .collect();
        self.set_settings(subject, thread, author, &changes)
    }

    /// Changes settings, globally or for one thread, in one transaction with an audit event
    /// for each; all are checked before any is saved.
    pub fn set_settings(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        author: Author,
        changes: &[(&str, &str)],
    ) -> Result<settings::Settings> {
        let changes = changes
            .iter()
            .map(|&(key, value)| Ok((key, settings::normalize(key, value, thread)?)))
            .collect::<Result<Vec<_>>>()?;
        if let Some(thread) = thread {
            self.check_fields(
                "settings",
                author,
                &[("thread".to_owned(), thread.to_owned())],
            )?;
        }
        let mut kb = self.open_existing(subject)?;
        let now = self.now();
        kb.write(|tx| {
            for (key, value) in &changes {
                let previous = tx.save_setting(thread, key, value)?;
                let detail = format!(
                    "{key}{} = {value} (was {})",
                    thread.map(|t| format!(" [thread {t}]")).unwrap_or_default(),
                    previous.as_deref().unwrap_or("default")
                );
                tx.append_event(
                    None,
                    now,
                    &Event {
                        actor: author.as_str(),
                        action: "setting",
                        before_hash: None,
                        after_hash: None,
                        detail: Some(&detail),
                    },
                )?;
            }
            Ok(())
        })?;
        kb.settings(thread)
    }

    /// Totals by type, scope, badge and status, the oldest and newest memory, and the limits
    /// and settings in force.
    pub fn stats(&self, subject: &Subject) -> Result<Value> {
        let kb = self.open_existing(subject)?;
        let mut stats = kb.read(|store| store.stats())?;
        let settings = kb.settings(None)?;
        stats["subject"] = json!(subject.to_string());
        stats["schema_version"] = json!(kb.schema_version()?);
        stats["limits"] = json!({
            "max_memories": settings.max_memories,
            "max_text_bytes": kenning_contract::MAX_TEXT_BYTES,
            "max_args_bytes": kenning_contract::MAX_ARGS_BYTES,
            "list_page": 1000,
        });
        stats["memory_enabled"] = json!(settings.memory_enabled());
        stats["settings"] = json!(settings);
        Ok(stats)
    }

    /// The most recent audit events, newest first.
    pub fn log(&self, subject: &Subject, limit: u32) -> Result<Vec<Value>> {
        self.open_existing(subject)?.events(limit)
    }

    /// Renders a profile's USER.md, MEMORY.md and today's note from its accepted entries.
    pub fn view(&self, subject: &Subject) -> Result<ProfileView> {
        self.view_on(subject, &civil_date(self.now()))
    }

    /// A profile's files as [`Self::view`] renders them, with the daily note of `day`
    /// (`YYYY-MM-DD`) for today's.
    pub fn view_on(&self, subject: &Subject, day: &str) -> Result<ProfileView> {
        let kb = self.open_existing(subject)?;
        let entries = |target: MemoryTarget| -> Result<Vec<Memory>> {
            let filter = MemoryFilter {
                target: Some(target),
                limit: 10_000,
                ..MemoryFilter::default()
            };
            let mut memories: Vec<Memory> =
                kb.search(&filter)?.into_iter().map(|(m, _)| m).collect();
            memories.sort_by_key(|m| (m.created_at, m.id));
            Ok(memories)
        };
        let render = |title: &str, memories: &[Memory]| -> Option<String> {
            let texts: Vec<&str> = memories.iter().map(|m| m.text.as_str()).collect();
            super::profile_files::render(title, &texts)
        };
        let daily: Vec<Memory> = entries(MemoryTarget::Daily)?
            .into_iter()
            .filter(|m| m.day.as_deref() == Some(day))
            .collect();
        Ok(ProfileView {
            user: render("USER.md", &entries(MemoryTarget::User)?),
            memory: render("MEMORY.md", &entries(MemoryTarget::Memory)?),
            daily: render(&format!("{day}.md"), &daily).map(|text| (day.to_owned(), text)),
        })
    }
}

/// Refuses `reader` unless it may see the review queue ([`provenance::may_review`]).
fn refuse_unless_reviewer(reader: Author, what: &str) -> Result<()> {
    if provenance::may_review(reader) {
        Ok(())
    } else {
        Err(KenningError::Forbidden(format!(
            "{what}: for a human reviewer only, and this caller is {reader}"
        )))
    }
}

/// `found`, memory `id` of `subject`, if `reader` may read it ([`provenance::may_read`]); else
/// the error an id never used gets.
fn readable(found: Option<Memory>, subject: &Subject, reader: Author, id: u64) -> Result<Memory> {
    found
        .filter(|memory| provenance::may_read(reader, memory))
        .ok_or_else(|| KenningError::NoSuchMemory {
            id,
            subject: subject.to_string(),
        })
}
