//! The process's stdin and stdout for the MCP transport. When they are pipes (MCP clients spawn
//! their servers with pipes), the runtime's event loop reads and writes them as non-blocking
//! pipes: tokio's `Stdin` and `Stdout` run every read and write on a blocking thread, a hand-off
//! between threads for each message either way. Anything else (a terminal, a file, or stdout
//! being the same pipe as stderr, whose log lines must never meet a full non-blocking pipe)
//! keeps tokio's.

use tokio::io::{AsyncRead, AsyncWrite};

/// What the transport reads from.
pub type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// What the transport writes to.
pub type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// Stdin, as a non-blocking pipe when it is one.
pub fn reader() -> Reader {
    #[cfg(unix)]
    if let Some(r) = pipes::receiver() {
        return Box::new(r);
    }
    Box::new(tokio::io::stdin())
}

/// Stdout, as a non-blocking pipe when it is one and not stderr's.
pub fn writer() -> Writer {
    #[cfg(unix)]
    if let Some(w) = pipes::sender() {
        return Box::new(w);
    }
    Box::new(tokio::io::stdout())
}

#[cfg(unix)]
mod pipes {
    use std::os::fd::{AsFd, OwnedFd};
    use std::os::unix::fs::MetadataExt;

    use tokio::net::unix::pipe;

    fn dup(fd: impl AsFd) -> Option<OwnedFd> {
        fd.as_fd().try_clone_to_owned().ok()
    }

    /// (device, inode) of what a descriptor refers to.
    fn identity(fd: impl AsFd) -> Option<(u64, u64)> {
        let m = std::fs::File::from(dup(fd)?).metadata().ok()?;
        Some((m.dev(), m.ino()))
    }

    pub(super) fn receiver() -> Option<pipe::Receiver> {
        pipe::Receiver::from_owned_fd(dup(std::io::stdin())?).ok()
    }

    pub(super) fn sender() -> Option<pipe::Sender> {
        let out = identity(std::io::stdout())?;
        if identity(std::io::stderr()) == Some(out) {
            return None;
        }
        pipe::Sender::from_owned_fd(dup(std::io::stdout())?).ok()
    }
}
