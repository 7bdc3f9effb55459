//! Synthetic knowledge bases for benchmarks: memories whose every word the library draws from
//! its own syllable vocabulary with a seeded generator, written in one bulk load.
//!
//! The rows go into the store directly, not through the service's rules, which is why nothing
//! here takes text from a caller: all a caller chooses is the subject, how many memories and
//! the clock. It can fill a store with noise, never store a word of its own past the gate.

use kenning_contract::types::{
    Anchor, FunctionAnchor, OffsetRadius, OffsetRange, ScanItem, Scope, Target, Verdict,
};

use super::sqlite::SqliteFiles;
use super::{Author, Backend, Badge, Event, KnowledgeStore, NewMemory, Writes};
use crate::error::{KenningError, Result};
use crate::subject::Subject;

/// A vocabulary with a long tail, so queries hit a realistic share of memories.
pub fn word(n: u64) -> String {
    const SYLLABLES: [&str; 16] = [
        "ka", "ri", "to", "mu", "sen", "do", "la", "vi", "po", "ne", "shi", "ga", "ru", "be", "zo",
        "fe",
    ];
    let mut n = n;
    let mut out = String::new();
    loop {
        out.push_str(SYLLABLES[(n % 16) as usize]);
        n /= 16;
        if n == 0 {
            return out;
        }
    }
}

/// A xorshift generator: the same seed draws the same synthetic knowledge base everywhere.
pub struct Rng(pub u64);

impl Rng {
    /// The next draw.
    pub fn draw(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Roughly Zipf-distributed word ranks below `n`.
    pub fn zipf(&mut self, n: u64) -> u64 {
        let u = (self.draw() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as u64).saturating_sub(1)
    }
}

/// Where a benchmark's knowledge bases are kept: the two backends a service can be built over.
#[derive(Debug, Clone, Copy)]
pub enum Stores<'a> {
    /// One SQLite file per subject in this directory, unencrypted.
    Files(&'a std::path::Path),
    /// The PostgreSQL database at this URL (the `postgres` feature).
    #[cfg(feature = "postgres")]
    Postgres(&'a str),
}

impl Stores<'_> {
    /// The backend, connected.
    fn backend(self) -> Result<Box<dyn Backend>> {
        Ok(match self {
            Stores::Files(dir) => Box::new(SqliteFiles::new(dir, None)),
            #[cfg(feature = "postgres")]
            Stores::Postgres(url) => Box::new(super::postgres::PostgresStore::connect(url, None)?),
        })
    }

    /// `subject`'s knowledge base, made when `create`.
    pub(crate) fn open(self, subject: &Subject, create: bool) -> Result<Box<dyn KnowledgeStore>> {
        opened(&*self.backend()?, subject, create)
    }
}

/// `subject`'s knowledge base in `backend`, made when `create`; missing is an error.
fn opened(
    backend: &dyn Backend,
    subject: &Subject,
    create: bool,
) -> Result<Box<dyn KnowledgeStore>> {
    backend
        .open(subject, create)?
        .ok_or_else(|| KenningError::Usage(format!("no knowledge base for {subject}")))
}

/// [`populate`] into the SQLite file of subject `spec` in `dir`.
pub fn populate_files(dir: &std::path::Path, spec: &str, count: usize, now: i64) -> Result<()> {
    populate(&Subject::parse(spec)?, Stores::Files(dir), count, now)
}

/// Writes `count` memories straight into `subject`'s new knowledge base in one transaction, as
/// a bulk load (the full-text index and vocabulary brought up to date once, at its end):
/// 70% local ones anchored across a 16 MiB image (functions, addresses, ranges, radii,
/// strings), 30% global.
///
/// On PostgreSQL the tables are then vacuumed and analysed, as autovacuum does soon after such a
/// load: what is measured afterwards is the database as a team server keeps it, not the load's
/// aftermath (autovacuum reading a million new rows beside the measurement).
pub fn populate(subject: &Subject, stores: Stores, count: usize, now: i64) -> Result<()> {
    let load = |backend: &dyn Backend| -> Result<()> {
        let mut kb = opened(backend, subject, true)?;
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        kb.write(|tx| tx.bulk_load(&mut |_| populate_rows(tx, &mut rng, count, now)))
    };
    match stores {
        Stores::Files(_) => load(&*stores.backend()?),
        #[cfg(feature = "postgres")]
        Stores::Postgres(url) => {
            let store = super::postgres::PostgresStore::connect(url, None)?;
            load(&store)?;
            store.settle()
        }
    }
}

/// [`populate`]'s rows, written through `tx`.
fn populate_rows(tx: &dyn Writes, rng: &mut Rng, count: usize, now: i64) -> Result<()> {
    for i in 0..count as u64 {
        let text = memory_text(rng);
        let local = i % 10 < 7;
        let function_start = (rng.draw() % 0x4000) * 0x400;
        let anchors = if !local {
            Vec::new()
        } else {
            vec![match i % 5 {
                0 => Anchor::Function(FunctionAnchor {
                    start: function_start,
                    end: Some(function_start + 0x400),
                    name: format!("fn_{function_start:x}"),
                }),
                1 => Anchor::Address {
                    offset: function_start + rng.draw() % 0x400,
                },
                2 => Anchor::Range(OffsetRange {
                    start: function_start,
                    end: function_start + 0x80,
                }),
                3 => Anchor::Near(OffsetRadius {
                    offset: function_start + 0x40,
                    radius: 0x40,
                }),
                _ => Anchor::String {
                    value: format!("str_{}", rng.draw() % 20_000),
                },
            }]
        };
        let memory = NewMemory {
            scope: if local { Scope::Local } else { Scope::Global },
            confidence: 0.8,
            anchors,
            image_base: 0x40_0000,
            ..NewMemory::new(Author::Agent, text)
        };
        let created = now - (rng.draw() % 30_000_000) as i64;
        tx.insert_memory(
            &memory,
            Badge::Native,
            created,
            &Event {
                actor: "bench",
                action: "add",
                before_hash: None,
                after_hash: None,
                detail: None,
            },
        )?;
    }
    Ok(())
}

/// Fourteen words of the bench's vocabulary that the default policy's scan stores as they are,
/// as it does every memory written through the service (these rows go straight into the
/// store): a draw it would block or redact is drawn again. The learned injection signal takes
/// about one draw in 20,000 of these syllable strings for an attack, and the import timed
/// here refuses a file holding one.
fn memory_text(rng: &mut Rng) -> String {
    loop {
        let text: Vec<String> = (0..14).map(|_| word(rng.zipf(20_000))).collect();
        // As the agent's: a text the learned signal suspects is held, and drawn again.
        let item = ScanItem {
            text: text.join(" "),
            target: Target::Memory,
            author: Author::Agent,
        };
        let verdict = kenning_policy::scan(std::slice::from_ref(&item))
            .pop()
            .map(|r| r.verdict);
        if verdict == Some(Verdict::Allow) {
            return item.text;
        }
    }
}
