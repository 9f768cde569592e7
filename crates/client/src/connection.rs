//! [`Connection`]: one client connection to a Software-Challenge server, and
//! the request/answer exchanges of players and administrators on it.
//!
//! Reading and writing reuse one buffer each for the life of the connection:
//! a packet is cut out of the read buffer without copying (the frame shares
//! its bytes) and every request is encoded into the same write buffer.

use std::{
    collections::VecDeque,
    net::{IpAddr, SocketAddr},
};

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, ClientStreamEncoder, FrameDecoder, GameMove, GameType, Prepare, ServerMessage,
    StreamEvent, room::RoomData,
};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    net::{TcpStream, ToSocketAddrs},
};
use tokio_util::codec::Decoder;

use crate::error::ClientError;

/// The element name of the administrator's login.
const AUTHENTICATE: &str = "authenticate";

/// Initial capacity of the read buffer: a memento is about 5 KiB.
const READ_CAPACITY: usize = 16 * 1024;
/// Initial capacity of the write buffer: a move is under 300 bytes.
const WRITE_CAPACITY: usize = 1024;

/// The server's answer to `prepare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The new room.
    pub room_id: String,
    /// One reservation code per reserved slot, in slot order.
    pub reservations: Vec<String>,
}

/// An address to connect to, as a person writes it in a message
/// (`localhost:13050`, `[::1]:13050`), not as Rust debug-prints it.
pub trait ServerAddress: ToSocketAddrs {
    /// The address as `HOST:PORT`.
    fn describe(&self) -> String;
}

impl ServerAddress for SocketAddr {
    fn describe(&self) -> String {
        self.to_string()
    }
}

impl ServerAddress for &str {
    fn describe(&self) -> String {
        (*self).to_owned()
    }
}

impl ServerAddress for String {
    fn describe(&self) -> String {
        self.clone()
    }
}

impl ServerAddress for (&str, u16) {
    fn describe(&self) -> String {
        match self.0.contains(':') {
            true => format!("[{}]:{}", self.0, self.1),
            false => format!("{}:{}", self.0, self.1),
        }
    }
}

impl ServerAddress for (IpAddr, u16) {
    fn describe(&self) -> String {
        SocketAddr::from(*self).to_string()
    }
}

/// What a connection reads and writes: a TCP stream, or any other byte
/// stream to a server (an in-process pipe to a server of the same process,
/// say).
pub trait Transport: AsyncRead + AsyncWrite + Send + Unpin + std::fmt::Debug {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin + std::fmt::Debug> Transport for T {}

/// A client connection: a TCP stream (or another [`Transport`]) speaking
/// the protocol.
///
/// [`connect`](Connection::connect) opens the client's `<protocol>` document
/// at once. [`recv`](Connection::recv) yields the server's packets in order;
/// the request methods (`join…`, `prepare`, `observe`) wait for their answer
/// and keep any other packet that arrives meanwhile for later `recv` calls,
/// so nothing is lost when an administrator's connection also carries
/// notices or room packets.
///
/// The client learns the game it plays or observes when it joins
/// ([`join`](Connection::join), [`join_room`](Connection::join_room),
/// [`join_prepared`](Connection::join_prepared)) or observes
/// ([`observe`](Connection::observe)): states, moves and results are read as
/// those of that game.
#[derive(Debug)]
pub struct Connection {
    stream: Box<dyn Transport>,
    game_type: Option<GameType>,
    decoder: FrameDecoder,
    read_buf: BytesMut,
    write_buf: BytesMut,
    encoder: ClientStreamEncoder,
    /// Packets read while waiting for an answer, not yet handed out.
    held: VecDeque<ServerMessage>,
    /// The server ended its document, or closed the socket and every
    /// complete packet before that has been handed out.
    ended: bool,
    /// The socket reached end of file; the buffer may still hold packets.
    eof: bool,
    /// A move packet kept between moves, so that sending a move does not
    /// allocate the room id again.
    move_envelope: Option<ClientMessage>,
    /// The game is a guess until the room's first state confirms it or
    /// names another ([`join_prepared_learning`](Self::join_prepared_learning)).
    learning: bool,
}

impl Connection {
    /// Connects to `addr` and opens the document with `<protocol>`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Connect`] if the connection cannot be opened.
    pub async fn connect(addr: impl ServerAddress) -> Result<Connection, ClientError> {
        let described = addr.describe();
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|cause| ClientError::Connect {
                addr: described,
                cause,
            })?;
        Connection::from_stream(stream).await
    }

    /// Wraps an open stream and opens the document with `<protocol>`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if `<protocol>` cannot be written.
    pub async fn from_stream(stream: TcpStream) -> Result<Connection, ClientError> {
        // Moves are small and latency matters more than packet count.
        stream.set_nodelay(true)?;
        Connection::over(stream).await
    }

    /// Speaks the protocol over `transport` (already connected) and opens
    /// the document with `<protocol>`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if `<protocol>` cannot be written.
    pub async fn over(transport: impl Transport + 'static) -> Result<Connection, ClientError> {
        let mut connection = Connection {
            stream: Box::new(transport),
            game_type: None,
            decoder: FrameDecoder::new(),
            read_buf: BytesMut::with_capacity(READ_CAPACITY),
            write_buf: BytesMut::with_capacity(WRITE_CAPACITY),
            encoder: ClientStreamEncoder::new(),
            held: VecDeque::new(),
            ended: false,
            eof: false,
            move_envelope: None,
            learning: false,
        };
        connection.encoder.open(&mut connection.write_buf);
        connection.flush().await?;
        Ok(connection)
    }

    /// The game whose states this connection reads: the one it joined or
    /// observes last, if any.
    pub fn game_type(&self) -> Option<GameType> {
        self.game_type
    }

    /// Sends one packet.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if the socket cannot be written.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), ClientError> {
        self.encoder.write(message, &mut self.write_buf);
        self.flush().await
    }

    /// Sends a move for `room_id`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if the socket cannot be written.
    pub async fn send_move(&mut self, room_id: &str, mv: GameMove) -> Result<(), ClientError> {
        let envelope = match self.move_envelope.take() {
            Some(ClientMessage::Move { room_id: kept, .. }) if kept == room_id => {
                ClientMessage::Move { room_id: kept, mv }
            }
            _ => ClientMessage::Move {
                room_id: room_id.to_owned(),
                mv,
            },
        };
        self.encoder.write(&envelope, &mut self.write_buf);
        self.move_envelope = Some(envelope);
        self.flush().await
    }

    /// The next packet from the server; `None` once the server has ended its
    /// document (`</protocol>`) or closed the socket.
    ///
    /// # Errors
    ///
    /// I/O errors, a malformed stream, or a packet that cannot be decoded.
    pub async fn recv(&mut self) -> Result<Option<ServerMessage>, ClientError> {
        if let Some(message) = self.held.pop_front() {
            return Ok(Some(message));
        }
        self.read_message().await
    }

    /// Ends the client's document with `</protocol>` and shuts down the
    /// writing half; the server then closes the connection.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if the socket cannot be written.
    pub async fn close(mut self) -> Result<(), ClientError> {
        self.encoder.finish(&mut self.write_buf);
        self.flush().await?;
        self.stream.shutdown().await?;
        Ok(())
    }

    /// Joins any open room of `game` (or opens one) with `join`; returns
    /// the room id.
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] with the server's message if it refuses.
    pub async fn join(&mut self, game: GameType) -> Result<String, ClientError> {
        let request = ClientMessage::Join {
            game_type: Some(game.id().to_owned()),
        };
        self.join_with(request, "join", game).await
    }

    /// Joins the room `room_id`, a room of `game` (`joinRoom`); returns the
    /// room id.
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] with the server's message if it refuses.
    pub async fn join_room(
        &mut self,
        room_id: &str,
        game: GameType,
    ) -> Result<String, ClientError> {
        let request = ClientMessage::JoinRoom {
            room_id: room_id.to_owned(),
        };
        self.join_with(request, "joinRoom", game).await
    }

    /// Takes a reserved slot in a room of `game` (`joinPrepared`); returns
    /// the room id.
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] with the server's message if it refuses.
    pub async fn join_prepared(
        &mut self,
        reservation_code: &str,
        game: GameType,
    ) -> Result<String, ClientError> {
        let request = ClientMessage::JoinPrepared {
            reservation_code: reservation_code.to_owned(),
        };
        self.join_with(request, "joinPrepared", game).await
    }

    /// Takes a reserved slot in a room whose game is not known beforehand
    /// (`joinPrepared`), as a contest client started with only `--host`,
    /// `--port` and `--reservation` does. Nothing in `joined` names the
    /// game, but the room's first state does: its own game reads it as a
    /// consistent position and writes it back unchanged. Waits for that
    /// state (it comes when every
    /// seat is taken) and returns the room id and its game; every packet
    /// read meanwhile is kept for [`recv`](Self::recv). `guess` is tried
    /// first; if the connection ends before a state, it is the answer.
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] with the server's message if it refuses.
    pub async fn join_prepared_learning(
        &mut self,
        reservation_code: &str,
        guess: GameType,
    ) -> Result<(String, GameType), ClientError> {
        self.learning = true;
        let room = self.join_prepared(reservation_code, guess).await?;
        while self.learning {
            match self.read_message().await? {
                Some(message) => self.held.push_back(message),
                None => break,
            }
        }
        self.learning = false;
        Ok((room, self.game_type.unwrap_or(guess)))
    }

    /// Decodes a packet while the game is a guess. A room's state is read
    /// as each game's, the guess first, then those of more seats first; a
    /// game's reading counts if it is a consistent position and writes
    /// back as the same XML (ignoring white space): a lenient reader may
    /// accept another season's state, but its writer gives its own
    /// season's form. That game becomes the connection's game; if none
    /// writes the state back exactly, the first consistent reading wins.
    fn decode_learning(
        &mut self,
        bytes: &[u8],
        guess: GameType,
    ) -> Result<ServerMessage, ClientError> {
        let is_state = |message: &ServerMessage| {
            matches!(
                message,
                ServerMessage::Room {
                    data: RoomData::Memento(_),
                    ..
                }
            )
        };
        let consistent = |message: &ServerMessage| match message {
            ServerMessage::Room {
                data: RoomData::Memento(state),
                ..
            } => state.to_game().is_ok(),
            _ => false,
        };
        let first = ServerMessage::decode(bytes, guess);
        if let Ok(message) = &first
            && !is_state(message)
        {
            // Nothing to learn from it: other packets read alike in every
            // game.
            return Ok(first?);
        }
        let without_space = |text: &[u8]| -> Vec<u8> {
            text.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect()
        };
        let sent = without_space(bytes);
        let mut others: Vec<GameType> = GameType::ALL
            .iter()
            .copied()
            .filter(|&game| game != guess)
            .collect();
        others.sort_by_key(|game| std::cmp::Reverse(game.player_count()));
        let mut readings = std::iter::once((guess, first.as_ref().ok().cloned())).chain(
            others
                .into_iter()
                .map(|game| (game, ServerMessage::decode(bytes, game).ok())),
        );
        let mut fallback = None;
        let learned = readings.find_map(|(game, message)| {
            let message = message.filter(consistent)?;
            if without_space(message.to_xml().as_bytes()) == sent {
                return Some((game, message));
            }
            fallback.get_or_insert((game, message));
            None
        });
        self.learning = false;
        match learned.or(fallback) {
            Some((game, message)) => {
                self.game_type = Some(game);
                Ok(message)
            }
            // No game reads it: the guess's own error (or inconsistent
            // state) is the one to report.
            None => Ok(first?),
        }
    }

    async fn join_with(
        &mut self,
        request: ClientMessage,
        name: &'static str,
        game: GameType,
    ) -> Result<String, ClientError> {
        // The room's packets may follow `joined` at once.
        self.game_type = Some(game);
        self.send(&request).await?;
        self.answer(name, |message| match message {
            ServerMessage::Joined { room_id } => Ok(room_id),
            other => Err(other),
        })
        .await
    }

    /// Becomes administrator. The server does not answer a correct
    /// passphrase; a wrong one is answered with an error packet and the
    /// connection is closed, which the next request then reports.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if the socket cannot be written.
    pub async fn authenticate(&mut self, password: &str) -> Result<(), ClientError> {
        self.send(&ClientMessage::Authenticate {
            password: password.to_owned(),
        })
        .await
    }

    /// Creates a room with the given slots (administrator).
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] if the server refuses (e.g. not
    /// authenticated, unknown game type).
    pub async fn prepare(&mut self, prepare: Prepare) -> Result<Prepared, ClientError> {
        self.send(&ClientMessage::Prepare(prepare)).await?;
        self.answer("prepare", |message| match message {
            ServerMessage::Prepared {
                room_id,
                reservations,
            } => Ok(Prepared {
                room_id,
                reservations,
            }),
            other => Err(other),
        })
        .await
    }

    /// Subscribes to the states, errors and result of `room_id`, a room of
    /// `game` (administrator).
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] if the room does not exist (any more).
    pub async fn observe(&mut self, room_id: &str, game: GameType) -> Result<(), ClientError> {
        self.game_type = Some(game);
        self.send(&ClientMessage::Observe {
            room_id: room_id.to_owned(),
        })
        .await?;
        self.answer("observe", |message| match message {
            ServerMessage::Observed { room_id: observed } if observed == room_id => Ok(()),
            other => Err(other),
        })
        .await
    }

    /// Aborts a room's game (administrator). The server does not answer a
    /// successful cancel; its observers get the result and `left`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Io`] if the socket cannot be written.
    pub async fn cancel(&mut self, room_id: &str) -> Result<(), ClientError> {
        self.send(&ClientMessage::Cancel {
            room_id: room_id.to_owned(),
        })
        .await
    }

    /// Reads until `pick` accepts a packet as the answer to the request named
    /// `request`, or an error packet arrives that echoes that request or
    /// echoes none. `pick` returns the answer, or the packet back (`Err`)
    /// if it is not the answer; such packets (and error packets echoing
    /// another request) are held for [`recv`](Self::recv).
    async fn answer<T>(
        &mut self,
        request: &'static str,
        mut pick: impl FnMut(ServerMessage) -> Result<T, ServerMessage>,
    ) -> Result<T, ClientError> {
        loop {
            let Some(message) = self.read_message().await? else {
                return Err(ClientError::Closed { awaiting: request });
            };
            let message = match message {
                ServerMessage::ErrorPacket {
                    message,
                    original_request: Some(original),
                } if original.element_name() == request => {
                    return Err(ClientError::Refused { request, message });
                }
                // No echo that names another request of ours: a server
                // leaves out a request too long to repeat (a name of a
                // thousand characters), a bare `<errorpacket/>` names
                // nothing, and an echo this client cannot read is none of
                // its requests. Requests go one at a time, so the one
                // awaited is the one refused; holding the packet would
                // wait for an answer that never comes.
                ServerMessage::ErrorPacket {
                    message,
                    original_request: None,
                } => {
                    return Err(ClientError::Refused { request, message });
                }
                ServerMessage::ErrorPacket {
                    message,
                    original_request: Some(original),
                } if matches!(*original, ClientMessage::Unknown { .. }) => {
                    return Err(ClientError::Refused { request, message });
                }
                // `authenticate` has no answer of its own: its refusal
                // (after which the server closes the connection) comes
                // while the next request's answer is awaited, and is the
                // reason that answer never comes.
                ServerMessage::ErrorPacket {
                    message,
                    original_request: Some(original),
                } if original.element_name() == AUTHENTICATE => {
                    return Err(ClientError::Refused {
                        request: AUTHENTICATE,
                        message,
                    });
                }
                other => other,
            };
            match pick(message) {
                Ok(answer) => return Ok(answer),
                Err(other) => self.held.push_back(other),
            }
        }
    }

    /// Reads the next packet from the socket (not from the held ones).
    async fn read_message(&mut self) -> Result<Option<ServerMessage>, ClientError> {
        loop {
            if self.ended {
                return Ok(None);
            }
            let event = if self.eof {
                self.decoder.decode_eof(&mut self.read_buf)?
            } else {
                self.decoder.decode(&mut self.read_buf)?
            };
            match event {
                Some(StreamEvent::Frame(frame)) => {
                    // Before any join only lobby packets come, which no
                    // game changes.
                    let game = self.game_type.unwrap_or(GameType::DEFAULT);
                    let message = if self.learning {
                        self.decode_learning(frame.as_bytes(), game)?
                    } else {
                        ServerMessage::decode(frame.as_bytes(), game)?
                    };
                    return Ok(Some(message));
                }
                Some(StreamEvent::End) => {
                    self.ended = true;
                    return Ok(None);
                }
                None if self.eof => {
                    self.ended = true;
                    return Ok(None);
                }
                None => {}
            }
            if self.read_buf.capacity() - self.read_buf.len() < READ_CAPACITY / 4 {
                self.read_buf.reserve(READ_CAPACITY);
            }
            match self.stream.read_buf(&mut self.read_buf).await {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                // A peer that closes with unread data resets the connection;
                // after the server's farewell that is an ordinary end.
                Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => {
                    self.eof = true
                }
                Err(error) => return Err(error.into()),
            }
        }
    }

    async fn flush(&mut self) -> Result<(), ClientError> {
        self.stream.write_all(&self.write_buf).await?;
        self.write_buf.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
