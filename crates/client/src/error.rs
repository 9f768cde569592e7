//! [`ClientError`]: everything that can go wrong on a client connection.

use std::{io, time::Duration};

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
    #[error("the server refused `{request}`{}", reason(.message))]
    Refused {
        /// The element name of the refused request.
        request: &'static str,
        /// The server's message (empty when the packet had none).
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
    /// The server did not answer in time. The client itself waits as long
    /// as the connection lives; this is for callers that bound an
    /// exchange in time.
    #[error(
        "the server did not answer within {} s while we waited for {awaiting}",
        .limit.as_secs_f64()
    )]
    TimedOut {
        /// What was awaited.
        awaiting: &'static str,
        /// How long it was awaited.
        limit: Duration,
    },
    /// The server broke the protocol's order of messages.
    #[error("protocol violation by the server: {0}")]
    Protocol(&'static str),
}

/// The longest reason of a refusal shown, in characters; a server's
/// message may repeat long client input.
const REASON_LIMIT: usize = 300;

/// A refusal's reason as `: REASON` on one line (the server's text may
/// hold line breaks or other control characters, and the offender gets
/// one line), cut at [`REASON_LIMIT`] characters; or a note that the
/// server gave none.
fn reason(message: &str) -> String {
    let printable: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let words: Vec<&str> = printable.split_whitespace().collect();
    if words.is_empty() {
        return " without giving a reason".to_owned();
    }
    let line = words.join(" ");
    match line.char_indices().nth(REASON_LIMIT) {
        Some((cut, _)) => format!(": {}…", &line[..cut]),
        None => format!(": {line}"),
    }
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
