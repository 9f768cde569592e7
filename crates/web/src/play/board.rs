//! What a person's page draws and offers, per game: the board as the watch
//! pages draw it (the renderer's SVG, each colour's pieces beside it) with
//! its fields as cells for the page's clicks and marks, the pieces of the
//! colour to move, each seat's colours, and each legal move as the page
//! offers it ([`GamePlay`], one `impl` in each game's file of this folder).
//! The moves themselves always come from the rules crate's
//! `for_each_legal_move`; this layer only says where on the board each one
//! lies, so the page never needs rules of its own. A click the page cannot
//! match with an offered move ([`Attempt`]) is explained here too, in
//! words of the game, from the mistake the rules crate reports for it
//! ([`GamePlay::refusal`]).

use serde::Serialize;
use spielleiter_render::{Labels, picture};
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
    /// The piece as people name it (`T tetromino`), for the page's labels.
    pub words: String,
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
    /// The board as the watch pages draw it: the renderer's SVG of the board
    /// alone (coordinates as the game names them, piece outlines, tokens,
    /// each colour's pieces beside it); its root's `data-board` says where
    /// the fields lie, for the page's own marks over them.
    pub svg: String,
    /// Each seat's colours as the page names them (`blue`), in seat order.
    pub seat_colors: Vec<Vec<&'static str>>,
    /// A rule of the game said in words before the moves, e.g. `Every
    /// colour's first piece is the X pentomino.`
    pub note: Option<String>,
    /// The piece the colour to move must place now, by its wire name, while
    /// it has placed none in a game with one first piece for all colours.
    pub first_piece: Option<String>,
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

/// The most fields an [`Attempt`] may name (a Blokus piece has five).
pub const MAX_ATTEMPT_CELLS: usize = 16;

/// A click the page could not match with any offered move, as the page
/// saw it: the server says why it is no legal move. The fields set say
/// what was tried, as in [`Choice`]: a piece on fields (`piece` and
/// `cells`), a step (`from` and the one target in `cells`), a piece to
/// move (only `from`), or a field (only `cells`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attempt {
    /// The piece the person holds, by its wire name.
    pub piece: Option<String>,
    /// The fields `[x, y]` the piece would cover, or the step's target,
    /// or the field clicked; they may lie off the board.
    pub cells: Vec<[i32; 2]>,
    /// The field a step starts from, or the piece clicked to move.
    pub from: Option<[i32; 2]>,
}

/// What a person is told when the rules find a click legal after all (the
/// page's position was older than the seat's).
pub const LEGAL_AFTER_ALL: &str =
    "That move is legal in the current position: the page showed an older one; try again.";

/// A game's board and moves for a person's page, implemented by its marker
/// type ([`entry`]) in the game's file of this folder. [`board`] and
/// [`choices`] are generated from the rules catalogue's list, so a game of
/// the list without `GamePlay` does not compile.
pub trait GamePlay: CatalogueEntry {
    /// The board of `game` and the pieces of the colour to move.
    fn board(game: &Self::Game) -> Board;

    /// `mv`, a legal move of `game`, as the page offers it.
    fn choice(game: &Self::Game, mv: &<Self::Game as Game>::Move) -> Choice;

    /// Why `attempt` is no legal move of the player to move in `game`, in
    /// words of the game and of what was clicked (one or two English
    /// sentences), from the mistake the rules report for it; or
    /// [`LEGAL_AFTER_ALL`] if the rules find it legal.
    fn refusal(game: &Self::Game, attempt: &Attempt) -> String;
}

/// Generates [`board`] and [`choices`] from the rules catalogue's list
/// (through [`spielleiter_rules::for_each_game!`]).
macro_rules! play_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// The board of `any` as its game's file describes it, drawn as
        /// the watch pages draw it.
        pub fn board(any: &AnyGame) -> Board {
            let mut board = match any {
                $(
                    $(#[cfg($cfg)])?
                    AnyGame::$variant(game) => <entry::$variant as GamePlay>::board(game),
                )*
            };
            board.svg = picture(any, &Labels::default()).board_svg();
            board
        }

        /// Why `attempt` is no legal move in `game`, as its game's file
        /// says it.
        pub fn refusal(game: &AnyGame, attempt: &Attempt) -> String {
            if attempt.cells.len() > MAX_ATTEMPT_CELLS {
                return "That is no move of this game.".to_owned();
            }
            match game {
                $(
                    $(#[cfg($cfg)])?
                    AnyGame::$variant(game) => <entry::$variant as GamePlay>::refusal(game, attempt),
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
    use std::collections::BTreeMap;

    use rand::SeedableRng;
    use spielleiter_rules::{
        GameType,
        blokus::{
            Move, Placement,
            bcl::{BclMove, PlaceTo},
        },
    };

    use super::*;

    /// `game` after the first offered move `moves` times.
    fn after(game_type: GameType, moves: usize) -> AnyGame {
        let mut game = AnyGame::new(game_type, &mut rand_pcg::Pcg64::seed_from_u64(11));
        for _ in 0..moves {
            let (mv, _) = choices(&game).into_iter().next().expect("a move");
            game.play(&mv).expect("a legal move");
        }
        game
    }

    /// Every piece of the page's list put at every place on and around
    /// the board as the page sends it (its unturned fields moved there),
    /// by the name of the mistake the rules find (`mistake_of`): the first
    /// such attempt's refusal.
    fn placement_refusals(
        game: &AnyGame,
        mistake_of: impl Fn(&str, &[(i32, i32)]) -> Option<&'static str>,
    ) -> BTreeMap<&'static str, String> {
        let board = board(game);
        let side = board.width as i32;
        let mut found = BTreeMap::new();
        for piece in &board.pieces {
            for dy in -3..side + 1 {
                for dx in -3..side + 1 {
                    let cells: Vec<[i32; 2]> =
                        piece.cells.iter().map(|&[x, y]| [x + dx, y + dy]).collect();
                    let pairs: Vec<(i32, i32)> = cells.iter().map(|&[x, y]| (x, y)).collect();
                    let Some(mistake) = mistake_of(&piece.name, &pairs) else {
                        continue;
                    };
                    found.entry(mistake).or_insert_with(|| {
                        refusal(
                            game,
                            &Attempt {
                                piece: Some(piece.name.clone()),
                                cells,
                                from: None,
                            },
                        )
                    });
                }
            }
        }
        found
    }

    /// Each mistake found has its words; the ones `required` are found.
    fn assert_words(
        found: &BTreeMap<&'static str, String>,
        words: &[(&str, &str)],
        required: &[&str],
    ) {
        for (mistake, refusal) in found {
            let (_, expected) = words
                .iter()
                .find(|(name, _)| name == mistake)
                .unwrap_or_else(|| panic!("no words expected for {mistake}: {refusal}"));
            assert!(
                refusal.contains(expected),
                "{mistake}: {refusal:?} does not say {expected:?}"
            );
            assert!(
                refusal.starts_with("The ") && refusal.ends_with('.'),
                "{refusal}"
            );
        }
        for mistake in required {
            assert!(
                found.contains_key(mistake),
                "{mistake} not found: {found:?}"
            );
        }
    }

    /// The 20×20 games' words for each mistake.
    const FOUR_COLOR_WORDS: &[(&str, &str)] = &[
        ("DUPLICATE_SHAPE", "that piece is already placed"),
        ("OUT_OF_BOUNDS", "off the board"),
        ("OBSTRUCTED", "a field that is taken"),
        (
            "TOUCHES_SAME_COLOR",
            "may not share an edge with your own blue pieces",
        ),
        (
            "NO_SHARED_CORNER",
            "must touch a corner of your own blue pieces",
        ),
        ("NOT_ON_BORDER", "must touch the edge of the board"),
        ("NOT_IN_CORNER", "must cover a corner of the board"),
        ("WRONG_SHAPE", "first piece must be the"),
        (
            "NOT_IN_OWN_CORNER",
            "must cover your start corner, the top left corner",
        ),
    ];

    /// The mistake the rules of a 20×20 game find for a placement of the
    /// colour to move on the fields.
    fn four_color_mistake(game: &AnyGame, cells: &[(i32, i32)]) -> Option<&'static str> {
        let placement = |color| Placement::from_cells(color, cells).map(Move::Set);
        match game {
            AnyGame::Blokus2027(game) => {
                let mv = placement(game.current_color())?;
                game.is_legal(&mv).err().map(|m| m.name())
            }
            AnyGame::BlokusClassic(game) => {
                let mv = placement(game.current_color())?;
                game.is_legal(&mv).err().map(|m| m.name())
            }
            other => panic!("no 20x20 game: {:?}", other.game_type()),
        }
    }

    #[test]
    fn a_refused_season_or_classic_placement_is_explained_by_its_mistake() {
        let later: &[&str] = &[
            "DUPLICATE_SHAPE",
            "OUT_OF_BOUNDS",
            "OBSTRUCTED",
            "TOUCHES_SAME_COLOR",
            "NO_SHARED_CORNER",
        ];
        for (game_type, first) in [
            (
                GameType::Blokus2027,
                &["OUT_OF_BOUNDS", "NOT_ON_BORDER"][..],
            ),
            (
                GameType::BlokusClassic,
                &["OUT_OF_BOUNDS", "NOT_IN_OWN_CORNER"][..],
            ),
        ] {
            for (moves, required) in [(0, first), (4, later)] {
                let game = after(game_type, moves);
                let found = placement_refusals(&game, |_, cells| four_color_mistake(&game, cells));
                assert_words(&found, FOUR_COLOR_WORDS, required);
            }
        }
    }

    #[test]
    fn a_refused_bcl_placement_is_explained_by_its_mistake() {
        let words: &[(&str, &str)] = &[
            ("BLOCK_USED", "that piece is already placed"),
            ("OUT_OF_STAGE", "off the board"),
            ("OVERLAP", "a field that is taken"),
            ("EDGE_CONTACT", "may not share an edge with your own pieces"),
            (
                "NO_CORNER_CONTACT",
                "must touch a corner of your own pieces",
            ),
            (
                "NOT_ON_START_CORNER",
                "must cover your start corner, the top left corner",
            ),
        ];
        for moves in [0, 2] {
            let game = after(GameType::BlokusBcl, moves);
            let AnyGame::BlokusBcl(typed) = &game else {
                unreachable!()
            };
            let player = typed.current_player();
            let found = placement_refusals(&game, |_, cells| {
                let fields: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (y, x)).collect();
                let place = PlaceTo::from_cells(player, &fields)?;
                typed
                    .is_legal(&BclMove::Place(place))
                    .err()
                    .map(|m| m.name())
            });
            let required: &[&str] = if moves == 0 {
                &["NOT_ON_START_CORNER", "OUT_OF_STAGE"]
            } else {
                &["OVERLAP", "EDGE_CONTACT", "NO_CORNER_CONTACT"]
            };
            assert_words(&found, words, required);
        }
    }

    #[test]
    fn a_placement_that_is_no_mistake_or_no_piece_is_said_so() {
        let game = after(GameType::Blokus2027, 0);
        let (_, legal) = choices(&game).into_iter().next().expect("a move");
        let attempt = Attempt {
            piece: legal.piece.clone(),
            cells: legal.cells.clone(),
            from: None,
        };
        assert_eq!(refusal(&game, &attempt), LEGAL_AFTER_ALL);
        let piece = legal.piece.clone().expect("a piece");
        let misshapen = Attempt {
            cells: vec![[0, 0]],
            ..attempt.clone()
        };
        assert!(
            refusal(&game, &misshapen).contains(&format!(
                "not the shape of the {}",
                spielleiter_render::blokus::piece_noun(&piece)
            )),
            "{}",
            refusal(&game, &misshapen)
        );
        let no_piece = Attempt {
            piece: None,
            ..attempt
        };
        assert_eq!(refusal(&game, &no_piece), "Choose a piece first.");
    }

    #[test]
    fn any_attempt_gets_words_and_none_panics() {
        let far = [i32::MIN, i32::MAX, -1, 0, 1, 19, 20];
        for &game_type in GameType::ALL {
            let game = after(game_type, 2);
            let names: Vec<Option<String>> = board(&game)
                .pieces
                .iter()
                .take(3)
                .map(|p| Some(p.name.clone()))
                .chain([None, Some("NO_SUCH_PIECE".to_owned())])
                .collect();
            for name in &names {
                for &x in &far {
                    for &y in &far {
                        let attempts = [
                            Attempt {
                                piece: name.clone(),
                                cells: vec![[x, y], [x.wrapping_add(1), y], [x, y.wrapping_add(1)]],
                                from: None,
                            },
                            Attempt {
                                piece: name.clone(),
                                cells: vec![[x, y], [i32::MIN, i32::MAX]],
                                from: Some([y, x]),
                            },
                            Attempt {
                                piece: None,
                                cells: Vec::new(),
                                from: Some([x, y]),
                            },
                        ];
                        for attempt in &attempts {
                            let words = refusal(&game, attempt);
                            assert!(words.ends_with('.'), "{game_type} {attempt:?}: {words:?}");
                        }
                    }
                }
            }
            let too_many = Attempt {
                cells: vec![[0, 0]; MAX_ATTEMPT_CELLS + 1],
                ..Attempt::default()
            };
            assert_eq!(refusal(&game, &too_many), "That is no move of this game.");
        }
    }

    spielleiter_rules::test_games! {
        #[test]
        fn a_refused_tic_tac_toe_click_names_the_field() {
            let game = after(GameType::TestTicTacToe, 1);
            let click = |x, y| Attempt {
                cells: vec![[x, y]],
                ..Attempt::default()
            };
            let marked = board(&game)
                .cells
                .iter()
                .position(|cell| cell.text.is_some())
                .expect("a marked field") as i32;
            assert_eq!(
                refusal(&game, &click(marked % 3, marked / 3)),
                "That field is marked already."
            );
            assert_eq!(refusal(&game, &click(3, 0)), "That field is off the board.");
            let free = (marked + 1) % 9;
            assert_eq!(refusal(&game, &click(free % 3, free / 3)), LEGAL_AFTER_ALL);
        }
    }

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
