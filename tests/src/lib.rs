//! Test support for the end-to-end tests: an in-process server on a free
//! loopback port and a scripted client that speaks raw bytes and checks
//! typed messages.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, FrameDecoder, GameMove, GameState, GameType, ServerMessage, StreamEvent,
    blokus2021::WireMove, room::RoomData,
};
use spielleiter_rules::blokus::{Blokus, MoveList};
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
    /// The server's own counters.
    pub stats: std::sync::Arc<spielleiter_server::stats::ServerStats>,
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
        let server = EmbeddedServer::start(config).await.unwrap();
        TestServer {
            addr: server.addr(),
            replay_dir,
            passphrase,
            stats: std::sync::Arc::clone(server.stats()),
            server: Some(server),
        }
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
            tokio::time::timeout(Duration::from_secs(30), server.stop())
                .await
                .expect("server shuts down in time")
                .expect("server result");
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
    /// Every byte received, for byte-level checks.
    pub raw: Vec<u8>,
}

impl TestClient {
    /// Connects without sending anything.
    pub async fn connect(addr: SocketAddr) -> TestClient {
        let stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        TestClient {
            stream,
            decoder: FrameDecoder::new(),
            buffer: BytesMut::new(),
            opened: false,
            raw: Vec::new(),
        }
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
                    let message = ServerMessage::decode(frame.as_bytes(), GameType::Blokus2021)
                        .unwrap_or_else(|e| {
                            panic!(
                                "undecodable packet {:?}: {e}",
                                String::from_utf8_lossy(frame.as_bytes())
                            )
                        });
                    return Some(Received::Message(message));
                }
                Ok(Some(StreamEvent::End)) => return Some(Received::End),
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
            rest.iter().all(|m| matches!(m, ServerMessage::Close)),
            "expected only <close/> before the end, got {rest:?}"
        );
        match self.next().await {
            Received::Eof => {}
            other => panic!("expected EOF after </protocol>, got {other:?}"),
        }
    }

    /// Joins with `join` and returns the room id from `joined`.
    pub async fn join(&mut self) -> String {
        self.send(&ClientMessage::Join {
            game_type: Some("swc_2021_blokus".to_owned()),
        })
        .await;
        expect_joined(self.message().await)
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
    match state {
        GameState::Blokus2021(state) => Blokus::from_setup(&state.setup).unwrap(),
    }
}

/// The first legal move of the colour on turn (in generator order), as a
/// client would send it.
pub fn first_legal_move(game: &Blokus) -> WireMove {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let placement = moves.iter().next().expect("the colour on turn can move");
    WireMove::Set(placement)
}

/// A bot that plays the first legal move whenever asked, after `think`.
/// Returns every packet it saw until the server ended the stream.
pub async fn play_out(
    mut client: TestClient,
    room_id: String,
    think: Duration,
) -> Vec<ServerMessage> {
    let mut seen = Vec::new();
    let mut state: Option<Blokus> = None;
    loop {
        match client.next().await {
            Received::Message(message) => {
                match &message {
                    ServerMessage::Room {
                        data: RoomData::Memento(s),
                        ..
                    } => state = Some(blokus_of(s)),
                    ServerMessage::Room {
                        data: RoomData::MoveRequest,
                        ..
                    } => {
                        if !think.is_zero() {
                            tokio::time::sleep(think).await;
                        }
                        let game = state.as_ref().expect("a memento before the request");
                        client.send_move(&room_id, first_legal_move(game)).await;
                    }
                    _ => {}
                }
                seen.push(message);
            }
            Received::End | Received::Eof => return seen,
        }
    }
}

/// Two clients that joined the same room with `join`.
pub async fn joined_pair(server: &TestServer) -> (TestClient, TestClient, String) {
    let mut one = server.connect().await;
    let room = one.join().await;
    let mut two = server.connect().await;
    let room_two = two.join().await;
    assert_eq!(room, room_two, "the second join fills the first room");
    (one, two, room)
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

/// A game of two bots in a room of its own, running in the background
/// while a test does something else; [`BackgroundGame::finish`] checks that
/// it ended regularly.
#[derive(Debug)]
pub struct BackgroundGame {
    players: [JoinHandle<Vec<ServerMessage>>; 2],
}

impl BackgroundGame {
    /// Prepares a room through the admin protocol (so no other `join` lands
    /// in it) and starts two bots that think `think` per move.
    pub async fn start(server: &TestServer, think: Duration) -> BackgroundGame {
        let mut admin = server.admin().await;
        admin
            .send(&ClientMessage::Prepare(spielleiter_protocol::Prepare {
                game_type: Some("swc_2021_blokus".to_owned()),
                pause: false,
                slots: vec![slot("bg-one"), slot("bg-two")],
            }))
            .await;
        let ServerMessage::Prepared { reservations, .. } = admin.message().await else {
            panic!("expected <prepared>");
        };
        let mut handles = Vec::new();
        for code in reservations {
            let mut client = server.connect().await;
            let room = client.join_prepared(&code).await;
            handles.push(tokio::spawn(play_out(client, room, think)));
        }
        let players: [JoinHandle<Vec<ServerMessage>>; 2] =
            handles.try_into().expect("two reservations");
        BackgroundGame { players }
    }

    /// Waits for the game's end and asserts both players saw a regular
    /// result, the same one.
    pub async fn finish(self) {
        let [one, two] = self.players;
        let one = tokio::time::timeout(Duration::from_secs(60), one)
            .await
            .expect("background game ends")
            .unwrap();
        let two = tokio::time::timeout(Duration::from_secs(60), two)
            .await
            .expect("background game ends")
            .unwrap();
        let (r1, r2) = (
            result_of(&one).expect("result"),
            result_of(&two).expect("result"),
        );
        assert_eq!(r1, r2);
        assert!(
            r1.scores
                .iter()
                .all(|s| s.cause == spielleiter_protocol::result::ScoreCause::Regular),
            "the background game was disturbed: {r1:?}"
        );
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
