//! Errors in `SPIELLEITER_*` environment variables, reported under the
//! variable's name. clap names the flag even when the bad value came from
//! the flag's variable, and the configuration names the config file's key;
//! someone who set a variable (in a container's environment, say) would
//! look for the wrong thing.

use std::error::Error as _;

use clap::{
    Arg, Command,
    error::{ContextKind, ContextValue, ErrorKind},
};
use spielleiter_server::config::{ConfigError, GameMoveLimits};

/// If clap rejected a value that the environment supplied, the message
/// naming the variable; `None` for every other error.
pub fn explain_parse_error(mut command: Command, error: &clap::Error) -> Option<String> {
    if !matches!(
        error.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return None;
    }
    let Some(ContextValue::String(shown)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else {
        return None;
    };
    // Built, an argument displays as clap shows it in errors.
    command.build();
    let arg = all_args(&command).find(|arg| arg.to_string() == *shown)?;
    let variable = arg.get_env()?;
    // A flag given with the same bad value is reported as the flag.
    if std::env::var_os(variable) != Some(value.into()) || flag_given(arg) {
        return None;
    }
    let reason = match (error.source(), error.get(ContextKind::ValidValue)) {
        (Some(source), _) => source.to_string(),
        (None, Some(ContextValue::Strings(valid))) => {
            format!("expected one of {}", valid.join(", "))
        }
        _ => "not accepted".to_owned(),
    };
    Some(format!(
        "invalid value `{value}` in the environment variable {} (the setting of {}): {reason}",
        variable.to_string_lossy(),
        flag(arg),
    ))
}

/// A configuration value out of range, named by every way to set it: the
/// config key, and the flag and variable of `command` if it has them.
pub fn explain_config_error(command: &Command, error: ConfigError) -> anyhow::Error {
    let ConfigError::Invalid { key, reason } = &error else {
        return error.into();
    };
    let Some(arg) = arg_of_config_key(command, key) else {
        return error.into();
    };
    let variable = arg
        .get_env()
        .map(|variable| format!(", environment variable {}", variable.to_string_lossy()))
        .unwrap_or_default();
    anyhow::anyhow!(
        "invalid setting `{key}` (flag {}{variable}): {reason}",
        flag(arg)
    )
}

/// The move clock's settings a person gave, to blame the one that made a
/// game's clock invalid rather than the key the check happens to test.
#[derive(Debug, Default)]
pub struct ClockGiven<'a> {
    /// `--move-time` (or `SPIELLEITER_MOVE_TIME`) values.
    pub move_time: &'a [GameMoveLimits],
    /// Whether `--soft-timeout-ms` (or its variable) was given.
    pub soft: bool,
    /// Whether `--hard-timeout-ms` (or its variable) was given.
    pub hard: bool,
}

/// A move clock found invalid for one game (`clock.soft_limit_ms` or
/// `clock.hard_limit_ms` "… (game ID)"), named by the setting that gave
/// that game's limits: its `--move-time` value, else the flag of the limit
/// given for every game; `None` for every other error.
pub fn explain_clock_error(error: &ConfigError, given: &ClockGiven<'_>) -> Option<anyhow::Error> {
    let ConfigError::Invalid { key, reason } = error else {
        return None;
    };
    let game = reason
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once("(game "))
        .map(|(_, game)| game)?;
    let problem = match *key {
        "clock.soft_limit_ms" => "the soft limit must be at least 1 ms",
        "clock.hard_limit_ms" => "the hard limit must not be shorter than the soft limit",
        _ => return None,
    };
    if let Some(limits) = given.move_time.iter().find(|l| l.game.id() == game) {
        let value = match (limits.soft_ms, limits.hard_ms) {
            (Some(soft), Some(hard)) => format!("{game}={soft}/{hard}"),
            (Some(soft), None) => format!("{game}={soft}"),
            _ => game.to_owned(),
        };
        let default_hard = match limits.hard_ms {
            None if *key == "clock.hard_limit_ms" => {
                format!(" ({game}'s own hard limit applies; give one: {game}=SOFT/HARD)")
            }
            _ => String::new(),
        };
        return Some(anyhow::anyhow!(
            "invalid move clock `--move-time {value}` (environment variable \
             SPIELLEITER_MOVE_TIME): {problem}{default_hard}"
        ));
    }
    let flag = match (*key, given.soft, given.hard) {
        (_, true, false) => "--soft-timeout-ms (environment variable SPIELLEITER_SOFT_TIMEOUT_MS)",
        (_, false, true) => "--hard-timeout-ms (environment variable SPIELLEITER_HARD_TIMEOUT_MS)",
        (_, true, true) => {
            "--soft-timeout-ms and --hard-timeout-ms (environment variables \
             SPIELLEITER_SOFT_TIMEOUT_MS, SPIELLEITER_HARD_TIMEOUT_MS)"
        }
        // Neither flag: the config file's `[clock]` or `[clock.games.ID]`.
        _ => return None,
    };
    Some(anyhow::anyhow!(
        "invalid move clock of {game} from {flag}: {problem}"
    ))
}

/// Config file keys whose flag has another name than the key.
pub(crate) const RENAMED_KEYS: &[(&str, &str)] = &[
    ("clock.enabled", "timeouts"),
    ("clock.soft_limit_ms", "soft_timeout_ms"),
    ("clock.hard_limit_ms", "hard_timeout_ms"),
    ("admin.passphrase", "admin_passphrase"),
    ("replays.enabled", "replays"),
    ("replays.dir", "replay_dir"),
    ("replays.gzip", "replay_gzip"),
    ("log.level", "log_level"),
    ("log.format", "log_format"),
    ("http.enabled", "http"),
    ("http.port", "http_port"),
    ("http.public", "http_public"),
    ("http.max_connections", "http_max_connections"),
    ("http.max_connections_per_ip", "http_max_connections_per_ip"),
    ("http.play_seats_per_address", "http_play_seats_per_address"),
];

/// The argument that sets config key `key` (`section.name`): by default the
/// one whose id is the key's name.
pub(crate) fn arg_of_config_key<'a>(command: &'a Command, key: &str) -> Option<&'a Arg> {
    let id = RENAMED_KEYS
        .iter()
        .find(|(renamed, _)| *renamed == key)
        .map(|(_, id)| *id)
        .or_else(|| key.split_once('.').map(|(_, name)| name))?;
    command.get_arguments().find(|arg| arg.get_id() == id)
}

fn all_args(command: &Command) -> Box<dyn Iterator<Item = &Arg> + '_> {
    Box::new(
        command
            .get_arguments()
            .chain(command.get_subcommands().flat_map(all_args)),
    )
}

fn flag(arg: &Arg) -> String {
    match arg.get_long() {
        Some(long) => format!("--{long}"),
        None => arg.get_id().to_string(),
    }
}

/// Whether the command line gives `arg` (as `--long`, `--long=…` or `-s…`).
fn flag_given(arg: &Arg) -> bool {
    std::env::args_os().skip(1).any(|given| {
        let given = given.to_string_lossy();
        let long = arg.get_long().is_some_and(|long| {
            given
                .strip_prefix("--")
                .and_then(|rest| rest.strip_prefix(long))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
        });
        let short = arg.get_short().is_some_and(|short| {
            given.strip_prefix('-').and_then(|rest| rest.chars().next()) == Some(short)
                && !given.starts_with("--")
        });
        long || short
    })
}
