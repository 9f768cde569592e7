//! `spielleiter worker`: a worker of a season — waits for its store and
//! season, starts a game server in this process (or plays on a running
//! one) and plays the season's games from the store until none is left,
//! `--slots` at a time (see `spielleiter_season::run_worker`); with
//! `--contest`, a worker of the store's contest, playing its encounters'
//! seasons as they are scheduled (`run_contest_worker`). SIGINT and
//! SIGTERM end it in whatever it waits for, its running games given back.

use std::time::Duration;

use anyhow::Context;
use clap::Args;
use spielleiter_season::{
    AnyStore, BuildJob, Built, ContestStore, ImageBuilder, WorkerSettings, run_build_worker,
    run_worker,
    worker::{open_contest_when_ready, open_when_ready, run_contest_worker},
};
use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::{fmt, prelude::*};

use crate::{
    arena_options::{GameOptions, Venue, prepare},
    player::SandboxOptions,
    season::StoreArgs,
};

/// Options of a worker.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Games played at the same time (a player needs a core of its own at
    /// full strength).
    #[arg(
        long,
        default_value_t = 1,
        value_name = "K",
        env = "SPIELLEITER_WORKER_SLOTS"
    )]
    slots: usize,
    /// The worker's name in the store [default: HOST-PID].
    #[arg(long, value_name = "NAME")]
    worker_name: Option<String>,
    /// Milliseconds a claimed game stays this worker's without a
    /// heartbeat; past it, another worker claims the game.
    #[arg(long, default_value_t = 15_000, value_name = "MS")]
    lease_ms: u64,
    /// Milliseconds between heartbeats.
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    heartbeat_ms: u64,
    /// Failures outside the players (worker crash, lost database or
    /// server) after which a game is given up as failed.
    #[arg(long, default_value_t = 3, value_name = "N")]
    max_failures: u32,
    /// Config file of the server started in this process [default:
    /// config/spielleiter.toml, if it exists].
    #[arg(long, value_name = "FILE", conflicts_with_all = ["host", "port"])]
    config: Option<std::path::PathBuf>,
    /// Host of a running server to play on [default: a server started in
    /// this process, on a free port]. Its replays are found in
    /// --replay-dir.
    #[arg(long, requires = "admin_passphrase")]
    host: Option<String>,
    /// Port of the running server [default with --host: 13050].
    #[arg(long, requires = "admin_passphrase")]
    port: Option<u16>,
    /// Administrator passphrase of the running server.
    #[arg(
        long,
        env = "SPIELLEITER_ADMIN_PASSPHRASE",
        hide_env_values = true,
        value_name = "TEXT"
    )]
    admin_passphrase: Option<String>,
    /// Play the store's contest: every encounter its matchdays and final
    /// rounds schedule, one season after another, waiting for the next
    /// when none is left (instead of one season, --name).
    #[arg(long, conflicts_with = "name")]
    contest: bool,
    /// With --contest: end once no encounter has a game to play, instead
    /// of waiting for the next matchday.
    #[arg(long, requires = "contest")]
    until_idle: bool,
    /// With --contest: also build the teams' uploaded versions into player
    /// images with this host's Docker (the sandbox's base images must be
    /// here: docker/sandbox/build-base.sh), one at a time beside the games.
    /// Asked for, not guessed from Docker being there: a host may run
    /// sandboxed players without being meant to build, and one asked to
    /// build without Docker says so at its start.
    #[arg(long, requires = "contest")]
    builds: bool,
    #[command(flatten)]
    options: WorkerGameOptions,
}

/// What a worker plays: one season, or a contest's encounters.
enum Work {
    Season(String),
    Contest(Box<ContestStore<AnyStore>>),
}

/// How a worker plays each game: what of `match`'s options a worker uses.
/// The season decides the rest (its seed makes every game's randomness;
/// the server is the worker's own).
#[derive(Debug, Args)]
struct WorkerGameOptions {
    /// Directory of the players' logs (`DIR/NAME1-vs-NAME2/NAME_gameN.log`).
    #[arg(long, default_value = "log", value_name = "DIR")]
    log_dir: std::path::PathBuf,
    /// Where a running server (--host, --port) writes each game's replay,
    /// from where it goes into the season's store. A server of the worker's
    /// own writes no replay files: it keeps each game's replay in memory
    /// until it is stored.
    #[arg(long, value_name = "DIR")]
    replay_dir: Option<std::path::PathBuf>,
    /// Milliseconds a player program may take to join its game.
    #[arg(long, default_value_t = 30_000, value_name = "MS")]
    connect_timeout_ms: u64,
    /// Milliseconds a whole game may take before the player on turn counts
    /// as hung.
    #[arg(long, default_value_t = 1_200_000, value_name = "MS")]
    game_timeout_ms: u64,
    /// Milliseconds a program may keep running after its game before it is
    /// killed.
    #[arg(long, default_value_t = 5_000, value_name = "MS")]
    exit_grace_ms: u64,
    /// The limits of `docker:` players.
    #[command(flatten)]
    sandbox: SandboxOptions,
    /// Keep each game's wire log with the game in the season's store
    /// (`season log GAME --wire`): the rooms are prepared with
    /// `wireLog="true"`.
    #[arg(long)]
    wire_log: bool,
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "worker".to_owned())
}

/// Runs the worker until the season is over; Ctrl-C or SIGTERM gives the
/// running games back, in whatever state the worker is.
pub fn run(args: &WorkerArgs) -> anyhow::Result<()> {
    let filter = crate::log_filter::from_env_or("warn,spielleiter_season=info", "log filter")?;
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(
            fmt::layer()
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_writer(std::io::stderr),
        )
        .try_init();
    if args.lease_ms <= args.heartbeat_ms {
        anyhow::bail!(
            "--lease-ms ({}) must be longer than --heartbeat-ms ({})",
            args.lease_ms,
            args.heartbeat_ms
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

/// A token cancelled by the first SIGINT or SIGTERM. Both are taken over
/// before anything else happens, so that neither ends the process
/// before its games are given back.
fn on_signals() -> anyhow::Result<CancellationToken> {
    let shutdown = CancellationToken::new();
    for kind in [SignalKind::interrupt(), SignalKind::terminate()] {
        let mut signals = signal(kind).context("cannot take over SIGINT and SIGTERM")?;
        let on_signal = shutdown.clone();
        tokio::spawn(async move {
            if signals.recv().await.is_some() {
                tracing::info!(
                    signal = kind.as_raw_value(),
                    "stopping: running games are given back"
                );
                on_signal.cancel();
            }
        });
    }
    Ok(shutdown)
}

/// How long the server in this process may take to stop.
const SERVER_STOP_PATIENCE: Duration = Duration::from_secs(5);

/// What ends a worker that was stopped before the season was over.
const STOPPED: &str = "stopped before the season was over; its running games were given back";

async fn run_async(args: &WorkerArgs) -> anyhow::Result<()> {
    let shutdown = on_signals()?;
    // The store and the season are waited for: workers may start before
    // their database and before `season create`.
    let (store, work) = if args.contest {
        let Some((store, contest)) = open_contest_when_ready(&args.store.store, &shutdown).await?
        else {
            anyhow::bail!(STOPPED);
        };
        (store, Work::Contest(Box::new(contest)))
    } else {
        let Some((store, season, _)) =
            open_when_ready(&args.store.store, args.store.name.as_deref(), &shutdown).await?
        else {
            anyhow::bail!(STOPPED);
        };
        (std::sync::Arc::new(store), Work::Season(season))
    };
    let options = &args.options;
    let running = args.host.is_some() || args.port.is_some();
    let game_options = GameOptions {
        log_dir: options.log_dir.clone(),
        // A server of the worker's own keeps the replays in memory for the
        // store; a running server writes them where --replay-dir says.
        replay_dir: options.replay_dir.clone(),
        connect_timeout_ms: options.connect_timeout_ms,
        game_timeout_ms: options.game_timeout_ms,
        exit_grace_ms: options.exit_grace_ms,
        // The season's seed replaces it; the server is this process's.
        seed: None,
        server_connections: None,
        sandbox: options.sandbox.clone(),
        wire_log: options.wire_log,
    };
    let venue = if running {
        Venue::Running {
            host: args.host.as_deref().unwrap_or("localhost"),
            port: args.port.unwrap_or(13050),
            passphrase: args.admin_passphrase.as_deref().unwrap_or_default(),
        }
    } else {
        Venue::Worker {
            config: args.config.as_deref(),
        }
    };
    let (server, template) = tokio::select! {
        () = shutdown.cancelled() => anyhow::bail!(STOPPED),
        prepared = prepare(venue, Vec::new(), &game_options) => prepared?,
    };
    let mut settings = WorkerSettings::new(
        args.worker_name
            .clone()
            .unwrap_or_else(|| format!("{}-{}", host_name(), std::process::id())),
    );
    settings.slots = args.slots;
    settings.lease = Duration::from_millis(args.lease_ms);
    settings.heartbeat = Duration::from_millis(args.heartbeat_ms);
    settings.max_failures = args.max_failures;
    let builder: Option<std::sync::Arc<dyn ImageBuilder>> = if args.builds {
        spielleiter_sandbox::preflight(&[])
            .await
            .context("--builds needs Docker")?;
        Some(std::sync::Arc::new(SandboxBuilder::default()))
    } else {
        None
    };
    let outcome = match &work {
        Work::Season(season) => {
            run_worker(
                std::sync::Arc::clone(&store),
                season,
                &template,
                &settings,
                shutdown,
                None,
            )
            .await
        }
        Work::Contest(contest) => {
            let games = run_contest_worker(
                std::sync::Arc::clone(&store),
                contest,
                &template,
                &settings,
                shutdown.clone(),
                args.until_idle,
            );
            match builder {
                None => games.await,
                Some(builder) => {
                    let builds =
                        run_build_worker(contest, builder, &settings, shutdown, args.until_idle);
                    let (games, builds) = tokio::join!(games, builds);
                    let builds = builds?;
                    println!(
                        "worker {}: {} versions built, {} builds failed, {} discarded (lease lost)",
                        settings.name, builds.built, builds.failed, builds.discarded
                    );
                    games
                }
            }
        }
    };
    if let Some(server) = server {
        // Its games are over or given back; a server that does not stop in
        // time is dropped with the process.
        let _ = tokio::time::timeout(SERVER_STOP_PATIENCE, server.stop()).await;
    }
    let report = outcome?;
    println!(
        "worker {}: {} results stored, {} discarded (lease lost), {} games given back",
        settings.name, report.recorded, report.discarded, report.given_back
    );
    if report.interrupted {
        anyhow::bail!(STOPPED);
    }
    Ok(())
}

/// The builder of `worker --builds`: a version's upload written to a
/// scratch directory, unpacked with the sandbox's [`UploadLimits`] and
/// built with `build_player_image` on the runtime's base image, under the
/// version's own tag ([`BuildJob::image_tag`]).
///
/// [`UploadLimits`]: spielleiter_sandbox::UploadLimits
#[derive(Debug, Default)]
pub struct SandboxBuilder {
    /// The base image instead of the runtime's (tests).
    pub base: Option<String>,
}

impl ImageBuilder for SandboxBuilder {
    fn build(&self, job: &BuildJob) -> Built {
        let runtime = match job.runtime {
            spielleiter_contest::Runtime::Native => spielleiter_sandbox::Runtime::Native,
            spielleiter_contest::Runtime::Python => spielleiter_sandbox::Runtime::Python,
            spielleiter_contest::Runtime::Java => spielleiter_sandbox::Runtime::Java,
        };
        let tag = job.image_tag();
        let mut log = format!(
            "version {} of team {}: {} runtime, {} bytes uploaded, image {tag} (attempt {})\n",
            job.number.0,
            job.team.0,
            runtime,
            job.archive.len(),
            job.attempt
        );
        let failed = |log: String, why: &dyn std::fmt::Display| Built {
            image: None,
            log: format!("{log}failed: {why}\n"),
        };
        let scratch = match tempfile::Builder::new().prefix("sl-build-").tempdir() {
            Ok(dir) => dir,
            Err(error) => return failed(log, &format!("no scratch directory: {error}")),
        };
        let upload = scratch.path().join("upload.zip");
        if let Err(error) = std::fs::write(&upload, &job.archive) {
            return failed(log, &format!("cannot write the upload: {error}"));
        }
        let context = scratch.path().join("build");
        let request = spielleiter_sandbox::BuildRequest {
            upload: &upload,
            runtime,
            tag: &tag,
            base: self.base.as_deref(),
            limits: spielleiter_sandbox::UploadLimits::default(),
            timeout: spielleiter_sandbox::DEFAULT_BUILD_TIMEOUT,
        };
        match spielleiter_sandbox::build_player_image(&request, &context) {
            Ok(image) => {
                log.push_str(&format!("built {image}\n"));
                Built {
                    image: Some(image),
                    log,
                }
            }
            Err(error) => {
                log.push_str(&format!("failed: {error}\n"));
                Built { image: None, log }
            }
        }
    }
}
