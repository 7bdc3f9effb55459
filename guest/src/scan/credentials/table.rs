//! Credentials in the cells of a Markdown table whose header names the column as one
//! (`| service | API key |`): the name is on the header row, the value rows below it.

use super::super::rules::{Family, Hit};
use super::nearby::named_value;

/// Header words that name a column of credentials (compared in lower case).
const CREDENTIAL_HEADERS: &[&str] = &[
    "api key",
    "api-key",
    "api_key",
    "apikey",
    "access key",
    "secret key",
    "private key",
    "token",
    "secret",
    "password",
    "passphrase",
    "credential",
];

/// Every credential-looking value in a column of a Markdown table headed as credentials.
pub fn find(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    if !text.contains('|') {
        return hits;
    }
    let mut columns: Vec<bool> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let row = line.trim_end_matches(['\n', '\r']);
        let Some(cells) = cells(row, start) else {
            columns.clear();
            continue;
        };
        if cells.iter().all(|&(s, e)| is_rule(&text[s..e])) {
            continue;
        }
        if columns.is_empty() {
            columns = cells
                .iter()
                .map(|&(s, e)| names_credentials(&text[s..e]))
                .collect();
            if !columns.contains(&true) {
                // A header naming no credential column: skip the rest of this table.
                columns = vec![false];
            }
            continue;
        }
        for (&(s, e), _) in cells.iter().zip(&columns).filter(|(_, c)| **c) {
            let (s, e) = unquote(text, s, e);
            if s < e && named_value(&text[s..e]) {
                hits.push(Hit {
                    family: Family::Secret,
                    kind: "table-credential",
                    start: s,
                    end: e,
                    priority: usize::MAX - 1,
                });
            }
        }
    }
    hits
}

/// The trimmed cells of a table row starting at byte `offset` (a line that starts and ends
/// with `|` once blanks are trimmed), as byte ranges of the text; `None` for any other line.
fn cells(row: &str, offset: usize) -> Option<Vec<(usize, usize)>> {
    let lead = row.len() - row.trim_start().len();
    let body = row.trim();
    if body.len() < 2 || !body.starts_with('|') || !body.ends_with('|') {
        return None;
    }
    let mut cells = Vec::new();
    let mut from = offset + lead + 1;
    for cell in body[1..body.len() - 1].split('|') {
        let s = from + (cell.len() - cell.trim_start().len());
        let e = from + cell.trim_end().len();
        cells.push((s, e.max(s)));
        from += cell.len() + 1;
    }
    Some(cells)
}

/// Whether a cell is the header's rule (`---`, `:--:`).
fn is_rule(cell: &str) -> bool {
    !cell.is_empty() && cell.bytes().all(|b| matches!(b, b'-' | b':' | b' '))
}

/// Whether a header cell names a column of credentials.
fn names_credentials(cell: &str) -> bool {
    let lower = cell.to_ascii_lowercase();
    CREDENTIAL_HEADERS.iter().any(|h| lower.contains(h))
}

/// The cell `s..e` without one pair of enclosing backticks or quotes.
fn unquote(text: &str, s: usize, e: usize) -> (usize, usize) {
    let b = text.as_bytes();
    if e >= s + 2 && b[s] == b[e - 1] && matches!(b[s], b'`' | b'"' | b'\'') {
        (s + 1, e - 1)
    } else {
        (s, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        find(text)
            .into_iter()
            .map(|h| &text[h.start..h.end])
            .collect()
    }

    #[test]
    fn values_in_a_column_headed_as_credentials_are_found() {
        let table = "| service | account | API key |\n| --- | --- | --- |\n| acme | ops@team | `q8Rt2ZmP0xLk5VbN7wYc` |\n| widget | dev | Zx81kQp0Lm3RtY7wVq9r |";
        assert_eq!(
            found(table),
            ["q8Rt2ZmP0xLk5VbN7wYc", "Zx81kQp0Lm3RtY7wVq9r"]
        );
        let token =
            "notes:\n  | env | Token |\n  |:--|:--|\n  | prod | \"Vq9rT3zX81LmKp4wQ8Rt\" |\n";
        assert_eq!(found(token), ["Vq9rT3zX81LmKp4wQ8Rt"]);
    }

    #[test]
    fn other_columns_and_other_tables_are_not() {
        for text in [
            // The value is not in the credentials column.
            "| id | token |\n| --- | --- |\n| q8Rt2ZmP0xLk5VbN7wYc | see vault |",
            // No column names a credential.
            "| commit | note |\n| --- | --- |\n| 9fd0fab79bd9ece9c8f0 | q8Rt2ZmP0xLk5VbN7wYc |",
            // Cells that are not secrets: placeholders, words, references.
            "| service | API key |\n| --- | --- |\n| acme | <your-key> |\n| widget | rotated-monthly |\n| x | $ACME_KEY |",
            // A table after a header that named credentials, separated by prose.
            "| svc | token |\n| --- | --- |\n| a | none |\n\nlater:\n| svc | id |\n| --- | --- |\n| b | q8Rt2ZmP0xLk5VbN7wYc |",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
