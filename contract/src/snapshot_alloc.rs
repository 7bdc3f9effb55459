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
//!
//! Those pages are grown when the heap is sealed, so that they are part of every instance's
//! initial memory (as zeros, which the snapshot does not store). Grown by the first call
//! instead, they cost every fresh instance two changes of its memory's protection in the host:
//! one when the call grows the memory and one when the next instance in the slot starts at the
//! smaller size again.
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};

use dlmalloc::{Allocator, Dlmalloc};

/// The end of linear memory when `prepare` returned, in bytes (0 while unsealed): every block
/// below it belongs to the first heap.
static SEALED_AT: AtomicUsize = AtomicUsize::new(0);

/// WebAssembly pages grown for the calls' heap when the first heap is sealed (2 MiB): the
/// default policy's selection over a thousand candidates fits without growing the memory.
const CALLS_RESERVE_PAGES: usize = 32;

/// Bytes in a WebAssembly page.
const PAGE_BYTES: usize = 65536;

/// Where the pages grown at [`seal`] start (0 when there are none, or once the calls' heap has
/// taken them).
static CALLS_RESERVE_AT: AtomicUsize = AtomicUsize::new(0);

/// Routes allocations made before [`seal`] to one heap and those made after it to another.
pub struct SnapshotAllocator {
    heaps: UnsafeCell<Heaps>,
}

struct Heaps {
    prepared: Dlmalloc,
    calls: Dlmalloc<CallsPages>,
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
                calls: Dlmalloc::new_with_allocator(CallsPages),
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

// SAFETY: each block is freed or resized by the heap that allocated it (before the seal, or
// below its address, the first; else the second), which dlmalloc requires; a block moves
// between heaps only by allocate, copy and free.
unsafe impl GlobalAlloc for SnapshotAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let heaps = self.heaps();
        let (size, align) = (layout.size(), layout.align());
        unsafe {
            if sealed() {
                heaps.calls.malloc(size, align)
            } else {
                heaps.prepared.malloc(size, align)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let heaps = self.heaps();
        let (size, align) = (layout.size(), layout.align());
        unsafe {
            if sealed() {
                heaps.calls.calloc(size, align)
            } else {
                heaps.prepared.calloc(size, align)
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let heaps = self.heaps();
        let (size, align) = (layout.size(), layout.align());
        unsafe {
            if sealed() && !before_seal(ptr) {
                heaps.calls.free(ptr, size, align)
            } else {
                heaps.prepared.free(ptr, size, align)
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let heaps = self.heaps();
        let (size, align) = (layout.size(), layout.align());
        unsafe {
            if !sealed() {
                heaps.prepared.realloc(ptr, size, align, new_size)
            } else if before_seal(ptr) {
                // A table from `prepare` grows after it: move it to the calls' heap.
                let moved = heaps.calls.malloc(new_size, align);
                if !moved.is_null() {
                    core::ptr::copy_nonoverlapping(ptr, moved, size.min(new_size));
                    heaps.prepared.free(ptr, size, align);
                }
                moved
            } else {
                heaps.calls.realloc(ptr, size, align, new_size)
            }
        }
    }
}

/// Ends `prepare`'s heap: from now on, allocations come from pages past the memory's current
/// end, the first of them grown now. [`export_policy!`](crate::export_policy)'s
/// `wizer-initialize` calls it after [`Policy::prepare`](crate::Policy::prepare).
pub fn seal() {
    let end = core::arch::wasm32::memory_size(0) * PAGE_BYTES;
    SEALED_AT.store(end, Ordering::Relaxed);
    let reserved = core::arch::wasm32::memory_grow(0, CALLS_RESERVE_PAGES);
    if reserved != usize::MAX {
        CALLS_RESERVE_AT.store(reserved * PAGE_BYTES, Ordering::Relaxed);
    }
}

/// Where the calls' heap gets memory: the pages grown at [`seal`], the first time it asks for
/// no more than they hold; else pages grown then, as dlmalloc's own source on WebAssembly does.
struct CallsPages;

// SAFETY: the reserved pages are handed out once, whole, and nothing else uses them; every
// other region is grown for the request and handed out whole.
unsafe impl Allocator for CallsPages {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let reserved = CALLS_RESERVE_PAGES * PAGE_BYTES;
        if size <= reserved {
            let at = CALLS_RESERVE_AT.swap(0, Ordering::Relaxed);
            if at != 0 {
                return (at as *mut u8, reserved, 0);
            }
        }
        let pages = size.div_ceil(PAGE_BYTES);
        match core::arch::wasm32::memory_grow(0, pages) {
            usize::MAX => (core::ptr::null_mut(), 0, 0),
            // The last bytes of a full 4 GiB memory (65,536 pages) are left out: a region may
            // not end at address 0.
            first if first + pages == 65536 => {
                ((first * PAGE_BYTES) as *mut u8, pages * PAGE_BYTES - 16, 0)
            }
            first => ((first * PAGE_BYTES) as *mut u8, pages * PAGE_BYTES, 0),
        }
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        core::ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        // Grown pages are zeros, and so are the reserved ones until the heap writes there.
        true
    }

    fn page_size(&self) -> usize {
        PAGE_BYTES
    }
}
