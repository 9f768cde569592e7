//! How an Ostseeschach game ends and who wins: [`EndReason`],
//! [`WinReason`], [`Outcome`].

use crate::team::Team;

/// Why the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A round ended (TWO has moved) and some team has at least two ambers.
    Ambers,
    /// The 30th round ended (turn 60) and no team has two ambers.
    RoundLimit,
    /// The team to move has no legal move; it loses (there is no pass).
    /// The official server never detects this: it asks the stuck player
    /// for a move, and that player loses by sending an illegal one or by
    /// timing out (`ostseeschach-2022.md` §9).
    NoMove,
}

/// How the winner was decided (the official `WinReason`, plus the end by
/// a stuck player, which the official server never decides itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// Equal ambers and no difference in the light pieces' positions: a
    /// draw (`EQUAL_SCORE`).
    Equal,
    /// The winner has more ambers (`DIFFERING_SCORES`).
    MoreAmbers,
    /// Equal ambers; the winner's light pieces are further from its start
    /// line (`DIFFERING_POSITIONS`).
    LightPiecesAhead,
    /// The loser was to move and had no legal move.
    OpponentCannotMove,
}

/// The regular result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game is over.
    pub end: EndReason,
    /// The winner; `None` for a draw.
    pub winner: Option<Team>,
    /// How the winner was decided.
    pub reason: WinReason,
}
