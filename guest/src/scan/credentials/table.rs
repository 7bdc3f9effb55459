//! Credentials in the cells of a table whose header names the column as one: a Markdown or
//! ASCII table (`| service | API key |`, borders `+----+` allowed) or a CSV export
//! (`name,login_password,...`). The name is on the header row, the value rows below it.

use super::super::rules::{Family, Hit};
use super::super::secrets::secret_value;

/// Every credential-looking value in a column of a table headed as credentials; `words` are
/// the text's credential words ([`super::proximity::word_spans`]).
pub fn find(text: &str, words: &[(usize, usize)]) -> Vec<Hit> {
    let mut hits = csv(text, words);
    if !text.contains('|') {
        return hits;
    }
    let mut columns: Vec<bool> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let row = line.trim_end_matches(['\n', '\r']);
        if is_border(row) {
            continue;
        }
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
                .map(|&(s, e)| names_credentials(words, s, e))
                .collect();
            if !columns.contains(&true) {
                // A header naming no credential column: skip the rest of this table.
                columns = vec![false];
            }
            continue;
        }
        if cells.len() == columns.len() {
            take_cells(text, &cells, &columns, &mut hits);
        }
    }
    hits
}

/// Every credential-looking value in a column of a CSV block whose header names it as
/// credentials: the block is the header line and the lines after it with as many fields.
fn csv(text: &str, words: &[(usize, usize)]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut header: Option<(usize, Vec<bool>)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let row = line.trim_end_matches(['\n', '\r']);
        if row.bytes().filter(|&b| b == b',').count() < 2 {
            header = None;
            continue;
        }
        let fields = csv_fields(row, start);
        match &header {
            Some((count, columns)) if fields.len() == *count => {
                take_cells(text, &fields, columns, &mut hits);
            }
            _ => {
                let columns: Vec<bool> = fields
                    .iter()
                    .map(|&(s, e)| names_credentials(words, s, e))
                    .collect();
                header = (fields.len() >= 3 && columns.contains(&true))
                    .then_some((fields.len(), columns));
            }
        }
    }
    hits
}

/// The trimmed comma-separated fields of a line starting at byte `offset`, as byte ranges.
fn csv_fields(row: &str, offset: usize) -> Vec<(usize, usize)> {
    let mut fields = Vec::new();
    let mut from = offset;
    for field in row.split(',') {
        let s = from + (field.len() - field.trim_start().len());
        let e = from + field.trim_end().len();
        fields.push((s, e.max(s)));
        from += field.len() + 1;
    }
    fields
}

/// Adds the credential-looking values of `cells` in the columns marked in `columns`.
fn take_cells(text: &str, cells: &[(usize, usize)], columns: &[bool], hits: &mut Vec<Hit>) {
    for (&(s, e), _) in cells.iter().zip(columns).filter(|(_, c)| **c) {
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

/// A cell that its column's header names as a credential: what [`secret_value`] takes
/// unquoted, in one piece, with letters and digits both, so that notes in the column ("see
/// vault", "rotated", "4096") are not taken.
fn named_value(v: &str) -> bool {
    let b = v.as_bytes();
    !b.iter().any(u8::is_ascii_whitespace)
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && secret_value(v, 3)
}

/// Whether a line is an ASCII table's border (`+-----+----+`, `|====|`).
fn is_border(row: &str) -> bool {
    let row = row.trim();
    !row.is_empty()
        && row.bytes().any(|b| matches!(b, b'-' | b'='))
        && row
            .bytes()
            .all(|b| matches!(b, b'+' | b'-' | b'=' | b'|' | b':' | b' '))
}

/// The trimmed cells of a table row starting at byte `offset`, as byte ranges of the text: a
/// line that starts and ends with `|` once blanks are trimmed (Markdown, ASCII tables), or
/// one with `|` between its cells only (`psql`'s output); `None` for any other line.
fn cells(row: &str, offset: usize) -> Option<Vec<(usize, usize)>> {
    let lead = row.len() - row.trim_start().len();
    let body = row.trim();
    let (inner, mut from) = if body.len() >= 2 && body.starts_with('|') && body.ends_with('|') {
        (&body[1..body.len() - 1], offset + lead + 1)
    } else if body.contains('|') {
        (body, offset + lead)
    } else {
        return None;
    };
    let mut cells = Vec::new();
    for cell in inner.split('|') {
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

/// Whether the header cell `start..end` names a column of credentials: one of the text's
/// credential words (in text order) lies in it. A word found in the whole text is found in
/// the cell alone too, and the other way round: no credential word holds a cell's delimiter
/// (`|`, `,`) or begins or ends with a blank, so none crosses a cell's edge.
fn names_credentials(words: &[(usize, usize)], start: usize, end: usize) -> bool {
    let first = words.partition_point(|&(s, _)| s < start);
    words[first..]
        .iter()
        .take_while(|&&(s, _)| s < end)
        .any(|&(_, e)| e <= end)
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
    use super::super::tests::spans;
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        spans(
            text,
            find(text, &super::super::proximity::word_spans_in(text)),
        )
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
        let ascii = "mysql> SELECT id, secret FROM clients;\n+----+----------------------+\n| id | secret               |\n+----+----------------------+\n| 7  | Zx81kQp0Lm3RtY7wVq9r |\n+----+----------------------+";
        assert_eq!(found(ascii), ["Zx81kQp0Lm3RtY7wVq9r"]);
        let csv = "folder,type,name,login_uri,login_password,totp\nWork,login,Acme,https://acme.example,4b19888568c3cf74fb1af25387d23290,\n";
        assert_eq!(found(csv), ["4b19888568c3cf74fb1af25387d23290"]);
        let psql = "app=> SELECT provider, api_key FROM integrations;\n provider |        api_key\n----------+------------------------\n acme     | key_d76e87df3e54ab76b8ab8be3\n(1 row)";
        assert_eq!(found(psql), ["key_d76e87df3e54ab76b8ab8be3"]);
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
            // A shell pipeline is no table.
            "grep token config.txt | cut -d= -f2 | q8Rt2ZmP0xLk5VbN7wYc",
            // A CSV whose credential column holds none, and rows of another shape after it.
            "name,token,owner\nacme,rotated,ops\nq8Rt2ZmP0xLk5VbN7wYc,x",
            "id,commit,note\n1,9fd0fab79bd9ece9c8f0,q8Rt2ZmP0xLk5VbN7wYc",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
