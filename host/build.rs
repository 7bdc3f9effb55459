//! Builds the default policy (`guest/`) as a component and places it in `OUT_DIR`, where
//! `src/policy/mod.rs` embeds it, so the `kenning` binary works on its own.

use std::path::Path;

use sha2::Digest;

use kenning_build::{ComponentBuild, Target, build_component, rerun_if_changed};

fn main() {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
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
