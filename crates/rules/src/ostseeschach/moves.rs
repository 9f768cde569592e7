//! Ostseeschach moves as the wire carries them, and the mistakes that make
//! a move illegal.

use core::fmt;

/// A field's coordinates as the wire carries them: any integers, so that a
/// move off the board can be represented and rejected. The board is
/// `0..8 × 0..8`; x is the forward axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coordinates {
    /// The forward axis: ONE's start line is x = 0, TWO's x = 7.
    pub x: i32,
    /// The sideways axis.
    pub y: i32,
}

impl Coordinates {
    /// The field `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Coordinates {
        Coordinates { x, y }
    }

    /// Whether the field is on the 8×8 board.
    #[inline]
    pub const fn is_on_board(self) -> bool {
        super::bitboard::on_board(self.x, self.y)
    }
}

impl fmt::Display for Coordinates {
    /// `x,y`, the form of the move notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A move of the piece or tower on `from` to `to` (`sc.plugin2022.Move`).
/// There is no other kind of move: no pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// The field of the moving piece or tower.
    pub from: Coordinates,
    /// The field it moves to.
    pub to: Coordinates,
}

impl Move {
    /// The move from `(fx, fy)` to `(tx, ty)`.
    pub const fn new(fx: i32, fy: i32, tx: i32, ty: i32) -> Move {
        Move {
            from: Coordinates::new(fx, fy),
            to: Coordinates::new(tx, ty),
        }
    }
}

/// Why a move is illegal: the official mistake kinds (`MoveMistake` of the
/// 2022 server). The rules report the first failing check in the official
/// order (`ostseeschach-2022.md` §6): [`WrongColor`](Mistake::WrongColor),
/// [`OutOfBounds`](Mistake::OutOfBounds),
/// [`InvalidMovement`](Mistake::InvalidMovement),
/// [`DestinationBlocked`](Mistake::DestinationBlocked). The official texts
/// (German) belong to the protocol layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// The start field does not hold a piece of the team to move (it is
    /// empty, off the board, or the opponent's).
    WrongColor,
    /// The start field is empty. Official but never raised: an empty start
    /// field is [`Mistake::WrongColor`].
    StartEmpty,
    /// The target field is off the board.
    OutOfBounds,
    /// The piece cannot step from the start to the target field (this
    /// includes a move that stays on its field).
    InvalidMovement,
    /// The target field holds a piece of the moving team.
    DestinationBlocked,
    /// Official but never raised by the rules.
    InvalidMove,
    /// The move could not be recognised. Never raised by the rules: the
    /// protocol layer uses it for moves it cannot read.
    InvalidFormat,
}

impl Mistake {
    /// Every kind, in the official enum order.
    pub const ALL: [Mistake; 7] = [
        Mistake::WrongColor,
        Mistake::StartEmpty,
        Mistake::DestinationBlocked,
        Mistake::OutOfBounds,
        Mistake::InvalidMovement,
        Mistake::InvalidMove,
        Mistake::InvalidFormat,
    ];

    /// The official enum name, e.g. `DESTINATION_BLOCKED`.
    pub const fn name(self) -> &'static str {
        match self {
            Mistake::WrongColor => "WRONG_COLOR",
            Mistake::StartEmpty => "START_EMPTY",
            Mistake::OutOfBounds => "OUT_OF_BOUNDS",
            Mistake::InvalidMovement => "INVALID_MOVEMENT",
            Mistake::DestinationBlocked => "DESTINATION_BLOCKED",
            Mistake::InvalidMove => "INVALID_MOVE",
            Mistake::InvalidFormat => "INVALID_FORMAT",
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mistake::WrongColor => "only the moving team's own pieces can be moved",
            Mistake::StartEmpty => "the start field is empty",
            Mistake::OutOfBounds => "the target field is off the board",
            Mistake::InvalidMovement => "the piece cannot move that way",
            Mistake::DestinationBlocked => "the target field holds a piece of the moving team",
            Mistake::InvalidMove => "this move is not possible",
            Mistake::InvalidFormat => "the move could not be recognised",
        })
    }
}

impl core::error::Error for Mistake {}
