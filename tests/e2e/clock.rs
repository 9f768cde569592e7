//! The move clock over real TCP: one smoke test per clock rule in real time
//! (a late move loses, no move loses at the hard limit), the rest on tokio's
//! paused clock, as are the clock tests of the 2027 and BCL layouts
//! (`season2027.rs`, `bcl.rs`); the exact limits are tested on a paused
//! clock in the server crate.

use std::time::Duration;

use spielleiter_e2e::{
    BackgroundGame, TestClient, TestServer, blokus_of, first_legal_move, joined_pair, result_of,
};
use spielleiter_protocol::{
    GameState, ServerMessage, dialect::MoveRequestClass, result::ScoreCause, room::RoomData,
};
use spielleiter_server::config::Overrides;

/// Reads the first player's welcome, the initial state and its move
/// request; returns the initial state.
async fn first_request(one: &mut TestClient) -> GameState {
    let _welcome = one.room_data().await;
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    state
}

#[tokio::test]
async fn a_move_after_the_2_s_soft_limit_loses() {
    let server = TestServer::start(|_| {}).await;
    let background = BackgroundGame::start(&server, Duration::from_millis(20)).await;
    let (mut one, mut two, room) = joined_pair(&server).await;
    let state = first_request(&mut one).await;
    // In time: 1.5 s.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let game = blokus_of(&state);
    one.send_move(&room, first_legal_move(&game)).await;
    let mut after = None;
    while after.is_none() {
        if let RoomData::Memento(s) = two.room_data().await
            && s.turn() == 1
        {
            after = Some(blokus_of(&s));
        }
    }
    assert_eq!(
        two.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    // Late: 2.3 s.
    tokio::time::sleep(Duration::from_millis(2300)).await;
    two.send_move(&room, first_legal_move(&after.unwrap()))
        .await;
    let rest = two.until_end().await;
    let result = result_of(&rest).expect("result");
    assert_eq!(result.scores[1].cause, ScoreCause::SoftTimeout);
    assert_eq!(
        result.scores[1].reason,
        "Der Spieler hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet"
    );
    assert_eq!(result.winners.len(), 1);
    assert_eq!(result.winners[0].seat, 0, "the late player never wins");
    // No state was applied for the late move.
    assert!(!rest.iter().any(
        |m| matches!(m, ServerMessage::Room { data: RoomData::Memento(s), .. } if s.turn() > 1)
    ));
    background.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_player_who_sends_nothing_loses_at_the_hard_limit() {
    let server = TestServer::start(|config| {
        config.apply(Overrides {
            soft_timeout_ms: Some(800),
            hard_timeout_ms: Some(1500),
            ..Overrides::default()
        });
    })
    .await;
    let background = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    let (mut one, mut two, _room) = joined_pair(&server).await;
    let _welcome = one.room_data().await;
    let _initial = one.room_data().await;
    assert_eq!(
        one.room_data().await,
        RoomData::MoveRequest(MoveRequestClass::Qualified)
    );
    let asked = tokio::time::Instant::now();
    let rest = two.until_end().await;
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(1400) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    let result = result_of(&rest).expect("result");
    assert_eq!(result.scores[0].cause, ScoreCause::HardTimeout);
    assert_eq!(result.scores[1].cause, ScoreCause::Regular);
    assert_eq!(result.winners.len(), 1);
    assert_eq!(result.winners[0].seat, 1);
    background.finish().await;
    server.shutdown().await;
}

// On tokio's paused clock: the half minute passes at once.
#[tokio::test(start_paused = true)]
async fn with_timing_off_nobody_is_hurried() {
    // Without replays: the replay thread works in real time, and while a room
    // waits for it at the end of its game the paused clock would jump ahead to
    // the next timer (the test server's shutdown limit among them).
    let server = TestServer::start(|config| {
        config.timeouts = false;
        config.replays = false;
    })
    .await;
    let (mut one, mut two, room) = joined_pair(&server).await;
    let state = first_request(&mut one).await;
    // Longer than the soft (2 s) and the hard limit (10 s) of a timed game.
    tokio::time::sleep(Duration::from_secs(30)).await;
    one.send_move(&room, first_legal_move(&blokus_of(&state)))
        .await;
    let _welcome = two.room_data().await;
    let _initial = two.room_data().await;
    let RoomData::Memento(after) = two.room_data().await else {
        panic!("expected the state after the move");
    };
    assert_eq!(after.turn(), 1);
    server.shutdown().await;
}
