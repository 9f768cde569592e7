//! The season page's source for `serve --store`: a season read from its
//! store (SQLite or PostgreSQL) through the web crate's read-only
//! [`SeasonSource`], so that the web crate need not depend on the season
//! crate, which sits above it.

use std::sync::Arc;

use anyhow::Context;
use spielleiter_rules::GameType;
use spielleiter_season::{AnyStore, GameState, SeasonDefinition, SeasonStore, report};
use spielleiter_web::season::{
    GameEntry, GamesPage, ProgressView, RatingRow, SeasonOverview, SeasonSource, SourceFuture,
    StandingRow, WorkerRow,
};

/// One season of a store, as the season page reads it.
#[derive(Debug)]
pub struct StoredSeason {
    store: AnyStore,
    name: String,
    definition: SeasonDefinition,
    game: GameType,
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
        store,
        name: name.to_owned(),
        definition,
        game,
    }))
}

impl StoredSeason {
    async fn overview(&self) -> Result<SeasonOverview, String> {
        let games = self
            .store
            .games(&self.name)
            .await
            .map_err(|e| e.to_string())?;
        let standings = report::standings(&self.definition, &games).map_err(|e| e.to_string())?;
        let ranking = standings.to_json()["ranking"]
            .as_str()
            .unwrap_or_default()
            .replace('_', " ");
        let progress = report::Progress::of(&games);
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
            ratings: report::live_ratings(&self.definition, &games)
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

    async fn games(&self, first: u32, limit: u32) -> Result<GamesPage, String> {
        let games = self
            .store
            .games(&self.name)
            .await
            .map_err(|e| e.to_string())?;
        let total = u32::try_from(games.len()).unwrap_or(u32::MAX);
        let games = games
            .into_iter()
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
                    worker: row.worker,
                    error: row.error,
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

impl SeasonSource for StoredSeason {
    fn overview(&self) -> SourceFuture<'_, SeasonOverview> {
        Box::pin(self.overview())
    }

    fn games(&self, first: u32, limit: u32) -> SourceFuture<'_, GamesPage> {
        Box::pin(self.games(first, limit))
    }

    fn replay(&self, number: u32) -> SourceFuture<'_, Option<(GameType, Vec<u8>)>> {
        Box::pin(async move {
            let replay = self
                .store
                .replay(&self.name, number)
                .await
                .map_err(|e| e.to_string())?;
            Ok(replay.map(|bytes| (self.game, bytes)))
        })
    }
}
