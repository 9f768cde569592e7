//! [`ClientError`]: everything that can go wrong on a client connection.

use std::io;

use spielleiter_protocol::{DecodeError, FramingError, InvalidState};
use thiserror::Error;

/// Why a client operation failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The TCP connection could not be opened.
    #[error("cannot connect to {addr}: {cause}")]
    Connect {
        /// The address as given.
        addr: String,
        /// The I/O error.
        cause: io::Error,
    },
    /// Reading or writing the socket failed.
    #[error("connection failed: {0}")]
    Io(io::Error),
    /// The server's byte stream is not a well-formed packet stream.
    #[error("the server's stream is malformed: {0}")]
    Framing(FramingError),
    /// A packet from the server could not be understood.
    #[error("cannot understand a packet from the server: {0}")]
    Decode(DecodeError),
    /// The server answered a request with an error packet.
    #[error("the server refused `{request}`: {message}")]
    Refused {
        /// The element name of the refused request.
        request: &'static str,
        /// The server's message.
        message: String,
    },
    /// The server ended the connection while an answer was awaited.
    #[error("the server closed the connection while we waited for {awaiting}")]
    Closed {
        /// What was awaited.
        awaiting: &'static str,
    },
    /// A state from the server is not a consistent position.
    #[error("the server sent an inconsistent state: {0}")]
    InvalidState(InvalidState),
    /// The server broke the protocol's order of messages.
    #[error("protocol violation by the server: {0}")]
    Protocol(&'static str),
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<io::Error> for ClientError {
    fn from(error: io::Error) -> Self {
        ClientError::Io(error)
    }
}

impl From<FramingError> for ClientError {
    fn from(error: FramingError) -> Self {
        ClientError::Framing(error)
    }
}

impl From<DecodeError> for ClientError {
    fn from(error: DecodeError) -> Self {
        ClientError::Decode(error)
    }
}

impl From<InvalidState> for ClientError {
    fn from(error: InvalidState) -> Self {
        ClientError::InvalidState(error)
    }
}
