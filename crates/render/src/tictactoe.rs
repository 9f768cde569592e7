//! The picture of the rules crate's tic-tac-toe (feature `test-games`,
//! never in a release build): a 3×3 grid with `X` (seat ONE, red) and `O`
//! (seat TWO, blue), the last mark unknown to the position.

use spielleiter_rules::{
    Game, GameType, entry,
    tictactoe::{CELLS, TicTacToe},
};

use crate::{
    GamePicture, Labels, Picture,
    scene::{Board, Ground, Scene, SeatLine, Swatch, Token, seat_name, title},
};

/// The seats' colours: ONE red `X`, TWO blue `O`.
const MARKS: [Swatch; 2] = [
    Swatch {
        name: "X",
        label: "red",
        fill: "#c8372d",
        letter: 'X',
        ansi_background: 41,
    },
    Swatch {
        name: "O",
        label: "blue",
        fill: "#2f5fae",
        letter: 'O',
        ansi_background: 44,
    },
];

/// The side of a cell, in pixels.
const FIELD: u32 = 64;

impl GamePicture for entry::TestTicTacToe {
    /// `X marks (1,2)`: the cell marked since `before`, as `(x,y)`.
    fn last_move_in_words(before: &TicTacToe, after: &TicTacToe) -> Option<String> {
        let (cell, seat) = (0..CELLS).find_map(|cell| match (before.cells()[cell], after.cells()[cell]) {
            (None, Some(seat)) => Some((cell, usize::from(seat))),
            _ => None,
        })?;
        let mark = MARKS.get(seat)?.name;
        Some(format!("{mark} marks ({},{})", cell % 3, cell / 3))
    }

    fn picture(game: &TicTacToe, labels: &Labels) -> Picture {
        let game_type = GameType::TestTicTacToe;
        let over = game.is_over();
        let mut board = Board::new(3, 3, FIELD, Ground::Grid, &MARKS);
        board.tokens = (0..CELLS)
            .filter_map(|cell| {
                let seat = usize::from(game.cells()[cell]?);
                let letter = MARKS[seat].letter;
                Some(Token {
                    x: cell % 3,
                    y: cell / 3,
                    color: seat,
                    under: None,
                    letter,
                    height: 1,
                    label: format!("{letter} "),
                })
            })
            .collect();
        let seats = (0..game.player_count())
            .map(|seat| SeatLine {
                name: seat_name(&labels.names, seat),
                colors: vec![seat],
                score: format!("{} line", game.score(seat).as_slice()[0]),
                gems: 0,
                to_move: game.player_to_move() == Some(seat),
            })
            .collect();
        let turn = game.turn();
        Picture(Scene {
            game_id: game_type.id(),
            turn,
            title: title(game_type.title(), turn, turn / 2 + 1, over),
            board,
            seats,
            notes: labels.notes.clone(),
            letters_key: None,
            stock: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{AnyGame, tictactoe::Mark};

    use crate::picture;

    use super::*;

    #[test]
    fn the_marks_are_drawn_on_the_grid() {
        let mut game = TicTacToe::default();
        for cell in [4, 0] {
            game.play(&Mark(cell)).expect("legal");
        }
        let text = picture(&AnyGame::TestTicTacToe(game), &Labels::default()).text(false);
        assert!(text.contains("Tic-tac-toe (test)"), "{text}");
        let svg = picture(
            &AnyGame::TestTicTacToe(TicTacToe::default()),
            &Labels::default(),
        )
        .svg();
        assert!(svg.starts_with("<svg"), "{svg}");
    }
}
