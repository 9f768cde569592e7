//! The accept loop and the shutdown sequence: owns the listening socket, the
//! connection limit, and the tokens and task tracker that bring every task
//! to an orderly end.
//!
//! Shutdown, once the signal future resolves: stop accepting; let running
//! games continue for the configured grace period (rooms still waiting for
//! players end at once, new games are refused); end the remaining games with
//! a result and finish their replays; close every connection; wait for all
//! tasks.

use std::{
    future::Future,
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_rules::GameType;
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{Semaphore, oneshot},
    task::JoinHandle,
};
use tokio_util::{sync::CancellationToken, task::TaskTracker};
use tracing::{error, info, warn};

use crate::{
    config::Config,
    connection::{self, ConnectionContext},
    in_process::{InProcess, InProcessError, InProcessRequests},
    limits::{AddressSlots, AuthBackoff, LogBudget},
    lobby::{self, LobbySettings},
    outbound::ConnId,
    replay::{KeptReplays, ReplaySettings, ReplayStore},
    stats::ServerStats,
    texts,
};

/// How long the final phase (ending games, closing connections) may take
/// after the grace period before the server stops waiting.
const FINAL_PHASE_LIMIT: Duration = Duration::from_secs(15);

/// Refused connections told why at once; beyond this many, a refused
/// connection is closed without a word, so that a flood of connections
/// cannot hold sockets through the refusals.
const REFUSALS_AT_ONCE: usize = crate::limits::GAME_REFUSALS_AT_ONCE;

/// `accept failed` lines logged per [`ACCEPT_ERROR_WINDOW`]; the rest are
/// counted into the next line that is logged.
const ACCEPT_ERRORS_PER_WINDOW: u32 = 10;

/// See [`ACCEPT_ERRORS_PER_WINDOW`].
const ACCEPT_ERROR_WINDOW: Duration = Duration::from_secs(10);

/// The log of failing accepts. They repeat ten times a second (the loop
/// backs off 100 ms) for as long as the cause lasts, usually a lack of file
/// descriptors: the first few of a window are logged, then one line with
/// the count of those left out.
struct AcceptErrors {
    log: LogBudget,
}

impl AcceptErrors {
    fn new() -> AcceptErrors {
        AcceptErrors {
            log: LogBudget::new(ACCEPT_ERRORS_PER_WINDOW, ACCEPT_ERROR_WINDOW),
        }
    }

    /// Logs `error` if the budget allows; whether it did.
    fn report(&mut self, error: &std::io::Error) -> bool {
        match self.log.allow() {
            Some(suppressed) => {
                error!(%error, suppressed, "accept failed");
                true
            }
            None => false,
        }
    }
}

/// Runs the server on `listener` until `shutdown` resolves, then shuts down
/// gracefully.
///
/// # Errors
///
/// The replay thread cannot be started; everything later is logged.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    run_with_stats(listener, config, shutdown, Arc::default()).await
}

/// [`run`], counting into `stats` (which the caller can read meanwhile).
///
/// # Errors
///
/// As [`run`].
pub async fn run_with_stats(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
    stats: Arc<ServerStats>,
) -> std::io::Result<()> {
    let auth = Arc::new(AuthBackoff::for_config(&config));
    let (_, in_process) = InProcess::channel();
    run_shared(listener, config, shutdown, stats, auth, in_process).await
}

/// [`run_with_stats`] with the passphrase back-off `auth`, which the web
/// side shares (a guess over HTTP costs the same as one on the game port),
/// also serving the connections opened through the [`InProcess`] door
/// whose requests are `in_process`.
///
/// # Errors
///
/// As [`run`].
pub async fn run_shared(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
    stats: Arc<ServerStats>,
    auth: Arc<AuthBackoff>,
    in_process: InProcessRequests,
) -> std::io::Result<()> {
    serve(listener, config, shutdown, stats, auth, in_process, None).await
}

/// [`run_shared`]; with `kept`, finished replays are kept in memory for the
/// process that embeds the server instead of written to files.
async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
    stats: Arc<ServerStats>,
    auth: Arc<AuthBackoff>,
    in_process: InProcessRequests,
    kept: Option<KeptReplays>,
) -> std::io::Result<()> {
    let mut in_process = in_process.receiver;
    for warning in config.warnings() {
        warn!("{warning}");
    }
    let config = Arc::new(config);
    let tracker = TaskTracker::new();
    let room_shutdown = CancellationToken::new();
    let closing = CancellationToken::new();
    let stopping = CancellationToken::new();
    let seed = config.seed.unwrap_or_else(rand::random);
    let replays = match (config.replays, kept) {
        (_, Some(kept)) => Some(ReplayStore::start(ReplaySettings {
            dir: config.replay_dir.clone(),
            gzip: config.replay_gzip,
            wire_log_bytes: config.wire_log_bytes,
            kept: Some(kept),
        })?),
        (true, None) => Some(ReplayStore::start(ReplaySettings {
            dir: config.replay_dir.clone(),
            gzip: config.replay_gzip,
            wire_log_bytes: config.wire_log_bytes,
            kept: None,
        })?),
        (false, None) => None,
    };
    let replay_store = replays.clone();
    let lobby = lobby::spawn(
        lobby_settings(&config, seed, Arc::clone(&stats), replays),
        room_shutdown.clone(),
        &tracker,
    );
    let context = ConnectionContext {
        lobby: lobby.clone(),
        config: Arc::clone(&config),
        closing: closing.clone(),
        stopping: stopping.clone(),
        unfinished: Arc::default(),
        stats: Arc::clone(&stats),
        warn_log: Arc::new(Mutex::new(LogBudget::new(
            connection::WARNS_PER_WINDOW,
            connection::WARN_WINDOW,
        ))),
        auth,
    };
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let slots = AddressSlots::new(config.max_connections_per_ip, config.loopback_exempt);
    let mut refusal_log = LogBudget::new(10, Duration::from_secs(10));
    let mut accept_errors = AcceptErrors::new();
    let next_id = AtomicU64::new(1);

    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    let id = ConnId(next_id.fetch_add(1, Ordering::Relaxed));
                    let Some(slot) = slots.take(peer.ip()) else {
                        if let Some(suppressed) = refusal_log.allow() {
                            warn!(%peer, limit = config.max_connections_per_ip, suppressed, "connection limit per address reached; refusing");
                        }
                        ServerStats::count(&context.stats.refused_connections);
                        let text = texts::address_full(config.max_connections_per_ip);
                        refuse(&tracker, &refusals, socket, text);
                        continue;
                    };
                    match Arc::clone(&permits).try_acquire_owned() {
                        Ok(permit) => {
                            let context = context.clone();
                            tracker.spawn(async move {
                                connection::serve(socket, peer, id, context).await;
                                drop((permit, slot));
                            });
                        }
                        Err(_) => {
                            if let Some(suppressed) = refusal_log.allow() {
                                warn!(%peer, limit = config.max_connections, suppressed, "connection limit reached; refusing");
                            }
                            ServerStats::count(&context.stats.refused_connections);
                            let text = texts::server_full(config.max_connections);
                            refuse(&tracker, &refusals, socket, text);
                        }
                    }
                }
                Err(error) => {
                    // Usually out of file descriptors: back off instead of
                    // spinning.
                    accept_errors.report(&error);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            Some(request) = in_process.recv() => {
                let id = ConnId(next_id.fetch_add(1, Ordering::Relaxed));
                match Arc::clone(&permits).try_acquire_owned() {
                    Ok(permit) => {
                        let context = context.clone();
                        let _ = request.served.send(Ok(()));
                        tracker.spawn(async move {
                            connection::serve_in_process(request.stream, request.standing, id, context).await;
                            drop(permit);
                        });
                    }
                    Err(_) => {
                        if let Some(suppressed) = refusal_log.allow() {
                            warn!(standing = %request.standing, limit = config.max_connections, suppressed, "connection limit reached; refusing an in-process connection");
                        }
                        ServerStats::count(&context.stats.refused_connections);
                        let _ = request.served.send(Err(InProcessError::Full(config.max_connections)));
                    }
                }
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    // Opening an in-process connection fails from now on.
    drop(in_process);
    stopping.cancel();
    info!(
        grace_secs = config.shutdown_grace.as_secs(),
        "shutting down: no new connections; running games may finish"
    );
    if tokio::time::timeout(config.shutdown_grace, lobby.drain())
        .await
        .is_err()
    {
        info!("grace period over; ending the remaining games");
    }
    room_shutdown.cancel();
    if tokio::time::timeout(FINAL_PHASE_LIMIT, lobby.drain())
        .await
        .is_err()
    {
        warn!("some games did not end in time");
    }
    closing.cancel();
    // The lobby task ends when the last handle is gone.
    drop(context);
    drop(lobby);
    tracker.close();
    if tokio::time::timeout(FINAL_PHASE_LIMIT, tracker.wait())
        .await
        .is_err()
    {
        warn!("some connections did not close in time");
    }
    // The connections' wire logs are closed now; they get their names
    // before the process may end.
    if let Some(store) = replay_store
        && tokio::time::timeout(FINAL_PHASE_LIMIT, store.flush())
            .await
            .is_err()
    {
        warn!("the replay files were not all written in time");
    }
    let count = |counter| ServerStats::get(counter);
    info!(
        games = count(&stats.games_finished),
        moves = count(&stats.moves),
        replays_lost = count(&stats.replays_lost),
        refused_connections = count(&stats.refused_connections),
        slow_readers = count(&stats.slow_readers),
        slow_messages = count(&stats.slow_messages),
        failed_authentications = count(&stats.failed_authentications),
        "shut down"
    );
    Ok(())
}

/// Tells a refused connection why, unless [`REFUSALS_AT_ONCE`] are being
/// told already: then it is just closed.
fn refuse(tracker: &TaskTracker, refusals: &Arc<Semaphore>, socket: TcpStream, text: String) {
    if let Ok(permit) = Arc::clone(refusals).try_acquire_owned() {
        tracker.spawn(async move {
            connection::refuse(socket, text).await;
            drop(permit);
        });
    }
}

fn lobby_settings(
    config: &Config,
    seed: u64,
    stats: Arc<ServerStats>,
    replay: Option<ReplayStore>,
) -> LobbySettings {
    LobbySettings {
        start_paused: config.start_paused,
        limits: GameType::ALL
            .iter()
            .map(|&game| (game, config.limits(game)))
            .collect(),
        default_game: config.default_game,
        reservation_expiry: config.reservation_expiry,
        wire_log: config.wire_log,
        replay,
        seed,
        stats,
    }
}

/// A server running on the current tokio runtime, for the tools and tests
/// that embed one (the match runner's `--start-server`, the demo, the
/// benchmark, the end-to-end tests). Dropping it aborts the server; use
/// [`EmbeddedServer::stop`] for the graceful shutdown.
#[derive(Debug)]
pub struct EmbeddedServer {
    addr: SocketAddr,
    stats: Arc<ServerStats>,
    auth: Arc<AuthBackoff>,
    in_process: InProcess,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    /// Where finished replays go when they are kept in memory.
    kept: Option<KeptReplays>,
}

impl EmbeddedServer {
    /// Binds `config.listen_addr()` (port 0 picks a free one) and starts
    /// serving.
    ///
    /// # Errors
    ///
    /// The replay directory is not usable
    /// ([`ReplayDirError`](crate::replay::ReplayDirError) inside the I/O
    /// error), or the address cannot be bound.
    pub async fn start(config: Config) -> std::io::Result<EmbeddedServer> {
        EmbeddedServer::start_with(config, None).await
    }

    /// Starts a server as [`start`](Self::start) does that keeps every
    /// finished game's replay (and wire log) in memory for this process
    /// ([`kept_replays`](Self::kept_replays)) instead of writing files,
    /// whatever `config` says of replay files: a season's worker stores
    /// each game in its season's store.
    ///
    /// # Errors
    ///
    /// The address cannot be bound.
    pub async fn start_keeping_replays(config: Config) -> std::io::Result<EmbeddedServer> {
        EmbeddedServer::start_with(config, Some(KeptReplays::default())).await
    }

    async fn start_with(
        config: Config,
        kept: Option<KeptReplays>,
    ) -> std::io::Result<EmbeddedServer> {
        if config.replays && kept.is_none() {
            crate::replay::check_dir(&config.replay_dir)?;
        }
        let listener = TcpListener::bind(config.listen_addr()).await?;
        let addr = listener.local_addr()?;
        let stats = Arc::new(ServerStats::default());
        let auth = Arc::new(AuthBackoff::for_config(&config));
        let (stop, stopped) = oneshot::channel::<()>();
        let (in_process, requests) = InProcess::channel();
        let task = tokio::spawn(serve(
            listener,
            config,
            async move {
                let _ = stopped.await;
            },
            Arc::clone(&stats),
            Arc::clone(&auth),
            requests,
            kept.clone(),
        ));
        Ok(EmbeddedServer {
            addr,
            stats,
            auth,
            in_process,
            stop: Some(stop),
            task: Some(task),
            kept,
        })
    }

    /// The finished games this server keeps in memory, when it was started
    /// with [`start_keeping_replays`](Self::start_keeping_replays).
    pub fn kept_replays(&self) -> Option<&KeptReplays> {
        self.kept.as_ref()
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server's counters.
    pub fn stats(&self) -> &Arc<ServerStats> {
        &self.stats
    }

    /// The server's passphrase back-off, for a web side next to it.
    pub fn auth(&self) -> &Arc<AuthBackoff> {
        &self.auth
    }

    /// The door for connections from this process: an administrator
    /// without a passphrase, players that cannot administer.
    pub fn in_process(&self) -> &InProcess {
        &self.in_process
    }

    /// Shuts the server down as SIGINT would, and waits until it has.
    ///
    /// # Errors
    ///
    /// What [`run`] returned; a server task that panicked is reported as an
    /// I/O error of kind `Other`.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.task.take() {
            Some(task) => task.await.map_err(std::io::Error::other)?,
            None => Ok(()),
        }
    }
}

impl Drop for EmbeddedServer {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn failing_accepts_are_logged_a_few_times_a_window_then_counted() {
        let mut errors = AcceptErrors::new();
        let error = std::io::Error::from_raw_os_error(24); // EMFILE
        // Ten a second, as the loop retries, for a whole window.
        let mut logged = 0;
        for _ in 0..100 {
            if errors.report(&error) {
                logged += 1;
            }
            tokio::time::advance(Duration::from_millis(100)).await;
        }
        assert_eq!(logged, ACCEPT_ERRORS_PER_WINDOW);
        // The next window logs again, carrying the count of the silent ones.
        assert!(errors.report(&error));
        assert_eq!(errors.log.allow(), Some(0));
    }
}
