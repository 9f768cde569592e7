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

// The result layouts against the official vectors, through the room
// message that carries a result: here, above both the result shapes and the
// seasons whose dialects read them, so result.rs needs no season.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        dialect::{Dialect, ResultLayout},
        games::{blokus2021::SEASON_2021, blokus2027::SEASON_2027},
        result::{
            Aggregation, Conclusion, Decimal, GameResult, PlayerScore, ScoreCause, ScoreFragment,
            Winner,
        },
        room::RoomData,
        xml::XmlReader,
    };

    /// A result vector of another season (`tests/vectors/season-*`).
    fn vector(path: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/vectors")
            .join(path);
        let text = std::fs::read_to_string(&path).expect("vector");
        text.strip_suffix('\n').unwrap_or(&text).to_owned()
    }

    fn decode(xml: &str, layout: ResultLayout) -> GameResult {
        let dialect = match layout {
            ResultLayout::Season2027 => SEASON_2027,
            // The other layouts state their causes: no season's texts needed.
            _ => Dialect {
                result_layout: layout,
                ..SEASON_2021
            },
        };
        let mut r = XmlReader::new(xml.as_bytes());
        let room = r.root().expect("room");
        let data = r.next_child(&room).expect("data").expect("data");
        GameResult::read_content(&mut r, &data, layout, |reason| {
            dialect.texts.cause_of(reason)
        })
        .expect("result")
    }

    fn encode(room_id: &str, result: &GameResult) -> String {
        ServerMessage::Room {
            room_id: room_id.to_owned(),
            data: RoomData::Result(result.clone()),
        }
        .to_xml()
    }

    fn fragments(names: &[&str]) -> Vec<ScoreFragment> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| ScoreFragment {
                name: (*name).to_owned(),
                aggregation: if i == 0 {
                    Aggregation::Sum
                } else {
                    Aggregation::Average
                },
                relevant_for_ranking: true,
            })
            .collect()
    }

    fn score(name: &str, cause: ScoreCause, reason: &str, parts: &[i64]) -> PlayerScore {
        PlayerScore {
            display_name: name.to_owned(),
            cause,
            reason: reason.to_owned(),
            parts: parts.iter().copied().map(Decimal::integer).collect(),
        }
    }

    fn winner(name: &str, seat: usize) -> Winner {
        Winner {
            display_name: name.to_owned(),
            seat,
        }
    }

    /// Decodes `file` in `layout` to `expected` and encodes `expected`
    /// back to the file's bytes.
    fn check(file: &str, room_id: &str, expected: &GameResult) {
        let xml = vector(file);
        assert_eq!(&decode(&xml, expected.layout), expected, "{file} decodes");
        assert_eq!(encode(room_id, expected), xml, "{file} encodes");
    }

    const ROOM_2022: &str = "f3c1e2a4-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    const ROOM_2027: &str = "7d0c9a55-2f1e-4b3a-9c8d-1e2f3a4b5c6d";

    #[test]
    fn the_2022_layout_matches_the_vectors() {
        let result = |bob: PlayerScore, alice_parts: &[i64], winners| GameResult {
            layout: ResultLayout::Season2022,
            definition: fragments(&["Siegpunkte", "Bernsteine", "Leichtfiguren Vorne"]),
            scores: vec![score("alice", ScoreCause::Regular, "", alice_parts), bob],
            winners,
            conclusion: None,
        };
        check(
            "season-2022/10-result-regular.xml",
            ROOM_2022,
            &result(
                score("bob", ScoreCause::Regular, "", &[0, 0, 2]),
                &[2, 2, 0],
                vec![winner("alice", 0)],
            ),
        );
        check(
            "season-2022/22-result-rule-violation.xml",
            ROOM_2022,
            &result(
                score(
                    "bob",
                    ScoreCause::RuleViolation,
                    "%s kann sich nicht um %s bewegen bei Zug 'Zug von [7|3] zu [6|3]'",
                    &[0, 0, 0],
                ),
                &[2, 0, 0],
                vec![winner("alice", 0)],
            ),
        );
        // The official 2022 server names no winner after a timeout.
        check(
            "season-2022/23-result-soft-timeout.xml",
            ROOM_2022,
            &result(
                score(
                    "bob",
                    ScoreCause::SoftTimeout,
                    "Der Spieler hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet",
                    &[0, 0, 0],
                ),
                &[2, 0, 0],
                Vec::new(),
            ),
        );
        check(
            "season-2022/24-result-left.xml",
            ROOM_2022,
            &result(
                score(
                    "bob",
                    ScoreCause::Left,
                    "Der Spieler hat das Spiel verlassen: LOST_CONNECTION",
                    &[0, 0, 0],
                ),
                &[2, 0, 0],
                vec![winner("alice", 0)],
            ),
        );
    }

    #[test]
    fn the_2027_layout_matches_the_vectors() {
        let result =
            |bob: PlayerScore, alice_parts: &[i64], winners, regular, reason: &str| GameResult {
                layout: ResultLayout::Season2027,
                definition: fragments(&["Siegpunkte", "Punkte"]),
                scores: vec![score("alice", ScoreCause::Regular, "", alice_parts), bob],
                winners,
                conclusion: Some(Box::new(Conclusion {
                    regular,
                    reason: reason.to_owned(),
                })),
            };
        check(
            "season-2027/10-result-regular-win.xml",
            ROOM_2027,
            &result(
                score("bob", ScoreCause::Regular, "", &[0, 118]),
                &[2, 131],
                vec![winner("alice", 0)],
                true,
                "alice hat am meisten Punkte erzielt.",
            ),
        );
        // A draw names no winner team; both players won.
        check(
            "season-2027/12-result-draw.xml",
            ROOM_2027,
            &result(
                score("bob", ScoreCause::Regular, "", &[1, 124]),
                &[1, 124],
                vec![winner("alice", 0), winner("bob", 1)],
                true,
                "Beide Spieler sind gleichauf",
            ),
        );
        // The loser of an irregular end has the conclusion's reason and
        // the cause it tells, which the layout does not write.
        let violation = "Regelverletzung von bob: Der erste Zug muss an den Rand gesetzt werden bei 'Setze PENTO_V(Farbe Gelb)[8,8]'";
        check(
            "season-2027/22-result-rule-violation.xml",
            ROOM_2027,
            &result(
                score("bob", ScoreCause::RuleViolation, violation, &[0, 0]),
                &[2, 5],
                vec![winner("alice", 0)],
                false,
                violation,
            ),
        );
        let late =
            "bob hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden gebraucht.";
        check(
            "season-2027/23-result-soft-timeout.xml",
            ROOM_2027,
            &result(
                score("bob", ScoreCause::SoftTimeout, late, &[0, 0]),
                &[2, 5],
                vec![winner("alice", 0)],
                false,
                late,
            ),
        );
    }

    // The test-only tic-tac-toe's state and move in room messages.
    spielleiter_rules::test_games! {
        mod tictactoe {
            use spielleiter_rules::{
                Game, GameType,
                tictactoe::{Mark, TicTacToe as Rules},
            };

            use crate::{
                GameMove, GameState, ServerMessage, games::tictactoe::MARK_CLASS, room::RoomData,
            };

            #[test]
            fn states_and_moves_round_trip() {
                let mut game = Rules::default();
                for cell in [0, 1, 3] {
                    game.play(&Mark(cell)).expect("legal");
                }
                let state = GameState::TestTicTacToe(Box::new(game.clone()));
                let message = ServerMessage::Room {
                    room_id: "R".into(),
                    data: RoomData::Memento(state.clone()),
                };
                let xml = message.to_xml();
                assert!(xml.contains("<board>XO.X.....</board>"), "{xml}");
                let read = ServerMessage::decode(xml.as_bytes(), GameType::TestTicTacToe)
                    .expect("readable");
                assert_eq!(read, message);
                assert_eq!(state.to_game().expect("consistent").turn(), 3);

                let mv = GameMove::TestTicTacToe(Mark(4));
                assert_eq!(mv.class(), MARK_CLASS);
                assert_eq!(mv.description(), "Setze auf Feld 4");
            }

            #[test]
            fn impossible_boards_are_refused() {
                for board in ["OO.......", "XXXOOO...", "XO", "XOZ......"] {
                    let xml = format!(
                        r#"<room roomId="R"><data class="memento"><state class="state" turn="0"><board>{board}</board></state></data></room>"#
                    );
                    assert!(
                        ServerMessage::decode(xml.as_bytes(), GameType::TestTicTacToe).is_err(),
                        "{board}"
                    );
                }
            }
        }
    }
}
