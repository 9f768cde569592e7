//! Tic-tac-toe's board and moves for a person's page (test builds): a
//! field to click per move.

use spielleiter_rules::{
    entry,
    tictactoe::{Mark, TicTacToe},
};

use super::board::{Board, Cell, Choice, GamePlay};

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
        board
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
