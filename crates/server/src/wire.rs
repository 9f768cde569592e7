//! Every packet the server sends, encoded once into shareable bytes: the
//! stream form for connections (`"\n  "` and one level of indentation) and,
//! for recorded packets, the replay form (column 0). The texts come from
//! the protocol crate's [`texts`]; the server holds no wire strings itself
//! beyond the few situations only Spielleiter has.

use bytes::{Bytes, BytesMut};
use spielleiter_protocol::{
    ClientMessage, GameMove, GameState, ServerMessage, blokus2021,
    result::{Decimal, GameResult, PlayerScore, PlayerScoreReport, Winner},
    room::RoomData,
};
use spielleiter_rules::{AnyGame, AnyMistake, blokus::Team};

use crate::{
    clock::Timeout,
    ending::{Ending, ReasonTexts},
    ids::{ReservationCode, RoomId},
};

/// The protocol's texts plus the few that only Spielleiter's server needs.
pub mod texts {
    use std::time::Duration;

    use spielleiter_protocol::GameMove;
    pub use spielleiter_protocol::texts::*;

    use crate::lobby::LobbyError;

    const SERVER_EXCEPTION: &str = "spielleiter.server.ServerException";

    /// The connection limit is reached.
    pub fn server_full(limit: usize) -> String {
        format!("{SERVER_EXCEPTION}: The server is full ({limit} connections); try again later")
    }

    /// A connection that neither joined nor authenticated in time.
    pub fn idle(limit: Duration) -> String {
        format!(
            "{SERVER_EXCEPTION}: No request within {} seconds; closing the connection",
            limit.as_secs()
        )
    }

    /// A second join from a connection that already plays.
    pub fn already_seated(room_id: &str) -> String {
        format!(
            "{SERVER_EXCEPTION}: This connection already plays in room {room_id}; use a new connection for another game"
        )
    }

    /// A move while the room still waits for players.
    pub fn game_not_started(room_id: &str) -> String {
        format!("{SERVER_EXCEPTION}: The game in room {room_id} has not started yet")
    }

    /// `scoreForPlayer` for a name without recorded games.
    pub fn no_scores(display_name: &str) -> String {
        format!(
            "{SERVER_EXCEPTION}: No scores recorded for player '{display_name}' (is test mode on?)"
        )
    }

    /// The result reason when the server ended a game.
    pub fn server_shutdown_reason() -> String {
        "Das Spiel wurde beendet, weil der Server herunterfährt".to_owned()
    }

    /// The result reason when an administrator cancelled the game.
    pub fn cancelled_reason() -> String {
        "Das Spiel wurde von einem Administrator abgebrochen".to_owned()
    }

    /// The reason of a player whose move was not requested.
    pub fn move_not_requested_reason(mv: &GameMove) -> String {
        format!(
            "Der Zug wurde nicht angefordert bei Zug '{}'",
            mv.description()
        )
    }

    /// The error packet text for a refused lobby request.
    pub fn lobby_error(error: &LobbyError) -> String {
        match error {
            LobbyError::UnknownGameType { requested } => {
                unknown_game_type(requested.as_deref(), spielleiter_protocol::GameType::ALL)
            }
            LobbyError::UnknownRoom(room) => unknown_room(room.as_str()),
            LobbyError::RoomFull(room) => room_full(room.as_str()),
            LobbyError::UnknownReservation => unknown_reservation(),
            LobbyError::TooManySlots { given, players } => format!(
                "{SERVER_EXCEPTION}: {given} slots given, but the game has {players} players"
            ),
            LobbyError::ShuttingDown => {
                format!("{SERVER_EXCEPTION}: The server is shutting down and starts no new games")
            }
        }
    }
}

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
    /// The `errorpacket` the offender gets before its connection closes.
    pub error_packet: Bytes,
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
    out.freeze()
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

/// The team of a seat: seat 0 is team ONE.
fn team(seat: usize) -> Team {
    if seat == 0 { Team::One } else { Team::Two }
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

/// `<close/>`.
pub fn close() -> Bytes {
    stream(&ServerMessage::Close)
}

/// `<errorpacket message="…">`, echoing the request if there is one.
pub fn error_packet(message: &str, request: Option<&ClientMessage>) -> Bytes {
    stream(&ServerMessage::ErrorPacket {
        message: message.to_owned(),
        original_request: request.map(|r| Box::new(r.clone())),
    })
}

/// The welcome message telling `seat` its team.
pub fn welcome(room_id: &RoomId, seat: usize) -> Bytes {
    stream(&room(room_id, RoomData::Welcome { team: team(seat) }))
}

/// The move request.
pub fn move_request(room_id: &RoomId) -> Bytes {
    stream(&room(room_id, RoomData::MoveRequest))
}

/// `<data class="paused" paused="…"/>`, to observers.
pub fn paused(room_id: &RoomId, paused: bool) -> Bytes {
    stream(&room(room_id, RoomData::Paused { paused }))
}

/// The game's current state as a memento. `size_hint` is the expected
/// size (the last memento's is a good guess: states only grow).
pub fn memento(
    room_id: &RoomId,
    game: &AnyGame,
    seats: &[SeatView<'_>],
    size_hint: usize,
) -> Packet {
    both(
        &room(room_id, RoomData::Memento(state(game, seats))),
        size_hint,
    )
}

fn state(game: &AnyGame, seats: &[SeatView<'_>]) -> GameState {
    let name = |seat: usize| {
        seats
            .get(seat)
            .map_or_else(String::new, |s| s.display_name.to_owned())
    };
    GameState::of_game(game, [name(0), name(1)])
}

/// The messages for an illegal move.
pub fn rule_violation(
    room_id: &RoomId,
    seat: usize,
    mistake: AnyMistake,
    mv: &GameMove,
    seats: &[SeatView<'_>],
) -> Violation<Packet> {
    let (mistake_text, described) = mv.mistake_texts(mistake);
    let name = seats.get(seat).map_or("", |s| s.display_name);
    let message = texts::rule_violation_room_error(name, mistake_text, described.as_deref());
    let room_error = both(
        &room(
            room_id,
            RoomData::Error {
                message,
                original_message: Some(*mv),
            },
        ),
        1024,
    );
    let request = ClientMessage::Move {
        room_id: room_id.as_str().to_owned(),
        mv: *mv,
    };
    Violation {
        room_error,
        reason: texts::rule_violation_reason(mistake_text, described.as_deref()),
        error_packet: error_packet(
            &texts::rule_violation(mistake_text, described.as_deref()),
            Some(&request),
        ),
    }
}

/// The messages for a move nobody asked for: from the player not on turn,
/// or from the player on turn before its request (a paused room).
pub fn unrequested_move(
    room_id: &RoomId,
    seat: usize,
    on_turn: bool,
    mv: &GameMove,
    seats: &[SeatView<'_>],
) -> Violation<Bytes> {
    let describe =
        |s: usize| texts::player_description(team(s), seats.get(s).map_or("", |v| v.display_name));
    let sender = describe(seat);
    let (room_text, packet_text, reason) = if on_turn {
        (
            texts::move_not_requested_room_error(&sender),
            texts::move_not_requested(&sender),
            texts::move_not_requested_reason(mv),
        )
    } else {
        let expected = describe(1 - seat.min(1));
        (
            texts::not_your_turn_room_error(&expected, &sender, mv),
            texts::not_your_turn(&expected, &sender, mv),
            texts::not_your_turn_reason(mv),
        )
    };
    let request = ClientMessage::Move {
        room_id: room_id.as_str().to_owned(),
        mv: *mv,
    };
    Violation {
        room_error: stream(&room(
            room_id,
            RoomData::Error {
                message: room_text,
                original_message: Some(*mv),
            },
        )),
        reason,
        error_packet: error_packet(&packet_text, Some(&request)),
    }
}

/// The error packet for a move sent while the room still waits for players.
pub fn game_not_started(room_id: &RoomId, mv: &GameMove) -> Bytes {
    let request = ClientMessage::Move {
        room_id: room_id.as_str().to_owned(),
        mv: *mv,
    };
    error_packet(&texts::game_not_started(room_id.as_str()), Some(&request))
}

/// The official reason texts, with the limits this server runs with.
#[derive(Clone, Copy, Debug)]
pub struct OfficialReasons {
    /// The soft limit in whole seconds.
    pub soft_secs: u64,
    /// The hard limit in whole seconds.
    pub hard_secs: u64,
}

impl ReasonTexts for OfficialReasons {
    fn left(&self) -> String {
        texts::LEFT_REASON.to_owned()
    }

    fn timeout(&self, kind: Timeout) -> String {
        match kind {
            Timeout::Soft => texts::soft_timeout_reason(self.soft_secs),
            Timeout::Hard => texts::hard_timeout_reason(self.hard_secs),
        }
    }

    fn shutdown(&self) -> String {
        texts::server_shutdown_reason()
    }

    fn cancelled(&self) -> String {
        texts::cancelled_reason()
    }
}

/// The result of a game that ended as `ending` says.
pub fn game_result(
    game: &AnyGame,
    seats: &[SeatView<'_>],
    ending: &Ending,
    reasons: &OfficialReasons,
) -> GameResult {
    let (scores, winners) = ending.scores(game, reasons);
    let definition = match game {
        AnyGame::Blokus2021(_) => blokus2021::score_definition(),
    };
    GameResult {
        definition,
        scores: scores
            .into_iter()
            .map(|s| PlayerScore {
                cause: s.cause,
                reason: s.reason,
                parts: std::iter::once(i64::from(s.win_points))
                    .chain(s.parts.as_slice().iter().copied())
                    .map(Decimal::integer)
                    .collect(),
            })
            .collect(),
        winners: winners
            .iter()
            .map(|seat| Winner {
                display_name: seats
                    .get(seat)
                    .map_or_else(String::new, |s| s.display_name.to_owned()),
                team: team(seat),
            })
            .collect(),
    }
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
