//! Wire logs over real TCP: a room that keeps one leaves each seat's bytes
//! in and out, with their times, next to its replay; the cap cuts a seat's
//! log with a marker; without `--wire-log` nothing is kept.

use std::{
    io::Read,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::{Path, PathBuf},
    time::{Duration, SystemTime},
};

use spielleiter_e2e::{
    PATIENCE, TestClient, TestServer, first_legal_move, http, joined_pair, play_out, slot,
    until_result, wait_for_replay_of,
};
use spielleiter_protocol::{GameState, GameType, Prepare, RoomData, result::ScoreCause};
use spielleiter_server::{
    config::HttpPublic,
    replay::{archive, names},
};
use spielleiter_web::{Access, EmbeddedWeb, WebLimits, WebSettings};

/// The finished replay of `room` and, once every seat's connection has
/// ended, its wire log's path (`None` if none appears in time).
async fn replay_and_wire_log(dir: &Path, room: &str) -> (PathBuf, Option<PathBuf>) {
    wait_for_replay_of(dir, room).await;
    let replay = archive::find_room(dir, room, SystemTime::UNIX_EPOCH).expect("the replay");
    let name = replay.file_name().and_then(|n| n.to_str()).expect("a name");
    let [wire, _] = names::wire_log_names(name).expect("a replay's name");
    let wire = dir.join(wire);
    let deadline = std::time::Instant::now() + PATIENCE;
    while !wire.exists() && std::time::Instant::now() < deadline {
        tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(10)))
            .await
            .unwrap();
    }
    (replay, wire.exists().then_some(wire))
}

/// The entry headers of a wire log: `(seat, what)` for each, after
/// checking its time stamp (`2026-11-27T11:40:01.123456Z`).
fn entries(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with("  |"))
        .map(|line| {
            let (time, rest) = line.split_once(' ').expect("a time first");
            let shape: String = time
                .chars()
                .map(|c| if c.is_ascii_digit() { '9' } else { c })
                .collect();
            assert_eq!(shape, "9999-99-99T99:99:99.999999Z", "{line:?}");
            let seat = rest
                .split_once("seat ")
                .and_then(|(_, s)| s.split([' ', ':']).next())
                .unwrap_or_default()
                .to_owned();
            (seat, rest.to_owned())
        })
        .collect()
}

/// Reads `client`'s room packets until a move request; returns the last
/// state before it.
async fn until_request(client: &mut TestClient) -> GameState {
    let mut state = None;
    loop {
        match client.room_data().await {
            RoomData::Memento(s) => state = Some(s),
            RoomData::MoveRequest(_) => return state.expect("a state before the request"),
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_prepared_room_keeps_both_directions_of_each_seat_next_to_its_replay() {
    // The server keeps no wire logs; the room asks for one.
    let server = TestServer::start(|_| {}).await;
    let (admin, room, reservations) = server
        .prepare_as(Prepare {
            seed: None,
            wire_log: true,
            game_type: Some(GameType::Blokus2021.id().to_owned()),
            pause: false,
            slots: vec![slot("alice"), slot("bob")],
        })
        .await;
    let players = server.redeemed(GameType::Blokus2021, &reservations).await;
    let [mut alice, mut bob] = <[TestClient; 2]>::try_from(players).expect("two players");
    let state = until_request(&mut alice).await;
    alice
        .send_move(&room, first_legal_move(&spielleiter_e2e::blokus_of(&state)))
        .await;
    // Bob's client breaks the XML at its first move.
    until_request(&mut bob).await;
    let broken = format!("<room roomId=\"{room}\"><data class=\"x\"></rooom></room>");
    bob.send_raw(broken.as_bytes()).await;
    let result = until_result(&mut alice).await;
    assert_eq!(result.scores[1].cause, ScoreCause::Left);
    drop((alice, bob, admin));

    let (replay, wire) = replay_and_wire_log(&server.replay_dir, &room).await;
    let wire = wire.expect("a wire log next to the replay");
    let text = std::fs::read_to_string(&wire).expect("plain text");
    assert!(text.starts_with("# Spielleiter wire log"), "{text}");
    assert!(text.contains("# seat 0: alice\n# seat 1: bob\n"), "{text}");
    let entries = entries(&text);
    for seat in ["0", "1"] {
        for what in ["bytes received", "bytes written"] {
            assert!(
                entries.iter().any(|(s, e)| s == seat && e.ends_with(what)),
                "seat {seat} has {what}: {entries:?}"
            );
        }
    }
    // Each seat's log begins with the request that took the seat.
    let first_of = |seat: usize| {
        let mut lines = text
            .lines()
            .skip_while(|l| !l.contains(&format!(" seat {seat} (")));
        assert!(
            lines.next().is_some_and(|l| l.ends_with("bytes received")),
            "{text}"
        );
        lines.next().expect("its data").to_owned()
    };
    assert!(first_of(0).contains(&reservations[0]), "{}", first_of(0));
    assert!(first_of(1).contains(&reservations[1]), "{}", first_of(1));
    // What the server wrote: the seat's room, and for bob why he lost.
    assert!(text.contains("bytes written\n  |<protocol>\n"), "{text}");
    let joined = format!("bytes written\n  |\n  |  <joined roomId=\"{room}\"/>\n");
    assert_eq!(text.matches(&joined).count(), 2, "{text}");
    assert!(
        text.contains(&format!("  |{broken}")),
        "bob's bytes as sent"
    );
    let error_written = text
        .split("bytes written\n")
        .any(|data| data.lines().take(2).any(|l| l.contains("MalformedXml")));
    assert!(error_written, "{text}");
    assert!(text.contains("  |</protocol>"), "the end of a stream");
    // The replay is the only replay, and the log is named after it.
    let listed: Vec<String> = archive::list(&server.replay_dir)
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    let replay_name = replay.file_name().unwrap().to_str().unwrap().to_owned();
    assert_eq!(listed, vec![replay_name.clone()]);
    assert_eq!(
        wire.file_name().unwrap().to_str().unwrap(),
        replay_name.replace(".xml", ".wire.txt")
    );
    server.shutdown().await;
}

#[tokio::test]
async fn each_seat_is_cut_at_the_cap_with_a_marker() {
    let server = TestServer::start(|config| {
        config.wire_log = true;
        config.wire_log_bytes = 1024;
    })
    .await;
    let (one, two, room) = joined_pair(&server).await;
    let (seen_one, _) = tokio::join!(
        play_out(one, room.clone(), Duration::ZERO),
        play_out(two, room.clone(), Duration::ZERO)
    );
    assert!(spielleiter_e2e::result_of(&seen_one).is_some());
    let (_, wire) = replay_and_wire_log(&server.replay_dir, &room).await;
    let text = std::fs::read_to_string(wire.expect("a wire log")).unwrap();
    for seat in 0..2 {
        let marker = format!("---- cut here: seat {seat}'s log reached its cap of 1024 bytes;");
        assert_eq!(text.matches(&marker).count(), 1, "seat {seat}: {text}");
    }
    // Each seat's data lines hold at most the cap, less what its entries
    // count (and a line break per line of data, and the escapes of the
    // rare non-text byte).
    for seat in 0..2 {
        let mut data = 0;
        let mut ours = false;
        for line in text.lines() {
            if let Some(bytes) = line.strip_prefix("  |") {
                if ours {
                    data += bytes.len() + 1;
                }
            } else if !line.starts_with('#') && !line.is_empty() {
                ours = line.contains(&format!(" seat {seat} "));
            }
        }
        assert!(
            (256..=1024 + 200).contains(&data),
            "seat {seat}: {data} bytes of data"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn without_wire_log_no_file_is_kept() {
    let server = TestServer::start(|_| {}).await;
    let (one, two, room) = joined_pair(&server).await;
    tokio::join!(
        play_out(one, room.clone(), Duration::ZERO),
        play_out(two, room.clone(), Duration::ZERO)
    );
    let dir = server.replay_dir.clone();
    wait_for_replay_of(&dir, &room).await;
    // A stopped server has written everything, a wire log too.
    server.shutdown_keeping_replays().await;
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 1, "only the replay: {files:?}");
    assert!(files[0].ends_with(".xml"), "{files:?}");
    std::fs::remove_dir_all(dir).ok();
}

/// The web side of `server` on all interfaces with `public`'s rule, and
/// the loopback address to ask it on.
async fn web(server: &TestServer, public: HttpPublic) -> (EmbeddedWeb, SocketAddr) {
    let all = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
    let web = EmbeddedWeb::start(
        SocketAddr::new(all, 0),
        std::sync::Arc::clone(&server.stats),
        WebSettings {
            access: Access::new(all, public, Some("secret".to_owned())),
            replay_dir: Some(server.replay_dir.clone()),
            limits: WebLimits::default(),
            auth: std::sync::Arc::clone(&server.auth),
        },
    )
    .await
    .unwrap();
    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), web.addr().port());
    (web, addr)
}

#[tokio::test]
async fn the_replay_page_serves_the_wire_log_to_whoever_may_watch_running_games() {
    for gzip in [false, true] {
        let server = TestServer::start(|config| {
            config.wire_log = true;
            config.replay_gzip = gzip;
        })
        .await;
        let (one, two, room) = joined_pair(&server).await;
        tokio::join!(
            play_out(one, room.clone(), Duration::ZERO),
            play_out(two, room.clone(), Duration::ZERO)
        );
        let (replay, wire) = replay_and_wire_log(&server.replay_dir, &room).await;
        let mut stored = String::new();
        archive::open_path(&wire.expect("a wire log"))
            .unwrap()
            .read_to_string(&mut stored)
            .unwrap();
        let name = replay.file_name().unwrap().to_str().unwrap().to_owned();
        let path = format!("/api/replays/{name}/wire");
        let (_login_web, login_only) = web(&server, HttpPublic::LoginOnly).await;
        let (_open_web, open) = web(&server, HttpPublic::Everyone).await;

        // Where running games need the login, so does the wire log; the
        // replay itself is shown to everyone.
        assert_eq!(http::get(login_only, &path).await.status, 401);
        assert_eq!(
            http::get_with(login_only, &path, &[("authorization", "Bearer wrong")])
                .await
                .status,
            401
        );
        assert_eq!(
            http::get(login_only, &format!("/api/replays/{name}"))
                .await
                .status,
            200
        );
        for (addr, headers) in [
            (login_only, &[("authorization", "Bearer secret")][..]),
            (open, &[][..]),
        ] {
            // A client that accepts gzip gets a compressed log as stored;
            // one that does not, the text (see the web crate's tests).
            let accepting = [headers, &[("accept-encoding", "gzip")]].concat();
            let answer = http::get_with(addr, &path, &accepting).await;
            assert_eq!(answer.status, 200, "{}", answer.text());
            assert!(answer.content_type.starts_with("text/plain"));
            assert_eq!(answer.header("vary"), Some("Accept-Encoding"));
            assert_eq!(http::get_with(addr, &path, headers).await.text(), stored);
            let body = if gzip {
                assert_eq!(answer.header("content-encoding"), Some("gzip"));
                let mut text = String::new();
                flate2::read::GzDecoder::new(&answer.body[..])
                    .read_to_string(&mut text)
                    .unwrap();
                text
            } else {
                answer.text()
            };
            assert_eq!(body, stored);
        }
        // Nothing but a replay's wire log, and nothing outside the directory.
        for bad in [
            format!("/api/replays/{}/wire", name.replace(".xml", ".wire.txt")),
            "/api/replays/..%2Fetc%2Fpasswd/wire".to_owned(),
            "/api/replays/replay_x_none.xml/wire".to_owned(),
        ] {
            assert_eq!(http::get(open, &bad).await.status, 404, "{bad}");
        }
        // The replay page loads the script that shows it.
        let page = http::get(open, &format!("/replays/{name}")).await.text();
        assert!(page.contains("/assets/wire.js"), "{page}");
        let script = http::get(open, "/assets/wire.js").await;
        assert_eq!(script.status, 200);
        assert!(script.text().contains("/wire"));
        server.shutdown().await;
    }
}

#[tokio::test]
async fn a_server_that_stops_leaves_every_wire_log_finished() {
    let server = TestServer::start(|config| config.wire_log = true).await;
    let (one, two, room) = joined_pair(&server).await;
    tokio::join!(
        play_out(one, room.clone(), Duration::ZERO),
        play_out(two, room, Duration::ZERO)
    );
    // At once: the seats' connections may still be closing.
    let dir = server.shutdown_keeping_replays().await;
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[0].ends_with(".wire.txt"), "{files:?}");
    assert!(files[1].ends_with(".xml"), "{files:?}");
    std::fs::remove_dir_all(dir).ok();
}
