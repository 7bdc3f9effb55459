//! Builds the hostile policy fixture as a component; the tests find it through
//! `HOSTILE_POLICY_WASM`.

use std::path::Path;

use kenning_build::{ComponentBuild, Target, build_component, rerun_if_changed};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace");
    let fixture = root.join("fixtures/hostile-policy");
    rerun_if_changed(&fixture.join("src"));
    rerun_if_changed(&fixture.join("Cargo.toml"));
    rerun_if_changed(&root.join("contract/wit"));
    let wasm = build_component(&ComponentBuild {
        manifest: &fixture.join("Cargo.toml"),
        package: "hostile-policy",
        features: &[],
        target: Target::Wasip2,
    });
    println!("cargo:rustc-env=HOSTILE_POLICY_WASM={}", wasm.display());
}
