//! The server's life: graceful shutdown, replay files.

use std::{io::Read, time::Duration};

use spielleiter_e2e::{TestServer, joined_pair, play_out, result_of};
use spielleiter_protocol::{
    GameType, ServerMessage, dialect::CloseElement, replay::read_replay, result::ScoreCause,
};

#[tokio::test]
async fn shutdown_ends_running_games_with_a_result_and_a_replay() {
    let server =
        TestServer::start(|config| config.shutdown_grace = Duration::from_millis(300)).await;
    let (one, two, room) = joined_pair(&server).await;
    // Slow players: the game cannot end within the grace period.
    let players = tokio::spawn(async move {
        tokio::join!(
            play_out(one, room.clone(), Duration::from_millis(100)),
            play_out(two, room, Duration::from_millis(100))
        )
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let addr = server.addr;
    let started = tokio::time::Instant::now();
    let replay_dir = server.shutdown_keeping_replays().await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "shutdown took {:?}",
        started.elapsed()
    );
    let (a, b) = players.await.unwrap();
    for transcript in [&a, &b] {
        let result = result_of(transcript).expect("a result at shutdown");
        assert!(
            result.scores.iter().all(|s| s.cause == ScoreCause::Unknown),
            "{result:?}"
        );
        assert!(result.winners.is_empty());
        assert_eq!(
            transcript.last(),
            Some(&ServerMessage::Close(CloseElement::Short))
        );
    }
    // No new connections.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    // The replay is complete.
    let replays: Vec<_> = std::fs::read_dir(&replay_dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert_eq!(replays.len(), 1, "{replays:?}");
    let text = std::fs::read(&replays[0]).unwrap();
    let replay = read_replay(&text[..], GameType::Blokus2021).unwrap();
    assert_eq!(replay.result.as_ref(), result_of(&a));
    std::fs::remove_dir_all(replay_dir).ok();
}

#[tokio::test]
async fn replays_can_be_gzipped() {
    let server = TestServer::start(|config| config.replay_gzip = true).await;
    let (one, two, room) = joined_pair(&server).await;
    let (a, _) = tokio::join!(
        play_out(one, room.clone(), Duration::ZERO),
        play_out(two, room, Duration::ZERO)
    );
    let replays = server.wait_for_replays(1).await;
    assert_eq!(replays.len(), 1);
    assert!(replays[0].to_string_lossy().ends_with(".xml.gz"));
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&replays[0]).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    let replay = read_replay(&text[..], GameType::Blokus2021).unwrap();
    assert_eq!(replay.result.as_ref(), result_of(&a));
    server.shutdown().await;
}

#[tokio::test]
async fn the_same_seed_gives_the_same_start_pieces() {
    let mut pieces = Vec::new();
    for _ in 0..2 {
        let server = TestServer::start(|config| config.seed = Some(99)).await;
        let mut seen = Vec::new();
        for _ in 0..3 {
            let (mut one, _two, _room) = joined_pair(&server).await;
            let _welcome = one.room_data().await;
            let spielleiter_protocol::room::RoomData::Memento(
                spielleiter_protocol::GameState::Blokus2021(state),
            ) = one.room_data().await
            else {
                panic!("expected the initial state");
            };
            seen.push(state.setup.start_piece);
        }
        pieces.push(seen);
        server.shutdown().await;
    }
    assert_eq!(pieces[0], pieces[1]);
}
