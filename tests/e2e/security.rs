//! Passphrase guessing and prepared rooms nobody uses, next to the
//! reference game.

use std::{
    net::{IpAddr, Ipv4Addr},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_e2e::{BackgroundGame, Received, TestClient, TestServer};
use spielleiter_protocol::{ClientMessage, GameType, ServerMessage};
use spielleiter_server::stats::ServerStats;
use tokio::time::Instant;

/// Authenticates and returns the answer: `None` if the server accepted
/// (it says nothing), the error text otherwise.
async fn authenticate(client: &mut TestClient, password: &str) -> Option<String> {
    client
        .send(&ClientMessage::Authenticate {
            password: password.to_owned(),
        })
        .await;
    // Long patience: on the paused clock a guess may wait its turn for
    // minutes. An accepted passphrase is answered by nothing; a request
    // after it shows the connection is an administrator's.
    client
        .send(&ClientMessage::TestMode { test_mode: false })
        .await;
    match client.next_within(Duration::from_secs(3600)).await {
        Some(Received::Message(ServerMessage::Testing { .. })) => None,
        Some(Received::Message(ServerMessage::ErrorPacket { message, .. })) => Some(message),
        other => panic!("expected an answer, got {other:?}"),
    }
}

// On tokio's paused clock: the back-off's minutes pass at once, and the
// clock of the reference game runs on the same clock.
#[tokio::test(start_paused = true)]
async fn a_thousand_wrong_guesses_take_minutes_while_the_right_passphrase_works_elsewhere() {
    let server = TestServer::start(|_| {}).await;
    let reference = BackgroundGame::start(&server, Duration::ZERO).await;
    let started = Instant::now();
    let guesses = Arc::new(AtomicU64::new(0));
    let mut guessers = Vec::new();
    // Sixteen connections at once from one address.
    for _ in 0..16 {
        let (addr, guesses) = (server.addr, Arc::clone(&guesses));
        guessers.push(tokio::spawn(async move {
            while guesses.fetch_add(1, Ordering::Relaxed) < 1000 {
                let mut guesser = TestClient::connect(addr).await;
                let text = authenticate(&mut guesser, "guess").await;
                let text = text.expect("a wrong passphrase is refused");
                assert!(text.contains("Failed to authenticate"), "{text}");
                guesser.expect_closed().await;
            }
        }));
    }
    // Meanwhile the administrator, from another address, gets in at once.
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert!(ServerStats::get(&server.stats.failed_authentications) >= 5);
    let other_host = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    let mut admin = TestClient::connect_from(server.addr, other_host).await;
    let asked = Instant::now();
    assert_eq!(authenticate(&mut admin, &server.passphrase).await, None);
    assert!(
        asked.elapsed() < Duration::from_millis(100),
        "{:?}",
        asked.elapsed()
    );
    for guesser in guessers {
        guesser.await.unwrap();
    }
    let took = started.elapsed();
    assert_eq!(ServerStats::get(&server.stats.failed_authentications), 1000);
    assert!(took >= Duration::from_secs(30), "1,000 guesses in {took:?}");
    reference.finish().await;
    server.shutdown().await;
}

// On tokio's paused clock, as above: sixteen guessers from loopback, the
// address every player on the server's machine has, while the tools of the
// server's own process administer it in-process.
#[tokio::test(start_paused = true)]
async fn players_guessing_on_the_game_port_delay_no_in_process_administrator() {
    use spielleiter_client::{ClientError, Connection};
    use spielleiter_protocol::{Prepare, SlotDescriptor};

    let server = TestServer::start(|_| {}).await;
    let guesses = Arc::new(AtomicU64::new(0));
    let mut guessers = Vec::new();
    for _ in 0..16 {
        let (addr, guesses) = (server.addr, Arc::clone(&guesses));
        guessers.push(tokio::spawn(async move {
            while guesses.fetch_add(1, Ordering::Relaxed) < 100 {
                let mut guesser = TestClient::connect(addr).await;
                let text = authenticate(&mut guesser, "guess").await;
                assert!(text.is_some(), "a wrong passphrase is refused");
                guesser.expect_closed().await;
            }
        }));
    }
    // The back-off of loopback is at its longest now.
    tokio::time::sleep(Duration::from_secs(60)).await;
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let failures = server.auth.failures(loopback);
    assert!(failures >= 8, "{failures} failures");
    let prepare = || Prepare {
        seed: None,
        game_type: Some(GameType::Blokus2021.id().to_owned()),
        pause: false,
        wire_log: false,
        slots: vec![
            SlotDescriptor {
                display_name: None,
                can_timeout: true,
                reserved: true,
            };
            2
        ],
    };
    // The in-process administrator prepares and observes at once: it waits
    // no turn behind the guesses.
    let asked = Instant::now();
    let pipe = server.in_process.administrator().await.unwrap();
    let mut admin = Connection::over(pipe).await.unwrap();
    let prepared = admin.prepare(prepare()).await.unwrap();
    admin
        .observe(&prepared.room_id, GameType::Blokus2021)
        .await
        .unwrap();
    assert!(
        asked.elapsed() < Duration::from_millis(100),
        "{:?}",
        asked.elapsed()
    );
    // An in-process player cannot administer, not even with the right
    // passphrase: refused at once, unchecked, and counted nowhere.
    let counted = ServerStats::get(&server.stats.failed_authentications);
    let asked = Instant::now();
    let pipe = server.in_process.player().await.unwrap();
    let mut player = Connection::over(pipe).await.unwrap();
    player.authenticate(&server.passphrase).await.unwrap();
    let refused = player.prepare(prepare()).await;
    let Err(ClientError::Refused { message, .. }) = refused else {
        panic!("a player's prepare: {refused:?}");
    };
    assert!(message.contains("cannot administer"), "{message}");
    assert!(asked.elapsed() < Duration::from_millis(100));
    assert_eq!(
        ServerStats::get(&server.stats.failed_authentications),
        counted
    );
    for guesser in guessers {
        guesser.await.unwrap();
    }
    let door = server.in_process.clone();
    server.shutdown().await;
    // A stopped server opens no door.
    assert!(door.administrator().await.is_err());
}

#[tokio::test]
async fn a_prepared_room_whose_players_do_not_come_expires_and_administrators_hear_of_it() {
    let server =
        TestServer::start(|config| config.reservation_expiry = Duration::from_secs(1)).await;
    // Prepared too, and running longer than the expiry: it is not touched.
    let reference = BackgroundGame::start(&server, Duration::from_millis(20)).await;
    let (mut admin, room_id, reservations) = server
        .prepare(GameType::Blokus2021, &["early", "never"])
        .await;
    admin
        .send(&ClientMessage::Observe {
            room_id: room_id.clone(),
        })
        .await;
    let mut early = server.connect().await;
    assert_eq!(early.join_prepared(&reservations[0]).await, room_id);
    let prepared_at = Instant::now();

    // The player who came is told the game will not happen, and let go.
    let rest = early.until_end().await;
    let waited = prepared_at.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(10),
        "{waited:?}"
    );
    let result = spielleiter_e2e::result_of(&rest).expect("a result");
    assert!(result.winners.is_empty(), "{result:?}");
    assert!(
        result.scores[0]
            .reason
            .contains("nicht rechtzeitig besetzt"),
        "{result:?}"
    );
    // The administrator hears of it; the unused code is void.
    let mut notice = None;
    let mut observed_result = false;
    while notice.is_none() || !observed_result {
        match admin.message().await {
            ServerMessage::ErrorPacket { message, .. } => notice = Some(message),
            ServerMessage::Room {
                room_id: id,
                data: spielleiter_protocol::room::RoomData::Result(_),
            } if id == room_id => observed_result = true,
            _ => {}
        }
    }
    let notice = notice.unwrap();
    assert!(
        notice.contains(&room_id) && notice.contains("not all used within 1 seconds"),
        "{notice}"
    );
    let mut late = server.connect().await;
    late.send(&ClientMessage::JoinPrepared {
        reservation_code: reservations[1].clone(),
    })
    .await;
    match late.message().await {
        ServerMessage::ErrorPacket { message, .. } => {
            assert!(message.contains("UnknownReservationException"), "{message}")
        }
        other => panic!("expected an error, got {other:?}"),
    }
    reference.finish().await;
    server.shutdown().await;
}
