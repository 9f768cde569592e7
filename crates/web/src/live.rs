//! Running games: the list of rooms, one room's view, and its event
//! stream (server-sent events), all read from the rooms' snapshots.
//!
//! A stream never holds a room up: it waits on the room's `watch` channel,
//! and after a change it reads whatever snapshot is newest, at most one
//! every [`MIN_EVENT_INTERVAL`]; a page that reads slowly is simply not
//! polled, and skips to the newest snapshot when it reads again.
//!
//! Many pages never slow the games either: all streams together send at
//! most [`LIVE_EVENTS_PER_SECOND`], each event in its turn
//! ([`EventPacer`]), a new stream's first one too. One page sees a fast
//! game at 25 states a second, fifty pages at about five each.
//!
//! An event costs the server little: the board of a snapshot is drawn once
//! however many pages watch the room ([`Boards`]), and an event is that
//! board and the room's small view, written out as one buffer (the board
//! as a line of its own, not escaped into the JSON).

use std::{convert::Infallible, sync::Arc, time::Duration};

use axum::{
    Json,
    body::{Body, Bytes},
    extract::{Path, State},
    http::header,
    response::{IntoResponse, Response},
};
use futures_util::stream::{self, Stream};
use serde::Serialize;
use spielleiter_server::{
    ids::RoomId,
    limits::AddressSlot,
    showroom::{RoomPhase, RoomSnapshot},
};
use tokio::{
    sync::{OwnedSemaphorePermit, watch},
    time::Instant,
};

pub(crate) mod boards;
pub(crate) mod pacer;

pub use self::{
    boards::Boards,
    pacer::{EventPacer, LIVE_EVENTS_PER_SECOND},
};
use crate::{
    app::App,
    connections::Peer,
    error::ApiError,
    route_access::Who,
    views::{self, RoomView},
};

/// The shortest time between two events of one stream: a game faster than
/// this is shown at this rate, skipping the states in between.
pub const MIN_EVENT_INTERVAL: Duration = Duration::from_millis(40);

/// A stream of a room that does not change sends a comment this often, so
/// that proxies and browsers keep the connection.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The rooms page's data.
#[derive(Debug, Serialize)]
pub struct RoomList {
    /// Whether this request may see running games.
    pub live: bool,
    /// Whether a login would show them.
    pub login: bool,
    /// The open rooms, oldest first (empty unless `live`).
    pub rooms: Vec<RoomView>,
    /// The last finished games, newest first.
    pub finished: Vec<RoomView>,
}

/// `GET /api/rooms`: the open rooms (when allowed) and the last finished
/// games.
pub async fn list(State(app): State<Arc<App>>, who: Who) -> Result<Json<RoomList>, ApiError> {
    let live = who.may_watch(&app);
    let rooms = if live {
        app.stats
            .rooms
            .open_rooms()
            .iter()
            .map(|room| {
                let snapshot = Arc::clone(&room.borrow());
                views::room(&snapshot, false)
            })
            .collect()
    } else {
        Vec::new()
    };
    let finished = app
        .stats
        .rooms
        .finished()
        .iter()
        .map(|snapshot| views::room(snapshot, false))
        .collect();
    Ok(Json(RoomList {
        live,
        login: !live && app.access.can_log_in(),
        rooms,
        finished,
    }))
}

/// The newest snapshot of room `id`: a running room's only when the
/// request may watch, a finished room's to everyone.
fn snapshot(app: &App, id: &str, who: &Who) -> Result<Arc<RoomSnapshot>, ApiError> {
    let id = RoomId::from(id);
    if let Some(room) = app.stats.rooms.watch(&id) {
        if !who.may_watch(app) {
            return Err(unauthorized(app));
        }
        return Ok(Arc::clone(&room.borrow()));
    }
    app.stats
        .rooms
        .finished_room(&id)
        .ok_or_else(|| ApiError::NotFound("no such room".to_owned()))
}

fn unauthorized(app: &App) -> ApiError {
    ApiError::Unauthorized {
        login: app.access.can_log_in(),
    }
}

/// `GET /api/rooms/{id}`: the room's view with its board.
pub async fn room(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    who: Who,
) -> Result<Json<RoomView>, ApiError> {
    let snapshot = snapshot(&app, &id, &who)?;
    Ok(Json(views::room(&snapshot, true)))
}

/// `GET /api/rooms/{id}/board.svg`: the room's board.
pub async fn board(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    who: Who,
) -> Result<Response, ApiError> {
    let snapshot = snapshot(&app, &id, &who)?;
    let svg = views::board_svg(&snapshot.game, &snapshot.names, Vec::new(), None);
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// `GET /api/rooms/{id}/events`: server-sent events, one `room` event now
/// and after every change, until the game is over; a finished room sends
/// its last one once. An event's data is two lines: the room's view as JSON
/// (without `svg`), then its board as SVG (one line).
pub async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Peer(peer): Peer,
    who: Who,
) -> Result<Response, ApiError> {
    let id = RoomId::from(id.as_str());
    let source = match app.stats.rooms.watch(&id) {
        Some(room) if who.may_watch(&app) => Source::Live(room),
        Some(_) => return Err(unauthorized(&app)),
        None => match app.stats.rooms.finished_room(&id) {
            Some(last) => Source::Finished(Some(last)),
            None => return Err(ApiError::NotFound("no such room".to_owned())),
        },
    };
    // One address cannot hold all streams.
    let slot = app.stream_slots.take(peer).ok_or(ApiError::BusyAddress)?;
    let permit = Arc::clone(&app.streams)
        .try_acquire_owned()
        .map_err(|_| ApiError::Busy)?;
    let body = Body::from_stream(room_events(
        app,
        source,
        StreamPermit {
            _permit: permit,
            _slot: slot,
        },
    ));
    Ok((
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

enum Source {
    Live(watch::Receiver<Arc<RoomSnapshot>>),
    Finished(Option<Arc<RoomSnapshot>>),
}

struct Cursor {
    app: Arc<App>,
    source: Source,
    /// When the last event was made; `None` before the first.
    last_event: Option<Instant>,
    /// Whether the last event showed the game over.
    over: bool,
    /// Counts the open streams while the stream lives.
    _permit: StreamPermit,
}

/// A stream's place among all streams and among its address's, given
/// back when the stream ends.
struct StreamPermit {
    _permit: OwnedSemaphorePermit,
    _slot: AddressSlot,
}

/// The events of one stream, each one buffer.
fn room_events(
    app: Arc<App>,
    source: Source,
    permit: StreamPermit,
) -> impl Stream<Item = Result<Bytes, Infallible>> {
    let cursor = Cursor {
        app,
        source,
        last_event: None,
        over: false,
        _permit: permit,
    };
    stream::unfold(cursor, |mut cursor| async move {
        let snapshot = match &mut cursor.source {
            Source::Finished(last) => {
                let last = last.take()?;
                // A finished game's board is drawn for the page too.
                cursor.app.pacer.wait_turn().await;
                last
            }
            Source::Live(room) => {
                if let Some(last) = cursor.last_event {
                    // The end is shown once it is sent (a room that ended
                    // while the stream waited has an unseen last change).
                    if cursor.over {
                        return None;
                    }
                    // The interval first: the changes made during it are
                    // seen at once after it, so that in a fast game the
                    // stream wakes once per event (its timer), not once per
                    // move too, and the room has no waiter to wake.
                    tokio::time::sleep_until(last + MIN_EVENT_INTERVAL).await;
                    match tokio::time::timeout(KEEP_ALIVE, room.changed()).await {
                        Err(_) => return Some((Ok(Bytes::from_static(b":\n\n")), cursor)),
                        // The room has ended and its last snapshot was sent.
                        Ok(Err(_)) => return None,
                        Ok(Ok(())) => {}
                    }
                }
                // The newest snapshot when the turn comes.
                cursor.app.pacer.wait_turn().await;
                Arc::clone(&room.borrow_and_update())
            }
        };
        cursor.last_event = Some(Instant::now());
        cursor.over = snapshot.phase == RoomPhase::Over;
        let board = cursor.app.boards.board(&snapshot, &cursor.app.stats.rooms);
        let event = event(&views::room(&snapshot, false), &board);
        Some((Ok(event), cursor))
    })
}

/// The `room` event of `view` with its `board` (one line of SVG).
fn event(view: &RoomView, board: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(board.len() + 1024);
    out.extend_from_slice(b"event: room\ndata: ");
    // Compact JSON has no line breaks: they are escaped in strings.
    if serde_json::to_writer(&mut out, view).is_err() {
        return Bytes::from_static(b"event: error\ndata: unencodable\n\n");
    }
    out.extend_from_slice(b"\ndata: ");
    out.extend_from_slice(board);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use std::{
        net::{IpAddr, Ipv4Addr},
        time::SystemTime,
    };

    use futures_util::StreamExt;
    use spielleiter_rules::{
        AnyGame,
        blokus::{Blokus, PieceKind},
    };
    use spielleiter_server::{
        Config,
        config::HttpPublic,
        limits::{AddressSlots, AuthBackoff},
        stats::ServerStats,
    };
    use tokio::sync::Semaphore;

    use super::boards::{BOARDS_KEPT, one_line};
    use super::*;
    use crate::{access::Access, app::MAX_STREAMS};

    fn snapshot(id: &str) -> RoomSnapshot {
        RoomSnapshot {
            id: RoomId::from(id),
            names: Arc::from(vec!["alice".to_owned(), "bob".to_owned()]),
            seated: vec![true, true],
            phase: RoomPhase::Running,
            game: AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL)),
            pending: None,
            result: None,
            opened: SystemTime::UNIX_EPOCH,
            version: 0,
        }
    }

    fn app() -> Arc<App> {
        let stats = Arc::new(ServerStats::default());
        Arc::new(App {
            guard: crate::access::Guard::new(
                Arc::new(AuthBackoff::for_config(&Config::default())),
                Arc::clone(&stats),
            ),
            stats,
            access: Access::new(IpAddr::V4(Ipv4Addr::LOCALHOST), HttpPublic::Auto, None),
            replays: None,
            season: None,
            streams: Arc::new(Semaphore::new(MAX_STREAMS)),
            stream_slots: AddressSlots::new(2, false),
            boards: Boards::default(),
            pacer: EventPacer::default(),
            play: None,
            summaries: crate::archive::SummaryCache::default(),
            contest: None,
        })
    }

    fn stream_permit(app: &App) -> StreamPermit {
        StreamPermit {
            _permit: Arc::clone(&app.streams)
                .try_acquire_owned()
                .expect("permit"),
            _slot: app
                .stream_slots
                .take(IpAddr::V4(Ipv4Addr::LOCALHOST))
                .expect("slot"),
        }
    }

    fn newest(app: &App, id: &str) -> Arc<RoomSnapshot> {
        let room = app.stats.rooms.watch(&RoomId::from(id)).expect("open");
        Arc::clone(&room.borrow())
    }

    #[test]
    fn a_board_is_drawn_once_per_version_and_closed_rooms_boards_are_dropped() {
        let app = app();
        let rooms = &app.stats.rooms;
        let publisher = rooms.open(snapshot("a"));
        let first = newest(&app, "a");
        let drawn = app.boards.board(&first, rooms);
        assert!(drawn.starts_with(b"<svg"));
        // Every stream of the room gets the same bytes.
        assert_eq!(app.boards.board(&first, rooms).as_ptr(), drawn.as_ptr());
        publisher.publish(|s| s.phase = RoomPhase::Paused);
        let second = newest(&app, "a");
        let redrawn = app.boards.board(&second, rooms);
        assert_ne!(redrawn.as_ptr(), drawn.as_ptr());
        // A stream behind the others does not replace the newer board.
        app.boards.board(&first, rooms);
        assert_eq!(app.boards.board(&second, rooms).as_ptr(), redrawn.as_ptr());

        // Boards of rooms that have closed go when the boards are many.
        for n in 0..BOARDS_KEPT {
            app.boards.board(&snapshot(&n.to_string()), rooms);
        }
        assert!(app.boards.len() < BOARDS_KEPT, "{}", app.boards.len());
        assert_eq!(app.boards.board(&second, rooms).as_ptr(), redrawn.as_ptr());
    }

    #[tokio::test(start_paused = true)]
    async fn a_quiet_rooms_stream_keeps_alive_and_ends_with_the_game() {
        let app = app();
        let publisher = app.stats.rooms.open(snapshot("a"));
        let room = app.stats.rooms.watch(&RoomId::from("a")).expect("open");
        let permit = stream_permit(&app);
        let mut events = Box::pin(room_events(Arc::clone(&app), Source::Live(room), permit));
        let first = events.next().await.expect("an event").expect("infallible");
        assert!(first.starts_with(br#"event: room"#), "{first:?}");
        assert_eq!(app.open_streams(), 1);

        // Changes faster than the interval: the next event is the newest
        // state, one interval after the last event.
        let started = Instant::now();
        for _ in 0..5 {
            publisher.publish(|s| s.pending = None);
        }
        let next = events.next().await.expect("an event").expect("infallible");
        assert!(
            memchr::memmem::find(&next, br#""version":5"#).is_some(),
            "{next:?}"
        );
        assert_eq!(started.elapsed(), MIN_EVENT_INTERVAL);

        let quiet_since = Instant::now();
        let keep_alive = events.next().await.expect("an event").expect("infallible");
        assert_eq!(&keep_alive[..], b":\n\n");
        assert_eq!(quiet_since.elapsed(), MIN_EVENT_INTERVAL + KEEP_ALIVE);

        publisher.publish(|s| s.phase = RoomPhase::Over);
        let last = events.next().await.expect("an event").expect("infallible");
        let text = std::str::from_utf8(&last).expect("UTF-8");
        let (view, board) = text
            .strip_prefix("event: room\ndata: ")
            .and_then(|t| t.strip_suffix("\n\n"))
            .and_then(|t| t.split_once("\ndata: "))
            .expect("two data lines");
        let view: serde_json::Value = serde_json::from_str(view).expect("JSON");
        assert_eq!(view["id"], "a");
        assert_eq!(view["phase"], "over");
        assert!(view.get("svg").is_none(), "the board is its own line");
        assert!(board.starts_with("<svg") && board.ends_with("</svg>"));
        assert!(!board.contains('\n'));
        assert!(events.next().await.is_none(), "over: the stream ends");
        assert_eq!(app.open_streams(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn all_streams_together_keep_within_the_events_per_second() {
        let pacer = EventPacer::default();
        assert_eq!(EventPacer::TURN, Duration::from_millis(4));
        let started = Instant::now();
        for _ in 0..LIVE_EVENTS_PER_SECOND {
            pacer.wait_turn().await;
        }
        // The first turn is at once, each further one a turn later.
        assert_eq!(
            started.elapsed(),
            EventPacer::TURN * (LIVE_EVENTS_PER_SECOND - 1)
        );
        // Turns not asked for are not saved up.
        tokio::time::sleep(Duration::from_secs(10)).await;
        let idle_since = Instant::now();
        pacer.wait_turn().await;
        pacer.wait_turn().await;
        assert_eq!(idle_since.elapsed(), EventPacer::TURN);
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_stream_waits_for_its_turn() {
        let app = app();
        let _publisher = app.stats.rooms.open(snapshot("a"));
        // Other streams have taken the next 100 turns.
        let turn = Instant::now() + EventPacer::TURN * 100;
        *app.pacer.next.lock().expect("lock") = turn;
        let room = app.stats.rooms.watch(&RoomId::from("a")).expect("open");
        let permit = stream_permit(&app);
        let mut events = Box::pin(room_events(Arc::clone(&app), Source::Live(room), permit));
        events.next().await.expect("an event").expect("infallible");
        assert_eq!(Instant::now(), turn);
    }

    #[test]
    fn a_board_is_one_line() {
        assert_eq!(
            &one_line("<svg>\r\na\nb</svg>".to_owned())[..],
            b"<svg>  a b</svg>"
        );
        assert_eq!(&one_line("<svg/>".to_owned())[..], b"<svg/>");
    }
}
