//! The season page's source for `serve --store`: a season read from its
//! store (SQLite or PostgreSQL) through the web crate's read-only
//! [`SeasonSource`], so that the web crate need not depend on the season
//! crate, which sits above it.
//!
//! The season is read whole (every game with its result) and its tables
//! computed on a blocking thread, not on the runtime's threads that play
//! the server's games, and at most once per [`SNAPSHOT_AGE`] however many
//! pages ask: one read at a time, the others wait for it and share it.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use spielleiter_rules::GameType;
use spielleiter_season::{AnyStore, GameRow, GameState, SeasonDefinition, SeasonStore, report};
use spielleiter_web::season::{
    GameEntry, GamesPage, ProgressView, RatingRow, SeasonOverview, SeasonSource, SourceFuture,
    StandingRow, WorkerRow,
};

/// How long a read of the season serves the pages before the next.
pub const SNAPSHOT_AGE: Duration = Duration::from_secs(2);

/// One season of a store, as the season page reads it.
#[derive(Debug)]
pub struct StoredSeason {
    season: Arc<Season>,
    /// The last read and when it was taken; the lock makes one read at a
    /// time.
    snapshot: tokio::sync::Mutex<Option<(Instant, Arc<Snapshot>)>>,
}

/// The season's store and what does not change.
#[derive(Debug)]
struct Season {
    store: AnyStore,
    name: String,
    definition: SeasonDefinition,
    game: GameType,
}

/// One read of the season: its games and its tables.
#[derive(Debug)]
struct Snapshot {
    games: Vec<GameRow>,
    overview: SeasonOverview,
}

/// Opens the season `name` of the store `url`.
///
/// # Errors
///
/// The store cannot be opened, holds no such season, or the season's game
/// is not hosted.
pub async fn open(url: &str, name: &str) -> anyhow::Result<Arc<dyn SeasonSource>> {
    let store = spielleiter_season::open(url)
        .await
        .context("cannot open the season's store (--store)")?;
    let definition = store.definition(name).await?;
    let game = definition.game_type()?;
    tracing::info!(season = name, store = %store.describe(), "the season page shows season {name}");
    Ok(Arc::new(StoredSeason {
        season: Arc::new(Season {
            store,
            name: name.to_owned(),
            definition,
            game,
        }),
        snapshot: tokio::sync::Mutex::new(None),
    }))
}

impl StoredSeason {
    /// The last read if younger than [`SNAPSHOT_AGE`], else a new one.
    async fn snapshot(&self) -> Result<Arc<Snapshot>, String> {
        let mut last = self.snapshot.lock().await;
        if let Some((taken, snapshot)) = last.as_ref()
            && taken.elapsed() < SNAPSHOT_AGE
        {
            return Ok(Arc::clone(snapshot));
        }
        let season = Arc::clone(&self.season);
        let runtime = tokio::runtime::Handle::current();
        // The SQLite store reads synchronously, and the tables are
        // computation: neither may hold a thread that plays games.
        let snapshot = tokio::task::spawn_blocking(move || {
            let games = runtime
                .block_on(season.store.games(&season.name))
                .map_err(|e| e.to_string())?;
            let overview = season.overview(&games)?;
            Ok::<_, String>(Snapshot { games, overview })
        })
        .await
        .map_err(|e| format!("reading the season failed: {e}"))??;
        let snapshot = Arc::new(snapshot);
        *last = Some((Instant::now(), Arc::clone(&snapshot)));
        Ok(snapshot)
    }

    async fn overview(&self) -> Result<SeasonOverview, String> {
        Ok(self.snapshot().await?.overview.clone())
    }

    async fn games(&self, first: u32, limit: u32) -> Result<GamesPage, String> {
        let snapshot = self.snapshot().await?;
        let total = u32::try_from(snapshot.games.len()).unwrap_or(u32::MAX);
        let games = snapshot
            .games
            .iter()
            .filter(|row| row.game.number >= first)
            .take(limit as usize)
            .map(|row| {
                let record = row.record.as_ref();
                GameEntry {
                    number: row.game.number,
                    state: row.state.as_str().to_owned(),
                    players: record.map(|r| r.players.clone()).unwrap_or_default(),
                    win_points: record.map(|r| r.win_points.clone()).unwrap_or_default(),
                    points: record.map(|r| r.points.clone()).unwrap_or_default(),
                    worker: row.worker.clone(),
                    error: row.error.clone(),
                    // The store says whether a replay is there only by
                    // handing it out; a done game's replay is stored with
                    // its result unless the worker kept the replay file
                    // (then the record names it).
                    replay: row.state == GameState::Done
                        && record.is_some_and(|r| r.replay.is_none()),
                }
            })
            .collect();
        Ok(GamesPage { total, games })
    }
}

impl Season {
    /// The season's tables over `games`.
    fn overview(&self, games: &[GameRow]) -> Result<SeasonOverview, String> {
        let standings = report::standings(&self.definition, games).map_err(|e| e.to_string())?;
        let ranking = standings.to_json()["ranking"]
            .as_str()
            .unwrap_or_default()
            .replace('_', " ");
        let progress = report::Progress::of(games);
        Ok(SeasonOverview {
            name: self.name.clone(),
            game: self.definition.game.clone(),
            seed: self.definition.seed,
            ranking,
            standings: standings
                .rows
                .iter()
                .map(|row| StandingRow {
                    rank: row.rank,
                    player: row.stats.name.clone(),
                    games: row.stats.games(),
                    wins: row.stats.wins,
                    draws: row.stats.draws,
                    losses: row.stats.losses,
                    win_points: row.win_points,
                    rating: row.rating.estimate,
                    rating_low: row.rating.low,
                    rating_high: row.rating.high,
                })
                .collect(),
            ratings: report::live_ratings(&self.definition, games)
                .into_iter()
                .map(|row| RatingRow {
                    player: row.name,
                    games: row.games,
                    rating: row.rating,
                    interval: 2.0 * row.uncertainty,
                })
                .collect(),
            progress: ProgressView {
                total: progress.done + progress.running + progress.waiting + progress.failed,
                done: progress.done,
                running: progress.running,
                waiting: progress.waiting,
                failed: progress.failed,
                eta_secs: progress.eta.map(|eta| eta.as_secs()),
                workers: progress
                    .workers
                    .iter()
                    .map(|(worker, (running, done))| WorkerRow {
                        worker: worker.clone(),
                        running: *running,
                        done: *done,
                    })
                    .collect(),
            },
        })
    }
}

impl SeasonSource for StoredSeason {
    fn overview(&self) -> SourceFuture<'_, SeasonOverview> {
        Box::pin(self.overview())
    }

    fn games(&self, first: u32, limit: u32) -> SourceFuture<'_, GamesPage> {
        Box::pin(self.games(first, limit))
    }

    fn replay(&self, number: u32) -> SourceFuture<'_, Option<(GameType, Vec<u8>)>> {
        let season = Arc::clone(&self.season);
        let runtime = tokio::runtime::Handle::current();
        Box::pin(async move {
            // As a snapshot: off the threads that play games.
            let replay = tokio::task::spawn_blocking(move || {
                runtime
                    .block_on(season.store.replay(&season.name, number))
                    .map(|replay| replay.map(|bytes| (season.game, bytes)))
                    .map_err(|e| e.to_string())
            })
            .await
            .map_err(|e| format!("reading the replay failed: {e}"))??;
            Ok(replay)
        })
    }
}
