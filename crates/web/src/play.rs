//! People's seats: a person plays a game in the browser against built-in
//! bots or clients of their own (`/play`). This module owns the seats'
//! registry and their routes; [`seat`] the task of each seat, which holds
//! an ordinary player connection to the game server; [`board`] what each
//! game's page draws and offers.
//!
//! # Who may do what
//!
//! Opening a seat needs what watching running games needs ([`Access`]:
//! open pages, or the administrator's login). The answer sets a cookie
//! with the seat's secret (128 random bits, `HttpOnly`, `SameSite=Strict`);
//! only a request with that cookie reads the seat or moves for it, compared
//! in constant time. Everyone else watches the room on its own page.
//!
//! # Bounds
//!
//! At most [`PlaySettings::max_seats`] seats play at once, and at most
//! [`PlaySettings::max_seats_per_address`] of them for one address (an
//! address's seat is free again once its game has a result or the seat
//! has left), so that one visitor cannot lock everyone else out; request bodies
//! are capped at [`MAX_BODY_BYTES`]; a seat whose page sends no request for
//! [`PlaySettings::idle_limit`], or that does not move for as long while it
//! is its turn (a page that only polls holds the room as surely as a silent
//! one), leaves its game (and loses it by the rules); a move waits at most
//! [`ANSWER_LIMIT`] for the seat's task; a seat asks why a click is no move
//! (`/why`) at most [`QUESTIONS_PER_SECOND`] times a second on the long run
//! ([`QUESTIONS_AT_ONCE`] at once), beyond that it is answered `429` (and
//! counted in `/metrics`), so that a page asking in a loop does not take the
//! time other games need.
//!
//! [`Access`]: crate::access::Access

mod blokus;
pub mod board;
mod ostseeschach;
pub(crate) mod registry;
pub mod seat;
pub(crate) mod settings;
spielleiter_rules::test_games! {
    mod counting;
    mod tictactoe;
}

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde::Deserialize;
use spielleiter_bots::BotKind;
use spielleiter_rules::GameType;

use self::seat::{Other, SeatRequest};
pub use self::{
    registry::{
        ANSWER_LIMIT, PlayError, QUESTIONS_AT_ONCE, QUESTIONS_PER_SECOND, SEAT_COOKIE_PREFIX, Seats,
    },
    settings::PlaySettings,
};
use crate::{app::App, connections::Peer, error::ApiError};

/// The largest request body a play route reads.
pub const MAX_BODY_BYTES: usize = 4096;

const PAGE: &str = include_str!("../assets/play.html");
const SCRIPT: &str = include_str!("../assets/play.js");
const STYLE: &str = include_str!("../assets/play.css");

/// `GET /play` and `GET /play/{id}`: the form and the seat's page (the
/// script reads which from the address).
pub async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// `GET /assets/play.js`, `GET /assets/play.css`.
pub async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
        .into_response()
}

/// `GET /assets/play.css`.
pub async fn style() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
        .into_response()
}

/// A game a person can play, with what may sit on its other seats.
#[derive(Debug, serde::Serialize)]
pub struct PlayableGame {
    /// The protocol id.
    pub id: &'static str,
    /// The title.
    pub title: &'static str,
    /// The number of seats.
    pub players: usize,
    /// The built-in bots that play it.
    pub bots: Vec<&'static str>,
}

/// `GET /api/play`: whether seats can be opened, and the games with their
/// bots.
pub async fn games(State(app): State<Arc<App>>) -> Json<serde_json::Value> {
    let games: Vec<PlayableGame> = GameType::ALL
        .iter()
        .map(|&game| PlayableGame {
            id: game.id(),
            title: game.title(),
            players: game.player_count(),
            bots: BotKind::PLAYING
                .iter()
                .filter(|kind| kind.build(game, 0).is_ok())
                .map(|kind| kind.name())
                .collect(),
        })
        .collect();
    let seats = app.play.as_ref();
    Json(serde_json::json!({
        "on": seats.is_some(),
        "max_seats": seats.map_or(0, |s| s.settings.max_seats),
        "running": seats.map_or(0, Seats::running),
        "games": games,
    }))
}

/// The body of `POST /api/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenBody {
    /// The game's protocol id.
    pub game: String,
    /// The person's seat.
    pub seat: usize,
    /// Each other seat: a bot's name or `code`.
    pub others: Vec<String>,
    /// Whether the person's moves are timed.
    #[serde(default)]
    pub timed: bool,
    /// Whether the room keeps its wire log (every seat's bytes) next to its
    /// replay, as a prepared room with `wireLog="true"` does.
    #[serde(default)]
    pub wire_log: bool,
    /// The person's display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// The longest display name a person may give.
const MAX_NAME_CHARS: usize = 40;

impl OpenBody {
    fn request(&self) -> Result<SeatRequest, PlayError> {
        let game = GameType::from_id(&self.game)
            .ok_or_else(|| PlayError::BadRequest(format!("unknown game `{}`", self.game)))?;
        let others = self
            .others
            .iter()
            .map(|other| match other.as_str() {
                "code" => Ok(Other::Code),
                bot => bot
                    .parse::<BotKind>()
                    .map(Other::Bot)
                    .map_err(|error| PlayError::BadRequest(error.to_string())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let name: String = self
            .name
            .as_deref()
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .unwrap_or("person")
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME_CHARS)
            .collect();
        Ok(SeatRequest {
            game,
            seat: self.seat,
            others,
            timed: self.timed,
            wire_log: self.wire_log,
            name,
        })
    }
}

/// Parses a JSON body of at most [`MAX_BODY_BYTES`] (the router caps the
/// body; this names what is wrong in English). The body must say it is
/// JSON: another site's page cannot send that without the browser asking
/// first (CORS), which this server never allows, so it cannot open seats
/// in a visitor's name.
fn parse<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: &axum::body::Bytes,
) -> Result<T, PlayError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim_start().starts_with("application/json"));
    if !json {
        return Err(PlayError::BadRequest(
            "the request must be JSON (content-type: application/json)".to_owned(),
        ));
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(PlayError::BadRequest(format!(
            "the request is larger than {MAX_BODY_BYTES} bytes"
        )));
    }
    serde_json::from_slice(body).map_err(|error| {
        PlayError::BadRequest(format!("the request is not the expected JSON: {error}"))
    })
}

fn seats(app: &App) -> Result<&Seats, PlayError> {
    app.play.as_ref().ok_or(PlayError::Off)
}

/// `POST /api/play`: opens a seat; the answer sets its cookie.
pub async fn open(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    who: crate::route_access::Who,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Response> {
    let seats = seats(&app).map_err(IntoResponse::into_response)?;
    // Opening a room needs what watching running games needs (the access
    // layer asked already; asked again here, where the seat is opened).
    if !who.may_watch(&app) {
        return Err(ApiError::Unauthorized {
            login: app.access.can_log_in(),
        }
        .into_response());
    }
    let request = parse::<OpenBody>(&headers, &body)
        .and_then(|body| body.request())
        .map_err(IntoResponse::into_response)?;
    let (id, secret) = seats
        .open(peer, &request)
        .await
        .map_err(IntoResponse::into_response)?;
    let cookie = format!("{SEAT_COOKIE_PREFIX}{id}={secret}; Path=/; HttpOnly; SameSite=Strict");
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({ "id": id, "url": format!("/play/{id}") })),
    )
        .into_response())
}

/// The query of `GET /api/play/{id}`.
#[derive(Debug, Deserialize)]
pub struct ViewQuery {
    /// The version the page shows: if the seat has not changed since, the
    /// answer is `{"version": N, "unchanged": true}` without the rest.
    pub since: Option<u64>,
}

/// `GET /api/play/{id}`: the seat's view, for the browser that holds it.
pub async fn view(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(query): Query<ViewQuery>,
    headers: HeaderMap,
) -> Result<Response, PlayError> {
    let seats = seats(&app)?;
    let handle = match seats.holder(&id, &headers) {
        // Someone else's seat: the page shows its room to watch instead.
        Err(PlayError::NotYours) => {
            let body = serde_json::json!({
                "error": PlayError::NotYours.to_string(),
                "login": false,
                "room": seats.room_of(&id),
            });
            return Ok((StatusCode::FORBIDDEN, Json(body)).into_response());
        }
        other => other?,
    };
    let view = handle.view.borrow();
    if query.since == Some(view.version) {
        let unchanged = serde_json::json!({ "version": view.version, "unchanged": true });
        return Ok(Json(unchanged).into_response());
    }
    Ok(Json(&*view).into_response())
}

/// The body of `POST /api/play/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The move request the page answers (its view's `request`).
    pub request: u64,
    /// The index into that view's `choices`.
    pub choice: usize,
}

/// `POST /api/play/{id}/move`: plays one of the offered moves.
pub async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<StatusCode, PlayError> {
    let seats = seats(&app)?;
    let body: MoveBody = parse(&headers, &body)?;
    seats.play(&id, &headers, body.request, body.choice).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/play/{id}/why`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhyBody {
    /// The move request the page answers (its view's `request`).
    pub request: u64,
    /// The piece held ([`board::Attempt::piece`]).
    #[serde(default)]
    pub piece: Option<String>,
    /// The fields clicked or covered ([`board::Attempt::cells`]).
    #[serde(default)]
    pub cells: Vec<[i32; 2]>,
    /// The piece to move ([`board::Attempt::from`]).
    #[serde(default)]
    pub from: Option<[i32; 2]>,
}

/// `POST /api/play/{id}/why`: why a click the page could not match with an
/// offered move is no legal move (`{"reason": "..."}`), from the rules of
/// the seat's position; nothing is sent to the game.
pub async fn why(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, PlayError> {
    let seats = seats(&app)?;
    let body: WhyBody = parse(&headers, &body)?;
    let attempt = board::Attempt {
        piece: body.piece,
        cells: body.cells,
        from: body.from,
    };
    let reason = seats.explain(&id, &headers, body.request, attempt).await?;
    Ok(Json(serde_json::json!({ "reason": reason })))
}

/// `POST /api/play/{id}/leave`: the seat leaves its game.
pub async fn leave(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, PlayError> {
    seats(&app)?.leave(&id, &headers).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests;
