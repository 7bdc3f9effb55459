//! Builds the policy components the end-to-end tests load, each into `OUT_DIR` under an
//! environment variable of its own:
//!
//! - `HOSTILE_POLICY_WASM`: the hostile fixture, lean (the current contract, no imports);
//! - `HOSTILE_DESCRIBE_TRAP_WASM`: the same with `describe` trapping;
//! - `HOSTILE_WASI_WASM`: the same built for wasm32-wasip2, so it imports `wasi:` interfaces;
//! - `RECENCY_POLICY_WASM`: the example policy `examples/recency-policy`, lean.

use std::path::{Path, PathBuf};

use kenning_build::{ComponentBuild, Target, build_component, rerun_if_changed, target_dir};

fn main() {
    // One compiled-policy cache for every test process, the one the host's tests use
    // (`CARGO_TARGET_TMPDIR`, `<target>/tmp`): compiling the default policy costs seconds of
    // Cranelift, loading it from the cache milliseconds.
    println!(
        "cargo:rustc-env=KENNING_TEST_POLICY_CACHE={}",
        target_dir().join("tmp").join("policy-cache").display()
    );

    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace");
    rerun_if_changed(&root.join("contract/src"));
    rerun_if_changed(&root.join("contract/wit"));
    rerun_if_changed(&root.join("contract/Cargo.toml"));

    let hostile = root.join("fixtures/hostile-policy");
    rerun_if_changed(&hostile.join("src"));
    rerun_if_changed(&hostile.join("Cargo.toml"));
    let hostile_manifest = hostile.join("Cargo.toml");
    let hostile_build = |features: &'static [&'static str], target| ComponentBuild {
        manifest: &hostile_manifest,
        package: "hostile-policy",
        features,
        target,
    };
    export(
        "HOSTILE_POLICY_WASM",
        &hostile_build(&[], Target::Lean),
        "hostile.wasm",
    );
    export(
        "HOSTILE_DESCRIBE_TRAP_WASM",
        &hostile_build(&["trap-in-describe"], Target::Lean),
        "hostile-describe-trap.wasm",
    );
    export(
        "HOSTILE_WASI_WASM",
        &hostile_build(&["wasi-clock"], Target::Wasip2),
        "hostile-wasi.wasm",
    );

    let recency = root.join("examples/recency-policy");
    rerun_if_changed(&recency.join("src"));
    rerun_if_changed(&recency.join("Cargo.toml"));
    export(
        "RECENCY_POLICY_WASM",
        &ComponentBuild {
            manifest: &recency.join("Cargo.toml"),
            package: "recency-policy",
            features: &[],
            target: Target::Lean,
        },
        "recency-policy.wasm",
    );
}

/// Builds one component and copies it into `OUT_DIR` as `name` (builds of one crate with other
/// features overwrite the nested target's file), naming the copy in `var`.
fn export(var: &str, build: &ComponentBuild<'_>, name: &str) {
    let wasm = build_component(build);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set for build scripts"))
        .join(name);
    std::fs::copy(&wasm, &out).unwrap_or_else(|err| {
        panic!(
            "could not copy {} to {}: {err}",
            wasm.display(),
            out.display()
        )
    });
    println!("cargo:rustc-env={var}={}", out.display());
}
