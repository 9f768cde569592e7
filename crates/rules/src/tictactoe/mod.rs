//! Tic-tac-toe for two seats, for tests only (feature `test-games`): the
//! toy game added by exactly the steps of the README's "Adding a game", to
//! show that they are all a new game needs.
//!
//! Seat ONE marks `X` and moves first, seat TWO marks `O`. A move marks an
//! empty cell (0 to 8, row by row from the top left). Three marks of one
//! seat in a row, column or diagonal win; a full board without such a line
//! is a draw.

use core::fmt;

use rand_core::Rng;

use crate::game::{Game, PlayerSet, ScoreParts};

/// The number of seats.
pub const SEATS: usize = 2;

/// The number of cells.
pub const CELLS: usize = 9;

/// The eight lines of three cells.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A position: each cell's mark (the seat that marked it) and the number of
/// marks made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    cells: [Option<u8>; CELLS],
    turn: u32,
}

/// A move: mark this cell (0 to 8, row by row from the top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mark(pub u8);

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TicTacToeMistake {
    /// The cell is not 0 to 8.
    OffBoard,
    /// The cell is marked already.
    Taken,
    /// The game is over.
    GameOver,
}

impl fmt::Display for TicTacToeMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TicTacToeMistake::OffBoard => "the cell is not on the board",
            TicTacToeMistake::Taken => "the cell is marked already",
            TicTacToeMistake::GameOver => "the game is over",
        })
    }
}

impl core::error::Error for TicTacToeMistake {}

impl TicTacToe {
    /// A new game (nothing is left to chance; the catalogue's constructor).
    pub fn new_game<R: Rng + ?Sized>(_rng: &mut R) -> TicTacToe {
        TicTacToe::default()
    }

    /// The position with these marks (by seat), if it can arise in a game:
    /// ONE has as many marks as TWO or one more, and nobody played on after
    /// a line was complete.
    pub fn from_cells(cells: [Option<u8>; CELLS]) -> Option<TicTacToe> {
        let count = |seat| cells.iter().filter(|&&c| c == Some(seat)).count();
        let (ones, twos) = (count(0), count(1));
        if cells.iter().flatten().any(|&seat| seat as usize >= SEATS)
            || !(ones == twos || ones == twos + 1)
        {
            return None;
        }
        let game = TicTacToe {
            cells,
            turn: (ones + twos) as u32,
        };
        // The last mover's line may be complete, the other seat's not.
        let other_seat = if ones > twos { 1 } else { 0 };
        (!game.has_line(other_seat)).then_some(game)
    }

    /// Each cell's mark, row by row from the top left.
    pub fn cells(&self) -> [Option<u8>; CELLS] {
        self.cells
    }

    /// Whether `seat` has three marks in a line.
    fn has_line(&self, seat: u8) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&i| self.cells[i] == Some(seat)))
    }

    /// Whether a mark of `seat` on the empty cell of `mv` would give it a
    /// line (whoever is to move).
    pub fn completes_line(&self, seat: usize, mv: Mark) -> bool {
        let cell = usize::from(mv.0);
        if seat >= SEATS || self.cells.get(cell) != Some(&None) {
            return false;
        }
        let mut marked = self.clone();
        marked.cells[cell] = Some(seat as u8);
        marked.has_line(seat as u8)
    }

    /// The seat with a complete line, if any.
    fn line_of(&self) -> Option<u8> {
        (0..SEATS as u8).find(|&seat| self.has_line(seat))
    }
}

impl Game for TicTacToe {
    type Move = Mark;
    type Mistake = TicTacToeMistake;

    fn player_count(&self) -> usize {
        SEATS
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn player_to_move(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.turn as usize % SEATS)
    }

    fn play(&mut self, mv: &Mark) -> Result<(), TicTacToeMistake> {
        let seat = self.player_to_move().ok_or(TicTacToeMistake::GameOver)?;
        let cell = self
            .cells
            .get_mut(usize::from(mv.0))
            .ok_or(TicTacToeMistake::OffBoard)?;
        if cell.is_some() {
            return Err(TicTacToeMistake::Taken);
        }
        *cell = Some(seat as u8);
        self.turn += 1;
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.turn as usize >= CELLS || self.line_of().is_some()
    }

    fn has_legal_move(&self) -> bool {
        !self.is_over()
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(Mark)) {
        if self.is_over() {
            return;
        }
        for (cell, mark) in self.cells.iter().enumerate() {
            if mark.is_none() {
                f(Mark(cell as u8));
            }
        }
    }

    /// 1 for the seat with a line, 0 otherwise.
    fn score(&self, seat: usize) -> ScoreParts {
        let line = self.line_of().map(usize::from) == Some(seat);
        ScoreParts::new(&[i64::from(line)])
    }

    /// The seat with a line; both on a draw.
    fn winners(&self) -> PlayerSet {
        match self.line_of() {
            Some(seat) => PlayerSet::single(usize::from(seat)),
            None => PlayerSet::first(SEATS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cells: &[u8]) -> TicTacToe {
        let mut game = TicTacToe::default();
        for &cell in cells {
            game.play(&Mark(cell)).expect("legal");
        }
        game
    }

    #[test]
    fn a_row_of_three_wins() {
        // X: 0 1 2 (the top row), O: 3 4.
        let game = play(&[0, 3, 1, 4, 2]);
        assert!(game.is_over());
        assert_eq!(game.player_to_move(), None);
        assert_eq!(game.winners(), PlayerSet::single(0));
        assert_eq!(game.score(0).as_slice(), [1]);
        assert_eq!(game.score(1).as_slice(), [0]);
        assert_eq!(game.clone().play(&Mark(5)), Err(TicTacToeMistake::GameOver));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        // X O X / X O O / O X X
        let game = play(&[0, 1, 2, 4, 3, 5, 7, 6, 8]);
        assert!(game.is_over());
        assert_eq!(game.winners(), PlayerSet::first(2));
    }

    #[test]
    fn taken_and_off_board_cells_are_refused() {
        let mut game = play(&[4]);
        assert_eq!(game.play(&Mark(4)), Err(TicTacToeMistake::Taken));
        assert_eq!(game.play(&Mark(9)), Err(TicTacToeMistake::OffBoard));
        assert_eq!(game.turn(), 1);
    }

    #[test]
    fn perft_counts_the_known_games() {
        let game = TicTacToe::default();
        assert_eq!(crate::perft(&game, 1), 9);
        assert_eq!(crate::perft(&game, 2), 72);
        // 255,168 games in all; the 9-move deep count only counts those
        // that fill the board.
        assert_eq!(crate::perft(&game, 9), 127_872);
    }

    #[test]
    fn positions_are_rebuilt_from_their_cells() {
        let game = play(&[0, 3, 1, 4, 2]);
        assert_eq!(TicTacToe::from_cells(game.cells()), Some(game));
        // TWO cannot have more marks than ONE.
        let mut cells = [None; CELLS];
        cells[0] = Some(1);
        assert_eq!(TicTacToe::from_cells(cells), None);
    }
}
