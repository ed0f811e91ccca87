//! Standard output and error for a command whose output may be cut short by a reader
//! such as `head`: once the pipe is closed, the process ends quietly with status 0, as
//! Unix tools do, instead of panicking in `println!` (Rust ignores SIGPIPE, so a write
//! to a closed pipe is an error, not a signal).

use std::io::{self, ErrorKind, Write};

/// A writer that ends the process when its reader has gone away; other errors pass on.
pub struct Quiet<W>(pub W);

/// Ends the process on a closed pipe: nobody is left to read what comes next.
fn ended<T>(r: io::Result<T>) -> io::Result<T> {
    if r.as_ref().is_err_and(|e| e.kind() == ErrorKind::BrokenPipe) {
        std::process::exit(0);
    }
    r
}

impl<W: Write> Write for Quiet<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        ended(self.0.write(buf))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        ended(self.0.write_all(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        ended(self.0.flush())
    }
}

/// Standard output, unbuffered beyond `Stdout`'s own line buffer.
pub fn stdout() -> Quiet<io::Stdout> {
    Quiet(io::stdout())
}

/// Standard output behind a large buffer, for logs written many lines at a time.
pub fn buffered() -> io::BufWriter<Quiet<io::Stdout>> {
    io::BufWriter::with_capacity(1 << 16, stdout())
}

/// Writes `text` to standard output as it is (no newline added).
pub fn print(text: &str) {
    let mut out = stdout();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Writes `text` and a newline to standard error in one write.
pub fn eprint_line(text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    let _ = Quiet(io::stderr()).write_all(line.as_bytes());
}
