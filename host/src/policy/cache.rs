//! The on-disk cache of compiled policies.
//!
//! Compiling a component with Cranelift takes ~100 ms or more; loading the compiled artefact
//! takes a fraction of that. An entry is keyed by the SHA-256 of the component's bytes and the
//! engine's compatibility hash (wasmtime version, compiler settings, CPU features), so a changed
//! policy or a new kenning never loads stale code.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use super::{DEFAULT_POLICY_SHA256, DEFAULT_POLICY_WASM};

/// How a component was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Compiled now; no cache directory was configured.
    Compiled,
    /// Compiled now and written to the cache.
    CompiledAndStored,
    /// Loaded from the cache without compiling.
    Loaded,
}

/// The file a component's compiled form lives in.
pub(crate) fn entry_path(engine: &Engine, cache_dir: &Path, wasm: &[u8]) -> PathBuf {
    let mut engine_hash = DefaultHasher::new();
    engine
        .precompile_compatibility_hash()
        .hash(&mut engine_hash);
    let digest = digest(wasm);
    let hex = crate::hex::lower(&digest);
    cache_dir.join(format!("{hex}-{:016x}.cwasm", engine_hash.finish()))
}

/// The SHA-256 of `wasm`: for the embedded default policy, the one its build computed.
fn digest(wasm: &[u8]) -> [u8; 32] {
    if std::ptr::eq(wasm, DEFAULT_POLICY_WASM) {
        *DEFAULT_POLICY_SHA256
    } else {
        Sha256::digest(wasm).into()
    }
}

/// Loads `wasm` from the cache when present, else compiles it and stores the result.
///
/// A cache entry that fails to load (truncated, from another build) is recompiled and replaced.
/// Cache write failures are not fatal: the compiled component is still returned.
pub(crate) fn load_or_compile(
    engine: &Engine,
    cache_dir: Option<&Path>,
    wasm: &[u8],
) -> wasmtime::Result<(Component, CacheOutcome)> {
    let Some(dir) = cache_dir else {
        return Ok((Component::new(engine, wasm)?, CacheOutcome::Compiled));
    };
    let path = entry_path(engine, dir, wasm);
    // Mapped, not read: the code and the policy's initial memory (megabytes of prepared
    // scanner tables) are used straight from the page cache, where reading copied them twice
    // and cost more than the rest of a one-shot command.
    // SAFETY: entries are written only by `store` below, with bytes from
    // `Engine::precompile_component`, under a name bound to the component's hash and this
    // engine's configuration; wasmtime still checks the header and version on load. They
    // are replaced only by renaming a whole new file over them, which leaves a mapped old
    // one intact; only a program that rewrote an entry in place while a kenning process
    // had it mapped could fault that process.
    if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
        return Ok((component, CacheOutcome::Loaded));
    }
    let compiled = engine.precompile_component(wasm)?;
    // SAFETY: the bytes were produced by this engine a moment ago.
    let component = unsafe { Component::deserialize(engine, &compiled)? };
    let outcome = match store(dir, &path, &compiled) {
        Ok(()) => CacheOutcome::CompiledAndStored,
        Err(_) => CacheOutcome::Compiled,
    };
    Ok((component, outcome))
}

/// Writes an entry atomically: a reader sees the old file, the new one or none, never a part.
/// The cache's folders are `0700` and its entries `0600`, like every file kenning makes.
fn store(dir: &Path, path: &Path, bytes: &[u8]) -> crate::error::Result<()> {
    crate::private::create_dir_all(dir)?;
    crate::private::write_atomically(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_the_build_wrote_is_the_sha256_of_the_embedded_policy() {
        let computed: [u8; 32] = Sha256::digest(DEFAULT_POLICY_WASM).into();
        assert_eq!(&computed, DEFAULT_POLICY_SHA256);
        assert_eq!(digest(DEFAULT_POLICY_WASM), computed);
    }

    #[test]
    fn a_copy_of_the_embedded_bytes_is_hashed_like_any_other_component() {
        let copy = DEFAULT_POLICY_WASM.to_vec();
        assert_eq!(&digest(&copy), DEFAULT_POLICY_SHA256);
        assert_ne!(digest(&copy[1..]), *DEFAULT_POLICY_SHA256);
    }
}
