//! N seats through the whole server: the rules crate's three-seat test game
//! (`test_counting`, feature `test-games`, which only these tests enable)
//! played by three clients over TCP. The game speaks a dialect of its own,
//! so these tests also show that the server follows a room's dialect: the
//! move request's class, the score definition, zeroed offender parts, and
//! connections that stay open after the game.

use spielleiter_e2e::{TestClient, TestServer, until_result};
use spielleiter_protocol::{
    ClientMessage, GameMove, GameType, ServerMessage, dialect::MoveRequestClass,
    result::GameResult, room::RoomData,
};
use spielleiter_rules::counting::Count;

const GAME: GameType = GameType::TestCounting;

async fn count(client: &mut TestClient, room: &str, amount: u32) {
    client
        .send(&ClientMessage::Move {
            room_id: room.to_owned(),
            mv: GameMove::TestCounting(Count(amount)),
        })
        .await;
}

/// Reads `client`'s packets up to and including the move request;
/// returns its class.
async fn until_request(client: &mut TestClient) -> MoveRequestClass {
    loop {
        if let RoomData::MoveRequest(class) = client.room_data().await {
            return class;
        }
    }
}

fn integers(result: &GameResult) -> Vec<Vec<i64>> {
    result
        .scores
        .iter()
        .map(|s| s.parts.iter().map(|p| p.as_integer().unwrap()).collect())
        .collect()
}

#[tokio::test]
async fn three_players_play_a_game_with_seats_one_two_three() {
    let server = TestServer::start(|_| {}).await;
    let (mut clients, room) = server.seated(GAME).await;
    // Two rounds; seats ONE and THREE tie on 4, TWO has 3.
    for amount_of_seat in [[3, 1, 3], [1, 2, 1]] {
        for (seat, amount) in amount_of_seat.into_iter().enumerate() {
            let class = until_request(&mut clients[seat]).await;
            assert_eq!(class, MoveRequestClass::Alias, "the game's dialect");
            count(&mut clients[seat], &room, amount).await;
        }
    }
    let mut results = Vec::new();
    for client in &mut clients {
        results.push(until_result(client).await);
    }
    let result = &results[0];
    assert!(results.iter().all(|r| r == result), "{results:?}");
    let fragments: Vec<&str> = result.definition.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fragments, ["Siegpunkte", "Summe"]);
    // A shared win: 1 win point each for ONE and THREE.
    assert_eq!(integers(result), [[1, 4], [0, 3], [1, 4]]);
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [0, 2]);
    let raw = String::from_utf8_lossy(&clients[0].raw).into_owned();
    assert!(raw.contains(r#"<data class="welcomeMessage" color="ONE"/>"#));
    assert!(
        raw.contains(r#"<color class="team">THREE</color>"#),
        "{raw}"
    );
    let raw_three = String::from_utf8_lossy(&clients[2].raw).into_owned();
    assert!(raw_three.contains(r#"<data class="welcomeMessage" color="THREE"/>"#));

    // The dialect keeps the connection after the game: the same connection
    // joins a new game.
    let mut again = clients.remove(0);
    again
        .send(&ClientMessage::Join {
            game_type: Some(GAME.id().to_owned()),
        })
        .await;
    let ServerMessage::Joined { room_id } = again.message().await else {
        panic!("expected <joined> on the kept connection");
    };
    assert_ne!(room_id, room);
    server.shutdown().await;
}

#[tokio::test]
async fn an_illegal_move_of_one_of_three_players_lets_both_others_win() {
    let server = TestServer::start(|_| {}).await;
    let (mut clients, room) = server.seated(GAME).await;
    until_request(&mut clients[0]).await;
    count(&mut clients[0], &room, 3).await;
    until_request(&mut clients[1]).await;
    count(&mut clients[1], &room, 7).await;
    let result = until_result(&mut clients[2]).await;
    let causes: Vec<&str> = result.scores.iter().map(|s| s.cause.name()).collect();
    assert_eq!(causes, ["REGULAR", "RULE_VIOLATION", "REGULAR"]);
    assert_eq!(
        result.scores[1].reason,
        "Es darf nur um 1, 2 oder 3 gezählt werden bei Zug 'Zähle 7'"
    );
    // Everybody but the offender wins; the offender's parts are zeroed, as
    // the game's dialect says.
    assert_eq!(integers(&result), [[1, 3], [0, 0], [1, 0]]);
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [0, 2]);
    server.shutdown().await;
}
