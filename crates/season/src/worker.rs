//! [`run_worker`]: a worker of a season — claims games from the store, plays
//! each on the server of its match settings (in its own process: the
//! `worker` command and `tournament` start one), keeps the claim's lease
//! alive while the game runs, and writes the result and the gzipped replay
//! under the claim, or gives the game back when something outside the
//! players failed. A worker whose lease was lost writes nothing and says
//! so; a store that cannot be reached is retried with back-off.

use std::{
    io::Write,
    path::Path,
    sync::Arc,
    time::{Duration, Instant},
};

use flate2::{Compression, write::GzEncoder};
use spielleiter_arena::{GameRecord, MatchSettings, Program, play_table_game};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

use crate::{
    definition::command_exists,
    error::SeasonError,
    store::{Claim, GameState, GivenBack, SeasonStore},
};

/// How a worker claims and holds games.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// The worker's name in the store (host and process by default).
    pub name: String,
    /// Games played at the same time.
    pub slots: usize,
    /// How long a claim holds without a heartbeat.
    pub lease: Duration,
    /// How often the lease is renewed while the game runs.
    pub heartbeat: Duration,
    /// Failures outside the players after which a game is given up.
    pub max_failures: u32,
    /// How long to wait before asking again when no game can be claimed
    /// but the season is not over (other workers hold games).
    pub poll: Duration,
    /// Whether replays stay files where the server wrote them, named in
    /// the results (a `tournament` on one machine), instead of going into
    /// the store, gzipped (a worker of a season on many machines).
    pub keep_replay_files: bool,
    /// Whether the games of a player this host cannot start (a command
    /// not found) are left to other workers (a season on many machines),
    /// or played and recorded as that player's crash (a `tournament`,
    /// whose worker is the only one).
    pub leave_unstartable: bool,
}

impl WorkerSettings {
    /// One slot, a 15 s lease renewed every 3 s, 3 failures, a 1 s poll.
    pub fn new(name: String) -> WorkerSettings {
        WorkerSettings {
            name,
            slots: 1,
            lease: Duration::from_secs(15),
            heartbeat: Duration::from_secs(3),
            max_failures: 3,
            poll: Duration::from_secs(1),
            keep_replay_files: false,
            leave_unstartable: true,
        }
    }
}

/// What happened to a game a worker played.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    /// The result was stored.
    Recorded(Box<GameRecord>),
    /// The lease had been lost; the result was discarded.
    Discarded {
        /// The game's number in the season.
        number: u32,
    },
    /// The game was given up after too many failures.
    Failed {
        /// The game's number in the season.
        number: u32,
        /// The last failure.
        error: String,
    },
}

/// Told about every game a worker finished with; called from the worker's
/// tasks.
pub type WorkerObserver = Arc<dyn Fn(&WorkerEvent) + Send + Sync>;

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerReport {
    /// Results it stored.
    pub recorded: u32,
    /// Results refused because its lease was lost.
    pub discarded: u32,
    /// Games it gave back after a failure.
    pub given_back: u32,
    /// Whether `shutdown` stopped it before the season was over.
    pub interrupted: bool,
}

/// The first pause after a failed call to the store; it doubles up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Calls the store until it answers, pausing with back-off after
/// transient failures (a lost or refused connection); `None` once
/// `shutdown` is cancelled.
async fn patiently<T, F, Fut>(
    what: &str,
    shutdown: &CancellationToken,
    mut call: F,
) -> Result<Option<T>, SeasonError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, SeasonError>>,
{
    let mut pause = FIRST_BACKOFF;
    loop {
        match call().await {
            Ok(value) => return Ok(Some(value)),
            Err(error) if error.is_transient() => {
                warn!(%error, retry_ms = pause.as_millis() as u64, "{what} failed; trying again");
            }
            Err(error) => return Err(error),
        }
        tokio::select! {
            () = shutdown.cancelled() => return Ok(None),
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(MAX_BACKOFF);
    }
}

/// Plays the season's games until none is left to claim and none is held
/// by another worker, or `shutdown` is cancelled (a game running then is
/// given back unplayed, without counting as a failure). `template` says
/// how games are played (the server, limits, log directory); the season's
/// definition gives the rest.
///
/// # Errors
///
/// The season does not exist or is unusable, or the store fails with
/// something other than a lost connection. Results stored before stay.
pub async fn run_worker<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    template: &MatchSettings,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    let Some(definition) =
        patiently("reading the season", &shutdown, || store.definition(season)).await?
    else {
        return Ok(WorkerReport {
            interrupted: true,
            ..WorkerReport::default()
        });
    };
    let tournament = definition.tournament(template)?;
    let matches: Arc<Vec<MatchSettings>> = Arc::new(
        (0..tournament.tables().len())
            .filter_map(|table| tournament.match_of_table(table))
            .collect(),
    );
    info!(season, worker = %settings.name, slots = settings.slots, games = tournament.schedule().len(), "worker starts");
    // A player this host cannot start: said once, and its games are left
    // to workers that can.
    let missing: Vec<&str> = tournament
        .players
        .iter()
        .filter(|p| match &p.program {
            Program::Executable { path, .. } => !command_exists(path),
            Program::Builtin(_) => false,
            // Docker and the image are checked when the game's match starts
            // (the runner's preflight); a worker without them fails that
            // game, which another worker then claims.
            Program::Docker(_) => false,
        })
        .map(|p| p.name.as_str())
        .collect();
    let tables: Option<Arc<Vec<u32>>> = if missing.is_empty() || !settings.leave_unstartable {
        None
    } else {
        let playable: Vec<u32> = tournament
            .tables()
            .iter()
            .enumerate()
            .filter(|(_, table)| {
                table
                    .players
                    .iter()
                    .all(|&p| !missing.contains(&tournament.players[p].name.as_str()))
            })
            .map(|(index, _)| index as u32)
            .collect();
        error!(season, worker = %settings.name, players = %missing.join(", "), playable_tables = playable.len(), "this host cannot start these players (command not found); their games are left to other workers");
        Some(Arc::new(playable))
    };
    let mut slots = JoinSet::new();
    for slot in 0..settings.slots.max(1) {
        let store = Arc::clone(&store);
        let matches = Arc::clone(&matches);
        let settings = settings.clone();
        let shutdown = shutdown.clone();
        let observer = observer.clone();
        let season = season.to_owned();
        let tables = tables.clone();
        slots.spawn(async move {
            run_slot(
                store,
                &season,
                matches,
                tables.as_deref().map(Vec::as_slice),
                &settings,
                slot,
                shutdown,
                observer,
            )
            .await
        });
    }
    let mut report = WorkerReport::default();
    let mut failure = None;
    while let Some(joined) = slots.join_next().await {
        match joined {
            Ok(Ok(slot)) => {
                report.recorded += slot.recorded;
                report.discarded += slot.discarded;
                report.given_back += slot.given_back;
            }
            Ok(Err(error)) => {
                shutdown.cancel();
                failure.get_or_insert(error);
            }
            Err(panic) => {
                shutdown.cancel();
                failure.get_or_insert(SeasonError::Definition(format!(
                    "a worker slot failed: {panic}"
                )));
            }
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    report.interrupted = shutdown.is_cancelled();
    Ok(report)
}

#[allow(clippy::too_many_arguments)]
async fn run_slot<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    matches: Arc<Vec<MatchSettings>>,
    tables: Option<&[u32]>,
    settings: &WorkerSettings,
    slot: usize,
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    let mut report = WorkerReport::default();
    while !shutdown.is_cancelled() {
        let claimed = patiently("claiming a game", &shutdown, || {
            store.claim(
                season,
                &settings.name,
                settings.lease,
                settings.max_failures,
                tables,
            )
        })
        .await?;
        let claim = match claimed {
            None => break,
            Some(Some(claim)) => claim,
            Some(None) => {
                let Some(games) =
                    patiently("reading the season", &shutdown, || store.games(season)).await?
                else {
                    break;
                };
                if games
                    .iter()
                    .all(|g| matches!(g.state, GameState::Done | GameState::Failed))
                {
                    break;
                }
                tokio::select! {
                    () = shutdown.cancelled() => break,
                    () = tokio::time::sleep(settings.poll) => continue,
                }
            }
        };
        let Some(table) = matches.get(claim.game.table as usize) else {
            return Err(SeasonError::Corrupt {
                what: "game",
                cause: format!(
                    "game {} names table {}, which the season has not",
                    claim.game.number, claim.game.table
                ),
            });
        };
        info!(season, worker = %settings.name, slot, game = claim.game.number, attempt = claim.attempt, "game claimed");
        play_claimed(
            &*store,
            &claim,
            table,
            settings,
            &shutdown,
            observer.as_ref(),
            &mut report,
        )
        .await?;
    }
    Ok(report)
}

/// Plays one claimed game with its heartbeat and stores what came of it.
async fn play_claimed<S: SeasonStore>(
    store: &S,
    claim: &Claim,
    table: &MatchSettings,
    settings: &WorkerSettings,
    shutdown: &CancellationToken,
    observer: Option<&WorkerObserver>,
    report: &mut WorkerReport,
) -> Result<(), SeasonError> {
    let game_stop = shutdown.child_token();
    let lease_lost = CancellationToken::new();
    let played = {
        let heartbeat = keep_lease(store, claim, settings, &game_stop, &lease_lost);
        let game = play_table_game(table, claim.game.table_game, &game_stop);
        tokio::pin!(game);
        tokio::select! {
            result = &mut game => result,
            () = heartbeat => game.await,
        }
    };
    let number = claim.game.number;
    let fields = || {
        (
            claim.season.as_str(),
            settings.name.as_str(),
            number,
            claim.attempt,
        )
    };
    match played {
        Ok(Some(mut record)) => {
            let replay = if settings.keep_replay_files {
                None
            } else if let Some(path) = record.replay.take() {
                packed_replay(&path)
            } else {
                let (season, worker, game, attempt) = fields();
                warn!(
                    season,
                    worker,
                    game,
                    attempt,
                    room = %record.room,
                    duration_ms = record.duration_ms,
                    causes = ?record.causes,
                    "the server's replay of this game was not found; the result is stored without it"
                );
                None
            };
            let stored = patiently("storing a result", shutdown, || {
                store.record(claim, &record, replay.as_deref())
            })
            .await?;
            match stored {
                Some(true) => {
                    let (season, worker, game, attempt) = fields();
                    info!(season, worker, game, attempt, "result stored");
                    report.recorded += 1;
                    if let Some(observer) = observer {
                        observer(&WorkerEvent::Recorded(Box::new(record)));
                    }
                }
                Some(false) => {
                    let (season, worker, game, attempt) = fields();
                    warn!(
                        season,
                        worker,
                        game,
                        attempt,
                        "the lease of this game was lost (expired or claimed again): its result is discarded"
                    );
                    report.discarded += 1;
                    if let Some(observer) = observer {
                        observer(&WorkerEvent::Discarded { number });
                    }
                }
                None => {}
            }
        }
        Ok(None) if lease_lost.is_cancelled() => {
            let (season, worker, game, attempt) = fields();
            warn!(
                season,
                worker,
                game,
                attempt,
                "the lease of this game was lost while it ran: game abandoned, nothing stored"
            );
            report.discarded += 1;
            if let Some(observer) = observer {
                observer(&WorkerEvent::Discarded { number });
            }
        }
        Ok(None) => {
            // Stopped by the worker's shutdown: the game goes back
            // unplayed and uncounted, if the store can still be told;
            // otherwise its lease runs out.
            let _ = tokio::time::timeout(
                Duration::from_secs(5),
                store.give_back(claim, None, settings.max_failures),
            )
            .await;
        }
        Err(failure) => {
            let text = failure.to_string();
            let given = patiently("giving a game back", shutdown, || {
                store.give_back(claim, Some(&text), settings.max_failures)
            })
            .await?;
            report.given_back += 1;
            let (season, worker, game, attempt) = fields();
            match given {
                Some(GivenBack::Failed) => {
                    error!(season, worker, game, attempt, error = %text, "game failed too often and is given up");
                    if let Some(observer) = observer {
                        observer(&WorkerEvent::Failed {
                            number,
                            error: text.clone(),
                        });
                    }
                }
                _ => {
                    warn!(season, worker, game, attempt, error = %text, "game failed outside the players; given back")
                }
            }
        }
    }
    Ok(())
}

/// Renews the lease every heartbeat until `stop`; when the store says the
/// claim is no longer valid, cancels `lost` and `stop` (the game is
/// abandoned: its result could not be stored). A store that cannot be
/// reached is asked again at the next beat.
async fn keep_lease<S: SeasonStore>(
    store: &S,
    claim: &Claim,
    settings: &WorkerSettings,
    stop: &CancellationToken,
    lost: &CancellationToken,
) {
    let mut last_renewed = Instant::now();
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(settings.heartbeat) => {}
        }
        match store.heartbeat(claim, settings.lease).await {
            Ok(true) => last_renewed = Instant::now(),
            Ok(false) => {
                lost.cancel();
                stop.cancel();
                return;
            }
            Err(error) => warn!(
                season = %claim.season,
                game = claim.game.number,
                %error,
                unrenewed_ms = last_renewed.elapsed().as_millis() as u64,
                "cannot renew the lease; trying again"
            ),
        }
    }
}

/// The replay file gzipped (kept as it is when the server gzipped it),
/// then removed: the store keeps it now. `None` (and a warning) when it
/// cannot be read.
fn packed_replay(path: &Path) -> Option<Vec<u8>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            warn!(path = %path.display(), %error, "cannot read the replay; the result is stored without it");
            return None;
        }
    };
    let packed = if bytes.starts_with(&[0x1f, 0x8b]) {
        bytes
    } else {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        if let Err(error) = encoder.write_all(&bytes) {
            warn!(%error, "cannot compress the replay");
            return None;
        }
        match encoder.finish() {
            Ok(packed) => packed,
            Err(error) => {
                warn!(%error, "cannot compress the replay");
                return None;
            }
        }
    };
    if let Err(error) = std::fs::remove_file(path) {
        warn!(path = %path.display(), %error, "cannot remove the stored replay's file");
    }
    Some(packed)
}
