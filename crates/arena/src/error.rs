//! [`ArenaError`]: why a match cannot run (a single game's trouble is not
//! an error: it is recorded as an irregular game).

use std::{io, path::PathBuf};

use spielleiter_client::ClientError;
use thiserror::Error;

/// Why a match could not be run or continued.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// The results file cannot be read or written.
    #[error("results file {path}: {cause}")]
    ResultsFile {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        cause: io::Error,
    },
    /// A complete line of the results file is not a game record.
    #[error("results file {path}, line {line}: not a game record: {reason}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The results file holds games of other players.
    #[error(
        "results file {path} holds games of {found}, not of this match ({expected}); choose another file (--results) to start a new match"
    )]
    OtherMatch {
        /// The file.
        path: PathBuf,
        /// The match found in it.
        found: String,
        /// This match.
        expected: String,
    },
    /// The log directory cannot be created.
    #[error("cannot create the log directory {path}: {cause}")]
    LogDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        cause: io::Error,
    },
    /// The in-process server could not be started.
    #[error("cannot start the server")]
    Server(#[source] io::Error),
    /// The in-process server took no administrator connection (it has
    /// stopped, or is full).
    #[error("administration failed: {0}")]
    InProcess(spielleiter_server::in_process::InProcessError),
    /// The server refused or broke the administration exchange (wrong
    /// passphrase, administration disabled, connection lost).
    #[error("administration failed: {0}")]
    Admin(ClientError),
    /// Sandboxed players cannot run: Docker is missing, an image is
    /// missing or not a sandbox image.
    #[error(transparent)]
    Sandbox(#[from] spielleiter_sandbox::SandboxError),
    /// The settings contradict each other.
    #[error("invalid match settings: {0}")]
    Settings(String),
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<ClientError> for ArenaError {
    fn from(error: ClientError) -> Self {
        ArenaError::Admin(error)
    }
}
