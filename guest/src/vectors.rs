//! Synthetic workloads: the same turn and candidates, and the same texts to scan, every time,
//! for benchmarks and for golden vectors that compare builds of a policy (sandboxed, native, in
//! a browser).

use crate::types::{
    Anchor, Candidate, Context, FunctionAnchor, LiveFunction, MemoryKind, ScanItem, Scope,
    StoredMemory, SubjectKind, Target,
};
use kenning_contract::args::{Author, Badge};

/// The authors the workload's candidates cycle through: every one a host may inject.
const AUTHORS: [Author; 5] = [
    Author::Agent,
    Author::Human,
    Author::Triage,
    Author::External,
    Author::Peer,
];

/// The texts `kenning bench` scans: 256 texts of about 1 KB, each twelve of six lines of prose,
/// notes and configuration (some holding secrets).
pub fn scan_workload() -> Vec<ScanItem> {
    let lines = [
        "Caroline said she went to the LGBTQ support group yesterday and it was so powerful.",
        "sub_401000 walks the import table and resolves ws2_32 ordinals before the beacon loop.",
        "The config blob at 0x40a000 is RC4-encrypted; md5 d41d8cd98f00b204e9800998ecf8427e.",
        "aws_access_key_id = AKIA4HJ2K7LMNPQ5RSTU and the region is eu-west-1 for the staging bucket.",
        "Melanie: I've been painting landscapes lately, mostly sunsets by the lake near our house!",
        "DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/app is read at start-up.",
    ];
    (0..256)
        .map(|i| {
            let text: Vec<&str> = (0..12).map(|j| lines[(i * 7 + j) % lines.len()]).collect();
            ScanItem {
                text: text.join(" "),
                target: Target::Memory,
                author: AUTHORS[i % AUTHORS.len()],
            }
        })
        .collect()
}

/// A stored global fact with `text`, created (and last changed) at `created_at`, confidence 0.8,
/// no tags or anchors: the plain memory that consolidation inputs are built from.
pub fn stored_fact(id: u64, text: &str, created_at: i64) -> StoredMemory {
    StoredMemory {
        id,
        scope: Scope::Global,
        kind: MemoryKind::Fact,
        target: None,
        day: None,
        text: text.to_owned(),
        tags: Vec::new(),
        confidence: 0.8,
        created_at,
        updated_at: created_at,
        anchors: Vec::new(),
        pending: false,
    }
}

/// A deterministic turn over `n` candidates: a third anchored near the cursor, a third
/// matching the query, a third global.
pub fn workload(n: usize) -> (Context, Vec<Candidate>) {
    let mut context = Context::at(1_790_000_000, SubjectKind::Binary);
    context.image_base = 0x40_0000;
    context.cursor = Some(0x40_1050);
    context.current_function = Some(LiveFunction {
        start: 0x40_1000,
        end: 0x40_1200,
        name: "decrypt_config".into(),
    });
    context.query = "where is the config decrypted".into();
    let words = [
        "config", "decrypt", "key", "buffer", "parse", "header", "network", "socket", "rc4", "xor",
        "loop", "table",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let candidates = (0..n as u64)
        .map(|i| {
            let text: Vec<&str> = (0..16)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect();
            let (scope, anchors) = match i % 3 {
                0 => (
                    Scope::Local,
                    vec![Anchor::Function(FunctionAnchor {
                        start: 0x1000 + (next() % 4) * 0x200,
                        end: None,
                        name: "decrypt_config".into(),
                    })],
                ),
                1 => (
                    Scope::Local,
                    vec![Anchor::Address {
                        offset: next() % 0x10000,
                    }],
                ),
                _ => (Scope::Global, Vec::new()),
            };
            Candidate {
                id: i + 1,
                scope,
                kind: MemoryKind::Fact,
                author: AUTHORS[(i % AUTHORS.len() as u64) as usize],
                badge: if i % 7 == 3 {
                    Badge::Foreign
                } else {
                    Badge::Native
                },
                text: format!("memory {i}: {}", text.join(" ")),
                tags: vec!["re".into()],
                confidence: 0.5 + (next() % 50) as f32 / 100.0,
                created_at: 1_780_000_000 - (next() % 10_000_000) as i64,
                updated_at: 1_780_000_000,
                anchors,
                lexical_score: if i % 3 == 1 {
                    (next() % 100) as f32 / 10.0
                } else {
                    0.0
                },
            }
        })
        .collect();
    (context, candidates)
}
