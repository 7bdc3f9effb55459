//! Interchange: a subject's memories exported to, and imported from, `kenning-memory/1` JSONL
//! files (and exported as Markdown for reading).
//!
//! # The format
//!
//! The first line is a [`Header`]: the format, the identity of the subject the memories are
//! about (for a binary, the MD5 of its input file) and how many records follow. Each further
//! line is one memory as the policy's `import-record` schema reads it
//! ([`kenning_contract::args::ImportRecord`]): text, SHA-256 of the text, scope, type, profile
//! target and day, tags, categories, confidence, anchors exactly as a tool call writes them
//! (addresses of the image at `image_base`), author, badge, status, thread, the exporter's id
//! and the id it supersedes, and the timestamps.
//!
//! # An import
//!
//! 1. The header must name this format and the subject imported into, else the whole file is
//!    refused naming both identities (another build of a binary has another MD5).
//! 2. Every record passes the policy's `validate("import-record", ..)`, and its `content_hash`
//!    must be the SHA-256 of its text.
//! 3. Every text is scanned by the policy as any write's is, in batches: a secret is redacted;
//!    a blocked text, or a secret or attack in a tag, category, thread or anchor, fails the
//!    import naming the line. Steps 2 and 3 run on every core, a batch at a time; the problem
//!    named is always the one on the first line that has one.
//! 4. Exact duplicates are skipped and counted: a memory with the same content hash, scope,
//!    profile target, day and anchors already stored (in any state) or earlier in the file.
//! 5. The rest is written in one transaction with one `import` audit event per memory, in file
//!    order, while later records are still being checked; a failure anywhere (the
//!    `max_memories` limit included) writes nothing. A subject without a store gets one staged
//!    out of sight and published only when the transaction
//!    has committed, so a refused file leaves no store either.
//!
//! Provenance is kept: the author is the one the export names, the status and timestamps are
//! the exported ones, and the badge follows [`crate::provenance::badge_for_import`], so an
//! import never makes a memory NATIVE. `supersedes` links are kept between the memories of one
//! file (or to the stored duplicate a record was skipped for); links to memories outside the
//! file are dropped.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use kenning_contract::MAX_ARGS_BYTES;
use kenning_contract::args::{IMPORT_FORMAT, ImportRecord};
use kenning_contract::types::{Anchor, ScanItem, Scope, SubjectKind, Target};
use serde::{Deserialize, Serialize};

use super::{Scanned, Service, control_error, field_error, refuse_unless_writable, string_fields};
use crate::api::{Address, AnchorArg};
use crate::error::{KenningError, PolicyError, Result};
use crate::policy::Policy;
use crate::provenance;
use crate::store::contract::IndexSoFar;
use crate::store::{
    Author, Badge, Event, Imported, KnowledgeStore, Memory, NewMemory, Reads, Status, Writes,
    content_hash,
};
use crate::subject::Subject;

/// Records scanned per policy call: one call pays the policy's per-call cost once for many
/// texts, and a batch stays well inside one call's fuel.
const SCAN_BATCH: usize = 256;

/// Fields of an import record the scan does not read: fixed words, numbers' spellings, the
/// content hash (high-entropy by nature), and the text, which is scanned as the memory's text.
const UNSCANNED_FIELDS: &[&str] = &[
    "format",
    "scope",
    "type",
    "target",
    "day",
    "author",
    "badge",
    "status",
    "content_hash",
    "text",
    "image_base",
];

/// The first line of a `kenning-memory/1` export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always `kenning-memory/1`.
    pub format: String,
    /// The subject the memories are about.
    pub subject: SubjectIdentity,
    /// When the export was made, seconds since the Unix epoch.
    pub exported_at: i64,
    /// How many records follow (one a line), so a truncated file is noticed.
    pub memories: u64,
}

/// Who a knowledge base is about, as an export names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubjectIdentity {
    /// `binary`, `account` or `profile`.
    pub kind: SubjectKind,
    /// The stable key: for a binary the MD5 of its input file (or of its database's path),
    /// otherwise the name.
    pub key: String,
    /// What the exporter called it (a path or a name); informative only.
    pub label: String,
}

impl SubjectIdentity {
    /// The identity of `subject`.
    pub fn of(subject: &Subject) -> SubjectIdentity {
        SubjectIdentity {
            kind: subject.kind,
            key: subject.key.clone(),
            label: subject.label.clone(),
        }
    }

    /// Whether this identity is `subject`'s: same kind and key (labels may differ).
    pub fn is(&self, subject: &Subject) -> bool {
        self.kind == subject.kind && self.key == subject.key
    }

    fn describe(&self) -> String {
        match self.kind {
            SubjectKind::Binary => format!("binary {} (MD5 {})", self.label, self.key),
            SubjectKind::Account => format!("account {}", self.key),
            SubjectKind::Profile => format!("profile {}", self.key),
        }
    }
}

/// What an export is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// `kenning-memory/1` JSON lines, which `import` reads back.
    Jsonl,
    /// Markdown for people to read; not imported.
    Markdown,
}

/// An export: the file's text and how many memories it holds.
#[derive(Debug, Clone)]
pub struct Export {
    /// The whole file.
    pub text: String,
    /// Memories in it.
    pub memories: u64,
}

/// How an import runs.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Who imports (the CLI's `--author`): decides the badges (see
    /// [`provenance::badge_for_import`]) and is the actor of the audit events.
    pub importer: Author,
    /// Check everything and report what would happen, writing nothing.
    pub dry_run: bool,
    /// The file's name for messages and audit events (`<stdin>` for standard input).
    pub source_name: String,
}

/// Which part of an import a progress report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportStage {
    /// Records checked (schema, hash, scan).
    Checking,
    /// Records written (or, in a dry run, compared with the store).
    Writing,
}

/// What an import did (or, in a dry run, would do).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportReport {
    /// The subject imported into.
    pub subject: String,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// Records in the file.
    pub records: u64,
    /// Memories written (or that would be).
    pub imported: u64,
    /// Records skipped as exact duplicates of stored memories or of earlier records.
    pub duplicates: u64,
    /// Imported texts the scan redacted secrets from.
    pub redacted: u64,
    /// Imported memories by the badge they received here.
    pub badges: BTreeMap<String, u64>,
}

impl Service {
    /// Exports every memory of `subject` (in any state) as `format`, but those forgotten and
    /// the requests to forget one.
    pub fn export(&self, subject: &Subject, format: ExportFormat) -> Result<Export> {
        let kb = self.open_existing(subject)?;
        let mut memories = kb.read(|store| store.all_memories())?;
        // A forgotten memory's text is gone: nothing of it is exported (an archived daily
        // note, forgotten by retention with its text kept, is).
        // A request to forget one of this store's memories is no knowledge to carry to another
        // store (it names an id here), so it stays behind too.
        memories.retain(|(memory, _)| !memory.is_erased() && memory.forgets.is_none());
        let header = Header {
            format: IMPORT_FORMAT.to_owned(),
            subject: SubjectIdentity::of(subject),
            exported_at: self.now(),
            memories: memories.len() as u64,
        };
        let text = match format {
            ExportFormat::Jsonl => jsonl(&header, &memories),
            ExportFormat::Markdown => markdown(&header, &memories),
        };
        Ok(Export {
            text,
            memories: header.memories,
        })
    }

    /// Imports a `kenning-memory/1` file's `text` into `subject` (see the module docs), all or
    /// nothing; `progress` hears `(stage, done, total)` as it goes.
    pub fn import(
        &self,
        subject: &Subject,
        text: &str,
        options: &ImportOptions,
        progress: &mut dyn FnMut(ImportStage, u64, u64),
    ) -> Result<ImportReport> {
        let bad = |line: usize, problem: String| KenningError::BadImport {
            source_name: options.source_name.clone(),
            line,
            problem,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line))
            .filter(|(_, line)| !line.trim().is_empty());
        let Some((header_line, header_text)) = lines.next() else {
            return Err(bad(
                1,
                format!("empty file; expected a {IMPORT_FORMAT} header"),
            ));
        };
        let header = Header::parse(header_text).map_err(|problem| bad(header_line, problem))?;
        if !header.subject.is(subject) {
            return Err(KenningError::WrongSubject {
                source_name: options.source_name.clone(),
                expected: SubjectIdentity::of(subject).describe(),
                found: header.subject.describe(),
            });
        }
        let lines: Vec<(usize, &str)> = lines.collect();
        if lines.len() as u64 != header.memories {
            let last = lines.last().map_or(header_line, |(n, _)| *n);
            return Err(bad(
                last,
                format!(
                    "the header announces {} records but the file holds {} (truncated or edited?)",
                    header.memories,
                    lines.len()
                ),
            ));
        }
        let job = Settlement {
            options,
            now: self.now(),
            bad: &bad,
            total: lines.len() as u64,
        };
        if options.dry_run {
            let planned = self.check_all(&lines, options.importer, &bad, progress)?;
            return match self.open_existing(subject) {
                Ok(kb) => {
                    let limit = kb.settings(None)?.max_memories;
                    kb.read(|store| {
                        Settler::new(Some(store), None, limit, job, progress)?.settle_all(planned)
                    })
                }
                Err(KenningError::UnknownSubject { .. }) => {
                    Settler::new(None, None, None, job, progress)?.settle_all(planned)
                }
                Err(other) => Err(other),
            }
            .map(|settled| settled.report(subject, true));
        }
        // Into a store that exists, records are written while later ones are still checked;
        // into a new one, they are written to a staged store published only when all passed.
        if let Some(mut staged) = self.backend.stage(subject)? {
            let settled = self.check_and_write(&mut *staged, subject, &lines, job, progress)?;
            if staged.publish()? {
                return Ok(settled.report(subject, false));
            }
            // Another writer created the subject's store meanwhile: the records are checked,
            // and go into that store as into any other.
            let mut kb = self.open_for_write(subject, None, false)?;
            return write_checked(&mut *kb, settled.planned, job, progress)
                .map(|settled| settled.report(subject, false));
        }
        match self.open_for_write(subject, None, false) {
            Ok(mut kb) => self
                .check_and_write(&mut *kb, subject, &lines, job, progress)
                .map(|settled| settled.report(subject, false)),
            // A backend that does not stage: check everything before the store is made.
            Err(KenningError::UnknownSubject { .. }) => {
                let planned = self.check_all(&lines, options.importer, &bad, progress)?;
                let mut kb = self.open_for_write(subject, None, true)?;
                write_checked(&mut *kb, planned, job, progress)
                    .map(|settled| settled.report(subject, false))
            }
            Err(other) => Err(other),
        }
    }

    /// Checks every record (see [`Service::check_records`]) before anything is written.
    fn check_all(
        &self,
        lines: &[(usize, &str)],
        importer: Author,
        bad: &BadLine<'_>,
        progress: &mut dyn FnMut(ImportStage, u64, u64),
    ) -> Result<Vec<Planned>> {
        let mut planned = Vec::with_capacity(lines.len());
        let total = lines.len() as u64;
        self.check_records(lines, importer, bad, &mut |plan| {
            planned.push(plan);
            if planned.len().is_multiple_of(SCAN_BATCH) || planned.len() as u64 == total {
                progress(ImportStage::Checking, planned.len() as u64, total);
            }
            Ok(())
        })?;
        Ok(planned)
    }

    /// Writes the records into `kb` in one transaction as they pass their checks, which run
    /// meanwhile on the other cores; a problem anywhere rolls the whole transaction back.
    fn check_and_write(
        &self,
        kb: &mut dyn KnowledgeStore,
        subject: &Subject,
        lines: &[(usize, &str)],
        job: Settlement<'_>,
        progress: &mut dyn FnMut(ImportStage, u64, u64),
    ) -> Result<Settled> {
        refuse_unless_writable(kb, subject, None)?;
        let limit = kb.settings(None)?.max_memories;
        kb.write(|tx| {
            let reads: &dyn Reads = tx;
            let mut settled = None;
            tx.bulk_load(&mut |index_so_far| {
                let mut settler = Settler::new(Some(reads), Some(tx), limit, job, progress)?
                    .indexing(index_so_far);
                self.check_records(lines, job.options.importer, job.bad, &mut |plan| {
                    settler.settle(plan)
                })?;
                settled = Some(settler.finish()?);
                Ok(())
            })?;
            settled.ok_or_else(|| KenningError::Usage("the bulk load did not run".to_owned()))
        })
    }

    /// Reads, validates, hash-checks and scans every record line, handing each record that
    /// passes to `checked` in file order; the problem on the first line that has one (or the
    /// first error `checked` returns) fails the import.
    ///
    /// Batches are checked on every core at once, each call in its own policy instance: by
    /// helper threads, one fewer than the cores, and by this thread whenever the next batch in
    /// file order is not back yet. The writer (`checked`, on this thread) thus never waits idle
    /// while batches are left, and has a core of its own: beside a checker on every core it
    /// fell behind, and settled the backlog alone at the end. Batches are taken back in file
    /// order here, where the ids are compared across batches. A batch is not started once an
    /// earlier one failed.
    fn check_records(
        &self,
        lines: &[(usize, &str)],
        importer: Author,
        bad: &BadLine<'_>,
        checked: &mut dyn FnMut(Planned) -> Result<()>,
    ) -> Result<()> {
        let batches: Vec<&[(usize, &str)]> = lines.chunks(SCAN_BATCH).collect();
        let helpers = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(batches.len())
            .saturating_sub(1);
        let policy: &dyn Policy = &*self.policy;
        let latest = self.now().saturating_add(MAX_CLOCK_SKEW_SECS);
        let next = AtomicUsize::new(0);
        let first_failed = AtomicUsize::new(usize::MAX);
        let check_next = || {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= batches.len() || index > first_failed.load(Ordering::Relaxed) {
                return None;
            }
            let checked = check_batch(policy, batches[index], importer, latest, bad);
            if checked.problem.is_some() {
                first_failed.fetch_min(index, Ordering::Relaxed);
            }
            Some((index, checked))
        };
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            for _ in 0..helpers {
                let (done, check_next) = (done.clone(), &check_next);
                scope.spawn(move || {
                    while let Some(result) = check_next() {
                        if done.send(result).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done);
            let stop = || first_failed.store(0, Ordering::Relaxed);
            let mut exporter_ids = HashSet::with_capacity(lines.len());
            let mut early: BTreeMap<usize, CheckedBatch> = BTreeMap::new();
            let mut in_order = 0;
            // A batch back from a helper, else one checked here, else the wait for a helper's.
            let arrived = || {
                finished
                    .try_recv()
                    .ok()
                    .or_else(&check_next)
                    .or_else(|| finished.recv().ok())
            };
            while let Some((index, batch)) = arrived() {
                early.insert(index, batch);
                while let Some(batch) = early.remove(&in_order) {
                    in_order += 1;
                    for plan in batch.planned {
                        if !exporter_ids.insert(plan.exporter_id) {
                            stop();
                            let problem = format!("a second record with id {}", plan.exporter_id);
                            return Err(bad(plan.line, problem));
                        }
                        if let Err(error) = checked(plan) {
                            stop();
                            return Err(error);
                        }
                    }
                    if let Some(problem) = batch.problem {
                        stop();
                        return Err(problem);
                    }
                }
            }
            Ok(())
        })
    }
}

/// How an import names a bad line: an error for the line's number and its problem. Shared by
/// the threads that check records.
type BadLine<'a> = dyn Fn(usize, String) -> KenningError + Sync + 'a;

/// One batch of record lines, checked: the records that passed, in line order, up to the
/// first line with a problem, and that problem.
struct CheckedBatch {
    planned: Vec<Planned>,
    problem: Option<KenningError>,
}

/// How far in the future an imported timestamp may lie: another machine's clock may run a
/// little ahead, but a memory written next year (or in the year 292 billion) was not.
const MAX_CLOCK_SKEW_SECS: i64 = 86_400;

/// Refuses a record's timestamp after `latest` (now, give or take a clock's skew), naming it.
fn refuse_future(record: &ImportRecord, latest: i64) -> std::result::Result<(), String> {
    for (field, at) in [
        ("created_at", record.created_at),
        ("updated_at", record.updated_at),
    ] {
        if at > latest {
            return Err(format!(
                "{field}: {at} is in the future (after {}); an import keeps the times a memory had, and none lies ahead",
                super::civil_date(latest)
            ));
        }
    }
    Ok(())
}

/// Reads and scans one batch of record lines (one scan call for the batch); no timestamp may
/// lie after `latest`.
fn check_batch(
    policy: &dyn Policy,
    batch: &[(usize, &str)],
    importer: Author,
    latest: i64,
    bad: &BadLine<'_>,
) -> CheckedBatch {
    let mut problem = None;
    let mut records = Vec::with_capacity(batch.len());
    let mut items = Vec::with_capacity(batch.len());
    let mut fields_of = Vec::with_capacity(batch.len());
    for &(line, record_text) in batch {
        let read = read_record(policy, record_text).and_then(|mut record| {
            refuse_future(&record, latest)?;
            let fields: Vec<(String, String)> = string_fields(record_text, UNSCANNED_FIELDS)
                .map_err(|e| format!("not JSON: {e}"))?
                .into_iter()
                .filter(|(path, _)| !path.ends_with(".kind"))
                .collect();
            let controls: Vec<String> = fields
                .iter()
                .filter_map(|(path, value)| control_error(path, value))
                .map(|e| e.to_string())
                .collect();
            if !controls.is_empty() {
                return Err(controls.join("; "));
            }
            // Control characters never reach a store: stripped from the text, as any write's,
            // which then hashes anew.
            if let std::borrow::Cow::Owned(stripped) = crate::controls::strip(&record.text) {
                record.text = stripped;
                record.content_hash = None;
            }
            Ok((record, fields))
        });
        let (record, fields) = match read {
            Ok(read) => read,
            Err(read_problem) => {
                problem = Some(bad(line, read_problem));
                break;
            }
        };
        let author = provenance::import_scanned_as(importer);
        items.push(ScanItem {
            text: record.text.clone(),
            target: scan_target(&record),
            author,
        });
        items.extend(fields.iter().map(|(_, value)| ScanItem {
            text: value.clone(),
            target: Target::Memory,
            author,
        }));
        fields_of.push(fields);
        records.push((line, record));
    }
    if items.is_empty() {
        return CheckedBatch {
            planned: Vec::new(),
            problem,
        };
    }
    let mut results = match policy.scan(&items) {
        Ok(results) => results.into_iter(),
        Err(error) => {
            return CheckedBatch {
                planned: Vec::new(),
                problem: Some(error.into()),
            };
        }
    };
    let mut planned = Vec::with_capacity(records.len());
    for ((line, record), fields) in records.into_iter().zip(fields_of) {
        let text_result = results
            .next()
            .expect("the guard checks one result per item");
        let errors: Vec<String> = fields
            .iter()
            .zip(results.by_ref())
            .filter_map(|((path, _), result)| field_error(path, result))
            .map(|e| e.to_string())
            .collect();
        // A problem here is on an earlier line than a record that could not be read.
        if !errors.is_empty() {
            problem = Some(bad(line, errors.join("; ")));
            break;
        }
        // As for any write, the text stored is the scan's: the guard holds an allowed one
        // unchanged.
        let scanned = match Scanned::of(&record.text, text_result) {
            Ok(scanned) => scanned,
            Err(KenningError::Blocked { reason }) => {
                problem = Some(bad(
                    line,
                    format!("text blocked by the safety scan: {reason}"),
                ));
                break;
            }
            Err(other) => {
                problem = Some(other);
                break;
            }
        };
        planned.push(Planned::new(line, record, scanned, importer));
    }
    CheckedBatch { planned, problem }
}

/// One record line through the policy's schema, with its content hash checked.
fn read_record(policy: &dyn Policy, line: &str) -> std::result::Result<ImportRecord, String> {
    if line.len() > MAX_ARGS_BYTES {
        return Err(format!(
            "the record is {} bytes; the limit is {MAX_ARGS_BYTES}",
            line.len()
        ));
    }
    let call = policy
        .validate(kenning_contract::IMPORT_RECORD, line)
        .map_err(|e| e.to_string())?
        .map_err(|errors| {
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        })?;
    let record: ImportRecord = serde_json::from_str(&call.args_json).map_err(|e| {
        PolicyError::BadAnswer {
            policy: policy.info().name.clone(),
            call: "validate",
            problem: format!("canonical import-record does not match the host's schema: {e}"),
        }
        .to_string()
    })?;
    let actual = content_hash(&record.text);
    match &record.content_hash {
        None => Err("no content_hash: every record carries the SHA-256 of its text".into()),
        Some(given) if *given != actual => Err(format!(
            "content_hash {given} is not the SHA-256 of the text ({actual}): the record was changed after export"
        )),
        Some(_) => Ok(record),
    }
}

/// One record, checked and scanned, as it would be stored.
struct Planned {
    line: usize,
    exporter_id: u64,
    supersedes: Option<u64>,
    imported: Imported,
    redacted: bool,
    /// The badge the export gave it, for the audit event.
    exported_badge: Option<Badge>,
    /// What the scan suspected in its text, for the audit event.
    suspicion: Option<String>,
}

impl Planned {
    fn new(line: usize, record: ImportRecord, scanned: Scanned, importer: Author) -> Planned {
        let exported_badge = record.badge;
        let badge = scanned.badge(provenance::badge_for_import(importer, exported_badge));
        let redacted = scanned.text != record.text;
        let suspicion = scanned.detail(None);
        let text = scanned.text;
        // The record's hash was checked against its text; a redacted text has a new one.
        let content_hash = match record.content_hash {
            Some(checked) if !redacted => checked,
            _ => content_hash(&text),
        };
        let memory = NewMemory {
            scope: record.scope,
            kind: record.kind,
            target: record.target,
            day: record.day,
            tags: record.tags,
            categories: record.categories,
            confidence: record.confidence as f32,
            thread: record.thread,
            anchors: record.anchors,
            image_base: record.image_base,
            ..NewMemory::new(record.author, text)
        };
        Planned {
            line,
            exporter_id: record.id,
            supersedes: record.supersedes,
            imported: Imported {
                content_hash,
                memory,
                badge,
                status: record.status,
                created_at: record.created_at,
                updated_at: record.updated_at,
            },
            redacted,
            exported_badge,
            suspicion,
        }
    }

    /// `, B there` for the audit event, when the export gave a badge, and `; held for review:
    /// …` or `; marked: …` when the scan suspected the text.
    fn imported_badge_note(&self) -> String {
        let badge = self
            .exported_badge
            .map(|b| format!(", {b} there"))
            .unwrap_or_default();
        match &self.suspicion {
            Some(note) => format!("{badge}; {note}"),
            None => badge,
        }
    }

    fn same_place(&self, other: &Planned) -> bool {
        let (a, b) = (&self.imported.memory, &other.imported.memory);
        a.scope == b.scope && a.target == b.target && a.day == b.day && a.anchors == b.anchors
    }
}

/// What every way of settling an import shares: how it was asked for, its clock, how it names
/// a bad line, and how many records the file holds.
#[derive(Clone, Copy)]
struct Settlement<'a> {
    options: &'a ImportOptions,
    now: i64,
    bad: &'a BadLine<'a>,
    total: u64,
}

/// Decides, record by record in file order, whether each checked record is a duplicate or
/// new, and (given `tx`) writes the new ones with their audit events; [`Settler::finish`]
/// then writes their `supersedes` links. Without `tx` (a dry run) it only counts; without
/// `store` there is no store yet.
struct Settler<'a> {
    store: Option<&'a dyn Reads>,
    tx: Option<&'a dyn Writes>,
    limit: Option<u64>,
    job: Settlement<'a>,
    progress: &'a mut dyn FnMut(ImportStage, u64, u64),
    /// Indexes the memories written so far, every [`INDEX_EVERY`] of them, while later records
    /// are still being checked.
    index_so_far: Option<&'a mut IndexSoFar<'a>>,
    /// The stored memories' ids by content hash.
    stored: HashMap<String, Vec<u64>>,
    active: u64,
    planned: Vec<Planned>,
    /// Earlier records of this file (indexes into `planned`) by content hash, for duplicates
    /// within the file.
    earlier: HashMap<String, Vec<usize>>,
    /// The exporter's ids mapped to ids here, for `supersedes`.
    ids: HashMap<u64, u64>,
    counts: Counts,
}

/// What an import did, counted as it goes.
#[derive(Default)]
struct Counts {
    imported: u64,
    duplicates: u64,
    redacted: u64,
    badges: BTreeMap<String, u64>,
}

/// A settled import: its records (kept, should they have to be written again elsewhere) and
/// what was done with them.
struct Settled {
    planned: Vec<Planned>,
    counts: Counts,
}

impl Settled {
    fn report(self, subject: &Subject, dry_run: bool) -> ImportReport {
        let Counts {
            imported,
            duplicates,
            redacted,
            badges,
        } = self.counts;
        ImportReport {
            subject: subject.to_string(),
            dry_run,
            records: self.planned.len() as u64,
            imported,
            duplicates,
            redacted,
            badges,
        }
    }
}

impl<'a> Settler<'a> {
    fn new(
        store: Option<&'a dyn Reads>,
        tx: Option<&'a dyn Writes>,
        limit: Option<u64>,
        job: Settlement<'a>,
        progress: &'a mut dyn FnMut(ImportStage, u64, u64),
    ) -> Result<Self> {
        let stored = match store {
            Some(store) => store.ids_by_hash()?,
            None => HashMap::new(),
        };
        let active = match store {
            Some(store) if limit.is_some() => store.count_active()?,
            _ => 0,
        };
        Ok(Settler {
            store,
            tx,
            limit,
            job,
            progress,
            index_so_far: None,
            stored,
            active,
            planned: Vec::with_capacity(job.total as usize),
            earlier: HashMap::with_capacity(job.total as usize),
            ids: HashMap::with_capacity(job.total as usize),
            counts: Counts::default(),
        })
    }

    /// Has the memories written so far indexed through `index_so_far` every [`INDEX_EVERY`].
    fn indexing(mut self, index_so_far: &'a mut IndexSoFar<'a>) -> Self {
        self.index_so_far = Some(index_so_far);
        self
    }

    /// Settles every record of `planned` and finishes.
    fn settle_all(mut self, planned: Vec<Planned>) -> Result<Settled> {
        for plan in planned {
            self.settle(plan)?;
        }
        self.finish()
    }

    /// Settles the next record of the file.
    fn settle(&mut self, plan: Planned) -> Result<()> {
        let Settlement {
            options, now, bad, ..
        } = self.job;
        let index = self.planned.len();
        let hash = plan.imported.content_hash.as_str();
        let in_file = self
            .earlier
            .get(hash)
            .and_then(|seen| seen.iter().find(|&&i| self.planned[i].same_place(&plan)))
            .map(|&i| self.ids.get(&self.planned[i].exporter_id).copied());
        let in_store = match (in_file, self.store, self.stored.get(hash)) {
            (None, Some(store), Some(candidates)) => stored_duplicate(store, &plan, candidates)?,
            _ => None,
        };
        if let Some(existing) = in_file.flatten().or(in_store) {
            self.ids.insert(plan.exporter_id, existing);
        }
        if plan.redacted {
            self.counts.redacted += 1;
        }
        if in_file.is_some() || in_store.is_some() {
            self.counts.duplicates += 1;
        } else {
            if plan.imported.status == Status::Active {
                self.active += 1;
                if let Some(limit) = self.limit
                    && self.active > limit
                {
                    return Err(bad(
                        plan.line,
                        format!(
                            "the knowledge base would exceed its limit of {limit} active memories (setting max_memories)"
                        ),
                    ));
                }
            }
            if let Some(tx) = self.tx {
                let detail = format!(
                    "{} line {} (exported id {}{})",
                    options.source_name,
                    plan.line,
                    plan.exporter_id,
                    plan.imported_badge_note()
                );
                let event = Event {
                    actor: options.importer.as_str(),
                    action: "import",
                    before_hash: None,
                    after_hash: Some(hash),
                    detail: Some(detail.as_str()),
                };
                let id = tx.insert_imported(&plan.imported, now, &event)?;
                self.ids.insert(plan.exporter_id, id);
            }
            self.counts.imported += 1;
            if let Some(index_so_far) = self.index_so_far.as_mut()
                && self.counts.imported.is_multiple_of(INDEX_EVERY)
            {
                index_so_far()?;
            }
            let badge = plan.imported.badge.as_str();
            match self.counts.badges.get_mut(badge) {
                Some(count) => *count += 1,
                None => {
                    self.counts.badges.insert(badge.to_owned(), 1);
                }
            }
            self.earlier.entry(hash.to_owned()).or_default().push(index);
        }
        self.planned.push(plan);
        let done = self.planned.len() as u64;
        if done.is_multiple_of(SCAN_BATCH as u64) || done == self.job.total {
            (self.progress)(ImportStage::Writing, done, self.job.total);
        }
        Ok(())
    }

    /// Writes the `supersedes` links between the records settled.
    fn finish(self) -> Result<Settled> {
        if let Some(tx) = self.tx {
            for plan in &self.planned {
                if let (Some(old), Some(&new)) = (plan.supersedes, self.ids.get(&plan.exporter_id))
                    && let Some(&old) = self.ids.get(&old)
                    && old != new
                {
                    tx.set_supersedes(new, old)?;
                }
            }
        }
        Ok(Settled {
            planned: self.planned,
            counts: self.counts,
        })
    }
}

/// How many memories an import writes between two rounds of full-text indexing: few enough
/// that the last round, which nothing overlaps, is short; many enough that each round still
/// indexes its rows in one statement.
const INDEX_EVERY: u64 = 2048;

/// Writes records checked beforehand into `kb`, in one transaction.
fn write_checked(
    kb: &mut dyn KnowledgeStore,
    planned: Vec<Planned>,
    job: Settlement<'_>,
    progress: &mut dyn FnMut(ImportStage, u64, u64),
) -> Result<Settled> {
    let limit = kb.settings(None)?.max_memories;
    kb.write(|tx| {
        let reads: &dyn Reads = tx;
        let mut planned = Some(planned);
        let mut settled = None;
        tx.bulk_load(&mut |_| {
            let planned = planned.take().unwrap_or_default();
            settled = Some(
                Settler::new(Some(reads), Some(tx), limit, job, progress)?.settle_all(planned)?,
            );
            Ok(())
        })?;
        settled.ok_or_else(|| KenningError::Usage("the bulk load did not run".to_owned()))
    })
}

/// The stored memory among `candidates` (same content hash) placed where `plan` would be.
fn stored_duplicate(store: &dyn Reads, plan: &Planned, candidates: &[u64]) -> Result<Option<u64>> {
    let memory = &plan.imported.memory;
    for &id in candidates {
        if let Some((scope, target, day, anchors)) = store.placement_of(id)?
            && scope == memory.scope.as_str()
            && target == memory.target
            && day == memory.day
            && anchors == memory.anchors
        {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// Reads the header line strictly.
impl Header {
    /// The header an export's first line holds, or why `line` is none: not a header, or one of
    /// another format.
    pub fn parse(line: &str) -> std::result::Result<Header, String> {
        let header: Header = serde_json::from_str(line)
            .map_err(|e| format!("not a {IMPORT_FORMAT} header ({e})"))?;
        if header.format != IMPORT_FORMAT {
            return Err(format!(
                "unsupported format {:?} (expected {IMPORT_FORMAT})",
                header.format
            ));
        }
        Ok(header)
    }
}

/// What an imported text is scanned as: its profile file, else its scope.
fn scan_target(record: &ImportRecord) -> Target {
    match (record.target, record.scope) {
        (Some(target), _) => target.into(),
        (None, Scope::Global) => Target::Global,
        (None, Scope::Local) => Target::Local,
    }
}

/// One exported record: the fields of an `import-record`, anchors as a tool call writes them.
#[derive(Serialize)]
struct RecordOut<'a> {
    format: &'static str,
    id: u64,
    scope: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    day: Option<&'a str>,
    text: &'a str,
    tags: &'a [String],
    categories: &'a [String],
    confidence: f32,
    anchors: Vec<AnchorArg>,
    image_base: u64,
    author: &'static str,
    badge: &'static str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    thread: Option<&'a str>,
    content_hash: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    supersedes: Option<u64>,
    created_at: i64,
    updated_at: i64,
}

/// A stored anchor (file offsets) as a tool call writes it: addresses of the image at
/// `image_base`.
pub(super) fn anchor_arg(anchor: &Anchor, image_base: u64) -> AnchorArg {
    let at = |offset: u64| Address::Number(offset.wrapping_add(image_base));
    match anchor {
        Anchor::Function(f) => AnchorArg::Function {
            name: f.name.clone(),
            start: at(f.start),
            end: f.end.map(at),
        },
        Anchor::Range(r) => AnchorArg::Range {
            start: at(r.start),
            end: at(r.end),
        },
        Anchor::Address { offset } => AnchorArg::Address {
            address: at(*offset),
        },
        Anchor::Near(n) => AnchorArg::Near {
            address: at(n.offset),
            radius: n.radius,
        },
        Anchor::String { value } => AnchorArg::String {
            value: value.clone(),
        },
    }
}

fn jsonl(header: &Header, memories: &[(Memory, Option<u64>)]) -> String {
    let mut out = serde_json::to_string(header).expect("a header serialises");
    out.push('\n');
    for (memory, supersedes) in memories {
        let record = RecordOut {
            format: IMPORT_FORMAT,
            id: memory.id,
            scope: memory.scope.as_str(),
            kind: memory.kind.as_str(),
            target: memory.target.map(|target| target.as_str()),
            day: memory.day.as_deref(),
            text: &memory.text,
            tags: &memory.tags,
            categories: &memory.categories,
            confidence: memory.confidence,
            anchors: memory
                .anchors
                .iter()
                .map(|a| anchor_arg(a, memory.image_base))
                .collect(),
            image_base: memory.image_base,
            author: memory.author.as_str(),
            badge: memory.badge.as_str(),
            status: memory.status.as_str(),
            thread: memory.thread.as_deref(),
            content_hash: &memory.content_hash,
            supersedes: *supersedes,
            created_at: memory.created_at,
            updated_at: memory.updated_at,
        };
        out.push_str(&serde_json::to_string(&record).expect("a record serialises"));
        out.push('\n');
    }
    out
}

fn markdown(header: &Header, memories: &[(Memory, Option<u64>)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Memories of {}\n\n{} memories, exported at {} ({}).",
        header.subject.describe(),
        header.memories,
        super::civil_date(header.exported_at),
        header.exported_at
    );
    for (memory, supersedes) in memories {
        let place = match (memory.target, &memory.day) {
            (Some(target), Some(day)) => format!("{target} {day}"),
            (Some(target), None) => target.to_string(),
            _ => memory.scope.as_str().to_owned(),
        };
        let _ = writeln!(
            out,
            "\n## #{} · {} · {} · {} · {}\n",
            memory.id,
            memory.kind.as_str(),
            place,
            memory.badge.label(),
            memory.status
        );
        for line in memory.text.lines() {
            let _ = writeln!(out, "> {line}");
        }
        let mut facts = vec![
            format!("by {}", memory.author),
            format!("confidence {}", memory.confidence),
            format!(
                "written {}, changed {}",
                super::civil_date(memory.created_at),
                super::civil_date(memory.updated_at)
            ),
        ];
        if !memory.tags.is_empty() {
            facts.push(
                memory
                    .tags
                    .iter()
                    .map(|t| format!("#{t}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        if !memory.categories.is_empty() {
            facts.push(format!("categories: {}", memory.categories.join(", ")));
        }
        if let Some(thread) = &memory.thread {
            facts.push(format!("thread {thread}"));
        }
        if let Some(old) = supersedes {
            facts.push(format!("supersedes #{old}"));
        }
        let _ = writeln!(out, "\n{}", facts.join(" · "));
        for anchor in &memory.anchors {
            let _ = writeln!(out, "- {}", describe_anchor(anchor, memory.image_base));
        }
    }
    out
}

fn describe_anchor(anchor: &Anchor, image_base: u64) -> String {
    let at = |offset: u64| format!("{:#x}", offset.wrapping_add(image_base));
    match anchor {
        Anchor::Function(f) => match f.end {
            Some(end) => format!("function {} at {}-{}", f.name, at(f.start), at(end)),
            None => format!("function {} at {}", f.name, at(f.start)),
        },
        Anchor::Range(r) => format!("range {}-{}", at(r.start), at(r.end)),
        Anchor::Address { offset } => format!("address {}", at(*offset)),
        Anchor::Near(n) => format!("near {} (±{} bytes)", at(n.offset), n.radius),
        Anchor::String { value } => format!("string {value:?}"),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use serde_json::json;

    use super::*;
    use crate::store::Backend;
    use crate::store::contract::StagedStore;
    use crate::store::sqlite::SqliteFiles;

    /// SQLite files whose subject gets a knowledge base from another writer (one memory
    /// remembered through a second service) just after an import has staged one of its own.
    struct StoreCreatedMeanwhile {
        files: SqliteFiles,
        data: PathBuf,
    }

    impl Backend for StoreCreatedMeanwhile {
        fn open(&self, subject: &Subject, create: bool) -> Result<Option<Box<dyn KnowledgeStore>>> {
            self.files.open(subject, create)
        }

        fn subjects(&self) -> Result<Vec<Subject>> {
            self.files.subjects()
        }

        fn location(&self, subject: &Subject) -> PathBuf {
            self.files.location(subject)
        }

        fn check_ready(&self) -> Result<()> {
            self.files.check_ready()
        }

        fn stage(&self, subject: &Subject) -> Result<Option<Box<dyn StagedStore>>> {
            let staged = self.files.stage(subject)?;
            let other = Service::builder(&self.data).without_cache().build()?;
            let args =
                json!({"text": "Written by another writer during the import", "scope": "global"});
            other.call(subject, Author::Human, "remember", &args.to_string())?;
            Ok(staged)
        }
    }

    /// A `kenning-memory/1` file for the account `name` with `count` global facts.
    fn export_of(name: &str, count: u64) -> String {
        let mut text = json!({"format": IMPORT_FORMAT,
            "subject": {"kind": "account", "key": name, "label": name},
            "exported_at": 1_700_000_000, "memories": count})
        .to_string();
        for id in 1..=count {
            let memory = format!("Imported finding number {id}");
            let record = json!({"format": IMPORT_FORMAT, "id": id, "scope": "global",
                "type": "fact", "text": memory, "confidence": 0.5, "author": "human",
                "badge": "native", "content_hash": content_hash(&memory),
                "created_at": 1_700_000_000, "updated_at": 1_700_000_000});
            text.push('\n');
            text.push_str(&record.to_string());
        }
        text.push('\n');
        text
    }

    /// The files in `dir` but the SQLite write-ahead log and its index.
    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| !name.ends_with("-wal") && !name.ends_with("-shm"))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn records_staged_for_a_new_subject_go_into_the_store_another_writer_made_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().to_path_buf();
        let subject = Subject::parse("account:raced").unwrap();
        let service = Service::builder(&data)
            .without_cache()
            .backend(Box::new(StoreCreatedMeanwhile {
                files: SqliteFiles::new(&data, None),
                data: data.clone(),
            }))
            .build()
            .unwrap();
        let options = ImportOptions {
            importer: Author::Human,
            dry_run: false,
            source_name: "raced.jsonl".to_owned(),
        };
        let report = service
            .import(
                &subject,
                &export_of("raced", 600),
                &options,
                &mut |_, _, _| {},
            )
            .unwrap();
        assert_eq!((report.records, report.imported), (600, 600));

        let export = service.export(&subject, ExportFormat::Jsonl).unwrap().text;
        let texts: Vec<String> = export
            .lines()
            .skip(1)
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                record["text"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(
            texts.len(),
            601,
            "the other writer's memory and every record"
        );
        assert_eq!(texts[0], "Written by another writer during the import");
        assert_eq!(texts[600], "Imported finding number 600");
        assert_eq!(
            files_in(&data),
            [subject.file_name()],
            "one store, nothing staged left"
        );
    }
}
