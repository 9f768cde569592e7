//! One client connection: reads the client's `<protocol>` stream, turns
//! packets into lobby and room requests, and answers errors. Writing is left
//! to the connection's own writer task ([`crate::outbound`]).
//!
//! What a connection may do depends on its role: anyone may join a game; a
//! seated player sends moves to its room; an administrator (after
//! `authenticate`) prepares, observes, pauses, steps and cancels rooms.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, DecodeError, FrameDecoder, GameMove, GameType, StreamEvent, dialect::LeaveCause,
    games,
};
use tokio::{
    io::AsyncReadExt,
    net::{TcpStream, tcp::OwnedReadHalf},
    time::Instant,
};
use tokio_util::{codec::Decoder, sync::CancellationToken, task::AbortOnDropHandle};
use tracing::{Instrument, debug, info, warn};

use crate::{
    config::Config,
    ids::{ReservationCode, RoomId},
    lobby::{LobbyError, LobbyHandle, PrepareRequest},
    outbound::{self, ConnId, Outbox},
    room::{RoomCommand, RoomHandle, SeatSpec},
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
}

/// Serves one accepted connection until it ends.
pub async fn serve(socket: TcpStream, peer: SocketAddr, id: ConnId, context: ConnectionContext) {
    let span = tracing::info_span!("conn", conn = %id, %peer);
    async move {
        if let Err(error) = socket.set_nodelay(true) {
            debug!(%error, "cannot set TCP_NODELAY");
        }
        let (read_half, write_half) = socket.into_split();
        let (outbox, writer) = outbound::channel(id);
        // Aborted when dropped: a writer stuck on a client that does not read
        // must not outlive its connection.
        let mut writer =
            AbortOnDropHandle::new(tokio::spawn(writer.run(write_half).in_current_span()));
        debug!("connected");
        let mut connection = Connection {
            id,
            outbox,
            context,
            seat: None,
            admin: false,
        };
        let mut read_half = read_half;
        let ended = connection.read_loop(&mut read_half, &mut writer).await;
        connection.cleanup(ended.leave_cause()).await;
        // At shutdown nobody waits long for stragglers.
        let linger_for = if connection.context.stopping.is_cancelled() {
            SHUTDOWN_LINGER
        } else {
            LINGER
        };
        let closing = connection.context.closing.clone();
        tokio::select! {
            () = farewell(read_half, writer, linger_for) => {}
            // The server is closing every connection: stop waiting.
            () = closing.cancelled() => {}
        }
        debug!(?ended, "disconnected");
    }
    .instrument(span)
    .await;
}

/// Tells a connection beyond the connection limit so, and closes it.
pub async fn refuse(socket: TcpStream, limit: usize) {
    let (outbox, writer) = outbound::channel(ConnId(0));
    let _ = outbox.send(wire::error_packet(&texts::server_full(limit), None));
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
            Ended::ByServer | Ended::Idle | Ended::Io | Ended::Shutdown => {
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
    outbox: Outbox,
    context: ConnectionContext,
    /// The room this connection plays in, if any.
    seat: Option<RoomHandle>,
    admin: bool,
}

impl Connection {
    async fn read_loop(&mut self, socket: &mut OwnedReadHalf, writer: &mut WriterTask) -> Ended {
        let config = Arc::clone(&self.context.config);
        let mut decoder =
            FrameDecoder::with_limits(config.max_message_bytes, config.max_nesting_depth);
        let mut buffer = BytesMut::with_capacity(4096);
        let mut read_at = Instant::now();
        let mut idle_deadline = read_at + config.idle_limit;
        'read: loop {
            loop {
                match decoder.decode(&mut buffer) {
                    Ok(Some(StreamEvent::Frame(frame))) => {
                        idle_deadline = Instant::now() + config.idle_limit;
                        if let Flow::Stop(ended) = self.on_frame(frame.as_bytes(), read_at).await {
                            break 'read ended;
                        }
                    }
                    Ok(Some(StreamEvent::End)) => break 'read Ended::ByClient,
                    Ok(None) => break,
                    Err(error) => {
                        info!(%error, "unreadable stream");
                        self.fail(texts::framing_error(&error));
                        break 'read Ended::ProtocolError;
                    }
                }
            }
            let idle_applies = self.playing().is_none() && !self.admin;
            tokio::select! {
                read = socket.read_buf(&mut buffer) => {
                    read_at = Instant::now();
                    match read {
                        Ok(0) => break Ended::ByClient,
                        Ok(_) => {}
                        Err(error) => {
                            debug!(%error, "read failed");
                            break Ended::Io;
                        }
                    }
                }
                () = tokio::time::sleep_until(idle_deadline), if idle_applies => {
                    info!(limit_secs = config.idle_limit.as_secs(), "idle connection closed");
                    self.fail(texts::idle(config.idle_limit));
                    break Ended::Idle;
                }
                _ = &mut *writer => break Ended::ByServer,
                () = self.outbox.overflowed() => {
                    warn!("client does not read its messages; closing");
                    break Ended::Io;
                }
                () = self.context.closing.cancelled() => {
                    let _ = self.outbox.send(wire::close());
                    self.outbox.close();
                    break Ended::Shutdown;
                }
            }
        }
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
                info!(element = %name, "unknown packet");
                self.reject(&texts::unknown_message(name), &message);
                Flow::Continue
            }
        }
    }

    /// A complete element that is no valid packet. Malformed XML cannot be
    /// resynchronised and a malformed move is a protocol error of a player:
    /// both close the connection (and lose a running game). Other shape
    /// errors are answered and forgiven.
    fn on_undecodable(&mut self, error: &DecodeError) -> Flow {
        info!(%error, "undecodable packet");
        let text = texts::malformed_message(error);
        match error {
            DecodeError::Xml(_)
            | DecodeError::RepeatedAttribute { .. }
            | DecodeError::TooManyAttributes { .. }
            | DecodeError::UnexpectedEof
            | DecodeError::MalformedMove(_) => {
                self.fail(text);
                Flow::Stop(Ended::ProtocolError)
            }
            _ => {
                let _ = self.outbox.send(wire::error_packet(&text, None));
                Flow::Continue
            }
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
                Flow::Continue
            }
            Err(error) => {
                info!(%error, "join refused");
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
        match &self.context.config.admin_passphrase {
            None => {
                self.reject(&texts::administration_disabled(), request);
                Flow::Continue
            }
            Some(expected) if constant_time_eq(expected.as_bytes(), password.as_bytes()) => {
                if !self.admin {
                    self.admin = true;
                    info!("administrator authenticated");
                    self.context.lobby.register_admin(self.outbox.clone()).await;
                }
                Flow::Continue
            }
            Some(_) => {
                // Guessing is not free: a wrong passphrase costs the
                // connection, as on the official server.
                warn!("wrong administrator passphrase");
                self.fail_with_request(texts::authentication_failed(), request);
                Flow::Stop(Ended::ProtocolError)
            }
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
async fn farewell(mut socket: OwnedReadHalf, mut writer: WriterTask, linger_for: Duration) {
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
async fn linger(socket: &mut OwnedReadHalf, duration: Duration) {
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
