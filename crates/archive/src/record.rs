//! A finished game's record ([`GameRecord`]): who played it, how it ended
//! for each player ([`Cause`]), its points, its think times
//! ([`ThinkTimes`]) and where it was played. Every part of Spielleiter that
//! keeps or shows finished games (the match runner's results file, a
//! season's store, the pages) reads and writes this one type.

use std::{path::PathBuf, time::Duration};

use serde::{Deserialize, Serialize};
use spielleiter_protocol::ScoreCause;

/// Why a player's game ended as it did: the server's score causes, and the
/// ends only the match runner sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Cause {
    /// The game ended by the rules.
    Regular,
    /// The player left the game (disconnect, protocol error, or its program
    /// ended during the game).
    Left,
    /// The player broke a rule.
    RuleViolation,
    /// The player's move came after the soft limit.
    SoftTimeout,
    /// The player sent no move within the hard limit.
    HardTimeout,
    /// The server ended the game without a cause of its own (shutdown).
    Unknown,
    /// The player's program ended (or could not be started) before it
    /// joined its game.
    Crashed,
    /// The player's program did not join its game in time.
    NoConnection,
    /// The game took longer than the match allows while this player was on
    /// turn (possible only for players that are not timed).
    Hung,
}

impl Cause {
    /// The cause of a server's score.
    pub fn from_score(cause: ScoreCause) -> Cause {
        match cause {
            ScoreCause::Regular => Cause::Regular,
            ScoreCause::Left => Cause::Left,
            ScoreCause::RuleViolation => Cause::RuleViolation,
            ScoreCause::SoftTimeout => Cause::SoftTimeout,
            ScoreCause::HardTimeout => Cause::HardTimeout,
            ScoreCause::Unknown => Cause::Unknown,
        }
    }

    /// The name in results files and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Regular => "REGULAR",
            Cause::Left => "LEFT",
            Cause::RuleViolation => "RULE_VIOLATION",
            Cause::SoftTimeout => "SOFT_TIMEOUT",
            Cause::HardTimeout => "HARD_TIMEOUT",
            Cause::Unknown => "UNKNOWN",
            Cause::Crashed => "CRASHED",
            Cause::NoConnection => "NO_CONNECTION",
            Cause::Hung => "HUNG",
        }
    }
}

/// One finished game. Lists are indexed by player: `[player 1, player 2,
/// …]` as named on the command line, whichever seat each had.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub game: u32,
    /// The game type id (empty in files of older versions).
    #[serde(default)]
    pub game_type: String,
    /// The players' display names.
    pub players: Vec<String>,
    /// What played for each player (empty in files of older versions).
    #[serde(default)]
    pub commands: Vec<String>,
    /// Which player (from 1) had the first seat (team ONE) and so made the
    /// first move.
    pub starter: u8,
    /// Win points: 2 for a win, 1 for a shared win (a draw), 0 for a loss.
    pub win_points: Vec<u32>,
    /// The game points each player scored (the first of the game's own
    /// score parts; Blokus: the team's points).
    pub points: Vec<u32>,
    /// How the game ended for each player.
    pub causes: Vec<Cause>,
    /// The server's reason texts (empty for a regular end), or the match
    /// runner's explanation of an end it detected.
    pub reasons: Vec<String>,
    /// Wall-clock time from preparing the room to the end of the game.
    pub duration_ms: u64,
    /// The server's room id.
    pub room: String,
    /// The replay file, if the match runner knows where the server writes
    /// replays and found it.
    pub replay: Option<PathBuf>,
    /// Each player's think times in this game, as the server recorded them
    /// in the replay (from the move request written to the move read);
    /// empty when the replay was not found (or in files of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub think_times: Vec<ThinkTimes>,
}

/// One player's think times over some moves: how many, their sum and the
/// longest, in whole microseconds (as the replay records them, and exact
/// through a results file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkTimes {
    /// Moves with a recorded think time.
    pub moves: u32,
    /// Their sum in microseconds.
    pub total_micros: u64,
    /// The longest in microseconds (0 without moves).
    pub max_micros: u64,
}

impl ThinkTimes {
    /// Adds one move's think time.
    pub fn add(&mut self, think_time: Duration) {
        let micros = u64::try_from(think_time.as_micros()).unwrap_or(u64::MAX);
        self.moves = self.moves.saturating_add(1);
        self.total_micros = self.total_micros.saturating_add(micros);
        self.max_micros = self.max_micros.max(micros);
    }

    /// Adds the moves of `other` (read back from a results file, which
    /// may hold any numbers: they saturate rather than overflow).
    pub fn merge(&mut self, other: &ThinkTimes) {
        self.moves = self.moves.saturating_add(other.moves);
        self.total_micros = self.total_micros.saturating_add(other.total_micros);
        self.max_micros = self.max_micros.max(other.max_micros);
    }

    /// The mean think time in milliseconds; `None` without moves.
    pub fn mean_ms(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total_micros as f64 / 1000.0 / f64::from(self.moves))
    }

    /// The longest think time in milliseconds; `None` without moves.
    pub fn max_ms(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.max_micros as f64 / 1000.0)
    }
}

impl GameRecord {
    /// Whether the game ended by the rules for both players.
    pub fn is_regular(&self) -> bool {
        self.causes.iter().all(|&c| c == Cause::Regular)
    }
}

#[cfg(test)]
mod think_time_tests {
    use super::*;

    #[test]
    fn think_times_from_a_results_file_saturate_instead_of_overflowing() {
        let read_back: ThinkTimes = serde_json::from_str(
            r#"{"moves":4294967295,"total_micros":18446744073709551615,"max_micros":7}"#,
        )
        .expect("a results file's think times");
        let mut all = read_back;
        all.merge(&read_back);
        all.add(Duration::from_micros(9));
        assert_eq!(all.moves, u32::MAX);
        assert_eq!(all.total_micros, u64::MAX);
        assert_eq!(all.max_micros, 9);
    }
}
