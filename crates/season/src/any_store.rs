//! [`AnyStore`]: the store a `--store` text names ([`StoreUrl`]), opened
//! by [`open`] — a [`SqliteStore`] or a [`PostgresStore`] behind the one
//! [`SeasonStore`] interface. It sits above the interface and its
//! implementations, so the interface never names them.

use std::time::Duration;

use spielleiter_arena::GameRecord;

use crate::{
    SeasonDefinition,
    definition::ScheduledGame,
    error::SeasonError,
    postgres::{PostgresStore, without_password},
    sqlite::SqliteStore,
    store::{Claim, Created, GameRow, GivenBack, SeasonStore},
};

/// A store named by a `--store` text: `postgres://…` / `postgresql://…`,
/// or a SQLite file (`sqlite:PATH` or a plain path).
#[derive(Debug)]
pub enum AnyStore {
    /// The embedded store.
    Sqlite(SqliteStore),
    /// The shared store.
    Postgres(Box<PostgresStore>),
}

/// Where a `--store` text points, before anything is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreUrl {
    /// A SQLite file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL connection string.
    Postgres(String),
}

impl std::str::FromStr for StoreUrl {
    type Err = SeasonError;

    fn from_str(text: &str) -> Result<StoreUrl, SeasonError> {
        let bad = |why: &str| SeasonError::BadUrl {
            url: without_password(text),
            why: why.to_owned(),
        };
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            text.parse::<tokio_postgres::Config>()
                .map_err(|e| bad(&e.to_string()))?;
            return Ok(StoreUrl::Postgres(text.to_owned()));
        }
        if let Some(path) = text.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err(bad("no file after sqlite:"));
            }
            return Ok(StoreUrl::Sqlite(path.into()));
        }
        if text.contains("://") {
            return Err(bad("unknown kind of store"));
        }
        if text.is_empty() {
            return Err(bad("empty"));
        }
        Ok(StoreUrl::Sqlite(text.into()))
    }
}

/// Opens (and, if need be, migrates) the store `url` names.
///
/// # Errors
///
/// The text is no store, the store cannot be reached, or its schema is
/// newer than this program's.
pub async fn open(url: &str) -> Result<AnyStore, SeasonError> {
    match url.parse::<StoreUrl>()? {
        StoreUrl::Sqlite(path) => Ok(AnyStore::Sqlite(SqliteStore::open_async(&path).await?)),
        StoreUrl::Postgres(text) => Ok(AnyStore::Postgres(Box::new(
            PostgresStore::open(&text).await?,
        ))),
    }
}

/// Opens the store `url` names where a season must be there already (its
/// workers, its status and standings, the season page): a SQLite file
/// that does not exist is refused instead of made.
///
/// # Errors
///
/// As [`open`], and [`SeasonError::Missing`] for a SQLite file that does
/// not exist.
pub async fn open_existing(url: &str) -> Result<AnyStore, SeasonError> {
    if let StoreUrl::Sqlite(path) = url.parse::<StoreUrl>()?
        && !path.exists()
    {
        return Err(SeasonError::Missing {
            store: format!("SQLite store {}", path.display()),
        });
    }
    open(url).await
}

macro_rules! dispatch {
    ($self:ident, $store:ident => $call:expr) => {
        match $self {
            AnyStore::Sqlite($store) => $call.await,
            AnyStore::Postgres($store) => $call.await,
        }
    };
}

impl SeasonStore for AnyStore {
    fn describe(&self) -> String {
        match self {
            AnyStore::Sqlite(store) => store.describe(),
            AnyStore::Postgres(store) => store.describe(),
        }
    }

    async fn create(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> Result<Created, SeasonError> {
        dispatch!(self, s => s.create(name, definition, schedule))
    }

    async fn definition(&self, name: &str) -> Result<SeasonDefinition, SeasonError> {
        dispatch!(self, s => s.definition(name))
    }

    async fn claim(
        &self,
        season: &str,
        worker: &str,
        lease: Duration,
        max_failures: u32,
        tables: Option<&[u32]>,
    ) -> Result<Option<Claim>, SeasonError> {
        dispatch!(self, s => s.claim(season, worker, lease, max_failures, tables))
    }

    async fn heartbeat(&self, claim: &Claim, lease: Duration) -> Result<bool, SeasonError> {
        dispatch!(self, s => s.heartbeat(claim, lease))
    }

    async fn record(
        &self,
        claim: &Claim,
        record: &GameRecord,
        replay: Option<&[u8]>,
    ) -> Result<bool, SeasonError> {
        dispatch!(self, s => s.record(claim, record, replay))
    }

    async fn give_back(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> Result<GivenBack, SeasonError> {
        dispatch!(self, s => s.give_back(claim, error, max_failures))
    }

    async fn release_worker(&self, season: &str, worker: &str) -> Result<u64, SeasonError> {
        dispatch!(self, s => s.release_worker(season, worker))
    }

    async fn games(&self, season: &str) -> Result<Vec<GameRow>, SeasonError> {
        dispatch!(self, s => s.games(season))
    }

    async fn games_after(
        &self,
        season: &str,
        after: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, SeasonError> {
        dispatch!(self, s => s.games_after(season, after, limit))
    }

    async fn replay(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        dispatch!(self, s => s.replay(season, number))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn store_texts_name_sqlite_files_or_postgres_databases() {
        assert_eq!(
            "league.sqlite".parse::<StoreUrl>().unwrap(),
            StoreUrl::Sqlite("league.sqlite".into())
        );
        assert_eq!(
            "sqlite:///tmp/x.db".parse::<StoreUrl>().unwrap(),
            StoreUrl::Sqlite("/tmp/x.db".into())
        );
        assert!(matches!(
            "postgres://u:p@localhost:5432/season".parse::<StoreUrl>(),
            Ok(StoreUrl::Postgres(_))
        ));
        let bad = "postgres://u:secret@localhost:notaport/x"
            .parse::<StoreUrl>()
            .unwrap_err()
            .to_string();
        assert!(!bad.contains("secret"), "{bad}");
        assert!("mysql://x/y".parse::<StoreUrl>().is_err());
        assert!("".parse::<StoreUrl>().is_err());
    }
}
