//! The toy game of the README's "Adding a game" (`test_tictactoe`, feature
//! `test-games`, which only these tests enable), played by two clients over
//! TCP through the whole server: what its own commit added (rules, wire,
//! bots, picture, terminal view) is all a game needs to be hosted.

use spielleiter_e2e::{TestClient, TestServer, until_result};
use spielleiter_protocol::{ClientMessage, GameMove, GameType, room::RoomData};
use spielleiter_rules::tictactoe::Mark;

const GAME: GameType = GameType::TestTicTacToe;

/// Reads `client`'s packets up to and including the move request.
async fn until_request(client: &mut TestClient) {
    while !matches!(client.room_data().await, RoomData::MoveRequest(_)) {}
}

async fn mark(client: &mut TestClient, room: &str, cell: u8) {
    client
        .send(&ClientMessage::Move {
            room_id: room.to_owned(),
            mv: GameMove::TestTicTacToe(Mark(cell)),
        })
        .await;
}

#[tokio::test]
async fn two_players_play_tic_tac_toe_until_a_row_wins() {
    let server = TestServer::start(|_| {}).await;
    let (mut clients, room) = server.seated(GAME).await;
    // X (ONE) takes the top row, O (TWO) the start of the middle one.
    for (seat, cell) in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)] {
        until_request(&mut clients[seat]).await;
        mark(&mut clients[seat], &room, cell).await;
    }
    let mut results = Vec::new();
    for client in &mut clients {
        results.push(until_result(client).await);
    }
    let result = &results[0];
    assert_eq!(results[1], *result);
    let fragments: Vec<&str> = result.definition.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fragments, ["Gewinner", "Reihe"]);
    let parts: Vec<Vec<i64>> = result
        .scores
        .iter()
        .map(|s| s.parts.iter().map(|p| p.as_integer().unwrap()).collect())
        .collect();
    assert_eq!(parts, [[2, 1], [0, 0]]);
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [0]);
    let raw = String::from_utf8_lossy(&clients[1].raw).into_owned();
    assert!(raw.contains("<board>XXXOO....</board>"), "{raw}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_mark_on_a_taken_cell_loses_with_the_games_own_text() {
    let server = TestServer::start(|_| {}).await;
    let (mut clients, room) = server.seated(GAME).await;
    until_request(&mut clients[0]).await;
    mark(&mut clients[0], &room, 4).await;
    until_request(&mut clients[1]).await;
    mark(&mut clients[1], &room, 4).await;
    let result = until_result(&mut clients[0]).await;
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [0]);
    assert_eq!(
        result.scores[1].reason,
        "Das Feld ist schon belegt bei Zug 'Setze auf Feld 4'"
    );
    server.shutdown().await;
}

/// A paused room stepped move by move: the move that ends the game sends
/// its state to the players before the result, and the replay ends with
/// it (a paused room otherwise holds a move's state back until the next
/// step, which never comes after the last move).
#[tokio::test]
async fn a_paused_room_stepped_to_its_end_sends_and_records_the_last_state() {
    use spielleiter_protocol::{Prepare, SlotDescriptor};
    let server = TestServer::start(|_| {}).await;
    let slot = SlotDescriptor {
        display_name: None,
        can_timeout: true,
        reserved: true,
    };
    let (mut admin, room, reservations) = server
        .prepare_as(Prepare {
            seed: None,
            wire_log: false,
            game_type: Some(GAME.id().to_owned()),
            pause: true,
            slots: vec![slot.clone(), slot],
        })
        .await;
    admin.reads(GAME);
    let mut clients = server.redeemed(GAME, &reservations).await;
    for (seat, cell) in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)] {
        admin
            .send(&ClientMessage::Step {
                room_id: room.clone(),
                forced: false,
            })
            .await;
        until_request(&mut clients[seat]).await;
        mark(&mut clients[seat], &room, cell).await;
    }
    for client in &mut clients {
        until_result(client).await;
        let raw = String::from_utf8_lossy(&client.raw).into_owned();
        let last_board = raw.find("<board>XXXOO....</board>");
        let result = raw.find("class=\"result\"");
        assert!(
            last_board.is_some() && last_board < result,
            "the last state before the result: {raw}"
        );
    }
    let replays = server.wait_for_replays(1).await;
    let replay = std::fs::read_to_string(&replays[0]).expect("the replay");
    assert!(replay.contains("<board>XXXOO....</board>"), "{replay}");
    server.shutdown().await;
}
