//! One archive of finished games. Everything a game leaves — its record
//! ([`GameRecord`]), its replay (the official format), each player's log and
//! its wire log — is stored together, once, by whoever played it, and
//! every reader (the web pages, `replay show`, `render`, `season replay`,
//! `season log`, the exports) reads it through the one interface,
//! [`GameArchive`], whichever backend holds it: a directory
//! ([`DirArchive`], what `serve` and `match` write) or a season's store
//! (SQLite or PostgreSQL, implemented in the season crate, which sits
//! above this one).
//!
//! This crate sits below the server, the season and the web crates and
//! depends on none of them: only the protocol (replays) and the rules
//! (positions).
//!
//! # Layout
//!
//! - [`record`]: [`GameRecord`], [`Cause`], [`ThinkTimes`].
//! - [`game_archive`]: the [`GameArchive`] interface, [`FinishedGame`] and
//!   what the archive gives out ([`StoredReplay`], [`StoredBytes`]).
//! - [`dir_archive`]: [`DirArchive`], the directory backend.
//! - [`names`]: how a replay file is named at each step of its life.
//! - [`directory`]: the finished replays of a directory as files (listing,
//!   opening by name, finding a room's, loading one as positions).
//! - [`publish`]: claiming a final file name without overwriting, locks,
//!   gzip.
#![deny(missing_docs)]

pub mod dir_archive;
pub mod directory;
pub mod game_archive;
pub mod names;
pub mod publish;
pub mod record;

#[cfg(any(test, feature = "test-suite"))]
pub mod conformance;

pub use dir_archive::DirArchive;
pub use directory::{LoadError, LoadedReplay, ReplaySummary};
pub use game_archive::{
    ArchiveError, ArchiveFuture, ArchivedGame, Body, Contents, Fence, FinishedGame, GameArchive,
    PLAYER_LOG_BYTES, Stored, StoredBytes, StoredReplay, capped_log,
};
pub use record::{Cause, GameRecord, ThinkTimes};
