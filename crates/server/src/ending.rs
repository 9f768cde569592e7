//! How a game ended, and what that means for each player's score: cause,
//! reason, win points, and who is named winner.
//!
//! The rules decide a regular end (points and winners come from the game);
//! every irregular end has an offender who gets nothing while everybody else
//! wins (decisions.md §6, §9). A cancelled game has no winner.

use spielleiter_protocol::{dialect::LeaveCause, result::ScoreCause};
use spielleiter_rules::{AnyGame, Game, PlayerSet, ScoreParts};

use crate::clock::Timeout;

/// How a game ended.
#[derive(Clone, Debug)]
pub enum Ending {
    /// By the rules.
    Regular,
    /// A player broke a rule or sent a move nobody asked for.
    Violation {
        /// The offender's seat.
        seat: usize,
        /// The reason text of the offender's score.
        reason: String,
        /// The error packet the offender gets after `left`, before `close`,
        /// if the season sends one.
        error_packet: Option<bytes::Bytes>,
    },
    /// A player disconnected or broke the protocol.
    Left {
        /// The leaver's seat.
        seat: usize,
        /// Why.
        cause: LeaveCause,
    },
    /// A player ran out of time.
    Timeout {
        /// The late player's seat.
        seat: usize,
        /// Soft (late move) or hard (no move).
        kind: Timeout,
    },
    /// An administrator cancelled the game.
    Cancelled,
    /// A prepared room's reserved players did not all come in time.
    Expired,
    /// The server shut down before the game ended.
    Shutdown,
}

/// One player's part of the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatScore {
    /// Why.
    pub cause: ScoreCause,
    /// The reason text, as the wire carries it: empty for regular scores
    /// unless the game names why the seat stopped ([`Game::regular_reason`]).
    pub reason: String,
    /// 2 for a win, 1 for a draw, 0 otherwise.
    pub win_points: u32,
    /// The game's own score parts for this player.
    pub parts: ScoreParts,
}

/// Reason texts for the irregular causes; the wire layer supplies the
/// wording of the room's dialect.
pub trait ReasonTexts {
    /// The reason of the player of `seat`, who left.
    fn left(&self, seat: usize, cause: LeaveCause) -> String;
    /// The reason of the player of `seat` after a soft or hard timeout.
    fn timeout(&self, seat: usize, kind: Timeout) -> String;
    /// The reason when the server ended the game.
    fn shutdown(&self) -> String;
    /// The reason when an administrator cancelled the game.
    fn cancelled(&self) -> String;
    /// The reason when a prepared room expired before its game began:
    /// only Spielleiter has that, in every season's words.
    fn expired(&self) -> String {
        crate::texts::reservations_expired_reason()
    }
}

impl Ending {
    /// Where the ending is in [`END_CAUSES`](crate::stats::END_CAUSES),
    /// the labels the metrics count it by.
    pub fn cause_index(&self) -> usize {
        match self {
            Ending::Regular => 0,
            Ending::Violation { .. } => 1,
            Ending::Left { .. } => 2,
            Ending::Timeout {
                kind: Timeout::Soft,
                ..
            } => 3,
            Ending::Timeout {
                kind: Timeout::Hard,
                ..
            } => 4,
            Ending::Cancelled => 5,
            Ending::Expired => 6,
            Ending::Shutdown => 7,
        }
    }

    /// The seat that ended the game irregularly, if any.
    pub fn offender(&self) -> Option<usize> {
        match self {
            Ending::Violation { seat, .. }
            | Ending::Left { seat, .. }
            | Ending::Timeout { seat, .. } => Some(*seat),
            Ending::Regular | Ending::Cancelled | Ending::Expired | Ending::Shutdown => None,
        }
    }

    /// Whether the game ended by its rules.
    pub fn is_regular(&self) -> bool {
        matches!(self, Ending::Regular)
    }

    /// A short description for logs.
    pub fn describe(&self) -> String {
        match self {
            Ending::Regular => "regular".to_owned(),
            Ending::Violation { seat, reason, .. } => {
                format!("seat {seat} violated a rule: {reason}")
            }
            Ending::Left { seat, cause } => format!("seat {seat} left ({})", cause.name()),
            Ending::Timeout { seat, kind } => format!("seat {seat} timed out ({kind:?})"),
            Ending::Cancelled => "cancelled".to_owned(),
            Ending::Expired => "reservations expired".to_owned(),
            Ending::Shutdown => "server shutdown".to_owned(),
        }
    }

    /// The scores of all seats, in seat order, and the seats named winner.
    pub fn scores(&self, game: &AnyGame, texts: &impl ReasonTexts) -> (Vec<SeatScore>, PlayerSet) {
        let players = game.player_count();
        let winners = match self {
            Ending::Regular => game.winners(),
            Ending::Cancelled | Ending::Expired | Ending::Shutdown => PlayerSet::EMPTY,
            _ => (0..players)
                .filter(|&s| Some(s) != self.offender())
                .collect(),
        };
        let scores = (0..players)
            .map(|seat| {
                let (cause, reason) = match self {
                    Ending::Violation {
                        seat: s, reason, ..
                    } if *s == seat => (ScoreCause::RuleViolation, reason.clone()),
                    Ending::Left { seat: s, cause } if *s == seat => {
                        (ScoreCause::Left, texts.left(seat, *cause))
                    }
                    Ending::Timeout { seat: s, kind } if *s == seat => (
                        match kind {
                            Timeout::Soft => ScoreCause::SoftTimeout,
                            Timeout::Hard => ScoreCause::HardTimeout,
                        },
                        texts.timeout(seat, *kind),
                    ),
                    Ending::Shutdown => (ScoreCause::Unknown, texts.shutdown()),
                    // The cause stays `REGULAR`, as officially; the reason
                    // tells a cancelled game from a regular draw.
                    Ending::Cancelled => (ScoreCause::Regular, texts.cancelled()),
                    Ending::Expired => (ScoreCause::Regular, texts.expired()),
                    // The game may say in its own terms why each seat
                    // stopped (BLOKUS Champions League: OUT_OF_SPACE).
                    Ending::Regular => (ScoreCause::Regular, game.regular_reason(seat).to_owned()),
                    _ => (ScoreCause::Regular, String::new()),
                };
                let win_points = match (winners.contains(seat), winners.len()) {
                    (false, _) => 0,
                    (true, 1) => 2,
                    (true, _) => 1,
                };
                SeatScore {
                    cause,
                    reason,
                    win_points,
                    parts: game.score(seat),
                }
            })
            .collect();
        (scores, winners)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{
        AnyGame,
        blokus::{Blokus, PieceKind},
    };

    use super::*;

    struct Texts;

    impl ReasonTexts for Texts {
        fn left(&self, _seat: usize, _cause: LeaveCause) -> String {
            "left".to_owned()
        }
        fn timeout(&self, _seat: usize, kind: Timeout) -> String {
            format!("{kind:?}")
        }
        fn shutdown(&self) -> String {
            "shutdown".to_owned()
        }
        fn cancelled(&self) -> String {
            "cancelled".to_owned()
        }
    }

    fn fresh_game() -> AnyGame {
        AnyGame::Blokus2021(Blokus::new(PieceKind::PentoV))
    }

    #[test]
    fn a_regular_draw_gives_both_one_point_and_names_both() {
        let (scores, winners) = Ending::Regular.scores(&fresh_game(), &Texts);
        assert_eq!(winners.len(), 2);
        assert!(
            scores
                .iter()
                .all(|s| s.win_points == 1 && s.cause == ScoreCause::Regular)
        );
    }

    #[test]
    fn the_offender_gets_nothing_and_the_opponent_wins() {
        for (ending, cause) in [
            (
                Ending::Violation {
                    seat: 1,
                    reason: "bad".to_owned(),
                    error_packet: None,
                },
                ScoreCause::RuleViolation,
            ),
            (
                Ending::Left {
                    seat: 1,
                    cause: LeaveCause::LostConnection,
                },
                ScoreCause::Left,
            ),
            (
                Ending::Timeout {
                    seat: 1,
                    kind: Timeout::Soft,
                },
                ScoreCause::SoftTimeout,
            ),
            (
                Ending::Timeout {
                    seat: 1,
                    kind: Timeout::Hard,
                },
                ScoreCause::HardTimeout,
            ),
        ] {
            let (scores, winners) = ending.scores(&fresh_game(), &Texts);
            assert_eq!(winners.iter().collect::<Vec<_>>(), [0], "{ending:?}");
            assert_eq!(
                (scores[0].cause, scores[0].win_points),
                (ScoreCause::Regular, 2)
            );
            assert_eq!((scores[1].cause, scores[1].win_points), (cause, 0));
            assert!(!scores[1].reason.is_empty());
        }
    }

    #[test]
    fn a_cancelled_game_has_no_winner() {
        let (scores, winners) = Ending::Cancelled.scores(&fresh_game(), &Texts);
        assert!(winners.is_empty());
        assert!(scores.iter().all(|s| s.win_points == 0
            && s.cause == ScoreCause::Regular
            && s.reason == "cancelled"));
        let (scores, _) = Ending::Shutdown.scores(&fresh_game(), &Texts);
        assert!(
            scores
                .iter()
                .all(|s| s.cause == ScoreCause::Unknown && s.reason == "shutdown")
        );
    }
}
