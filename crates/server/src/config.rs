//! Server configuration: embedded defaults, an optional TOML file, environment
//! variables and command-line overrides, merged into one validated [`Config`].
//!
//! Precedence, lowest first: the defaults in [`Config::default`], the file
//! (`config/spielleiter.toml` unless another path is given), then
//! [`Overrides`], which the binary fills from `SPIELLEITER_*` variables and
//! command-line flags (a flag beats its variable).

use std::{
    collections::BTreeMap,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::{Path, PathBuf},
    str::FromStr,
    time::Duration,
};

use serde::Deserialize;
use spielleiter_rules::GameType;

use crate::{
    clock::TimeLimits,
    limits::{AuthBackoff, GAME_REFUSALS_AT_ONCE},
};

/// The file read when no other path is given, relative to the working
/// directory. Missing is fine; unreadable or invalid is an error.
pub const DEFAULT_CONFIG_PATH: &str = "config/spielleiter.toml";

/// Passphrases shorter than this are warned about at start.
pub const MIN_PASSPHRASE_CHARS: usize = 12;

/// Passphrases that appear in examples (the official TestClient's default,
/// this repository's config file): warned about at start.
const EXAMPLE_PASSPHRASES: &[&str] = &["examplepassword", "change me"];

/// The validated configuration the server runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Address to listen on. Loopback by default; a container needs `0.0.0.0`.
    pub listen: IpAddr,
    /// TCP port; 0 picks a free one.
    pub port: u16,
    /// Connections served at once; further ones are told so and closed.
    pub max_connections: usize,
    /// Largest accepted message (one top-level XML element), in bytes.
    pub max_message_bytes: usize,
    /// Deepest accepted element nesting within a message.
    pub max_nesting_depth: usize,
    /// How long a connection that is neither seated in a room nor an
    /// administrator may stay silent before it is closed.
    pub idle_limit: Duration,
    /// How long running games may continue after a shutdown signal before
    /// they are ended.
    pub shutdown_grace: Duration,
    /// Connections served at once from one IP address.
    pub max_connections_per_ip: usize,
    /// Whether loopback addresses (127.0.0.0/8, ::1) are exempt from
    /// [`Config::max_connections_per_ip`].
    pub loopback_exempt: bool,
    /// How long a message may take from its first byte to its last.
    pub message_timeout: Duration,
    /// Bytes of unfinished messages held for all connections together;
    /// beyond it, a connection with a large unfinished message is closed.
    pub max_unfinished_bytes: usize,
    /// Bytes waiting to be sent to a player (or any connection that is not
    /// an administrator) before its reader stops reading.
    pub player_outbox_bytes: usize,
    /// The same bound for administrators, who observe whole games.
    pub observer_outbox_bytes: usize,
    /// How long a connection may stay over its outbox bound before it is
    /// closed (a player loses with `LEFT`).
    pub slow_reader_grace: Duration,
    /// The administrator passphrase; `None` disables administration.
    pub admin_passphrase: Option<String>,
    /// The delay after the first failed `authenticate` from an address; it
    /// doubles with every further failure.
    pub auth_backoff_initial: Duration,
    /// The longest delay between failed `authenticate`s from one address.
    pub auth_backoff_max: Duration,
    /// Whether rooms created by `join` start paused.
    pub start_paused: bool,
    /// The game of a `join` without `gameType`: it joins an open room of
    /// this game, or opens one.
    pub default_game: GameType,
    /// How long a prepared room may wait for its reserved players before it
    /// is closed and its codes expire.
    pub reservation_expiry: Duration,
    /// Seed for the start-piece draws; `None` seeds from the OS.
    pub seed: Option<u64>,
    /// Whether players are timed (can be switched off per prepared slot).
    pub timeouts: bool,
    /// The move clock of every game type: a move later than the soft limit
    /// after its request loses with `SOFT_TIMEOUT`; without any move by the
    /// hard limit the player loses with `HARD_TIMEOUT`. Defaults per game:
    /// [`GameType::default_move_time`] (decisions.md §16).
    pub move_limits: BTreeMap<GameType, TimeLimits>,
    /// Whether every game is written to a replay file.
    pub replays: bool,
    /// Where replay files go.
    pub replay_dir: PathBuf,
    /// Whether finished replays are gzip-compressed (`.xml.gz`).
    pub replay_gzip: bool,
    /// Whether every game's wire log is kept next to its replay: each
    /// seat's bytes in and out with their times (`NAME.wire.txt`). Off by
    /// default; a prepared room may ask for one (`wireLog="true"`).
    pub wire_log: bool,
    /// The most bytes of one seat a wire log keeps.
    pub wire_log_bytes: usize,
    /// Whether the web side (pages, metrics, health check) is served.
    pub http: bool,
    /// The web side's TCP port, on the listen address; 0 picks a free one.
    pub http_port: u16,
    /// Who sees running games on the web side: everyone, only after a
    /// login, or (the default) everyone on a loopback listen address and
    /// only after a login elsewhere.
    pub http_public: HttpPublic,
    /// Web connections served at once; further ones are closed at once.
    pub http_max_connections: usize,
    /// Web connections served at once from one IP address (loopback is
    /// exempt when [`Config::loopback_exempt`] is).
    pub http_max_connections_per_ip: usize,
    /// Live event streams open at once from one IP address.
    pub http_max_streams_per_ip: usize,
    /// How long a web connection may take to send a request's headers,
    /// counted from its start or from the end of the previous answer: a
    /// keep-alive connection that stays idle this long is closed too.
    pub http_header_timeout: Duration,
    /// How long a web connection may take nothing of what is sent to it,
    /// and how long a request (other than an event stream) may take from
    /// its headers to its answer, body included.
    pub http_stall_timeout: Duration,
    /// File descriptors kept beyond the connection caps for the rest of the
    /// process (listeners, the runtime, logs, directory scans): see
    /// [`Config::open_files_needed`].
    pub reserved_files: u64,
    /// People's seats (`/play`) open at once on the web side; 0 turns
    /// playing in the browser off.
    pub http_play_seats: usize,
    /// People's seats one address may hold at once (an IPv6 address counts
    /// by its /64), so that one visitor cannot take every seat.
    pub http_play_seats_per_address: usize,
    /// How long a person's seat may go without a request from its browser
    /// before it leaves its game (and loses it by the rules).
    pub http_play_idle: Duration,
    /// A second administrator passphrase, random per process and never
    /// configured: `serve` hands it to its own web side, which prepares
    /// the rooms of people's seats with it whether or not the organiser set
    /// [`Config::admin_passphrase`].
    pub web_admin_secret: Option<String>,
    /// Default log filter (`RUST_LOG` wins when set).
    pub log_level: String,
    /// Log line format.
    pub log_format: LogFormat,
    /// A season's store (`postgres://…` or a SQLite file) whose season the
    /// web side shows on `/season`; `None`: no season page.
    pub season_store: Option<String>,
    /// The season of [`Config::season_store`] shown.
    pub season_name: String,
}

/// Who sees running games on the web side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HttpPublic {
    /// Everyone on a loopback listen address, only after a login on other
    /// interfaces: `auto`, the default.
    #[default]
    Auto,
    /// Everyone, whatever the listen address: `true`.
    Everyone,
    /// Only after a login, whatever the listen address (a server on
    /// loopback behind a reverse proxy): `false`.
    LoginOnly,
}

impl std::str::FromStr for HttpPublic {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(HttpPublic::Auto),
            "true" => Ok(HttpPublic::Everyone),
            "false" => Ok(HttpPublic::LoginOnly),
            other => Err(ConfigError::Invalid {
                key: "http.public",
                reason: format!("`{other}` is none of `true`, `false` and `auto`"),
            }),
        }
    }
}

impl std::fmt::Display for HttpPublic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HttpPublic::Auto => "auto",
            HttpPublic::Everyone => "true",
            HttpPublic::LoginOnly => "false",
        })
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(ConfigError::Invalid {
                key: "log.format",
                reason: format!("`{other}` is neither `text` nor `json`"),
            }),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 13050,
            max_connections: 1024,
            max_message_bytes: 1024 * 1024,
            max_nesting_depth: 32,
            idle_limit: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(10),
            max_connections_per_ip: 32,
            loopback_exempt: false,
            message_timeout: Duration::from_secs(10),
            max_unfinished_bytes: 64 << 20,
            player_outbox_bytes: 4 << 20,
            observer_outbox_bytes: 16 << 20,
            slow_reader_grace: Duration::from_secs(10),
            admin_passphrase: None,
            auth_backoff_initial: Duration::from_millis(100),
            auth_backoff_max: Duration::from_secs(10),
            start_paused: false,
            default_game: GameType::DEFAULT,
            reservation_expiry: Duration::from_secs(3600),
            seed: None,
            timeouts: true,
            move_limits: GameType::ALL
                .iter()
                .map(|&game| {
                    let (soft, hard) = game.default_move_time();
                    (game, TimeLimits { soft, hard })
                })
                .collect(),
            replays: true,
            replay_dir: PathBuf::from("replays"),
            replay_gzip: false,
            wire_log: false,
            wire_log_bytes: crate::replay::wire_log::DEFAULT_WIRE_LOG_BYTES,
            http: true,
            http_port: 13080,
            http_public: HttpPublic::Auto,
            http_max_connections: 256,
            http_max_connections_per_ip: 32,
            http_max_streams_per_ip: 8,
            http_header_timeout: Duration::from_secs(10),
            http_stall_timeout: Duration::from_secs(30),
            reserved_files: 64,
            http_play_seats: 4,
            http_play_seats_per_address: 1,
            http_play_idle: Duration::from_secs(600),
            web_admin_secret: None,
            log_level: "info".to_owned(),
            log_format: LogFormat::Text,
            season_store: None,
            season_name: "season".to_owned(),
        }
    }
}

/// Why the configuration could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read config file {path}: {cause}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        cause: std::io::Error,
    },
    /// The file is not valid TOML or has unknown keys or wrong types.
    #[error("invalid config file {path}: {cause}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        cause: Box<toml::de::Error>,
    },
    /// A value is out of range or inconsistent with another.
    #[error("invalid setting `{key}`: {reason}")]
    Invalid {
        /// The setting, as `section.key`.
        key: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// Settings given on top of the file; `None` keeps the file's (or default)
/// value. The binary fills this from environment variables and flags.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// See [`Config::listen`].
    pub listen: Option<IpAddr>,
    /// See [`Config::port`].
    pub port: Option<u16>,
    /// See [`Config::max_connections`].
    pub max_connections: Option<usize>,
    /// See [`Config::max_message_bytes`].
    pub max_message_bytes: Option<usize>,
    /// See [`Config::max_nesting_depth`].
    pub max_nesting_depth: Option<usize>,
    /// See [`Config::idle_limit`], in seconds.
    pub idle_limit_secs: Option<u64>,
    /// See [`Config::shutdown_grace`], in seconds.
    pub shutdown_grace_secs: Option<u64>,
    /// See [`Config::max_connections_per_ip`].
    pub max_connections_per_ip: Option<usize>,
    /// See [`Config::loopback_exempt`].
    pub loopback_exempt: Option<bool>,
    /// See [`Config::message_timeout`], in seconds.
    pub message_timeout_secs: Option<u64>,
    /// See [`Config::max_unfinished_bytes`].
    pub max_unfinished_bytes: Option<usize>,
    /// See [`Config::player_outbox_bytes`].
    pub player_outbox_bytes: Option<usize>,
    /// See [`Config::observer_outbox_bytes`].
    pub observer_outbox_bytes: Option<usize>,
    /// See [`Config::slow_reader_grace`], in seconds.
    pub slow_reader_grace_secs: Option<u64>,
    /// See [`Config::admin_passphrase`].
    pub admin_passphrase: Option<String>,
    /// See [`Config::auth_backoff_initial`], in milliseconds.
    pub auth_backoff_initial_ms: Option<u64>,
    /// See [`Config::auth_backoff_max`], in milliseconds.
    pub auth_backoff_max_ms: Option<u64>,
    /// See [`Config::start_paused`].
    pub start_paused: Option<bool>,
    /// See [`Config::default_game`].
    pub default_game: Option<GameType>,
    /// See [`Config::reservation_expiry`], in seconds.
    pub reservation_expiry_secs: Option<u64>,
    /// See [`Config::seed`].
    pub seed: Option<u64>,
    /// `Some(false)` switches all move timing off.
    pub timeouts: Option<bool>,
    /// The soft limit of every game type, in milliseconds (see
    /// [`Config::move_limits`]).
    pub soft_timeout_ms: Option<u64>,
    /// The hard limit of every game type, in milliseconds.
    pub hard_timeout_ms: Option<u64>,
    /// Limits of single game types, applied after the two above.
    pub game_move_limits: Vec<GameMoveLimits>,
    /// See [`Config::replays`].
    pub replays: Option<bool>,
    /// See [`Config::replay_dir`].
    pub replay_dir: Option<PathBuf>,
    /// See [`Config::replay_gzip`].
    pub replay_gzip: Option<bool>,
    /// See [`Config::wire_log`].
    pub wire_log: Option<bool>,
    /// See [`Config::wire_log_bytes`].
    pub wire_log_bytes: Option<usize>,
    /// See [`Config::http`].
    pub http: Option<bool>,
    /// See [`Config::http_port`].
    pub http_port: Option<u16>,
    /// See [`Config::http_public`].
    pub http_public: Option<HttpPublic>,
    /// See [`Config::http_max_connections`].
    pub http_max_connections: Option<usize>,
    /// See [`Config::http_max_connections_per_ip`].
    pub http_max_connections_per_ip: Option<usize>,
    /// See [`Config::http_max_streams_per_ip`].
    pub http_max_streams_per_ip: Option<usize>,
    /// See [`Config::http_header_timeout`], in seconds.
    pub http_header_timeout_secs: Option<u64>,
    /// See [`Config::http_stall_timeout`], in seconds.
    pub http_stall_timeout_secs: Option<u64>,
    /// See [`Config::reserved_files`].
    pub reserved_files: Option<u64>,
    /// See [`Config::http_play_seats`].
    pub http_play_seats: Option<usize>,
    /// See [`Config::http_play_seats_per_address`].
    pub http_play_seats_per_address: Option<usize>,
    /// See [`Config::http_play_idle`], in seconds.
    pub http_play_idle_secs: Option<u64>,
    /// See [`Config::log_level`].
    pub log_level: Option<String>,
    /// See [`Config::log_format`].
    pub log_format: Option<LogFormat>,
    /// See [`Config::season_store`].
    pub season_store: Option<String>,
    /// See [`Config::season_name`].
    pub season_name: Option<String>,
}

/// The file's layout. Every key is optional; unknown keys are errors, so a
/// typo does not silently fall back to a default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    #[serde(default)]
    server: FileServer,
    #[serde(default)]
    admin: FileAdmin,
    #[serde(default)]
    games: FileGames,
    #[serde(default)]
    clock: FileClock,
    #[serde(default)]
    replays: FileReplays,
    #[serde(default)]
    http: FileHttp,
    #[serde(default)]
    log: FileLog,
    #[serde(default)]
    season: FileSeason,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSeason {
    store: Option<String>,
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHttp {
    enabled: Option<bool>,
    port: Option<u16>,
    public: Option<FilePublic>,
    max_connections: Option<usize>,
    max_connections_per_ip: Option<usize>,
    max_streams_per_ip: Option<usize>,
    header_timeout_secs: Option<u64>,
    stall_timeout_secs: Option<u64>,
    reserved_files: Option<u64>,
    play_seats: Option<usize>,
    play_seats_per_address: Option<usize>,
    play_idle_secs: Option<u64>,
}

/// `http.public` in the file: `true`, `false` or `"auto"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum FilePublic {
    Bool(bool),
    Text(String),
}

impl FilePublic {
    fn parse(self) -> Result<HttpPublic, ConfigError> {
        match self {
            FilePublic::Bool(true) => Ok(HttpPublic::Everyone),
            FilePublic::Bool(false) => Ok(HttpPublic::LoginOnly),
            FilePublic::Text(text) => text.parse(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileServer {
    listen: Option<String>,
    port: Option<u16>,
    max_connections: Option<usize>,
    max_message_bytes: Option<usize>,
    max_nesting_depth: Option<usize>,
    idle_limit_secs: Option<u64>,
    shutdown_grace_secs: Option<u64>,
    max_connections_per_ip: Option<usize>,
    loopback_exempt: Option<bool>,
    message_timeout_secs: Option<u64>,
    max_unfinished_bytes: Option<usize>,
    player_outbox_bytes: Option<usize>,
    observer_outbox_bytes: Option<usize>,
    slow_reader_grace_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileAdmin {
    passphrase: Option<String>,
    backoff_initial_ms: Option<u64>,
    backoff_max_ms: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileGames {
    start_paused: Option<bool>,
    default: Option<String>,
    seed: Option<u64>,
    reservation_expiry_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileClock {
    enabled: Option<bool>,
    soft_limit_ms: Option<u64>,
    hard_limit_ms: Option<u64>,
    /// Per game type id.
    #[serde(default)]
    games: BTreeMap<String, FileGameClock>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileGameClock {
    soft_limit_ms: Option<u64>,
    hard_limit_ms: Option<u64>,
}

/// The move limits of one game type, as a flag or variable gives them:
/// `GAME=SOFT_MS/HARD_MS` or `GAME=SOFT_MS` (e.g. `blokus_bcl=5000/10000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameMoveLimits {
    /// The game type.
    pub game: GameType,
    /// Its soft limit in milliseconds, if given.
    pub soft_ms: Option<u64>,
    /// Its hard limit in milliseconds, if given.
    pub hard_ms: Option<u64>,
}

impl FromStr for GameMoveLimits {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let usage = || format!("`{s}` is not GAME=SOFT_MS[/HARD_MS]");
        let (game, limits) = s.split_once('=').ok_or_else(usage)?;
        let game = game.trim().parse::<GameType>().map_err(|e| e.to_string())?;
        let (soft, hard) = match limits.split_once('/') {
            Some((soft, hard)) => (soft, Some(hard)),
            None => (limits, None),
        };
        let ms = |text: &str| text.trim().parse::<u64>().map_err(|_| usage());
        Ok(GameMoveLimits {
            game,
            soft_ms: Some(ms(soft)?),
            hard_ms: hard.map(ms).transpose()?,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileReplays {
    enabled: Option<bool>,
    dir: Option<PathBuf>,
    gzip: Option<bool>,
    wire_log: Option<bool>,
    wire_log_bytes: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLog {
    level: Option<String>,
    format: Option<LogFormat>,
}

impl Config {
    /// Builds the configuration: defaults, then the file at `path` (or
    /// [`DEFAULT_CONFIG_PATH`] if it exists), then `overrides`.
    ///
    /// # Errors
    ///
    /// An explicitly given file that is missing, any unreadable or invalid
    /// file, or a value that fails validation.
    pub fn load(path: Option<&Path>, overrides: Overrides) -> Result<Config, ConfigError> {
        let file = match path {
            Some(path) => Some((path.to_owned(), read_file(path)?)),
            None => {
                let default = Path::new(DEFAULT_CONFIG_PATH);
                match std::fs::read_to_string(default) {
                    Ok(text) => Some((default.to_owned(), text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    Err(cause) => {
                        return Err(ConfigError::Read {
                            path: default.to_owned(),
                            cause,
                        });
                    }
                }
            }
        };
        let mut config = Config::default();
        if let Some((path, text)) = file {
            config.apply_file(&path, &text)?;
        }
        config.apply(overrides);
        config.validate()?;
        Ok(config)
    }

    /// Applies the settings of a TOML text on top of `self`.
    ///
    /// # Errors
    ///
    /// Invalid TOML, unknown keys, or values of the wrong type.
    pub fn apply_file(&mut self, path: &Path, text: &str) -> Result<(), ConfigError> {
        let file: FileConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            cause: Box::new(e),
        })?;
        let FileConfig {
            server,
            admin,
            games,
            clock,
            replays,
            http,
            log,
            season,
        } = file;
        let default_game = games
            .default
            .map(|id| {
                id.parse::<GameType>().map_err(|e| ConfigError::Invalid {
                    key: "games.default",
                    reason: e.to_string(),
                })
            })
            .transpose()?;
        let game_move_limits = clock
            .games
            .into_iter()
            .map(|(id, limits)| {
                Ok(GameMoveLimits {
                    game: id
                        .parse()
                        .map_err(
                            |e: spielleiter_rules::UnknownGameType| ConfigError::Invalid {
                                key: "clock.games",
                                reason: format!("`{id}`: {e}"),
                            },
                        )?,
                    soft_ms: limits.soft_limit_ms,
                    hard_ms: limits.hard_limit_ms,
                })
            })
            .collect::<Result<_, ConfigError>>()?;
        let http_public = http.public.map(FilePublic::parse).transpose()?;
        self.apply(Overrides {
            listen: server
                .listen
                .as_deref()
                .map(resolve_listen)
                .transpose()
                .map_err(|reason| ConfigError::Invalid {
                    key: "server.listen",
                    reason,
                })?,
            port: server.port,
            max_connections: server.max_connections,
            max_message_bytes: server.max_message_bytes,
            max_nesting_depth: server.max_nesting_depth,
            idle_limit_secs: server.idle_limit_secs,
            shutdown_grace_secs: server.shutdown_grace_secs,
            max_connections_per_ip: server.max_connections_per_ip,
            loopback_exempt: server.loopback_exempt,
            message_timeout_secs: server.message_timeout_secs,
            max_unfinished_bytes: server.max_unfinished_bytes,
            player_outbox_bytes: server.player_outbox_bytes,
            observer_outbox_bytes: server.observer_outbox_bytes,
            slow_reader_grace_secs: server.slow_reader_grace_secs,
            admin_passphrase: admin.passphrase,
            auth_backoff_initial_ms: admin.backoff_initial_ms,
            auth_backoff_max_ms: admin.backoff_max_ms,
            start_paused: games.start_paused,
            default_game,
            reservation_expiry_secs: games.reservation_expiry_secs,
            seed: games.seed,
            timeouts: clock.enabled,
            soft_timeout_ms: clock.soft_limit_ms,
            hard_timeout_ms: clock.hard_limit_ms,
            game_move_limits,
            replays: replays.enabled,
            replay_dir: replays.dir,
            replay_gzip: replays.gzip,
            wire_log: replays.wire_log,
            wire_log_bytes: replays.wire_log_bytes,
            http: http.enabled,
            http_port: http.port,
            http_public,
            http_max_connections: http.max_connections,
            http_max_connections_per_ip: http.max_connections_per_ip,
            http_max_streams_per_ip: http.max_streams_per_ip,
            http_header_timeout_secs: http.header_timeout_secs,
            http_stall_timeout_secs: http.stall_timeout_secs,
            reserved_files: http.reserved_files,
            http_play_seats: http.play_seats,
            http_play_seats_per_address: http.play_seats_per_address,
            http_play_idle_secs: http.play_idle_secs,
            log_level: log.level,
            log_format: log.format,
            season_store: season.store,
            season_name: season.name,
        });
        Ok(())
    }

    /// Replaces every setting that `overrides` gives.
    pub fn apply(&mut self, overrides: Overrides) {
        let Overrides {
            listen,
            port,
            max_connections,
            max_message_bytes,
            max_nesting_depth,
            idle_limit_secs,
            shutdown_grace_secs,
            max_connections_per_ip,
            loopback_exempt,
            message_timeout_secs,
            max_unfinished_bytes,
            player_outbox_bytes,
            observer_outbox_bytes,
            slow_reader_grace_secs,
            admin_passphrase,
            auth_backoff_initial_ms,
            auth_backoff_max_ms,
            start_paused,
            default_game,
            reservation_expiry_secs,
            seed,
            timeouts,
            soft_timeout_ms,
            hard_timeout_ms,
            game_move_limits,
            replays,
            replay_dir,
            replay_gzip,
            wire_log,
            wire_log_bytes,
            http,
            http_port,
            http_public,
            http_max_connections,
            http_max_connections_per_ip,
            http_max_streams_per_ip,
            http_header_timeout_secs,
            http_stall_timeout_secs,
            reserved_files,
            http_play_seats,
            http_play_seats_per_address,
            http_play_idle_secs,
            log_level,
            log_format,
            season_store,
            season_name,
        } = overrides;
        set(&mut self.listen, listen);
        set(&mut self.port, port);
        set(&mut self.max_connections, max_connections);
        set(&mut self.max_message_bytes, max_message_bytes);
        set(&mut self.max_nesting_depth, max_nesting_depth);
        set(
            &mut self.idle_limit,
            idle_limit_secs.map(Duration::from_secs),
        );
        set(
            &mut self.shutdown_grace,
            shutdown_grace_secs.map(Duration::from_secs),
        );
        set(&mut self.max_connections_per_ip, max_connections_per_ip);
        set(&mut self.loopback_exempt, loopback_exempt);
        set(
            &mut self.message_timeout,
            message_timeout_secs.map(Duration::from_secs),
        );
        set(&mut self.max_unfinished_bytes, max_unfinished_bytes);
        set(&mut self.player_outbox_bytes, player_outbox_bytes);
        set(&mut self.observer_outbox_bytes, observer_outbox_bytes);
        set(
            &mut self.slow_reader_grace,
            slow_reader_grace_secs.map(Duration::from_secs),
        );
        set(
            &mut self.auth_backoff_initial,
            auth_backoff_initial_ms.map(Duration::from_millis),
        );
        set(
            &mut self.auth_backoff_max,
            auth_backoff_max_ms.map(Duration::from_millis),
        );
        set(
            &mut self.reservation_expiry,
            reservation_expiry_secs.map(Duration::from_secs),
        );
        // An empty passphrase would let anyone in; treat it as "none".
        if let Some(passphrase) = admin_passphrase {
            self.admin_passphrase = Some(passphrase).filter(|p| !p.is_empty());
        }
        set(&mut self.start_paused, start_paused);
        set(&mut self.default_game, default_game);
        if seed.is_some() {
            self.seed = seed;
        }
        set(&mut self.timeouts, timeouts);
        let every_game = GameType::ALL.iter().map(|&game| GameMoveLimits {
            game,
            soft_ms: soft_timeout_ms,
            hard_ms: hard_timeout_ms,
        });
        for limits in every_game.chain(game_move_limits) {
            let (soft, hard) = limits.game.default_move_time();
            let entry = self
                .move_limits
                .entry(limits.game)
                .or_insert(TimeLimits { soft, hard });
            set(&mut entry.soft, limits.soft_ms.map(Duration::from_millis));
            set(&mut entry.hard, limits.hard_ms.map(Duration::from_millis));
        }
        set(&mut self.replays, replays);
        set(&mut self.replay_dir, replay_dir);
        set(&mut self.replay_gzip, replay_gzip);
        set(&mut self.wire_log, wire_log);
        set(&mut self.wire_log_bytes, wire_log_bytes);
        set(&mut self.http, http);
        set(&mut self.http_port, http_port);
        set(&mut self.http_public, http_public);
        set(&mut self.http_max_connections, http_max_connections);
        set(
            &mut self.http_max_connections_per_ip,
            http_max_connections_per_ip,
        );
        set(&mut self.http_max_streams_per_ip, http_max_streams_per_ip);
        set(
            &mut self.http_header_timeout,
            http_header_timeout_secs.map(Duration::from_secs),
        );
        set(
            &mut self.http_stall_timeout,
            http_stall_timeout_secs.map(Duration::from_secs),
        );
        set(&mut self.reserved_files, reserved_files);
        set(&mut self.http_play_seats, http_play_seats);
        set(
            &mut self.http_play_seats_per_address,
            http_play_seats_per_address,
        );
        set(
            &mut self.http_play_idle,
            http_play_idle_secs.map(Duration::from_secs),
        );
        set(&mut self.log_level, log_level);
        set(&mut self.log_format, log_format);
        // An empty store (`SPIELLEITER_STORE=`) switches the page off.
        if let Some(store) = season_store {
            self.season_store = Some(store).filter(|s| !s.is_empty());
        }
        set(&mut self.season_name, season_name);
    }

    /// Checks ranges and consistency.
    ///
    /// # Errors
    ///
    /// The first setting that is out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| {
            Err(ConfigError::Invalid {
                key,
                reason: reason.to_owned(),
            })
        };
        if self.max_connections == 0 {
            return invalid("server.max_connections", "must be at least 1");
        }
        if self.wire_log_bytes < 1024 {
            return invalid("replays.wire_log_bytes", "must be at least 1024");
        }
        if self.season_name.is_empty() {
            return invalid("season.name", "must not be empty");
        }
        if self.http && self.http_port != 0 && self.http_port == self.port {
            return invalid("http.port", "must differ from server.port");
        }
        if self.max_message_bytes < 1024 {
            return invalid("server.max_message_bytes", "must be at least 1024");
        }
        if self.max_nesting_depth < 8 {
            return invalid("server.max_nesting_depth", "must be at least 8");
        }
        if self.idle_limit.is_zero() {
            return invalid("server.idle_limit_secs", "must be at least 1");
        }
        for (game, limits) in &self.move_limits {
            if limits.soft.is_zero() {
                return invalid(
                    "clock.soft_limit_ms",
                    &format!("must be at least 1 (game {game})"),
                );
            }
            if limits.hard < limits.soft {
                return invalid(
                    "clock.hard_limit_ms",
                    &format!("must not be shorter than clock.soft_limit_ms (game {game})"),
                );
            }
        }
        if self.max_connections_per_ip == 0 {
            return invalid("server.max_connections_per_ip", "must be at least 1");
        }
        if self.message_timeout.is_zero() {
            return invalid("server.message_timeout_secs", "must be at least 1");
        }
        if self.max_unfinished_bytes < self.max_message_bytes {
            return invalid(
                "server.max_unfinished_bytes",
                "must not be smaller than server.max_message_bytes",
            );
        }
        if self.player_outbox_bytes < 64 * 1024 {
            return invalid("server.player_outbox_bytes", "must be at least 65536");
        }
        if self.observer_outbox_bytes < self.player_outbox_bytes {
            return invalid(
                "server.observer_outbox_bytes",
                "must not be smaller than server.player_outbox_bytes",
            );
        }
        if self.auth_backoff_max < self.auth_backoff_initial {
            return invalid(
                "admin.backoff_max_ms",
                "must not be shorter than admin.backoff_initial_ms",
            );
        }
        if self.http_max_connections == 0 {
            return invalid("http.max_connections", "must be at least 1");
        }
        if self.http_max_connections_per_ip == 0 {
            return invalid("http.max_connections_per_ip", "must be at least 1");
        }
        if self.http_max_streams_per_ip == 0 {
            return invalid("http.max_streams_per_ip", "must be at least 1");
        }
        if self.http_header_timeout.is_zero() {
            return invalid("http.header_timeout_secs", "must be at least 1");
        }
        // A guess at the passphrase may wait out the longest back-off.
        if self.http_stall_timeout <= self.auth_backoff_max {
            return invalid(
                "http.stall_timeout_secs",
                "must be longer than admin.backoff_max_ms",
            );
        }
        // An open page asks several times a second; less than a minute
        // would end a person's game over a short network outage.
        if self.http_play_seats_per_address == 0 {
            return invalid("http.play_seats_per_address", "must be at least 1");
        }
        if self.http_play_idle < Duration::from_secs(60) {
            return invalid("http.play_idle_secs", "must be at least 60");
        }
        if self.reservation_expiry.is_zero() {
            return invalid("games.reservation_expiry_secs", "must be at least 1");
        }
        if let Err(reason) = check_log_level(&self.log_level) {
            return invalid("log.level", &reason);
        }
        Ok(())
    }

    /// The move limits of rooms of `game`, or `None` if nobody is timed.
    pub fn limits(&self, game: GameType) -> Option<TimeLimits> {
        self.timeouts.then(|| {
            self.move_limits.get(&game).copied().unwrap_or_else(|| {
                let (soft, hard) = game.default_move_time();
                TimeLimits { soft, hard }
            })
        })
    }

    /// Settings that work but are probably a mistake, in words for the log
    /// at start: a passphrase that is short or an example anyone knows.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if let Some(passphrase) = &self.admin_passphrase {
            if EXAMPLE_PASSPHRASES.contains(&passphrase.as_str()) {
                warnings.push(format!(
                    "the administrator passphrase is the well-known example `{passphrase}`: anyone who can reach the server can administrate it"
                ));
            } else if passphrase.chars().count() < MIN_PASSPHRASE_CHARS {
                warnings.push(format!(
                    "the administrator passphrase has fewer than {MIN_PASSPHRASE_CHARS} characters: easy to guess"
                ));
            }
        }
        if self.wire_log && !self.replays {
            warnings.push(
                "wire logs are kept next to the replays, and replays are off: no wire log is written"
                    .to_owned(),
            );
        }
        warnings
    }

    /// The open files the configured connection caps can take at most,
    /// part by part: what the process's open-file limit must hold.
    pub fn open_files_needed(&self) -> OpenFilesNeeded {
        OpenFilesNeeded {
            game_connections: self.max_connections as u64,
            // A running game holds its replay file open (and its wire log,
            // if kept), and has at least two players.
            replay_files: if self.replays {
                self.max_connections as u64 / 2 * if self.wire_log { 2 } else { 1 }
            } else {
                0
            },
            refusals: GAME_REFUSALS_AT_ONCE as u64,
            // A web connection reads at most one replay file at a time.
            web: if self.http {
                2 * self.http_max_connections as u64
            } else {
                0
            },
            reserved: self.reserved_files,
        }
    }

    /// The socket address to listen on.
    pub fn listen_addr(&self) -> SocketAddr {
        SocketAddr::new(self.listen, self.port)
    }

    /// The web side's socket address, if it is on.
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http
            .then_some(SocketAddr::new(self.listen, self.http_port))
    }
}

/// What the connection caps can take of the process's open files; see
/// [`Config::open_files_needed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFilesNeeded {
    /// `server.max_connections`: one socket each.
    pub game_connections: u64,
    /// One replay file per running game (half the game connections).
    pub replay_files: u64,
    /// Refused game connections being told why.
    pub refusals: u64,
    /// Twice `http.max_connections`: a socket and a replay file each.
    pub web: u64,
    /// `http.reserved_files`.
    pub reserved: u64,
}

impl OpenFilesNeeded {
    /// All parts together.
    pub fn total(&self) -> u64 {
        self.game_connections + self.replay_files + self.refusals + self.web + self.reserved
    }
}

impl std::fmt::Display for OpenFilesNeeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {} game connections (server.max_connections) + {} replay files + {} refusals + {} for the web side (2 × http.max_connections) + {} reserved (http.reserved_files)",
            self.total(),
            self.game_connections,
            self.replay_files,
            self.refusals,
            self.web,
            self.reserved
        )
    }
}

/// The address to listen on, given as an IP address or a host name
/// (`localhost`): a name resolves to its first IPv4 address, or else its
/// first address.
///
/// # Errors
///
/// The name does not resolve (the reason, in words).
pub fn resolve_listen(text: &str) -> Result<IpAddr, String> {
    if let Ok(ip) = text.parse() {
        return Ok(ip);
    }
    let addresses: Vec<IpAddr> = std::net::ToSocketAddrs::to_socket_addrs(&(text, 0))
        .map_err(|error| {
            format!("`{text}` is no IP address and no host name that resolves ({error})")
        })?
        .map(|addr| addr.ip())
        .collect();
    addresses
        .iter()
        .find(|ip| ip.is_ipv4())
        .or(addresses.first())
        .copied()
        .ok_or_else(|| format!("the host name `{text}` has no address"))
}

/// The words a log filter may consist of besides `target=level` directives.
const LOG_LEVELS: [&str; 6] = ["trace", "debug", "info", "warn", "error", "off"];

/// Checks a log filter: each comma-separated part is a level or a
/// `target=level` directive. A bare word that is no level would be read as
/// a target name and silently switch all other logging off.
fn check_log_level(filter: &str) -> Result<(), String> {
    for part in filter.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let level = match part.split_once('=') {
            Some((_, level)) => level,
            None => part,
        };
        if !LOG_LEVELS.contains(&level.to_ascii_lowercase().as_str()) {
            return Err(format!(
                "`{part}` is not a log level; use one of {} or `target=level` directives",
                LOG_LEVELS.join(", ")
            ));
        }
    }
    Ok(())
}

fn read_file(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|cause| ConfigError::Read {
        path: path.to_owned(),
        cause,
    })
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

impl AuthBackoff {
    /// The back-off `config` sets.
    pub fn for_config(config: &Config) -> AuthBackoff {
        AuthBackoff::new(config.auth_backoff_initial, config.auth_backoff_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../../../config/spielleiter.toml");

    #[test]
    fn the_documented_example_file_states_the_defaults() {
        let mut config = Config::default();
        config
            .apply_file(Path::new("config/spielleiter.toml"), EXAMPLE)
            .expect("the example config parses");
        assert_eq!(config, Config::default());
    }

    #[test]
    fn the_season_page_is_set_by_file_variable_or_flag_and_an_empty_store_unsets_it() {
        let mut config = Config::default();
        config
            .apply_file(
                Path::new("x.toml"),
                "[season]\nstore = \"league.sqlite\"\nname = \"spring\"\n",
            )
            .expect("parses");
        assert_eq!(
            (config.season_store.as_deref(), config.season_name.as_str()),
            (Some("league.sqlite"), "spring")
        );
        config.apply(Overrides {
            season_store: Some(String::new()),
            ..Overrides::default()
        });
        assert_eq!(config.season_store, None);
        config.season_name = String::new();
        assert!(config.validate().is_err());
    }

    #[test]
    fn file_values_apply_and_overrides_win() {
        let mut config = Config::default();
        let text = "[server]\nport = 4000\nlisten = \"0.0.0.0\"\n[clock]\nenabled = false\n";
        config
            .apply_file(Path::new("x.toml"), text)
            .expect("parses");
        assert_eq!(config.port, 4000);
        assert!(!config.timeouts);
        config.apply(Overrides {
            port: Some(5000),
            ..Overrides::default()
        });
        assert_eq!(config.port, 5000);
        assert_eq!(config.listen, IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_errors() {
        let mut config = Config::default();
        let typo = config.apply_file(Path::new("x.toml"), "[server]\nprot = 1\n");
        assert!(matches!(typo, Err(ConfigError::Parse { .. })), "{typo:?}");
        let wrong = config.apply_file(Path::new("x.toml"), "[server]\nport = \"high\"\n");
        assert!(matches!(wrong, Err(ConfigError::Parse { .. })), "{wrong:?}");
    }

    #[test]
    fn http_public_is_true_false_or_auto() {
        let public = |text: &str| {
            let mut config = Config::default();
            config
                .apply_file(Path::new("x.toml"), &format!("[http]\npublic = {text}\n"))
                .map(|()| config.http_public)
        };
        assert_eq!(public("true").ok(), Some(HttpPublic::Everyone));
        assert_eq!(public("false").ok(), Some(HttpPublic::LoginOnly));
        assert_eq!(public("\"auto\"").ok(), Some(HttpPublic::Auto));
        let wrong = public("\"sometimes\"");
        assert!(
            matches!(
                wrong,
                Err(ConfigError::Invalid {
                    key: "http.public",
                    ..
                })
            ),
            "{wrong:?}"
        );
        assert_eq!(
            "FALSE".parse::<HttpPublic>().ok(),
            Some(HttpPublic::LoginOnly)
        );
        assert_eq!(HttpPublic::Auto.to_string(), "auto");
    }

    #[test]
    fn the_open_files_needed_add_up_the_caps() {
        let needed = Config::default().open_files_needed();
        assert_eq!(needed.total(), 1024 + 512 + 64 + 2 * 256 + 64);
        let off = Config {
            replays: false,
            http: false,
            ..Config::default()
        }
        .open_files_needed();
        assert_eq!(off.total(), 1024 + 64 + 64);
    }

    #[test]
    fn an_empty_passphrase_disables_administration() {
        let mut config = Config::default();
        config.apply(Overrides {
            admin_passphrase: Some(String::new()),
            ..Overrides::default()
        });
        assert_eq!(config.admin_passphrase, None);
    }

    #[test]
    fn short_and_example_passphrases_are_warned_about() {
        let with = |passphrase: Option<&str>| Config {
            admin_passphrase: passphrase.map(str::to_owned),
            ..Config::default()
        };
        assert!(with(None).warnings().is_empty());
        assert!(with(Some("a long enough secret")).warnings().is_empty());
        let short = with(Some("secret")).warnings();
        assert!(short[0].contains("fewer than 12 characters"), "{short:?}");
        let example = with(Some("examplepassword")).warnings();
        assert!(example[0].contains("well-known example"), "{example:?}");
    }

    #[test]
    fn a_log_level_must_be_a_level_or_directives() {
        for good in [
            "info",
            "DEBUG",
            "warn,spielleiter_server=debug",
            "off",
            "a::b=trace",
        ] {
            assert!(check_log_level(good).is_ok(), "{good}");
        }
        for bad in ["verbose", "info,loud", "x=loud"] {
            let reason = check_log_level(bad).expect_err(bad);
            assert!(
                reason.contains("trace, debug, info, warn, error, off"),
                "{reason}"
            );
        }
    }

    #[test]
    fn the_listen_address_may_be_a_host_name() {
        assert_eq!(
            resolve_listen("0.0.0.0"),
            Ok(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
        );
        assert_eq!(
            resolve_listen("localhost"),
            Ok(IpAddr::V4(Ipv4Addr::LOCALHOST))
        );
        assert!(resolve_listen("no-such-host.invalid").is_err());
        let mut config = Config::default();
        config
            .apply_file(Path::new("x.toml"), "[server]\nlisten = \"localhost\"\n")
            .expect("a host name");
        assert_eq!(config.listen, IpAddr::V4(Ipv4Addr::LOCALHOST));
    }

    #[test]
    fn inconsistent_limits_are_rejected() {
        let mut config = Config::default();
        config.apply(Overrides {
            hard_timeout_ms: Some(1000),
            ..Overrides::default()
        });
        assert!(matches!(
            config.validate(),
            Err(ConfigError::Invalid {
                key: "clock.hard_limit_ms",
                ..
            })
        ));
    }

    #[test]
    fn people_seats_come_from_the_file_and_a_short_idle_limit_is_refused() {
        let mut config = Config::default();
        assert_eq!(config.http_play_seats_per_address, 1);
        let text = "[http]\nplay_seats = 0\nplay_seats_per_address = 2\nplay_idle_secs = 900\n";
        config
            .apply_file(Path::new("x.toml"), text)
            .expect("parses");
        assert_eq!(config.http_play_seats, 0);
        assert_eq!(config.http_play_seats_per_address, 2);
        assert_eq!(config.http_play_idle, Duration::from_secs(900));
        config.validate().expect("valid");
        config.apply(Overrides {
            http_play_idle_secs: Some(30),
            ..Overrides::default()
        });
        assert!(matches!(
            config.validate(),
            Err(ConfigError::Invalid {
                key: "http.play_idle_secs",
                ..
            })
        ));
        let mut none_per_address = Config::default();
        none_per_address.apply(Overrides {
            http_play_seats_per_address: Some(0),
            ..Overrides::default()
        });
        assert!(matches!(
            none_per_address.validate(),
            Err(ConfigError::Invalid {
                key: "http.play_seats_per_address",
                ..
            })
        ));
        // Never from the file: only `serve` sets it for its own web side.
        let secret = "[http]\nweb_admin_secret = \"x\"\n";
        assert!(
            Config::default()
                .apply_file(Path::new("x.toml"), secret)
                .is_err()
        );
    }

    #[test]
    fn move_limits_apply_to_every_game_then_to_one() {
        let game = GameType::ALL[0];
        let mut config = Config::default();
        let (soft, hard) = game.default_move_time();
        assert_eq!(config.limits(game), Some(TimeLimits { soft, hard }));
        let id = game.id();
        let text =
            format!("[clock]\nsoft_limit_ms = 3000\n[clock.games.{id}]\nhard_limit_ms = 20000\n");
        config
            .apply_file(Path::new("x.toml"), &text)
            .expect("parses");
        let from_file = TimeLimits {
            soft: Duration::from_millis(3000),
            hard: Duration::from_millis(20_000),
        };
        assert_eq!(config.limits(game), Some(from_file));
        config.apply(Overrides {
            game_move_limits: vec![format!("{id}=500/800").parse().expect("valid")],
            ..Overrides::default()
        });
        let from_flag = TimeLimits {
            soft: Duration::from_millis(500),
            hard: Duration::from_millis(800),
        };
        assert_eq!(config.limits(game), Some(from_flag));
        config.apply(Overrides {
            timeouts: Some(false),
            ..Overrides::default()
        });
        assert_eq!(config.limits(game), None);
    }

    #[test]
    fn game_ids_in_settings_must_be_hosted() {
        let mut config = Config::default();
        let unknown = config.apply_file(Path::new("x.toml"), "[games]\ndefault = \"chess\"\n");
        assert!(
            matches!(
                unknown,
                Err(ConfigError::Invalid {
                    key: "games.default",
                    ..
                })
            ),
            "{unknown:?}"
        );
        let unknown = config.apply_file(
            Path::new("x.toml"),
            "[clock.games.chess]\nsoft_limit_ms = 1\n",
        );
        assert!(
            matches!(
                unknown,
                Err(ConfigError::Invalid {
                    key: "clock.games",
                    ..
                })
            ),
            "{unknown:?}"
        );
        assert!("chess=1/2".parse::<GameMoveLimits>().is_err());
        let id = GameType::ALL[0].id();
        assert!(format!("{id}=1/x").parse::<GameMoveLimits>().is_err());
        assert_eq!(
            format!("{id}=1500").parse(),
            Ok(GameMoveLimits {
                game: GameType::ALL[0],
                soft_ms: Some(1500),
                hard_ms: None,
            })
        );
    }

    #[test]
    fn an_explicit_missing_file_is_an_error() {
        let missing = Config::load(
            Some(Path::new("/nonexistent/spielleiter.toml")),
            Overrides::default(),
        );
        assert!(matches!(missing, Err(ConfigError::Read { .. })));
    }
}
