//! An example kenning memory policy, written only against `kenning-contract`:
//!
//! - **select**: the newest memories first (by last change), within the quotas, the token
//!   budget and the snapshot size; the contract's default selection does the rest;
//! - **scan**: stricter than the default policy: any text holding a URL, a credential
//!   assignment (`password=…`, `api_key: …`) or a long key-like token is blocked, never
//!   redacted;
//! - **validate**: the contract's default (the agent's short form made whole, then read
//!   strictly as the closed records);
//! - **consolidate**: expires suggestions and daily notes past their retention.

use kenning_contract::{Candidates, Policy};
use kenning_contract::types::{
    ConsolidationPlan, Context, Expiry, Finding, Retention, ScanItem, ScanResult,
    ScoreParts, Target, Verdict,
};

/// Newest first, strict scan.
pub struct Recency;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Words that name a secret when a value is assigned to them.
const SECRET_NAMES: &[&str] = &["password", "passwd", "secret", "token", "api_key", "apikey"];

/// Shortest run of letters and digits that counts as a key.
const KEY_LIKE_BYTES: usize = 20;

impl Policy for Recency {
    const NAME: &'static str = "recency";
    const VERSION: &'static str = "0.1.0";

    fn scan(items: &[ScanItem]) -> Vec<ScanResult> {
        items.iter().map(|item| scan_one(&item.text)).collect()
    }

    fn score(context: &Context, candidates: Candidates<'_>) -> Vec<ScoreParts> {
        candidates
            .iter()
            .map(|c| {
                let age_days = (context.now - c.updated_at).max(0) as f32 / DAY as f32;
                let recency = 1.0 / (1.0 + age_days / 7.0);
                ScoreParts {
                    anchor: 0.0,
                    lexical: 0.0,
                    confidence: c.confidence.clamp(0.0, 1.0),
                    recency,
                    total: recency,
                }
            })
            .collect()
    }

    fn consolidate(
        now: i64,
        memories: &[kenning_contract::types::StoredMemory],
        retention: &Retention,
    ) -> ConsolidationPlan {
        let expiries = memories
            .iter()
            .filter_map(|m| {
                let age = (now - m.created_at).max(0) / DAY;
                if m.pending && age > i64::from(retention.pending_days) {
                    Some(format!("a suggestion unreviewed for {age} days"))
                } else if m.target == Some(Target::Daily) && age > i64::from(retention.daily_days) {
                    Some(format!("a daily note {age} days old"))
                } else {
                    None
                }
                .map(|reason| Expiry { id: m.id, reason })
            })
            .collect();
        ConsolidationPlan {
            expiries,
            ..ConsolidationPlan::default()
        }
    }
}

kenning_contract::export_policy!(Recency);

/// Blocks the text if anything in it is a URL or looks like a secret.
fn scan_one(text: &str) -> ScanResult {
    let findings = findings(text);
    if findings.is_empty() {
        return ScanResult {
            verdict: Verdict::Allow,
            text: text.to_owned(),
            findings,
            reason: None,
        };
    }
    let kinds: Vec<&str> = findings.iter().map(|f| f.kind.as_str()).collect();
    ScanResult {
        verdict: Verdict::Block,
        text: String::new(),
        reason: Some(format!(
            "the recency policy stores no URLs and nothing that looks like a key; found: {}",
            kinds.join(", ")
        )),
        findings,
    }
}

/// URLs, credential assignments and key-like tokens, in input order.
fn findings(text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut words = words(text).peekable();
    while let Some((start, word)) = words.next() {
        let end = start + word.len();
        let lower = word.to_ascii_lowercase();
        let name = lower.split(['=', ':']).next().unwrap_or_default();
        let assigned = lower.contains(['=', ':'])
            || words
                .peek()
                .is_some_and(|(_, next)| next.starts_with(['=', ':']));
        let kind = if lower.contains("://") || lower.starts_with("www.") {
            Some("url")
        } else if SECRET_NAMES.iter().any(|s| name.ends_with(s)) && assigned {
            Some("credential")
        } else if lower.starts_with("-----begin") {
            Some("private-key")
        } else if word.split(['=', ':']).any(key_like) {
            Some("key-like")
        } else {
            None
        };
        if let Some(kind) = kind {
            out.push(Finding {
                kind: kind.to_owned(),
                start: start as u32,
                end: end as u32,
            });
        }
    }
    out
}

/// Whitespace-separated words with their byte offsets, stripped of quotes and brackets.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |w| {
        let start = w.as_ptr() as usize - text.as_ptr() as usize;
        let trimmed = w.trim_start_matches(['"', '\'', '(', '[', '<', '`']);
        let offset = w.len() - trimmed.len();
        let trimmed = trimmed.trim_end_matches(['"', '\'', ')', ']', '>', '`', ',', '.', ';']);
        (start + offset, trimmed)
    })
}

/// A long run of key alphabet mixing letters and digits, such as `AKIA…` or `sk-live-…`.
fn key_like(token: &str) -> bool {
    token.len() >= KEY_LIKE_BYTES
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_+/".contains(&b))
        && token.bytes().any(|b| b.is_ascii_digit())
        && token.bytes().any(|b| b.is_ascii_alphabetic())
}
