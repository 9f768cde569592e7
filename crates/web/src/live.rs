//! Running games: the list of rooms, one room's view, and its event
//! stream (server-sent events), all read from the rooms' snapshots.
//!
//! A stream never holds a room up: it waits on the room's `watch` channel,
//! and after a change it reads whatever snapshot is newest, at most one
//! every [`MIN_EVENT_INTERVAL`]; a page that reads slowly is simply not
//! polled, and skips to the newest snapshot when it reads again.

use std::{convert::Infallible, sync::Arc, time::Duration};

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, header},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use futures_util::stream::{self, Stream};
use serde::Serialize;
use spielleiter_server::{
    ids::RoomId,
    showroom::{RoomPhase, RoomSnapshot},
};
use tokio::{
    sync::{OwnedSemaphorePermit, watch},
    time::Instant,
};

use crate::{
    App,
    error::ApiError,
    views::{self, RoomView},
};

/// The shortest time between two events of one stream: a game faster than
/// this is shown at this rate, skipping the states in between.
pub const MIN_EVENT_INTERVAL: Duration = Duration::from_millis(40);

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
pub async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Json<RoomList> {
    let live = app.access.may_watch(&headers);
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
    Json(RoomList {
        live,
        login: !live && app.access.can_log_in(),
        rooms,
        finished,
    })
}

/// The newest snapshot of room `id`: a running room's only when the
/// request may watch, a finished room's to everyone.
fn snapshot(app: &App, id: &str, headers: &HeaderMap) -> Result<Arc<RoomSnapshot>, ApiError> {
    let id = RoomId::from(id);
    if let Some(room) = app.stats.rooms.watch(&id) {
        if !app.access.may_watch(headers) {
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
    headers: HeaderMap,
) -> Result<Json<RoomView>, ApiError> {
    let snapshot = snapshot(&app, &id, &headers)?;
    Ok(Json(views::room(&snapshot, true)))
}

/// `GET /api/rooms/{id}/board.svg`: the room's board.
pub async fn board(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let snapshot = snapshot(&app, &id, &headers)?;
    let svg = views::board_svg(&snapshot.game, &snapshot.names, Vec::new());
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// `GET /api/rooms/{id}/events`: server-sent events, one `room` event with
/// the room's view (board included) now and after every change, until the
/// game is over. A finished room sends its last view once.
pub async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = RoomId::from(id.as_str());
    let source = match app.stats.rooms.watch(&id) {
        Some(room) if app.access.may_watch(&headers) => Source::Live(room),
        Some(_) => return Err(unauthorized(&app)),
        None => match app.stats.rooms.finished_room(&id) {
            Some(last) => Source::Finished(Some(last)),
            None => return Err(ApiError::NotFound("no such room".to_owned())),
        },
    };
    let permit = Arc::clone(&app.streams)
        .try_acquire_owned()
        .map_err(|_| ApiError::Busy)?;
    Ok(Sse::new(room_events(source, permit))
        .keep_alive(KeepAlive::default())
        .into_response())
}

enum Source {
    Live(watch::Receiver<Arc<RoomSnapshot>>),
    Finished(Option<Arc<RoomSnapshot>>),
}

struct Cursor {
    source: Source,
    /// When the last event was made; `None` before the first.
    last_event: Option<Instant>,
    /// Counts the open streams while the stream lives.
    _permit: OwnedSemaphorePermit,
}

/// The events of one stream.
fn room_events(
    source: Source,
    permit: OwnedSemaphorePermit,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let cursor = Cursor {
        source,
        last_event: None,
        _permit: permit,
    };
    stream::unfold(cursor, |mut cursor| async move {
        let snapshot = match &mut cursor.source {
            Source::Finished(last) => last.take()?,
            Source::Live(room) => {
                if let Some(last) = cursor.last_event {
                    if room.borrow().phase == RoomPhase::Over {
                        return None;
                    }
                    // Err: the room has ended and its last snapshot was sent.
                    room.changed().await.ok()?;
                    tokio::time::sleep_until(last + MIN_EVENT_INTERVAL).await;
                }
                Arc::clone(&room.borrow_and_update())
            }
        };
        cursor.last_event = Some(Instant::now());
        let view = views::room(&snapshot, true);
        let event = Event::default()
            .event("room")
            .json_data(&view)
            .unwrap_or_else(|_| Event::default().event("error").data("unencodable"));
        Some((Ok(event), cursor))
    })
}
