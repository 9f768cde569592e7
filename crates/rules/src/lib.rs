//! Pure game rules for the games Spielleiter hosts: boards, pieces, move
//! generation, legality, scoring and game end.
//!
//! This crate does no I/O and knows no clock, no XML and no async runtime; a
//! random source, where a game needs one, is passed in by the caller.
//!
//! # Layout
//!
//! - [`blokus`]: Blokus 2021 (`swc_2021_blokus`).
#![cfg_attr(not(test), no_std)]
#![deny(missing_docs)]

pub mod blokus;
