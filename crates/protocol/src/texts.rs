//! Every text the server puts on the wire: the `errorpacket` messages of the
//! official server (`lobby.md` §9.1), the room error messages (§9.2), the
//! result reasons (`blokus-2021.md` §9.4, §11.3), and Spielleiter's own
//! messages for the cases where it deviates (decisions.md §7, §8, §10, §12).
//! The server builds messages only through these functions, so it holds no
//! wire strings of its own.
//!
//! Spielleiter's own texts follow the official style
//! `<exception class>: <message>`, with class names under `spielleiter.`
//! so that nobody mistakes them for official ones.
//!
//! The texts about a game that differ between seasons are behind
//! [`SeasonTexts`]; [`Season2021`] gives the 2021 ones, [`Season2022`]
//! the 2022 ones. The texts of a game's own mistakes and moves live with
//! the game (`games::…`).

use crate::{
    GameType,
    client::ClientMessage,
    dialect::{LeaveCause, Player, SeasonTexts, TimeLimit, ViolationTexts},
    error::DecodeError,
    framing::FramingError,
    games::GameMove,
};

const GAME_ROOM_EXCEPTION: &str = "sc.api.plugins.exceptions.GameRoomException";
const GAME_LOGIC_EXCEPTION: &str = "sc.api.plugins.exceptions.GameLogicException";

/// How the official 2021 server prints a player: `Team 1(alice)` for the
/// first seat.
pub fn player_description(seat: usize, display_name: &str) -> String {
    format!("Team {}({display_name})", seat + 1)
}

/// An unknown or already used reservation code.
pub fn unknown_reservation() -> String {
    "sc.server.gaming.UnknownReservationException: Couldn't find a reservation for the provided token."
        .to_owned()
}

/// A room id that names no room (`joinRoom`, `room`, `observe`, `pause`,
/// `step`, `cancel`).
pub fn unknown_room(room_id: &str) -> String {
    format!("{GAME_ROOM_EXCEPTION}: Couldn't find a room with id {room_id}")
}

/// `joinRoom` into a room without a free slot.
pub fn room_full(room_id: &str) -> String {
    format!("{GAME_ROOM_EXCEPTION}: Room {room_id} is already full!")
}

/// A `gameType` that names no game (`None`: the attribute was missing),
/// listing the available ones (test-only games are not named).
pub fn unknown_game_type(game_type: Option<&str>, available: &[GameType]) -> String {
    let available: Vec<&str> = available
        .iter()
        .filter(|g| g.is_listed())
        .map(|g| g.id())
        .collect();
    format!(
        "sc.server.plugins.UnknownGameTypeException: Unknown GameType UUID: {} (available: {})",
        game_type.unwrap_or("null"),
        available.join(", ")
    )
}

/// A wrong administrator passphrase.
pub fn authentication_failed() -> String {
    "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator"
        .to_owned()
}

/// `authenticate` while no passphrase is configured (decisions.md §12:
/// administration is disabled, and says so).
pub fn administration_disabled() -> String {
    "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator: administration is disabled on this server (no password configured)"
        .to_owned()
}

/// An admin request from a connection that has not authenticated.
pub fn unauthenticated(request: &ClientMessage) -> String {
    format!(
        "sc.server.network.UnauthenticatedException: Request {} requires authentication",
        request_description(request)
    )
}

/// A request as the official server's Kotlin `toString` prints it, e.g.
/// `ObservationRequest(roomId=ROOM)`. Only approximates the official text
/// where that contains object identities.
pub fn request_description(request: &ClientMessage) -> String {
    match request {
        ClientMessage::Join { game_type } => {
            format!("JoinGameRequest(gameType={})", or_null(game_type))
        }
        ClientMessage::JoinRoom { room_id } => format!("JoinRoomRequest(roomId={room_id})"),
        ClientMessage::JoinPrepared { reservation_code } => {
            format!("JoinPreparedRoomRequest(reservationCode={reservation_code})")
        }
        ClientMessage::Move { room_id, mv } => {
            format!("RoomPacket(roomId={room_id}, data={})", mv.description())
        }
        ClientMessage::RoomWithoutMove {
            room_id,
            data_class,
        } => format!(
            "RoomPacket(roomId={room_id}, data={})",
            data_class.as_deref().unwrap_or("null")
        ),
        ClientMessage::Authenticate { .. } => "AuthenticateRequest(password=***)".to_owned(),
        ClientMessage::Prepare(prepare) => {
            let slots: Vec<String> = prepare
                .slots
                .iter()
                .map(|s| {
                    format!(
                        "SlotDescriptor(displayName={}, canTimeout={}, reserved={})",
                        or_null(&s.display_name),
                        s.can_timeout,
                        s.reserved
                    )
                })
                .collect();
            format!(
                "PrepareGameRequest(gameType={}, slotDescriptors=[{}], pause={})",
                or_null(&prepare.game_type),
                slots.join(", "),
                prepare.pause
            )
        }
        ClientMessage::Observe { room_id } => format!("ObservationRequest(roomId={room_id})"),
        ClientMessage::Pause { room_id, pause } => {
            format!("PauseGameRequest(roomId={room_id}, pause={pause})")
        }
        ClientMessage::Step { room_id, forced } => {
            format!("StepRequest(roomId={room_id}, forced={forced})")
        }
        ClientMessage::Cancel { room_id } => format!("CancelRequest(roomId={room_id})"),
        ClientMessage::TestMode { test_mode } => format!("TestModeRequest(testMode={test_mode})"),
        ClientMessage::ScoreForPlayer { display_name } => {
            format!("GetScoreForPlayerRequest(displayName={display_name})")
        }
        ClientMessage::Close => "CloseConnection".to_owned(),
        ClientMessage::Unknown { name } => format!("<{name}>"),
    }
}

fn or_null(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("null")
}

/// A `room` packet whose data is not a move.
pub fn non_move_packet(room_id: &str, data_class: Option<&str>) -> String {
    format!(
        "{GAME_ROOM_EXCEPTION}: Received non-move packet: RoomPacket(roomId={room_id}, data={})",
        data_class.unwrap_or("null")
    )
}

/// A move from a connection that holds no slot in the room.
pub fn not_a_member(room_id: &str) -> String {
    format!("{GAME_ROOM_EXCEPTION}: Client is not a member of game {room_id}")
}

/// A move that arrived after the game ended.
pub fn game_already_over(mv: &GameMove) -> String {
    format!(
        "sc.api.plugins.exceptions.GameException: Game is already over, but got {}",
        mv.description()
    )
}

/// The room error message for a move from the player not on turn.
/// `expected` and `actual` are [`player_description`]s.
pub fn not_your_turn_room_error(expected: &str, actual: &str, move_description: &str) -> String {
    format!(
        "It's not your turn yet; expected: {expected}, got {actual} (msg was {move_description})."
    )
}

/// The `errorpacket` message for a move from the player not on turn (the
/// official text has no class-name prefix).
pub fn not_your_turn(expected: &str, actual: &str, move_description: &str) -> String {
    format!("NotYourTurnException(expected={expected}, actual={actual}, data={move_description})")
}

/// The result reason for a player who moved out of turn (decisions.md §9:
/// Spielleiter ends the game with `RULE_VIOLATION`).
pub fn not_your_turn_reason(move_description: &str) -> String {
    format!("Der Spieler war nicht am Zug bei Zug '{move_description}'")
}

/// The room error message for a move that was not requested. `player` is a
/// [`player_description`].
pub fn move_not_requested_room_error(player: &str) -> String {
    format!("Move from {player} has not been requested.")
}

/// The `errorpacket` message for a move that was not requested.
pub fn move_not_requested(player: &str) -> String {
    format!(
        "{GAME_LOGIC_EXCEPTION}: {}",
        move_not_requested_room_error(player)
    )
}

/// `InvalidMoveException(mistake=M, move=D)`; `D` is `null` when the
/// mistake is reported without the move.
pub fn invalid_move_exception(mistake_text: &str, move_description: Option<&str>) -> String {
    format!(
        "InvalidMoveException(mistake={mistake_text}, move={})",
        move_description.unwrap_or("null")
    )
}

/// The room error message for a rule violation, sent to the offender and
/// the observers: `Ungueltiger Zug von 'NAME'.\nInvalidMoveException(…)`.
pub fn rule_violation_room_error(
    display_name: &str,
    mistake_text: &str,
    move_description: Option<&str>,
) -> String {
    format!(
        "Ungueltiger Zug von '{display_name}'.\n{}",
        invalid_move_exception(mistake_text, move_description)
    )
}

/// The `errorpacket` message for a rule violation.
pub fn rule_violation(mistake_text: &str, move_description: Option<&str>) -> String {
    format!(
        "{GAME_LOGIC_EXCEPTION}: {}",
        invalid_move_exception(mistake_text, move_description)
    )
}

/// The result reason of a rule violation: `M bei Zug 'D'`, or just `M`
/// when the mistake is reported without the move.
pub fn rule_violation_reason(mistake_text: &str, move_description: Option<&str>) -> String {
    match move_description {
        Some(description) => format!("{mistake_text} bei Zug '{description}'"),
        None => mistake_text.to_owned(),
    }
}

/// The result reason of a player who left (cause `LEFT`).
pub const LEFT_REASON: &str = "Der Spieler hat das Spiel verlassen";

/// The result reason of a soft timeout (cause `SOFT_TIMEOUT`) with a limit
/// of `seconds`.
pub fn soft_timeout_reason(seconds: u64) -> String {
    timeout_reason(seconds)
}

/// The result reason of a hard timeout (cause `HARD_TIMEOUT`) with a limit
/// of `seconds`.
pub fn hard_timeout_reason(seconds: u64) -> String {
    timeout_reason(seconds)
}

/// The official reason of a timeout of `kind`, naming its limit (the
/// same wording in 2021 and 2022).
fn timeout_reason_of(kind: TimeLimit, soft_secs: u64, hard_secs: u64) -> String {
    match kind {
        TimeLimit::Soft => soft_timeout_reason(soft_secs),
        TimeLimit::Hard => hard_timeout_reason(hard_secs),
    }
}

fn timeout_reason(seconds: u64) -> String {
    format!(
        "Der Spieler hat innerhalb von {seconds} Sekunden nach Aufforderung keinen Zug gesendet"
    )
}

/// The result reason of a player whose move was not requested (Spielleiter
/// ends the game with `RULE_VIOLATION`).
pub fn move_not_requested_reason(move_description: &str) -> String {
    format!("Der Zug wurde nicht angefordert bei Zug '{move_description}'")
}

/// The result reason when the server ended a game at shutdown.
pub const SHUTDOWN_REASON: &str = "Das Spiel wurde beendet, weil der Server herunterfährt";

/// The result reason when an administrator cancelled the game.
pub const CANCELLED_REASON: &str = "Das Spiel wurde von einem Administrator abgebrochen";

/// The texts of the 2021 season (`blokus-2021.md` §9–§11, `lobby.md` §9.2),
/// with Spielleiter's own reasons where it ends a game the official server
/// would not.
#[derive(Clone, Copy, Debug, Default)]
pub struct Season2021;

impl SeasonTexts for Season2021 {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        ViolationTexts {
            room_error: rule_violation_room_error(offender.display_name, mistake, move_description),
            reason: rule_violation_reason(mistake, move_description),
            error_packet: Some(rule_violation(mistake, move_description)),
        }
    }

    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts {
        let expected = player_description(expected.seat, expected.display_name);
        let actual = player_description(actual.seat, actual.display_name);
        ViolationTexts {
            room_error: not_your_turn_room_error(&expected, &actual, move_description),
            reason: not_your_turn_reason(move_description),
            error_packet: Some(not_your_turn(&expected, &actual, move_description)),
        }
    }

    fn move_not_requested(&self, player: Player<'_>, move_description: &str) -> ViolationTexts {
        let player = player_description(player.seat, player.display_name);
        ViolationTexts {
            room_error: move_not_requested_room_error(&player),
            reason: move_not_requested_reason(move_description),
            error_packet: Some(move_not_requested(&player)),
        }
    }

    fn left(&self, _player: Player<'_>, _cause: LeaveCause) -> String {
        LEFT_REASON.to_owned()
    }

    fn timeout(
        &self,
        _player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        hard_secs: u64,
    ) -> String {
        timeout_reason_of(kind, soft_secs, hard_secs)
    }

    fn cancelled(&self) -> String {
        CANCELLED_REASON.to_owned()
    }

    fn shutdown(&self) -> String {
        SHUTDOWN_REASON.to_owned()
    }
}

/// How the official 2022 server prints a player: `ONE(alice)` for the
/// first seat, `ONE()` for a player without display name.
pub fn player_description_2022(seat: usize, display_name: &str) -> String {
    format!("{}({display_name})", crate::seats::seat_label(seat))
}

/// The result reason of a player who left, in 2022: the official text with
/// the cause, e.g. `Der Spieler hat das Spiel verlassen: LOST_CONNECTION`.
pub fn left_reason_2022(cause: LeaveCause) -> String {
    format!("{LEFT_REASON}: {}", cause.name())
}

/// The texts of the 2022 season (`ostseeschach-2022.md` §13): a refused
/// move's room error goes with a reason but no error packet; a move out of
/// turn or without request is reported with the official exception text,
/// which is also the reason; players are named `ONE(alice)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Season2022;

impl SeasonTexts for Season2022 {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        ViolationTexts {
            room_error: rule_violation_room_error(offender.display_name, mistake, move_description),
            reason: rule_violation_reason(mistake, move_description),
            error_packet: None,
        }
    }

    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts {
        let text = not_your_turn_room_error(
            &player_description_2022(expected.seat, expected.display_name),
            &player_description_2022(actual.seat, actual.display_name),
            move_description,
        );
        ViolationTexts {
            room_error: text.clone(),
            reason: text,
            error_packet: None,
        }
    }

    fn move_not_requested(&self, player: Player<'_>, _move_description: &str) -> ViolationTexts {
        let text = move_not_requested_room_error(&player_description_2022(
            player.seat,
            player.display_name,
        ));
        ViolationTexts {
            room_error: text.clone(),
            reason: text,
            error_packet: None,
        }
    }

    fn left(&self, _player: Player<'_>, cause: LeaveCause) -> String {
        left_reason_2022(cause)
    }

    fn timeout(
        &self,
        _player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        hard_secs: u64,
    ) -> String {
        timeout_reason_of(kind, soft_secs, hard_secs)
    }

    fn cancelled(&self) -> String {
        CANCELLED_REASON.to_owned()
    }

    fn shutdown(&self) -> String {
        SHUTDOWN_REASON.to_owned()
    }
}

/// An unknown top-level element (decisions.md §7: answered, the connection
/// stays open).
pub fn unknown_message(name: &str) -> String {
    format!("spielleiter.protocol.UnknownMessageException: Unknown message <{name}>, ignored")
}

/// A known message that cannot be understood (missing attribute, malformed
/// move, bad value).
pub fn malformed_message(error: &DecodeError) -> String {
    if error.is_malformed_xml() {
        format!("spielleiter.protocol.MalformedXmlException: {error}")
    } else {
        format!("spielleiter.protocol.MalformedMessageException: {error}")
    }
}

/// A stream that cannot be split into messages (decisions.md §8: the
/// connection is closed after this message).
pub fn framing_error(error: &FramingError) -> String {
    match error {
        FramingError::TooLarge { limit } => format!(
            "spielleiter.protocol.MessageTooLargeException: Message larger than {limit} bytes"
        ),
        FramingError::TooDeep { limit } => format!(
            "spielleiter.protocol.MessageTooLargeException: Message nested deeper than {limit} levels"
        ),
        FramingError::TooManyAttributes { limit } => format!(
            "spielleiter.protocol.MessageTooLargeException: An element has more than {limit} attributes"
        ),
        FramingError::Malformed { reason } => {
            format!("spielleiter.protocol.MalformedXmlException: {reason}")
        }
        other => format!("spielleiter.protocol.MalformedXmlException: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONO: &str = "Setze MONO(Farbe Gelb)[16,3]";

    #[test]
    fn lobby_errors_have_the_official_texts() {
        assert_eq!(
            unknown_room("R"),
            "sc.api.plugins.exceptions.GameRoomException: Couldn't find a room with id R"
        );
        assert_eq!(
            room_full("R"),
            "sc.api.plugins.exceptions.GameRoomException: Room R is already full!"
        );
        assert_eq!(
            unknown_game_type(Some("chess"), &[GameType::Blokus2021]),
            "sc.server.plugins.UnknownGameTypeException: Unknown GameType UUID: chess (available: swc_2021_blokus)"
        );
        assert_eq!(
            unauthenticated(&ClientMessage::Observe {
                room_id: "R".into()
            }),
            "sc.server.network.UnauthenticatedException: Request ObservationRequest(roomId=R) requires authentication"
        );
        assert_eq!(
            not_a_member("R"),
            "sc.api.plugins.exceptions.GameRoomException: Client is not a member of game R"
        );
        assert_eq!(
            non_move_packet("R", Some("memento")),
            "sc.api.plugins.exceptions.GameRoomException: Received non-move packet: RoomPacket(roomId=R, data=memento)"
        );
    }

    #[test]
    fn turn_errors_name_players_and_move() {
        let alice = player_description(0, "alice");
        let bob = player_description(1, "bob");
        assert_eq!(alice, "Team 1(alice)");
        assert_eq!(
            not_your_turn(&alice, &bob, MONO),
            "NotYourTurnException(expected=Team 1(alice), actual=Team 2(bob), data=Setze MONO(Farbe Gelb)[16,3])"
        );
        assert_eq!(
            not_your_turn_room_error(&alice, &bob, MONO),
            "It's not your turn yet; expected: Team 1(alice), got Team 2(bob) (msg was Setze MONO(Farbe Gelb)[16,3])."
        );
        assert_eq!(
            move_not_requested(&alice),
            "sc.api.plugins.exceptions.GameLogicException: Move from Team 1(alice) has not been requested."
        );
    }

    #[test]
    fn timeout_reasons_name_the_limit() {
        assert_eq!(
            soft_timeout_reason(2),
            "Der Spieler hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet"
        );
        assert_eq!(
            hard_timeout_reason(10),
            "Der Spieler hat innerhalb von 10 Sekunden nach Aufforderung keinen Zug gesendet"
        );
    }

    #[test]
    fn spielleiter_errors_are_recognisable() {
        assert_eq!(
            framing_error(&FramingError::TooLarge { limit: 1 << 20 }),
            "spielleiter.protocol.MessageTooLargeException: Message larger than 1048576 bytes"
        );
        assert_eq!(
            unknown_message("yarr"),
            "spielleiter.protocol.UnknownMessageException: Unknown message <yarr>, ignored"
        );
        let err = DecodeError::MissingAttribute {
            element: "joinRoom",
            attribute: "roomId",
        };
        assert_eq!(
            malformed_message(&err),
            "spielleiter.protocol.MalformedMessageException: <joinRoom> lacks the attribute `roomId`"
        );
    }
}
