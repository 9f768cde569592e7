//! [`run_match`]: a match — many games between one player per seat, the
//! seats rotating — played as a season of one table on an SQLite store in
//! memory by this process's own worker ([`play_tables`]), the loop that
//! plays `tournament` and `worker` too. The match's results file (JSON
//! lines) stays what users know: the run resumes from it (its games are
//! not played again, a line cut short is dropped, a file of another match
//! is refused) and every game is appended to it the moment it is stored.
//!
//! The store lives in memory because the results file is the match's
//! durable record: a store file beside it would be a second one to keep
//! in step (an older results file, one copied from elsewhere, `--tests`
//! raised or lowered between runs), while the season only has to hold the
//! games this run plays.

use std::{
    path::Path,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use spielleiter_arena::{
    ArenaError, GameRecord, MatchObserver, MatchSettings, ResultsFile, Significance, Summary,
    missing_games, significantly_better,
};
use tokio_util::sync::CancellationToken;

use crate::{
    SeasonDefinition, SeasonPlayer,
    definition::ScheduledGame,
    error::SeasonError,
    sqlite::SqliteStore,
    store::SeasonStore,
    worker::{WorkerEvent, WorkerObserver, WorkerSettings, play_tables},
};

/// The season's name in a match's store.
const SEASON: &str = "match";
/// The worker's name in a match's store.
const WORKER: &str = "match";

/// How long a game's claim holds in a match's store, renewed every
/// [`HEARTBEAT`]: the store is this process's alone, so no other worker
/// could take a game over; the lease only has to outlast a stalled
/// runtime.
const LEASE: Duration = Duration::from_secs(60 * 60);
/// How often a held game's lease is renewed.
const HEARTBEAT: Duration = Duration::from_secs(60);

/// The end of a match run.
#[derive(Debug)]
pub struct MatchReport {
    /// Statistics of every recorded game.
    pub summary: Summary,
    /// Every recorded game, those of earlier runs first, then in the order
    /// they ended.
    pub records: Vec<GameRecord>,
    /// Games that were in the results file when the run started.
    pub resumed: u32,
    /// Whether `shutdown` stopped the run before all games were played.
    pub interrupted: bool,
    /// Set when the match stopped early because one player was
    /// significantly better ([`MatchSettings::significance`]).
    pub significant: Option<Significance>,
}

/// What the worker's observer keeps of a match as its games are stored.
struct Tally {
    names: Vec<String>,
    records: Vec<GameRecord>,
    results: ResultsFile,
    significant: Option<Significance>,
    /// The results file could not be written.
    failure: Option<ArenaError>,
}

/// Runs the match until every game is recorded, one player is
/// significantly better (the games running then are finished and
/// recorded), or `shutdown` is cancelled (running games are then
/// abandoned unrecorded, their players killed and their rooms cancelled;
/// a later run plays them again). Up to [`MatchSettings::parallel`] games
/// run at once, each on `settings` as the season's one table.
///
/// # Errors
///
/// The settings do not make a match, the results file or log directory
/// cannot be used, or a game failed outside the players (the server
/// cannot be administered): the match ends with that failure. Games
/// finished before an error are recorded.
pub async fn run_match(
    settings: MatchSettings,
    shutdown: CancellationToken,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, SeasonError> {
    let seats = settings.game.player_count();
    if settings.players.len() != seats {
        return Err(ArenaError::Settings(format!(
            "{} is a game of {seats} players, but the match has {}",
            settings.game,
            settings.players.len()
        ))
        .into());
    }
    settings.check_players().await?;
    let names = settings.names();
    let (results, records) = ResultsFile::open(&settings.results, &settings.key())?;
    let resumed = records.len() as u32;
    let to_play = missing_games(&records, settings.games);
    settings.create_log_dir()?;
    observer.started(
        resumed,
        to_play.len() as u32,
        &Summary::from_records(&names, &records),
    );

    let store = Arc::new(SqliteStore::open_async(Path::new(":memory:")).await?);
    let schedule: Vec<ScheduledGame> = to_play
        .iter()
        .map(|&game| ScheduledGame {
            number: game,
            table: 0,
            table_game: game,
        })
        .collect();
    store
        .create(SEASON, &definition(&settings), &schedule)
        .await?;

    let mut worker = WorkerSettings::new(WORKER.to_owned());
    worker.slots = settings.parallel;
    worker.lease = LEASE;
    worker.heartbeat = HEARTBEAT;
    // The server writes each replay to its directory, named in the
    // record; the store keeps the results only for this run.
    worker.keep_replay_files = true;
    worker.leave_unstartable = false;
    worker.end_at_failure = true;
    let stop_claiming = worker.stop_claiming.clone();

    let tally = Arc::new(Mutex::new(Tally {
        names: names.clone(),
        records,
        results,
        significant: None,
        failure: None,
    }));
    let (events, mut finished) = tokio::sync::mpsc::unbounded_channel();
    let significance = settings
        .significance
        .map(|level| (level, settings.min_tests));
    let worker_observer: WorkerObserver = {
        let tally = Arc::clone(&tally);
        let shutdown = shutdown.clone();
        Arc::new(move |event: &WorkerEvent| {
            let WorkerEvent::Recorded(record) = event else {
                return;
            };
            let mut tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
            if let Err(error) = tally.results.append(record) {
                tally.failure.get_or_insert(error);
                shutdown.cancel();
            }
            tally.records.push((**record).clone());
            let summary = Summary::from_records(&tally.names, &tally.records);
            // Decided here, in the slot that stored the game, before any
            // slot claims again: the games running are finished and
            // recorded, no new one starts.
            if let Some((level, min_tests)) = significance
                && summary.games >= min_tests
                && tally.significant.is_none()
            {
                tally.significant = significantly_better(&summary, level);
                if tally.significant.is_some() {
                    stop_claiming.cancel();
                }
            }
            let _ = events.send(((**record).clone(), summary));
        })
    };
    let run = play_tables(
        store,
        SEASON,
        vec![settings.clone()],
        &worker,
        shutdown,
        Some(worker_observer),
    );
    tokio::pin!(run);
    let played = loop {
        tokio::select! {
            played = &mut run => break played,
            Some((record, summary)) = finished.recv() => observer.game_finished(&record, &summary),
        }
    };
    while let Ok((record, summary)) = finished.try_recv() {
        observer.game_finished(&record, &summary);
    }
    played?;
    let mut tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(error) = tally.failure.take() {
        return Err(error.into());
    }
    let records = std::mem::take(&mut tally.records);
    let significant = tally.significant;
    let all_played = missing_games(&records, settings.games).is_empty();
    Ok(MatchReport {
        summary: Summary::from_records(&names, &records),
        records,
        resumed,
        interrupted: !all_played && significant.is_none(),
        significant,
    })
}

/// The match as a season's definition: its game, players, games, seed and
/// clock. The store needs one; the games are played on the match's own
/// settings ([`play_tables`]), not on tables derived from it.
fn definition(settings: &MatchSettings) -> SeasonDefinition {
    SeasonDefinition {
        game: settings.game.id().to_owned(),
        players: (settings.players.iter())
            .map(|player| SeasonPlayer {
                name: player.name.clone(),
                start: player.program.to_string(),
            })
            .collect(),
        games_per_table: settings.games,
        seed: settings.seed,
        timed: settings.players.iter().all(|player| player.timed),
    }
}
