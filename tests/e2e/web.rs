//! The web side next to real games over TCP: every route with its status,
//! content type and the JSON the pages read, the event stream of a running
//! game, a watcher that does not read, and who may watch on an address
//! other than loopback.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    time::Duration,
};

use spielleiter_e2e::{
    BackgroundGame, TestServer,
    http::{self, Events},
};
use spielleiter_protocol::GameType;
use spielleiter_server::config::HttpPublic;
use spielleiter_web::{Access, EmbeddedWeb, WebLimits, WebSettings};

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
const ALL_INTERFACES: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

/// The web side of `server`, bound to `listen` (port 0) with the access
/// rules of a server listening there.
async fn web(server: &TestServer, listen: IpAddr, access: Access) -> (EmbeddedWeb, SocketAddr) {
    let web = EmbeddedWeb::start(
        SocketAddr::new(listen, 0),
        std::sync::Arc::clone(&server.stats),
        WebSettings {
            access,
            replay_dir: Some(server.replay_dir.clone()),
            limits: WebLimits::default(),
            auth: std::sync::Arc::clone(&server.auth),
        },
    )
    .await
    .unwrap();
    // Requests go over loopback even when the listener is on all
    // interfaces.
    let addr = SocketAddr::new(LOOPBACK, web.addr().port());
    (web, addr)
}

fn open_access() -> Access {
    Access::new(LOOPBACK, HttpPublic::Auto, Some("secret".to_owned()))
}

/// Waits until the room list shows `room` with at least one move played.
async fn until_running(addr: SocketAddr, room: &str) -> serde_json::Value {
    for _ in 0..500 {
        let list = http::get(addr, "/api/rooms").await.json();
        if let Some(view) = list["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == room && r["turn"].as_u64() > Some(0))
        {
            return view.clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("room {room} never showed a move");
}

/// Reads room events until the game is over; returns them all.
async fn until_over(stream: &mut Events) -> Vec<serde_json::Value> {
    let mut views = Vec::new();
    while let Some(event) = stream.next().await {
        assert_eq!(event.name, "room");
        // Two lines: the view without its board, then the board.
        let (json, board) = event.data.split_once('\n').expect("two lines");
        let bare: serde_json::Value = serde_json::from_str(json).unwrap();
        assert!(bare.get("svg").is_none(), "{json}");
        assert!(board.starts_with("<svg") && board.ends_with("</svg>"));
        assert!(!board.contains('\n'));
        let view = event.json();
        let over = view["phase"] == "over";
        views.push(view);
        if over {
            break;
        }
    }
    views
}

/// The pages name games by the titles the server gives: the rules
/// catalogue's, every hosted game once (a test build's test games too).
#[tokio::test]
async fn the_games_titles_come_from_the_catalogue() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(&server, LOOPBACK, open_access()).await;
    let answer = http::get(addr, "/api/games").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.content_type, "application/json");
    let games = answer.json();
    let games = games.as_array().expect("a list");
    assert_eq!(games.len(), spielleiter_rules::GameType::ALL.len());
    for game_type in spielleiter_rules::GameType::ALL {
        assert!(
            games
                .iter()
                .any(|g| g["id"] == game_type.id() && g["title"] == game_type.title()),
            "{game_type}"
        );
    }
    assert!(games.iter().any(|g| g["title"] == "Tic-tac-toe (test)"));
    let script = http::get(addr, "/assets/app.js").await.text();
    assert!(script.contains("/api/games") && !script.contains("Blokus 2021"));
}

#[tokio::test]
async fn every_route_answers_with_its_content_type_and_the_pages_json() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(&server, LOOPBACK, open_access()).await;
    let game = BackgroundGame::start(&server, Duration::from_millis(20)).await;
    let room = game.room_id().to_owned();
    // A room nobody joins: open (waiting) for the whole test.
    waiting_room(&server).await;

    for page in ["/", "/rooms/x", "/replays", "/replays/x.xml", "/login"] {
        let answer = http::get(addr, page).await;
        assert_eq!(answer.status, 200, "{page}");
        assert_eq!(answer.content_type, "text/html; charset=utf-8", "{page}");
        assert!(answer.text().contains("/assets/app.js"), "{page}");
    }
    let script = http::get(addr, "/assets/app.js").await;
    assert_eq!(script.content_type, "text/javascript; charset=utf-8");
    assert!(script.text().contains("function roomPage"));
    let style = http::get(addr, "/assets/app.css").await;
    assert_eq!(style.content_type, "text/css; charset=utf-8");
    assert_eq!(http::get(addr, "/assets/other.js").await.status, 404);
    let health = http::get(addr, "/healthz").await;
    assert_eq!((health.status, health.text().as_str()), (200, "ok\n"));

    // The room list while the game runs.
    let view = until_running(addr, &room).await;
    assert_eq!(view["game"], "swc_2021_blokus");
    assert_eq!(view["phase"], "running");
    let players = view["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["name"], "ref-greedy");
    assert_eq!(players[1]["name"], "ref-random");
    assert!(players.iter().all(|p| p["seated"] == true));
    assert!(
        players
            .iter()
            .all(|p| p["points"].as_array().unwrap().len() == 1)
    );
    assert!(view["svg"].is_null(), "the list leaves the boards out");

    let answer = http::get(addr, &format!("/api/rooms/{room}")).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.content_type, "application/json");
    let one = answer.json();
    assert_eq!(one["id"], room.as_str());
    assert!(one["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(one["opened"].as_u64().unwrap() > 0);
    let board = http::get(addr, &format!("/api/rooms/{room}/board.svg")).await;
    assert_eq!(board.content_type, "image/svg+xml");
    assert!(board.text().contains(r#"data-game="swc_2021_blokus""#));
    let missing = http::get(addr, "/api/rooms/no-such-room").await;
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"].is_string());
    // Nothing on the web side takes a move.
    let post = http::send_form(addr, "POST", &format!("/api/rooms/{room}"), "move=x").await;
    assert_eq!(post.status, 405);

    // A client that sends something unreadable counts as a protocol error.
    let mut confused = server.connect().await;
    confused.send_raw(b"<protocol><nonsense/>").await;
    confused.next().await;
    let metrics = http::get(addr, "/metrics").await;
    assert_eq!(metrics.status, 200);
    assert_eq!(metrics.content_type, "text/plain; version=0.0.4");
    let text = metrics.text();
    assert!(
        text.contains(r#"spielleiter_rooms{game="swc_2021_blokus",phase="waiting"} 1"#),
        "{text}"
    );
    assert!(text.contains("# TYPE spielleiter_move_latency_seconds histogram"));
    assert!(
        text.contains("spielleiter_protocol_errors_total 1\n"),
        "{text}"
    );
    // The two bots and the confused client are connected.
    let open = text
        .lines()
        .find_map(|l| l.strip_prefix("spielleiter_connections "))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap();
    assert!(open >= 3, "{text}");
    assert!(text.contains(r#"spielleiter_connections_total{outcome="served"}"#));

    let outcome = game.finish().await;

    // The finished game: in the list with its result, and as a replay.
    let mut finished = serde_json::Value::Null;
    for _ in 0..200 {
        let list = http::get(addr, "/api/rooms").await.json();
        if let Some(found) = list["finished"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == room.as_str())
        {
            finished = found.clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(finished["phase"], "over");
    let result = &finished["result"];
    assert_eq!(result["scores"].as_array().unwrap().len(), 2);
    assert_eq!(result["scores"][0]["cause"], "REGULAR");
    assert!(result["summary"].as_str().unwrap().len() > 2);
    assert!(finished["clock"].is_null());
    assert!(
        finished["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["seated"] == true),
        "the seats stay taken at the end: {finished}"
    );
    assert!(
        finished["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["to_move"] == false)
    );

    let replay_name = server
        .wait_for_replays(1)
        .await
        .first()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap();
    let replays = http::get(addr, "/api/replays").await;
    assert_eq!(replays.content_type, "application/json");
    let listed = replays.json();
    assert_eq!(listed[0]["name"], replay_name.as_str());
    assert_eq!(listed[0]["game"], "swc_2021_blokus");
    assert!(listed[0]["bytes"].as_u64().unwrap() > 0);
    // The list reads the game's players, outcome and length from the file.
    let summary = &listed[0]["summary"];
    assert_eq!(summary["players"][0], "ref-greedy", "{summary}");
    assert_eq!(summary["outcome"], result["summary"], "{summary}");
    assert!(summary["turns"].as_u64().unwrap() > 0, "{summary}");
    let replay = http::get(addr, &format!("/api/replays/{replay_name}")).await;
    assert_eq!(replay.status, 200);
    let replay = replay.json();
    let frames = replay["frames"].as_array().unwrap();
    assert_eq!(frames.len(), outcome.moves as usize + 1);
    assert_eq!(frames[0]["turn"], 0);
    assert!(
        frames
            .iter()
            .all(|f| f["svg"].as_str().unwrap().starts_with("<svg"))
    );
    assert_eq!(replay["players"][0], "ref-greedy");
    assert_eq!(replay["result"]["summary"], result["summary"]);
    // Every move in words with the think time the server recorded.
    for frame in &frames[1..] {
        assert!(
            frame["words"].as_str().unwrap().contains(" places "),
            "{frame:.300}"
        );
        assert!(frame["think_micros"].is_u64(), "{:.300}", frame.to_string());
    }
    let download = replay["downloads"][0]["href"].as_str().unwrap().to_owned();
    let file = http::get(addr, &download).await;
    assert_eq!(file.status, 200);
    let stored =
        std::fs::read_to_string(server.wait_for_replays(1).await.first().unwrap()).unwrap();
    assert_eq!(file.text(), stored);
    // What the pages read is English, though the wire's result is German
    // (`Gewinner`, `∅ Punkte`); the pictures too.
    for json in [finished.to_string(), replay.to_string()] {
        for german in ["Gewinner", "Punkte", "Spieler", "Zug ", "ä", "ö", "ü", "∅"] {
            assert!(!json.contains(german), "{german} in {json:.300}");
        }
    }
    assert_eq!(result["definition"][0], "win points");
    // The README's name without `.xml` names the same replay.
    let stem = replay_name.trim_end_matches(".xml");
    assert_eq!(
        http::get(addr, &format!("/api/replays/{stem}"))
            .await
            .status,
        200
    );
    for bad in ["/api/replays/..%2Fsecret.xml", "/api/replays/nothing.xml"] {
        assert_eq!(http::get(addr, bad).await.status, 404, "{bad}");
    }

    let text = http::get(addr, "/metrics").await.text();
    assert!(
        text.contains(
            r#"spielleiter_games_finished_total{game="swc_2021_blokus",cause="regular"} 1"#
        ),
        "{text}"
    );
    assert!(text.contains(&format!("spielleiter_moves_total {}", outcome.moves)));
    server.shutdown().await;
}

#[tokio::test]
async fn the_event_stream_shows_every_move_of_a_real_game() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(&server, LOOPBACK, open_access()).await;
    // Slower than the stream's event interval, so every move is an event.
    let game = BackgroundGame::start(&server, Duration::from_millis(60)).await;
    let room = game.room_id().to_owned();
    let mut stream = http::events(addr, &format!("/api/rooms/{room}/events"), &[]).await;
    assert_eq!(stream.status, 200);
    assert_eq!(stream.content_type, "text/event-stream");
    let views = until_over(&mut stream).await;
    let outcome = game.finish().await;
    assert!(
        stream.next().await.is_none(),
        "the stream ends with the game"
    );

    let last = views.last().unwrap();
    assert_eq!(last["phase"], "over");
    assert_eq!(last["result"]["scores"][0]["cause"], "REGULAR");
    assert!(last["clock"].is_null());
    for pair in views.windows(2) {
        assert!(pair[0]["version"].as_u64() < pair[1]["version"].as_u64());
        assert!(pair[0]["turn"].as_u64() <= pair[1]["turn"].as_u64());
    }
    // One event per move (and the start and the end): none skipped.
    let turns: std::collections::BTreeSet<u64> =
        views.iter().filter_map(|v| v["turn"].as_u64()).collect();
    assert!(
        turns.len() as u32 >= outcome.moves.min(10),
        "{} turns seen for {} moves",
        turns.len(),
        outcome.moves
    );
    let running: Vec<&serde_json::Value> =
        views.iter().filter(|v| v["phase"] == "running").collect();
    assert!(!running.is_empty());
    for view in &running {
        let clock = &view["clock"];
        assert_eq!(clock["soft_ms"], 2000);
        assert_eq!(clock["hard_ms"], 10_000);
        let seat = clock["seat"].as_u64().unwrap() as usize;
        assert_eq!(view["players"][seat]["to_move"], true);
        let svg = view["svg"].as_str().unwrap();
        assert!(svg.contains(&format!(r#"data-turn="{}""#, view["turn"])));
    }
    // After the end, the room's last view is still there for a late page.
    let mut late = http::events(addr, &format!("/api/rooms/{room}/events"), &[]).await;
    let only = late.next().await.unwrap().json();
    assert_eq!(only["phase"], "over");
    assert_eq!(only["turn"], last["turn"]);
    assert!(late.next().await.is_none());
    server.shutdown().await;
}

#[tokio::test]
async fn a_page_opened_mid_game_starts_at_the_current_position() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(&server, LOOPBACK, open_access()).await;
    let game = BackgroundGame::start(&server, Duration::from_millis(30)).await;
    let room = game.room_id().to_owned();
    let seen = until_running(addr, &room).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut stream = http::events(addr, &format!("/api/rooms/{room}/events"), &[]).await;
    let first = stream.next().await.unwrap().json();
    assert!(first["turn"].as_u64() > seen["turn"].as_u64(), "{first}");
    assert!(first["svg"].as_str().unwrap().contains("data-color"));
    game.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn watchers_that_do_not_read_never_slow_a_game() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(&server, LOOPBACK, open_access()).await;
    // Bots that answer at once: the game moves as fast as the server can.
    let game = BackgroundGame::start(&server, Duration::ZERO).await;
    let room = game.room_id().to_owned();
    // Watchers that open the stream and never read a byte of it.
    let mut stuck = Vec::new();
    for _ in 0..20 {
        stuck.push(http::events(addr, &format!("/api/rooms/{room}/events"), &[]).await);
    }
    let outcome = tokio::time::timeout(Duration::from_secs(60), game.finish())
        .await
        .expect("the game ends although nobody reads its events");
    assert!(outcome.moves > 0);
    drop(stuck);
    server.shutdown().await;
}

/// The status of `GET path`, without waiting for the body (an event stream
/// of an open room does not end).
async fn status(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> u16 {
    http::events(addr, path, headers).await.status
}

/// A prepared room whose reserved seats nobody takes: open until the
/// server ends, so access to it can be checked without a race.
async fn waiting_room(server: &TestServer) -> String {
    let (_admin, room_id, _codes) = server.prepare(GameType::Blokus2021, &["a", "b"]).await;
    room_id
}

#[tokio::test]
async fn on_other_interfaces_running_games_need_the_passphrase() {
    let server = TestServer::start(|_| {}).await;
    let (_web, addr) = web(
        &server,
        ALL_INTERFACES,
        Access::new(ALL_INTERFACES, HttpPublic::Auto, Some("secret".to_owned())),
    )
    .await;
    let (_public_web, public) = web(
        &server,
        ALL_INTERFACES,
        Access::new(ALL_INTERFACES, HttpPublic::Everyone, None),
    )
    .await;
    let (_closed_web, closed) = web(
        &server,
        ALL_INTERFACES,
        Access::new(ALL_INTERFACES, HttpPublic::Auto, None),
    )
    .await;
    let room = waiting_room(&server).await;
    let paths = [
        format!("/api/rooms/{room}"),
        format!("/api/rooms/{room}/events"),
        format!("/api/rooms/{room}/board.svg"),
    ];

    // Without the passphrase: no open room, and a hint to log in.
    let list = http::get(addr, "/api/rooms").await.json();
    assert_eq!(
        (&list["live"], &list["login"]),
        (&false.into(), &true.into())
    );
    assert!(list["rooms"].as_array().unwrap().is_empty());
    for path in &paths {
        let answer = http::get(addr, path).await;
        assert_eq!(answer.status, 401, "{path}");
        assert_eq!(answer.json()["login"], true, "{path}");
    }

    // Without a passphrase and not public: nobody sees an open room.
    let bearer = [("authorization", "Bearer secret")];
    let list = http::get(closed, "/api/rooms").await.json();
    assert_eq!(
        (&list["live"], &list["login"]),
        (&false.into(), &false.into())
    );
    for path in &paths {
        let answer = http::get_with(closed, path, &bearer).await;
        assert_eq!(answer.status, 401, "{path}");
        assert_eq!(answer.json()["login"], false);
    }

    // With the passphrase as a token, or after a login.
    for path in &paths {
        assert_eq!(status(addr, path, &bearer).await, 200, "{path}");
    }
    let wrong = http::send_form(addr, "POST", "/login", "passphrase=guess").await;
    assert_eq!(wrong.status, 303);
    assert_eq!(wrong.header("location"), Some("/login?failed"));
    assert_eq!(wrong.header("set-cookie"), None);
    let login = http::send_form(addr, "POST", "/login", "passphrase=secret").await;
    assert_eq!(login.status, 303);
    let cookie = login
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_owned();
    let with_cookie = [("cookie", cookie.as_str())];
    let list = http::get_with(addr, "/api/rooms", &with_cookie)
        .await
        .json();
    assert_eq!(list["live"], true);
    assert_eq!(list["rooms"][0]["id"], room.as_str());
    assert_eq!(list["rooms"][0]["phase"], "waiting");
    let mut stream = http::events(addr, &paths[1], &with_cookie).await;
    assert_eq!(stream.status, 200);
    assert_eq!(stream.next().await.unwrap().json()["id"], room.as_str());

    // Public pages show open rooms to everyone.
    for path in &paths {
        assert_eq!(status(public, path, &[]).await, 200, "{path}");
    }

    // Finished games are shown to everyone: the list, the room, the replay.
    let game = BackgroundGame::start(&server, Duration::ZERO).await;
    let finished_room = game.room_id().to_owned();
    game.finish().await;
    let replay = server.wait_for_replays(1).await;
    let name = replay[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for base in [addr, closed] {
        assert_eq!(
            http::get(base, &format!("/api/replays/{name}"))
                .await
                .status,
            200
        );
        assert_eq!(
            http::get(base, "/api/replays").await.json()[0]["name"],
            name.as_str()
        );
        let mut found = false;
        for _ in 0..200 {
            let list = http::get(base, "/api/rooms").await.json();
            let finished = list["finished"].as_array().unwrap();
            if finished.iter().any(|r| r["id"] == finished_room.as_str()) {
                found = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(found, "the finished game is listed");
        let path = format!("/api/rooms/{finished_room}");
        assert_eq!(http::get(base, &path).await.status, 200);
    }
    server.shutdown().await;
}

/// Behind a reverse proxy on loopback that the web side trusts, every
/// visitor's login guesses count against the visitor's own address (the one
/// the proxy names), not the proxy's: a guesser delays nobody else's login.
#[tokio::test]
async fn behind_a_trusted_proxy_a_guesser_delays_only_itself() {
    let server = TestServer::start(|_| {}).await;
    let settings = |trusted: Vec<spielleiter_server::limits::AddressRange>| WebSettings {
        access: Access::new(LOOPBACK, HttpPublic::LoginOnly, Some("secret".to_owned())),
        replay_dir: None,
        limits: WebLimits {
            trusted_proxies: trusted,
            ..WebLimits::default()
        },
        auth: std::sync::Arc::clone(&server.auth),
    };
    let loopback = SocketAddr::new(LOOPBACK, 0);
    let proxied = EmbeddedWeb::start(
        loopback,
        std::sync::Arc::clone(&server.stats),
        settings(vec!["127.0.0.1".parse().unwrap()]),
    )
    .await
    .unwrap();
    let login = |addr, passphrase: &'static str, client: &'static str| async move {
        let form = format!("passphrase={passphrase}");
        let forwarded = [("x-forwarded-for", client)];
        http::send_form_with(addr, "POST", "/login", &form, &forwarded).await
    };
    let guesser = "192.0.2.66";
    for _ in 0..3 {
        let wrong = login(proxied.addr(), "guess", guesser).await;
        assert_eq!(wrong.header("location"), Some("/login?failed"));
    }
    let person = login(proxied.addr(), "secret", "198.51.100.7").await;
    assert_eq!(person.status, 303);
    assert!(person.header("set-cookie").is_some());
    let failures = |ip: &str| server.auth.failures(ip.parse().unwrap());
    assert_eq!(failures(guesser), 3);
    assert_eq!(failures("127.0.0.1"), 0);
    assert_eq!(failures("198.51.100.7"), 0);
    // Not trusted: the header counts for nothing, the proxy's address is
    // the guesser's.
    let direct = EmbeddedWeb::start(
        loopback,
        std::sync::Arc::clone(&server.stats),
        settings(Vec::new()),
    )
    .await
    .unwrap();
    let wrong = login(direct.addr(), "guess", "198.51.100.7").await;
    assert_eq!(wrong.header("location"), Some("/login?failed"));
    assert_eq!(failures("127.0.0.1"), 1);
    assert_eq!(failures("198.51.100.7"), 0);
    server.shutdown().await;
}

/// A player floods the game port with wrong passphrases from loopback, the
/// address of every local player and of a reverse proxy on the same
/// machine. A person behind the proxy, which the web side trusts, logs in
/// and opens a seat: neither waits its turn behind the guesses, as the login
/// counts against the person's own address and the seat reaches the game
/// server in-process. (Either, had it counted against loopback, would have
/// waited its turn and then, being right, reset loopback's back-off.)
#[tokio::test]
async fn a_flood_from_loopback_delays_no_login_behind_a_trusted_proxy_and_no_seat() {
    use std::sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    };

    use spielleiter_e2e::TestClient;
    use spielleiter_protocol::ClientMessage;

    let server = TestServer::start(|config| config.loopback_exempt = true).await;
    let limits = WebLimits {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..WebLimits::default()
    };
    let settings = WebSettings {
        access: Access::new(LOOPBACK, HttpPublic::LoginOnly, Some("secret".to_owned())),
        replay_dir: None,
        limits: limits.clone(),
        auth: Arc::clone(&server.auth),
    };
    let play = spielleiter_web::play::PlaySettings {
        game_addr: server.addr,
        server: server.in_process.clone(),
        max_seats: 1,
        max_seats_per_address: 1,
        idle_limit: Duration::from_secs(600),
        bot_think: Duration::ZERO,
        move_limits: std::collections::BTreeMap::new(),
    };
    let router =
        spielleiter_web::router_with(Arc::clone(&server.stats), settings, None, Some(play));
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(LOOPBACK, 0))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let stats = Arc::clone(&server.stats);
    let serving = tokio::spawn(async move {
        spielleiter_web::serve(listener, router, &limits, stats, std::future::pending()).await
    });

    // Sixteen guessers on the game port.
    let stop = Arc::new(AtomicBool::new(false));
    let guessers: Vec<_> = (0..16)
        .map(|_| {
            let (game_port, stop) = (server.addr, Arc::clone(&stop));
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let mut guesser = TestClient::connect(game_port).await;
                    guesser
                        .send(&ClientMessage::Authenticate {
                            password: "guess".to_owned(),
                        })
                        .await;
                    // Refused, and closed.
                    guesser.until_end().await;
                }
            })
        })
        .collect();
    let failures = |ip: &str| server.auth.failures(ip.parse().unwrap());
    while failures("127.0.0.1") < 4 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // From here on loopback's failures only grow.
    let lowest = Arc::new(std::sync::atomic::AtomicU32::new(u32::MAX));
    let watch = {
        let (auth, lowest, stop) = (
            Arc::clone(&server.auth),
            Arc::clone(&lowest),
            Arc::clone(&stop),
        );
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                lowest.fetch_min(auth.failures(LOOPBACK), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        })
    };

    // The person, behind the proxy: logged in, and a seat.
    let person = [("x-forwarded-for", "198.51.100.7")];
    let form = [
        ("content-type", "application/x-www-form-urlencoded"),
        person[0],
    ];
    let login = http::send_with(addr, "POST", "/login", &form, "passphrase=secret").await;
    assert_eq!(login.status, 303, "{}", login.text());
    assert_eq!(login.header("location"), Some("/"));
    let session = login
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_owned();
    let json = [
        ("content-type", "application/json"),
        ("cookie", session.as_str()),
        person[0],
    ];
    let body = r#"{"game": "swc_2022_ostseeschach", "seat": 0, "others": ["random"]}"#;
    let seat = http::send_with(addr, "POST", "/api/play", &json, body).await;
    assert_eq!(seat.status, 201, "{}", seat.text());
    assert_eq!(failures("198.51.100.7"), 0);
    stop.store(true, Ordering::Relaxed);
    watch.await.unwrap();
    assert!(lowest.load(Ordering::Relaxed) >= 4, "{lowest:?}");
    for guesser in guessers {
        guesser.abort();
    }
    serving.abort();
    server.shutdown().await;
}
