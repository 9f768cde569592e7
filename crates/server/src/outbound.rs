//! The sending side of a connection: a bounded queue of encoded packets and
//! the one writer task that drains it, so packets never interleave and a slow
//! reader never stalls the room or lobby that sends to it.

use std::{fmt, time::Duration};

use bytes::Bytes;
use tokio::{
    io::{AsyncWrite, AsyncWriteExt},
    sync::{mpsc, oneshot},
    time::Instant,
};
use tracing::debug;

/// Identifies a connection for as long as the server runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// How many packets may wait for one connection. A player gets a handful per
/// move; a full queue means the peer stopped reading, and the connection is
/// closed rather than letting memory grow.
pub const QUEUE_CAPACITY: usize = 256;

/// What the writer task is asked to do.
#[derive(Debug)]
enum Outbound {
    /// Write a packet (stream form: `"\n  <packet…>"`). If `written` is set,
    /// report the instant the packet was handed to the socket.
    Packet {
        bytes: Bytes,
        written: Option<oneshot::Sender<Instant>>,
    },
    /// End the stream: `</protocol>` and a half-close.
    Close,
}

/// Why a packet could not be queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The peer does not read fast enough; the connection is being closed.
    #[error("outbound queue full")]
    Full,
    /// The connection is already closed.
    #[error("connection closed")]
    Closed,
}

/// A cheap, cloneable handle for sending packets to one connection.
#[derive(Clone, Debug)]
pub struct Outbox {
    id: ConnId,
    queue: mpsc::Sender<Outbound>,
    /// Set when the queue overflowed, so the connection's own task closes it.
    overflow: tokio_util::sync::CancellationToken,
}

impl Outbox {
    /// The connection this outbox writes to.
    pub fn id(&self) -> ConnId {
        self.id
    }

    /// Queues a packet without waiting.
    ///
    /// # Errors
    ///
    /// [`SendError::Full`] when the peer has stopped reading (the connection
    /// will be closed), [`SendError::Closed`] when it is gone.
    pub fn send(&self, packet: Bytes) -> Result<(), SendError> {
        self.push(Outbound::Packet {
            bytes: packet,
            written: None,
        })
    }

    /// Queues a packet and returns a receiver for the instant it was written
    /// to the socket (used to start a move clock).
    ///
    /// # Errors
    ///
    /// As [`Outbox::send`].
    pub fn send_timed(&self, packet: Bytes) -> Result<oneshot::Receiver<Instant>, SendError> {
        let (tx, rx) = oneshot::channel();
        self.push(Outbound::Packet {
            bytes: packet,
            written: Some(tx),
        })?;
        Ok(rx)
    }

    /// Asks the writer to end the stream after everything queued so far.
    pub fn close(&self) {
        // If the queue is full the connection is being torn down anyway.
        let _ = self.queue.try_send(Outbound::Close);
    }

    /// Resolves when the queue overflowed (the peer stopped reading).
    pub async fn overflowed(&self) {
        self.overflow.cancelled().await;
    }

    fn push(&self, item: Outbound) -> Result<(), SendError> {
        self.queue.try_send(item).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => {
                self.overflow.cancel();
                SendError::Full
            }
            mpsc::error::TrySendError::Closed(_) => SendError::Closed,
        })
    }
}

/// The writer task's end of the queue.
#[derive(Debug)]
pub struct Writer {
    queue: mpsc::Receiver<Outbound>,
}

/// A new outbox for connection `id` and the writer that drains it.
pub fn channel(id: ConnId) -> (Outbox, Writer) {
    let (queue, rx) = mpsc::channel(QUEUE_CAPACITY);
    let outbox = Outbox {
        id,
        queue,
        overflow: tokio_util::sync::CancellationToken::new(),
    };
    (outbox, Writer { queue: rx })
}

/// The most packets written in one go.
const BATCH_LIMIT: usize = 64;

/// How long the final `</protocol>` may take to write before the socket is
/// dropped anyway.
const CLOSE_WRITE_LIMIT: Duration = Duration::from_secs(5);

impl Writer {
    /// Writes queued packets until a close is requested or every outbox is
    /// dropped, then ends the document and half-closes the socket. The root
    /// start tag goes out with the first packet, as the official server does.
    ///
    /// # Errors
    ///
    /// The first I/O error; the connection is unusable then.
    pub async fn run<W: AsyncWrite + Unpin>(mut self, mut socket: W) -> std::io::Result<()> {
        let mut started = false;
        let mut batch = Vec::with_capacity(16);
        // Packets queued together go out in one write: a state and the move
        // request after it cost one system call, not two.
        let mut joined = Vec::new();
        let mut reports = Vec::new();
        'writing: while self.queue.recv_many(&mut batch, BATCH_LIMIT).await > 0 {
            let mut close = false;
            joined.clear();
            for item in batch.drain(..) {
                match item {
                    Outbound::Packet { bytes, written } => {
                        if !started {
                            joined.extend_from_slice(b"<protocol>");
                            started = true;
                        }
                        joined.extend_from_slice(&bytes);
                        reports.extend(written);
                    }
                    Outbound::Close => {
                        close = true;
                        break;
                    }
                }
            }
            if !joined.is_empty() {
                socket.write_all(&joined).await?;
                socket.flush().await?;
            }
            let now = Instant::now();
            for report in reports.drain(..) {
                let _ = report.send(now);
            }
            if close {
                break 'writing;
            }
        }
        self.queue.close();
        let end: &[u8] = if started {
            b"\n</protocol>"
        } else {
            b"<protocol/>"
        };
        let finish = async {
            socket.write_all(end).await?;
            socket.flush().await?;
            socket.shutdown().await
        };
        match tokio::time::timeout(CLOSE_WRITE_LIMIT, finish).await {
            Ok(result) => result,
            Err(_) => {
                debug!("peer did not take the end of the stream in time");
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn packets_are_framed_by_one_protocol_document() {
        let (outbox, writer) = channel(ConnId(1));
        let (client, server) = tokio::io::duplex(1 << 16);
        let task = tokio::spawn(writer.run(server));
        outbox
            .send(Bytes::from_static(b"\n  <joined roomId=\"r\"/>"))
            .expect("queued");
        let written = outbox
            .send_timed(Bytes::from_static(b"\n  <left roomId=\"r\"/>"))
            .expect("queued");
        outbox.close();
        assert!(written.await.is_ok(), "the write instant is reported");
        task.await.expect("joined").expect("no I/O error");
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut { client }, &mut text)
            .await
            .expect("read");
        assert_eq!(
            text,
            "<protocol>\n  <joined roomId=\"r\"/>\n  <left roomId=\"r\"/>\n</protocol>"
        );
    }

    #[tokio::test]
    async fn a_stream_without_packets_is_an_empty_document() {
        let (outbox, writer) = channel(ConnId(2));
        let (client, server) = tokio::io::duplex(64);
        outbox.close();
        writer.run(server).await.expect("no I/O error");
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut { client }, &mut text)
            .await
            .expect("read");
        assert_eq!(text, "<protocol/>");
    }

    #[tokio::test]
    async fn a_peer_that_stops_reading_overflows_instead_of_blocking() {
        let (outbox, _writer) = channel(ConnId(3));
        let mut result = Ok(());
        for _ in 0..=QUEUE_CAPACITY {
            result = outbox.send(Bytes::from_static(b"x"));
        }
        assert_eq!(result, Err(SendError::Full));
        // The overflow is signalled to whoever owns the connection.
        tokio::time::timeout(Duration::from_secs(1), outbox.overflowed())
            .await
            .expect("overflow signalled");
    }

    #[tokio::test]
    async fn sending_to_a_finished_connection_is_an_error_not_a_panic() {
        let (outbox, writer) = channel(ConnId(4));
        drop(writer);
        assert_eq!(outbox.send(Bytes::new()), Err(SendError::Closed));
    }
}
