//! An example kenning memory policy, written only against `kenning-contract`:
//!
//! - **select**: the newest memories first (by last change), within the quotas, the token
//!   budget and the snapshot size; the contract's default selection does the rest;
//! - **scan**: stricter than the default policy: any text holding a URL, a credential
//!   assignment (`password=…`, `api_key: …`) or a long key-like token is blocked, never
//!   redacted;
//! - **validate**: the agent's arguments with the documented defaults filled in, then read
//!   strictly as the contract's closed records;
//! - **consolidate**: expires suggestions and daily notes past their retention.

use kenning_contract::Policy;
use kenning_contract::args::{ForgetMemory, MemoryEdit, Recall, Remember, ReviseMemory};
use kenning_contract::types::{
    Candidate, ConsolidationPlan, Context, Expiry, FieldError, Finding, Retention, ScanItem,
    ScanResult, ScoreParts, Target, ValidatedCall, Verdict,
};
use serde_json::{Map, Value, json};

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

    fn validate(tool: &str, args_json: &str) -> Result<ValidatedCall, Vec<FieldError>> {
        let whole = |message: String| vec![FieldError::new("", message)];
        let raw: Value = serde_json::from_str(args_json).map_err(|e| whole(e.to_string()))?;
        let Value::Object(mut args) = raw else {
            return Err(whole("expected a JSON object".to_owned()));
        };
        let canonical = match tool {
            "remember" | "revise_memory" | "recall" => fill_defaults(tool, &mut args)?,
            _ => Value::Object(args),
        };
        let strict = |value: Value| -> Result<String, Vec<FieldError>> {
            let json = value.to_string();
            match tool {
                "remember" => read::<Remember>(&json),
                "revise_memory" => read::<ReviseMemory>(&json),
                "forget_memory" => read::<ForgetMemory>(&json),
                "recall" => read::<Recall>(&json),
                "memory" => read::<MemoryEdit>(&json),
                other => Err(whole(format!(
                    "unknown tool {other:?}; expected one of {}",
                    kenning_contract::TOOLS.join(", ")
                ))),
            }
        };
        Ok(ValidatedCall {
            tool: tool.to_owned(),
            args_json: strict(canonical)?,
        })
    }

    fn scan(items: &[ScanItem]) -> Vec<ScanResult> {
        items.iter().map(|item| scan_one(&item.text)).collect()
    }

    fn score(context: &Context, candidates: &[Candidate]) -> Vec<ScoreParts> {
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

/// Reads `json` as the closed record `T` and writes it back canonically.
fn read<T: serde::de::DeserializeOwned + serde::Serialize>(
    json: &str,
) -> Result<String, Vec<FieldError>> {
    let record: T =
        serde_json::from_str(json).map_err(|e| vec![FieldError::new("", e.to_string())])?;
    serde_json::to_string(&record).map_err(|e| vec![FieldError::new("", e.to_string())])
}

/// Fills the documented defaults of `remember`, `revise_memory` and `recall`, trims the text
/// and turns the agent's anchors (addresses as numbers or `0x…` strings) into file offsets.
fn fill_defaults(tool: &str, args: &mut Map<String, Value>) -> Result<Value, Vec<FieldError>> {
    let image_base = match args.get("image_base") {
        None => 0,
        Some(v) => address(v).map_err(|m| vec![FieldError::new("image_base", m)])?,
    };
    args.insert("image_base".into(), json!(image_base));
    for key in ["text", "query"] {
        if let Some(Value::String(s)) = args.get_mut(key) {
            *s = s.trim().to_owned();
            if s.len() > kenning_contract::MAX_TEXT_BYTES {
                return Err(vec![FieldError::new(key, "too long")]);
            }
            if key == "text" && s.is_empty() {
                return Err(vec![FieldError::new(key, "must not be empty")]);
            }
        }
    }
    if let Some(Value::Array(anchors)) = args.get_mut("anchors") {
        for (i, a) in anchors.iter_mut().enumerate() {
            *a = anchor(a, image_base)
                .map_err(|m| vec![FieldError::new(format!("anchors[{i}]"), m)])?;
        }
    }
    if let Some(a) = args.get_mut("anchor").filter(|a| !a.is_null()) {
        *a = anchor(a, image_base).map_err(|m| vec![FieldError::new("anchor", m)])?;
    }
    let defaults = match tool {
        "remember" => {
            let anchored = args
                .get("anchors")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            json!({"scope": if anchored { "local" } else { "global" }, "type": "fact", "anchors": [],
                   "tags": [], "categories": [], "confidence": 0.8, "thread": null})
        }
        "recall" => json!({"query": "", "scope": "any", "tags": [], "categories": [], "limit": 10,
                           "offset": 0}),
        _ => json!({}),
    };
    if let Value::Object(defaults) = defaults {
        for (key, value) in defaults {
            args.entry(key).or_insert(value);
        }
    }
    Ok(Value::Object(std::mem::take(args)))
}

/// An address written as a number or a decimal or `0x` string.
fn address(value: &Value) -> Result<u64, String> {
    match value {
        Value::Number(n) => n.as_u64().ok_or_else(|| "expected an address".to_owned()),
        Value::String(s) => kenning_contract::parse_address(s).map_err(str::to_owned),
        _ => Err("expected an address".to_owned()),
    }
}

/// One agent anchor in the contract's form: addresses rebased to file offsets, `address` and
/// `near` naming their place `offset`.
fn anchor(value: &Value, image_base: u64) -> Result<Value, String> {
    let Value::Object(fields) = value else {
        return Err("expected an anchor object".to_owned());
    };
    let mut out = Map::new();
    for (key, v) in fields {
        let key = match (fields.get("kind").and_then(Value::as_str), key.as_str()) {
            (Some("address" | "near"), "address") => "offset",
            (_, key) => key,
        };
        let offset = |v: &Value| -> Result<Value, String> {
            let a = address(v)?;
            a.checked_sub(image_base)
                .map(|o| json!(o))
                .ok_or_else(|| format!("{key} lies below the image base"))
        };
        let v = match key {
            "start" | "end" | "offset" if !v.is_null() => offset(v)?,
            _ => v.clone(),
        };
        out.insert(key.to_owned(), v);
    }
    Ok(Value::Object(out))
}

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
