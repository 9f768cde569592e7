//! The season store's part of the game archive: the SQL that stores a
//! finished season game with everything it left, and reads each part back,
//! for both drivers. The result and the gzipped replay stay in `games`
//! (schema version 1); each player's log and the wire log get tables of
//! their own (schema version 2, in `store`'s list of migrations). A game is written in one
//! transaction under its worker's claim: the result's fenced update, and
//! only when it changed the game's row, the logs.
//!
//! Every statement is written once for both databases (see [`crate::sql`]).

use spielleiter_archive::{FinishedGame, capped_log, publish::gzipped};

use crate::{columns::encode_record, error::SeasonError, sql::Sql, store::Claim};

/// A finished game as its columns store it: the record as JSON, the replay
/// and the wire log gzipped, the players' logs capped. Made on a blocking
/// thread ([`pack`]): compressing a replay is work for a core.
#[derive(Debug)]
pub(crate) struct PackedGame {
    pub record: String,
    pub replay: Option<Vec<u8>>,
    /// (player, log) for each player with a log.
    pub player_logs: Vec<(i32, Vec<u8>)>,
    pub wire_log: Option<Vec<u8>>,
}

impl PackedGame {
    fn of(game: &FinishedGame) -> Result<PackedGame, SeasonError> {
        Ok(PackedGame {
            record: encode_record(&game.record)?,
            replay: game.replay.as_deref().map(gzipped),
            player_logs: game
                .player_logs
                .iter()
                .enumerate()
                .filter_map(|(player, log)| {
                    let log = log.as_ref()?;
                    let player = i32::try_from(player).ok()?;
                    Some((player, capped_log(log.clone(), log.len() as u64)))
                })
                .collect(),
            wire_log: game.wire_log.as_deref().map(gzipped),
        })
    }
}

/// `game` packed for its columns, on the runtime's blocking threads.
///
/// # Errors
///
/// The record cannot be encoded, or the thread failed.
pub(crate) async fn pack(store: String, game: &FinishedGame) -> Result<PackedGame, SeasonError> {
    let game = game.clone();
    tokio::task::spawn_blocking(move || PackedGame::of(&game))
        .await
        .map_err(|e| SeasonError::Database {
            store,
            cause: format!("the packing thread failed: {e}"),
        })?
}

/// Stores the claimed game's result, replay and logs, only under the
/// claim's attempt and an unexpired lease; false (nothing written)
/// otherwise. Run in a transaction: the logs are written only with the
/// result.
pub(crate) async fn record(
    db: &mut Sql<'_>,
    claim: &Claim,
    game: &PackedGame,
) -> Result<bool, SeasonError> {
    let (season, number) = (claim.season.as_str(), claim.game.number);
    let changed = db
        .execute(
            "UPDATE games SET state = 'done', record = $4, replay = $5, \
             finished_ms = {now_ms}, lease_until = NULL, error = NULL \
             WHERE season = $1 AND number = $2 AND attempt = $3 \
             AND state = 'running' AND lease_until >= {now_ms}",
            &[
                season.into(),
                number.into(),
                claim.attempt.into(),
                game.record.as_str().into(),
                game.replay.as_ref().into(),
            ],
        )
        .await?;
    if changed != 1 {
        return Ok(false);
    }
    for (player, log) in &game.player_logs {
        db.execute(
            "INSERT INTO game_player_logs (season, number, player, log) VALUES ($1, $2, $3, $4)",
            &[season.into(), number.into(), (*player).into(), log.into()],
        )
        .await?;
    }
    if let Some(log) = &game.wire_log {
        db.execute(
            "INSERT INTO game_wire_logs (season, number, log) VALUES ($1, $2, $3)",
            &[season.into(), number.into(), log.into()],
        )
        .await?;
    }
    Ok(true)
}

/// The log of player `player` of game `number`, if stored.
pub(crate) async fn player_log(
    db: &mut Sql<'_>,
    season: &str,
    number: i64,
    player: i32,
) -> Result<Option<Vec<u8>>, SeasonError> {
    let row = db
        .query_opt(
            "SELECT log FROM game_player_logs WHERE season = $1 AND number = $2 AND player = $3",
            &[season.into(), number.into(), player.into()],
        )
        .await?;
    row.map(|row| row.get(0)).transpose()
}

/// The gzipped wire log of game `number`, if stored.
pub(crate) async fn wire_log(
    db: &mut Sql<'_>,
    season: &str,
    number: i64,
) -> Result<Option<Vec<u8>>, SeasonError> {
    let row = db
        .query_opt(
            "SELECT log FROM game_wire_logs WHERE season = $1 AND number = $2",
            &[season.into(), number.into()],
        )
        .await?;
    row.map(|row| row.get(0)).transpose()
}

/// Which logs game `number` keeps: its players' (in order) and whether the
/// wire log (a row of player -1), in one query.
pub(crate) async fn logs_of(
    db: &mut Sql<'_>,
    season: &str,
    number: i64,
) -> Result<(Vec<usize>, bool), SeasonError> {
    let rows = db
        .query(
            "SELECT player FROM game_player_logs WHERE season = $1 AND number = $2 \
             UNION ALL SELECT -1 FROM game_wire_logs WHERE season = $1 AND number = $2 \
             ORDER BY 1",
            &[season.into(), number.into()],
        )
        .await?;
    let mut wire = false;
    let mut players = Vec::new();
    for row in rows {
        match usize::try_from(row.get::<i64>(0)?) {
            Ok(player) => players.push(player),
            Err(_) => wire = true,
        }
    }
    Ok((players, wire))
}
