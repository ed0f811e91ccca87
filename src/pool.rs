//! The binary's global allocator: per-thread free lists for small blocks over the system
//! allocator.
//!
//! Why: a litmus test allocates about a thousand small blocks (relations, sets, events)
//! and frees them all at the end. glibc's malloc spends about 200 instructions on each
//! round trip in that pattern (its per-size caches hold 7 blocks; the rest go through bins
//! that it consolidates whenever a block over 1 KiB is asked for), a third of a run's
//! instructions. Here a small block is a pop and a push on a list of the calling thread.
//!
//! Design: `dealloc` is told the block's layout, so no block needs a header; the size class
//! is the size rounded up to 16 bytes. A freed block of up to [`MAX`] bytes, aligned to at
//! most 16, goes onto the list of its class in the thread that frees it, unless that list
//! already holds [`KEEP`] blocks; an allocation of that class pops the list, and only when
//! it is empty asks the system, for the class's full size. Blocks migrate between threads
//! harmlessly, and the lists bound what the pool holds back from the system.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::null_mut;

/// The largest block served from the pool.
const MAX: usize = 512;
const CLASSES: usize = MAX / 16;
/// The most free blocks a thread keeps per class; the rest go back to the system.
const KEEP: u32 = 1024;

pub struct Pool;

/// One thread's lists: for each class, the first free block (whose first word points to
/// the next) and how many blocks the list holds.
struct Lists {
    free: [Cell<*mut u8>; CLASSES],
    len: [Cell<u32>; CLASSES],
}

thread_local! {
    static LISTS: Lists = const {
        Lists {
            free: [const { Cell::new(null_mut()) }; CLASSES],
            len: [const { Cell::new(0) }; CLASSES],
        }
    };
}

fn class(layout: Layout) -> Option<usize> {
    (layout.size() <= MAX && layout.align() <= 16 && layout.size() > 0).then(|| layout.size().div_ceil(16) - 1)
}

/// The layout the system is asked for, for every block of class `c`.
fn class_layout(c: usize) -> Layout {
    // SAFETY: a size of at most MAX, rounded to 16, with alignment 16 (a power of two).
    unsafe { Layout::from_size_align_unchecked((c + 1) * 16, 16) }
}

// SAFETY: a block of class c is always a system block of `class_layout(c)`, at least
// `layout.size()` bytes and 16-aligned, never on a list while in use; `dealloc` recomputes
// the class from the same layout `alloc` was given.
unsafe impl GlobalAlloc for Pool {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(c) = class(layout) else {
            return unsafe { System.alloc(layout) };
        };
        let popped = LISTS.try_with(|l| {
            let head = l.free[c].get();
            if !head.is_null() {
                // SAFETY: a free block holds the address of the next one in its first word.
                l.free[c].set(unsafe { *(head as *mut *mut u8) });
                l.len[c].set(l.len[c].get() - 1);
            }
            head
        });
        match popped {
            Ok(head) if !head.is_null() => head,
            _ => unsafe { System.alloc(class_layout(c)) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(c) = class(layout) else {
            return unsafe { System.dealloc(ptr, layout) };
        };
        let kept = LISTS.try_with(|l| {
            if l.len[c].get() >= KEEP {
                return false;
            }
            // SAFETY: the block is at least 16 bytes and 16-aligned, and no longer in use.
            unsafe { *(ptr as *mut *mut u8) = l.free[c].get() };
            l.free[c].set(ptr);
            l.len[c].set(l.len[c].get() + 1);
            true
        });
        if kept != Ok(true) {
            unsafe { System.dealloc(ptr, class_layout(c)) };
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` (a non-zero size that does not
        // overflow when rounded to the alignment).
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class(layout).is_none() && class(new).is_none() {
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if class(layout).is_some() && class(layout) == class(new) {
            return ptr;
        }
        let to = unsafe { self.alloc(new) };
        if !to.is_null() {
            // SAFETY: both blocks are live and distinct, each at least the smaller size.
            unsafe { std::ptr::copy_nonoverlapping(ptr, to, layout.size().min(new_size)) };
            unsafe { self.dealloc(ptr, layout) };
        }
        to
    }
}

/// Keeps the heap's top instead of giving it back to the system after each test: glibc
/// trims a thread's heap once more than 128 KiB lies free at its top and grows it again
/// for the next test, a system call (`mprotect`) and fresh page faults each time, for
/// about half the tests. A trim threshold of 256 MiB and 16 MiB of padding per growth
/// make that rare (as `MALLOC_TRIM_THRESHOLD_` and `MALLOC_TOP_PAD_` would).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_heap() {
    use std::ffi::c_int;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_TOP_PAD: c_int = -2;
    // SAFETY: mallopt only sets tunables of glibc's malloc; it is called before any
    // other thread exists. A refused setting (return 0) leaves the default in force.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
    }
}

/// Elsewhere the system allocator's defaults stand.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_heap() {}
