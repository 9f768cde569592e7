//! Ostseeschach 2022 in the same server as Blokus 2021: whole games side by
//! side over TCP in each season's dialect, replays, observers, pause and
//! step, cancel.

use std::time::Duration;

use spielleiter_e2e::{
    BackgroundGame, TestClient, TestServer, assert_regular_result, first_move, game_of,
    joined_pair_of, mementos, play_on, play_out, result_of, shape, wait_for_replay_of_game,
};
use spielleiter_protocol::{
    ClientMessage, GameState, GameType, ServerMessage,
    dialect::{CloseElement, MoveRequestClass, ResultLayout},
    result::{GameResult, ScoreCause},
    room::RoomData,
};
use spielleiter_rules::{AnyGame, Game};

const OSTSEE: GameType = GameType::Ostseeschach2022;

/// Checks the two players' transcripts of one game of `game`: the official
/// order of start and end, the same states for both with increasing turns,
/// one request per move, and the regular result of the final position.
/// Returns the result and the states.
fn check_game(
    a: &[ServerMessage],
    b: &[ServerMessage],
    game: GameType,
) -> (GameResult, Vec<GameState>) {
    let (sa, sb) = (shape(a), shape(b));
    assert_eq!(sa[..3], ["welcome ONE", "memento 0", "request"], "{game}");
    assert_eq!(sb[..2], ["welcome TWO", "memento 0"], "{game}");
    for s in [&sa, &sb] {
        assert_eq!(s[s.len() - 3..], ["result", "left", "close"], "{game}");
    }
    let states = mementos(a);
    assert_eq!(states, mementos(b));
    assert!(states.windows(2).all(|w| w[0].turn() < w[1].turn()));
    let requests = |s: &[String]| s.iter().filter(|k| *k == "request").count();
    assert_eq!(requests(&sa) + requests(&sb) + 1, states.len());
    let result = result_of(a).expect("a result").clone();
    assert_eq!(result_of(b), Some(&result));
    let last = game_of(states.last().expect("states"));
    assert_eq!(last.game_type(), game);
    assert_regular_result(&result, &last);
    (result, states)
}

/// Asserts what only the 2022 dialect says: `moveRequest`, the 2022 result
/// layout and definition, the long close element; and that a memento per
/// move goes to both players from the turn-0 memento on.
fn check_2022_dialect(transcript: &[ServerMessage], result: &GameResult, states: &[GameState]) {
    for message in transcript {
        match message {
            ServerMessage::Room {
                data: RoomData::MoveRequest(form),
                ..
            } => assert_eq!(*form, MoveRequestClass::Alias),
            ServerMessage::Close(form) => assert_eq!(*form, CloseElement::Qualified),
            _ => {}
        }
    }
    assert_eq!(result.layout, ResultLayout::Season2022);
    let names: Vec<&str> = result.definition.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Siegpunkte", "Bernsteine", "Leichtfiguren Vorne"]);
    let turns: Vec<u32> = states.iter().map(GameState::turn).collect();
    assert_eq!(turns, (0..states.len() as u32).collect::<Vec<_>>());
}

#[tokio::test]
async fn blokus_and_ostseeschach_play_side_by_side_to_their_results() {
    let server = TestServer::start(|_| {}).await;
    // The joins interleave; each lands in a room of its own game.
    let mut blokus_one = server.connect().await;
    let blokus_room = blokus_one.join_game(GameType::Blokus2021).await;
    let mut ostsee_one = server.connect().await;
    let ostsee_room = ostsee_one.join_game(OSTSEE).await;
    assert_ne!(blokus_room, ostsee_room);
    let mut blokus_two = server.connect().await;
    assert_eq!(
        blokus_two.join_game(GameType::Blokus2021).await,
        blokus_room
    );
    let mut ostsee_two = server.connect().await;
    assert_eq!(ostsee_two.join_game(OSTSEE).await, ostsee_room);

    let think = Duration::from_millis(1);
    let (blokus_a, blokus_b, ostsee_a, ostsee_b) = tokio::join!(
        play_out(blokus_one, blokus_room.clone(), think),
        play_out(blokus_two, blokus_room.clone(), think),
        play_out(ostsee_one, ostsee_room.clone(), think),
        play_out(ostsee_two, ostsee_room.clone(), think),
    );
    let (blokus_result, blokus_states) = check_game(&blokus_a, &blokus_b, GameType::Blokus2021);
    assert_eq!(blokus_result.layout, ResultLayout::Season2021);
    let (ostsee_result, ostsee_states) = check_game(&ostsee_a, &ostsee_b, OSTSEE);
    check_2022_dialect(&ostsee_a, &ostsee_result, &ostsee_states);
    check_2022_dialect(&ostsee_b, &ostsee_result, &ostsee_states);

    // Each replay holds every state its players saw, then the result.
    for (room, game, states, result) in [
        (
            &blokus_room,
            GameType::Blokus2021,
            blokus_states,
            blokus_result,
        ),
        (&ostsee_room, OSTSEE, ostsee_states, ostsee_result),
    ] {
        let replay = wait_for_replay_of_game(&server.replay_dir, room, game).await;
        assert_eq!(replay.states, states, "{game}");
        assert_eq!(replay.result, Some(result), "{game}");
    }
    server.shutdown().await;
}

fn state_of(data: RoomData) -> GameState {
    match data {
        RoomData::Memento(state) => state,
        other => panic!("expected a memento, got {other:?}"),
    }
}

/// An observed, prepared Ostseeschach room whose players have redeemed
/// their reservations: `(admin, one, two, room)`.
async fn observed_prepared_game(
    server: &TestServer,
    pause: bool,
) -> (TestClient, TestClient, TestClient, String) {
    let (admin, players, room) = server
        .observed_prepared(OSTSEE, &["alice", "bob"], pause)
        .await;
    let [one, two] = <[TestClient; 2]>::try_from(players).expect("two players");
    (admin, one, two, room)
}

/// Reads an observer's stream until `left`; returns what it saw.
async fn observe_to_the_end(admin: &mut TestClient) -> Vec<ServerMessage> {
    let mut seen = Vec::new();
    loop {
        let message = admin.message().await;
        let done = matches!(message, ServerMessage::Left { .. });
        seen.push(message);
        if done {
            return seen;
        }
    }
}

#[tokio::test]
async fn a_paused_ostseeschach_room_is_stepped_resumed_observed_and_recorded() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut one, mut two, room) = observed_prepared_game(&server, true).await;
    // The observer gets the initial state when the second player starts
    // the game; the players get their welcome only.
    assert!(matches!(
        admin.message().await,
        ServerMessage::JoinedGameRoom {
            player_count: 1,
            ..
        }
    ));
    let initial = game_of(&state_of(admin.room_data().await));
    assert!(matches!(initial, AnyGame::Ostseeschach2022(_)));
    assert!(matches!(
        admin.message().await,
        ServerMessage::JoinedGameRoom {
            player_count: 2,
            ..
        }
    ));
    assert_eq!(one.room_data().await, RoomData::Welcome { seat: 0 });
    assert_eq!(two.room_data().await, RoomData::Welcome { seat: 1 });
    one.expect_silence(Duration::from_millis(200)).await;

    // Step: the state to the players (and again to the observer) and the
    // request in the 2022 form.
    admin
        .send(&ClientMessage::Step {
            room_id: room.clone(),
            forced: false,
        })
        .await;
    assert_eq!(game_of(&state_of(one.room_data().await)), initial);
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Alias)
    );
    let request = format!("<room roomId=\"{room}\">\n    <data class=\"moveRequest\"/>\n  </room>");
    assert!(String::from_utf8_lossy(&one.raw).contains(&request));
    assert_eq!(state_of(two.room_data().await).turn(), 0);
    assert_eq!(state_of(admin.room_data().await).turn(), 0);

    // While paused, the move's state goes to the observer only.
    one.send_game_move(&room, first_move(&initial)).await;
    let after = game_of(&state_of(admin.room_data().await));
    assert_eq!(after.turn(), 1);
    two.expect_silence(Duration::from_millis(200)).await;

    // Resume: the state to everyone, the request to TWO, `paused false`.
    admin
        .send(&ClientMessage::Pause {
            room_id: room.clone(),
            pause: false,
        })
        .await;
    assert_eq!(game_of(&state_of(two.room_data().await)), after);
    assert_eq!(
        two.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Alias)
    );
    assert_eq!(state_of(one.room_data().await).turn(), 1);
    assert_eq!(state_of(admin.room_data().await).turn(), 1);
    assert_eq!(admin.room_data().await, RoomData::Paused { paused: false });

    // TWO answers the request it has; then both play on to the end.
    two.send_game_move(&room, first_move(&after)).await;
    let think = Duration::from_millis(1);
    let ((a, one), (b, _), observed) = tokio::join!(
        play_on(one, &room, think, Some(after.clone())),
        play_on(two, &room, think, Some(after)),
        observe_to_the_end(&mut admin),
    );
    let result = result_of(&a).expect("a result").clone();
    assert_eq!(result_of(&b), Some(&result));
    assert_eq!(result_of(&observed), Some(&result));
    let last = game_of(mementos(&a).last().expect("states"));
    assert_regular_result(&result, &last);
    // The observer saw every state from turn 1 on, as the players did.
    assert_eq!(mementos(&observed), mementos(&a));
    // Prepared names are in the result; the stream ends with the 2022
    // close element.
    assert_eq!(result.scores[0].display_name, "alice");
    let raw = String::from_utf8_lossy(&one.raw);
    assert!(
        raw.ends_with("<sc.protocol.CloseConnection/>\n</protocol>"),
        "{}",
        &raw[raw.len().saturating_sub(200)..]
    );

    // The replay has the turn-0 state the players saw at the step, each
    // later state and the result.
    let replay = wait_for_replay_of_game(&server.replay_dir, &room, OSTSEE).await;
    assert_eq!(replay.states.len(), last.turn() as usize + 1);
    assert_eq!(replay.states.last(), mementos(&a).last());
    assert_eq!(replay.result, Some(result));
    server.shutdown().await;
}

#[tokio::test]
async fn a_cancelled_ostseeschach_game_has_no_winner() {
    let server = TestServer::start(|_| {}).await;
    let (mut one, mut two, room) = joined_pair_of(&server, OSTSEE).await;
    let mut admin = server.admin().await;
    admin.reads(OSTSEE);
    admin.observe(&room).await;
    admin
        .send(&ClientMessage::Cancel {
            room_id: room.clone(),
        })
        .await;
    for client in [&mut one, &mut two] {
        let rest = client.until_end().await;
        let result = result_of(&rest).expect("a result");
        assert!(result.winners.is_empty(), "{result:?}");
        assert!(
            result.scores.iter().all(|s| s.cause == ScoreCause::Regular
                && s.parts[0].as_integer() == Some(0)
                && s.reason == "Das Spiel wurde von einem Administrator abgebrochen"),
            "{result:?}"
        );
        assert_eq!(
            rest.last(),
            Some(&ServerMessage::Close(CloseElement::Qualified))
        );
    }
    let observed = observe_to_the_end(&mut admin).await;
    assert!(result_of(&observed).is_some_and(|r| r.winners.is_empty()));
    server.shutdown().await;
}

#[tokio::test]
async fn the_built_in_bots_play_ostseeschach_over_tcp() {
    let server = TestServer::start(|_| {}).await;
    // `greedy` (ONE) against `random` (TWO) through the client library:
    // a regular result for the final position and a complete replay.
    let outcome = BackgroundGame::start_game(&server, OSTSEE, Duration::ZERO)
        .await
        .finish()
        .await;
    assert!(outcome.moves > 0);
    assert_eq!(outcome.result.layout, ResultLayout::Season2022);
    server.shutdown().await;
}
