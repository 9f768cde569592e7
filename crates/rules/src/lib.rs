//! Pure game rules for the games Spielleiter hosts: boards, pieces, move
//! generation, legality, scoring and game end.
//!
//! This crate does no I/O and knows no clock, no XML and no async runtime; a
//! random source, where a game needs one, is passed in by the caller. Texts
//! for people (the official German messages) belong to the protocol crate.
//!
//! # Layout
//!
//! - [`game`]: the game-agnostic interface the server drives ([`Game`],
//!   seats as [`PlayerSet`]s, [`ScoreParts`]).
//! - [`catalogue`]: the one list of hosted games, generating [`GameType`],
//!   [`AnyGame`], [`AnyMove`] and [`AnyMistake`].
//! - One module per game: [`blokus`] (one engine for the Blokus variants:
//!   2021, `swc_2021_blokus`; 2027, `swc_2027_blokus`; not yet in the
//!   catalogue: classic for 4, 3 and 2 players and the 10×10 BLOKUS
//!   Champions League game), [`ostseeschach`] (Ostseeschach 2022,
//!   `swc_2022_ostseeschach`).
//! - [`polyomino`]: board geometry and piece tables shared by the Blokus
//!   variants (bitboards, oriented shapes, bit-parallel placement search).
//! - The vocabulary the games share: [`team`] (the two sides of a
//!   two-player game, [`Team`]), [`index_set`] (one set type for seats,
//!   colours and piece kinds, [`IndexSet`]) and [`names`] (the error of an
//!   unknown wire name).
//!
//! # How to add a game
//!
//! 1. A module `src/<game>/` with the game's state, moves and mistakes and
//!    an `impl Game` (see [`blokus`]'s `game.rs`), tested in
//!    `tests/<game>/`.
//! 2. One entry in the list in `src/game_list.rs`: the
//!    variant name, the protocol id, the number of seats, the Rust type and
//!    its constructor.
//!
//! The protocol crate (the game's XML) and the bots crate (its built-in
//! bots) each have their own list; their `lib.rs` says what goes there.
//!
//! # Test-only games
//!
//! With the feature `test-games` the catalogue also holds `test_counting`
//! (module `counting`), a three-seat game the end-to-end tests play through
//! the real server. Only the end-to-end test crate enables the feature, as a
//! dev-dependency; cargo's feature resolver (resolver 3) does not carry
//! dev-dependency features into normal builds, so `cargo run --release`
//! and `cargo build --release` never host it.
#![cfg_attr(not(test), no_std)]
#![deny(missing_docs)]

// Declared first, with macro_use: catalogue.rs expands for_each_game! by
// name, which needs the macros before it.
#[macro_use]
mod game_list;
pub mod blokus;
pub mod catalogue;
#[cfg(feature = "test-games")]
pub mod counting;
pub mod game;
pub mod index_set;
pub mod names;
pub mod ostseeschach;
pub mod polyomino;
pub mod team;
#[cfg(feature = "test-games")]
pub mod tictactoe;

pub use catalogue::{
    AnyGame, AnyMistake, AnyMove, CatalogueEntry, GameType, League, Ranking, UnknownGameType, entry,
};
pub use game::{Game, PlayerSet, ScoreParts, Seats, perft};
pub use index_set::{IndexSet, Indexed};
pub use team::{ByTeam, Team};
