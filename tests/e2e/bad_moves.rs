//! Bad moves of Ostseeschach 2022 and Blokus 2027 over TCP, each while a
//! reference game of the disturbed room's game plays undisturbed next to
//! it: the answers of each season's official server where its spec says
//! them, Spielleiter's documented answers (DEVIATIONS.md) where they
//! differ.

use std::time::Duration;

use spielleiter_e2e::{
    Received, Stage, TestClient, TestServer, assert_lost, assert_regular_result, first_move,
    game_of, joined_pair_of, mementos, play_on, result_of, shape, wait_for_replay_of_game,
};
use spielleiter_protocol::{
    ClientMessage, GameMove, GameType, ServerMessage,
    games::blokus::WireMove,
    result::{GameResult, ScoreCause},
    room::RoomData,
};
use spielleiter_rules::{
    AnyGame, Game,
    blokus::{Color, Placement, Rotation},
    ostseeschach::{Move, PieceKind},
};

const OSTSEE: GameType = GameType::Ostseeschach2022;
const BLOKUS_2027: GameType = GameType::Blokus2027;

/// Two players joined a room of `game` and read up to ONE's first move
/// request: `(one, two, room, initial position)`.
async fn started(server: &TestServer, game: GameType) -> (TestClient, TestClient, String, AnyGame) {
    let (clients, room) = server.seated(game).await;
    let [mut one, mut two] = <[TestClient; 2]>::try_from(clients).expect("two seats");
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert!(matches!(one.room_data().await, RoomData::MoveRequest(_)));
    assert_eq!(two.room_data().await, RoomData::Memento(state.clone()));
    (one, two, room, game_of(&state))
}

/// The end of a player's stream: the result, `left`, `<close/>` (the
/// season's), the end of the document and of the connection. Returns the
/// packets before the result and the result.
async fn the_end(client: &mut TestClient) -> (Vec<ServerMessage>, GameResult) {
    let mut rest = client.until_end().await;
    assert_eq!(client.next().await, Received::Eof, "the server closes");
    let kinds = shape(&rest);
    assert_eq!(
        kinds[kinds.len() - 3..],
        ["result", "left", "close"],
        "{rest:?}"
    );
    let result = result_of(&rest).expect("a result").clone();
    rest.truncate(rest.len() - 3);
    (rest, result)
}

/// After `offender` (seat `seat`) sent the illegal move `mv`: the room
/// error, with `mv` echoed, goes to the offender only; the game ends at
/// once (no further state) with the same result for both, the offender
/// losing with `RULE_VIOLATION`. Returns the room error's text and the
/// result.
async fn rule_violation(
    offender: &mut TestClient,
    opponent: &mut TestClient,
    seat: usize,
    mv: GameMove,
) -> (String, GameResult) {
    let RoomData::Error {
        message,
        original_message,
    } = offender.room_data().await
    else {
        panic!("expected the room error first");
    };
    assert_eq!(original_message, Some(mv));
    let (before, result) = the_end(offender).await;
    assert!(before.is_empty(), "{before:?}");
    let (before, seen) = the_end(opponent).await;
    assert!(
        before.iter().all(|m| !matches!(
            m,
            ServerMessage::Room {
                data: RoomData::Error { .. } | RoomData::Memento(_),
                ..
            }
        )),
        "{before:?}"
    );
    assert_eq!(seen, result);
    assert_lost(&result, seat, ScoreCause::RuleViolation);
    (message, result)
}

/// The error packet's message; fails on anything else.
async fn error_packet(client: &mut TestClient) -> String {
    match client.message().await {
        ServerMessage::ErrorPacket { message, .. } => message,
        other => panic!("expected an errorpacket, got {other:?}"),
    }
}

/// The room packet of `mv` for `room` as a client writes it.
fn move_packet(room: &str, mv: GameMove) -> String {
    ClientMessage::Move {
        room_id: room.to_owned(),
        mv,
    }
    .to_xml()
}

/// The player on turn sends its real move after packets that were no
/// move, and both play the game to its regular end without an error.
async fn the_game_goes_on(mut one: TestClient, mut two: TestClient, room: &str, initial: AnyGame) {
    one.send_game_move(room, first_move(&initial)).await;
    let RoomData::Memento(state) = two.room_data().await else {
        panic!("expected the state after ONE's move");
    };
    assert_eq!(state.turn(), 1);
    let RoomData::Memento(seen) = one.room_data().await else {
        panic!("expected the state after ONE's move");
    };
    assert_eq!(seen, state);
    let after = game_of(&state);
    let ((a, _), (b, _)) = tokio::join!(
        play_on(one, room, Duration::ZERO, Some(after.clone())),
        play_on(two, room, Duration::ZERO, Some(after)),
    );
    let result = result_of(&a).expect("a result").clone();
    assert_eq!(result_of(&b), Some(&result));
    assert!(
        !a.iter()
            .chain(&b)
            .any(|m| matches!(m, ServerMessage::ErrorPacket { .. })),
        "{a:?}"
    );
    assert_regular_result(&result, &game_of(mementos(&a).last().expect("states")));
}

/// In a fresh room of `game`, ONE sends `packets(room, initial position)`:
/// room packets whose data's class (given with each) is no move of
/// `game`. Each is answered with an error packet, nothing is played, the
/// connection stays open, and the game goes on to its regular end.
async fn no_moves_and_the_game_goes_on(
    game: GameType,
    packets: impl FnOnce(&str, &AnyGame) -> Vec<(String, &'static str)>,
) {
    let stage = Stage::open(game).await;
    let (mut one, two, room, initial) = started(&stage.server, game).await;
    for (packet, class) in packets(&room, &initial) {
        one.send_raw(packet.as_bytes()).await;
        assert_eq!(
            error_packet(&mut one).await,
            format!(
                "sc.api.plugins.exceptions.GameRoomException: Received non-move packet: RoomPacket(roomId={room}, data={class})"
            )
        );
    }
    the_game_goes_on(one, two, &room, initial).await;
    stage.close().await;
}

// ---------------------------------------------------------------------
// Ostseeschach 2022

/// The Ostseeschach position of a room's initial state.
fn ostsee(game: &AnyGame) -> &spielleiter_rules::ostseeschach::Ostseeschach {
    match game {
        AnyGame::Ostseeschach2022(game) => game,
        other => panic!("expected an Ostseeschach position, got {other:?}"),
    }
}

/// The room error and result reason the 2022 server writes for `mistake`
/// (its text) in `mv` by a player without display name (spec §13.1).
fn ostsee_texts(mistake: &str, mv: &Move) -> (String, String) {
    let described = format!(
        "Zug von [{}|{}] zu [{}|{}]",
        mv.from.x, mv.from.y, mv.to.x, mv.to.y
    );
    (
        format!(
            "Ungueltiger Zug von ''.\nInvalidMoveException(mistake={mistake}, move={described})"
        ),
        format!("{mistake} bei Zug '{described}'"),
    )
}

/// Seat `seat` of a fresh Ostseeschach room (ONE at once, TWO after ONE's
/// first legal move) sends `choose(position)`, an illegal move with the
/// official mistake text `mistake`: it loses by a rule violation with the
/// 2022 texts, next to a reference game.
async fn ostsee_violation(
    seat: usize,
    choose: impl FnOnce(&spielleiter_rules::ostseeschach::Ostseeschach) -> Move,
    mistake: &str,
) {
    let stage = Stage::open(OSTSEE).await;
    let (mut one, mut two, room, mut game) = started(&stage.server, OSTSEE).await;
    if seat == 1 {
        let mv = first_move(&game);
        one.send_game_move(&room, mv).await;
        let RoomData::Memento(state) = two.room_data().await else {
            panic!("expected the state after ONE's move");
        };
        assert!(matches!(two.room_data().await, RoomData::MoveRequest(_)));
        assert!(matches!(one.room_data().await, RoomData::Memento(_)));
        game = game_of(&state);
    }
    let mv = choose(ostsee(&game));
    let (offender, opponent) = if seat == 0 {
        (&mut one, &mut two)
    } else {
        (&mut two, &mut one)
    };
    offender
        .send_game_move(&room, GameMove::Ostseeschach2022(mv))
        .await;
    let (message, result) =
        rule_violation(offender, opponent, seat, GameMove::Ostseeschach2022(mv)).await;
    let (room_error, reason) = ostsee_texts(mistake, &mv);
    assert_eq!(message, room_error);
    assert_eq!(result.scores[seat].reason, reason);
    stage.close().await;
}

#[tokio::test]
async fn ostseeschach_a_move_of_the_opponents_piece_loses() {
    // ONE, on turn, moves TWO's piece in the corner one field forward
    // (for TWO): the first check, WRONG_COLOR.
    ostsee_violation(
        0,
        |game| {
            let corner = game.piece_at(spielleiter_rules::ostseeschach::Coordinates::new(7, 0));
            assert!(corner.is_some_and(|p| p.team.index() == 1));
            Move::new(7, 0, 6, 0)
        },
        "Nur eigene Spielfiguren können gezogen werden",
    )
    .await;
}

#[tokio::test]
async fn ostseeschach_a_move_off_the_board_loses() {
    // TWO moves its corner piece off the board behind its start line:
    // OUT_OF_BOUNDS comes before the check of the piece's movement.
    ostsee_violation(
        1,
        |_| Move::new(7, 0, 8, 0),
        "Das Zielfeld liegt außerhalb des Spielfelds",
    )
    .await;
}

#[tokio::test]
async fn ostseeschach_a_move_onto_an_own_piece_loses() {
    // A Möwe steps sideways along the full start line onto its neighbour:
    // a movement the Möwe has, onto an own piece (DESTINATION_BLOCKED).
    ostsee_violation(
        0,
        |game| {
            let y = (0..8)
                .find(|&y| {
                    game.piece_at(spielleiter_rules::ostseeschach::Coordinates::new(0, y))
                        .is_some_and(|p| p.kind == PieceKind::Moewe)
                })
                .expect("ONE has two Möwen on its start line");
            Move::new(0, y, 0, if y < 7 { y + 1 } else { y - 1 })
        },
        "Kann nicht auf ein Feld der eigenen Farbe ziehen",
    )
    .await;
}

#[tokio::test]
async fn ostseeschach_a_move_without_to_costs_the_connection_and_the_game() {
    // The official server fails on the missing field and drops the
    // connection (the player left); Spielleiter says why first.
    let stage = Stage::open(OSTSEE).await;
    let (mut one, mut two, room, _) = started(&stage.server, OSTSEE).await;
    one.send_raw(
        format!(
            "<room roomId=\"{room}\"><data class=\"move\"><from x=\"0\" y=\"0\"/></data></room>"
        )
        .as_bytes(),
    )
    .await;
    assert_eq!(
        error_packet(&mut one).await,
        "spielleiter.protocol.MalformedMessageException: malformed move: the element <to> is missing"
    );
    one.expect_closed().await;
    let (_, result) = the_end(&mut two).await;
    assert_lost(&result, 0, ScoreCause::Left);
    assert_eq!(
        result.scores[0].reason,
        "Der Spieler hat das Spiel verlassen: PROTOCOL_ERROR"
    );
    stage.close().await;
}

#[tokio::test]
async fn ostseeschach_a_blokus_move_is_no_move_and_the_game_goes_on() {
    // A move of either Blokus season: in an Ostseeschach room a room packet
    // of a class that is no move.
    no_moves_and_the_game_goes_on(OSTSEE, |room, _| {
        let placement = Placement {
            color: Color::Blue,
            kind: spielleiter_rules::blokus::PieceKind::Mono,
            rotation: Rotation::None,
            flipped: false,
            x: 0,
            y: 0,
        };
        vec![
            (
                move_packet(room, GameMove::Blokus2021(WireMove::Set(placement))),
                "sc.plugin2021.SetMove",
            ),
            (
                move_packet(room, GameMove::Blokus2027(WireMove::Set(placement))),
                "sc.plugin2027.SetMove",
            ),
        ]
    })
    .await;
}

/// An Ostseeschach move for `room`, and its class.
fn an_ostseeschach_move(room: &str, _: &AnyGame) -> Vec<(String, &'static str)> {
    let mv = GameMove::Ostseeschach2022(Move::new(0, 0, 1, 1));
    vec![(move_packet(room, mv), "move")]
}

#[tokio::test]
async fn blokus_2021_an_ostseeschach_move_is_no_move_and_the_game_goes_on() {
    no_moves_and_the_game_goes_on(GameType::Blokus2021, an_ostseeschach_move).await;
}

#[tokio::test]
async fn blokus_2027_an_ostseeschach_move_is_no_move_and_the_game_goes_on() {
    no_moves_and_the_game_goes_on(BLOKUS_2027, an_ostseeschach_move).await;
}

/// Plays the first legal move whenever asked and moves after the end: the
/// move that ends the game goes out in one write with a second move, and
/// on seeing the result the player sends another. Returns every packet
/// seen up to the end of the stream, which must come without an answer to
/// the late moves.
async fn play_and_move_after_the_end(mut client: TestClient, room: String) -> Vec<ServerMessage> {
    let mut last = GameMove::Ostseeschach2022(Move::new(0, 0, 1, 1));
    loop {
        let data = match client.next().await {
            Received::Message(ServerMessage::Room { data, .. }) => data,
            Received::Message(_) => continue,
            Received::End => break,
            Received::Eof => panic!("the connection closed before </protocol>"),
        };
        let bytes = match data {
            RoomData::MoveRequest(_) => {
                let state = mementos(&client.seen)
                    .pop()
                    .expect("a state before the request");
                let game = game_of(&state);
                last = first_move(&game);
                let mut after = game.clone();
                after
                    .play(&last.resolve(&game).expect("a move of the game"))
                    .expect("a legal move");
                let mut bytes = move_packet(&room, last);
                if after.is_over() {
                    bytes.push_str(&move_packet(&room, last));
                }
                bytes
            }
            RoomData::Result(_) => move_packet(&room, last),
            _ => continue,
        };
        client.send_raw(bytes.as_bytes()).await;
    }
    assert_eq!(client.next().await, Received::Eof, "the server closes");
    client.seen
}

#[tokio::test]
async fn ostseeschach_moves_after_the_game_is_over_change_nothing() {
    // Officially a move after the end gets an error packet on a connection
    // that stays open; Spielleiter has ended the stream after `left`
    // (decisions.md §11) and discards what still arrives.
    let stage = Stage::open(OSTSEE).await;
    let (one, two, room) = joined_pair_of(&stage.server, OSTSEE).await;
    let (a, b) = tokio::join!(
        play_and_move_after_the_end(one, room.clone()),
        play_and_move_after_the_end(two, room.clone()),
    );
    for transcript in [&a, &b] {
        let kinds = shape(transcript);
        assert_eq!(kinds[kinds.len() - 3..], ["result", "left", "close"]);
        assert!(
            !transcript.iter().any(|m| matches!(
                m,
                ServerMessage::ErrorPacket { .. }
                    | ServerMessage::Room {
                        data: RoomData::Error { .. },
                        ..
                    }
            )),
            "{transcript:?}"
        );
    }
    let states = mementos(&a);
    assert_eq!(states, mementos(&b));
    let result = result_of(&a).expect("a result").clone();
    assert_eq!(result_of(&b), Some(&result));
    let last = game_of(states.last().expect("states"));
    assert_regular_result(&result, &last);
    let replay = wait_for_replay_of_game(&stage.server.replay_dir, &room, OSTSEE).await;
    assert_eq!(replay.states, states);
    assert_eq!(replay.result, Some(result));
    stage.close().await;
}

// ---------------------------------------------------------------------
// Blokus 2027

/// The Blokus 2027 position of a room's state.
fn blokus_2027(game: &AnyGame) -> &spielleiter_rules::blokus::Blokus2027 {
    match game {
        AnyGame::Blokus2027(game) => game,
        other => panic!("expected a Blokus 2027 position, got {other:?}"),
    }
}

/// BLUE's first legal placement in a fresh 2027 room.
fn first_placement(game: &AnyGame) -> Placement {
    match first_move(game) {
        GameMove::Blokus2027(WireMove::Set(placement)) => placement,
        other => panic!("expected a placement, got {other:?}"),
    }
}

#[tokio::test]
async fn blokus_2027_a_2021_move_is_no_move_and_the_game_goes_on() {
    no_moves_and_the_game_goes_on(BLOKUS_2027, |room, game| {
        let placement = first_placement(game);
        vec![
            (
                move_packet(room, GameMove::Blokus2021(WireMove::Set(placement))),
                "sc.plugin2021.SetMove",
            ),
            (
                move_packet(
                    room,
                    GameMove::Blokus2021(WireMove::Skip(Some(Color::Blue))),
                ),
                "sc.plugin2021.SkipMove",
            ),
        ]
    })
    .await;
}

#[tokio::test]
async fn blokus_2027_the_unregistered_aliases_are_no_moves_and_the_game_goes_on() {
    // `setmove` and `skipmove` are no classes the 2027 server knows
    // (blokus-2027.md §2): officially the sender is disconnected and loses.
    no_moves_and_the_game_goes_on(BLOKUS_2027, |room, game| {
        let placement = first_placement(game);
        let set = move_packet(room, GameMove::Blokus2027(WireMove::Set(placement)));
        let skip = move_packet(
            room,
            GameMove::Blokus2027(WireMove::Skip(Some(Color::Blue))),
        );
        vec![
            (
                set.replace("class=\"sc.plugin2027.SetMove\"", "class=\"setmove\""),
                "setmove",
            ),
            (
                skip.replace("class=\"sc.plugin2027.SkipMove\"", "class=\"skipmove\""),
                "skipmove",
            ),
        ]
    })
    .await;
}

/// BLUE's illegal first move `mv` in a fresh 2027 room: ONE loses by a
/// rule violation; the room error and the result's conclusion name the
/// mistake `mistake` and the move as `described` (decisions.md §25: a
/// player without display name is named by its seat).
async fn blokus_2027_first_move_loses(
    mv: impl FnOnce(&AnyGame) -> WireMove,
    mistake: &str,
    described: impl FnOnce(&AnyGame) -> String,
) {
    let stage = Stage::open(BLOKUS_2027).await;
    let (mut one, mut two, room, initial) = started(&stage.server, BLOKUS_2027).await;
    let mv = GameMove::Blokus2027(mv(&initial));
    one.send_game_move(&room, mv).await;
    let (message, result) = rule_violation(&mut one, &mut two, 0, mv).await;
    let described = described(&initial);
    assert_eq!(
        message,
        format!(
            "Ungueltiger Zug von 'ONE'.\nInvalidMoveException(mistake={mistake}, move={described})"
        )
    );
    let conclusion = result.conclusion.as_ref().expect("a 2027 result concludes");
    assert!(!conclusion.regular);
    assert_eq!(
        conclusion.reason,
        format!("Regelverletzung von ONE: {mistake} bei '{described}'")
    );
    stage.close().await;
}

#[tokio::test]
async fn blokus_2027_a_first_piece_off_the_border_loses() {
    // The start piece in the middle of the board: NOT_ON_BORDER.
    let placement = |game: &AnyGame| Placement {
        color: Color::Blue,
        kind: blokus_2027(game).start_piece(),
        rotation: Rotation::None,
        flipped: false,
        x: 8,
        y: 8,
    };
    blokus_2027_first_move_loses(
        |game| WireMove::Set(placement(game)),
        "Der erste Zug muss an den Rand gesetzt werden",
        |game| GameMove::Blokus2027(WireMove::Set(placement(game))).description(),
    )
    .await;
}

#[tokio::test]
async fn blokus_2027_a_pass_as_first_move_loses() {
    // SKIP_FIRST_TURN: a colour must place before it may pass.
    blokus_2027_first_move_loses(
        |_| WireMove::Skip(Some(Color::Blue)),
        "Der erste Zug muss einen Stein setzen",
        |_| "Farbe Blau setzt aus".to_owned(),
    )
    .await;
}
