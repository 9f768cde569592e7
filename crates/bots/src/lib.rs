//! Built-in bots: pure decision logic over the rules engines, one folder per
//! game. No I/O, no clock: a bot answers at once, and whoever drives it over
//! the network adds any think time.
//!
//! - [`Bot`]: a player of one game type.
//! - [`BotKind`] names the bots for command lines (`random`, `greedy`, and
//!   `illegal` for tests);
//!   [`BotKind::build`] gives the bot of a kind for any hosted game, as an
//!   [`AnyBot`] that plays [`AnyGame`](spielleiter_rules::AnyGame)s.
//! - [`blokus`]: the Blokus seasons' (2021, 2027) [`RandomBot`](blokus::RandomBot)
//!   (a uniformly random legal placement) and [`GreedyBot`](blokus::GreedyBot)
//!   (the largest piece, where it leaves its colour the most free corners).
//! - [`bcl`]: the BLOKUS Champions League game's (`blokus_bcl`)
//!   [`RandomBot`](bcl::RandomBot), [`GreedyBot`](bcl::GreedyBot) and, for
//!   tests, [`IllegalBot`](bcl::IllegalBot) (`illegal`: a legal first block,
//!   then an overlapping one, so it is disqualified in every game).
//! - [`ostseeschach2022`]: Ostseeschach 2022's
//!   [`RandomBot`](ostseeschach2022::RandomBot) (a uniformly random legal
//!   move) and [`GreedyBot`](ostseeschach2022::GreedyBot) (the move whose
//!   worst reply leaves the best position: ambers first, then the pieces).
//!
//! # How to add a game's bots
//!
//! A folder `src/<game>/` with the bots (each an `impl Bot<TheGame>`) and
//! an `impl GameBots for spielleiter_rules::entry::TheGame` that builds the
//! game's bot of each kind it has (`None` for the kinds it has not). The
//! catalogue ([`AnyBot`]) is generated from the rules catalogue's list, so
//! a game of the list without `GameBots` does not compile; a game with no
//! bots at all says so in its `impl` (always `None`).
//!
//! # Example
//!
//! ```
//! use spielleiter_bots::{Bot, blokus::GreedyBot};
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

pub mod bcl;
pub mod blokus;
mod bot;
mod catalogue;
spielleiter_rules::test_games! {
    pub mod counting;
    pub mod tictactoe;
}
mod kind;
pub mod ostseeschach2022;

pub use bot::Bot;
pub use catalogue::{AnyBot, GameBots};
pub use kind::{BotKind, NoSuchBot, UnknownBot};
