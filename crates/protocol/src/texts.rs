//! The lobby's texts: the `errorpacket` messages of the official server
//! about requests outside a game's rules (`lobby.md` §9.1, §9.2: unknown
//! rooms, reservations and game types, authentication, packets that are no
//! moves), and Spielleiter's own messages for the cases where it deviates
//! (decisions.md §7, §8, §10, §12). The server builds these messages only
//! through these functions, so it holds no wire strings of its own.
//!
//! Spielleiter's own texts follow the official style
//! `<exception class>: <message>`, with class names under `spielleiter.`
//! so that nobody mistakes them for official ones.
//!
//! The texts about a game are its season's ([`SeasonTexts`](crate::dialect::SeasonTexts),
//! with each season's game in `games::…`), built from the official room
//! texts the seasons share ([`room_texts`](crate::room_texts)).

use crate::{GameType, client::ClientMessage, error::DecodeError, framing::FramingError};

const GAME_ROOM_EXCEPTION: &str = "sc.api.plugins.exceptions.GameRoomException";

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

    #[test]
    fn a_malformed_message_text_agrees_with_the_kind_of_error() {
        for (error, xml, _) in crate::error::tests::every_kind() {
            let text = malformed_message(&error);
            let named = if xml {
                "MalformedXmlException"
            } else {
                "MalformedMessageException"
            };
            assert!(text.contains(named), "{error:?}: {text}");
        }
    }

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
