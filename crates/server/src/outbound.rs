//! The sending side of a connection: a queue of encoded packets bounded in
//! bytes, written in order to the connection's socket, so packets never
//! interleave and a slow reader never stalls the room or lobby that sends
//! to it.
//!
//! Whoever sends writes: while the socket takes everything at once (the
//! usual case) the packets go out from the sender's own task, in one system
//! call per flush, and nobody else wakes up. Only when the socket would
//! block does the connection's writer task take over the rest and finish
//! it when the peer reads; until then later packets queue behind.
//!
//! Two bounds: above the *limit* the connection is over its bound — its
//! reader stops reading requests (back-pressure; its own replies cannot grow
//! the queue further) and, if it stays over for the grace period, the
//! connection is closed. Packets from others (states, notices) may still
//! be queued up to twice the limit; beyond that a send fails at once and
//! the connection is closed. Memory per connection is so bounded by bytes,
//! whatever the packets' sizes.

use std::{
    collections::VecDeque,
    fmt,
    future::poll_fn,
    io::IoSlice,
    pin::Pin,
    sync::{
        Arc, Mutex, MutexGuard, PoisonError,
        atomic::{AtomicUsize, Ordering},
    },
    task::{Context, Poll, Waker},
    time::Duration,
};

use bytes::Bytes;
use tokio::{
    io::{AsyncWrite, AsyncWriteExt},
    sync::{Notify, oneshot, watch},
    time::Instant,
};
use tokio_util::sync::CancellationToken;
use tracing::debug;

use crate::replay::wire_log::SeatTap;

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

/// At most this many packets go into one system call (`writev`).
const SLICES_PER_WRITE: usize = 64;

/// How long the final `</protocol>` may take to write before the socket is
/// dropped anyway.
const CLOSE_WRITE_LIMIT: Duration = Duration::from_secs(5);

/// The start of the stream, written with the first packet as the official
/// server does.
const STREAM_START: &[u8] = b"<protocol>";

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

/// A packet waiting to be written (stream form: `"\n  <packet…>"`).
struct Queued {
    bytes: Bytes,
    /// What the packet counts against the bound.
    cost: usize,
    /// Told the instant the packet's last byte was handed to the socket.
    written: Option<oneshot::Sender<Instant>>,
}

/// The socket and what is waiting for it. Locked only for a non-blocking
/// write or a queue change, never across an await.
struct Line {
    /// The socket, from the moment the writer runs until it ends.
    socket: Option<Pin<Box<dyn AsyncWrite + Send>>>,
    /// Whether [`STREAM_START`] has been queued.
    started: bool,
    queue: VecDeque<Queued>,
    /// Bytes of the first queued packet already written.
    offset: usize,
    /// The socket would block: the writer task writes the rest when the
    /// peer reads, and senders only queue meanwhile.
    writer_on_duty: bool,
    /// The end of the stream was asked for: nothing more may be queued.
    closing: bool,
    /// The writer has ended (or never will run): sends fail.
    ended: bool,
    /// A write failed; the writer ends with this error.
    failure: Option<std::io::Error>,
    /// Where each packet goes once written, if the seat's wire is logged.
    wire: Option<SeatTap>,
}

impl Line {
    /// Writes queued packets until the queue is empty or the socket would
    /// block. Returns the bytes (with overhead) that left the queue; the
    /// packets' write reports are sent as they complete.
    fn write_queued(&mut self, cx: &mut Context<'_>) -> (usize, Poll<std::io::Result<()>>) {
        let mut released = 0;
        let Some(socket) = self.socket.as_mut() else {
            return (0, Poll::Pending);
        };
        while !self.queue.is_empty() {
            let mut slices = [IoSlice::new(&[]); SLICES_PER_WRITE];
            let mut used = 0;
            for (index, queued) in self.queue.iter().take(SLICES_PER_WRITE).enumerate() {
                let skip = if index == 0 { self.offset } else { 0 };
                slices[index] = IoSlice::new(&queued.bytes[skip..]);
                used = index + 1;
            }
            let bytes: usize = slices[..used].iter().map(|slice| slice.len()).sum();
            // Empty packets are written by writing nothing.
            let mut written = if bytes == 0 {
                0
            } else {
                match socket.as_mut().poll_write_vectored(cx, &slices[..used]) {
                    Poll::Ready(Ok(0)) => {
                        return (
                            released,
                            Poll::Ready(Err(std::io::ErrorKind::WriteZero.into())),
                        );
                    }
                    Poll::Ready(Ok(n)) => n,
                    Poll::Ready(Err(error)) => return (released, Poll::Ready(Err(error))),
                    Poll::Pending => return (released, Poll::Pending),
                }
            };
            let now = Instant::now();
            while let Some(first) = self.queue.front() {
                let rest = first.bytes.len() - self.offset;
                if written < rest {
                    self.offset += written;
                    break;
                }
                written -= rest;
                self.offset = 0;
                if let Some(done) = self.queue.pop_front() {
                    if let Some(tap) = &self.wire {
                        tap.written(&done.bytes);
                    }
                    released += done.cost;
                    if let Some(report) = done.written {
                        let _ = report.send(now);
                    }
                }
            }
        }
        (released, socket.as_mut().poll_flush(cx))
    }
}

/// What the outbox handles and the writer share.
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
    line: Mutex<Line>,
    /// Wakes the writer: the socket would block, a write failed, or the
    /// stream is to end.
    call_writer: Notify,
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("queued", &self.queued)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Shared {
    fn line(&self) -> MutexGuard<'_, Line> {
        // The line's state is changed in whole steps: a panic elsewhere
        // leaves it consistent.
        self.line.lock().unwrap_or_else(PoisonError::into_inner)
    }

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
        if bytes == 0 {
            return;
        }
        let before = self.queued.fetch_sub(bytes, Ordering::AcqRel);
        let limit = self.limit.load(Ordering::Relaxed);
        if before > limit && before - bytes <= limit {
            self.refresh();
        }
    }

    /// Writes what is queued from the caller's task, unless the writer is
    /// on duty or not running yet; hands over to the writer when the socket
    /// would block or fails.
    fn write_now(&self) {
        let mut line = self.line();
        if line.writer_on_duty || line.queue.is_empty() || line.socket.is_none() {
            return;
        }
        // The writer is not waiting on the socket (it is not on duty), so
        // nothing needs waking from here: a would-block hands the rest to
        // the writer, which polls with its own waker.
        let mut cx = Context::from_waker(Waker::noop());
        let (released, outcome) = line.write_queued(&mut cx);
        match outcome {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(error)) => {
                line.failure = Some(error);
                line.writer_on_duty = true;
                self.call_writer.notify_one();
            }
            Poll::Pending => {
                line.writer_on_duty = true;
                self.call_writer.notify_one();
            }
        }
        drop(line);
        self.release(released);
    }
}

/// A cheap, cloneable handle for sending packets to one connection.
#[derive(Clone, Debug)]
pub struct Outbox {
    id: ConnId,
    shared: Arc<Shared>,
}

impl Outbox {
    /// The connection this outbox writes to.
    pub fn id(&self) -> ConnId {
        self.id
    }

    /// Sends a packet now: it is written before this returns unless the
    /// socket would block (then the writer task finishes it).
    ///
    /// # Errors
    ///
    /// [`SendError::Full`] when the peer has stopped reading (the connection
    /// will be closed), [`SendError::Closed`] when it is gone.
    pub fn send(&self, packet: Bytes) -> Result<(), SendError> {
        self.push(packet, None)?;
        self.flush();
        Ok(())
    }

    /// Queues a packet to be written at the next [`Outbox::flush`], so that
    /// several packets for one connection go out in one system call.
    ///
    /// # Errors
    ///
    /// As [`Outbox::send`].
    pub fn queue(&self, packet: Bytes) -> Result<(), SendError> {
        self.push(packet, None)
    }

    /// Queues a packet like [`Outbox::queue`] and returns a receiver for the
    /// instant its last byte was handed to the socket (a move clock starts
    /// then). After a [`Outbox::flush`] that wrote it, the instant is
    /// already there (`try_recv`); the receiver fails if the connection
    /// ends without writing it.
    ///
    /// # Errors
    ///
    /// As [`Outbox::send`].
    pub fn queue_timed(&self, packet: Bytes) -> Result<oneshot::Receiver<Instant>, SendError> {
        let (tx, rx) = oneshot::channel();
        self.push(packet, Some(tx))?;
        Ok(rx)
    }

    /// Writes what is queued, in one system call if the socket takes it
    /// all; what it does not take, the writer task writes later.
    pub fn flush(&self) {
        self.shared.write_now();
    }

    /// Asks for the end of the stream after everything queued so far;
    /// later sends fail.
    pub fn close(&self) {
        self.shared.line().closing = true;
        self.shared.call_writer.notify_one();
    }

    /// Logs every packet written from now on to `tap` (the seat's wire
    /// log; `None`: no log, also not an earlier room's), and hands `tap`
    /// to the connection for what it reads ([`Outbox::wire_tap`]).
    pub fn set_wire_tap(&self, tap: Option<SeatTap>) {
        self.shared.line().wire = tap;
    }

    /// The seat's wire log tap, if its room keeps one.
    pub fn wire_tap(&self) -> Option<SeatTap> {
        self.shared.line().wire.clone()
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

    /// Bytes queued or being written, `ITEM_OVERHEAD` per packet included.
    pub fn queued_bytes(&self) -> usize {
        self.shared.queued.load(Ordering::Relaxed)
    }

    /// Cancelled when a send failed for lack of room (twice the bound is
    /// queued: the peer stopped reading); the connection's task closes the
    /// connection then.
    pub fn overflow_signal(&self) -> CancellationToken {
        self.shared.overflow.clone()
    }

    fn push(
        &self,
        bytes: Bytes,
        written: Option<oneshot::Sender<Instant>>,
    ) -> Result<(), SendError> {
        let cost = bytes.len() + ITEM_OVERHEAD;
        let shared = &self.shared;
        let mut line = shared.line();
        if line.ended || line.closing {
            return Err(SendError::Closed);
        }
        let before = shared.queued.fetch_add(cost, Ordering::AcqRel);
        let after = before + cost;
        let limit = shared.limit.load(Ordering::Relaxed);
        // Under the bound any packet goes (however large); over it, others'
        // packets may fill up to twice the bound.
        if before > limit && after > limit.saturating_mul(2) {
            shared.queued.fetch_sub(cost, Ordering::AcqRel);
            drop(line);
            shared.overflow.cancel();
            return Err(SendError::Full);
        }
        if !line.started {
            line.started = true;
            line.queue.push_back(Queued {
                bytes: Bytes::from_static(STREAM_START),
                cost: 0,
                written: None,
            });
        }
        line.queue.push_back(Queued {
            bytes,
            cost,
            written,
        });
        drop(line);
        if before <= limit && after > limit {
            shared.refresh();
        }
        Ok(())
    }
}

/// The writer task's end: it owns the socket's lifetime and writes what
/// senders could not.
#[derive(Debug)]
pub struct Writer {
    shared: Arc<Shared>,
}

/// A new outbox for connection `id` (bound [`DEFAULT_LIMIT`]) and the
/// writer that drains it.
pub fn channel(id: ConnId) -> (Outbox, Writer) {
    let shared = Arc::new(Shared {
        queued: AtomicUsize::new(0),
        limit: AtomicUsize::new(DEFAULT_LIMIT),
        over: watch::Sender::new(false),
        overflow: CancellationToken::new(),
        line: Mutex::new(Line {
            socket: None,
            started: false,
            queue: VecDeque::new(),
            offset: 0,
            writer_on_duty: false,
            closing: false,
            ended: false,
            failure: None,
            wire: None,
        }),
        call_writer: Notify::new(),
    });
    let outbox = Outbox {
        id,
        shared: Arc::clone(&shared),
    };
    (outbox, Writer { shared })
}

impl Writer {
    /// Takes the socket, writes what senders could not until a close is
    /// asked for, then ends the document and half-closes the socket. The
    /// root start tag goes out with the first packet, as the official
    /// server does.
    ///
    /// # Errors
    ///
    /// The first I/O error; the connection is unusable then.
    pub async fn run<W: AsyncWrite + Send + 'static>(self, socket: W) -> std::io::Result<()> {
        self.shared.line().socket = Some(Box::pin(socket));
        loop {
            let shared = &self.shared;
            let (released, outcome) = poll_fn(|cx| {
                let mut line = shared.line();
                if let Some(error) = line.failure.take() {
                    return Poll::Ready((0, Err(error)));
                }
                let (released, outcome) = line.write_queued(cx);
                match outcome {
                    Poll::Ready(result) => {
                        line.writer_on_duty = false;
                        Poll::Ready((released, result))
                    }
                    Poll::Pending => {
                        line.writer_on_duty = true;
                        drop(line);
                        // What was written counts now, not when the rest is.
                        shared.release(released);
                        Poll::Pending
                    }
                }
            })
            .await;
            shared.release(released);
            outcome?;
            let finished = {
                let line = shared.line();
                line.closing && line.queue.is_empty()
            };
            if finished {
                break;
            }
            // A sender hands over by notifying after it set `writer_on_duty`
            // or `closing`; a notification sent before this wait is kept.
            shared.call_writer.notified().await;
        }
        let (socket, started, wire) = {
            let mut line = self.shared.line();
            line.ended = true;
            (line.socket.take(), line.started, line.wire.take())
        };
        let Some(mut socket) = socket else {
            return Ok(());
        };
        let end: &[u8] = if started {
            b"\n</protocol>"
        } else {
            b"<protocol/>"
        };
        let finish = async {
            socket.write_all(end).await?;
            if let Some(tap) = wire {
                tap.written(&Bytes::from_static(end));
            }
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

impl Drop for Writer {
    /// Whatever was not written never will be: later sends fail, and the
    /// write reports of queued packets are dropped (their receivers see the
    /// connection gone).
    fn drop(&mut self) {
        let mut line = self.shared.line();
        line.ended = true;
        line.socket = None;
        let unwritten: VecDeque<Queued> = std::mem::take(&mut line.queue);
        drop(line);
        self.shared
            .release(unwritten.iter().map(|queued| queued.cost).sum());
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
            .queue_timed(Bytes::from_static(b"\n  <left roomId=\"r\"/>"))
            .expect("queued");
        outbox.flush();
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
        tokio::time::timeout(Duration::from_secs(1), outbox.overflow_signal().cancelled())
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
        // Each packet counts until its last byte is written.
        assert!(outbox.queued_bytes() <= 2000);
        outbox.close();
        task.await.expect("joined").expect("no I/O error");
        assert_eq!(outbox.queued_bytes(), 0);
        let text = reading.await.expect("joined").expect("read");
        assert_eq!(
            text.len(),
            "<protocol>".len() + 3 * 872 + "\n</protocol>".len()
        );
    }

    #[tokio::test]
    async fn a_flush_writes_from_the_senders_task_and_reports_at_once() {
        let (outbox, writer) = channel(ConnId(7));
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let task = tokio::spawn(writer.run(server));
        // Let the writer take the socket.
        tokio::task::yield_now().await;
        outbox
            .queue(Bytes::from_static(b"\n  <a/>"))
            .expect("queued");
        let mut written = outbox
            .queue_timed(Bytes::from_static(b"\n  <b/>"))
            .expect("queued");
        assert!(
            written.try_recv().is_err(),
            "nothing written before the flush"
        );
        outbox.flush();
        // Written by the flush itself: no other task had to run.
        assert!(written.try_recv().is_ok(), "the write instant is there");
        assert_eq!(outbox.queued_bytes(), 0);
        let mut buffer = vec![0; 64];
        let n = tokio::io::AsyncReadExt::read(&mut client, &mut buffer)
            .await
            .expect("read");
        assert_eq!(&buffer[..n], b"<protocol>\n  <a/>\n  <b/>");
        outbox.close();
        task.await.expect("joined").expect("no I/O error");
    }

    #[tokio::test]
    async fn what_the_socket_does_not_take_the_writer_writes_later_in_order() {
        let (outbox, writer) = channel(ConnId(8));
        // The peer's buffer takes 16 bytes at a time.
        let (mut client, server) = tokio::io::duplex(16);
        let task = tokio::spawn(writer.run(server));
        tokio::task::yield_now().await;
        let mut written = outbox
            .queue_timed(Bytes::from(vec![b'a'; 100]))
            .expect("queued");
        outbox.flush();
        assert!(
            written.try_recv().is_err(),
            "not written: the socket took only part"
        );
        // Later packets queue behind, whoever sends them.
        for byte in [b'b', b'c'] {
            outbox.send(Bytes::from(vec![byte; 50])).expect("queued");
        }
        outbox.close();
        let mut text = Vec::new();
        tokio::io::AsyncReadExt::read_to_end(&mut client, &mut text)
            .await
            .expect("read");
        task.await.expect("joined").expect("no I/O error");
        assert!(written.await.is_ok(), "reported once written");
        let expected = [
            &b"<protocol>"[..],
            &[b'a'; 100],
            &[b'b'; 50],
            &[b'c'; 50],
            b"\n</protocol>",
        ]
        .concat();
        assert_eq!(text, expected);
        assert_eq!(outbox.send(Bytes::new()), Err(SendError::Closed));
    }

    /// A socket whose writes fail.
    struct Broken;

    impl AsyncWrite for Broken {
        fn poll_write(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            _: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            Poll::Ready(Err(std::io::ErrorKind::BrokenPipe.into()))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_failed_direct_write_ends_the_writer_with_the_error() {
        let (outbox, writer) = channel(ConnId(9));
        let task = tokio::spawn(writer.run(Broken));
        tokio::task::yield_now().await;
        let written = outbox
            .queue_timed(Bytes::from_static(b"x"))
            .expect("queued");
        outbox.flush();
        let ended = task.await.expect("joined");
        assert_eq!(
            ended.map_err(|e| e.kind()),
            Err(std::io::ErrorKind::BrokenPipe)
        );
        assert!(written.await.is_err(), "the report is dropped, not sent");
        assert_eq!(outbox.send(Bytes::new()), Err(SendError::Closed));
        assert_eq!(outbox.queued_bytes(), 0);
    }

    #[tokio::test]
    async fn sending_to_a_finished_connection_is_an_error_not_a_panic() {
        let (outbox, writer) = channel(ConnId(4));
        drop(writer);
        assert_eq!(outbox.send(Bytes::new()), Err(SendError::Closed));
    }
}
