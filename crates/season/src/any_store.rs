//! [`AnyStore`]: the store a `--store` text names ([`StoreUrl`]), opened
//! by [`open`] — a [`SqliteStore`] or a [`PostgresStore`] behind the one
//! [`Database`] interface, and so a
//! [`SeasonStore`](crate::SeasonStore). It sits above the interface and
//! its implementations, so the interface never names them.

use crate::{
    error::SeasonError,
    postgres::PostgresStore,
    sql::{AnyResult, Database, Mode, UnitOfWork},
    sqlite::SqliteStore,
    url_mask::masked_store_url,
};

/// A store named by a `--store` text: `postgres://…` / `postgresql://…` or
/// a key/value connection text (`host=… dbname=…`), or a SQLite file
/// (`sqlite:PATH` or a plain path).
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
            url: masked_store_url(text),
            why: why.to_owned(),
        };
        if text.starts_with("postgres://")
            || text.starts_with("postgresql://")
            || is_key_value_text(text)
        {
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

/// Whether `text` is a PostgreSQL key/value connection text (`host=db
/// dbname=season …`): it begins with a keyword (letters and `_`) and `=`.
/// Read as a file name, it would make a SQLite file of that name and show
/// its password wherever the store is named.
fn is_key_value_text(text: &str) -> bool {
    let text = text.trim_start();
    let keyword_end = text
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
        .unwrap_or(text.len());
    keyword_end > 0 && text[keyword_end..].trim_start().starts_with('=')
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
            store: format!(
                "SQLite store {}",
                masked_store_url(&path.display().to_string())
            ),
        });
    }
    open(url).await
}

impl Database for AnyStore {
    async fn session_of(
        &self,
        mode: Mode,
        work: Box<dyn UnitOfWork>,
    ) -> Result<AnyResult, SeasonError> {
        match self {
            AnyStore::Sqlite(store) => store.session_of(mode, work).await,
            AnyStore::Postgres(store) => store.session_of(mode, work).await,
        }
    }

    fn store_name(&self) -> String {
        match self {
            AnyStore::Sqlite(store) => store.store_name(),
            AnyStore::Postgres(store) => store.store_name(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn store_texts_name_sqlite_files_or_database_servers() {
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

    #[test]
    fn key_value_texts_name_a_database_server_and_are_refused_without_their_password() {
        assert_eq!(
            "host=db user=season password=secret dbname=season"
                .parse::<StoreUrl>()
                .unwrap(),
            StoreUrl::Postgres("host=db user=season password=secret dbname=season".to_owned())
        );
        for text in [
            "host=db password=secret port=notaport",
            "host=db PASSWORD=secret",
            "postgres://u@db:notaport/x?password=secret",
        ] {
            let bad = text.parse::<StoreUrl>().unwrap_err().to_string();
            assert!(bad.contains("is no store"), "{bad}");
            assert!(!bad.contains("secret"), "{bad}");
        }
        // A file a person would name a store is still a file.
        assert_eq!(
            "./host=db.sqlite".parse::<StoreUrl>().unwrap(),
            StoreUrl::Sqlite("./host=db.sqlite".into())
        );
    }

    #[tokio::test]
    async fn a_missing_file_is_named_without_a_password() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x password=secret.sqlite");
        let error = open_existing(path.to_str().unwrap())
            .await
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not exist"), "{error}");
        assert!(!error.contains("secret"), "{error}");
    }
}
