//! Replay files (`replay.md`): [`ReplayWriter`] writes the official layout
//! (`<protocol>` line, each recorded room packet at column 0 followed by a
//! newline, `</protocol>` without newline); [`read_replay`] loads a replay
//! back into its states and result. Compression (`.xml.gz`) is the caller's
//! business: both work on plain `Write`/`Read`.

use std::io::{self, Read, Write};

use bytes::BytesMut;
use spielleiter_rules::GameType;
use thiserror::Error;
use tokio_util::codec::Decoder;

use crate::{
    error::DecodeError,
    framing::{FrameDecoder, FramingError, StreamEvent},
    games::GameState,
    result::GameResult,
    room::RoomData,
    server::ServerMessage,
};

/// Writes one replay file.
///
/// The server records the packets `replay.md` §3 lists: every memento sent
/// to the players, the rule-violation error message, the result.
#[derive(Debug)]
pub struct ReplayWriter<W: Write> {
    out: W,
    /// Reused for every packet, so writing allocates only while it grows.
    buf: Vec<u8>,
}

impl<W: Write> ReplayWriter<W> {
    /// Starts a replay: writes the `<protocol>` line.
    ///
    /// # Errors
    ///
    /// Writing to `out` failed.
    pub fn new(mut out: W) -> io::Result<ReplayWriter<W>> {
        out.write_all(b"<protocol>\n")?;
        Ok(ReplayWriter {
            out,
            buf: Vec::with_capacity(8 * 1024),
        })
    }

    /// Appends one packet.
    ///
    /// # Errors
    ///
    /// Writing to `out` failed.
    pub fn write(&mut self, message: &ServerMessage) -> io::Result<()> {
        self.buf.clear();
        message.encode(&mut self.buf, 0);
        self.buf.push(b'\n');
        self.out.write_all(&self.buf)
    }

    /// Ends the replay with `</protocol>`, flushes, and hands the writer back.
    ///
    /// # Errors
    ///
    /// Writing to `out` failed.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"</protocol>")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// What a replay file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The room id of the recorded packets (of the first one).
    pub room_id: Option<String>,
    /// Every recorded state, in order.
    pub states: Vec<GameState>,
    /// The messages of recorded room errors (a rule violation).
    pub errors: Vec<String>,
    /// The result (the last one, if several were recorded).
    pub result: Option<GameResult>,
}

impl Replay {
    /// The first state whose turn is at least `turn` (how the official
    /// tools pick "the state at turn N").
    pub fn state_at_turn(&self, turn: u32) -> Option<&GameState> {
        self.states.iter().find(|s| s.turn() >= turn)
    }
}

/// Why a replay cannot be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// Reading failed.
    #[error("reading the replay failed: {0}")]
    Io(io::Error),
    /// The file is not a sequence of XML elements inside a root element.
    #[error("the replay is not well-formed: {0}")]
    Framing(FramingError),
    /// A packet cannot be parsed.
    #[error("a packet of the replay cannot be read: {0}")]
    Decode(DecodeError),
    /// A packet is not a room packet.
    #[error("a replay holds only room packets, found <{name}>")]
    NotARoomPacket {
        /// The packet's element name.
        name: String,
    },
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<io::Error> for ReplayError {
    fn from(error: io::Error) -> Self {
        ReplayError::Io(error)
    }
}

impl From<FramingError> for ReplayError {
    fn from(error: FramingError) -> Self {
        ReplayError::Framing(error)
    }
}

impl From<DecodeError> for ReplayError {
    fn from(error: DecodeError) -> Self {
        ReplayError::Decode(error)
    }
}

/// Reads a replay of `game` from `input` (plain XML; decompress first).
///
/// # Errors
///
/// Unreadable input, malformed XML, or a packet that is not a room packet.
/// Room messages other than mementos, errors and results are ignored.
pub fn read_replay(mut input: impl Read, game: GameType) -> Result<Replay, ReplayError> {
    let mut replay = Replay {
        room_id: None,
        states: Vec::new(),
        errors: Vec::new(),
        result: None,
    };
    let mut decoder = FrameDecoder::new();
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let n = input.read(&mut chunk)?;
        buf.extend_from_slice(&chunk[..n]);
        loop {
            let event = if n == 0 {
                decoder.decode_eof(&mut buf)?
            } else {
                decoder.decode(&mut buf)?
            };
            match event {
                Some(StreamEvent::Frame(frame)) => {
                    record(&mut replay, ServerMessage::decode(frame.as_bytes(), game)?)?
                }
                Some(StreamEvent::End) => return Ok(replay),
                None => break,
            }
        }
        if n == 0 {
            return Ok(replay);
        }
    }
}

fn record(replay: &mut Replay, message: ServerMessage) -> Result<(), ReplayError> {
    let ServerMessage::Room { room_id, data } = message else {
        return Err(ReplayError::NotARoomPacket {
            name: message.element_name().to_owned(),
        });
    };
    replay.room_id.get_or_insert(room_id);
    match data {
        RoomData::Memento(state) => replay.states.push(state),
        RoomData::Error { message, .. } => replay.errors.push(message),
        RoomData::Result(result) => replay.result = Some(result),
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{PieceKind, Setup};

    use super::*;
    use crate::games::blokus2021::State;

    fn memento(turn: u32) -> ServerMessage {
        let mut setup = Setup::new(PieceKind::PentoV);
        setup.turn = turn;
        ServerMessage::Room {
            room_id: "r".into(),
            data: RoomData::Memento(GameState::from(State {
                setup,
                display_names: ["a".into(), "b".into()],
            })),
        }
    }

    #[test]
    fn layout_is_the_official_one() {
        let mut writer = ReplayWriter::new(Vec::new()).expect("vec");
        writer.write(&memento(0)).expect("vec");
        let bytes = writer.finish().expect("vec");
        let text = String::from_utf8(bytes).expect("utf-8");
        assert!(text.starts_with(
            "<protocol>\n<room roomId=\"r\">\n  <data class=\"memento\">\n    <state "
        ));
        assert!(text.ends_with("</room>\n</protocol>"));
    }

    #[test]
    fn only_room_packets_are_allowed() {
        let input = b"<protocol>\n<joined roomId=\"r\"/>\n</protocol>";
        assert!(matches!(
            read_replay(&input[..], GameType::Blokus2021),
            Err(ReplayError::NotARoomPacket { name }) if name == "joined"
        ));
    }

    #[test]
    fn state_at_turn_takes_the_first_state_at_or_after() {
        let mut writer = ReplayWriter::new(Vec::new()).expect("vec");
        for turn in [0, 1, 3, 3, 4] {
            writer.write(&memento(turn)).expect("vec");
        }
        let bytes = writer.finish().expect("vec");
        let replay = read_replay(&bytes[..], GameType::Blokus2021).expect("reads");
        assert_eq!(replay.states.len(), 5);
        assert_eq!(replay.state_at_turn(2).map(GameState::turn), Some(3));
        assert_eq!(replay.state_at_turn(5), None);
        assert_eq!(replay.room_id.as_deref(), Some("r"));
    }
}
