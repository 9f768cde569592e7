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
use spielleiter_server::config::ConfigError;

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

/// Config file keys whose flag has another name than the key.
const RENAMED_KEYS: &[(&str, &str)] = &[
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
];

/// The argument that sets config key `key` (`section.name`): by default the
/// one whose id is the key's name.
fn arg_of_config_key<'a>(command: &'a Command, key: &str) -> Option<&'a Arg> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve;

    #[test]
    fn every_validated_key_has_its_flag_and_variable() {
        let serve = &serve::command();
        for (key, variable) in [
            ("server.max_connections", "SPIELLEITER_MAX_CONNECTIONS"),
            ("server.max_message_bytes", "SPIELLEITER_MAX_MESSAGE_BYTES"),
            ("server.idle_limit_secs", "SPIELLEITER_IDLE_LIMIT_SECS"),
            ("clock.soft_limit_ms", "SPIELLEITER_SOFT_TIMEOUT_MS"),
            ("clock.hard_limit_ms", "SPIELLEITER_HARD_TIMEOUT_MS"),
            ("log.level", "SPIELLEITER_LOG_LEVEL"),
            ("http.port", "SPIELLEITER_HTTP_PORT"),
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

    #[test]
    fn every_renamed_key_names_an_argument() {
        let serve = &serve::command();
        for (key, _) in RENAMED_KEYS {
            assert!(arg_of_config_key(serve, key).is_some(), "{key}");
        }
    }
}
