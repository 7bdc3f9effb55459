//! Candidate retrieval: full-text search (FTS5 BM25) with filters, and the anchor index.

use rusqlite::Connection;

use super::{
    MEMORY_COLUMNS, Memory, MemoryFilter, anchors_of, kind_str, memory_from_row, scope_str,
};

/// Turns free text into an FTS5 query: each word quoted (so no FTS syntax gets through), OR-ed.
pub fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .take(64)
        .map(|w| format!("\"{w}\""))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

pub(super) fn search(
    conn: &Connection,
    filter: &MemoryFilter,
) -> rusqlite::Result<Vec<(Memory, f32)>> {
    let mut sql = String::new();
    let mut args: Vec<rusqlite::types::Value> = Vec::new();
    let fts = fts_query(&filter.query);
    if let Some(q) = &fts {
        sql.push_str(&format!(
            "SELECT {cols}, -bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid WHERE memories_fts MATCH ?",
            cols = MEMORY_COLUMNS.split(", ").map(|c| format!("m.{c}")).collect::<Vec<_>>().join(", ")
        ));
        args.push(q.clone().into());
    } else {
        sql.push_str(&format!(
            "SELECT {cols}, 0.0 AS rank FROM memories m WHERE 1",
            cols = MEMORY_COLUMNS
                .split(", ")
                .map(|c| format!("m.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    sql.push_str(" AND m.status = 'active'");
    if !filter.include_quarantined {
        sql.push_str(" AND m.badge IN ('native', 'foreign')");
    }
    if let Some(scope) = filter.scope {
        sql.push_str(" AND m.scope = ?");
        args.push(scope_str(scope).to_owned().into());
    }
    if let Some(kind) = filter.kind {
        sql.push_str(" AND m.kind = ?");
        args.push(kind_str(kind).to_owned().into());
    }
    if let Some(target) = filter.target {
        sql.push_str(" AND m.target = ?");
        args.push(target.as_str().to_owned().into());
    }
    for tag in &filter.tags {
        sql.push_str(" AND (' ' || m.tags || ' ') LIKE ? ESCAPE '\\'");
        args.push(format!("% {} %", like_escape(tag)).into());
    }
    for category in &filter.categories {
        sql.push_str(" AND EXISTS (SELECT 1 FROM json_each(m.categories) WHERE value = ?)");
        args.push(category.clone().into());
    }
    sql.push_str(if fts.is_some() {
        " ORDER BY rank DESC, m.id"
    } else {
        " ORDER BY m.updated_at DESC, m.id DESC"
    });
    sql.push_str(" LIMIT ? OFFSET ?");
    args.push(i64::from(filter.limit).into());
    args.push(i64::from(filter.offset).into());

    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), |row| {
        Ok((memory_from_row(row)?, row.get::<_, f64>(17)? as f32))
    })?;
    let mut out = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    for (memory, _) in &mut out {
        memory.anchors = anchors_of(conn, memory.id)?;
    }
    Ok(out)
}

fn like_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

pub(super) fn anchored_ids(
    conn: &Connection,
    offset: Option<u64>,
    function_start: Option<u64>,
    function_name: Option<&str>,
    strings: &[String],
    limit: u32,
) -> rusqlite::Result<Vec<u64>> {
    let mut clauses = Vec::new();
    let mut args: Vec<rusqlite::types::Value> = Vec::new();
    if let Some(offset) = offset {
        let o = offset as i64;
        clauses.push("(a.kind = 'address' AND a.start = ?)".to_owned());
        args.push(o.into());
        clauses.push("(a.kind IN ('function', 'range') AND a.start <= ? AND a.end > ?)".to_owned());
        args.push(o.into());
        args.push(o.into());
        clauses
            .push("(a.kind = 'near' AND a.start BETWEEN ? - a.radius AND ? + a.radius)".to_owned());
        args.push(o.into());
        args.push(o.into());
    }
    if let Some(start) = function_start {
        clauses.push("(a.kind = 'function' AND a.start = ?)".to_owned());
        args.push((start as i64).into());
    }
    if let Some(name) = function_name {
        clauses.push("(a.kind = 'function' AND a.name = ?)".to_owned());
        args.push(name.to_owned().into());
    }
    for value in strings.iter().take(256) {
        clauses.push("(a.kind = 'string' AND a.value = ?)".to_owned());
        args.push(value.clone().into());
    }
    if clauses.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT DISTINCT a.memory_id FROM anchors a JOIN memories m ON m.id = a.memory_id
         WHERE m.status = 'active' AND m.badge IN ('native', 'foreign') AND ({})
         ORDER BY a.memory_id DESC LIMIT ?",
        clauses.join(" OR ")
    );
    args.push(i64::from(limit).into());
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), |row| {
        row.get::<_, i64>(0).map(|id| id as u64)
    })?;
    rows.collect()
}
