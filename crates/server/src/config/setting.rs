//! One setting's names and help as [`SETTINGS`] lists them, and how it is
//! given on the command line and in the environment ([`Flag`]).

/// One setting as a person gives it, from the table of
/// [`for_each_setting!`](crate::for_each_setting): what the binary's flags,
/// the errors that name a setting and the tests of the documentation read.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// Its field of [`Overrides`](super::Overrides) (and the id of its flag's argument).
    pub name: &'static str,
    /// Its key in the config file, `section.key`.
    pub key: &'static str,
    /// Its help, as the table's lines (see [`Setting::help`]).
    pub doc: &'static str,
    /// Its flag and environment variable, if it has them.
    pub flag: Option<Flag>,
    /// Whether it has a default value (then the config file states it;
    /// otherwise the file shows the key commented out).
    pub has_default: bool,
    /// Its default as the help and the documentation state it.
    pub shown: fn() -> String,
    /// Whether it changes its part of the [`Config`](super::Config) together with other
    /// settings (the move clock: every game's limits, then one game's),
    /// so that an invalid part cannot be blamed on it alone.
    pub combined: bool,
}

impl Setting {
    /// Its help in one line.
    pub fn help(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Its default, as the help and the documentation state it.
    pub fn default_text(&self) -> String {
        (self.shown)()
    }
}

/// How a setting is given on the command line and in the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The long flag, without `--`.
    pub long: &'static str,
    /// The environment variable.
    pub variable: &'static str,
    /// The value's name in the help (`N`, `SECS`).
    pub value_name: &'static str,
    /// A short flag, without `-`.
    pub short: Option<char>,
    /// A second flag, without a value, that sets the setting to `false`
    /// (`--no-timeout`), beating the first and the variable.
    pub negation: Option<&'static str>,
    /// For a setting of several values: what separates them in the
    /// variable (the flag is repeated).
    pub delimiter: Option<char>,
    /// The value of the flag given bare (`--wire-log` for `--wire-log true`).
    pub bare: Option<&'static str>,
    /// Whether the variable's value is hidden from the help (a passphrase,
    /// a store's URL with its password).
    pub secret: bool,
    /// Whether a value such as `-1` is taken as the flag's value (and
    /// refused by its range) rather than as another flag.
    pub negative_numbers: bool,
}

impl Flag {
    /// `--long VALUE_NAME`, or the environment variable `variable`.
    pub const fn new(long: &'static str, variable: &'static str, value_name: &'static str) -> Flag {
        Flag {
            long,
            variable,
            value_name,
            short: None,
            negation: None,
            delimiter: None,
            bare: None,
            secret: false,
            negative_numbers: false,
        }
    }

    /// With the short flag `-short` too.
    pub const fn short(self, short: char) -> Flag {
        Flag {
            short: Some(short),
            ..self
        }
    }

    /// With `--negation` setting it to `false`.
    pub const fn negation(self, negation: &'static str) -> Flag {
        Flag {
            negation: Some(negation),
            ..self
        }
    }

    /// Several values, separated by `delimiter` in the variable.
    pub const fn delimiter(self, delimiter: char) -> Flag {
        Flag {
            delimiter: Some(delimiter),
            ..self
        }
    }

    /// The flag given without a value means `value`.
    pub const fn bare(self, value: &'static str) -> Flag {
        Flag {
            bare: Some(value),
            ..self
        }
    }

    /// The variable's value is not shown in the help.
    pub const fn secret(self) -> Flag {
        Flag {
            secret: true,
            ..self
        }
    }

    /// Negative numbers are its values, not flags.
    pub const fn negative_numbers(self) -> Flag {
        Flag {
            negative_numbers: true,
            ..self
        }
    }
}
