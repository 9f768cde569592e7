//! The one interface to finished games ([`GameArchive`]): storing what a
//! game left ([`FinishedGame`]: its record, replay, each player's log and
//! its wire log) once, and reading each part back by the game's key. Its
//! backends are a directory ([`DirArchive`](crate::DirArchive), what `serve`
//! and `match` write) and a season's store (SQLite or PostgreSQL, in the
//! season crate).
//!
//! The interface is async and object-safe (its futures are boxed): the
//! pages hold an `Arc<dyn GameArchive>` whatever the backend, and a
//! PostgreSQL backend waits on its connection without a thread of its own.
//! A backend whose calls block (files, SQLite) runs them on the runtime's
//! blocking threads, so no caller has to know which kind it holds.

use std::{
    fmt,
    fs::File,
    future::Future,
    io::{Cursor, Read},
    pin::Pin,
    time::SystemTime,
};

use spielleiter_protocol::{Replay, read_replay, replay::read_replay_outline};
use spielleiter_rules::GameType;

use crate::{
    directory::{
        LoadError, LoadedReplay, MAX_UNPACKED_REPLAY_BYTES, ReplaySummary, decompressed_at_most,
        positions, read_as_its_game,
    },
    record::GameRecord,
};

/// The most bytes of one player's log a game keeps: what a sandboxed
/// player's log holds by default (1 MiB), for every kind of player; a
/// longer log keeps its beginning and a line that says where it was cut.
pub const PLAYER_LOG_BYTES: usize = 1 << 20;

/// What a finished game left, held in memory by whoever played it, to be
/// stored once ([`GameArchive::store`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// The record: players, result, causes, think times, room, duration.
    pub record: GameRecord,
    /// The replay document in the official format (uncompressed), if the
    /// game started and its replay was kept.
    pub replay: Option<Vec<u8>>,
    /// Each player's log (what its program printed), indexed as the
    /// record's players; `None` for a player without one (a built-in
    /// bot). At most [`PLAYER_LOG_BYTES`] each.
    pub player_logs: Vec<Option<Vec<u8>>>,
    /// The wire log (uncompressed text), when the game kept one.
    pub wire_log: Option<Vec<u8>>,
}

impl FinishedGame {
    /// A game of which only the record is known.
    pub fn of_record(record: GameRecord) -> FinishedGame {
        FinishedGame {
            record,
            replay: None,
            player_logs: Vec::new(),
            wire_log: None,
        }
    }
}

/// The scheduled game a finished game was played for, and the claim it
/// was played under: an archive with a schedule (a season's store) keeps
/// the game only while this claim is the game's current, unexpired one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The game's number in the schedule.
    pub number: u32,
    /// The attempt number of the claim.
    pub attempt: i64,
}

/// What storing a finished game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Stored under this key.
    Kept(String),
    /// The fence no longer holds (the claim expired, or the game was
    /// claimed again): nothing was written.
    Refused,
}

/// A game in an archive's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedGame {
    /// The key the archive reads the game by (a replay's file name, a
    /// season game's number).
    pub key: String,
    /// The game, where the archive knows it without reading the replay.
    pub game: Option<GameType>,
    /// The replay's size as stored.
    pub bytes: u64,
    /// When it was stored.
    pub modified: SystemTime,
}

/// Which of a game's logs an archive holds (its record and replay are
/// asked for directly).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    /// The players (indices of the record's players) whose logs are kept,
    /// in order.
    pub player_logs: Vec<usize>,
    /// Whether the wire log is kept.
    pub wire_log: bool,
}

/// Bytes an archive holds for one part of a game, as stored: an open file
/// (streamed, never read whole by the archive) or bytes from a database.
#[derive(Debug)]
pub enum Body {
    /// A regular file, opened without following a symbolic link.
    File(File),
    /// Bytes held in memory.
    Memory(Vec<u8>),
}

/// One stored part of a game (a replay, a player's log, a wire log), as
/// stored: its name for a download, whether it is gzip-compressed, its
/// bytes.
#[derive(Debug)]
pub struct StoredBytes {
    /// A file name for a download (`replay_….xml.gz`, `season_game_7.xml.gz`).
    pub name: String,
    /// Whether the bytes are gzip-compressed.
    pub gzip: bool,
    /// The bytes.
    pub body: Body,
}

impl StoredBytes {
    /// The stored length in bytes.
    ///
    /// # Errors
    ///
    /// A file's length cannot be read.
    pub fn len(&self) -> std::io::Result<u64> {
        match &self.body {
            Body::File(file) => Ok(file.metadata()?.len()),
            Body::Memory(bytes) => Ok(bytes.len() as u64),
        }
    }

    /// Whether nothing is stored.
    ///
    /// # Errors
    ///
    /// A file's length cannot be read.
    pub fn is_empty(&self) -> std::io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// The bytes decompressed, failing with
    /// [`InvalidData`](std::io::ErrorKind::InvalidData) past `bound` bytes
    /// (a small gzip that unpacks to gigabytes costs a reader at most
    /// `bound`).
    pub fn reader(self, bound: u64) -> Box<dyn Read + Send> {
        match self.body {
            Body::File(file) => decompressed_at_most(file, self.gzip, bound),
            Body::Memory(bytes) => decompressed_at_most(Cursor::new(bytes), self.gzip, bound),
        }
    }

    /// The bytes as stored (compressed when [`gzip`](Self::gzip)), read
    /// whole, at most `bound`.
    ///
    /// # Errors
    ///
    /// They cannot be read, or are more than `bound` bytes.
    pub fn read_stored(self, bound: u64) -> std::io::Result<Vec<u8>> {
        match self.body {
            Body::Memory(bytes) if bytes.len() as u64 <= bound => Ok(bytes),
            Body::Memory(_) => Err(too_large(bound)),
            Body::File(file) => {
                let mut out = Vec::new();
                file.take(bound + 1).read_to_end(&mut out)?;
                if out.len() as u64 > bound {
                    return Err(too_large(bound));
                }
                Ok(out)
            }
        }
    }

    /// The bytes decompressed and read whole, at most `bound`.
    ///
    /// # Errors
    ///
    /// They cannot be read, are no gzip where they should be, or unpack to
    /// more than `bound` bytes.
    pub fn read_all(self, bound: u64) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.reader(bound).read_to_end(&mut out)?;
        Ok(out)
    }
}

fn too_large(bound: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("more than {bound} bytes are stored"),
    )
}

/// A game's stored replay and the game it is of, where known.
#[derive(Debug)]
pub struct StoredReplay {
    /// The game, where the archive knows it (a season's definition, a
    /// replay file's name); otherwise each hosted game is tried.
    pub game: Option<GameType>,
    /// The replay as stored.
    pub bytes: StoredBytes,
}

impl StoredReplay {
    /// The replay file at `path` (a path a person gave: followed like any
    /// other), compressed when its name ends in `.gz`, of the game its
    /// name names (`replay_<gameType>_…`), if any; it names the file by
    /// `path` in errors. `replay show`, `render` and `replay export` read
    /// a file so.
    ///
    /// # Errors
    ///
    /// The file cannot be opened.
    pub fn open_path(path: &std::path::Path) -> Result<StoredReplay, LoadError> {
        let label = path.display().to_string();
        let file = File::open(path).map_err(|cause| LoadError::Open {
            file: label.clone(),
            cause,
        })?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        Ok(StoredReplay {
            game: name.as_deref().and_then(crate::names::game_of_name),
            bytes: StoredBytes {
                gzip: path.extension().is_some_and(|e| e == "gz"),
                name: label,
                body: Body::File(file),
            },
        })
    }

    /// The replay read as one of its game (each hosted game in turn when
    /// the game is not known), at most [`MAX_UNPACKED_REPLAY_BYTES`]
    /// unpacked; errors name it by its name.
    ///
    /// # Errors
    ///
    /// The bytes are no replay of a hosted game.
    pub fn read(self) -> Result<(GameType, Replay), LoadError> {
        let label = self.bytes.name.clone();
        match self.game {
            Some(game) => read_replay(self.bytes.reader(MAX_UNPACKED_REPLAY_BYTES), game)
                .map(|replay| (game, replay))
                .map_err(|cause| LoadError::Read { file: label, cause }),
            None => {
                // A name that names no game: the document once in memory,
                // read as each game in turn.
                let document = self
                    .bytes
                    .read_all(MAX_UNPACKED_REPLAY_BYTES)
                    .map_err(|cause| LoadError::Open {
                        file: label.clone(),
                        cause,
                    })?;
                read_as_its_game(&label, &label, |game| {
                    Ok(read_replay(document.as_slice(), game))
                })
            }
        }
    }

    /// The replay as positions of the rules (for the viewer, `render`,
    /// `replay show`).
    ///
    /// # Errors
    ///
    /// The bytes are no replay of a hosted game, or record an inconsistent
    /// position.
    pub fn load(self) -> Result<LoadedReplay, LoadError> {
        let label = self.bytes.name.clone();
        let (game, replay) = self.read()?;
        positions(&label, game, replay)
    }

    /// What a list shows of the replay, decoding only its first and last
    /// state and its result.
    ///
    /// # Errors
    ///
    /// The bytes are no replay of a hosted game.
    pub fn summary(self) -> Result<ReplaySummary, LoadError> {
        let label = self.bytes.name.clone();
        let (game, outline) = match self.game {
            Some(game) => read_replay_outline(self.bytes.reader(MAX_UNPACKED_REPLAY_BYTES), game)
                .map(|outline| (game, outline))
                .map_err(|cause| LoadError::Read {
                    file: label.clone(),
                    cause,
                })?,
            None => {
                let document = self
                    .bytes
                    .read_all(MAX_UNPACKED_REPLAY_BYTES)
                    .map_err(|cause| LoadError::Open {
                        file: label.clone(),
                        cause,
                    })?;
                read_as_its_game(&label, &label, |game| {
                    Ok(read_replay_outline(document.as_slice(), game))
                })?
            }
        };
        Ok(ReplaySummary::of(game, &outline))
    }
}

/// Why an archive cannot store or give out a game's part. The messages are
/// one line for a person and name the game by its key, never a path of the
/// server or a password.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    /// The archive holds no such game, or not this part of it.
    #[error("{0}")]
    NotFound(String),
    /// A replay (or its wire log) of a directory cannot be opened or read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The game cannot be stored here as it is.
    #[error("{0}")]
    Unstorable(String),
    /// The backend failed (a database, a disk).
    #[error("{store}: {cause}")]
    Backend {
        /// The archive, for people (no password).
        store: String,
        /// What failed.
        cause: String,
    },
}

impl ArchiveError {
    /// Whether the game or part asked for is not there (as opposed to an
    /// archive that failed).
    pub fn is_not_found(&self) -> bool {
        match self {
            ArchiveError::NotFound(_) => true,
            ArchiveError::Load(error) => {
                error.is_not_found() || matches!(error, LoadError::BadName(_))
            }
            _ => false,
        }
    }
}

/// A future an archive returns.
pub type ArchiveFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, ArchiveError>> + Send + 'a>>;

/// Finished games: each stored once, by whoever played it, with
/// everything it left; every reader (the pages, the command line, the
/// exports) reads them here, whichever backend holds them.
pub trait GameArchive: Send + Sync + fmt::Debug {
    /// Names the archive for people (no password).
    fn describe(&self) -> String;

    /// Stores a finished game with everything it left, once; `fence` is the
    /// scheduled game and claim it was played under, which an archive with
    /// a schedule requires and checks ([`Stored::Refused`] when it no
    /// longer holds) and a directory ignores.
    fn store<'a>(
        &'a self,
        game: &'a FinishedGame,
        fence: Option<Fence>,
    ) -> ArchiveFuture<'a, Stored>;

    /// The stored games with a replay, newest first, at most
    /// [`LIST_LIMIT`](crate::directory::LIST_LIMIT).
    fn list(&self) -> ArchiveFuture<'_, Vec<ArchivedGame>>;

    /// The game's record.
    fn record<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, GameRecord>;

    /// The game's replay, as stored.
    fn replay<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredReplay>;

    /// The log of the game's player `player` (an index of the record's
    /// players), as stored.
    fn player_log<'a>(&'a self, key: &'a str, player: usize) -> ArchiveFuture<'a, StoredBytes>;

    /// The game's wire log, as stored.
    fn wire_log<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredBytes>;

    /// Which of the game's logs are kept, without reading them.
    fn contents<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, Contents>;
}

/// A player's log of `total` bytes, of which `head` holds the first (at
/// least [`PLAYER_LOG_BYTES`] of them, or all), cut to [`PLAYER_LOG_BYTES`]:
/// its beginning and, when cut, a last line that says so (as the sandbox
/// cuts a player's log).
pub fn capped_log(mut head: Vec<u8>, total: u64) -> Vec<u8> {
    let total = total.max(head.len() as u64);
    if total > PLAYER_LOG_BYTES as u64 {
        head.truncate(PLAYER_LOG_BYTES);
        head.extend_from_slice(
            format!("\n[spielleiter] log cut after {PLAYER_LOG_BYTES} of {total} bytes\n")
                .as_bytes(),
        );
    }
    head
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_long_log_keeps_its_beginning_and_says_where_it_was_cut() {
        let short = b"hello\n".to_vec();
        assert_eq!(capped_log(short.clone(), 6), short);
        let exactly = vec![b'x'; PLAYER_LOG_BYTES];
        assert_eq!(
            capped_log(exactly.clone(), PLAYER_LOG_BYTES as u64),
            exactly
        );
        let long = vec![b'x'; PLAYER_LOG_BYTES];
        let capped = capped_log(long, PLAYER_LOG_BYTES as u64 + 10);
        assert!(capped.starts_with(&[b'x'; 100]));
        let tail = String::from_utf8_lossy(&capped[PLAYER_LOG_BYTES..]).into_owned();
        assert_eq!(
            tail,
            format!(
                "\n[spielleiter] log cut after {PLAYER_LOG_BYTES} of {} bytes\n",
                PLAYER_LOG_BYTES + 10
            )
        );
    }

    #[test]
    fn a_stored_replay_of_an_unnamed_game_is_read_as_the_game_that_fits() {
        let text = "<protocol>\n</protocol>";
        let stored = StoredReplay {
            game: None,
            bytes: StoredBytes {
                name: "x.xml".to_owned(),
                gzip: true,
                body: Body::Memory(crate::publish::gzipped(text.as_bytes())),
            },
        };
        let (_, replay) = stored.read().unwrap();
        assert!(replay.states.is_empty());
    }
}
