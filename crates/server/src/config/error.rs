//! Why the configuration could not be built: [`ConfigError`].

use std::path::PathBuf;

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
    /// A value of the config file is invalid, out of range or
    /// inconsistent with another.
    #[error("invalid setting `{key}` (config file {}, line {line}): {reason}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The line of the value.
        line: usize,
        /// The setting, as `section.key`.
        key: &'static str,
        /// What is wrong.
        reason: String,
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
