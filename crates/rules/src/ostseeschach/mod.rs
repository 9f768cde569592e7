//! Ostseeschach as played in the Software-Challenge 2022
//! (`swc_2022_ostseeschach`): an 8×8 board, two teams of eight pieces
//! (Herzmuschel, Möwe, Seestern, Robbe), towers built by capturing, ambers
//! for high towers and for light pieces reaching the opponent's start line,
//! and a 30-round limit.
//!
//! The specification is `ostseeschach-2022.md` of the shared protocol
//! notes: the rules as the official 22.x server codes them.
//!
//! # Example
//!
//! ```
//! use spielleiter_rules::ostseeschach::{Move, MoveList, Ostseeschach, StartLine, Team};
//!
//! let line: StartLine = "HMSRHMSR".parse().expect("a valid start line");
//! let mut game = Ostseeschach::new(line);
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 17);
//! // The Möwe on (0, 1) steps forward.
//! game.play(&"0,1-1,1".parse::<Move>().expect("move text")).expect("legal");
//! assert_eq!(game.team_to_move(), Team::Two);
//! ```

mod bitboard;
mod game;
mod movelist;
mod moves;
pub mod notation;
mod outcome;
pub mod perft;
mod piece;
mod position;
mod setup;
mod start_line;

pub use game::new_random_game;
pub use movelist::{Iter as MoveListIter, MoveList};
pub use moves::{Coordinates, Mistake, Move};
pub use outcome::{EndReason, Outcome, WinReason};
pub use piece::{Piece, PieceKind};

pub use crate::{
    names::UnknownName,
    team::{ByTeam, Team},
};
pub use position::{Ostseeschach, SetupError};
pub use setup::{BOARD_SIZE, ROUND_LIMIT, Setup, TURN_LIMIT, WINNING_AMBERS};
pub use start_line::{StartLine, StartLineError};
