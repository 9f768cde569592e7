//! `spielleiter serve` (also the default when no subcommand is given): builds
//! the configuration from file, environment and flags, sets up logging, and
//! runs the server until SIGINT or SIGTERM.

mod stored_season;

use std::{io::IsTerminal, net::IpAddr, path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context;
use clap::Args;
use spielleiter_rules::GameType;
use spielleiter_server::{
    Config,
    config::{ConfigError, GameMoveLimits, HttpPublic, LogFormat, Overrides},
    limits::AuthBackoff,
    stats::ServerStats,
};
use spielleiter_web::{Access, WebLimits, WebSettings};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};
use tracing_subscriber::{EnvFilter, fmt, prelude::*};

/// Settings of the server. Each flag can also be given as the environment
/// variable shown; a flag beats its variable, and both beat the config file.
#[derive(Debug, Default, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    location: ServerLocation,
    /// Administrator passphrase; without one, administration is disabled.
    #[arg(
        long,
        env = "SPIELLEITER_ADMIN_PASSPHRASE",
        hide_env_values = true,
        value_name = "TEXT"
    )]
    admin_passphrase: Option<String>,
    /// Connections served at once [default: 1024].
    #[arg(long, env = "SPIELLEITER_MAX_CONNECTIONS", value_name = "N")]
    max_connections: Option<usize>,
    /// Connections served at once from one IP address [default: 32].
    #[arg(long, env = "SPIELLEITER_MAX_CONNECTIONS_PER_IP", value_name = "N")]
    max_connections_per_ip: Option<usize>,
    /// Largest accepted message in bytes [default: 1048576].
    #[arg(long, env = "SPIELLEITER_MAX_MESSAGE_BYTES", value_name = "BYTES")]
    max_message_bytes: Option<usize>,
    /// Seconds a connection may stay silent before joining a game [default: 60].
    #[arg(long, env = "SPIELLEITER_IDLE_LIMIT_SECS", value_name = "SECS")]
    idle_limit_secs: Option<u64>,
    /// Seconds running games may go on after SIGINT/SIGTERM [default: 10].
    #[arg(long, env = "SPIELLEITER_SHUTDOWN_GRACE_SECS", value_name = "SECS")]
    shutdown_grace_secs: Option<u64>,
    /// Rooms created by `join` start paused.
    #[arg(long, env = "SPIELLEITER_START_PAUSED", value_name = "BOOL")]
    start_paused: Option<bool>,
    /// The game of a `join` without `gameType`: it joins an open room of
    /// this game or opens one [default: swc_2027_blokus].
    #[arg(long, env = "SPIELLEITER_DEFAULT_GAME", value_name = "ID")]
    default_game: Option<GameType>,
    /// Seed for the random start pieces (reproducible games).
    #[arg(long, env = "SPIELLEITER_SEED")]
    seed: Option<u64>,
    /// Time nobody (same as `--timeouts false`; beats SPIELLEITER_TIMEOUTS).
    #[arg(long)]
    no_timeout: bool,
    /// Whether players are timed [default: true].
    #[arg(long, env = "SPIELLEITER_TIMEOUTS", value_name = "BOOL")]
    timeouts: Option<bool>,
    /// Soft move time limit of every game type in milliseconds [default:
    /// the game's, 2000 for the 2021 game].
    #[arg(long, env = "SPIELLEITER_SOFT_TIMEOUT_MS", value_name = "MS")]
    soft_timeout_ms: Option<u64>,
    /// Hard move time limit of every game type in milliseconds [default:
    /// the game's, 10000 for the 2021 game].
    #[arg(long, env = "SPIELLEITER_HARD_TIMEOUT_MS", value_name = "MS")]
    hard_timeout_ms: Option<u64>,
    /// Move time limits of one game type, `GAME=SOFT_MS[/HARD_MS]` (e.g.
    /// `swc_2021_blokus=2000/10000`); repeat the flag for several games, or
    /// separate them by `;` in the variable.
    #[arg(
        long,
        env = "SPIELLEITER_MOVE_TIME",
        value_name = "GAME=MS[/MS]",
        value_delimiter = ';'
    )]
    move_time: Vec<GameMoveLimits>,
    /// Whether games are written to replay files [default: true].
    #[arg(long, env = "SPIELLEITER_REPLAYS", value_name = "BOOL")]
    replays: Option<bool>,
    /// Directory for replay files [default: replays].
    #[arg(long, env = "SPIELLEITER_REPLAY_DIR", value_name = "DIR")]
    replay_dir: Option<PathBuf>,
    /// Compress finished replays with gzip [default: false].
    #[arg(long, env = "SPIELLEITER_REPLAY_GZIP", value_name = "BOOL")]
    replay_gzip: Option<bool>,
    /// Keep every game's wire log next to its replay: each seat's bytes in
    /// and out with their times, as `NAME.wire.txt` [default: false; a
    /// prepared room may ask with `wireLog="true"`].
    #[arg(
        long,
        env = "SPIELLEITER_WIRE_LOG",
        value_name = "BOOL",
        num_args = 0..=1,
        default_missing_value = "true"
    )]
    wire_log: Option<bool>,
    /// The most bytes of one seat a wire log keeps [default: 4194304].
    #[arg(long, env = "SPIELLEITER_WIRE_LOG_BYTES", value_name = "BYTES")]
    wire_log_bytes: Option<usize>,
    /// Log filter when RUST_LOG is not set, e.g. `debug` [default: info].
    #[arg(long, env = "SPIELLEITER_LOG_LEVEL", value_name = "FILTER")]
    log_level: Option<String>,
    /// Log format: `text` or `json` [default: text].
    #[arg(long, env = "SPIELLEITER_LOG_FORMAT", value_name = "FORMAT")]
    log_format: Option<LogFormat>,
    /// Who sees running games on the web side: `true` everyone, `false`
    /// only after a login (whatever the listen address: set it behind a
    /// reverse proxy), `auto` everyone on a loopback listen address and
    /// only after a login elsewhere [default: auto].
    #[arg(
        long,
        env = "SPIELLEITER_HTTP_PUBLIC",
        value_name = "true|false|auto",
        num_args = 0..=1,
        default_missing_value = "true"
    )]
    http_public: Option<HttpPublic>,
    /// Web connections served at once [default: 256].
    #[arg(long, env = "SPIELLEITER_HTTP_MAX_CONNECTIONS", value_name = "N")]
    http_max_connections: Option<usize>,
    /// Web connections served at once from one IP address [default: 32].
    #[arg(
        long,
        env = "SPIELLEITER_HTTP_MAX_CONNECTIONS_PER_IP",
        value_name = "N"
    )]
    http_max_connections_per_ip: Option<usize>,
    /// People's seats (`/play`) one IP address may hold at once, so that
    /// one visitor cannot take every seat [default: 1].
    #[arg(
        long,
        env = "SPIELLEITER_HTTP_PLAY_SEATS_PER_ADDRESS",
        value_name = "N"
    )]
    http_play_seats_per_address: Option<usize>,
    /// A season's store (`postgres://…`, or a SQLite file): the web side
    /// adds the season page `/season` (standings, progress, every game
    /// with its replay), read-only [config: season.store].
    #[arg(
        long,
        env = "SPIELLEITER_STORE",
        hide_env_values = true,
        value_name = "URL"
    )]
    store: Option<String>,
    /// The season of the store the page shows [default: season; config:
    /// season.name].
    #[arg(long, env = "SPIELLEITER_SEASON", value_name = "NAME")]
    season: Option<String>,
}

/// Where the configuration comes from and where the server listens: what
/// `health` reads too, to probe the address the server's settings give.
#[derive(Debug, Default, Args)]
pub struct ServerLocation {
    /// Config file [default: config/spielleiter.toml, if it exists].
    #[arg(long, env = "SPIELLEITER_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    /// Address to listen on (0.0.0.0 for all interfaces) [default: 127.0.0.1].
    #[arg(
        long,
        env = "SPIELLEITER_LISTEN",
        value_name = "ADDR",
        value_parser = spielleiter_server::config::resolve_listen
    )]
    listen: Option<IpAddr>,
    /// TCP port; 0 picks a free one [default: 13050].
    #[arg(short, long, env = "SPIELLEITER_PORT", allow_negative_numbers = true)]
    port: Option<u16>,
    /// Whether the web side (pages, /metrics, /healthz) is served
    /// [default: true].
    #[arg(long, env = "SPIELLEITER_HTTP", value_name = "BOOL")]
    http: Option<bool>,
    /// The web side's TCP port, on the listen address [default: 13080].
    #[arg(
        long,
        env = "SPIELLEITER_HTTP_PORT",
        value_name = "PORT",
        allow_negative_numbers = true
    )]
    http_port: Option<u16>,
}

impl ServerLocation {
    /// The configuration from the file and these settings alone.
    ///
    /// # Errors
    ///
    /// As [`Config::load`].
    pub fn load(&self) -> Result<Config, ConfigError> {
        Config::load(self.config.as_deref(), self.overrides())
    }

    fn overrides(&self) -> Overrides {
        Overrides {
            listen: self.listen,
            port: self.port,
            http: self.http,
            http_port: self.http_port,
            ..Overrides::default()
        }
    }
}

impl ServeArgs {
    fn overrides(&self) -> Overrides {
        Overrides {
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            max_message_bytes: self.max_message_bytes,
            max_nesting_depth: None,
            idle_limit_secs: self.idle_limit_secs,
            shutdown_grace_secs: self.shutdown_grace_secs,
            admin_passphrase: self.admin_passphrase.clone(),
            start_paused: self.start_paused,
            default_game: self.default_game,
            seed: self.seed,
            timeouts: if self.no_timeout {
                Some(false)
            } else {
                self.timeouts
            },
            soft_timeout_ms: self.soft_timeout_ms,
            hard_timeout_ms: self.hard_timeout_ms,
            game_move_limits: self.move_time.clone(),
            replays: self.replays,
            replay_dir: self.replay_dir.clone(),
            replay_gzip: self.replay_gzip,
            wire_log: self.wire_log,
            wire_log_bytes: self.wire_log_bytes,
            log_level: self.log_level.clone(),
            log_format: self.log_format,
            http_public: self.http_public,
            http_max_connections: self.http_max_connections,
            http_max_connections_per_ip: self.http_max_connections_per_ip,
            http_play_seats_per_address: self.http_play_seats_per_address,
            season_store: self.store.clone(),
            season_name: self.season.clone(),
            ..self.location.overrides()
        }
    }
}

/// The arguments of `serve` alone, to look settings up by name.
pub fn command() -> clap::Command {
    ServeArgs::augment_args(clap::Command::new("serve"))
}

/// The server settings from the config file (`file`, else
/// `SPIELLEITER_CONFIG`, else `config/spielleiter.toml` if it exists) and
/// the `SPIELLEITER_*` variables, without any flag: what `match` runs its
/// own server with.
///
/// # Errors
///
/// An unreadable or invalid file, or an invalid variable (named).
pub fn environment_config(file: Option<&std::path::Path>) -> anyhow::Result<Config> {
    let command = command();
    let matches = command
        .clone()
        .try_get_matches_from(["serve"])
        .map_err(|error| {
            match crate::environment::explain_parse_error(command.clone(), &error) {
                Some(text) => anyhow::anyhow!(text),
                None => anyhow::anyhow!(error.to_string()),
            }
        })?;
    let args = <ServeArgs as clap::FromArgMatches>::from_arg_matches(&matches)?;
    let file = file.or(args.location.config.as_deref());
    Config::load(file, args.overrides()).map_err(|error| {
        let given = crate::environment::ClockGiven {
            move_time: &args.move_time,
            soft: args.soft_timeout_ms.is_some(),
            hard: args.hard_timeout_ms.is_some(),
        };
        crate::environment::explain_clock_error(&error, &given)
            .unwrap_or_else(|| crate::environment::explain_config_error(&command, error))
    })
}

impl ServeArgs {
    /// The configuration: file, environment and flags; an invalid setting
    /// is named as the person gave it (flag, variable or key).
    ///
    /// # Errors
    ///
    /// An unreadable or invalid file, or an invalid setting.
    pub fn config(&self) -> anyhow::Result<Config> {
        Config::load(self.location.config.as_deref(), self.overrides()).map_err(|error| {
            let given = crate::environment::ClockGiven {
                move_time: &self.move_time,
                soft: self.soft_timeout_ms.is_some(),
                hard: self.hard_timeout_ms.is_some(),
            };
            crate::environment::explain_clock_error(&error, &given)
                .unwrap_or_else(|| crate::environment::explain_config_error(&command(), error))
        })
    }
}

/// Runs the server until SIGINT or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = args.config()?;
    // The web side prepares people's seats (`/play`) with a secret of
    // this process's own, whether or not an administrator passphrase is set.
    if config.http && config.http_play_seats > 0 {
        config.web_admin_secret = Some(format!("{:032x}", rand::random::<u128>()));
    }
    init_logging(&config)?;
    check_open_files(&config)?;
    if config.replays {
        // Found now, not when the first game ends.
        spielleiter_server::replay::check_dir(&config.replay_dir)?;
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        // The season is opened before anything is served: a wrong URL or
        // name stops the start with one line.
        let season = match &config.season_store {
            Some(url) => Some(stored_season::open(url, &config.season_name).await?),
            None => None,
        };
        let listener = tokio::net::TcpListener::bind(config.listen_addr())
            .await
            .with_context(|| format!("cannot listen on {}", config.listen_addr()))?;
        let address = listener.local_addr()?;
        // Both ports are taken before either is announced: a taken web
        // port stops the start without a "listening" line before it.
        let web_listener = match config.http_addr() {
            Some(addr) => Some(tokio::net::TcpListener::bind(addr).await.with_context(|| {
                format!("cannot serve the web side on {addr} (--http-port, or --http false)")
            })?),
            None => None,
        };
        let replays = if config.replays {
            std::path::absolute(&config.replay_dir)
                .unwrap_or_else(|_| config.replay_dir.clone())
                .display()
                .to_string()
        } else {
            "off".to_owned()
        };
        info!(
            %address,
            %replays,
            admin = config.admin_passphrase.is_some(),
            timeouts = config.timeouts,
            "Spielleiter listening on {address}"
        );
        let stats = Arc::new(ServerStats::default());
        // A guess at the passphrase costs the same on both ports.
        let auth = Arc::new(AuthBackoff::for_config(&config));
        let web = match web_listener {
            Some(listener) => Some(start_web(
                listener,
                address,
                &config,
                Arc::clone(&stats),
                Arc::clone(&auth),
                season,
            )?),
            None => None,
        };
        spielleiter_server::run_shared(listener, config, shutdown_signal(), stats, auth).await?;
        if let Some((stop, task)) = web {
            // Every game has ended, and with it every event stream.
            stop.cancel();
            if tokio::time::timeout(WEB_SHUTDOWN_LIMIT, task)
                .await
                .is_err()
            {
                info!("the web side did not stop in time");
            }
        }
        Ok(())
    })
}

/// How long the web side may take to stop after the game server.
const WEB_SHUTDOWN_LIMIT: Duration = Duration::from_secs(5);

/// Serves the web side on `listener` until the returned token is
/// cancelled.
fn start_web(
    listener: tokio::net::TcpListener,
    game_addr: std::net::SocketAddr,
    config: &Config,
    stats: Arc<ServerStats>,
    auth: Arc<AuthBackoff>,
    season: Option<Arc<dyn spielleiter_web::season::SeasonSource>>,
) -> anyhow::Result<(CancellationToken, JoinHandle<std::io::Result<()>>)> {
    let address = listener.local_addr()?;
    let access = Access::new(
        config.listen,
        config.http_public,
        config.admin_passphrase.clone(),
    );
    let limits = WebLimits::from_config(config);
    info!(
        web = %address,
        open = access.is_open(),
        public = %config.http_public,
        max_connections = limits.max_connections,
        max_connections_per_ip = limits.max_connections_per_ip,
        max_streams_per_ip = limits.max_streams_per_ip,
        header_timeout_secs = limits.header_timeout.as_secs(),
        "web pages on http://{address}/"
    );
    if season.is_some() {
        info!("season page on http://{address}/season");
    }
    // The seats connect to the game port over loopback when it listens on
    // every interface.
    let game_addr = match game_addr.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => {
            std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, game_addr.port()))
        }
        ip if ip.is_unspecified() => {
            std::net::SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, game_addr.port()))
        }
        _ => game_addr,
    };
    let play = config
        .web_admin_secret
        .clone()
        .map(|secret| spielleiter_web::play::PlaySettings {
            game_addr,
            secret,
            max_seats: config.http_play_seats,
            max_seats_per_address: config.http_play_seats_per_address,
            idle_limit: config.http_play_idle,
            bot_think: spielleiter_web::play::seat::BOT_THINK,
            // What a person who asks to be timed is told.
            move_limits: if config.timeouts {
                config.move_limits.clone()
            } else {
                std::collections::BTreeMap::new()
            },
        });
    if play.is_some() {
        info!(
            seats = config.http_play_seats,
            seats_per_address = config.http_play_seats_per_address,
            "people play in the browser on http://{address}/play"
        );
    }
    let router = spielleiter_web::router_with(
        Arc::clone(&stats),
        WebSettings {
            access,
            replay_dir: config.replays.then(|| config.replay_dir.clone()),
            limits: limits.clone(),
            auth,
        },
        season,
        play,
    );
    let stop = CancellationToken::new();
    let shutdown = stop.clone().cancelled_owned();
    let task = tokio::spawn(async move {
        spielleiter_web::serve(listener, router, &limits, stats, shutdown).await
    });
    Ok((stop, task))
}

/// Raises the open-file limit to the hard limit and logs it; refuses to
/// start if the limit cannot hold what the configured connection caps may
/// open, so that a flood on one port ends at its cap, not at the process's
/// last file descriptor.
fn check_open_files(config: &Config) -> anyhow::Result<()> {
    let needed = config.open_files_needed();
    let Some(limit) = spielleiter_server::limits::raise_open_file_limit() else {
        warn!(
            needed = needed.total(),
            "the open-file limit cannot be read; the connection caps are not checked against it"
        );
        return Ok(());
    };
    info!(
        before = limit.before,
        now = limit.now,
        hard = limit.hard,
        needed = needed.total(),
        "open-file limit: {} (started with {}, hard limit {})",
        limit.now,
        limit.before,
        limit.hard
    );
    if limit.now < needed.total() {
        anyhow::bail!(
            "the open-file limit is {} (hard limit {}), but the configured connection caps need {needed}: raise the hard limit (ulimit -Hn, systemd LimitNOFILE=, docker run --ulimit nofile=N:N) or lower server.max_connections or http.max_connections",
            limit.now,
            limit.hard
        );
    }
    Ok(())
}

fn init_logging(config: &Config) -> anyhow::Result<()> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(value) if !value.is_empty() => EnvFilter::try_new(value).context("invalid RUST_LOG")?,
        _ => EnvFilter::try_new(&config.log_level).context("invalid log level")?,
    };
    let registry = tracing_subscriber::registry().with(filter);
    match config.log_format {
        // Logs go to standard error; standard output is for results.
        LogFormat::Text => registry
            .with(
                fmt::layer()
                    .with_writer(std::io::stderr)
                    .with_ansi(std::io::stderr().is_terminal()),
            )
            .init(),
        LogFormat::Json => registry
            .with(fmt::layer().json().with_writer(std::io::stderr))
            .init(),
    }
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or, on Unix, SIGTERM (what `docker stop`
/// sends).
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => info!("SIGINT received"),
        () = terminate => info!("SIGTERM received"),
    }
}

/// `serve`'s settings, as the errors in them name its flags and
/// variables ([`environment`](crate::environment)'s tables against the
/// flags `serve` has).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::environment::{RENAMED_KEYS, arg_of_config_key, explain_config_error};

    #[test]
    fn every_validated_key_has_its_flag_and_variable() {
        let serve = &command();
        for (key, variable) in [
            ("server.max_connections", "SPIELLEITER_MAX_CONNECTIONS"),
            ("server.max_message_bytes", "SPIELLEITER_MAX_MESSAGE_BYTES"),
            ("server.idle_limit_secs", "SPIELLEITER_IDLE_LIMIT_SECS"),
            ("clock.soft_limit_ms", "SPIELLEITER_SOFT_TIMEOUT_MS"),
            ("clock.hard_limit_ms", "SPIELLEITER_HARD_TIMEOUT_MS"),
            ("log.level", "SPIELLEITER_LOG_LEVEL"),
            ("http.port", "SPIELLEITER_HTTP_PORT"),
            (
                "http.play_seats_per_address",
                "SPIELLEITER_HTTP_PLAY_SEATS_PER_ADDRESS",
            ),
        ] {
            let error = ConfigError::Invalid {
                key,
                reason: "must be at least 1".to_owned(),
            };
            let text = explain_config_error(serve, error).to_string();
            assert!(text.contains(variable), "{text}");
            assert!(text.contains(key), "{text}");
        }
        // Keys without a flag keep the plain message.
        let error = ConfigError::Invalid {
            key: "server.max_nesting_depth",
            reason: "must be at least 8".to_owned(),
        };
        let text = explain_config_error(serve, error).to_string();
        assert_eq!(
            text,
            "invalid setting `server.max_nesting_depth`: must be at least 8"
        );
    }

    fn serve_error(flags: &[&str]) -> String {
        use clap::FromArgMatches as _;
        let matches = command()
            .no_binary_name(true)
            .try_get_matches_from(flags)
            .unwrap_or_else(|e| panic!("{e}"));
        let args = ServeArgs::from_arg_matches(&matches).unwrap_or_else(|e| panic!("{e}"));
        match args.config() {
            Ok(_) => String::new(),
            Err(error) => format!("{error:#}"),
        }
    }

    #[test]
    fn an_invalid_move_clock_is_blamed_on_the_setting_given() {
        let none = ["--config", "/dev/null"];
        let text =
            serve_error(&[&none[..], &["--move-time", "swc_2021_blokus=5000/1000"]].concat());
        assert!(
            text.contains("--move-time swc_2021_blokus=5000/1000"),
            "{text}"
        );
        assert!(!text.contains("--hard-timeout-ms"), "{text}");
        // A soft limit above the game's own hard limit.
        let text = serve_error(&[&none[..], &["--move-time", "swc_2021_blokus=20000"]].concat());
        assert!(text.contains("--move-time swc_2021_blokus=20000"), "{text}");
        assert!(text.contains("own hard limit"), "{text}");
        let text = serve_error(&[&none[..], &["--soft-timeout-ms", "20000"]].concat());
        assert!(text.contains("--soft-timeout-ms"), "{text}");
        assert!(!text.contains("--hard-timeout-ms"), "{text}");
        let text = serve_error(&[&none[..], &["--hard-timeout-ms", "1"]].concat());
        assert!(text.contains("--hard-timeout-ms"), "{text}");
        assert!(!text.contains("--soft-timeout-ms"), "{text}");
        assert_eq!(serve_error(&none), "");
    }

    #[test]
    fn every_renamed_key_names_an_argument() {
        let serve = &command();
        for (key, _) in RENAMED_KEYS {
            assert!(arg_of_config_key(serve, key).is_some(), "{key}");
        }
    }
}
