//! Server configuration: embedded defaults, an optional TOML file, environment
//! variables and command-line overrides, merged into one validated [`Config`].
//!
//! Each setting is defined once, in the table of [`for_each_setting!`]
//! (`settings.rs`): its name, type, default, config key, flag, variable and
//! help. [`Config`], [`Overrides`], the config file's layout and
//! [`SETTINGS`] are generated from it here (`generate.rs`), the binary's
//! flags from [`SETTINGS`] and the table; tests hold `config/spielleiter.toml`
//! and README's table of settings to it (`documented.rs`). The settings'
//! own value types and how a file's values become settings are in
//! `values.rs`, a setting's names and flag in `setting.rs`.
//!
//! Precedence, lowest first: the defaults in the table, the file
//! (`config/spielleiter.toml` unless another path is given), then
//! [`Overrides`], which the binary fills from `SPIELLEITER_*` variables and
//! command-line flags (a flag beats its variable).
//!
//! [`for_each_setting!`]: crate::for_each_setting

#[cfg(test)]
mod documented;
mod error;
mod generate;
mod setting;
mod settings;
#[cfg(test)]
mod tests;
mod values;

use std::{
    net::{IpAddr, SocketAddr},
    path::Path,
    time::Duration,
};

use spielleiter_rules::GameType;

use crate::{
    clock::TimeLimits,
    limits::{AuthBackoff, GAME_REFUSALS_AT_ONCE},
};
pub use error::ConfigError;
use generate::define_settings;
pub use setting::{Flag, Setting};
pub(crate) use values::{
    DefaultText, FileError, FilePublic, GameClock, Given, address_ranges,
    each_games_own_move_limits, line_of, non_empty,
};
pub use values::{GameMoveLimits, HttpPublic, LogFormat};

crate::for_each_setting!(define_settings);

/// The file read when no other path is given, relative to the working
/// directory. Missing is fine; unreadable or invalid is an error.
pub const DEFAULT_CONFIG_PATH: &str = "config/spielleiter.toml";

/// Passphrases shorter than this are warned about at start.
pub const MIN_PASSPHRASE_CHARS: usize = 12;

/// Passphrases that appear in examples (the official TestClient's default,
/// this repository's config file): warned about at start.
const EXAMPLE_PASSPHRASES: &[&str] = &["examplepassword", "change me"];

/// The setting of config key `key` (`section.key`).
pub fn setting_of_key(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|setting| setting.key == key)
}

/// `clock.soft_limit_ms`: the soft limit of every game type.
pub(crate) fn set_every_soft_limit(config: &mut Config, ms: u64) {
    for &game in GameType::ALL {
        config.move_limits_of(game).soft = Duration::from_millis(ms);
    }
}

/// `clock.hard_limit_ms`: the hard limit of every game type.
pub(crate) fn set_every_hard_limit(config: &mut Config, ms: u64) {
    for &game in GameType::ALL {
        config.move_limits_of(game).hard = Duration::from_millis(ms);
    }
}

/// `clock.games`: the limits of single game types, over those of every
/// game type.
pub(crate) fn set_move_limits(config: &mut Config, limits: Vec<GameMoveLimits>) {
    for limits in limits {
        let entry = config.move_limits_of(limits.game);
        if let Some(soft) = limits.soft_ms {
            entry.soft = Duration::from_millis(soft);
        }
        if let Some(hard) = limits.hard_ms {
            entry.hard = Duration::from_millis(hard);
        }
    }
}

/// The line of the config file an invalid setting `key` is blamed on:
/// the line that gave it, unless an override gave it too. The move clock's
/// settings make every game's limits together: the file is blamed only if
/// no override gave any of them, on the line of `key` itself if the file
/// gave it, else on the first of them the file gave.
fn blamed_line(
    key: &str,
    given: &[&'static str],
    file_lines: &[(&'static str, usize)],
) -> Option<usize> {
    let setting = setting_of_key(key)?;
    let line_of_key = |key: &str| {
        file_lines
            .iter()
            .find(|(set, _)| *set == key)
            .map(|&(_, line)| line)
    };
    if !setting.combined {
        return (!given.contains(&setting.key))
            .then(|| line_of_key(setting.key))
            .flatten();
    }
    let clock: Vec<&str> = SETTINGS
        .iter()
        .filter(|setting| setting.combined)
        .map(|setting| setting.key)
        .collect();
    if given.iter().any(|key| clock.contains(key)) {
        return None;
    }
    line_of_key(setting.key).or_else(|| {
        file_lines
            .iter()
            .find(|(set, _)| clock.contains(set))
            .map(|&(_, line)| line)
    })
}

impl Config {
    /// Builds the configuration: defaults, then the file at `path` (or
    /// [`DEFAULT_CONFIG_PATH`] if it exists), then `overrides`. An invalid
    /// value the file gives (and `overrides` do not) is named with the
    /// file's path and line.
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
        let mut file_lines = Vec::new();
        if let Some((path, text)) = &file {
            let (settings, lines) = file_settings(text).map_err(|error| match error {
                FileError::Parse(cause) => ConfigError::Parse {
                    path: path.clone(),
                    cause: Box::new(cause),
                },
                FileError::Invalid { key, line, reason } => ConfigError::InFile {
                    path: path.clone(),
                    line,
                    key,
                    reason,
                },
            })?;
            config.apply(settings);
            file_lines = lines;
        }
        let given = overrides.given_keys();
        config.apply(overrides);
        config.validate().map_err(|error| match (error, &file) {
            (ConfigError::Invalid { key, reason }, Some((path, _))) => {
                match blamed_line(key, &given, &file_lines) {
                    Some(line) => ConfigError::InFile {
                        path: path.clone(),
                        line,
                        key,
                        reason,
                    },
                    None => ConfigError::Invalid { key, reason },
                }
            }
            (error, _) => error,
        })?;
        Ok(config)
    }

    /// Applies the settings of a TOML text on top of `self`.
    ///
    /// # Errors
    ///
    /// Invalid TOML, unknown keys, values of the wrong type, or invalid
    /// values (named by their key).
    pub fn apply_file(&mut self, path: &Path, text: &str) -> Result<(), ConfigError> {
        let (settings, _) = file_settings(text).map_err(|error| match error {
            FileError::Parse(cause) => ConfigError::Parse {
                path: path.to_owned(),
                cause: Box::new(cause),
            },
            FileError::Invalid { key, reason, .. } => ConfigError::Invalid { key, reason },
        })?;
        self.apply(settings);
        Ok(())
    }

    /// The move limits of `game`, its rules' own until a setting changes
    /// them.
    fn move_limits_of(&mut self, game: GameType) -> &mut TimeLimits {
        self.move_limits.entry(game).or_insert_with(|| {
            let (soft, hard) = game.default_move_time();
            TimeLimits { soft, hard }
        })
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
        if self.season_name.as_deref() == Some("") {
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

impl AuthBackoff {
    /// The back-off `config` sets.
    pub fn for_config(config: &Config) -> AuthBackoff {
        AuthBackoff::new(config.auth_backoff_initial, config.auth_backoff_max)
    }
}
