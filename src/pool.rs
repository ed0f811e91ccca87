//! The binary's global allocator: per-thread free lists over the system allocator.
//!
//! Why: a litmus test allocates about a thousand blocks (relations, sets, events, the
//! formula's arrays) and frees them all at the end. glibc's malloc spends about 200
//! instructions on each round trip in that pattern (its per-size caches hold 7 blocks; the
//! rest go through bins that it consolidates whenever a block over 1 KiB is asked for), a
//! third of a run's instructions. Here a block is a pop and a push on a list of the calling
//! thread.
//!
//! Design: `dealloc` is told the block's layout, so no block needs a header; the size
//! class is the size rounded up to 16 bytes up to [`SMALL`], and past it to a quarter of
//! its power of two (640, 768, 896, 1024, 1280, …) up to [`LARGE`]: arrays of a few KiB
//! (a formula's clauses, a log) come and go with each test too. A freed block of a class,
//! aligned to at most 16, goes onto the list of its class in the thread that frees it,
//! unless that list is full (see [`keep`]); an allocation of that class pops the list,
//! and only when it is empty asks the system, for the class's full size. Blocks migrate
//! between threads harmlessly, and the lists bound what the pool holds back from the
//! system.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::null_mut;

/// The largest block of the fine classes (16 bytes apart).
const SMALL: usize = 512;
const SMALL_CLASSES: usize = SMALL / 16;
/// The largest block served from the pool at all.
const LARGE: usize = 64 << 10;
/// Four classes per doubling from `SMALL` to `LARGE` (2⁹ to 2¹⁶).
const CLASSES: usize = SMALL_CLASSES + 4 * 7;
/// The most free blocks a thread keeps per class, and the most bytes.
const KEEP: usize = 1024;
const KEEP_BYTES: usize = 512 << 10;

pub struct Pool;

/// One thread's lists: for each class, the first free block (whose first word points to
/// the next) and how many more blocks the list may take.
struct Lists {
    free: [Cell<*mut u8>; CLASSES],
    room: [Cell<u32>; CLASSES],
}

thread_local! {
    static LISTS: Lists = const {
        let mut room = [const { Cell::new(0) }; CLASSES];
        let mut c = 0;
        while c < CLASSES {
            room[c] = Cell::new(keep(c) as u32);
            c += 1;
        }
        Lists { free: [const { Cell::new(null_mut()) }; CLASSES], room }
    };
}

/// How many free blocks of class `c` a thread keeps: [`KEEP`], but no more than
/// [`KEEP_BYTES`] of them (about 8 MiB in the fine classes and 14 MiB in the others).
const fn keep(c: usize) -> usize {
    let by_bytes = KEEP_BYTES / class_size(c);
    if by_bytes < KEEP { by_bytes } else { KEEP }
}

/// The class of a block of `layout`, or `None` for one the system serves directly.
#[inline(always)]
fn class(layout: Layout) -> Option<usize> {
    if layout.align() > 16 {
        return None;
    }
    // Sizes are never 0 here (`GlobalAlloc`'s contract); one would wrap past every class.
    let s = layout.size().wrapping_sub(1);
    if s < SMALL {
        return Some(s >> 4);
    }
    large_class(s)
}

/// The class of a block of `s + 1` bytes, `s` at least [`SMALL`]: of the four classes
/// between the powers of two `2^b < s + 1 <= 2^(b+1)`, the first at least as large.
fn large_class(s: usize) -> Option<usize> {
    if s >= LARGE {
        return None;
    }
    let b = s.ilog2() as usize;
    Some(SMALL_CLASSES + 4 * (b - 9) + ((s >> (b - 2)) & 3))
}

/// The size of every block of class `c`.
const fn class_size(c: usize) -> usize {
    if c < SMALL_CLASSES {
        return (c + 1) * 16;
    }
    let (k, quarter) = (c - SMALL_CLASSES, 1 << (7 + (c - SMALL_CLASSES) / 4));
    4 * quarter + (k % 4 + 1) * quarter
}

/// The layout the system is asked for, for every block of class `c`.
fn class_layout(c: usize) -> Layout {
    // SAFETY: a size of at most LARGE, a multiple of 16, with alignment 16 (a power of two).
    unsafe { Layout::from_size_align_unchecked(class_size(c), 16) }
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
                l.room[c].set(l.room[c].get() + 1);
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
            let room = l.room[c].get();
            if room == 0 {
                return false;
            }
            // SAFETY: the block is at least 16 bytes and 16-aligned, and no longer in use.
            unsafe { *(ptr as *mut *mut u8) = l.free[c].get() };
            l.free[c].set(ptr);
            l.room[c].set(room - 1);
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
        match (class(layout), class(new)) {
            (None, None) => return unsafe { System.realloc(ptr, layout, new_size) },
            (Some(a), Some(b)) if a == b => return ptr,
            _ => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pooled size falls in the smallest class that holds it, and classes grow.
    #[test]
    fn classes_hold_their_sizes() {
        let class_of = |size| class(Layout::from_size_align(size, 8).expect("a layout"));
        let mut last = 0;
        for size in 1..=LARGE {
            let c = class_of(size).expect("pooled");
            assert!(c < CLASSES && class_size(c) >= size, "{size}");
            assert!(c == 0 || class_size(c - 1) < size, "{size}");
            assert!(c >= last);
            last = c;
        }
        assert_eq!(last, CLASSES - 1);
        assert_eq!(class_of(LARGE + 1), None);
        assert_eq!(class(Layout::from_size_align(64, 32).expect("a layout")), None);
        assert!((0..CLASSES).all(|c| keep(c) >= 8 && class_size(c).is_multiple_of(16)));
    }
}
