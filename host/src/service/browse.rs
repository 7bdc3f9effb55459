//! The read tools besides `recall` and `context`: `get_memory` (one memory by id),
//! `recent_memories` (what was written in a time window) and `memory_stats` (the totals). Each
//! reads only what its caller may ([`provenance::may_read`]: nothing awaiting review, forgotten
//! or rejected), and none reads while recall is off.

use std::collections::BTreeMap;

use super::Service;
use crate::api::{
    self, GetMemoryArgs, MAX_RECENT, MemoryStats, RecentMemories, RecentMemoriesArgs,
};
use crate::error::{KenningError, Result};
use crate::service::governance::{ListRequest, ListStatus, MAX_LIST_LIMIT};
use crate::settings::Settings;
use crate::store::{Author, Memory};
use crate::subject::Subject;
use crate::time::{parse_rfc3339, rfc3339};
use kenning_contract::types::FieldError;

/// The window `recent_memories` looks back over by default.
const DEFAULT_WINDOW_SECONDS: i64 = 7 * 86_400;
/// Most memories `recent_memories` lists by default.
const DEFAULT_RECENT: u32 = 20;

impl Service {
    /// `get_memory`: memory `id`, as `reader` may read it.
    pub(super) fn get_memory(
        &self,
        subject: &Subject,
        reader: Author,
        args: &GetMemoryArgs,
    ) -> Result<Memory> {
        self.readable(subject)?;
        self.memory(subject, reader, args.id)
    }

    /// `recent_memories`: the accepted memories written between `since` and `until`, newest
    /// first, within the limit and the answer's size.
    pub(super) fn recent_memories(
        &self,
        subject: &Subject,
        reader: Author,
        args: &RecentMemoriesArgs,
    ) -> Result<RecentMemories> {
        let invalid = |path: &str, message: String| KenningError::Invalid {
            tool: "recent_memories".to_owned(),
            errors: vec![FieldError::new(path, message)],
        };
        let until = match &args.until {
            Some(text) => parse_rfc3339(text).map_err(|m| invalid("until", m))?,
            None => self.now(),
        };
        let since = match &args.since {
            Some(text) => parse_rfc3339(text).map_err(|m| invalid("since", m))?,
            None => until - DEFAULT_WINDOW_SECONDS,
        };
        if since > until {
            return Err(invalid(
                "since",
                "the window's start is after its end".into(),
            ));
        }
        let limit = args.limit.unwrap_or(DEFAULT_RECENT);
        if !(1..=MAX_RECENT).contains(&limit) {
            return Err(invalid(
                "limit",
                format!("expected 1 to {MAX_RECENT}, got {limit}"),
            ));
        }
        let mut answer = RecentMemories {
            count: 0,
            memories: Vec::new(),
            truncated: false,
            since: rfc3339(since),
            until: rfc3339(until),
        };
        if !self.readable(subject)? {
            return Ok(answer);
        }
        // Pages of the listing, newest first, until the window's start: one more memory than
        // the limit, to know whether it cut.
        'pages: for page in 1.. {
            let listed = self.list_memories(
                subject,
                reader,
                &ListRequest {
                    kind: args.kind,
                    status: ListStatus::Accepted,
                    page,
                    limit: MAX_LIST_LIMIT,
                    ..ListRequest::default()
                },
            )?;
            for memory in &listed.memories {
                if memory.created_at < since || answer.memories.len() > limit as usize {
                    break 'pages;
                }
                if memory.created_at <= until {
                    answer.memories.push(memory.clone());
                }
            }
            if u64::from(page) >= listed.pages {
                break;
            }
        }
        let found = answer.memories.len();
        answer.memories.truncate(limit as usize);
        let envelope = api::json_len(&RecentMemories {
            memories: Vec::new(),
            ..answer.clone()
        });
        let keep = api::fitting(&answer.memories, envelope, self.max_result_bytes());
        answer.memories.truncate(keep);
        answer.truncated = answer.memories.len() < found;
        answer.count = answer.memories.len();
        Ok(answer)
    }

    /// `memory_stats` and the HTTP API's stats: the totals of [`Service::stats`], typed, times
    /// in RFC 3339.
    pub fn memory_stats(&self, subject: &Subject) -> Result<MemoryStats> {
        if self.backend.open(subject, false)?.is_none() {
            // No knowledge base yet: nothing counted, and the default settings.
            let settings = Settings::default();
            return Ok(MemoryStats {
                active: 0,
                awaiting_review: 0,
                by_type: BTreeMap::new(),
                by_scope: BTreeMap::new(),
                by_badge: BTreeMap::new(),
                by_status: BTreeMap::new(),
                oldest: None,
                newest: None,
                max_memories: settings.max_memories,
                memory_enabled: settings.memory_enabled(),
            });
        }
        let stats = self.stats(subject)?;
        let counts = |key: &str| -> BTreeMap<String, u64> {
            stats[key]
                .as_object()
                .map(|map| {
                    map.iter()
                        .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let by_badge = counts("by_badge");
        let awaiting_review = ["pending", "inbound_pending"]
            .iter()
            .filter_map(|b| by_badge.get(*b))
            .sum();
        let time = |key: &str| stats[key].as_i64().map(rfc3339);
        Ok(MemoryStats {
            active: stats["active"].as_u64().unwrap_or(0),
            awaiting_review,
            by_type: counts("by_type"),
            by_scope: counts("by_scope"),
            by_badge,
            by_status: counts("by_status"),
            oldest: time("oldest"),
            newest: time("newest"),
            max_memories: stats["limits"]["max_memories"].as_u64(),
            memory_enabled: stats["memory_enabled"].as_bool().unwrap_or(false),
        })
    }

    /// Whether `subject` has a knowledge base to read; a read tool is refused when recall is
    /// off for it (see the `allow_recall` setting).
    fn readable(&self, subject: &Subject) -> Result<bool> {
        let Some(kb) = self.backend.open(subject, false)? else {
            return Ok(false);
        };
        if kb.settings(None)?.allow_recall {
            Ok(true)
        } else {
            Err(KenningError::Forbidden(format!(
                "recall is disabled for {subject}"
            )))
        }
    }
}
