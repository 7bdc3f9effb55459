//! `kenning eval scan`: runs labelled corpora through the same scan path as `kenning scan
//! --jsonl` ([`Service::scan`]) and reports how much was redacted, altered and blocked.
//!
//! Accepted inputs, detected per file:
//!
//! - JSONL rows `{"text", "label", ...}` with `label` one of `risk` (a credential that must not
//!   survive), `informative` (sensitive context: either outcome is fine), `benign` (must be
//!   stored unchanged) or `attack` (must be blocked); an optional `target` (default `memory`)
//!   and an optional `secret` naming the exact credential of a `risk` row. This covers
//!   `secrets-dev.jsonl` (leaky-repo rows) and the corpora under `tests/corpora/`.
//! - A LoCoMo file (a JSON list of samples with a `conversation`): every dialog turn of every
//!   `session_N` is a `benign` row (family `locomo-turn`), and so is every fact of its
//!   `observation` (family `locomo-observation`: the notes `scripts/locomo_to_kenning.py`
//!   imports).
//!
//! When is a risk row redacted? Its verdict must be `redact` or `block`, and its credential
//! must not survive in the stored text. The credential is the row's `secret` when given; else
//! it is found by [`credential_of`]; a row whose credential cannot be located (a bare
//! `-----BEGIN/END ... KEY-----` line) counts on its verdict alone. The credential survives
//! when the output still holds it together with the characters around it in the input (so a
//! value equal to its key name, as in `password "password"`, is judged by its own position,
//! not by the key that stays).

use std::path::Path;
use std::time::Instant;

use kenning_contract::args::Author;
use kenning_contract::types::{ScanItem, ScanResult, Target, Verdict};
use serde_json::{Value, json};

use kenning::{KenningError, Service};

/// The label of a corpus row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Label {
    /// A credential: must be redacted.
    Risk,
    /// Sensitive context: redaction optional.
    Informative,
    /// Ordinary text: must be allowed unchanged.
    Benign,
    /// A payload: must be blocked.
    Attack,
}

impl Label {
    fn parse(s: &str) -> Option<Label> {
        Some(match s {
            "risk" => Label::Risk,
            "informative" => Label::Informative,
            "benign" => Label::Benign,
            "attack" => Label::Attack,
            _ => return None,
        })
    }

    /// The label as written in corpora.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Risk => "risk",
            Label::Informative => "informative",
            Label::Benign => "benign",
            Label::Attack => "attack",
        }
    }
}

/// One labelled text.
#[derive(Debug, Clone)]
pub struct Row {
    /// The text to scan.
    pub text: String,
    /// What it is.
    pub label: Label,
    /// Where it would be stored.
    pub target: Target,
    /// The exact credential of a risk row, when the corpus names it.
    pub secret: Option<String>,
    /// The row's family or kind, for the per-family table.
    pub family: String,
}

/// Loads one corpus file (LoCoMo JSON or labelled JSONL), naming the file and line of any
/// malformed row.
pub fn load(path: &Path) -> Result<Vec<Row>, KenningError> {
    let text = std::fs::read_to_string(path).map_err(|source| KenningError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |what: String| KenningError::Usage(format!("{}: {what}", path.display()));
    if text.trim_start().starts_with('[') {
        let samples: Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
        return locomo_rows(&samples).ok_or_else(|| {
            bad("a JSON list, but not of LoCoMo samples with a `conversation`".into())
        });
    }
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| bad(format!("line {}: {e}", n + 1)))?;
        let field = |k: &str| v.get(k).and_then(Value::as_str);
        let text = field("text").ok_or_else(|| bad(format!("line {}: no `text`", n + 1)))?;
        let label = field("label").and_then(Label::parse).ok_or_else(|| {
            bad(format!(
                "line {}: `label` must be risk, informative, benign or attack",
                n + 1
            ))
        })?;
        let target = match v.get("target") {
            None => Target::Memory,
            Some(t) => serde_json::from_value(t.clone())
                .map_err(|e| bad(format!("line {}: target: {e}", n + 1)))?,
        };
        let family = field("family")
            .or(field("kind"))
            .or(field("file"))
            .unwrap_or("-")
            .to_string();
        rows.push(Row {
            text: text.to_string(),
            label,
            target,
            secret: field("secret").map(str::to_string),
            family,
        });
    }
    Ok(rows)
}

/// Every dialog turn and every observed fact of a LoCoMo file as a benign row, or `None` if it
/// is not one.
fn locomo_rows(samples: &Value) -> Option<Vec<Row>> {
    let mut rows = Vec::new();
    let benign = |text: &str, family: &str| Row {
        text: text.to_string(),
        label: Label::Benign,
        target: Target::Memory,
        secret: None,
        family: family.into(),
    };
    for sample in samples.as_array()? {
        let conversation = sample.get("conversation")?.as_object()?;
        for (key, session) in conversation {
            let Some(turns) = session.as_array().filter(|_| key.starts_with("session_")) else {
                continue;
            };
            for turn in turns {
                if let Some(text) = turn.get("text").and_then(Value::as_str) {
                    rows.push(benign(text, "locomo-turn"));
                }
            }
        }
        // `observation`: {session_N_observation: {speaker: [[fact, evidence], ...]}}.
        let sessions = sample.get("observation").and_then(Value::as_object);
        for said in sessions.into_iter().flat_map(|s| s.values()) {
            for facts in said.as_object().into_iter().flat_map(|s| s.values()) {
                for fact in facts.as_array().into_iter().flatten() {
                    if let Some(text) = fact.get(0).and_then(Value::as_str) {
                        rows.push(benign(text, "locomo-observation"));
                    }
                }
            }
        }
    }
    Some(rows)
}

/// Where the credential of a risk row sits in its text (byte range), when it can be found.
///
/// In order: a key block line (`-----BEGIN/END ...` gives none); a line that is one token (the
/// token); `<Tag ...>value</Tag>`; the last assignment to a secret-named key (`key = value`,
/// `"key": "value"`, `key="value"`, `define('KEY', 'value')`, `password value`); the password
/// of a `scheme://user:password@host` URL; otherwise the longest run of characters other than
/// blanks, quotes, `<>(),;=` that is not an e-mail address or a host name. A trailing ` # ...`
/// comment is ignored throughout.
pub fn credential_of(text: &str) -> Option<(usize, usize)> {
    use regex::Regex;
    use std::sync::LazyLock;
    static FORMS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            r"<[A-Za-z_:-]*(?i:pass|pwd|secret|token|key)[A-Za-z_:-]*(?:\s[^>]*)?>([^<]+)</",
            r#"(?i)define\(\s*['"][A-Z0-9_]+['"]\s*,\s*['"]([^'"]+)['"]"#,
            r#"(?i)[A-Za-z0-9_$.-]*(?:pass|pwd|secret|token|key|auth|salt|credential|encrypted)[A-Za-z0-9_]*["']?\s*(?:=>|=|:)\s*(?:"([^"]*)"|'([^']*)'|([^\s"',;]+))"#,
            r#"(?i)\bpassword\s+(?:"([^"]+)"|(\S+))"#,
            r"://[^\s/]*?:([^\s/]+)@[^@\s/]+",
        ]
        .iter()
        .map(|p| Regex::new(p).expect("credential patterns compile"))
        .collect()
    });
    static RUN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"[^\s"'<>(),;=]+"#).expect("run pattern compiles"));
    static IDENTITY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:[\w.+-]+@)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$").expect("compiles")
    });
    let end = text.find(" # ").unwrap_or(text.len());
    let body = &text[..end];
    let trimmed = body.trim();
    if trimmed.starts_with("-----BEGIN") || trimmed.starts_with("-----END") {
        return None;
    }
    let lead = body.len() - body.trim_start().len();
    if !trimmed.is_empty() && !trimmed.contains(char::is_whitespace) && !trimmed.contains("://") {
        return Some((lead, lead + trimmed.len()));
    }
    for form in FORMS.iter() {
        let last = form.captures_iter(body).last();
        if let Some(m) = last.and_then(|c| c.iter().skip(1).flatten().next())
            && !m.as_str().trim().is_empty()
        {
            return Some((m.start(), m.end()));
        }
    }
    RUN.find_iter(body)
        .filter(|m| !IDENTITY.is_match(m.as_str()))
        .max_by_key(|m| (m.len(), m.start()))
        .map(|m| (m.start(), m.end()))
}

/// Whether the credential at `start..end` of `input` survives in `output`: the output still
/// holds it with the characters that surround it in the input.
pub fn survives(input: &str, (start, end): (usize, usize), output: &str) -> bool {
    let before = input[..start]
        .chars()
        .next_back()
        .map(String::from)
        .unwrap_or_default();
    let after = input[end..]
        .chars()
        .next()
        .map(String::from)
        .unwrap_or_default();
    let needle = format!("{before}{}{after}", &input[start..end]);
    output.contains(&needle)
}

/// Whether the scan result removed the credential of a risk row.
pub fn redacted(row: &Row, result: &ScanResult) -> bool {
    match result.verdict {
        Verdict::Block => true,
        Verdict::Allow => false,
        Verdict::Redact | Verdict::Hold => match &row.secret {
            Some(secret) => !result.text.contains(secret.as_str()),
            None => match credential_of(&row.text) {
                Some(span) => !survives(&row.text, span, &result.text),
                None => true,
            },
        },
    }
}

/// Counts for one label (or one label and family).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rows.
    pub rows: usize,
    /// Rows allowed unchanged.
    pub allowed: usize,
    /// Rows redacted (verdict `redact`).
    pub redacted: usize,
    /// Rows blocked.
    pub blocked: usize,
    /// Rows held for review (stored only in quarantine).
    pub held: usize,
    /// Rows allowed or redacted with a reason: kept, marked with what the scan suspects.
    pub marked: usize,
    /// Rows whose outcome meets the label's goal (risk: credential removed; benign: allowed
    /// unchanged; attack: blocked or held; informative: always).
    pub met: usize,
}

impl Tally {
    /// `met` as a percentage of `rows` (100 when there are none).
    pub fn met_pct(&self) -> f64 {
        if self.rows == 0 {
            100.0
        } else {
            100.0 * self.met as f64 / self.rows as f64
        }
    }
}

/// What one evaluation found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Who the rows were scanned as asking to store them (each author has its own operating
    /// point).
    pub author: Option<Author>,
    /// Per label.
    pub labels: std::collections::BTreeMap<Label, Tally>,
    /// Per label and family, for the detailed table.
    pub families: std::collections::BTreeMap<(Label, String), Tally>,
    /// Per label and finding kind: rows with at least one finding of that kind (which
    /// detectors catch the attacks, and which ones touch benign text).
    pub kinds: std::collections::BTreeMap<(Label, String), usize>,
    /// Rows that missed their goal: (label, family, text, output verdict, output text).
    pub misses: Vec<(Label, String, String, Verdict, String)>,
    /// Bytes scanned.
    pub bytes: usize,
    /// Wall time of the scan calls, in seconds.
    pub seconds: f64,
    /// Throughput with large calls (4 MiB of text each, see [`throughput`]), in MB/s:
    /// the scanning speed inside the policy once a call's fixed costs (a fresh instance, the
    /// rules it compiles) are amortised.
    pub large_call_mb_s: f64,
}

impl Report {
    /// Scanning throughput in MB/s (10^6 bytes per second) over the scan calls alone.
    pub fn mb_s(&self) -> f64 {
        if self.seconds > 0.0 {
            self.bytes as f64 / self.seconds / 1e6
        } else {
            0.0
        }
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        let tally = |t: &Tally| {
            json!({"rows": t.rows, "allowed": t.allowed, "redacted": t.redacted,
                   "blocked": t.blocked, "held": t.held, "marked": t.marked, "met": t.met,
                   "met_pct": round2(t.met_pct())})
        };
        let get = |l| self.labels.get(&l).cloned().unwrap_or_default();
        let (risk, benign, attack, info) = (
            get(Label::Risk),
            get(Label::Benign),
            get(Label::Attack),
            get(Label::Informative),
        );
        // A label without rows has no rate: null, not a flattering 100.
        let pct = |n: usize, d: usize| (d > 0).then(|| round2(100.0 * n as f64 / d as f64));
        json!({
            "author": self.author.map(Author::as_str),
            "risk_redacted_pct": pct(risk.met, risk.rows),
            "benign_altered_pct": pct(benign.rows - benign.met, benign.rows),
            "benign_blocked_pct": pct(benign.blocked, benign.rows),
            "benign_held_pct": pct(benign.held, benign.rows),
            "benign_marked_pct": pct(benign.marked, benign.rows),
            "attack_blocked_pct": pct(attack.met, attack.rows),
            "attack_blocked_only_pct": pct(attack.blocked, attack.rows),
            "attack_held_pct": pct(attack.held, attack.rows),
            "attack_marked_pct": pct(attack.marked, attack.rows),
            "informative_redacted": info.redacted + info.blocked,
            "informative_rows": info.rows,
            "scan_mb_s": round2(self.large_call_mb_s),
            "batched_mb_s": round2(self.mb_s()),
            "bytes": self.bytes,
            "labels": self.labels.iter().map(|(l, t)| (l.as_str().to_string(), tally(t))).collect::<serde_json::Map<_, _>>(),
            "confusion": self.labels.iter().map(|(l, t)| (l.as_str().to_string(),
                json!({"allow": t.allowed, "redact": t.redacted, "hold": t.held, "block": t.blocked}))).collect::<serde_json::Map<_, _>>(),
            "families": self.families.iter().map(|((l, f), t)| {
                let mut v = tally(t);
                v["label"] = json!(l.as_str());
                v["family"] = json!(f);
                v
            }).collect::<Vec<_>>(),
            "finding_kinds": self.kinds.iter().map(|((l, k), n)| json!({"label": l.as_str(), "kind": k, "rows": n})).collect::<Vec<_>>(),
        })
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Rows scanned per policy call (as `kenning scan --jsonl` batches them).
pub const BATCH: usize = 256;

/// Scans `rows` through `service` in batches of [`BATCH`], as `author` asking to store them,
/// and tallies the outcomes; with `measure_throughput`, also measures [`throughput`].
pub fn evaluate(
    service: &Service,
    rows: &[Row],
    author: Author,
    measure_throughput: bool,
) -> Result<Report, KenningError> {
    let mut report = Report {
        author: Some(author),
        ..Report::default()
    };
    for chunk in rows.chunks(BATCH) {
        let items: Vec<ScanItem> = chunk
            .iter()
            .map(|r| ScanItem {
                text: r.text.clone(),
                target: r.target,
                author,
            })
            .collect();
        let started = Instant::now();
        let results = service.scan(&items)?;
        report.seconds += started.elapsed().as_secs_f64();
        report.bytes += items.iter().map(|i| i.text.len()).sum::<usize>();
        for (row, result) in chunk.iter().zip(&results) {
            record(&mut report, row, result);
        }
    }
    if measure_throughput {
        report.large_call_mb_s = throughput(service, rows)?;
    }
    Ok(report)
}

/// Bytes of text per call in [`throughput`].
pub const LARGE_CALL_BYTES: usize = 2 << 20;
/// Calls made by [`throughput`].
pub const LARGE_CALLS: usize = 4;

/// Scans the benign texts of `rows` (0 when there are none: a secret-dense corpus measures
/// the rules' worst case, not the speed on ordinary text), cycled, in
/// [`LARGE_CALLS`] calls of about [`LARGE_CALL_BYTES`] each and returns the throughput in
/// MB/s (10^6 bytes per second of scan calls): the speed on ordinary text once a call's fixed
/// costs (a fresh instance, the automata it builds) are amortised.
pub fn throughput(service: &Service, rows: &[Row]) -> Result<f64, KenningError> {
    let benign: Vec<Row> = rows
        .iter()
        .filter(|r| r.label == Label::Benign)
        .cloned()
        .collect();
    let rows = &benign[..];
    if rows.iter().all(|r| r.text.is_empty()) {
        return Ok(0.0);
    }
    let (mut bytes, mut seconds) = (0usize, 0f64);
    let mut cycle = rows.iter().cycle();
    for _ in 0..LARGE_CALLS {
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        while batch_bytes < LARGE_CALL_BYTES {
            let row = cycle.next().expect("rows is not empty");
            batch_bytes += row.text.len();
            batch.push(ScanItem {
                text: row.text.clone(),
                target: row.target,
                author: Author::Human,
            });
        }
        let started = Instant::now();
        service.scan(&batch)?;
        seconds += started.elapsed().as_secs_f64();
        bytes += batch_bytes;
    }
    Ok(bytes as f64 / seconds / 1e6)
}

fn record(report: &mut Report, row: &Row, result: &ScanResult) {
    let met = match row.label {
        Label::Risk => redacted(row, result),
        Label::Informative => true,
        Label::Benign => result.verdict == Verdict::Allow && result.text == row.text,
        Label::Attack => matches!(result.verdict, Verdict::Block | Verdict::Hold),
    };
    for tally in [
        report.labels.entry(row.label).or_default(),
        report
            .families
            .entry((row.label, row.family.clone()))
            .or_default(),
    ] {
        tally.rows += 1;
        tally.met += usize::from(met);
        match result.verdict {
            Verdict::Allow => tally.allowed += 1,
            Verdict::Redact => tally.redacted += 1,
            Verdict::Block => tally.blocked += 1,
            Verdict::Hold => tally.held += 1,
        }
        if matches!(result.verdict, Verdict::Allow | Verdict::Redact) && result.reason.is_some() {
            tally.marked += 1;
        }
    }
    let mut kinds: Vec<&str> = result.findings.iter().map(|f| f.kind.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for kind in kinds {
        *report
            .kinds
            .entry((row.label, kind.to_string()))
            .or_default() += 1;
    }
    if !met {
        report.misses.push((
            row.label,
            row.family.clone(),
            row.text.clone(),
            result.verdict,
            result.text.clone(),
        ));
    }
}

/// The human table: one line per label, then per family, then the misses.
pub fn render(report: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let goal = |l: Label| match l {
        Label::Risk => "credential removed",
        Label::Informative => "any outcome",
        Label::Benign => "allowed unchanged",
        Label::Attack => "blocked or held",
    };
    if let Some(author) = report.author {
        let _ = writeln!(out, "scanned as stored by: {author}\n");
    }
    let _ = writeln!(
        out,
        "{:<12} {:>6} {:>7} {:>7} {:>7} {:>7}  goal met",
        "label", "rows", "allow", "redact", "hold", "block"
    );
    for (label, t) in &report.labels {
        let _ = writeln!(
            out,
            "{:<12} {:>6} {:>7} {:>7} {:>7} {:>7}  {:>6.2}% {}",
            label.as_str(),
            t.rows,
            t.allowed,
            t.redacted,
            t.held,
            t.blocked,
            t.met_pct(),
            goal(*label)
        );
    }
    let _ = writeln!(
        out,
        "\nconfusion (rows by label and verdict; marked: allowed or redacted, with a reason):"
    );
    let _ = writeln!(
        out,
        "  {:<12} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "", "allow", "redact", "hold", "block", "marked"
    );
    for (label, t) in &report.labels {
        let _ = writeln!(
            out,
            "  {:<12} {:>7} {:>7} {:>7} {:>7} {:>7}",
            label.as_str(),
            t.allowed,
            t.redacted,
            t.held,
            t.blocked,
            t.marked
        );
    }
    let _ = writeln!(
        out,
        "\nby family (credential kind, attack family, benign source):"
    );
    for ((label, family), t) in &report.families {
        let _ = writeln!(
            out,
            "  {:<12} {:<34} {:>5} rows  {:>6.2}% met",
            label.as_str(),
            family,
            t.rows,
            t.met_pct()
        );
    }
    if !report.kinds.is_empty() {
        let _ = writeln!(out, "\nrows with a finding, by label and finding kind:");
        for ((label, kind), n) in &report.kinds {
            let _ = writeln!(out, "  {:<12} {:<34} {:>5} rows", label.as_str(), kind, n);
        }
    }
    if !report.misses.is_empty() {
        let _ = writeln!(out, "\nmisses:");
        for (label, family, text, verdict, output) in &report.misses {
            let clip = |s: &str| s.chars().take(110).collect::<String>().replace('\n', "\\n");
            let _ = writeln!(
                out,
                "  [{} {family}] {:?} -> {verdict:?} {:?}",
                label.as_str(),
                clip(text),
                clip(output)
            );
        }
    }
    let _ = writeln!(
        out,
        "\nscanned {} bytes in {:.3} s: {:.1} MB/s in calls of {BATCH} texts; {:.1} MB/s in calls of 4 MiB",
        report.bytes,
        report.seconds,
        report.mb_s(),
        report.large_call_mb_s
    );
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn cred(text: &str) -> Option<&str> {
        credential_of(text).map(|(s, e)| &text[s..e])
    }

    #[test]
    fn credentials_are_located_in_each_form() {
        assert_eq!(cred("export RDS_PASSWORD='dummy-pass'"), Some("dummy-pass"));
        assert_eq!(
            cred("secret_key = abcDEF123 # Sensitive"),
            Some("abcDEF123")
        );
        assert_eq!(
            cred("<Pass encoding=\"base64\">c2VjcmV0</Pass>"),
            Some("c2VjcmV0")
        );
        assert_eq!(cred("define('AUTH_KEY', 'x y z');"), Some("x y z"));
        assert_eq!(
            cred("machine h.example login a@b.example password pw1"),
            Some("pw1")
        );
        assert_eq!(
            cred("https://u@example.com:pa!#@4@github.com"),
            Some("pa!#@4")
        );
        assert_eq!(
            cred("conn.login('me@example.com', 'sfpassword', f)"),
            Some("sfpassword")
        );
        assert_eq!(
            cred("localhost:5432:db:root:pw"),
            Some("localhost:5432:db:root:pw")
        );
        assert_eq!(cred("-----END RSA PRIVATE KEY-----"), None);
    }

    #[test]
    fn survival_is_judged_at_the_credential_position() {
        let input = "password \"password\"";
        let span = credential_of(input).unwrap();
        assert!(!survives(
            input,
            span,
            "password \"[REDACTED:config-password]\""
        ));
        assert!(survives(input, span, input));
    }

    #[test]
    fn tallies_follow_each_label_goal() {
        let row = |label, text: &str| Row {
            text: text.into(),
            label,
            target: Target::Memory,
            secret: None,
            family: "f".into(),
        };
        let result = |verdict, text: &str| ScanResult {
            verdict,
            text: text.into(),
            findings: if verdict == Verdict::Allow {
                vec![]
            } else {
                vec![kenning_contract::types::Finding {
                    kind: "k".into(),
                    start: 0,
                    end: 1,
                }]
            },
            reason: None,
        };
        let mut report = Report::default();
        record(
            &mut report,
            &row(Label::Risk, "token=abc12345"),
            &result(Verdict::Redact, "token=[REDACTED:x]"),
        );
        record(
            &mut report,
            &row(Label::Risk, "token=abc12345"),
            &result(Verdict::Allow, "token=abc12345"),
        );
        record(
            &mut report,
            &row(Label::Benign, "hi"),
            &result(Verdict::Allow, "hi"),
        );
        record(
            &mut report,
            &row(Label::Attack, "x"),
            &result(Verdict::Redact, "y"),
        );
        assert_eq!(report.labels[&Label::Risk].met, 1);
        assert_eq!(report.labels[&Label::Benign].met, 1);
        assert_eq!(report.labels[&Label::Attack].met, 0);
        assert_eq!(report.misses.len(), 2);
        let j = report.to_json();
        assert_eq!(j["risk_redacted_pct"], 50.0);
        assert_eq!(j["attack_blocked_pct"], 0.0);
        assert!(Report::default().to_json()["risk_redacted_pct"].is_null());
        assert_eq!(j["confusion"]["risk"]["redact"], 1);
        assert_eq!(j["confusion"]["risk"]["allow"], 1);
        assert_eq!(j["confusion"]["attack"]["redact"], 1);
        let families = j["families"].as_array().unwrap();
        assert_eq!(families.len(), 3, "one entry per label and family");
        assert_eq!(families[0]["family"], "f");
        assert_eq!(report.kinds[&(Label::Risk, "k".to_string())], 1);
        assert_eq!(report.kinds[&(Label::Attack, "k".to_string())], 1);
        let table = render(&report);
        assert!(table.contains("confusion") && table.contains("by family"));
    }

    #[test]
    fn locomo_turns_and_observed_facts_are_benign_rows() {
        let v: Value = serde_json::from_str(
            r#"[{"sample_id":"a","conversation":{"speaker_a":"A","session_1_date_time":"x","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hello"}]},
                "observation":{"session_1_observation":{"A":[["A says hello.","D1:1"]]}}}]"#,
        )
        .unwrap();
        let rows = locomo_rows(&v).unwrap();
        let read: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.text.as_str(), r.family.as_str()))
            .collect();
        assert_eq!(
            read,
            [
                ("hello", "locomo-turn"),
                ("A says hello.", "locomo-observation")
            ]
        );
        assert!(rows.iter().all(|r| r.label == Label::Benign));
        assert!(locomo_rows(&serde_json::json!([{"x": 1}])).is_none());
    }

    // The scanning goals, measured through the sandboxed default component over the committed
    // corpora in `tests/corpora/` and, when the folder is present, the shared evaluation data
    // in `../shared/data/`.

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// A service with the default component; the directory holds its compiled-code cache.
    fn service(dir: &Path) -> Service {
        Service::builder(dir).build().unwrap()
    }

    /// The rows scanned as the agent's: an attack counts as stopped when blocked or held, and
    /// a benign text as passed only when allowed unchanged.
    fn measure(service: &Service, rows: &[Row]) -> Report {
        let report = evaluate(service, rows, Author::Agent, false).unwrap();
        print!("{}", render(&report));
        report
    }

    fn corpus(name: &str) -> Vec<Row> {
        load(&root().join("tests/corpora").join(name)).unwrap()
    }

    fn pct(n: usize, d: usize) -> f64 {
        100.0 * n as f64 / d as f64
    }

    #[test]
    fn committed_corpora_meet_the_goals() {
        let dir = tempfile::tempdir().unwrap();
        let service = service(dir.path());

        let secrets = measure(&service, &corpus("secrets-extra.jsonl"));
        let risk = &secrets.labels[&Label::Risk];
        assert!(risk.rows >= 150, "{} risk rows", risk.rows);
        assert!(
            risk.met_pct() >= 99.0,
            "secrets redacted {:.2}%",
            risk.met_pct()
        );

        let engineering = measure(&service, &corpus("benign-engineering.jsonl"));
        let benign = &engineering.labels[&Label::Benign];
        let altered = pct(benign.rows - benign.met, benign.rows);
        assert!(altered <= 0.5, "engineering texts altered {altered:.2}%");

        let notes = measure(&service, &corpus("benign-notes.jsonl"));
        let benign = &notes.labels[&Label::Benign];
        assert!(pct(benign.blocked, benign.rows) <= 1.0, "notes blocked");
        assert_eq!(
            benign.met, benign.rows,
            "ordinary notes are stored unchanged"
        );

        let injection = measure(&service, &corpus("injection.jsonl"));
        let attack = &injection.labels[&Label::Attack];
        assert!(attack.rows >= 100);
        assert!(
            attack.met_pct() >= 90.0,
            "attacks blocked {:.2}%",
            attack.met_pct()
        );
        // Hard negatives (role words, quoted attack phrases): a few may be blocked.
        let near = &injection.labels[&Label::Benign];
        assert!(pct(near.blocked, near.rows) <= 5.0, "near misses blocked");

        // The public and hand-written tuning corpora (see tests/corpora/README.md).
        for (name, floor) in [
            ("tune-multilingual.jsonl", 95.0),
            ("tune-bipia-attacks.jsonl", 85.0),
            ("tune-written-3.jsonl", 95.0),
            ("tune-cyberseceval.jsonl", 90.0),
            ("tune-jailbreakbench.jsonl", 90.0),
        ] {
            let report = measure(&service, &corpus(name));
            let attack = &report.labels[&Label::Attack];
            assert!(
                attack.met_pct() >= floor,
                "{name}: attacks blocked {:.2}%",
                attack.met_pct()
            );
        }
        for name in ["tune-multilingual.jsonl", "tune-benign-topics.jsonl"] {
            let report = measure(&service, &corpus(name));
            let benign = &report.labels[&Label::Benign];
            assert_eq!(benign.met, benign.rows, "{name}: benign texts altered");
        }
    }

    /// Regression floors on the held-out corpora and on the credential sets that were held out
    /// until their misses were read, set just under the figures last measured, not goals: they
    /// keep a change from silently losing ground there.
    #[test]
    fn held_out_and_once_held_out_corpora_do_not_regress() {
        let dir = tempfile::tempdir().unwrap();
        let service = service(dir.path());
        for (name, label, floor) in [
            ("heldout-credentials-gitleaks.jsonl", Label::Risk, 99.0),
            ("heldout-credentials-noseyparker.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-kingfisher.jsonl", Label::Risk, 98.5),
            ("heldout-credentials-microsoft.jsonl", Label::Risk, 99.0),
            ("heldout-credentials-titus.jsonl", Label::Risk, 98.5),
            (
                "heldout-credentials-contexts-new-kinds.jsonl",
                Label::Risk,
                99.0,
            ),
            (
                "heldout-credentials-contexts-tuned-kinds.jsonl",
                Label::Risk,
                99.0,
            ),
            ("heldout-credentials-contexts-2.jsonl", Label::Risk, 99.0),
            ("heldout-credentials-contexts-3.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-4.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-5.jsonl", Label::Risk, 99.0),
            ("heldout-credentials-contexts-6.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-7.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-8.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-9.jsonl", Label::Risk, 99.5),
            ("heldout-credentials-contexts-10.jsonl", Label::Risk, 99.0),
            ("tune-credentials-contexts.jsonl", Label::Risk, 99.5),
            ("tune-benign-docs.jsonl", Label::Benign, 99.5),
            ("tune-benign-docs-2.jsonl", Label::Benign, 99.5),
            ("heldout-benign-docs.jsonl", Label::Benign, 98.5),
            ("heldout-benign-docs-2.jsonl", Label::Benign, 99.0),
            ("heldout-benign-docs-3.jsonl", Label::Benign, 99.0),
            ("heldout-benign-dialog.jsonl", Label::Benign, 99.5),
            ("heldout-bipia-attacks.jsonl", Label::Attack, 80.0),
            ("heldout-multilingual.jsonl", Label::Attack, 90.0),
            // Issue 46's planted-in-data sets, as the agent's (an attack blocked or held; a
            // benign text neither): attacks 86.1% held out, 93.0% tuning; benign carriers
            // 94.0% and 97.8%, trigger-word requests 94.7% and 98.1%.
            ("heldout-planted-attacks.jsonl", Label::Attack, 85.0),
            ("heldout-planted-benign.jsonl", Label::Benign, 93.5),
            ("heldout-trigger-requests.jsonl", Label::Benign, 94.0),
            ("tune-planted-attacks.jsonl", Label::Attack, 92.5),
            ("tune-planted-benign.jsonl", Label::Benign, 97.5),
            ("tune-trigger-requests.jsonl", Label::Benign, 97.5),
        ] {
            let report = measure(&service, &corpus(name));
            let t = &report.labels[&label];
            assert!(t.met_pct() >= floor, "{name}: {:.2}% met", t.met_pct());
        }
    }

    /// Issue 46's false-block budgets, on both splits, whoever writes: at most 1% of benign
    /// notes, documents and messages blocked, and 3% of benign requests full of trigger words.
    /// (What the scan only suspects is held or marked, never blocked.)
    #[test]
    fn benign_text_stays_within_the_false_block_budgets() {
        let dir = tempfile::tempdir().unwrap();
        let service = service(dir.path());
        for (name, budget) in [
            ("heldout-planted-benign.jsonl", 1.0),
            ("tune-planted-benign.jsonl", 1.0),
            ("heldout-benign-docs.jsonl", 1.0),
            ("heldout-benign-docs-2.jsonl", 1.0),
            ("heldout-benign-docs-3.jsonl", 1.0),
            ("heldout-benign-dialog.jsonl", 1.0),
            ("tune-benign-docs.jsonl", 1.0),
            ("tune-benign-docs-2.jsonl", 1.0),
            ("heldout-trigger-requests.jsonl", 3.0),
            ("tune-trigger-requests.jsonl", 3.0),
        ] {
            let rows = corpus(name);
            for &author in Author::ALL {
                let report = evaluate(&service, &rows, author, false).unwrap();
                let t = &report.labels[&Label::Benign];
                let blocked = 100.0 * t.blocked as f64 / t.rows as f64;
                assert!(
                    blocked <= budget,
                    "{name} by {author}: {blocked:.2}% blocked"
                );
            }
        }
    }

    /// The shared evaluation data (`../shared/data/`, beside the repository and not in it, so
    /// absent on a clean clone) meets the goals. Ignored by default, as its data is not in the
    /// repository; run with `--ignored` where the folder is (CI runs it when it is present and
    /// says so when it is not), and then every file missing is a failure, never a quiet pass.
    #[test]
    #[ignore = "needs ../shared/data/ (secrets-dev.jsonl, locomo-dev.json), kept beside the repository: run with --ignored where it is"]
    fn shared_evaluation_data_meets_the_goals() {
        let data = root().join("../shared/data");
        let dir = tempfile::tempdir().unwrap();
        let service = service(dir.path());
        let secrets_dev = load(&data.join("secrets-dev.jsonl"))
            .unwrap_or_else(|e| panic!("the shared evaluation data: {e}"));
        let report = measure(&service, &secrets_dev);
        let risk = &report.labels[&Label::Risk];
        assert!(
            risk.met_pct() >= 99.0,
            "secrets-dev redacted {:.2}%",
            risk.met_pct()
        );
        let locomo = load(&data.join("locomo-dev.json"))
            .unwrap_or_else(|e| panic!("the shared evaluation data: {e}"));
        let report = measure(&service, &locomo);
        let turns = &report.families[&(Label::Benign, "locomo-turn".to_owned())];
        assert!(turns.rows > 1000, "{} LoCoMo turns", turns.rows);
        assert!(
            pct(turns.blocked, turns.rows) <= 1.0,
            "LoCoMo turns blocked"
        );
        assert!(
            pct(turns.rows - turns.met, turns.rows) <= 0.5,
            "LoCoMo turns altered"
        );
        // The README's LoCoMo recipe imports a conversation's observed facts all or nothing:
        // one blocked fact and the conversation does not import.
        let facts = &report.families[&(Label::Benign, "locomo-observation".to_owned())];
        assert!(facts.rows > 1000, "{} LoCoMo observations", facts.rows);
        let blocked: Vec<&str> = report
            .misses
            .iter()
            .filter(|(_, family, ..)| family == "locomo-observation")
            .filter(|(.., verdict, _)| *verdict == Verdict::Block)
            .map(|(_, _, text, ..)| text.as_str())
            .collect();
        assert!(
            blocked.is_empty(),
            "LoCoMo observations blocked: {blocked:?}"
        );
    }
}
