//! `kenning query`: one read-only SQL statement over a subject's views (the `query` tool), or
//! the views themselves (`--schema`).

use std::io::Read;
use std::process::ExitCode;

use clap::Args;
use kenning::KenningError;
use kenning::query::{QueryArgs, QueryResult, Truncation};

use super::{AuthorArg, GlobalOpts, PolicyUse, print_json, service, usage};

/// `kenning query`.
#[derive(Args)]
pub struct QueryCmd {
    /// The subject: a file (its MD5 keys the knowledge base), file:PATH, db:PATH, account:NAME or profile:NAME.
    #[arg(long, short, required_unless_present = "schema")]
    subject: Option<String>,
    /// One SELECT over the views (`-`: read it from standard input); see --schema.
    #[arg(required_unless_present = "schema")]
    sql: Option<String>,
    /// Print the views a query reads, their columns, the functions it may call and its budgets.
    #[arg(long, conflicts_with_all = ["sql", "subject"])]
    schema: bool,
    /// Most rows to print, 1 to 1,000.
    #[arg(long, default_value_t = kenning::query::DEFAULT_ROWS)]
    max_rows: u32,
    /// Whose reading it is: a human also reads what awaits review.
    #[arg(long, value_enum, default_value = "human")]
    author: AuthorArg,
    /// Print the answer as JSON (columns, rows, row_count, truncated).
    #[arg(long)]
    json: bool,
}

/// Runs `kenning query`.
pub fn run(global: &GlobalOpts, cmd: &QueryCmd) -> kenning::Result<ExitCode> {
    let service = service(global, None, PolicyUse::StoreOnly)?.build()?;
    if cmd.schema {
        print_json(&service.query_schema())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(spec), Some(sql)) = (&cmd.subject, &cmd.sql) else {
        return Err(usage("give --subject and the SQL, or --schema"));
    };
    let subject = kenning::subject::Subject::parse(spec)?;
    let sql = if sql == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|source| KenningError::Io {
                path: "<stdin>".into(),
                source,
            })?;
        text
    } else {
        sql.clone()
    };
    let answer = service.query(
        &subject,
        cmd.author.into(),
        &QueryArgs {
            sql,
            max_rows: Some(cmd.max_rows),
        },
    )?;
    if cmd.json {
        print_json(&answer)?;
    } else {
        print_table(&answer)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer as a table: a header, one line a row, columns separated by " | "; texts with
/// control characters escaped, so that no stored text can move the terminal's cursor.
fn print_table(answer: &QueryResult) -> kenning::Result<()> {
    let cell = |value: &serde_json::Value| match value {
        serde_json::Value::Null => "NULL".to_owned(),
        serde_json::Value::String(text) => kenning::controls::escape(text).into_owned(),
        other => other.to_string(),
    };
    let rows: Vec<Vec<String>> = answer
        .rows
        .iter()
        .map(|row| row.iter().map(cell).collect())
        .collect();
    let header: Vec<String> = answer
        .columns
        .iter()
        .map(|c| kenning::controls::escape(c).into_owned())
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|row| row[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
                .min(60)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(cell, &width)| format!("{cell:<width$}"))
            .collect::<Vec<_>>()
            .join(" | ")
            .trim_end()
            .to_owned()
    };
    outln!("{}", line(&header));
    outln!(
        "{}",
        widths
            .iter()
            .map(|&w| "-".repeat(w.max(1)))
            .collect::<Vec<_>>()
            .join("-+-")
    );
    for row in &rows {
        outln!("{}", line(row));
    }
    let more = match answer.truncated {
        Some(Truncation::Rows) => " (more rows: raise --max-rows)",
        Some(Truncation::Size) => " (more rows: the answer's size bound was reached)",
        None => "",
    };
    // Standard error, so that standard output stays the table.
    eprintln!(
        "({} row{}){more}",
        answer.row_count,
        if answer.row_count == 1 { "" } else { "s" }
    );
    Ok(())
}
