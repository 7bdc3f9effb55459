//! The kenning service: one API that every interface (the CLI, the MCP server, the HTTP API,
//! Rust embedders) dispatches through, so each runs an operation the same way.
//!
//! A write goes: raw JSON → the policy's `validate` → the policy's `scan` → the
//! [`crate::provenance`] rules, dedup and ambiguity rules → one transaction with its audit
//! event. A turn goes: context → candidate retrieval → one policy `select` → the host's checks.
//!
//! A [`Service`] is `Send + Sync`: one instance serves many threads and connections. It is
//! made only by [`ServiceBuilder`], which always wraps the policy in the answer guard.
//!
//! - [`tools`]: the agent's tools (`remember`, `revise_memory`, `forget_memory`, `recall`,
//!   `memory`, `context`);
//! - [`turn`]: what enters the prompt this turn;
//! - [`governance`]: review, settings, statistics, the audit log, the profile files;
//! - [`background_review`]: user turns counted, and every so many a review by a model;
//! - [`dream`]: consolidation ("AutoDream"), previewed then applied exactly as previewed;
//! - [`extract`]: memories a model proposes from a conversation, checked and written;
//! - [`graph`]: memories, anchors and shared tags as nodes and edges.
//! - [`interchange`]: `kenning-memory/1` exports and verified imports.
//! - [`maintain`]: retention (expired suggestions and daily notes) and index upkeep.
//! - [`profile_files`]: a profile as `USER.md`, `MEMORY.md` and daily notes, out and back in.
//! - [`share`]: confirmed findings copied into a linked subject, awaiting review there.

mod at_rest;
pub mod background_review;
mod browse;
mod config;
pub mod dream;
pub mod extract;
pub mod governance;
pub mod graph;
pub mod interchange;
pub mod maintain;
pub mod profile_files;
mod query;
pub mod share;
pub mod tools;
pub mod turn;
pub mod write_paths;

use std::path::{Path, PathBuf};

use kenning_contract::MAX_TEXT_BYTES;
use kenning_contract::args::{Author, Badge};
use kenning_contract::types::{FieldError, ScanItem, ScanResult, Target, Verdict};

pub use self::at_rest::Encrypted;
pub use self::config::{PolicySource, ServiceBuilder};
use crate::controls;
use crate::error::{KenningError, Result};
use crate::policy::Policy;
use crate::provenance;
use crate::store::{Backend, KnowledgeStore, StoreKey};
use crate::subject::Subject;

/// Most bytes of JSON in a page of results, unless configured: about 4,000 tokens.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 16_000;

/// The kenning service over a data directory and a guarded policy.
///
/// It is the one door to the stores: it hands none of them out to be written. These do not
/// compile (both did before the one gate):
///
/// ```compile_fail
/// # fn back_door(service: &kenning::Service, subject: &kenning::subject::Subject) {
/// let store = service.open_existing(subject);
/// # }
/// ```
///
/// ```compile_fail
/// # fn back_door(store: &mut dyn kenning::store::KnowledgeStore) {
/// // A write without the permit only the service makes.
/// store.write_with(&mut |_tx| Ok(())).unwrap();
/// # }
/// ```
pub struct Service {
    data_dir: PathBuf,
    policy: Box<dyn Policy>,
    fixed_now: Option<i64>,
    /// Most bytes of JSON a page of results holds.
    max_result_bytes: usize,
    /// Where the knowledge bases live.
    backend: Box<dyn Backend>,
    /// The key every store (and copy) is encrypted with; `None`: plaintext stores.
    key: Option<StoreKey>,
    /// The jobs' configuration (the data directory's `kenning.toml`).
    config: crate::config::Config,
}

impl Service {
    /// A builder: the embedded default policy over `data_dir` unless told otherwise.
    pub fn builder(data_dir: impl Into<PathBuf>) -> ServiceBuilder {
        ServiceBuilder::new(data_dir)
    }

    /// The data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The key the service opens stores with (`None`: plaintext). It never prints.
    pub fn store_key(&self) -> Option<&StoreKey> {
        self.key.as_ref()
    }

    /// The subjects with a knowledge base.
    pub fn subjects(&self) -> Result<Vec<Subject>> {
        self.backend.subjects()
    }

    /// Whether knowledge bases can be opened now (a load balancer's readiness check): `Err`
    /// says why not, such as a database that cannot be reached.
    pub fn check_ready(&self) -> Result<()> {
        self.backend.check_ready()
    }

    /// How the store's pool of database connections is used; `None` over SQLite files.
    pub fn pool_use(&self) -> Option<crate::store::PoolUse> {
        self.backend.pool_use()
    }

    /// How many memories await review across every subject, where the store can count them
    /// at once (PostgreSQL); `None` over SQLite files, which are counted one subject at a time.
    pub fn pending_review_total(&self) -> Result<Option<u64>> {
        self.backend.pending_review_total()
    }

    /// The policy in use (guarded).
    pub fn policy(&self) -> &dyn Policy {
        self.policy.as_ref()
    }

    /// Now, in seconds since the epoch (the fixed clock when one was set).
    pub fn now(&self) -> i64 {
        self.fixed_now.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        })
    }

    /// Opens the subject's knowledge base, which must exist. The backend keeps its
    /// connection for the next operation.
    pub(crate) fn open_existing(&self, subject: &Subject) -> Result<Box<dyn KnowledgeStore>> {
        self.open(subject, false)
    }

    fn open_or_create(&self, subject: &Subject) -> Result<Box<dyn KnowledgeStore>> {
        self.open(subject, true)
    }

    fn open(&self, subject: &Subject, create: bool) -> Result<Box<dyn KnowledgeStore>> {
        self.backend
            .open(subject, create)?
            .ok_or_else(|| KenningError::UnknownSubject {
                subject: subject.to_string(),
                path: self.backend.location(subject),
            })
    }

    /// Opens the subject's knowledge base for a write in `thread` (creating it when `create`),
    /// refusing when the settings in force disable writes.
    fn open_for_write(
        &self,
        subject: &Subject,
        thread: Option<&str>,
        create: bool,
    ) -> Result<Box<dyn KnowledgeStore>> {
        let kb = if create {
            self.open_or_create(subject)?
        } else {
            self.open_existing(subject)?
        };
        refuse_unless_writable(&*kb, subject, thread)?;
        Ok(kb)
    }

    /// Refuses, as a write in `thread` would, when the subject's knowledge base exists and its
    /// settings disable writes; a subject without one takes the default, which allows them.
    /// For work that is wasted when nothing can be written (asking a model), checked first.
    fn refuse_unless_writable_if_stored(
        &self,
        subject: &Subject,
        thread: Option<&str>,
    ) -> Result<()> {
        match self.backend.open(subject, false)? {
            Some(kb) => refuse_unless_writable(&*kb, subject, thread),
            None => Ok(()),
        }
    }

    /// Most bytes of JSON a tool's answer holds (a page of `recall`, `recent_memories`).
    pub fn max_result_bytes(&self) -> usize {
        self.max_result_bytes
    }

    /// Scans texts with the policy.
    pub fn scan(&self, items: &[ScanItem]) -> Result<Vec<ScanResult>> {
        Ok(self.policy.scan(items)?)
    }

    /// Scans what a write by `author` stores, in one policy call: the memory's `text` (with its
    /// target), if any, and the short strings it stores or logs besides (tags, categories,
    /// anchor names and literals, thread names, reasons, a reviewer's name), each with its
    /// field path.
    ///
    /// The short strings are never redacted: a secret or an attack in one (held or blocked)
    /// refuses the whole call, naming every field at fault. Then a blocked text refuses it;
    /// otherwise the text comes back as it is to be stored ([`Scanned`]), held for review or
    /// marked when the scan suspects it at `author`'s operating point.
    /// One call, because each call builds the policy's scanner afresh (a few milliseconds).
    fn scan_write(
        &self,
        what: &str,
        author: Author,
        text: Option<(&str, Target)>,
        fields: &[(String, String)],
    ) -> Result<Option<Scanned>> {
        if let Some((text, _)) = text
            && text.len() > MAX_TEXT_BYTES
        {
            return Err(KenningError::TooLarge {
                what: "text".to_owned(),
                size: text.len(),
                limit: MAX_TEXT_BYTES,
            });
        }
        // Control characters never reach a store, whatever the policy: stripped from the
        // text before it is scanned, refused in a short string.
        let control_errors: Vec<FieldError> = fields
            .iter()
            .filter_map(|(path, value)| control_error(path, value))
            .collect();
        if !control_errors.is_empty() {
            return Err(KenningError::Invalid {
                tool: what.to_owned(),
                errors: control_errors,
            });
        }
        let stripped = text.map(|(text, target)| (controls::strip(text), target));
        let text = stripped.as_ref().map(|(text, target)| (&**text, *target));
        let items: Vec<ScanItem> = text
            .into_iter()
            .chain(
                fields
                    .iter()
                    .map(|(_, value)| (value.as_str(), Target::Memory)),
            )
            .map(|(text, target)| ScanItem {
                text: text.to_owned(),
                target,
                author,
            })
            .collect();
        if items.is_empty() {
            return Ok(None);
        }
        let mut results = self.policy.scan(&items)?.into_iter();
        let text_result = text.and_then(|_| results.next());
        let errors: Vec<FieldError> = fields
            .iter()
            .zip(results)
            .filter_map(|((path, _), result)| field_error(path, result))
            .collect();
        if !errors.is_empty() {
            return Err(KenningError::Invalid {
                tool: what.to_owned(),
                errors,
            });
        }
        text.zip(text_result)
            .map(|((input, _), result)| Scanned::of(input, result))
            .transpose()
    }

    /// [`Service::scan_write`] for a write with a text.
    fn scan_for_storage(
        &self,
        what: &str,
        author: Author,
        text: &str,
        target: Target,
        fields: &[(String, String)],
    ) -> Result<Scanned> {
        let scanned = self.scan_write(what, author, Some((text, target)), fields)?;
        Ok(scanned.expect("the guard checks one result per item"))
    }

    /// Scans short strings a write stores or logs, with their field paths (see
    /// [`Service::scan_write`]): a secret or an attack in one refuses the call.
    pub(crate) fn check_fields(
        &self,
        what: &str,
        author: Author,
        fields: &[(String, String)],
    ) -> Result<()> {
        self.scan_write(what, author, None, fields).map(drop)
    }
}

/// A write's text as the scan lets it be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scanned {
    /// The text to store (secrets replaced).
    pub text: String,
    /// The kinds of what was redacted from it.
    pub redacted: Vec<String>,
    /// What the scan suspects in it, if anything, and what that makes of the write.
    pub suspicion: Option<Suspicion>,
}

/// What the scan suspects in a text it lets be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Suspicion {
    /// Stored only in quarantine, for a reviewer; why.
    Held(String),
    /// Stored as its author's badge allows, marked; why.
    Marked(String),
}

impl Scanned {
    /// The text `input` as the scan's `result` lets it be stored; a block is the write's error.
    pub(crate) fn of(input: &str, result: ScanResult) -> Result<Scanned> {
        let reason = result.reason.clone().unwrap_or_default();
        let suspicion = match result.verdict {
            Verdict::Block => return Err(KenningError::Blocked { reason }),
            Verdict::Hold => Some(Suspicion::Held(reason)),
            Verdict::Allow | Verdict::Redact if result.reason.is_some() => {
                Some(Suspicion::Marked(reason))
            }
            Verdict::Allow | Verdict::Redact => None,
        };
        // What was redacted is what no longer stands in the text: a suspected phrase is kept
        // as it was written, a secret is replaced.
        let mut redacted: Vec<String> = result
            .findings
            .iter()
            .filter(|f| {
                input
                    .get(f.start as usize..f.end as usize)
                    .is_some_and(|found| !found.is_empty() && !result.text.contains(found))
            })
            .map(|f| f.kind.clone())
            .collect();
        redacted.dedup();
        Ok(Scanned {
            text: controls::strip(&result.text).into_owned(),
            redacted,
            suspicion,
        })
    }

    /// The badge of a memory this text becomes, which its author's rights give as `badge`: a
    /// held text is quarantined ([`provenance::held`]).
    pub fn badge(&self, badge: Badge) -> Badge {
        provenance::held_if(self.is_held(), badge)
    }

    /// Whether the scan held the text for review.
    pub fn is_held(&self) -> bool {
        matches!(self.suspicion, Some(Suspicion::Held(_)))
    }

    /// What the write's audit event says of the scan's suspicion, if any, after `detail` (the
    /// event's own detail, such as a revision's reason).
    pub fn detail(&self, detail: Option<&str>) -> Option<String> {
        let note = match &self.suspicion {
            Some(Suspicion::Held(reason)) => format!("held for review: {reason}"),
            Some(Suspicion::Marked(reason)) => format!("marked: {reason}"),
            None => return detail.map(str::to_owned),
        };
        Some(match detail {
            Some(detail) => format!("{detail}; {note}"),
            None => note,
        })
    }
}

/// The error for a short field holding a control character ([`controls::first`]), or `None`.
pub(crate) fn control_error(path: &str, value: &str) -> Option<FieldError> {
    controls::first(value).map(|(at, c)| {
        FieldError::new(
            path,
            format!(
                "holds the control character U+{:04X} at byte {at}; names, tags and reasons hold no control characters",
                u32::from(c)
            ),
        )
    })
}

/// The error for a short field the scan did not allow, or `None` when it did.
fn field_error(path: &str, result: ScanResult) -> Option<FieldError> {
    match result.verdict {
        Verdict::Allow => None,
        Verdict::Redact => {
            let mut kinds: Vec<String> = result.findings.into_iter().map(|f| f.kind).collect();
            kinds.dedup();
            Some(FieldError::new(
                path,
                format!(
                    "holds a secret ({}); keep secrets out of names, tags and reasons",
                    kinds.join(", ")
                ),
            ))
        }
        Verdict::Block | Verdict::Hold => Some(FieldError::new(
            path,
            format!(
                "blocked by the safety scan: {}",
                result.reason.unwrap_or_default()
            ),
        )),
    }
}

/// Runs `f`, a write that forgets memories, in one transaction, then clears what they left
/// in the store's files ([`KnowledgeStore::scrub`]). The write has committed by then, so a
/// failure to clear is logged and never reported as the write's.
fn forgetting<T>(
    kb: &mut Box<dyn KnowledgeStore>,
    f: impl FnOnce(&dyn crate::store::Writes) -> Result<T>,
) -> Result<T> {
    let done = kb.write(f)?;
    scrub(kb);
    Ok(done)
}

/// Folds and empties `kb`'s log after a commit that erased text ([`forgetting`]'s second half,
/// for a write that erases only sometimes).
fn scrub(kb: &mut Box<dyn KnowledgeStore>) {
    if let Err(error) = kb.scrub() {
        tracing::warn!(error = %error, "a forget committed, but its old pages stay in the log until the next checkpoint");
    }
}

/// Refuses a write to `kb` (in `thread`) when the settings in force there disable writes.
fn refuse_unless_writable(
    kb: &dyn KnowledgeStore,
    subject: &Subject,
    thread: Option<&str>,
) -> Result<()> {
    if kb.settings(thread)?.allow_writes {
        return Ok(());
    }
    Err(KenningError::Forbidden(format!(
        "writes are disabled for {subject}{} (setting allow_writes = false)",
        in_thread(thread)
    )))
}

/// Every string in a tool call's raw arguments (`args_json`, a JSON object) except `skip`
/// (top-level fields scanned as the memory's text, or not text at all), with its field path
/// (`tags[0]`, `anchors[1].name`), fields in the order of their names at every level and a
/// repeated field's last value, as a `serde_json::Value` would hold them. The raw form is
/// read, not the policy's canonical one: canonical tags are lowercased, which hides a secret's
/// shape. Nothing but the strings is built (this runs once for every write and every
/// imported record), and the skipped fields are read past, since the text is the largest.
pub(crate) fn string_fields(
    args_json: &str,
    skip: &[&str],
) -> serde_json::Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    let mut reader = serde_json::Deserializer::from_str(args_json);
    serde::Deserializer::deserialize_map(
        &mut reader,
        strings::Strings {
            place: strings::Place::Top,
            skip,
            found: &mut found,
        },
    )?;
    reader.end()?;
    Ok(found)
}

/// The walk behind [`string_fields`].
mod strings {
    use std::borrow::Cow;
    use std::fmt::Write;

    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

    /// Where a value sits in the arguments, written out as a path only for a string found.
    #[derive(Clone, Copy)]
    pub(super) enum Place<'a> {
        /// The arguments object itself.
        Top,
        /// A field of an object.
        Field(&'a Place<'a>, &'a str),
        /// An item of an array.
        Item(&'a Place<'a>, usize),
    }

    impl Place<'_> {
        fn path(&self) -> String {
            let mut path = String::new();
            self.write(&mut path);
            path
        }

        fn write(&self, path: &mut String) {
            match *self {
                Place::Top => {}
                Place::Field(Place::Top, key) => path.push_str(key),
                Place::Field(parent, key) => {
                    parent.write(path);
                    path.push('.');
                    path.push_str(key);
                }
                Place::Item(parent, index) => {
                    parent.write(path);
                    let _ = write!(path, "[{index}]");
                }
            }
        }
    }

    /// Reads one value, appending its strings to `found`.
    pub(super) struct Strings<'p, 'f> {
        pub(super) place: Place<'p>,
        /// Top-level fields read past.
        pub(super) skip: &'p [&'p str],
        pub(super) found: &'f mut Vec<(String, String)>,
    }

    impl<'de> DeserializeSeed<'de> for Strings<'_, '_> {
        type Value = ();

        fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Strings<'_, '_> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(if matches!(self.place, Place::Top) {
                "a JSON object"
            } else {
                "a JSON value"
            })
        }

        fn visit_str<E>(self, text: &str) -> Result<(), E> {
            self.found.push((self.place.path(), text.to_owned()));
            Ok(())
        }

        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }

        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }

        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }

        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }

        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut index = 0;
            while seq
                .next_element_seed(Strings {
                    place: Place::Item(&self.place, index),
                    skip: &[],
                    found: &mut *self.found,
                })?
                .is_some()
            {
                index += 1;
            }
            Ok(())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let top = matches!(self.place, Place::Top);
            let base = self.found.len();
            // Each field's strings, as a range of `found`, to be put in the order of the names.
            let mut spans: Vec<(Cow<'de, str>, usize, usize)> = Vec::new();
            while let Some(Key(key)) = map.next_key()? {
                if top && self.skip.contains(&&*key) {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                let start = self.found.len();
                map.next_value_seed(Strings {
                    place: Place::Field(&self.place, &key),
                    skip: &[],
                    found: &mut *self.found,
                })?;
                spans.push((key, start, self.found.len()));
            }
            if spans.windows(2).all(|pair| pair[0].0 < pair[1].0) {
                return Ok(());
            }
            // Stable: of a repeated name, the last span is the last value.
            spans.sort_by(|a, b| a.0.cmp(&b.0));
            let mut unordered = self.found.split_off(base);
            for (i, (key, start, end)) in spans.iter().enumerate() {
                if spans.get(i + 1).is_some_and(|next| next.0 == *key) {
                    continue;
                }
                self.found.extend(
                    unordered[start - base..end - base]
                        .iter_mut()
                        .map(std::mem::take),
                );
            }
            Ok(())
        }
    }

    /// An object's field name, borrowed from the input unless it holds an escape.
    struct Key<'de>(Cow<'de, str>);

    impl<'de> serde::Deserialize<'de> for Key<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct KeyVisitor;
            impl<'de> Visitor<'de> for KeyVisitor {
                type Value = Key<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a field name")
                }
                fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                    Ok(Key(Cow::Borrowed(key)))
                }
                fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                    Ok(Key(Cow::Owned(key.to_owned())))
                }
            }
            deserializer.deserialize_str(KeyVisitor)
        }
    }
}

/// ` in thread T` for messages, or nothing.
fn in_thread(thread: Option<&str>) -> String {
    thread
        .map(|t| format!(" in thread {t:?}"))
        .unwrap_or_default()
}

pub use crate::time::civil_date;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn civil_dates_match_the_calendar() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(951_782_400), "2000-02-29");
        assert_eq!(civil_date(1_796_083_200), "2026-12-01");
        assert_eq!(civil_date(-86_400), "1969-12-31");
    }

    #[test]
    fn string_fields_are_found_with_their_paths_except_the_text() {
        let args = serde_json::json!({
            "text": "skipped",
            "tags": ["a", "b"],
            "anchors": [{"kind": "function", "name": "f", "start": 1}],
            "confidence": 0.5
        });
        let found = string_fields(&args.to_string(), &["text"]).unwrap();
        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            ["anchors[0].kind", "anchors[0].name", "tags[0]", "tags[1]"]
        );
    }

    #[test]
    fn string_fields_come_in_the_order_of_the_names_at_every_level_as_a_value_holds_them() {
        let args = r#"{"z": ["z0", {"b": "zb", "a\u0041": ["x", "y"], "a": 1}], "tags": "t",
            "m": {"q": "mq", "p": "mp", "q": "mq2"}, "a": "a", "skip": "s", "n": null}"#;
        let expected = {
            let value: Value = serde_json::from_str(args).unwrap();
            let mut pairs = Vec::new();
            fn walk(value: &Value, path: String, out: &mut Vec<(String, String)>) {
                match value {
                    Value::String(text) => out.push((path, text.clone())),
                    Value::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            walk(item, format!("{path}[{i}]"), out);
                        }
                    }
                    Value::Object(map) => {
                        for (key, item) in map {
                            let path = if path.is_empty() {
                                key.clone()
                            } else {
                                format!("{path}.{key}")
                            };
                            walk(item, path, out);
                        }
                    }
                    _ => {}
                }
            }
            let mut top = value.as_object().unwrap().clone();
            top.remove("skip");
            walk(&Value::Object(top), String::new(), &mut pairs);
            pairs
        };
        assert_eq!(string_fields(args, &["skip"]).unwrap(), expected);
        assert_eq!(expected[0], ("a".to_owned(), "a".to_owned()));
        assert!(expected.contains(&("m.q".to_owned(), "mq2".to_owned())));
        assert!(expected.contains(&("z[1].aA[1]".to_owned(), "y".to_owned())));
    }

    #[test]
    fn string_fields_read_one_json_object_and_keep_a_repeated_field_once() {
        for (args, problem) in [
            ("[\"a\"]", "expected a JSON object"),
            ("{\"a\": \"b\"} trailing", "trailing characters"),
            ("{\"text\": ", "EOF while parsing"),
        ] {
            let error = string_fields(args, &["text"]).unwrap_err().to_string();
            assert!(error.contains(problem), "{args}: {error}");
        }
        let found = string_fields(
            r#"{"tag": "first", "text": {"x": "y"}, "tag": "last"}"#,
            &["text"],
        )
        .unwrap();
        assert_eq!(found, [("tag".to_owned(), "last".to_owned())]);
    }

    #[test]
    fn one_service_serves_many_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Service>();
    }
}
