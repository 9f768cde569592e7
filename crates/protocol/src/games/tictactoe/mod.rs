//! The wire form of the rules crate's tic-tac-toe, for tests only (feature
//! `test-games`; never hosted by a release build): the toy game of the
//! README's "Adding a game". It speaks the 2021 season
//! ([`SEASON_2021`]), as a new game picks the season it speaks.
//!
//! ```xml
//! <state class="state" turn="3">
//!   <board>XO.X.....</board>
//! </state>
//! ```
//!
//! The board is the nine cells row by row from the top left: `X` for seat
//! ONE, `O` for seat TWO, `.` for an empty cell. A move is
//! `<data class="test.Mark"><cell>4</cell></data>`.

use spielleiter_rules::{
    entry,
    tictactoe::{CELLS, Mark, TicTacToe as Rules, TicTacToeMistake},
};

use super::{
    blokus2021::SEASON_2021,
    record_format::GameRecord,
    wire_game::{WireEntry, WireGame},
};
use crate::{
    dialect::Dialect,
    error::{DecodeError, MoveError},
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a move.
pub const MARK_CLASS: &str = "test.Mark";

/// Tic-tac-toe's `WireGame`: the state is the rules' position, a move the
/// rules' move.
#[derive(Clone, Copy, Debug)]
pub struct TicTacToe;

impl WireEntry for entry::TestTicTacToe {
    type Wire = TicTacToe;
    type State = Rules;
    type Move = Mark;
}

/// The letter of a cell's mark on the wire.
fn letter(mark: Option<u8>) -> char {
    match mark {
        Some(0) => 'X',
        Some(_) => 'O',
        None => '.',
    }
}

impl WireGame for TicTacToe {
    type Game = Rules;
    type State = Rules;
    type Move = Mark;

    const DIALECT: &'static Dialect = &SEASON_2021;

    const RECORD: Option<GameRecord<Self::State>> = None;

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![ScoreFragment {
            name: "Reihe".to_owned(),
            aggregation: Aggregation::Sum,
            relevant_for_ranking: true,
        }]
    }

    fn state(game: &Rules, _display_names: &[&str]) -> Rules {
        game.clone()
    }

    fn state_turn(state: &Rules) -> u32 {
        spielleiter_rules::Game::turn(state)
    }

    fn game_of_state(state: &Rules) -> Result<Rules, String> {
        Ok(state.clone())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &Rules) {
        w.start("state");
        w.attr_raw("class", "state");
        w.attr_int("turn", i64::from(Self::state_turn(state)));
        w.open();
        let board: String = state.cells().into_iter().map(letter).collect();
        w.text_element("board", &board);
        w.close("state");
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Rules, DecodeError> {
        let mut board = None;
        while let Some(child) = r.next_child(&el)? {
            if child.name() == "board" {
                board = Some(r.text(child)?.into_owned());
            } else {
                r.skip(child)?;
            }
        }
        let board = board.ok_or(DecodeError::invalid("board", ""))?;
        let mut cells = [None; CELLS];
        if board.chars().count() != CELLS {
            return Err(DecodeError::invalid("board", &board));
        }
        for (cell, letter) in cells.iter_mut().zip(board.chars()) {
            *cell = match letter {
                'X' => Some(0),
                'O' => Some(1),
                '.' => None,
                _ => return Err(DecodeError::invalid("board", &board)),
            };
        }
        let game = Rules::from_cells(cells).ok_or(DecodeError::invalid("board", &board))?;
        let turn = el.attribute("turn")?.unwrap_or_default();
        if turn.parse() != Ok(Self::state_turn(&game)) {
            return Err(DecodeError::invalid("turn", turn.as_ref()));
        }
        Ok(game)
    }

    fn is_move_class(class: &str) -> bool {
        class == MARK_CLASS
    }

    fn move_class(_mv: &Mark) -> &'static str {
        MARK_CLASS
    }

    fn move_has_content(_mv: &Mark) -> bool {
        true
    }

    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &Mark) {
        w.text_element("cell", &mv.0.to_string());
    }

    fn read_move(r: &mut XmlReader<'_>, el: &Element<'_>, _class: &str) -> Result<Mark, DecodeError> {
        let mut cell = None;
        while let Some(child) = r.next_child(el)? {
            if child.name() == "cell" {
                let text = r.text(child)?;
                cell = Some(
                    text.parse()
                        .map_err(|_| DecodeError::invalid("cell", text.as_ref()))?,
                );
            } else {
                r.skip(child)?;
            }
        }
        Ok(Mark(cell.ok_or(MoveError::MissingElement { element: "cell" })?))
    }

    fn resolve_move(mv: &Mark, _game: &Rules) -> Mark {
        *mv
    }

    fn wire_move(mv: Mark) -> Mark {
        mv
    }

    fn describe_move(mv: &Mark) -> String {
        format!("Setze auf Feld {}", mv.0)
    }

    fn mistake_texts(mistake: TicTacToeMistake, mv: &Mark) -> (&'static str, Option<String>) {
        let text = match mistake {
            TicTacToeMistake::OffBoard => "Das Feld liegt nicht auf dem Spielfeld",
            TicTacToeMistake::Taken => "Das Feld ist schon belegt",
            TicTacToeMistake::GameOver => "Das Spiel ist vorbei",
        };
        (text, Some(TicTacToe::describe_move(mv)))
    }
}
