//! The host's end of a player's only connection: a Unix socket in the
//! seat's run directory (bind-mounted into the container) whose every
//! connection is carried to the game server's address, and nowhere else.
//!
//! What the player sends is carried a complete packet at a time, and never
//! an `authenticate`: a player has no business administering, and its
//! guesses would count against the address it shares with the runner's own
//! administrator and every other player on the host (the server spaces
//! guesses per address). The first `authenticate` ends the connection
//! before it reaches the server; the seat's log says why. A connection
//! reaches the server only once its first packet has been checked, so a
//! player that only guesses never holds one of the connections the server
//! admits from the host's address (which every seat on the host shares),
//! and a seat opens new connections at a bounded rate. Nor does it reach
//! the server before the seat's turn to join ([`JoinTurn`]): the seats'
//! containers start at once, their players join one after the other.

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, FrameDecoder, StreamEvent,
    framing::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_SIZE},
};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    net::{TcpStream, UnixListener},
    sync::Semaphore,
    task::{JoinHandle, JoinSet},
};
use tokio_util::codec::Decoder;

use crate::turn::JoinTurn;

/// Connections carried at the same time for one seat (as many as the relay
/// inside allows).
const MAX_CONNECTIONS: usize = 4;

/// How long connecting to the game server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections a seat may open at once beyond its steady rate
/// ([`CONNECTION_EVERY`]): a player needs one, a reconnect or two more.
const CONNECTION_BURST: u32 = 8;

/// A seat's steady rate of new connections: one this often.
const CONNECTION_EVERY: Duration = Duration::from_secs(1);

/// Bytes a player may send before its first packet (the document's start
/// and white space) while no server connection is open for them.
const OPENING_BYTES: usize = 64 * 1024;

/// A running forwarder; dropping it closes the socket and every connection.
#[derive(Debug)]
pub(crate) struct Forwarder {
    task: JoinHandle<()>,
    socket: PathBuf,
}

impl Forwarder {
    /// Listens on `socket` (readable and writable by any user: the
    /// container's user connects to it) and carries each connection to
    /// `host:port` once `turn` is given.
    /// The first connection is noted in `log` with the time since
    /// `started` (the container's start cost, BENCHMARKS.md).
    pub(crate) fn start(
        socket: &Path,
        host: &str,
        port: u16,
        log: std::fs::File,
        started: Instant,
        turn: JoinTurn,
    ) -> std::io::Result<Forwarder> {
        let listener = UnixListener::bind(socket)?;
        std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o666))?;
        let host = host.to_owned();
        let task = tokio::spawn(async move {
            let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
            let mut rate = ConnectionRate::new(Instant::now());
            let mut connections = JoinSet::new();
            let mut first = true;
            let mut first_closed_log = log.try_clone().ok();
            // Where a connection notes why it was ended, once per player.
            let notes = Arc::new(Notes {
                log: log.try_clone().ok(),
                noted: AtomicBool::new(false),
            });
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((player, _)) = accepted else { continue };
                        if std::mem::take(&mut first) {
                            crate::append_note(
                                &log,
                                format_args!(
                                    "[spielleiter sandbox] the player connected {} ms after its container was started",
                                    started.elapsed().as_millis()
                                ),
                            );
                        }
                        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                            tracing::warn!("a sandboxed player opened too many connections: one refused");
                            continue;
                        };
                        if !rate.admit(Instant::now()) {
                            notes.once("the player opened connections faster than one a second");
                            continue;
                        }
                        let host = host.clone();
                        let notes = Arc::clone(&notes);
                        let turn = turn.clone();
                        // The first connection's end is noted too: from it
                        // to the container's end is the cost of stopping.
                        let closed_log = first_closed_log.take();
                        connections.spawn(async move {
                            let _slot = slot;
                            carry(player, &host, port, &notes, turn).await;
                            if let Some(log) = closed_log {
                                crate::append_note(
                                    &log,
                                    format_args!(
                                        "[spielleiter sandbox] the player's connection closed {} ms after its container was started",
                                        started.elapsed().as_millis()
                                    ),
                                );
                            }
                        });
                    }
                    Some(_) = connections.join_next(), if !connections.is_empty() => {}
                }
            }
        });
        Ok(Forwarder {
            task,
            socket: socket.to_owned(),
        })
    }
}

/// The seat's log, for the forwarder's notes on how a connection ended;
/// one note per player, so that a player cannot fill the log with them.
#[derive(Debug)]
struct Notes {
    log: Option<std::fs::File>,
    noted: AtomicBool,
}

impl Notes {
    /// Notes in the seat's log (and the runner's) that a connection was cut
    /// for `why`, unless one has been noted.
    fn once(&self, why: &str) {
        if self.noted.swap(true, Ordering::Relaxed) {
            return;
        }
        tracing::info!(%why, "a sandboxed player's connection cut");
        if let Some(log) = &self.log {
            crate::append_note(
                log,
                format_args!(
                    "\n[spielleiter sandbox] {why}: the connection was closed (further ones are not noted)"
                ),
            );
        }
    }
}

/// A seat's budget of new connections: [`CONNECTION_BURST`] at once, then
/// one per [`CONNECTION_EVERY`].
#[derive(Debug)]
struct ConnectionRate {
    /// Connections that may open now.
    tokens: u32,
    /// When the next token is due.
    next: Instant,
}

impl ConnectionRate {
    fn new(now: Instant) -> ConnectionRate {
        ConnectionRate {
            tokens: CONNECTION_BURST,
            next: now + CONNECTION_EVERY,
        }
    }

    /// Whether a connection opened at `now` is carried (and counted).
    fn admit(&mut self, now: Instant) -> bool {
        while self.next <= now && self.tokens < CONNECTION_BURST {
            self.tokens += 1;
            self.next += CONNECTION_EVERY;
        }
        if self.tokens == CONNECTION_BURST {
            // A full budget does not save up time.
            self.next = self.next.max(now + CONNECTION_EVERY);
        }
        if self.tokens == 0 {
            return false;
        }
        self.tokens -= 1;
        true
    }
}

async fn carry(
    player: tokio::net::UnixStream,
    host: &str,
    port: u16,
    notes: &Notes,
    mut turn: JoinTurn,
) {
    let (mut from_player, mut to_player) = player.into_split();
    let mut scanner = Scanner::new();
    // The player's first packet is checked before the server hears of the
    // connection: one that guesses the passphrase never opens one there.
    let opening = match scanner.opening(&mut from_player).await {
        Ok(Some(opening)) => opening,
        Ok(None) => return,
        Err(why) => {
            notes.once(&why);
            return;
        }
    };
    // The join waits here, checked, until the seats before this one have
    // joined; the player meanwhile waits for the server's answer.
    if !turn.wait().await {
        return;
    }
    let server = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port))).await;
    let mut server = match server {
        Ok(Ok(server)) => server,
        Ok(Err(error)) => {
            tracing::warn!(%host, port, %error, "a sandboxed player's connection: the game server refused");
            return;
        }
        Err(_) => {
            tracing::warn!(%host, port, "a sandboxed player's connection: the game server did not answer");
            return;
        }
    };
    // A move reaches the forwarder in pieces as the player writes it; with
    // Nagle's algorithm a piece written while the one before is
    // unacknowledged waits for the server's delayed ACK (40 ms). The
    // server's own socket sends without delay, as here.
    if let Err(error) = server.set_nodelay(true) {
        tracing::warn!(%host, port, %error, "a sandboxed player's connection: cannot turn off Nagle's algorithm");
    }
    if server.write_all(&opening).await.is_err() {
        return;
    }
    let (mut from_server, mut to_server) = server.into_split();
    // The server's bytes go to the player as they come (a fixed 8 KiB
    // buffer); the server bounds what a connection may send.
    let down = async {
        let _ = tokio::io::copy(&mut from_server, &mut to_player).await;
        let _ = to_player.shutdown().await;
    };
    let up = async {
        let ended = requests(&mut from_player, &mut scanner, &mut to_server).await;
        let _ = to_server.shutdown().await;
        ended
    };
    tokio::pin!(down, up);
    tokio::select! {
        ended = &mut up => match ended {
            // The player is done: the server's last packets still go to it.
            Upstream::Ended => down.await,
            // Both ways end at once.
            Upstream::Cut(why) => notes.once(&why),
        },
        // The server has closed: nothing the player sends can go anywhere.
        () = &mut down => {}
    }
}

/// How the player's side of a connection ended.
#[derive(Debug, PartialEq, Eq)]
enum Upstream {
    /// The player closed it, ended its document, or the socket failed:
    /// everything before the end was carried.
    Ended,
    /// It was cut before what the reason names reached the server.
    Cut(String),
}

/// Bytes read from the player at a time.
const READ_BYTES: usize = 8 * 1024;

/// Finds the packets in what a player sends as the server finds them (the
/// protocol crate's frame decoder, with the server's default limits), so
/// that what is carried is exactly what the server reads as packets; a
/// packet the server would take as `authenticate`, or bytes that are no
/// protocol stream, end the connection before they are carried.
struct Scanner {
    decoder: FrameDecoder,
    /// What the decoder has yet to finish with (at most one packet, which
    /// it bounds); always the end of `held`.
    scanning: BytesMut,
    /// The same bytes as they came, from the first not yet handed on.
    held: BytesMut,
    /// The document's end has been handed on: nothing more is.
    ended: bool,
    read: Box<[u8; READ_BYTES]>,
}

/// Bytes of the player's that may go to the server.
struct Piece {
    bytes: BytesMut,
    /// Whether they are a complete packet (otherwise the bytes before one,
    /// or everything up to and after the document's end).
    packet: bool,
}

impl Scanner {
    fn new() -> Scanner {
        Scanner {
            decoder: FrameDecoder::with_limits(DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_DEPTH),
            scanning: BytesMut::with_capacity(READ_BYTES),
            held: BytesMut::with_capacity(READ_BYTES),
            ended: false,
            read: Box::new([0; READ_BYTES]),
        }
    }

    /// The next bytes that may go to the server, reading from `player` as
    /// needed.
    async fn next<R>(&mut self, player: &mut R) -> Result<Piece, Upstream>
    where
        R: AsyncRead + Unpin,
    {
        loop {
            if self.ended {
                return Err(Upstream::Ended);
            }
            // Bytes the decoder has finished with come first in `held`:
            // those of complete packets and between them.
            let event = self.decoder.decode(&mut self.scanning);
            let done = self.held.len() - self.scanning.len();
            match event {
                Ok(Some(StreamEvent::Frame(frame))) => {
                    if is_authenticate(frame.as_bytes(), frame.name()) {
                        return Err(Upstream::Cut(
                            "the player sent `authenticate`, which a player may not".to_owned(),
                        ));
                    }
                    let bytes = self.held.split_to(done);
                    return Ok(Piece {
                        bytes,
                        packet: true,
                    });
                }
                Ok(Some(StreamEvent::End)) => {
                    self.ended = true;
                    let bytes = self.held.split();
                    return Ok(Piece {
                        bytes,
                        packet: false,
                    });
                }
                // Bytes before a packet (the document's start, white
                // space) can go; a packet waits until it is complete.
                Ok(None) if done > 0 => {
                    let bytes = self.held.split_to(done);
                    return Ok(Piece {
                        bytes,
                        packet: false,
                    });
                }
                Ok(None) => {
                    let count = match player.read(&mut self.read[..]).await {
                        Ok(0) | Err(_) => return Err(Upstream::Ended),
                        Ok(count) => count,
                    };
                    self.scanning.extend_from_slice(&self.read[..count]);
                    self.held.extend_from_slice(&self.read[..count]);
                }
                Err(error) => {
                    return Err(Upstream::Cut(format!(
                        "the player sent bytes that are no protocol stream ({error})"
                    )));
                }
            }
        }
    }

    /// Everything up to and with the player's first packet, once that has
    /// been checked; `None` when the player ends before one, an error (why)
    /// when it is cut.
    async fn opening<R>(&mut self, player: &mut R) -> Result<Option<BytesMut>, String>
    where
        R: AsyncRead + Unpin,
    {
        let mut opening = BytesMut::new();
        loop {
            match self.next(player).await {
                Ok(piece) => {
                    opening.extend_from_slice(&piece.bytes);
                    if piece.packet {
                        return Ok(Some(opening));
                    }
                    if opening.len() > OPENING_BYTES {
                        return Err(format!(
                            "the player sent over {OPENING_BYTES} bytes before its first packet"
                        ));
                    }
                }
                Err(Upstream::Ended) => return Ok(None),
                Err(Upstream::Cut(why)) => return Err(why),
            }
        }
    }
}

/// Carries what the player sends to the server, a complete packet at a time,
/// byte for byte as sent, as `scanner` finds it; returns how the player's
/// side ended (cut: the packets before the reason were carried, it was
/// not).
async fn requests<R, W>(player: &mut R, scanner: &mut Scanner, server: &mut W) -> Upstream
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    loop {
        match scanner.next(player).await {
            Ok(piece) => {
                if server.write_all(&piece.bytes).await.is_err() {
                    return Upstream::Ended;
                }
            }
            Err(ended) => return ended,
        }
    }
}

/// Whether the server would take the packet `bytes` (element `name`) as
/// `authenticate`: its element name, whether or not the rest of it is a
/// valid request.
fn is_authenticate(bytes: &[u8], name: &[u8]) -> bool {
    name == b"authenticate"
        || matches!(
            ClientMessage::decode(bytes, None),
            Ok(ClientMessage::Authenticate { .. })
        )
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn a_connection_reaches_the_server_and_ends_with_the_forwarder() {
        let dir = tempfile::tempdir().expect("dir");
        let server = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listen");
        let port = server.local_addr().expect("addr").port();
        let socket = dir.path().join("game.sock");
        let log = tempfile::tempfile().expect("log");
        let forwarder = Forwarder::start(
            &socket,
            "127.0.0.1",
            port,
            log,
            Instant::now(),
            JoinTurn::given(),
        )
        .expect("forwarder");
        let mode = std::fs::metadata(&socket)
            .expect("socket")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o666);

        let mut player = tokio::net::UnixStream::connect(&socket)
            .await
            .expect("connect");
        // The server hears of the connection with its first packet.
        player.write_all(b"<protocol>").await.expect("write");
        player.write_all(b"<join/>").await.expect("write");
        let (mut accepted, _) = server.accept().await.expect("accept");
        let mut got = [0; 17];
        tokio::time::timeout(Duration::from_secs(5), accepted.read_exact(&mut got))
            .await
            .expect("the connection carries the packet")
            .expect("read");
        assert_eq!(&got, b"<protocol><join/>");
        accepted.write_all(b"<joined/>").await.expect("write back");
        let mut back = [0; 9];
        player.read_exact(&mut back).await.expect("read back");
        assert_eq!(&back, b"<joined/>");

        drop(forwarder);
        // The connection goes with the forwarder, and so does the socket.
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), accepted.read_to_end(&mut rest))
            .await
            .expect("the connection ends");
        assert_eq!(read.expect("read"), 0);
        assert!(!socket.exists());
    }

    #[tokio::test]
    async fn a_join_reaches_the_server_only_on_its_seat_s_turn() {
        let dir = tempfile::tempdir().expect("dir");
        let server = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listen");
        let port = server.local_addr().expect("addr").port();
        let (turns, seats) = crate::turn::JoinTurns::new(3);
        let forwarders: Vec<(PathBuf, Forwarder)> = seats
            .into_iter()
            .enumerate()
            .skip(1)
            .map(|(seat, turn)| {
                let socket = dir.path().join(format!("seat{seat}.sock"));
                let log = tempfile::tempfile().expect("log");
                let forwarder =
                    Forwarder::start(&socket, "127.0.0.1", port, log, Instant::now(), turn)
                        .expect("forwarder");
                (socket, forwarder)
            })
            .collect();
        let mut players = Vec::new();
        for (socket, _) in &forwarders {
            let mut player = tokio::net::UnixStream::connect(socket)
                .await
                .expect("connect");
            player.write_all(JOIN).await.expect("write");
            players.push(player);
        }
        // Neither join reaches the server before its turn.
        let early = tokio::time::timeout(Duration::from_millis(300), server.accept()).await;
        assert!(early.is_err(), "a join reached the server before its turn");
        // The second seat's turn: its join, and only it.
        turns.give(1);
        let (mut accepted, _) = tokio::time::timeout(Duration::from_secs(5), server.accept())
            .await
            .expect("the join on its turn")
            .expect("accept");
        let mut got = vec![0; JOIN.len()];
        accepted.read_exact(&mut got).await.expect("read");
        assert_eq!(got, JOIN);
        let early = tokio::time::timeout(Duration::from_millis(300), server.accept()).await;
        assert!(
            early.is_err(),
            "the third seat's join came with the second's turn"
        );
        // The game is over before the third seat's turn: its connection is
        // closed, and the server never hears of it.
        drop(turns);
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), players[1].read_to_end(&mut rest))
            .await
            .expect("the waiting connection is closed");
        assert_eq!(read.map_or(0, |read| read), 0);
        let late = tokio::time::timeout(Duration::from_millis(300), server.accept()).await;
        assert!(late.is_err(), "a join reached the server without its turn");
    }

    /// Runs [`requests`] over `stream` sent in pieces of `piece` bytes;
    /// returns what reached the server and how the player's side ended.
    async fn carried(stream: &[u8], piece: usize) -> (Vec<u8>, Upstream) {
        let (mut player, mut forwarder_end) = tokio::io::duplex(64 * 1024);
        let (mut server_end, mut server) = tokio::io::duplex(4 * 1024 * 1024);
        let pieces: Vec<Vec<u8>> = stream.chunks(piece).map(<[u8]>::to_vec).collect();
        // The player closes its end after the last piece.
        let sender = tokio::spawn(async move {
            for piece in pieces {
                if player.write_all(&piece).await.is_err() {
                    break;
                }
                // One read each.
                tokio::task::yield_now().await;
            }
        });
        let ended = requests(&mut forwarder_end, &mut Scanner::new(), &mut server_end).await;
        drop(server_end);
        let mut got = Vec::new();
        server.read_to_end(&mut got).await.expect("read");
        sender.abort();
        (got, ended)
    }

    const JOIN: &[u8] = b"<protocol>\n  <joinPrepared reservationCode=\"c\"/>";
    const MOVE: &[u8] = b"<room roomId=\"r\"><data class=\"sc.plugin2021.SetMove\"><piece color=\"BLUE\" kind=\"PENTO_L\"/></data></room>";

    #[tokio::test]
    async fn packets_reach_the_server_as_sent_and_authenticate_never_does() {
        let guesses: [&[u8]; 4] = [
            b"<authenticate password=\"guess\"/>",
            b"<authenticate\n password='guess' ></authenticate>",
            // Not even a valid request: the server would still read it as
            // one, by its name.
            b"<authenticate/>",
            b"<authenticate password=\"a\"><x/></authenticate>",
        ];
        for guess in guesses {
            // A comment and a CDATA section that look like packets are
            // part of the packets around them, as the server reads them.
            let before = [
                JOIN,
                b"<!-- <authenticate password=\"x\"/> -->",
                MOVE,
                b"<sc.protocol.responses.CloseConnection><![CDATA[</x><authenticate password=\"x\"/>]]></sc.protocol.responses.CloseConnection>",
            ]
            .concat();
            let stream = [&before[..], guess, MOVE, b"</protocol>"].concat();
            for piece in [1, 7, stream.len()] {
                let (got, ended) = carried(&stream, piece).await;
                assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&before),
                    "piece {piece}"
                );
                let Upstream::Cut(why) = ended else {
                    panic!("not cut: {ended:?}");
                };
                assert!(why.contains("`authenticate`"), "{why}");
            }
        }
    }

    #[tokio::test]
    async fn a_player_that_never_authenticates_is_carried_to_its_end() {
        let stream = [JOIN, MOVE, MOVE, b"</protocol>"].concat();
        for piece in [1, 5, stream.len()] {
            let (got, ended) = carried(&stream, piece).await;
            assert_eq!(got, stream, "piece {piece}");
            assert_eq!(ended, Upstream::Ended);
        }
        // Without the document's end: everything complete has gone.
        let (got, ended) = carried(&[JOIN, MOVE].concat(), 3).await;
        assert_eq!(got, [JOIN, MOVE].concat());
        assert_eq!(ended, Upstream::Ended);
    }

    #[tokio::test]
    async fn bytes_that_are_no_protocol_stream_end_the_connection_unsent() {
        let stream = [JOIN, b"<room roomId=\"r\"></moom>", MOVE].concat();
        let (got, ended) = carried(&stream, 4).await;
        assert_eq!(got, JOIN);
        assert!(
            matches!(&ended, Upstream::Cut(why) if why.contains("no protocol stream")),
            "{ended:?}"
        );
        // A packet over the server's default size never reaches it whole.
        let huge = [
            JOIN,
            b"<authenticate password=\"",
            &vec![b'a'; DEFAULT_MAX_MESSAGE_SIZE + 10],
            b"\"/>",
        ]
        .concat();
        let (got, ended) = carried(&huge, 64 * 1024).await;
        assert_eq!(got, JOIN);
        assert!(matches!(ended, Upstream::Cut(_)), "{ended:?}");
    }

    /// A forwarder of one seat to a listener that stands for the server.
    struct Seat {
        dir: tempfile::TempDir,
        server: tokio::net::TcpListener,
        _forwarder: Forwarder,
    }

    impl Seat {
        async fn start() -> Seat {
            let dir = tempfile::tempdir().expect("dir");
            let server = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("listen");
            let port = server.local_addr().expect("addr").port();
            let log = std::fs::File::create(dir.path().join("seat.log")).expect("log");
            let socket = dir.path().join("game.sock");
            let forwarder = Forwarder::start(
                &socket,
                "127.0.0.1",
                port,
                log,
                Instant::now(),
                JoinTurn::given(),
            )
            .expect("forwarder");
            Seat {
                dir,
                server,
                _forwarder: forwarder,
            }
        }

        /// A player connection that sends `bytes`, then waits until the
        /// forwarder ends it.
        async fn cut_off(&self, bytes: &[u8]) {
            let mut player = tokio::net::UnixStream::connect(self.dir.path().join("game.sock"))
                .await
                .expect("connect");
            let _ = player.write_all(bytes).await;
            let mut rest = Vec::new();
            let read = tokio::time::timeout(Duration::from_secs(5), player.read_to_end(&mut rest))
                .await
                .expect("the player's connection ends");
            assert_eq!(read.map_or(0, |read| read), 0);
        }

        /// A player that joins: the server's first connection must carry it.
        async fn first_seen_is_a_join(&self) {
            let mut player = tokio::net::UnixStream::connect(self.dir.path().join("game.sock"))
                .await
                .expect("connect");
            player.write_all(JOIN).await.expect("write");
            let (mut accepted, _) = self.server.accept().await.expect("accept");
            let mut got = vec![0; JOIN.len()];
            tokio::time::timeout(Duration::from_secs(5), accepted.read_exact(&mut got))
                .await
                .expect("the first connection the server sees carries a join")
                .expect("read");
            assert_eq!(got, JOIN, "the first connection the server sees");
        }

        fn log(&self) -> String {
            std::fs::read_to_string(self.dir.path().join("seat.log")).expect("the log")
        }
    }

    #[tokio::test]
    async fn an_authenticating_player_is_cut_off_and_noted_once_and_never_reaches_the_server() {
        let seat = Seat::start().await;
        for _ in 0..3 {
            seat.cut_off(b"<protocol><authenticate password=\"guess\"/>")
                .await;
        }
        // None of the guesses opened a connection to the server.
        seat.first_seen_is_a_join().await;
        let log = seat.log();
        assert_eq!(log.matches("`authenticate`").count(), 1, "{log}");
    }

    #[tokio::test]
    async fn a_player_that_sends_no_packet_never_reaches_the_server() {
        let seat = Seat::start().await;
        // White space past the opening's bound, and a document that ends
        // before any packet.
        seat.cut_off(&[&b"<protocol>"[..], &vec![b' '; OPENING_BYTES + 10]].concat())
            .await;
        seat.cut_off(b"<protocol></protocol>").await;
        seat.first_seen_is_a_join().await;
        let log = seat.log();
        assert!(log.contains("bytes before its first packet"), "{log}");
    }

    #[test]
    fn a_seat_opens_a_burst_of_connections_then_one_a_second() {
        let start = Instant::now();
        let mut rate = ConnectionRate::new(start);
        for n in 0..CONNECTION_BURST {
            assert!(rate.admit(start), "connection {n} of the burst");
        }
        assert!(!rate.admit(start), "one past the burst");
        assert!(!rate.admit(start + CONNECTION_EVERY / 2));
        assert!(rate.admit(start + CONNECTION_EVERY));
        assert!(!rate.admit(start + CONNECTION_EVERY));
        // A long pause refills the burst, and no more than it.
        let later = start + CONNECTION_EVERY * 100;
        for n in 0..CONNECTION_BURST {
            assert!(rate.admit(later), "connection {n} after the pause");
        }
        assert!(!rate.admit(later));
    }
}
