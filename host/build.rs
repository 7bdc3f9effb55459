//! Builds the default policy (`guest/`) as a component and places it in `OUT_DIR`, where
//! `src/policy/mod.rs` embeds it, so the `kenning` binary works on its own; and lists each
//! backend's migrations (`src/store/*/migrations/`), so that a migration is a new file.

use std::path::{Path, PathBuf};

use sha2::Digest;

use kenning_build::{ComponentBuild, Target, build_component, rerun_if_changed};

fn main() {
    // Read when the script runs, not when it was compiled: two checkouts sharing one target
    // directory share this script's binary.
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let manifest_dir = manifest_dir.as_path();
    let root = manifest_dir.parent().expect("host/ sits in the workspace");
    rerun_if_changed(&root.join("guest/src"));
    rerun_if_changed(&root.join("guest/Cargo.toml"));
    rerun_if_changed(&root.join("contract/src"));
    rerun_if_changed(&root.join("contract/wit"));
    rerun_if_changed(&root.join("contract/Cargo.toml"));

    let wasm = build_component(&ComponentBuild {
        manifest: &root.join("Cargo.toml"),
        package: "kenning-policy",
        features: &[],
        target: Target::Lean,
    });
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for backend in ["sqlite", "postgres"] {
        list_migrations(
            &manifest_dir
                .join("src/store")
                .join(backend)
                .join("migrations"),
            &Path::new(&out_dir).join(format!("{backend}_migrations.rs")),
        );
    }
    let out = Path::new(&out_dir).join("kenning_policy.wasm");
    std::fs::copy(&wasm, &out).expect("copy the policy component into OUT_DIR");
    // The compiled-code cache is keyed by the component's SHA-256; computing it here spares
    // every process hashing megabytes at start-up.
    let bytes = std::fs::read(&out).expect("read the policy component back");
    std::fs::write(
        Path::new(&out_dir).join("kenning_policy.sha256"),
        sha2::Sha256::digest(&bytes),
    )
    .expect("write the policy component's digest into OUT_DIR");
}

/// Writes to `out` the `.sql` files of `dir` as an array of their texts, in order (the
/// `MIGRATIONS` of a backend's `schema.rs`). Their names number them from `0001_` with no gap,
/// as a store's schema version counts them.
fn list_migrations(dir: &Path, out: &Path) {
    rerun_if_changed(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a migrations folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    let mut list = String::from("&[\n");
    for (n, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let number = format!("{:04}_", n + 1);
        assert!(
            name.starts_with(&number),
            "{}: migration {} must be named {number}...sql (numbered from 0001_, no gap)",
            file.display(),
            n + 1
        );
        list.push_str(&format!(
            "    include_str!({:?}),\n",
            file.display().to_string()
        ));
    }
    list.push(']');
    std::fs::write(out, list).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
