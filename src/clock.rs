//! CPU clocks, for the benchmark and for the summary of `litsat run`.

/// CPU clocks through rustix, a safe interface that on Linux asks the kernel itself (its
/// vDSO or a system call, from Rust), so that this crate declares no C function.
#[cfg(target_os = "linux")]
mod cpu_clock {
    pub use rustix::time::ClockId;
    /// Seconds of CPU time a clock has counted.
    pub fn read(clock: ClockId) -> Option<f64> {
        let t = rustix::time::clock_gettime(clock);
        Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
    }
}

/// Elsewhere no CPU clock is read: callers fall back to wall time.
#[cfg(not(target_os = "linux"))]
mod cpu_clock {
    pub enum ClockId {
        ThreadCPUTime,
        ProcessCPUTime,
    }
    pub fn read(_clock: ClockId) -> Option<f64> {
        None
    }
}

/// CPU seconds of the calling thread, where the system reports them.
pub fn thread_cpu() -> Option<f64> {
    cpu_clock::read(cpu_clock::ClockId::ThreadCPUTime)
}

/// CPU seconds of the whole process (all threads).
pub fn process_cpu() -> Option<f64> {
    cpu_clock::read(cpu_clock::ClockId::ProcessCPUTime)
}
