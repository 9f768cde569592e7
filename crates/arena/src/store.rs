//! [`GameStore`]: where the finished games of a match or tournament are
//! kept, so that a run can be resumed (and, later, a tournament spread over
//! several servers can share them). [`ResultsFile`](crate::ResultsFile), a
//! JSON-lines file, is one store.

use crate::{error::ArenaError, record::GameRecord};

/// Keeps finished games. A runner loads the store once before it plays and
/// appends every game the moment it is recorded; it never changes or
/// removes a game.
pub trait GameStore: Send {
    /// Every game the store holds, in the order they were appended.
    ///
    /// # Errors
    ///
    /// The store cannot be read or holds something that is no game record.
    fn load(&mut self) -> Result<Vec<GameRecord>, ArenaError>;

    /// Adds a finished game, durably (a crash right after must not lose it).
    ///
    /// # Errors
    ///
    /// The store cannot be written.
    fn append(&mut self, record: &GameRecord) -> Result<(), ArenaError>;

    /// Names the store for people (`results file league.jsonl`).
    fn describe(&self) -> String;
}

/// A store in memory, for tests and for runs that keep nothing.
#[derive(Debug, Default)]
pub struct MemoryStore {
    /// The games appended so far.
    pub records: Vec<GameRecord>,
}

impl GameStore for MemoryStore {
    fn load(&mut self) -> Result<Vec<GameRecord>, ArenaError> {
        Ok(self.records.clone())
    }

    fn append(&mut self, record: &GameRecord) -> Result<(), ArenaError> {
        self.records.push(record.clone());
        Ok(())
    }

    fn describe(&self) -> String {
        "memory".to_owned()
    }
}
