//! `kenning scan` and `kenning validate`: the policy's safety scan and closed schemas, run on
//! text and JSON lines. Neither writes anything but standard output; both stream, answering
//! each input line with one output line in order.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use kenning::policy::Policy;
use kenning::service::interchange::Header;
use kenning::{KenningError, Result, Service};
use kenning_contract::IMPORT_RECORD;
use kenning_contract::args::Author;
use kenning_contract::types::{FieldError, ScanItem, Target};
use serde_json::json;

use super::{GlobalOpts, PolicyUse, parse_word, print_json, service};

/// Largest JSON line `scan --jsonl` accepts.
const MAX_SCAN_LINE_BYTES: usize = 1 << 20;
/// Lines scanned per policy call.
const SCAN_BATCH: usize = 256;
/// Largest line `validate` passes to the policy; above the default policy's largest schema
/// (an extraction result, 1 MiB) so that the policy names its own limit.
const MAX_VALIDATE_LINE_BYTES: usize = 2 << 20;

/// `kenning scan`.
#[derive(Args)]
pub struct ScanCmd {
    /// Read JSON lines {"text": ..., "target": ..., "author": ...} on stdin; write one JSON
    /// line each.
    #[arg(long)]
    jsonl: bool,
    /// What the text is for (without --jsonl).
    #[arg(long, default_value = "memory")]
    target: String,
    /// Who would store the text (the default of --jsonl lines without one): human, agent,
    /// triage, external or peer. A text only the learned signal suspects is kept, marked, for
    /// a human, and held for review for everyone else.
    #[arg(long, default_value = "human")]
    author: String,
    /// The text (without --jsonl; stdin when absent).
    text: Option<String>,
}

/// `kenning validate`.
#[derive(Args)]
pub struct ValidateCmd {
    /// The schema: a record kind (import-record, extraction) or a tool (remember, recall, ...).
    #[arg(long, value_name = "NAME")]
    schema: String,
    /// A JSONL file, one value a line (stdin when absent). Blank lines are skipped.
    file: Option<PathBuf>,
}

/// Scans one text (the argument, else standard input) or, with `--jsonl`, a stream of lines.
pub fn scan(global: &GlobalOpts, cmd: &ScanCmd) -> Result<ExitCode> {
    let policy_use = if cmd.jsonl {
        PolicyUse::Session
    } else {
        PolicyUse::Calls
    };
    let service = service(global, None, policy_use)?.build()?;
    let author: Author = parse_word(
        "--author",
        &cmd.author,
        "human, agent, triage, external or peer",
    )?;
    if cmd.jsonl {
        scan_jsonl(&service, author)?;
        return Ok(ExitCode::SUCCESS);
    }
    let target: Target = parse_word(
        "--target",
        &cmd.target,
        "user, memory, daily, global or local",
    )?;
    let text = match &cmd.text {
        Some(text) => text.clone(),
        None => std::io::read_to_string(std::io::stdin()).map_err(|source| KenningError::Io {
            path: "<stdin>".into(),
            source,
        })?,
    };
    let result = service
        .scan(&[ScanItem {
            text,
            target,
            author,
        }])?
        .remove(0);
    print_json(&result)?;
    Ok(ExitCode::SUCCESS)
}

/// Checks each line of the file (or standard input) against the schema named; exit 1 when any
/// line failed.
pub fn validate(global: &GlobalOpts, cmd: &ValidateCmd) -> Result<ExitCode> {
    // Known before any input is read: an empty input must not pass for a bad schema name.
    let schemas = kenning::api::policy_schemas();
    if !schemas.contains(&cmd.schema.as_str()) {
        return Err(KenningError::Usage(format!(
            "unknown schema {:?}; schemas: {}",
            cmd.schema,
            schemas.join(", ")
        )));
    }
    let input: Box<dyn BufRead> = match &cmd.file {
        Some(path) => Box::new(std::io::BufReader::new(std::fs::File::open(path).map_err(
            |source| KenningError::Io {
                path: path.clone(),
                source,
            },
        )?)),
        None => Box::new(std::io::stdin().lock()),
    };
    let source = cmd.file.clone().unwrap_or_else(|| PathBuf::from("<stdin>"));
    let service = service(global, None, PolicyUse::Session)?.build()?;
    let all_valid = validate_jsonl(service.policy(), &cmd.schema, input, &source)?;
    Ok(if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `kenning scan --jsonl`: one output line per input line; a bad line gets `{"error": ...}`.
fn scan_jsonl(service: &Service, author: Author) -> Result<()> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Line {
        text: String,
        target: Option<Target>,
        author: Option<Author>,
    }
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Each slot is either an item to scan or the error line for its input.
    let mut pending: Vec<Result<ScanItem, String>> = Vec::new();
    let flush = |pending: &mut Vec<Result<ScanItem, String>>, out: &mut dyn Write| -> Result<()> {
        let items: Vec<ScanItem> = pending
            .iter()
            .filter_map(|p| p.as_ref().ok().cloned())
            .collect();
        let mut results = service.scan(&items)?.into_iter();
        for slot in pending.drain(..) {
            let line = match slot {
                Ok(_) => serde_json::to_string(&results.next().expect("one result per item"))
                    .expect("results serialise"),
                Err(error) => json!({ "error": error }).to_string(),
            };
            writeln!(out, "{line}").map_err(KenningError::Output)?;
        }
        Ok(())
    };
    for (number, line) in stdin.split(b'\n').enumerate() {
        let bytes = line.map_err(|source| KenningError::Io {
            path: "<stdin>".into(),
            source,
        })?;
        let slot = if bytes.len() > MAX_SCAN_LINE_BYTES {
            Err(format!(
                "line {}: {} bytes; the limit is {MAX_SCAN_LINE_BYTES}",
                number + 1,
                bytes.len()
            ))
        } else {
            match serde_json::from_slice::<Line>(&bytes) {
                Ok(line) => Ok(ScanItem {
                    text: line.text,
                    target: line.target.unwrap_or(Target::Memory),
                    author: line.author.unwrap_or(author),
                }),
                Err(error) => Err(format!("line {}: {error}", number + 1)),
            }
        };
        pending.push(slot);
        if pending.len() >= SCAN_BATCH {
            flush(&mut pending, &mut out)?;
        }
    }
    flush(&mut pending, &mut out)?;
    out.flush().map_err(KenningError::Output)
}

/// `kenning validate`: checks each non-blank line of `input` against the policy's schema named
/// `schema` and prints one JSON line for it, `{"line": N, "ok": true, "canonical": {...}}` or
/// `{"line": N, "ok": false, "errors": [{"path", "message"}]}`, N counting every input line
/// from 1. For `import-record`, a first line that is an export's header is the file's, not a
/// record: it is printed as `{"line": N, "ok": true, "header": {...}}`, so an export validates
/// whole. Returns whether every line was valid. Nothing is written but standard output.
fn validate_jsonl(
    policy: &dyn Policy,
    schema: &str,
    input: impl BufRead,
    source: &Path,
) -> Result<bool> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let whole_line = |message: String| Err(vec![FieldError::new("", message)]);
    let mut all_valid = true;
    let mut first = true;
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let bytes = line.map_err(|source_error| KenningError::Io {
            path: source.to_path_buf(),
            source: source_error,
        })?;
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if std::mem::take(&mut first)
            && schema == IMPORT_RECORD
            && let Some(header) = std::str::from_utf8(bytes)
                .ok()
                .and_then(|line| Header::parse(line).ok())
        {
            let header = serde_json::to_string(&header).expect("a header serialises");
            writeln!(out, "{{\"line\":{number},\"ok\":true,\"header\":{header}}}")
                .map_err(KenningError::Output)?;
            continue;
        }
        let answer = if bytes.len() > MAX_VALIDATE_LINE_BYTES {
            whole_line(format!(
                "line is {} bytes; the limit is {MAX_VALIDATE_LINE_BYTES}",
                bytes.len()
            ))
        } else {
            match std::str::from_utf8(bytes) {
                Ok(text) => policy.validate(schema, text)?,
                Err(error) => whole_line(format!("not valid UTF-8: {error}")),
            }
        };
        let line = match answer {
            // The guard has checked that the canonical JSON is an object; it is printed as
            // the policy wrote it, keeping its field order.
            Ok(call) => format!(
                "{{\"line\":{number},\"ok\":true,\"canonical\":{}}}",
                call.args_json
            ),
            Err(errors) => {
                all_valid = false;
                format!(
                    "{{\"line\":{number},\"ok\":false,\"errors\":{}}}",
                    serde_json::to_string(&errors).expect("field errors serialise")
                )
            }
        };
        writeln!(out, "{line}").map_err(KenningError::Output)?;
    }
    out.flush().map_err(KenningError::Output)?;
    Ok(all_valid)
}
