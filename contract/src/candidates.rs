//! Candidates as a policy reads them: a borrowed view ([`Candidates`]) over either the host's
//! owned records or the columns of contract 0.4.0 (one list per field, one buffer of texts),
//! and [`CandidateColumns`], the one definition of that column layout, which hosts pack and
//! the component glue reads. Reading a candidate allocates nothing: texts are `&str` into the
//! batch, tags and anchors are iterated in place.

use crate::args::{Author, Badge};
use crate::types::{
    Anchor, Candidate, FunctionAnchor, MemoryKind, OffsetRadius, OffsetRange, Scope,
};

/// Scope codes of the `scopes` column.
const SCOPE_GLOBAL: u8 = 0;
const SCOPE_LOCAL: u8 = 1;

/// The scope a `scopes` code stands for: an unknown code reads as global, the scope that
/// claims no place in the subject.
#[inline]
fn scope_of(code: u8) -> Scope {
    if code == SCOPE_LOCAL {
        Scope::Local
    } else {
        Scope::Global
    }
}

/// Kind codes of the `kinds` column, in the order of [`MemoryKind`]'s cases.
const KINDS: [MemoryKind; 4] = [
    MemoryKind::Fact,
    MemoryKind::Preference,
    MemoryKind::Context,
    MemoryKind::ConversationSummary,
];

/// The code of `value` in the column of an enum whose values are `all`, in declaration order.
#[inline]
fn code_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter().position(|v| v == value).unwrap_or(0) as u8
}

/// The value `code` stands for in the column of an enum whose values are `all`, in
/// declaration order; `unknown` for a code past them.
#[inline]
fn value_of<T: Copy>(all: &[T], code: u8, unknown: T) -> T {
    all.get(usize::from(code)).copied().unwrap_or(unknown)
}

/// The author an `authors` code stands for: an unknown code reads as a peer, the least
/// trusted author.
#[inline]
fn author_of(code: u8) -> Author {
    value_of(Author::ALL, code, Author::Peer)
}

/// The badge a `badges` code stands for: an unknown code reads as FOREIGN, the least trusted
/// badge a host injects.
#[inline]
fn badge_of(code: u8) -> Badge {
    value_of(Badge::ALL, code, Badge::Foreign)
}

/// Anchor kind codes of the `anchor_kinds` column.
const ANCHOR_FUNCTION_OPEN: u8 = 0;
const ANCHOR_FUNCTION: u8 = 1;
const ANCHOR_RANGE: u8 = 2;
const ANCHOR_ADDRESS: u8 = 3;
const ANCHOR_NEAR: u8 = 4;
const ANCHOR_STRING: u8 = 5;

/// A batch of candidates in the columns of contract 0.4.0 (`kenning:policy/types.candidates`):
/// the i-th entry of each per-candidate column describes the i-th candidate. Hosts build it
/// with [`CandidateColumns::pack`]; [`CandidateColumns::view`] reads it back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CandidateColumns {
    /// The memories' ids.
    pub ids: Vec<u64>,
    /// Scope codes: 0 global, 1 local.
    pub scopes: Vec<u8>,
    /// Kind codes: 0 fact, 1 preference, 2 context, 3 conversation summary.
    pub kinds: Vec<u8>,
    /// Author codes, in the order of [`Author`]'s values (0 human ... 4 peer).
    pub authors: Vec<u8>,
    /// Badge codes, in the order of [`Badge`]'s values (0 native ... 3 foreign).
    pub badges: Vec<u8>,
    /// Confidences.
    pub confidences: Vec<f32>,
    /// Creation times.
    pub created_at: Vec<i64>,
    /// Times of last change.
    pub updated_at: Vec<i64>,
    /// The host's lexical scores.
    pub lexical_scores: Vec<f32>,
    /// Each candidate's text, then its tags separated by single spaces, back to back.
    pub texts: String,
    /// Two byte offsets per candidate into `texts`: where its text ends, where its tags end.
    pub text_ends: Vec<u32>,
    /// One offset per candidate into the anchor columns: where its anchors end.
    pub anchor_ends: Vec<u32>,
    /// Each anchor's kind code (see the WIT).
    pub anchor_kinds: Vec<u8>,
    /// Two numbers per anchor (see the WIT).
    pub anchor_values: Vec<u64>,
    /// Each anchor's string (a function's name, a referenced string), back to back.
    pub anchor_texts: String,
    /// One byte offset per anchor into `anchor_texts`: where its string ends.
    pub anchor_text_ends: Vec<u32>,
}

/// An offset into a column or buffer; batches stay far below 4 GiB (texts are capped at 8 KiB
/// each, candidates at a few thousand).
fn offset(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl CandidateColumns {
    /// The columns of `candidates`, in order.
    pub fn pack(candidates: &[Candidate]) -> Self {
        let n = candidates.len();
        let mut columns = CandidateColumns {
            ids: Vec::with_capacity(n),
            scopes: Vec::with_capacity(n),
            kinds: Vec::with_capacity(n),
            authors: Vec::with_capacity(n),
            badges: Vec::with_capacity(n),
            confidences: Vec::with_capacity(n),
            created_at: Vec::with_capacity(n),
            updated_at: Vec::with_capacity(n),
            lexical_scores: Vec::with_capacity(n),
            texts: String::with_capacity(candidates.iter().map(|c| c.text.len() + 16).sum()),
            text_ends: Vec::with_capacity(2 * n),
            anchor_ends: Vec::with_capacity(n),
            ..CandidateColumns::default()
        };
        for c in candidates {
            columns.ids.push(c.id);
            columns.scopes.push(match c.scope {
                Scope::Global => SCOPE_GLOBAL,
                Scope::Local => SCOPE_LOCAL,
            });
            columns.kinds.push(code_of(&KINDS, &c.kind));
            columns.authors.push(code_of(Author::ALL, &c.author));
            columns.badges.push(code_of(Badge::ALL, &c.badge));
            columns.confidences.push(c.confidence);
            columns.created_at.push(c.created_at);
            columns.updated_at.push(c.updated_at);
            columns.lexical_scores.push(c.lexical_score);
            columns.texts.push_str(&c.text);
            columns.text_ends.push(offset(columns.texts.len()));
            for (i, tag) in c.tags.iter().enumerate() {
                if i > 0 {
                    columns.texts.push(' ');
                }
                columns.texts.push_str(tag);
            }
            columns.text_ends.push(offset(columns.texts.len()));
            for anchor in &c.anchors {
                columns.push_anchor(anchor);
            }
            columns.anchor_ends.push(offset(columns.anchor_kinds.len()));
        }
        columns
    }

    fn push_anchor(&mut self, anchor: &Anchor) {
        let (kind, a, b, text) = match anchor {
            Anchor::Function(f) => match f.end {
                Some(end) => (ANCHOR_FUNCTION, f.start, end, f.name.as_str()),
                None => (ANCHOR_FUNCTION_OPEN, f.start, 0, f.name.as_str()),
            },
            Anchor::Range(r) => (ANCHOR_RANGE, r.start, r.end, ""),
            Anchor::Address { offset } => (ANCHOR_ADDRESS, *offset, 0, ""),
            Anchor::Near(n) => (ANCHOR_NEAR, n.offset, n.radius, ""),
            Anchor::String { value } => (ANCHOR_STRING, 0, 0, value.as_str()),
        };
        self.anchor_kinds.push(kind);
        self.anchor_values.extend([a, b]);
        self.anchor_texts.push_str(text);
        self.anchor_text_ends.push(offset(self.anchor_texts.len()));
    }

    /// The columns as a view.
    #[inline]
    pub fn view(&self) -> Candidates<'_> {
        Candidates::from(self)
    }
}

/// Borrowed candidates, as the [`crate::Policy`] trait hands them to a policy: from a slice of
/// [`Candidate`]s (`candidates.into()`) or from [`CandidateColumns`]. Cheap to copy.
#[derive(Debug, Clone, Copy)]
pub struct Candidates<'a>(Repr<'a>);

#[derive(Debug, Clone, Copy)]
enum Repr<'a> {
    Records(&'a [Candidate]),
    Columns {
        columns: &'a CandidateColumns,
        len: usize,
    },
}

impl<'a> From<&'a [Candidate]> for Candidates<'a> {
    #[inline]
    fn from(candidates: &'a [Candidate]) -> Self {
        Candidates(Repr::Records(candidates))
    }
}

impl<'a> From<&'a Vec<Candidate>> for Candidates<'a> {
    #[inline]
    fn from(candidates: &'a Vec<Candidate>) -> Self {
        Candidates(Repr::Records(candidates))
    }
}

impl<'a, const N: usize> From<&'a [Candidate; N]> for Candidates<'a> {
    #[inline]
    fn from(candidates: &'a [Candidate; N]) -> Self {
        Candidates(Repr::Records(candidates))
    }
}

impl<'a> From<&'a CandidateColumns> for Candidates<'a> {
    /// A view of the candidates every per-candidate column describes: a malformed batch (a
    /// short column) is cut to the candidates it describes whole.
    #[inline]
    fn from(columns: &'a CandidateColumns) -> Self {
        let len = [
            columns.ids.len(),
            columns.scopes.len(),
            columns.kinds.len(),
            columns.authors.len(),
            columns.badges.len(),
            columns.confidences.len(),
            columns.created_at.len(),
            columns.updated_at.len(),
            columns.lexical_scores.len(),
            columns.text_ends.len() / 2,
            columns.anchor_ends.len(),
        ]
        .into_iter()
        .min()
        .unwrap_or(0);
        Candidates(Repr::Columns { columns, len })
    }
}

/// Accessors reading one field of the `i`-th candidate, so a loop over a field or two reads
/// only those columns rather than assembling whole [`CandidateRef`]s.
macro_rules! scalar_columns {
    ($($(#[$doc:meta])* $name:ident: $ty:ident from $column:ident;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, i: usize) -> $ty {
            match self.0 {
                Repr::Records(records) => records.get(i).map_or(<$ty>::default(), |c| c.$name),
                Repr::Columns { columns, len } if i < len => columns.$column[i],
                Repr::Columns { .. } => <$ty>::default(),
            }
        }
    )*};
}

impl<'a> Candidates<'a> {
    /// How many candidates there are.
    #[inline]
    pub fn len(&self) -> usize {
        match self.0 {
            Repr::Records(records) => records.len(),
            Repr::Columns { len, .. } => len,
        }
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    scalar_columns! {
        /// The id of the `i`-th candidate (0 past the end).
        id: u64 from ids;
        /// The confidence of the `i`-th candidate (0 past the end).
        confidence: f32 from confidences;
        /// When the `i`-th candidate was written (0 past the end).
        created_at: i64 from created_at;
        /// When the `i`-th candidate last changed (0 past the end).
        updated_at: i64 from updated_at;
        /// The host's lexical score of the `i`-th candidate (0 past the end).
        lexical_score: f32 from lexical_scores;
    }

    /// The scope of the `i`-th candidate (global past the end).
    #[inline]
    pub fn scope(&self, i: usize) -> Scope {
        match self.0 {
            Repr::Records(records) => records.get(i).map_or(Scope::Global, |c| c.scope),
            Repr::Columns { columns, len } if i < len => scope_of(columns.scopes[i]),
            Repr::Columns { .. } => Scope::Global,
        }
    }

    /// The anchors of the `i`-th candidate (none past the end).
    #[inline]
    pub fn anchors(&self, i: usize) -> Anchors<'a> {
        match self.0 {
            Repr::Records(records) => Anchors(AnchorsRepr::Records(
                records.get(i).map_or(&[], |c| &c.anchors),
            )),
            Repr::Columns { columns, len } if i < len => column_anchors(columns, i),
            Repr::Columns { .. } => Anchors(AnchorsRepr::Records(&[])),
        }
    }

    /// The `i`-th candidate, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<CandidateRef<'a>> {
        match self.0 {
            Repr::Records(records) => records.get(i).map(CandidateRef::from),
            Repr::Columns { columns, len } if i < len => Some(column_candidate(columns, i)),
            Repr::Columns { .. } => None,
        }
    }

    /// The candidates, in order.
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = CandidateRef<'a>> + 'a {
        let this = *self;
        (0..this.len()).map(move |i| this.get(i).unwrap_or_else(|| unreachable_candidate(i)))
    }

    /// The candidates as owned records (for tests and tools; a policy needs none).
    pub fn to_vec(&self) -> Vec<Candidate> {
        self.iter().map(|c| c.to_owned()).collect()
    }
}

/// `iter` only asks for indices below `len`, which `get` always answers; should that ever
/// change, an empty candidate is read rather than a panic raised.
fn unreachable_candidate<'a>(i: usize) -> CandidateRef<'a> {
    let _ = i;
    CandidateRef {
        id: 0,
        scope: Scope::Global,
        kind: MemoryKind::Fact,
        author: Author::Peer,
        badge: Badge::Foreign,
        text: "",
        tags: Tags(TagsRepr::Spaced("")),
        confidence: 0.0,
        created_at: 0,
        updated_at: 0,
        anchors: Anchors(AnchorsRepr::Records(&[])),
        lexical_score: 0.0,
    }
}

/// The piece of `buffer` from `start` to `end`; empty when out of bounds or not on character
/// boundaries.
#[inline]
fn piece(buffer: &str, start: u32, end: u32) -> &str {
    buffer.get(start as usize..end as usize).unwrap_or_default()
}

/// The `i`-th end of `ends`, and the one before it (0 for the first).
#[inline]
fn bounds(ends: &[u32], i: usize) -> (u32, u32) {
    let start = if i == 0 {
        0
    } else {
        ends.get(i - 1).copied().unwrap_or(0)
    };
    (start, ends.get(i).copied().unwrap_or(start))
}

#[inline]
fn column_candidate(c: &CandidateColumns, i: usize) -> CandidateRef<'_> {
    let (text_start, text_end) = bounds(&c.text_ends, 2 * i);
    let tags_end = c.text_ends.get(2 * i + 1).copied().unwrap_or(text_end);
    CandidateRef {
        id: c.ids[i],
        scope: scope_of(c.scopes[i]),
        kind: value_of(&KINDS, c.kinds[i], MemoryKind::Fact),
        author: author_of(c.authors[i]),
        badge: badge_of(c.badges[i]),
        text: piece(&c.texts, text_start, text_end),
        tags: Tags(TagsRepr::Spaced(piece(&c.texts, text_end, tags_end))),
        confidence: c.confidences[i],
        created_at: c.created_at[i],
        updated_at: c.updated_at[i],
        anchors: column_anchors(c, i),
        lexical_score: c.lexical_scores[i],
    }
}

/// The anchors of the `i`-th candidate of `c`.
#[inline]
fn column_anchors(c: &CandidateColumns, i: usize) -> Anchors<'_> {
    let (start, end) = bounds(&c.anchor_ends, i);
    Anchors(AnchorsRepr::Columns {
        columns: c,
        start: start as usize,
        end: (end as usize).max(start as usize),
    })
}

/// One candidate, borrowed from its batch: the fields of [`Candidate`], with the text as a
/// `&str` and the tags and anchors read in place.
#[derive(Debug, Clone, Copy)]
pub struct CandidateRef<'a> {
    /// The memory's id.
    pub id: u64,
    /// Global or local.
    pub scope: Scope,
    /// What kind of knowledge it is.
    pub kind: MemoryKind,
    /// Who wrote it.
    pub author: Author,
    /// Its provenance badge.
    pub badge: Badge,
    /// The text, whole or a prefix long enough for the budget.
    pub text: &'a str,
    /// `#tag` tokens, without the `#`.
    pub tags: Tags<'a>,
    /// How sure the author was, from 0 to 1.
    pub confidence: f32,
    /// When it was written.
    pub created_at: i64,
    /// When it was last changed.
    pub updated_at: i64,
    /// Where it applies (none for global memories).
    pub anchors: Anchors<'a>,
    /// The host's lexical relevance for the query (BM25, larger is better, 0 for none).
    pub lexical_score: f32,
}

impl<'a> From<&'a Candidate> for CandidateRef<'a> {
    #[inline]
    fn from(c: &'a Candidate) -> Self {
        CandidateRef {
            id: c.id,
            scope: c.scope,
            kind: c.kind,
            author: c.author,
            badge: c.badge,
            text: &c.text,
            tags: Tags(TagsRepr::Records(&c.tags)),
            confidence: c.confidence,
            created_at: c.created_at,
            updated_at: c.updated_at,
            anchors: Anchors(AnchorsRepr::Records(&c.anchors)),
            lexical_score: c.lexical_score,
        }
    }
}

impl CandidateRef<'_> {
    /// The candidate as an owned record.
    pub fn to_owned(&self) -> Candidate {
        Candidate {
            id: self.id,
            scope: self.scope,
            kind: self.kind,
            author: self.author,
            badge: self.badge,
            text: self.text.to_owned(),
            tags: self.tags.iter().map(str::to_owned).collect(),
            confidence: self.confidence,
            created_at: self.created_at,
            updated_at: self.updated_at,
            anchors: self.anchors.iter().map(|a| a.to_owned()).collect(),
            lexical_score: self.lexical_score,
        }
    }
}

/// A candidate's tags, read in place.
#[derive(Debug, Clone, Copy)]
pub struct Tags<'a>(TagsRepr<'a>);

#[derive(Debug, Clone, Copy)]
enum TagsRepr<'a> {
    Records(&'a [String]),
    /// Tags separated by spaces (empty ones skipped).
    Spaced(&'a str),
}

impl<'a> Tags<'a> {
    /// The tags, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + 'a {
        let (records, spaced) = match self.0 {
            TagsRepr::Records(records) => (records, ""),
            TagsRepr::Spaced(spaced) => (&[][..], spaced),
        };
        records
            .iter()
            .map(String::as_str)
            .chain(spaced.split(' ').filter(|t| !t.is_empty()))
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// A candidate's anchors, read in place.
#[derive(Debug, Clone, Copy)]
pub struct Anchors<'a>(AnchorsRepr<'a>);

#[derive(Debug, Clone, Copy)]
enum AnchorsRepr<'a> {
    Records(&'a [Anchor]),
    Columns {
        columns: &'a CandidateColumns,
        start: usize,
        end: usize,
    },
}

impl<'a> From<&'a [Anchor]> for Anchors<'a> {
    #[inline]
    fn from(anchors: &'a [Anchor]) -> Self {
        Anchors(AnchorsRepr::Records(anchors))
    }
}

impl<'a> From<&'a Vec<Anchor>> for Anchors<'a> {
    #[inline]
    fn from(anchors: &'a Vec<Anchor>) -> Self {
        Anchors(AnchorsRepr::Records(anchors))
    }
}

impl<'a> Anchors<'a> {
    /// The anchors, in order (an anchor of a kind code this version does not know is skipped).
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = AnchorRef<'a>> + 'a {
        let (records, columns, range) = match self.0 {
            AnchorsRepr::Records(records) => (records, None, 0..0),
            AnchorsRepr::Columns {
                columns,
                start,
                end,
            } => (&[][..], Some(columns), start..end),
        };
        records
            .iter()
            .map(AnchorRef::from)
            .chain(range.filter_map(move |j| columns.and_then(|columns| column_anchor(columns, j))))
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        match self.0 {
            AnchorsRepr::Records(records) => records.is_empty(),
            AnchorsRepr::Columns { start, end, .. } => start >= end,
        }
    }
}

#[inline]
fn column_anchor(c: &CandidateColumns, j: usize) -> Option<AnchorRef<'_>> {
    let kind = *c.anchor_kinds.get(j)?;
    let a = c.anchor_values.get(2 * j).copied().unwrap_or(0);
    let b = c.anchor_values.get(2 * j + 1).copied().unwrap_or(0);
    let text = || {
        let (start, end) = bounds(&c.anchor_text_ends, j);
        piece(&c.anchor_texts, start, end)
    };
    Some(match kind {
        ANCHOR_FUNCTION_OPEN => AnchorRef::Function {
            start: a,
            end: None,
            name: text(),
        },
        ANCHOR_FUNCTION => AnchorRef::Function {
            start: a,
            end: Some(b),
            name: text(),
        },
        ANCHOR_RANGE => AnchorRef::Range { start: a, end: b },
        ANCHOR_ADDRESS => AnchorRef::Address { offset: a },
        ANCHOR_NEAR => AnchorRef::Near {
            offset: a,
            radius: b,
        },
        ANCHOR_STRING => AnchorRef::String { value: text() },
        _ => return None,
    })
}

/// One anchor, borrowed: the cases of [`Anchor`] with their strings as `&str`. All addresses
/// are file offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnchorRef<'a> {
    /// Inside a function starting at `start`, ending before `end` when known, named `name` at
    /// write time.
    Function {
        /// Offset of the function's first byte.
        start: u64,
        /// Offset one past its last byte, when known.
        end: Option<u64>,
        /// Its name at write time.
        name: &'a str,
    },
    /// Inside `[start, end)`.
    Range {
        /// First offset in the range.
        start: u64,
        /// Offset one past the last.
        end: u64,
    },
    /// At exactly this offset.
    Address {
        /// The offset.
        offset: u64,
    },
    /// Within `radius` bytes of `offset`.
    Near {
        /// The centre offset.
        offset: u64,
        /// How far from the centre still counts.
        radius: u64,
    },
    /// Wherever this literal string is referenced.
    String {
        /// The literal.
        value: &'a str,
    },
}

impl<'a> From<&'a Anchor> for AnchorRef<'a> {
    #[inline]
    fn from(anchor: &'a Anchor) -> Self {
        match anchor {
            Anchor::Function(f) => AnchorRef::Function {
                start: f.start,
                end: f.end,
                name: &f.name,
            },
            Anchor::Range(r) => AnchorRef::Range {
                start: r.start,
                end: r.end,
            },
            Anchor::Address { offset } => AnchorRef::Address { offset: *offset },
            Anchor::Near(n) => AnchorRef::Near {
                offset: n.offset,
                radius: n.radius,
            },
            Anchor::String { value } => AnchorRef::String { value },
        }
    }
}

impl AnchorRef<'_> {
    /// The anchor as an owned value.
    pub fn to_owned(&self) -> Anchor {
        match *self {
            AnchorRef::Function { start, end, name } => Anchor::Function(FunctionAnchor {
                start,
                end,
                name: name.to_owned(),
            }),
            AnchorRef::Range { start, end } => Anchor::Range(OffsetRange { start, end }),
            AnchorRef::Address { offset } => Anchor::Address { offset },
            AnchorRef::Near { offset, radius } => Anchor::Near(OffsetRadius { offset, radius }),
            AnchorRef::String { value } => Anchor::String {
                value: value.to_owned(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(id: u64, text: &str, tags: &[&str], anchors: Vec<Anchor>) -> Candidate {
        Candidate {
            id,
            scope: if anchors.is_empty() {
                Scope::Global
            } else {
                Scope::Local
            },
            kind: KINDS[id as usize % KINDS.len()],
            author: Author::ALL[id as usize % Author::ALL.len()],
            badge: Badge::ALL[id as usize % Badge::ALL.len()],
            text: text.to_owned(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            confidence: 0.25 * id as f32,
            created_at: -(id as i64),
            updated_at: id as i64 * 1_000,
            anchors,
            lexical_score: id as f32 / 3.0,
        }
    }

    fn every_kind_of_candidate() -> Vec<Candidate> {
        vec![
            candidate(1, "plain global", &[], vec![]),
            candidate(
                2,
                "café ドキュメント 🙂",
                &["net", "c2"],
                vec![
                    Anchor::Function(FunctionAnchor {
                        start: 0x1000,
                        end: None,
                        name: "parse_header".to_owned(),
                    }),
                    Anchor::Function(FunctionAnchor {
                        start: 0x2000,
                        end: Some(0x2100),
                        name: String::new(),
                    }),
                    Anchor::Range(OffsetRange {
                        start: 5,
                        end: u64::MAX,
                    }),
                ],
            ),
            candidate(3, "", &["only-tags"], vec![]),
            candidate(
                4,
                "anchored",
                &[],
                vec![
                    Anchor::Address { offset: 0x44 },
                    Anchor::Near(OffsetRadius {
                        offset: 0x50,
                        radius: 16,
                    }),
                    Anchor::String {
                        value: "Invalid license ✓".to_owned(),
                    },
                ],
            ),
        ]
    }

    #[test]
    fn packed_columns_read_back_as_the_records_they_were_packed_from() {
        let records = every_kind_of_candidate();
        let columns = CandidateColumns::pack(&records);
        assert_eq!(columns.view().to_vec(), records);
        assert_eq!(Candidates::from(&records).to_vec(), records);
        assert_eq!(columns.view().len(), 4);
        assert_eq!(columns.view().id(3), 4);
    }

    #[test]
    fn both_views_read_the_same_fields() {
        let records = every_kind_of_candidate();
        let columns = CandidateColumns::pack(&records);
        for (a, b) in columns.view().iter().zip(Candidates::from(&records).iter()) {
            assert_eq!(a.text, b.text);
            assert!(a.tags.iter().eq(b.tags.iter()));
            assert!(a.anchors.iter().eq(b.anchors.iter()));
            assert_eq!(a.anchors.is_empty(), b.anchors.is_empty());
            assert_eq!(a.tags.is_empty(), b.tags.is_empty());
        }
    }

    #[test]
    fn the_one_field_accessors_read_what_whole_candidates_hold_and_defaults_past_the_end() {
        let records = every_kind_of_candidate();
        let columns = CandidateColumns::pack(&records);
        for view in [columns.view(), Candidates::from(&records)] {
            for (i, c) in view.iter().enumerate() {
                assert_eq!(view.id(i), c.id);
                assert_eq!(view.scope(i), c.scope);
                assert_eq!(view.confidence(i), c.confidence);
                assert_eq!(view.created_at(i), c.created_at);
                assert_eq!(view.updated_at(i), c.updated_at);
                assert_eq!(view.lexical_score(i), c.lexical_score);
                assert!(view.anchors(i).iter().eq(c.anchors.iter()));
            }
            let past = view.len();
            assert_eq!((view.id(past), view.scope(past)), (0, Scope::Global));
            assert_eq!(
                (view.confidence(past), view.lexical_score(past)),
                (0.0, 0.0)
            );
            assert_eq!((view.created_at(past), view.updated_at(past)), (0, 0));
            assert!(view.anchors(past).is_empty());
        }
    }

    #[test]
    fn a_malformed_batch_reads_as_what_it_describes_whole_and_never_panics() {
        let records = every_kind_of_candidate();
        let mut columns = CandidateColumns::pack(&records);
        columns.kinds.pop();
        columns.anchor_kinds[0] = 200;
        columns.text_ends[2] = 3; // the second text ends before it starts
        columns.anchor_text_ends.truncate(1);
        columns.anchor_values.truncate(3);
        let view = columns.view();
        assert_eq!(view.len(), 3);
        assert!(view.get(3).is_none());
        assert_eq!(view.id(3), 0);
        let second = view.get(1).unwrap();
        assert_eq!(second.text, "");
        // The unknown anchor kind is skipped; the others read with what is left.
        assert_eq!(second.anchors.iter().count(), 2);
        let _ = view.to_vec();

        let mut columns = CandidateColumns::pack(&records);
        // Unknown author and badge codes read as the least trusted.
        columns.authors[0] = 77;
        columns.badges[0] = 77;
        let first = columns.view().get(0).unwrap();
        assert_eq!((first.author, first.badge), (Author::Peer, Badge::Foreign));

        let mut columns = CandidateColumns::pack(&records);
        // Offsets out of the buffer and off character boundaries read as empty.
        columns.text_ends[2] = u32::MAX;
        columns.text_ends[3] = u32::MAX;
        let view = columns.view();
        assert_eq!(view.get(1).unwrap().text, "");
        columns.text_ends[2] = 16; // inside the "é" of "café"
        assert_eq!(columns.view().get(1).unwrap().text, "");
    }
}
