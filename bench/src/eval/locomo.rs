//! `kenning eval locomo`: retrieval quality on the LoCoMo benchmark (Maharana et al., ACL 2024).
//!
//! Every dialog turn of a conversation becomes one memory of the subject
//! `account:locomo-<sample_id>`, written through the ordinary `remember` tool (validation, safety
//! scan, dedup, one transaction with its audit event). The memory holds what a chat deployment
//! would keep: the speaker and the text, a caption of a shared image, and the session's date; it
//! carries its dialog id as the category `locomo:D<session>:<turn>` and its session as its thread.
//! Each question is then asked as the query of the `recall` tool, exactly as an agent would, and
//! scored with the paper's turn-level metric: recall@k is the fraction of a question's evidence
//! turns found among the first k memories, averaged over questions (a question without usable
//! evidence counts as 1, as the official scorer does).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use kenning::api::{RecallArgs, RememberArgs, WriteStatus};
use kenning::subject::Subject;
use kenning::{KenningError, Result, Service};
use kenning_contract::args::Author;
use kenning_contract::types::MemoryKind;

/// The cut-offs reported, as in the paper's Table 3.
pub const KS: [usize; 4] = [5, 10, 25, 50];

/// The category marking a memory's dialog id.
const DIA_CATEGORY_PREFIX: &str = "locomo:";

/// Longest query the `recall` tool accepts, in bytes.
const MAX_QUERY_BYTES: usize = kenning_contract::MAX_QUERY_BYTES;

/// A dialog id, `D<session>:<turn>`, with its numbers parsed (so `D30:05` equals `D30:5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DiaId {
    /// The session number.
    pub session: u32,
    /// The turn number within the session.
    pub turn: u32,
}

impl DiaId {
    /// Parses one clean or slightly damaged id: `D1:3`, `D30:05`, `D:11:26`, `(D2:4)`, `d2:4`.
    /// Returns `None` for anything without a session and a turn number (`D`, `D4`, `x`).
    pub fn parse(raw: &str) -> Option<DiaId> {
        let cleaned: String = raw
            .chars()
            .filter(|c| !matches!(c, '(' | ')' | '[' | ']' | '"' | '\''))
            .collect();
        let body = cleaned.trim().strip_prefix(['D', 'd'])?;
        let mut numbers = body
            .split(':')
            .map(str::trim)
            .filter(|part| !part.is_empty());
        let session = numbers.next()?.parse().ok()?;
        let turn = numbers.next()?.parse().ok()?;
        numbers.next().is_none().then_some(DiaId { session, turn })
    }
}

impl std::fmt::Display for DiaId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "D{}:{}", self.session, self.turn)
    }
}

/// Parses a question's evidence list: entries may hold several ids separated by `;`, `,` or
/// spaces, and may be damaged (see [`DiaId::parse`]). Unparseable pieces are dropped; repeats
/// are kept once, in first-seen order.
pub fn parse_evidence(entries: &[String]) -> Vec<DiaId> {
    let mut out = Vec::new();
    for entry in entries {
        for piece in entry.split(|c: char| c == ';' || c == ',' || c.is_whitespace()) {
            if let Some(id) = DiaId::parse(piece)
                && !out.contains(&id)
            {
                out.push(id);
            }
        }
    }
    out
}

/// The fraction of `evidence` found among the dialog ids of the first `k` retrieved memories
/// (each memory may stand for several turns when identical turns were stored once). Empty
/// evidence scores 1.
pub fn recall_at(retrieved: &[Vec<DiaId>], evidence: &[DiaId], k: usize) -> f64 {
    if evidence.is_empty() {
        return 1.0;
    }
    let top: BTreeSet<DiaId> = retrieved.iter().take(k).flatten().copied().collect();
    let found = evidence.iter().filter(|id| top.contains(id)).count();
    found as f64 / evidence.len() as f64
}

/// The rank (1 for the best) of the first retrieved memory standing for `id`; `None` when no
/// retrieved memory does.
pub fn rank_of(retrieved: &[Vec<DiaId>], id: DiaId) -> Option<usize> {
    retrieved
        .iter()
        .position(|ids| ids.contains(&id))
        .map(|at| at + 1)
}

/// The highest rank of each bucket of [`RankDistribution`], in order; a rank past the last is
/// not retrieved.
pub const RANK_BUCKETS: [usize; 5] = [1, 5, 10, 25, 50];

/// Where the evidence turns stand among the retrieved memories: the share (percent) of the
/// evidence turns first found at each range of ranks, and of those not retrieved at all (beyond
/// rank 50). Recall@k moves only when evidence crosses k; this shows where a change's evidence
/// went.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RankDistribution {
    /// Evidence turns counted.
    pub evidence: usize,
    /// First found at rank 1.
    #[serde(rename = "rank 1")]
    pub first: f64,
    /// At ranks 2 to 5.
    #[serde(rename = "ranks 2-5")]
    pub to_5: f64,
    /// At ranks 6 to 10.
    #[serde(rename = "ranks 6-10")]
    pub to_10: f64,
    /// At ranks 11 to 25.
    #[serde(rename = "ranks 11-25")]
    pub to_25: f64,
    /// At ranks 26 to 50.
    #[serde(rename = "ranks 26-50")]
    pub to_50: f64,
    /// Not among the retrieved memories.
    #[serde(rename = "not retrieved")]
    pub missed: f64,
}

impl RankDistribution {
    /// The shares in bucket order, the missed last.
    pub fn values(&self) -> [f64; RANK_BUCKETS.len() + 1] {
        [
            self.first,
            self.to_5,
            self.to_10,
            self.to_25,
            self.to_50,
            self.missed,
        ]
    }
}

/// Evidence turns counted by rank bucket ([`RANK_BUCKETS`], then not retrieved).
#[derive(Debug, Default, Clone)]
struct RankCounts([usize; RANK_BUCKETS.len() + 1]);

impl RankCounts {
    fn add(&mut self, retrieved: &[Vec<DiaId>], evidence: &[DiaId]) {
        for &id in evidence {
            let bucket = rank_of(retrieved, id)
                .and_then(|rank| RANK_BUCKETS.iter().position(|&top| rank <= top))
                .unwrap_or(RANK_BUCKETS.len());
            self.0[bucket] += 1;
        }
    }

    fn distribution(&self) -> RankDistribution {
        let evidence: usize = self.0.iter().sum();
        let [first, to_5, to_10, to_25, to_50, missed] = self.0.map(|n| {
            let percent = if evidence == 0 {
                0.0
            } else {
                100.0 * n as f64 / evidence as f64
            };
            (percent * 100.0).round() / 100.0
        });
        RankDistribution {
            evidence,
            first,
            to_5,
            to_10,
            to_25,
            to_50,
            missed,
        }
    }
}

/// One dialog turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// Its dialog id.
    pub id: DiaId,
    /// Who spoke.
    pub speaker: String,
    /// What was said.
    pub text: String,
    /// The caption of an image shared with the turn, if any.
    pub image_caption: Option<String>,
}

/// One session of a conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The session number (`session_<n>`).
    pub number: u32,
    /// When it took place, as written in the file (`1:56 pm on 8 May, 2023`).
    pub date_time: Option<String>,
    /// Its turns in order.
    pub turns: Vec<Turn>,
}

/// One question.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The question text (the query).
    pub question: String,
    /// The LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial).
    pub category: u32,
    /// The evidence turns, cleaned.
    pub evidence: Vec<DiaId>,
}

/// One conversation and its questions.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The sample id (`conv-26`).
    pub sample_id: String,
    /// The sessions in order.
    pub sessions: Vec<Session>,
    /// The questions.
    pub questions: Vec<Question>,
}

impl Sample {
    /// Every turn's id.
    pub fn turn_ids(&self) -> BTreeSet<DiaId> {
        self.sessions
            .iter()
            .flat_map(|s| s.turns.iter().map(|t| t.id))
            .collect()
    }
}

/// The name of a LoCoMo category.
pub fn category_name(category: u32) -> &'static str {
    match category {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => "other",
    }
}

fn bad_file(path: &Path, problem: impl std::fmt::Display) -> KenningError {
    KenningError::Usage(format!(
        "{}: not a LoCoMo-format file: {problem}",
        path.display()
    ))
}

/// Reads a LoCoMo-format file (a JSON list of samples).
pub fn load(path: &Path) -> Result<Vec<Sample>> {
    let bytes = std::fs::read(path).map_err(|source| KenningError::Io {
        path: path.to_owned(),
        source,
    })?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| bad_file(path, e))?;
    parse_samples(&value).map_err(|problem| bad_file(path, problem))
}

/// Interprets the JSON of a LoCoMo-format file.
pub fn parse_samples(value: &Value) -> std::result::Result<Vec<Sample>, String> {
    let list = value
        .as_array()
        .ok_or("the top level must be a list of samples")?;
    list.iter()
        .enumerate()
        .map(|(index, sample)| parse_sample(sample).map_err(|e| format!("sample {index}: {e}")))
        .collect()
}

fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn parse_sample(sample: &Value) -> std::result::Result<Sample, String> {
    let sample_id = text_of(sample.get("sample_id")).ok_or("no sample_id")?;
    let conversation = sample
        .get("conversation")
        .and_then(Value::as_object)
        .ok_or("no conversation object")?;
    let mut sessions = Vec::new();
    for (key, turns) in conversation {
        let Some(number) = key
            .strip_prefix("session_")
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Some(turns) = turns.as_array() else {
            continue;
        };
        let date_time = text_of(conversation.get(&format!("session_{number}_date_time")));
        let mut parsed = Vec::new();
        for (index, turn) in turns.iter().enumerate() {
            let id = text_of(turn.get("dia_id"))
                .and_then(|raw| DiaId::parse(&raw))
                .unwrap_or(DiaId {
                    session: number,
                    turn: index as u32 + 1,
                });
            parsed.push(Turn {
                id,
                speaker: text_of(turn.get("speaker")).unwrap_or_default(),
                text: text_of(turn.get("text")).unwrap_or_default(),
                image_caption: text_of(turn.get("blip_caption")).filter(|c| !c.trim().is_empty()),
            });
        }
        sessions.push(Session {
            number,
            date_time,
            turns: parsed,
        });
    }
    sessions.sort_by_key(|s| s.number);
    let questions = sample
        .get("qa")
        .and_then(Value::as_array)
        .map(|qa| {
            qa.iter()
                .filter_map(|q| {
                    let question = text_of(q.get("question"))?;
                    let evidence: Vec<String> = match q.get("evidence") {
                        Some(Value::Array(items)) => {
                            items.iter().filter_map(|e| text_of(Some(e))).collect()
                        }
                        Some(Value::String(s)) => vec![s.clone()],
                        _ => Vec::new(),
                    };
                    Some(Question {
                        question,
                        category: q.get("category").and_then(Value::as_u64).unwrap_or(0) as u32,
                        evidence: parse_evidence(&evidence),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Sample {
        sample_id,
        sessions,
        questions,
    })
}

/// The text a chat deployment would remember for a turn: who said what, a shared image's
/// caption, and when.
pub fn memory_text(session: &Session, turn: &Turn) -> String {
    let mut text = format!("{}: {}", turn.speaker.trim(), turn.text.trim());
    if let Some(caption) = &turn.image_caption {
        text.push_str(&format!(" [shared an image: {}]", caption.trim()));
    }
    if let Some(date) = &session.date_time {
        text.push_str(&format!(" ({})", date.trim()));
    }
    text
}

/// The subject holding a conversation's memories.
pub fn subject_of(sample_id: &str) -> Result<Subject> {
    let name: String = sample_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(56)
        .collect();
    Subject::parse(&format!("account:locomo-{name}"))
}

/// Recall figures (percentages) over a set of questions.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Questions scored.
    pub questions: usize,
    /// Recall at 5, in percent.
    #[serde(rename = "recall@5")]
    pub at_5: f64,
    /// Recall at 10, in percent.
    #[serde(rename = "recall@10")]
    pub at_10: f64,
    /// Recall at 25, in percent.
    #[serde(rename = "recall@25")]
    pub at_25: f64,
    /// Recall at 50, in percent.
    #[serde(rename = "recall@50")]
    pub at_50: f64,
    /// Where the evidence turns were found.
    pub evidence_ranks: RankDistribution,
}

impl Figures {
    /// The figures in the order of [`KS`].
    pub fn values(&self) -> [f64; KS.len()] {
        [self.at_5, self.at_10, self.at_25, self.at_50]
    }
}

/// One category's figures, with its name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryFigures {
    /// The category's name (multi-hop, temporal, ...).
    pub name: &'static str,
    /// Its figures.
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Default, Clone)]
struct Sums {
    questions: usize,
    sums: [f64; KS.len()],
    ranks: RankCounts,
}

impl Sums {
    fn add(&mut self, retrieved: &[Vec<DiaId>], evidence: &[DiaId]) {
        self.questions += 1;
        for (sum, k) in self.sums.iter_mut().zip(KS) {
            *sum += recall_at(retrieved, evidence, k);
        }
        self.ranks.add(retrieved, evidence);
    }

    fn figures(&self) -> Figures {
        let [at_5, at_10, at_25, at_50] = self.sums.map(|sum| {
            let percent = if self.questions == 0 {
                0.0
            } else {
                100.0 * sum / self.questions as f64
            };
            (percent * 100.0).round() / 100.0
        });
        Figures {
            questions: self.questions,
            at_5,
            at_10,
            at_25,
            at_50,
            evidence_ranks: self.ranks.distribution(),
        }
    }
}

/// What `kenning eval locomo` measured.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Overall figures.
    #[serde(flatten)]
    pub overall: Figures,
    /// Figures per category, keyed by the category number, each with its name.
    pub by_category: BTreeMap<String, CategoryFigures>,
    /// Conversations evaluated.
    pub conversations: usize,
    /// Turns stored as memories.
    pub turns_stored: usize,
    /// Turns identical to one already stored (the store keeps one memory for both).
    pub turns_duplicate: usize,
    /// Turns the safety scan blocked (not stored).
    pub turns_blocked: usize,
    /// Evidence ids naming no turn of their conversation (dropped from the evidence).
    pub evidence_dropped: usize,
    /// Questions left with no usable evidence (scored 1).
    pub questions_without_evidence: usize,
    /// Wall-clock seconds spent writing and recalling.
    pub seconds: f64,
}

/// Options of one evaluation.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only these sample ids (all when empty).
    pub conversations: Vec<String>,
}

/// Writes every selected conversation into `service` (whose data directory should be a fresh,
/// temporary one) and scores every question. `progress` receives one line per conversation.
pub fn evaluate(
    service: &Service,
    samples: &[Sample],
    options: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let started = Instant::now();
    let selected: Vec<&Sample> = samples
        .iter()
        .filter(|s| {
            options.conversations.is_empty() || options.conversations.contains(&s.sample_id)
        })
        .collect();
    if let Some(missing) = options
        .conversations
        .iter()
        .find(|id| !samples.iter().any(|s| &s.sample_id == *id))
    {
        return Err(KenningError::Usage(format!(
            "no conversation {missing:?} in the file; it has {}",
            samples
                .iter()
                .map(|s| s.sample_id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut overall = Sums::default();
    let mut by_category: BTreeMap<u32, Sums> = BTreeMap::new();
    let mut report = Report {
        overall: Figures::default(),
        by_category: BTreeMap::new(),
        conversations: selected.len(),
        turns_stored: 0,
        turns_duplicate: 0,
        turns_blocked: 0,
        evidence_dropped: 0,
        questions_without_evidence: 0,
        seconds: 0.0,
    };
    for sample in selected {
        let subject = subject_of(&sample.sample_id)?;
        let dia_of = store_conversation(service, &subject, sample, &mut report)?;
        let existing = sample.turn_ids();
        let mut sample_sums = Sums::default();
        for question in &sample.questions {
            let evidence: Vec<DiaId> = question
                .evidence
                .iter()
                .copied()
                .filter(|id| existing.contains(id))
                .collect();
            report.evidence_dropped += question.evidence.len() - evidence.len();
            if evidence.is_empty() {
                report.questions_without_evidence += 1;
            }
            let retrieved = recall(service, &subject, &question.question, &dia_of)?;
            overall.add(&retrieved, &evidence);
            sample_sums.add(&retrieved, &evidence);
            by_category
                .entry(question.category)
                .or_default()
                .add(&retrieved, &evidence);
        }
        let figures = sample_sums.figures();
        progress(&format!(
            "{}: {} turns, {} questions, recall@5 {:.1}, recall@10 {:.1}",
            sample.sample_id,
            dia_of.len(),
            figures.questions,
            figures.at_5,
            figures.at_10,
        ));
    }
    report.overall = overall.figures();
    report.by_category = by_category
        .into_iter()
        .map(|(category, sums)| {
            let figures = CategoryFigures {
                name: category_name(category),
                figures: sums.figures(),
            };
            (category.to_string(), figures)
        })
        .collect();
    report.seconds = (started.elapsed().as_secs_f64() * 100.0).round() / 100.0;
    Ok(report)
}

/// Writes a conversation's turns with the `remember` tool; returns, per memory id, the dialog
/// ids it stands for.
fn store_conversation(
    service: &Service,
    subject: &Subject,
    sample: &Sample,
    report: &mut Report,
) -> Result<HashMap<u64, Vec<DiaId>>> {
    let mut dia_of: HashMap<u64, Vec<DiaId>> = HashMap::new();
    for session in &sample.sessions {
        let thread = format!("session-{}", session.number);
        for turn in &session.turns {
            let args = RememberArgs {
                text: memory_text(session, turn),
                kind: Some(MemoryKind::Context),
                categories: Some(vec![format!("{DIA_CATEGORY_PREFIX}{}", turn.id)]),
                thread: Some(thread.clone()),
                ..RememberArgs::default()
            };
            match service.remember(subject, Author::Human, &args) {
                Ok(remembered) => {
                    if remembered.status == WriteStatus::Duplicate {
                        report.turns_duplicate += 1;
                    } else {
                        report.turns_stored += 1;
                    }
                    dia_of.entry(remembered.id).or_default().push(turn.id);
                }
                Err(KenningError::Blocked { .. }) => report.turns_blocked += 1,
                Err(other) => return Err(other),
            }
        }
    }
    Ok(dia_of)
}

/// Asks `question` through the `recall` tool, following `next_offset` as an agent would until
/// it has the deepest cut-off's memories; returns the dialog ids of each memory, best first.
fn recall(
    service: &Service,
    subject: &Subject,
    question: &str,
    dia_of: &HashMap<u64, Vec<DiaId>>,
) -> Result<Vec<Vec<DiaId>>> {
    let mut query = question.trim();
    while query.len() > MAX_QUERY_BYTES {
        let mut end = MAX_QUERY_BYTES;
        while !query.is_char_boundary(end) {
            end -= 1;
        }
        query = &query[..end];
    }
    let wanted = KS[KS.len() - 1];
    let mut retrieved = Vec::new();
    let mut offset = 0;
    // A page is cut to the service's result size, so the deepest cut-off may take several.
    while retrieved.len() < wanted {
        let args = RecallArgs {
            query: Some(query.to_owned()),
            limit: Some((wanted - retrieved.len()) as u64),
            offset: Some(offset),
            ..RecallArgs::default()
        };
        let page = service.recall(subject, &args)?;
        retrieved.extend(page.memories.iter().map(|found| {
            let memory = &found.memory;
            dia_of.get(&memory.id).cloned().unwrap_or_else(|| {
                // A memory the evaluation did not map (none should exist): read its category.
                memory
                    .categories
                    .iter()
                    .filter_map(|c| c.strip_prefix(DIA_CATEGORY_PREFIX))
                    .filter_map(DiaId::parse)
                    .collect()
            })
        }));
        match page.next_offset {
            Some(next) if !page.memories.is_empty() => offset = next,
            _ => break,
        }
    }
    Ok(retrieved)
}

/// A fresh, empty folder under the system's temporary directory, removed on drop.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// Creates `kenning-<label>-<pid>-<nanos>` under the temporary directory.
    pub fn new(label: &str) -> Result<ScratchDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("kenning-{label}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|source| KenningError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(ScratchDir(path))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Renders a report as a small table (the JSON line is printed separately).
pub fn render_table(report: &Report) -> String {
    let header: String = KS
        .iter()
        .map(|k| format!("{:>8}", format!("@{k}")))
        .collect();
    let mut out = format!("{:<14}{:>10}{header}\n", "category", "questions");
    let row = |name: &str, figures: &Figures| {
        let cells: String = figures
            .values()
            .iter()
            .map(|v| format!("{v:>8.1}"))
            .collect();
        format!("{name:<14}{:>10}{cells}\n", figures.questions)
    };
    for category in report.by_category.values() {
        out.push_str(&row(category.name, &category.figures));
    }
    out.push_str(&row("all", &report.overall));

    // Where the evidence turns stood: percent of them by the rank they were first found at.
    let mut buckets = vec!["rank 1".to_owned()];
    buckets.extend(
        RANK_BUCKETS
            .windows(2)
            .map(|w| format!("{}-{}", w[0] + 1, w[1])),
    );
    buckets.push("missed".to_owned());
    let header: String = buckets.iter().map(|b| format!("{b:>8}")).collect();
    out.push_str(&format!("\n{:<14}{:>10}{header}\n", "evidence at", "turns"));
    let ranks = |name: &str, ranks: &RankDistribution| {
        let cells: String = ranks.values().iter().map(|v| format!("{v:>8.1}")).collect();
        format!("{name:<14}{:>10}{cells}\n", ranks.evidence)
    };
    for category in report.by_category.values() {
        out.push_str(&ranks(category.name, &category.figures.evidence_ranks));
    }
    out.push_str(&ranks("all", &report.overall.evidence_ranks));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(session: u32, turn: u32) -> DiaId {
        DiaId { session, turn }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn clean_ids_parse() {
        assert_eq!(DiaId::parse("D1:3"), Some(id(1, 3)));
        assert_eq!(id(12, 7).to_string(), "D12:7");
    }

    #[test]
    fn damaged_ids_are_cleaned() {
        assert_eq!(DiaId::parse("D30:05"), Some(id(30, 5)), "leading zero");
        assert_eq!(DiaId::parse("D:11:26"), Some(id(11, 26)), "stray colon");
        assert_eq!(DiaId::parse("(D2:4)"), Some(id(2, 4)), "parentheses");
        assert_eq!(DiaId::parse(" D2:4) "), Some(id(2, 4)), "one parenthesis");
        assert_eq!(DiaId::parse("D"), None, "bare D");
        assert_eq!(DiaId::parse("D4"), None, "no turn");
        assert_eq!(DiaId::parse("D1:2:3"), None, "three numbers");
        assert_eq!(DiaId::parse("session 1"), None);
        assert_eq!(DiaId::parse(""), None);
    }

    #[test]
    fn evidence_entries_are_split_and_deduplicated() {
        assert_eq!(
            parse_evidence(&strings(&["D8:6; D9:17"])),
            vec![id(8, 6), id(9, 17)]
        );
        assert_eq!(
            parse_evidence(&strings(&["D9:1 D4:4 D4:6"])),
            vec![id(9, 1), id(4, 4), id(4, 6)]
        );
        assert_eq!(
            parse_evidence(&strings(&["D:11:26", "D30:05", "D", "(D1:2)", "D1:2"])),
            vec![id(11, 26), id(30, 5), id(1, 2)]
        );
        assert_eq!(parse_evidence(&[]), Vec::<DiaId>::new());
    }

    #[test]
    fn recall_counts_evidence_in_the_top_k() {
        let retrieved = vec![
            vec![id(1, 1)],
            vec![id(1, 2), id(3, 3)],
            vec![id(2, 5)],
            vec![id(4, 4)],
        ];
        let evidence = [id(3, 3), id(4, 4), id(9, 9)];
        // Top 1 holds none; top 2 holds D3:3 (through a memory standing for two turns);
        // top 4 holds D3:3 and D4:4 of three.
        assert_eq!(recall_at(&retrieved, &evidence, 1), 0.0);
        assert!((recall_at(&retrieved, &evidence, 2) - 1.0 / 3.0).abs() < 1e-12);
        assert!((recall_at(&retrieved, &evidence, 4) - 2.0 / 3.0).abs() < 1e-12);
        assert!((recall_at(&retrieved, &evidence, 50) - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(recall_at(&retrieved, &[], 5), 1.0, "no evidence scores 1");
        assert_eq!(recall_at(&[], &evidence, 5), 0.0);
    }

    #[test]
    fn each_evidence_turn_is_counted_at_the_rank_it_was_first_found() {
        let retrieved: Vec<Vec<DiaId>> = (1..=60).map(|t| vec![id(1, t)]).collect();
        assert_eq!(rank_of(&retrieved, id(1, 7)), Some(7));
        assert_eq!(rank_of(&retrieved, id(2, 1)), None);
        let mut counts = RankCounts::default();
        let evidence = [1, 2, 5, 6, 10, 11, 25, 26, 50, 51].map(|t| id(1, t));
        counts.add(&retrieved, &evidence);
        counts.add(&retrieved, &[id(9, 9)]);
        let d = counts.distribution();
        assert_eq!(d.evidence, 11);
        let expected = [1, 2, 2, 2, 2, 2].map(|n| (10_000.0 * n as f64 / 11.0).round() / 100.0);
        assert_eq!(d.values(), expected);
        assert!((d.values().iter().sum::<f64>() - 100.0).abs() < 0.05);
    }

    #[test]
    fn averages_are_percentages_over_questions() {
        let mut sums = Sums::default();
        let retrieved = vec![vec![id(1, 1)], vec![id(1, 2)]];
        sums.add(&retrieved, &[id(1, 1)]); // 1 at every k
        sums.add(&retrieved, &[id(1, 2), id(7, 7)]); // 0 at 1, 1/2 from 2 on
        sums.add(&retrieved, &[]); // 1
        let figures = sums.figures();
        assert_eq!(figures.questions, 3);
        assert_eq!(figures.at_5, 83.33);
        assert_eq!(figures.at_50, 83.33);
    }

    #[test]
    fn samples_parse_with_faults() {
        let value: Value = serde_json::from_str(
            r#"[{"sample_id": "s1",
                "conversation": {"speaker_a": "A", "speaker_b": "B",
                  "session_2_date_time": "9:00 am on 2 May, 2023",
                  "session_2": [{"speaker": "B", "dia_id": "D2:1", "text": "later"}],
                  "session_1_date_time": "1:00 pm on 1 May, 2023",
                  "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi", "blip_caption": "a photo of a dog"},
                                {"speaker": "B", "text": "no id"}]},
                "qa": [{"question": "q1", "answer": 2022, "evidence": ["D1:1; D2:1"], "category": 2},
                       {"question": "q2", "adversarial_answer": "x", "category": 5},
                       {"answer": "no question"}]}]"#,
        )
        .unwrap();
        let samples = parse_samples(&value).unwrap();
        let sample = &samples[0];
        assert_eq!(
            sample.sessions.iter().map(|s| s.number).collect::<Vec<_>>(),
            [1, 2]
        );
        assert_eq!(
            sample.sessions[0].turns[1].id,
            id(1, 2),
            "missing id by position"
        );
        assert_eq!(
            memory_text(&sample.sessions[0], &sample.sessions[0].turns[0]),
            "A: hi [shared an image: a photo of a dog] (1:00 pm on 1 May, 2023)"
        );
        assert_eq!(sample.questions.len(), 2);
        assert_eq!(sample.questions[0].evidence, vec![id(1, 1), id(2, 1)]);
        assert!(sample.questions[1].evidence.is_empty());
        assert_eq!(
            parse_samples(&serde_json::json!({"not": "a list"})).map(|s| s.len()),
            Err("the top level must be a list of samples".to_owned())
        );
    }

    #[test]
    fn subjects_are_valid_account_names() {
        assert_eq!(subject_of("conv-26").unwrap().key, "locomo-conv-26");
        assert_eq!(subject_of("conv 26/x").unwrap().key, "locomo-conv-26-x");
    }
}
