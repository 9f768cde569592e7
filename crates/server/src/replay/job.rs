//! The replay thread's jobs: what the store, the recorders and the wire
//! logs' taps send it ([`Job`], [`WireJob`]), and where a finished replay
//! went ([`Published`]) or why it failed ([`ReplayFailure`]), which a
//! finished recorder is answered with.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, atomic::AtomicUsize},
    time::SystemTime,
};

use bytes::Bytes;
use tokio::sync::oneshot;

/// A job for the replay thread.
pub(super) enum Job {
    Open {
        id: u64,
        stem: String,
        room: String,
    },
    Append {
        id: u64,
        packet: Bytes,
    },
    /// The think time of the move whose state comes next.
    Think {
        id: u64,
        seat: usize,
        think_time: std::time::Duration,
    },
    Finish {
        id: u64,
        done: oneshot::Sender<Result<Published, ReplayFailure>>,
    },
    /// About a wire log ([`wire_log`](super::wire_log)).
    Wire(WireJob),
    /// Answered once everything sent before it is on disk (the wire logs
    /// their connections have let go of included).
    Flush(oneshot::Sender<()>),
}

/// Where a finished replay went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Published {
    /// The file in the replay directory.
    File(PathBuf),
    /// Kept in memory for the server's runner
    /// ([`KeptReplays`](super::KeptReplays)), under the game's room id.
    Kept {
        /// The room.
        room: String,
    },
}

impl std::fmt::Display for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Published::File(path) => write!(f, "{}", path.display()),
            Published::Kept { .. } => f.write_str("kept in memory"),
        }
    }
}

impl Published {
    /// The file, when the replay was written to one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Published::File(path) => Some(path),
            Published::Kept { .. } => None,
        }
    }
}

/// Why a game's replay was not written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the replay {}", path.display())]
pub struct ReplayFailure {
    /// The file (or, if none could be created, the directory).
    pub path: PathBuf,
    /// The operating system's error.
    #[source]
    pub cause: std::io::Error,
}

impl ReplayFailure {
    pub(super) fn new(path: &Path, cause: std::io::Error) -> ReplayFailure {
        ReplayFailure {
            path: path.to_owned(),
            cause,
        }
    }
}

/// A job of the replay thread about wire logs.
pub(super) enum WireJob {
    /// A room with a wire log opened.
    Open {
        id: u64,
        seats: Arc<[SeatCounters]>,
        cap: usize,
    },
    /// The room's game started: its log goes next to replay `replay`.
    Attach {
        id: u64,
        replay: u64,
        names: Vec<String>,
    },
    /// Bytes of a seat.
    Entry { id: u64, entry: Entry },
    /// The room and every seat's connection are done with the log.
    Close { id: u64 },
}

/// What a seat's taps and the replay thread count together.
#[derive(Debug, Default)]
pub(super) struct SeatCounters {
    /// Bytes offered to the log so far (also those past the cap).
    pub(super) offered: AtomicUsize,
    /// Bytes sent to the thread and not yet taken by it.
    pub(super) in_flight: AtomicUsize,
    /// Bytes dropped because too many were in flight, not yet reported.
    pub(super) dropped: AtomicUsize,
}

/// What happened on a seat's connection.
pub(super) struct Entry {
    pub(super) seat: usize,
    pub(super) at: SystemTime,
    pub(super) kind: EntryKind,
    pub(super) bytes: Bytes,
    /// Bytes of this seat dropped (too many in flight) since the last entry.
    pub(super) dropped_before: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EntryKind {
    /// Read from the client.
    Received,
    /// Handed to the client's socket.
    Written,
    /// The seat reached its cap after this many bytes.
    Cut(usize),
}
