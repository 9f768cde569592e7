//! Built-in bots for Blokus 2021: pure decision logic over the rules
//! engine's [`Blokus`] position. No I/O, no clock: a bot answers at once, and
//! whoever drives it over the network adds any think time.
//!
//! - [`RandomBot`]: a uniformly random legal placement (seedable).
//! - [`GreedyBot`]: the largest piece, placed where it leaves its colour the
//!   most free corners (see its documentation for the whole heuristic).
//!
//! [`BotKind`] names them for command lines (`random`, `greedy`).
//!
//! # Example
//!
//! ```
//! use spielleiter_bots::{Bot, GreedyBot};
//! use spielleiter_rules::blokus::{Blokus, PieceKind};
//!
//! let mut game = Blokus::new(PieceKind::PentoL);
//! let mut bot = GreedyBot::new();
//! while !game.is_over() {
//!     let mv = bot.choose_move(&game);
//!     game.play(&mv).expect("bots play legal moves");
//! }
//! ```
#![deny(missing_docs)]

mod greedy;
mod kind;
mod random;

pub use greedy::GreedyBot;
pub use kind::{BotKind, UnknownBot};
pub use random::RandomBot;
use spielleiter_rules::blokus::{Blokus, Move};

/// A Blokus 2021 player that chooses moves without I/O.
pub trait Bot {
    /// The bot's short name, e.g. `greedy`.
    fn name(&self) -> &'static str;

    /// A legal move for the colour on turn in `game`, which is not over.
    ///
    /// Bots place a piece whenever one fits (the rules guarantee that the
    /// colour on turn of a running game can place one) and pass otherwise.
    fn choose_move(&mut self, game: &Blokus) -> Move;
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn choose_move(&mut self, game: &Blokus) -> Move {
        (**self).choose_move(game)
    }
}
