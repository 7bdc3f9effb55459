//! The layering rules of `docs/layers.md` that the code holds today, checked against the source:
//! a rule broken by a new import fails here, naming the file and the line. The rules between
//! crates (the library never reaches a door) are Cargo's to hold: the library cannot name a crate
//! that depends on it.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
    found
}

/// The lines of the files under `under` (a path from the workspace's root, such as
/// `host/src/store`) that name any of `forbidden`, outside comments, as `file:line: text`.
fn crossings(under: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ sits in the workspace")
        .to_path_buf();
    let path = root.join(under);
    let files = if path.is_dir() {
        sources(&path)
    } else {
        vec![path]
    };
    let mut found = Vec::new();
    // This file names what it looks for.
    for file in files.into_iter().filter(|f| !f.ends_with("layers.rs")) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if forbidden.iter().any(|name| code.contains(name)) {
                let shown = file.strip_prefix(&root).unwrap_or(&file).display();
                found.push(format!("{shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    found
}

/// The sources of the crates over the library: the doors (`docs/layers.md`).
const DOOR_CRATES: [&str; 3] = ["server/src", "cli/src", "bench/src"];

#[test]
fn the_store_never_imports_the_service_or_the_wire_shapes() {
    let found = crossings("host/src/store", &["crate::service", "crate::api"]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_wire_shapes_and_the_configuration_never_import_the_service() {
    let mut found = crossings("host/src/api.rs", &["crate::service"]);
    found.extend(crossings("host/src/config.rs", &["crate::service"]));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_policy_sandbox_never_imports_the_service() {
    let found = crossings("host/src/policy", &["crate::service"]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn shared_vocabulary_comes_from_the_contract_never_from_the_default_policy() {
    // The default policy's own functions (a native policy, the bench's synthetic data, the
    // conformance checks) are the policy's to give; its types and limits are the contract's.
    let forbidden = [
        "kenning_policy::types",
        "kenning_policy::MAX_",
        "kenning_policy::is_",
    ];
    let found: Vec<String> = std::iter::once("host/src")
        .chain(DOOR_CRATES)
        .flat_map(|crate_sources| crossings(crate_sources, &forbidden))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_checks_see_a_crossing_when_there_is_one() {
    // The bench still reaches into the store (docs/layers.md, "Broken today"): a check that
    // found nothing there would be reading nothing.
    assert!(!crossings("bench/src", &["kenning::store"]).is_empty());
}

#[test]
fn only_the_bench_crate_turns_on_the_write_past_the_rules_hook() {
    // `bench-support` writes rows past the service's rules (store::synthetic): the library
    // defines it, the bench crate alone may turn it on.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let crate_dir = manifest.parent().unwrap().file_name().unwrap();
        if crate_dir != "bench" && crate_dir != "host" && text.contains("bench-support") {
            found.push(manifest.display().to_string());
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_doors_reach_the_store_only_where_docs_layers_md_says() {
    // docs/layers.md: the bench fills stores through the `bench-support` hook. A new crossing
    // fails here; so does a fixed one, until the list (here and in the document) says so.
    let mut files: Vec<String> = DOOR_CRATES
        .iter()
        .flat_map(|crate_sources| crossings(crate_sources, &["kenning::store"]))
        .map(|crossing| crossing.split(':').next().unwrap_or_default().to_owned())
        .collect();
    files.sort();
    files.dedup();
    assert_eq!(files, ["bench/src/measure.rs"], "{files:#?}");
}

#[test]
fn the_stores_contract_and_its_backends_are_the_librarys_own() {
    // Outside the library, data is reached through the service: a public store trait or backend
    // module would let a caller read and write past the one gate.
    let mut found = crossings("host/src/store/contract.rs", &["pub trait"]);
    found.extend(crossings(
        "host/src/store/mod.rs",
        &[
            "pub mod contract",
            "pub use contract",
            "pub mod sqlite",
            "pub mod postgres",
        ],
    ));
    found.extend(crossings("host/src/service/config.rs", &["pub fn backend"]));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_rules_of_who_may_do_what_take_no_row_from_the_store() {
    let found = crossings("host/src/provenance.rs", &["crate::store"]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_two_backends_mirror_each_other_and_import_nothing_from_each_other() {
    let mut found = crossings(
        "host/src/store/postgres",
        &["rusqlite", "store::sqlite", "super::sqlite"],
    );
    found.extend(crossings(
        "host/src/store/sqlite",
        &["postgres::", "store::postgres", "super::postgres"],
    ));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_stores_neutral_core_names_neither_backend() {
    // What both backends share: the contract, the values, a memory's columns, the ranking.
    let mut found = Vec::new();
    for core in [
        "host/src/store/contract.rs",
        "host/src/store/model.rs",
        "host/src/store/rows.rs",
        "host/src/store/query_views.rs",
        "host/src/store/ranking",
    ] {
        found.extend(crossings(
            core,
            &["rusqlite", "postgres::", "sqlite::", "super::postgres"],
        ));
    }
    assert!(found.is_empty(), "{found:#?}");
}
