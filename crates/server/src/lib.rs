//! The Spielleiter game server: hosts Software-Challenge style matches over
//! TCP for remote AI clients. It holds no game rules itself: the rules
//! crate plays the games, the protocol crate speaks the wire.
//!
//! # Layout
//!
//! - [`server`]: the accept loop, the connection limits and the shutdown
//!   sequence; [`run`] is the entry point. [`limits`]: the limits per peer
//!   address.
//! - [`connection`]: one task per client reading its stream; [`outbound`]:
//!   its bounded send queue and writer task.
//! - [`lobby`]: one task owning the room registry and reservations.
//! - [`room`]: one task per room owning the game, seats, observers and the
//!   [`clock`]; [`ending`] scores how a game ended.
//! - [`wire`]: every packet the server sends, encoded once, in the dialect
//!   of the room's game; [`texts`]: the server's own texts.
//! - [`replay`]: replay files, written off the room task.
//! - [`stats`]: counters and the server-added move latency; [`scores`]: the
//!   test-mode score table.
//! - [`config`]: defaults, file, environment and flags merged into a
//!   [`Config`]; [`ids`]: room ids and reservation codes.
#![deny(missing_docs)]

pub mod clock;
pub mod config;
pub mod connection;
pub mod ending;
pub mod ids;
pub mod limits;
pub mod lobby;
pub mod outbound;
pub mod replay;
pub mod room;
pub mod scores;
pub mod server;
pub mod stats;
pub mod texts;
pub mod wire;

pub use config::Config;
pub use server::{EmbeddedServer, run, run_with_stats};
