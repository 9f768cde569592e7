//! The Software-Challenge XML wire protocol, byte-compatible with the
//! official server of each hosted season (2021, 2022, 2027): framing, typed
//! messages, the official encoding, and replay files.
//!
//! # Layout
//!
//! Bytes become messages in two steps (mini-redis' check → parse split):
//!
//! - [`framing`]: [`FrameDecoder`], a tokio-util `Decoder` that cuts the
//!   endless `<protocol>` document into complete packets ([`Frame`]s) without
//!   parsing them, with a size and depth limit.
//! - [`ClientMessage::decode`] / [`ServerMessage::decode`] parse one frame
//!   with quick-xml into a typed message ([`client`], [`server`], [`room`]).
//!
//! Messages are written back with `encode` into a reusable buffer, in the
//! exact form the official server writes; [`stream`] adds the framing of a
//! connection (server and client side) and [`replay`] that of replay files.
//! [`codec`] joins both directions into `tokio_util::codec::Framed`-ready
//! codecs: [`ServerCodec`] for the server, [`ClientCodec`] for clients.
//!
//! The game-specific parts live in one module per game in [`games`]
//! ([`blokus2021`](games::blokus2021),
//! [`ostseeschach2022`](games::ostseeschach2022),
//! [`blokus2027`](games::blokus2027); the Blokus seasons build on the
//! shared [`blokus`](games::blokus) pieces; [`bcl`](games::bcl), the
//! BLOKUS Champions League game, has a wire form and dialect of its own)
//! and are joined by the enums of
//! [`games`] ([`GameState`], [`GameMove`]). [`dialect`] says what differs
//! between the seasons (a [`Dialect`] per season, defined with the
//! season's game); [`seats`] names seats `ONE`, `TWO`, … for every game.
//! [`result`] holds the game-independent result shapes and their layouts;
//! [`texts`] the lobby's official texts, [`room_texts`] the official texts
//! about a game that the seasons share. Everything outside [`games`] is
//! the same for every game.
//!
//! A room packet carries a move, a state or a result of one game, so it is
//! read for a game: [`ClientMessage::decode`] takes the game the sender
//! plays, [`ServerMessage::decode`] the game a client plays or observes.
//!
//! # How to add a game
//!
//! 1. A folder `src/games/<game>/` with a unit type implementing the
//!    crate's `WireGame` trait (`src/games/wire_game.rs`): the state inside a memento (to and from
//!    XML), the move classes and move XML, how a wire move becomes the
//!    rules' move, the game's score fragments, the official texts of its
//!    mistakes and the description of its moves, its season's
//!    [`Dialect`], and its record in another program's format, if it has
//!    one ([`RecordFormat`]; `None` otherwise). A new season of a game already hosted shares its pieces
//!    instead (as `blokus2027` implements the shared `BlokusSeason`: move
//!    classes, state layout, texts).
//! 2. In the same folder, [`WireEntry`](games::WireEntry) for the game's
//!    marker type in the rules catalogue (`spielleiter_rules::entry`),
//!    naming that unit type and its state and move types. [`GameState`]
//!    and [`GameMove`] are generated from the rules catalogue's list, so
//!    there is no list here to extend, and a game without a `WireEntry`
//!    does not compile. Conversions from the game's own state and move
//!    types into them (`From`) go next to the enums in `src/games/mod.rs`:
//!    a game folder names nothing above it.
//! 3. For a new season: its [`Dialect`] constant and its
//!    [`SeasonTexts`](dialect::SeasonTexts) in the season's game folder,
//!    built from the official texts the seasons share ([`room_texts`]); the
//!    result layouts of 2021, 2022 and 2027 exist already
//!    ([`ResultLayout`](dialect::ResultLayout)).
//!
//! # Test-only games
//!
//! When the rules crate has its test-only games (its feature `test-games`,
//! which only tests enable, through their dev-dependencies), so does the
//! wire: `games::counting` (three seats, a dialect of its own) and
//! `games::tictactoe`, declared with `spielleiter_rules::test_games!`.
//!
//! # Example
//!
//! ```
//! use bytes::BytesMut;
//! use spielleiter_protocol::{ClientMessage, FrameDecoder, StreamEvent};
//! use tokio_util::codec::Decoder;
//!
//! let mut decoder = FrameDecoder::new();
//! let mut buf = BytesMut::from(&b"<protocol><join gameType=\"swc_2021_blokus\"/>"[..]);
//! let Some(StreamEvent::Frame(frame)) = decoder.decode(&mut buf)? else {
//!     panic!("expected a packet");
//! };
//! // A player that plays no game yet: its moves would not be read as moves.
//! let message = ClientMessage::decode(frame.as_bytes(), None)?;
//! assert_eq!(
//!     message,
//!     ClientMessage::Join { game_type: Some("swc_2021_blokus".into()) }
//! );
//! assert_eq!(message.to_xml(), r#"<join gameType="swc_2021_blokus"/>"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod client;
pub mod codec;
pub mod dialect;
pub mod english;
pub mod error;
pub mod framing;
pub mod games;
pub mod replay;
pub mod result;
pub mod room;
pub mod room_texts;
pub mod seats;
pub mod server;
pub mod stream;
pub mod texts;
pub mod xml;

pub use client::{ClientMessage, Prepare, SlotDescriptor};
pub use codec::{ClientCodec, Incoming, ServerCodec};
pub use dialect::Dialect;
pub use error::{DecodeError, MoveError};
pub use framing::{Frame, FrameDecoder, FramingError, StreamEvent};
pub use games::{GameMove, GameState, InvalidState, RecordError, RecordFormat};
pub use replay::{Replay, ReplayError, ReplayWriter, read_replay};
pub use result::{
    Aggregation, Conclusion, Decimal, GameResult, PlayerScore, PlayerScoreReport, ScoreCause,
    ScoreFragment, ScoreValue, SeatResult, Winner,
};
pub use room::RoomData;
pub use server::ServerMessage;
pub use spielleiter_rules::GameType;
pub use stream::{ClientStreamEncoder, ServerStreamEncoder};
