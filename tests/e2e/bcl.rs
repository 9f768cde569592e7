//! The BLOKUS Champions League game (`blokus_bcl`) over TCP: a whole game
//! next to a Blokus 2021 game, each in its own dialect; every illegal
//! placement disqualifies with the seed's code; a pass while a block fits;
//! a late move and no move; the built-in `illegal` bot is disqualified.

use std::time::Duration;

use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, GameReport, PlayOptions, play};
use spielleiter_e2e::{
    TestClient, TestServer, assert_regular_result, game_of, joined_pair_of, mementos, play_out,
    result_of, shape, wait_for_replay_of_game,
};
use spielleiter_protocol::{
    GameMove, ServerMessage,
    dialect::{CloseElement, MoveRequestClass, ResultLayout},
    games::bcl::{WireMove, WirePlace},
    result::{GameResult, ScoreCause},
    room::RoomData,
};
use spielleiter_rules::{
    Game, GameType,
    blokus::bcl::{BclFlip, BclKind, BclRotation},
};

const BCL: GameType = GameType::BlokusBcl;

/// A placement with no rotation or flip.
fn place(kind: BclKind, row: i32, col: i32) -> GameMove {
    GameMove::BlokusBcl(WireMove::Place(WirePlace {
        kind,
        rotation: BclRotation::None,
        flip: BclFlip::None,
        row,
        col,
    }))
}

/// Reads `client`'s packets up to its next move request.
async fn until_request(client: &mut TestClient) {
    while !matches!(client.room_data().await, RoomData::MoveRequest(_)) {}
}

#[tokio::test]
async fn a_bcl_game_and_a_blokus_2021_game_play_side_by_side_to_their_results() {
    let server = TestServer::start(|_| {}).await;
    let (bcl_one, bcl_two, bcl_room) = joined_pair_of(&server, BCL).await;
    let (blokus_one, blokus_two, blokus_room) = joined_pair_of(&server, GameType::Blokus2021).await;
    assert_ne!(bcl_room, blokus_room);
    let think = Duration::from_millis(1);
    let (a, b, blokus_a, blokus_b) = tokio::join!(
        play_out(bcl_one, bcl_room.clone(), think),
        play_out(bcl_two, bcl_room.clone(), think),
        play_out(blokus_one, blokus_room.clone(), think),
        play_out(blokus_two, blokus_room.clone(), think),
    );

    let (sa, sb) = (shape(&a), shape(&b));
    assert_eq!(sa[..3], ["welcome ONE", "memento 0", "request"]);
    assert_eq!(sb[..2], ["welcome TWO", "memento 0"]);
    for s in [&sa, &sb] {
        assert_eq!(s[s.len() - 3..], ["result", "left", "close"]);
    }
    let states = mementos(&a);
    assert_eq!(states, mementos(&b));
    for message in a.iter().chain(&b) {
        match message {
            ServerMessage::Room {
                data: RoomData::MoveRequest(form),
                ..
            } => assert_eq!(*form, MoveRequestClass::Alias),
            ServerMessage::Close(form) => assert_eq!(*form, CloseElement::Short),
            _ => {}
        }
    }
    let result = result_of(&a).expect("a result").clone();
    assert_eq!(result_of(&b), Some(&result));
    assert_eq!(result.layout, ResultLayout::Season2022);
    let names: Vec<&str> = result.definition.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Win points", "Cells"]);
    let last = game_of(states.last().expect("states"));
    assert_eq!(last.game_type(), BCL);
    assert_regular_result(&result, &last);
    // Each player's reason says in the seed's terms why it stopped.
    for (seat, score) in result.scores.iter().enumerate() {
        assert!(
            ["OUT_OF_SPACE", "OUT_OF_BLOCK"].contains(&score.reason.as_str()),
            "{score:?}"
        );
        assert_eq!(score.reason, last.regular_reason(seat));
    }

    // The Blokus game beside it ended regularly in its own dialect.
    let blokus_result = result_of(&blokus_a).expect("a result");
    assert_eq!(result_of(&blokus_b), Some(blokus_result));
    assert_eq!(blokus_result.layout, ResultLayout::Season2021);
    assert!(blokus_result.scores.iter().all(|s| s.reason.is_empty()));
    let blokus_last = game_of(mementos(&blokus_a).last().expect("states"));
    assert_regular_result(blokus_result, &blokus_last);

    let replay = wait_for_replay_of_game(&server.replay_dir, &bcl_room, BCL).await;
    assert_eq!(replay.states, states);
    assert_eq!(replay.result, Some(result));
    server.shutdown().await;
}

/// Plays `moves` in a fresh room, alternating from ONE, each after its
/// move request; the last one must be refused. Returns the offender's seat
/// and what each player saw up to the end.
async fn refused_after(
    server: &TestServer,
    moves: &[GameMove],
) -> (usize, [Vec<ServerMessage>; 2]) {
    let (one, two, room) = joined_pair_of(server, BCL).await;
    let mut players = [one, two];
    for (index, mv) in moves.iter().enumerate() {
        let player = &mut players[index % 2];
        until_request(player).await;
        player.send_game_move(&room, *mv).await;
    }
    let offender = (moves.len() - 1) % 2;
    let [mut one, mut two] = players;
    let (a, b) = tokio::join!(one.until_end(), two.until_end());
    (offender, [a, b])
}

/// Checks that `offender` was disqualified with `code` in the reason (and
/// `(corner rule)` for the corner rule's codes): the room error to the
/// offender, the cause, the other player the winner.
fn assert_disqualified(offender: usize, seen: &[Vec<ServerMessage>; 2], code: &str) {
    let error = seen[offender]
        .iter()
        .find_map(|m| match m {
            ServerMessage::Room {
                data: RoomData::Error { message, .. },
                ..
            } => Some(message.clone()),
            _ => None,
        })
        .expect("the offender gets a room error");
    let marker = format!(" is disqualified: {code}");
    assert!(error.contains(&marker), "{error}");
    let corner = matches!(
        code,
        "NOT_ON_START_CORNER" | "EDGE_CONTACT" | "NO_CORNER_CONTACT"
    );
    assert_eq!(error.contains("(corner rule)"), corner, "{error}");
    let result: &GameResult = result_of(&seen[offender]).expect("a result");
    assert_eq!(result_of(&seen[1 - offender]), Some(result));
    assert_eq!(result.scores[offender].cause, ScoreCause::RuleViolation);
    assert_eq!(result.scores[offender].reason, error);
    assert_eq!(result.scores[1 - offender].cause, ScoreCause::Regular);
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [1 - offender], "{code}");
    // The refused move changed nothing: the last state is before it.
    let shape = shape(&seen[offender]);
    assert_eq!(shape[shape.len() - 3..], ["result", "left", "close"]);
}

#[tokio::test]
async fn every_illegal_placement_disqualifies_with_the_seeds_code() {
    let server = TestServer::start(|_| {}).await;
    let dot_corners = [place(BclKind::Dot, 0, 0), place(BclKind::Dot, 9, 9)];
    let cases: Vec<(&str, Vec<GameMove>)> = vec![
        // The start point is the bottom-left cell: a SHOTGUN on row 0
        // reaches up to row -1.
        ("OUT_OF_STAGE", vec![place(BclKind::Shotgun, 0, 0)]),
        // TWO on ONE's DOT.
        ("OVERLAP", vec![dot_corners[0], place(BclKind::Dot, 0, 0)]),
        ("NOT_ON_START_CORNER", vec![place(BclKind::Dot, 5, 5)]),
        (
            "EDGE_CONTACT",
            vec![dot_corners[0], dot_corners[1], place(BclKind::Stick, 1, 0)],
        ),
        (
            "NO_CORNER_CONTACT",
            vec![dot_corners[0], dot_corners[1], place(BclKind::Stick, 5, 3)],
        ),
        (
            "BLOCK_USED",
            vec![dot_corners[0], dot_corners[1], place(BclKind::Dot, 1, 1)],
        ),
    ];
    for (code, moves) in cases {
        let (offender, seen) = refused_after(&server, &moves).await;
        assert_disqualified(offender, &seen, code);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_pass_while_a_block_fits_disqualifies() {
    let server = TestServer::start(|_| {}).await;
    let moves = [
        place(BclKind::Dot, 0, 0),
        GameMove::BlokusBcl(WireMove::Pass),
    ];
    let (offender, seen) = refused_after(&server, &moves).await;
    assert_eq!(offender, 1);
    assert_disqualified(offender, &seen, "PASS_WHILE_PLACEMENT_EXISTS");
    server.shutdown().await;
}

/// A server whose BCL games have a 1 s soft and a 2 s hard limit (the
/// default is tested in the server's configuration tests), for a test on
/// tokio's paused clock.
async fn quick_clock_server() -> TestServer {
    TestServer::with_move_limits(BCL, 1000, 2000).await
}

// On tokio's paused clock (the limits' real-time smoke tests are in
// `clock.rs`): the waits pass at once.
#[tokio::test(start_paused = true)]
async fn a_late_move_and_no_move_disqualify() {
    let server = quick_clock_server().await;
    // A move 1.3 s after its request.
    let (mut one, mut two, room) = joined_pair_of(&server, BCL).await;
    until_request(&mut one).await;
    tokio::time::sleep(Duration::from_millis(1300)).await;
    one.send_game_move(&room, place(BclKind::Dot, 0, 0)).await;
    let (a, b) = tokio::join!(one.until_end(), two.until_end());
    let result = result_of(&a).expect("a result");
    assert_eq!(result_of(&b), Some(result));
    assert_eq!(result.scores[0].cause, ScoreCause::SoftTimeout);
    assert_eq!(
        result.scores[0].reason,
        "ONE is disqualified: the move came later than 1 s after the request"
    );
    assert_eq!(result.winners.len(), 1);
    assert_eq!(result.winners[0].seat, 1);
    // The late move was not applied.
    assert!(mementos(&b).iter().all(|s| s.turn() == 0));

    // No move at all: the hard limit ends the game.
    let (mut one, mut two, room) = joined_pair_of(&server, BCL).await;
    until_request(&mut one).await;
    one.send_game_move(&room, place(BclKind::Dot, 0, 0)).await;
    let asked = tokio::time::Instant::now();
    let (a, b) = tokio::join!(one.until_end(), two.until_end());
    // The paused clock moves only to the next timer: the game ended at the
    // hard limit after TWO's request, not before and not at a later timer.
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_secs(2) && waited < Duration::from_millis(2100),
        "{waited:?}"
    );
    let result = result_of(&b).expect("a result");
    assert_eq!(result_of(&a), Some(result));
    assert_eq!(result.scores[1].cause, ScoreCause::HardTimeout);
    assert_eq!(
        result.scores[1].reason,
        "TWO is disqualified: no move within 2 s of the request"
    );
    assert_eq!(result.winners[0].seat, 0);
    server.shutdown().await;
}

async fn bot_game(mut connection: Connection, room: String, kind: BotKind) -> GameReport {
    let mut bot = kind.build(BCL, 3).unwrap();
    play(&mut connection, &room, PlayOptions::default(), |game| {
        bot.choose_move(game)
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn the_built_in_illegal_bot_is_disqualified_for_an_overlap() {
    let server = TestServer::start(|_| {}).await;
    for seats in [
        [BotKind::Illegal, BotKind::Greedy],
        [BotKind::Random, BotKind::Illegal],
    ] {
        let mut one = Connection::connect(server.addr).await.unwrap();
        let room = one.join(BCL).await.unwrap();
        let mut two = Connection::connect(server.addr).await.unwrap();
        assert_eq!(two.join(BCL).await.unwrap(), room);
        let (a, b) = tokio::join!(
            bot_game(one, room.clone(), seats[0]),
            bot_game(two, room.clone(), seats[1])
        );
        let offender = usize::from(seats[1] == BotKind::Illegal);
        let result = a.result.clone().expect("a result");
        assert_eq!(b.result.as_ref(), Some(&result));
        let score = &result.scores[offender];
        assert_eq!(score.cause, ScoreCause::RuleViolation);
        assert!(score.reason.contains(": OVERLAP: "), "{score:?}");
        let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
        assert_eq!(winners, [1 - offender]);
    }
    server.shutdown().await;
}
