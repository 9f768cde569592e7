//! Blokus as played in the Software-Challenge 2021 (`swc_2021_blokus`): a
//! 20×20 board, two teams with two colours each, a random start pentomino
//! shared by all colours, and a 25-round limit.
//!
//! The specification is `blokus-2021.md` of the shared protocol notes, with
//! the project decisions of `decisions.md` §1–4.

pub mod color;
pub mod moves;
pub mod piece;
pub mod setup;

pub use color::{ByColor, Color, ColorSet, Team, UnknownName};
pub use moves::{Mistake, Move, Placement};
pub use piece::{PieceKind, PieceSet, Rotation, Shape};
pub use setup::{BOARD_SIZE, ROUND_LIMIT, Setup};
