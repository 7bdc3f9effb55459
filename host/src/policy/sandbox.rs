//! What each policy call's wasmtime store holds: the memory cap, which traps a component that
//! grows past it and remembers that it did, so the error can say so. The adapter of each contract
//! version (`v0_1` .. `v0_4`) and the component loader share it.

use wasmtime::ResourceLimiter;

/// What each policy call's store holds.
pub struct Sandbox {
    limiter: MemoryCap,
}

impl Sandbox {
    /// A sandbox whose memory may grow to `cap` bytes.
    pub(super) fn new(cap: usize) -> Sandbox {
        Sandbox {
            limiter: MemoryCap { cap, hit: false },
        }
    }

    /// The limiter a store installs (`Store::limiter`).
    pub(super) fn limiter(&mut self) -> &mut dyn ResourceLimiter {
        &mut self.limiter
    }

    /// Whether the component tried to grow its memory past the cap.
    pub(super) fn hit_memory_cap(&self) -> bool {
        self.limiter.hit
    }
}

/// A limiter that traps (rather than failing `memory.grow` quietly) past the cap and remembers
/// that it did.
struct MemoryCap {
    cap: usize,
    hit: bool,
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.cap {
            self.hit = true;
            wasmtime::bail!("memory cap of {} bytes reached", self.cap);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 100_000)
    }
}
