//! Pure game rules for the games Spielleiter hosts: boards, pieces, move
//! generation, legality, scoring and game end.
//!
//! This crate does no I/O and knows no clock, no XML and no async runtime; a
//! random source, where a game needs one, is passed in by the caller.
//!
//! # Layout
//!
//! - [`game`]: the game-agnostic interface the server drives ([`Game`],
//!   [`GameType`], [`AnyGame`]).
//! - [`blokus`]: Blokus 2021 (`swc_2021_blokus`).
//! - [`polyomino`]: board geometry and piece tables shared by the Blokus
//!   variants (bitboards, oriented shapes, bit-parallel placement search).
#![cfg_attr(not(test), no_std)]
#![deny(missing_docs)]

pub mod blokus;
pub mod game;
pub mod polyomino;

pub use game::{AnyGame, AnyMistake, AnyMove, Game, GameType, PlayerSet};
