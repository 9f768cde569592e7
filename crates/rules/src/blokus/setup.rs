//! [`Setup`]: a Blokus 2021 or 2027 position as plain data, the form in
//! which positions cross the crate boundary (to the XML layer and back).

use super::{
    color::{ByColor, Color, ColorSet},
    moves::Move,
    piece::{PieceKind, PieceSet},
};

/// The side length of the 20×20 Blokus boards.
pub const BOARD_SIZE: usize = 20;

/// The number of rounds after which a Blokus 2021 game ends at the latest.
pub const ROUND_LIMIT: u32 = 25;

/// A Blokus 2021 or 2027 position as plain data, field for field what the
/// state XML carries (`blokus-2021.md` §6; the same data in 2027). A
/// `Setup` is not necessarily a reachable or consistent position; the rules
/// validate it when a game is built from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Colour turns elapsed since the start, including turns of colours that
    /// had dropped out. The colour on turn is `Color::from_index(turn)`.
    pub turn: u32,
    /// The kind every colour places first.
    pub start_piece: PieceKind,
    /// The kinds each colour has not placed yet.
    pub remaining: ByColor<PieceSet>,
    /// The colours still in the game.
    pub valid_colors: ColorSet,
    /// The board, indexed `board[y][x]`; `(0, 0)` is the top-left corner.
    pub board: [[Option<Color>; BOARD_SIZE]; BOARD_SIZE],
    /// The last applied move; `None` before the first move.
    pub last_move: Option<Move>,
    /// For each colour that has placed all its pieces: whether its last
    /// piece was `MONO` (worth 5 bonus points). `None` for the others.
    pub last_move_mono: ByColor<Option<bool>>,
}

impl Setup {
    /// The initial position for a game with this start piece: turn 0, all
    /// pieces in hand, every colour in the game, an empty board.
    pub fn new(start_piece: PieceKind) -> Setup {
        Setup {
            turn: 0,
            start_piece,
            remaining: ByColor([PieceSet::ALL; 4]),
            valid_colors: ColorSet::ALL,
            board: [[None; BOARD_SIZE]; BOARD_SIZE],
            last_move: None,
            last_move_mono: ByColor([None; 4]),
        }
    }

    /// The round: `1 + turn / 4`.
    #[inline]
    pub const fn round(&self) -> u32 {
        1 + self.turn / 4
    }

    /// The colour whose turn number it is.
    #[inline]
    pub const fn current_color(&self) -> Color {
        Color::from_index(self.turn as usize)
    }

    /// The occupied fields `(x, y, colour)` row by row (y, then x), the order
    /// of the `<board>` element.
    pub fn occupied_fields(&self) -> impl Iterator<Item = (usize, usize, Color)> + '_ {
        self.board.iter().enumerate().flat_map(|(y, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(x, field)| field.map(|c| (x, y, c)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_setup_matches_the_spec() {
        let setup = Setup::new(PieceKind::PentoV);
        assert_eq!(setup.round(), 1);
        assert_eq!(setup.current_color(), Color::Blue);
        assert_eq!(setup.occupied_fields().count(), 0);
        assert_eq!(setup.valid_colors, ColorSet::ALL);
    }

    #[test]
    fn rounds_are_four_turns() {
        let mut setup = Setup::new(PieceKind::PentoV);
        setup.turn = 11;
        assert_eq!((setup.round(), setup.current_color()), (3, Color::Green));
        setup.turn = 70;
        assert_eq!(setup.round(), 18);
    }
}
