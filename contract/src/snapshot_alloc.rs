//! The allocator [`export_policy!`](crate::export_policy) installs in a component: two dlmalloc
//! heaps, one for [`Policy::prepare`](crate::Policy::prepare) and one for every call after it.
//!
//! A pre-initialised component starts every instance from the memory `prepare` left behind.
//! That memory holds the tables `prepare` built and, between them, the holes its temporaries
//! left when they were freed. With one heap, every later call's small allocations land in those
//! holes, scattered over megabytes of the snapshot, and each first write to one of its pages
//! costs the host a copy-on-write fault: selection on 100 candidates ran 2.4 to 10 times slower
//! than in a component without a snapshot. Sealing the first heap when `prepare` returns makes
//! every call allocate from fresh pages past the snapshot instead.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};

use dlmalloc::Dlmalloc;

/// The end of linear memory when `prepare` returned, in bytes (0 while unsealed): every block
/// below it belongs to the first heap.
static SEALED_AT: AtomicUsize = AtomicUsize::new(0);

/// Routes allocations made before [`seal`] to one heap and those made after it to another.
pub struct SnapshotAllocator {
    heaps: UnsafeCell<Heaps>,
}

struct Heaps {
    prepared: Dlmalloc,
    calls: Dlmalloc,
}

// SAFETY: a component instance runs on one thread; wasm32 without the atomics feature has no
// other.
unsafe impl Sync for SnapshotAllocator {}

impl SnapshotAllocator {
    /// An allocator whose heaps are both empty.
    pub const fn new() -> Self {
        SnapshotAllocator {
            heaps: UnsafeCell::new(Heaps {
                prepared: Dlmalloc::new(),
                calls: Dlmalloc::new(),
            }),
        }
    }

    #[allow(clippy::mut_from_ref)]
    fn heaps(&self) -> &mut Heaps {
        // SAFETY: single-threaded (see `Sync` above), and no method re-enters the allocator.
        unsafe { &mut *self.heaps.get() }
    }
}

impl Default for SnapshotAllocator {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether `ptr` was allocated before [`seal`].
fn before_seal(ptr: *mut u8) -> bool {
    (ptr as usize) < SEALED_AT.load(Ordering::Relaxed)
}

fn sealed() -> bool {
    SEALED_AT.load(Ordering::Relaxed) != 0
}

impl Heaps {
    fn for_new_blocks(&mut self) -> &mut Dlmalloc {
        if sealed() {
            &mut self.calls
        } else {
            &mut self.prepared
        }
    }

    fn owner_of(&mut self, ptr: *mut u8) -> &mut Dlmalloc {
        if before_seal(ptr) {
            &mut self.prepared
        } else {
            self.for_new_blocks()
        }
    }
}

// SAFETY: each block is freed or resized by the heap that allocated it (`owner_of`), which
// dlmalloc requires; a block moves between heaps only by allocate, copy and free.
unsafe impl GlobalAlloc for SnapshotAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            self.heaps()
                .for_new_blocks()
                .malloc(layout.size(), layout.align())
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe {
            self.heaps()
                .for_new_blocks()
                .calloc(layout.size(), layout.align())
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe {
            self.heaps()
                .owner_of(ptr)
                .free(ptr, layout.size(), layout.align())
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let heaps = self.heaps();
        if sealed() && before_seal(ptr) {
            // A table from `prepare` grows after it: move it to the calls' heap.
            unsafe {
                let moved = heaps.calls.malloc(new_size, layout.align());
                if !moved.is_null() {
                    core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                    heaps.prepared.free(ptr, layout.size(), layout.align());
                }
                moved
            }
        } else {
            unsafe {
                heaps
                    .for_new_blocks()
                    .realloc(ptr, layout.size(), layout.align(), new_size)
            }
        }
    }
}

/// Ends `prepare`'s heap: from now on, allocations come from pages past the memory's current
/// end. [`export_policy!`](crate::export_policy)'s `wizer-initialize` calls it after
/// [`Policy::prepare`](crate::Policy::prepare).
pub fn seal() {
    let end = core::arch::wasm32::memory_size(0) * 65536;
    SEALED_AT.store(end, Ordering::Relaxed);
}
