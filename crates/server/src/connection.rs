//! One client connection: reads the client's `<protocol>` stream, turns
//! packets into lobby and room requests, and answers errors. Writing goes
//! through the connection's outbox ([`crate::outbound`]): senders write
//! themselves, and the connection's writer task finishes what the socket
//! would not take at once.
//!
//! What a connection may do depends on its role: anyone may join a game; a
//! seated player sends moves to its room; an administrator (after
//! `authenticate`, or from the start for an in-process administrator, see
//! [`crate::in_process`]) prepares, observes, pauses, steps and cancels
//! rooms.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, DecodeError, FrameDecoder, GameMove, GameType, StreamEvent, dialect::LeaveCause,
    error::prefix, games,
};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, DuplexStream},
    net::TcpStream,
    time::Instant,
};
use tokio_util::{codec::Decoder, sync::CancellationToken, task::AbortOnDropHandle};
use tracing::{Instrument, debug, info, warn};

use crate::{
    clock::sleep_until_some,
    config::Config,
    ids::{ReservationCode, RoomId},
    in_process::Standing,
    limits::{AuthBackoff, LogBudget},
    lobby::{LobbyError, LobbyHandle, PrepareRequest},
    outbound::{self, ConnId, Outbox},
    replay::wire_log::SeatTap,
    room::{RoomCommand, RoomHandle, SeatSpec},
    stats::{OpenConnection, ServerStats},
    texts, wire,
};

/// How long a connection the server has finished with may keep sending
/// before it is dropped. Reading its last bytes instead of dropping at once
/// keeps the kernel from resetting the connection, which could destroy the
/// result packets the client has not read yet.
const LINGER: Duration = Duration::from_secs(2);

/// The linger while the server shuts down.
const SHUTDOWN_LINGER: Duration = Duration::from_millis(200);

/// How long the end of a connection may take in all.
const FAREWELL_LIMIT: Duration = Duration::from_secs(8);

/// The connection's writer task.
type WriterTask = AbortOnDropHandle<std::io::Result<()>>;

/// How many refused or bad requests of one connection are logged at INFO;
/// the rest go to DEBUG and are counted in one line at the end, so that a
/// flooding client cannot flood the log.
const COMPLAINTS_AT_INFO: u32 = 10;

/// An unfinished message larger than this is closed when the unfinished
/// messages of all connections together exceed their bound. Every
/// protocol request is far smaller; only a peer holding a large message
/// open is affected.
const LARGE_UNFINISHED: usize = 64 * 1024;

/// A connection's read buffer to begin with: a request (a move, a join) is
/// a few hundred bytes; a larger message grows the buffer.
const READ_BUFFER: usize = 1024;

/// A read buffer larger than this is given back once it is empty, so that
/// one large message does not keep its memory for the connection's life.
const KEPT_BUFFER: usize = 64 * 1024;

/// Everything a connection needs from the server.
#[derive(Clone, Debug)]
pub struct ConnectionContext {
    /// The lobby.
    pub lobby: LobbyHandle,
    /// The configuration.
    pub config: Arc<Config>,
    /// Cancelled when the server closes all connections.
    pub closing: CancellationToken,
    /// Cancelled when the server begins to shut down.
    pub stopping: CancellationToken,
    /// Bytes of unfinished messages held by all connections.
    pub unfinished: Arc<AtomicUsize>,
    /// The server's counters.
    pub stats: Arc<ServerStats>,
    /// The passphrase back-off per address.
    pub auth: Arc<AuthBackoff>,
    /// The budget of WARN lines about connections closed for not reading,
    /// shared by all connections: a flood of them logs a few lines and a
    /// count, not a line each.
    pub warn_log: Arc<Mutex<LogBudget>>,
}

/// WARN lines about connections closed for not reading, per
/// [`WARN_WINDOW`], for all connections together.
pub const WARNS_PER_WINDOW: u32 = 10;

/// See [`WARNS_PER_WINDOW`].
pub const WARN_WINDOW: Duration = Duration::from_secs(10);

/// Where a connection comes from, which decides how it may administer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A TCP client at this address: administers after `authenticate` with
    /// the passphrase; its guesses wait their turn per address
    /// ([`AuthBackoff`]).
    Tcp(SocketAddr),
    /// A connection from inside the server's process, whose standing is
    /// fixed from the start ([`crate::in_process`]).
    InProcess(Standing),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Tcp(peer) => peer.fmt(f),
            Origin::InProcess(standing) => standing.fmt(f),
        }
    }
}

/// Serves one accepted connection until it ends.
pub async fn serve(socket: TcpStream, peer: SocketAddr, id: ConnId, context: ConnectionContext) {
    let span = tracing::info_span!("conn", conn = %id, %peer);
    async move {
        if let Err(error) = socket.set_nodelay(true) {
            debug!(%error, "cannot set TCP_NODELAY");
        }
        let (read_half, write_half) = socket.into_split();
        run(read_half, write_half, Origin::Tcp(peer), id, context).await;
    }
    .instrument(span)
    .await;
}

/// Serves one in-process connection (the server's end of its pipe) until
/// it ends.
pub async fn serve_in_process(
    stream: DuplexStream,
    standing: Standing,
    id: ConnId,
    context: ConnectionContext,
) {
    let span = tracing::info_span!("conn", conn = %id, peer = %standing);
    let (read_half, write_half) = tokio::io::split(stream);
    run(
        read_half,
        write_half,
        Origin::InProcess(standing),
        id,
        context,
    )
    .instrument(span)
    .await;
}

/// Serves a connection, read from `read_half` and written to `write_half`,
/// until it ends.
async fn run<R, W>(
    mut read_half: R,
    write_half: W,
    origin: Origin,
    id: ConnId,
    context: ConnectionContext,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Send + 'static,
{
    let _open = OpenConnection::new(Arc::clone(&context.stats));
    let (outbox, writer) = outbound::channel(id);
    outbox.set_limit(context.config.player_outbox_bytes);
    // Aborted when dropped: a writer stuck on a client that does not read
    // must not outlive its connection.
    let mut writer = AbortOnDropHandle::new(tokio::spawn(writer.run(write_half).in_current_span()));
    debug!("connected");
    let mut connection = Connection {
        id,
        origin,
        outbox,
        context,
        seat: None,
        admin: false,
        complaints: 0,
        unfinished: 0,
        wire: None,
        seated_now: false,
    };
    if origin == Origin::InProcess(Standing::Administrator) {
        connection.become_admin().await;
    }
    let ended = connection.read_loop(&mut read_half, &mut writer).await;
    connection.hold_unfinished(0);
    match ended {
        Ended::SlowReader => ServerStats::count(&connection.context.stats.slow_readers),
        Ended::SlowMessage => ServerStats::count(&connection.context.stats.slow_messages),
        _ => {}
    }
    connection.cleanup(ended.leave_cause()).await;
    if let Some(suppressed) = connection.complaints.checked_sub(COMPLAINTS_AT_INFO)
        && suppressed > 0
    {
        info!(
            suppressed,
            "further bad requests of this connection were logged at DEBUG only"
        );
    }
    // At shutdown nobody waits long for stragglers.
    let linger_for = if connection.context.stopping.is_cancelled() {
        SHUTDOWN_LINGER
    } else {
        LINGER
    };
    let closing = connection.context.closing.clone();
    // A client that does not read would not take its last packets
    // either: it is dropped at once (the writer with it).
    if !matches!(ended, Ended::SlowReader) {
        tokio::select! {
            () = farewell(read_half, writer, linger_for) => {}
            // The server is closing every connection: stop waiting.
            () = closing.cancelled() => {}
        }
    }
    debug!(?ended, "disconnected");
}

/// Tells a connection beyond a connection limit why (`text`), and closes
/// it.
pub async fn refuse(socket: TcpStream, text: String) {
    let (outbox, writer) = outbound::channel(ConnId(0));
    let _ = outbox.send(wire::error_packet(&text, None));
    let _ = outbox.send(wire::close());
    outbox.close();
    let (mut read_half, write_half) = socket.into_split();
    let _ = writer.run(write_half).await;
    linger(&mut read_half, LINGER).await;
}

/// Why the read loop stopped.
#[derive(Debug)]
enum Ended {
    /// The client closed its stream (`</protocol>`, `<close/>` or EOF).
    ByClient,
    /// The server finished the stream (the game is over).
    ByServer,
    /// The client broke the protocol; it has been told why.
    ProtocolError,
    /// The client did nothing useful for too long.
    Idle,
    /// The client sent a message too slowly, or held a large unfinished
    /// message while the server was short of memory for them.
    SlowMessage,
    /// The client did not read what the server sent it.
    SlowReader,
    /// The socket failed.
    Io,
    /// The server is shutting down.
    Shutdown,
}

impl Ended {
    /// How a player whose connection ended so has left its game.
    fn leave_cause(&self) -> LeaveCause {
        match self {
            Ended::ByClient => LeaveCause::ReceivedDisconnect,
            Ended::ProtocolError => LeaveCause::ProtocolError,
            Ended::SlowMessage => LeaveCause::ProtocolError,
            Ended::ByServer | Ended::Idle | Ended::Io | Ended::Shutdown | Ended::SlowReader => {
                LeaveCause::LostConnection
            }
        }
    }
}

/// What to do after a packet.
enum Flow {
    Continue,
    Stop(Ended),
}

struct Connection {
    id: ConnId,
    origin: Origin,
    outbox: Outbox,
    context: ConnectionContext,
    /// The room this connection plays in, if any.
    seat: Option<RoomHandle>,
    admin: bool,
    /// Refused or bad requests so far (see [`COMPLAINTS_AT_INFO`]).
    complaints: u32,
    /// Bytes of an unfinished message this connection holds, as counted in
    /// [`ConnectionContext::unfinished`].
    unfinished: usize,
    /// The seat's wire log, if its room keeps one: gets what is read.
    wire: Option<SeatTap>,
    /// A join just took a seat: the read loop looks for the seat's wire
    /// log tap once, and logs the request that took the seat.
    seated_now: bool,
}

/// Logs a refused or bad request: at INFO for the first
/// [`COMPLAINTS_AT_INFO`] of a connection, at DEBUG after that.
macro_rules! complain {
    ($connection:expr, $($arg:tt)+) => {
        $connection.complaints = $connection.complaints.saturating_add(1);
        if $connection.complaints <= COMPLAINTS_AT_INFO {
            info!($($arg)+);
        } else {
            debug!($($arg)+);
        }
    };
}

impl Connection {
    async fn read_loop<R: AsyncRead + Unpin>(
        &mut self,
        socket: &mut R,
        writer: &mut WriterTask,
    ) -> Ended {
        let config = Arc::clone(&self.context.config);
        let mut decoder =
            FrameDecoder::with_limits(config.max_message_bytes, config.max_nesting_depth);
        let mut buffer = BytesMut::with_capacity(READ_BUFFER);
        let mut read_at = Instant::now();
        let mut idle_deadline = read_at + config.idle_limit;
        // When the message now arriving must be complete.
        let mut message_deadline: Option<Instant> = None;
        // Since when the outbox has been over its bound.
        let mut over_since: Option<Instant> = None;
        let mut outbox_state = self.outbox.watch_limit();
        // Made once, not per read: each makes and drops a waiter.
        let overflowed = self.outbox.overflow_signal().cancelled_owned();
        let closing = self.context.closing.clone().cancelled_owned();
        tokio::pin!(overflowed, closing);
        'read: loop {
            // Handle what has arrived, unless the client has not read enough
            // of its answers: then it waits (back-pressure), unread.
            while !*outbox_state.borrow_and_update() {
                match decoder.decode(&mut buffer) {
                    Ok(Some(StreamEvent::Frame(frame))) => {
                        idle_deadline = Instant::now() + config.idle_limit;
                        message_deadline = None;
                        let flow = self.on_frame(frame.as_bytes(), read_at).await;
                        if self.seated_now {
                            self.seated_now = false;
                            self.wire = self.outbox.wire_tap();
                            // The seat's log begins with the request that
                            // took it, then what was read after it.
                            if let Some(tap) = &self.wire {
                                let mut first = frame.as_bytes().to_vec();
                                first.extend_from_slice(&buffer);
                                tap.received_before(&first, read_at.elapsed());
                            }
                        }
                        if let Flow::Stop(ended) = flow {
                            break 'read ended;
                        }
                    }
                    Ok(Some(StreamEvent::End)) => break 'read Ended::ByClient,
                    Ok(None) => break,
                    Err(error) => {
                        ServerStats::count(&self.context.stats.protocol_errors);
                        complain!(self, %error, "unreadable stream");
                        self.fail(texts::framing_error(&error));
                        break 'read Ended::ProtocolError;
                    }
                }
            }
            let over = *outbox_state.borrow();
            let now = Instant::now();
            if over && over_since.is_none() {
                debug!(
                    queued_bytes = self.outbox.queued_bytes(),
                    "client reads too slowly; pausing its requests"
                );
                ServerStats::count(&self.context.stats.reads_paused);
            }
            let over_deadline =
                over.then(|| *over_since.get_or_insert(now) + config.slow_reader_grace);
            if !over {
                over_since = None;
            }
            if decoder.in_packet() {
                message_deadline.get_or_insert(now + config.message_timeout);
                if !self.hold_unfinished(buffer.len()) {
                    complain!(
                        self,
                        bytes = buffer.len(),
                        "unfinished message refused: the server holds too many"
                    );
                    self.fail(texts::unfinished_messages_over_bound());
                    break Ended::SlowMessage;
                }
            } else {
                message_deadline = None;
                self.hold_unfinished(0);
                if buffer.is_empty() && buffer.capacity() > KEPT_BUFFER {
                    buffer = BytesMut::with_capacity(READ_BUFFER);
                }
            }
            let idle_applies = self.playing().is_none() && !self.admin;
            let filled = buffer.len();
            tokio::select! {
                read = socket.read_buf(&mut buffer), if !over => {
                    read_at = Instant::now();
                    match read {
                        Ok(0) => break Ended::ByClient,
                        Ok(_) => {
                            if let Some(tap) = &self.wire {
                                tap.received(&buffer[filled..]);
                            }
                        }
                        Err(error) => {
                            debug!(%error, "read failed");
                            break Ended::Io;
                        }
                    }
                }
                // The outbox went over or under its bound.
                Ok(()) = outbox_state.changed() => {}
                () = sleep_until_some(over_deadline) => {
                    if let Some(suppressed) = self.warn_allowed() {
                        warn!(
                            queued_bytes = self.outbox.queued_bytes(),
                            grace_secs = config.slow_reader_grace.as_secs(),
                            suppressed,
                            "client does not read its messages; closing"
                        );
                    }
                    break Ended::SlowReader;
                }
                () = sleep_until_some(message_deadline), if !over => {
                    complain!(self, limit_secs = config.message_timeout.as_secs(), "message not completed in time");
                    self.fail(texts::message_timeout(config.message_timeout));
                    break Ended::SlowMessage;
                }
                () = tokio::time::sleep_until(idle_deadline), if idle_applies => {
                    complain!(self, limit_secs = config.idle_limit.as_secs(), "idle connection closed");
                    self.fail(texts::idle(config.idle_limit));
                    break Ended::Idle;
                }
                _ = &mut *writer => break Ended::ByServer,
                () = &mut overflowed => {
                    if let Some(suppressed) = self.warn_allowed() {
                        warn!(
                            queued_bytes = self.outbox.queued_bytes(),
                            suppressed,
                            "client does not read its messages (twice its bound queued); closing"
                        );
                    }
                    break Ended::SlowReader;
                }
                () = &mut closing => {
                    let _ = self.outbox.send(wire::close());
                    self.outbox.close();
                    break Ended::Shutdown;
                }
            }
        }
    }

    /// Whether a WARN line may be logged now (see [`WARNS_PER_WINDOW`]),
    /// with the count of those left out since the last one.
    fn warn_allowed(&self) -> Option<u64> {
        self.context
            .warn_log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .allow()
    }

    /// Records that this connection now holds `bytes` of an unfinished
    /// message. `false` if that is a large message while all connections
    /// together hold more than their bound: the connection must go.
    fn hold_unfinished(&mut self, bytes: usize) -> bool {
        let total = &self.context.unfinished;
        if bytes >= self.unfinished {
            total.fetch_add(bytes - self.unfinished, Ordering::Relaxed);
        } else {
            total.fetch_sub(self.unfinished - bytes, Ordering::Relaxed);
        }
        self.unfinished = bytes;
        bytes <= LARGE_UNFINISHED
            || total.load(Ordering::Relaxed) <= self.context.config.max_unfinished_bytes
    }

    /// The room this connection plays in, if its game is still on.
    fn playing(&self) -> Option<&RoomHandle> {
        self.seat.as_ref().filter(|room| !room.has_ended())
    }

    /// Handles one complete packet. Moves are read as moves of the game
    /// this connection plays (decisions.md §13: one server, many games).
    async fn on_frame(&mut self, frame: &[u8], read_at: Instant) -> Flow {
        let game = self.playing().map(RoomHandle::game_type);
        let message = match ClientMessage::decode(frame, game) {
            Ok(message) => message,
            Err(error) => return self.on_undecodable(&error),
        };
        debug!(packet = message.element_name(), "received");
        match message {
            ClientMessage::Join { ref game_type } => {
                let requested = game_type.clone();
                // The game of a refused join, whose dialect says whether
                // the connection stays open.
                let game = match game_type {
                    Some(id) => GameType::from_id(id),
                    None => Some(self.context.config.default_game),
                };
                self.join(&message, game, |lobby, outbox| async move {
                    lobby.join(requested, outbox).await
                })
                .await
            }
            ClientMessage::JoinRoom { ref room_id } => {
                let room_id = RoomId::from(room_id.as_str());
                self.join(&message, None, |lobby, outbox| async move {
                    lobby.join_room(room_id, outbox).await
                })
                .await
            }
            ClientMessage::JoinPrepared {
                ref reservation_code,
            } => {
                let code = ReservationCode::from(reservation_code.as_str());
                self.join(&message, None, |lobby, outbox| async move {
                    lobby.join_prepared(code, outbox).await
                })
                .await
            }
            ClientMessage::Move { ref room_id, mv } => {
                match &self.seat {
                    Some(room) if room.id().as_str() == room_id => {
                        let command = RoomCommand::Move {
                            conn: self.id,
                            mv,
                            read_at,
                        };
                        if !room.send(command).await {
                            // The game ended meanwhile.
                            self.seat = None;
                            self.reject(&texts::unknown_room(room_id), &message);
                        }
                    }
                    _ => {
                        self.reject_foreign_room(room_id, frame, &message, None)
                            .await
                    }
                }
                Flow::Continue
            }
            ClientMessage::RoomWithoutMove {
                ref room_id,
                ref data_class,
            } => {
                let mine = self.playing().is_some_and(|r| r.id().as_str() == room_id);
                match data_class {
                    Some(class) if !mine => {
                        self.reject_foreign_room(room_id, frame, &message, Some(class))
                            .await;
                    }
                    _ => self.reject(
                        &texts::non_move_packet(room_id, data_class.as_deref()),
                        &message,
                    ),
                }
                Flow::Continue
            }
            ClientMessage::Authenticate { ref password } => {
                self.authenticate(password, &message).await
            }
            ClientMessage::Prepare(_)
            | ClientMessage::Observe { .. }
            | ClientMessage::Pause { .. }
            | ClientMessage::Step { .. }
            | ClientMessage::Cancel { .. }
            | ClientMessage::TestMode { .. }
            | ClientMessage::ScoreForPlayer { .. } => {
                if self.admin {
                    self.administrate(&message).await;
                } else {
                    self.reject(&texts::unauthenticated(&message), &message);
                }
                Flow::Continue
            }
            ClientMessage::Close => Flow::Stop(Ended::ByClient),
            ClientMessage::Unknown { ref name } => {
                ServerStats::count(&self.context.stats.protocol_errors);
                complain!(self, element = %prefix(name), "unknown packet");
                self.reject(&texts::unknown_message(name), &message);
                Flow::Continue
            }
        }
    }

    /// A complete element that is no valid packet: answered, and the
    /// connection closed (a running game lost) where the error says so
    /// ([`DecodeError::closes_connection`]).
    fn on_undecodable(&mut self, error: &DecodeError) -> Flow {
        ServerStats::count(&self.context.stats.protocol_errors);
        complain!(self, %error, "undecodable packet");
        let text = texts::malformed_message(error);
        if error.closes_connection() {
            self.fail(text);
            Flow::Stop(Ended::ProtocolError)
        } else {
            let _ = self.outbox.send(wire::error_packet(&text, None));
            Flow::Continue
        }
    }

    /// A join (`request`) into a game of `game`, if known; `ask` asks the
    /// lobby. A refused join closes the connection if the game's dialect
    /// says so.
    async fn join<F, Fut>(
        &mut self,
        request: &ClientMessage,
        game: Option<GameType>,
        ask: F,
    ) -> Flow
    where
        F: FnOnce(LobbyHandle, Outbox) -> Fut,
        Fut: Future<Output = Result<crate::lobby::Joined, LobbyError>>,
    {
        if let Some(room) = self.playing() {
            let text = texts::already_seated(room.id().as_str());
            self.reject(&text, request);
            return Flow::Continue;
        }
        match ask(self.context.lobby.clone(), self.outbox.clone()).await {
            Ok(joined) => {
                info!(room = %joined.room.id(), seat = joined.seat, "joined");
                self.seat = Some(joined.room);
                self.seated_now = true;
                Flow::Continue
            }
            Err(error) => {
                complain!(self, %error, "join refused");
                if game.is_some_and(|g| games::dialect(g).closes_after_refused_join) {
                    self.fail_with_request(error.message(), request);
                    Flow::Stop(Ended::ProtocolError)
                } else {
                    self.reject(&error.message(), request);
                    Flow::Continue
                }
            }
        }
    }

    /// Refuses a `room` packet for a room this connection does not play in:
    /// a move is refused as from a non-member (or for an unknown room) and
    /// echoed as the addressed room's game reads it (`frame` is decoded
    /// again for that game); other data as a non-move packet. `class` is
    /// the data's class if it was not read as a move of this connection's
    /// game.
    async fn reject_foreign_room(
        &mut self,
        room_id: &str,
        frame: &[u8],
        message: &ClientMessage,
        class: Option<&str>,
    ) {
        let room = self.context.lobby.find_room(RoomId::from(room_id)).await;
        let Some(room) = room else {
            // No room to ask: a move of any hosted game is a move.
            let a_move = class.is_none_or(|class| {
                GameType::ALL
                    .iter()
                    .any(|&game| GameMove::is_move_class(game, class))
            });
            let text = if a_move {
                texts::unknown_room(room_id)
            } else {
                texts::non_move_packet(room_id, class)
            };
            self.reject(&text, message);
            return;
        };
        let game = Some(room.game_type());
        let echo = if game == self.playing().map(RoomHandle::game_type) {
            None
        } else {
            ClientMessage::decode(frame, game).ok()
        };
        match echo.as_ref().unwrap_or(message) {
            echo @ ClientMessage::Move { .. } => self.reject(&texts::not_a_member(room_id), echo),
            _ => self.reject(&texts::non_move_packet(room_id, class), message),
        }
    }

    async fn authenticate(&mut self, password: &str, request: &ClientMessage) -> Flow {
        let peer = match self.origin {
            Origin::Tcp(peer) => peer,
            // Administrator from the start: nothing to check.
            Origin::InProcess(Standing::Administrator) => return Flow::Continue,
            // A player's connection never administers; refused unchecked,
            // so its attempts cost nobody else anything.
            Origin::InProcess(Standing::Player) => {
                complain!(
                    self,
                    "authenticate from a player's in-process connection refused"
                );
                self.fail_with_request(texts::players_do_not_administer(), request);
                return Flow::Stop(Ended::ProtocolError);
            }
        };
        let Some(expected) = self.context.config.admin_passphrase.as_deref() else {
            self.reject(&texts::administration_disabled(), request);
            return Flow::Continue;
        };
        // Guessing is not free: after a failure, attempts from this address
        // wait their turn, longer with every failure.
        let ip = peer.ip();
        let turn = self.context.auth.reserve(ip);
        tokio::select! {
            () = tokio::time::sleep_until(turn) => {}
            () = self.context.closing.cancelled() => return Flow::Stop(Ended::Shutdown),
        }
        if constant_time_eq(expected.as_bytes(), password.as_bytes()) {
            self.context.auth.succeeded(ip);
            self.become_admin().await;
            return Flow::Continue;
        }
        // A wrong passphrase costs the connection, as on the official
        // server.
        self.context.auth.failed(ip);
        ServerStats::count(&self.context.stats.failed_authentications);
        if let Some(suppressed) = self.context.auth.log_allowed() {
            warn!(
                %peer,
                failures = self.context.auth.failures(ip),
                suppressed,
                "wrong administrator passphrase"
            );
        }
        self.fail_with_request(texts::authentication_failed(), request);
        Flow::Stop(Ended::ProtocolError)
    }

    /// The connection administers from now on (once).
    async fn become_admin(&mut self) {
        if !self.admin {
            self.admin = true;
            self.outbox
                .set_limit(self.context.config.observer_outbox_bytes);
            info!("administrator authenticated");
            self.context.lobby.register_admin(self.outbox.clone()).await;
        }
    }

    async fn administrate(&mut self, request: &ClientMessage) {
        let lobby = &self.context.lobby;
        match request {
            ClientMessage::Prepare(prepare) => {
                let seats = prepare
                    .slots
                    .iter()
                    .map(|slot| SeatSpec {
                        display_name: slot.display_name.clone().unwrap_or_default(),
                        can_timeout: slot.can_timeout,
                        reserved: slot.reserved,
                    })
                    .collect();
                let answer = lobby
                    .prepare(PrepareRequest {
                        game_type: prepare.game_type.clone(),
                        paused: prepare.pause,
                        seats,
                        seed: prepare.seed,
                        wire_log: prepare.wire_log,
                    })
                    .await;
                match answer {
                    Ok(prepared) => {
                        info!(room = %prepared.room_id, "room prepared");
                        let _ = self
                            .outbox
                            .send(wire::prepared(&prepared.room_id, &prepared.codes));
                    }
                    Err(error) => self.reject(&error.message(), request),
                }
            }
            ClientMessage::Observe { room_id } => {
                self.forward_to_room(
                    room_id,
                    request,
                    RoomCommand::Observe {
                        outbox: self.outbox.clone(),
                    },
                )
                .await;
            }
            ClientMessage::Pause { room_id, pause } => {
                self.forward_to_room(room_id, request, RoomCommand::Pause { paused: *pause })
                    .await;
            }
            ClientMessage::Step { room_id, .. } => {
                self.forward_to_room(room_id, request, RoomCommand::Step)
                    .await;
            }
            ClientMessage::Cancel { room_id } => {
                self.forward_to_room(room_id, request, RoomCommand::Cancel)
                    .await;
            }
            ClientMessage::TestMode { test_mode } => {
                lobby.set_test_mode(*test_mode).await;
                let _ = self.outbox.send(wire::testing(*test_mode));
            }
            ClientMessage::ScoreForPlayer { display_name } => {
                match lobby.score_for_player(display_name.clone()).await {
                    Some(report) => {
                        let _ = self.outbox.send(wire::player_score(report));
                    }
                    None => self.reject(&texts::no_scores(display_name), request),
                }
            }
            // Only administrative requests reach this point.
            _ => {}
        }
    }

    async fn forward_to_room(
        &mut self,
        room_id: &str,
        request: &ClientMessage,
        command: RoomCommand,
    ) {
        let room = self.context.lobby.find_room(RoomId::from(room_id)).await;
        let delivered = match room {
            Some(room) => room.send(command).await,
            None => false,
        };
        if !delivered {
            self.reject(&texts::unknown_room(room_id), request);
        }
    }

    /// Answers a request with an error packet; the connection stays open
    /// (decisions.md §10).
    fn reject(&self, text: &str, request: &ClientMessage) {
        let _ = self.outbox.send(wire::error_packet(text, Some(request)));
    }

    /// Answers with an error packet, then `<close/>`; the read loop stops.
    fn fail(&self, text: String) {
        let _ = self.outbox.send(wire::error_packet(&text, None));
        let _ = self.outbox.send(wire::close());
        self.outbox.close();
    }

    fn fail_with_request(&self, text: String, request: &ClientMessage) {
        let _ = self.outbox.send(wire::error_packet(&text, Some(request)));
        let _ = self.outbox.send(wire::close());
        self.outbox.close();
    }

    /// Tells the room (a seated player leaving loses, for `cause`) and the
    /// lobby.
    async fn cleanup(&mut self, cause: LeaveCause) {
        if let Some(room) = self.seat.take() {
            room.send(RoomCommand::Leave {
                conn: self.id,
                cause,
            })
            .await;
        }
        if self.admin {
            self.context.lobby.connection_closed(self.id).await;
        }
        self.outbox.close();
    }
}

/// Lets the writer flush what is queued and end the document, reading and
/// discarding what the client still sends; a writer that cannot finish in
/// time (the client does not read) is aborted.
async fn farewell<R: AsyncRead + Unpin>(
    mut socket: R,
    mut writer: WriterTask,
    linger_for: Duration,
) {
    let finished = writer.is_finished();
    let drain = async {
        if !finished {
            let _ = (&mut writer).await;
        }
        linger(&mut socket, linger_for).await;
    };
    if tokio::time::timeout(FAREWELL_LIMIT, drain).await.is_err() {
        debug!("client does not take its last packets; dropping the connection");
    }
}

/// Reads and discards until the client closes or `duration` is over.
async fn linger<R: AsyncRead + Unpin>(socket: &mut R, duration: Duration) {
    let mut sink = [0u8; 4096];
    let until = Instant::now() + duration;
    while let Ok(Ok(n)) = tokio::time::timeout_at(until, socket.read(&mut sink)).await {
        if n == 0 {
            break;
        }
    }
}

/// Compares secrets without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passphrases_compare_exactly() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"", b"x"));
    }
}
