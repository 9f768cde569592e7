//! [`SeasonArchive`]: one season of a store as a
//! [`GameArchive`], the interface every
//! reader of finished games uses (`season replay`, `season log`, the
//! season page). A game's key is its number in the season; what it left
//! is what its worker stored under its claim ([`SeasonStore::record`]).

use std::{
    sync::Arc,
    time::{Duration, SystemTime},
};

use spielleiter_archive::{
    ArchiveError, ArchiveFuture, ArchivedGame, Body, Contents, Fence, FinishedGame, GameArchive,
    GameRecord, Stored, StoredBytes, StoredReplay, directory::LIST_LIMIT,
};
use spielleiter_rules::GameType;

use crate::{
    error::SeasonError,
    store::{Claim, GameRow, GameState, SeasonStore},
};

/// One season of a store, read and written as an archive of finished
/// games.
#[derive(Debug)]
pub struct SeasonArchive<S> {
    store: Arc<S>,
    season: String,
    game: GameType,
}

impl<S: SeasonStore + std::fmt::Debug + 'static> SeasonArchive<S> {
    /// The season `season` of `store`.
    ///
    /// # Errors
    ///
    /// No such season, its game is not hosted, or the store fails.
    pub async fn open(store: Arc<S>, season: &str) -> Result<SeasonArchive<S>, SeasonError> {
        let definition = store.definition(season).await?;
        Ok(SeasonArchive {
            game: definition.game_type()?,
            store,
            season: season.to_owned(),
        })
    }

    /// The season's game.
    pub fn game(&self) -> GameType {
        self.game
    }

    /// How many games the season has (numbered from 1).
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn games(&self) -> Result<u32, SeasonError> {
        let games = self.store.games(&self.season).await?;
        Ok(u32::try_from(games.len()).unwrap_or(u32::MAX))
    }

    fn failed(&self, error: &SeasonError) -> ArchiveError {
        ArchiveError::Backend {
            store: GameArchive::describe(self),
            cause: error.to_string(),
        }
    }

    /// The game numbered by `key`.
    fn number(&self, key: &str) -> Result<u32, ArchiveError> {
        key.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                ArchiveError::NotFound(format!(
                    "season {} has no game {key:?} (games are numbered from 1)",
                    self.season
                ))
            })
    }

    /// Game `number`'s row.
    async fn row(&self, number: u32) -> Result<GameRow, ArchiveError> {
        let rows = self
            .store
            .games_after(&self.season, number.saturating_sub(1), 1)
            .await
            .map_err(|e| self.failed(&e))?;
        rows.into_iter()
            .find(|row| row.game.number == number)
            .ok_or_else(|| {
                ArchiveError::NotFound(format!("season {} has no game {number}", self.season))
            })
    }

    fn missing(&self, number: u32, what: &str) -> ArchiveError {
        ArchiveError::NotFound(format!(
            "no {what} is stored for game {number} (not played yet, or not kept)"
        ))
    }
}

impl<S: SeasonStore + std::fmt::Debug + 'static> GameArchive for SeasonArchive<S> {
    fn describe(&self) -> String {
        format!("season {} in {}", self.season, self.store.describe())
    }

    fn store<'a>(
        &'a self,
        game: &'a FinishedGame,
        fence: Option<Fence>,
    ) -> ArchiveFuture<'a, Stored> {
        Box::pin(async move {
            let Some(fence) = fence else {
                return Err(ArchiveError::Unstorable(format!(
                    "a season's game is stored only under its worker's claim; {} got none",
                    GameArchive::describe(self)
                )));
            };
            let row = self.row(fence.number).await?;
            let claim = Claim {
                season: self.season.clone(),
                game: row.game,
                attempt: fence.attempt,
            };
            let stored = self
                .store
                .record(&claim, game)
                .await
                .map_err(|e| self.failed(&e))?;
            Ok(if stored {
                Stored::Kept(fence.number.to_string())
            } else {
                Stored::Refused
            })
        })
    }

    fn list(&self) -> ArchiveFuture<'_, Vec<ArchivedGame>> {
        Box::pin(async move {
            let rows = self
                .store
                .games(&self.season)
                .await
                .map_err(|e| self.failed(&e))?;
            let mut done: Vec<ArchivedGame> = rows
                .iter()
                .filter(|row| row.state == GameState::Done)
                .map(|row| ArchivedGame {
                    key: row.game.number.to_string(),
                    game: Some(self.game),
                    // The size is the store's; not read for a list.
                    bytes: 0,
                    modified: row
                        .finished_ms
                        .and_then(|ms| u64::try_from(ms).ok())
                        .map_or(SystemTime::UNIX_EPOCH, |ms| {
                            SystemTime::UNIX_EPOCH + Duration::from_millis(ms)
                        }),
                })
                .collect();
            done.sort_by_key(|game| std::cmp::Reverse(game.modified));
            done.truncate(LIST_LIMIT);
            Ok(done)
        })
    }

    fn record<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, GameRecord> {
        Box::pin(async move {
            let number = self.number(key)?;
            self.row(number)
                .await?
                .record
                .ok_or_else(|| self.missing(number, "result"))
        })
    }

    fn replay<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredReplay> {
        Box::pin(async move {
            let number = self.number(key)?;
            let bytes = self
                .store
                .replay(&self.season, number)
                .await
                .map_err(|e| self.failed(&e))?
                .ok_or_else(|| self.missing(number, "replay"))?;
            Ok(StoredReplay {
                game: Some(self.game),
                bytes: StoredBytes {
                    name: format!("season_game_{number}_{}.xml.gz", self.game.id()),
                    gzip: true,
                    body: Body::Memory(bytes),
                },
            })
        })
    }

    fn player_log<'a>(&'a self, key: &'a str, player: usize) -> ArchiveFuture<'a, StoredBytes> {
        Box::pin(async move {
            let number = self.number(key)?;
            let log = self
                .store
                .player_log(&self.season, number, player)
                .await
                .map_err(|e| self.failed(&e))?
                .ok_or_else(|| self.missing(number, &format!("log of player {}", player + 1)))?;
            Ok(StoredBytes {
                name: format!("season_game_{number}_player{}.log", player + 1),
                gzip: false,
                body: Body::Memory(log),
            })
        })
    }

    fn wire_log<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredBytes> {
        Box::pin(async move {
            let number = self.number(key)?;
            let log = self
                .store
                .wire_log(&self.season, number)
                .await
                .map_err(|e| self.failed(&e))?
                .ok_or_else(|| self.missing(number, "wire log"))?;
            Ok(StoredBytes {
                name: format!("season_game_{number}.wire.txt.gz"),
                gzip: true,
                body: Body::Memory(log),
            })
        })
    }

    fn contents<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, Contents> {
        Box::pin(async move {
            let number = self.number(key)?;
            let (player_logs, wire_log) = self
                .store
                .logs_of(&self.season, number)
                .await
                .map_err(|e| self.failed(&e))?;
            Ok(Contents {
                player_logs,
                wire_log,
            })
        })
    }
}
