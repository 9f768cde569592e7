//! The administrative side: prepare and reservations, observers, pause and
//! step, cancel.

use std::time::Duration;

use spielleiter_e2e::{
    BackgroundGame, TestClient, TestServer, blokus_of, first_legal_move, joined_pair, play_out,
    prepare_request, result_of, slot,
};
use spielleiter_protocol::{
    ClientMessage, GameState, GameType, Prepare, ServerMessage, SlotDescriptor,
    dialect::{CloseElement, MoveRequestClass},
    result::ScoreCause,
    room::RoomData,
};

/// Prepares a Blokus 2021 room with `slots` (paused if `pause`) through
/// `admin`: the room id and the reservation codes.
async fn prepare(
    admin: &mut TestClient,
    pause: bool,
    slots: Vec<SlotDescriptor>,
) -> (String, Vec<String>) {
    admin
        .prepare(prepare_request(GameType::Blokus2021, pause, slots))
        .await
}

fn state_of(data: RoomData) -> GameState {
    match data {
        RoomData::Memento(state) => state,
        other => panic!("expected a memento, got {other:?}"),
    }
}

/// A prepared room (`pause` as given) that an administrator observes and
/// two players have joined by reservation: `(admin, one, two, room)`.
async fn observed_prepared_game(
    server: &TestServer,
    pause: bool,
) -> (TestClient, TestClient, TestClient, String) {
    let (admin, players, room) = server
        .observed_prepared(GameType::Blokus2021, &["a", "b"], pause)
        .await;
    let [one, two] = <[TestClient; 2]>::try_from(players).expect("two players");
    (admin, one, two, room)
}

#[tokio::test]
async fn reservations_decide_the_seat_not_the_order_of_joining() {
    let server = TestServer::start(|_| {}).await;
    let mut admin = server.admin().await;
    let (room, codes) = prepare(&mut admin, false, vec![slot("alice"), slot("bob")]).await;
    assert_eq!(codes.len(), 2);

    // bob redeems first, yet gets seat 2 (team TWO).
    let mut bob = server.connect().await;
    assert_eq!(bob.join_prepared(&codes[1]).await, room);
    let mut alice = server.connect().await;
    assert_eq!(alice.join_prepared(&codes[0]).await, room);
    assert_eq!(alice.room_data().await, RoomData::Welcome { seat: 0 });
    assert_eq!(bob.room_data().await, RoomData::Welcome { seat: 1 });
    let state = state_of(alice.room_data().await);
    assert_eq!(
        state.display_names(),
        ["alice".to_owned(), "bob".to_owned()]
    );

    // Administrators hear of every join.
    for occupied in [1, 2] {
        assert_eq!(
            admin.message().await,
            ServerMessage::JoinedGameRoom {
                room_id: room.clone(),
                player_count: occupied
            }
        );
    }

    // A code works once.
    let mut late = server.connect().await;
    late.send(&ClientMessage::JoinPrepared {
        reservation_code: codes[0].clone(),
    })
    .await;
    assert!(matches!(
        late.message().await,
        ServerMessage::ErrorPacket { .. }
    ));
    server.shutdown().await;
}

#[tokio::test]
async fn an_unreserved_prepared_seat_is_taken_by_join_room() {
    let server = TestServer::start(|_| {}).await;
    let mut admin = server.admin().await;
    let open = SlotDescriptor {
        display_name: Some("guest".to_owned()),
        can_timeout: true,
        reserved: false,
    };
    let (room, codes) = prepare(&mut admin, false, vec![slot("host"), open]).await;
    assert_eq!(codes.len(), 1, "a code only for the reserved seat");
    let mut guest = server.connect().await;
    guest
        .send(&ClientMessage::JoinRoom {
            room_id: room.clone(),
        })
        .await;
    assert_eq!(
        guest.message().await,
        ServerMessage::Joined {
            room_id: room.clone()
        }
    );
    let mut host = server.connect().await;
    host.join_prepared(&codes[0]).await;
    assert_eq!(guest.room_data().await, RoomData::Welcome { seat: 1 });
    assert_eq!(host.room_data().await, RoomData::Welcome { seat: 0 });
    server.shutdown().await;
}

#[tokio::test]
async fn observers_see_every_state_and_the_end() {
    let server = TestServer::start(|_| {}).await;
    let (one, two, room) = joined_pair(&server).await;
    let mut admin = server.admin().await;
    admin
        .send(&ClientMessage::Observe {
            room_id: room.clone(),
        })
        .await;
    // The game may already be running: the observer gets the current state.
    let mut observed = Vec::new();
    let (a, _b) = tokio::join!(
        play_out(one, room.clone(), Duration::from_millis(2)),
        play_out(two, room.clone(), Duration::from_millis(2)),
        async {
            loop {
                let message = admin.message().await;
                let done = matches!(message, ServerMessage::Left { .. });
                observed.push(message);
                if done {
                    break;
                }
            }
        }
    )
    .into_first_two();
    assert_eq!(
        observed[0],
        ServerMessage::Observed {
            room_id: room.clone()
        }
    );
    let turns: Vec<u32> = observed
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Room {
                data: RoomData::Memento(s),
                ..
            } => Some(s.turn()),
            _ => None,
        })
        .collect();
    let player_turns: Vec<u32> = a
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Room {
                data: RoomData::Memento(s),
                ..
            } => Some(s.turn()),
            _ => None,
        })
        .collect();
    assert!(!turns.is_empty());
    assert!(
        player_turns.ends_with(&turns),
        "from the moment it observes, the observer sees what the players see: {turns:?} vs {player_turns:?}"
    );
    assert_eq!(result_of(&observed), result_of(&a));
    server.shutdown().await;
}

/// `tokio::join!` of three futures, keeping the first two results.
trait FirstTwo<A, B> {
    fn into_first_two(self) -> (A, B);
}

impl<A, B, C> FirstTwo<A, B> for (A, B, C) {
    fn into_first_two(self) -> (A, B) {
        (self.0, self.1)
    }
}

#[tokio::test]
async fn a_paused_room_moves_only_when_stepped() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut one, mut two, room) = observed_prepared_game(&server, true).await;
    // The observer hears of both joins, and gets the initial state when the
    // second join starts the game (before that join's notice).
    assert!(matches!(
        admin.message().await,
        ServerMessage::JoinedGameRoom {
            player_count: 1,
            ..
        }
    ));
    let initial = blokus_of(&state_of(admin.room_data().await));
    assert!(matches!(
        admin.message().await,
        ServerMessage::JoinedGameRoom {
            player_count: 2,
            ..
        }
    ));
    // Players get their welcome only.
    assert!(matches!(one.room_data().await, RoomData::Welcome { .. }));
    assert!(matches!(two.room_data().await, RoomData::Welcome { .. }));
    one.expect_silence(Duration::from_millis(200)).await;

    // Step: the state and a request for the player on turn.
    admin
        .send(&ClientMessage::Step {
            room_id: room.clone(),
            forced: false,
        })
        .await;
    assert_eq!(state_of(one.room_data().await).turn(), 0);
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert_eq!(state_of(two.room_data().await).turn(), 0);
    assert_eq!(state_of(admin.room_data().await).turn(), 0);

    // The move's state goes to the observer only, and nobody is asked.
    one.send_move(&room, first_legal_move(&initial)).await;
    let after = blokus_of(&state_of(admin.room_data().await));
    assert_eq!(after.turn(), 1);
    two.expect_silence(Duration::from_millis(200)).await;

    // Resume: the state to everyone, the request, then `paused false`.
    admin
        .send(&ClientMessage::Pause {
            room_id: room.clone(),
            pause: false,
        })
        .await;
    assert_eq!(state_of(two.room_data().await).turn(), 1);
    assert_eq!(
        two.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert_eq!(state_of(one.room_data().await).turn(), 1);
    assert_eq!(state_of(admin.room_data().await).turn(), 1);
    assert_eq!(admin.room_data().await, RoomData::Paused { paused: false });
    server.shutdown().await;
}

#[tokio::test]
async fn a_move_before_any_request_in_a_paused_room_is_a_violation() {
    let server = TestServer::start(|_| {}).await;
    let mut admin = server.admin().await;
    let (room, codes) = prepare(&mut admin, true, vec![slot("a"), slot("b")]).await;
    let players = server.redeemed(GameType::Blokus2021, &codes).await;
    let [mut one, _two] = <[TestClient; 2]>::try_from(players).expect("two players");
    assert!(matches!(one.room_data().await, RoomData::Welcome { .. }));
    // Whatever the move: it is refused before its legality matters.
    one.send_move(
        &room,
        spielleiter_protocol::games::blokus2021::WireMove::Skip(None),
    )
    .await;
    let RoomData::Error { message, .. } = one.room_data().await else {
        panic!("expected a room error");
    };
    assert!(message.contains("has not been requested"), "{message}");
    let rest = one.until_end().await;
    let result = result_of(&rest).expect("result");
    assert_eq!(result.scores[0].cause, ScoreCause::RuleViolation);
    server.shutdown().await;
}

#[tokio::test]
async fn cancel_ends_the_game_without_a_winner() {
    let server = TestServer::start(|_| {}).await;
    let (mut one, mut two, room) = joined_pair(&server).await;
    let mut admin = server.admin().await;
    admin.observe(&room).await;
    admin
        .send(&ClientMessage::Cancel {
            room_id: room.clone(),
        })
        .await;
    for client in [&mut one, &mut two] {
        let rest = client.until_end().await;
        let result = result_of(&rest).expect("result");
        assert!(result.winners.is_empty());
        assert!(
            result
                .scores
                .iter()
                .all(|s| s.reason == "Das Spiel wurde von einem Administrator abgebrochen"),
            "{result:?}"
        );
        assert!(
            result
                .scores
                .iter()
                .all(|s| s.cause == ScoreCause::Regular && s.parts[0].as_integer() == Some(0))
        );
        assert_eq!(
            rest[rest.len() - 1],
            ServerMessage::Close(CloseElement::Short)
        );
    }
    let mut saw_result = false;
    loop {
        match admin.message().await {
            ServerMessage::Room {
                data: RoomData::Result(_),
                ..
            } => saw_result = true,
            ServerMessage::Left { .. } => break,
            _ => {}
        }
    }
    assert!(saw_result);
    // The room is gone.
    admin
        .send(&ClientMessage::Cancel {
            room_id: room.clone(),
        })
        .await;
    let ServerMessage::ErrorPacket { message, .. } = admin.message().await else {
        panic!("expected an error for the removed room");
    };
    assert!(message.contains("Couldn't find a room"), "{message}");
    server.shutdown().await;
}

#[tokio::test]
async fn observers_see_rule_violations() {
    let server = TestServer::start(|_| {}).await;
    let (mut one, _two, room) = joined_pair(&server).await;
    let mut admin = server.admin().await;
    admin.observe(&room).await;
    assert_eq!(state_of(admin.room_data().await).turn(), 0);
    // A skip as a colour's first move is illegal.
    one.send_move(
        &room,
        spielleiter_protocol::games::blokus2021::WireMove::Skip(None),
    )
    .await;
    let RoomData::Error { message, .. } = admin.room_data().await else {
        panic!("expected the observer to see the error");
    };
    assert!(
        message.contains("Der erste Zug muss einen Stein setzen"),
        "{message}"
    );
    assert!(matches!(admin.room_data().await, RoomData::Result(_)));
    server.shutdown().await;
}

/// The official TestClient's way of collecting statistics: test mode on,
/// prepared games, and `scoreForPlayer` as soon as the observer sees a
/// result.
#[tokio::test]
async fn test_mode_scores_are_there_as_soon_as_the_result_is() {
    let server = TestServer::start(|_| {}).await;
    let mut admin = server.admin().await;
    admin
        .send(&ClientMessage::TestMode { test_mode: true })
        .await;
    assert_eq!(
        admin.message().await,
        ServerMessage::Testing { test_mode: true }
    );
    let mut points = Vec::new();
    for game in 1..=2u32 {
        let (room, codes) = prepare(&mut admin, false, vec![slot("alice"), slot("bob")]).await;
        admin
            .send(&ClientMessage::Observe {
                room_id: room.clone(),
            })
            .await;
        let mut players = Vec::new();
        for code in &codes {
            let mut client = server.connect().await;
            client.join_prepared(code).await;
            players.push(tokio::spawn(play_out(client, room.clone(), Duration::ZERO)));
        }
        let result = loop {
            if let ServerMessage::Room {
                data: RoomData::Result(result),
                ..
            } = admin.message().await
            {
                break result;
            }
        };
        points.push(
            result
                .scores
                .iter()
                .map(|s| s.parts.clone())
                .collect::<Vec<_>>(),
        );
        for name in ["alice", "bob"] {
            admin
                .send(&ClientMessage::ScoreForPlayer {
                    display_name: name.to_owned(),
                })
                .await;
        }
        let mut reports = Vec::new();
        while reports.len() < 2 {
            if let ServerMessage::PlayerScore(report) = admin.message().await {
                reports.push(report);
            }
        }
        for (seat, report) in reports.iter().enumerate() {
            assert_eq!(report.number_of_tests, game);
            let wins: i64 = points
                .iter()
                .map(|p| p[seat][0].as_integer().unwrap())
                .sum();
            assert_eq!(report.values[0].value.as_integer(), Some(wins));
            let average = points
                .iter()
                .map(|p| p[seat][1].as_integer().unwrap())
                .sum::<i64>() as f64
                / f64::from(game);
            let reported: f64 = report.values[1].value.to_string().parse().unwrap();
            // Eight significant digits, as the official server keeps them.
            assert!((reported - average).abs() < 1e-4, "{reported} vs {average}");
        }
        for player in players {
            player.await.unwrap();
        }
    }
    admin
        .send(&ClientMessage::ScoreForPlayer {
            display_name: "carol".to_owned(),
        })
        .await;
    assert!(matches!(
        admin.message().await,
        ServerMessage::ErrorPacket { .. }
    ));
    server.shutdown().await;
}

#[tokio::test]
async fn pausing_with_a_request_outstanding_holds_the_next_state_back() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut one, mut two, room) = observed_prepared_game(&server, false).await;
    assert!(matches!(one.room_data().await, RoomData::Welcome { .. }));
    let initial = blokus_of(&state_of(one.room_data().await));
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert!(matches!(two.room_data().await, RoomData::Welcome { .. }));
    assert_eq!(state_of(two.room_data().await).turn(), 0);

    admin
        .send(&ClientMessage::Pause {
            room_id: room.clone(),
            pause: true,
        })
        .await;
    // The observer's stream: joins, the initial state, then `paused true`.
    loop {
        if admin.room_data_or_skip().await == Some(RoomData::Paused { paused: true }) {
            break;
        }
    }
    // The outstanding request may still be answered; its state reaches
    // only the observer.
    one.send_move(&room, first_legal_move(&initial)).await;
    assert_eq!(state_of(admin.room_data().await).turn(), 1);
    two.expect_silence(Duration::from_millis(200)).await;
    one.expect_silence(Duration::from_millis(10)).await;

    admin
        .send(&ClientMessage::Pause {
            room_id: room.clone(),
            pause: false,
        })
        .await;
    assert_eq!(state_of(two.room_data().await).turn(), 1);
    assert_eq!(
        two.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert_eq!(state_of(one.room_data().await).turn(), 1);
    server.shutdown().await;
}

#[tokio::test]
async fn pause_and_resume_without_a_move_send_the_players_nothing() {
    let server = TestServer::start(|_| {}).await;
    let (mut admin, mut one, mut two, room) = observed_prepared_game(&server, false).await;
    assert!(matches!(one.room_data().await, RoomData::Welcome { .. }));
    assert_eq!(state_of(one.room_data().await).turn(), 0);
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    assert!(matches!(two.room_data().await, RoomData::Welcome { .. }));
    assert_eq!(state_of(two.room_data().await).turn(), 0);
    // Paused and resumed while the request is outstanding: the players
    // have the state and the request already.
    for pause in [true, false, true, false] {
        admin
            .send(&ClientMessage::Pause {
                room_id: room.clone(),
                pause,
            })
            .await;
    }
    let mut notices = Vec::new();
    while notices.len() < 4 {
        if let Some(RoomData::Paused { paused }) = admin.room_data_or_skip().await {
            notices.push(paused);
        }
    }
    assert_eq!(notices, [true, false, true, false]);
    one.expect_silence(Duration::from_millis(200)).await;
    two.expect_silence(Duration::from_millis(10)).await;
    server.shutdown().await;
}

/// Issue 24: an administrator's pause storm on a running game costs the
/// players nothing. The players (built-in bots reading normally, with a
/// small outbox so that extra states would show) are not disconnected,
/// the game ends regularly, and the replay holds one state per move: no
/// resume sent a state the players already had.
#[tokio::test]
async fn a_pause_storm_does_not_cost_the_players_their_game() {
    const TOGGLES: usize = 1000;
    let server = TestServer::start(|config| {
        config.player_outbox_bytes = 256 * 1024;
    })
    .await;
    let background = BackgroundGame::start(&server, Duration::from_millis(10)).await;
    let room = background.room_id().to_owned();
    let mut admin = server.admin().await;
    admin.observe(&room).await;
    for _ in 0..TOGGLES {
        for pause in [true, false] {
            admin
                .send(&ClientMessage::Pause {
                    room_id: room.clone(),
                    pause,
                })
                .await;
        }
    }
    // Every toggle took effect in the running game (the observer hears of
    // each), and the game went on to its end.
    let mut notices = 0;
    loop {
        match admin.message().await {
            ServerMessage::Room {
                data: RoomData::Paused { .. },
                ..
            } => notices += 1,
            ServerMessage::Room {
                data: RoomData::Result(_),
                ..
            } => break,
            ServerMessage::ErrorPacket { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
    assert_eq!(notices, 2 * TOGGLES);
    let outcome = background.finish().await;
    assert!(outcome.moves > 0);
    assert_eq!(
        spielleiter_server::stats::ServerStats::get(&server.stats.slow_readers),
        0
    );
    server.shutdown().await;
}

/// Issue 24: pipelined copies of `observe` of one room do not add
/// subscriptions. The observer gets one `observed` and every state once,
/// and the game beside it is undisturbed.
#[tokio::test]
async fn observing_a_room_twice_on_one_connection_is_a_no_op() {
    const COPIES: usize = 10_000;
    let server = TestServer::start(|_| {}).await;
    let background = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    let room = background.room_id().to_owned();
    let mut admin = server.admin().await;
    let observe = format!("<observe roomId=\"{room}\"/>");
    admin.send_raw(observe.repeat(COPIES).as_bytes()).await;
    let mut observed = 0;
    let mut turns = Vec::new();
    loop {
        match admin.message().await {
            ServerMessage::Observed { .. } => observed += 1,
            ServerMessage::Room {
                data: RoomData::Memento(state),
                ..
            } => turns.push(state.turn()),
            ServerMessage::Room {
                data: RoomData::Result(_),
                ..
            } => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(observed, 1);
    // The state when observing began, then each later one once.
    assert!(turns.windows(2).all(|pair| pair[0] < pair[1]), "{turns:?}");
    background.finish().await;
    server.shutdown().await;
}

/// Issue 24: a `prepare` without slots, or with a display name over 100
/// characters, is refused with an error packet and creates no room; the
/// administrator's connection stays open, and the refused name never goes
/// whole into the log.
#[tokio::test]
async fn prepare_without_slots_or_with_an_overlong_name_is_refused() {
    let (log, _capture) = spielleiter_e2e::CapturedLog::install();
    let server = TestServer::start(|_| {}).await;
    let mut admin = server.admin().await;
    let long_name = "x".repeat(400_000);
    let refusals = [
        (vec![], "at least one slot".to_owned()),
        (
            vec![slot("fine"), slot(&long_name)],
            "400000 characters; at most 100".to_owned(),
        ),
    ];
    for (slots, expected) in refusals {
        admin
            .send(&ClientMessage::Prepare(Prepare {
                game_type: Some("swc_2021_blokus".to_owned()),
                pause: false,
                slots,
                seed: None,
                wire_log: false,
            }))
            .await;
        match admin.message().await {
            ServerMessage::ErrorPacket { message, .. } => {
                assert!(message.contains(&expected), "{message}");
            }
            other => panic!("expected an errorpacket, got {other:?}"),
        }
    }
    // Still open, and a name of exactly 100 characters is fine.
    let (room, codes) = prepare(&mut admin, false, vec![slot(&"y".repeat(100)), slot("b")]).await;
    assert_eq!(codes.len(), 2);
    assert!(!room.is_empty());
    server.shutdown().await;
    let text = log.text();
    assert_eq!(
        text.matches("room created").count(),
        1,
        "the refused requests created no room: {}",
        spielleiter_protocol::error::prefix(&text)
    );
    assert!(!text.contains(&"x".repeat(1000)));
}
