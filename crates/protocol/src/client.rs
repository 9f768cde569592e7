//! [`ClientMessage`]: every packet a client sends (`lobby.md` §4.1), how it
//! is read from a frame, and how it is written (by clients, and by the
//! server when it echoes a request in an `errorpacket`).

use std::borrow::Cow;

use spielleiter_rules::GameType;

use crate::{
    error::DecodeError,
    games::GameMove,
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// The element names of the packets a client may send.
/// The close packet's long name, as the 2021 and 2022 seasons wrote it.
const CLOSE_CONNECTION: &str = "sc.protocol.CloseConnection";

const KNOWN_PACKETS: [&str; 14] = [
    "join",
    "joinRoom",
    "joinPrepared",
    "room",
    "authenticate",
    "prepare",
    "observe",
    "pause",
    "step",
    "cancel",
    "testMode",
    "scoreForPlayer",
    "close",
    CLOSE_CONNECTION,
];

/// One slot of a prepared room (`<slot>` in `prepare`).
///
/// Missing attributes read as the official server reads them (`lobby.md`
/// §7.2): `canTimeout` and `reserved` default to false.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlotDescriptor {
    /// The player's display name; `None` if the attribute is missing.
    pub display_name: Option<String>,
    /// Whether the player is timed.
    pub can_timeout: bool,
    /// Whether a reservation code is issued for the slot.
    pub reserved: bool,
}

/// An admin's request to create a room with slots (`prepare`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prepare {
    /// The game type id as sent; `None` if missing.
    pub game_type: Option<String>,
    /// Whether the room starts paused.
    pub pause: bool,
    /// The slots, in team order (ONE first).
    pub slots: Vec<SlotDescriptor>,
    /// The room's random seed (its start piece or start line), a
    /// Spielleiter extension (`seed="N"`) so that a contest season replays
    /// the same game on any server; `None`: the server draws one.
    pub seed: Option<u64>,
    /// Whether the server keeps the room's wire log (each seat's bytes in
    /// and out) next to its replay, a Spielleiter extension
    /// (`wireLog="true"`); `false`: as the server is configured.
    pub wire_log: bool,
}

/// A packet from a client.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClientMessage {
    /// Join any open room or create one (`join`).
    Join {
        /// The game type id as sent; `None` if missing.
        game_type: Option<String>,
    },
    /// Join a specific room (`joinRoom`).
    JoinRoom {
        /// The room.
        room_id: String,
    },
    /// Take a reserved slot (`joinPrepared`).
    JoinPrepared {
        /// The reservation code.
        reservation_code: String,
    },
    /// A move (`room` whose `data` is a move).
    Move {
        /// The room.
        room_id: String,
        /// The move.
        mv: GameMove,
    },
    /// A `room` packet whose `data` is not a move, or which has no `data`.
    /// The server answers it with an error.
    RoomWithoutMove {
        /// The room.
        room_id: String,
        /// The `class` of the `data` element, if there was one.
        data_class: Option<String>,
    },
    /// Become administrator (`authenticate`).
    Authenticate {
        /// The passphrase.
        password: String,
    },
    /// Create a room with slots (`prepare`, admin).
    Prepare(Prepare),
    /// Receive a room's broadcasts (`observe`, admin).
    Observe {
        /// The room.
        room_id: String,
    },
    /// Pause or resume a room (`pause`, admin).
    Pause {
        /// The room.
        room_id: String,
        /// Whether to pause.
        pause: bool,
    },
    /// Advance a paused room by one move request (`step`, admin).
    Step {
        /// The room.
        room_id: String,
        /// Whether to start a room that is not full (`forced`).
        forced: bool,
    },
    /// Abort a room (`cancel`, admin).
    Cancel {
        /// The room.
        room_id: String,
    },
    /// Switch score recording on or off (`testMode`, admin).
    TestMode {
        /// The new value.
        test_mode: bool,
    },
    /// Ask for a player's recorded scores (`scoreForPlayer`, admin).
    ScoreForPlayer {
        /// The player.
        display_name: String,
    },
    /// The client is about to close the connection (`close`).
    Close,
    /// A top-level element the protocol does not know (decisions.md §7:
    /// answered with an error, the connection stays open).
    Unknown {
        /// The element name.
        name: String,
    },
}

impl ClientMessage {
    /// The element name (XStream alias) of the packet, which is also the
    /// `class` of its echo in an `errorpacket`.
    pub fn element_name(&self) -> &str {
        match self {
            ClientMessage::Join { .. } => "join",
            ClientMessage::JoinRoom { .. } => "joinRoom",
            ClientMessage::JoinPrepared { .. } => "joinPrepared",
            ClientMessage::Move { .. } | ClientMessage::RoomWithoutMove { .. } => "room",
            ClientMessage::Authenticate { .. } => "authenticate",
            ClientMessage::Prepare(_) => "prepare",
            ClientMessage::Observe { .. } => "observe",
            ClientMessage::Pause { .. } => "pause",
            ClientMessage::Step { .. } => "step",
            ClientMessage::Cancel { .. } => "cancel",
            ClientMessage::TestMode { .. } => "testMode",
            ClientMessage::ScoreForPlayer { .. } => "scoreForPlayer",
            ClientMessage::Close => "close",
            ClientMessage::Unknown { name } => name,
        }
    }

    /// Whether only an administrator may send this request.
    pub fn is_admin_request(&self) -> bool {
        matches!(
            self,
            ClientMessage::Prepare(_)
                | ClientMessage::Observe { .. }
                | ClientMessage::Pause { .. }
                | ClientMessage::Step { .. }
                | ClientMessage::Cancel { .. }
                | ClientMessage::TestMode { .. }
                | ClientMessage::ScoreForPlayer { .. }
        )
    }

    /// Parses one complete packet (a [`Frame`](crate::Frame)'s bytes) from
    /// a connection that plays `game`: the data of a `room` packet is read
    /// as a move of `game` if its class is one of `game`'s move classes.
    /// Without a game, and for any other class, it is
    /// [`ClientMessage::RoomWithoutMove`].
    ///
    /// # Errors
    ///
    /// Malformed XML, a known packet without a required attribute, or a
    /// move of the wrong shape. Unknown attributes and child elements are
    /// ignored; an unknown packet is [`ClientMessage::Unknown`].
    pub fn decode(bytes: &[u8], game: Option<GameType>) -> Result<ClientMessage, DecodeError> {
        let mut r = XmlReader::new(bytes);
        let el = r.root()?;
        let name = match KNOWN_PACKETS.iter().find(|&&known| known == el.name()) {
            Some(known) => Cow::Borrowed(*known),
            None => Cow::Owned(el.name().to_owned()),
        };
        ClientMessage::read(&mut r, el, &name, game)
    }

    /// Reads `el` as the packet named `name` (the element name, or the
    /// `class` of an echoed request); moves are moves of `game`.
    pub(crate) fn read(
        r: &mut XmlReader<'_>,
        el: Element<'_>,
        name: &str,
        game: Option<GameType>,
    ) -> Result<ClientMessage, DecodeError> {
        fn required(
            el: &Element<'_>,
            element: &'static str,
            attribute: &'static str,
        ) -> Result<String, DecodeError> {
            Ok(el
                .attribute(attribute)?
                .ok_or(DecodeError::MissingAttribute { element, attribute })?
                .into_owned())
        }
        fn flag(el: &Element<'_>, attribute: &str) -> Result<bool, DecodeError> {
            Ok(el.attribute(attribute)?.is_some_and(|v| parse_bool(&v)))
        }
        let message = match name {
            "join" => ClientMessage::Join {
                game_type: el.attribute("gameType")?.map(|g| g.into_owned()),
            },
            "joinRoom" => ClientMessage::JoinRoom {
                room_id: required(&el, "joinRoom", "roomId")?,
            },
            "joinPrepared" => ClientMessage::JoinPrepared {
                reservation_code: required(&el, "joinPrepared", "reservationCode")?,
            },
            "room" => return read_room(r, el, game),
            "authenticate" => ClientMessage::Authenticate {
                password: required(&el, "authenticate", "password")?,
            },
            "prepare" => return read_prepare(r, el),
            "observe" => ClientMessage::Observe {
                room_id: required(&el, "observe", "roomId")?,
            },
            "pause" => ClientMessage::Pause {
                room_id: required(&el, "pause", "roomId")?,
                pause: flag(&el, "pause")?,
            },
            "step" => ClientMessage::Step {
                room_id: required(&el, "step", "roomId")?,
                forced: flag(&el, "forced")?,
            },
            "cancel" => ClientMessage::Cancel {
                room_id: required(&el, "cancel", "roomId")?,
            },
            "testMode" => ClientMessage::TestMode {
                test_mode: flag(&el, "testMode")?,
            },
            "scoreForPlayer" => ClientMessage::ScoreForPlayer {
                display_name: required(&el, "scoreForPlayer", "displayName")?,
            },
            // The long name is what the 2021/2022 servers wrote and still
            // accept (`lobby.md` §2.2).
            "close" | CLOSE_CONNECTION => ClientMessage::Close,
            other => ClientMessage::Unknown {
                name: other.to_owned(),
            },
        };
        r.skip(el)?;
        Ok(message)
    }

    /// Writes the packet at indentation level `indent` (0: column 0).
    pub fn encode<S: ByteSink>(&self, out: &mut S, indent: usize) {
        self.write(&mut XmlWriter::new(out, indent), None);
    }

    /// The packet as a string, at column 0.
    pub fn to_xml(&self) -> String {
        let mut out = Vec::new();
        self.encode(&mut out, 0);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes the packet; as element `echo_as` with a `class` attribute
    /// naming the packet if given (`<originalRequest class="join" …>`).
    pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>, echo_as: Option<&str>) {
        let element = echo_as.unwrap_or(self.element_name());
        w.start(element);
        if echo_as.is_some() {
            w.attr("class", self.element_name());
        }
        match self {
            ClientMessage::Join { game_type } => {
                if let Some(game_type) = game_type {
                    w.attr("gameType", game_type);
                }
            }
            ClientMessage::JoinRoom { room_id }
            | ClientMessage::Observe { room_id }
            | ClientMessage::Cancel { room_id } => w.attr("roomId", room_id),
            ClientMessage::JoinPrepared { reservation_code } => {
                w.attr("reservationCode", reservation_code)
            }
            ClientMessage::Move { room_id, mv } => {
                w.attr("roomId", room_id);
                w.open();
                mv.write_element(w, "data");
                w.close(element);
                return;
            }
            ClientMessage::RoomWithoutMove {
                room_id,
                data_class,
            } => {
                w.attr("roomId", room_id);
                if let Some(class) = data_class {
                    w.open();
                    w.start("data");
                    w.attr("class", class);
                    w.end_empty();
                    w.close(element);
                    return;
                }
            }
            ClientMessage::Authenticate { password } => w.attr("password", password),
            ClientMessage::Prepare(prepare) => {
                if let Some(game_type) = &prepare.game_type {
                    w.attr("gameType", game_type);
                }
                w.attr_bool("pause", prepare.pause);
                if let Some(seed) = prepare.seed {
                    w.attr("seed", &seed.to_string());
                }
                if prepare.wire_log {
                    w.attr_bool("wireLog", true);
                }
                if !prepare.slots.is_empty() {
                    w.open();
                    for slot in &prepare.slots {
                        w.start("slot");
                        if let Some(name) = &slot.display_name {
                            w.attr("displayName", name);
                        }
                        w.attr_bool("canTimeout", slot.can_timeout);
                        w.attr_bool("reserved", slot.reserved);
                        w.end_empty();
                    }
                    w.close(element);
                    return;
                }
            }
            ClientMessage::Pause { room_id, pause } => {
                w.attr("roomId", room_id);
                w.attr_bool("pause", *pause);
            }
            ClientMessage::Step { room_id, forced } => {
                w.attr("roomId", room_id);
                w.attr_bool("forced", *forced);
            }
            ClientMessage::TestMode { test_mode } => w.attr_bool("testMode", *test_mode),
            ClientMessage::ScoreForPlayer { display_name } => w.attr("displayName", display_name),
            ClientMessage::Close | ClientMessage::Unknown { .. } => {}
        }
        w.end_empty();
    }
}

fn read_room(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    game: Option<GameType>,
) -> Result<ClientMessage, DecodeError> {
    let room_id = el
        .attribute("roomId")?
        .ok_or(DecodeError::MissingAttribute {
            element: "room",
            attribute: "roomId",
        })?
        .into_owned();
    let mut mv = None;
    let mut data_class = None;
    while let Some(child) = r.next_child(&el)? {
        if child.name() != "data" {
            r.skip(child)?;
            continue;
        }
        let class = child.class()?;
        if let Some(game) = game.filter(|&g| GameMove::is_move_class(g, &class)) {
            mv = GameMove::read(r, &child, &class, game)?;
        } else {
            let class = class.into_owned();
            r.skip(child)?;
            data_class = Some(class);
        }
    }
    Ok(match mv {
        Some(mv) => ClientMessage::Move { room_id, mv },
        None => ClientMessage::RoomWithoutMove {
            room_id,
            data_class,
        },
    })
}

fn read_prepare(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<ClientMessage, DecodeError> {
    let mut prepare = Prepare {
        game_type: None,
        pause: false,
        slots: Vec::new(),
        seed: None,
        wire_log: false,
    };
    for attr in el.attributes() {
        let (key, value) = attr?;
        match key {
            "gameType" => prepare.game_type = Some(value.into_owned()),
            "pause" => prepare.pause = parse_bool(&value),
            "seed" => {
                let seed = value
                    .parse()
                    .map_err(|_| DecodeError::invalid("seed", value.as_ref()))?;
                prepare.seed = Some(seed);
            }
            "wireLog" => prepare.wire_log = parse_bool(&value),
            _ => {}
        }
    }
    while let Some(child) = r.next_child(&el)? {
        if child.name() == "slot" {
            let mut slot = SlotDescriptor {
                display_name: None,
                can_timeout: false,
                reserved: false,
            };
            for attr in child.attributes() {
                let (key, value) = attr?;
                match key {
                    "displayName" => slot.display_name = Some(value.into_owned()),
                    "canTimeout" => slot.can_timeout = parse_bool(&value),
                    "reserved" => slot.reserved = parse_bool(&value),
                    _ => {}
                }
            }
            prepare.slots.push(slot);
        }
        r.skip(child)?;
    }
    Ok(ClientMessage::Prepare(prepare))
}

#[cfg(test)]
mod tests {
    // The test-only counting game's move from a client, read for its game
    // only.
    spielleiter_rules::test_games! {
        mod counting {
            use spielleiter_rules::{GameType, counting::Count};

            use crate::{ClientMessage, games::GameMove};

            #[test]
            fn moves_round_trip_for_the_counting_game_only() {
                let message = ClientMessage::Move {
                    room_id: "r".to_owned(),
                    mv: GameMove::TestCounting(Count(2)),
                };
                let xml = message.to_xml();
                assert_eq!(
                    xml,
                    "<room roomId=\"r\">\n  <data class=\"test.Count\">\n    <amount>2</amount>\n  </data>\n</room>"
                );
                let decoded = ClientMessage::decode(xml.as_bytes(), Some(GameType::TestCounting));
                assert_eq!(decoded.ok(), Some(message));
                assert!(matches!(
                    ClientMessage::decode(xml.as_bytes(), Some(GameType::Blokus2021)),
                    Ok(ClientMessage::RoomWithoutMove { .. })
                ));
            }
        }
    }
}
