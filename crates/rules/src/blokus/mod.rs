//! Blokus: one engine for every variant Spielleiter hosts, parametrised by a
//! [`Variant`] (board size, colours, piece set, start, pass and end rules,
//! scoring), and a public game type per variant.
//!
//! - [`Blokus`]: the Software-Challenge 2021 game (`swc_2021_blokus`): a
//!   20×20 board, two teams with two colours each, a random start pentomino
//!   shared by all colours, and a 25-round limit. The specification is
//!   `blokus-2021.md` of the shared protocol notes, with the project
//!   decisions of `decisions.md` §1–4.
//! - [`Blokus2027`]: the Software-Challenge 2027 game (`swc_2027_blokus`):
//!   as 2021, but first pieces on the border, `PENTO_X` a possible start
//!   piece, and the end at turn 96 (`blokus-2027.md` §3, `decisions.md`
//!   §24–§25). Same moves, mistakes and plain data as 2021.
//! - [`Classic`]: classic Blokus for four, three or two players
//!   (`blokus_classic`, `_3`, `_2`; `decisions.md` §17–§18): own start
//!   corners, any first piece, no voluntary pass, the end when no colour
//!   can place. Same moves and move lists as the seasons, its own
//!   [`ClassicMistake`].
//! - [`bcl::Bcl`]: the 10×10 game of the BLOKUS Champions League
//!   (`blokus_bcl`; `decisions.md` §20–§22): two players, the league's own
//!   12 blocks, `place_to` moves in (row, column) coordinates; its own
//!   module [`bcl`].
//!
//! # Example
//!
//! ```
//! use spielleiter_rules::blokus::{Blokus, Color, Move, MoveList, PieceKind};
//!
//! let mut game = Blokus::new(PieceKind::PentoW);
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 8); // the start piece in the four corners
//! let first = moves.get(0).expect("BLUE can move");
//! game.play(&Move::Set(first)).expect("generated moves are legal");
//! assert_eq!(game.current_color(), Color::Yellow);
//! ```

pub mod bcl;
mod check_order;
pub mod classic;
pub mod color;
mod engine;
mod game;
mod movelist;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
mod position;
mod search;
pub mod setup;
mod shapes;
pub mod variant;

pub use classic::{Classic, ClassicMistake, ClassicPlayers, ClassicSetup};
pub use color::{ByColor, Color, ColorSet};
pub use game::{new_classic_2, new_classic_3, new_classic_4, new_random_game};
pub use movelist::{Iter as MoveListIter, MoveList};
pub use moves::{Mistake, Move, Placement};
pub use piece::{PieceKind, PieceSet, Rotation, Shape};
pub use position::{Blokus, Blokus2027, Board, SetupError, SwcBlokus, SwcVariant};
pub use setup::{BOARD_SIZE, ROUND_LIMIT, Setup};
pub use shapes::{SHAPE_COUNT, SHAPES};
pub use variant::{BclRules, ClassicRules, Swc2021, Swc2027, Variant};

pub use crate::{names::UnknownName, team::Team};
