//! What the season page reads ([`SeasonSource`]) and the data it returns:
//! the web side's read-only view of a season's store, which the season
//! crate, above this one, implements.

use std::{future::Future, pin::Pin, sync::Arc};

use serde::Serialize;
use spielleiter_archive::GameArchive;

/// A future a [`SeasonSource`] returns.
pub type SourceFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, String>> + Send + 'a>>;

/// Where the season page reads its season: read-only, one season. Errors
/// are one line for the page (no password, no path of the server).
pub trait SeasonSource: Send + Sync + std::fmt::Debug {
    /// The season's standings, live rating and progress.
    fn overview(&self) -> SourceFuture<'_, SeasonOverview>;

    /// The games numbered from `first` on, at most `limit` of them, with
    /// how many games the season has.
    fn games(&self, first: u32, limit: u32) -> SourceFuture<'_, GamesPage>;

    /// The season's games as an archive (a game's key is its number): its
    /// replays, players' logs and wire logs.
    fn archive(&self) -> Arc<dyn GameArchive>;
}

/// A season at a glance.
#[derive(Clone, Debug, Serialize)]
pub struct SeasonOverview {
    /// The season's name.
    pub name: String,
    /// The game's protocol id.
    pub game: String,
    /// The season's seed.
    pub seed: u64,
    /// How the standings are ranked, in words.
    pub ranking: String,
    /// The standings over the games done, best first.
    pub standings: Vec<StandingRow>,
    /// The live rating, best (cautious estimate) first.
    pub ratings: Vec<RatingRow>,
    /// How far the season is.
    pub progress: ProgressView,
}

/// A row of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct StandingRow {
    /// The place.
    pub rank: u32,
    /// The player.
    pub player: String,
    /// Games counted.
    pub games: u32,
    /// Games won, drawn, lost.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// The game's own win points.
    pub win_points: u32,
    /// The Bradley–Terry rating and its interval.
    pub rating: f64,
    /// The interval's low end.
    pub rating_low: f64,
    /// The interval's high end.
    pub rating_high: f64,
}

/// A row of the live rating.
#[derive(Clone, Debug, Serialize)]
pub struct RatingRow {
    /// The player.
    pub player: String,
    /// Games it counts.
    pub games: u32,
    /// The rating.
    pub rating: f64,
    /// Two standard deviations: about 95 % of the truth within ± this.
    pub interval: f64,
}

/// How far a season is.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProgressView {
    /// Games in the schedule.
    pub total: u32,
    /// Games with a result.
    pub done: u32,
    /// Games a worker holds.
    pub running: u32,
    /// Games nobody holds.
    pub waiting: u32,
    /// Games given up.
    pub failed: u32,
    /// The time left at the pace so far, in seconds.
    pub eta_secs: Option<u64>,
    /// Per worker: its name, games it holds, results it stored.
    pub workers: Vec<WorkerRow>,
}

/// One worker's share.
#[derive(Clone, Debug, Serialize)]
pub struct WorkerRow {
    /// The worker's name.
    pub worker: String,
    /// Games it holds now.
    pub running: u32,
    /// Results it stored.
    pub done: u32,
}

/// A page of a season's games.
#[derive(Clone, Debug, Serialize)]
pub struct GamesPage {
    /// Games in the season.
    pub total: u32,
    /// The games of this page, by number.
    pub games: Vec<GameEntry>,
}

/// One game of a season.
#[derive(Clone, Debug, Serialize)]
pub struct GameEntry {
    /// Its number in the schedule (1 on).
    pub number: u32,
    /// `waiting`, `running`, `done` or `failed`.
    pub state: String,
    /// The players in seat order, once played.
    pub players: Vec<String>,
    /// Their win points, once played.
    pub win_points: Vec<u32>,
    /// Their game points, once played.
    pub points: Vec<u32>,
    /// The worker that holds or held it.
    pub worker: Option<String>,
    /// Why it failed last.
    pub error: Option<String>,
    /// Whether a replay is stored (its viewer is `/season/games/{number}`).
    pub replay: bool,
}
