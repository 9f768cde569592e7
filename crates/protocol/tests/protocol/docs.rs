//! The examples in `protocol/README.md` are produced by the encoder: each
//! block between `<!-- example: NAME -->` and `<!-- /example -->` must equal
//! what [`example`] generates for NAME. Run with `UPDATE_PROTOCOL_DOCS=1` to
//! rewrite the blocks after a deliberate change.

use std::{fmt::Write as _, path::PathBuf};

use spielleiter_protocol::{
    ClientMessage, ClientStreamEncoder, Decimal, FramingError, GameMove, GameResult, GameState,
    GameType, PlayerScore, PlayerScoreReport, Prepare, RoomData, ScoreCause, ScoreValue,
    ServerMessage, ServerStreamEncoder, SlotDescriptor, Winner,
    dialect::{CloseElement, MoveRequestClass, ResultLayout},
    games::blokus2021::{self, WireMove, mistake_move_description, score_definition},
    room_texts, texts,
};
use spielleiter_rules::blokus::{Color, Mistake};

use crate::util::{illegal_mono, initial_state, midgame_state, yellow_pento_l};

const ROOM: &str = "8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f";

fn readme_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/README.md")
}

fn room(data: RoomData) -> ServerMessage {
    ServerMessage::Room {
        room_id: ROOM.into(),
        data,
    }
}

fn client(messages: &[ClientMessage]) -> String {
    messages
        .iter()
        .map(ClientMessage::to_xml)
        .collect::<Vec<_>>()
        .join("\n")
}

fn server(messages: &[ServerMessage]) -> String {
    messages
        .iter()
        .map(ServerMessage::to_xml)
        .collect::<Vec<_>>()
        .join("\n")
}

fn result(
    scores: [(ScoreCause, String, i64, i64); 2],
    winner: Option<(&str, usize)>,
) -> GameResult {
    GameResult {
        layout: ResultLayout::Season2021,
        definition: score_definition(),
        scores: scores
            .into_iter()
            .map(|(cause, reason, win, points)| PlayerScore {
                display_name: String::new(),
                cause,
                reason,
                parts: vec![Decimal::integer(win), Decimal::integer(points)],
            })
            .collect(),
        winners: winner
            .into_iter()
            .map(|(name, seat)| Winner {
                display_name: name.into(),
                seat,
            })
            .collect(),
        conclusion: None,
    }
}

/// The generated text of the example block `name`.
fn example(name: &str) -> String {
    let prepared_room = "0d9c8b7a-6f5e-4d3c-2b1a-099887766554";
    match name {
        "client-stream" => {
            let mut out = Vec::new();
            let mut encoder = ClientStreamEncoder::new();
            encoder.write(
                &ClientMessage::Join {
                    game_type: Some(GameType::Blokus2021.id().into()),
                },
                &mut out,
            );
            encoder.finish(&mut out);
            String::from_utf8(out).expect("utf-8")
        }
        "server-stream" => {
            let mut out = Vec::new();
            let mut encoder = ServerStreamEncoder::new();
            encoder.write(
                &ServerMessage::Joined {
                    room_id: ROOM.into(),
                },
                &mut out,
            );
            encoder.write(&room(RoomData::Welcome { seat: 0 }), &mut out);
            encoder.finish(&mut out);
            String::from_utf8(out).expect("utf-8")
        }
        "join" => client(&[
            ClientMessage::Join {
                game_type: Some(GameType::Blokus2021.id().into()),
            },
            ClientMessage::JoinRoom {
                room_id: ROOM.into(),
            },
            ClientMessage::JoinPrepared {
                reservation_code: "5a0f6c1e-2d3b-4e8f-9a7b-1c2d3e4f5a6b".into(),
            },
        ]),
        "joined" => server(&[ServerMessage::Joined {
            room_id: ROOM.into(),
        }]),
        "welcome" => server(&[room(RoomData::Welcome { seat: 0 })]),
        "memento-initial" => server(&[room(RoomData::Memento(initial_state().into()))]),
        "memento" => server(&[room(RoomData::Memento(GameState::from(midgame_state())))]),
        "move-request" => server(&[room(RoomData::MoveRequest(MoveRequestClass::Qualified))]),
        "set-move" => client(&[ClientMessage::Move {
            room_id: ROOM.into(),
            mv: GameMove::Blokus2021(yellow_pento_l()),
        }]),
        "skip-move" => client(&[ClientMessage::Move {
            room_id: ROOM.into(),
            mv: GameMove::Blokus2021(WireMove::Skip(Some(Color::Yellow))),
        }]),
        "result" => server(&[room(RoomData::Result(result(
            [
                (ScoreCause::Regular, String::new(), 2, 87),
                (ScoreCause::Regular, String::new(), 0, 65),
            ],
            Some(("alice", 0)),
        )))]),
        "left" => {
            client(&[ClientMessage::Close])
                + "\n"
                + &server(&[ServerMessage::Left {
                    room_id: ROOM.into(),
                }])
        }
        "rule-violation" => {
            let mv = illegal_mono();
            let mistake = Mistake::NoSharedCorner;
            let description = mistake_move_description(mistake, &mv);
            let text = blokus2021::mistake_text(mistake);
            server(&[
                room(RoomData::Error {
                    message: room_texts::rule_violation_room_error(
                        "bob",
                        text,
                        description.as_deref(),
                    ),
                    original_message: Some(GameMove::Blokus2021(mv)),
                }),
                room(RoomData::Result(result(
                    [
                        (ScoreCause::Regular, String::new(), 2, 14),
                        (
                            ScoreCause::RuleViolation,
                            room_texts::rule_violation_reason(text, description.as_deref()),
                            0,
                            10,
                        ),
                    ],
                    Some(("alice", 0)),
                ))),
                ServerMessage::Left {
                    room_id: ROOM.into(),
                },
                ServerMessage::ErrorPacket {
                    message: room_texts::rule_violation(text, description.as_deref()),
                    original_request: Some(Box::new(ClientMessage::Move {
                        room_id: ROOM.into(),
                        mv: GameMove::Blokus2021(mv),
                    })),
                },
                ServerMessage::Close(CloseElement::Short),
            ])
        }
        "errorpacket" => server(&[ServerMessage::ErrorPacket {
            message: texts::unknown_room("nope"),
            original_request: Some(Box::new(ClientMessage::JoinRoom {
                room_id: "nope".into(),
            })),
        }]),
        "unknown-message" => server(&[ServerMessage::ErrorPacket {
            message: texts::unknown_message("yarr"),
            original_request: Some(Box::new(ClientMessage::Unknown {
                name: "yarr".into(),
            })),
        }]),
        "authenticate" => client(&[ClientMessage::Authenticate {
            password: "secret".into(),
        }]),
        "prepare" => client(&[ClientMessage::Prepare(Prepare {
            seed: None,
            wire_log: false,
            game_type: Some(GameType::Blokus2021.id().into()),
            pause: false,
            slots: ["alice", "bob"]
                .map(|name| SlotDescriptor {
                    display_name: Some(name.into()),
                    can_timeout: true,
                    reserved: true,
                })
                .into(),
        })]),
        "prepared" => server(&[ServerMessage::Prepared {
            room_id: prepared_room.into(),
            reservations: vec![
                "5a0f6c1e-2d3b-4e8f-9a7b-1c2d3e4f5a6b".into(),
                "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b".into(),
            ],
        }]),
        "observe" => client(&[ClientMessage::Observe {
            room_id: prepared_room.into(),
        }]),
        "observed" => server(&[ServerMessage::Observed {
            room_id: prepared_room.into(),
        }]),
        "joined-game-room" => server(&[ServerMessage::JoinedGameRoom {
            room_id: ROOM.into(),
            player_count: 1,
        }]),
        "pause" => {
            client(&[
                ClientMessage::Pause {
                    room_id: prepared_room.into(),
                    pause: true,
                },
                ClientMessage::Step {
                    room_id: prepared_room.into(),
                    forced: false,
                },
                ClientMessage::Cancel {
                    room_id: prepared_room.into(),
                },
            ]) + "\n"
                + &server(&[ServerMessage::Room {
                    room_id: prepared_room.into(),
                    data: RoomData::Paused { paused: true },
                }])
        }
        "test-mode" => {
            client(&[
                ClientMessage::TestMode { test_mode: true },
                ClientMessage::ScoreForPlayer {
                    display_name: "alice".into(),
                },
            ]) + "\n"
                + &server(&[
                    ServerMessage::Testing { test_mode: true },
                    ServerMessage::PlayerScore(PlayerScoreReport {
                        display_name: "alice".into(),
                        number_of_tests: 2,
                        values: score_definition()
                            .into_iter()
                            .zip([Decimal::integer(4), Decimal::new(47_500_000, 6)])
                            .map(|(fragment, value)| ScoreValue { fragment, value })
                            .collect(),
                    }),
                ])
        }
        "texts" => texts_table(),
        "pieces" => crate::pieces::all_pieces(),
        "orientations" => crate::pieces::orientations(),
        name if name.starts_with("classic-") => crate::classic::example(name, ROOM),
        other if other.starts_with("bcl-") => crate::bcl::example(other),
        other => panic!("protocol/README.md names an unknown example `{other}`"),
    }
}

/// Every error text, with placeholders, as a Markdown table.
fn texts_table() -> String {
    let mv = GameMove::Blokus2021(yellow_pento_l());
    let alice = room_texts::player_description(0, "alice");
    let bob = room_texts::player_description(1, "bob");
    let mistake = Mistake::NoSharedCorner;
    let description = mistake_move_description(mistake, &illegal_mono());
    let rows: Vec<(&str, String)> = vec![
        (
            "unknown or used reservation code",
            texts::unknown_reservation(),
        ),
        ("unknown room id", texts::unknown_room("ROOM")),
        ("`joinRoom` into a full room", texts::room_full("ROOM")),
        (
            "unknown game type",
            texts::unknown_game_type(Some("TYPE"), GameType::ALL),
        ),
        ("wrong password", texts::authentication_failed()),
        (
            "`authenticate` while administration is disabled (Spielleiter)",
            texts::administration_disabled(),
        ),
        (
            "admin request without `authenticate`",
            texts::unauthenticated(&ClientMessage::Observe {
                room_id: "ROOM".into(),
            }),
        ),
        (
            "`room` packet without a move",
            texts::non_move_packet("ROOM", Some("memento")),
        ),
        (
            "move into a room without a slot there",
            texts::not_a_member("ROOM"),
        ),
        (
            "move after the game ended",
            room_texts::game_already_over(&mv.description()),
        ),
        (
            "move while not on turn",
            room_texts::not_your_turn(&alice, &bob, &mv.description()),
        ),
        (
            "move while not on turn (room error)",
            room_texts::not_your_turn_room_error(&alice, &bob, &mv.description()),
        ),
        (
            "move while not on turn (result reason, Spielleiter)",
            room_texts::not_your_turn_reason(&mv.description()),
        ),
        (
            "move without a move request",
            room_texts::move_not_requested(&alice),
        ),
        (
            "rule violation",
            room_texts::rule_violation(blokus2021::mistake_text(mistake), description.as_deref()),
        ),
        (
            "rule violation (room error)",
            room_texts::rule_violation_room_error(
                "bob",
                blokus2021::mistake_text(mistake),
                description.as_deref(),
            ),
        ),
        (
            "rule violation (result reason)",
            room_texts::rule_violation_reason(
                blokus2021::mistake_text(mistake),
                description.as_deref(),
            ),
        ),
        ("left (result reason)", room_texts::LEFT_REASON.to_owned()),
        (
            "soft timeout (result reason)",
            room_texts::soft_timeout_reason(2),
        ),
        (
            "hard timeout (result reason)",
            room_texts::hard_timeout_reason(10),
        ),
        (
            "unknown top-level element (Spielleiter)",
            texts::unknown_message("yarr"),
        ),
        (
            "known element, wrong shape (Spielleiter)",
            texts::malformed_message(&spielleiter_protocol::DecodeError::MissingAttribute {
                element: "joinRoom",
                attribute: "roomId",
            }),
        ),
        (
            "malformed XML (Spielleiter)",
            texts::framing_error(&FramingError::Malformed {
                reason: "text before the root element",
            }),
        ),
        (
            "message too large (Spielleiter)",
            texts::framing_error(&FramingError::TooLarge { limit: 1 << 20 }),
        ),
        (
            "message nested too deeply (Spielleiter)",
            texts::framing_error(&FramingError::TooDeep { limit: 32 }),
        ),
    ];
    let mut table = String::from("| situation | message |\n| --- | --- |\n");
    for (situation, text) in rows {
        let text = text.replace('\n', "\\n").replace('|', "\\|");
        writeln!(table, "| {situation} | `` {text} `` |").expect("string");
    }
    table.trim_end().to_owned()
}

/// Replaces every example block of `readme` with fresh encoder output (or
/// the rules' pieces), fenced as ```xml unless the content is a table or
/// brings its own fence.
fn regenerate(readme: &str) -> String {
    const OPEN: &str = "<!-- example: ";
    const CLOSE: &str = "<!-- /example -->";
    let mut out = String::with_capacity(readme.len());
    let mut rest = readme;
    while let Some(start) = rest.find(OPEN) {
        let header_end = start + rest[start..].find("-->").expect("example marker closes") + 3;
        let name = rest[start + OPEN.len()..header_end - 3].trim();
        let end = header_end
            + rest[header_end..]
                .find(CLOSE)
                .unwrap_or_else(|| panic!("example `{name}` has no end marker"));
        out.push_str(&rest[..header_end]);
        let content = example(name);
        // Tables and pictures bring their own form.
        if matches!(name, "texts" | "pieces" | "orientations") {
            write!(out, "\n{content}\n").expect("string");
        } else if let Some(fence) = crate::bcl::fence(name) {
            write!(out, "\n```{fence}\n{content}\n```\n").expect("string");
        } else {
            write!(out, "\n```xml\n{content}\n```\n").expect("string");
        }
        out.push_str(CLOSE);
        rest = &rest[end + CLOSE.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn readme_examples_are_encoder_output() {
    let path = readme_path();
    let readme = std::fs::read_to_string(&path).expect("protocol/README.md exists");
    let fresh = regenerate(&readme);
    if std::env::var_os("UPDATE_PROTOCOL_DOCS").is_some() {
        std::fs::write(&path, &fresh).expect("README is writable");
        return;
    }
    assert!(
        readme == fresh,
        "protocol/README.md examples differ from the encoder's output; \
         run `UPDATE_PROTOCOL_DOCS=1 cargo test -p spielleiter-protocol --test protocol docs` \
         and review the diff"
    );
    assert!(readme.matches("<!-- example: ").count() >= 20);
    assert!(readme.matches("<!-- example: classic-").count() >= 7);
}

#[test]
fn readme_examples_decode() {
    // Every XML example is a well-formed sequence of packets.
    for name in ["memento", "result", "rule-violation", "test-mode", "pause"] {
        let text = format!("<protocol>{}</protocol>", example(name));
        for frame in crate::util::frames(text.as_bytes()) {
            let server = ServerMessage::decode(&frame, GameType::Blokus2021);
            let client = ClientMessage::decode(&frame, Some(GameType::Blokus2021));
            assert!(server.is_ok() && client.is_ok(), "{name}");
        }
    }
}
