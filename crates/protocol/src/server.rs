//! [`ServerMessage`]: every packet the server sends (`lobby.md` §4.2, §5),
//! written in exactly the official form and read back by clients and the
//! replay reader.

use spielleiter_rules::GameType;

use crate::{
    client::ClientMessage,
    dialect::CloseElement,
    error::DecodeError,
    result::PlayerScoreReport,
    room::RoomData,
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// A packet from the server.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ServerMessage {
    /// The client joined a room (`joined`).
    Joined {
        /// The room.
        room_id: String,
    },
    /// The room was closed after its game ended (`left`).
    Left {
        /// The room.
        room_id: String,
    },
    /// Answer to `observe` (`observed`).
    Observed {
        /// The room.
        room_id: String,
    },
    /// Notification to administrators that a `join` filled a slot
    /// (`joinedGameRoom`).
    JoinedGameRoom {
        /// The room.
        room_id: String,
        /// Occupied slots after the join.
        player_count: u32,
    },
    /// Answer to `prepare` (`prepared`).
    Prepared {
        /// The new room.
        room_id: String,
        /// One code per reserved slot, in slot order.
        reservations: Vec<String>,
    },
    /// Answer to `testMode` (`testing`).
    Testing {
        /// The new value.
        test_mode: bool,
    },
    /// Answer to `scoreForPlayer` (`playerScore`).
    PlayerScore(PlayerScoreReport),
    /// A request failed (`errorpacket`).
    ErrorPacket {
        /// What went wrong (see [`texts`](crate::texts)).
        message: String,
        /// The failed request, echoed as `<originalRequest class="…">`;
        /// `None` when there is no request to echo (e.g. malformed XML).
        original_request: Option<Box<ClientMessage>>,
    },
    /// A room message (`room`).
    Room {
        /// The room.
        room_id: String,
        /// The message.
        data: RoomData,
    },
    /// The server is about to close the connection (`<close/>`, or the
    /// season's form of it).
    Close(CloseElement),
    /// A packet the protocol does not know.
    Unknown {
        /// The element name.
        name: String,
    },
}

impl ServerMessage {
    /// The element name of the packet.
    pub fn element_name(&self) -> &str {
        match self {
            ServerMessage::Joined { .. } => "joined",
            ServerMessage::Left { .. } => "left",
            ServerMessage::Observed { .. } => "observed",
            ServerMessage::JoinedGameRoom { .. } => "joinedGameRoom",
            ServerMessage::Prepared { .. } => "prepared",
            ServerMessage::Testing { .. } => "testing",
            ServerMessage::PlayerScore(_) => "playerScore",
            ServerMessage::ErrorPacket { .. } => "errorpacket",
            ServerMessage::Room { .. } => "room",
            ServerMessage::Close(form) => form.element(),
            ServerMessage::Unknown { name } => name,
        }
    }

    /// Writes the packet in the official form, at indentation level
    /// `indent` (0 for replays and single packets, 1 inside the server's
    /// `<protocol>` stream). Writes into a reusable buffer: nothing is
    /// allocated besides the buffer's growth.
    pub fn encode<S: ByteSink>(&self, out: &mut S, indent: usize) {
        let mut w = XmlWriter::new(out, indent);
        let name = self.element_name();
        w.start(name);
        match self {
            ServerMessage::Joined { room_id }
            | ServerMessage::Left { room_id }
            | ServerMessage::Observed { room_id } => {
                w.attr("roomId", room_id);
                w.end_empty();
            }
            ServerMessage::JoinedGameRoom {
                room_id,
                player_count,
            } => {
                w.attr("roomId", room_id);
                w.attr_int("playerCount", i64::from(*player_count));
                w.end_empty();
            }
            ServerMessage::Prepared {
                room_id,
                reservations,
            } => {
                w.attr("roomId", room_id);
                if reservations.is_empty() {
                    w.end_empty();
                } else {
                    w.open();
                    for code in reservations {
                        w.text_element("reservation", code);
                    }
                    w.close(name);
                }
            }
            ServerMessage::Testing { test_mode } => {
                w.attr_bool("testMode", *test_mode);
                w.end_empty();
            }
            ServerMessage::PlayerScore(report) => {
                w.open();
                report.write(&mut w);
                w.close(name);
            }
            ServerMessage::ErrorPacket {
                message,
                original_request,
            } => {
                w.attr("message", message);
                match original_request {
                    Some(request) => {
                        w.open();
                        request.write(&mut w, Some("originalRequest"));
                        w.close(name);
                    }
                    None => w.end_empty(),
                }
            }
            ServerMessage::Room { room_id, data } => {
                w.attr("roomId", room_id);
                w.open();
                data.write(&mut w);
                w.close(name);
            }
            ServerMessage::Close(_) | ServerMessage::Unknown { .. } => w.end_empty(),
        }
    }

    /// The packet as a string, at column 0.
    pub fn to_xml(&self) -> String {
        let mut out = Vec::new();
        self.encode(&mut out, 0);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Parses one complete packet (a [`Frame`](crate::Frame)'s bytes) of a
    /// connection that plays or observes `game`: states, moves and results
    /// in room packets are read as those of `game`.
    ///
    /// # Errors
    ///
    /// Malformed XML, or a known packet without a required part. Unknown
    /// attributes and child elements are ignored; an unknown packet is
    /// [`ServerMessage::Unknown`].
    pub fn decode(bytes: &[u8], game: GameType) -> Result<ServerMessage, DecodeError> {
        let mut r = XmlReader::new(bytes);
        let el = r.root()?;
        let room_id = |el: &Element<'_>, element| -> Result<String, DecodeError> {
            Ok(el
                .attribute("roomId")?
                .ok_or(DecodeError::MissingAttribute {
                    element,
                    attribute: "roomId",
                })?
                .into_owned())
        };
        let message = match el.name() {
            "joined" => ServerMessage::Joined {
                room_id: room_id(&el, "joined")?,
            },
            "left" => ServerMessage::Left {
                room_id: room_id(&el, "left")?,
            },
            "observed" => ServerMessage::Observed {
                room_id: room_id(&el, "observed")?,
            },
            "joinedGameRoom" => {
                let count = el.attribute("playerCount")?.unwrap_or_default();
                let player_count = count
                    .parse()
                    .map_err(|_| DecodeError::invalid("player count", count.as_ref()))?;
                ServerMessage::JoinedGameRoom {
                    room_id: room_id(&el, "joinedGameRoom")?,
                    player_count,
                }
            }
            "prepared" => {
                let room_id = room_id(&el, "prepared")?;
                let mut reservations = Vec::new();
                while let Some(child) = r.next_child(&el)? {
                    if child.name() == "reservation" {
                        reservations.push(r.text(child)?.into_owned());
                    } else {
                        r.skip(child)?;
                    }
                }
                return Ok(ServerMessage::Prepared {
                    room_id,
                    reservations,
                });
            }
            "testing" => ServerMessage::Testing {
                test_mode: el.attribute("testMode")?.is_some_and(|v| parse_bool(&v)),
            },
            "playerScore" => {
                let mut report = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() == "score" {
                        report = Some(PlayerScoreReport::read(&mut r, child)?);
                    } else {
                        r.skip(child)?;
                    }
                }
                return Ok(ServerMessage::PlayerScore(report.ok_or(
                    DecodeError::MissingChild {
                        element: "playerScore",
                        child: "score",
                    },
                )?));
            }
            "errorpacket" => {
                let message = el.attribute("message")?.unwrap_or_default().into_owned();
                let mut original_request = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() == "originalRequest" {
                        let class = child.class()?.into_owned();
                        original_request = Some(Box::new(ClientMessage::read(
                            &mut r,
                            child,
                            &class,
                            Some(game),
                        )?));
                    } else {
                        r.skip(child)?;
                    }
                }
                return Ok(ServerMessage::ErrorPacket {
                    message,
                    original_request,
                });
            }
            "room" => {
                let room_id = room_id(&el, "room")?;
                let mut data = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() == "data" {
                        data = Some(RoomData::read(&mut r, child, game)?);
                    } else {
                        r.skip(child)?;
                    }
                }
                return Ok(ServerMessage::Room {
                    room_id,
                    data: data.ok_or(DecodeError::MissingChild {
                        element: "room",
                        child: "data",
                    })?,
                });
            }
            other => match CloseElement::from_element(other) {
                Some(form) => ServerMessage::Close(form),
                None => ServerMessage::Unknown {
                    name: other.to_owned(),
                },
            },
        };
        r.skip(el)?;
        Ok(message)
    }
}
