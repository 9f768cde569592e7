//! The season page's source for `serve --store`: a season read from its
//! store (SQLite or PostgreSQL) through the web crate's read-only
//! [`SeasonSource`], so that the web crate need not depend on the season
//! crate, which sits above it. Its standings, rating and progress are
//! computed here; its finished games (replays, players' logs, wire logs)
//! the pages read through the season's archive ([`SeasonArchive`]), the
//! one interface to finished games.
//!
//! The season is read at most once per [`SNAPSHOT_AGE`] however many pages
//! ask (one read at a time; the others wait for it and share it), and only
//! what may still change: games are numbered from 1, and the leading run
//! of games that are done or failed — final, mostly the early numbers,
//! since workers claim in order — is kept from earlier reads; the rest is
//! read a page of [`READ_PAGE`] games at a time (the store's keyset
//! paging). The tables are computed on a blocking thread, not on the
//! runtime's threads that play the server's games.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use spielleiter_archive::GameArchive;
use spielleiter_season::{
    AnyStore, GameRow, GameState, SeasonArchive, SeasonDefinition, SeasonStore, report,
};
use spielleiter_web::season::{
    GameEntry, GamesPage, ProgressView, RatingRow, SeasonOverview, SeasonSource, SourceFuture,
    StandingRow, WorkerRow,
};

/// How long a read of the season serves the pages before the next.
pub const SNAPSHOT_AGE: Duration = Duration::from_secs(2);

/// Games read from the store by one query.
pub const READ_PAGE: u32 = 500;

/// One season of a store, as the season page reads it.
#[derive(Debug)]
pub struct StoredSeason {
    season: Arc<Season>,
    /// What the reads so far found; the lock makes one read at a time.
    reads: tokio::sync::Mutex<Reads>,
}

/// What the reads of a season so far found.
#[derive(Debug, Default)]
struct Reads {
    /// The last read and when it was taken.
    last: Option<(Instant, Arc<Snapshot>)>,
    /// Games 1 to n, all done or failed: never read again.
    settled: Vec<GameRow>,
}

/// The season's store and what does not change.
#[derive(Debug)]
struct Season {
    store: Arc<AnyStore>,
    /// The season's finished games, for the replay viewer and the logs.
    archive: Arc<SeasonArchive<AnyStore>>,
    name: String,
    definition: SeasonDefinition,
}

/// One read of the season: its games (by number, from 1) and its tables.
#[derive(Debug)]
struct Snapshot {
    games: Vec<GameRow>,
    overview: SeasonOverview,
}

/// Opens the season `name` of the store `url` (`None`: its only season).
///
/// # Errors
///
/// The store cannot be opened, holds no such season (or, without a name,
/// not exactly one), or the season's game is not hosted.
pub async fn open(url: &str, name: Option<&str>) -> anyhow::Result<Arc<dyn SeasonSource>> {
    let store = spielleiter_season::open_existing(url)
        .await
        .context("cannot open the season's store (--store, SPIELLEITER_STORE or season.store)")?;
    let name = crate::season::season_name(&store, name).await?;
    let name = name.as_str();
    let definition = store.definition(name).await?;
    tracing::info!(season = name, store = %store.describe(), "the season page shows its season");
    let store = Arc::new(store);
    let archive = Arc::new(SeasonArchive::open(Arc::clone(&store), name).await?);
    Ok(Arc::new(StoredSeason {
        season: Arc::new(Season {
            archive,
            store,
            name: name.to_owned(),
            definition,
        }),
        reads: tokio::sync::Mutex::new(Reads::default()),
    }))
}

impl StoredSeason {
    /// The last read if younger than [`SNAPSHOT_AGE`], else a new one.
    async fn snapshot(&self) -> Result<Arc<Snapshot>, String> {
        let mut reads = self.reads.lock().await;
        if let Some((taken, snapshot)) = reads.last.as_ref()
            && taken.elapsed() < SNAPSHOT_AGE
        {
            return Ok(Arc::clone(snapshot));
        }
        let season = &self.season;
        let mut open = Vec::new();
        let mut after = u32::try_from(reads.settled.len()).unwrap_or(u32::MAX);
        loop {
            let page = season
                .store
                .games_after(&season.name, after, READ_PAGE)
                .await
                .map_err(|e| e.to_string())?;
            let full = page.len() >= READ_PAGE as usize;
            if let Some(last) = page.last() {
                after = last.game.number;
            }
            open.extend(page);
            if !full {
                break;
            }
        }
        let mut games = Vec::with_capacity(reads.settled.len() + open.len());
        games.extend(reads.settled.iter().cloned());
        games.extend(open);
        // The tables are computation: off the threads that play games.
        let season = Arc::clone(&self.season);
        let (games, overview) = tokio::task::spawn_blocking(move || {
            let overview = season.overview(&games);
            (games, overview)
        })
        .await
        .map_err(|e| format!("reading the season failed: {e}"))?;
        let overview = overview?;
        let settled = reads.settled.len();
        let newly_settled = games[settled..]
            .iter()
            .enumerate()
            .take_while(|(i, row)| {
                row.game.number as usize == settled + i + 1
                    && matches!(row.state, GameState::Done | GameState::Failed)
            })
            .count();
        let newly = games[settled..settled + newly_settled].to_vec();
        reads.settled.extend(newly);
        let snapshot = Arc::new(Snapshot { games, overview });
        reads.last = Some((Instant::now(), Arc::clone(&snapshot)));
        Ok(snapshot)
    }

    async fn overview(&self) -> Result<SeasonOverview, String> {
        Ok(self.snapshot().await?.overview.clone())
    }

    async fn games(&self, first: u32, limit: u32) -> Result<GamesPage, String> {
        let snapshot = self.snapshot().await?;
        let total = u32::try_from(snapshot.games.len()).unwrap_or(u32::MAX);
        // Numbered from 1 without gaps: game N is at N - 1.
        let start = (first.max(1) - 1) as usize;
        let games = (snapshot.games.get(start..).unwrap_or_default().iter())
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

    fn archive(&self) -> Arc<dyn GameArchive> {
        Arc::clone(&self.season.archive) as Arc<dyn GameArchive>
    }
}
