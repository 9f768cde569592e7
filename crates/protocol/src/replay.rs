//! Replay files (`replay.md`): [`ReplayWriter`] writes the official layout
//! (`<protocol>` line, each recorded room packet at column 0 followed by a
//! newline, `</protocol>` without newline); [`read_replay`] loads a replay
//! back into its states and result. Compression (`.xml.gz`) is the caller's
//! business: both work on plain `Write`/`Read`.
//!
//! One extension of Spielleiter's: a memento recorded after a move carries
//! the move's think time, `<data class="memento" thinkMicros="…">` (from
//! the move request written to the player's socket to the move's last byte
//! read, in whole microseconds; [`encode_recorded_memento`]). The official
//! loaders read attributes they do not know as nothing (XStream's and the
//! Python SDK's alike), and players never see it: only the replay's copy of
//! a memento has it.

use std::{
    io::{self, Read, Write},
    time::Duration,
};

use bytes::BytesMut;
use spielleiter_rules::GameType;
use thiserror::Error;
use tokio_util::codec::Decoder;

use crate::{
    error::DecodeError,
    framing::{FrameDecoder, FramingError, StreamEvent},
    games::{self, GameState, RecordError, RecordFormat},
    result::GameResult,
    room::{MEMENTO_CLASS, RoomData},
    server::ServerMessage,
    xml::{ByteSink, XmlReader, XmlWriter},
};

/// The attribute of a recorded memento's `<data>` that holds the think
/// time of the move that led to its state, in whole microseconds (a
/// Spielleiter extension; see the module's documentation).
pub const THINK_TIME_ATTRIBUTE: &str = "thinkMicros";

/// Writes a memento as a replay records it: the packet
/// `ServerMessage::Room { data: RoomData::Memento(state) }` at column 0,
/// with the think time of the move that led to `state`, if a player's move
/// did, in [`THINK_TIME_ATTRIBUTE`]. Without a think time the bytes are
/// the packet's own.
pub fn encode_recorded_memento<S: ByteSink>(
    out: &mut S,
    room_id: &str,
    state: &GameState,
    think_time: Option<Duration>,
) {
    let mut w = XmlWriter::new(out, 0);
    w.start("room");
    w.attr("roomId", room_id);
    w.open();
    w.start("data");
    w.attr("class", MEMENTO_CLASS);
    if let Some(think_time) = think_time {
        let micros = i64::try_from(think_time.as_micros()).unwrap_or(i64::MAX);
        w.attr_int(THINK_TIME_ATTRIBUTE, micros);
    }
    w.open();
    state.write(&mut w);
    w.close("data");
    w.close("room");
}

/// The think time a recorded memento's packet (`<room><data …>`) carries,
/// if any; a value that is no whole number of microseconds is none.
fn think_time_of(packet: &[u8]) -> Option<Duration> {
    let mut r = XmlReader::new(packet);
    let room = r.root().ok()?;
    let data = r.next_child(&room).ok()??;
    let micros = data.attribute(THINK_TIME_ATTRIBUTE).ok()??;
    micros.trim().parse().ok().map(Duration::from_micros)
}

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
    /// For each state (same index): the think time of the move that led
    /// to it, as Spielleiter records it ([`THINK_TIME_ATTRIBUTE`]); `None`
    /// for the first state, for states no player's move led to, and in
    /// replays of other servers.
    pub think_times: Vec<Option<Duration>>,
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

    /// The replay, a game of `game`, as a record in `format` for the
    /// program that reads it; which games have which format is their
    /// folders' ([`record_format`](crate::games::record_format)).
    ///
    /// # Errors
    ///
    /// `format` is not `game`'s, or the replay is no game played from the
    /// start by the rules.
    pub fn record(
        &self,
        game: GameType,
        format: &'static RecordFormat,
    ) -> Result<String, RecordError> {
        games::write_record(game, format, &self.states)
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
pub fn read_replay(input: impl Read, game: GameType) -> Result<Replay, ReplayError> {
    let mut replay = Replay {
        room_id: None,
        states: Vec::new(),
        think_times: Vec::new(),
        errors: Vec::new(),
        result: None,
    };
    for_each_packet(input, |frame| {
        let message = ServerMessage::decode(frame.as_bytes(), game)?;
        let think_time = think_time_of(frame.as_bytes());
        record(&mut replay, message, think_time)
    })?;
    Ok(replay)
}

/// Calls `take` with every packet of a replay read from `input`, in order,
/// up to the end of the root element (or of the input).
fn for_each_packet(
    mut input: impl Read,
    mut take: impl FnMut(crate::framing::Frame) -> Result<(), ReplayError>,
) -> Result<(), ReplayError> {
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
                Some(StreamEvent::Frame(frame)) => take(frame)?,
                Some(StreamEvent::End) => return Ok(()),
                None => break,
            }
        }
        if n == 0 {
            return Ok(());
        }
    }
}

/// What a list of replays needs of one: its first and last state, how many
/// states it has, and its result, read without decoding the states in
/// between ([`read_replay_outline`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOutline {
    /// The first recorded state.
    pub first: Option<GameState>,
    /// The last recorded state (the first too, in a replay of one).
    pub last: Option<GameState>,
    /// How many states the replay records.
    pub states: usize,
    /// The result (the last one, if several were recorded).
    pub result: Option<GameResult>,
}

/// The `class` of a room packet's `<data>`, from the packet's first bytes
/// (the official layout writes it there); `None` if it is not there.
fn data_class(packet: &[u8]) -> Option<&[u8]> {
    let head = &packet[..packet.len().min(512)];
    let at = memchr::memmem::find(head, b"<data class=\"")? + 13;
    let rest = &head[at..];
    Some(&rest[..memchr::memchr(b'"', rest)?])
}

/// Reads the outline of a replay of `game` from `input` (plain XML;
/// decompress first): every packet is split off and checked to be a room
/// packet, but only the first and the last memento and the result are
/// decoded, which makes it several times cheaper than [`read_replay`] for
/// a long game.
///
/// # Errors
///
/// As [`read_replay`], for the packets decoded.
pub fn read_replay_outline(input: impl Read, game: GameType) -> Result<ReplayOutline, ReplayError> {
    let mut outline = ReplayOutline {
        first: None,
        last: None,
        states: 0,
        result: None,
    };
    let mut last_memento = None;
    for_each_packet(input, |frame| {
        let bytes = frame.as_bytes();
        if !bytes.starts_with(b"<room") {
            let name = ServerMessage::decode(bytes, game)?
                .element_name()
                .to_owned();
            return Err(ReplayError::NotARoomPacket { name });
        }
        match data_class(bytes) {
            // A memento after the first: kept undecoded, in case it is
            // the last.
            Some(b"memento") if outline.states > 0 => {
                outline.states += 1;
                last_memento = Some(frame);
            }
            Some(b"memento" | b"result") | None => {
                if let ServerMessage::Room { data, .. } = ServerMessage::decode(bytes, game)? {
                    match data {
                        RoomData::Memento(state) => {
                            outline.states += 1;
                            outline.first.get_or_insert(state);
                        }
                        RoomData::Result(result) => outline.result = Some(result),
                        _ => {}
                    }
                }
            }
            Some(_) => {}
        }
        Ok(())
    })?;
    outline.last = match last_memento {
        Some(frame) => match ServerMessage::decode(frame.as_bytes(), game)? {
            ServerMessage::Room {
                data: RoomData::Memento(state),
                ..
            } => Some(state),
            _ => None,
        },
        None => outline.first.clone(),
    };
    Ok(outline)
}

fn record(
    replay: &mut Replay,
    message: ServerMessage,
    think_time: Option<Duration>,
) -> Result<(), ReplayError> {
    let ServerMessage::Room { room_id, data } = message else {
        return Err(ReplayError::NotARoomPacket {
            name: message.element_name().to_owned(),
        });
    };
    replay.room_id.get_or_insert(room_id);
    match data {
        RoomData::Memento(state) => {
            replay.states.push(state);
            replay.think_times.push(think_time);
        }
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
    fn a_recorded_memento_is_the_packet_with_its_think_time_which_reads_back() {
        let ServerMessage::Room {
            data: RoomData::Memento(state),
            ..
        } = memento(3)
        else {
            unreachable!("a memento");
        };
        let mut plain = Vec::new();
        encode_recorded_memento(&mut plain, "r", &state, None);
        assert_eq!(plain, memento(3).to_xml().into_bytes());

        let mut timed = Vec::new();
        encode_recorded_memento(
            &mut timed,
            "r",
            &state,
            Some(Duration::from_micros(1_234_567)),
        );
        let text = String::from_utf8(timed.clone()).expect("utf-8");
        assert!(
            text.starts_with("<room roomId=\"r\">\n  <data class=\"memento\" thinkMicros=\"1234567\">\n    <state "),
            "{text}"
        );
        // Everything but the attribute is the packet's.
        assert_eq!(
            text.replace(" thinkMicros=\"1234567\"", ""),
            memento(3).to_xml()
        );

        let mut file = b"<protocol>\n".to_vec();
        file.extend_from_slice(&plain);
        file.push(b'\n');
        file.extend_from_slice(&timed);
        file.extend_from_slice(b"\n</protocol>");
        let replay = read_replay(&file[..], GameType::Blokus2021).expect("reads");
        assert_eq!(replay.states.len(), 2);
        assert_eq!(
            replay.think_times,
            [None, Some(Duration::from_micros(1_234_567))]
        );
        // The decoder ignores the attribute: the state is the same.
        assert_eq!(replay.states[0], replay.states[1]);
    }

    #[test]
    fn the_outline_is_the_first_and_last_state_and_the_result_of_the_whole_read() {
        let mut writer = ReplayWriter::new(Vec::new()).expect("vec");
        for turn in [0, 1, 3, 4] {
            writer.write(&memento(turn)).expect("vec");
        }
        let bytes = writer.finish().expect("vec");
        let whole = read_replay(&bytes[..], GameType::Blokus2021).expect("reads");
        let outline = read_replay_outline(&bytes[..], GameType::Blokus2021).expect("reads");
        assert_eq!(outline.states, 4);
        assert_eq!(outline.first.as_ref(), whole.states.first());
        assert_eq!(outline.last.as_ref(), whole.states.last());
        assert_eq!(outline.last.as_ref().map(GameState::turn), Some(4));
        assert_eq!(outline.result, whole.result);
        let input = b"<protocol>\n<joined roomId=\"r\"/>\n</protocol>";
        assert!(matches!(
            read_replay_outline(&input[..], GameType::Blokus2021),
            Err(ReplayError::NotARoomPacket { name }) if name == "joined"
        ));
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
