//! Ostseeschach's board and moves for a person's page: each piece or tower
//! in its team's colour with its kind's letter, each move a step from a
//! field to a field. Column = x (the forward axis: ONE starts on the left),
//! row = y.

use spielleiter_rules::{
    entry,
    ostseeschach::{BOARD_SIZE, Coordinates, Move, Ostseeschach, Team},
};

use super::board::{Board, Cell, Choice, GamePlay};

/// The page's colour of each team (as the pictures draw them).
fn fill(team: Team) -> &'static str {
    match team {
        Team::One => "red",
        Team::Two => "blue",
    }
}

fn field(at: Coordinates) -> [i32; 2] {
    [at.x, at.y]
}

impl GamePlay for entry::Ostseeschach2022 {
    fn board(game: &Ostseeschach) -> Board {
        let size = BOARD_SIZE;
        let mut board = Board::empty(size, size);
        for (at, piece) in game.pieces() {
            if let Some(cell) = board.cell_mut(at.x, at.y) {
                let letter = piece.kind.letter();
                *cell = Cell {
                    fill: Some(fill(piece.team)),
                    // A tower shows its height.
                    text: Some(match piece.count {
                        1 => letter.to_string(),
                        count => format!("{letter}{count}"),
                    }),
                };
            }
        }
        board.color = Some(fill(game.team_to_move()));
        board.key = "ONE red, TWO blue · H cockle (Herzmuschel) · M gull (Möwe) · S starfish \
                     (Seestern) · R seal (Robbe) · a number: a tower's height"
            .to_owned();
        board
    }

    fn choice(_game: &Ostseeschach, mv: &Move) -> Choice {
        Choice {
            label: format!("{} to {}", mv.from, mv.to),
            piece: None,
            from: Some(field(mv.from)),
            cells: vec![field(mv.to)],
        }
    }
}
