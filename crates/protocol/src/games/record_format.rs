//! A game's record in another program's format, for that program to open
//! (Pentobi's `.blksgf` for classic Blokus): what the format is to its
//! readers ([`RecordFormat`]), how a game's folder writes it
//! ([`GameRecord`], the folder's `WireGame::RECORD`) and why a replay
//! cannot be written in it ([`RecordError`]). The catalogue offers the
//! formats by game ([`record_format`](super::record_format)) and writes
//! a replay in one ([`Replay::record`](crate::Replay::record)), so that
//! the server, the web pages and the command line name no game.

use spielleiter_rules::GameType;

/// A record format, as its readers see it: its name, the games it is for,
/// how a download of it is offered and typed.
#[derive(Debug, PartialEq, Eq)]
pub struct RecordFormat {
    /// Its name, also the file ending: `blksgf`.
    pub name: &'static str,
    /// The games it is for, in words: `classic Blokus`.
    pub games: &'static str,
    /// What a download of it is called: `Pentobi record (.blksgf)`.
    pub label: &'static str,
    /// Its media type, for a download.
    pub media_type: &'static str,
}

/// A game's record format with the writer of its records, defined in the
/// game's folder over the game's own state type `S`.
#[derive(Debug)]
pub(crate) struct GameRecord<S> {
    /// The format written.
    pub format: &'static RecordFormat,
    /// The record of a replay's states, in order; or why they make none
    /// (the replay is no game of the format played from the start).
    pub write: fn(&[&S]) -> Result<String, String>,
}

// Not derived: a derive would ask `S: Clone`, and only the reference and
// the function are copied.
impl<S> Clone for GameRecord<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for GameRecord<S> {}

/// Why a replay is no record of a format.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// No game has a record format of this name.
    #[error("no game has a record format named {0:?}")]
    UnknownFormat(String),
    /// The format is for other games.
    #[error("the {} format is for {}, not {game}", format.name, format.games)]
    NotFor {
        /// The format asked for.
        format: &'static RecordFormat,
        /// The replay's game.
        game: GameType,
    },
    /// The replay is not a game played from the start by the rules.
    #[error("{0}")]
    Inconsistent(String),
}
