//! A differential test of [`validate`]: `differential.jsonl` holds inputs with the result the
//! validator returned for each when it still parsed into `serde_json::Value` (a sorted map per
//! object), and every one must still come out byte for byte the same.
//!
//! The inputs are the fuzz seeds (`fuzz/seeds/validate`), the inputs of this crate's unit tests,
//! and mutations of realistic calls and records built by [`mutations`]: fields dropped, nulled,
//! repeated or retyped, unknown fields in several positions, escapes in keys and strings,
//! broken or trailing text, and the same for anchors and extraction items nested inside.
//!
//! `cargo test -p kenning-policy -- --ignored add_new_cases_to_the_fixture` appends the cases
//! the fixture lacks (it never rewrites a recorded result, and fails if one has changed).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{schemas, validate};

const FIXTURE_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/validate/differential.jsonl"
);
const SEEDS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/seeds/validate");

/// What `validate` returned: the canonical JSON, or every error as (path, message).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Outcome {
    Ok(String),
    Err(Vec<(String, String)>),
}

/// One recorded call and its result.
#[derive(Debug, Serialize, Deserialize)]
struct Case {
    tool: String,
    input: String,
    expected: Outcome,
}

fn outcome(tool: &str, input: &str) -> Outcome {
    match validate(tool, input) {
        Ok(call) => {
            assert_eq!(call.tool, tool);
            Outcome::Ok(call.args_json)
        }
        Err(errors) => Outcome::Err(errors.into_iter().map(|e| (e.path, e.message)).collect()),
    }
}

fn recorded_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(FIXTURE_PATH).unwrap_or_default();
    text.lines()
        .map(|line| serde_json::from_str(line).expect("fixture line is a case"))
        .collect()
}

#[test]
fn every_recorded_input_validates_exactly_as_the_serde_json_value_validator_did() {
    let cases = recorded_cases();
    assert!(cases.len() > 3000, "fixture holds {} cases", cases.len());
    let differing: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let got = outcome(&case.tool, &case.input);
            (got != case.expected).then(|| {
                format!(
                    "{} {:?}\n  expected {:?}\n  got      {:?}",
                    case.tool, case.input, case.expected, got
                )
            })
        })
        .collect();
    assert!(
        differing.is_empty(),
        "{} of {} cases differ; the first:\n{}",
        differing.len(),
        cases.len(),
        differing[..differing.len().min(5)].join("\n")
    );
}

#[test]
fn the_fixture_covers_every_fuzz_seed_and_mutation() {
    let recorded: BTreeSet<(String, String)> = recorded_cases()
        .into_iter()
        .map(|case| (case.tool, case.input))
        .collect();
    let missing: Vec<_> = candidate_inputs()
        .into_iter()
        .filter(|case| !recorded.contains(case))
        .collect();
    assert!(missing.is_empty(), "not in the fixture: {missing:?}");
}

/// Appends to the fixture the inputs it does not hold yet, with today's results; also reads
/// `(tool, input)` pairs, one JSON array a line, from the file named by `DIFFERENTIAL_EXTRA`.
#[test]
#[ignore = "a tool, not a check: it rewrites the fixture (run with --ignored to add cases)"]
fn add_new_cases_to_the_fixture() {
    let mut cases = recorded_cases();
    for case in &cases {
        assert_eq!(
            outcome(&case.tool, &case.input),
            case.expected,
            "{} {:?}",
            case.tool,
            case.input
        );
    }
    let mut seen: BTreeSet<(String, String)> = cases
        .iter()
        .map(|case| (case.tool.clone(), case.input.clone()))
        .collect();
    let mut inputs = candidate_inputs();
    if let Ok(path) = std::env::var("DIFFERENTIAL_EXTRA") {
        let extra = std::fs::read_to_string(path).expect("DIFFERENTIAL_EXTRA is readable");
        for line in extra.lines() {
            let (tool, input): (String, String) = serde_json::from_str(line).expect("a pair");
            // Inputs past the size limits are refused before parsing; a few stand for them all.
            if input.len() <= 20_000 {
                inputs.push((tool, input));
            }
        }
    }
    for (tool, input) in inputs {
        if seen.insert((tool.clone(), input.clone())) {
            let expected = outcome(&tool, &input);
            cases.push(Case {
                tool,
                input,
                expected,
            });
        }
    }
    let mut out = String::new();
    for case in &cases {
        out.push_str(&serde_json::to_string(case).expect("a case serialises"));
        out.push('\n');
    }
    std::fs::write(FIXTURE_PATH, out).expect("fixture written");
}

/// The fuzz seeds and the mutations, as (tool, input).
fn candidate_inputs() -> Vec<(String, String)> {
    let mut inputs = Vec::new();
    let mut seeds: Vec<_> = std::fs::read_dir(SEEDS_DIR)
        .expect("fuzz seeds present")
        .map(|entry| entry.expect("seed entry").path())
        .collect();
    seeds.sort();
    let by_pick: Vec<&str> = schemas().collect();
    for path in seeds {
        let bytes = std::fs::read(&path).expect("seed readable");
        let Some((&pick, rest)) = bytes.split_first() else {
            continue;
        };
        if let Ok(text) = std::str::from_utf8(rest) {
            let tool = by_pick[pick as usize % by_pick.len()];
            inputs.push((tool.to_string(), text.to_string()));
        }
    }
    inputs.extend(mutations());
    inputs
}

/// An object as written: (key as JSON text with its quotes, value as JSON text), in order.
type Fields = Vec<(String, String)>;

fn fields(pairs: &[(&str, &str)]) -> Fields {
    pairs
        .iter()
        .map(|(key, value)| (format!("\"{key}\""), value.to_string()))
        .collect()
}

fn render(fields: &Fields) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    format!("{{{}}}", body.join(","))
}

/// Values put in place of a field's value.
const REPLACEMENTS: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "1.0",
    "1.5",
    "-0",
    "-0.0",
    "0.0",
    "1e3",
    "2E-1",
    "0.8",
    "1e-400",
    "1e400",
    "4198400",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "\"\"",
    "\"  \"",
    "\"x\"",
    "\"global\"",
    "\"LOCAL \"",
    "\"0x401000\"",
    "\"4198400\"",
    "\"\\u0066act\"",
    "\"a\\nb\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud800\"",
    "[]",
    "[1]",
    "[\"a\",\"A\",\"#a\"]",
    "[null]",
    "{}",
    "{\"kind\":\"address\",\"address\":1}",
    "{\"a\":1,\"a\":2}",
];

/// Keys of fields no schema allows, chosen to sort before, between and after the real ones.
const UNKNOWN_KEYS: &[&str] = &["zz", "Text", "a", "text ", "", "é", "_", "~", "\\u0041"];

/// Every mutation of one object: the calls made from it by `wrap`, which places the mutated
/// object where it belongs (the whole call, an anchor inside a record, an extraction item).
fn mutate(base: &Fields, wrap: &dyn Fn(String) -> String, full: bool) -> Vec<String> {
    let mut out = vec![wrap(render(base))];
    let replacements: Vec<&str> = if full {
        REPLACEMENTS.to_vec()
    } else {
        REPLACEMENTS.iter().copied().step_by(4).collect()
    };
    for i in 0..base.len() {
        let mut dropped = base.clone();
        dropped.remove(i);
        out.push(wrap(render(&dropped)));

        for value in &replacements {
            let mut changed = base.clone();
            changed[i].1 = value.to_string();
            out.push(wrap(render(&changed)));
        }

        let mut twice = base.clone();
        twice.insert(i + 1, base[i].clone());
        out.push(wrap(render(&twice)));
        let mut twice_apart = base.clone();
        twice_apart.push((base[i].0.clone(), "null".to_string()));
        out.push(wrap(render(&twice_apart)));

        // The key spelt with an escape: the same name once decoded.
        let key = &base[i].0;
        let escaped = format!("\"\\u{:04x}{}", key.as_bytes()[1], &key[2..]);
        let mut renamed = base.clone();
        renamed[i].0 = escaped.clone();
        out.push(wrap(render(&renamed)));
        renamed.push((key.clone(), base[i].1.clone()));
        out.push(wrap(render(&renamed)));

        if let Some(inner) = base[i]
            .1
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
        {
            for value in [
                format!("\"\\u0020{inner}\""),
                format!("\"{inner}\\t\""),
                format!("\"\\\"{inner}\""),
                format!("\" {}\"", inner.to_uppercase()),
            ] {
                let mut changed = base.clone();
                changed[i].1 = value;
                out.push(wrap(render(&changed)));
            }
        }
    }
    for (n, unknown) in UNKNOWN_KEYS.iter().enumerate() {
        let places = if n < 3 {
            vec![0, base.len() / 2, base.len()]
        } else {
            vec![base.len() / 2]
        };
        for at in places {
            let mut extra = base.clone();
            extra.insert(at, (format!("\"{unknown}\""), n.to_string()));
            out.push(wrap(render(&extra)));
        }
    }
    // Several unknown fields out of order, with errors in known fields between them.
    let mut messy = base.clone();
    messy.insert(0, ("\"zeta\"".into(), "1".into()));
    messy.push(("\"alpha\"".into(), "{\"x\":[1,{\"y\":null}]}".into()));
    messy.insert(base.len() / 2, ("\"Mid\"".into(), "null".into()));
    out.push(wrap(render(&messy)));
    for i in (0..base.len()).step_by(2) {
        messy[i + 1].1 = "\"?\"".into();
    }
    out.push(wrap(render(&messy)));
    let mut all_null = base.clone();
    for field in &mut all_null {
        field.1 = "null".into();
    }
    out.push(wrap(render(&all_null)));
    let mut reversed = base.clone();
    reversed.reverse();
    out.push(wrap(render(&reversed)));
    out
}

/// Mutations of a whole document's text: spacing, trailing text, truncation.
fn text_mutations(text: &str) -> Vec<String> {
    let spaced = text
        .replace(",\"", ",\n  \"")
        .replace("\":", "\" : ")
        .replace('{', "{ ");
    let mut out = vec![
        spaced,
        format!(" \n\t{text}\r\n "),
        format!("{text} x"),
        format!("{text}{{}}"),
        format!("{text},"),
        format!("{text}]"),
        format!("[{text}]"),
        text.replacen('{', "{\"kind\":1,", 1),
    ];
    for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
        if text.is_char_boundary(cut) {
            out.push(text[..cut].to_string());
        }
    }
    out
}

/// The records of the benchmark of an import, and calls of every tool.
fn bases() -> Vec<(&'static str, Fields)> {
    vec![
        (
            "import-record",
            fields(&[
                ("format", "\"kenning-memory/1\""),
                ("id", "2"),
                ("scope", "\"local\""),
                ("type", "\"fact\""),
                ("text", "\"sub_401000 resolves ws2_32\""),
                ("tags", "[\"net\",\"c2\"]"),
                ("categories", "[]"),
                ("confidence", "0.8"),
                (
                    "anchors",
                    "[{\"kind\":\"function\",\"start\":4198400,\"end\":4199424,\"name\":\"fn_401000\"}]",
                ),
                ("image_base", "0"),
                ("author", "\"human\""),
                ("badge", "\"native\""),
                ("status", "\"active\""),
                (
                    "content_hash",
                    "\"ee95e048dd0f7d14b44f14a5b162e8d79d6fbfe089261fee0385cb2fc95f0987\"",
                ),
                ("created_at", "1796262002"),
                ("updated_at", "1796262002"),
            ]),
        ),
        (
            "import-record",
            fields(&[
                ("format", "\"kenning-memory/1\""),
                ("id", "1"),
                ("scope", "\"global\""),
                ("type", "\"fact\""),
                ("text", "\"beacons over dns\""),
                ("tags", "[]"),
                ("categories", "[]"),
                ("confidence", "0.8"),
                ("anchors", "[]"),
                ("image_base", "0"),
                ("author", "\"human\""),
                ("badge", "\"native\""),
                ("status", "\"active\""),
                (
                    "content_hash",
                    "\"c53bd0a9a4432c508f5ebc988e285238dc6a43562564aaa5acaa5461fe557526\"",
                ),
                ("created_at", "1796262002"),
                ("updated_at", "1796262002"),
            ]),
        ),
        (
            "import-record",
            fields(&[
                ("updated_at", "1700000500"),
                ("target", "\"daily\""),
                ("day", "\"2024-02-29\""),
                ("format", "\"kenning-memory/1\""),
                ("id", "42"),
                ("scope", "\"global\""),
                ("type", "\"Context\""),
                ("text", "\"  decrypt_config uses RC4\\n\""),
                ("tags", "[\"#Crypto\",\"crypto\",\"rc4\"]"),
                ("categories", "[\"malware\",\"malware\"]"),
                ("confidence", "1"),
                ("author", "\"peer\""),
                ("badge", "\"INBOUND_PENDING\""),
                ("status", "\"superseded\""),
                ("thread", "\"t-7\""),
                (
                    "content_hash",
                    "\"9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08\"",
                ),
                ("supersedes", "41"),
                ("created_at", "1700000000"),
            ]),
        ),
        (
            "remember",
            fields(&[
                ("text", "\" decrypts the config \""),
                ("image_base", "\"0x400000\""),
                (
                    "anchors",
                    "[{\"kind\":\"function\",\"start\":\"0x401000\",\"name\":\"sub_401000\"},{\"kind\":\"near\",\"address\":4198416,\"radius\":32}]",
                ),
                ("type", "\"Context\""),
                ("tags", "[\"#Crypto\",\"crypto\",\"xor:key\"]"),
                ("categories", "[\"malware\",\" malware \"]"),
                ("confidence", "1"),
                ("thread", "\"t-1\""),
                ("scope", "\"local\""),
            ]),
        ),
        (
            "revise_memory",
            fields(&[
                ("id", "7"),
                ("text", "\"x\""),
                ("type", "\"fact\""),
                ("tags", "[\"a\"]"),
                ("categories", "[\"c\"]"),
                ("confidence", "0.5"),
                ("anchors", "[{\"kind\":\"string\",\"value\":\" key \"}]"),
                ("image_base", "0"),
                ("reason", "\" why \""),
                ("thread", "\"t\""),
            ]),
        ),
        (
            "forget_memory",
            fields(&[("id", "12"), ("reason", "\"dup\""), ("thread", "\"t-2\"")]),
        ),
        (
            "recall",
            fields(&[
                ("query", "\" xor key \""),
                ("scope", "\"local\""),
                ("type", "\"fact\""),
                ("tags", "[\"#c2\"]"),
                ("categories", "[\"net\"]"),
                ("anchor", "{\"kind\":\"address\",\"address\":\"0x401000\"}"),
                ("image_base", "\"0x400000\""),
                ("limit", "100"),
                ("offset", "20"),
                ("thread", "\"t\""),
            ]),
        ),
        (
            "memory",
            fields(&[
                ("action", "\"replace\""),
                ("target", "\"memory\""),
                ("content", "\"b\""),
                ("old_text", "\"a\""),
                ("thread", "\"t\""),
            ]),
        ),
        (
            "extraction",
            fields(&[(
                "memories",
                "[{\"text\":\"a\",\"reason\":\"r\"},{\"text\":\"y\",\"scope\":\"local\",\"anchors\":[{\"kind\":\"address\",\"address\":1}]}]",
            )]),
        ),
    ]
}

/// One anchor of each kind.
fn anchor_bases() -> Vec<Fields> {
    vec![
        fields(&[
            ("kind", "\"function\""),
            ("start", "\"0x401000\""),
            ("end", "4199424"),
            ("name", "\" fn_401000 \""),
        ]),
        fields(&[
            ("start", "\"0x401000\""),
            ("kind", "\"range\""),
            ("end", "\"0x401010\""),
        ]),
        fields(&[("kind", "\"Address\""), ("address", "\"0x401234\"")]),
        fields(&[
            ("radius", "64"),
            ("address", "4198416"),
            ("kind", "\"near\""),
        ]),
        fields(&[("kind", "\"string\""), ("value", "\" Bad key \"")]),
    ]
}

/// Every mutated input, as (tool, input).
fn mutations() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (n, (tool, base)) in bases().into_iter().enumerate() {
        let same = |text: String| text;
        for text in mutate(&base, &same, n == 0) {
            out.push((tool.to_string(), text));
        }
        for text in text_mutations(&render(&base)) {
            out.push((tool.to_string(), text));
        }
    }
    let carriers: [(&str, &dyn Fn(String) -> String); 3] = [
        ("import-record", &|anchor| {
            format!(
                "{{\"format\":\"kenning-memory/1\",\"id\":2,\"scope\":\"local\",\"type\":\"fact\",\"text\":\"t\",\"confidence\":0.8,\"anchors\":[{{\"kind\":\"address\",\"address\":\"0x400001\"}},{anchor}],\"image_base\":\"0x400000\",\"author\":\"human\",\"created_at\":1,\"updated_at\":2}}"
            )
        }),
        ("recall", &|anchor| {
            format!("{{\"anchor\":{anchor},\"image_base\":4194304,\"limit\":5}}")
        }),
        ("remember", &|anchor| {
            format!("{{\"anchors\":[{anchor},{anchor}],\"text\":\"x\"}}")
        }),
    ];
    for (k, anchor) in anchor_bases().into_iter().enumerate() {
        for (c, (tool, wrap)) in carriers.iter().enumerate() {
            for text in mutate(&anchor, wrap, (k + c) % 3 == 0) {
                out.push((tool.to_string(), text));
            }
        }
    }
    let item = fields(&[
        ("text", "\" prefers terse answers \""),
        ("type", "\"preference\""),
        ("reason", "\" said so twice \""),
        (
            "anchors",
            "[{\"kind\":\"address\",\"address\":\"0x401000\"}]",
        ),
        ("image_base", "\"0x400000\""),
        ("tags", "[\"#RC4\"]"),
        ("confidence", "0.9"),
    ]);
    let in_extraction = |item: String| format!("{{\"memories\":[{{\"text\":\"first\"}},{item}]}}");
    for text in mutate(&item, &in_extraction, true) {
        out.push(("extraction".to_string(), text));
    }
    for text in [
        "",
        " ",
        "null",
        "[]",
        "{}",
        "1",
        "\"x\"",
        "true",
        "{",
        "}",
        "{\"\":1}",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "[1,]",
        "\u{feff}{}",
        "{\"a\":1}\u{0}",
        "{} {}",
        "//\n{}",
    ] {
        for tool in schemas() {
            out.push((tool.to_string(), text.to_string()));
        }
    }
    out
}
