//! Every file of the official examples decodes to the value it stands
//! for; server→client packets encode back byte for byte.

use spielleiter_protocol::{
    ClientMessage, ClientStreamEncoder, Decimal, GameMove, GameResult, GameState, GameType,
    PlayerScore, Prepare, RoomData, ScoreCause, ServerMessage, ServerStreamEncoder, SlotDescriptor,
    Winner,
    dialect::{MoveRequestClass, ResultLayout},
    games::blokus2021::{WireMove, score_definition},
};
use spielleiter_rules::blokus::{Color, PieceKind, Rotation, Setup};

use crate::util::{
    ROOM, frames, illegal_mono, initial_state, midgame_state, packet, vector, yellow_pento_l,
};

fn decode_server(name: &str) -> ServerMessage {
    ServerMessage::decode(packet(name).as_bytes(), GameType::Blokus2021)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Decodes the vector, compares with `expected`, and checks that encoding
/// `expected` gives the file's bytes.
fn check_server_vector(name: &str, expected: ServerMessage) {
    assert_eq!(decode_server(name), expected, "{name} decodes");
    assert_eq!(expected.to_xml(), packet(name), "{name} encodes");
}

fn memento(state: spielleiter_protocol::games::blokus2021::State) -> ServerMessage {
    ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Memento(GameState::from(state)),
    }
}

#[test]
fn initial_memento() {
    check_server_vector("memento-initial.xml", memento(initial_state()));
}

#[test]
fn midgame_memento() {
    check_server_vector("memento-midgame.xml", memento(midgame_state()));
}

fn result(scores: [(ScoreCause, &str, i64, i64); 2]) -> ServerMessage {
    ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Result(GameResult {
            layout: ResultLayout::Season2021,
            definition: score_definition(),
            scores: scores
                .into_iter()
                .map(|(cause, reason, win, points)| PlayerScore {
                    display_name: String::new(),
                    cause,
                    reason: reason.into(),
                    parts: vec![Decimal::integer(win), Decimal::integer(points)],
                })
                .collect(),
            winners: vec![Winner {
                display_name: "alice".into(),
                seat: 0,
            }],
            conclusion: None,
        }),
    }
}

#[test]
fn regular_result() {
    check_server_vector(
        "result.xml",
        result([
            (ScoreCause::Regular, "", 2, 87),
            (ScoreCause::Regular, "", 0, 65),
        ]),
    );
}

const NO_SHARED_CORNER: &str =
    "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren";

#[test]
fn rule_violation_result() {
    let reason = format!("{NO_SHARED_CORNER} bei Zug 'Setze MONO(Farbe Gelb)[16,3]'");
    check_server_vector(
        "result-rule-violation.xml",
        result([
            (ScoreCause::Regular, "", 2, 14),
            (ScoreCause::RuleViolation, &reason, 0, 10),
        ]),
    );
}

#[test]
fn room_error() {
    check_server_vector(
        "error-room.xml",
        ServerMessage::Room {
            room_id: ROOM.into(),
            data: RoomData::Error {
                message: format!(
                    "Ungueltiger Zug von 'bob'.\nInvalidMoveException(mistake={NO_SHARED_CORNER}, move=Setze MONO(Farbe Gelb)[16,3])"
                ),
                original_message: Some(GameMove::Blokus2021(illegal_mono())),
            },
        },
    );
}

#[test]
fn error_packet() {
    check_server_vector(
        "errorpacket.xml",
        ServerMessage::ErrorPacket {
            message: format!(
                "sc.api.plugins.exceptions.GameLogicException: InvalidMoveException(mistake={NO_SHARED_CORNER}, move=Setze MONO(Farbe Gelb)[16,3])"
            ),
            original_request: Some(Box::new(ClientMessage::Move {
                room_id: ROOM.into(),
                mv: GameMove::Blokus2021(illegal_mono()),
            })),
        },
    );
}

fn check_client_vector(name: &str, expected: ClientMessage) {
    let decoded = ClientMessage::decode(packet(name).as_bytes(), Some(GameType::Blokus2021))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(decoded, expected, "{name} decodes");
    assert_eq!(expected.to_xml(), packet(name), "{name} encodes");
}

#[test]
fn set_move() {
    check_client_vector(
        "setmove.xml",
        ClientMessage::Move {
            room_id: ROOM.into(),
            mv: GameMove::Blokus2021(yellow_pento_l()),
        },
    );
}

#[test]
fn skip_move() {
    check_client_vector(
        "skipmove.xml",
        ClientMessage::Move {
            room_id: ROOM.into(),
            mv: GameMove::Blokus2021(WireMove::Skip(Some(Color::Yellow))),
        },
    );
}

const JOIN_ROOM: &str = "f0e1d2c3-b4a5-4697-8877-665544332211";

/// What the first player of a `join`-created room receives.
pub fn join_sequence_server_messages() -> Vec<ServerMessage> {
    let mut initial = initial_state();
    initial.display_names = [String::new(), String::new()];
    let mut after = initial.clone();
    crate::util::place(
        &mut after.setup,
        crate::util::placement(Color::Blue, PieceKind::PentoV, Rotation::None, 0, 0),
    );
    let room = |data| ServerMessage::Room {
        room_id: JOIN_ROOM.into(),
        data,
    };
    vec![
        ServerMessage::Joined {
            room_id: JOIN_ROOM.into(),
        },
        room(RoomData::Welcome { seat: 0 }),
        room(RoomData::Memento(initial.into())),
        room(RoomData::MoveRequest(MoveRequestClass::Qualified)),
        room(RoomData::Memento(after.into())),
    ]
}

/// What that player sends.
pub fn join_sequence_client_messages() -> Vec<ClientMessage> {
    vec![
        ClientMessage::Join {
            game_type: Some("swc_2021_blokus".into()),
        },
        ClientMessage::Move {
            room_id: JOIN_ROOM.into(),
            mv: GameMove::Blokus2021(WireMove::Set(crate::util::placement(
                Color::Blue,
                PieceKind::PentoV,
                Rotation::None,
                0,
                0,
            ))),
        },
    ]
}

fn server_stream(messages: &[ServerMessage]) -> String {
    let mut encoder = ServerStreamEncoder::new();
    let mut out = Vec::new();
    for m in messages {
        encoder.write(m, &mut out);
    }
    String::from_utf8(out).expect("utf-8")
}

fn client_stream(messages: &[ClientMessage]) -> String {
    let mut encoder = ClientStreamEncoder::new();
    let mut out = Vec::new();
    for m in messages {
        encoder.write(m, &mut out);
    }
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn join_sequence_server_to_client() {
    let text = vector("join-sequence.server-to-client.xml");
    let decoded: Vec<ServerMessage> = frames(text.as_bytes())
        .iter()
        .map(|f| ServerMessage::decode(f, GameType::Blokus2021).expect("decodes"))
        .collect();
    let expected = join_sequence_server_messages();
    assert_eq!(decoded, expected);
    // The transcript is byte-exact: no trailing newline, the stream stays open.
    assert_eq!(server_stream(&expected), text);
}

#[test]
fn join_sequence_client_to_server() {
    let text = vector("join-sequence.client-to-server.xml");
    let decoded: Vec<ClientMessage> = frames(text.as_bytes())
        .iter()
        .map(|f| ClientMessage::decode(f, Some(GameType::Blokus2021)).expect("decodes"))
        .collect();
    let expected = join_sequence_client_messages();
    assert_eq!(decoded, expected);
    assert_eq!(client_stream(&expected) + "\n", text);
}

const ADMIN_ROOM: &str = "0d9c8b7a-6f5e-4d3c-2b1a-099887766554";

#[test]
fn admin_prepare_client_to_server() {
    let text = vector("admin-prepare.client-to-server.xml");
    let decoded: Vec<ClientMessage> = frames(text.as_bytes())
        .iter()
        .map(|f| ClientMessage::decode(f, Some(GameType::Blokus2021)).expect("decodes"))
        .collect();
    let slot = |name: &str| SlotDescriptor {
        display_name: Some(name.into()),
        can_timeout: true,
        reserved: true,
    };
    let expected = vec![
        ClientMessage::Authenticate {
            password: "examplepassword".into(),
        },
        ClientMessage::Prepare(Prepare {
            seed: None,
            wire_log: false,
            game_type: Some("swc_2021_blokus".into()),
            pause: false,
            slots: vec![slot("alice"), slot("bob")],
        }),
        ClientMessage::Observe {
            room_id: ADMIN_ROOM.into(),
        },
    ];
    assert_eq!(decoded, expected);
    assert_eq!(client_stream(&expected) + "\n", text);
}

#[test]
fn admin_prepare_server_to_client() {
    let text = vector("admin-prepare.server-to-client.xml");
    let decoded: Vec<ServerMessage> = frames(text.as_bytes())
        .iter()
        .map(|f| ServerMessage::decode(f, GameType::Blokus2021).expect("decodes"))
        .collect();
    let expected = vec![
        ServerMessage::Prepared {
            room_id: ADMIN_ROOM.into(),
            reservations: vec![
                "5a0f6c1e-2d3b-4e8f-9a7b-1c2d3e4f5a6b".into(),
                "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b".into(),
            ],
        },
        ServerMessage::Observed {
            room_id: ADMIN_ROOM.into(),
        },
    ];
    assert_eq!(decoded, expected);
    assert_eq!(server_stream(&expected), text);
}

#[test]
fn the_states_match_the_rules_view_of_the_position() {
    // Cross-check the hand-built states against the spec's numbers: the
    // mid-game position has four PENTO_V and one TETRO_O on the board and
    // YELLOW on turn.
    let state = midgame_state();
    assert_eq!(state.setup.occupied_fields().count(), 4 * 5 + 4);
    assert_eq!(state.setup.current_color(), Color::Yellow);
    assert_eq!(state.setup.round(), 2);
    assert_ne!(state.setup, Setup::new(PieceKind::PentoV));
}

#[test]
fn the_vector_states_are_positions_of_real_games() {
    use spielleiter_rules::blokus::{Blokus, Move};

    // Play the README's moves with the rules and compare with what the
    // memento vector decodes to: the state XML carries exactly the rules'
    // position.
    let ServerMessage::Room {
        data: RoomData::Memento(GameState::Blokus2021(decoded)),
        ..
    } = decode_server("memento-midgame.xml")
    else {
        panic!("not a memento");
    };
    let mut game = Blokus::from_setup(&Setup::new(PieceKind::PentoV)).expect("initial setup");
    for (color, kind, rotation, x, y) in [
        (Color::Blue, PieceKind::PentoV, Rotation::None, 0, 0),
        (Color::Yellow, PieceKind::PentoV, Rotation::Mirror, 17, 0),
        (Color::Red, PieceKind::PentoV, Rotation::Left, 17, 17),
        (Color::Green, PieceKind::PentoV, Rotation::None, 0, 17),
        (Color::Blue, PieceKind::TetroO, Rotation::None, 3, 3),
    ] {
        let mv = Move::Set(crate::util::placement(color, kind, rotation, x, y));
        game.play(&mv).expect("legal");
    }
    assert_eq!(game.to_setup(), decoded.setup);
    // And the illegal move of the error vectors is illegal for the rules.
    let WireMove::Set(mono) = illegal_mono() else {
        unreachable!()
    };
    assert_eq!(
        game.play(&Move::Set(mono)),
        Err(spielleiter_rules::blokus::Mistake::NoSharedCorner)
    );
}
