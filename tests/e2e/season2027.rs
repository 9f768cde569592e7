//! Blokus 2027 (`swc_2027_blokus`) through the whole server, in the byte
//! layout of the official 2027 server: packets are compared with the
//! season's examples (`crates/protocol/tests/vectors/season-2027/`, the game
//! of their README: alice and bob, start piece `PENTO_V`, which the test
//! server's seed draws for its first 2027 room), and every byte a client
//! gets with the encoder's output. A whole game, every irregular end in the
//! 2027 result layout, and a 2021 and a 2027 game at once.

use std::time::Duration;

use spielleiter_e2e::{
    Received, TestClient, TestServer, joined_pair, play_out, result_of, wait_for_replay_of_game,
};
use spielleiter_protocol::{
    ClientMessage, GameMove, GameState, GameType, ServerMessage,
    dialect::MoveRequestClass,
    games::blokus::WireMove,
    result::{GameResult, ScoreCause},
    room::RoomData,
};
use spielleiter_rules::{
    AnyGame,
    blokus::{Blokus2027, Color, MoveList, PieceKind, Placement, Rotation, Team},
};

const GAME: GameType = GameType::Blokus2027;

/// The room id of the examples.
const EXAMPLE_ROOM: &str = "7d0c9a55-2f1e-4b3a-9c8d-1e2f3a4b5c6d";

/// The example `name` (one packet, at column 0) with the examples' room id
/// replaced by `room`.
fn example(name: &str, room: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/protocol/tests/vectors/season-2027")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    text.strip_suffix('\n')
        .unwrap_or(&text)
        .replace(EXAMPLE_ROOM, room)
}

/// Asserts that `message` is written exactly as the example `name`.
fn assert_example(message: &ServerMessage, name: &str, room: &str) {
    assert_eq!(message.to_xml(), example(name, room), "{name}");
}

/// A result in the examples' layout (the file of alice's regular win) with
/// these parts of alice and bob and this `<winner …/>` element.
fn result_packet(room: &str, alice: [i64; 2], bob: [i64; 2], winner: &str) -> String {
    let mut parts = [alice[0], alice[1], bob[0], bob[1]].into_iter();
    example("10-result-regular-win.xml", room)
        .lines()
        .map(|line| {
            let indent = &line[..line.len() - line.trim_start().len()];
            if line.trim_start().starts_with("<part>") {
                format!("{indent}<part>{}</part>", parts.next().unwrap())
            } else if line.trim_start().starts_with("<winner ") {
                format!("{indent}{winner}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `<winner team="ONE" regular="false" reason="…"/>`: alice won because bob
/// ended the game with `reason`.
fn alice_won_irregularly(reason: &str) -> String {
    format!("<winner team=\"ONE\" regular=\"false\" reason=\"{reason}\"/>")
}

#[test]
fn the_result_template_gives_the_examples() {
    let room = EXAMPLE_ROOM;
    assert_eq!(
        result_packet(
            room,
            [2, 131],
            [0, 118],
            "<winner team=\"ONE\" regular=\"true\" reason=\"alice hat am meisten Punkte erzielt.\"/>"
        ),
        example("10-result-regular-win.xml", room)
    );
    assert_eq!(
        result_packet(
            room,
            [1, 124],
            [1, 124],
            "<winner regular=\"true\" reason=\"Beide Spieler sind gleichauf\"/>"
        ),
        example("12-result-draw.xml", room)
    );
    assert_eq!(
        result_packet(
            room,
            [2, 5],
            [0, 0],
            &alice_won_irregularly(
                "bob hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden gebraucht."
            )
        ),
        example("23-result-soft-timeout.xml", room)
    );
}

/// The examples' opening: a `PENTO_V` of each colour, GREEN's in the
/// middle of the bottom edge (legal in 2027 only).
fn opening() -> [WireMove; 4] {
    let v = |color, rotation, x, y| {
        WireMove::Set(Placement {
            color,
            kind: PieceKind::PentoV,
            rotation,
            flipped: false,
            x,
            y,
        })
    };
    [
        v(Color::Blue, Rotation::None, 0, 0),
        v(Color::Yellow, Rotation::Right, 17, 0),
        v(Color::Red, Rotation::Mirror, 17, 17),
        v(Color::Green, Rotation::None, 8, 17),
    ]
}

/// The position of a 2027 memento.
fn position(state: &GameState) -> Blokus2027 {
    match state.to_game().unwrap() {
        AnyGame::Blokus2027(game) => game,
        other => panic!("expected a Blokus 2027 state, got {other:?}"),
    }
}

/// The examples' room: prepared for alice and bob, both joined by their
/// reservation. Returns the administrator (observing the room), alice, bob
/// and the room id.
async fn example_room(server: &TestServer) -> (TestClient, TestClient, TestClient, String) {
    let (mut admin, room, codes) = server.prepare(GAME, &["alice", "bob"]).await;
    admin.reads(GAME);
    admin.observe(&room).await;
    let mut alice = server.connect().await;
    assert_eq!(alice.join_prepared_game(&codes[0], GAME).await, room);
    let mut bob = server.connect().await;
    assert_eq!(bob.join_prepared_game(&codes[1], GAME).await, room);
    (admin, alice, bob, room)
}

/// Reads up to and including the next move request; returns the last
/// state before it.
async fn until_request(client: &mut TestClient) -> GameState {
    let mut state = None;
    loop {
        match client.room_data().await {
            RoomData::Memento(s) => state = Some(s),
            RoomData::MoveRequest(class) => {
                assert_eq!(class, MoveRequestClass::Alias);
                return state.expect("a state before the request");
            }
            _ => {}
        }
    }
}

/// Plays the first legal placement whenever asked (after the examples'
/// opening if `opening` is set), until the server ends the stream.
async fn play_2027(mut client: TestClient, room: String, with_opening: bool) -> TestClient {
    let opening = if with_opening { &opening()[..] } else { &[] };
    let mut state = None;
    loop {
        match client.message().await {
            ServerMessage::Room {
                data: RoomData::Memento(s),
                ..
            } => state = Some(position(&s)),
            ServerMessage::Room {
                data: RoomData::MoveRequest(_),
                ..
            } => {
                let game = state.as_ref().expect("a state before the request");
                let mv = match opening.get(game.turn() as usize) {
                    Some(mv) => *mv,
                    None => {
                        let mut moves = MoveList::new();
                        game.legal_moves(&mut moves);
                        WireMove::Set(moves.get(0).expect("the colour on turn can place"))
                    }
                };
                client.send_game_move(&room, GameMove::Blokus2027(mv)).await;
            }
            ServerMessage::Close(_) => {
                assert_eq!(client.next().await, Received::End);
                return client;
            }
            _ => {}
        }
    }
}

fn mementos(client: &TestClient) -> Vec<&GameState> {
    client
        .seen
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Room {
                data: RoomData::Memento(s),
                ..
            } => Some(s),
            _ => None,
        })
        .collect()
}

fn result_message(client: &TestClient) -> &ServerMessage {
    client
        .seen
        .iter()
        .find(|m| {
            matches!(
                m,
                ServerMessage::Room {
                    data: RoomData::Result(_),
                    ..
                }
            )
        })
        .expect("a result")
}

/// Reads to the end of the stream and checks the end of a 2027 game: the
/// result as `expected` (the packet's text), `left`, `<close/>`, then the
/// end of the document; every byte as the encoder writes it.
async fn assert_ends_with(client: &mut TestClient, room: &str, expected: &str) {
    let rest = client.until_end().await;
    let position = rest
        .iter()
        .position(|m| {
            matches!(
                m,
                ServerMessage::Room {
                    data: RoomData::Result(_),
                    ..
                }
            )
        })
        .expect("a result");
    let tail = &rest[position..];
    assert_eq!(tail.len(), 3, "result, left, close: {tail:?}");
    assert_eq!(tail[0].to_xml(), expected);
    assert_example(&tail[1], "11-left.xml", room);
    assert_eq!(tail[2].to_xml(), "<close/>");
    client.assert_bytes_are_the_encoders();
}

#[tokio::test]
async fn a_whole_game_in_the_layout_of_the_official_2027_server() {
    let server = TestServer::start(|_| {}).await;
    let (admin, alice, bob, room) = example_room(&server).await;
    drop(admin);
    let first_bytes = format!("<protocol>\n  <joined roomId=\"{room}\"/>");
    assert!(alice.raw.starts_with(first_bytes.as_bytes()));
    assert!(bob.raw.starts_with(first_bytes.as_bytes()));
    let (alice, bob) = tokio::join!(
        play_2027(alice, room.clone(), true),
        play_2027(bob, room.clone(), true)
    );
    for client in [&alice, &bob] {
        client.assert_bytes_are_the_encoders();
        assert_example(&client.seen[0], "01-server-joined.xml", &room);
    }

    // The start as in the examples: welcome, the initial state, and team
    // ONE is asked.
    assert_example(&alice.seen[1], "02-welcome-ONE.xml", &room);
    assert_eq!(
        bob.seen[1].to_xml(),
        example("02-welcome-ONE.xml", &room).replace("\"ONE\"", "\"TWO\"")
    );
    assert_example(&alice.seen[2], "03-memento-turn0-initial.xml", &room);
    assert_example(&alice.seen[3], "04-moveRequest.xml", &room);
    // The opening's states, byte for byte.
    let states = mementos(&alice);
    assert_eq!(states, mementos(&bob));
    let at = |turn| {
        let state = states.iter().find(|s| s.turn() == turn).expect("a state");
        ServerMessage::Room {
            room_id: room.clone(),
            data: RoomData::Memento((*state).clone()),
        }
    };
    assert_example(&at(1), "06-memento-turn1.xml", &room);
    assert_example(&at(4), "07-memento-turn4-round2.xml", &room);

    // The end: the result the rules give for the final position, in the
    // examples' layout, then `left`.
    let last = position(states.last().expect("states"));
    assert!(last.is_over());
    assert!(last.turn() <= 96, "the game ends by turn 96");
    let [one, two] = [Team::One, Team::Two].map(|team| i64::from(last.team_points(team)));
    let expected = match one.cmp(&two) {
        std::cmp::Ordering::Greater => result_packet(
            &room,
            [2, one],
            [0, two],
            "<winner team=\"ONE\" regular=\"true\" reason=\"alice hat am meisten Punkte erzielt.\"/>",
        ),
        std::cmp::Ordering::Less => result_packet(
            &room,
            [0, one],
            [2, two],
            "<winner team=\"TWO\" regular=\"true\" reason=\"bob hat am meisten Punkte erzielt.\"/>",
        ),
        std::cmp::Ordering::Equal => result_packet(
            &room,
            [1, one],
            [1, two],
            "<winner regular=\"true\" reason=\"Beide Spieler sind gleichauf\"/>",
        ),
    };
    for client in [&alice, &bob] {
        assert_eq!(result_message(client).to_xml(), expected);
        let n = client.seen.len();
        assert_example(&client.seen[n - 2], "11-left.xml", &room);
        assert_eq!(client.seen[n - 1].to_xml(), "<close/>");
    }

    // The replay holds every state and the result.
    let replay = wait_for_replay_of_game(&server.replay_dir, &room, GAME).await;
    assert_eq!(replay.states.len(), states.len());
    assert_eq!(replay.states.last(), states.last().copied());
    let ServerMessage::Room {
        data: RoomData::Result(result),
        ..
    } = result_message(&alice)
    else {
        unreachable!()
    };
    assert_eq!(replay.result.as_ref(), Some(result));
    server.shutdown().await;
}

/// Plays BLUE's opening move for alice and reads bob's packets up to his
/// first request.
async fn blue_has_moved(alice: &mut TestClient, bob: &mut TestClient, room: &str) {
    until_request(alice).await;
    alice
        .send_game_move(room, GameMove::Blokus2027(opening()[0]))
        .await;
    let state = until_request(bob).await;
    assert_eq!(state.turn(), 1);
}

#[tokio::test]
async fn a_first_piece_off_the_border_loses_as_in_the_examples() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut alice, mut bob, room) = example_room(&server).await;
    blue_has_moved(&mut alice, &mut bob, &room).await;
    // bob's move exactly as the example client sends it.
    bob.send_raw(example("20-client-setmove-not-on-border-turn1.xml", &room).as_bytes())
        .await;
    // The room error goes to bob and the observer, not to alice.
    let error = bob.message().await;
    assert_example(&error, "21-error-not-on-border.xml", &room);
    let expected = example("22-result-rule-violation.xml", &room);
    assert_ends_with(&mut bob, &room, &expected).await;
    assert_ends_with(&mut alice, &room, &expected).await;
    assert!(!alice.seen.iter().any(|m| matches!(
        m,
        ServerMessage::Room {
            data: RoomData::Error { .. },
            ..
        }
    )));
    loop {
        let message = admin.message().await;
        if matches!(
            message,
            ServerMessage::Room {
                data: RoomData::Error { .. },
                ..
            }
        ) {
            assert_example(&message, "21-error-not-on-border.xml", &room);
            break;
        }
    }
    let result = admin.room_data().await;
    assert_eq!(
        ServerMessage::Room {
            room_id: room.clone(),
            data: result
        }
        .to_xml(),
        expected
    );
    server.shutdown().await;
}

// On tokio's paused clock (the limit's real-time smoke test is in
// `clock.rs`): the 2.3 s pass at once.
#[tokio::test(start_paused = true)]
async fn a_move_after_the_soft_limit_loses_as_in_the_examples() {
    // Without replays, as the clock's server below.
    let server = TestServer::start(|config| config.replays = false).await;
    let (_admin, mut alice, mut bob, room) = example_room(&server).await;
    blue_has_moved(&mut alice, &mut bob, &room).await;
    // Later than the 2 s of the game's default clock: the move is discarded.
    tokio::time::sleep(Duration::from_millis(2300)).await;
    bob.send_game_move(&room, GameMove::Blokus2027(opening()[1]))
        .await;
    let expected = example("23-result-soft-timeout.xml", &room);
    assert_ends_with(&mut bob, &room, &expected).await;
    assert_ends_with(&mut alice, &room, &expected).await;
    assert_eq!(mementos(&bob).last().map(|s| s.turn()), Some(1));
    server.shutdown().await;
}

/// A server whose 2027 games have a 1 s soft and a 1.5 s hard limit, for a
/// test on tokio's paused clock.
async fn quick_clock_server() -> TestServer {
    TestServer::with_move_limits(GAME, 1000, 1500).await
}

// On tokio's paused clock, as the soft limit's test.
#[tokio::test(start_paused = true)]
async fn no_move_by_the_hard_limit_loses_in_the_2027_layout() {
    let server = quick_clock_server().await;
    let (_admin, mut alice, mut bob, room) = example_room(&server).await;
    blue_has_moved(&mut alice, &mut bob, &room).await;
    let asked = tokio::time::Instant::now();
    // The official text names the soft limit (decisions.md §25).
    let expected = result_packet(
        &room,
        [2, 5],
        [0, 0],
        &alice_won_irregularly(
            "bob hat innerhalb von 1 Sekunden nach Aufforderung keinen Zug gesendet.",
        ),
    );
    assert_ends_with(&mut bob, &room, &expected).await;
    // The paused clock moves only to the next timer: the game ended at the
    // hard limit, not before and not at a later timer.
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_millis(1600),
        "{waited:?}"
    );
    assert_ends_with(&mut alice, &room, &expected).await;
    let GameResult { scores, .. } = result_of(&alice.seen).expect("a result");
    assert_eq!(scores[1].cause, ScoreCause::HardTimeout);
    server.shutdown().await;
}

#[tokio::test]
async fn a_player_who_leaves_loses_in_the_2027_layout() {
    let server = TestServer::start(|_| {}).await;
    let (_admin, mut alice, mut bob, room) = example_room(&server).await;
    blue_has_moved(&mut alice, &mut bob, &room).await;
    bob.send_raw(b"</protocol>").await;
    let expected = result_packet(
        &room,
        [2, 5],
        [0, 0],
        &alice_won_irregularly("bob hat das Spiel verlassen: RECEIVED_DISCONNECT"),
    );
    assert_ends_with(&mut alice, &room, &expected).await;
    let GameResult { scores, .. } = result_of(&alice.seen).expect("a result");
    assert_eq!(scores[1].cause, ScoreCause::Left);
    server.shutdown().await;
}

#[tokio::test]
async fn a_cancelled_game_ends_without_a_winner_in_the_2027_layout() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut alice, mut bob, room) = example_room(&server).await;
    blue_has_moved(&mut alice, &mut bob, &room).await;
    admin
        .send(&ClientMessage::Cancel {
            room_id: room.clone(),
        })
        .await;
    // Nobody broke a rule: the points stand, nobody wins, the game did not
    // end by its rules.
    let expected = result_packet(
        &room,
        [0, 5],
        [0, 0],
        "<winner regular=\"false\" reason=\"Das Spiel wurde von einem Administrator abgebrochen\"/>",
    );
    assert_ends_with(&mut alice, &room, &expected).await;
    assert_ends_with(&mut bob, &room, &expected).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_2021_and_a_2027_game_at_once_each_in_its_own_dialect() {
    let server = TestServer::start(|_| {}).await;
    let (old_one, old_two, old_room) = joined_pair(&server).await;
    let mut new_one = server.connect().await;
    let new_room = new_one.join_game(GAME).await;
    let mut new_two = server.connect().await;
    assert_eq!(
        new_two.join_game(GAME).await,
        new_room,
        "a join of its own game"
    );
    assert_ne!(old_room, new_room);
    let (old_a, old_b, new_a, new_b) = tokio::join!(
        play_out(old_one, old_room.clone(), Duration::ZERO),
        play_out(old_two, old_room, Duration::ZERO),
        play_2027(new_one, new_room.clone(), false),
        play_2027(new_two, new_room, false),
    );
    for transcript in [&old_a, &old_b] {
        let result = result_of(transcript).expect("a 2021 result");
        assert_eq!(result.definition[0].name, "Gewinner");
        assert!(transcript.iter().all(|m| match m {
            ServerMessage::Room { data, .. } => match data {
                RoomData::Memento(s) => s.game_type() == GameType::Blokus2021,
                RoomData::MoveRequest(class) => *class == MoveRequestClass::Qualified,
                _ => true,
            },
            _ => true,
        }));
    }
    for client in [&new_a, &new_b] {
        client.assert_bytes_are_the_encoders();
        let result = result_of(&client.seen).expect("a 2027 result");
        assert_eq!(result.definition[0].name, "Siegpunkte");
        assert!(result.conclusion.as_ref().is_some_and(|c| c.regular));
        assert!(mementos(client).iter().all(|s| s.game_type() == GAME));
    }
    server.shutdown().await;
}

/// A client that sends a bare `<join/>` as the organisers' Python SDK does
/// (`<protocol>` and the packet in one write); returns the room it joined.
async fn bare_join(client: &mut TestClient) -> String {
    client.send_raw(b"<protocol><join/>\n").await;
    match client.message().await {
        ServerMessage::Joined { room_id } => room_id,
        other => panic!("expected <joined>, got {other:?}"),
    }
}

#[tokio::test]
async fn a_bare_join_plays_the_current_season() {
    let server = TestServer::start(|_| {}).await;
    // A 2021 room waits for a second player; a bare join does not take it.
    let mut waiting = server.connect().await;
    let old_room = waiting.join().await;
    let mut one = server.connect().await;
    one.reads(GAME);
    let room = bare_join(&mut one).await;
    assert_ne!(room, old_room);
    let mut two = server.connect().await;
    two.reads(GAME);
    assert_eq!(bare_join(&mut two).await, room, "the second fills it");
    assert_eq!(one.room_data().await, RoomData::Welcome { seat: 0 });
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert_eq!(state.game_type(), GAME);
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Alias)
    );
    one.assert_bytes_are_the_encoders();
    server.shutdown().await;

    // The default game is a setting.
    let server = TestServer::start(|config| config.default_game = GameType::Blokus2021).await;
    let mut one = server.connect().await;
    bare_join(&mut one).await;
    let mut two = server.connect().await;
    bare_join(&mut two).await;
    assert_eq!(one.room_data().await, RoomData::Welcome { seat: 0 });
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert_eq!(state.game_type(), GameType::Blokus2021);
    server.shutdown().await;
}
