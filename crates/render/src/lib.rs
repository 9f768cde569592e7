//! Board pictures of every game Spielleiter hosts, as SVG (the web pages,
//! `spielleiter render`), PNG (through resvg, feature `png`) and text for a
//! terminal (`spielleiter replay show`). One renderer for all of them: a
//! position becomes a [`Picture`], which draws itself in each format.
//!
//! Pure functions of the rules' positions: no I/O (but the fonts for PNG),
//! no clock, no protocol. Names, results and other text that the position
//! does not know come in [`Labels`].
//!
//! # Layout
//!
//! - [`picture`]: any game of the catalogue ([`AnyGame`]), chosen by its
//!   type through [`GamePicture`], which every game implements in its
//!   module here; a game without a board drawing of its own says so and
//!   gets its seats and scores only ([`seats_only`]).
//! - One module per game for its own picture: [`blokus`] (the Blokus
//!   seasons, classic Blokus, the Champions League game),
//!   [`ostseeschach`].
//! - [`last_move_in_words`]: the move that led to a position, as a person
//!   says it (`Blue places the T tetromino on (2,3) (3,3) (4,3) (3,4)`,
//!   `Red moves the Möwe from (1,1) to (2,1)`), from each game's
//!   [`GamePicture::last_move_in_words`]; never the protocol's tokens.
//!   [`turns_in_words`] adds the turns the rules skipped after it, each
//!   with its number, for move lists whose numbers run on without gaps.
//! - [`bracket`]: a knockout's bracket (the contest's final), from the
//!   text of its boxes alone.
//! - `scene`: the game-independent picture (a board of coloured fields or
//!   pieces, the last move, one line per seat), drawn by `svg` and `text`.
//!
//! # Example
//!
//! ```
//! use spielleiter_render::{Labels, picture};
//! use spielleiter_rules::{AnyGame, blokus::{Blokus, PieceKind}};
//!
//! let game = AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL));
//! let labels = Labels { names: vec!["alice".into(), "bob".into()], ..Labels::default() };
//! let svg = picture(&game, &labels).svg();
//! assert!(svg.starts_with("<svg") && svg.contains("alice"));
//! ```
#![deny(missing_docs)]

pub mod blokus;
pub mod bracket;
spielleiter_rules::test_games! {
    mod counting;
    mod tictactoe;
}
pub mod ostseeschach;
#[cfg(feature = "png")]
mod png;
mod scene;
mod svg;
mod text;

use spielleiter_rules::{AnyGame, CatalogueEntry, Game, GameType, entry};

#[cfg(feature = "png")]
pub use png::{PngError, fonts_available, png};

pub use crate::scene::seat_name;
use crate::scene::{Board, Ground, Scene, SeatLine};

/// What a picture shows beyond the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// The players' display names in seat order; a blank or missing name
    /// shows the seat's label (`ONE`, `TWO`, …).
    pub names: Vec<String>,
    /// Lines under the seats, e.g. the result.
    pub notes: Vec<String>,
    /// The game has ended although the position may not say so: a
    /// disqualification, a timeout or a cancel ends a game the rules would
    /// go on with. Nobody is then to move, and the heading says so.
    pub ended: bool,
    /// The last move in words, where the caller knows the position before
    /// it ([`last_move_in_words`]): what was taken, say, which the position
    /// after no longer shows. `None`: the picture describes the last move
    /// from its position alone.
    pub last_move: Option<String>,
}

/// The picture of a position, ready to be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture(Scene);

impl Picture {
    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        svg::draw(&self.0)
    }

    /// The board alone as an SVG document: its coordinates, fields and
    /// pieces, and each colour's pieces beside it, for a page that shows
    /// the heading, seats and notes itself (the play page). The root's
    /// `data-board="X Y FIELD COLUMNS ROWS"` says where the fields lie.
    pub fn board_svg(&self) -> String {
        svg::draw_board(&self.0)
    }

    /// The picture as text for a terminal; `color` adds ANSI colours.
    pub fn text(&self, color: bool) -> String {
        text::draw(&self.0, color)
    }
}

/// A game's picture, implemented by its marker type
/// ([`entry`]) in the game's module of this
/// crate. [`picture`] is generated from the rules catalogue's list, so a
/// game of the list without `GamePicture` does not compile; a game without
/// a board of its own says so in its `impl` ([`seats_only`]).
pub trait GamePicture: CatalogueEntry {
    /// The picture of `game`.
    fn picture(game: &Self::Game, labels: &Labels) -> Picture;

    /// The move that led from `before` to `after`, in words for people
    /// (the move list of the replay viewer); `None` where no move led
    /// there (the same position twice, as a paused room records it).
    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String>;

    /// The turns after that move which the rules passed on without a move
    /// (a Blokus colour that can place no piece is skipped, its turn number
    /// consumed), one line each in order; none for a game that skips no
    /// turn.
    fn skipped_in_words(_before: &Self::Game, _after: &Self::Game) -> Vec<String> {
        Vec::new()
    }
}

/// One turn of a game in words, as a move list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInWords {
    /// The turn's number: the turn counter of the position right after it
    /// (the first move of a game is turn 1), so that the numbers of a move
    /// list run on without gaps, skipped turns included.
    pub turn: u32,
    /// The move, or why the turn had none, in words.
    pub words: String,
    /// Whether the rules skipped the turn (no move was made in it).
    pub skipped: bool,
}

/// Generates [`picture`] from the rules catalogue's list (through
/// [`spielleiter_rules::for_each_game!`]).
macro_rules! picture_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// The picture of `game`, drawn as its type's module draws it.
        pub fn picture(game: &AnyGame, labels: &Labels) -> Picture {
            match game {
                $(
                    $(#[cfg($cfg)])?
                    AnyGame::$variant(game) => {
                        <entry::$variant as GamePicture>::picture(game, labels)
                    }
                )*
            }
        }

        /// The move that led from `before` to `after` (two positions of
        /// one game, one move apart), in words for people; `None` where no
        /// move led there, or the positions are of different games.
        ///
        /// The turns the rules skipped after it are [`turns_in_words`]'s.
        pub fn last_move_in_words(before: &AnyGame, after: &AnyGame) -> Option<String> {
            match (before, after) {
                $(
                    $(#[cfg($cfg)])?
                    (AnyGame::$variant(before), AnyGame::$variant(after)) => {
                        <entry::$variant as GamePicture>::last_move_in_words(before, after)
                    }
                )*
                #[allow(unreachable_patterns, reason = "a catalogue of one game")]
                _ => None,
            }
        }

        /// Every turn from `before` to `after` (two positions of one game,
        /// one move apart) in words: the move, numbered by the turn after
        /// `before`, then each turn the rules skipped after it, numbered on
        /// (a move list's numbers run on without gaps). Empty where no
        /// move led there, or the positions are of different games.
        pub fn turns_in_words(before: &AnyGame, after: &AnyGame) -> Vec<TurnInWords> {
            let (words, skipped) = match (before, after) {
                $(
                    $(#[cfg($cfg)])?
                    (AnyGame::$variant(before), AnyGame::$variant(after)) => (
                        <entry::$variant as GamePicture>::last_move_in_words(before, after),
                        <entry::$variant as GamePicture>::skipped_in_words(before, after),
                    ),
                )*
                #[allow(unreachable_patterns, reason = "a catalogue of one game")]
                _ => (None, Vec::new()),
            };
            let Some(words) = words else {
                return Vec::new();
            };
            let first = before.turn().saturating_add(1);
            std::iter::once((words, false))
                .chain(skipped.into_iter().map(|words| (words, true)))
                .enumerate()
                .map(|(index, (words, skipped))| TurnInWords {
                    turn: first.saturating_add(index as u32),
                    words,
                    skipped,
                })
                .collect()
        }
    };
}

spielleiter_rules::for_each_game!(picture_catalogue);

/// The seats and scores of any game, with no board: the picture of a game
/// that has no drawing of its own (a test game).
pub fn seats_only<G: Game>(game: &G, game_type: GameType, labels: &Labels) -> Picture {
    let over = game.is_over() || labels.ended;
    let seats = (0..game.player_count())
        .map(|seat| SeatLine {
            name: seat_name(&labels.names, seat),
            colors: Vec::new(),
            score: game
                .score(seat)
                .as_slice()
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" · "),
            gems: 0,
            to_move: !over && game.player_to_move() == Some(seat),
        })
        .collect();
    let mut title = format!("{} · turn {}", game_type.title(), game.turn());
    if over {
        title.push_str(" · game over");
    }
    Picture(Scene {
        game_id: game_type.id(),
        turn: game.turn(),
        title,
        board: Board::new(0, 0, 0, Ground::Grid, &[]),
        seats,
        notes: labels.notes.clone(),
        letters_key: None,
        stock: Vec::new(),
    })
}
