//! The two directions of a connection as byte streams: the server's
//! stream ([`ServerStreamEncoder`], byte-identical to the official server's
//! lazy pretty-printer, `lobby.md` §2.1) and a client's stream
//! ([`ClientStreamEncoder`]). Both are tokio-util `Encoder`s and can also
//! write into any [`ByteSink`].

use std::io;

use bytes::BytesMut;
use tokio_util::codec::Encoder;

use crate::{client::ClientMessage, server::ServerMessage, xml::ByteSink};

/// Whether the root element of one direction has been opened and closed.
#[derive(Debug, Default)]
struct Document {
    started: bool,
    finished: bool,
}

impl Document {
    fn open<S: ByteSink>(&mut self, out: &mut S) {
        if !self.started {
            out.put(b"<protocol>");
            self.started = true;
        }
    }

    /// `"\n</protocol>"`, or `<protocol/>` if nothing was written; once.
    fn finish<S: ByteSink>(&mut self, out: &mut S) {
        if self.finished {
            return;
        }
        self.finished = true;
        if self.started {
            out.put(b"\n</protocol>");
        } else {
            out.put(b"<protocol/>");
        }
    }
}

/// Writes the server's side of a connection.
///
/// The first packet is preceded by `<protocol>`, every packet by `"\n  "`,
/// and packets are indented by one level; nothing follows a packet until
/// the next one. [`finish`](Self::finish) closes the document with
/// `"\n</protocol>"`, or `<protocol/>` if no packet was ever written.
#[derive(Debug, Default)]
pub struct ServerStreamEncoder {
    document: Document,
}

impl ServerStreamEncoder {
    /// An encoder for a connection on which nothing has been written yet.
    pub fn new() -> ServerStreamEncoder {
        ServerStreamEncoder::default()
    }

    /// Appends `message` to `out`.
    pub fn write<S: ByteSink>(&mut self, message: &ServerMessage, out: &mut S) {
        self.document.open(out);
        out.put(b"\n  ");
        message.encode(out, 1);
    }

    /// Appends the end of the document; later calls write nothing.
    pub fn finish<S: ByteSink>(&mut self, out: &mut S) {
        self.document.finish(out);
    }
}

impl Encoder<&ServerMessage> for ServerStreamEncoder {
    type Error = io::Error;

    fn encode(&mut self, message: &ServerMessage, dst: &mut BytesMut) -> io::Result<()> {
        self.write(message, dst);
        Ok(())
    }
}

/// Writes a client's side of a connection: `<protocol>` first, then each
/// packet on a new line at column 0 (the form of the official examples);
/// [`finish`](Self::finish) writes `"\n</protocol>"`.
#[derive(Debug, Default)]
pub struct ClientStreamEncoder {
    document: Document,
}

impl ClientStreamEncoder {
    /// An encoder for a fresh connection.
    pub fn new() -> ClientStreamEncoder {
        ClientStreamEncoder::default()
    }

    /// Writes the opening `<protocol>` if it has not been written yet. A
    /// client should do this right after connecting.
    pub fn open<S: ByteSink>(&mut self, out: &mut S) {
        self.document.open(out);
    }

    /// Appends `message` to `out` (opening the document if needed).
    pub fn write<S: ByteSink>(&mut self, message: &ClientMessage, out: &mut S) {
        self.document.open(out);
        out.put(b"\n");
        message.encode(out, 0);
    }

    /// Appends the end of the document; later calls write nothing.
    pub fn finish<S: ByteSink>(&mut self, out: &mut S) {
        self.document.finish(out);
    }
}

impl Encoder<&ClientMessage> for ClientStreamEncoder {
    type Error = io::Error;

    fn encode(&mut self, message: &ClientMessage, dst: &mut BytesMut) -> io::Result<()> {
        self.write(message, dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::CloseElement;

    #[test]
    fn server_stream_is_lazy_and_indented() {
        let mut encoder = ServerStreamEncoder::new();
        let mut out = Vec::new();
        encoder.write(
            &ServerMessage::Joined {
                room_id: "r".into(),
            },
            &mut out,
        );
        assert_eq!(out, b"<protocol>\n  <joined roomId=\"r\"/>");
        encoder.write(&ServerMessage::Close(CloseElement::Short), &mut out);
        encoder.finish(&mut out);
        encoder.finish(&mut out);
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "<protocol>\n  <joined roomId=\"r\"/>\n  <close/>\n</protocol>"
        );
    }

    #[test]
    fn a_stream_without_packets_closes_as_an_empty_root() {
        let mut out = Vec::new();
        ServerStreamEncoder::new().finish(&mut out);
        assert_eq!(out, b"<protocol/>");
        let mut out = BytesMut::new();
        let mut client = ClientStreamEncoder::new();
        client.write(&ClientMessage::Close, &mut out);
        client.finish(&mut out);
        assert_eq!(&out[..], b"<protocol>\n<close/>\n</protocol>");
    }
}
