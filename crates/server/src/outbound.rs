//! The sending side of a connection: a queue of encoded packets bounded in
//! bytes, and the one writer task that drains it, so packets never
//! interleave and a slow reader never stalls the room or lobby that sends
//! to it.
//!
//! Two bounds: above the *limit* the connection is over its bound — its
//! reader stops reading requests (back-pressure; its own replies cannot grow
//! the queue further) and, if it stays over for the grace period, the
//! connection is closed. Packets from others (states, notices) may still
//! be queued up to twice the limit; beyond that a send fails at once and
//! the connection is closed. Memory per connection is so bounded by bytes,
//! whatever the packets' sizes.

use std::{
    fmt,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use tokio::{
    io::{AsyncWrite, AsyncWriteExt},
    sync::{mpsc, oneshot, watch},
    time::Instant,
};
use tokio_util::sync::CancellationToken;
use tracing::debug;

/// Identifies a connection for as long as the server runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// The bound of a new outbox in bytes, until [`Outbox::set_limit`] says
/// otherwise (the configuration's player bound).
pub const DEFAULT_LIMIT: usize = 4 << 20;

/// What one queued packet costs beyond its bytes (the queue's node, the
/// buffer's header), so that many tiny packets count too.
const ITEM_OVERHEAD: usize = 128;

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
    /// The peer does not read: twice its bound is queued; the connection is
    /// being closed.
    #[error("outbound queue full")]
    Full,
    /// The connection is already closed.
    #[error("connection closed")]
    Closed,
}

/// What the outbox handles and the writer share.
#[derive(Debug)]
struct Shared {
    /// Bytes queued or being written (with [`ITEM_OVERHEAD`] per packet).
    queued: AtomicUsize,
    /// The bound in bytes.
    limit: AtomicUsize,
    /// Whether `queued` is above `limit`; the connection's reader watches it.
    over: watch::Sender<bool>,
    /// Cancelled when a send failed for lack of room: the connection's own
    /// task closes it.
    overflow: CancellationToken,
}

impl Shared {
    /// Brings `over` in line with the counters. Called after every change
    /// that may cross the bound; each call reads the current values, so the
    /// last one is right whatever the order of concurrent changes.
    fn refresh(&self) {
        let over = self.queued.load(Ordering::Acquire) > self.limit.load(Ordering::Relaxed);
        self.over.send_if_modified(|state| {
            let changed = *state != over;
            *state = over;
            changed
        });
    }

    fn release(&self, bytes: usize) {
        let before = self.queued.fetch_sub(bytes, Ordering::AcqRel);
        let limit = self.limit.load(Ordering::Relaxed);
        if before > limit && before - bytes <= limit {
            self.refresh();
        }
    }
}

/// A cheap, cloneable handle for sending packets to one connection.
#[derive(Clone, Debug)]
pub struct Outbox {
    id: ConnId,
    queue: mpsc::UnboundedSender<Outbound>,
    shared: Arc<Shared>,
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
        let _ = self.queue.send(Outbound::Close);
    }

    /// Sets the bound in bytes (an administrator, who observes whole games,
    /// gets a larger one than a player).
    pub fn set_limit(&self, bytes: usize) {
        self.shared.limit.store(bytes.max(1), Ordering::Relaxed);
        self.shared.refresh();
    }

    /// Whether more than the bound is queued: the connection should stop
    /// reading requests until the peer has taken some.
    pub fn is_over_limit(&self) -> bool {
        *self.shared.over.borrow()
    }

    /// Follows [`Outbox::is_over_limit`] as it changes.
    pub fn watch_limit(&self) -> watch::Receiver<bool> {
        self.shared.over.subscribe()
    }

    /// Bytes queued or being written, [`ITEM_OVERHEAD`] per packet included.
    pub fn queued_bytes(&self) -> usize {
        self.shared.queued.load(Ordering::Relaxed)
    }

    /// Resolves when a send failed for lack of room (twice the bound is
    /// queued: the peer stopped reading).
    pub async fn overflowed(&self) {
        self.shared.overflow.cancelled().await;
    }

    fn push(&self, item: Outbound) -> Result<(), SendError> {
        let size = match &item {
            Outbound::Packet { bytes, .. } => bytes.len() + ITEM_OVERHEAD,
            Outbound::Close => 0,
        };
        let shared = &self.shared;
        let before = shared.queued.fetch_add(size, Ordering::AcqRel);
        let after = before + size;
        let limit = shared.limit.load(Ordering::Relaxed);
        // Under the bound any packet goes (however large); over it, others'
        // packets may fill up to twice the bound.
        if before > limit && after > limit.saturating_mul(2) {
            shared.queued.fetch_sub(size, Ordering::AcqRel);
            shared.overflow.cancel();
            return Err(SendError::Full);
        }
        if self.queue.send(item).is_err() {
            shared.queued.fetch_sub(size, Ordering::AcqRel);
            return Err(SendError::Closed);
        }
        if before <= limit && after > limit {
            shared.refresh();
        }
        Ok(())
    }
}

/// The writer task's end of the queue.
#[derive(Debug)]
pub struct Writer {
    queue: mpsc::UnboundedReceiver<Outbound>,
    shared: Arc<Shared>,
}

/// A new outbox for connection `id` (bound [`DEFAULT_LIMIT`]) and the
/// writer that drains it.
pub fn channel(id: ConnId) -> (Outbox, Writer) {
    let (queue, rx) = mpsc::unbounded_channel();
    let shared = Arc::new(Shared {
        queued: AtomicUsize::new(0),
        limit: AtomicUsize::new(DEFAULT_LIMIT),
        over: watch::Sender::new(false),
        overflow: CancellationToken::new(),
    });
    let outbox = Outbox {
        id,
        queue,
        shared: Arc::clone(&shared),
    };
    (outbox, Writer { queue: rx, shared })
}

/// Packets queued together go out in one write up to this many bytes; a
/// larger packet is written on its own without copying.
const BATCH_BYTES: usize = 64 * 1024;

/// A write buffer larger than this is given back after each write.
const KEPT_WRITE_BUFFER: usize = 1024;

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
        // Packets queued together go out in one write: a state and the move
        // request after it cost one system call, not two. A single packet
        // is written from its shared buffer; several are joined first.
        let mut batch: Vec<Bytes> = Vec::new();
        let mut joined = Vec::new();
        let mut reports = Vec::new();
        let mut next = self.queue.recv().await;
        'writing: while let Some(first) = next.take() {
            let mut close = false;
            let mut taken = 0;
            let mut batched = 0;
            let mut item = Some(first);
            while let Some(current) = item.take() {
                match current {
                    Outbound::Packet { bytes, written } => {
                        if !started {
                            batch.push(Bytes::from_static(b"<protocol>"));
                            batched += batch[0].len();
                            started = true;
                        }
                        taken += bytes.len() + ITEM_OVERHEAD;
                        if batch.is_empty() && bytes.len() >= BATCH_BYTES {
                            socket.write_all(&bytes).await?;
                        } else {
                            batched += bytes.len();
                            batch.push(bytes);
                        }
                        reports.extend(written);
                    }
                    Outbound::Close => {
                        close = true;
                        break;
                    }
                }
                if batched < BATCH_BYTES {
                    item = self.queue.try_recv().ok();
                }
            }
            match batch.as_slice() {
                [] => {}
                [one] => socket.write_all(one).await?,
                several => {
                    for packet in several {
                        joined.extend_from_slice(packet);
                    }
                    socket.write_all(&joined).await?;
                    joined.clear();
                }
            }
            batch.clear();
            socket.flush().await?;
            // Between writes a connection waits, usually for a whole move of
            // the game: it holds no write buffer meanwhile (a thousand games
            // would otherwise keep two states' worth each).
            if joined.capacity() > KEPT_WRITE_BUFFER {
                joined = Vec::new();
            }
            self.shared.release(taken);
            let now = Instant::now();
            for report in reports.drain(..) {
                let _ = report.send(now);
            }
            if close {
                break 'writing;
            }
            next = self.queue.recv().await;
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
    async fn a_peer_that_stops_reading_is_bounded_by_bytes_not_packets() {
        let (outbox, _writer) = channel(ConnId(3));
        outbox.set_limit(10_000);
        let packet = Bytes::from(vec![b'x'; 872]); // 1,000 bytes with overhead
        let mut over = outbox.watch_limit();
        // Ten packets fill the bound exactly: not over yet.
        for _ in 0..10 {
            outbox.send(packet.clone()).expect("within the bound");
        }
        assert!(!outbox.is_over_limit());
        // One more is over the bound: the reader is told to stop reading.
        outbox
            .send(packet.clone())
            .expect("over the bound, within twice");
        assert!(outbox.is_over_limit());
        assert!(over.has_changed().expect("open"));
        assert!(*over.borrow_and_update());
        // Others may fill up to twice the bound, not beyond.
        for _ in 0..9 {
            outbox.send(packet.clone()).expect("within twice the bound");
        }
        assert_eq!(outbox.send(packet.clone()), Err(SendError::Full));
        assert_eq!(outbox.queued_bytes(), 20_000);
        // The overflow is signalled to whoever owns the connection.
        tokio::time::timeout(Duration::from_secs(1), outbox.overflowed())
            .await
            .expect("overflow signalled");
        // However large, a packet goes through when the queue is under the
        // bound.
        let (outbox, _writer) = channel(ConnId(5));
        outbox.set_limit(1000);
        outbox
            .send(Bytes::from(vec![b'x'; 5000]))
            .expect("a large packet into an empty queue");
    }

    #[tokio::test]
    async fn writing_brings_the_queue_back_under_the_bound() {
        let (outbox, writer) = channel(ConnId(6));
        outbox.set_limit(2000);
        let (mut client, server) = tokio::io::duplex(64);
        let task = tokio::spawn(writer.run(server));
        let mut over = outbox.watch_limit();
        for _ in 0..3 {
            outbox.send(Bytes::from(vec![b'y'; 872])).expect("queued");
        }
        assert!(outbox.is_over_limit());
        over.borrow_and_update();
        // The peer reads everything: the queue drains and says so.
        let mut sink = Vec::new();
        let reading = tokio::spawn(async move {
            tokio::io::AsyncReadExt::read_to_end(&mut client, &mut sink)
                .await
                .map(|_| sink)
        });
        over.changed().await.expect("open");
        assert!(!*over.borrow());
        assert_eq!(outbox.queued_bytes(), 0);
        outbox.close();
        task.await.expect("joined").expect("no I/O error");
        let text = reading.await.expect("joined").expect("read");
        assert_eq!(
            text.len(),
            "<protocol>".len() + 3 * 872 + "\n</protocol>".len()
        );
    }

    #[tokio::test]
    async fn sending_to_a_finished_connection_is_an_error_not_a_panic() {
        let (outbox, writer) = channel(ConnId(4));
        drop(writer);
        assert_eq!(outbox.send(Bytes::new()), Err(SendError::Closed));
    }
}
