//! [`SqliteStore`]: a season in one SQLite file — no server, no set-up;
//! `spielleiter tournament` keeps its season here. Workers in one process
//! share the connection; workers in several processes on one machine share
//! the file (SQLite's own locking, `BEGIN IMMEDIATE` for every
//! transaction). Every call runs on the runtime's blocking threads: a slow
//! disk or a file locked by another process never stalls a runtime worker.
//! Its statements are the season's, written once for both databases
//! ([`crate::sql`]).

use std::{
    path::Path,
    sync::{Arc, Mutex, MutexGuard},
    time::Duration,
};

use rusqlite::Connection;

use crate::{
    error::SeasonError,
    sql::{AnyResult, Database, Mode, UnitOfWork, session_here, session_of_here},
    store::migrate,
};

/// A season store in a SQLite file. SQLite's calls block (on the disk,
/// on another process's lock for up to its busy timeout), so every call
/// runs on the runtime's blocking threads, never on the threads that play
/// games and renew leases.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    file: Arc<SqliteFile>,
}

/// The file and its one connection, shared by the blocking calls.
#[derive(Debug)]
struct SqliteFile {
    /// The store as it is named for people.
    shown: String,
    connection: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens the file (creating it when missing) and brings its schema to
    /// [`SCHEMA_VERSION`](crate::SCHEMA_VERSION).
    ///
    /// # Errors
    ///
    /// The file cannot be opened, is no SQLite database, or holds a newer
    /// schema (left untouched).
    pub fn open(path: &Path) -> Result<SqliteStore, SeasonError> {
        let shown = format!("SQLite store {}", path.display());
        let fail = |e: rusqlite::Error| SeasonError::Connect {
            store: shown.clone(),
            cause: e.to_string(),
        };
        let mut connection = Connection::open(path).map_err(fail)?;
        connection
            .busy_timeout(Duration::from_secs(10))
            .map_err(fail)?;
        let store = shown.clone();
        session_here(&mut connection, &shown, Mode::Transaction, move |db| {
            Box::pin(async move { migrate(db, &store).await })
        })?;
        Ok(SqliteStore {
            file: Arc::new(SqliteFile {
                shown,
                connection: Mutex::new(connection),
            }),
        })
    }

    /// Opens the file as [`SqliteStore::open`] does, on a blocking thread.
    ///
    /// # Errors
    ///
    /// As [`SqliteStore::open`].
    pub async fn open_async(path: &Path) -> Result<SqliteStore, SeasonError> {
        let owned = path.to_owned();
        tokio::task::spawn_blocking(move || SqliteStore::open(&owned))
            .await
            .map_err(|e| SeasonError::Connect {
                store: format!("SQLite store {}", path.display()),
                cause: format!("the opening thread failed: {e}"),
            })?
    }
}

impl SqliteFile {
    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the connection leaves it usable once the
        // transaction it may have left open is rolled back.
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !connection.is_autocommit() {
            let _ = connection.execute_batch("ROLLBACK");
        }
        connection
    }
}

/// Each call runs on one of the runtime's blocking threads, holding the
/// file's one connection.
impl Database for SqliteStore {
    async fn session_of(
        &self,
        mode: Mode,
        work: Box<dyn UnitOfWork>,
    ) -> Result<AnyResult, SeasonError> {
        let file = Arc::clone(&self.file);
        tokio::task::spawn_blocking(move || {
            let mut connection = file.lock();
            session_of_here(&mut connection, &file.shown, mode, work)
        })
        .await
        .map_err(|e| SeasonError::Database {
            store: self.file.shown.clone(),
            cause: format!("the store's thread failed: {e}"),
        })?
    }

    fn store_name(&self) -> String {
        self.file.shown.clone()
    }
}
