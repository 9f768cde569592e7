//! What a store's columns mean, the same for every driver: a season's
//! definition and a game's result as JSON text, a game's row and its place
//! in the schedule from the plain values (integers and texts) that SQLite
//! and PostgreSQL both give, and what a give-back's returned state says.
//! The drivers only read and write the columns; their meaning is decided
//! once, here.

use std::time::Duration;

use serde::{Serialize, de::DeserializeOwned};
use spielleiter_arena::GameRecord;

use crate::{
    SeasonDefinition,
    definition::ScheduledGame,
    error::SeasonError,
    store::{Created, GameRow, GameState, GivenBack},
};

/// The columns of `games` that [`GameColumns`] holds, in its order: the
/// list every driver's query of game rows selects.
pub(crate) const GAME_COLUMNS: &str = "number, table_index, table_game, state, attempt, \
     failures, worker, record, error, started_ms, finished_ms";

/// `value` as the JSON text a column stores; `what` names it in the error.
fn to_json<T: Serialize>(what: &'static str, value: &T) -> Result<String, SeasonError> {
    serde_json::to_string(value).map_err(|e| SeasonError::Corrupt {
        what,
        cause: e.to_string(),
    })
}

/// The value a column's JSON text stores; `what` names it in the error.
fn from_json<T: DeserializeOwned>(what: &'static str, text: &str) -> Result<T, SeasonError> {
    serde_json::from_str(text).map_err(|e| SeasonError::Corrupt {
        what,
        cause: e.to_string(),
    })
}

/// A definition as stored.
pub(crate) fn encode_definition(definition: &SeasonDefinition) -> Result<String, SeasonError> {
    to_json("season definition", definition)
}

/// Reads a stored definition.
pub(crate) fn decode_definition(text: &str) -> Result<SeasonDefinition, SeasonError> {
    from_json("season definition", text)
}

/// A result as stored.
pub(crate) fn encode_record(record: &GameRecord) -> Result<String, SeasonError> {
    to_json("game result", record)
}

/// Reads a stored result.
pub(crate) fn decode_record(text: &str) -> Result<GameRecord, SeasonError> {
    from_json("game result", text)
}

/// What creating season `name` with `definition` did where `store`
/// already held a season of that name, stored as `existing`: nothing if
/// the two are the same season, otherwise an error naming the difference.
pub(crate) fn existing_season(
    store: String,
    name: &str,
    definition: &SeasonDefinition,
    existing: &str,
) -> Result<Created, SeasonError> {
    match definition.difference(&decode_definition(existing)?) {
        None => Ok(Created::Existing),
        Some(difference) => Err(SeasonError::OtherDefinition {
            store,
            name: name.to_owned(),
            difference,
        }),
    }
}

/// A game's place in the schedule from its `number`, `table_index` and
/// `table_game` columns.
pub(crate) fn scheduled_game(
    number: i64,
    table: i64,
    table_game: i64,
) -> Result<ScheduledGame, SeasonError> {
    // The schema keeps them INTEGER; only a store changed by hand holds one
    // out of range, and that is reported, not wrapped.
    let whole = |what: &'static str, value: i64| {
        u32::try_from(value).map_err(|_| SeasonError::Corrupt {
            what,
            cause: format!("{value} is no game number"),
        })
    };
    Ok(ScheduledGame {
        number: whole("game number", number)?,
        table: whole("game table", table)?,
        table_game: whole("game of a table", table_game)?,
    })
}

/// A game's row as the store's columns give it ([`GAME_COLUMNS`]).
#[derive(Clone, Debug)]
pub(crate) struct GameColumns {
    pub number: i64,
    pub table: i64,
    pub table_game: i64,
    pub state: String,
    pub attempt: i64,
    pub failures: i64,
    pub worker: Option<String>,
    pub record: Option<String>,
    pub error: Option<String>,
    pub started_ms: Option<i64>,
    pub finished_ms: Option<i64>,
}

impl GameColumns {
    /// The game's row.
    pub(crate) fn decode(self) -> Result<GameRow, SeasonError> {
        Ok(GameRow {
            game: scheduled_game(self.number, self.table, self.table_game)?,
            state: GameState::parse(&self.state)?,
            attempt: self.attempt,
            failures: self.failures,
            worker: self.worker,
            record: self.record.as_deref().map(decode_record).transpose()?,
            error: self.error,
            started_ms: self.started_ms,
            finished_ms: self.finished_ms,
        })
    }
}

/// What giving a game back did, from the state the update returned (none:
/// the claim was no longer valid and no row changed).
pub(crate) fn given_back(state: Option<&str>) -> GivenBack {
    match state {
        None => GivenBack::Stale,
        Some("failed") => GivenBack::Failed,
        Some(_) => GivenBack::Waiting,
    }
}

/// Milliseconds of a duration, as stored.
pub(crate) fn millis(duration: Duration) -> i64 {
    duration.as_millis().try_into().unwrap_or(i64::MAX)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use super::*;

    fn columns() -> GameColumns {
        GameColumns {
            number: 7,
            table: 2,
            table_game: 3,
            state: "running".to_owned(),
            attempt: 4,
            failures: 1,
            worker: Some("w1".to_owned()),
            record: None,
            error: Some("lost".to_owned()),
            started_ms: Some(1_000),
            finished_ms: None,
        }
    }

    #[test]
    fn a_game_row_is_read_from_its_columns() {
        let row = columns().decode().unwrap();
        assert_eq!(
            row.game,
            ScheduledGame {
                number: 7,
                table: 2,
                table_game: 3
            }
        );
        assert_eq!(row.state, GameState::Running);
        assert_eq!((row.attempt, row.failures), (4, 1));
        assert_eq!(row.worker.as_deref(), Some("w1"));
        assert!(row.record.is_none());
        assert_eq!(row.error.as_deref(), Some("lost"));
        assert_eq!((row.started_ms, row.finished_ms), (Some(1_000), None));
    }

    #[test]
    fn columns_out_of_range_are_reported_not_wrapped() {
        let negative = GameColumns {
            number: -1,
            ..columns()
        };
        assert!(matches!(
            negative.decode(),
            Err(SeasonError::Corrupt {
                what: "game number",
                ..
            })
        ));
        let unknown_state = GameColumns {
            state: "lost".to_owned(),
            ..columns()
        };
        assert!(matches!(
            unknown_state.decode(),
            Err(SeasonError::Corrupt {
                what: "game state",
                ..
            })
        ));
        let broken_record = GameColumns {
            record: Some("{".to_owned()),
            ..columns()
        };
        assert!(matches!(
            broken_record.decode(),
            Err(SeasonError::Corrupt {
                what: "game result",
                ..
            })
        ));
        assert!(matches!(
            scheduled_game(1, 1 << 40, 0),
            Err(SeasonError::Corrupt {
                what: "game table",
                ..
            })
        ));
    }

    #[test]
    fn a_returned_state_says_what_giving_back_did() {
        assert_eq!(given_back(None), GivenBack::Stale);
        assert_eq!(given_back(Some("failed")), GivenBack::Failed);
        assert_eq!(given_back(Some("waiting")), GivenBack::Waiting);
    }
}
