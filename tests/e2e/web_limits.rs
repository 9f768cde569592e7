//! The web side's own budget next to a real game: slow-header connections
//! up to the web side's caps and beyond (in a child process whose
//! open-file limit is just what the configured caps need), passphrase
//! guessing over HTTP against the game port's back-off, event streams per
//! address, `http.public = false` on loopback, and the stall limit on a
//! request body that trickles and on an answer its reader stops taking.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use spielleiter_e2e::{BackgroundGame, TestClient, TestServer, prepare_request, slot};
use spielleiter_protocol::GameType;
use spielleiter_server::{Config, config::HttpPublic};
use spielleiter_web::{Access, EmbeddedWeb, WebLimits, WebSettings};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

/// Set in the child process that runs a test under a low open-file limit.
const CHILD: &str = "SPIELLEITER_E2E_LOW_FILE_LIMIT";

fn loopback(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

/// A connection to `addr` from the loopback address `source` (all of
/// 127.0.0.0/8 is this machine).
async fn connect_from(source: Ipv4Addr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(source), 0))?;
    socket.connect(addr).await
}

/// One request on a connection of its own from `source`; the status and
/// the whole answer, or `None` if the connection was closed without one.
async fn request_from(source: Ipv4Addr, addr: SocketAddr, request: &str) -> Option<(u16, String)> {
    let mut stream = connect_from(source, addr).await.ok()?;
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("the web side answers or closes")
        .ok()?;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split(' ').nth(1)?.parse().ok()?;
    Some((status, text))
}

fn get(path: &str, headers: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n{headers}\r\n")
}

fn login(passphrase: &str) -> String {
    let body = format!("passphrase={passphrase}");
    format!(
        "POST /login HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// `/healthz` from `source`: how long the answer took, or `None` if the
/// connection was refused.
async fn health_from(source: Ipv4Addr, addr: SocketAddr) -> Option<Duration> {
    let start = Instant::now();
    let (status, text) = request_from(source, addr, &get("/healthz", "")).await?;
    (status == 200 && text.ends_with("ok\n")).then(|| start.elapsed())
}

/// A connection that starts a request and never finishes its headers.
struct Slow {
    stream: TcpStream,
    opened: Instant,
}

async fn slow_from(source: Ipv4Addr, addr: SocketAddr) -> Slow {
    let opened = Instant::now();
    let mut stream = connect_from(source, addr).await.unwrap();
    // The server may have closed it already (over a cap).
    let _ = stream.write_all(b"GET / HTTP/1.1\r\nhost: test\r\n").await;
    Slow { stream, opened }
}

impl Slow {
    /// Whether the server closes the connection within `within`; reads
    /// what a refusal says and waits for the close.
    async fn closed_within(&mut self, within: Duration) -> Option<Duration> {
        self.closed_by(tokio::time::Instant::now() + within).await
    }

    /// Whether the server has closed the connection by `deadline` (one
    /// look if the deadline has passed).
    async fn closed_by(&mut self, deadline: tokio::time::Instant) -> Option<Duration> {
        let mut buffer = [0; 512];
        loop {
            match tokio::time::timeout_at(deadline, self.stream.read(&mut buffer)).await {
                Err(_) => return None,
                Ok(Ok(0) | Err(_)) => return Some(self.opened.elapsed()),
                Ok(Ok(_)) => {}
            }
        }
    }
}

/// Runs the test `name` of this binary in a child process (with [`CHILD`]
/// set), so that it can lower its own open-file limit without touching the
/// other tests; fails if the child fails or does not run exactly that one
/// test (a name that matches nothing runs nothing, and passes).
fn in_child(name: &str) {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Shown with the parent's output (captured unless it fails).
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "the child process failed: {}",
        output.status
    );
    assert_eq!(
        passed_tests(&stdout),
        Some(1),
        "the child process was to run {name} and nothing else (its output above)"
    );
}

/// The number of passed tests in a test binary's summary line (`test
/// result: ok. 1 passed; 0 failed; …`).
fn passed_tests(output: &str) -> Option<u32> {
    let summary = output
        .lines()
        .find_map(|line| line.strip_prefix("test result: "))?;
    let (_, counts) = summary.split_once(". ")?;
    counts.split("; ").find_map(|count| {
        count
            .strip_suffix(" passed")
            .and_then(|number| number.parse().ok())
    })
}

/// Lowers this process's open-file limit to `limit`.
fn lower_open_file_limit(limit: u64) {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    setrlimit(Resource::RLIMIT_NOFILE, limit, hard).unwrap();
}

/// Prepares a room whose reserved seats nobody takes, through `admin`.
async fn waiting_room(admin: &mut TestClient) -> String {
    let slots = vec![slot("a"), slot("b")];
    let (room_id, _codes) = admin
        .prepare(prepare_request(GameType::Blokus2021, false, slots))
        .await;
    room_id
}

const HEADER_TIMEOUT: Duration = Duration::from_secs(2);

fn small_limits(config: &mut Config) {
    config.max_connections = 16;
    config.max_connections_per_ip = 16;
    config.http_max_connections = 48;
    config.http_max_connections_per_ip = 16;
    config.http_header_timeout = HEADER_TIMEOUT;
}

/// The web side of `server` on 127.0.0.1 (port 0) within `config`'s limits.
async fn web(server: &TestServer, config: &Config, access: Access) -> EmbeddedWeb {
    EmbeddedWeb::start(
        SocketAddr::new(IpAddr::V4(loopback(1)), 0),
        Arc::clone(&server.stats),
        WebSettings {
            access,
            replay_dir: Some(server.replay_dir.clone()),
            limits: WebLimits::from_config(config),
            auth: Arc::clone(&server.auth),
        },
    )
    .await
    .unwrap()
}

/// [`web`] with its pages open to everyone (loopback, no passphrase).
async fn open_web(server: &TestServer, config: &Config) -> EmbeddedWeb {
    web(
        server,
        config,
        Access::new(config.listen, HttpPublic::Auto, None),
    )
    .await
}

#[tokio::test]
async fn slow_headers_up_to_the_caps_and_beyond_never_shut_out_the_game_port() {
    if std::env::var_os(CHILD).is_none() {
        in_child("web_limits::slow_headers_up_to_the_caps_and_beyond_never_shut_out_the_game_port");
        return;
    }
    let mut config = Config::default();
    small_limits(&mut config);
    // The attack's own sockets are in this process too: 20 from one
    // address, 80 from four others, a few requests and the players.
    let own_sockets = 20 + 80 + 16;
    let limit = config.open_files_needed().total() + own_sockets;
    lower_open_file_limit(limit);

    let server = TestServer::start(small_limits).await;
    let web = open_web(&server, &config).await;
    let addr = web.addr();
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;

    // One address, beyond its cap: the connections over it are closed at
    // once, and another address is served at once.
    let mut slow = Vec::new();
    for _ in 0..20 {
        slow.push(slow_from(loopback(1), addr).await);
    }
    let mut refused = 0;
    for connection in &mut slow[16..] {
        if connection
            .closed_within(Duration::from_millis(500))
            .await
            .is_some()
        {
            refused += 1;
        }
    }
    assert_eq!(refused, 4, "the connections over the cap per address");
    slow.truncate(16);
    let answered = health_from(loopback(2), addr)
        .await
        .expect("another address is served");
    assert!(answered < Duration::from_secs(1), "{answered:?}");

    // Four more addresses, 20 each: up to the cap in all (48) and beyond.
    let mut more = Vec::new();
    for address in 10..14 {
        for _ in 0..20 {
            more.push(slow_from(loopback(address), addr).await);
        }
    }
    let mut held = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_millis(200);
    for connection in &mut more {
        if connection.closed_by(deadline).await.is_none() {
            held += 1;
        }
    }
    assert_eq!(held, 48 - 16, "the cap in all holds");
    // The game port has its file descriptors: an administrator connects
    // and prepares a room while the web side is full.
    waiting_room(&mut server.admin().await).await;

    // Every slow connection is closed within the header limit.
    let mut latest = Duration::ZERO;
    for connection in slow.iter_mut().chain(&mut more) {
        let closed = connection
            .closed_within(HEADER_TIMEOUT * 3)
            .await
            .expect("a slow connection is closed");
        assert!(
            closed < HEADER_TIMEOUT + Duration::from_millis(900),
            "closed after {closed:?}"
        );
        latest = latest.max(closed);
    }
    let again = health_from(loopback(1), addr)
        .await
        .expect("the attacker's address is served again");
    assert!(again < Duration::from_secs(1), "{again:?}");
    eprintln!(
        "open-file limit {limit}; 20 slow from one address: {refused} refused; /healthz from another in {answered:?}; 80 more from four addresses: {held} held; the last slow one closed {latest:?} after it opened; /healthz then in {again:?}"
    );

    // The game went on undisturbed: a regular end, nobody out of time.
    reference.finish().await;
    drop(web);
    server.shutdown().await;
}

#[tokio::test]
async fn passphrase_guessing_over_http_waits_for_the_game_ports_back_off() {
    let server = TestServer::start(|_| {}).await;
    let config = Config::default();
    // On loopback, yet the login is asked for (as behind a reverse proxy).
    let access = Access::new(
        config.listen,
        HttpPublic::LoginOnly,
        Some(server.passphrase.clone()),
    );
    let web = web(&server, &config, access).await;
    let addr = web.addr();

    // Without the login, running games are not shown on loopback.
    let (status, text) = request_from(loopback(1), addr, &get("/api/rooms", ""))
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(text.contains(r#""live":false"#), "{text}");

    // Eight connections from one address guess for two seconds, half by
    // login, half by bearer token.
    let guessing = Duration::from_secs(2);
    let wrong = Arc::new(AtomicU64::new(0));
    let unchecked = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut guessers = Vec::new();
    for n in 0..8 {
        let (wrong, unchecked) = (Arc::clone(&wrong), Arc::clone(&unchecked));
        guessers.push(tokio::spawn(async move {
            while start.elapsed() < guessing {
                let request = if n % 2 == 0 {
                    login("guess")
                } else {
                    get("/api/rooms", "authorization: Bearer guess\r\n")
                };
                let (status, text) = request_from(loopback(1), addr, &request).await.unwrap();
                if status == 429 {
                    // Not checked: the address's turn is too far off.
                    unchecked.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                let refused = if n % 2 == 0 {
                    status == 303 && text.contains("/login?failed")
                } else {
                    status == 200 && text.contains(r#""live":false"#)
                };
                assert!(refused, "{text}");
                wrong.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }

    // Meanwhile the right passphrase from another address works at once.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = Instant::now();
    let (status, text) = request_from(loopback(2), addr, &login(&server.passphrase))
        .await
        .unwrap();
    assert_eq!(status, 303, "{text}");
    assert!(text.contains("spielleiter_session="), "{text}");
    let bearer = format!("authorization: Bearer {}\r\n", server.passphrase);
    let (_, text) = request_from(loopback(2), addr, &get("/api/rooms", &bearer))
        .await
        .unwrap();
    assert!(text.contains(r#""live":true"#), "{text}");
    let answered_in = asked.elapsed();
    assert!(answered_in < Duration::from_millis(500), "{answered_in:?}");

    for guesser in guessers {
        guesser.await.unwrap();
    }
    let elapsed = start.elapsed().as_secs_f64();
    let wrong = wrong.load(Ordering::Relaxed);
    assert!(
        wrong as f64 <= 20.0 * elapsed,
        "{wrong} wrong guesses in {elapsed:.1} s"
    );
    eprintln!(
        "8 guessers from one address for 2 s: {wrong} wrong guesses checked in {elapsed:.1} s, {} answered 429 unchecked; the right passphrase from another address in {answered_in:?}",
        unchecked.load(Ordering::Relaxed)
    );
    assert!(wrong >= 2, "the guessers got answers: {wrong}");
    assert!(
        unchecked.load(Ordering::Relaxed) > 0,
        "turns too far off are refused"
    );
    // Every failure is counted.
    let (_, metrics) = request_from(loopback(2), addr, &get("/metrics", ""))
        .await
        .unwrap();
    assert!(
        metrics.contains(&format!(
            "spielleiter_failed_authentications_total {wrong}\n"
        )),
        "{wrong} wrong guesses; {metrics}"
    );
    // The game port's back-off is the same object: it has every failure
    // of the guessing address (its next `authenticate` waits accordingly),
    // none of the other's.
    assert_eq!(
        u64::from(server.auth.failures(IpAddr::V4(loopback(1)))),
        wrong
    );
    assert_eq!(server.auth.failures(IpAddr::V4(loopback(2))), 0);
    drop(web);
    server.shutdown().await;
}

#[tokio::test]
async fn one_address_cannot_hold_all_event_streams() {
    let server = TestServer::start(|_| {}).await;
    let config = Config {
        http_max_streams_per_ip: 2,
        ..Config::default()
    };
    let web = open_web(&server, &config).await;
    let addr = web.addr();
    let room_id = waiting_room(&mut server.admin().await).await;
    let path = format!("/api/rooms/{room_id}/events");
    let open = |source| {
        let path = path.clone();
        async move {
            let mut stream = connect_from(source, addr).await.unwrap();
            stream
                .write_all(format!("GET {path} HTTP/1.1\r\nhost: test\r\n\r\n").as_bytes())
                .await
                .unwrap();
            let mut head = vec![0; 256];
            let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut head))
                .await
                .unwrap()
                .unwrap();
            let head = String::from_utf8_lossy(&head[..read]).into_owned();
            (stream, head)
        }
    };
    let (_first, head) = open(loopback(1)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (_second, head) = open(loopback(1)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (_third, head) = open(loopback(1)).await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    // Another address still gets one.
    let (_other, head) = open(loopback(2)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    drop(web);
    server.shutdown().await;
}

#[tokio::test]
async fn a_request_body_that_trickles_is_cut_off_at_the_stall_limit() {
    let server = TestServer::start(|_| {}).await;
    let config = Config {
        http_stall_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let web = web(
        &server,
        &config,
        Access::new(
            config.listen,
            HttpPublic::Auto,
            Some(server.passphrase.clone()),
        ),
    )
    .await;
    let started = Instant::now();
    let mut stream = connect_from(loopback(1), web.addr()).await.unwrap();
    stream
        .write_all(b"POST /login HTTP/1.1\r\nhost: test\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 100\r\n\r\npassphrase=")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the web side gives up on the body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(3),
        "{took:?}"
    );
    drop(web);
    server.shutdown().await;
}

#[tokio::test]
async fn an_answer_its_reader_stops_taking_is_cut_off_at_the_stall_limit() {
    let stall = Duration::from_secs(1);
    let config = Config {
        http_stall_timeout: stall,
        // One connection per address: while the stalled one holds its
        // address's place, that address is refused, and served again the
        // moment the web side gives the connection up.
        http_max_connections_per_ip: 1,
        loopback_exempt: false,
        ..Config::default()
    };
    let server = TestServer::start(|_| {}).await;
    // A download far larger than what the two sockets' buffers hold: a
    // replay file of 64 MiB (sparse: it takes no disk).
    let size: u64 = 64 << 20;
    std::fs::create_dir_all(&server.replay_dir).unwrap();
    let name = "replay_swc_2021_blokus_large.xml";
    std::fs::File::create(server.replay_dir.join(name))
        .unwrap()
        .set_len(size)
        .unwrap();
    let web = open_web(&server, &config).await;
    let addr = web.addr();

    // The reader: a small receive window, the answer's head, then nothing.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket
        .bind(SocketAddr::new(IpAddr::V4(loopback(1)), 0))
        .unwrap();
    let mut reader = socket.connect(addr).await.unwrap();
    reader
        .write_all(get(&format!("/api/replays/{name}/file"), "").as_bytes())
        .await
        .unwrap();
    let mut head = vec![0; 1024];
    let read = tokio::time::timeout(Duration::from_secs(10), reader.read(&mut head))
        .await
        .expect("the answer starts")
        .unwrap();
    let head = String::from_utf8_lossy(&head[..read]).into_owned();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains(&format!("content-length: {size}")), "{head}");
    let stopped = Instant::now();

    // Meanwhile another address is answered at once, again and again; the
    // reader's address is refused while its connection is held, and
    // served again once the web side has given it up.
    let mut answered = Vec::new();
    let released = loop {
        let elapsed = stopped.elapsed();
        assert!(
            elapsed < stall * 4,
            "the stalled connection still held after {elapsed:?}"
        );
        answered.push(
            health_from(loopback(2), addr)
                .await
                .expect("another address is served"),
        );
        if health_from(loopback(1), addr).await.is_some() {
            break stopped.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        released >= stall && released < stall + Duration::from_millis(900),
        "released after {released:?}"
    );
    let slowest = answered.iter().max().copied().unwrap_or_default();
    assert!(slowest < Duration::from_millis(500), "{slowest:?}");

    // What had been sent ends short of the whole file.
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut rest))
        .await
        .expect("the cut-off connection ends");
    let received = (read + rest.len()) as u64;
    assert!(received < size, "{received} of {size} bytes");
    eprintln!(
        "a reader that stopped after the head: its connection given up {released:?} later, after {received} of {size} bytes; {} requests from another address meanwhile, the slowest answered in {slowest:?}",
        answered.len()
    );
    drop(web);
    server.shutdown().await;
}
