//! Compiles a Rust crate to a WebAssembly component from a build script.
//!
//! The host embeds the default policy and the end-to-end tests use small hostile policies; both
//! are built by the ordinary `cargo build` through this helper, so no manual step is needed.
//!
//! A policy of contract 0.2 and later is built *lean*: for `wasm32-unknown-unknown`, then made a
//! component by `wit-component` from the WIT that `wit-bindgen` embedded in it. It imports
//! nothing, so the host refuses any component that does. Before that, a module exporting
//! `wizer-initialize` (every `export_policy!`) is pre-initialised: [`snapshot`] runs its
//! `Policy::prepare` once and keeps the resulting memory as the module's initial state.
//! `wasm32-wasip2` remains for the components of contract 0.1.0, whose std imports WASI.
//! The nested cargo uses its own target directory (beside the outer one) so that it never waits
//! on the lock the outer cargo holds.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod snapshot;

/// How a component is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `wasm32-unknown-unknown`, componentised here: no imports at all.
    Lean,
    /// `wasm32-wasip2`: Rust's std imports WASI interfaces (contract 0.1.0 components).
    Wasip2,
}

impl Target {
    /// The Rust target triple.
    pub fn triple(self) -> &'static str {
        match self {
            Target::Lean => "wasm32-unknown-unknown",
            Target::Wasip2 => "wasm32-wasip2",
        }
    }
}

/// What to build.
pub struct ComponentBuild<'a> {
    /// The `Cargo.toml` of the crate, or of the workspace that holds it.
    pub manifest: &'a Path,
    /// The package to build.
    pub package: &'a str,
    /// Cargo features to enable, if any.
    pub features: &'a [&'a str],
    /// The target.
    pub target: Target,
}

/// Builds the component in release mode and returns the path of the component's `.wasm` file.
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
        .arg(build.target.triple())
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
             run `rustup target add {}`",
            build.package,
            build.target.triple()
        );
    }
    let artifact = target_dir
        .join(build.target.triple())
        .join("release")
        .join(format!("{}.wasm", build.package.replace('-', "_")));
    assert!(
        artifact.is_file(),
        "cargo built {} but {} is missing",
        build.package,
        artifact.display()
    );
    match build.target {
        Target::Wasip2 => artifact,
        Target::Lean => componentise(&pre_initialised(&artifact)),
    }
}

/// The core module at `module`, pre-initialised (see [`snapshot`]) beside it as
/// `<name>.init.wasm` when it exports [`snapshot::INIT_EXPORT`]; else `module` itself.
fn pre_initialised(module: &Path) -> PathBuf {
    let bytes = std::fs::read(module)
        .unwrap_or_else(|err| panic!("could not read {}: {err}", module.display()));
    match snapshot::pre_initialise(&bytes) {
        Ok(None) => module.to_owned(),
        Ok(Some(snapshot)) => {
            let out = module.with_extension("init.wasm");
            std::fs::write(&out, snapshot)
                .unwrap_or_else(|err| panic!("could not write {}: {err}", out.display()));
            out
        }
        Err(err) => panic!("could not pre-initialise {}: {err}", module.display()),
    }
}

/// Makes the core module at `module` a component (beside it, `<name>.component.wasm`) from the
/// component type `wit-bindgen` embedded in it.
fn componentise(module: &Path) -> PathBuf {
    let bytes = std::fs::read(module)
        .unwrap_or_else(|err| panic!("could not read {}: {err}", module.display()));
    let component = wit_component::ComponentEncoder::default()
        .validate(true)
        .module(&bytes)
        .and_then(|mut encoder| encoder.encode())
        .unwrap_or_else(|err| panic!("could not make {} a component: {err:#}", module.display()));
    let out = module.with_extension("component.wasm");
    std::fs::write(&out, component)
        .unwrap_or_else(|err| panic!("could not write {}: {err}", out.display()));
    out
}

/// Tells cargo to rerun the build script when anything under `path` changes.
pub fn rerun_if_changed(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

/// `<outer target dir>/wasm-components`.
fn nested_target_dir() -> PathBuf {
    target_dir().join("wasm-components")
}

/// The outer build's target directory, found from the build script's `OUT_DIR`
/// (`<target>/<profile>/build/<crate>-<hash>/out`).
pub fn target_dir() -> PathBuf {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set for build scripts"));
    out_dir
        .ancestors()
        .nth(4)
        .expect("OUT_DIR is nested in the target directory")
        .to_owned()
}
