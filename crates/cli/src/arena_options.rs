//! What `match` and `tournament` share: the options of how each game is
//! played (player limits, logs, replays, seed), the server the games are
//! played on (one started in this process, or a running one), and Ctrl-C.

use std::{path::PathBuf, time::Duration};

use clap::Args;
use spielleiter_arena::{LocalServer, LocalServerSettings, MatchSettings, PlayerSpec, Program};
use spielleiter_client::{ClientError, Connection, ServerAddress};
use spielleiter_rules::GameType;
use tokio_util::sync::CancellationToken;

/// How each game is played.
#[derive(Debug, Args)]
pub struct GameOptions {
    /// Directory of the players' logs (a match: `DIR/NAME_gameN.log`; a
    /// tournament: `DIR/NAME1-vs-NAME2/NAME_gameN.log`).
    #[arg(long, default_value = "log", value_name = "DIR")]
    pub log_dir: PathBuf,
    /// Where the server writes replays, to name each game's replay in the
    /// results [default with a server in this process: replays].
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    /// Milliseconds a player program may take to join its game.
    #[arg(long, default_value_t = 30_000, value_name = "MS")]
    pub connect_timeout_ms: u64,
    /// Milliseconds a whole game may take before the player on turn counts
    /// as hung.
    #[arg(long, default_value_t = 1_200_000, value_name = "MS")]
    pub game_timeout_ms: u64,
    /// Milliseconds a program may keep running after its game before it is
    /// killed.
    #[arg(long, default_value_t = 5_000, value_name = "MS")]
    pub exit_grace_ms: u64,
    /// Seed of the built-in random bots and, with a server in this process,
    /// of the start pieces [default: from the OS].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Connections a running server admits from this machine (its
    /// max_connections_per_ip); more parallel games than that holds are
    /// refused before the first starts [default: 32, the server's default;
    /// with --start-server its own limit].
    #[arg(long, value_name = "N")]
    pub server_connections: Option<usize>,
    /// The limits of `docker:` players.
    #[command(flatten)]
    pub sandbox: crate::player::SandboxOptions,
    /// Keep each game's wire log next to its replay: the rooms are
    /// prepared with `wireLog="true"`, so each player's bytes in and out
    /// are kept with their times (`NAME.wire.txt`).
    #[arg(long)]
    pub wire_log: bool,
}

/// Where the games are played.
#[derive(Debug)]
pub enum Venue<'a> {
    /// A server started in this process on `port` (0: a free one), set up
    /// by the config file and the `SPIELLEITER_*` variables.
    InProcess {
        port: u16,
        config: Option<&'a std::path::Path>,
    },
    /// A server started in this process for a season's worker on a free
    /// port, set up as [`Venue::InProcess`], that keeps every finished
    /// game's replay in memory for the worker, which stores it in the
    /// season's store (no replay file is written).
    Worker { config: Option<&'a std::path::Path> },
    /// A running server, administered with `passphrase`.
    Running {
        host: &'a str,
        port: u16,
        passphrase: &'a str,
    },
}

/// Starts the server if the games are played in this process, and returns
/// it with the settings of a match of `players` on it (the settings not
/// named here at their defaults).
pub async fn prepare(
    venue: Venue<'_>,
    players: Vec<PlayerSpec>,
    options: &GameOptions,
) -> anyhow::Result<(Option<LocalServer>, MatchSettings)> {
    let seed = options.seed.unwrap_or_else(rand::random);
    let (server, mut settings) = match venue {
        Venue::InProcess { .. } | Venue::Worker { .. } => {
            let (port, config, keep_replays) = match venue {
                Venue::InProcess { port, config } => (port, config, false),
                Venue::Worker { config } => {
                    if let Some(dir) = &options.replay_dir {
                        tracing::warn!(dir = %dir.display(), "a worker writes no replay files (its games go into the season's store); --replay-dir is not used");
                    }
                    (0, config, true)
                }
                Venue::Running { .. } => unreachable!("matched above"),
            };
            let server = LocalServer::start(LocalServerSettings {
                port,
                replay_dir: Some(
                    options
                        .replay_dir
                        .clone()
                        .unwrap_or_else(|| PathBuf::from("replays")),
                ),
                keep_replays,
                seed: Some(seed),
                admin_over_tcp: false,
                base: crate::serve::environment_config(config)?,
            })
            .await?;
            // Administered in-process: no passphrase on the port the
            // players reach.
            let mut settings = MatchSettings::new(
                players,
                server.addr().ip().to_string(),
                server.addr().port(),
                String::new(),
            );
            settings.in_process = Some(server.in_process().clone());
            settings.replay_dir = server.replay_dir().cloned();
            settings.kept_replays = server.kept_replays().cloned();
            settings.server_connections = Some(server.connections());
            (Some(server), settings)
        }
        Venue::Running {
            host,
            port,
            passphrase,
        } => {
            check_passphrase(host, port, passphrase).await?;
            let mut settings =
                MatchSettings::new(players, host.to_owned(), port, passphrase.to_owned());
            settings.replay_dir = options.replay_dir.clone();
            if let Some(connections) = options.server_connections {
                settings.server_connections = Some(connections);
            }
            (None, settings)
        }
    };
    settings.log_dir = options.log_dir.clone();
    settings.connect_timeout = Duration::from_millis(options.connect_timeout_ms);
    settings.game_timeout = Duration::from_millis(options.game_timeout_ms);
    settings.exit_grace = Duration::from_millis(options.exit_grace_ms);
    settings.seed = seed;
    settings.wire_log = options.wire_log;
    settings.sandbox_limits = options.sandbox.limits()?;
    Ok((server, settings))
}

/// Refuses, before anything starts or prints, a player that cannot play
/// `game`: a program that cannot be started, or a built-in bot the game
/// has not.
pub fn check_players(game: GameType, players: &[PlayerSpec]) -> anyhow::Result<()> {
    for player in players {
        if let Program::Builtin(kind) = player.program {
            kind.build(game, 0)
                .map_err(|why| anyhow::anyhow!("player {}: {why}", player.name))?;
        }
        player
            .program
            .check_startable()
            .map_err(|why| anyhow::anyhow!("player {}: {why}", player.name))?;
    }
    Ok(())
}

/// A run stopped by Ctrl-C: `main` exits with status 130, as a shell does
/// for a command ended by SIGINT, so that scripts tell it from a failure.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

/// How long the passphrase check may take.
const PASSPHRASE_CHECK_LIMIT: Duration = Duration::from_secs(10);

/// Logs in to the running server once before anything starts, so that a
/// wrong passphrase (or a server without administration) is one clear
/// message, not a failure of the first game. The server answers no correct
/// `authenticate`, so the login is followed by a request that gets an
/// answer either way: observing a room that does not exist.
async fn check_passphrase(host: &str, port: u16, passphrase: &str) -> anyhow::Result<()> {
    let address = (host, port).describe();
    let check = async {
        let mut admin = Connection::connect((host, port)).await?;
        admin.authenticate(passphrase).await?;
        match admin.observe("no-such-room", GameType::DEFAULT).await {
            Err(ClientError::Refused {
                request: "authenticate",
                message,
            }) if message.contains("disabled") => Err(anyhow::anyhow!(
                "the server on {address} has administration disabled (it was started \
                 without --admin-passphrase), so it cannot host a match"
            )),
            Err(ClientError::Refused {
                request: "authenticate",
                ..
            }) => Err(anyhow::anyhow!(
                "wrong administrator passphrase for the server on {address} \
                 (--admin-passphrase, or SPIELLEITER_ADMIN_PASSPHRASE)"
            )),
            // Refused as unknown, or even observed: the login worked.
            _ => Ok(()),
        }
    };
    tokio::time::timeout(PASSPHRASE_CHECK_LIMIT, check)
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "the server on {address} did not answer within {} s",
                PASSPHRASE_CHECK_LIMIT.as_secs()
            )
        })?
}

/// A token cancelled by Ctrl-C (SIGINT): running games are then abandoned
/// and the run ends cleanly, to be resumed by the same command.
pub fn interrupt() -> CancellationToken {
    let shutdown = CancellationToken::new();
    let on_interrupt = shutdown.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    shutdown
}
