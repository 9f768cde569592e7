//! The settings' values: their own types ([`HttpPublic`], [`LogFormat`],
//! [`GameMoveLimits`]), how a field of [`Overrides`](super::Overrides)
//! holds a value ([`Given`]), how a default is shown, and how the config
//! file's values become settings.

use std::{collections::BTreeMap, net::IpAddr, path::PathBuf, str::FromStr};

use serde::Deserialize;
use spielleiter_rules::GameType;

use super::error::ConfigError;
use crate::limits::AddressRange;

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

impl std::fmt::Display for LogFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        })
    }
}

/// The move limits of one game type, as a flag or variable gives them:
/// `GAME=SOFT_MS/HARD_MS` or `GAME=SOFT_MS`, `GAME` a game type's id.
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

/// A field of [`Overrides`]: one value or several, or none given.
pub(crate) trait Given: Sized {
    /// What is given.
    type Value;
    /// The value, if one is given.
    fn take(self) -> Option<Self::Value>;
    /// The field giving `value`.
    fn from_value(value: Self::Value) -> Self;
    /// Whether a value is given.
    fn is_given(&self) -> bool;
}

impl<T> Given for Option<T> {
    type Value = T;

    fn take(self) -> Option<T> {
        self
    }

    fn from_value(value: T) -> Self {
        Some(value)
    }

    fn is_given(&self) -> bool {
        self.is_some()
    }
}

/// Several values (the flag repeated); none is "not given".
impl<T> Given for Vec<T> {
    type Value = Vec<T>;

    fn take(self) -> Option<Vec<T>> {
        (!self.is_empty()).then_some(self)
    }

    fn from_value(value: Vec<T>) -> Self {
        value
    }

    fn is_given(&self) -> bool {
        !self.is_empty()
    }
}

/// A default value as the help and the documentation state it.
pub(crate) trait DefaultText {
    fn default_text(&self) -> String;
}

macro_rules! default_text_by_display {
    ($($type:ty),*) => {
        $(impl DefaultText for $type {
            fn default_text(&self) -> String {
                self.to_string()
            }
        })*
    };
}

default_text_by_display!(
    bool, u16, u32, u64, usize, String, IpAddr, GameType, HttpPublic, LogFormat
);

impl DefaultText for PathBuf {
    fn default_text(&self) -> String {
        self.display().to_string()
    }
}

/// An empty text given for an optional setting (`SPIELLEITER_STORE=`, an
/// empty passphrase) unsets it: an empty passphrase would let anyone in.
pub(crate) fn non_empty(text: String) -> Option<String> {
    Some(text).filter(|text| !text.is_empty())
}

/// The move limits every game type's rules ask for (decisions.md §16).
pub(crate) fn each_games_own_move_limits() -> Vec<GameMoveLimits> {
    GameType::ALL
        .iter()
        .map(|&game| {
            let (soft, hard) = game.default_move_time();
            GameMoveLimits {
                game,
                soft_ms: Some(soft.as_millis() as u64),
                hard_ms: Some(hard.as_millis() as u64),
            }
        })
        .collect()
}
/// `http.public` in the file: `true`, `false` or `"auto"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum FilePublic {
    Bool(bool),
    Text(String),
}

impl FilePublic {
    pub(crate) fn parse(self) -> Result<HttpPublic, String> {
        match self {
            FilePublic::Bool(true) => Ok(HttpPublic::Everyone),
            FilePublic::Bool(false) => Ok(HttpPublic::LoginOnly),
            FilePublic::Text(text) => text.parse().map_err(|error| match error {
                ConfigError::Invalid { reason, .. } => reason,
                other => other.to_string(),
            }),
        }
    }
}

/// One game type's table `[clock.games.ID]` in the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameClock {
    soft_limit_ms: Option<u64>,
    hard_limit_ms: Option<u64>,
}

impl GameClock {
    /// The tables of `[clock.games]`, by game type id.
    pub(crate) fn limits_of_games(
        games: BTreeMap<String, GameClock>,
    ) -> Result<Vec<GameMoveLimits>, String> {
        games
            .into_iter()
            .map(|(id, limits)| {
                Ok(GameMoveLimits {
                    game: id
                        .parse()
                        .map_err(|e: spielleiter_rules::UnknownGameType| format!("`{id}`: {e}"))?,
                    soft_ms: limits.soft_limit_ms,
                    hard_ms: limits.hard_limit_ms,
                })
            })
            .collect()
    }
}

/// `http.trusted_proxies` in the file: addresses and networks.
pub(crate) fn address_ranges(ranges: Vec<String>) -> Result<Vec<AddressRange>, String> {
    ranges.iter().map(|range| range.parse()).collect()
}

/// Why a config file's text gives no settings.
#[derive(Debug)]
pub(crate) enum FileError {
    /// Not TOML, an unknown key or a value of the wrong type.
    Parse(toml::de::Error),
    /// A value of the right type that is no valid value.
    Invalid {
        key: &'static str,
        line: usize,
        reason: String,
    },
}

/// The line (from 1) of byte `offset` of `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |before| before.matches('\n').count())
        + 1
}
