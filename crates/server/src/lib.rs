//! The Spielleiter game server: hosts Software-Challenge style matches over
//! TCP for remote AI clients. It holds no game rules itself: the rules
//! crate plays the games, the protocol crate speaks the wire.
//!
//! The server names no game: it drives every game of the rules crate's
//! catalogue through `AnyGame` (seats `0..player_count()`, whose turn it is,
//! the game's score parts and regular winners), reads moves for the game of
//! the sender's room, and asks the game's [`Dialect`] wherever seasons
//! differ (the move request's class, the close packet, the texts about a
//! game, the result's layout, who is timed, whether a connection stays open
//! after the game). What is the server's own for every game: win points (2
//! for a sole win, 1 each for a shared one) and irregular ends (the
//! offender gets nothing, everybody else wins), see [`ending`]. Adding a game
//! changes nothing here.
//!
//! [`Dialect`]: spielleiter_protocol::Dialect
//!
//! # Layout
//!
//! - [`server`]: the accept loop, the connection limits and the shutdown
//!   sequence; [`run`] is the entry point. [`limits`]: the limits per peer
//!   address.
//! - [`in_process`]: connections from the server's own process (an
//!   administrator without a passphrase, players that cannot administer).
//! - [`connection`]: one task per client reading its stream; [`outbound`]:
//!   its bounded send queue, written by the senders themselves while the
//!   socket takes it, and its writer task for the rest.
//! - [`lobby`]: one task owning the room registry and reservations.
//! - [`room`]: one task per room owning the game, seats, observers and the
//!   [`clock`]; [`ending`] scores how a game ended.
//! - [`wire`]: every packet the server sends, encoded once, in the dialect
//!   of the room's game; [`texts`]: the server's own texts.
//! - [`replay`]: replay files, written off the room task.
//! - [`stats`]: counters and the server-added move latency; [`scores`]: the
//!   test-mode score table; [`showroom`]: the snapshots rooms publish for
//!   watchers (the web pages), the latest value winning.
//! - [`config`]: defaults, file, environment and flags merged into a
//!   [`Config`]; [`ids`]: room ids and reservation codes.
#![deny(missing_docs)]

pub mod clock;
pub mod config;
pub mod connection;
pub mod ending;
pub mod ids;
pub mod in_process;
pub mod limits;
pub mod lobby;
pub mod outbound;
pub mod replay;
pub mod room;
pub mod scores;
pub mod server;
pub mod showroom;
pub mod stats;
pub mod texts;
pub mod wire;

pub use config::Config;
pub use server::{EmbeddedServer, run, run_shared, run_with_stats};
