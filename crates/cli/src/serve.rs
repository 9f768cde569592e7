//! `spielleiter serve` (also the default when no subcommand is given): builds
//! the configuration from file, environment and flags, sets up logging, and
//! runs the server until SIGINT or SIGTERM.

mod mail;
mod settings;
mod smtp;
mod stored_contest;
mod stored_season;

use std::{io::IsTerminal, path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use settings::Given;
use spielleiter_server::{
    Config, config::LogFormat, in_process::InProcess, limits::AuthBackoff, stats::ServerStats,
};
use spielleiter_web::{Access, WebLimits, WebSettings};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};
use tracing_subscriber::{fmt, prelude::*};

/// Settings of the server: every setting of the server's table that has a
/// flag, each also given as the environment variable shown; a flag beats
/// its variable, and both beat the config file.
#[derive(Debug, Default)]
pub struct ServeArgs {
    /// The config file given, if any.
    config: Option<PathBuf>,
    /// The settings given.
    given: Given,
}

/// Where the configuration comes from and where the server listens: what
/// `health` reads too, to probe the address the server's settings give.
#[derive(Debug, Default)]
pub struct ServerLocation {
    /// The config file given, if any.
    config: Option<PathBuf>,
    /// The location's settings given (boxed: the room for every setting,
    /// in `health`'s arguments).
    given: Box<Given>,
}

/// The settings of [`ServerLocation`], by their fields of [`Overrides`].
const LOCATION: [&str; 4] = ["listen", "port", "http", "http_port"];

/// `--config FILE` (or `SPIELLEITER_CONFIG`).
fn config_arg() -> Arg {
    Arg::new("config")
        .long("config")
        .env("SPIELLEITER_CONFIG")
        .value_name("FILE")
        .value_parser(clap::value_parser!(PathBuf))
        .help("Config file [default: config/spielleiter.toml, if it exists]")
}

impl FromArgMatches for ServeArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(ServeArgs {
            config: matches.get_one::<PathBuf>("config").cloned(),
            given: Given::from_matches(matches),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = ServeArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for ServeArgs {
    fn augment_args(command: Command) -> Command {
        command.arg(config_arg()).args(settings::args(|_| true))
    }

    fn augment_args_for_update(command: Command) -> Command {
        ServeArgs::augment_args(command)
    }
}

impl FromArgMatches for ServerLocation {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(ServerLocation {
            config: matches.get_one::<PathBuf>("config").cloned(),
            given: Box::new(Given::from_matches(matches)),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = ServerLocation::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for ServerLocation {
    fn augment_args(command: Command) -> Command {
        command
            .arg(config_arg())
            .args(settings::args(|setting| LOCATION.contains(&setting.name)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        ServerLocation::augment_args(command)
    }
}

impl ServerLocation {
    /// The configuration from the file and these settings alone.
    ///
    /// # Errors
    ///
    /// As [`ServeArgs::config`].
    pub fn load(&self) -> anyhow::Result<Config> {
        load(self.config.as_deref(), &self.given)
    }
}

/// The arguments of `serve` alone, to look settings up by name.
pub fn command() -> Command {
    ServeArgs::augment_args(Command::new("serve"))
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
    let args = ServeArgs::from_arg_matches(&matches)?;
    load(file.or(args.config.as_deref()), &args.given)
}

/// The configuration from `file` and the settings `given`; an invalid
/// setting is named as the person gave it (flag, variable, or the config
/// file's line).
fn load(file: Option<&std::path::Path>, given: &Given) -> anyhow::Result<Config> {
    Config::load(file, given.overrides.clone()).map_err(|error| given.explain(error))
}

impl ServeArgs {
    /// The configuration: file, environment and flags; an invalid setting
    /// is named as the person gave it (flag, variable or the config file's
    /// line).
    ///
    /// # Errors
    ///
    /// An unreadable or invalid file, or an invalid setting.
    pub fn config(&self) -> anyhow::Result<Config> {
        load(self.config.as_deref(), &self.given)
    }
}

/// Runs the server until SIGINT or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let config = args.config()?;
    init_logging(&config)?;
    check_open_files(&config)?;
    if config.replays {
        // Found now, not when the first game ends.
        spielleiter_server::replay::check_dir(&config.replay_dir)?;
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        // A guess at the passphrase costs the same on both ports (and a
        // contest's logins back off per name as it does per address).
        let auth = Arc::new(AuthBackoff::for_config(&config));
        // The store is opened before anything is served: a wrong URL or
        // season name, or a contest's settings out of range, stop the
        // start with one line.
        let mut pages = match &config.season_store {
            Some(url) => {
                stored_contest::open(url, config.season_name.as_deref(), &config, &auth).await?
            }
            None => stored_contest::StorePages {
                season: None,
                contest: None,
                mailer: None,
            },
        };
        // The notices' mails go out while the server runs, web side or
        // not; stopped with it.
        if pages.mailer.is_none() && config.contest_mail_smtp.is_some() {
            tracing::warn!(
                "contest.mail_smtp is set, but no contest is served (season.store names no store that holds one): no notice is mailed"
            );
        }
        let mail_stop = CancellationToken::new();
        let mailer = pages
            .mailer
            .take()
            .map(|mailer| tokio::spawn(mailer.run(mail_stop.clone())));
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
            %replays,
            admin = config.admin_passphrase.is_some(),
            timeouts = config.timeouts,
            "Spielleiter listening on {address}"
        );
        let stats = Arc::new(ServerStats::default());
        // The web side's seats reach the game server in-process, whether or
        // not an administrator passphrase is set.
        let (in_process, in_process_requests) = InProcess::channel();
        let web = match web_listener {
            Some(listener) => Some(start_web(
                listener,
                address,
                &config,
                WebShares {
                    stats: Arc::clone(&stats),
                    auth: Arc::clone(&auth),
                    in_process,
                },
                pages,
            )?),
            None => None,
        };
        spielleiter_server::run_shared(
            listener,
            config,
            shutdown_signal(),
            stats,
            auth,
            in_process_requests,
        )
        .await?;
        mail_stop.cancel();
        if let Some(task) = mailer
            && tokio::time::timeout(WEB_SHUTDOWN_LIMIT, task)
                .await
                .is_err()
        {
            info!("the notices' mailer did not stop in time");
        }
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

/// What the web side shares with the game server of the process.
struct WebShares {
    /// The server's counters.
    stats: Arc<ServerStats>,
    /// The passphrase back-off of both ports.
    auth: Arc<AuthBackoff>,
    /// The door for the seats' connections.
    in_process: InProcess,
}

/// Serves the web side on `listener` until the returned token is
/// cancelled.
fn start_web(
    listener: tokio::net::TcpListener,
    game_addr: std::net::SocketAddr,
    config: &Config,
    shares: WebShares,
    pages: stored_contest::StorePages,
) -> anyhow::Result<(CancellationToken, JoinHandle<std::io::Result<()>>)> {
    let stored_contest::StorePages {
        season, contest, ..
    } = pages;
    let WebShares {
        stats,
        auth,
        in_process,
    } = shares;
    let address = listener.local_addr()?;
    let access = Access::new(
        config.listen,
        config.http_public,
        config.admin_passphrase.clone(),
    );
    let limits = WebLimits::from_config(config);
    info!(
        open = access.is_open(),
        public = %config.http_public,
        max_connections = limits.max_connections,
        max_connections_per_ip = limits.max_connections_per_ip,
        max_streams_per_ip = limits.max_streams_per_ip,
        trusted_proxies = %limits
            .trusted_proxies
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        header_timeout_secs = limits.header_timeout.as_secs(),
        "web pages on http://{address}/"
    );
    if season.is_some() {
        info!("season page on http://{address}/season");
    }
    if contest.is_some() {
        info!("the contest's pages on http://{address}/contest");
    }
    // A person's own client is told the game port on loopback when it
    // listens on every interface.
    let game_addr = match game_addr.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => {
            std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, game_addr.port()))
        }
        ip if ip.is_unspecified() => {
            std::net::SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, game_addr.port()))
        }
        _ => game_addr,
    };
    let play = (config.http_play_seats > 0).then(|| spielleiter_web::play::PlaySettings {
        game_addr,
        server: in_process,
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
    let router = spielleiter_web::router_with_contest(
        Arc::clone(&stats),
        WebSettings {
            access,
            replay_dir: config.replays.then(|| config.replay_dir.clone()),
            limits: limits.clone(),
            auth,
        },
        season,
        play,
        contest,
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
    // The numbers are in the message; a field only for what it does not say.
    info!(
        needed = needed.total(),
        "open-file limit: {} (started with {}, hard limit {})", limit.now, limit.before, limit.hard
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
    let filter = crate::log_filter::from_env_or(&config.log_level, "log level")?;
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

/// `serve`'s flags as the server's table of settings has them, and the
/// errors in them named by the setting given.
#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use spielleiter_server::config::{HttpPublic, Overrides, SETTINGS};

    use super::*;

    #[test]
    fn every_setting_with_a_flag_has_it_with_its_variable() {
        let serve = command();
        serve.clone().debug_assert();
        let long = |long: &str| {
            serve
                .get_arguments()
                .find(|arg| arg.get_long() == Some(long))
                .unwrap_or_else(|| panic!("no --{long}"))
        };
        for setting in SETTINGS {
            let Some(flag) = setting.flag else {
                assert!(
                    serve
                        .get_arguments()
                        .all(|arg| arg.get_id() != setting.name),
                    "{}",
                    setting.key
                );
                continue;
            };
            let arg = long(flag.long);
            assert_eq!(arg.get_id(), setting.name);
            assert_eq!(arg.get_env(), Some(std::ffi::OsStr::new(flag.variable)));
            assert_eq!(arg.get_short(), flag.short);
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            assert!(help.contains(&setting.default_text()), "{help}");
            assert!(help.contains(setting.key), "{help}");
            if let Some(negation) = flag.negation {
                assert_eq!(long(negation).get_env(), None);
            }
        }
        // `health` reads where the server listens, and nothing else.
        let health = ServerLocation::augment_args(Command::new("health"));
        let mut ids: Vec<&str> = health
            .get_arguments()
            .map(|arg| arg.get_id().as_str())
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, ["config", "http", "http_port", "listen", "port"]);
    }

    fn given(flags: &[&str]) -> Overrides {
        let matches = command()
            .no_binary_name(true)
            .try_get_matches_from(flags)
            .unwrap_or_else(|e| panic!("{e}"));
        ServeArgs::from_arg_matches(&matches)
            .unwrap_or_else(|e| panic!("{e}"))
            .given
            .overrides
    }

    #[test]
    fn flags_give_their_settings_as_typed() {
        let overrides = given(&[
            "-p",
            "5000",
            "--wire-log",
            "--no-timeout",
            "--timeouts",
            "true",
            "--move-time",
            "swc_2021_blokus=500/800",
            "--seed",
            "7",
            "--listen",
            "localhost",
        ]);
        assert_eq!(overrides.port, Some(5000));
        assert_eq!(overrides.wire_log, Some(true));
        // The negation beats the flag, as it beats the variable.
        assert_eq!(overrides.timeouts, Some(false));
        assert_eq!(overrides.game_move_limits.len(), 1);
        assert_eq!(overrides.seed, Some(7));
        assert_eq!(
            overrides.listen,
            Some(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST))
        );
        assert_eq!(overrides.max_connections, None);
        assert_eq!(
            given(&["--http-public"]).http_public,
            Some(HttpPublic::Everyone)
        );
    }

    fn serve_error(flags: &[&str]) -> String {
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
    fn trusted_proxies_are_given_by_flag_repeated_or_separated() {
        let parsed = |flags: &[&str]| {
            let matches = command().no_binary_name(true).try_get_matches_from(flags);
            matches.map(|matches| {
                let args = ServeArgs::from_arg_matches(&matches).unwrap_or_else(|e| panic!("{e}"));
                args.given.overrides.http_trusted_proxies
            })
        };
        let two = parsed(&[
            "--http-trusted-proxy",
            "127.0.0.1",
            "--http-trusted-proxy",
            "10.0.0.0/8,::1",
        ])
        .expect("valid");
        assert_eq!(two.map(|ranges| ranges.len()), Some(3));
        assert_eq!(parsed(&[]).expect("valid"), None);
        let wrong = parsed(&["--http-trusted-proxy", "10.0.0.0/33"]).expect_err("invalid");
        assert!(wrong.to_string().contains("10.0.0.0/33"), "{wrong}");
    }
}
