//! What a person's page draws and offers, per game: the board as cells,
//! the pieces of the colour to move, and each legal move as the page
//! offers it ([`GamePlay`], one `impl` in each game's file of this folder).
//! The moves themselves always come from the rules crate's
//! `for_each_legal_move`; this layer only says where on the board each one
//! lies, so the page never needs rules of its own.

use serde::Serialize;
use spielleiter_rules::{AnyGame, AnyMove, CatalogueEntry, Game, entry};

/// A field of the board as the page draws it.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Cell {
    /// The colour of what stands there (`blue`, `red`, …); `None` for an
    /// empty field.
    pub fill: Option<&'static str>,
    /// A short text on the field (a piece's letter, a tower's height).
    pub text: Option<String>,
}

/// A piece of the colour to move, as the page lists it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Piece {
    /// The piece's name as the wire names it (`TETRO_T`).
    pub name: String,
    /// Its cells `[x, y]` in its unturned orientation.
    pub cells: Vec<[i32; 2]>,
    /// How many of it the colour still has (0: placed already).
    pub left: u32,
}

/// The board and the pieces of one position.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The fields, row by row from the top left.
    pub cells: Vec<Cell>,
    /// The colour to move (`blue`, …), if the game has colours to move.
    pub color: Option<&'static str>,
    /// The pieces of the colour to move (placement games; empty otherwise).
    pub pieces: Vec<Piece>,
    /// A line for people under the board: what the letters mean, whose
    /// colours are whose.
    pub key: String,
}

impl Board {
    /// An empty board of `width` × `height` fields.
    pub fn empty(width: usize, height: usize) -> Board {
        Board {
            width,
            height,
            cells: vec![Cell::default(); width * height],
            ..Board::default()
        }
    }

    /// The field at column `x`, row `y`, if on the board.
    pub fn cell_mut(&mut self, x: i32, y: i32) -> Option<&mut Cell> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        if x >= self.width || y >= self.height {
            return None;
        }
        self.cells.get_mut(y * self.width + x)
    }
}

/// A legal move as the page offers it. Which fields are set says how the
/// page offers it: a placement (`piece` and `cells`), a step (`from` and
/// the one target in `cells`), a field to click (only `cells`), or a
/// button (none of them).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Choice {
    /// The move in words (`TETRO_T on c5`, `pass`, `3,1 to 4,1`).
    pub label: String,
    /// The placed piece's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// The field a step starts from, `[x, y]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<[i32; 2]>,
    /// The fields the move covers or goes to, `[x, y]`.
    pub cells: Vec<[i32; 2]>,
}

/// A game's board and moves for a person's page, implemented by its marker
/// type ([`entry`]) in the game's file of this folder. [`board`] and
/// [`choices`] are generated from the rules catalogue's list, so a game of
/// the list without `GamePlay` does not compile.
pub trait GamePlay: CatalogueEntry {
    /// The board of `game` and the pieces of the colour to move.
    fn board(game: &Self::Game) -> Board;

    /// `mv`, a legal move of `game`, as the page offers it.
    fn choice(game: &Self::Game, mv: &<Self::Game as Game>::Move) -> Choice;
}

/// Generates [`board`] and [`choices`] from the rules catalogue's list
/// (through [`spielleiter_rules::for_each_game!`]).
macro_rules! play_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// The board of `game` as its game's file draws it.
        pub fn board(game: &AnyGame) -> Board {
            match game {
                $(
                    $(#[cfg($cfg)])?
                    AnyGame::$variant(game) => <entry::$variant as GamePlay>::board(game),
                )*
            }
        }

        /// Every legal move of `game` for the player to move, in the rules'
        /// order, each with its offer to the page.
        pub fn choices(game: &AnyGame) -> Vec<(AnyMove, Choice)> {
            let mut choices = Vec::new();
            match game {
                $(
                    $(#[cfg($cfg)])?
                    AnyGame::$variant(game) => game.for_each_legal_move(|mv| {
                        let choice = <entry::$variant as GamePlay>::choice(game, &mv);
                        choices.push((AnyMove::$variant(mv), choice));
                    }),
                )*
            }
            choices
        }
    };
}

spielleiter_rules::for_each_game!(play_catalogue);

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use spielleiter_rules::GameType;

    use super::*;

    #[test]
    fn every_game_offers_its_legal_moves_on_its_board() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for &game_type in GameType::ALL {
            let mut game = AnyGame::new(game_type, &mut rng);
            // A few moves in, so that boards are not empty.
            for _ in 0..6 {
                if game.is_over() {
                    break;
                }
                let choices = choices(&game);
                let Some((mv, _)) = choices.first() else {
                    break;
                };
                game.play(mv).expect("a legal move");
            }
            let board = board(&game);
            assert_eq!(board.cells.len(), board.width * board.height, "{game_type}");
            let choices = choices(&game);
            let mut count = 0;
            game.for_each_legal_move(|_| count += 1);
            assert_eq!(choices.len(), count, "{game_type}");
            for (_, choice) in &choices {
                assert!(!choice.label.is_empty(), "{game_type}");
                for &[x, y] in choice.cells.iter().chain(&choice.from) {
                    assert!(
                        (0..board.width as i32).contains(&x)
                            && (0..board.height as i32).contains(&y),
                        "{game_type}: {choice:?} off the board"
                    );
                }
                if choice.piece.is_some() {
                    assert!(
                        board
                            .pieces
                            .iter()
                            .any(|p| Some(&p.name) == choice.piece.as_ref() && p.left > 0),
                        "{game_type}: {choice:?} is not among the pieces left"
                    );
                }
            }
        }
    }
}
