//! A scripted stand-in for a server, for the unit tests: it accepts one
//! connection, reads the client's packets and writes whatever a test tells
//! it to, in the server's stream form.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use bytes::BytesMut;
use spielleiter_protocol::{
    ClientMessage, FrameDecoder, GameType, ServerMessage, ServerStreamEncoder, StreamEvent,
};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};
use tokio_util::codec::Decoder;

use crate::Connection;

pub(crate) struct ScriptedServer {
    stream: TcpStream,
    decoder: FrameDecoder,
    buffer: BytesMut,
    encoder: ServerStreamEncoder,
    /// `<protocol>` was written by [`send_raw`](Self::send_raw), which
    /// the encoder does not know of.
    opened_raw: bool,
}

/// A client connected to a scripted server.
pub(crate) async fn connected_pair() -> (Connection, ScriptedServer) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (client, accepted) = tokio::join!(Connection::connect(addr), listener.accept());
    let server = ScriptedServer {
        stream: accepted.unwrap().0,
        decoder: FrameDecoder::new(),
        buffer: BytesMut::new(),
        encoder: ServerStreamEncoder::new(),
        opened_raw: false,
    };
    (client.unwrap(), server)
}

impl ScriptedServer {
    pub(crate) async fn send(&mut self, message: &ServerMessage) {
        assert!(!self.opened_raw, "a test writes raw packets or typed ones");
        let mut out = BytesMut::new();
        self.encoder.write(message, &mut out);
        self.stream.write_all(&out).await.unwrap();
    }

    /// Writes `packet` as it is, whatever it is, opening the document
    /// first if nothing was written yet. A test that writes raw packets
    /// writes only raw packets.
    pub(crate) async fn send_raw(&mut self, packet: &str) {
        if !self.opened_raw {
            self.opened_raw = true;
            self.stream.write_all(b"<protocol>").await.unwrap();
        }
        let framed = format!("\n  {packet}");
        self.stream.write_all(framed.as_bytes()).await.unwrap();
    }

    /// The client's next packet; `None` when it ended its document.
    pub(crate) async fn recv(&mut self) -> Option<ClientMessage> {
        loop {
            match self.decoder.decode(&mut self.buffer).unwrap() {
                Some(StreamEvent::Frame(frame)) => {
                    return Some(
                        ClientMessage::decode(frame.as_bytes(), Some(GameType::Blokus2021))
                            .unwrap(),
                    );
                }
                Some(StreamEvent::End) => return None,
                None => {}
            }
            let read = self.stream.read_buf(&mut self.buffer).await.unwrap();
            if read == 0 {
                return None;
            }
        }
    }

    /// Ends the document with `</protocol>` and closes the socket.
    pub(crate) async fn end(mut self) {
        let mut out = BytesMut::new();
        self.encoder.finish(&mut out);
        self.stream.write_all(&out).await.unwrap();
        self.stream.shutdown().await.unwrap();
    }

    /// Closes the socket without ending the document.
    pub(crate) fn hang_up(self) {
        drop(self.stream);
    }
}
