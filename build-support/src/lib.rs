//! Compiles a Rust crate to a `wasm32-wasip2` WebAssembly component from a build script.
//!
//! The host embeds the default policy and the end-to-end tests use small hostile policies; both
//! are built by the ordinary `cargo build` through this helper, so no manual step is needed.
//! The nested cargo uses its own target directory (beside the outer one) so that it never waits
//! on the lock the outer cargo holds.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target every policy component is built for.
pub const WASM_TARGET: &str = "wasm32-wasip2";

/// What to build.
pub struct ComponentBuild<'a> {
    /// The `Cargo.toml` of the crate, or of the workspace that holds it.
    pub manifest: &'a Path,
    /// The package to build.
    pub package: &'a str,
    /// Cargo features to enable, if any.
    pub features: &'a [&'a str],
}

/// Builds the component in release mode and returns the path of the `.wasm` file.
///
/// Panics with a message naming the command on failure: a build script has no better channel.
pub fn build_component(build: &ComponentBuild<'_>) -> PathBuf {
    let target_dir = nested_target_dir();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .arg("build")
        .arg("--release")
        .arg("--target")
        .arg(WASM_TARGET)
        .arg("--manifest-path")
        .arg(build.manifest)
        .arg("-p")
        .arg(build.package)
        .arg("--target-dir")
        .arg(&target_dir);
    if !build.features.is_empty() {
        command.arg("--features").arg(build.features.join(","));
    }
    // The outer cargo's settings are meant for the host build, not for this one.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_MAKEFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        command.env_remove(var);
    }
    let status = command
        .status()
        .unwrap_or_else(|err| panic!("could not run cargo to build {}: {err}", build.package));
    if !status.success() {
        panic!(
            "building the {} component failed ({status}); is the target installed? \
             run `rustup target add {WASM_TARGET}`",
            build.package
        );
    }
    let artifact = target_dir
        .join(WASM_TARGET)
        .join("release")
        .join(format!("{}.wasm", build.package.replace('-', "_")));
    assert!(
        artifact.is_file(),
        "cargo built {} but {} is missing",
        build.package,
        artifact.display()
    );
    artifact
}

/// Tells cargo to rerun the build script when anything under `path` changes.
pub fn rerun_if_changed(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

/// `<outer target dir>/wasm-components`, found from `OUT_DIR`
/// (`<target>/<profile>/build/<crate>-<hash>/out`).
fn nested_target_dir() -> PathBuf {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set for build scripts"));
    let target = out_dir
        .ancestors()
        .nth(4)
        .expect("OUT_DIR is nested in the target directory");
    target.join("wasm-components")
}
