//! Server configuration: embedded defaults, an optional TOML file, environment
//! variables and command-line overrides, merged into one validated [`Config`].
//!
//! Precedence, lowest first: the defaults in [`Config::default`], the file
//! (`config/spielleiter.toml` unless another path is given), then
//! [`Overrides`], which the binary fills from `SPIELLEITER_*` variables and
//! command-line flags (a flag beats its variable).

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::{Path, PathBuf},
    time::Duration,
};

use serde::Deserialize;

/// The file read when no other path is given, relative to the working
/// directory. Missing is fine; unreadable or invalid is an error.
pub const DEFAULT_CONFIG_PATH: &str = "config/spielleiter.toml";

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
    /// The administrator passphrase; `None` disables administration.
    pub admin_passphrase: Option<String>,
    /// Whether rooms created by `join` start paused.
    pub start_paused: bool,
    /// Seed for the start-piece draws; `None` seeds from the OS.
    pub seed: Option<u64>,
    /// Whether players are timed (can be switched off per prepared slot).
    pub timeouts: bool,
    /// A move later than this after its request loses with `SOFT_TIMEOUT`.
    pub soft_timeout: Duration,
    /// Without any move this long after its request the player loses with
    /// `HARD_TIMEOUT`.
    pub hard_timeout: Duration,
    /// Whether every game is written to a replay file.
    pub replays: bool,
    /// Where replay files go.
    pub replay_dir: PathBuf,
    /// Whether finished replays are gzip-compressed (`.xml.gz`).
    pub replay_gzip: bool,
    /// Default log filter (`RUST_LOG` wins when set).
    pub log_level: String,
    /// Log line format.
    pub log_format: LogFormat,
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
            admin_passphrase: None,
            start_paused: false,
            seed: None,
            timeouts: true,
            soft_timeout: Duration::from_millis(2000),
            hard_timeout: Duration::from_millis(10_000),
            replays: true,
            replay_dir: PathBuf::from("replays"),
            replay_gzip: false,
            log_level: "info".to_owned(),
            log_format: LogFormat::Text,
        }
    }
}

/// Why the configuration could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has unknown keys or wrong types.
    #[error("invalid config file {path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        source: Box<toml::de::Error>,
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
    /// See [`Config::admin_passphrase`].
    pub admin_passphrase: Option<String>,
    /// See [`Config::start_paused`].
    pub start_paused: Option<bool>,
    /// See [`Config::seed`].
    pub seed: Option<u64>,
    /// `Some(false)` switches all move timing off.
    pub timeouts: Option<bool>,
    /// See [`Config::soft_timeout`], in milliseconds.
    pub soft_timeout_ms: Option<u64>,
    /// See [`Config::hard_timeout`], in milliseconds.
    pub hard_timeout_ms: Option<u64>,
    /// See [`Config::replays`].
    pub replays: Option<bool>,
    /// See [`Config::replay_dir`].
    pub replay_dir: Option<PathBuf>,
    /// See [`Config::replay_gzip`].
    pub replay_gzip: Option<bool>,
    /// See [`Config::log_level`].
    pub log_level: Option<String>,
    /// See [`Config::log_format`].
    pub log_format: Option<LogFormat>,
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
    log: FileLog,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileServer {
    listen: Option<IpAddr>,
    port: Option<u16>,
    max_connections: Option<usize>,
    max_message_bytes: Option<usize>,
    max_nesting_depth: Option<usize>,
    idle_limit_secs: Option<u64>,
    shutdown_grace_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileAdmin {
    passphrase: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileGames {
    start_paused: Option<bool>,
    seed: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileClock {
    enabled: Option<bool>,
    soft_limit_ms: Option<u64>,
    hard_limit_ms: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileReplays {
    enabled: Option<bool>,
    dir: Option<PathBuf>,
    gzip: Option<bool>,
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
                    Err(source) => {
                        return Err(ConfigError::Read {
                            path: default.to_owned(),
                            source,
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
            source: Box::new(e),
        })?;
        let FileConfig {
            server,
            admin,
            games,
            clock,
            replays,
            log,
        } = file;
        self.apply(Overrides {
            listen: server.listen,
            port: server.port,
            max_connections: server.max_connections,
            max_message_bytes: server.max_message_bytes,
            max_nesting_depth: server.max_nesting_depth,
            idle_limit_secs: server.idle_limit_secs,
            shutdown_grace_secs: server.shutdown_grace_secs,
            admin_passphrase: admin.passphrase,
            start_paused: games.start_paused,
            seed: games.seed,
            timeouts: clock.enabled,
            soft_timeout_ms: clock.soft_limit_ms,
            hard_timeout_ms: clock.hard_limit_ms,
            replays: replays.enabled,
            replay_dir: replays.dir,
            replay_gzip: replays.gzip,
            log_level: log.level,
            log_format: log.format,
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
            admin_passphrase,
            start_paused,
            seed,
            timeouts,
            soft_timeout_ms,
            hard_timeout_ms,
            replays,
            replay_dir,
            replay_gzip,
            log_level,
            log_format,
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
        // An empty passphrase would let anyone in; treat it as "none".
        if let Some(passphrase) = admin_passphrase {
            self.admin_passphrase = Some(passphrase).filter(|p| !p.is_empty());
        }
        set(&mut self.start_paused, start_paused);
        if seed.is_some() {
            self.seed = seed;
        }
        set(&mut self.timeouts, timeouts);
        set(
            &mut self.soft_timeout,
            soft_timeout_ms.map(Duration::from_millis),
        );
        set(
            &mut self.hard_timeout,
            hard_timeout_ms.map(Duration::from_millis),
        );
        set(&mut self.replays, replays);
        set(&mut self.replay_dir, replay_dir);
        set(&mut self.replay_gzip, replay_gzip);
        set(&mut self.log_level, log_level);
        set(&mut self.log_format, log_format);
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
        if self.max_message_bytes < 1024 {
            return invalid("server.max_message_bytes", "must be at least 1024");
        }
        if self.max_nesting_depth < 8 {
            return invalid("server.max_nesting_depth", "must be at least 8");
        }
        if self.idle_limit.is_zero() {
            return invalid("server.idle_limit_secs", "must be at least 1");
        }
        if self.soft_timeout.is_zero() {
            return invalid("clock.soft_limit_ms", "must be at least 1");
        }
        if self.hard_timeout < self.soft_timeout {
            return invalid(
                "clock.hard_limit_ms",
                "must not be shorter than clock.soft_limit_ms",
            );
        }
        Ok(())
    }

    /// The socket address to listen on.
    pub fn listen_addr(&self) -> SocketAddr {
        SocketAddr::new(self.listen, self.port)
    }
}

fn read_file(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
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
    fn an_empty_passphrase_disables_administration() {
        let mut config = Config::default();
        config.apply(Overrides {
            admin_passphrase: Some(String::new()),
            ..Overrides::default()
        });
        assert_eq!(config.admin_passphrase, None);
    }

    #[test]
    fn inconsistent_limits_are_rejected() {
        let config = Config {
            hard_timeout: Duration::from_millis(1000),
            ..Config::default()
        };
        assert!(matches!(
            config.validate(),
            Err(ConfigError::Invalid {
                key: "clock.hard_limit_ms",
                ..
            })
        ));
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
