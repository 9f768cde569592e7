//! Every packet the server sends, encoded once into shareable bytes: the
//! stream form for connections (`"\n  "` and one level of indentation) and,
//! for recorded packets, the replay form (column 0).
//!
//! Nothing here knows a game: the state, the moves, the score definition
//! come from the protocol crate's per-game code, and everything that
//! differs between seasons (the move request's class, the close packet, the
//! texts about a game, the result's layout) from the room's [`Dialect`].

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use spielleiter_protocol::{
    ClientMessage, Dialect, GameMove, GameState, ServerMessage,
    dialect::{CloseElement, LeaveCause, Player, SeasonTexts, TimeLimit},
    replay::encode_recorded_memento,
    result::{GameResult, PlayerScoreReport, SeatResult},
    room::RoomData,
};
use spielleiter_rules::{AnyGame, AnyMistake};

use crate::{
    clock::{TimeLimits, Timeout},
    ending::{Ending, ReasonTexts},
    ids::{ReservationCode, RoomId},
};

/// A packet in both forms.
#[derive(Clone, Debug)]
pub struct Packet {
    /// For a connection's stream.
    pub stream: Bytes,
    /// For a replay file.
    pub replay: Bytes,
}

/// What the wire needs to know about a seat.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The player's display name.
    pub display_name: &'a str,
}

/// The messages of a refused move.
#[derive(Clone, Debug)]
pub struct Violation<R> {
    /// The room `error` message (to the offender; for rule violations also
    /// to observers and the replay).
    pub room_error: R,
    /// The reason text of the offender's score.
    pub reason: String,
    /// The `errorpacket` the offender gets after the result, if the season
    /// sends one.
    pub error_packet: Option<Bytes>,
}

fn stream(message: &ServerMessage) -> Bytes {
    stream_sized(message, 256)
}

/// Encodes into a buffer of `capacity` bytes: a buffer that has to grow
/// while a large state is written costs more than the writing.
fn stream_sized(message: &ServerMessage, capacity: usize) -> Bytes {
    let mut out = BytesMut::with_capacity(capacity);
    out.extend_from_slice(b"\n  ");
    message.encode(&mut out, 1);
    compact(out)
}

/// The packet in an allocation of about its size. Outboxes are bounded by
/// the bytes of their packets; a packet that keeps a buffer grown by
/// doubling would hold up to twice what its outbox counts.
fn compact(out: BytesMut) -> Bytes {
    if out.capacity() - out.len() > out.len() / 4 {
        Bytes::copy_from_slice(&out)
    } else {
        out.freeze()
    }
}

fn both(message: &ServerMessage, capacity: usize) -> Packet {
    let mut replay = BytesMut::with_capacity(capacity);
    message.encode(&mut replay, 0);
    Packet {
        stream: stream_sized(message, capacity + capacity / 4),
        replay: replay.freeze(),
    }
}

fn room(room_id: &RoomId, data: RoomData) -> ServerMessage {
    ServerMessage::Room {
        room_id: room_id.as_str().to_owned(),
        data,
    }
}

/// `<joined roomId="…"/>`.
pub fn joined(room_id: &RoomId) -> Bytes {
    stream(&ServerMessage::Joined {
        room_id: room_id.as_str().to_owned(),
    })
}

/// `<left roomId="…"/>`.
pub fn left(room_id: &RoomId) -> Bytes {
    stream(&ServerMessage::Left {
        room_id: room_id.as_str().to_owned(),
    })
}

/// `<observed roomId="…"/>`.
pub fn observed(room_id: &RoomId) -> Bytes {
    stream(&ServerMessage::Observed {
        room_id: room_id.as_str().to_owned(),
    })
}

/// `<joinedGameRoom roomId="…" playerCount="N"/>`, to administrators.
pub fn joined_game_room(room_id: &RoomId, occupied: usize) -> Bytes {
    stream(&ServerMessage::JoinedGameRoom {
        room_id: room_id.as_str().to_owned(),
        player_count: u32::try_from(occupied).unwrap_or(u32::MAX),
    })
}

/// `<prepared roomId="…">` with the reservation codes.
pub fn prepared(room_id: &RoomId, codes: &[ReservationCode]) -> Bytes {
    stream(&ServerMessage::Prepared {
        room_id: room_id.as_str().to_owned(),
        reservations: codes.iter().map(|c| c.as_str().to_owned()).collect(),
    })
}

/// `<close/>`, the close packet of a connection that plays no game.
pub fn close() -> Bytes {
    close_as(CloseElement::Short)
}

/// The close packet in the form `form` (a room's dialect's).
pub fn close_as(form: CloseElement) -> Bytes {
    stream(&ServerMessage::Close(form))
}

/// The longest `message` of an error packet, in bytes; a longer text (one
/// that repeats long client input) is cut and ends with `…`.
pub const ERROR_TEXT_LIMIT: usize = 1024;

/// The longest request an error packet echoes as `<originalRequest>`, in
/// bytes as written; a longer one is not echoed.
pub const ECHO_LIMIT: usize = 1024;

/// `<errorpacket message="…">`, echoing the request if there is one. What
/// a client sent is never repeated at length: the text is cut at
/// [`ERROR_TEXT_LIMIT`] and a request longer than [`ECHO_LIMIT`] is left
/// out, so an error reply stays small whatever provoked it.
pub fn error_packet(message: &str, request: Option<&ClientMessage>) -> Bytes {
    let message = cut(message, ERROR_TEXT_LIMIT);
    let packet = stream(&ServerMessage::ErrorPacket {
        message: message.clone(),
        original_request: request.map(|r| Box::new(r.clone())),
    });
    if packet.len() <= message.len() + ECHO_LIMIT + 256 {
        return packet;
    }
    stream(&ServerMessage::ErrorPacket {
        message,
        original_request: None,
    })
}

/// `text` cut to at most `limit` bytes at a character boundary, with `…`
/// when something was cut.
fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// The welcome message telling `seat` which seat it has.
pub fn welcome(room_id: &RoomId, seat: usize) -> Bytes {
    stream(&room(room_id, RoomData::Welcome { seat }))
}

/// The move request, in the class of `dialect`.
pub fn move_request(room_id: &RoomId, dialect: &Dialect) -> Bytes {
    stream(&room(room_id, RoomData::MoveRequest(dialect.move_request)))
}

/// `<data class="paused" paused="…"/>`, to observers.
pub fn paused(room_id: &RoomId, paused: bool) -> Bytes {
    stream(&room(room_id, RoomData::Paused { paused }))
}

/// The game's current state as a memento. `size_hint` is the expected
/// size (the last memento's is a good guess: states only grow). The
/// replay's form carries `think_time`, the think time of the move that led
/// to the state (Spielleiter's extension,
/// [`encode_recorded_memento`]); the stream's form is the official packet.
pub fn memento(
    room_id: &RoomId,
    game: &AnyGame,
    seats: &[SeatView<'_>],
    size_hint: usize,
    think_time: Option<Duration>,
) -> Packet {
    let state = state(game, seats);
    let mut replay = BytesMut::with_capacity(size_hint);
    encode_recorded_memento(&mut replay, room_id.as_str(), &state, think_time);
    Packet {
        stream: stream_sized(
            &room(room_id, RoomData::Memento(state)),
            size_hint + size_hint / 4,
        ),
        replay: replay.freeze(),
    }
}

fn state(game: &AnyGame, seats: &[SeatView<'_>]) -> GameState {
    let names: Vec<&str> = seats.iter().map(|s| s.display_name).collect();
    GameState::of_game(game, &names)
}

fn display_name<'a>(seats: &[SeatView<'a>], seat: usize) -> &'a str {
    seats.get(seat).map_or("", |s| s.display_name)
}

/// The player of `seat`, as texts name it.
fn player<'a>(seats: &[SeatView<'a>], seat: usize) -> Player<'a> {
    Player {
        seat,
        display_name: display_name(seats, seat),
    }
}

/// The messages for an illegal move, in the texts of `dialect`.
pub fn rule_violation(
    room_id: &RoomId,
    seat: usize,
    mistake: AnyMistake,
    mv: &GameMove,
    seats: &[SeatView<'_>],
    dialect: &Dialect,
) -> Violation<Packet> {
    let (mistake_text, described) = mv.mistake_texts(mistake);
    let texts =
        dialect
            .texts
            .rule_violation(player(seats, seat), mistake_text, described.as_deref());
    violation(room_id, mv, texts, |message| both(&message, 1024))
}

/// The messages for a move nobody asked for, from `seat` while `on_turn`
/// is the seat to move: a move out of turn, or from the player on turn
/// before its request (a paused room).
pub fn unrequested_move(
    room_id: &RoomId,
    seat: usize,
    on_turn: Option<usize>,
    mv: &GameMove,
    seats: &[SeatView<'_>],
    dialect: &Dialect,
) -> Violation<Bytes> {
    let texts = dialect.texts;
    let sender = player(seats, seat);
    let description = mv.description();
    let texts = match on_turn {
        Some(expected) if expected != seat => {
            texts.not_your_turn(player(seats, expected), sender, &description)
        }
        _ => texts.move_not_requested(sender, &description),
    };
    violation(room_id, mv, texts, |message| stream(&message))
}

/// The room error (encoded by `encode`), reason and error packet of a
/// refused move.
fn violation<R>(
    room_id: &RoomId,
    mv: &GameMove,
    texts: spielleiter_protocol::dialect::ViolationTexts,
    encode: impl FnOnce(ServerMessage) -> R,
) -> Violation<R> {
    let request = ClientMessage::Move {
        room_id: room_id.as_str().to_owned(),
        mv: *mv,
    };
    Violation {
        room_error: encode(room(
            room_id,
            RoomData::Error {
                message: texts.room_error,
                original_message: Some(*mv),
            },
        )),
        reason: texts.reason,
        error_packet: texts
            .error_packet
            .map(|text| error_packet(&text, Some(&request))),
    }
}

/// The error packet for a move sent while the room still waits for players.
pub fn game_not_started(room_id: &RoomId, mv: &GameMove) -> Bytes {
    let request = ClientMessage::Move {
        room_id: room_id.as_str().to_owned(),
        mv: *mv,
    };
    error_packet(
        &crate::texts::game_not_started(room_id.as_str()),
        Some(&request),
    )
}

/// The reason texts of a room: its dialect's, naming its players, with the
/// limits the room runs with.
#[derive(Clone, Copy, Debug)]
pub struct DialectReasons<'a> {
    /// The season's texts.
    pub texts: &'static dyn SeasonTexts,
    /// The seats.
    pub seats: &'a [SeatView<'a>],
    /// The room's move limits (for the texts: the defaults when untimed).
    pub limits: TimeLimits,
}

impl ReasonTexts for DialectReasons<'_> {
    fn left(&self, seat: usize, cause: LeaveCause) -> String {
        self.texts.left(player(self.seats, seat), cause)
    }

    fn timeout(&self, seat: usize, kind: Timeout) -> String {
        let kind = match kind {
            Timeout::Soft => TimeLimit::Soft,
            Timeout::Hard => TimeLimit::Hard,
        };
        self.texts.timeout(
            player(self.seats, seat),
            kind,
            self.limits.soft.as_secs(),
            self.limits.hard.as_secs(),
        )
    }

    fn shutdown(&self) -> String {
        self.texts.shutdown()
    }

    fn cancelled(&self) -> String {
        self.texts.cancelled()
    }
}

/// The result of a game that ended as `ending` says, in the game's dialect.
pub fn game_result(
    game: &AnyGame,
    seats: &[SeatView<'_>],
    ending: &Ending,
    reasons: &impl ReasonTexts,
) -> GameResult {
    let (scores, winners) = ending.scores(game, reasons);
    let offender = ending.offender();
    let seat_results: Vec<SeatResult<'_>> = scores
        .iter()
        .enumerate()
        .map(|(seat, score)| SeatResult {
            display_name: display_name(seats, seat),
            cause: score.cause,
            reason: score.reason.clone(),
            win_points: score.win_points,
            parts: score.parts.as_slice(),
            offender: offender == Some(seat),
        })
        .collect();
    GameResult::of_game(
        game.game_type(),
        &seat_results,
        winners,
        ending.is_regular(),
    )
}

/// The result message.
pub fn result(room_id: &RoomId, result: GameResult) -> Packet {
    both(&room(room_id, RoomData::Result(result)), 1024)
}

/// `<testing testMode="…"/>`, the answer to `testMode`.
pub fn testing(test_mode: bool) -> Bytes {
    stream(&ServerMessage::Testing { test_mode })
}

/// `<playerScore>`, the answer to `scoreForPlayer`.
pub fn player_score(report: PlayerScoreReport) -> Bytes {
    stream(&ServerMessage::PlayerScore(report))
}
