//! The passphrase back-off as `spielleiter serve` wires it: the real binary,
//! its back-off set in a config file, wrong `POST /login`s from one address
//! each waiting its turn and counted in `/metrics`, the right passphrase
//! from another address let in at once, and the web side and the game port
//! keeping one back-off per address, as the protocol's deviations document
//! it: wrong guesses on either port delay the next on the other.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::Path,
    time::{Duration, Instant},
};

use spielleiter_test_support::{Program, Served};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

/// The binary, without settings from the developer's environment that
/// would change what the server asks or allows.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&[
    "SPIELLEITER_CONFIG",
    "SPIELLEITER_ADMIN_PASSPHRASE",
    "SPIELLEITER_HTTP",
    "SPIELLEITER_HTTP_PUBLIC",
    "SPIELLEITER_HTTP_TRUSTED_PROXIES",
    "SPIELLEITER_STORE",
    "SPIELLEITER_SEASON",
]);

const PASSPHRASE: &str = "right-passphrase";

/// The first delay after a failure (the config file's); it doubles with
/// every further failure.
const INITIAL: Duration = Duration::from_millis(300);

/// A running `serve` and its two ports.
struct Server {
    _served: Served,
    game: SocketAddr,
    web: SocketAddr,
}

/// `serve` on free loopback ports with the back-off of `config`, the
/// passphrase and running games shown only after a login; both ports read
/// from its log.
fn serve(dir: &Path, config: &str) -> Server {
    std::fs::write(dir.join("backoff.toml"), config).unwrap();
    let served = SPIELLEITER.serve(
        dir,
        &[
            "--config",
            "backoff.toml",
            "--http-public",
            "false",
            "--admin-passphrase",
            PASSPHRASE,
        ],
    );
    // The game port is logged before the web side's address.
    let game = (served.log.iter())
        .find_map(|line| {
            let (_, rest) = line.split_once("Spielleiter listening on ")?;
            let end = rest.find(['/', ' ']).unwrap_or(rest.len());
            rest[..end].parse::<SocketAddr>().ok()
        })
        .expect("the game port is logged");
    let web = served.address.parse().unwrap();
    Server {
        _served: served,
        game,
        web,
    }
}

fn loopback(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

/// A connection to `addr` from the loopback address `source`.
async fn connect_from(source: Ipv4Addr, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::V4(source), 0)).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `request` on a connection of its own from `source` and reads to
/// the end; the answer as text and when it was complete.
async fn exchange(source: Ipv4Addr, addr: SocketAddr, request: &str) -> (String, Instant) {
    let mut stream = connect_from(source, addr).await;
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("answered and closed in time")
        .unwrap();
    (
        String::from_utf8_lossy(&answer).into_owned(),
        Instant::now(),
    )
}

/// A login attempt over HTTP.
#[derive(Debug)]
struct Attempt {
    /// When it was sent.
    sent: Instant,
    /// When its answer was complete.
    answered: Instant,
    /// The answer, head and body.
    answer: String,
}

impl Attempt {
    fn took(&self) -> Duration {
        self.answered - self.sent
    }
}

/// `POST /login` with `passphrase` from `source`.
async fn login(server: &Server, source: Ipv4Addr, passphrase: &str) -> Attempt {
    let body = format!("passphrase={passphrase}");
    let request = format!(
        "POST /login HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let sent = Instant::now();
    let (answer, answered) = exchange(source, server.web, &request).await;
    Attempt {
        sent,
        answered,
        answer,
    }
}

/// A wrong `POST /login` from `source`: refused back to the form.
async fn wrong_login(server: &Server, source: Ipv4Addr) -> Attempt {
    let attempt = login(server, source, "guess").await;
    assert!(
        attempt.answer.starts_with("HTTP/1.1 303") && attempt.answer.contains("/login?failed"),
        "{attempt:?}"
    );
    attempt
}

/// A wrong `authenticate` on the game port from `source`: answered with
/// the failure, the connection closed.
async fn wrong_authenticate(server: &Server, source: Ipv4Addr) -> Attempt {
    let sent = Instant::now();
    let (answer, answered) = exchange(
        source,
        server.game,
        r#"<protocol><authenticate password="guess"/>"#,
    )
    .await;
    assert!(answer.contains("Failed to authenticate"), "{answer}");
    Attempt {
        sent,
        answered,
        answer,
    }
}

/// `GET path` from `source` with `headers`: the whole answer.
async fn get(server: &Server, source: Ipv4Addr, path: &str, headers: &str) -> String {
    let request =
        format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n{headers}\r\n");
    exchange(source, server.web, &request).await.0
}

/// Fails unless `attempt` was answered no earlier than `delay` after
/// `since` (the sending of the failure before it: the server counted that
/// failure after it was sent, so its turn comes later still).
fn waited(attempt: &Attempt, since: Instant, delay: Duration, what: &str) {
    let waited = attempt.answered - since;
    assert!(
        waited >= delay,
        "{what}: answered {waited:?} after the failing attempt before it was sent, before its turn {delay:?} after that"
    );
}

#[tokio::test]
async fn serve_hands_one_passphrase_back_off_to_both_ports() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(
        dir.path(),
        "[admin]\nbackoff_initial_ms = 300\nbackoff_max_ms = 2400\n",
    );
    let (guesser, admin, other) = (loopback(1), loopback(2), loopback(3));

    // Wrong logins from one address, one after the other: the second waits
    // the initial delay, the third twice that.
    let first = wrong_login(&server, guesser).await;
    let second = wrong_login(&server, guesser).await;
    waited(&second, first.sent, INITIAL, "the second wrong login");
    let third = wrong_login(&server, guesser).await;
    waited(&third, second.sent, INITIAL * 2, "the third wrong login");

    // Meanwhile the right passphrase from another address is let in at
    // once, and its session shows running games.
    let right = login(&server, admin, PASSPHRASE).await;
    assert!(right.answer.starts_with("HTTP/1.1 303"), "{right:?}");
    assert!(right.took() < INITIAL * 2, "{right:?}");
    let session = right
        .answer
        .lines()
        .find_map(|line| line.strip_prefix("set-cookie: "))
        .and_then(|cookie| cookie.split(';').next())
        .expect("a session cookie")
        .to_owned();
    let rooms = get(
        &server,
        admin,
        "/api/rooms",
        &format!("cookie: {session}\r\n"),
    )
    .await;
    assert!(rooms.contains(r#""live":true"#), "{rooms}");

    // The web side's failures delay the game port: the guesser's next
    // `authenticate` waits its turn after the third failure.
    let on_game_port = wrong_authenticate(&server, guesser).await;
    waited(
        &on_game_port,
        third.sent,
        INITIAL * 4,
        "an authenticate after three wrong logins",
    );

    // And the other way round: two wrong `authenticate`s from a third
    // address delay its login, the right one too.
    let one = wrong_authenticate(&server, other).await;
    let two = wrong_authenticate(&server, other).await;
    waited(&two, one.sent, INITIAL, "the second wrong authenticate");
    let after = login(&server, other, PASSPHRASE).await;
    assert!(after.answer.starts_with("HTTP/1.1 303"), "{after:?}");
    assert!(after.answer.contains("set-cookie: "), "{after:?}");
    waited(
        &after,
        two.sent,
        INITIAL * 2,
        "a login after two wrong authenticates",
    );

    // Every failure on either port is counted once.
    let metrics = get(&server, admin, "/metrics", "").await;
    assert!(
        metrics.contains("\nspielleiter_failed_authentications_total 6\n"),
        "{metrics}"
    );
    eprintln!(
        "wrong logins answered in {:?}, {:?}, {:?}; the right one from another address in {:?}; then an authenticate from the guesser in {:?}; two wrong authenticates in {:?}, {:?}, then the right login in {:?}",
        first.took(),
        second.took(),
        third.took(),
        right.took(),
        on_game_port.took(),
        one.took(),
        two.took(),
        after.took()
    );
}
