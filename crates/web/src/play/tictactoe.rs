//! Tic-tac-toe's board and moves for a person's page (test builds): a
//! field to click per move.

use spielleiter_rules::{
    Game, entry,
    tictactoe::{Mark, TicTacToe, TicTacToeMistake},
};

use super::board::{Attempt, Board, Cell, Choice, GamePlay, LEGAL_AFTER_ALL};

/// The side of the board.
const SIDE: usize = 3;

impl GamePlay for entry::TestTicTacToe {
    fn board(game: &TicTacToe) -> Board {
        let mut board = Board::empty(SIDE, SIDE);
        for (cell, mark) in board.cells.iter_mut().zip(game.cells()) {
            *cell = match mark {
                Some(0) => Cell {
                    fill: Some("red"),
                    text: Some("X".to_owned()),
                },
                Some(_) => Cell {
                    fill: Some("blue"),
                    text: Some("O".to_owned()),
                },
                None => Cell::default(),
            };
        }
        board.key = "ONE marks X, TWO marks O".to_owned();
        board.seat_colors = vec![vec!["red"], vec!["blue"]];
        board
    }

    fn refusal(game: &TicTacToe, attempt: &Attempt) -> String {
        let Some(&[x, y]) = attempt.cells.first() else {
            return "Click a field.".to_owned();
        };
        let side = SIDE as i32;
        let field = if (0..side).contains(&x) && (0..side).contains(&y) {
            u8::try_from(y * side + x).unwrap_or(u8::MAX)
        } else {
            u8::MAX
        };
        // The rules' only check is playing the move.
        match game.clone().play(&Mark(field)) {
            Ok(()) => LEGAL_AFTER_ALL.to_owned(),
            Err(TicTacToeMistake::OffBoard) => "That field is off the board.".to_owned(),
            Err(TicTacToeMistake::Taken) => "That field is marked already.".to_owned(),
            Err(TicTacToeMistake::GameOver) => "The game is over.".to_owned(),
        }
    }

    fn choice(_game: &TicTacToe, mv: &Mark) -> Choice {
        let (x, y) = (i32::from(mv.0) % SIDE as i32, i32::from(mv.0) / SIDE as i32);
        Choice {
            label: format!("mark {x},{y}"),
            cells: vec![[x, y]],
            ..Choice::default()
        }
    }
}
