//! An async client for the Software-Challenge XML protocol, built only on
//! the protocol crate: it tests the wire from the outside, as a contestant's
//! program would.
//!
//! # Layout
//!
//! - [`connection`]: [`Connection`], one TCP connection (or another
//!   [`Transport`], such as an in-process pipe): it opens the
//!   `<protocol>` document, sends typed [`ClientMessage`]s and yields typed
//!   [`ServerMessage`]s; joining (`join`, `joinRoom`, `joinPrepared`), moves,
//!   and the administrator's requests (`authenticate`, `prepare`, `observe`,
//!   `cancel`) are methods on it.
//! - [`play`](mod@play): [`play()`], the loop that drives one game of any
//!   hosted type for a move-choosing function (a bot), with an optional
//!   think time.
//! - [`error`]: [`ClientError`], why an operation failed.
//!
//! # Example
//!
//! ```no_run
//! use spielleiter_client::{Connection, PlayOptions, play};
//! use spielleiter_rules::{AnyGame, AnyMove, Game, GameType};
//!
//! # async fn demo() -> Result<(), spielleiter_client::ClientError> {
//! let mut connection = Connection::connect("127.0.0.1:13050").await?;
//! let room = connection.join(GameType::Blokus2021).await?;
//! // The first legal move, whatever the game.
//! let first_move = |game: &AnyGame| {
//!     let mut first = None;
//!     game.for_each_legal_move(|mv| {
//!         first.get_or_insert(mv);
//!     });
//!     first.expect("a game asks only players that can move")
//! };
//! let report = play(&mut connection, &room, PlayOptions::default(), first_move).await?;
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

pub use connection::{Connection, Prepared, ServerAddress, Transport};
pub use error::ClientError;
pub use play::{GameReport, PlayOptions, play};
