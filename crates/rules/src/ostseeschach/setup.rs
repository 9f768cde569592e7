//! [`Setup`]: an Ostseeschach position as plain data, the form in which
//! positions cross the crate boundary (to the XML layer and back), and the
//! game's constants.

use super::{
    moves::{Coordinates, Move},
    piece::Piece,
    start_line::StartLine,
};
use crate::team::{ByTeam, Team};

/// The side length of the board.
pub const BOARD_SIZE: usize = 8;

/// The number of rounds (a move of each team) after which the game ends at
/// the latest.
pub const ROUND_LIMIT: u32 = 30;

/// The turn at which the game ends at the latest: `2 × ROUND_LIMIT`.
pub const TURN_LIMIT: u32 = 2 * ROUND_LIMIT;

/// The ambers that end the game at the end of the round in which a team
/// reaches them.
pub const WINNING_AMBERS: u32 = 2;

/// An Ostseeschach position as plain data, field for field what the state
/// XML carries (`ostseeschach-2022.md` §11). A `Setup` is not necessarily a
/// reachable or consistent position; the rules validate it when a game is
/// built from it ([`Ostseeschach::from_setup`](super::Ostseeschach::from_setup)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The number of moves made. The team to move is ONE at even turns,
    /// TWO at odd turns.
    pub turn: u32,
    /// The board, indexed `board[y][x]`: row `y`, x along the row.
    pub board: [[Option<Piece>; BOARD_SIZE]; BOARD_SIZE],
    /// The ambers of each team (a missing entry of the wire's map is 0).
    pub ambers: ByTeam<u32>,
    /// The last applied move; `None` before the first.
    pub last_move: Option<Move>,
}

impl Setup {
    /// Turn 0, no ambers, no last move and an empty board.
    pub const fn empty() -> Setup {
        Setup {
            turn: 0,
            board: [[None; BOARD_SIZE]; BOARD_SIZE],
            ambers: ByTeam([0; 2]),
            last_move: None,
        }
    }

    /// The initial position dealt with `start_line`: ONE's pieces on x = 0
    /// in the line's order, TWO's on x = 7 rotated by 180°.
    pub fn new(start_line: StartLine) -> Setup {
        let mut setup = Setup::empty();
        for (y, kind) in start_line.kinds().into_iter().enumerate() {
            setup.board[y][0] = Some(Piece::new(kind, Team::One));
            setup.board[BOARD_SIZE - 1 - y][BOARD_SIZE - 1] = Some(Piece::new(kind, Team::Two));
        }
        setup
    }

    /// The team to move: ONE at even turns, TWO at odd turns.
    #[inline]
    pub const fn team_to_move(&self) -> Team {
        Team::from_index(self.turn as usize)
    }

    /// What stands on `field`; `None` for an empty field or one off the
    /// board.
    pub fn get(&self, field: Coordinates) -> Option<Piece> {
        if field.is_on_board() {
            self.board[field.y as usize][field.x as usize]
        } else {
            None
        }
    }

    /// Puts `piece` (or nothing) on `(x, y)`.
    ///
    /// # Panics
    ///
    /// If `(x, y)` is off the board.
    pub fn set(&mut self, x: usize, y: usize, piece: Option<Piece>) {
        self.board[y][x] = piece;
    }

    /// The occupied fields and what stands there, x by x and along each
    /// line by y.
    pub fn pieces(&self) -> impl Iterator<Item = (Coordinates, Piece)> + '_ {
        (0..BOARD_SIZE).flat_map(move |x| {
            (0..BOARD_SIZE).filter_map(move |y| {
                self.board[y][x].map(|piece| (Coordinates::new(x as i32, y as i32), piece))
            })
        })
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}
