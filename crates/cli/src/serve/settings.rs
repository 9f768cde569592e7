//! The server's settings as `serve` takes them: each setting's flag and
//! environment variable built from the server's table (its type from
//! [`for_each_setting!`](spielleiter_server::for_each_setting), its names,
//! help and default from [`SETTINGS`]), the values given with where each
//! came from, and an invalid value named by the flag, variable or config
//! file that gave it.

use std::{net::IpAddr, path::PathBuf};

use clap::{Arg, ArgAction, ArgMatches, builder::ValueParser, parser::ValueSource};
use spielleiter_rules::GameType;
use spielleiter_server::{
    config::{
        ConfigError, GameMoveLimits, HttpPublic, LogFormat, Overrides, SETTINGS, Setting,
        setting_of_key,
    },
    limits::AddressRange,
};

/// The flags (each with its variable) of the settings `include` takes, in
/// the table's order; a setting without a flag has none.
pub fn args(include: impl Fn(&Setting) -> bool) -> Vec<Arg> {
    let mut args = Vec::new();
    for setting in SETTINGS.iter().filter(|setting| include(setting)) {
        let Some(flag) = setting.flag else {
            continue;
        };
        let mut arg = Arg::new(setting.name)
            .long(flag.long)
            .env(flag.variable)
            .value_name(flag.value_name)
            .help(format!(
                "{} [default: {}; config: {}]",
                setting.help(),
                setting.default_text(),
                setting.key
            ));
        if let Some(short) = flag.short {
            arg = arg.short(short);
        }
        if let Some(delimiter) = flag.delimiter {
            arg = arg.value_delimiter(delimiter);
        }
        if let Some(bare) = flag.bare {
            arg = arg.num_args(0..=1).default_missing_value(bare);
        }
        args.push(
            typed(setting.name, arg)
                .hide_env_values(flag.secret)
                .allow_negative_numbers(flag.negative_numbers),
        );
        if let Some(negation) = flag.negation {
            args.push(
                Arg::new(negation)
                    .long(negation)
                    .action(ArgAction::SetTrue)
                    .help(format!(
                        "Same as `--{} false`; beats {}",
                        flag.long, flag.variable
                    )),
            );
        }
    }
    args
}

/// Where a given value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The command line.
    Flag,
    /// The environment.
    Variable,
}

/// The settings given by flags and variables, and where each came from.
#[derive(Clone, Debug, Default)]
pub struct Given {
    /// The values.
    pub overrides: Overrides,
    /// The config key of each setting given, with where its value came
    /// from.
    origins: Vec<(&'static str, Origin)>,
}

impl Given {
    /// The settings `matches` gives (a setting whose flag `matches` does
    /// not know is not given).
    pub fn from_matches(matches: &ArgMatches) -> Given {
        let origins = SETTINGS
            .iter()
            .filter_map(|setting| {
                let origin = if negated(matches, setting.name) {
                    Origin::Flag
                } else {
                    // Only an argument `matches` knows has a source.
                    if !matches.try_contains_id(setting.name).unwrap_or(false) {
                        return None;
                    }
                    match matches.value_source(setting.name)? {
                        ValueSource::CommandLine => Origin::Flag,
                        ValueSource::EnvVariable => Origin::Variable,
                        _ => return None,
                    }
                };
                Some((setting.key, origin))
            })
            .collect();
        Given {
            overrides: overrides_of(matches),
            origins,
        }
    }

    /// Where the value of config key `key` came from, if it was given.
    fn origin(&self, key: &str) -> Option<Origin> {
        self.origins
            .iter()
            .find(|(given, _)| *given == key)
            .map(|&(_, origin)| origin)
    }

    /// `error` in the words of the person who gave the settings: an invalid
    /// value named with the flag or variable it came from (the server names
    /// a config file's path and line itself), or with the flag and variable
    /// that would set it where it is the default; a move clock invalid for
    /// one game named by the setting that gave that game's limits.
    pub fn explain(&self, error: ConfigError) -> anyhow::Error {
        if let Some(explained) = self.explain_clock(&error) {
            return explained;
        }
        let ConfigError::Invalid { key, reason } = &error else {
            return error.into();
        };
        let Some(setting) = setting_of_key(key) else {
            return error.into();
        };
        let Some(flag) = setting.flag else {
            return error.into();
        };
        let from = match self.origin(key) {
            Some(origin) => named(flag, origin),
            // The move clock is made by several settings: no one of them
            // is the default.
            None if setting.combined => return error.into(),
            None => format!(
                "the default; flag --{}, environment variable {}",
                flag.long, flag.variable
            ),
        };
        anyhow::anyhow!("invalid setting `{key}` ({from}): {reason}")
    }

    /// A move clock found invalid for one game (`clock.soft_limit_ms` or
    /// `clock.hard_limit_ms` "… (game ID)"), named by the setting that gave
    /// that game's limits: its `--move-time` value, else the flag or
    /// variable of the limit given for every game; `None` for every other
    /// error, and where neither was given (the config file's `[clock]` or
    /// `[clock.games.ID]`).
    fn explain_clock(&self, error: &ConfigError) -> Option<anyhow::Error> {
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
        let one_game = self
            .overrides
            .game_move_limits
            .iter()
            .find(|limits| limits.game.id() == game);
        if let (Some(limits), Some(origin), Some(flag)) = (
            one_game,
            self.origin("clock.games"),
            flag_of_key("clock.games"),
        ) {
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
            let given = match origin {
                Origin::Flag => format!("`--{} {value}`", flag.long),
                Origin::Variable => {
                    format!("`{value}` in the environment variable {}", flag.variable)
                }
            };
            return Some(anyhow::anyhow!(
                "invalid move clock {given}: {problem}{default_hard}"
            ));
        }
        let every_game: Vec<String> = ["clock.soft_limit_ms", "clock.hard_limit_ms"]
            .into_iter()
            .filter_map(|key| Some(named(flag_of_key(key)?, self.origin(key)?)))
            .collect();
        if every_game.is_empty() {
            return None;
        }
        Some(anyhow::anyhow!(
            "invalid move clock of {game} from {}: {problem}",
            every_game.join(" and ")
        ))
    }
}

/// The flag of config key `key`'s setting.
fn flag_of_key(key: &str) -> Option<spielleiter_server::config::Flag> {
    setting_of_key(key)?.flag
}

/// A flag or its variable, as the value came from it.
fn named(flag: spielleiter_server::config::Flag, origin: Origin) -> String {
    match origin {
        Origin::Flag => format!("flag --{}", flag.long),
        Origin::Variable => format!("environment variable {}", flag.variable),
    }
}

/// Whether the negation of setting `name` (`--no-timeout`) is given.
fn negated(matches: &ArgMatches, name: &str) -> bool {
    SETTINGS
        .iter()
        .find(|setting| setting.name == name)
        .and_then(|setting| setting.flag?.negation)
        .is_some_and(|negation| {
            matches
                .try_get_one::<bool>(negation)
                .ok()
                .flatten()
                .is_some_and(|given| *given)
        })
}

/// A value type of the settings' flags: how its text is parsed (as clap
/// parses the type, so that its errors read as clap's own), and what the
/// flag's negation gives.
trait FlagType: Clone + Send + Sync + 'static {
    fn parser() -> ValueParser;

    fn off() -> Option<Self> {
        None
    }
}

macro_rules! flag_types {
    ($($type:ty),*) => {
        $(impl FlagType for $type {
            fn parser() -> ValueParser {
                clap::value_parser!($type).into()
            }
        })*
    };
}

flag_types!(
    u16,
    u32,
    u64,
    usize,
    String,
    PathBuf,
    GameType,
    HttpPublic,
    LogFormat,
    GameMoveLimits,
    AddressRange
);

impl FlagType for bool {
    fn parser() -> ValueParser {
        clap::value_parser!(bool)
    }

    fn off() -> Option<bool> {
        Some(false)
    }
}

/// An address may be given by a host name (`localhost`).
impl FlagType for IpAddr {
    fn parser() -> ValueParser {
        ValueParser::new(spielleiter_server::config::resolve_listen)
    }
}

/// A field of [`Overrides`] as a flag: one value, or several (the flag
/// repeated).
trait FlagField: Sized {
    /// `arg` with the action and parser of the field's type.
    fn typed(arg: Arg) -> Arg;
    /// The field's value in `matches`.
    fn take(matches: &ArgMatches, name: &str) -> Self;
}

impl<T: FlagType> FlagField for Option<T> {
    fn typed(arg: Arg) -> Arg {
        arg.action(ArgAction::Set).value_parser(T::parser())
    }

    fn take(matches: &ArgMatches, name: &str) -> Self {
        if negated(matches, name) {
            return T::off();
        }
        matches.try_get_one::<T>(name).ok().flatten().cloned()
    }
}

impl<T: FlagType> FlagField for Vec<T> {
    fn typed(arg: Arg) -> Arg {
        arg.action(ArgAction::Append).value_parser(T::parser())
    }

    fn take(matches: &ArgMatches, name: &str) -> Self {
        <Option<Vec<T>> as FlagField>::take(matches, name).unwrap_or_default()
    }
}

impl<T: FlagType> FlagField for Option<Vec<T>> {
    fn typed(arg: Arg) -> Arg {
        arg.action(ArgAction::Append).value_parser(T::parser())
    }

    fn take(matches: &ArgMatches, name: &str) -> Self {
        let values = matches.try_get_many::<T>(name).ok().flatten()?;
        Some(values.cloned().collect())
    }
}

/// The callback of [`for_each_setting!`](spielleiter_server::for_each_setting):
/// what needs each setting's type.
macro_rules! flag_fields {
    ($(
        [$section:ident]
        $($(#[doc = $doc:literal])* $key:ident => $name:ident: $given:ty { $($clause:tt)* })*
    )*) => {
        /// `arg` with the action and parser of setting `name`'s type.
        fn typed(name: &str, arg: Arg) -> Arg {
            match name {
                $($(stringify!($name) => <$given as FlagField>::typed(arg),)*)*
                _ => arg,
            }
        }

        /// The settings `matches` gives.
        fn overrides_of(matches: &ArgMatches) -> Overrides {
            Overrides {
                $($($name: <$given as FlagField>::take(matches, stringify!($name)),)*)*
            }
        }
    };
}

spielleiter_server::for_each_setting!(flag_fields);

/// Errors named by where the setting came from.
#[cfg(test)]
mod tests {
    use super::*;

    fn given(origins: &[(&'static str, Origin)]) -> Given {
        Given {
            overrides: Overrides::default(),
            origins: origins.to_vec(),
        }
    }

    fn invalid(key: &'static str) -> ConfigError {
        ConfigError::Invalid {
            key,
            reason: "must be at least 1".to_owned(),
        }
    }

    #[test]
    fn an_invalid_value_is_named_by_the_flag_or_variable_it_came_from() {
        for setting in SETTINGS.iter().filter(|setting| !setting.combined) {
            let key = setting.key;
            let Some(flag) = setting.flag else {
                // A setting without a flag came from the file (which the
                // server names) or is the default: its key alone.
                let text = given(&[]).explain(invalid(key)).to_string();
                assert_eq!(text, format!("invalid setting `{key}`: must be at least 1"));
                continue;
            };
            let text = given(&[(key, Origin::Flag)])
                .explain(invalid(key))
                .to_string();
            assert_eq!(
                text,
                format!(
                    "invalid setting `{key}` (flag --{}): must be at least 1",
                    flag.long
                )
            );
            let text = given(&[(key, Origin::Variable)])
                .explain(invalid(key))
                .to_string();
            assert_eq!(
                text,
                format!(
                    "invalid setting `{key}` (environment variable {}): must be at least 1",
                    flag.variable
                )
            );
            // The default: how to set it.
            let text = given(&[]).explain(invalid(key)).to_string();
            assert_eq!(
                text,
                format!(
                    "invalid setting `{key}` (the default; flag --{}, environment variable {}): must be at least 1",
                    flag.long, flag.variable
                )
            );
        }
    }

    #[test]
    fn an_invalid_move_clock_from_a_variable_names_the_variable() {
        let mut given = given(&[("clock.games", Origin::Variable)]);
        given.overrides.game_move_limits = vec!["blokus_bcl=0".parse().expect("valid")];
        let error = ConfigError::Invalid {
            key: "clock.soft_limit_ms",
            reason: "must be at least 1 (game blokus_bcl)".to_owned(),
        };
        assert_eq!(
            given.explain(error).to_string(),
            "invalid move clock `blokus_bcl=0` in the environment variable SPIELLEITER_MOVE_TIME: the soft limit must be at least 1 ms"
        );
        let error = ConfigError::Invalid {
            key: "clock.hard_limit_ms",
            reason: "must not be shorter than clock.soft_limit_ms (game blokus_bcl)".to_owned(),
        };
        let every_game = super::tests::given(&[
            ("clock.soft_limit_ms", Origin::Variable),
            ("clock.hard_limit_ms", Origin::Flag),
        ]);
        assert_eq!(
            every_game.explain(error).to_string(),
            "invalid move clock of blokus_bcl from environment variable SPIELLEITER_SOFT_TIMEOUT_MS and flag --hard-timeout-ms: the hard limit must not be shorter than the soft limit"
        );
        // Neither given: the config file's (the server names its line) or
        // the games' own.
        let error = ConfigError::Invalid {
            key: "clock.soft_limit_ms",
            reason: "must be at least 1 (game blokus_bcl)".to_owned(),
        };
        assert_eq!(
            super::tests::given(&[]).explain(error).to_string(),
            "invalid setting `clock.soft_limit_ms`: must be at least 1 (game blokus_bcl)"
        );
    }
}
