//! The client library and the built-in bots against the real server: whole
//! games through `join` and through prepared rooms with an observer.

use std::time::Duration;

use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, GameReport, PlayOptions, play};
use spielleiter_e2e::TestServer;
use spielleiter_protocol::{
    Prepare, ServerMessage, SlotDescriptor, result::ScoreCause, room::RoomData,
};
use spielleiter_rules::{Game, GameType};

async fn bot_game(mut connection: Connection, room: String, kind: BotKind) -> GameReport {
    let mut bot = kind.build(GameType::Blokus2021, 11).unwrap();
    play(&mut connection, &room, PlayOptions::default(), |game| {
        bot.choose_move(game)
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn two_bots_play_a_whole_game_through_join() {
    let server = TestServer::start(|_| {}).await;
    let mut one = Connection::connect(server.addr).await.unwrap();
    let room = one.join(GameType::Blokus2021).await.unwrap();
    let mut two = Connection::connect(server.addr).await.unwrap();
    assert_eq!(two.join(GameType::Blokus2021).await.unwrap(), room);
    let (a, b) = tokio::join!(
        bot_game(one, room.clone(), BotKind::Greedy),
        bot_game(two, room.clone(), BotKind::Random)
    );
    assert_eq!((a.seat, b.seat), (Some(0), Some(1)));
    let result = a.result.clone().expect("a result");
    assert_eq!(b.result.as_ref(), Some(&result));
    assert!(result.scores.iter().all(|s| s.cause == ScoreCause::Regular));
    assert!(a.errors.is_empty() && b.errors.is_empty(), "{a:?} {b:?}");
    let end = a.final_position().expect("a state").expect("consistent");
    assert!(end.is_over());
    assert_eq!(a.final_state, b.final_state);
    // Every move was requested and applied: the turn count says how many.
    assert!(a.moves_sent + b.moves_sent > 20);
    server.shutdown().await;
}

#[tokio::test]
async fn an_administrator_prepares_observes_and_cancels() {
    let server = TestServer::start(|_| {}).await;
    let mut admin = Connection::connect(server.addr).await.unwrap();
    admin.authenticate(&server.passphrase).await.unwrap();
    let slot = |name: &str| SlotDescriptor {
        display_name: Some(name.to_owned()),
        can_timeout: true,
        reserved: true,
    };
    let prepare = Prepare {
        seed: None,
        wire_log: false,
        game_type: Some("swc_2021_blokus".to_owned()),
        pause: false,
        slots: vec![slot("alice"), slot("bob")],
    };
    let prepared = admin.prepare(prepare.clone()).await.unwrap();
    assert_eq!(prepared.reservations.len(), 2);
    admin
        .observe(&prepared.room_id, GameType::Blokus2021)
        .await
        .unwrap();

    let mut players = Vec::new();
    for (code, kind) in prepared.reservations.iter().zip(BotKind::ALL) {
        let mut connection = Connection::connect(server.addr).await.unwrap();
        let room = connection
            .join_prepared(code, GameType::Blokus2021)
            .await
            .unwrap();
        assert_eq!(room, prepared.room_id);
        players.push(tokio::spawn(bot_game(connection, room, kind)));
    }
    let mut observed_result = None;
    while let Some(message) = tokio::time::timeout(Duration::from_secs(30), admin.recv())
        .await
        .expect("the game ends")
        .unwrap()
    {
        match message {
            ServerMessage::Room {
                data: RoomData::Result(result),
                ..
            } => observed_result = Some(result),
            ServerMessage::Left { .. } => break,
            _ => {}
        }
    }
    for player in players {
        let report = player.await.unwrap();
        assert_eq!(report.result, observed_result);
    }
    let names: Vec<_> = observed_result
        .expect("the observer gets the result")
        .winners
        .into_iter()
        .map(|w| w.display_name)
        .collect();
    assert!(
        names.iter().all(|n| n == "alice" || n == "bob"),
        "{names:?}"
    );

    // A used code is refused; a room nobody joins can be cancelled, and its
    // observer learns the (winnerless) end.
    let mut late = Connection::connect(server.addr).await.unwrap();
    let refused = late
        .join_prepared(&prepared.reservations[0], GameType::Blokus2021)
        .await;
    assert!(
        matches!(
            refused,
            Err(spielleiter_client::ClientError::Refused { .. })
        ),
        "{refused:?}"
    );
    let empty = admin.prepare(prepare).await.unwrap();
    admin
        .observe(&empty.room_id, GameType::Blokus2021)
        .await
        .unwrap();
    admin.cancel(&empty.room_id).await.unwrap();
    let mut cancelled = None;
    while let Some(message) = admin.recv().await.unwrap() {
        match message {
            ServerMessage::Room {
                data: RoomData::Result(result),
                room_id,
            } if room_id == empty.room_id => cancelled = Some(result),
            ServerMessage::Left { room_id } if room_id == empty.room_id => break,
            _ => {}
        }
    }
    assert_eq!(cancelled.expect("a result").winners, Vec::new());
    server.shutdown().await;
}
