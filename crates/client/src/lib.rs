//! An async client for the Software-Challenge XML protocol, built only on
//! the protocol crate: it tests the wire from the outside, as a contestant's
//! program would.
//!
//! # Layout
//!
//! - [`connection`]: [`Connection`], one TCP connection: it opens the
//!   `<protocol>` document, sends typed [`ClientMessage`]s and yields typed
//!   [`ServerMessage`]s; joining (`join`, `joinRoom`, `joinPrepared`), moves,
//!   and the administrator's requests (`authenticate`, `prepare`, `observe`,
//!   `cancel`) are methods on it.
//! - [`play`]: [`play_blokus`], the loop that drives one Blokus 2021 game
//!   for a move-choosing function (a bot), with an optional think time.
//! - [`error`]: [`ClientError`], why an operation failed.
//!
//! # Example
//!
//! ```no_run
//! use spielleiter_client::{Connection, PlayOptions, play_blokus};
//! use spielleiter_rules::blokus::{Blokus, Move, MoveList};
//!
//! # async fn demo() -> Result<(), spielleiter_client::ClientError> {
//! let mut connection = Connection::connect("127.0.0.1:13050").await?;
//! let room = connection.join().await?;
//! let mut moves = MoveList::new();
//! let report = play_blokus(&mut connection, &room, PlayOptions::default(), |game: &Blokus| {
//!     game.legal_moves(&mut moves);
//!     match moves.get(0) {
//!         Some(placement) => Move::Set(placement),
//!         None => Move::Skip(game.current_color()),
//!     }
//! })
//! .await?;
//! println!("{:?}", report.result);
//! # Ok(())
//! # }
//! ```
//!
//! [`ClientMessage`]: spielleiter_protocol::ClientMessage
//! [`ServerMessage`]: spielleiter_protocol::ServerMessage
#![deny(missing_docs)]

pub mod connection;
pub mod error;
pub mod play;
#[cfg(test)]
mod test_server;

pub use connection::{Connection, Prepared};
pub use error::ClientError;
pub use play::{GameReport, PlayOptions, play_blokus};
