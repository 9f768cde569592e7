//! Test support for the end-to-end tests: an in-process server on a free
//! loopback port and a scripted client that speaks raw bytes and checks
//! typed messages.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

pub mod http;

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use bytes::BytesMut;
use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, GameReport, PlayOptions, play};
use spielleiter_protocol::result::ScoreCause;
use spielleiter_protocol::{
    ClientMessage, FrameDecoder, GameMove, GameState, GameType, ServerMessage, StreamEvent,
    games::blokus2021::WireMove, room::RoomData, seats::seat_label,
};
use spielleiter_rules::{
    AnyGame, Game,
    blokus::{Blokus, MoveList},
};
use spielleiter_server::{Config, EmbeddedServer};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    task::JoinHandle,
};
use tokio_util::codec::Decoder;

/// How long a test waits for an expected packet before failing.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// An in-process server on `127.0.0.1:0` with its own replay directory.
#[derive(Debug)]
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Where its replays go.
    pub replay_dir: PathBuf,
    /// The admin passphrase it was started with.
    pub passphrase: String,
    /// Whether it writes replays.
    pub replays: bool,
    /// The server's own counters.
    pub stats: std::sync::Arc<spielleiter_server::stats::ServerStats>,
    /// The server's passphrase back-off, which a web side next to it shares.
    pub auth: std::sync::Arc<spielleiter_server::limits::AuthBackoff>,
    /// The door for connections from this process.
    pub in_process: spielleiter_server::in_process::InProcess,
    server: Option<EmbeddedServer>,
}

impl TestServer {
    /// Starts a server with test defaults (admin passphrase `secret`, fixed
    /// seed, replays in a fresh directory), adjusted by `configure`.
    pub async fn start(configure: impl FnOnce(&mut Config)) -> TestServer {
        let replay_dir =
            std::env::temp_dir().join(format!("spielleiter-e2e-{}", uuid::Uuid::new_v4()));
        let mut config = Config {
            port: 0,
            admin_passphrase: Some("secret".to_owned()),
            seed: Some(7),
            replay_dir: replay_dir.clone(),
            // Tests end running games at once when they shut the server down.
            shutdown_grace: Duration::ZERO,
            ..Config::default()
        };
        configure(&mut config);
        let passphrase = config.admin_passphrase.clone().unwrap_or_default();
        let replays = config.replays;
        let replay_dir = config.replay_dir.clone();
        let server = EmbeddedServer::start(config).await.unwrap();
        TestServer {
            addr: server.addr(),
            replay_dir,
            passphrase,
            replays,
            stats: std::sync::Arc::clone(server.stats()),
            auth: std::sync::Arc::clone(server.auth()),
            in_process: server.in_process().clone(),
            server: Some(server),
        }
    }

    /// A server whose `game` has a soft and a hard move limit (in
    /// milliseconds), for a test on tokio's paused clock. It writes no
    /// replays: the replay thread works in real time, and while a room
    /// waits for it at the end of its game the paused clock would jump
    /// ahead to the next timer (the test server's shutdown limit among
    /// them).
    pub async fn with_move_limits(game: GameType, soft_ms: u64, hard_ms: u64) -> TestServer {
        TestServer::start(|config| {
            config.replays = false;
            config.apply(spielleiter_server::config::Overrides {
                game_move_limits: vec![spielleiter_server::config::GameMoveLimits {
                    game,
                    soft_ms: Some(soft_ms),
                    hard_ms: Some(hard_ms),
                }],
                ..spielleiter_server::config::Overrides::default()
            });
        })
        .await
    }

    /// A new client connection.
    pub async fn connect(&self) -> TestClient {
        TestClient::connect(self.addr).await
    }

    /// A connection that has authenticated as administrator.
    pub async fn admin(&self) -> TestClient {
        let mut admin = self.connect().await;
        admin
            .send(&ClientMessage::Authenticate {
                password: self.passphrase.clone(),
            })
            .await;
        admin
    }

    /// Prepares a room of `game` through the admin protocol with a reserved,
    /// timed slot per name; returns the admin connection (which can go on
    /// to observe or cancel), the room id and the reservation codes.
    pub async fn prepare(
        &self,
        game: GameType,
        names: &[&str],
    ) -> (TestClient, String, Vec<String>) {
        let slots = names.iter().map(|name| slot(name)).collect();
        self.prepare_as(prepare_request(game, false, slots)).await
    }

    /// `count` clients that joined one room of `game` with `join`, in
    /// order, and the room's id; fails unless every join lands in the room
    /// the first opened. Nothing after `joined` is read.
    pub async fn joined(&self, game: GameType, count: usize) -> (Vec<TestClient>, String) {
        let mut clients = Vec::with_capacity(count);
        let mut room = None;
        for _ in 0..count {
            let mut client = self.connect().await;
            let joined = client.join_game(game).await;
            assert_eq!(room.get_or_insert(joined.clone()), &joined, "one room");
            clients.push(client);
        }
        (clients, room.unwrap_or_default())
    }

    /// As many clients as `game` has seats, joined to one room with `join`
    /// ([`TestServer::joined`]), each having read its welcome: seats in
    /// join order. Returns them and the room's id.
    pub async fn seated(&self, game: GameType) -> (Vec<TestClient>, String) {
        let (mut clients, room) = self.joined(game, game.player_count()).await;
        for (seat, client) in clients.iter_mut().enumerate() {
            assert_eq!(client.room_data().await, RoomData::Welcome { seat });
        }
        (clients, room)
    }

    /// Sends `prepare` as it is on a new admin connection; returns that
    /// connection, the room id and the reservation codes.
    pub async fn prepare_as(
        &self,
        prepare: spielleiter_protocol::Prepare,
    ) -> (TestClient, String, Vec<String>) {
        let mut admin = self.admin().await;
        let (room_id, reservations) = admin.prepare(prepare).await;
        (admin, room_id, reservations)
    }

    /// A room of `game` prepared for `names` (paused if `pause`) that an
    /// administrator observes, and a client per name that redeemed its
    /// reservation, in order. Returns the administrator, the players and
    /// the room id; nothing after `joined` is read.
    pub async fn observed_prepared(
        &self,
        game: GameType,
        names: &[&str],
        pause: bool,
    ) -> (TestClient, Vec<TestClient>, String) {
        let mut admin = self.admin().await;
        admin.reads(game);
        let slots = names.iter().map(|name| slot(name)).collect();
        let (room, codes) = admin.prepare(prepare_request(game, pause, slots)).await;
        admin.observe(&room).await;
        let players = self.redeemed(game, &codes).await;
        (admin, players, room)
    }

    /// A client per reservation code of a prepared room of `game`, each
    /// having redeemed its code (in order) and read `joined`.
    pub async fn redeemed(&self, game: GameType, codes: &[String]) -> Vec<TestClient> {
        let mut players = Vec::with_capacity(codes.len());
        for code in codes {
            let mut player = self.connect().await;
            player.join_prepared_game(code, game).await;
            players.push(player);
        }
        players
    }

    /// Shuts down like [`TestServer::shutdown`], but leaves the replay
    /// directory for the caller to inspect (and remove).
    pub async fn shutdown_keeping_replays(mut self) -> PathBuf {
        self.stop().await;
        std::mem::take(&mut self.replay_dir)
    }

    /// Signals shutdown and waits for the server to finish.
    pub async fn shutdown(mut self) {
        self.stop().await;
    }

    async fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            // Counted in real time, not on tokio's clock: on a paused clock
            // time leaps to the next timer whenever the runtime waits for
            // work outside it (the replay thread, the kernel's sockets), so
            // a limit on that clock could run out while the server is busy
            // for a few milliseconds of real time. Longer than the server's
            // own limits (the grace period, then three phases of 15 s).
            tokio::select! {
                stopped = server.stop() => stopped.expect("server result"),
                () = real_time_limit(STOP_LIMIT) => {
                    panic!("the server did not shut down within {STOP_LIMIT:?} of real time")
                }
            }
        }
    }

    /// The finished replay files (`.xml`/`.xml.gz`) written so far.
    pub fn replays(&self) -> Vec<PathBuf> {
        list(&self.replay_dir, |name| {
            name.ends_with(".xml") || name.ends_with(".xml.gz")
        })
    }

    /// Waits until `count` finished replays exist and returns them.
    pub async fn wait_for_replays(&self, count: usize) -> Vec<PathBuf> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let found = self.replays();
            if found.len() >= count || tokio::time::Instant::now() > deadline {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// How long [`TestServer::shutdown`] waits, in real time.
const STOP_LIMIT: Duration = Duration::from_secs(90);

/// Resolves after `limit` of real time, whether tokio's clock is paused or
/// not; dropping it ends its timer thread at once.
fn real_time_limit(limit: Duration) -> impl std::future::Future<Output = ()> {
    let (expired, on_expiry) = tokio::sync::oneshot::channel();
    let (dropped, on_drop) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if on_drop.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            let _ = expired.send(());
        }
    });
    async move {
        let _dropped = dropped;
        if on_expiry.await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // Dropping the embedded server aborts it.
        self.server.take();
        if !self.replay_dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.replay_dir);
        }
    }
}

fn list(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Packets read from a raw socket half, for tests that read and write
/// separately.
#[derive(Debug, Default)]
pub struct ServerStream {
    decoder: FrameDecoder,
    buffer: BytesMut,
}

impl ServerStream {
    /// The next packet, `End` or `Eof` from `socket`; fails the test after
    /// [`PATIENCE`].
    pub async fn next(&mut self, socket: &mut (impl tokio::io::AsyncRead + Unpin)) -> Received {
        loop {
            match self.decoder.decode(&mut self.buffer) {
                Ok(Some(StreamEvent::Frame(frame))) => {
                    let message = ServerMessage::decode(frame.as_bytes(), GameType::Blokus2021)
                        .expect("a decodable packet");
                    return Received::Message(message);
                }
                Ok(Some(StreamEvent::End)) => return Received::End,
                Ok(None) => {}
                Err(e) => panic!("server stream is not well-formed: {e}"),
            }
            match tokio::time::timeout(PATIENCE, socket.read_buf(&mut self.buffer)).await {
                Err(_) => panic!("nothing received within {PATIENCE:?}"),
                Ok(Ok(0) | Err(_)) => return Received::Eof,
                Ok(Ok(_)) => {}
            }
        }
    }
}

/// The server's log lines (INFO and above) of one test, captured on the
/// test's thread: a test on tokio's default (current-thread) runtime runs
/// the in-process server's tasks there too.
///
/// One global subscriber writes every line into the buffer of the thread
/// that logs it, if that thread captures: scoped subscribers per test would
/// race on tracing's per-callsite interest cache when tests run in
/// parallel.
#[derive(Clone, Debug, Default)]
pub struct CapturedLog(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

thread_local! {
    static CAPTURE: std::cell::RefCell<Option<CapturedLog>> = const { std::cell::RefCell::new(None) };
}

/// Ends a thread's capture when dropped.
#[derive(Debug)]
pub struct CaptureGuard(());

impl Drop for CaptureGuard {
    fn drop(&mut self) {
        CAPTURE.with(|capture| capture.borrow_mut().take());
    }
}

/// Writes into the capturing thread's buffer, or nowhere.
struct ThreadSink;

impl std::io::Write for ThreadSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        CAPTURE.with(|capture| {
            if let Some(log) = capture.borrow().as_ref() {
                log.0.lock().unwrap().extend_from_slice(buf);
            }
        });
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl CapturedLog {
    /// Starts capturing this thread's log lines; capturing ends when the
    /// guard is dropped.
    pub fn install() -> (CapturedLog, CaptureGuard) {
        static GLOBAL: std::sync::Once = std::sync::Once::new();
        GLOBAL.call_once(|| {
            let subscriber = tracing_subscriber::fmt()
                .with_max_level(tracing::Level::INFO)
                .with_ansi(false)
                .with_writer(|| ThreadSink)
                .finish();
            // Another global subscriber (none is set) would only mean no
            // capture, which the test then notices.
            let _ = tracing::subscriber::set_global_default(subscriber);
        });
        let log = CapturedLog::default();
        CAPTURE.with(|capture| *capture.borrow_mut() = Some(log.clone()));
        (log, CaptureGuard(()))
    }

    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// What a client saw arrive.
#[derive(Debug, Clone, PartialEq)]
pub enum Received {
    /// A complete packet.
    Message(ServerMessage),
    /// The server ended its document (`</protocol>`).
    End,
    /// The socket closed.
    Eof,
}

/// A scripted client: sends raw bytes or typed messages and checks what
/// comes back.
#[derive(Debug)]
pub struct TestClient {
    stream: TcpStream,
    decoder: FrameDecoder,
    buffer: BytesMut,
    opened: bool,
    /// The game whose room packets this client reads.
    game: GameType,
    /// Every byte received, for byte-level checks.
    pub raw: Vec<u8>,
    /// Every packet received, decoded, in order.
    pub seen: Vec<ServerMessage>,
    /// Whether the server ended its document.
    ended: bool,
}

impl TestClient {
    /// Connects without sending anything.
    pub async fn connect(addr: SocketAddr) -> TestClient {
        TestClient::over(TcpStream::connect(addr).await.unwrap())
    }

    fn over(stream: TcpStream) -> TestClient {
        stream.set_nodelay(true).unwrap();
        TestClient {
            stream,
            decoder: FrameDecoder::new(),
            buffer: BytesMut::new(),
            opened: false,
            game: GameType::Blokus2021,
            raw: Vec::new(),
            seen: Vec::new(),
            ended: false,
        }
    }

    /// Asserts that every byte received so far is exactly what the
    /// protocol crate's encoder writes for the packets decoded from them:
    /// the server wrote each packet in the official layout (attribute and
    /// child order, indentation, escaping, the stream's framing). Decoding
    /// is lenient about order and spacing; encoding is not.
    pub fn assert_bytes_are_the_encoders(&self) {
        let mut expected = Vec::new();
        let mut encoder = spielleiter_protocol::ServerStreamEncoder::new();
        for message in &self.seen {
            encoder.write(message, &mut expected);
        }
        if self.ended {
            encoder.finish(&mut expected);
        }
        assert_eq!(
            String::from_utf8_lossy(&self.raw),
            String::from_utf8_lossy(&expected),
            "the bytes on the wire differ from the encoder's"
        );
    }

    /// Connects from the local address `from` (any `127.x.y.z` works on
    /// Linux), to appear as another host.
    pub async fn connect_from(addr: SocketAddr, from: std::net::IpAddr) -> TestClient {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        TestClient::over(socket.connect(addr).await.unwrap())
    }

    /// The socket, for tests that write in their own way.
    pub fn stream_mut(&mut self) -> &mut TcpStream {
        &mut self.stream
    }

    /// From now on reads room packets as those of `game` (Blokus 2021
    /// until then).
    pub fn reads(&mut self, game: GameType) {
        self.game = game;
    }

    /// Sends bytes as they are.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.unwrap();
    }

    /// Sends a message, opening the document with `<protocol>` first.
    pub async fn send(&mut self, message: &ClientMessage) {
        let mut out = Vec::new();
        if !self.opened {
            out.extend_from_slice(b"<protocol>\n");
            self.opened = true;
        }
        out.extend_from_slice(message.to_xml().as_bytes());
        out.push(b'\n');
        self.send_raw(&out).await;
    }

    /// Sends a move for `room_id`.
    pub async fn send_move(&mut self, room_id: &str, mv: WireMove) {
        self.send(&ClientMessage::Move {
            room_id: room_id.to_owned(),
            mv: GameMove::Blokus2021(mv),
        })
        .await;
    }

    /// The next packet, `End` or `Eof`; fails the test after [`PATIENCE`].
    pub async fn next(&mut self) -> Received {
        self.next_within(PATIENCE)
            .await
            .unwrap_or_else(|| panic!("nothing received within {PATIENCE:?}"))
    }

    /// The next packet, `End` or `Eof`, or `None` if nothing comes in time.
    pub async fn next_within(&mut self, patience: Duration) -> Option<Received> {
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            match self.decoder.decode(&mut self.buffer) {
                Ok(Some(StreamEvent::Frame(frame))) => {
                    let message = ServerMessage::decode(frame.as_bytes(), self.game)
                        .unwrap_or_else(|e| {
                            panic!(
                                "undecodable packet {:?}: {e}",
                                String::from_utf8_lossy(frame.as_bytes())
                            )
                        });
                    self.seen.push(message.clone());
                    return Some(Received::Message(message));
                }
                Ok(Some(StreamEvent::End)) => {
                    self.ended = true;
                    return Some(Received::End);
                }
                Ok(None) => {}
                Err(e) => panic!("server stream is not well-formed: {e}"),
            }
            let mut chunk = [0u8; 8192];
            match tokio::time::timeout_at(deadline, self.stream.read(&mut chunk)).await {
                Err(_) => return None,
                Ok(Ok(0)) => return Some(Received::Eof),
                Ok(Ok(n)) => {
                    self.raw.extend_from_slice(&chunk[..n]);
                    self.buffer.extend_from_slice(&chunk[..n]);
                }
                Ok(Err(_)) => return Some(Received::Eof),
            }
        }
    }

    /// The next packet; fails the test on end of stream.
    pub async fn message(&mut self) -> ServerMessage {
        match self.next().await {
            Received::Message(m) => m,
            other => panic!("expected a packet, got {other:?}"),
        }
    }

    /// The next packet, which must be a room packet; returns its data.
    pub async fn room_data(&mut self) -> RoomData {
        match self.message().await {
            ServerMessage::Room { data, .. } => data,
            other => panic!("expected a room packet, got {other:?}"),
        }
    }

    /// The next packet's room data, or `None` for a packet that is not a
    /// room packet (such as a `joinedGameRoom` notice).
    pub async fn room_data_or_skip(&mut self) -> Option<RoomData> {
        match self.message().await {
            ServerMessage::Room { data, .. } => Some(data),
            _ => None,
        }
    }

    /// Asserts that nothing arrives for `quiet`.
    pub async fn expect_silence(&mut self, quiet: Duration) {
        if let Some(got) = self.next_within(quiet).await {
            panic!("expected silence, got {got:?}");
        }
    }

    /// Reads until the server ends the stream; returns the packets.
    pub async fn until_end(&mut self) -> Vec<ServerMessage> {
        let mut seen = Vec::new();
        loop {
            match self.next().await {
                Received::Message(m) => seen.push(m),
                Received::End | Received::Eof => return seen,
            }
        }
    }

    /// Asserts the server ends the stream and closes the socket.
    pub async fn expect_closed(&mut self) {
        let rest = self.until_end().await;
        assert!(
            rest.iter().all(|m| matches!(m, ServerMessage::Close(_))),
            "expected only <close/> before the end, got {rest:?}"
        );
        match self.next().await {
            Received::Eof => {}
            other => panic!("expected EOF after </protocol>, got {other:?}"),
        }
    }

    /// Joins a room of `game` with `join` (and reads its packets from now
    /// on); returns the room id from `joined`.
    pub async fn join_game(&mut self, game: GameType) -> String {
        self.reads(game);
        self.send(&ClientMessage::Join {
            game_type: Some(game.id().to_owned()),
        })
        .await;
        expect_joined(self.message().await)
    }

    /// Redeems a reservation for a room of `game` (and reads its packets
    /// from now on); returns the room id from `joined`.
    pub async fn join_prepared_game(&mut self, code: &str, game: GameType) -> String {
        self.reads(game);
        self.join_prepared(code).await
    }

    /// Sends a move of any game for `room_id`.
    pub async fn send_game_move(&mut self, room_id: &str, mv: GameMove) {
        self.send(&ClientMessage::Move {
            room_id: room_id.to_owned(),
            mv,
        })
        .await;
    }

    /// Joins with `join` and returns the room id from `joined`.
    pub async fn join(&mut self) -> String {
        self.send(&ClientMessage::Join {
            game_type: Some("swc_2021_blokus".to_owned()),
        })
        .await;
        expect_joined(self.message().await)
    }

    /// Sends `prepare` on this administrator's connection; returns the
    /// room id and the reservation codes from `prepared`.
    pub async fn prepare(
        &mut self,
        prepare: spielleiter_protocol::Prepare,
    ) -> (String, Vec<String>) {
        self.send(&ClientMessage::Prepare(prepare)).await;
        match self.message().await {
            ServerMessage::Prepared {
                room_id,
                reservations,
            } => (room_id, reservations),
            other => panic!("expected <prepared>, got {other:?}"),
        }
    }

    /// Observes `room` on this administrator's connection and checks the
    /// `observed` answer.
    pub async fn observe(&mut self, room: &str) {
        self.send(&ClientMessage::Observe {
            room_id: room.to_owned(),
        })
        .await;
        assert_eq!(
            self.message().await,
            ServerMessage::Observed {
                room_id: room.to_owned()
            }
        );
    }

    /// Redeems a reservation and returns the room id from `joined`.
    pub async fn join_prepared(&mut self, code: &str) -> String {
        self.send(&ClientMessage::JoinPrepared {
            reservation_code: code.to_owned(),
        })
        .await;
        expect_joined(self.message().await)
    }
}

fn expect_joined(message: ServerMessage) -> String {
    match message {
        ServerMessage::Joined { room_id } => room_id,
        other => panic!("expected <joined>, got {other:?}"),
    }
}

/// The Blokus position of a memento.
pub fn blokus_of(state: &GameState) -> Blokus {
    let AnyGame::Blokus2021(game) = state.to_game().unwrap() else {
        panic!("expected a Blokus 2021 state, got {state:?}");
    };
    game
}

/// The first legal move of the colour on turn (in generator order), as a
/// client would send it.
pub fn first_legal_move(game: &Blokus) -> WireMove {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let placement = moves.iter().next().expect("the colour on turn can move");
    WireMove::Set(placement)
}

/// The position of a memento of any game.
pub fn game_of(state: &GameState) -> AnyGame {
    state.to_game().unwrap()
}

/// The first legal move of the player to move in any game (in the game's
/// generator order; for Blokus 2021 the same as [`first_legal_move`]).
pub fn first_move(game: &AnyGame) -> GameMove {
    let mut first = None;
    game.for_each_legal_move(|mv| {
        first.get_or_insert(mv);
    });
    GameMove::from(first.expect("the player asked can move"))
}

/// Asserts that `result` is the regular result of `last`, a finished
/// position: every cause regular, each seat's own parts the game's score,
/// the winners the game's.
pub fn assert_regular_result(result: &spielleiter_protocol::result::GameResult, last: &AnyGame) {
    assert!(last.is_over(), "the game ended early: {last:?}");
    for (seat, score) in result.scores.iter().enumerate() {
        assert_eq!(score.cause, ScoreCause::Regular, "{result:?}");
        let own: Vec<Option<i64>> = score.parts[1..].iter().map(|p| p.as_integer()).collect();
        let expected: Vec<Option<i64>> = last
            .score(seat)
            .as_slice()
            .iter()
            .map(|&p| Some(p))
            .collect();
        assert_eq!(own, expected, "seat {seat}");
    }
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, last.winners().iter().collect::<Vec<_>>());
}

/// Asserts the result of a two-player game that seat `loser` lost by
/// `cause` with 0 win points, and the other seat won with 2.
pub fn assert_lost(
    result: &spielleiter_protocol::result::GameResult,
    loser: usize,
    cause: ScoreCause,
) {
    let winner = 1 - loser;
    assert_eq!(result.scores[loser].cause, cause, "{result:?}");
    assert_eq!(result.scores[loser].parts[0].as_integer(), Some(0));
    assert_eq!(result.scores[winner].cause, ScoreCause::Regular);
    assert_eq!(result.scores[winner].parts[0].as_integer(), Some(2));
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    assert_eq!(winners, [winner], "{result:?}");
}

/// A bot that plays the first legal move whenever asked, after `think`.
/// Returns every packet it saw until the server ended the stream.
pub async fn play_out(client: TestClient, room_id: String, think: Duration) -> Vec<ServerMessage> {
    play_on(client, &room_id, think, None).await.0
}

/// [`play_out`] from the middle of a game: `state` is the last position
/// the client has seen, if it has already read some of the game. Returns
/// the packets seen from now on and the client (whose `raw` holds every
/// byte received).
pub async fn play_on(
    mut client: TestClient,
    room_id: &str,
    think: Duration,
    mut state: Option<AnyGame>,
) -> (Vec<ServerMessage>, TestClient) {
    let mut seen = Vec::new();
    loop {
        match client.next().await {
            Received::Message(message) => {
                match &message {
                    ServerMessage::Room {
                        data: RoomData::Memento(s),
                        ..
                    } => state = Some(game_of(s)),
                    ServerMessage::Room {
                        data: RoomData::MoveRequest(_),
                        ..
                    } => {
                        if !think.is_zero() {
                            tokio::time::sleep(think).await;
                        }
                        let game = state.as_ref().expect("a memento before the request");
                        client.send_game_move(room_id, first_move(game)).await;
                    }
                    _ => {}
                }
                seen.push(message);
            }
            Received::End | Received::Eof => return (seen, client),
        }
    }
}

/// A transcript reduced to the packet kinds, with the turn of each memento
/// (`welcome ONE`, `memento 0`, `request`, …, `result`, `left`, `close`).
pub fn shape(transcript: &[ServerMessage]) -> Vec<String> {
    transcript
        .iter()
        .map(|m| match m {
            ServerMessage::Room { data, .. } => match data {
                RoomData::Welcome { seat } => format!("welcome {}", seat_label(*seat)),
                RoomData::Memento(state) => format!("memento {}", state.turn()),
                RoomData::MoveRequest(_) => "request".to_owned(),
                RoomData::Result(_) => "result".to_owned(),
                other => format!("{other:?}"),
            },
            ServerMessage::Left { .. } => "left".to_owned(),
            ServerMessage::Close(_) => "close".to_owned(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// The states of a transcript's mementos, in order.
pub fn mementos(transcript: &[ServerMessage]) -> Vec<GameState> {
    transcript
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Room {
                data: RoomData::Memento(s),
                ..
            } => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Two clients that joined the same Blokus 2021 room with `join`.
pub async fn joined_pair(server: &TestServer) -> (TestClient, TestClient, String) {
    joined_pair_of(server, GameType::Blokus2021).await
}

/// Two clients that joined the same room of `game` with `join`.
pub async fn joined_pair_of(
    server: &TestServer,
    game: GameType,
) -> (TestClient, TestClient, String) {
    let (clients, room) = server.joined(game, 2).await;
    let [one, two] = <[TestClient; 2]>::try_from(clients).expect("two clients");
    (one, two, room)
}

/// Reads `client`'s packets up to `<left>`; returns the result before it.
pub async fn until_result(client: &mut TestClient) -> spielleiter_protocol::result::GameResult {
    let mut result = None;
    loop {
        match client.message().await {
            ServerMessage::Room {
                data: RoomData::Result(r),
                ..
            } => result = Some(r),
            ServerMessage::Left { .. } => return result.expect("the result before <left>"),
            _ => {}
        }
    }
}

/// The result of a transcript, if it has one.
pub fn result_of(
    transcript: &[ServerMessage],
) -> Option<&spielleiter_protocol::result::GameResult> {
    transcript.iter().find_map(|m| match m {
        ServerMessage::Room {
            data: RoomData::Result(result),
            ..
        } => Some(result),
        _ => None,
    })
}

/// The reference game: the built-in bots `greedy` and `random` in a
/// prepared room of their own, playing over real TCP in the background
/// while a test disturbs the server. [`BackgroundGame::finish`] checks that
/// the disturbance did not reach it: a regular end, the result the rules
/// give for the final position, and a complete replay.
#[derive(Debug)]
pub struct BackgroundGame {
    game: GameType,
    room_id: String,
    /// The replay directory, if the server writes replays.
    replay_dir: Option<PathBuf>,
    players: [JoinHandle<GameReport>; 2],
}

/// What the reference game ended with.
#[derive(Debug)]
pub struct ReferenceOutcome {
    /// The result both players got.
    pub result: spielleiter_protocol::result::GameResult,
    /// Moves both players sent.
    pub moves: u32,
}

impl BackgroundGame {
    /// A Blokus 2021 reference game ([`BackgroundGame::start_game`]).
    pub async fn start(server: &TestServer, think: Duration) -> BackgroundGame {
        BackgroundGame::start_game(server, GameType::Blokus2021, think).await
    }

    /// Prepares a room of `game` through the admin protocol (so no other
    /// `join` lands in it) and starts the two bots; each holds its move
    /// back until `think` after the request.
    pub async fn start_game(
        server: &TestServer,
        game: GameType,
        think: Duration,
    ) -> BackgroundGame {
        let (_admin, room_id, reservations) =
            server.prepare(game, &["ref-greedy", "ref-random"]).await;
        let mut handles = Vec::new();
        for (code, kind) in reservations.iter().zip([BotKind::Greedy, BotKind::Random]) {
            let mut connection = Connection::connect(server.addr).await.unwrap();
            let room = connection.join_prepared(code, game).await.unwrap();
            handles.push(tokio::spawn(async move {
                let mut bot = kind.build(game, 3).unwrap();
                play(&mut connection, &room, PlayOptions { think }, |game| {
                    bot.choose_move(game)
                })
                .await
                .unwrap()
            }));
        }
        let players: [JoinHandle<GameReport>; 2] = handles.try_into().expect("two reservations");
        BackgroundGame {
            game,
            room_id,
            replay_dir: server.replays.then(|| server.replay_dir.clone()),
            players,
        }
    }

    /// The game's room.
    pub fn room_id(&self) -> &str {
        &self.room_id
    }

    /// Waits for the game's end and asserts it was undisturbed: both
    /// players saw the same regular result, its points and winner are the
    /// ones of the final position, nobody got an error, and the replay
    /// holds every state and the result.
    pub async fn finish(self) -> ReferenceOutcome {
        let [one, two] = self.players;
        let one = tokio::time::timeout(Duration::from_secs(120), one)
            .await
            .expect("the reference game ends")
            .unwrap();
        let two = tokio::time::timeout(Duration::from_secs(120), two)
            .await
            .expect("the reference game ends")
            .unwrap();
        assert!(
            one.errors.is_empty() && two.errors.is_empty(),
            "the reference game was disturbed: {:?} {:?}",
            one.errors,
            two.errors
        );
        let result = one.result.clone().expect("the reference game has a result");
        assert_eq!(two.result.as_ref(), Some(&result));
        assert_eq!(one.final_state, two.final_state);
        let last = game_of(one.final_state.as_ref().expect("a final state"));
        assert_eq!(last.game_type(), self.game);
        assert_regular_result(&result, &last);
        let moves = one.moves_sent + two.moves_sent;
        if let Some(dir) = &self.replay_dir {
            let replay = wait_for_replay_of_game(dir, &self.room_id, self.game).await;
            assert_eq!(
                replay.states.len(),
                moves as usize + 1,
                "the replay holds the initial state and one per move"
            );
            let final_state = one.final_state.expect("a final state");
            assert_eq!(replay.states.last(), Some(&final_state));
            assert_eq!(replay.result.as_ref(), Some(&result));
        }
        ReferenceOutcome { result, moves }
    }
}

/// A fresh server with a reference game ([`BackgroundGame`]) running on
/// it, for a scenario that disturbs the server next to the game.
#[derive(Debug)]
pub struct Stage {
    /// The server.
    pub server: TestServer,
    reference: BackgroundGame,
}

impl Stage {
    /// How long the reference game's bots hold each move back: long enough
    /// that it is still running while the scenario disturbs the server.
    const THINK: Duration = Duration::from_millis(5);

    /// A server with test defaults and, in a prepared room of its own, a
    /// reference game of `game` between the built-in bots.
    pub async fn open(game: GameType) -> Stage {
        let server = TestServer::start(|_| {}).await;
        let reference = BackgroundGame::start_game(&server, game, Stage::THINK).await;
        Stage { server, reference }
    }

    /// Checks that the reference game ended undisturbed (regular result of
    /// its final position, complete replay) and shuts the server down.
    pub async fn close(self) {
        self.reference.finish().await;
        self.server.shutdown().await;
    }
}

/// Waits for the finished replay of `room_id` in `dir` and reads it. The
/// replay thread works in real time: so does this wait, also in a test on
/// tokio's paused clock.
pub async fn wait_for_replay_of(dir: &Path, room_id: &str) -> spielleiter_protocol::Replay {
    wait_for_replay_of_game(dir, room_id, GameType::Blokus2021).await
}

/// Waits for the finished replay of `room_id`, a room of `game`, in `dir`
/// and reads it.
pub async fn wait_for_replay_of_game(
    dir: &Path,
    room_id: &str,
    game: GameType,
) -> spielleiter_protocol::Replay {
    let needle = format!("roomId=\"{room_id}\"");
    // Generous: the replay thread may be slow on a loaded machine, and a
    // missing replay fails the test only after this.
    let deadline = std::time::Instant::now() + 6 * PATIENCE;
    loop {
        let finished = list(dir, |name| {
            name.ends_with(".xml") || name.ends_with(".xml.gz")
        });
        for path in finished {
            let text = read_replay_text(&path);
            if text.contains(&needle) {
                return spielleiter_protocol::replay::read_replay(text.as_bytes(), game)
                    .unwrap_or_else(|e| panic!("replay {path:?} is incomplete: {e}"));
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no replay of room {room_id} in {dir:?}"
        );
        tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(10)))
            .await
            .unwrap();
    }
}

/// A replay file's text, decompressed if it is gzipped.
pub fn read_replay_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        text
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

/// A prepare of `game` with `slots` (paused if `pause`), without a seed
/// of its own or a wire log.
pub fn prepare_request(
    game: GameType,
    pause: bool,
    slots: Vec<spielleiter_protocol::SlotDescriptor>,
) -> spielleiter_protocol::Prepare {
    spielleiter_protocol::Prepare {
        seed: None,
        wire_log: false,
        game_type: Some(game.id().to_owned()),
        pause,
        slots,
    }
}

/// A reserved, timed slot with a display name.
pub fn slot(name: &str) -> spielleiter_protocol::SlotDescriptor {
    spielleiter_protocol::SlotDescriptor {
        display_name: Some(name.to_owned()),
        can_timeout: true,
        reserved: true,
    }
}
