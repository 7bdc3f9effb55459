//! A profile as files: `USER.md`, `MEMORY.md` and `daily/YYYY-MM-DD.md`, exported from its
//! accepted, active entries and imported back.
//!
//! # The format
//!
//! Each file is a heading (`# USER.md`) and one entry a line, `- TEXT`; a line break inside an
//! entry continues on the next line indented by two spaces. Entries are in the order they
//! were written. `kenning view` renders the same format ([`render`]).
//!
//! # An import
//!
//! The files are read ([`parse`]: a line that is neither an entry, its continuation, a
//! heading nor blank is refused naming the file and the line), turned into
//! `kenning-memory/1` records (profile entries, written by the importer, now), and imported
//! exactly as a JSONL file is ([`Service::import`]): each record through the policy's schema,
//! its hash and the scan, duplicates of stored entries skipped, all or nothing in one
//! transaction, badges by [`crate::provenance::badge_for_import`]. An error about a record
//! names the file and line its entry starts on.
//!
//! Round trip: exporting a profile, importing the files into an empty profile and exporting
//! that gives the same files, byte for byte.

use kenning_contract::args::IMPORT_FORMAT;
use kenning_contract::types::SubjectKind;

use super::Service;
use super::interchange::{Header, ImportOptions, ImportReport, ImportStage, SubjectIdentity};
use crate::error::{KenningError, Result};
use crate::store::{Memory, MemoryTarget, content_hash};
use crate::subject::Subject;

/// One profile file: its path inside the profile's directory and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileFile {
    /// `USER.md`, `MEMORY.md` or `daily/YYYY-MM-DD.md`.
    pub path: String,
    /// The whole file.
    pub text: String,
}

/// Most entries one profile exports.
const MAX_ENTRIES: u32 = 100_000;

/// The file for `entries` (texts in order) under the heading `title`; `None` without entries.
pub fn render(title: &str, entries: &[&str]) -> Option<String> {
    (!entries.is_empty()).then(|| {
        let mut out = format!("# {title}\n\n");
        for text in entries {
            out.push_str(&format!("- {}\n", text.replace('\n', "\n  ")));
        }
        out
    })
}

/// The entries of a profile file, each with the line it starts on; `Err((line, problem))` for a
/// line that belongs to no entry.
pub fn parse(text: &str) -> std::result::Result<Vec<(usize, String)>, (usize, String)> {
    let mut entries: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    // Split on line feeds only: a carriage return inside an entry is part of its text.
    let body = text.strip_suffix('\n').unwrap_or(text);
    for (index, line) in body.split('\n').enumerate() {
        let number = index + 1;
        if let Some(entry) = line.strip_prefix("- ") {
            entries.push((number, entry.to_owned()));
            open = true;
        } else if line == "-" {
            return Err((number, "an empty entry ('-' with no text)".to_owned()));
        } else if let Some(more) = line.strip_prefix("  ").filter(|_| open) {
            let (_, entry) = entries.last_mut().expect("an entry is open");
            entry.push('\n');
            entry.push_str(more);
        } else if line.trim().is_empty() || (line.starts_with('#') && entries.is_empty()) {
            open = false;
        } else {
            return Err((
                number,
                format!(
                    "{line:?} is not an entry: entries start with '- ', and their further lines with two spaces"
                ),
            ));
        }
    }
    Ok(entries)
}

/// Which entries a profile file holds: its target and, for a daily note, its day.
fn target_of(path: &str) -> Option<(MemoryTarget, Option<String>)> {
    match path {
        "USER.md" => Some((MemoryTarget::User, None)),
        "MEMORY.md" => Some((MemoryTarget::Memory, None)),
        _ => {
            let day = path.strip_prefix("daily/")?.strip_suffix(".md")?;
            let digits = |range: std::ops::Range<usize>| {
                day.get(range)
                    .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()))
            };
            let is_date = day.len() == 10
                && digits(0..4)
                && digits(5..7)
                && digits(8..10)
                && &day[4..5] == "-"
                && &day[7..8] == "-";
            is_date.then(|| (MemoryTarget::Daily, Some(day.to_owned())))
        }
    }
}

impl Service {
    /// The profile's accepted, active entries as files: `USER.md` and `MEMORY.md` when they
    /// have entries, and a `daily/YYYY-MM-DD.md` for each day with notes, in that order.
    pub fn export_profile_files(&self, subject: &Subject) -> Result<Vec<ProfileFile>> {
        require_profile(subject)?;
        let kb = self.open_existing(subject)?;
        let mut entries: Vec<Memory> = kb
            .read(|store| store.memories_in_order(true, MAX_ENTRIES))?
            .into_iter()
            .filter(|m| m.target.is_some() && !m.badge.is_quarantined())
            .collect();
        entries.sort_by_key(|m| (m.created_at, m.id));
        let texts = |target: MemoryTarget, day: Option<&str>| -> Vec<&str> {
            entries
                .iter()
                .filter(|m| m.target == Some(target) && m.day.as_deref() == day)
                .map(|m| m.text.as_str())
                .collect()
        };
        let mut days: Vec<&str> = entries
            .iter()
            .filter(|m| m.target == Some(MemoryTarget::Daily))
            .filter_map(|m| m.day.as_deref())
            .collect();
        days.sort_unstable();
        days.dedup();
        let mut files = Vec::new();
        for (path, target, day) in [
            ("USER.md".to_owned(), MemoryTarget::User, None),
            ("MEMORY.md".to_owned(), MemoryTarget::Memory, None),
        ]
        .into_iter()
        .chain(
            days.iter()
                .map(|day| (format!("daily/{day}.md"), MemoryTarget::Daily, Some(*day))),
        ) {
            let title = path.rsplit('/').next().unwrap_or(&path).to_owned();
            if let Some(text) = render(&title, &texts(target, day)) {
                files.push(ProfileFile { path, text });
            }
        }
        Ok(files)
    }

    /// Imports profile files into the profile (see the module docs), all or nothing.
    /// `source_name` in `options` names the directory in messages.
    pub fn import_profile_files(
        &self,
        subject: &Subject,
        files: &[ProfileFile],
        options: &ImportOptions,
        progress: &mut dyn FnMut(ImportStage, u64, u64),
    ) -> Result<ImportReport> {
        require_profile(subject)?;
        let bad = |file: &str, line: usize, problem: String| KenningError::BadImport {
            source_name: format!("{}/{file}", options.source_name),
            line,
            problem,
        };
        let now = self.now();
        // Where each record came from, by the line it has in the kenning-memory/1 text (the
        // header is line 1).
        let mut origins: Vec<(&str, usize)> = Vec::new();
        let mut lines: Vec<String> = Vec::new();
        for file in files {
            let (target, day) = target_of(&file.path).ok_or_else(|| {
                bad(
                    &file.path,
                    1,
                    "not a profile file: expected USER.md, MEMORY.md or daily/YYYY-MM-DD.md"
                        .to_owned(),
                )
            })?;
            let entries =
                parse(&file.text).map_err(|(line, problem)| bad(&file.path, line, problem))?;
            for (line, text) in entries {
                // The record as an exporter writes it (the policy's `import-record` schema).
                let mut record = serde_json::json!({
                    "format": IMPORT_FORMAT,
                    "id": lines.len() + 1,
                    "scope": "global",
                    "type": if target == MemoryTarget::User { "preference" } else { "fact" },
                    "target": target.to_string(),
                    "content_hash": content_hash(&text),
                    "text": text,
                    "tags": [],
                    "categories": [],
                    "confidence": 1.0,
                    "anchors": [],
                    "image_base": 0,
                    "author": options.importer.as_str(),
                    "status": "active",
                    "created_at": now,
                    "updated_at": now,
                });
                if let Some(day) = &day {
                    record["day"] = serde_json::Value::String(day.clone());
                }
                lines.push(serde_json::to_string(&record).expect("a record serialises"));
                origins.push((file.path.as_str(), line));
            }
        }
        let header = Header {
            format: IMPORT_FORMAT.to_owned(),
            subject: SubjectIdentity::of(subject),
            exported_at: now,
            memories: lines.len() as u64,
        };
        let mut text = serde_json::to_string(&header).expect("a header serialises");
        for line in &lines {
            text.push('\n');
            text.push_str(line);
        }
        self.import(subject, &text, options, progress)
            .map_err(|error| match error {
                KenningError::BadImport { line, problem, .. } if line >= 2 => {
                    match origins.get(line - 2) {
                        Some(&(file, entry_line)) => bad(file, entry_line, problem),
                        None => KenningError::BadImport {
                            source_name: options.source_name.clone(),
                            line,
                            problem,
                        },
                    }
                }
                other => other,
            })
    }
}

/// Profile files belong to profile subjects.
fn require_profile(subject: &Subject) -> Result<()> {
    if subject.kind == SubjectKind::Profile {
        Ok(())
    } else {
        Err(KenningError::Usage(format!(
            "{subject} is not a profile: USER.md, MEMORY.md and daily notes belong to profile:NAME subjects"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_with_line_breaks_renders_and_parses_back_to_itself() {
        let entries = [
            "Prefers short answers",
            "Two lines:\nthe second\n\n  indented",
        ];
        let text = render("USER.md", &entries).unwrap();
        let parsed: Vec<String> = parse(&text).unwrap().into_iter().map(|(_, t)| t).collect();
        assert_eq!(parsed, entries);
        assert_eq!(render("USER.md", &[]), None);
    }

    proptest::proptest! {
        #[test]
        fn any_entries_render_and_parse_back_to_themselves(
            entries in proptest::collection::vec("(?s).{0,40}", 1..6)
        ) {
            let texts: Vec<&str> = entries.iter().map(String::as_str).collect();
            let file = render("MEMORY.md", &texts).unwrap();
            let parsed: Vec<String> = parse(&file).unwrap().into_iter().map(|(_, t)| t).collect();
            proptest::prop_assert_eq!(parsed, entries);
        }

        #[test]
        fn any_text_parses_or_is_refused_naming_a_line_it_has(text in "(?s).{0,200}") {
            if let Err((line, _)) = parse(&text) {
                proptest::prop_assert!(line >= 1 && line <= text.split('\n').count());
            }
        }
    }

    #[test]
    fn each_entry_carries_the_line_it_starts_on() {
        let parsed = parse("# MEMORY.md\n\n- one\n  more\n\n- two\n").unwrap();
        assert_eq!(parsed, [(3, "one\nmore".to_owned()), (6, "two".to_owned())]);
    }

    #[test]
    fn a_line_outside_every_entry_is_refused_with_its_number() {
        assert_eq!(parse("# USER.md\n\nloose text\n").unwrap_err().0, 3);
        assert_eq!(parse("- a\n\n  orphan continuation\n").unwrap_err().0, 3);
        assert_eq!(parse("- a\n-\n").unwrap_err().0, 2);
        assert_eq!(parse("- a\n# late heading\n").unwrap_err().0, 2);
    }

    #[test]
    fn only_the_three_kinds_of_profile_file_have_a_target() {
        assert_eq!(target_of("USER.md"), Some((MemoryTarget::User, None)));
        assert_eq!(
            target_of("daily/2026-12-01.md"),
            Some((MemoryTarget::Daily, Some("2026-12-01".to_owned())))
        );
        for path in [
            "user.md",
            "daily/2026-1-01.md",
            "daily/today.md",
            "notes.md",
            "daily/2026-12-01.txt",
        ] {
            assert_eq!(target_of(path), None, "{path}");
        }
    }
}
