//! Closed schemas for the tool calls and the record kinds: every field checked, every problem
//! reported with its path, canonical JSON out.

mod anchor;
#[cfg(test)]
mod differential;
mod json;
mod reader;
mod records;

pub use kenning_contract::args;
pub use kenning_contract::{RECORDS, TOOLS, is_tag, is_thread_id, parse_address};

use serde::Serialize;

use self::args::{
    ForgetMemory, MemoryAction, MemoryEdit, MemoryTarget, Recall, RecallScope, Remember,
    ReviseMemory,
};
use self::json::Json;
use self::reader::{Errors, Object};
use crate::types::{Anchor, FieldError, MemoryKind, Scope, ValidatedCall};
use crate::{
    MAX_ANCHORS, MAX_ARGS_BYTES, MAX_CATEGORIES, MAX_EXTRACTION_BYTES, MAX_QUERY_BYTES,
    MAX_RECALL_LIMIT, MAX_TAG_BYTES, MAX_TAGS, MAX_TEXT_BYTES, MAX_THREAD_BYTES,
};

const DEFAULT_CONFIDENCE: f64 = 0.8;
const DEFAULT_RECALL_LIMIT: u64 = 10;
const MAX_CATEGORY_BYTES: usize = 64;
const MAX_REASON_BYTES: usize = 512;

/// Every schema [`validate`] reads: the tools, then the record kinds. The validate fuzz target's
/// first byte picks from this order, so its seeds depend on it.
pub fn schemas() -> impl Iterator<Item = &'static str> {
    TOOLS.iter().chain(RECORDS).copied()
}

/// Validates `args_json` against the schema named `tool` (a tool or a record kind); see
/// [`crate::validate`].
pub fn validate(tool: &str, args_json: &str) -> Result<ValidatedCall, Vec<FieldError>> {
    let fail = |message: String| Err(vec![FieldError::new("", message)]);
    let is_tool = TOOLS.contains(&tool);
    if !is_tool && !RECORDS.contains(&tool) {
        return fail(format!(
            "unknown tool or record kind '{tool}' (tools: {}; record kinds: {})",
            TOOLS.join(", "),
            RECORDS.join(", ")
        ));
    }
    let (what, limit) = match tool {
        "extraction" => ("the extraction is", MAX_EXTRACTION_BYTES),
        _ if is_tool => ("arguments are", MAX_ARGS_BYTES),
        _ => ("the record is", MAX_ARGS_BYTES),
    };
    if args_json.len() > limit {
        return fail(format!(
            "{what} {} bytes; the limit is {limit}",
            args_json.len()
        ));
    }
    let value = match json::parse_strict(args_json) {
        Ok(v) => v,
        Err(e) => return fail(format!("malformed JSON: {e}")),
    };
    let mut errors = Errors::default();
    let room = args_json.len() + CANONICAL_EXTRA_BYTES;
    let canonical = match tool {
        "remember" => remember(&value, &mut errors).map(|args| to_json(args, room)),
        "revise_memory" => revise_memory(&value, &mut errors).map(|args| to_json(args, room)),
        "forget_memory" => forget_memory(&value, &mut errors).map(|args| to_json(args, room)),
        "recall" => recall(&value, &mut errors).map(|args| to_json(args, room)),
        "memory" => memory(&value, &mut errors).map(|args| to_json(args, room)),
        "import-record" => {
            records::import_record(&value, &mut errors).map(|args| to_json(args, room))
        }
        _ => records::extraction(&value, &mut errors).map(|args| to_json(args, room)),
    };
    match canonical {
        Some(args_json) if errors.is_empty() => Ok(ValidatedCall {
            tool: tool.to_string(),
            args_json,
        }),
        // Every failing reader records an error; this arm only guards that invariant.
        _ if errors.is_empty() => fail("invalid arguments".to_string()),
        _ => Err(errors.0),
    }
}

/// Room the canonical JSON may need beyond the input's length, for the defaults it spells out
/// (`"thread":null` and the like), so that writing it rarely grows its buffer.
const CANONICAL_EXTRA_BYTES: usize = 256;

/// The canonical JSON of `args`, written into a buffer of `room` bytes to start with.
fn to_json(args: impl Serialize, room: usize) -> String {
    let mut out = Vec::with_capacity(room);
    // The canonical records hold only strings, numbers, lists and finite floats.
    serde_json::to_writer(&mut out, &args).expect("canonical arguments serialise");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Opens the top-level value, which must be an object.
fn top<'a>(value: &'a Json<'a>, allowed: &[&str], errors: &mut Errors) -> Option<Object<'a>> {
    if !matches!(value, Json::Object(_)) {
        errors.push("", reader::expected("a JSON object", value));
        return None;
    }
    Object::open(value, "", allowed, errors)
}

/// A new memory's content and placement: what `remember` and an extraction item share.
struct NewMemory {
    text: String,
    scope: Scope,
    kind: MemoryKind,
    anchors: Vec<Anchor>,
    tags: Vec<String>,
    categories: Vec<String>,
    confidence: f64,
    image_base: u64,
}

/// The fields [`new_memory`] reads, in the order error messages list them.
const NEW_MEMORY_FIELDS: [&str; 8] = [
    "text",
    "scope",
    "anchors",
    "type",
    "tags",
    "categories",
    "confidence",
    "image_base",
];

/// [`NEW_MEMORY_FIELDS`] followed by `extra`.
fn new_memory_fields_and(extra: &'static str) -> Vec<&'static str> {
    NEW_MEMORY_FIELDS.iter().copied().chain([extra]).collect()
}

/// Reads the fields of [`NewMemory`] ([`NEW_MEMORY_FIELDS`]) from `obj`: `text` required; `type` defaults to fact,
/// `confidence` to 0.8, `scope` to local when anchors are given (else global); a local memory
/// needs an anchor and a global one has none.
fn new_memory(obj: &Object<'_>, errors: &mut Errors) -> Option<NewMemory> {
    let text = obj
        .required("text", errors)
        .and_then(|v| memory_text(v, &obj.path("text"), errors));
    let scope = optional(obj, "scope", errors, scope);
    let kind = optional(obj, "type", errors, memory_kind).unwrap_or(Some(MemoryKind::Fact));
    let image_base = image_base(obj, errors);
    let anchors = optional(obj, "anchors", errors, |v, p, e| {
        anchors(v, p, image_base.unwrap_or(0), e)
    });
    let tags = optional(obj, "tags", errors, tags).unwrap_or(Some(Vec::new()));
    let categories = optional(obj, "categories", errors, categories).unwrap_or(Some(Vec::new()));
    let confidence =
        optional(obj, "confidence", errors, confidence).unwrap_or(Some(DEFAULT_CONFIDENCE));

    let anchors = anchors.unwrap_or(Some(Vec::new()))?;
    let scope = match scope {
        None => Some(if anchors.is_empty() {
            Scope::Global
        } else {
            Scope::Local
        }),
        Some(Some(scope)) => check_placement(scope, &anchors, obj, errors),
        Some(None) => None,
    };
    Some(NewMemory {
        text: text?,
        scope: scope?,
        kind: kind?,
        anchors,
        tags: tags?,
        categories: categories?,
        confidence: confidence?,
        image_base: image_base?,
    })
}

/// A local memory needs at least one anchor; a global one has none. Errors at `anchors`.
fn check_placement(
    scope: Scope,
    anchors: &[Anchor],
    obj: &Object<'_>,
    errors: &mut Errors,
) -> Option<Scope> {
    match scope {
        Scope::Local if anchors.is_empty() => {
            errors.push(
                &obj.path("anchors"),
                "a local memory needs at least one anchor",
            );
            None
        }
        Scope::Global if !anchors.is_empty() => {
            errors.push(&obj.path("anchors"), "a global memory has no anchors");
            None
        }
        _ => Some(scope),
    }
}

fn remember(value: &Json<'_>, errors: &mut Errors) -> Option<Remember> {
    let obj = top(value, &new_memory_fields_and("thread"), errors)?;
    let memory = new_memory(&obj, errors);
    let thread = optional(&obj, "thread", errors, thread);
    let memory = memory?;
    Some(Remember {
        text: memory.text,
        scope: memory.scope,
        kind: memory.kind,
        anchors: memory.anchors,
        tags: memory.tags,
        categories: memory.categories,
        confidence: memory.confidence,
        image_base: memory.image_base,
        thread: settle(thread)?,
    })
}

fn revise_memory(value: &Json<'_>, errors: &mut Errors) -> Option<ReviseMemory> {
    let obj = top(
        value,
        &[
            "id",
            "text",
            "type",
            "tags",
            "categories",
            "confidence",
            "anchors",
            "image_base",
            "reason",
            "thread",
        ],
        errors,
    )?;
    let id = memory_id(&obj, errors);
    let text = optional(&obj, "text", errors, memory_text);
    let kind = optional(&obj, "type", errors, memory_kind);
    let image_base = image_base(&obj, errors);
    let anchors = optional(&obj, "anchors", errors, |v, p, e| {
        anchors(v, p, image_base.unwrap_or(0), e)
    });
    let tags = optional(&obj, "tags", errors, tags);
    let categories = optional(&obj, "categories", errors, categories);
    let confidence = optional(&obj, "confidence", errors, confidence);
    let reason = optional(&obj, "reason", errors, reason);
    let thread = optional(&obj, "thread", errors, thread);
    let revisable = [
        "text",
        "type",
        "tags",
        "categories",
        "confidence",
        "anchors",
    ];
    if !revisable.iter().any(|key| obj.get(key).is_some()) {
        errors.push(
            "",
            format!(
                "nothing to revise (give at least one of {})",
                revisable.join(", ")
            ),
        );
        return None;
    }
    Some(ReviseMemory {
        id: id?,
        text: settle(text)?,
        kind: settle(kind)?,
        anchors: settle(anchors)?,
        tags: settle(tags)?,
        categories: settle(categories)?,
        confidence: settle(confidence)?,
        image_base: image_base?,
        reason: settle(reason)?,
        thread: settle(thread)?,
    })
}

fn forget_memory(value: &Json<'_>, errors: &mut Errors) -> Option<ForgetMemory> {
    let obj = top(value, &["id", "reason", "thread"], errors)?;
    let id = memory_id(&obj, errors);
    let reason = optional(&obj, "reason", errors, reason);
    let thread = optional(&obj, "thread", errors, thread);
    Some(ForgetMemory {
        id: id?,
        reason: settle(reason)?,
        thread: settle(thread)?,
    })
}

fn recall(value: &Json<'_>, errors: &mut Errors) -> Option<Recall> {
    let obj = top(
        value,
        &[
            "query",
            "scope",
            "type",
            "tags",
            "categories",
            "anchor",
            "image_base",
            "limit",
            "offset",
            "thread",
        ],
        errors,
    )?;
    let query = optional(&obj, "query", errors, |v, p, e| {
        reader::string(v, p, 0, MAX_QUERY_BYTES, e)
    })
    .unwrap_or(Some(String::new()));
    let scope = optional(&obj, "scope", errors, |v, p, e| {
        reader::choice(v, p, &["global", "local", "any"], e).map(|s| match s {
            "global" => RecallScope::Global,
            "local" => RecallScope::Local,
            _ => RecallScope::Any,
        })
    })
    .unwrap_or(Some(RecallScope::Any));
    let kind = optional(&obj, "type", errors, memory_kind);
    let tags = optional(&obj, "tags", errors, tags).unwrap_or(Some(Vec::new()));
    let categories = optional(&obj, "categories", errors, categories).unwrap_or(Some(Vec::new()));
    let image_base = image_base(&obj, errors);
    let anchor = optional(&obj, "anchor", errors, |v, p, e| {
        anchor::anchor(v, p, image_base.unwrap_or(0), e)
    });
    let limit = optional(&obj, "limit", errors, |v, p, e| {
        reader::integer_in(v, p, 1, MAX_RECALL_LIMIT, e)
    })
    .unwrap_or(Some(DEFAULT_RECALL_LIMIT));
    let offset = optional(&obj, "offset", errors, reader::integer).unwrap_or(Some(0));
    let thread = optional(&obj, "thread", errors, thread);
    Some(Recall {
        query: query?,
        scope: scope?,
        kind: settle(kind)?,
        tags: tags?,
        categories: categories?,
        anchor: settle(anchor)?,
        image_base: image_base?,
        limit: limit?,
        offset: offset?,
        thread: settle(thread)?,
    })
}

fn memory(value: &Json<'_>, errors: &mut Errors) -> Option<MemoryEdit> {
    let obj = top(
        value,
        &["action", "target", "content", "old_text", "thread"],
        errors,
    )?;
    let action = obj.required("action", errors).and_then(|v| {
        reader::choice(
            v,
            &obj.path("action"),
            &["add", "replace", "remove"],
            errors,
        )
        .map(|s| match s {
            "add" => MemoryAction::Add,
            "replace" => MemoryAction::Replace,
            _ => MemoryAction::Remove,
        })
    });
    let target = obj.required("target", errors).and_then(|v| {
        reader::choice(v, &obj.path("target"), MemoryTarget::NAMES, errors)
            .and_then(MemoryTarget::parse)
    });
    let thread = optional(&obj, "thread", errors, thread);
    // Which of content / old_text the action needs (true) or forbids (false).
    let (wants_content, wants_old) = match action? {
        MemoryAction::Add => (true, false),
        MemoryAction::Replace => (true, true),
        MemoryAction::Remove => (false, true),
    };
    let action_name = match action? {
        MemoryAction::Add => "add",
        MemoryAction::Replace => "replace",
        MemoryAction::Remove => "remove",
    };
    let edit_text = |key: &str, wanted: bool, errors: &mut Errors| -> Option<Option<String>> {
        match (obj.get(key), wanted) {
            (Some(v), true) => memory_text(v, key, errors).map(Some),
            (None, true) => {
                errors.push(key, format!("{key} is required for {action_name}"));
                None
            }
            (Some(_), false) => {
                errors.push(key, format!("{key} is not allowed for {action_name}"));
                None
            }
            (None, false) => Some(None),
        }
    };
    let content = edit_text("content", wants_content, errors);
    let old_text = edit_text("old_text", wants_old, errors);
    Some(MemoryEdit {
        action: action?,
        target: target?,
        content: content?,
        old_text: old_text?,
        thread: settle(thread)?,
    })
}

/// Turns an optional field's reading into the canonical value: absent becomes `Some(None)`,
/// valid `Some(Some(v))`, invalid `None` (its error is already recorded).
fn settle<T>(read: Option<Option<T>>) -> Option<Option<T>> {
    match read {
        None => Some(None),
        Some(Some(v)) => Some(Some(v)),
        Some(None) => None,
    }
}

/// Reads an optional field: `None` when absent or null, `Some(None)` when present but invalid.
fn optional<T>(
    obj: &Object<'_>,
    key: &str,
    errors: &mut Errors,
    read: impl FnOnce(&Json<'_>, &str, &mut Errors) -> Option<T>,
) -> Option<Option<T>> {
    obj.get(key).map(|v| read(v, &obj.path(key), errors))
}

fn memory_id(obj: &Object<'_>, errors: &mut Errors) -> Option<u64> {
    let v = obj.required("id", errors)?;
    reader::integer_in(v, &obj.path("id"), 1, u64::MAX, errors)
}

fn image_base(obj: &Object<'_>, errors: &mut Errors) -> Option<u64> {
    optional(obj, "image_base", errors, |v, p, e| {
        reader::address(v, p, e)
    })
    .unwrap_or(Some(0))
}

fn memory_text(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<String> {
    reader::string(v, path, 1, MAX_TEXT_BYTES, errors)
}

fn scope(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Scope> {
    reader::choice(v, path, Scope::NAMES, errors).and_then(Scope::parse)
}

fn memory_kind(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<MemoryKind> {
    reader::choice(v, path, MemoryKind::NAMES, errors).and_then(MemoryKind::parse)
}

fn anchors(v: &Json<'_>, path: &str, image_base: u64, errors: &mut Errors) -> Option<Vec<Anchor>> {
    reader::list(v, path, MAX_ANCHORS, errors, |v, p, e| {
        anchor::anchor(v, p, image_base, e)
    })
}

fn confidence(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<f64> {
    reader::number_in(v, path, 0.0, 1.0, errors)
}

fn reason(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<String> {
    reader::string(v, path, 0, MAX_REASON_BYTES, errors)
}

/// A thread id (see [`is_thread_id`]).
fn thread(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<String> {
    let s = reader::string(v, path, 1, MAX_THREAD_BYTES, errors)?;
    if !is_thread_id(&s) {
        errors.push(path, "may only contain letters, digits and _ . : -");
        return None;
    }
    Some(s)
}

/// Tags: `#` stripped, [`is_tag`], lowercased, first occurrence kept.
fn tags(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Vec<String>> {
    let tags = reader::list(v, path, MAX_TAGS, errors, |v, p, e| {
        let raw = reader::string(v, p, 1, MAX_TAG_BYTES + 1, e)?;
        let tag = raw.strip_prefix('#').unwrap_or(&raw);
        if !is_tag(tag) {
            e.push(p, format!(
                "invalid tag '{raw}' (1 to {MAX_TAG_BYTES} of A-Z a-z 0-9 _ . : / -, starting with a letter, digit or _)"
            ));
            return None;
        }
        Some(tag.to_ascii_lowercase())
    })?;
    Some(dedup(tags))
}

/// Categories: 1 to 64 bytes each, no control characters, exact duplicates dropped.
fn categories(v: &Json<'_>, path: &str, errors: &mut Errors) -> Option<Vec<String>> {
    let categories = reader::list(v, path, MAX_CATEGORIES, errors, |v, p, e| {
        let s = reader::string(v, p, 1, MAX_CATEGORY_BYTES, e)?;
        if s.chars().any(char::is_control) {
            e.push(p, "must not contain control characters");
            return None;
        }
        Some(s)
    })?;
    Some(dedup(categories))
}

/// Drops later repeats, keeping the first occurrence's position.
fn dedup(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn ok(tool: &str, args: Value) -> Value {
        let call = validate(tool, &args.to_string()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(call.tool, tool);
        serde_json::from_str(&call.args_json).unwrap()
    }

    fn errs(tool: &str, args: Value) -> Vec<(String, String)> {
        validate(tool, &args.to_string())
            .expect_err("should fail")
            .into_iter()
            .map(|e| (e.path, e.message))
            .collect()
    }

    fn paths(tool: &str, args: Value) -> Vec<String> {
        errs(tool, args).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn a_field_given_twice_is_refused_naming_it() {
        let errors = validate("remember", r#"{"text": "a", "text": "b"}"#).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.contains(r#"duplicate key "text""#),
            "{errors:?}"
        );
    }

    #[test]
    fn unknown_name_lists_the_tools_and_the_record_kinds() {
        let e = validate("rememberr", "{}").unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "");
        assert_eq!(
            e[0].message,
            "unknown tool or record kind 'rememberr' (tools: remember, revise_memory, forget_memory, recall, memory; record kinds: import-record, extraction)"
        );
        assert!(TOOLS.iter().all(|tool| !RECORDS.contains(tool)));
        // Names match exactly: no case folding, no `_` for `-`.
        assert_eq!(validate("import_record", "{}").unwrap_err()[0].path, "");
        assert_eq!(validate("Extraction", "{}").unwrap_err()[0].path, "");
    }

    #[test]
    fn malformed_oversize_and_non_object_input() {
        let e = validate("remember", "{\"text\": ").unwrap_err();
        assert_eq!(e[0].path, "");
        assert!(
            e[0].message.starts_with("malformed JSON"),
            "{}",
            e[0].message
        );
        let big = json!({"text": "a".repeat(MAX_ARGS_BYTES)}).to_string();
        assert_eq!(validate("remember", &big).unwrap_err()[0].path, "");
        assert_eq!(
            errs("remember", json!(["text"])),
            [("".into(), "expected a JSON object, got an array".into())]
        );
    }

    #[test]
    fn remember_fills_defaults_in_canonical_order() {
        let call = validate("remember", r#"{"text": "  the config is XOR-encrypted  "}"#).unwrap();
        assert_eq!(
            call.args_json,
            r#"{"text":"the config is XOR-encrypted","scope":"global","type":"fact","anchors":[],"tags":[],"categories":[],"confidence":0.8,"image_base":0,"thread":null}"#
        );
        // Canonical output reads back strictly.
        let back: Remember = serde_json::from_str(&call.args_json).unwrap();
        assert_eq!(back.scope, Scope::Global);
    }

    #[test]
    fn remember_with_anchors_defaults_to_local_and_rebases() {
        let v = ok(
            "remember",
            json!({
                "text": "decrypts the config",
                "image_base": "0x400000",
                "anchors": [
                    {"kind": "function", "start": "0x401000", "name": "sub_401000"},
                    {"kind": "near", "address": 4198416, "radius": 32}
                ],
                "type": "Context",
                "tags": ["#Crypto", "crypto", "xor:key", "_x"],
                "categories": ["malware", " malware "],
                "confidence": 1,
                "thread": "t-1"
            }),
        );
        assert_eq!(v["scope"], "local");
        assert_eq!(v["type"], "context");
        assert_eq!(v["image_base"], 0x400000);
        assert_eq!(
            v["anchors"],
            json!([
                {"kind": "function", "start": 0x1000, "end": null, "name": "sub_401000"},
                {"kind": "near", "offset": 0x1010, "radius": 32}
            ])
        );
        assert_eq!(v["tags"], json!(["crypto", "xor:key", "_x"]));
        assert_eq!(v["categories"], json!(["malware"]));
        assert_eq!(v["confidence"], 1.0);
        assert_eq!(v["thread"], "t-1");
    }

    #[test]
    fn remember_scope_and_anchor_conflicts() {
        assert_eq!(
            errs("remember", json!({"text": "x", "scope": "local"})),
            [(
                "anchors".into(),
                "a local memory needs at least one anchor".into()
            )]
        );
        assert_eq!(
            errs(
                "remember",
                json!({"text": "x", "scope": "global", "anchors": [{"kind": "address", "address": 1}]})
            ),
            [("anchors".into(), "a global memory has no anchors".into())]
        );
    }

    #[test]
    fn remember_collects_every_error_with_paths() {
        let p = paths(
            "remember",
            json!({
                "text": "",
                "scope": "everywhere",
                "type": 3,
                "tags": ["ok", "bad tag", "#"],
                "categories": ["a\u{7}b"],
                "confidence": 1.5,
                "image_base": "0x400000",
                "anchors": [{"kind": "address", "address": "0x10"}, {"kind": "range", "start": "0x400010", "end": "0x400000"}],
                "thread": "no spaces",
                "colour": "blue"
            }),
        );
        assert_eq!(
            p,
            [
                "colour",
                "text",
                "scope",
                "type",
                "anchors[0].address",
                "anchors[1].end",
                "tags[1]",
                "tags[2]",
                "categories[0]",
                "confidence",
                "thread"
            ]
        );
    }

    #[test]
    fn remember_text_is_required_and_bounded() {
        assert_eq!(paths("remember", json!({})), ["text"]);
        assert_eq!(paths("remember", json!({"text": null})), ["text"]);
        let long = "é".repeat(MAX_TEXT_BYTES / 2 + 1);
        let e = errs("remember", json!({"text": long}));
        assert_eq!(e[0].0, "text");
        assert!(e[0].1.contains("at most 8192 bytes"));
        assert_eq!(
            errs("remember", json!({"text": 7}))[0].1,
            "expected a string, got a number"
        );
    }

    #[test]
    fn remember_limits_counts() {
        let tags: Vec<String> = (0..=MAX_TAGS).map(|i| format!("t{i}")).collect();
        assert_eq!(
            paths("remember", json!({"text": "x", "tags": tags})),
            ["tags"]
        );
        let anchors: Vec<Value> = (0..=MAX_ANCHORS)
            .map(|i| json!({"kind": "address", "address": i}))
            .collect();
        assert_eq!(
            paths("remember", json!({"text": "x", "anchors": anchors})),
            ["anchors"]
        );
        let long_tag = "a".repeat(MAX_TAG_BYTES + 1);
        assert_eq!(
            paths("remember", json!({"text": "x", "tags": [long_tag]})),
            ["tags[0]"]
        );
        let max_tag = format!("#{}", "a".repeat(MAX_TAG_BYTES));
        assert!(
            validate(
                "remember",
                &json!({"text": "x", "tags": [max_tag]}).to_string()
            )
            .is_ok()
        );
    }

    #[test]
    fn revise_memory_needs_something_to_revise() {
        assert_eq!(
            errs("revise_memory", json!({"id": 3, "reason": "why"})),
            [("".into(), "nothing to revise (give at least one of text, type, tags, categories, confidence, anchors)".into())]
        );
        assert_eq!(
            paths("revise_memory", json!({"id": 0, "text": "x"})),
            ["id"]
        );
        assert_eq!(paths("revise_memory", json!({"text": "x"})), ["id"]);
        assert_eq!(
            paths("revise_memory", json!({"id": "7", "text": "x"})),
            ["id"]
        );
    }

    #[test]
    fn revise_memory_canonical_has_every_field() {
        let call = validate(
            "revise_memory",
            r#"{"id": 7, "confidence": 0.5, "reason": " fixed "}"#,
        )
        .unwrap();
        assert_eq!(
            call.args_json,
            r#"{"id":7,"text":null,"type":null,"anchors":null,"tags":null,"categories":null,"confidence":0.5,"image_base":0,"reason":"fixed","thread":null}"#
        );
        let v = ok(
            "revise_memory",
            json!({"id": 7, "anchors": [{"kind": "string", "value": "key"}], "tags": ["A"]}),
        );
        assert_eq!(v["anchors"], json!([{"kind": "string", "value": "key"}]));
        assert_eq!(v["tags"], json!(["a"]));
        assert_eq!(
            paths(
                "revise_memory",
                json!({"id": 7, "text": "x", "reason": "r".repeat(513)})
            ),
            ["reason"]
        );
    }

    #[test]
    fn forget_memory_schema() {
        let call = validate("forget_memory", r#"{"id": 12}"#).unwrap();
        assert_eq!(call.args_json, r#"{"id":12,"reason":null,"thread":null}"#);
        assert_eq!(
            paths("forget_memory", json!({"id": 12, "text": "x"})),
            ["text"]
        );
        assert_eq!(
            errs("forget_memory", json!({"id": 1.5}))[0].1,
            "expected an integer, got a fractional number"
        );
    }

    #[test]
    fn recall_defaults_and_ranges() {
        let call = validate("recall", "{}").unwrap();
        assert_eq!(
            call.args_json,
            r#"{"query":"","scope":"any","type":null,"tags":[],"categories":[],"anchor":null,"image_base":0,"limit":10,"offset":0,"thread":null}"#
        );
        let v = ok(
            "recall",
            json!({
                "query": " xor key ", "scope": "local", "type": "fact", "tags": ["#c2"],
                "anchor": {"kind": "address", "address": "0x401000"}, "image_base": "0x400000",
                "limit": 100, "offset": 20, "thread": null
            }),
        );
        assert_eq!(v["query"], "xor key");
        assert_eq!(v["anchor"], json!({"kind": "address", "offset": 0x1000}));
        assert_eq!(v["limit"], 100);
        assert_eq!(
            paths(
                "recall",
                json!({"limit": 0, "offset": -1, "scope": "both", "query": "q".repeat(MAX_QUERY_BYTES + 1)})
            ),
            ["query", "scope", "limit", "offset"]
        );
        assert_eq!(paths("recall", json!({"limit": 101})), ["limit"]);
        assert_eq!(
            paths(
                "recall",
                json!({"anchor": {"kind": "address", "address": 1, "radius": 2}})
            ),
            ["anchor.radius"]
        );
    }

    #[test]
    fn memory_tool_action_rules() {
        let call = validate(
            "memory",
            r#"{"action": "add", "target": "user", "content": " likes tea "}"#,
        )
        .unwrap();
        assert_eq!(
            call.args_json,
            r#"{"action":"add","target":"user","content":"likes tea","old_text":null,"thread":null}"#
        );
        assert_eq!(
            errs(
                "memory",
                json!({"action": "add", "target": "user", "content": "  "})
            ),
            [("content".into(), "must not be empty".into())]
        );
        assert_eq!(
            paths(
                "memory",
                json!({"action": "add", "target": "user", "content": "a", "old_text": "b"})
            ),
            ["old_text"]
        );
        assert_eq!(
            paths("memory", json!({"action": "replace", "target": "memory"})),
            ["content", "old_text"]
        );
        assert_eq!(
            paths(
                "memory",
                json!({"action": "remove", "target": "daily", "content": "x", "old_text": "y"})
            ),
            ["content"]
        );
        assert!(
            validate(
                "memory",
                r#"{"action": "remove", "target": "daily", "old_text": "y"}"#
            )
            .is_ok()
        );
        assert!(
            validate(
                "memory",
                r#"{"action": "replace", "target": "memory", "old_text": "a", "content": "b"}"#
            )
            .is_ok()
        );
        assert_eq!(
            paths("memory", json!({"action": "drop", "target": "disk"})),
            ["action", "target"]
        );
        assert_eq!(paths("memory", json!({})), ["action", "target"]);
    }

    #[test]
    fn wrong_types_name_the_expected_type() {
        let e = errs(
            "remember",
            json!({"text": "x", "tags": "a,b", "confidence": "high", "anchors": {}}),
        );
        let messages: Vec<_> = e.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "expected an array, got an object",
                "expected an array, got a string",
                "expected a number, got a string"
            ]
        );
    }
}
