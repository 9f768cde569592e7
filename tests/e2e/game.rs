use std::time::Duration;

use spielleiter_e2e::{TestServer, blokus_of, joined_pair, mementos, play_out, result_of, shape};
use spielleiter_protocol::{ServerMessage, result::ScoreCause, room::RoomData};
use spielleiter_rules::blokus::Team;
use spielleiter_server::stats::ServerStats;

#[tokio::test]
async fn a_whole_game_in_the_official_order() {
    let server = TestServer::start(|_| {}).await;
    let (one, two, room) = joined_pair(&server).await;
    let (a, b) = tokio::join!(
        play_out(one, room.clone(), Duration::ZERO),
        play_out(two, room.clone(), Duration::ZERO)
    );
    let (sa, sb) = (shape(&a), shape(&b));

    // Start: welcome, the turn-0 state; team ONE is asked first.
    assert_eq!(sa[..3], ["welcome ONE", "memento 0", "request"]);
    assert_eq!(sb[..2], ["welcome TWO", "memento 0"]);
    // End: the final state, the result, left, close.
    assert_eq!(sa[sa.len() - 3..], ["result", "left", "close"]);
    assert_eq!(sb[sb.len() - 3..], ["result", "left", "close"]);

    // Both players see exactly the same states, one per move.
    let (ma, mb) = (mementos(&a), mementos(&b));
    assert_eq!(ma, mb);
    assert!(
        ma.windows(2).all(|w| w[0].turn() < w[1].turn()),
        "turns increase"
    );
    let requests = |t: &[String]| t.iter().filter(|s| *s == "request").count();
    assert_eq!(
        requests(&sa) + requests(&sb) + 1,
        ma.len(),
        "one state per move plus the initial one"
    );

    // A player is asked only right after a state in which its team is on
    // turn, and never twice without a state in between.
    for (transcript, team) in [(&a, Team::One), (&b, Team::Two)] {
        let mut last_state = None;
        for message in transcript {
            match message {
                ServerMessage::Room {
                    data: RoomData::Memento(s),
                    ..
                } => last_state = Some(blokus_of(s)),
                ServerMessage::Room {
                    data: RoomData::MoveRequest(_),
                    ..
                } => {
                    let state = last_state
                        .take()
                        .expect("a fresh state before each request");
                    assert_eq!(state.current_team(), team);
                    assert!(!state.is_over());
                }
                _ => {}
            }
        }
    }

    // The result: regular, points as in the final state, winner by points.
    let last = blokus_of(ma.last().unwrap());
    assert!(last.is_over());
    let result = result_of(&a).unwrap();
    assert_eq!(result, result_of(&b).unwrap());
    let points = [last.team_points(Team::One), last.team_points(Team::Two)];
    for (score, own) in result.scores.iter().zip(points) {
        assert_eq!(score.cause, ScoreCause::Regular);
        assert_eq!(score.parts[1].as_integer(), Some(i64::from(own)));
    }
    let expected_winners: Vec<Team> = match points[0].cmp(&points[1]) {
        std::cmp::Ordering::Greater => vec![Team::One],
        std::cmp::Ordering::Less => vec![Team::Two],
        std::cmp::Ordering::Equal => vec![Team::One, Team::Two],
    };
    assert_eq!(
        result
            .winners
            .iter()
            .map(|w| Team::ALL[w.seat])
            .collect::<Vec<_>>(),
        expected_winners
    );

    // The server counted the game, its moves, and its latency for every
    // request that followed a move.
    let stats = &server.stats;
    assert_eq!(ServerStats::get(&stats.games_finished), 1);
    assert_eq!(ServerStats::get(&stats.moves) as usize, ma.len() - 1);
    let requests = requests(&sa) + requests(&sb);
    assert_eq!(stats.move_latency.count() as usize, requests - 1);
    assert!(stats.move_latency.quantile(0.5).is_some());

    // The replay: every state the players saw, then the result.
    let replays = server.wait_for_replays(1).await;
    assert_eq!(replays.len(), 1, "{replays:?}");
    let text = std::fs::read_to_string(&replays[0]).unwrap();
    assert!(
        text.starts_with("<protocol>\n<room roomId=\""),
        "{}",
        &text[..40]
    );
    assert!(text.ends_with("</room>\n</protocol>"));
    let replay = spielleiter_protocol::replay::read_replay(
        text.as_bytes(),
        spielleiter_protocol::GameType::Blokus2021,
    )
    .unwrap();
    assert_eq!(replay.states, ma);
    assert_eq!(replay.result.as_ref(), Some(result));
    server.shutdown().await;
}

#[tokio::test]
async fn the_first_bytes_are_the_official_ones() {
    let server = TestServer::start(|_| {}).await;
    let (mut one, mut two, room) = joined_pair(&server).await;
    // Player one: joined, then welcome ONE, byte for byte.
    let _ = one.message().await;
    let _ = two.message().await;
    let expected = format!(
        "<protocol>\n  <joined roomId=\"{room}\"/>\n  <room roomId=\"{room}\">\n    <data class=\"welcomeMessage\" color=\"ONE\"/>\n  </room>"
    );
    assert!(
        String::from_utf8_lossy(&one.raw).starts_with(&expected),
        "{}",
        String::from_utf8_lossy(&one.raw)
    );
    server.shutdown().await;
}
