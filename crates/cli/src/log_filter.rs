//! Which log lines the long-running commands (`serve`, `worker`) keep:
//! `RUST_LOG` when set, else the command's own filter.
//!
//! A filter is a level or `target=level` directives (`warn,
//! spielleiter_season=info`), read by tracing-subscriber's `Targets`:
//! everything README documents. Its `EnvFilter` would also take span and
//! field directives, at the price of a regex engine in the binary (about
//! 0.4 MB, BENCHMARKS.md "The container image's binary").

use anyhow::Context;
use tracing_subscriber::filter::Targets;

/// `RUST_LOG` if it is set and not empty, else `fallback` (named `what`
/// in the error when it is not a filter).
///
/// # Errors
///
/// The filter in use is not a level or `target=level` directives.
pub fn from_env_or(fallback: &str, what: &str) -> anyhow::Result<Targets> {
    match std::env::var("RUST_LOG") {
        Ok(value) if !value.is_empty() => value
            .parse()
            .with_context(|| format!("invalid RUST_LOG {value:?}")),
        _ => fallback
            .parse()
            .with_context(|| format!("invalid {what} {fallback:?}")),
    }
}

#[cfg(test)]
mod tests {
    use tracing::Level;

    use super::*;

    #[test]
    fn a_level_and_target_directives_are_filters() {
        let filter: Targets = "warn,spielleiter_season=info".parse().expect("filter");
        assert!(filter.would_enable("spielleiter_season::worker", &Level::INFO));
        assert!(!filter.would_enable("spielleiter_server", &Level::INFO));
        assert!(filter.would_enable("spielleiter_server", &Level::WARN));
    }
}
