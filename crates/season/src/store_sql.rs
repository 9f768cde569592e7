//! The season store's statements, written once for both databases: every
//! [`Database`] (SQLite's file, PostgreSQL's database, either behind
//! [`AnyStore`](crate::AnyStore)) is a [`SeasonStore`] through them. What
//! a finished game leaves besides its result is `archive_sql`'s; what the
//! columns mean is `columns`'.

use std::time::Duration;

use spielleiter_arena::FinishedGame;

use crate::{
    SeasonDefinition, archive_sql,
    columns::{
        GAME_COLUMNS, GameColumns, decode_definition, encode_definition, existing_season,
        given_back, millis, scheduled_game,
    },
    definition::ScheduledGame,
    error::SeasonError,
    sql::{Database, Row, Sql, Value},
    store::{Claim, Created, EXPIRED_MESSAGE, GameRow, GivenBack, SeasonStore},
};

/// How many games one `INSERT` of a new season's schedule writes: three
/// parameters each, far below either database's limit of parameters.
const GAMES_PER_INSERT: usize = 500;

/// The error of a claimed game whose worker's lease ran out.
const LEASE_RAN_OUT: &str = "its worker stopped renewing the lease";

/// A game's number as the schema stores it (`INTEGER`): a number beyond it
/// names no stored game.
fn stored_number(number: u32) -> Option<i64> {
    i32::try_from(number).ok().map(i64::from)
}

/// What a game given up as failed is set back to: waiting for a worker,
/// its count of failures and its error cleared. Its attempt stays, so a
/// worker still holding an old claim on it is refused its record as
/// before.
pub(crate) const RETRY_GAME: &str = "UPDATE games SET state = 'waiting', failures = 0, error = NULL, \
     worker = NULL, lease_until = NULL";

/// Sets the failed games of the season `season` waiting again; how many.
pub(crate) async fn retry_failed_in_season(
    db: &mut Sql<'_>,
    season: &str,
) -> Result<u64, SeasonError> {
    db.execute(
        &format!("{RETRY_GAME} WHERE season = $1 AND state = 'failed'"),
        &[season.into()],
    )
    .await
}

/// Creates season `name` with its schedule, unless a season of that name
/// is there: then its stored definition.
pub(crate) async fn create(
    db: &mut Sql<'_>,
    name: &str,
    definition: &str,
    schedule: &[ScheduledGame],
) -> Result<Option<String>, SeasonError> {
    let inserted = db
        .execute(
            "INSERT INTO seasons (name, definition, created_ms) VALUES ($1, $2, {now_ms}) \
             ON CONFLICT (name) DO NOTHING",
            &[name.into(), definition.into()],
        )
        .await?;
    if inserted == 0 {
        let row = db
            .query_opt(
                "SELECT definition FROM seasons WHERE name = $1",
                &[name.into()],
            )
            .await?;
        return row.map(|row| row.get(0)).transpose();
    }
    for games in schedule.chunks(GAMES_PER_INSERT) {
        let rows: Vec<String> = (0..games.len())
            .map(|i| format!("($1, ${}, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
            .collect();
        let mut values: Vec<Value<'_>> = vec![name.into()];
        for game in games {
            values.extend([game.number, game.table, game.table_game].map(Value::from));
        }
        db.execute(
            &format!(
                "INSERT INTO games (season, number, table_index, table_game) VALUES {}",
                rows.join(", ")
            ),
            &values,
        )
        .await?;
    }
    Ok(None)
}

/// The names of the seasons the store holds, at most `limit`.
async fn season_names(db: &mut Sql<'_>, limit: i64) -> Result<Vec<String>, SeasonError> {
    db.query(
        "SELECT name FROM seasons ORDER BY name LIMIT $1",
        &[limit.into()],
    )
    .await?
    .iter()
    .map(|row| row.get(0))
    .collect()
}

/// Gives up the season's running games whose leases ran out after too
/// many failures, then claims the waiting game with the lowest number (or
/// a running one whose lease ran out), of `tables` when given.
async fn claim(
    db: &mut Sql<'_>,
    season: &str,
    worker: &str,
    lease: Duration,
    max_failures: u32,
    tables: Option<&[u32]>,
) -> Result<Option<Claim>, SeasonError> {
    let [before, after] = EXPIRED_MESSAGE;
    db.execute(
        "UPDATE games SET state = 'failed', failures = failures + 1, \
         error = CAST($3 AS TEXT) || CAST(failures + 1 AS TEXT) || CAST($4 AS TEXT), \
         lease_until = NULL \
         WHERE season = $1 AND state = 'running' AND lease_until < {now_ms} \
         AND failures + 1 >= $2",
        &[
            season.into(),
            i64::from(max_failures).into(),
            before.into(),
            after.into(),
        ],
    )
    .await?;
    // Numbers only: safe to write into the statement.
    let only_tables = match tables {
        None => String::new(),
        Some([]) => "AND 1 = 0 ".to_owned(),
        Some(tables) => {
            let list: Vec<String> = tables.iter().map(u32::to_string).collect();
            format!("AND table_index IN ({}) ", list.join(", "))
        }
    };
    // The next game in a materialised CTE, read once by the update (an
    // uncorrelated sub-select): a subquery joined in FROM may be scanned
    // again per row and, skipping locked rows, claim many.
    let claimed = db
        .query_opt(
            &format!(
                "WITH next AS MATERIALIZED (SELECT number FROM games WHERE season = $1 \
                     AND (state = 'waiting' OR (state = 'running' AND lease_until < {{now_ms}})) \
                     {only_tables}ORDER BY number LIMIT 1 {{skip_locked}}) \
                 UPDATE games SET state = 'running', attempt = attempt + 1, \
                 failures = failures + CASE WHEN state = 'running' THEN 1 ELSE 0 END, \
                 error = CASE WHEN state = 'running' THEN $4 ELSE error END, \
                 worker = $2, lease_until = {{now_ms}} + $3, started_ms = {{now_ms}} \
                 WHERE season = $1 AND number = (SELECT number FROM next) \
                 RETURNING number, table_index, table_game, attempt"
            ),
            &[
                season.into(),
                worker.into(),
                millis(lease).into(),
                LEASE_RAN_OUT.into(),
            ],
        )
        .await?;
    claimed
        .map(|row| {
            Ok(Claim {
                season: season.to_owned(),
                game: scheduled_game(row.get(0)?, row.get(1)?, row.get(2)?)?,
                attempt: row.get(3)?,
            })
        })
        .transpose()
}

/// The claim's fence: its game, under its attempt, still running.
fn fence(claim: &Claim) -> [Value<'_>; 3] {
    [
        claim.season.as_str().into(),
        claim.game.number.into(),
        claim.attempt.into(),
    ]
}

/// A game's row from a row of [`GAME_COLUMNS`].
fn game_row(row: &Row) -> Result<GameRow, SeasonError> {
    GameColumns {
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
    }
    .decode()
}

/// The season's games numbered after `after`, at most `limit`.
async fn games(
    db: &mut Sql<'_>,
    season: &str,
    after: u32,
    limit: i64,
) -> Result<Vec<GameRow>, SeasonError> {
    let Some(after) = stored_number(after) else {
        return Ok(Vec::new());
    };
    db.query(
        &format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE season = $1 AND number > $2 \
             ORDER BY number LIMIT $3"
        ),
        &[season.into(), after.into(), limit.into()],
    )
    .await?
    .iter()
    .map(game_row)
    .collect()
}

impl<D: Database> SeasonStore for D {
    fn describe(&self) -> String {
        self.store_name()
    }

    async fn create(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> Result<Created, SeasonError> {
        let text = encode_definition(definition)?;
        let (owned_name, schedule) = (name.to_owned(), schedule.to_vec());
        let existing = self
            .transaction(move |db| {
                Box::pin(async move { create(db, &owned_name, &text, &schedule).await })
            })
            .await?;
        match existing {
            None => Ok(Created::New),
            Some(text) => existing_season(self.describe(), name, definition, &text),
        }
    }

    async fn season_names(&self) -> Result<Vec<String>, SeasonError> {
        self.run(|db| Box::pin(async move { season_names(db, i64::MAX).await }))
            .await
    }

    async fn definition(&self, name: &str) -> Result<SeasonDefinition, SeasonError> {
        let owned_name = name.to_owned();
        let found = self
            .run(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            "SELECT definition FROM seasons WHERE name = $1",
                            &[owned_name.as_str().into()],
                        )
                        .await?;
                    match row {
                        Some(row) => Ok(Ok(row.get::<String>(0)?)),
                        None => Ok(Err(season_names(db, 20).await?)),
                    }
                })
            })
            .await?;
        match found {
            Ok(text) => decode_definition(&text),
            Err(held) => Err(SeasonError::NoSeason {
                store: self.describe(),
                name: name.to_owned(),
                held,
            }),
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
        let (season, worker) = (season.to_owned(), worker.to_owned());
        let tables = tables.map(<[u32]>::to_vec);
        self.transaction(move |db| {
            Box::pin(async move {
                claim(db, &season, &worker, lease, max_failures, tables.as_deref()).await
            })
        })
        .await
    }

    async fn heartbeat(&self, claim: &Claim, lease: Duration) -> Result<bool, SeasonError> {
        let claim = claim.clone();
        let changed = self
            .run(move |db| {
                Box::pin(async move {
                    let [season, number, attempt] = fence(&claim);
                    db.execute(
                        "UPDATE games SET lease_until = {now_ms} + $4 \
                         WHERE season = $1 AND number = $2 AND attempt = $3 \
                         AND state = 'running' AND lease_until >= {now_ms}",
                        &[season, number, attempt, millis(lease).into()],
                    )
                    .await
                })
            })
            .await?;
        Ok(changed == 1)
    }

    async fn record(&self, claim: &Claim, game: &FinishedGame) -> Result<bool, SeasonError> {
        let claim = claim.clone();
        let packed = archive_sql::pack(self.describe(), game).await?;
        self.transaction(move |db| {
            Box::pin(async move { archive_sql::record(db, &claim, &packed).await })
        })
        .await
    }

    async fn give_back(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> Result<GivenBack, SeasonError> {
        let (claim, error) = (claim.clone(), error.map(str::to_owned));
        let state = self
            .run(move |db| {
                Box::pin(async move {
                    let [season, number, attempt] = fence(&claim);
                    let row = db
                        .query_opt(
                            "UPDATE games SET failures = failures + $4, \
                             state = CASE WHEN failures + $4 >= $5 THEN 'failed' ELSE 'waiting' END, \
                             error = coalesce($6, error), lease_until = NULL \
                             WHERE season = $1 AND number = $2 AND attempt = $3 \
                             AND state = 'running' RETURNING state",
                            &[
                                season,
                                number,
                                attempt,
                                error.is_some().into(),
                                i64::from(max_failures).into(),
                                error.as_deref().into(),
                            ],
                        )
                        .await?;
                    row.map(|row| row.get::<String>(0)).transpose()
                })
            })
            .await?;
        Ok(given_back(state.as_deref()))
    }

    async fn release_worker(&self, season: &str, worker: &str) -> Result<u64, SeasonError> {
        let (season, worker) = (season.to_owned(), worker.to_owned());
        self.run(move |db| {
            Box::pin(async move {
                db.execute(
                    "UPDATE games SET state = 'waiting', lease_until = NULL \
                     WHERE season = $1 AND worker = $2 AND state = 'running'",
                    &[season.as_str().into(), worker.as_str().into()],
                )
                .await
            })
        })
        .await
    }

    async fn retry_failed(&self, season: &str) -> Result<u64, SeasonError> {
        let season = season.to_owned();
        self.run(move |db| Box::pin(async move { retry_failed_in_season(db, &season).await }))
            .await
    }

    async fn games(&self, season: &str) -> Result<Vec<GameRow>, SeasonError> {
        let season = season.to_owned();
        self.run(move |db| Box::pin(async move { games(db, &season, 0, i64::MAX).await }))
            .await
    }

    async fn games_after(
        &self,
        season: &str,
        after: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, SeasonError> {
        let season = season.to_owned();
        self.run(move |db| {
            Box::pin(async move { games(db, &season, after, i64::from(limit)).await })
        })
        .await
    }

    async fn replay(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        let Some(number) = stored_number(number) else {
            return Ok(None);
        };
        let season = season.to_owned();
        self.run(move |db| {
            Box::pin(async move {
                let row = db
                    .query_opt(
                        "SELECT replay FROM games WHERE season = $1 AND number = $2",
                        &[season.as_str().into(), number.into()],
                    )
                    .await?;
                Ok(row.map(|row| row.get(0)).transpose()?.flatten())
            })
        })
        .await
    }

    async fn player_log(
        &self,
        season: &str,
        number: u32,
        player: usize,
    ) -> Result<Option<Vec<u8>>, SeasonError> {
        let (Some(number), Ok(player)) = (stored_number(number), i32::try_from(player)) else {
            return Ok(None);
        };
        let season = season.to_owned();
        self.run(move |db| {
            Box::pin(async move { archive_sql::player_log(db, &season, number, player).await })
        })
        .await
    }

    async fn wire_log(&self, season: &str, number: u32) -> Result<Option<Vec<u8>>, SeasonError> {
        let Some(number) = stored_number(number) else {
            return Ok(None);
        };
        let season = season.to_owned();
        self.run(move |db| {
            Box::pin(async move { archive_sql::wire_log(db, &season, number).await })
        })
        .await
    }

    async fn logs_of(&self, season: &str, number: u32) -> Result<(Vec<usize>, bool), SeasonError> {
        let Some(number) = stored_number(number) else {
            return Ok((Vec::new(), false));
        };
        let season = season.to_owned();
        self.run(move |db| Box::pin(async move { archive_sql::logs_of(db, &season, number).await }))
            .await
    }

    async fn more_games(&self, season: &str) -> Result<bool, SeasonError> {
        let season = season.to_owned();
        self.transaction(move |db| {
            Box::pin(async move { crate::knockout_sql::more_games(db, &season).await })
        })
        .await
    }
}
