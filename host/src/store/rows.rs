//! A memory's row, the same in both backends: the columns of `memories` named once
//! ([`Column`]), read into a [`Memory`] ([`memory`]) and written from a [`NewMemory`]
//! ([`inserted`], [`revised`]).
//!
//! A field added to a memory is a column here (its name, how it is read, how it is written) and
//! a migration in each backend's schema; the backends' statements are built from these lists,
//! so neither names a memory's column itself.

use kenning_contract::types::{MemoryKind, Scope};

use super::{Author, Badge, Imported, Memory, MemoryTarget, NewMemory, Status};

/// The columns of `memories` a [`Memory`] is read from, in the order of a select list
/// ([`select_list`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Column {
    Id,
    Scope,
    Kind,
    Target,
    Day,
    Text,
    Tags,
    Categories,
    Confidence,
    Author,
    Badge,
    Status,
    Thread,
    ContentHash,
    ImageBase,
    CreatedAt,
    UpdatedAt,
    Metadata,
    Forgets,
}

impl Column {
    /// Every column, in select-list order.
    pub(crate) const ALL: [Column; 19] = [
        Column::Id,
        Column::Scope,
        Column::Kind,
        Column::Target,
        Column::Day,
        Column::Text,
        Column::Tags,
        Column::Categories,
        Column::Confidence,
        Column::Author,
        Column::Badge,
        Column::Status,
        Column::Thread,
        Column::ContentHash,
        Column::ImageBase,
        Column::CreatedAt,
        Column::UpdatedAt,
        Column::Metadata,
        Column::Forgets,
    ];

    /// Its name in both schemas.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Column::Id => "id",
            Column::Scope => "scope",
            Column::Kind => "kind",
            Column::Target => "target",
            Column::Day => "day",
            Column::Text => "text",
            Column::Tags => "tags",
            Column::Categories => "categories",
            Column::Confidence => "confidence",
            Column::Author => "author",
            Column::Badge => "badge",
            Column::Status => "status",
            Column::Thread => "thread",
            Column::ContentHash => "content_hash",
            Column::ImageBase => "image_base",
            Column::CreatedAt => "created_at",
            Column::UpdatedAt => "updated_at",
            Column::Metadata => "metadata",
            Column::Forgets => "forgets",
        }
    }

    /// Its place in a row selected with [`select_list`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// The select list of every [`Column`], each qualified by `table` when one is given
/// (`m.id, m.scope, ...`). A statement may select more after it: the first of those is at
/// [`Column::ALL`]`.len()`.
pub(crate) fn select_list(table: Option<&str>) -> String {
    Column::ALL
        .iter()
        .map(|column| match table {
            Some(table) => format!("{table}.{}", column.name()),
            None => column.name().to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// [`select_list`] unqualified, built once.
pub(crate) fn columns() -> &'static str {
    static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LIST.get_or_init(|| select_list(None))
}

/// [`select_list`] qualified by `m` (`m.id, m.scope, ...`), built once.
pub(crate) fn columns_of_m() -> &'static str {
    static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LIST.get_or_init(|| select_list(Some("m")))
}

/// A row of `memories` as a backend reads it: each column by its [`Column`].
pub(crate) trait RowRead {
    /// An integer column (`None` for NULL).
    fn integer(&self, column: Column) -> Result<Option<i64>, RowError>;
    /// A floating-point column.
    fn real(&self, column: Column) -> Result<Option<f64>, RowError>;
    /// A text column.
    fn text(&self, column: Column) -> Result<Option<String>, RowError>;
}

/// A stored row that is not a memory: which column, and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RowError {
    /// The column.
    pub column: &'static str,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a stored memory's {}: {}", self.column, self.problem)
    }
}

impl std::error::Error for RowError {}

impl RowError {
    /// `column` holds what it may not.
    pub(crate) fn new(column: Column, problem: impl Into<String>) -> RowError {
        RowError {
            column: column.name(),
            problem: problem.into(),
        }
    }
}

/// The memory in `row` (its anchors, which live in a table of their own, left empty).
pub(crate) fn memory(row: &impl RowRead) -> Result<Memory, RowError> {
    use Column as C;
    fn required<T>(column: Column, value: Option<T>) -> Result<T, RowError> {
        value.ok_or_else(|| RowError::new(column, "is NULL"))
    }
    let integer = |column| required(column, row.integer(column)?);
    let text = |column| required(column, row.text(column)?);
    // A vocabulary word: the value must be one `parse` knows.
    fn word<T>(
        column: Column,
        value: String,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T, RowError> {
        parse(&value).ok_or_else(|| RowError::new(column, format!("unknown value {value:?}")))
    }
    let categories = text(C::Categories)?;
    Ok(Memory {
        id: integer(C::Id)? as u64,
        scope: word(C::Scope, text(C::Scope)?, Scope::parse)?,
        kind: word(C::Kind, text(C::Kind)?, MemoryKind::parse)?,
        target: row
            .text(C::Target)?
            .and_then(|target| MemoryTarget::parse(&target)),
        day: row.text(C::Day)?,
        text: text(C::Text)?,
        tags: text(C::Tags)?
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        categories: serde_json::from_str(&categories)
            .map_err(|_| RowError::new(C::Categories, format!("not a list: {categories:?}")))?,
        confidence: required(C::Confidence, row.real(C::Confidence)?)? as f32,
        author: word(C::Author, text(C::Author)?, Author::parse)?,
        badge: word(C::Badge, text(C::Badge)?, Badge::parse)?,
        status: word(C::Status, text(C::Status)?, Status::parse)?,
        thread: row.text(C::Thread)?,
        content_hash: text(C::ContentHash)?,
        image_base: integer(C::ImageBase)? as u64,
        anchors: Vec::new(),
        created_at: integer(C::CreatedAt)?,
        updated_at: integer(C::UpdatedAt)?,
        metadata: row
            .text(C::Metadata)?
            .map(|stored| {
                crate::metadata::parse_stored(&stored)
                    .map_err(|_| RowError::new(C::Metadata, "not the metadata written"))
            })
            .transpose()?,
        forgets: row.integer(C::Forgets)?.map(|id| id as u64),
    })
}

/// A value bound to a statement, as both backends take it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    /// NULL.
    Null,
    /// An integer (`INTEGER` in SQLite, `BIGINT` in PostgreSQL).
    Integer(i64),
    /// A floating-point number (`REAL`, `DOUBLE PRECISION`).
    Real(f64),
    /// Text.
    Text(std::borrow::Cow<'a, str>),
}

impl<'a> Value<'a> {
    fn text(text: &'a str) -> Value<'a> {
        Value::Text(text.into())
    }

    fn optional_text(text: Option<&'a str>) -> Value<'a> {
        text.map_or(Value::Null, Value::text)
    }
}

/// A column and the value written to it.
pub(crate) type Assignment<'a> = (&'static str, Value<'a>);

/// How a memory's row stands when it is inserted.
pub struct RowState<'a> {
    /// Its provenance badge.
    pub badge: Badge,
    /// Its status.
    pub status: Status,
    /// The SHA-256 of its text ([`super::content_hash`]).
    pub content_hash: &'a str,
    /// When it was created, in seconds since the epoch.
    pub created_at: i64,
    /// When it last changed.
    pub updated_at: i64,
}

impl<'a> RowState<'a> {
    /// A new memory's: active with `badge`, its text hashing to `content_hash`, written `now`.
    pub fn active(badge: Badge, content_hash: &'a str, now: i64) -> RowState<'a> {
        RowState {
            badge,
            status: Status::Active,
            content_hash,
            created_at: now,
            updated_at: now,
        }
    }

    /// An imported memory's: the badge given here, and the state and times the export carried.
    pub fn imported(imported: &'a Imported) -> RowState<'a> {
        RowState {
            badge: imported.badge,
            status: imported.status,
            content_hash: &imported.content_hash,
            created_at: imported.created_at,
            updated_at: imported.updated_at,
        }
    }
}

/// A memory's content, as written and as revised: not where it was placed, who wrote it, or
/// how its row stands.
fn content(memory: &NewMemory) -> Vec<Assignment<'_>> {
    vec![
        ("kind", Value::text(memory.kind.as_str())),
        ("text", Value::text(&memory.text)),
        ("tags", Value::Text(memory.tags.join(" ").into())),
        (
            "categories",
            Value::Text(
                serde_json::to_string(&memory.categories)
                    .expect("strings serialise")
                    .into(),
            ),
        ),
        ("confidence", Value::Real(f64::from(memory.confidence))),
        ("thread", Value::optional_text(memory.thread.as_deref())),
        ("image_base", Value::Integer(memory.image_base as i64)),
        (
            "metadata",
            memory.metadata.as_ref().map_or(Value::Null, |m| {
                Value::Text(crate::metadata::stored(m).into())
            }),
        ),
    ]
}

/// Every column a revision rewrites: `memory`'s content, whose text hashes to
/// `content_hash`, changed `now`.
pub(crate) fn revised<'a>(
    memory: &'a NewMemory,
    content_hash: &'a str,
    now: i64,
) -> Vec<Assignment<'a>> {
    let mut row = content(memory);
    row.push(("content_hash", Value::text(content_hash)));
    row.push(("updated_at", Value::Integer(now)));
    row
}

/// Every column an insert writes, with the values of `memory` in `state`.
pub(crate) fn inserted<'a>(memory: &'a NewMemory, state: &RowState<'a>) -> Vec<Assignment<'a>> {
    let mut row = vec![
        ("scope", Value::text(memory.scope.as_str())),
        (
            "target",
            Value::optional_text(memory.target.map(MemoryTarget::as_str)),
        ),
        ("day", Value::optional_text(memory.day.as_deref())),
        ("author", Value::text(memory.author.as_str())),
        ("badge", Value::text(state.badge.as_str())),
        ("status", Value::text(state.status.as_str())),
        ("content_hash", Value::text(state.content_hash)),
        ("created_at", Value::Integer(state.created_at)),
        ("updated_at", Value::Integer(state.updated_at)),
    ];
    row.extend(content(memory));
    row
}

/// What forgetting a memory sets, as SQL both backends read: the status, and every column that
/// holds what its writer gave (text, tags, categories, thread, metadata) emptied. A column
/// added to a memory that holds such words is emptied here too, or a forgotten memory keeps
/// them. (Its anchors, in a table of their own, are deleted beside.)
pub(crate) const FORGOTTEN: &str =
    "status = 'forgotten', text = '', tags = '', categories = '[]', thread = NULL, metadata = NULL";

/// The placeholders of `count` values bound from `first` on, in the backend's notation
/// (`?1, ?2` for SQLite, `$1, $2` for PostgreSQL: `mark`).
pub(crate) fn placeholders(mark: char, first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("{mark}{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `column = ?n, ...` for `assignments`, their values bound from `first` on (see
/// [`placeholders`]).
pub(crate) fn set_list(mark: char, first: usize, assignments: &[Assignment<'_>]) -> String {
    assignments
        .iter()
        .enumerate()
        .map(|(n, (column, _))| format!("{column} = {mark}{}", first + n))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns of `assignments`, joined for a column list (`scope, target, ...`).
pub(crate) fn column_list(assignments: &[Assignment<'_>]) -> String {
    assignments
        .iter()
        .map(|(column, _)| *column)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::sample_memory;

    /// A row held in memory, as a backend would read `memory` back.
    struct Stored(Vec<(&'static str, Value<'static>)>);

    impl Stored {
        fn of(memory: &Memory) -> Stored {
            let new = NewMemory::from(memory);
            let state = RowState {
                badge: memory.badge,
                status: memory.status,
                content_hash: &memory.content_hash,
                created_at: memory.created_at,
                updated_at: memory.updated_at,
            };
            let mut row: Vec<(&'static str, Value<'static>)> = inserted(&new, &state)
                .into_iter()
                .map(|(column, value)| (column, owned(value)))
                .collect();
            row.push(("id", Value::Integer(memory.id as i64)));
            row.push(("forgets", Value::Null));
            Stored(row)
        }

        fn get(&self, column: Column) -> &Value<'static> {
            self.0
                .iter()
                .find(|(name, _)| *name == column.name())
                .map(|(_, value)| value)
                .unwrap_or_else(|| panic!("no column {}", column.name()))
        }
    }

    fn owned(value: Value<'_>) -> Value<'static> {
        match value {
            Value::Text(text) => Value::Text(text.into_owned().into()),
            Value::Null => Value::Null,
            Value::Integer(n) => Value::Integer(n),
            Value::Real(x) => Value::Real(x),
        }
    }

    impl RowRead for Stored {
        fn integer(&self, column: Column) -> Result<Option<i64>, RowError> {
            match self.get(column) {
                Value::Null => Ok(None),
                Value::Integer(n) => Ok(Some(*n)),
                other => Err(RowError::new(column, format!("{other:?} is no integer"))),
            }
        }
        fn real(&self, column: Column) -> Result<Option<f64>, RowError> {
            match self.get(column) {
                Value::Null => Ok(None),
                Value::Real(x) => Ok(Some(*x)),
                other => Err(RowError::new(column, format!("{other:?} is no real"))),
            }
        }
        fn text(&self, column: Column) -> Result<Option<String>, RowError> {
            match self.get(column) {
                Value::Null => Ok(None),
                Value::Text(text) => Ok(Some(text.to_string())),
                other => Err(RowError::new(column, format!("{other:?} is no text"))),
            }
        }
    }

    #[test]
    fn every_column_read_is_a_column_written_or_the_rows_own() {
        let written = column_list(&inserted(
            &crate::store::global_fact("x"),
            &RowState {
                badge: Badge::Native,
                status: Status::Active,
                content_hash: "",
                created_at: 0,
                updated_at: 0,
            },
        ));
        for column in Column::ALL {
            let own = matches!(column, Column::Id | Column::Forgets);
            assert_eq!(
                written.split(", ").any(|name| name == column.name()),
                !own,
                "{}",
                column.name()
            );
        }
    }

    #[test]
    fn a_memory_written_reads_back_the_same() {
        let mut memory = sample_memory(
            7,
            "The key sits at 0x40a000.",
            Author::Agent,
            Badge::Pending,
        );
        memory.tags = vec!["crypto".into(), "config".into()];
        memory.categories = vec!["malware config".into()];
        memory.thread = Some("t-1".into());
        memory.image_base = 0x40_0000;
        memory.created_at = 1_700_000_000;
        memory.updated_at = 1_700_000_100;
        let read = super::memory(&Stored::of(&memory)).unwrap();
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            serde_json::to_value(&memory).unwrap()
        );
    }

    #[test]
    fn a_word_no_vocabulary_knows_is_named_with_its_column() {
        let mut stored = Stored::of(&sample_memory(1, "x", Author::Human, Badge::Native));
        for (name, value) in &mut stored.0 {
            if *name == "badge" {
                *value = Value::Text("trusted".into());
            }
        }
        let error = super::memory(&stored).unwrap_err();
        assert_eq!(error.column, "badge");
        assert!(error.to_string().contains("\"trusted\""), "{error}");
    }

    #[test]
    fn the_select_list_qualifies_every_column_when_asked() {
        assert!(select_list(None).starts_with("id, scope, kind"));
        assert!(select_list(Some("m")).starts_with("m.id, m.scope, m.kind"));
        assert_eq!(select_list(None).split(", ").count(), Column::ALL.len());
        for (index, column) in Column::ALL.iter().enumerate() {
            assert_eq!(column.index(), index);
        }
    }
}
