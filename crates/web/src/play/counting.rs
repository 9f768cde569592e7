//! The counting game's board and moves for a person's page (test builds):
//! no board, a button per amount.

use spielleiter_rules::{
    counting::{Count, Counting},
    entry,
};

use super::board::{Attempt, Board, Choice, GamePlay};

impl GamePlay for entry::TestCounting {
    fn board(game: &Counting) -> Board {
        let mut board = Board::empty(0, 0);
        let totals: Vec<String> = game.totals.iter().map(u32::to_string).collect();
        board.key = format!("totals: {}", totals.join(", "));
        board
    }

    fn refusal(_game: &Counting, _attempt: &Attempt) -> String {
        // The game has no board: its moves are buttons, never a click.
        "Choose one of the buttons.".to_owned()
    }

    fn choice(_game: &Counting, mv: &Count) -> Choice {
        Choice {
            label: format!("add {}", mv.0),
            ..Choice::default()
        }
    }
}
