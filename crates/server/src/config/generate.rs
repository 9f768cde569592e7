//! How the one table of settings ([`for_each_setting!`](crate::for_each_setting))
//! becomes the server's side of them: [`Config`](super::Config) and its
//! defaults, [`Overrides`](super::Overrides) and how they change a `Config`,
//! the config file's layout and its reading, and [`SETTINGS`](super::SETTINGS),
//! the names and help that the binary's flags and the tests read.

/// The callback of [`for_each_setting!`](crate::for_each_setting) in this
/// crate: every item named in the module documentation, generated from the
/// table. A row's clauses (the table's documentation says what each means):
///
/// ```text
/// config: FIELD: TYPE [= CONVERT],  // the Config field, and how a value becomes it
/// apply: FN,                        // or: fn(&mut Config, value) for a setting that
///                                   // changes a field with others (the move clock)
/// default: VALUE,                   // in the unit given; none: the key has no value
/// shown: "TEXT",                    // the default as the help and the docs say it
/// file: TYPE = FN,                  // the file's type, fn(TYPE) -> Result<value, String>
/// flag: Flag::new(…),               // the flag and variable, if it has them
/// ```
macro_rules! define_settings {
    // `Config` itself, munched row by row: a row without a field adds none.
    // (A row's doc lines cannot be repeated inside its optional field in
    // one expansion, so the main arm hands them over in brackets.)
    (@config [$($fields:tt)*]) => {
        /// The validated configuration the server runs with: a field per
        /// setting of the table (the move clock's three make one,
        /// `move_limits`; see [`SETTINGS`] for their names, flags and
        /// variables), built by [`Config::load`].
        #[derive(Clone, Debug, PartialEq)]
        pub struct Config {
            $($fields)*
        }
    };
    (@config [$($fields:tt)*] { [$($doc:tt)*] [] [$key:expr] } $($rest:tt)*) => {
        define_settings! { @config [$($fields)*] $($rest)* }
    };
    (@config [$($fields:tt)*] { [$($doc:tt)*] [$field:ident: $field_type:ty] [$key:expr] } $($rest:tt)*) => {
        define_settings! {
            @config [
                $($fields)*
                $($doc)*
                #[doc = ""]
                #[doc = concat!("Config key `", $key, "`.")]
                pub $field: $field_type,
            ]
            $($rest)*
        }
    };

    // `Config::default()`'s fields, munched row by row likewise.
    (@default [$($fields:tt)*]) => {
        Config { $($fields)* }
    };
    (@default [$($fields:tt)*] { [] $($row:tt)* } $($rest:tt)*) => {
        define_settings! { @default [$($fields)*] $($rest)* }
    };
    (
        @default [$($fields:tt)*]
        {
            [$field:ident] [$($convert:expr)?] [$($apply:expr)?] [$($default:expr)?] $given:ty
        }
        $($rest:tt)*
    ) => {
        define_settings! {
            @default [
                $($fields)*
                $field: define_settings!(
                    @initial $given; [$($convert)?] [$($apply)?] [$($default)?]
                ),
            ]
            $($rest)*
        }
    };

    // A field's default: its row's default value as the setting turns
    // values into the field; else the type's own (`None`, empty), where
    // the row has no default or an `apply` puts it in (after the fields).
    (@initial $given:ty; [$($convert:expr)?] [] [$default:expr]) => {{
        let value: <$given as $crate::config::Given>::Value = $default;
        $(let value = ($convert)(value);)?
        value
    }};
    (@initial $given:ty; [$($convert:expr)?] [$($apply:expr)?] [$($default:expr)?]) => {
        ::core::default::Default::default()
    };

    // A value given for a row, put into `$config`.
    (@set $config:ident, $value:ident; [$field:ident] [] []) => {
        $config.$field = $value
    };
    (@set $config:ident, $value:ident; [$field:ident] [$convert:expr] []) => {
        $config.$field = ($convert)($value)
    };
    (@set $config:ident, $value:ident; [$($field:ident)?] [] [$apply:expr]) => {
        ($apply)(&mut *$config, $value)
    };

    // The defaults an `apply` puts into a `Config` after its fields.
    (@apply_default $config:ident; $given:ty; [$apply:expr] [$default:expr]) => {{
        let value: <$given as $crate::config::Given>::Value = $default;
        ($apply)(&mut $config, value);
    }};
    (@apply_default $config:ident; $given:ty; [$($apply:expr)?] [$($default:expr)?]) => {};

    // The file's type of a row: its own, or the value's.
    (@file_type $given:ty; $file_type:ty) => { $file_type };
    (@file_type $given:ty;) => { <$given as $crate::config::Given>::Value };

    // A file's value as the row's value.
    (@from_file $value:ident; $from_file:expr) => { ($from_file)($value) };
    (@from_file $value:ident;) => { ::core::result::Result::<_, String>::Ok($value) };

    // How the help shows a row's default.
    (@shown $given:ty; [$shown:literal] [$($default:expr)?]) => {
        || -> String { $shown.to_owned() }
    };
    (@shown $given:ty; [] [$default:expr]) => {
        || -> String {
            let value: <$given as $crate::config::Given>::Value = $default;
            $crate::config::DefaultText::default_text(&value)
        }
    };
    (@shown $given:ty; [] []) => {
        || -> String { "none".to_owned() }
    };

    (@option $value:expr) => { Some($value) };
    (@option) => { None };
    (@given $value:expr) => { true };
    (@given) => { false };

    (
        $(
            [$section:ident]
            $(
                $(#[doc = $doc:literal])*
                $key:ident => $name:ident: $given:ty {
                    $(config: $field:ident: $field_type:ty $(= $convert:expr)?,)?
                    $(apply: $apply:expr,)?
                    $(default: $default:expr,)?
                    $(shown: $shown:literal,)?
                    $(file: $file_type:ty = $from_file:expr,)?
                    $(flag: $flag:expr,)?
                }
            )*
        )*
    ) => {
        define_settings! {
            @config []
            $($(
                {
                    [$(#[doc = $doc])*]
                    [$($field: $field_type)?]
                    [concat!(stringify!($section), ".", stringify!($key))]
                }
            )*)*
        }

        impl Default for Config {
            fn default() -> Self {
                #[allow(unused_mut)]
                let mut config = define_settings! {
                    @default []
                    $($(
                        {
                            [$($field)?] [$($($convert)?)?] [$($apply)?] [$($default)?] $given
                        }
                    )*)*
                };
                $($(
                    define_settings!(@apply_default config; $given; [$($apply)?] [$($default)?]);
                )*)*
                config
            }
        }

        /// Settings given on top of the file; a setting not given keeps the
        /// file's (or the default) value. The binary fills this from the
        /// `SPIELLEITER_*` variables and the flags; each field is a setting of
        /// the table, in the unit a person gives it (seconds, milliseconds).
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct Overrides {
            $($(
                $(#[doc = $doc])*
                #[doc = ""]
                #[doc = concat!(
                    "Config key `", stringify!($section), ".", stringify!($key), "`."
                )]
                pub $name: $given,
            )*)*
        }

        impl Config {
            /// Replaces every setting that `overrides` gives.
            pub fn apply(&mut self, overrides: Overrides) {
                let config = self;
                $($(
                    if let Some(value) = $crate::config::Given::take(overrides.$name) {
                        define_settings!(
                            @set config, value; [$($field)?] [$($($convert)?)?] [$($apply)?]
                        );
                    }
                )*)*
            }
        }

        impl Overrides {
            /// The config keys of the settings given.
            pub fn given_keys(&self) -> Vec<&'static str> {
                let mut keys = Vec::new();
                $($(
                    if $crate::config::Given::is_given(&self.$name) {
                        keys.push(concat!(stringify!($section), ".", stringify!($key)));
                    }
                )*)*
                keys
            }
        }

        /// Every setting as a person gives it: names, help and default, in the
        /// order of the table (and of the config file).
        pub static SETTINGS: &[$crate::config::Setting] = &[
            $($(
                $crate::config::Setting {
                    name: stringify!($name),
                    key: concat!(stringify!($section), ".", stringify!($key)),
                    doc: concat!($($doc, "\n",)*),
                    flag: define_settings!(@option $($flag)?),
                    has_default: define_settings!(@given $($default)?),
                    shown: define_settings!(@shown $given; [$($shown)?] [$($default)?]),
                    combined: define_settings!(@given $($apply)?),
                },
            )*)*
        ];

        /// The config file's layout, section by section. Every key is
        /// optional; unknown keys are errors, so that a typo does not
        /// silently fall back to a default. Each value keeps where it stood.
        mod file_layout {
            #[allow(unused_imports)]
            use super::*;

            #[derive(Debug, Default, serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            pub(super) struct File {
                $(
                    #[serde(default)]
                    pub(super) $section: $section,
                )*
            }

            $(
                #[allow(non_camel_case_types)]
                #[derive(Debug, Default, serde::Deserialize)]
                #[serde(deny_unknown_fields)]
                pub(super) struct $section {
                    $(
                        pub(super) $key: Option<toml::Spanned<
                            define_settings!(@file_type $given; $($file_type)?)
                        >>,
                    )*
                }
            )*
        }

        /// The settings of a config file's text, with the line of each; an
        /// invalid value is named by its key and line.
        fn file_settings(
            text: &str,
        ) -> Result<(Overrides, Vec<(&'static str, usize)>), $crate::config::FileError> {
            let file: file_layout::File =
                toml::from_str(text).map_err($crate::config::FileError::Parse)?;
            let mut overrides = Overrides::default();
            let mut lines = Vec::new();
            $($(
                if let Some(spanned) = file.$section.$key {
                    let key = concat!(stringify!($section), ".", stringify!($key));
                    let line = $crate::config::line_of(text, spanned.span().start);
                    let value = spanned.into_inner();
                    let value = define_settings!(@from_file value; $($from_file)?)
                        .map_err(|reason| $crate::config::FileError::Invalid { key, line, reason })?;
                    overrides.$name = $crate::config::Given::from_value(value);
                    lines.push((key, line));
                }
            )*)*
            Ok((overrides, lines))
        }
    };
}

pub(super) use define_settings;
