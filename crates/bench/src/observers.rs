//! Web observers for `spielleiter-bench --web-observers N`: pages that
//! follow running games on the web side, each reading the event stream of
//! one running room (`/api/rooms/{id}/events`) until its game ends, then
//! the next room's. The benchmark compares the server's figures with and
//! without them.
//!
//! They run in a process of their own (`spielleiter-bench --observers-for ADDR`, at the
//! players' priority), so that the server's CPU time does not include them
//! and they share no process with the players; their process reports its
//! own CPU time. Each observer does the least a page must do to show the
//! game: it frames the stream's events, checks that each is one complete
//! `room` event of the room it asked for (a line of JSON, a line of SVG),
//! and parses the last event of each stream in full (the finished game,
//! its board of its turn). Everything read is
//! counted ([`Observed`]), so a run whose observers read nothing shows it.
//!
//! Like a browser, an observer keeps its connection open between requests
//! (HTTP/1.1 keep-alive) and opens a new one only when the server has
//! closed it.
//!
//! Where to look: one task reads the room list (`/api/rooms`) every
//! [`LIST_INTERVAL`], as a few open index pages would; an observer whose
//! game has ended takes a running room from the newest list.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use anyhow::{Context, bail};
use bytes::{Buf, Bytes, BytesMut};
use http_body_util::{BodyExt, Empty};
use hyper::{Request, StatusCode, body::Incoming};
use hyper_util::rt::TokioIo;
use memchr::memmem;
use serde::Deserialize;
use tokio::{net::TcpStream, sync::watch, task::JoinHandle};

use crate::counts_line;

/// How often the observers' process reads the room list.
pub const LIST_INTERVAL: Duration = Duration::from_millis(250);

/// What the observers read, counted across all of them.
#[derive(Debug, Default)]
pub struct Observed {
    /// Complete `room` events of the room asked for.
    pub events: AtomicU64,
    /// The bytes of those events' data.
    pub bytes: AtomicU64,
    /// Streams read to their end whose last event, parsed in full, showed
    /// the room's game over with its board.
    pub games: AtomicU64,
    /// Rooms that had ended and were forgotten when the observer asked
    /// (the room list is up to [`LIST_INTERVAL`] old).
    pub gone: AtomicU64,
    /// Events or streams that were not what a page expects: a malformed or
    /// foreign event, a stream that ended before its game did, a failed
    /// request.
    pub bad: AtomicU64,
    /// The observers' process's CPU time in microseconds (user + system),
    /// filled in when it reports.
    pub cpu_micros: AtomicU64,
}

impl Observed {
    /// The counts as one line, for crossing the process boundary.
    pub fn line(&self) -> String {
        counts_line::write(
            "observed",
            &[
                &self.events,
                &self.bytes,
                &self.games,
                &self.gone,
                &self.bad,
                &self.cpu_micros,
            ],
        )
    }

    /// The counts from a [`line`](Observed::line).
    pub fn parse(line: &str) -> Option<Observed> {
        let [events, bytes, games, gone, bad, cpu_micros] = counts_line::read("observed", line)?;
        Some(Observed {
            events,
            bytes,
            games,
            gone,
            bad,
            cpu_micros,
        })
    }

    /// The count of `counter`.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// Starts `count` observers of the web side at `web` (and the task that
/// reads the room list for them); they count into `observed` until
/// `stopping` is set.
pub fn start(
    web: SocketAddr,
    count: usize,
    observed: &Arc<Observed>,
    stopping: &Arc<AtomicBool>,
) -> Vec<JoinHandle<()>> {
    let (rooms_sender, rooms) = watch::channel(Arc::<[String]>::from([]));
    let lister = {
        let stopping = Arc::clone(stopping);
        tokio::spawn(async move {
            let mut failures = 0;
            let mut page = Page::new(web);
            while !stopping.load(Ordering::Relaxed) {
                match running_rooms(&mut page).await {
                    Ok(list) => {
                        rooms_sender.send_replace(list.into());
                    }
                    Err(error) => {
                        failures += 1;
                        if failures <= 3 {
                            eprintln!("bench: the observers' room list failed: {error:#}");
                        }
                    }
                }
                tokio::time::sleep(LIST_INTERVAL).await;
            }
        })
    };
    let observers = (0..count).map(|index| {
        let (observed, stopping) = (Arc::clone(observed), Arc::clone(stopping));
        let mut rooms = rooms.clone();
        tokio::spawn(async move {
            let mut failures = 0;
            let mut followed = Vec::new();
            let mut page = Page::new(web);
            while !stopping.load(Ordering::Relaxed) {
                let Some(room) = next_room(&mut rooms, index, &mut followed).await else {
                    return;
                };
                if let Err(error) = follow(&mut page, &room, &observed).await {
                    Observed::add(&observed.bad, 1);
                    failures += 1;
                    if failures <= 3 && !stopping.load(Ordering::Relaxed) {
                        eprintln!("bench: a web observer failed: {error:#}");
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        })
    });
    std::iter::once(lister).chain(observers).collect()
}

/// The room the `index`-th observer follows next: from the newest list of
/// running rooms, the first from the `index`-th on (round robin) that it has
/// not followed since the list last changed (nor the one it followed last);
/// waits for a new list when there is none. `followed` holds those rooms,
/// the last one last.
async fn next_room(
    rooms: &mut watch::Receiver<Arc<[String]>>,
    index: usize,
    followed: &mut Vec<String>,
) -> Option<String> {
    loop {
        if rooms.has_changed().unwrap_or(false) {
            followed.drain(..followed.len().saturating_sub(1));
        }
        {
            let list = rooms.borrow_and_update();
            let n = list.len();
            if let Some(room) = (0..n)
                .map(|k| &list[(index + k) % n])
                .find(|room| !followed.contains(room))
            {
                followed.push(room.clone());
                return Some(room.clone());
            }
        }
        rooms.changed().await.ok()?;
        followed.drain(..followed.len().saturating_sub(1));
    }
}

/// Follows room `room`'s event stream to its end.
async fn follow(page: &mut Page, room: &str, observed: &Observed) -> anyhow::Result<()> {
    let response = page.get(&format!("/api/rooms/{room}/events")).await?;
    match response.status() {
        StatusCode::OK => {}
        StatusCode::NOT_FOUND => {
            Observed::add(&observed.gone, 1);
            // Read to its end, so that the connection serves the next request.
            response.into_body().collect().await?;
            return Ok(());
        }
        status => bail!("the event stream of room {room} answered {status}"),
    }
    let mut stream = StreamCheck::new(room);
    let mut body = response.into_body();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            stream.push(&data).count(observed);
        }
    }
    stream.finish().count(observed);
    Ok(())
}

/// What part of a stream showed.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    events: u64,
    bytes: u64,
    games: u64,
    bad: u64,
}

impl Counts {
    fn count(&self, observed: &Observed) {
        Observed::add(&observed.events, self.events);
        Observed::add(&observed.bytes, self.bytes);
        Observed::add(&observed.games, self.games);
        Observed::add(&observed.bad, self.bad);
    }
}

/// The checks a page makes on one room's event stream, fed its bytes as
/// they arrive.
#[derive(Debug)]
struct StreamCheck {
    room: String,
    /// What every event of the room starts with.
    head: Vec<u8>,
    /// The bytes after the last complete event.
    unread: BytesMut,
    /// How far into `unread` no event end was found.
    searched: usize,
    /// The data of the last event: the view's line and the board's line.
    last: Option<(Bytes, Bytes)>,
}

/// The view of a stream's last event, as far as the observers check it.
#[derive(Debug, Deserialize)]
struct LastView {
    id: String,
    phase: String,
    turn: u64,
}

impl StreamCheck {
    fn new(room: &str) -> StreamCheck {
        StreamCheck {
            room: room.to_owned(),
            head: format!("event: room\ndata: {{\"id\":\"{room}\"").into_bytes(),
            unread: BytesMut::new(),
            searched: 0,
            last: None,
        }
    }

    /// Takes the stream's next bytes; counts the events they complete.
    fn push(&mut self, bytes: &[u8]) -> Counts {
        let mut counts = Counts::default();
        self.unread.extend_from_slice(bytes);
        let finder = memmem::Finder::new(b"\n\n");
        while let Some(end) = finder.find(&self.unread[self.searched..]) {
            let mut event = self.unread.split_to(self.searched + end + 2).freeze();
            self.searched = 0;
            if event.starts_with(b":") {
                // A comment: the keep-alive.
                continue;
            }
            if !event.starts_with(&self.head) {
                counts.bad += 1;
                continue;
            }
            event.advance(b"event: room\ndata: ".len());
            event.truncate(event.len() - 2);
            counts.bytes += event.len() as u64;
            // A line of JSON, then one of SVG.
            let Some(view_end) = memchr::memchr(b'\n', &event) else {
                counts.bad += 1;
                continue;
            };
            let view = event.split_to(view_end);
            event.advance(1);
            let is_board = |board: &[u8]| {
                board.starts_with(b"data: <svg")
                    && board.ends_with(b"</svg>")
                    && memchr::memchr(b'\n', board).is_none()
            };
            if !view.ends_with(b"}") || !is_board(&event) {
                counts.bad += 1;
                continue;
            }
            event.advance(b"data: ".len());
            counts.events += 1;
            self.last = Some((view, event));
        }
        // An end split between two reads is found from its first byte.
        self.searched = self.unread.len().saturating_sub(1);
        counts
    }

    /// The stream has ended: its last event must show the game over, with
    /// its board.
    fn finish(self) -> Counts {
        let good = self.last.is_some_and(|(view, board)| {
            serde_json::from_slice::<LastView>(&view).is_ok_and(|view| {
                let turn = format!(r#"data-turn="{}""#, view.turn);
                view.id == self.room
                    && view.phase == "over"
                    && memmem::find(&board, turn.as_bytes()).is_some()
            })
        });
        Counts {
            games: u64::from(good),
            bad: u64::from(!good || !self.unread.is_empty()),
            ..Counts::default()
        }
    }
}

#[derive(Debug, Deserialize)]
struct RoomList {
    rooms: Vec<ListedRoom>,
}

#[derive(Debug, Deserialize)]
struct ListedRoom {
    id: String,
    phase: String,
}

/// The ids of the running rooms.
async fn running_rooms(page: &mut Page) -> anyhow::Result<Vec<String>> {
    let response = page.get("/api/rooms").await?;
    let status = response.status();
    if status != StatusCode::OK {
        bail!("the room list answered {status}");
    }
    let body = response.into_body().collect().await?.to_bytes();
    let list: RoomList = serde_json::from_slice(&body).context("the room list")?;
    Ok(list
        .rooms
        .into_iter()
        .filter(|room| room.phase == "running")
        .map(|room| room.id)
        .collect())
}

/// One page's connection to the web side, kept open between requests.
struct Page {
    web: SocketAddr,
    connection: Option<hyper::client::conn::http1::SendRequest<Empty<Bytes>>>,
}

impl Page {
    fn new(web: SocketAddr) -> Page {
        Page {
            web,
            connection: None,
        }
    }

    /// `GET path`, on the open connection if the server has kept it (the
    /// previous response must have been read to its end), else on a new
    /// one.
    async fn get(&mut self, path: &str) -> anyhow::Result<hyper::Response<Incoming>> {
        let reusable = match &mut self.connection {
            Some(sender) => sender.ready().await.is_ok(),
            None => false,
        };
        let sender = match &mut self.connection {
            Some(sender) if reusable => sender,
            _ => {
                let stream = TcpStream::connect(self.web).await?;
                let (sender, connection) =
                    hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
                tokio::spawn(connection);
                self.connection.insert(sender)
            }
        };
        let request = Request::get(path)
            .header("host", "bench")
            .body(Empty::<Bytes>::new())?;
        Ok(sender.send_request(request).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(room: &str, phase: &str, turn: u32) -> String {
        format!(
            "event: room\ndata: {{\"id\":\"{room}\",\"phase\":\"{phase}\",\"turn\":{turn}}}\ndata: <svg data-turn=\"{turn}\"></svg>\n\n"
        )
    }

    /// A stream of three events, a keep-alive and the game's end.
    fn stream(room: &str) -> String {
        [
            event(room, "running", 3),
            ":\n\n".to_owned(),
            event(room, "running", 7),
            event(room, "over", 9),
        ]
        .concat()
    }

    #[test]
    fn events_are_counted_however_the_bytes_arrive() {
        let whole = stream("r1");
        let data_bytes: u64 = [3, 7, 9]
            .iter()
            .zip(["running", "running", "over"])
            .map(|(&turn, phase)| event("r1", phase, turn).len() as u64 - 20)
            .sum();
        for split in 0..whole.len() {
            for step in [1, 7, whole.len()] {
                let mut check = StreamCheck::new("r1");
                let mut counts = check.push(&whole.as_bytes()[..split]);
                for chunk in whole.as_bytes()[split..].chunks(step) {
                    let more = check.push(chunk);
                    counts.events += more.events;
                    counts.bytes += more.bytes;
                    counts.bad += more.bad;
                }
                assert_eq!(
                    (counts.events, counts.bytes, counts.bad),
                    (3, data_bytes, 0),
                    "split at {split}, step {step}"
                );
                let end = check.finish();
                assert_eq!((end.games, end.bad), (1, 0), "split at {split}");
            }
        }
    }

    #[test]
    fn another_rooms_events_and_broken_events_are_bad() {
        let mut check = StreamCheck::new("r1");
        let counts = check.push(event("r2", "running", 1).as_bytes());
        assert_eq!((counts.events, counts.bad), (0, 1));
        for broken in [
            // No board.
            "event: room\ndata: {\"id\":\"r1\"}\n\n",
            // The view cut.
            "event: room\ndata: {\"id\":\"r1\"\ndata: <svg></svg>\n\n",
            // A board in two lines.
            "event: room\ndata: {\"id\":\"r1\"}\ndata: <svg>\ndata: </svg>\n\n",
        ] {
            let counts = check.push(broken.as_bytes());
            assert_eq!((counts.events, counts.bad), (0, 1), "{broken}");
        }
        let counts = check.push(b"event: other\ndata: {}\n\n");
        assert_eq!((counts.events, counts.bad), (0, 1));
        // No event of the room at all: the stream showed no game.
        assert_eq!(check.finish().games, 0);
    }

    #[test]
    fn a_stream_that_ends_before_its_game_or_mid_event_is_bad() {
        let mut running = StreamCheck::new("r1");
        assert_eq!(running.push(event("r1", "running", 4).as_bytes()).events, 1);
        assert_eq!(
            running.finish(),
            Counts {
                bad: 1,
                ..Counts::default()
            }
        );

        let mut cut = StreamCheck::new("r1");
        let whole = stream("r1");
        assert_eq!(cut.push(&whole.as_bytes()[..whole.len() - 5]).events, 2);
        let end = cut.finish();
        assert_eq!((end.games, end.bad), (0, 1));

        // The board must be of the turn the view shows.
        let mut wrong_board = StreamCheck::new("r1");
        let view = event("r1", "over", 9).replace(r#"data-turn="9""#, r#"data-turn="8""#);
        assert_eq!(wrong_board.push(view.as_bytes()).events, 1);
        assert_eq!(wrong_board.finish().games, 0);
    }

    #[test]
    fn the_counts_cross_the_process_boundary() {
        let observed = Observed::default();
        observed.events.store(1234, Ordering::Relaxed);
        observed.bad.store(2, Ordering::Relaxed);
        observed.cpu_micros.store(99, Ordering::Relaxed);
        let back = Observed::parse(&observed.line()).expect("parses");
        assert_eq!(back.line(), observed.line());
        assert!(Observed::parse("observed 1 2").is_none());
        assert!(Observed::parse("observed 1 2 3 4 5 6 7").is_none());
        assert!(Observed::parse("tally 1 2 3 4 5 6").is_none());
    }

    #[tokio::test]
    async fn an_observer_takes_a_running_room_it_has_not_followed() {
        let list =
            |ids: &[&str]| Arc::from(ids.iter().map(|&id| id.to_owned()).collect::<Vec<_>>());
        let (sender, mut rooms) = watch::channel(list(&[]));
        sender.send_replace(list(&["a", "b"]));
        let mut followed = Vec::new();
        // Round robin from the observer's index, each room of a list once.
        assert_eq!(
            next_room(&mut rooms, 3, &mut followed).await.as_deref(),
            Some("b")
        );
        assert_eq!(
            next_room(&mut rooms, 3, &mut followed).await.as_deref(),
            Some("a")
        );
        let waiting = tokio::spawn(async move {
            let room = next_room(&mut rooms, 3, &mut followed).await;
            (room, followed, rooms)
        });
        tokio::task::yield_now().await;
        assert!(
            !waiting.is_finished(),
            "both rooms followed: waits for a new list"
        );
        // A new list: any room again but the one followed last.
        sender.send_replace(list(&["a", "b"]));
        let (room, mut followed, mut rooms) = waiting.await.expect("joins");
        assert_eq!(room.as_deref(), Some("b"));
        assert_eq!(followed, ["a", "b"]);
        sender.send_replace(list(&["b", "c"]));
        assert_eq!(
            next_room(&mut rooms, 0, &mut followed).await.as_deref(),
            Some("c")
        );
        // No list will come: give up.
        drop(sender);
        assert_eq!(next_room(&mut rooms, 0, &mut followed).await, None);
    }
}
