//! How an Ostseeschach game ends and who wins: [`EndReason`],
//! [`WinReason`], [`Outcome`] and the official score parts
//! ([`ScoreParts`]).

use super::piece::Team;

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

/// Win points for a win, as in the result's first score part.
pub const WIN_POINTS: u32 = 2;
/// Win points for a draw.
pub const DRAW_POINTS: u32 = 1;
/// Win points for a loss.
pub const LOSS_POINTS: u32 = 0;

/// A team's score parts in the official order of the result's definition
/// (`ostseeschach-2022.md` §13.3), for a regular end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreParts {
    /// `Siegpunkte`: 2 for a win, 1 for a draw, 0 for a loss (0 for both
    /// while the game is running).
    pub win_points: u32,
    /// `Bernsteine`: the team's ambers.
    pub ambers: u32,
    /// `Leichtfiguren Vorne`: the largest distance of one of the team's
    /// light pieces (a tower counts for its top piece) from the team's own
    /// start line, 0..=7; 0 when it has none left (where the official
    /// server fails).
    pub light_lead: u32,
}

impl ScoreParts {
    /// The parts in the order of the result's `<part>` elements.
    pub const fn to_array(self) -> [u32; 3] {
        [self.win_points, self.ambers, self.light_lead]
    }
}
