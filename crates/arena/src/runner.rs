//! [`run_match`]: plays the games of a match that the results file does not
//! hold yet, up to `parallel` at a time, appending each finished game to
//! the file and reporting it to a [`MatchObserver`].

use std::sync::Arc;

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::{
    error::ArenaError,
    game::{GameOutcome, play_game},
    record::{GameRecord, missing_games},
    settings::{MatchSettings, Program},
    stats::{Significance, Summary, significantly_better},
    store::{GameStore, ResultsFile},
};

/// Told about the progress of a match.
pub trait MatchObserver {
    /// The match starts: `done` games are in the results file already,
    /// `to_play` will be played now.
    fn started(&mut self, done: u32, to_play: u32, summary: &Summary);

    /// A game ended and was recorded; `summary` covers every recorded game.
    fn game_finished(&mut self, record: &GameRecord, summary: &Summary);
}

/// An observer that ignores everything.
#[derive(Debug, Default)]
pub struct Quiet;

impl MatchObserver for Quiet {
    fn started(&mut self, _: u32, _: u32, _: &Summary) {}
    fn game_finished(&mut self, _: &GameRecord, _: &Summary) {}
}

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

/// Runs the match until every game is recorded or `shutdown` is cancelled
/// (running games are then abandoned unrecorded, their players killed and
/// their rooms cancelled; a later run plays them again).
///
/// # Errors
///
/// The results file or log directory cannot be used, or the server cannot
/// be administered. Games finished before an error are recorded.
pub async fn run_match(
    settings: MatchSettings,
    shutdown: CancellationToken,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let seats = settings.game.player_count();
    if settings.players.len() != seats {
        return Err(ArenaError::Settings(format!(
            "{} is a game of {seats} players, but the match has {}",
            settings.game,
            settings.players.len()
        )));
    }
    check_players(&settings).await?;
    let names = settings.names();
    let (mut results, mut records) = ResultsFile::open(&settings.results, &settings.key())?;
    let resumed = records.len() as u32;
    let settings = Arc::new(settings);
    let fixtures: Vec<Fixture> = missing_games(&records, settings.games)
        .into_iter()
        .map(|game| Fixture {
            settings: Arc::clone(&settings),
            game,
        })
        .collect();
    create_log_dir(&settings)?;
    observer.started(
        resumed,
        fixtures.len() as u32,
        &Summary::from_records(&names, &records),
    );

    let mut significant = None;
    let all_played = play_fixtures(
        fixtures,
        settings.parallel,
        &shutdown,
        &mut results,
        |record| {
            records.push(record);
            let summary = Summary::from_records(&names, &records);
            if let Some(record) = records.last() {
                observer.game_finished(record, &summary);
            }
            // Games already running are finished and recorded; no new
            // ones start.
            if let Some(level) = settings.significance
                && summary.games >= settings.min_tests
            {
                significant = significant.or(significantly_better(&summary, level));
            }
            significant.is_none()
        },
    )
    .await?;
    Ok(MatchReport {
        summary: Summary::from_records(&names, &records),
        records,
        resumed,
        interrupted: !all_played && significant.is_none(),
        significant,
    })
}

/// Creates the players' log directory if any player is a program.
pub(crate) fn create_log_dir(settings: &MatchSettings) -> Result<(), ArenaError> {
    if settings
        .players
        .iter()
        .any(|p| matches!(p.program, Program::Executable { .. } | Program::Docker(_)))
    {
        std::fs::create_dir_all(&settings.log_dir).map_err(|cause| ArenaError::LogDir {
            path: settings.log_dir.clone(),
            cause,
        })?;
    }
    Ok(())
}

/// Refuses no parallel games, more parallel games than the server holds,
/// built-in bots that do not play the game, and programs that cannot be
/// started; with sandboxed players, refuses to start without Docker or
/// their images and sweeps away what a killed runner left.
pub(crate) async fn check_players(settings: &MatchSettings) -> Result<(), ArenaError> {
    check_settings(settings)?;
    for player in &settings.players {
        player
            .program
            .check_startable()
            .map_err(|e| ArenaError::Settings(format!("player {}: {e}", player.name)))?;
    }
    let images: Vec<&str> = (settings.players.iter())
        .filter_map(|p| match &p.program {
            Program::Docker(sandboxed) => Some(sandboxed.image.as_str()),
            _ => None,
        })
        .collect();
    if !images.is_empty() {
        spielleiter_sandbox::preflight(&images).await?;
    }
    Ok(())
}

/// What holds on any machine: no parallel games, more parallel games than
/// the server holds, built-in bots that do not play the game. Whether a
/// program can be started here is [`check_players`]'s: a season's
/// definition is checked on a machine that may not run its players.
pub(crate) fn check_settings(settings: &MatchSettings) -> Result<(), ArenaError> {
    if settings.parallel == 0 {
        return Err(ArenaError::Settings(
            "--parallel must be at least 1".to_owned(),
        ));
    }
    settings.check_capacity()?;
    for player in &settings.players {
        if let Program::Builtin(kind) = player.program {
            kind.build(settings.game, 0)
                .map_err(|e| ArenaError::Settings(format!("player {}: {e}", player.name)))?;
        }
    }
    Ok(())
}

/// One game to play: the match it belongs to (its players in their order,
/// the server, the limits) and its number in that match.
pub(crate) struct Fixture {
    pub(crate) settings: Arc<MatchSettings>,
    pub(crate) game: u32,
}

/// Plays `fixtures` in their order, up to `parallel` at a time, appending
/// each finished game to `store` and then handing it to `recorded`; once
/// `recorded` returns false, no new game starts (running ones are finished
/// and recorded). Returns whether every fixture was played; the games left
/// are those `shutdown` or `recorded` stopped.
///
/// # Errors
///
/// The store cannot be written, or the server cannot be administered
/// (running games are then abandoned). Games recorded before stay
/// recorded.
pub(crate) async fn play_fixtures(
    fixtures: Vec<Fixture>,
    parallel: usize,
    shutdown: &CancellationToken,
    store: &mut dyn GameStore,
    mut recorded: impl FnMut(GameRecord) -> bool,
) -> Result<bool, ArenaError> {
    let parallel = parallel.max(1);
    let mut queue = fixtures.into_iter();
    let mut running = JoinSet::new();
    let mut failure = None;
    let mut interrupted = false;
    let mut go_on = true;
    loop {
        while running.len() < parallel && !shutdown.is_cancelled() && failure.is_none() && go_on {
            let Some(Fixture { settings, game }) = queue.next() else {
                break;
            };
            let shutdown = shutdown.clone();
            running.spawn(async move { play_game(&settings, game, &shutdown).await });
        }
        let Some(joined) = running.join_next().await else {
            break;
        };
        match joined {
            Ok(Ok(GameOutcome::Finished(record))) => {
                if let Err(error) = store.append(&record) {
                    failure.get_or_insert(error);
                    shutdown.cancel();
                }
                go_on &= recorded(*record);
            }
            Ok(Ok(GameOutcome::Interrupted)) => interrupted = true,
            Ok(Err(error)) => {
                failure.get_or_insert(error);
                shutdown.cancel();
            }
            Err(panic) => {
                failure.get_or_insert(ArenaError::Settings(format!("a game task failed: {panic}")));
                shutdown.cancel();
            }
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    Ok(!interrupted && queue.next().is_none())
}
