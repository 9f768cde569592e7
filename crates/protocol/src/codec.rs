//! Whole-connection codecs for `tokio_util::codec::Framed`: framing and
//! parsing in one `Decoder`, the stream form in one `Encoder`.
//!
//! [`ServerCodec`] is the server's side of a connection (reads
//! [`ClientMessage`]s, writes [`ServerMessage`]s); [`ClientCodec`] is a
//! client's side (the opposite). A packet that is framed correctly but
//! cannot be parsed is an [`Incoming::Malformed`] item, not a stream error:
//! the stream itself is intact, and the server decides what to answer
//! (decisions.md §7, §8). Only [`FramingError`]s end the stream.

use std::io;

use bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};

use spielleiter_rules::GameType;

use crate::{
    client::ClientMessage,
    error::DecodeError,
    framing::{Frame, FrameDecoder, FramingError, StreamEvent},
    server::ServerMessage,
    stream::{ClientStreamEncoder, ServerStreamEncoder},
};

/// What a codec read from the peer.
#[derive(Debug)]
pub enum Incoming<M> {
    /// A message.
    Message(M),
    /// A complete packet that is not a valid message (malformed XML inside
    /// the element, a missing attribute, a malformed move).
    Malformed {
        /// Why it could not be parsed.
        error: DecodeError,
        /// The packet as received.
        frame: Frame,
    },
    /// The peer closed its root element (`</protocol>`).
    End,
}

fn parse<M>(
    event: Option<StreamEvent>,
    parse: impl FnOnce(&[u8]) -> Result<M, DecodeError>,
) -> Option<Incoming<M>> {
    Some(match event? {
        StreamEvent::Frame(frame) => match parse(frame.as_bytes()) {
            Ok(message) => Incoming::Message(message),
            Err(error) => Incoming::Malformed { error, frame },
        },
        StreamEvent::End => Incoming::End,
    })
}

/// The server's side of a connection: decodes what a client sends (moves as
/// moves of the game the client plays, see [`ServerCodec::set_game`]),
/// encodes what the server sends (in the official stream form).
#[derive(Debug, Default)]
pub struct ServerCodec {
    frames: FrameDecoder,
    out: ServerStreamEncoder,
    game: Option<GameType>,
}

impl ServerCodec {
    /// A codec with the default limits (see [`FrameDecoder::new`]).
    pub fn new() -> ServerCodec {
        ServerCodec::default()
    }

    /// A codec with the given maximum packet size and nesting depth.
    pub fn with_limits(max_message_size: usize, max_depth: usize) -> ServerCodec {
        ServerCodec {
            frames: FrameDecoder::with_limits(max_message_size, max_depth),
            out: ServerStreamEncoder::new(),
            game: None,
        }
    }

    /// The game the client plays from now on (its moves are read as moves
    /// of it); `None` before it joined.
    pub fn set_game(&mut self, game: Option<GameType>) {
        self.game = game;
    }

    /// Writes the end of the server's document (`\n</protocol>`, or
    /// `<protocol/>` if nothing was sent); to be sent before closing.
    pub fn finish(&mut self, dst: &mut BytesMut) {
        self.out.finish(dst);
    }
}

impl Decoder for ServerCodec {
    type Item = Incoming<ClientMessage>;
    type Error = FramingError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, FramingError> {
        let game = self.game;
        Ok(parse(self.frames.decode(src)?, |bytes| {
            ClientMessage::decode(bytes, game)
        }))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, FramingError> {
        let game = self.game;
        Ok(parse(self.frames.decode_eof(src)?, |bytes| {
            ClientMessage::decode(bytes, game)
        }))
    }
}

impl Encoder<&ServerMessage> for ServerCodec {
    type Error = io::Error;

    fn encode(&mut self, message: &ServerMessage, dst: &mut BytesMut) -> io::Result<()> {
        self.out.write(message, dst);
        Ok(())
    }
}

/// A client's side of a connection: decodes what the server sends (states
/// as states of the game the client plays), encodes what the client sends.
#[derive(Debug)]
pub struct ClientCodec {
    frames: FrameDecoder,
    out: ClientStreamEncoder,
    game: GameType,
}

impl ClientCodec {
    /// A codec for a client playing (or observing) `game`.
    pub fn new(game: GameType) -> ClientCodec {
        ClientCodec {
            frames: FrameDecoder::new(),
            out: ClientStreamEncoder::new(),
            game,
        }
    }

    /// Writes the opening `<protocol>`; a client sends it right after
    /// connecting (encoding a message also does it if needed).
    pub fn open(&mut self, dst: &mut BytesMut) {
        self.out.open(dst);
    }

    /// Writes the end of the client's document (`\n</protocol>`).
    pub fn finish(&mut self, dst: &mut BytesMut) {
        self.out.finish(dst);
    }
}

impl Decoder for ClientCodec {
    type Item = Incoming<ServerMessage>;
    type Error = FramingError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, FramingError> {
        let game = self.game;
        Ok(parse(self.frames.decode(src)?, |bytes| {
            ServerMessage::decode(bytes, game)
        }))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, FramingError> {
        let game = self.game;
        Ok(parse(self.frames.decode_eof(src)?, |bytes| {
            ServerMessage::decode(bytes, game)
        }))
    }
}

impl Encoder<&ClientMessage> for ClientCodec {
    type Error = io::Error;

    fn encode(&mut self, message: &ClientMessage, dst: &mut BytesMut) -> io::Result<()> {
        self.out.write(message, dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{dialect::MoveRequestClass, error::MoveError, room::RoomData};

    #[test]
    fn server_and_client_codecs_talk_to_each_other() {
        let mut server = ServerCodec::new();
        let mut client = ClientCodec::new(GameType::Blokus2021);
        let mut wire = BytesMut::new();

        client.open(&mut wire);
        let join = ClientMessage::Join {
            game_type: Some("swc_2021_blokus".into()),
        };
        client.encode(&join, &mut wire).expect("encodes");
        client.finish(&mut wire);
        assert!(matches!(
            server.decode(&mut wire),
            Ok(Some(Incoming::Message(m))) if m == join
        ));
        assert!(matches!(server.decode(&mut wire), Ok(Some(Incoming::End))));

        let reply = ServerMessage::Room {
            room_id: "r".into(),
            data: RoomData::MoveRequest(MoveRequestClass::Qualified),
        };
        server.encode(&reply, &mut wire).expect("encodes");
        server.finish(&mut wire);
        assert!(matches!(
            client.decode(&mut wire),
            Ok(Some(Incoming::Message(m))) if m == reply
        ));
        assert!(matches!(client.decode(&mut wire), Ok(Some(Incoming::End))));
    }

    #[test]
    fn a_malformed_packet_is_an_item_and_the_stream_goes_on() {
        let mut server = ServerCodec::new();
        server.set_game(Some(GameType::Blokus2021));
        let mut wire = BytesMut::from(
            &b"<protocol><room roomId=\"r\"><data class=\"sc.plugin2021.SetMove\"/></room><close/>"
                [..],
        );
        match server.decode(&mut wire) {
            Ok(Some(Incoming::Malformed { error, frame })) => {
                assert!(matches!(
                    error,
                    DecodeError::MalformedMove(MoveError::MissingElement { element: "piece" })
                ));
                assert_eq!(frame.name(), b"room");
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            server.decode(&mut wire),
            Ok(Some(Incoming::Message(ClientMessage::Close)))
        ));
    }
}
