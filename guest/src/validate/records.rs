//! The record kinds: `import-record` (one line of a JSONL export) and `extraction` (the
//! memories a model proposes after reading a conversation). They reuse the tools' field
//! readers, so a tag, an anchor or a thread means the same everywhere.

use serde::Serialize;

use super::args::{
    Author, Badge, ExtractedMemory, Extraction, IMPORT_FORMAT, ImportRecord, MemoryTarget, Status,
};
use super::json::Json;
use super::reader::{self, Errors, Object};
use super::{
    anchors, categories, check_placement, confidence, image_base, memory_kind, new_memory,
    new_memory_fields_and, optional, reason, scope, settle, tags, thread, top,
};
use crate::types::Scope;
use crate::{MAX_EXTRACTION_ITEMS, MAX_TEXT_BYTES};

/// Largest id or timestamp an import record may carry: what a SQLite integer holds.
const MAX_STORED_INTEGER: u64 = i64::MAX as u64;
/// Hex digits of a SHA-256 content hash.
const CONTENT_HASH_DIGITS: usize = 64;

/// `import-record`: one line of a JSONL export; the schema is documented on [`ImportRecord`].
pub(super) fn import_record(value: &Json<'_>, errors: &mut Errors) -> Option<ImportRecord> {
    let obj = top(
        value,
        &[
            "format",
            "id",
            "scope",
            "type",
            "target",
            "day",
            "text",
            "tags",
            "categories",
            "confidence",
            "anchors",
            "image_base",
            "author",
            "badge",
            "status",
            "thread",
            "content_hash",
            "supersedes",
            "created_at",
            "updated_at",
        ],
        errors,
    )?;
    let format = obj.required("format", errors).and_then(|v| {
        let path = obj.path("format");
        match v {
            Json::String(s) if s == IMPORT_FORMAT => Some(IMPORT_FORMAT.to_string()),
            Json::String(s) => {
                errors.push(
                    &path,
                    format!("unsupported format '{s}' (expected {IMPORT_FORMAT})"),
                );
                None
            }
            _ => {
                errors.push(&path, reader::expected("a string", v));
                None
            }
        }
    });
    let id = stored_id(&obj, "id", errors);
    let scope = obj
        .required("scope", errors)
        .and_then(|v| scope(v, &obj.path("scope"), errors));
    let kind = obj
        .required("type", errors)
        .and_then(|v| memory_kind(v, &obj.path("type"), errors));
    let target = optional(&obj, "target", errors, profile_target);
    let day = optional(&obj, "day", errors, day);
    let text = obj
        .required("text", errors)
        .and_then(|v| reader::verbatim(v, &obj.path("text"), MAX_TEXT_BYTES, errors));
    let tags = optional(&obj, "tags", errors, tags).unwrap_or(Some(Vec::new()));
    let categories = optional(&obj, "categories", errors, categories).unwrap_or(Some(Vec::new()));
    let confidence = obj
        .required("confidence", errors)
        .and_then(|v| confidence(v, &obj.path("confidence"), errors));
    let image_base = image_base(&obj, errors);
    let anchors = optional(&obj, "anchors", errors, |v, p, e| {
        anchors(v, p, image_base.unwrap_or(0), e)
    })
    .unwrap_or(Some(Vec::new()));
    let author = obj
        .required("author", errors)
        .and_then(|v| author(v, &obj.path("author"), errors));
    let badge = optional(&obj, "badge", errors, badge);
    let status = optional(&obj, "status", errors, status).unwrap_or(Some(Status::Active));
    let thread = optional(&obj, "thread", errors, thread);
    let content_hash = optional(&obj, "content_hash", errors, content_hash);
    let supersedes = obj
        .get("supersedes")
        .map(|_| stored_id(&obj, "supersedes", errors));
    let created_at = timestamp(&obj, "created_at", errors);
    let updated_at = timestamp(&obj, "updated_at", errors);

    // Rules between fields, checked once the fields themselves read cleanly.
    let mut consistent = true;
    if let (Some(scope), Some(anchors)) = (scope, &anchors) {
        consistent &= check_placement(scope, anchors, &obj, errors).is_some();
    }
    if let (Some(Scope::Local), Some(Some(_))) = (scope, target) {
        errors.push(
            &obj.path("target"),
            "a profile entry is global; a local memory has no target",
        );
        consistent = false;
    }
    match (target, &day) {
        (Some(Some(MemoryTarget::Daily)), None) => {
            errors.push(&obj.path("day"), "required for a daily entry");
            consistent = false;
        }
        (Some(Some(MemoryTarget::User | MemoryTarget::Memory)) | None, Some(Some(_))) => {
            errors.push(
                &obj.path("day"),
                "only a daily entry (target daily) has a day",
            );
            consistent = false;
        }
        _ => {}
    }
    if let (Some(Some(badge)), Some(author)) = (badge, author) {
        consistent &= check_badge(author, badge, &obj.path("badge"), errors);
    }
    if let (Some(Some(old)), Some(id)) = (supersedes, id)
        && old == id
    {
        errors.push(&obj.path("supersedes"), "a memory cannot supersede itself");
        consistent = false;
    }
    if let (Some(created), Some(updated)) = (created_at, updated_at)
        && updated < created
    {
        errors.push(
            &obj.path("updated_at"),
            format!("must not be before created_at ({updated} < {created})"),
        );
        consistent = false;
    }
    if !consistent {
        return None;
    }
    Some(ImportRecord {
        format: format?,
        id: id?,
        scope: scope?,
        kind: kind?,
        target: settle(target)?,
        day: settle(day)?,
        text: text?,
        tags: tags?,
        categories: categories?,
        confidence: confidence?,
        anchors: anchors?,
        image_base: image_base?,
        author: author?,
        badge: settle(badge)?,
        status: status?,
        thread: settle(thread)?,
        content_hash: settle(content_hash)?,
        supersedes: settle(supersedes)?,
        created_at: created_at? as i64,
        updated_at: updated_at? as i64,
    })
}

/// `extraction`: `{"memories": [...]}`, at most [`MAX_EXTRACTION_ITEMS`] items, each read like
/// `remember`'s arguments (`text` required; `scope`, `type`, `anchors`, `image_base`, `tags`,
/// `categories`, `confidence` with the same rules and defaults) plus an optional `reason` (up
/// to 512 bytes). Errors are named by item, such as `memories[2].text`.
pub(super) fn extraction(value: &Json<'_>, errors: &mut Errors) -> Option<Extraction> {
    let obj = top(value, &["memories"], errors)?;
    let memories = obj.required("memories", errors).and_then(|v| {
        reader::list(
            v,
            &obj.path("memories"),
            MAX_EXTRACTION_ITEMS,
            errors,
            extracted_memory,
        )
    });
    Some(Extraction {
        memories: memories?,
    })
}

/// One proposed memory of an extraction, at `path`.
fn extracted_memory(value: &Json<'_>, path: &str, errors: &mut Errors) -> Option<ExtractedMemory> {
    let before = errors.0.len();
    let obj = Object::open(value, path, &new_memory_fields_and("reason"), errors)?;
    let memory = new_memory(&obj, errors);
    let reason = optional(&obj, "reason", errors, reason);
    let memory = memory?;
    // Unknown fields were recorded without stopping the reading of known ones.
    if errors.0.len() != before {
        return None;
    }
    Some(ExtractedMemory {
        text: memory.text,
        scope: memory.scope,
        kind: memory.kind,
        anchors: memory.anchors,
        tags: memory.tags,
        categories: memory.categories,
        confidence: memory.confidence,
        image_base: memory.image_base,
        reason: settle(reason)?,
    })
}

/// An id as the store keeps them: an integer from 1 to 2^63 - 1. Required when read.
fn stored_id(obj: &Object<'_>, key: &str, errors: &mut Errors) -> Option<u64> {
    let v = obj.required(key, errors)?;
    reader::integer_in(v, &obj.path(key), 1, MAX_STORED_INTEGER, errors)
}

/// A required timestamp: seconds since the Unix epoch, 0 to 2^63 - 1.
fn timestamp(obj: &Object<'_>, key: &str, errors: &mut Errors) -> Option<u64> {
    let v = obj.required(key, errors)?;
    reader::integer_in(v, &obj.path(key), 0, MAX_STORED_INTEGER, errors)
}

fn profile_target(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<MemoryTarget> {
    reader::choice(v, path, MemoryTarget::NAMES, errors).and_then(MemoryTarget::parse)
}

/// A calendar date written `YYYY-MM-DD` (proleptic Gregorian, years 0001 to 9999).
fn day(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<String> {
    let Json::String(s) = v else {
        errors.push(path, reader::expected("a date string", v));
        return None;
    };
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        b.get(range.clone())
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(|_| s[range].parse().expect("ASCII digits parse"))
    };
    let parts = (b.len() == 10 && b[4] == b'-' && b[7] == b'-')
        .then(|| Some((digits(0..4)?, digits(5..7)?, digits(8..10)?)))
        .flatten();
    let Some((year, month, day)) = parts else {
        errors.push(path, format!("expected a date as YYYY-MM-DD, got '{s}'"));
        return None;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if year == 0 || day == 0 || day > days_in_month {
        errors.push(path, format!("no such date '{s}'"));
        return None;
    }
    Some(s.to_string())
}

fn author(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Author> {
    reader::choice(v, path, Author::NAMES, errors).and_then(Author::parse)
}

fn badge(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Badge> {
    reader::choice(v, path, Badge::NAMES, errors).and_then(Badge::parse)
}

/// Whether `badge` is one a memory by `author` can have in a knowledge base that exported it:
/// a new memory is NATIVE for a trusted author, PENDING for an external client and
/// INBOUND-PENDING for a peer; a revision the agent (or an external client) may only propose is
/// PENDING; review turns PENDING into NATIVE and INBOUND-PENDING into FOREIGN; and what a store
/// imported is FOREIGN, or INBOUND-PENDING until reviewed, whoever wrote it. A human's memory is
/// never PENDING, a peer's never NATIVE or PENDING. Records an error at `path` when it is not.
fn check_badge(author: Author, badge: Badge, path: &str, errors: &mut Errors) -> bool {
    let (fits, expected) = match author {
        Author::Human => (
            matches!(
                badge,
                Badge::Native | Badge::Foreign | Badge::InboundPending
            ),
            "native, foreign or inbound_pending",
        ),
        Author::Agent | Author::Triage | Author::External => (true, ""),
        Author::Peer => (
            matches!(badge, Badge::InboundPending | Badge::Foreign),
            "inbound_pending or foreign",
        ),
    };
    if !fits {
        errors.push(
            path,
            format!(
                "a memory by {} cannot be {} (expected {expected})",
                enum_name(author),
                enum_name(badge)
            ),
        );
    }
    fits
}

/// The snake_case name a unit enum serialises to.
fn enum_name(value: impl Serialize) -> String {
    let quoted = serde_json::to_string(&value).unwrap_or_default();
    quoted
        .strip_prefix('"')
        .and_then(|name| name.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

fn status(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Status> {
    reader::choice(v, path, Status::NAMES, errors).and_then(Status::parse)
}

/// A SHA-256 content hash: 64 hex digits in either case, returned lowercase.
fn content_hash(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<String> {
    let Json::String(s) = v else {
        errors.push(path, reader::expected("a hex string", v));
        return None;
    };
    if s.len() != CONTENT_HASH_DIGITS || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        errors.push(
            path,
            format!("expected {CONTENT_HASH_DIGITS} hex digits (a SHA-256 of the text)"),
        );
        return None;
    }
    Some(s.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::validate;
    use crate::args::{Author, Badge, Extraction, ImportRecord, MemoryTarget, Status};
    use crate::types::{Anchor, FunctionAnchor, MemoryKind, Scope};
    use crate::{MAX_ARGS_BYTES, MAX_EXTRACTION_BYTES, MAX_EXTRACTION_ITEMS, MAX_TEXT_BYTES};

    const HASH: &str = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08";

    /// The smallest valid import record; tests change one field at a time.
    fn minimal() -> Value {
        json!({
            "format": "kenning-memory/1", "id": 1, "scope": "global", "type": "fact",
            "text": "the sample is packed", "confidence": 0.5, "author": "human",
            "created_at": 100, "updated_at": 100
        })
    }

    fn with(changes: Value) -> Value {
        let mut record = minimal();
        for (key, value) in changes.as_object().unwrap() {
            if value.is_null() {
                record.as_object_mut().unwrap().remove(key);
            } else {
                record[key] = value.clone();
            }
        }
        record
    }

    fn errs(kind: &str, value: &Value) -> Vec<(String, String)> {
        validate(kind, &value.to_string())
            .expect_err("should fail")
            .into_iter()
            .map(|e| (e.path, e.message))
            .collect()
    }

    fn err(kind: &str, value: &Value) -> (String, String) {
        let mut all = errs(kind, value);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0)
    }

    fn paths(kind: &str, value: &Value) -> Vec<String> {
        errs(kind, value).into_iter().map(|(p, _)| p).collect()
    }

    fn pair(path: &str, message: &str) -> (String, String) {
        (path.to_string(), message.to_string())
    }

    #[test]
    fn minimal_import_record_fills_defaults_and_reads_back() {
        let call = validate("import-record", &minimal().to_string()).unwrap();
        assert_eq!(call.tool, "import-record");
        assert_eq!(
            call.args_json,
            r#"{"format":"kenning-memory/1","id":1,"scope":"global","type":"fact","target":null,"day":null,"text":"the sample is packed","tags":[],"categories":[],"confidence":0.5,"anchors":[],"image_base":0,"author":"human","badge":null,"status":"active","thread":null,"content_hash":null,"supersedes":null,"created_at":100,"updated_at":100}"#
        );
        let back: ImportRecord = serde_json::from_str(&call.args_json).unwrap();
        assert_eq!(back.status, Status::Active);
        assert_eq!(back.author, Author::Human);
        // The canonical form is closed too.
        let mut extra: Value = serde_json::from_str(&call.args_json).unwrap();
        extra["recall_count"] = json!(3);
        let error = serde_json::from_value::<ImportRecord>(extra).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("unknown field `recall_count`"),
            "{error}"
        );
    }

    #[test]
    fn full_import_record_is_canonicalised() {
        let record = json!({
            "format": "kenning-memory/1", "id": 42, "scope": "local", "type": "Context",
            "text": "  decrypt_config uses RC4\n", "tags": ["#Crypto", "crypto", "rc4"],
            "categories": ["malware", "malware"], "confidence": 1,
            "anchors": [
                {"kind": "function", "start": "0x401000", "end": "0x401200", "name": " decrypt_config "},
                {"kind": "string", "value": "RC4 key"}
            ],
            "image_base": "0x400000", "author": "peer", "badge": "INBOUND_PENDING",
            "status": "superseded", "thread": "t-7", "content_hash": HASH, "supersedes": 41,
            "created_at": 1_700_000_000, "updated_at": 1_700_000_500
        });
        let call = validate("import-record", &record.to_string()).unwrap();
        let back: ImportRecord = serde_json::from_str(&call.args_json).unwrap();
        assert_eq!(
            back,
            ImportRecord {
                format: "kenning-memory/1".into(),
                id: 42,
                scope: Scope::Local,
                kind: MemoryKind::Context,
                target: None,
                day: None,
                // Kept exactly, so the content hash stays checkable.
                text: "  decrypt_config uses RC4\n".into(),
                tags: vec!["crypto".into(), "rc4".into()],
                categories: vec!["malware".into()],
                confidence: 1.0,
                anchors: vec![
                    Anchor::Function(FunctionAnchor {
                        start: 0x1000,
                        end: Some(0x1200),
                        name: "decrypt_config".into()
                    }),
                    Anchor::String {
                        value: "RC4 key".into()
                    }
                ],
                image_base: 0x400000,
                author: Author::Peer,
                badge: Some(Badge::InboundPending),
                status: Status::Superseded,
                thread: Some("t-7".into()),
                content_hash: Some(HASH.to_ascii_lowercase()),
                supersedes: Some(41),
                created_at: 1_700_000_000,
                updated_at: 1_700_000_500,
            }
        );
        // Canonical output validates again to itself, apart from anchors (offsets now).
        let again = validate("import-record", &call.args_json);
        assert_eq!(
            again.unwrap_err()[0].path,
            "anchors[0].start",
            "canonical anchors are offsets, below the recorded image base"
        );
    }

    #[test]
    fn import_record_requires_its_core_fields() {
        assert_eq!(
            paths("import-record", &json!({})),
            [
                "format",
                "id",
                "scope",
                "type",
                "text",
                "confidence",
                "author",
                "created_at",
                "updated_at"
            ]
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({"format": "kenning-memory/2"}))
            ),
            pair(
                "format",
                "unsupported format 'kenning-memory/2' (expected kenning-memory/1)"
            )
        );
    }

    #[test]
    fn import_record_unknown_fields_are_named_by_path() {
        assert_eq!(
            err("import-record", &with(json!({"recall_count": 3}))),
            pair(
                "recall_count",
                "unknown field (expected one of format, id, scope, type, target, day, text, tags, categories, confidence, anchors, image_base, author, badge, status, thread, content_hash, supersedes, created_at, updated_at)"
            )
        );
        let local = with(json!({
            "scope": "local",
            "anchors": [{"kind": "address", "address": 16, "colour": "red"}]
        }));
        assert_eq!(paths("import-record", &local), ["anchors[0].colour"]);
    }

    #[test]
    fn import_record_wrong_types_name_the_expected_type() {
        let record = with(json!({
            "id": "7", "text": 5, "confidence": "high", "tags": "a,b", "created_at": 1.5,
            "author": 1, "content_hash": 12, "day": []
        }));
        assert_eq!(
            errs("import-record", &record),
            [
                pair("id", "expected an integer, got a string"),
                pair("day", "expected a date string, got an array"),
                pair("text", "expected a string, got a number"),
                pair("tags", "expected an array, got a string"),
                pair("confidence", "expected a number, got a string"),
                pair("author", "expected a string, got a number"),
                pair("content_hash", "expected a hex string, got a number"),
                pair("created_at", "expected an integer, got a fractional number"),
            ]
        );
    }

    #[test]
    fn import_record_ranges_are_checked() {
        assert_eq!(
            err("import-record", &with(json!({"confidence": 1.5}))),
            pair("confidence", "must be between 0 and 1 (got 1.5)")
        );
        assert_eq!(
            err("import-record", &with(json!({"confidence": -0.1}))),
            pair("confidence", "must be between 0 and 1 (got -0.1)")
        );
        assert_eq!(
            err("import-record", &with(json!({"id": 0}))),
            pair("id", "must be between 1 and 9223372036854775807 (got 0)")
        );
        assert_eq!(
            err("import-record", &with(json!({"id": u64::MAX}))),
            pair(
                "id",
                "must be between 1 and 9223372036854775807 (got 18446744073709551615)"
            )
        );
        assert_eq!(
            err("import-record", &with(json!({"created_at": -5}))),
            pair("created_at", "expected a non-negative integer")
        );
        assert_eq!(
            err("import-record", &with(json!({"status": "deleted"}))),
            pair(
                "status",
                "unknown value 'deleted' (expected one of active, forgotten, rejected, superseded)"
            )
        );
    }

    #[test]
    fn import_record_text_is_bounded_and_not_empty() {
        assert_eq!(
            err("import-record", &with(json!({"text": " \n\t"}))),
            pair("text", "must not be empty")
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({"text": "a".repeat(MAX_TEXT_BYTES + 1)}))
            ),
            pair("text", "must be at most 8192 bytes (got 8193)")
        );
        let at_limit = with(json!({"text": "a".repeat(MAX_TEXT_BYTES)}));
        assert!(validate("import-record", &at_limit.to_string()).is_ok());
    }

    #[test]
    fn import_record_anchors_follow_the_anchor_schema() {
        let record = with(json!({
            "scope": "local", "image_base": "0x400000",
            "anchors": [
                {"kind": "function", "start": "0x1000", "name": "f"},
                {"kind": "range", "start": "0x401010", "end": "0x401000"},
                {"kind": "near", "address": "0x401000", "radius": 0}
            ]
        }));
        assert_eq!(
            errs("import-record", &record),
            [
                pair(
                    "anchors[0].start",
                    "address 0x1000 is below image_base 0x400000"
                ),
                pair("anchors[1].end", "end must be greater than start"),
                pair("anchors[2].radius", "must be between 1 and 1048576 (got 0)"),
            ]
        );
        assert_eq!(
            err("import-record", &with(json!({"scope": "local"}))),
            pair("anchors", "a local memory needs at least one anchor")
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({"anchors": [{"kind": "address", "address": 1}]}))
            ),
            pair("anchors", "a global memory has no anchors")
        );
    }

    #[test]
    fn import_record_profile_entries_follow_the_memory_tool() {
        let daily = with(json!({"target": "daily", "day": "2024-02-29"}));
        let back: ImportRecord = serde_json::from_str(
            &validate("import-record", &daily.to_string())
                .unwrap()
                .args_json,
        )
        .unwrap();
        assert_eq!(back.target, Some(MemoryTarget::Daily));
        assert_eq!(back.day.as_deref(), Some("2024-02-29"));
        assert!(
            validate(
                "import-record",
                &with(json!({"target": "user", "type": "preference"})).to_string()
            )
            .is_ok()
        );

        assert_eq!(
            err("import-record", &with(json!({"target": "daily"}))),
            pair("day", "required for a daily entry")
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({"target": "memory", "day": "2024-01-01"}))
            ),
            pair("day", "only a daily entry (target daily) has a day")
        );
        assert_eq!(
            err("import-record", &with(json!({"day": "2024-01-01"}))),
            pair("day", "only a daily entry (target daily) has a day")
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({
                    "target": "user", "scope": "local",
                    "anchors": [{"kind": "address", "address": 1}]
                }))
            ),
            pair(
                "target",
                "a profile entry is global; a local memory has no target"
            )
        );
        for (day, message) in [
            ("2023-02-29", "no such date '2023-02-29'"),
            ("2024-13-01", "no such date '2024-13-01'"),
            ("0000-01-01", "no such date '0000-01-01'"),
            (
                "2024-1-01",
                "expected a date as YYYY-MM-DD, got '2024-1-01'",
            ),
            (
                "2024/01/01",
                "expected a date as YYYY-MM-DD, got '2024/01/01'",
            ),
            (
                "２０２４-01-01",
                "expected a date as YYYY-MM-DD, got '２０２４-01-01'",
            ),
        ] {
            assert_eq!(
                err(
                    "import-record",
                    &with(json!({"target": "daily", "day": day}))
                ),
                pair("day", message),
                "{day}"
            );
        }
    }

    #[test]
    fn import_record_updated_at_is_not_before_created_at() {
        assert_eq!(
            err(
                "import-record",
                &with(json!({"created_at": 200, "updated_at": 199}))
            ),
            pair("updated_at", "must not be before created_at (199 < 200)")
        );
        assert!(
            validate(
                "import-record",
                &with(json!({"created_at": 0, "updated_at": 0})).to_string()
            )
            .is_ok()
        );
    }

    #[test]
    fn import_record_badge_fits_its_author() {
        for (author, badge) in [
            ("human", "native"),
            ("human", "foreign"),
            ("human", "inbound_pending"),
            ("triage", "native"),
            // A revision the agent proposed, awaiting review.
            ("agent", "pending"),
            ("agent", "foreign"),
            ("agent", "inbound_pending"),
            ("external", "pending"),
            ("external", "native"),
            ("peer", "inbound_pending"),
            ("peer", "foreign"),
        ] {
            let record = with(json!({"author": author, "badge": badge}));
            assert!(
                validate("import-record", &record.to_string()).is_ok(),
                "{author} {badge}"
            );
        }
        assert_eq!(
            err(
                "import-record",
                &with(json!({"author": "human", "badge": "pending"}))
            ),
            pair(
                "badge",
                "a memory by human cannot be pending (expected native, foreign or inbound_pending)"
            )
        );
        assert_eq!(
            err(
                "import-record",
                &with(json!({"author": "peer", "badge": "native"}))
            ),
            pair(
                "badge",
                "a memory by peer cannot be native (expected inbound_pending or foreign)"
            )
        );
        assert_eq!(
            err("import-record", &with(json!({"badge": "INBOUND-PENDING"}))),
            pair(
                "badge",
                "unknown value 'INBOUND-PENDING' (expected one of native, pending, inbound_pending, foreign)"
            )
        );
    }

    #[test]
    fn import_record_hash_and_supersedes_are_checked() {
        let message = "expected 64 hex digits (a SHA-256 of the text)";
        for bad in [&HASH[1..], &format!("{HASH}0"), &HASH.replace('F', "g")] {
            assert_eq!(
                err("import-record", &with(json!({"content_hash": bad}))),
                pair("content_hash", message)
            );
        }
        assert_eq!(
            err("import-record", &with(json!({"id": 9, "supersedes": 9}))),
            pair("supersedes", "a memory cannot supersede itself")
        );
        assert_eq!(
            err("import-record", &with(json!({"supersedes": 0}))).0,
            "supersedes"
        );
    }

    #[test]
    fn records_reject_malformed_oversize_and_non_object_input() {
        let e = validate("import-record", r#"{"format": "kenning-memory/1","#).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "");
        assert!(
            e[0].message
                .starts_with("malformed JSON: EOF while parsing"),
            "{}",
            e[0].message
        );
        let big = " ".repeat(MAX_ARGS_BYTES + 1);
        assert_eq!(
            validate("import-record", &big).unwrap_err()[0].message,
            format!(
                "the record is {} bytes; the limit is {MAX_ARGS_BYTES}",
                MAX_ARGS_BYTES + 1
            )
        );
        assert_eq!(
            err("import-record", &json!([minimal()])),
            pair("", "expected a JSON object, got an array")
        );
        assert_eq!(
            err("extraction", &json!("memories")),
            pair("", "expected a JSON object, got a string")
        );
        assert!(
            validate("extraction", "{\"memories\": [}").unwrap_err()[0]
                .message
                .starts_with("malformed JSON")
        );
    }

    #[test]
    fn extraction_items_read_like_remember() {
        let call = validate("extraction", r#"{"memories": []}"#).unwrap();
        assert_eq!(call.tool, "extraction");
        assert_eq!(call.args_json, r#"{"memories":[]}"#);

        let value = json!({"memories": [
            {"text": " prefers terse answers ", "type": "preference", "reason": " said so twice "},
            {"text": "decrypt_config uses RC4", "image_base": "0x400000", "confidence": 0.9,
             "anchors": [{"kind": "address", "address": "0x401000"}], "tags": ["#RC4"]}
        ]});
        let call = validate("extraction", &value.to_string()).unwrap();
        assert_eq!(
            call.args_json,
            r#"{"memories":[{"text":"prefers terse answers","scope":"global","type":"preference","anchors":[],"tags":[],"categories":[],"confidence":0.8,"image_base":0,"reason":"said so twice"},{"text":"decrypt_config uses RC4","scope":"local","type":"fact","anchors":[{"kind":"address","offset":4096}],"tags":["rc4"],"categories":[],"confidence":0.9,"image_base":4194304,"reason":null}]}"#
        );
        let back: Extraction = serde_json::from_str(&call.args_json).unwrap();
        assert_eq!(back.memories[1].scope, Scope::Local);
    }

    #[test]
    fn extraction_item_errors_are_named_by_index() {
        let value = json!({"memories": [
            {"text": "ok", "confidence": 2},
            {"text": "x", "anchors": [{"kind": "range", "start": 5}], "colour": "red"},
            {"text": "   "},
            "just text",
            {"text": "y", "scope": "local"},
            {"text": "z", "reason": "r".repeat(513)}
        ]});
        assert_eq!(
            errs("extraction", &value),
            [
                pair("memories[0].confidence", "must be between 0 and 1 (got 2)"),
                pair(
                    "memories[1].colour",
                    "unknown field (expected one of text, scope, anchors, type, tags, categories, confidence, image_base, reason)"
                ),
                pair("memories[1].anchors[0].end", "required field is missing"),
                pair("memories[2].text", "must not be empty"),
                pair("memories[3]", "expected an object, got a string"),
                pair(
                    "memories[4].anchors",
                    "a local memory needs at least one anchor"
                ),
                pair("memories[5].reason", "must be at most 512 bytes (got 513)"),
            ]
        );
        assert_eq!(
            err(
                "extraction",
                &json!({"memories": [{"text": "a"}, {"text": "b"}, {"text": 3}]})
            ),
            pair("memories[2].text", "expected a string, got a number")
        );
    }

    #[test]
    fn extraction_is_closed_and_bounded() {
        assert_eq!(
            err("extraction", &json!({})),
            pair("memories", "required field is missing")
        );
        assert_eq!(
            errs("extraction", &json!({"memories": [], "summary": "x"}))[0].0,
            "summary"
        );
        let items: Vec<Value> = (0..=MAX_EXTRACTION_ITEMS)
            .map(|i| json!({"text": format!("note {i}")}))
            .collect();
        assert_eq!(
            err("extraction", &json!({"memories": items})),
            pair("memories", "at most 32 items allowed (got 33)")
        );
        // Up to 32 full-size memories fit, past the tool-call limit.
        let items: Vec<Value> = (0..MAX_EXTRACTION_ITEMS)
            .map(|_| json!({"text": "a".repeat(MAX_TEXT_BYTES)}))
            .collect();
        let full = json!({"memories": items}).to_string();
        assert!(full.len() > MAX_ARGS_BYTES);
        assert_eq!(
            validate("extraction", &full).map(|c| c.tool),
            Ok("extraction".to_string())
        );
        let huge = format!("{{\"memories\": []}}{}", " ".repeat(MAX_EXTRACTION_BYTES));
        assert_eq!(
            validate("extraction", &huge).unwrap_err()[0].message,
            format!(
                "the extraction is {} bytes; the limit is {MAX_EXTRACTION_BYTES}",
                huge.len()
            )
        );
    }
}
