//! Classic Blokus (`blokus_classic`, `_3`, `_2`) over TCP: the bad input
//! issue 13 lists, each next to an undisturbed reference game of the
//! two-player classic game: a first piece on another colour's corner, a
//! pass while a piece fits, a move by a seat that is not on turn (the
//! three-player GREEN), a fifth player for a full four-player room, and a
//! 2021 `SetMove` sent into a classic room.

use std::time::Duration;

use spielleiter_e2e::{
    Stage, TestClient, assert_regular_result, first_move, game_of, play_on, result_of, until_result,
};
use spielleiter_protocol::{
    ClientMessage, GameMove, GameType, ServerMessage,
    games::{blokus::WireMove, blokus_classic::mistake_text},
    result::{GameResult, ScoreCause},
    room::RoomData,
    texts,
};
use spielleiter_rules::{
    AnyGame, Game,
    blokus::{ClassicMistake, Color, PieceKind, Placement, Rotation},
};

/// The reference game of these tests: two-player classic Blokus.
const REFERENCE: GameType = GameType::BlokusClassic2;

/// Reads `client`'s packets up to its next move request; returns the
/// position of the last state it got.
async fn until_request(client: &mut TestClient) -> AnyGame {
    let mut position = None;
    loop {
        match client.room_data().await {
            RoomData::Memento(state) => position = Some(game_of(&state)),
            RoomData::MoveRequest(_) => return position.expect("a state before the request"),
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// Reads `client`'s states up to the one of turn `turn`; returns it.
async fn until_turn(client: &mut TestClient, turn: u32) -> AnyGame {
    loop {
        if let RoomData::Memento(state) = client.room_data().await
            && state.turn() == turn
        {
            return game_of(&state);
        }
    }
}

/// Sends `mv` for `room`.
async fn send(client: &mut TestClient, room: &str, mv: GameMove) {
    client.send_game_move(room, mv).await;
}

/// Seats `0..seats` in turn wait for their move request and place the
/// first legal piece (each colour's first piece on its corner).
async fn first_pieces(clients: &mut [TestClient], room: &str, seats: usize) {
    for client in &mut clients[..seats] {
        let position = until_request(client).await;
        send(client, room, first_move(&position)).await;
    }
}

/// The wire move of a placement in a room of `game`.
fn placement_move(game: GameType, placement: Placement) -> GameMove {
    let mv = WireMove::Set(placement);
    match game {
        GameType::BlokusClassic => GameMove::BlokusClassic(mv),
        GameType::BlokusClassic3 => GameMove::BlokusClassic3(mv),
        _ => GameMove::BlokusClassic2(mv),
    }
}

fn win_points(result: &GameResult) -> Vec<i64> {
    result
        .scores
        .iter()
        .map(|s| s.parts[0].as_integer().expect("an integer"))
        .collect()
}

fn winners(result: &GameResult) -> Vec<usize> {
    result.winners.iter().map(|w| w.seat).collect()
}

/// The offender `client` gets the room error naming `text`, with its move
/// echoed; `witness` sees the result, in which seat `seat` lost by
/// `RULE_VIOLATION` with `text` in its reason and everybody else won.
async fn violation(
    client: &mut TestClient,
    witness: &mut TestClient,
    seat: usize,
    mv: GameMove,
    text: &str,
) -> GameResult {
    let RoomData::Error {
        message,
        original_message,
    } = client.room_data().await
    else {
        panic!("expected the room error first");
    };
    assert!(message.contains(text), "{message}");
    assert_eq!(original_message, Some(mv));
    let result = until_result(witness).await;
    let seats = result.scores.len();
    for (s, score) in result.scores.iter().enumerate() {
        if s == seat {
            assert_eq!(score.cause, ScoreCause::RuleViolation, "{result:?}");
            assert!(score.reason.contains(text), "{result:?}");
        } else {
            assert_eq!(score.cause, ScoreCause::Regular, "{result:?}");
        }
    }
    // Everybody but the offender wins: alone with 2 win points, or shared.
    let others = if seats == 2 { 2 } else { 1 };
    let expected: Vec<i64> = (0..seats)
        .map(|s| if s == seat { 0 } else { others })
        .collect();
    assert_eq!(win_points(&result), expected);
    assert_eq!(
        winners(&result),
        (0..seats).filter(|&s| s != seat).collect::<Vec<_>>()
    );
    result
}

#[tokio::test]
async fn a_first_piece_on_another_colours_corner_loses() {
    let stage = Stage::open(REFERENCE).await;
    let game = GameType::BlokusClassic;
    let (mut clients, room) = stage.server.seated(game).await;
    until_request(&mut clients[0]).await;
    // BLUE's monomino on RED's corner.
    let mv = placement_move(
        game,
        Placement {
            color: Color::Blue,
            kind: PieceKind::Mono,
            rotation: Rotation::None,
            flipped: false,
            x: 19,
            y: 19,
        },
    );
    send(&mut clients[0], &room, mv).await;
    let (offender, rest) = clients.split_at_mut(1);
    let result = violation(
        &mut offender[0],
        &mut rest[2],
        0,
        mv,
        mistake_text(ClassicMistake::NotInOwnCorner),
    )
    .await;
    assert_eq!(winners(&result), [1, 2, 3]);
    // Points and places as they stood: nobody has placed a piece.
    for score in &result.scores {
        let parts: Vec<_> = score.parts[1..].iter().map(|p| p.as_integer()).collect();
        assert_eq!(parts, [Some(0), Some(1)]);
    }
    stage.close().await;
}

#[tokio::test]
async fn a_pass_while_a_piece_fits_loses() {
    let stage = Stage::open(REFERENCE).await;
    let game = GameType::BlokusClassic2;
    let (mut clients, room) = stage.server.seated(game).await;
    // BLUE (seat ONE) and YELLOW (seat TWO) place their first pieces.
    first_pieces(&mut clients, &room, 2).await;
    // RED (seat ONE) passes although its first piece fits.
    let position = until_request(&mut clients[0]).await;
    assert_eq!(position.turn(), 2);
    let mv = GameMove::BlokusClassic2(WireMove::Skip(Some(Color::Red)));
    send(&mut clients[0], &room, mv).await;
    let (one, two) = clients.split_at_mut(1);
    violation(
        &mut one[0],
        &mut two[0],
        0,
        mv,
        mistake_text(ClassicMistake::PassWhilePlacementExists),
    )
    .await;
    stage.close().await;
}

#[tokio::test]
async fn a_green_move_by_the_seat_not_on_turn_loses() {
    let stage = Stage::open(REFERENCE).await;
    let game = GameType::BlokusClassic3;
    let (mut clients, room) = stage.server.seated(game).await;
    // BLUE, YELLOW, RED by seats ONE, TWO, THREE.
    first_pieces(&mut clients, &room, 3).await;
    // GREEN's first piece is seat ONE's: ONE is asked, TWO moves.
    let position = until_request(&mut clients[0]).await;
    assert_eq!(position.turn(), 3);
    assert_eq!(position.player_to_move(), Some(0));
    let seen_by_two = until_turn(&mut clients[1], 3).await;
    assert_eq!(seen_by_two, position);
    let mv = first_move(&position);
    send(&mut clients[1], &room, mv).await;
    let RoomData::Error { message, .. } = clients[1].room_data().await else {
        panic!("expected the room error first");
    };
    assert!(message.starts_with("It's not your turn yet"), "{message}");
    let result = until_result(&mut clients[2]).await;
    let causes: Vec<ScoreCause> = result.scores.iter().map(|s| s.cause).collect();
    assert_eq!(
        causes,
        [
            ScoreCause::Regular,
            ScoreCause::RuleViolation,
            ScoreCause::Regular
        ]
    );
    assert_eq!(win_points(&result), [1, 0, 1]);
    assert_eq!(winners(&result), [0, 2]);
    assert_eq!(until_result(&mut clients[0]).await, result);
    stage.close().await;
}

/// Plays the game of `clients` (who have read their welcomes, and the
/// first also `first_seen`) to its end with the first legal move whenever
/// asked; returns the result every player got, checked against the final
/// position.
async fn play_to_the_end(
    clients: Vec<TestClient>,
    room: &str,
    first_seen: Option<AnyGame>,
) -> GameResult {
    let mut handles = Vec::new();
    for (seat, client) in clients.into_iter().enumerate() {
        let room = room.to_owned();
        let seen = if seat == 0 { first_seen.clone() } else { None };
        handles.push(tokio::spawn(async move {
            play_on(client, &room, Duration::ZERO, seen).await.0
        }));
    }
    let mut results = Vec::new();
    let mut last = None;
    for handle in handles {
        let transcript = handle.await.expect("the player ends");
        if let Some(state) = spielleiter_e2e::mementos(&transcript).last() {
            last = Some(game_of(state));
        }
        results.push(result_of(&transcript).expect("a result").clone());
    }
    let result = results[0].clone();
    assert!(results.iter().all(|r| *r == result), "{results:?}");
    assert_regular_result(&result, &last.expect("states"));
    result
}

#[tokio::test]
async fn a_fifth_player_cannot_join_a_full_four_player_room() {
    let stage = Stage::open(REFERENCE).await;
    let game = GameType::BlokusClassic;
    let (clients, room) = stage.server.seated(game).await;
    let mut fifth = stage.server.connect().await;
    fifth
        .send(&ClientMessage::JoinRoom {
            room_id: room.clone(),
        })
        .await;
    match fifth.message().await {
        ServerMessage::ErrorPacket { message, .. } => {
            assert_eq!(message, texts::room_full(&room));
        }
        other => panic!("expected an errorpacket, got {other:?}"),
    }
    // The connection stays usable: a `join` opens a room of its own.
    let other = fifth.join_game(game).await;
    assert_ne!(other, room);
    // The full room plays on to its regular end.
    let result = play_to_the_end(clients, &room, None).await;
    assert_eq!(result.scores.len(), 4);
    stage.close().await;
}

#[tokio::test]
async fn a_2021_set_move_is_no_move_and_the_game_goes_on() {
    let stage = Stage::open(REFERENCE).await;
    let game = GameType::BlokusClassic;
    let (mut clients, room) = stage.server.seated(game).await;
    let initial = until_request(&mut clients[0]).await;
    // What a 2021 client would send: its start piece (here PENTO_V) in a
    // free corner, as a `sc.plugin2021.SetMove`.
    let old = ClientMessage::Move {
        room_id: room.clone(),
        mv: GameMove::Blokus2021(WireMove::Set(Placement {
            color: Color::Blue,
            kind: PieceKind::PentoV,
            rotation: Rotation::None,
            flipped: false,
            x: 0,
            y: 17,
        })),
    }
    .to_xml();
    clients[0].send_raw(old.as_bytes()).await;
    match clients[0].message().await {
        ServerMessage::ErrorPacket { message, .. } => assert_eq!(
            message,
            texts::non_move_packet(&room, Some("sc.plugin2021.SetMove"))
        ),
        other => panic!("expected an errorpacket, got {other:?}"),
    }
    // Still on turn: the classic move is taken, and the game ends
    // regularly.
    let mv = first_move(&initial);
    send(&mut clients[0], &room, mv).await;
    let result = play_to_the_end(clients, &room, Some(initial)).await;
    assert!(result.scores.iter().all(|s| s.cause == ScoreCause::Regular));
    stage.close().await;
}
