//! Every kind of bad input: the offender gets a clear error or loses by the
//! rules, and a game running at the same time is untouched.

use std::time::Duration;

use spielleiter_e2e::{
    BackgroundGame, Received, TestClient, TestServer, assert_lost, blokus_of, first_legal_move,
    joined_pair, result_of, slot,
};
use spielleiter_protocol::{
    ClientMessage, Prepare, ServerMessage,
    dialect::{CloseElement, MoveRequestClass},
    games::blokus2021::WireMove,
    result::{GameResult, ScoreCause},
    room::RoomData,
};
use spielleiter_rules::blokus::{Color, Placement, Rotation};

/// A server with small limits, so that limits are quick to reach.
async fn server() -> TestServer {
    TestServer::start(|config| {
        config.max_message_bytes = 4096;
        config.idle_limit = Duration::from_secs(1);
    })
    .await
}

/// Reads past the start of a game: welcome and initial state for both, the
/// move request for player one. Returns the initial position.
async fn started(one: &mut TestClient, two: &mut TestClient) -> spielleiter_rules::blokus::Blokus {
    assert!(matches!(
        one.room_data().await,
        RoomData::Welcome { seat: 0 }
    ));
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert!(matches!(
        two.room_data().await,
        RoomData::Welcome { seat: 1 }
    ));
    assert!(matches!(two.room_data().await, RoomData::Memento(_)));
    blokus_of(&state)
}

/// The error packet's message; fails on anything else.
fn error_text(message: ServerMessage) -> String {
    match message {
        ServerMessage::ErrorPacket { message, .. } => message,
        other => panic!("expected an errorpacket, got {other:?}"),
    }
}

/// The rest of a winner's stream after the opponent lost: the result (which
/// is returned), `left`, `close`, end.
async fn winner_sees_the_end(client: &mut TestClient) -> GameResult {
    let rest = client.until_end().await;
    let result = result_of(&rest).expect("a result").clone();
    assert!(
        matches!(rest[rest.len() - 2], ServerMessage::Left { .. }),
        "{rest:?}"
    );
    assert_eq!(
        rest[rest.len() - 1],
        ServerMessage::Close(CloseElement::Short)
    );
    result
}

async fn with_background<F: Future<Output = ()>>(server: &TestServer, scenario: F) {
    let background = BackgroundGame::start(server, Duration::from_millis(5)).await;
    scenario.await;
    background.finish().await;
}

/// A player of a running game sends `packet` (built from the room id):
/// it gets an error packet whose message contains `expected`, its
/// connection is closed, and it loses with `LEFT`. `seat` says which player
/// (0 or 1) offends.
async fn fatal_input_loses_the_game(
    seat: usize,
    packet: impl FnOnce(&str) -> String,
    expected: &str,
) {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, room) = joined_pair(&server).await;
        started(&mut one, &mut two).await;
        let (offender, winner) = if seat == 0 {
            (&mut one, &mut two)
        } else {
            (&mut two, &mut one)
        };
        offender.send_raw(packet(&room).as_bytes()).await;
        let text = error_text(offender.message().await);
        assert!(text.contains(expected), "{text}");
        offender.expect_closed().await;
        let result = winner_sees_the_end(winner).await;
        assert_lost(&result, seat, ScoreCause::Left);
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn malformed_xml_costs_the_connection_and_the_game() {
    // Mismatched end tag inside an otherwise complete packet.
    fatal_input_loses_the_game(
        1,
        |room| format!("<room roomId=\"{room}\"><data class=\"x\"></rooom></room>"),
        "MalformedXml",
    )
    .await;
}

#[tokio::test]
async fn a_repeated_attribute_is_malformed_not_first_wins() {
    // In a player's move: the piece names two colours.
    fatal_input_loses_the_game(
        0,
        |room| {
            format!(
                "<room roomId=\"{room}\"><data class=\"sc.plugin2021.SetMove\"><piece color=\"BLUE\" color=\"RED\" kind=\"MONO\" rotation=\"NONE\" isFlipped=\"false\"><position x=\"0\" y=\"0\"/></piece></data></room>"
            )
        },
        "MalformedXmlException: malformed XML: the attribute `color` is repeated",
    )
    .await;
    // In a lobby request, where the first value alone would be valid.
    let server = server().await;
    with_background(&server, async {
        let mut client = server.connect().await;
        client
            .send_raw(b"<protocol><join gameType=\"swc_2021_blokus\" gameType=\"chess\"/>")
            .await;
        let text = error_text(client.message().await);
        assert!(text.contains("`gameType` is repeated"), "{text}");
        client.expect_closed().await;
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn the_long_close_packet_closes_the_connection_like_close() {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, _room) = joined_pair(&server).await;
        started(&mut one, &mut two).await;
        two.send_raw(b"<sc.protocol.CloseConnection/>").await;
        // No error, no answer: the server ends its document and closes.
        let rest = two.until_end().await;
        assert!(
            !rest
                .iter()
                .any(|m| matches!(m, ServerMessage::ErrorPacket { .. })),
            "{rest:?}"
        );
        assert_eq!(two.next().await, Received::Eof);
        let result = winner_sees_the_end(&mut one).await;
        assert_lost(&result, 1, ScoreCause::Left);
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn garbage_bytes_are_answered_and_the_connection_closed() {
    let server = server().await;
    with_background(&server, async {
        let mut client = server.connect().await;
        client.send_raw(b"\x00\x01 hello? <<< >>>").await;
        let text = error_text(client.message().await);
        assert!(text.contains("MalformedXml"), "{text}");
        client.expect_closed().await;
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn an_oversized_message_costs_the_connection_and_the_game() {
    fatal_input_loses_the_game(
        1,
        |_| format!("<join gameType=\"{}\"/>", "a".repeat(10_000)),
        "larger than 4096 bytes",
    )
    .await;
}

#[tokio::test]
async fn a_message_that_never_ends_is_cut_off_by_the_idle_limit() {
    let server = server().await;
    with_background(&server, async {
        let mut client = server.connect().await;
        client
            .send_raw(b"<protocol><join gameType=\"swc_2021_blokus\"")
            .await;
        // Keep trickling bytes: the connection is busy, but never finishes a
        // message, so it never gets anywhere.
        let mut closed = false;
        for _ in 0..30 {
            client.send_raw(b" ").await;
            if let Some(received) = client.next_within(Duration::from_millis(100)).await {
                let Received::Message(message) = received else {
                    panic!("expected the idle error first, got {received:?}");
                };
                let text = error_text(message);
                assert!(text.contains("No request within 1 seconds"), "{text}");
                closed = true;
                break;
            }
        }
        assert!(closed, "the connection was not closed");
        client.expect_closed().await;
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_silent_connection_is_closed_after_the_idle_limit() {
    let server = server().await;
    with_background(&server, async {
        let mut client = server.connect().await;
        let started = tokio::time::Instant::now();
        let text = error_text(client.message().await);
        assert!(text.contains("No request within 1 seconds"), "{text}");
        client.expect_closed().await;
        assert!(started.elapsed() >= Duration::from_millis(900));
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn lobby_mistakes_are_answered_and_the_connection_stays_usable() {
    let server = server().await;
    with_background(&server, async {
        let mut client = server.connect().await;
        client.send_raw(b"<protocol><yarr/>").await;
        let text = error_text(client.message().await);
        assert!(text.contains("Unknown message <yarr>"), "{text}");

        client
            .send_raw(b"<join gameType=\"chess\"/>")
            .await;
        let text = error_text(client.message().await);
        assert!(
            text.contains("Unknown GameType UUID: chess (available: "),
            "{text}"
        );
        for hosted in ["swc_2021_blokus", "swc_2022_ostseeschach", "swc_2027_blokus"] {
            assert!(text.contains(hosted), "{text}");
        }

        client.send_raw(b"<joinRoom roomId=\"nope\"/>").await;
        assert_eq!(
            error_text(client.message().await),
            "sc.api.plugins.exceptions.GameRoomException: Couldn't find a room with id nope"
        );

        client.send_raw(b"<joinPrepared reservationCode=\"nope\"/>").await;
        assert_eq!(
            error_text(client.message().await),
            "sc.server.gaming.UnknownReservationException: Couldn't find a reservation for the provided token."
        );

        // Still usable: a valid join works.
        client.send_raw(b"<join gameType=\"swc_2021_blokus\"/>").await;
        assert!(matches!(client.message().await, ServerMessage::Joined { .. }));
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_full_room_is_refused() {
    let server = server().await;
    with_background(&server, async {
        let (_one, _two, room) = joined_pair(&server).await;
        let mut third = server.connect().await;
        third
            .send(&ClientMessage::JoinRoom {
                room_id: room.clone(),
            })
            .await;
        assert_eq!(
            error_text(third.message().await),
            format!("sc.api.plugins.exceptions.GameRoomException: Room {room} is already full!")
        );
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_move_out_of_turn_is_a_rule_violation() {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, room) = joined_pair(&server).await;
        let game = started(&mut one, &mut two).await;
        // Team TWO moves while BLUE (team ONE) is on turn.
        two.send_move(&room, first_legal_move(&game)).await;
        let RoomData::Error { message, .. } = two.room_data().await else {
            panic!("expected the room error first");
        };
        assert!(message.starts_with("It's not your turn yet"), "{message}");
        let rest = two.until_end().await;
        let result = result_of(&rest).expect("result").clone();
        assert_lost(&result, 1, ScoreCause::RuleViolation);
        assert!(
            result.scores[1].reason.contains("nicht am Zug"),
            "{result:?}"
        );
        assert!(
            matches!(rest[rest.len() - 2], ServerMessage::ErrorPacket { .. }),
            "{rest:?}"
        );
        assert_eq!(winner_sees_the_end(&mut one).await, result);
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_move_for_another_room_is_refused_without_ending_the_game() {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, room) = joined_pair(&server).await;
        let game = started(&mut one, &mut two).await;
        let mv = first_legal_move(&game);
        one.send_move("no-such-room", mv).await;
        assert_eq!(
            error_text(one.message().await),
            "sc.api.plugins.exceptions.GameRoomException: Couldn't find a room with id no-such-room"
        );
        // A room that exists but is not this player's.
        let (_three, _four, other_room) = joined_pair(&server).await;
        one.send_move(&other_room, mv).await;
        assert_eq!(
            error_text(one.message().await),
            format!("sc.api.plugins.exceptions.GameRoomException: Client is not a member of game {other_room}")
        );
        // The game goes on: the right move is applied.
        one.send_move(&room, mv).await;
        let RoomData::Memento(state) = two.room_data().await else {
            panic!("expected the new state");
        };
        assert_eq!(state.turn(), 1);
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn an_illegal_move_loses_with_the_mistake_named() {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, room) = joined_pair(&server).await;
        let game = started(&mut one, &mut two).await;
        let mv = WireMove::Set(Placement {
            color: Color::Blue,
            kind: game.start_piece(),
            rotation: Rotation::None,
            flipped: false,
            x: 8,
            y: 8,
        });
        one.send_move(&room, mv).await;
        let RoomData::Error {
            message,
            original_message,
        } = one.room_data().await
        else {
            panic!("expected the room error first");
        };
        assert!(
            message.contains("Der erste Zug muss auf eine freie Ecke gesetzt werden"),
            "{message}"
        );
        assert_eq!(
            original_message,
            Some(spielleiter_protocol::GameMove::Blokus2021(mv))
        );
        let rest = one.until_end().await;
        let result = result_of(&rest).expect("result").clone();
        assert_lost(&result, 0, ScoreCause::RuleViolation);
        assert!(
            result.scores[0].reason.starts_with(
                "Der erste Zug muss auf eine freie Ecke gesetzt werden bei Zug 'Setze "
            ),
            "{result:?}"
        );
        let ServerMessage::ErrorPacket { message, .. } = &rest[rest.len() - 2] else {
            panic!("expected the errorpacket before close: {rest:?}");
        };
        assert!(
            message
                .starts_with("sc.api.plugins.exceptions.GameLogicException: InvalidMoveException(")
        );
        assert_eq!(winner_sees_the_end(&mut two).await, result);
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_malformed_move_costs_the_game() {
    fatal_input_loses_the_game(
        0,
        |room| {
            format!(
                "<room roomId=\"{room}\"><data class=\"sc.plugin2021.SetMove\"><piece color=\"BLUE\" kind=\"NO_SUCH_PIECE\" rotation=\"NONE\" isFlipped=\"false\"><position x=\"0\" y=\"0\"/></piece></data></room>"
            )
        },
        "MalformedMessage",
    )
    .await;
}

#[tokio::test]
async fn a_disconnect_mid_game_ends_it_at_once() {
    let server = server().await;
    with_background(&server, async {
        let (mut one, mut two, room) = joined_pair(&server).await;
        let game = started(&mut one, &mut two).await;
        one.send_move(&room, first_legal_move(&game)).await;
        assert!(matches!(two.room_data().await, RoomData::Memento(_)));
        drop(one);
        let result = winner_sees_the_end(&mut two).await;
        assert_lost(&result, 0, ScoreCause::Left);
        assert_eq!(
            result.scores[0].reason,
            "Der Spieler hat das Spiel verlassen"
        );
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn administration_needs_the_passphrase() {
    let server = server().await;
    with_background(&server, async {
        let mut stranger = server.connect().await;
        stranger
            .send(&ClientMessage::Prepare(Prepare {
                seed: None,
                wire_log: false,
                game_type: Some("swc_2021_blokus".to_owned()),
                pause: false,
                slots: vec![slot("a"), slot("b")],
            }))
            .await;
        let text = error_text(stranger.message().await);
        assert!(
            text.starts_with("sc.server.network.UnauthenticatedException: Request PrepareGameRequest("),
            "{text}"
        );
        stranger.send(&ClientMessage::Observe { room_id: "x".to_owned() }).await;
        let text = error_text(stranger.message().await);
        assert!(text.contains("requires authentication"), "{text}");

        stranger
            .send(&ClientMessage::Authenticate {
                password: "guess".to_owned(),
            })
            .await;
        assert_eq!(
            error_text(stranger.message().await),
            "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator"
        );
        stranger.expect_closed().await;
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn without_a_passphrase_administration_is_disabled() {
    let server = TestServer::start(|config| config.admin_passphrase = None).await;
    let mut client = server.connect().await;
    client
        .send(&ClientMessage::Authenticate {
            password: String::new(),
        })
        .await;
    let text = error_text(client.message().await);
    assert!(text.contains("administration is disabled"), "{text}");
    server.shutdown().await;
}

#[tokio::test]
async fn connections_beyond_the_limit_are_refused_with_a_reason() {
    let server = TestServer::start(|config| config.max_connections = 6).await;
    with_background(&server, async {
        let mut held = Vec::new();
        let refused = loop {
            assert!(held.len() < 10, "the limit was never reached");
            let mut client = server.connect().await;
            match client.next_within(Duration::from_millis(200)).await {
                None => held.push(client),
                Some(Received::Message(message)) => break (client, error_text(message)),
                Some(other) => panic!("expected an error, got {other:?}"),
            }
        };
        let (mut client, text) = refused;
        assert!(
            text.contains("The server is full (6 connections)"),
            "{text}"
        );
        client.expect_closed().await;
    })
    .await;
    server.shutdown().await;
}

/// Issue 24: bytes that cannot become well-formed XML are refused when they
/// arrive, not when the clock runs out. For every game, the player on turn
/// sends a move of the game's own move class whose piece has an unquoted
/// attribute value (`<piece color=BLUE>`), then closes the room element so
/// that a lenient framing would wait for more: the player gets the
/// malformed-XML error and its connection is closed at once, far below the
/// soft limit (2 s), and every other player gets a result in which it lost
/// with `LEFT`.
#[tokio::test]
async fn an_unquoted_attribute_value_is_refused_at_once_in_every_game() {
    use spielleiter_e2e::{first_move, game_of, until_result};
    use spielleiter_rules::GameType;
    use tokio::time::Instant;

    let server = server().await;
    for &game in GameType::ALL {
        let mut clients = Vec::new();
        let mut room = String::new();
        for _ in 0..game.player_count() {
            let mut client = server.connect().await;
            room = client.join_game(game).await;
            clients.push(client);
        }
        // Seat 0 moves first in every game.
        let mut position = None;
        loop {
            match clients[0].room_data().await {
                RoomData::Memento(state) => position = Some(game_of(&state)),
                RoomData::MoveRequest(_) => break,
                _ => {}
            }
        }
        let position = position.expect("a state before the request");
        // The game's own move, cut after its `<data class="…">` start tag.
        let mut encoded = Vec::new();
        ClientMessage::Move {
            room_id: room.clone(),
            mv: first_move(&position),
        }
        .encode(&mut encoded, 0);
        let text = String::from_utf8(encoded).unwrap();
        let data = text.find("<data").expect("a data element");
        let data_end = data + text[data..].find('>').expect("the data start tag ends");
        let start_tag = text[..data_end].trim_end_matches('/');
        let packet = format!("{start_tag}><piece color=BLUE></room>");
        let sent = Instant::now();
        clients[0].send_raw(packet.as_bytes()).await;
        let text = error_text(clients[0].message().await);
        let answered = sent.elapsed();
        assert!(
            text.contains("MalformedXmlException") && text.contains("not quoted"),
            "{game}: {text}"
        );
        clients[0].expect_closed().await;
        let closed = sent.elapsed();
        eprintln!("{game}: error after {answered:?}, closed after {closed:?}");
        assert!(
            closed < Duration::from_millis(500),
            "{game}: {closed:?} is not at once"
        );
        for (seat, other) in clients.iter_mut().enumerate().skip(1) {
            let result = until_result(other).await;
            assert_eq!(result.scores[0].cause, ScoreCause::Left, "{game}");
            assert_ne!(result.scores[seat].cause, ScoreCause::Left, "{game}");
        }
    }
    server.shutdown().await;
}
