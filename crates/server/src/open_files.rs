//! The process's open-file limit (`RLIMIT_NOFILE`): raised from the soft
//! to the hard limit at start, so that the configured connection caps, not
//! a default of 1,024, decide how many connections the server holds.

/// The open-file limit before and after raising it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFileLimit {
    /// The soft limit the process started with.
    pub before: u64,
    /// The soft limit now.
    pub now: u64,
    /// The hard limit: the most an unprivileged process can raise to.
    pub hard: u64,
}

/// Raises the soft open-file limit to the hard limit; `None` where the
/// limit cannot be read (or outside Unix). A hard limit the kernel will
/// not grant as a soft one (unlimited) leaves the soft limit as it was.
#[cfg(unix)]
pub fn raise() -> Option<OpenFileLimit> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (before, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    let now = if before < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        hard
    } else {
        before
    };
    Some(OpenFileLimit { before, now, hard })
}

/// Raises the soft open-file limit to the hard limit; `None` where the
/// limit cannot be read (or outside Unix).
#[cfg(not(unix))]
pub fn raise() -> Option<OpenFileLimit> {
    None
}
