//! [`SqliteStore`]: a season in one SQLite file — no server, no set-up;
//! `spielleiter tournament` keeps its season here. Workers in one process
//! share the connection; workers in several processes on one machine share
//! the file (SQLite's own locking, `BEGIN IMMEDIATE` for every claim).
//! Every call runs on the runtime's blocking threads: a slow disk or a
//! file locked by another process never stalls a runtime worker.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use spielleiter_arena::GameRecord;

use crate::{
    SeasonDefinition,
    columns::{
        GAME_COLUMNS, GameColumns, decode_definition, encode_definition, encode_record,
        existing_season, given_back, millis, scheduled_game,
    },
    definition::ScheduledGame,
    error::SeasonError,
    store::{
        Claim, Created, GameRow, GivenBack, SCHEMA_VERSION, SeasonStore, expired_message,
        migrations,
    },
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
    path: PathBuf,
    connection: Mutex<Connection>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis().try_into().unwrap_or(i64::MAX))
}

impl SqliteStore {
    /// Opens the file (creating it when missing) and brings its schema to
    /// [`SCHEMA_VERSION`].
    ///
    /// # Errors
    ///
    /// The file cannot be opened, is no SQLite database, or holds a newer
    /// schema (left untouched).
    pub fn open(path: &Path) -> Result<SqliteStore, SeasonError> {
        let describe = format!("SQLite store {}", path.display());
        let fail = |e: rusqlite::Error| SeasonError::Connect {
            store: describe.clone(),
            cause: e.to_string(),
        };
        let mut connection = Connection::open(path).map_err(fail)?;
        connection
            .busy_timeout(Duration::from_secs(10))
            .map_err(fail)?;
        let store_error = |e: rusqlite::Error| SeasonError::Database {
            store: describe.clone(),
            cause: e.to_string(),
        };
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(store_error)?;
        let has_version: bool = transaction
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'spielleiter_schema'",
                [],
                |row| row.get::<_, i64>(0),
            )
            .map_err(store_error)?
            > 0;
        let version: i64 = if has_version {
            transaction
                .query_row("SELECT version FROM spielleiter_schema", [], |row| {
                    row.get(0)
                })
                .optional()
                .map_err(store_error)?
                .unwrap_or(0)
        } else {
            0
        };
        let steps = migrations(|| describe.clone(), has_version, version, "BLOB")?;
        if !steps.is_empty() {
            for step in &steps {
                transaction.execute_batch(step).map_err(store_error)?;
            }
            transaction
                .execute(
                    "UPDATE spielleiter_schema SET version = ?1",
                    [SCHEMA_VERSION],
                )
                .map_err(store_error)?;
        }
        transaction.commit().map_err(store_error)?;
        Ok(SqliteStore {
            file: Arc::new(SqliteFile {
                path: path.to_owned(),
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

    /// Runs `work` on the file on one of the runtime's blocking threads.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&SqliteFile) -> Result<T, SeasonError> + Send + 'static,
    ) -> Result<T, SeasonError> {
        let file = Arc::clone(&self.file);
        tokio::task::spawn_blocking(move || work(&file))
            .await
            .map_err(|e| SeasonError::Database {
                store: self.describe(),
                cause: format!("the store's thread failed: {e}"),
            })?
    }
}

impl SqliteFile {
    fn describe(&self) -> String {
        format!("SQLite store {}", self.path.display())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the connection leaves it usable: every
        // change is inside a transaction that SQLite rolled back.
        self.connection
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn error(&self, cause: rusqlite::Error) -> SeasonError {
        SeasonError::Database {
            store: self.describe(),
            cause: cause.to_string(),
        }
    }

    fn create_now(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> Result<Created, SeasonError> {
        let text = encode_definition(definition)?;
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.error(e))?;
        let existing: Option<String> = transaction
            .query_row(
                "SELECT definition FROM seasons WHERE name = ?1",
                [name],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        if let Some(existing) = existing {
            return existing_season(self.describe(), name, definition, &existing);
        }
        transaction
            .execute(
                "INSERT INTO seasons (name, definition, created_ms) VALUES (?1, ?2, ?3)",
                params![name, text, now_ms()],
            )
            .map_err(|e| self.error(e))?;
        {
            let mut insert = transaction
                .prepare(
                    "INSERT INTO games (season, number, table_index, table_game) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(|e| self.error(e))?;
            for game in schedule {
                insert
                    .execute(params![name, game.number, game.table, game.table_game])
                    .map_err(|e| self.error(e))?;
            }
        }
        transaction.commit().map_err(|e| self.error(e))?;
        Ok(Created::New)
    }

    fn claim_now(
        &self,
        season: &str,
        worker: &str,
        lease: Duration,
        max_failures: u32,
        tables: Option<&[u32]>,
    ) -> Result<Option<Claim>, SeasonError> {
        let now = now_ms();
        // Numbers only: safe to write into the statement.
        let only_tables = tables.map_or_else(String::new, |tables| {
            let list: Vec<String> = tables.iter().map(u32::to_string).collect();
            format!("AND table_index IN ({}) ", list.join(", "))
        });
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.error(e))?;
        // Games whose workers stopped too often are given up.
        let mut expired = transaction
            .prepare(
                "SELECT number, failures FROM games WHERE season = ?1 AND state = 'running' \
                 AND lease_until < ?2 AND failures + 1 >= ?3",
            )
            .map_err(|e| self.error(e))?;
        let given_up: Vec<(u32, i64)> = expired
            .query_map(params![season, now, max_failures], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))?;
        drop(expired);
        for (number, failures) in given_up {
            transaction
                .execute(
                    "UPDATE games SET state = 'failed', failures = failures + 1, error = ?3, \
                     lease_until = NULL WHERE season = ?1 AND number = ?2",
                    params![season, number, expired_message(failures + 1)],
                )
                .map_err(|e| self.error(e))?;
        }
        let next: Option<(i64, i64, i64, String)> = transaction
            .query_row(
                &format!(
                    "SELECT number, table_index, table_game, state FROM games WHERE season = ?1 \
                     AND (state = 'waiting' OR (state = 'running' AND lease_until < ?2)) \
                     {only_tables}ORDER BY number LIMIT 1"
                ),
                params![season, now],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        let Some((number, table, table_game, state)) = next else {
            transaction.commit().map_err(|e| self.error(e))?;
            return Ok(None);
        };
        // Read before the update: a row out of range is refused, not claimed.
        let game = scheduled_game(number, table, table_game)?;
        let failed = i64::from(state == "running");
        let attempt: i64 = transaction
            .query_row(
                "UPDATE games SET state = 'running', attempt = attempt + 1, \
                 failures = failures + ?3, worker = ?4, lease_until = ?5, started_ms = ?6, \
                 error = CASE WHEN ?3 = 1 THEN ?7 ELSE error END \
                 WHERE season = ?1 AND number = ?2 RETURNING attempt",
                params![
                    season,
                    number,
                    failed,
                    worker,
                    now + millis(lease),
                    now,
                    "its worker stopped renewing the lease"
                ],
                |row| row.get(0),
            )
            .map_err(|e| self.error(e))?;
        transaction.commit().map_err(|e| self.error(e))?;
        Ok(Some(Claim {
            season: season.to_owned(),
            game,
            attempt,
        }))
    }

    fn definition_now(&self, name: &str) -> Result<SeasonDefinition, SeasonError> {
        let text: Option<String> = self
            .lock()
            .query_row(
                "SELECT definition FROM seasons WHERE name = ?1",
                [name],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        match text {
            Some(text) => decode_definition(&text),
            None => {
                let connection = self.lock();
                let mut query = connection
                    .prepare("SELECT name FROM seasons ORDER BY name LIMIT 20")
                    .map_err(|e| self.error(e))?;
                let held = query
                    .query_map([], |row| row.get(0))
                    .and_then(Iterator::collect)
                    .map_err(|e| self.error(e))?;
                Err(SeasonError::NoSeason {
                    store: self.describe(),
                    name: name.to_owned(),
                    held,
                })
            }
        }
    }

    fn heartbeat_now(&self, claim: &Claim, lease: Duration) -> Result<bool, SeasonError> {
        let now = now_ms();
        let changed = self
            .lock()
            .execute(
                "UPDATE games SET lease_until = ?4 WHERE season = ?1 AND number = ?2 \
                 AND attempt = ?3 AND state = 'running' AND lease_until >= ?5",
                params![
                    claim.season,
                    claim.game.number,
                    claim.attempt,
                    now + millis(lease),
                    now
                ],
            )
            .map_err(|e| self.error(e))?;
        Ok(changed == 1)
    }

    fn record_now(
        &self,
        claim: &Claim,
        record: &GameRecord,
        replay: Option<&[u8]>,
    ) -> Result<bool, SeasonError> {
        let text = encode_record(record)?;
        let now = now_ms();
        let changed = self
            .lock()
            .execute(
                "UPDATE games SET state = 'done', record = ?4, replay = ?5, finished_ms = ?6, \
                 lease_until = NULL, error = NULL WHERE season = ?1 AND number = ?2 \
                 AND attempt = ?3 AND state = 'running' AND lease_until >= ?6",
                params![
                    claim.season,
                    claim.game.number,
                    claim.attempt,
                    text,
                    replay,
                    now
                ],
            )
            .map_err(|e| self.error(e))?;
        Ok(changed == 1)
    }

    fn give_back_now(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> Result<GivenBack, SeasonError> {
        let counted = i64::from(error.is_some());
        let state: Option<String> = self
            .lock()
            .query_row(
                "UPDATE games SET failures = failures + ?4, \
                 state = CASE WHEN failures + ?4 >= ?5 THEN 'failed' ELSE 'waiting' END, \
                 error = coalesce(?6, error), lease_until = NULL \
                 WHERE season = ?1 AND number = ?2 AND attempt = ?3 AND state = 'running' \
                 RETURNING state",
                params![
                    claim.season,
                    claim.game.number,
                    claim.attempt,
                    counted,
                    max_failures,
                    error
                ],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(given_back(state.as_deref()))
    }

    fn release_worker_now(&self, season: &str, worker: &str) -> Result<u64, SeasonError> {
        let changed = self
            .lock()
            .execute(
                "UPDATE games SET state = 'waiting', lease_until = NULL \
                 WHERE season = ?1 AND worker = ?2 AND state = 'running'",
                params![season, worker],
            )
            .map_err(|e| self.error(e))?;
        Ok(changed as u64)
    }

    fn games_now(
        &self,
        season: &str,
        after: u32,
        limit: Option<u32>,
    ) -> Result<Vec<GameRow>, SeasonError> {
        let connection = self.lock();
        let mut query = connection
            .prepare(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE season = ?1 \
                 AND number > ?2 ORDER BY number LIMIT ?3"
            ))
            .map_err(|e| self.error(e))?;
        let rows: Vec<GameColumns> = query
            // SQLite reads a negative limit as none.
            .query_map(params![season, after, limit.map_or(-1, i64::from)], |row| {
                Ok(GameColumns {
                    number: row.get(0)?,
                    table: row.get(1)?,
                    table_game: row.get(2)?,
                    state: row.get(3)?,
                    attempt: row.get(4)?,
                    failures: row.get(5)?,
                    worker: row.get(6)?,
                    record: row.get(7)?,
                    error: row.get(8)?,
                    started_ms: row.get(9)?,
                    finished_ms: row.get(10)?,
                })
            })
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))?;
        rows.into_iter().map(GameColumns::decode).collect()
    }

    fn replay_now(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        let bytes: Option<Option<Vec<u8>>> = self
            .lock()
            .query_row(
                "SELECT replay FROM games WHERE season = ?1 AND number = ?2",
                params![season, number],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(bytes.flatten())
    }
}

impl SeasonStore for SqliteStore {
    fn describe(&self) -> String {
        self.file.describe()
    }

    async fn create(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> Result<Created, SeasonError> {
        let (name, definition, schedule) = (name.to_owned(), definition.clone(), schedule.to_vec());
        self.blocking(move |file| file.create_now(&name, &definition, &schedule))
            .await
    }

    async fn definition(&self, name: &str) -> Result<SeasonDefinition, SeasonError> {
        let name = name.to_owned();
        self.blocking(move |file| file.definition_now(&name)).await
    }

    async fn claim(
        &self,
        season: &str,
        worker: &str,
        lease: Duration,
        max_failures: u32,
        tables: Option<&[u32]>,
    ) -> Result<Option<Claim>, SeasonError> {
        let (season, worker) = (season.to_owned(), worker.to_owned());
        let tables = tables.map(<[u32]>::to_vec);
        self.blocking(move |file| {
            file.claim_now(&season, &worker, lease, max_failures, tables.as_deref())
        })
        .await
    }

    async fn heartbeat(&self, claim: &Claim, lease: Duration) -> Result<bool, SeasonError> {
        let claim = claim.clone();
        self.blocking(move |file| file.heartbeat_now(&claim, lease))
            .await
    }

    async fn record(
        &self,
        claim: &Claim,
        record: &GameRecord,
        replay: Option<&[u8]>,
    ) -> Result<bool, SeasonError> {
        let (claim, record) = (claim.clone(), record.clone());
        let replay = replay.map(<[u8]>::to_vec);
        self.blocking(move |file| file.record_now(&claim, &record, replay.as_deref()))
            .await
    }

    async fn give_back(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> Result<GivenBack, SeasonError> {
        let (claim, error) = (claim.clone(), error.map(str::to_owned));
        self.blocking(move |file| file.give_back_now(&claim, error.as_deref(), max_failures))
            .await
    }

    async fn release_worker(&self, season: &str, worker: &str) -> Result<u64, SeasonError> {
        let (season, worker) = (season.to_owned(), worker.to_owned());
        self.blocking(move |file| file.release_worker_now(&season, &worker))
            .await
    }

    async fn games(&self, season: &str) -> Result<Vec<GameRow>, SeasonError> {
        let season = season.to_owned();
        self.blocking(move |file| file.games_now(&season, 0, None))
            .await
    }

    async fn games_after(
        &self,
        season: &str,
        after: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, SeasonError> {
        let season = season.to_owned();
        self.blocking(move |file| file.games_now(&season, after, Some(limit)))
            .await
    }

    async fn replay(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        let season = season.to_owned();
        self.blocking(move |file| file.replay_now(&season, number))
            .await
    }
}
