//! An encounter (Begegnung): games between two teams' frozen entries, the
//! first move alternating, each game's seed from the contest's seed and
//! the encounter's [`EncounterKey`] alone; game outcomes give win points,
//! more wins win the encounter (equal: a draw), and the encounter gives
//! ranking points (decisions.md §31). A knockout encounter cannot end
//! drawn: it goes on two games at a time up to a cap, then the game points
//! decide, then the lot.
//!
//! [`Encounter::progress`] is the whole life of an encounter as a pure
//! function: given the results of the games scheduled so far, it says
//! which games to schedule next, or that the encounter is decided and how.

use core::ops::Range;

use serde::{Deserialize, Serialize};

use crate::{
    ContestSettings, EncounterKey, Outcome, Pairing, StandIn, VersionId,
    seed::{Stream, split_mix},
};

/// Who plays a side of an encounter, frozen at the matchday's deadline
/// (decisions.md §32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "version")]
pub enum Entry {
    /// The team's version that was active at the deadline.
    Version(VersionId),
    /// The built-in `random` bot, for a team without an active version.
    StandIn,
    /// Nobody: every game is lost unplayed (no active version and the
    /// setting says forfeit, or the team is disabled).
    Forfeit,
}

impl Entry {
    /// The entry of a team at a deadline: its active version; without one
    /// the stand-in the settings name; a disabled team forfeits.
    pub fn freeze(active: Option<VersionId>, team_enabled: bool, stand_in: StandIn) -> Entry {
        match (team_enabled, active, stand_in) {
            (false, _, _) => Entry::Forfeit,
            (true, Some(version), _) => Entry::Version(version),
            (true, None, StandIn::RandomBot) => Entry::StandIn,
            (true, None, StandIn::Forfeit) => Entry::Forfeit,
        }
    }

    /// Whether the entry plays games.
    pub const fn plays(&self) -> bool {
        !matches!(self, Entry::Forfeit)
    }
}

/// A side of an encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Moves first in the first game.
    Home,
    /// Moves first in the second game.
    Away,
}

impl Side {
    /// Both sides, home first: the order of every `[T; 2]` by side.
    pub const BOTH: [Side; 2] = [Side::Home, Side::Away];

    /// 0 for home, 1 for away.
    pub const fn index(self) -> usize {
        match self {
            Side::Home => 0,
            Side::Away => 1,
        }
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Home => Side::Away,
            Side::Away => Side::Home,
        }
    }

    /// The side that moves first in game `game` (from 0): home in the
    /// even-numbered games from 0, away in the others, also in a knockout
    /// encounter's extra games.
    pub const fn first_in(game: u32) -> Side {
        if game.is_multiple_of(2) {
            Side::Home
        } else {
            Side::Away
        }
    }
}

/// Whether an encounter is a round-robin one or a knockout one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EncounterKind {
    /// A matchday's: may end drawn.
    RoundRobin,
    /// The final's: goes on until somebody wins.
    Knockout,
}

/// An encounter as scheduled: where it stands, who meets, and the entries
/// frozen at the deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    /// Its name in the contest (seeds and lot derive from it).
    pub key: EncounterKey,
    /// The two teams; home moves first in game 0.
    pub pairing: Pairing,
    /// Who plays for each side, home first.
    pub entries: [Entry; 2],
    /// Round-robin or knockout.
    pub kind: EncounterKind,
}

/// One game of an encounter, ready for a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GamePlan {
    /// The game's index in the encounter, from 0.
    pub index: u32,
    /// The side in the first seat (moves first).
    pub first: Side,
    /// The entries in seat order: the first seat's, then the second's.
    pub seats: [Entry; 2],
    /// The game's seed (its start piece or line, the stand-in's seed).
    pub seed: u64,
}

impl GamePlan {
    /// The seed of the stand-in bot in `seat` of this game: from the
    /// game's seed and the seat alone.
    pub const fn stand_in_seed(&self, seat: usize) -> u64 {
        split_mix(self.seed ^ split_mix(seat as u64 + 1))
    }
}

/// How one game ended for the encounter: who won (or a draw) and each
/// side's game points (the game's first score part, e.g. Blokus points or
/// Ostseeschach ambers), home first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning side; `None` for a draw.
    pub winner: Option<Side>,
    /// Game points, home first.
    pub points: [i64; 2],
}

impl GameResult {
    /// The result of a game played with `first` in the first seat, from
    /// the result's parts in seat order: the win points the server gave
    /// each seat (more wins; equal is a draw) and each seat's game points.
    pub fn from_seats(first: Side, win_points: [u32; 2], points: [i64; 2]) -> GameResult {
        let seat_winner = match win_points[0].cmp(&win_points[1]) {
            core::cmp::Ordering::Greater => Some(0),
            core::cmp::Ordering::Less => Some(1),
            core::cmp::Ordering::Equal => None,
        };
        let side_of_seat = |seat: usize| if seat == 0 { first } else { first.other() };
        let mut by_side = [0; 2];
        by_side[side_of_seat(0).index()] = points[0];
        by_side[side_of_seat(1).index()] = points[1];
        GameResult {
            winner: seat_winner.map(side_of_seat),
            points: by_side,
        }
    }

    /// How the game ended for `side`.
    pub fn outcome(&self, side: Side) -> Outcome {
        match self.winner {
            None => Outcome::Draw,
            Some(winner) if winner == side => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }
}

/// How an encounter ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "side")]
pub enum EncounterOutcome {
    /// `Side` won.
    Won(Side),
    /// Equal wins (round-robin only).
    Drawn,
    /// Both sides forfeited (round-robin only): both lose.
    BothForfeited,
}

/// What decided an encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// The games won (or equal: a draw).
    Games,
    /// A forfeit.
    Forfeit,
    /// Knockout: the game points after the last game.
    GamePoints,
    /// Knockout: the lot, after equal wins and equal game points.
    Lot,
}

/// An encounter's result: what the standings count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EncounterResult {
    /// Who won.
    pub outcome: EncounterOutcome,
    /// How.
    pub decided_by: DecidedBy,
    /// Games counted: played, or lost unplayed by a forfeit.
    pub games: u32,
    /// Games played.
    pub played: u32,
    /// Games won, home first (a forfeit's games are won by the other side).
    pub wins: [u32; 2],
    /// Games drawn.
    pub draws: u32,
    /// Win points, home first.
    pub win_points: [u32; 2],
    /// Game points over the played games, home first.
    pub points: [i64; 2],
    /// Ranking points, home first.
    pub ranking_points: [u32; 2],
}

impl EncounterResult {
    /// How the encounter ended for `side`.
    pub fn outcome(&self, side: Side) -> Outcome {
        match self.outcome {
            EncounterOutcome::Won(winner) if winner == side => Outcome::Win,
            EncounterOutcome::Won(_) | EncounterOutcome::BothForfeited => Outcome::Loss,
            EncounterOutcome::Drawn => Outcome::Draw,
        }
    }

    /// The winning side, if any.
    pub fn winner(&self) -> Option<Side> {
        match self.outcome {
            EncounterOutcome::Won(side) => Some(side),
            EncounterOutcome::Drawn | EncounterOutcome::BothForfeited => None,
        }
    }
}

/// What an encounter needs next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Schedule these games (indices; their plans from
    /// [`Encounter::game`]).
    Play(Range<u32>),
    /// Some scheduled games have no result yet.
    Waiting {
        /// How many.
        missing: u32,
    },
    /// Decided.
    Decided(EncounterResult),
}

/// Results that do not fit the encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncounterError {
    /// More games than the encounter can have.
    #[error("{games} games; this encounter has at most {max}")]
    TooManyGames {
        /// Games given.
        games: u32,
        /// The most it can have.
        max: u32,
    },
    /// A forfeited encounter has no games.
    #[error("a forfeited encounter has no games, but {0} were given")]
    GamesOfAForfeit(u32),
}

impl Encounter {
    /// Game `index` (from 0): who sits first and its seed.
    pub fn game(&self, index: u32, contest_seed: u64) -> GamePlan {
        let first = Side::first_in(index);
        GamePlan {
            index,
            first,
            seats: [
                self.entries[first.index()],
                self.entries[first.other().index()],
            ],
            seed: self.key.game_seed(contest_seed, index),
        }
    }

    /// The most games this encounter can have under `settings`.
    pub fn max_games(&self, settings: &ContestSettings) -> u32 {
        match self.kind {
            EncounterKind::RoundRobin => settings.games_per_encounter,
            EncounterKind::Knockout => settings.knockout_max_games,
        }
    }

    /// What the encounter needs next, given `games`: one element per game
    /// scheduled so far (by index), its result or `None` while it is being
    /// played.
    ///
    /// # Errors
    ///
    /// More games than the encounter can have, or games of a forfeit.
    pub fn progress(
        &self,
        settings: &ContestSettings,
        contest_seed: u64,
        games: &[Option<GameResult>],
    ) -> Result<Progress, EncounterError> {
        let scheduled = u32::try_from(games.len()).unwrap_or(u32::MAX);
        let max = self.max_games(settings);
        if scheduled > max {
            return Err(EncounterError::TooManyGames {
                games: scheduled,
                max,
            });
        }
        if !self.entries[0].plays() || !self.entries[1].plays() {
            if scheduled > 0 {
                return Err(EncounterError::GamesOfAForfeit(scheduled));
            }
            return Ok(Progress::Decided(self.forfeited(settings, contest_seed)));
        }
        let missing = games.iter().filter(|g| g.is_none()).count() as u32;
        if missing > 0 {
            return Ok(Progress::Waiting { missing });
        }
        let regular = settings.games_per_encounter;
        if scheduled < regular {
            return Ok(Progress::Play(scheduled..regular));
        }
        let results: Vec<GameResult> = games.iter().flatten().copied().collect();
        let mut result = tally(&results, settings);
        let extension = settings.knockout_extension_games;
        // The points after the regular games at which a knockout encounter
        // may end: regular, regular + extension, … up to the cap.
        let past_checkpoint = (scheduled - regular) % extension;
        match self.kind {
            EncounterKind::RoundRobin => result.outcome = by_wins(&result),
            EncounterKind::Knockout if past_checkpoint != 0 => {
                return Ok(Progress::Play(
                    scheduled..(scheduled - past_checkpoint + extension).min(max),
                ));
            }
            EncounterKind::Knockout => {
                if result.wins[0] != result.wins[1] {
                    let winner = if result.wins[0] > result.wins[1] {
                        Side::Home
                    } else {
                        Side::Away
                    };
                    result.outcome = EncounterOutcome::Won(winner);
                } else if scheduled + extension <= max {
                    return Ok(Progress::Play(scheduled..scheduled + extension));
                } else if result.points[0] != result.points[1] {
                    let winner = if result.points[0] > result.points[1] {
                        Side::Home
                    } else {
                        Side::Away
                    };
                    result.outcome = EncounterOutcome::Won(winner);
                    result.decided_by = DecidedBy::GamePoints;
                } else {
                    result.outcome = EncounterOutcome::Won(self.lot(contest_seed));
                    result.decided_by = DecidedBy::Lot;
                }
            }
        }
        for side in Side::BOTH {
            result.ranking_points[side.index()] = settings.ranking_points.of(result.outcome(side));
        }
        Ok(Progress::Decided(result))
    }

    /// The side the lot picks (knockout ties only).
    fn lot(&self, contest_seed: u64) -> Side {
        if Stream::new(self.key.lot_seed(contest_seed)).below(2) == 0 {
            Side::Home
        } else {
            Side::Away
        }
    }

    /// The result of an encounter in which a side forfeits: its games are
    /// lost unplayed; both forfeiting lose both (a knockout's lot still
    /// names somebody to go on).
    fn forfeited(&self, settings: &ContestSettings, contest_seed: u64) -> EncounterResult {
        let games = settings.games_per_encounter;
        let (outcome, decided_by) = match (self.entries[0].plays(), self.entries[1].plays()) {
            (true, _) => (EncounterOutcome::Won(Side::Home), DecidedBy::Forfeit),
            (false, true) => (EncounterOutcome::Won(Side::Away), DecidedBy::Forfeit),
            (false, false) => match self.kind {
                EncounterKind::RoundRobin => (EncounterOutcome::BothForfeited, DecidedBy::Forfeit),
                EncounterKind::Knockout => (
                    EncounterOutcome::Won(self.lot(contest_seed)),
                    DecidedBy::Lot,
                ),
            },
        };
        let mut result = EncounterResult {
            outcome,
            decided_by,
            games,
            played: 0,
            wins: [0; 2],
            draws: 0,
            win_points: [0; 2],
            points: [0; 2],
            ranking_points: [0; 2],
        };
        for side in Side::BOTH {
            let plays = self.entries[side.index()].plays();
            let game_outcome = if plays { Outcome::Win } else { Outcome::Loss };
            if plays {
                result.wins[side.index()] = games;
            }
            result.win_points[side.index()] = games * settings.game_points.of(game_outcome);
            result.ranking_points[side.index()] = settings.ranking_points.of(result.outcome(side));
        }
        result
    }
}

/// Won by more wins, drawn by equal wins.
fn by_wins(result: &EncounterResult) -> EncounterOutcome {
    match result.wins[0].cmp(&result.wins[1]) {
        core::cmp::Ordering::Greater => EncounterOutcome::Won(Side::Home),
        core::cmp::Ordering::Less => EncounterOutcome::Won(Side::Away),
        core::cmp::Ordering::Equal => EncounterOutcome::Drawn,
    }
}

/// The result of a friendly encounter's `games` (the challenger home):
/// by wins, equal wins a draw, and no ranking points, as a friendly never
/// counts.
pub(crate) fn friendly_result(games: &[GameResult], settings: &ContestSettings) -> EncounterResult {
    let mut result = tally(games, settings);
    result.outcome = by_wins(&result);
    result
}

/// The sums over played games, outcome not yet decided.
fn tally(results: &[GameResult], settings: &ContestSettings) -> EncounterResult {
    let mut result = EncounterResult {
        outcome: EncounterOutcome::Drawn,
        decided_by: DecidedBy::Games,
        games: results.len() as u32,
        played: results.len() as u32,
        wins: [0; 2],
        draws: 0,
        win_points: [0; 2],
        points: [0; 2],
        ranking_points: [0; 2],
    };
    for game in results {
        match game.winner {
            Some(side) => result.wins[side.index()] += 1,
            None => result.draws += 1,
        }
        for side in Side::BOTH {
            let i = side.index();
            result.win_points[i] += settings.game_points.of(game.outcome(side));
            result.points[i] = result.points[i].saturating_add(game.points[i]);
        }
    }
    result
}
