//! [`PostgresStore`]: a season in a PostgreSQL database, shared by
//! workers on many machines. A claim takes the lowest waiting game with
//! `FOR UPDATE SKIP LOCKED`, so concurrent claims never wait for each other
//! and never take the same game; lease times are the database's clock, so
//! the workers' clocks do not matter. A lost connection is opened again on
//! the next call (the caller retries with back-off).

use std::time::Duration;

use spielleiter_arena::GameRecord;
use tokio::sync::Mutex;
use tokio_postgres::{Client, Config, NoTls, Row};
use tracing::{info, warn};

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

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one call (its statements) may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);
/// The advisory lock that serialises migrations of one database.
const MIGRATION_LOCK: i64 = 0x5345_4153_4f4e; // "SEASON"

/// The database's clock in milliseconds since the Unix epoch.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// A season store in PostgreSQL.
#[derive(Debug)]
pub struct PostgresStore {
    config: Config,
    shown: String,
    client: Mutex<Option<Client>>,
}

/// The connection text with its password replaced by `***`.
pub(crate) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(name, _)| name);
            if rest[..rest.find('@').unwrap_or(0)].contains(':') {
                format!("{scheme}://{user}:***@{host}")
            } else {
                format!("{scheme}://{user}@{host}")
            }
        }
        None => url.to_owned(),
    }
}

impl PostgresStore {
    /// Connects and brings the schema to [`SCHEMA_VERSION`] (under an
    /// advisory lock, so workers starting together migrate once).
    ///
    /// # Errors
    ///
    /// The text is no connection string, the database cannot be reached or
    /// refuses (password, missing database), or holds a newer schema (left
    /// untouched).
    pub async fn open(url: &str) -> Result<PostgresStore, SeasonError> {
        let shown = without_password(url);
        let mut config: Config =
            url.parse()
                .map_err(|e: tokio_postgres::Error| SeasonError::BadUrl {
                    url: shown.clone(),
                    why: e.to_string(),
                })?;
        config.connect_timeout(CONNECT_TIMEOUT);
        config.application_name("spielleiter");
        let store = PostgresStore {
            config,
            shown,
            client: Mutex::new(None),
        };
        let mut client = store.connect().await?;
        let migrated = tokio::time::timeout(CALL_TIMEOUT, store.migrate(&mut client)).await;
        match migrated {
            Ok(result) => result?,
            Err(_) => return Err(store.timeout()),
        }
        *store.client.lock().await = Some(client);
        Ok(store)
    }

    async fn connect(&self) -> Result<Client, SeasonError> {
        let (client, connection) =
            self.config
                .connect(NoTls)
                .await
                .map_err(|e| SeasonError::Connect {
                    store: self.describe(),
                    cause: full_message(&e),
                })?;
        let shown = self.shown.clone();
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                warn!(store = %shown, %error, "the database connection ended");
            }
        });
        Ok(client)
    }

    async fn migrate(&self, client: &mut Client) -> Result<(), SeasonError> {
        let transaction = client.transaction().await.map_err(|e| self.error(&e))?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(|e| self.error(&e))?;
        let has_version = transaction
            .query_one(
                "SELECT count(*) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name = 'spielleiter_schema'",
                &[],
            )
            .await
            .map_err(|e| self.error(&e))?
            .get::<_, i64>(0)
            > 0;
        let version: i64 = if has_version {
            transaction
                .query_opt("SELECT version FROM spielleiter_schema", &[])
                .await
                .map_err(|e| self.error(&e))?
                .map_or(0, |row| i64::from(row.get::<_, i32>(0)))
        } else {
            0
        };
        let steps = migrations(|| self.describe(), has_version, version, "BYTEA")?;
        if !steps.is_empty() {
            for step in &steps {
                transaction
                    .batch_execute(step)
                    .await
                    .map_err(|e| self.error(&e))?;
            }
            let version = SCHEMA_VERSION as i32;
            transaction
                .execute("UPDATE spielleiter_schema SET version = $1", &[&version])
                .await
                .map_err(|e| self.error(&e))?;
            info!(store = %self.shown, version, "schema migrated");
        }
        transaction.commit().await.map_err(|e| self.error(&e))
    }

    fn error(&self, cause: &tokio_postgres::Error) -> SeasonError {
        SeasonError::Database {
            store: self.describe(),
            cause: full_message(cause),
        }
    }

    fn timeout(&self) -> SeasonError {
        SeasonError::Database {
            store: self.describe(),
            cause: format!("no answer within {} s", CALL_TIMEOUT.as_secs()),
        }
    }

    /// Runs `call` on the connection, opening it again first if it was
    /// lost; a call that fails on a closed connection or takes too long
    /// drops the connection, so the next call opens a new one.
    async fn with_client<T>(
        &self,
        call: impl AsyncFnOnce(&mut Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, SeasonError> {
        let mut slot = self.client.lock().await;
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = None;
            *slot = Some(self.connect().await?);
        }
        let Some(client) = slot.as_mut() else {
            return Err(self.timeout());
        };
        match tokio::time::timeout(CALL_TIMEOUT, call(client)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => {
                if client.is_closed() || error.is_closed() {
                    *slot = None;
                }
                Err(self.error(&error))
            }
            Err(_) => {
                *slot = None;
                Err(self.timeout())
            }
        }
    }
}

/// The error with its source, which carries the database's own words.
fn full_message(error: &tokio_postgres::Error) -> String {
    match std::error::Error::source(error) {
        Some(source) => format!("{error}: {source}"),
        None => error.to_string(),
    }
}

/// A game's row from a row of [`GAME_COLUMNS`] (the schema's INTEGER
/// columns are PostgreSQL's `int4`).
fn game_row(row: &Row) -> Result<GameRow, SeasonError> {
    GameColumns {
        number: i64::from(row.get::<_, i32>(0)),
        table: i64::from(row.get::<_, i32>(1)),
        table_game: i64::from(row.get::<_, i32>(2)),
        state: row.get(3),
        attempt: row.get(4),
        failures: row.get(5),
        worker: row.get(6),
        record: row.get(7),
        error: row.get(8),
        started_ms: row.get(9),
        finished_ms: row.get(10),
    }
    .decode()
}

impl SeasonStore for PostgresStore {
    fn describe(&self) -> String {
        format!("PostgreSQL store {}", self.shown)
    }

    async fn create(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> Result<Created, SeasonError> {
        let text = encode_definition(definition)?;
        let numbers: Vec<i32> = schedule.iter().map(|g| g.number as i32).collect();
        let tables: Vec<i32> = schedule.iter().map(|g| g.table as i32).collect();
        let table_games: Vec<i32> = schedule.iter().map(|g| g.table_game as i32).collect();
        let existing = self
            .with_client(async |client| {
                let transaction = client.transaction().await?;
                let inserted = transaction
                    .execute(
                        &format!(
                            "INSERT INTO seasons (name, definition, created_ms) \
                             VALUES ($1, $2, {NOW_MS}) ON CONFLICT (name) DO NOTHING"
                        ),
                        &[&name, &text],
                    )
                    .await?;
                if inserted == 0 {
                    let row = transaction
                        .query_one("SELECT definition FROM seasons WHERE name = $1", &[&name])
                        .await?;
                    transaction.rollback().await?;
                    return Ok(Some(row.get::<_, String>(0)));
                }
                transaction
                    .execute(
                        "INSERT INTO games (season, number, table_index, table_game) \
                         SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[])",
                        &[&name, &numbers, &tables, &table_games],
                    )
                    .await?;
                transaction.commit().await?;
                Ok(None)
            })
            .await?;
        match existing {
            None => Ok(Created::New),
            Some(text) => existing_season(self.describe(), name, definition, &text),
        }
    }

    async fn definition(&self, name: &str) -> Result<SeasonDefinition, SeasonError> {
        let text = self
            .with_client(async |client| {
                let row = client
                    .query_opt("SELECT definition FROM seasons WHERE name = $1", &[&name])
                    .await?;
                Ok(row.map(|row| row.get::<_, String>(0)))
            })
            .await?;
        match text {
            Some(text) => decode_definition(&text),
            None => {
                let held = self
                    .with_client(async |client| {
                        let rows = client
                            .query("SELECT name FROM seasons ORDER BY name LIMIT 20", &[])
                            .await?;
                        Ok(rows.iter().map(|row| row.get::<_, String>(0)).collect())
                    })
                    .await?;
                Err(SeasonError::NoSeason {
                    store: self.describe(),
                    name: name.to_owned(),
                    held,
                })
            }
        }
    }

    async fn claim(
        &self,
        season: &str,
        worker: &str,
        lease: Duration,
        max_failures: u32,
        tables: Option<&[u32]>,
    ) -> Result<Option<Claim>, SeasonError> {
        let lease_ms = millis(lease);
        let tables: Option<Vec<i32>> =
            tables.map(|tables| tables.iter().map(|&t| t as i32).collect());
        let max_failures = i64::from(max_failures);
        let message = expired_message(max_failures);
        let row = self
            .with_client(async |client| {
                // One transaction, one commit: games whose workers stopped
                // too often are given up, then the next game is claimed.
                let transaction = client.transaction().await?;
                transaction
                    .execute(
                        &format!(
                            "UPDATE games SET state = 'failed', failures = failures + 1, \
                             error = $3, lease_until = NULL WHERE season = $1 \
                             AND state = 'running' AND lease_until < {NOW_MS} \
                             AND failures + 1 >= $2"
                        ),
                        &[&season, &max_failures, &message],
                    )
                    .await?;
                let claimed = transaction
                    .query_opt(
                        &format!(
                            // The next game in a materialised CTE, read once
                            // by the update (an uncorrelated sub-select):
                            // a subquery joined in FROM may be scanned again
                            // per row and, skipping locked rows, claim many.
                            "WITH next AS MATERIALIZED (SELECT number FROM games WHERE season = $1 \
                                 AND (state = 'waiting' OR (state = 'running' AND lease_until < {NOW_MS})) \
                                 AND ($4::int[] IS NULL OR table_index = ANY($4)) \
                                 ORDER BY number LIMIT 1 FOR UPDATE SKIP LOCKED) \
                             UPDATE games SET state = 'running', attempt = attempt + 1, \
                             failures = failures + CASE WHEN games.state = 'running' THEN 1 ELSE 0 END, \
                             error = CASE WHEN games.state = 'running' \
                                 THEN 'its worker stopped renewing the lease' ELSE error END, \
                             worker = $2, lease_until = {NOW_MS} + $3, started_ms = {NOW_MS} \
                             WHERE season = $1 AND number = (SELECT number FROM next) \
                             RETURNING games.number, games.table_index, games.table_game, games.attempt"
                        ),
                        &[&season, &worker, &lease_ms, &tables],
                    )
                    .await?;
                transaction.commit().await?;
                Ok(claimed)
            })
            .await?;
        row.map(|row| {
            Ok(Claim {
                season: season.to_owned(),
                game: scheduled_game(
                    i64::from(row.get::<_, i32>(0)),
                    i64::from(row.get::<_, i32>(1)),
                    i64::from(row.get::<_, i32>(2)),
                )?,
                attempt: row.get(3),
            })
        })
        .transpose()
    }

    async fn heartbeat(&self, claim: &Claim, lease: Duration) -> Result<bool, SeasonError> {
        let lease_ms = millis(lease);
        let number = claim.game.number as i32;
        let changed = self
            .with_client(async |client| {
                client
                    .execute(
                        &format!(
                            "UPDATE games SET lease_until = {NOW_MS} + $4 WHERE season = $1 \
                             AND number = $2 AND attempt = $3 AND state = 'running' \
                             AND lease_until >= {NOW_MS}"
                        ),
                        &[&claim.season, &number, &claim.attempt, &lease_ms],
                    )
                    .await
            })
            .await?;
        Ok(changed == 1)
    }

    async fn record(
        &self,
        claim: &Claim,
        record: &GameRecord,
        replay: Option<&[u8]>,
    ) -> Result<bool, SeasonError> {
        let text = encode_record(record)?;
        let number = claim.game.number as i32;
        let changed = self
            .with_client(async |client| {
                client
                    .execute(
                        &format!(
                            "UPDATE games SET state = 'done', record = $4, replay = $5, \
                             finished_ms = {NOW_MS}, lease_until = NULL, error = NULL \
                             WHERE season = $1 AND number = $2 AND attempt = $3 \
                             AND state = 'running' AND lease_until >= {NOW_MS}"
                        ),
                        &[&claim.season, &number, &claim.attempt, &text, &replay],
                    )
                    .await
            })
            .await?;
        Ok(changed == 1)
    }

    async fn give_back(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> Result<GivenBack, SeasonError> {
        let counted = i64::from(error.is_some());
        let max_failures = i64::from(max_failures);
        let number = claim.game.number as i32;
        let row = self
            .with_client(async |client| {
                client
                    .query_opt(
                        "UPDATE games SET failures = failures + $4, \
                         state = CASE WHEN failures + $4 >= $5 THEN 'failed' ELSE 'waiting' END, \
                         error = coalesce($6, error), lease_until = NULL \
                         WHERE season = $1 AND number = $2 AND attempt = $3 AND state = 'running' \
                         RETURNING state",
                        &[
                            &claim.season,
                            &number,
                            &claim.attempt,
                            &counted,
                            &max_failures,
                            &error,
                        ],
                    )
                    .await
            })
            .await?;
        Ok(given_back(
            row.map(|row| row.get::<_, String>(0)).as_deref(),
        ))
    }

    async fn release_worker(&self, season: &str, worker: &str) -> Result<u64, SeasonError> {
        self.with_client(async |client| {
            client
                .execute(
                    "UPDATE games SET state = 'waiting', lease_until = NULL \
                     WHERE season = $1 AND worker = $2 AND state = 'running'",
                    &[&season, &worker],
                )
                .await
        })
        .await
    }

    async fn games(&self, season: &str) -> Result<Vec<GameRow>, SeasonError> {
        let rows = self
            .with_client(async |client| {
                client
                    .query(
                        &format!(
                            "SELECT {GAME_COLUMNS} FROM games WHERE season = $1 ORDER BY number"
                        ),
                        &[&season],
                    )
                    .await
            })
            .await?;
        rows.iter().map(game_row).collect()
    }

    async fn games_after(
        &self,
        season: &str,
        after: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, SeasonError> {
        // `number` is an INTEGER; LIMIT takes a BIGINT.
        let after = i32::try_from(after).unwrap_or(i32::MAX);
        let limit = i64::from(limit);
        let rows = self
            .with_client(async |client| {
                client
                    .query(
                        &format!(
                            "SELECT {GAME_COLUMNS} FROM games WHERE season = $1 \
                             AND number > $2 ORDER BY number LIMIT $3"
                        ),
                        &[&season, &after, &limit],
                    )
                    .await
            })
            .await?;
        rows.iter().map(game_row).collect()
    }

    async fn replay(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        let number = number as i32;
        let row = self
            .with_client(async |client| {
                client
                    .query_opt(
                        "SELECT replay FROM games WHERE season = $1 AND number = $2",
                        &[&season, &number],
                    )
                    .await
            })
            .await?;
        Ok(row.and_then(|row| row.get::<_, Option<Vec<u8>>>(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            without_password("postgres://season:secret@db:5432/league"),
            "postgres://season:***@db:5432/league"
        );
        assert_eq!(
            without_password("postgres://season@db/league"),
            "postgres://season@db/league"
        );
        assert_eq!(
            without_password("postgres://db/league"),
            "postgres://db/league"
        );
    }
}
