#![allow(clippy::unwrap_used)]

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::embedded::EmbeddedWeb;

/// `GET path` on the web side of `dir`: the status and the body.
async fn get(dir: &std::path::Path, path: &str) -> (u16, String) {
    let web = EmbeddedWeb::with_replays_of(dir).await;
    let mut stream = tokio::net::TcpStream::connect(web.addr()).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[tokio::test]
async fn an_unreadable_replay_is_refused_without_the_directory_path() {
    let dir = tempfile::tempdir().unwrap();
    let name = "replay_swc_2021_blokus_2026-01-01_a_b_r.xml";
    std::fs::write(dir.path().join(name), "<protocol>\n<room roomId=").unwrap();
    let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains(name), "{body}");
    let path = dir.path().to_string_lossy();
    assert!(!body.contains(&*path), "{body}");
    assert!(!body.contains("/tmp"), "{body}");
}

#[cfg(unix)]
#[tokio::test]
async fn a_symbolic_link_in_the_replay_directory_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.xml");
    std::fs::write(&secret, "<protocol>\n</protocol>").unwrap();
    let name = "replay_swc_2021_blokus_2026-01-01_a_b_r.xml";
    std::os::unix::fs::symlink(&secret, dir.path().join(name)).unwrap();
    let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no such replay"), "{body}");
    let (status, body) = get(dir.path(), "/api/replays").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, "[]");
}

/// A classic two-player replay of two placements, each with a think
/// time, and no result: the text of the file.
fn classic_replay() -> String {
    use spielleiter_protocol::{GameState, replay::encode_recorded_memento};
    use spielleiter_rules::{
        AnyGame, Game,
        blokus::{Classic, ClassicPlayers},
    };
    let mut game = AnyGame::BlokusClassic2(Classic::new(ClassicPlayers::Two));
    let mut text = b"<protocol>\n".to_vec();
    for think in [None, Some(1234.5), Some(20.0)] {
        if think.is_some() {
            let mut first = None;
            game.for_each_legal_move(|mv| {
                first.get_or_insert(mv);
            });
            game.play(&first.unwrap()).unwrap();
        }
        let state = GameState::of_game(&game, &["alice", "bob"]);
        let think = think.map(|ms: f64| std::time::Duration::from_secs_f64(ms / 1000.0));
        encode_recorded_memento(&mut text, "r", &state, think);
        text.push(b'\n');
    }
    text.extend_from_slice(b"</protocol>");
    String::from_utf8(text).unwrap()
}

#[tokio::test]
async fn the_list_summarises_and_filters_and_the_viewer_has_words_think_times_and_downloads() {
    let dir = tempfile::tempdir().unwrap();
    let name = "replay_blokus_classic_2_2026-01-01_alice_bob_r.xml";
    let text = classic_replay();
    std::fs::write(dir.path().join(name), &text).unwrap();
    std::fs::write(
        dir.path().join("replay_swc_2021_blokus_x.xml"),
        "<protocol><room",
    )
    .unwrap();

    let (status, body) = get(dir.path(), "/api/replays").await;
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    let entry = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap();
    assert_eq!(entry["game"], "blokus_classic_2");
    assert_eq!(
        entry["summary"]["players"],
        serde_json::json!(["alice", "bob"])
    );
    assert_eq!(entry["summary"]["outcome"], "unfinished");
    assert_eq!(entry["summary"]["turns"], 2);
    let broken = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] != name)
        .unwrap();
    assert_eq!(broken["summary"]["outcome"], "unreadable");
    assert!(
        !broken["summary"]["error"]
            .as_str()
            .unwrap()
            .contains("/tmp")
    );

    let count = |body: &str| {
        serde_json::from_str::<serde_json::Value>(body)
            .unwrap()
            .as_array()
            .unwrap()
            .len()
    };
    for (query, expected) in [
        ("?player=ALI", 1),
        ("?player=carol", 0),
        ("?game=blokus_classic_2", 1),
        ("?game=swc_2021_blokus", 1),
        ("?game=swc_2021_blokus&player=bob", 0),
    ] {
        let (status, body) = get(dir.path(), &format!("/api/replays{query}")).await;
        assert_eq!((status, count(&body)), (200, expected), "{query}: {body}");
    }

    let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
    assert_eq!(status, 200, "{body}");
    let replay: serde_json::Value = serde_json::from_str(&body).unwrap();
    let frames = replay["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    assert!(frames[0]["words"].is_null() && frames[0]["think_micros"].is_null());
    let words = frames[1]["words"].as_str().unwrap();
    assert!(words.starts_with("Blue places the "), "{words}");
    assert_eq!(frames[1]["mover"], 0);
    assert_eq!(frames[1]["think_micros"], 1_234_500);
    assert_eq!(frames[2]["think_micros"], 20_000);
    assert!(
        frames[2]["words"]
            .as_str()
            .unwrap()
            .starts_with("Yellow places the ")
    );
    let downloads = replay["downloads"].as_array().unwrap();
    assert_eq!(downloads.len(), 2, "{downloads:?}");

    let (status, file) = get(dir.path(), downloads[0]["href"].as_str().unwrap()).await;
    assert_eq!((status, file), (200, text));
    let (status, record) = get(dir.path(), downloads[1]["href"].as_str().unwrap()).await;
    assert_eq!(status, 200, "{record}");
    assert!(record.starts_with("(;GM[Blokus Two-Player]"), "{record}");
    assert_eq!(record.matches("\n;").count(), 2, "{record}");
    let (status, _) = get(
        dir.path(),
        "/api/replays/replay_swc_2021_blokus_x.xml/blksgf",
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = get(dir.path(), "/api/replays/..%2Fx.xml/file").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_take_is_named_on_the_viewers_board_as_in_its_move_list() {
    use spielleiter_protocol::{GameState, replay::encode_recorded_memento};
    use spielleiter_rules::{AnyGame, ostseeschach::Ostseeschach};
    // A game with a take (the seal's at the last move).
    let mut game = Ostseeschach::new("HMSRHMSR".parse().unwrap());
    let mut text = b"<protocol>\n".to_vec();
    let moves = [
        "0,7-2,6", "7,4-5,3", "0,3-2,2", "5,3-3,4", "0,4-1,3", "7,0-6,2", "2,2-4,1", "3,4-5,3",
        "2,6-3,4", "7,5-6,6", "0,6-1,6", "5,3-4,5", "4,1-6,2",
    ];
    for index in 0..=moves.len() {
        if index > 0 {
            game.play(&moves[index - 1].parse().unwrap()).unwrap();
        }
        let state = GameState::of_game(&AnyGame::Ostseeschach2022(game.clone()), &["a", "b"]);
        encode_recorded_memento(&mut text, "r", &state, None);
        text.push(b'\n');
    }
    text.extend_from_slice(b"</protocol>");
    let dir = tempfile::tempdir().unwrap();
    let name = "replay_swc_2022_ostseeschach_2026-01-01_a_b_r.xml";
    std::fs::write(dir.path().join(name), text).unwrap();

    let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
    assert_eq!(status, 200, "{body}");
    let replay: serde_json::Value = serde_json::from_str(&body).unwrap();
    let takes: Vec<&serde_json::Value> = replay["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["words"]
                .as_str()
                .is_some_and(|w| w.contains(" and takes "))
        })
        .collect();
    assert!(!takes.is_empty(), "no take in {body}");
    for frame in takes {
        let svg = frame["svg"].as_str().unwrap();
        assert!(
            svg.contains("and takes"),
            "the board does not name the take: {svg}"
        );
    }
}
