//! [`run_worker`]: a worker of a season — claims games from the store, plays
//! each on the server of its match settings (in its own process: the
//! `worker` command, `tournament` and `match` start one; [`play_tables`]
//! plays a season whose tables' settings are given, as `match` does),
//! keeps the claim's lease alive while the game runs, and writes the
//! result and the gzipped replay under the claim, or gives the game back
//! when something outside the players failed. A worker whose lease was
//! lost writes nothing and says so; a store that cannot be reached is
//! retried with back-off, and a store or season that is not there yet is
//! waited for ([`open_when_ready`]), so a worker may start before either.
//!
//! The lease is renewed by a task of its own, whatever the game does; a
//! game is given a bounded time to end once it is stopped (shutdown, lost
//! lease), and a shutdown ends every wait of the worker at once.
//!
//! The replay comes from the server's memory ([`MatchSettings::kept_replays`]),
//! serialised once by the server and never written to a file, and goes into
//! the store with the result, the players' logs and the wire log, in one
//! transaction under the claim ([`SeasonStore::record`]).

use std::{
    collections::BTreeSet,
    sync::Arc,
    time::{Duration, Instant},
};

use spielleiter_archive::FinishedGame;
use spielleiter_arena::{ArenaError, GameRecord, MatchSettings, Program, play_table_game};
use spielleiter_client::ClientError;
use spielleiter_contest::{Phase, Timestamp};
use tokio::{sync::Notify, task::JoinSet};
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

use crate::{
    ContestStore, SeasonDefinition,
    any_store::{AnyStore, open_existing},
    definition::command_exists,
    error::SeasonError,
    store::{Claim, GameState, GivenBack, SeasonStore},
    url_mask::masked_store_url,
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
    /// How often the lease is renewed while the game is held (by a task
    /// of its own, whatever the game does).
    pub heartbeat: Duration,
    /// Failures outside the players after which a game is given up.
    pub max_failures: u32,
    /// How long to wait before asking again when no game can be claimed
    /// but the season is not over (other workers hold games); a game
    /// settled by another slot of this worker ends the wait at once.
    pub poll: Duration,
    /// Whether replays stay files where the server wrote them, named in
    /// the results (a `tournament` on one machine), instead of going into
    /// the store, gzipped (a worker of a season on many machines, whose
    /// server keeps them in memory: [`MatchSettings::kept_replays`]).
    pub keep_replay_files: bool,
    /// Whether the games of a player this host cannot start (a command
    /// not found) are left to other workers (a season on many machines),
    /// or played and recorded as that player's crash (a `tournament`,
    /// whose worker is the only one).
    pub leave_unstartable: bool,
    /// Whether a game that fails outside the players ends the worker with
    /// that failure once the game is given back (a `match`: its store is
    /// its own, so nobody would play the game again), instead of being
    /// tried again up to [`WorkerSettings::max_failures`] times.
    pub end_at_failure: bool,
    /// Once cancelled, no game is claimed any more: the games held are
    /// played to the end and stored, and the worker ends, not interrupted
    /// (a `match` that found its better player).
    pub stop_claiming: CancellationToken,
}

impl WorkerSettings {
    /// One slot, a 15 s lease renewed every 3 s, 3 failures, a 1 s poll;
    /// claims until the season is over.
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
            end_at_failure: false,
            stop_claiming: CancellationToken::new(),
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
/// The longest pause between tries: the bound of every back-off, also of
/// the wait for a store or season that is not there yet.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How long a stopped game (the worker shut down, or its lease lost) may
/// take to end: its players killed and its room cancelled. A game that
/// takes longer is dropped (its programs die with it).
const WIND_DOWN: Duration = Duration::from_secs(10);

/// What a shutdown does to a call to the store in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InFlight {
    /// It is dropped: nothing is lost (a look at the season).
    Abandon,
    /// It is awaited (the store bounds every call in time): a finished
    /// game's result is worth the moment.
    Finish,
}

/// Calls the store until it answers, pausing with back-off after
/// transient failures (a lost or refused connection); `None` once
/// `shutdown` is cancelled (during a call too, if `in_flight` says so).
async fn patiently<T, F, Fut>(
    what: &str,
    shutdown: &CancellationToken,
    in_flight: InFlight,
    mut call: F,
) -> Result<Option<T>, SeasonError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, SeasonError>>,
{
    let mut pause = FIRST_BACKOFF;
    loop {
        let answer = match in_flight {
            InFlight::Finish => call().await,
            InFlight::Abandon => tokio::select! {
                () = shutdown.cancelled() => return Ok(None),
                answer = call() => answer,
            },
        };
        match answer {
            Ok(value) => return Ok(Some(value)),
            Err(error) if error.is_transient() => {
                warn!(%error, retry_ms = pause.as_millis() as u64, "{what} failed; trying again");
            }
            Err(error) => return Err(error),
        }
        if !pause_or_stop(&mut pause, shutdown).await {
            return Ok(None);
        }
    }
}

/// Sleeps `pause`, then doubles it up to [`MAX_BACKOFF`]; false (at once)
/// when `shutdown` is cancelled first.
async fn pause_or_stop(pause: &mut Duration, shutdown: &CancellationToken) -> bool {
    tokio::select! {
        () = shutdown.cancelled() => return false,
        () = tokio::time::sleep(*pause) => {}
    }
    *pause = (*pause * 2).min(MAX_BACKOFF);
    true
}

/// Whether a worker that meets `error` before its first game waits and
/// tries again: the store cannot be reached yet, its SQLite file or the
/// season is not made yet. Anything else (a bad store text, a newer
/// schema, an unusable season) stays as it is.
fn not_there_yet(error: &SeasonError) -> bool {
    error.is_transient()
        || matches!(
            error,
            SeasonError::Missing { .. } | SeasonError::NoSeason { .. }
        )
}

/// Opens the store `url` names and waits until it holds the season
/// `season` (`None`: the store's only season), trying again with back-off (at most 5 s apart,
/// each try logged) while the store cannot be reached or the season is not
/// created yet: workers, their database and `season create` may start in
/// any order. `None` once `shutdown` is cancelled.
///
/// # Errors
///
/// The text is no store, the store's schema is newer than this program's,
/// or the season's definition is unusable.
pub async fn open_when_ready(
    url: &str,
    season: Option<&str>,
    shutdown: &CancellationToken,
) -> Result<Option<(AnyStore, String, SeasonDefinition)>, SeasonError> {
    let Some(store) = open_store_when_ready(url, shutdown).await? else {
        return Ok(None);
    };
    let season = match season {
        Some(name) => name.to_owned(),
        None => match await_only_season(&store, shutdown).await? {
            Some(name) => name,
            None => return Ok(None),
        },
    };
    let definition = await_season(&store, &season, shutdown).await?;
    Ok(definition.map(|definition| (store, season, definition)))
}

/// Opens the store `url` names, trying again with back-off while it cannot
/// be reached; `None` once `shutdown` is cancelled.
async fn open_store_when_ready(
    url: &str,
    shutdown: &CancellationToken,
) -> Result<Option<AnyStore>, SeasonError> {
    let mut pause = FIRST_BACKOFF;
    loop {
        let opened = tokio::select! {
            () = shutdown.cancelled() => return Ok(None),
            opened = open_existing(url) => opened,
        };
        match opened {
            Ok(store) => return Ok(Some(store)),
            Err(error) if not_there_yet(&error) => warn!(
                store = %masked_store_url(url),
                %error,
                retry_ms = pause.as_millis() as u64,
                "the store cannot be opened yet; trying again"
            ),
            Err(error) => return Err(error),
        }
        if !pause_or_stop(&mut pause, shutdown).await {
            return Ok(None);
        }
    }
}

/// Opens the store `url` names and waits until it holds a contest, as
/// [`open_when_ready`] waits for a season: for `worker --contest`.
///
/// # Errors
///
/// As [`open_when_ready`].
pub async fn open_contest_when_ready(
    url: &str,
    shutdown: &CancellationToken,
) -> Result<Option<(Arc<AnyStore>, ContestStore<AnyStore>)>, SeasonError> {
    let Some(store) = open_store_when_ready(url, shutdown).await? else {
        return Ok(None);
    };
    let store = Arc::new(store);
    let mut pause = FIRST_BACKOFF;
    loop {
        match ContestStore::open(Arc::clone(&store)).await {
            Ok(contest) => return Ok(Some((store, contest))),
            Err(SeasonError::NoContest { .. }) => info!(
                retry_ms = pause.as_millis() as u64,
                "waiting for a contest to be created"
            ),
            Err(error) if not_there_yet(&error) => warn!(
                %error,
                retry_ms = pause.as_millis() as u64,
                "cannot read the store's contest; trying again"
            ),
            Err(error) => return Err(error),
        }
        if !pause_or_stop(&mut pause, shutdown).await {
            return Ok(None);
        }
    }
}

/// How often a contest's worker with nothing to play looks for new games.
pub const CONTEST_IDLE_POLL: Duration = Duration::from_secs(5);

/// Plays the contest's encounters as its matchdays and final rounds
/// schedule them, keeping the contest's time on the way (each time it
/// looks for games, matchdays whose deadline passed are frozen and played
/// ones marked or published: [`ContestStore::keep_time`]): each season
/// with a game to play
/// ([`ContestStore::seasons_to_play`], the oldest matchday's first) as
/// [`run_worker`] plays one, then the next; with nothing to play it looks
/// again every [`CONTEST_IDLE_POLL`] (said once in the log), or ends when
/// `until_idle`. A season whose last games other workers hold keeps it
/// until they are settled, as a season's own worker waits; a tied
/// knockout encounter's next games come within that season's run.
///
/// # Errors
///
/// As [`run_worker`]. Results stored before stay.
pub async fn run_contest_worker(
    store: Arc<AnyStore>,
    contest: &ContestStore<AnyStore>,
    template: &MatchSettings,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    until_idle: bool,
) -> Result<WorkerReport, SeasonError> {
    let mut total = WorkerReport::default();
    let mut pause = FIRST_BACKOFF;
    let mut said_idle = false;
    let mut refusals_said = BTreeSet::new();
    info!(contest = %contest.record().name, worker = %settings.name, slots = settings.slots, "contest worker starts");
    loop {
        if shutdown.is_cancelled() {
            total.interrupted = true;
            return Ok(total);
        }
        tokio::select! {
            () = shutdown.cancelled() => continue,
            () = keep_contest_time(contest, &mut refusals_said) => {}
        }
        let seasons = tokio::select! {
            () = shutdown.cancelled() => continue,
            seasons = contest.seasons_to_play() => seasons,
        };
        let seasons = match seasons {
            Ok(seasons) => {
                pause = FIRST_BACKOFF;
                seasons
            }
            Err(error) if not_there_yet(&error) => {
                warn!(%error, retry_ms = pause.as_millis() as u64, "cannot read the contest's games; trying again");
                if !pause_or_stop(&mut pause, &shutdown).await {
                    total.interrupted = true;
                    return Ok(total);
                }
                continue;
            }
            Err(error) => return Err(error),
        };
        if seasons.is_empty() {
            if until_idle {
                info!(worker = %settings.name, "no encounter has a game to play; the worker ends");
                return Ok(total);
            }
            if !said_idle {
                info!(worker = %settings.name, poll_ms = CONTEST_IDLE_POLL.as_millis() as u64, "no encounter has a game to play; waiting for the next");
                said_idle = true;
            }
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = tokio::time::sleep(CONTEST_IDLE_POLL) => {}
            }
            continue;
        }
        said_idle = false;
        for season in seasons {
            let report = run_worker(
                Arc::clone(&store),
                &season,
                template,
                settings,
                shutdown.clone(),
                None,
            )
            .await?;
            total.recorded += report.recorded;
            total.discarded += report.discarded;
            total.given_back += report.given_back;
            if report.interrupted {
                total.interrupted = true;
                return Ok(total);
            }
        }
    }
}

/// The system's clock in seconds since 1970, as the contest's tables
/// keep instants.
pub(crate) fn system_now() -> Timestamp {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Timestamp(i64::try_from(seconds).unwrap_or(i64::MAX))
}

/// The contest's clock, read by a contest worker each time it looks for
/// games ([`ContestStore::keep_time`]): what it froze, finished or
/// published is logged; a deadline's matchday that cannot be frozen is
/// logged as a warning once per process (`said`), as is a failure to
/// read the store, which never stops the worker from playing.
async fn keep_contest_time(
    contest: &ContestStore<AnyStore>,
    said: &mut BTreeSet<(Phase, u32, String)>,
) {
    let upkeep = match contest.keep_time(system_now()).await {
        Ok(upkeep) => upkeep,
        Err(error) => {
            warn!(%error, "cannot keep the contest's time (deadlines, publication); trying again later");
            return;
        }
    };
    for report in &upkeep.frozen {
        let matchday = &report.matchday;
        info!(phase = %matchday.phase, matchday = matchday.number, encounters = report.encounters.len(), "deadline passed: the matchday's versions are frozen and its games scheduled");
    }
    for report in &upkeep.finished {
        let matchday = &report.matchday;
        info!(phase = %matchday.phase, matchday = matchday.number, state = matchday.state.as_str(), "every encounter of the matchday is decided");
    }
    for test in &upkeep.judged {
        info!(team = test.team.0, version = test.number.0, season = %test.season, passed = test.state == spielleiter_contest::VersionState::Tested, "a version's test games are over: judged");
    }
    for refused in upkeep.refused {
        if !said.contains(&refused) {
            let (phase, number, why) = &refused;
            warn!(%phase, matchday = number, %why, "deadline passed, but the matchday cannot be frozen; it waits for the organiser");
            said.insert(refused);
        }
    }
}

/// The name of the store's only season, waited for with back-off (each try
/// logged) while the store holds none yet; `None` once `shutdown` is
/// cancelled.
///
/// # Errors
///
/// The store fails with something other than a lost connection, or holds
/// several seasons (then the worker must be told which).
async fn await_only_season<S: SeasonStore>(
    store: &S,
    shutdown: &CancellationToken,
) -> Result<Option<String>, SeasonError> {
    let mut pause = FIRST_BACKOFF;
    loop {
        let read = tokio::select! {
            () = shutdown.cancelled() => return Ok(None),
            read = store.season_names() => read,
        };
        match read {
            Ok(names) => match names.as_slice() {
                [only] => return Ok(Some(only.clone())),
                [] => info!(
                    retry_ms = pause.as_millis() as u64,
                    "waiting for a season to be created"
                ),
                several => {
                    return Err(SeasonError::Definition(format!(
                        "the store holds {} seasons ({}); name one with --name",
                        several.len(),
                        several.join(", ")
                    )));
                }
            },
            Err(error) if not_there_yet(&error) => warn!(
                %error,
                retry_ms = pause.as_millis() as u64,
                "cannot read the store's seasons; trying again"
            ),
            Err(error) => return Err(error),
        }
        if !pause_or_stop(&mut pause, shutdown).await {
            return Ok(None);
        }
    }
}

/// The definition of `season`, waited for with back-off (each try logged)
/// while the store cannot be reached or does not hold it yet; `None` once
/// `shutdown` is cancelled. The definition is checked: a season no worker
/// can play is an error, not a wait.
///
/// # Errors
///
/// The store fails otherwise, or the season is unusable.
async fn await_season<S: SeasonStore>(
    store: &S,
    season: &str,
    shutdown: &CancellationToken,
) -> Result<Option<SeasonDefinition>, SeasonError> {
    let mut pause = FIRST_BACKOFF;
    loop {
        let read = tokio::select! {
            () = shutdown.cancelled() => return Ok(None),
            read = store.definition(season) => read,
        };
        match read {
            Ok(definition) => {
                // The schedule every worker derives: a definition without
                // one (an unknown game, a name the server refuses) is no
                // season to wait for.
                definition.schedule()?;
                return Ok(Some(definition));
            }
            Err(error @ SeasonError::NoSeason { .. }) => info!(
                season,
                %error,
                retry_ms = pause.as_millis() as u64,
                "waiting for the season to be created"
            ),
            Err(error) if not_there_yet(&error) => warn!(
                season,
                %error,
                retry_ms = pause.as_millis() as u64,
                "cannot read the season; trying again"
            ),
            Err(error) => return Err(error),
        }
        if !pause_or_stop(&mut pause, shutdown).await {
            return Ok(None);
        }
    }
}

/// Plays the season's games until none is left to claim and none is held
/// by another worker, or `shutdown` is cancelled (a game running then is
/// given back unplayed, without counting as a failure), or
/// [`WorkerSettings::stop_claiming`] is (the games held are finished).
/// `template` says how games are played (the server, limits, log
/// directory); the season's definition gives the rest. A season not created yet is waited for.
///
/// # Errors
///
/// The season is unusable, the store fails with something other than a
/// lost connection, or the server refused to administer a game (which is
/// given back first; with [`WorkerSettings::end_at_failure`], any failure
/// outside the players). Results stored before stay.
pub async fn run_worker<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    template: &MatchSettings,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    let Some(definition) = await_season(&*store, season, &shutdown).await? else {
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
            // Docker and the image are not checked here: a worker without
            // them records the player's games as its crashes (the player
            // cannot start), as `match` and `tournament` refuse to begin
            // instead (their preflight).
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
    play_season(store, season, matches, tables, settings, shutdown, observer).await
}

/// Plays the games of `season` as [`run_worker`] does, each on the match
/// settings of its table (`tables[i]` plays the schedule's table `i`)
/// instead of the tables the season's definition derives: a season whose
/// one table is a match with settings of its own (its log directory, its
/// seed, each player's clock), as `match` plays it.
///
/// # Errors
///
/// As [`run_worker`]; a game of a table `tables` has not is an error.
pub async fn play_tables<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    tables: Vec<MatchSettings>,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    info!(season, worker = %settings.name, slots = settings.slots, tables = tables.len(), "worker starts");
    play_season(
        store,
        season,
        Arc::new(tables),
        None,
        settings,
        shutdown,
        observer,
    )
    .await
}

/// Runs the worker's slots until the season is over, `shutdown` is
/// cancelled, claiming is stopped or a slot fails; `tables` (when given)
/// are the only tables it claims games of.
async fn play_season<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    matches: Arc<Vec<MatchSettings>>,
    tables: Option<Arc<Vec<u32>>>,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    let mut slots = JoinSet::new();
    let settled = Arc::new(Notify::new());
    for slot in 0..settings.slots.max(1) {
        let settled = Arc::clone(&settled);
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
                (slot, &settled),
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

/// One slot of a worker: claims and plays games one after the other.
/// `settled` is told whenever a slot of this worker has settled a game, so
/// that a slot waiting for the games other slots hold looks again at once.
#[allow(clippy::too_many_arguments)]
async fn run_slot<S: SeasonStore + 'static>(
    store: Arc<S>,
    season: &str,
    matches: Arc<Vec<MatchSettings>>,
    tables: Option<&[u32]>,
    settings: &WorkerSettings,
    (slot, settled): (usize, &Notify),
    shutdown: CancellationToken,
    observer: Option<WorkerObserver>,
) -> Result<WorkerReport, SeasonError> {
    let mut report = WorkerReport::default();
    let stop_claiming = &settings.stop_claiming;
    while !shutdown.is_cancelled() && !stop_claiming.is_cancelled() {
        // Registered before the claim, so that a game a sibling slot
        // settles while this one claims and reads the season still wakes
        // it.
        let sibling_settled = settled.notified();
        tokio::pin!(sibling_settled);
        sibling_settled.as_mut().enable();
        // A claim on its way is awaited (the store bounds it in time) and
        // given back below: dropped, it could still be taken by the store,
        // and its game would wait for the lease to run out and then count
        // as this worker's failure.
        let claimed = patiently("claiming a game", &shutdown, InFlight::Finish, || {
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
                    patiently("reading the season", &shutdown, InFlight::Abandon, || {
                        store.games(season)
                    })
                    .await?
                else {
                    break;
                };
                if games
                    .iter()
                    .all(|g| matches!(g.state, GameState::Done | GameState::Failed))
                {
                    // A tied knockout encounter's season grows by its next
                    // games here; any other season is over.
                    let more =
                        patiently("asking for more games", &shutdown, InFlight::Finish, || {
                            store.more_games(season)
                        })
                        .await?;
                    if more == Some(true) {
                        continue;
                    }
                    break;
                }
                tokio::select! {
                    () = shutdown.cancelled() => break,
                    () = stop_claiming.cancelled() => break,
                    () = sibling_settled => continue,
                    () = tokio::time::sleep(settings.poll) => continue,
                }
            }
        };
        if stop_claiming.is_cancelled() || shutdown.is_cancelled() {
            // Told to stop while the claim was on its way: the game goes
            // back unplayed and uncounted.
            let _ = tokio::time::timeout(
                Duration::from_secs(5),
                store.give_back(&claim, None, settings.max_failures),
            )
            .await;
            break;
        }
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
        let played = play_claimed(
            &store,
            &claim,
            table,
            settings,
            &shutdown,
            observer.as_ref(),
            &mut report,
        )
        .await;
        settled.notify_waiters();
        played?;
    }
    Ok(report)
}

/// Plays one claimed game while a task of its own renews the lease, and
/// stores what came of it. The heartbeat goes on until the claim is
/// settled (stored, given back or lost), whatever the game does.
async fn play_claimed<S: SeasonStore + 'static>(
    store: &Arc<S>,
    claim: &Claim,
    table: &MatchSettings,
    settings: &WorkerSettings,
    shutdown: &CancellationToken,
    observer: Option<&WorkerObserver>,
    report: &mut WorkerReport,
) -> Result<(), SeasonError> {
    let game_stop = shutdown.child_token();
    let lease_lost = CancellationToken::new();
    let _heartbeat = AbortOnDrop(tokio::spawn(keep_lease(
        Arc::clone(store),
        claim.clone(),
        settings.lease,
        settings.heartbeat,
        game_stop.clone(),
        lease_lost.clone(),
    )));
    let played = play_stoppably(table, claim, &settings.name, &game_stop).await;
    let store = &**store;
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
        Ok(Some(mut finished)) => {
            if settings.keep_replay_files {
                // The server wrote the replay (and wire log) to its files,
                // named in the record; only the result is stored.
                finished.replay = None;
                finished.wire_log = None;
            } else if finished.replay.is_some() {
                // The record names no file: the replay is the store's.
                finished.record.replay = None;
            } else {
                let (season, worker, game, attempt) = fields();
                let record = &finished.record;
                warn!(
                    season,
                    worker,
                    game,
                    attempt,
                    room = %record.room,
                    duration_ms = record.duration_ms,
                    causes = ?record.causes,
                    "the server kept no replay of this game; the result is stored without it"
                );
            }
            let stored = patiently("storing a result", shutdown, InFlight::Finish, || {
                store.record(claim, &finished)
            })
            .await?;
            let record = finished.record;
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
            let given = patiently("giving a game back", shutdown, InFlight::Finish, || {
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
            // A server that refuses to administer a game (a wrong
            // passphrase, a room it will not prepare) refuses the next one
            // alike: the worker stops with the reason instead of failing
            // game after game.
            if settings.end_at_failure
                || matches!(failure, ArenaError::Admin(ClientError::Refused { .. }))
            {
                return Err(failure.into());
            }
        }
    }
    Ok(())
}

/// Plays the claimed game; once `stop` is cancelled, gives it
/// [`WIND_DOWN`] to end and then drops it (`None`, as a stopped game).
async fn play_stoppably(
    table: &MatchSettings,
    claim: &Claim,
    worker: &str,
    stop: &CancellationToken,
) -> Result<Option<FinishedGame>, ArenaError> {
    let game = play_table_game(table, claim.game.table_game, stop);
    tokio::pin!(game);
    tokio::select! {
        played = &mut game => return played,
        () = stop.cancelled() => {}
    }
    match tokio::time::timeout(WIND_DOWN, &mut game).await {
        Ok(played) => played,
        Err(_) => {
            warn!(
                season = %claim.season,
                worker,
                game = claim.game.number,
                attempt = claim.attempt,
                wind_down_ms = WIND_DOWN.as_millis() as u64,
                "the stopped game did not end in time; dropped"
            );
            Ok(None)
        }
    }
}

/// A task aborted when this is dropped (the heartbeat of a claim that is
/// settled, however its function returns).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Renews the lease every `heartbeat` until aborted; when the store says
/// the claim is no longer valid, cancels `lost` and `stop` (the game is
/// abandoned: its result could not be stored). A store that cannot be
/// reached is asked again at the next beat. A task of its own, so that no
/// game, however stuck, keeps it from beating.
async fn keep_lease<S: SeasonStore>(
    store: Arc<S>,
    claim: Claim,
    lease: Duration,
    heartbeat: Duration,
    stop: CancellationToken,
    lost: CancellationToken,
) {
    let mut last_renewed = Instant::now();
    loop {
        tokio::time::sleep(heartbeat).await;
        match store.heartbeat(&claim, lease).await {
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
