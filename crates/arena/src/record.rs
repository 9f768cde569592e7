//! What makes two runs the same match ([`MatchKey`]) and which games a
//! run still has to play. A finished game's record is the archive's
//! ([`spielleiter_archive::record`]), re-exported here so that
//! `spielleiter_arena::GameRecord` and `crate::record::…` keep their paths.

use std::collections::BTreeSet;

pub use spielleiter_archive::record::{Cause, GameRecord, ThinkTimes};

/// What makes runs of a match the same match, so that one may resume
/// another: the game, the players' names, and what plays for each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchKey {
    /// The game type id.
    pub game_type: String,
    /// The players' display names, player 1 first.
    pub players: Vec<String>,
    /// What plays for each player, as given (`builtin:greedy`,
    /// `./client --depth 3`).
    pub commands: Vec<String>,
}

impl MatchKey {
    /// The key of the match that played `record`. Records of older versions
    /// lack the game and the commands: those parts are empty.
    pub(crate) fn of(record: &GameRecord) -> MatchKey {
        MatchKey {
            game_type: record.game_type.clone(),
            players: record.players.clone(),
            commands: record.commands.clone(),
        }
    }

    /// Whether a record of `self` belongs to the match `current`. An empty
    /// part (a record of an older version) does not disagree.
    pub(crate) fn fits(&self, current: &MatchKey) -> bool {
        self.players == current.players
            && (self.game_type.is_empty() || self.game_type == current.game_type)
            && (self.commands.is_empty() || self.commands == current.commands)
    }
}

impl std::fmt::Display for MatchKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let players: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, name)| match self.commands.get(i) {
                Some(command) => format!("{name} ({command})"),
                None => name.clone(),
            })
            .collect();
        if !self.game_type.is_empty() {
            write!(f, "{}: ", self.game_type)?;
        }
        write!(f, "{}", players.join(" vs "))
    }
}

/// The game numbers in `1..=total` that `records` do not hold yet, in order.
pub fn missing_games(records: &[GameRecord], total: u32) -> Vec<u32> {
    let done: BTreeSet<u32> = records.iter().map(|r| r.game).collect();
    (1..=total).filter(|g| !done.contains(g)).collect()
}
