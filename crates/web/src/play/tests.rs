//! The seats' bounds and who may move, against a real game server on
//! loopback: the secret is required and compared exactly, the seat cap
//! holds, a stale or unknown move is refused without being sent, bodies
//! are capped, opening needs what watching running games needs, and a seat
//! whose page goes silent leaves its game.

use std::{sync::Arc, time::Duration};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderValue, Request, StatusCode, header},
};
use spielleiter_server::{
    Config, EmbeddedServer, config::HttpPublic, limits::AuthBackoff, stats::ServerStats,
};
use tower_service::Service;

use super::{
    seat::{Phase, SeatView},
    *,
};
use crate::{access::Access, app::WebSettings};

/// The address the person's browser opens seats from.
const PERSON: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));

async fn game_server() -> EmbeddedServer {
    let config = Config {
        port: 0,
        replays: false,
        ..Config::default()
    };
    EmbeddedServer::start(config).await.expect("a game server")
}

fn settings(server: &EmbeddedServer, max_seats: usize, idle_limit: Duration) -> PlaySettings {
    PlaySettings {
        game_addr: server.addr(),
        server: server.in_process().clone(),
        max_seats,
        // One address opens every seat of these tests.
        max_seats_per_address: max_seats,
        idle_limit,
        bot_think: Duration::ZERO,
        move_limits: std::collections::BTreeMap::new(),
    }
}

fn request(game: GameType, others: Vec<Other>) -> SeatRequest {
    SeatRequest {
        game,
        seat: 0,
        others,
        timed: false,
        wire_log: false,
        name: "person".to_owned(),
    }
}

fn cookie(id: &str, secret: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let value = format!("theme=dark; {SEAT_COOKIE_PREFIX}{id}={secret}");
    headers.insert(
        header::COOKIE,
        HeaderValue::from_str(&value).expect("a header"),
    );
    headers
}

/// Reads seat `id` until `test` holds.
async fn until(
    seats: &Seats,
    id: &str,
    headers: &HeaderMap,
    test: impl Fn(&SeatView) -> bool,
) -> SeatView {
    for _ in 0..1000 {
        let view = seats.view(id, headers).expect("the holder reads its seat");
        if test(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "seat {id} never got there: {:?}",
        seats
            .view(id, headers)
            .map(|v| (v.phase, v.request, v.message))
    );
}

/// Waits until no seat's task runs (their games ended).
async fn until_no_seat_runs(seats: &Seats) {
    for _ in 0..500 {
        if seats.running() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn only_the_secret_holder_reads_and_moves_and_stale_moves_are_not_sent() {
    let server = game_server().await;
    let seats = Seats::new(settings(&server, 2, Duration::from_secs(600)));
    let (id, secret) = seats
        .open(
            PERSON,
            &request(GameType::Blokus2027, vec![Other::Bot(BotKind::Random)]),
        )
        .await
        .expect("a seat");
    assert_eq!(secret.len(), 32, "128 bits as hex");
    let holder = cookie(&id, &secret);
    // No cookie, another seat's, and one character off: refused.
    assert!(matches!(
        seats.view(&id, &HeaderMap::new()),
        Err(PlayError::NotYours)
    ));
    let (other_id, other_secret) = seats
        .open(PERSON, &request(GameType::Blokus2027, vec![Other::Code]))
        .await
        .expect("a second seat");
    assert!(matches!(
        seats.view(&id, &cookie(&other_id, &other_secret)),
        Err(PlayError::NotYours)
    ));
    assert!(matches!(
        seats.view(&id, &cookie(&id, &other_secret)),
        Err(PlayError::NotYours)
    ));
    let changed = if secret.starts_with('0') { '1' } else { '0' };
    let forged = cookie(&id, &format!("{changed}{}", &secret[1..]));
    assert!(matches!(seats.view(&id, &forged), Err(PlayError::NotYours)));
    assert!(matches!(
        seats.play(&id, &forged, 1, 0).await,
        Err(PlayError::NotYours)
    ));
    assert!(matches!(
        seats.view("no-such-seat", &holder),
        Err(PlayError::NoSeat)
    ));

    // The seat of a reservation code shows the code and waits.
    let waiting = seats
        .view(&other_id, &cookie(&other_id, &other_secret))
        .expect("its holder");
    assert_eq!(waiting.phase, Phase::Waiting);
    assert_eq!(waiting.codes.len(), 1);
    assert_eq!(waiting.codes[0].seat, 1);

    // ONE moves first: the person's turn, with the rules' legal moves.
    let view = until(&seats, &id, &holder, |v| v.your_turn).await;
    assert_eq!(view.request, 1);
    assert!(!view.choices.is_empty());
    assert!(
        view.choices
            .iter()
            .all(|c| c.piece.is_some() && !c.cells.is_empty())
    );
    // A move for another request, or no such move: refused, not sent.
    let stale = seats.play(&id, &holder, 7, 0).await;
    assert!(
        matches!(stale, Err(PlayError::Refused(ref why)) if why.contains("not your turn")),
        "{stale:?}"
    );
    let unknown = seats.play(&id, &holder, 1, view.choices.len()).await;
    assert!(matches!(unknown, Err(PlayError::Refused(_))), "{unknown:?}");
    assert!(seats.view(&id, &holder).expect("read").your_turn);
    // The holder's move is played: the bot answers, and the next request
    // comes with the new position.
    seats.play(&id, &holder, 1, 0).await.expect("a legal move");
    let next = until(&seats, &id, &holder, |v| v.request == 2 && v.your_turn).await;
    assert_eq!(next.turn, 2);
    assert!(next.board.cells.iter().filter(|c| c.fill.is_some()).count() >= 10);

    // Leaving ends the game: the person left, the bot won.
    seats.leave(&id, &holder).await.expect("left");
    let left = until(&seats, &id, &holder, |v| v.phase == Phase::Left).await;
    assert!(left.message.as_deref().is_some_and(|m| m.contains("left")));
}

#[tokio::test]
async fn the_seat_cap_holds_until_a_seat_ends() {
    let server = game_server().await;
    let seats = Seats::new(settings(&server, 1, Duration::from_secs(600)));
    let one = request(
        GameType::Ostseeschach2022,
        vec![Other::Bot(BotKind::Random)],
    );
    let (id, secret) = seats.open(PERSON, &one).await.expect("the first seat");
    assert_eq!(seats.running(), 1);
    // From the same address the address's share is reached first.
    assert!(matches!(
        seats.open(PERSON, &one).await,
        Err(PlayError::AddressHoldsItsShare(1))
    ));
    let elsewhere = std::net::IpAddr::from([192, 0, 2, 2]);
    assert!(matches!(
        seats.open(elsewhere, &one).await,
        Err(PlayError::Full(1))
    ));
    assert_eq!(seats.refused(), (1, 1));
    seats.leave(&id, &cookie(&id, &secret)).await.expect("left");
    until_no_seat_runs(&seats).await;
    assert_eq!(seats.running(), 0);
    seats.open(PERSON, &one).await.expect("a seat again");
}

#[tokio::test]
async fn a_request_that_does_not_fit_its_game_is_refused_before_a_room() {
    let server = game_server().await;
    let seats = Seats::new(settings(&server, 2, Duration::from_secs(600)));
    let mut wrong_seat = request(GameType::Blokus2027, vec![Other::Bot(BotKind::Random)]);
    wrong_seat.seat = 2;
    assert!(matches!(
        seats.open(PERSON, &wrong_seat).await,
        Err(PlayError::BadRequest(_))
    ));
    let too_few = request(GameType::BlokusClassic, vec![Other::Bot(BotKind::Random)]);
    assert!(matches!(
        seats.open(PERSON, &too_few).await,
        Err(PlayError::BadRequest(_))
    ));
    // Only blokus_bcl has an `illegal` bot.
    let no_bot = request(GameType::Blokus2027, vec![Other::Bot(BotKind::Illegal)]);
    assert!(
        matches!(seats.open(PERSON, &no_bot).await, Err(PlayError::BadRequest(ref why)) if why.contains("no illegal bot"))
    );
    assert_eq!(ServerStats::get(&server.stats().connections_served), 0);
    assert_eq!(seats.running(), 0);
}

#[tokio::test]
async fn a_seat_whose_page_is_silent_leaves_its_game() {
    let server = game_server().await;
    let idle = Duration::from_secs(120);
    let seats = Seats::new(settings(&server, 1, idle));
    // The other seat waits for a client of the person's own: the person is
    // not on turn (a turn has a limit of its own).
    let (id, secret) = seats
        .open(
            PERSON,
            &request(GameType::Ostseeschach2022, vec![Other::Code]),
        )
        .await
        .expect("a seat");
    let holder = cookie(&id, &secret);
    until(&seats, &id, &holder, |v| v.phase == Phase::Waiting).await;
    // The page does not ask: nothing happens until the idle limit. Time is
    // paused from here; the waiting room has no timer before it.
    tokio::time::pause();
    tokio::time::sleep(idle - Duration::from_secs(1)).await;
    assert_eq!(
        seats.lock().get(&id).expect("kept").view.borrow().phase,
        Phase::Waiting
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    tokio::time::resume();
    until_no_seat_runs(&seats).await;
    let view = seats.view(&id, &holder).expect("still readable");
    assert_eq!(view.phase, Phase::Left, "{:?}", view.message);
    assert!(
        view.message
            .as_deref()
            .is_some_and(|m| m.contains("no request for 2 minutes")),
        "{:?}",
        view.message
    );
    assert_eq!(seats.running(), 0);
}

#[tokio::test]
async fn a_seat_that_polls_but_does_not_move_on_its_turn_leaves_its_game() {
    let server = game_server().await;
    let idle = Duration::from_secs(120);
    let seats = Seats::new(settings(&server, 1, idle));
    let (id, secret) = seats
        .open(
            PERSON,
            &request(
                GameType::Ostseeschach2022,
                vec![Other::Bot(BotKind::Random)],
            ),
        )
        .await
        .expect("a seat");
    let holder = cookie(&id, &secret);
    until(&seats, &id, &holder, |v| v.your_turn).await;
    // The page asks every few seconds, as an open page does, but the person
    // never moves. Time is paused from here; the untimed person's seat and
    // the waiting bot have no timer before the limit.
    tokio::time::pause();
    let polled = |seats: &Seats| seats.view(&id, &holder).expect("readable");
    for _ in 0..(idle.as_secs() / 5 - 1) {
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert_eq!(polled(&seats).phase, Phase::Playing);
    }
    tokio::time::sleep(Duration::from_secs(6)).await;
    tokio::time::resume();
    until_no_seat_runs(&seats).await;
    let view = polled(&seats);
    assert_eq!(view.phase, Phase::Left, "{:?}", view.message);
    assert!(
        view.message
            .as_deref()
            .is_some_and(|m| m.contains("your turn for 2 minutes without a move")),
        "{:?}",
        view.message
    );
    assert_eq!(seats.running(), 0);
}

/// The finished wire logs in `dir`.
fn wire_logs(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(spielleiter_server::replay::names::WIRE_PLAIN))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_seat_opened_with_the_wire_log_leaves_one_next_to_its_replay() {
    let dir = std::env::temp_dir().join(format!("spielleiter-play-wire-{}", uuid::Uuid::new_v4()));
    let config = Config {
        port: 0,
        replay_dir: dir.clone(),
        ..Config::default()
    };
    let server = EmbeddedServer::start(config).await.expect("a game server");
    let seats = Seats::new(settings(&server, 2, Duration::from_secs(600)));
    for wire_log in [false, true] {
        let mut asked = request(
            GameType::Ostseeschach2022,
            vec![Other::Bot(BotKind::Random)],
        );
        asked.wire_log = wire_log;
        let (id, secret) = seats.open(PERSON, &asked).await.expect("a seat");
        let holder = cookie(&id, &secret);
        until(&seats, &id, &holder, |v| v.your_turn).await;
        seats.leave(&id, &holder).await.expect("the holder leaves");
        until_no_seat_runs(&seats).await;
    }
    // A stopped server has written every log (it waits for the replay
    // thread), so that a log of the game that did not ask would be seen.
    server.stop().await.expect("the server stops");
    // Two games, one log: the one asked for, with the person's own bytes.
    let logs = wire_logs(&dir);
    assert_eq!(logs.len(), 1, "{logs:?}");
    let text = std::fs::read_to_string(dir.join(&logs[0])).expect("the log");
    assert!(
        text.contains("joinPrepared"),
        "{}",
        &text[..text.len().min(2000)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The router of a web side with seats, with `access`.
fn router(server: &EmbeddedServer, access: Access) -> axum::Router {
    crate::router_with(
        Arc::clone(server.stats()),
        WebSettings {
            access,
            replay_dir: None,
            limits: crate::WebLimits::default(),
            auth: Arc::new(AuthBackoff::new(
                Duration::from_millis(100),
                Duration::from_secs(1),
            )),
        },
        None,
        Some(settings(server, 2, Duration::from_secs(600))),
    )
}

async fn post(router: &mut axum::Router, path: &str, body: Vec<u8>) -> (StatusCode, String) {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a request");
    let response = router.call(request).await.expect("infallible");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn bodies_are_capped_and_opening_needs_what_watching_needs() {
    let server = game_server().await;
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let mut open = router(&server, Access::new(loopback, HttpPublic::Auto, None));
    let padding = " ".repeat(MAX_BODY_BYTES);
    let large =
        format!(r#"{{"game": "swc_2027_blokus", "seat": 0, "others": ["random"]{padding}}}"#);
    let (status, _) = post(&mut open, "/api/play", large.into_bytes()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, body) = post(&mut open, "/api/play", b"{\"game\": 3}".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("not the expected JSON"), "{body}");
    let (status, body) = post(&mut open, "/api/play/abc/move", b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = post(
        &mut open,
        "/api/play/abc/move",
        br#"{"request": 1, "choice": 0}"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    // On other interfaces running games need the login, and so does a seat.
    let outside = std::net::IpAddr::from([0, 0, 0, 0]);
    let mut closed = router(
        &server,
        Access::new(
            outside,
            HttpPublic::Auto,
            Some("a long passphrase".to_owned()),
        ),
    );
    let fits = br#"{"game": "swc_2027_blokus", "seat": 0, "others": ["random"]}"#.to_vec();
    let (status, body) = post(&mut closed, "/api/play", fits.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(ServerStats::get(&server.stats().connections_served), 0);
    // Open pages: not without saying it is JSON (what another site's page
    // could send), then a seat, its cookie set.
    let plain = Request::post("/api/play")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(fits.clone()))
        .expect("a request");
    let response = open.call(plain).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let request = Request::post("/api/play")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(fits))
        .expect("a request");
    let response = open.call(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("text");
    assert!(
        cookie.starts_with(SEAT_COOKIE_PREFIX)
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
}

#[tokio::test]
async fn a_person_plays_every_game_of_the_catalogue_to_its_end() {
    let server = game_server().await;
    let seats = Seats::new(settings(&server, 1, Duration::from_secs(600)));
    for &game in GameType::ALL {
        // The person sits last, so that the bots move first in some games.
        let mut person = request(
            game,
            vec![Other::Bot(BotKind::Random); game.player_count() - 1],
        );
        person.seat = game.player_count() - 1;
        let (id, secret) = seats
            .open(PERSON, &person)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        let holder = cookie(&id, &secret);
        let mut moves = 0;
        loop {
            let view = until(&seats, &id, &holder, |v| {
                v.your_turn || v.phase == Phase::Over
            })
            .await;
            if view.phase == Phase::Over {
                assert!(
                    view.result.is_some(),
                    "{game}: over without a result: {:?}",
                    view.message
                );
                assert!(view.message.is_none(), "{game}: {:?}", view.message);
                break;
            }
            // The last of the offered moves, whatever kind it is.
            assert!(!view.choices.is_empty(), "{game}: a request without moves");
            seats
                .play(&id, &holder, view.request, view.choices.len() - 1)
                .await
                .unwrap_or_else(|e| panic!("{game}: {e}"));
            moves += 1;
        }
        assert!(moves > 0, "{game}: the person never moved");
        // The seat's task has ended: its place in the cap is free.
        until_no_seat_runs(&seats).await;
        assert_eq!(seats.running(), 0, "{game}");
    }
}

#[tokio::test]
async fn seats_open_in_process_while_nobody_administers_over_tcp() {
    use spielleiter_client::{ClientError, Connection};
    use spielleiter_protocol::{Prepare, ServerMessage, SlotDescriptor};

    // No passphrase: administration over TCP is disabled.
    let server = game_server().await;
    let prepare = || Prepare {
        seed: None,
        game_type: Some(GameType::Blokus2027.id().to_owned()),
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
    // A guess: administration is disabled, as documented for a server
    // without a passphrase, and the connection stays.
    let mut guesser = Connection::connect(server.addr()).await.expect("connects");
    guesser.authenticate("a guess").await.expect("sent");
    let refused = guesser.prepare(prepare()).await;
    let Err(ClientError::Refused { message, .. }) = refused else {
        panic!("prepare without administration: {refused:?}");
    };
    let mut texts = vec![message];
    while let Ok(Ok(Some(message))) =
        tokio::time::timeout(Duration::from_millis(200), guesser.recv()).await
    {
        if let ServerMessage::ErrorPacket { message, .. } = message {
            texts.push(message);
        }
    }
    assert!(
        texts
            .iter()
            .any(|t| t.contains("administration is disabled")),
        "{texts:?}"
    );
    assert_eq!(ServerStats::get(&server.stats().failed_authentications), 0);
    // The web side's seats need no passphrase: a seat opens.
    let seats = Seats::new(settings(&server, 1, Duration::from_secs(600)));
    let (id, secret) = seats
        .open(
            PERSON,
            &request(GameType::Blokus2027, vec![Other::Bot(BotKind::Random)]),
        )
        .await
        .expect("a seat");
    let holder = cookie(&id, &secret);
    until(&seats, &id, &holder, |v| v.your_turn).await;
    // A player's in-process connection (what the seats use) cannot
    // administer: refused at once, nothing counted, nobody delayed.
    let pipe = server.in_process().player().await.expect("a pipe");
    let mut player = Connection::over(pipe).await.expect("speaks");
    player.authenticate("anything").await.expect("sent");
    let refused = player.prepare(prepare()).await;
    let Err(ClientError::Refused { message, .. }) = refused else {
        panic!("prepare by a player: {refused:?}");
    };
    assert!(message.contains("cannot administer"), "{message}");
    assert_eq!(ServerStats::get(&server.stats().failed_authentications), 0);
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    assert_eq!(server.auth().failures(loopback), 0);
}

#[tokio::test]
async fn a_page_that_shows_the_newest_version_gets_no_view_again() {
    let server = game_server().await;
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let mut open = router(&server, Access::new(loopback, HttpPublic::Auto, None));
    // A seat waiting for a client of the person's own: nothing changes.
    let waiting = br#"{"game": "swc_2027_blokus", "seat": 1, "others": ["code"]}"#.to_vec();
    let request = Request::post("/api/play")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(waiting))
        .expect("a request");
    let response = open.call(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("text");
    let pair = cookie.split(';').next().expect("name=value").to_owned();
    let id = pair
        .strip_prefix(SEAT_COOKIE_PREFIX)
        .and_then(|rest| rest.split_once('='))
        .expect("the seat's id")
        .0
        .to_owned();
    let mut get = |path: String| {
        let request = Request::get(path)
            .header(header::COOKIE, pair.clone())
            .body(Body::empty())
            .expect("a request");
        let future = open.call(request);
        async move {
            let response = future.await.expect("infallible");
            assert_eq!(response.status(), StatusCode::OK);
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
                .await
                .expect("a body");
            serde_json::from_slice::<serde_json::Value>(&bytes).expect("JSON")
        }
    };
    let full = get(format!("/api/play/{id}")).await;
    assert_eq!(full["phase"], "waiting");
    assert_eq!(full["codes"][0]["seat"], 0);
    let version = full["version"].as_u64().expect("a version");
    let same = get(format!("/api/play/{id}?since={version}")).await;
    assert_eq!(
        same,
        serde_json::json!({ "version": version, "unchanged": true })
    );
    let older = get(format!("/api/play/{id}?since={}", version + 1)).await;
    assert_eq!(older["phase"], "waiting");
}

#[tokio::test]
async fn a_person_who_asks_to_be_timed_is_told_the_limits() {
    let server = game_server().await;
    let mut play = settings(&server, 2, Duration::from_secs(600));
    let limits = spielleiter_server::clock::TimeLimits {
        soft: Duration::from_secs(2),
        hard: Duration::from_secs(10),
    };
    play.move_limits.insert(GameType::Blokus2027, limits);
    let seats = Seats::new(play);
    let mut timed = request(GameType::Blokus2027, vec![Other::Code]);
    timed.timed = true;
    let (id, secret) = seats.open(PERSON, &timed).await.expect("a seat");
    let view = seats.view(&id, &cookie(&id, &secret)).expect("its holder");
    assert_eq!((view.soft_ms, view.hard_ms), (Some(2000), Some(10_000)));
    let (id, secret) = seats
        .open(PERSON, &request(GameType::Blokus2027, vec![Other::Code]))
        .await
        .expect("a seat");
    let view = seats.view(&id, &cookie(&id, &secret)).expect("its holder");
    assert_eq!((view.timed, view.soft_ms), (false, None));
}

/// `/metrics` as `router` answers it.
async fn metrics(router: &mut axum::Router) -> String {
    let request = Request::get("/metrics")
        .body(Body::empty())
        .expect("a request");
    let response = router.call(request).await.expect("infallible");
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test]
async fn the_metrics_count_the_seats_open_now_and_opened_in_all() {
    let server = game_server().await;
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let mut router = router(&server, Access::new(loopback, HttpPublic::Auto, None));
    let before = metrics(&mut router).await;
    assert!(before.contains("spielleiter_play_seats 0\n"), "{before}");
    assert!(
        before.contains("spielleiter_play_seats_opened_total 0\n"),
        "{before}"
    );
    let body = br#"{"game": "swc_2022_ostseeschach", "seat": 0, "others": ["random"]}"#;
    let request = Request::post("/api/play")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a request");
    let response = router.call(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie_header = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("text")
        .to_owned();
    let (name, secret) = cookie_header
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .expect("name=secret");
    let id = name
        .strip_prefix(SEAT_COOKIE_PREFIX)
        .expect("the seat's cookie");
    let open = metrics(&mut router).await;
    assert!(open.contains("spielleiter_play_seats 1\n"), "{open}");
    assert!(
        open.contains("spielleiter_play_seats_opened_total 1\n"),
        "{open}"
    );

    let leave = Request::post(format!("/api/play/{id}/leave"))
        .header(header::COOKIE, format!("{name}={secret}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .expect("a request");
    let response = router.call(leave).await.expect("infallible");
    assert!(response.status().is_success(), "{:?}", response.status());
    // The seat's task ends soon after; the gauge falls, the counter stays.
    let mut text = String::new();
    for _ in 0..500 {
        text = metrics(&mut router).await;
        if text.contains("spielleiter_play_seats 0\n") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(text.contains("spielleiter_play_seats 0\n"), "{text}");
    assert!(
        text.contains("spielleiter_play_seats_opened_total 1\n"),
        "{text}"
    );
}

#[tokio::test]
async fn a_seat_asks_why_a_click_is_no_move_within_its_budget() {
    let server = game_server().await;
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let mut router = router(&server, Access::new(loopback, HttpPublic::Auto, None));
    let body = br#"{"game": "swc_2022_ostseeschach", "seat": 0, "others": ["random"]}"#;
    let request = Request::post("/api/play")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a request");
    let response = router.call(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::CREATED);
    let pair = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("text")
        .split(';')
        .next()
        .expect("name=secret")
        .to_owned();
    let id = pair
        .strip_prefix(SEAT_COOKIE_PREFIX)
        .and_then(|rest| rest.split_once('='))
        .expect("the seat's id")
        .0
        .to_owned();
    let mut call = |method: &str, path: String, body: String| {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::COOKIE, pair.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .expect("a request");
        let future = router.call(request);
        async move {
            let response = future.await.expect("infallible");
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
                .await
                .expect("a body");
            let json = serde_json::from_slice::<serde_json::Value>(&bytes).expect("JSON");
            (status, json)
        }
    };
    let mut view = serde_json::Value::Null;
    for _ in 0..1000 {
        view = call("GET", format!("/api/play/{id}"), String::new())
            .await
            .1;
        if view["your_turn"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(view["your_turn"], true, "{view}");
    // A click off the board, asked about as fast as a page can: time stands
    // still.
    let why =
        serde_json::json!({ "request": view["request"], "cells": [[-1, -1]], "from": [-1, -1] })
            .to_string();
    tokio::time::pause();
    for asked in 0..QUESTIONS_AT_ONCE {
        let (status, answer) = call("POST", format!("/api/play/{id}/why"), why.clone()).await;
        assert_eq!(status, StatusCode::OK, "question {asked}: {answer}");
        assert!(answer["reason"].is_string(), "{answer}");
    }
    for _ in 0..100 {
        let (status, answer) = call("POST", format!("/api/play/{id}/why"), why.clone()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
        let error = answer["error"].as_str().expect("a reason");
        assert!(error.starts_with("too many questions"), "{error}");
    }
    // The budget comes back as time goes on: one question per interval.
    let interval = Duration::from_millis(1000 / u64::from(QUESTIONS_PER_SECOND));
    tokio::time::advance(interval).await;
    let (status, _) = call("POST", format!("/api/play/{id}/why"), why.clone()).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call("POST", format!("/api/play/{id}/why"), why.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    tokio::time::resume();
    let text = metrics(&mut router).await;
    assert!(
        text.contains("spielleiter_play_questions_refused_total 101\n"),
        "{text}"
    );
}

/// A web side served in the test; stops when dropped.
struct Serving(tokio::task::JoinHandle<std::io::Result<()>>);

impl Drop for Serving {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A web side with seats by `play`, served over TCP on loopback; dropping
/// the handle stops it.
async fn served(server: &EmbeddedServer, play: PlaySettings) -> (std::net::SocketAddr, Serving) {
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let settings = WebSettings::new(Access::new(loopback, HttpPublic::Auto, None), None);
    let limits = settings.limits.clone();
    let router = crate::router_with(Arc::clone(server.stats()), settings, None, Some(play));
    let listener = tokio::net::TcpListener::bind((loopback, 0))
        .await
        .expect("a port");
    let addr = listener.local_addr().expect("its address");
    let stats = Arc::clone(server.stats());
    let task = tokio::spawn(async move {
        crate::serve(listener, router, &limits, stats, std::future::pending()).await
    });
    (addr, Serving(task))
}

/// An answer of [`http`]: status, headers (names in lower case), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// One HTTP/1.1 request to `web` over a new connection from address
/// `from` (any of 127.0.0.0/8 on loopback).
async fn http(
    web: std::net::SocketAddr,
    from: std::net::IpAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Answer {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .bind((from, 0).into())
        .expect("binds the client's address");
    let mut stream = socket.connect(web).await.expect("connects");
    let cookie = cookie.map_or(String::new(), |c| format!("cookie: {c}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/json\r\n{cookie}content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("an answer in time")
        .expect("read");
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// Opens an Ostseeschach seat against the random bot from `from`.
async fn open_over_http(web: std::net::SocketAddr, from: std::net::IpAddr) -> Answer {
    let body = r#"{"game": "swc_2022_ostseeschach", "seat": 0, "others": ["random"]}"#;
    http(web, from, "POST", "/api/play", None, body).await
}

/// The seat's id and its cookie (`name=secret`) from an opening answer.
fn seat_of(opened: &Answer) -> (String, String) {
    let cookie = opened.header("set-cookie").expect("a cookie");
    let pair = cookie.split(';').next().expect("name=value").to_owned();
    let id = pair
        .strip_prefix(SEAT_COOKIE_PREFIX)
        .and_then(|rest| rest.split_once('='))
        .expect("the seat's id")
        .0
        .to_owned();
    (id, pair)
}

#[tokio::test]
async fn one_address_holds_one_seat_until_its_game_ends() {
    let server = game_server().await;
    let mut play = settings(&server, 3, Duration::from_secs(600));
    play.max_seats_per_address = 1;
    let (web, _serving) = served(&server, play).await;
    let first = std::net::IpAddr::from([127, 0, 0, 1]);
    let second = std::net::IpAddr::from([127, 0, 0, 2]);

    let opened = open_over_http(web, first).await;
    assert_eq!(opened.status, 201, "{}", opened.body);
    let (id, cookie) = seat_of(&opened);
    // The same address again: refused in words the page shows, while
    // seats are free for others.
    let refused = open_over_http(web, first).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(
        refused.json()["error"],
        "you already play in 1 game here; finish or leave one first"
    );
    let other = open_over_http(web, second).await;
    assert_eq!(other.status, 201, "{}", other.body);
    let metrics = http(web, first, "GET", "/metrics", None, "").await.body;
    assert!(
        metrics.contains("spielleiter_play_seats_refused_total{reason=\"per_address\"} 1\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("spielleiter_play_seats_refused_total{reason=\"all_taken\"} 0\n"),
        "{metrics}"
    );

    // The first address plays its game to its end (the last offered move
    // each time) ...
    let view_path = format!("/api/play/{id}");
    let move_path = format!("/api/play/{id}/move");
    let mut ended = false;
    for _ in 0..5000 {
        let view = http(web, first, "GET", &view_path, Some(&cookie), "")
            .await
            .json();
        if !view["result"].is_null() {
            ended = true;
            break;
        }
        if view["your_turn"] == true {
            let choices = view["choices"].as_array().expect("choices").len();
            let body = format!(
                r#"{{"request": {}, "choice": {}}}"#,
                view["request"],
                choices - 1
            );
            let moved = http(web, first, "POST", &move_path, Some(&cookie), &body).await;
            assert_eq!(moved.status, 204, "{}", moved.body);
        } else {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    assert!(ended, "the first address's game did not end");
    // ... and may take a seat again.
    let again = open_over_http(web, first).await;
    assert_eq!(again.status, 201, "{}", again.body);
}

#[tokio::test]
async fn a_refused_click_is_explained_over_http_without_a_move() {
    let server = game_server().await;
    let (web, _serving) = served(&server, settings(&server, 1, Duration::from_secs(600))).await;
    let person = std::net::IpAddr::from([127, 0, 0, 1]);
    let body = r#"{"game": "swc_2027_blokus", "seat": 0, "others": ["random"]}"#;
    let opened = http(web, person, "POST", "/api/play", None, body).await;
    assert_eq!(opened.status, 201, "{}", opened.body);
    let (id, cookie) = seat_of(&opened);
    let view_path = format!("/api/play/{id}");
    let mut view = serde_json::Value::Null;
    for _ in 0..1000 {
        view = http(web, person, "GET", &view_path, Some(&cookie), "")
            .await
            .json();
        if view["your_turn"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(view["your_turn"], true, "{view}");
    let request = view["request"].as_u64().expect("a request");
    // The first offered placement moved off the board's left.
    let offered = &view["choices"][0];
    let name = offered["piece"].as_str().expect("a piece");
    let cells: Vec<[i64; 2]> = offered["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| [c[0].as_i64().expect("x") - 30, c[1].as_i64().expect("y")])
        .collect();
    let why_path = format!("/api/play/{id}/why");
    let attempt = serde_json::json!({ "request": request, "piece": name, "cells": cells });
    let answer = http(
        web,
        person,
        "POST",
        &why_path,
        Some(&cookie),
        &attempt.to_string(),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let reason = answer.json()["reason"]
        .as_str()
        .expect("a reason")
        .to_owned();
    assert_eq!(
        reason,
        format!(
            "The {} cannot go there: part of it would be off the board.",
            spielleiter_render::blokus::piece_noun(name)
        )
    );
    // Nothing was sent: the same request is still open.
    let after = http(web, person, "GET", &view_path, Some(&cookie), "")
        .await
        .json();
    assert_eq!(
        (after["request"].as_u64(), &after["your_turn"]),
        (Some(request), &serde_json::Value::Bool(true))
    );
    // Only the seat's holder asks, and only for the open request.
    let stranger = http(web, person, "POST", &why_path, None, &attempt.to_string()).await;
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    // Someone else's page of the seat learns its room, to watch, and
    // nothing of the seat.
    let watcher = http(web, person, "GET", &view_path, None, "").await;
    assert_eq!(watcher.status, 403, "{}", watcher.body);
    let watcher = watcher.json();
    assert_eq!(watcher["room"], view["room_id"], "{watcher}");
    assert!(watcher["room"].is_string(), "{watcher}");
    assert!(watcher.get("choices").is_none() && watcher.get("board").is_none());
    let stale = serde_json::json!({ "request": request + 1, "piece": name, "cells": cells });
    let stale = http(
        web,
        person,
        "POST",
        &why_path,
        Some(&cookie),
        &stale.to_string(),
    )
    .await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("not your turn"), "{}", stale.body);
    let unknown = r#"{"request": 1, "cells": [], "what": 1}"#;
    let unknown = http(web, person, "POST", &why_path, Some(&cookie), unknown).await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
}
