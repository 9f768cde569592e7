//! The 10×10 game of the BLOKUS Champions League (`blokus_bcl`; seed
//! `004_b3a9ad37f11cf5d7.txt`, restated in `decisions.md` §20–§22), on the
//! one Blokus engine with [`BclRules`](super::variant::BclRules).
//!
//! Two players, ONE and TWO, one colour each; coordinates are the seed's
//! (row, column) with (0,0) the top-left field. Each player holds the
//! seed's 12 blocks of 10 kinds ([`BclKind`]: SQUARE and WORM twice, the
//! hexominoes SHOTGUN and CROWBAR among them; CROSS is the 5-cell plus).
//! A move is the seed's `place_to` ([`PlaceTo`]): a kind turned clockwise
//! (NONE, SINGLE, DOUBLE, TRIPLE), then flipped (NONE, HORIZONTAL,
//! VERTICAL), with the bottom-left cell of its bounding box on the given
//! field. The first block of ONE covers (0,0), of TWO (9,9); later blocks
//! touch their own at a corner and never along an edge. A player who
//! cannot place passes (is skipped); the game ends when neither can place,
//! and more cells wins.
//!
//! ```
//! use spielleiter_rules::blokus::bcl::{Bcl, BclMove, BclMoveList, BclPlayer};
//!
//! let mut game = Bcl::new();
//! let mut moves = BclMoveList::new();
//! game.legal_moves(&mut moves);
//! let first = moves.get(0).expect("ONE can place");
//! assert!(first.cells().any(|field| field == (0, 0)));
//! game.play(&BclMove::Place(first)).expect("generated moves are legal");
//! assert_eq!(game.current_player(), BclPlayer::Two);
//! ```

mod game;
mod notation;
pub(crate) mod pieces;
mod position;

pub use game::new_game;
pub use notation::ParseBclMoveError;
pub use pieces::{BclFlip, BclKind, BclRotation};
pub use position::{
    BCL_BOARD_SIZE, Bcl, BclBoard, BclMistake, BclMove, BclMoveList, BclMoveListIter, BclPlayer,
    BclSetup, BclSetupError, OutReason, PlaceTo,
};
