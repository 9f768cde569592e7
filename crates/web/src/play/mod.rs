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
//! [`PlaySettings::idle_limit`] leaves its game (and loses it by the
//! rules); a move waits at most [`ANSWER_LIMIT`] for the seat's task.
//!
//! [`Access`]: crate::access::Access

mod blokus;
pub mod board;
mod ostseeschach;
pub mod seat;
mod settings;
spielleiter_rules::test_games! {
    mod counting;
    mod tictactoe;
}

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use axum::{
    Json,
    extract::{Path, Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde::Deserialize;
use spielleiter_bots::BotKind;
use spielleiter_rules::GameType;
use spielleiter_server::limits::AddressSlots;
use tokio::{
    sync::{Semaphore, mpsc, oneshot, watch},
    time::Instant,
};
use tracing::info;

use self::seat::{Command, Other, SeatRequest, SeatTask, SeatView};
pub use self::settings::PlaySettings;
use crate::{app::App, connections::Peer, error::ApiError};

/// The largest request body a play route reads.
pub const MAX_BODY_BYTES: usize = 4096;

/// How long a move waits for the seat's task to take it.
pub const ANSWER_LIMIT: Duration = Duration::from_secs(10);

/// Seats kept for their pages after their games ended, beyond the running
/// ones; the oldest goes first.
const ENDED_SEATS_KEPT: usize = 16;

/// The name of a seat's cookie is this and the seat's id.
pub const SEAT_COOKIE_PREFIX: &str = "spielleiter_seat_";

/// The registry of people's seats: handles to their tasks, no game state.
#[derive(Debug)]
pub struct Seats {
    settings: PlaySettings,
    /// One permit per seat whose task runs.
    running: Arc<Semaphore>,
    /// The seats each address holds, one slot per seat until its game
    /// has a result or it has left.
    addresses: AddressSlots,
    /// Seats opened since the start (for `/metrics`).
    opened: AtomicU64,
    /// Seats refused since the start because every seat was taken (for
    /// `/metrics`).
    refused_full: AtomicU64,
    /// Seats refused since the start because the address held its share
    /// (for `/metrics`).
    refused_per_address: AtomicU64,
    seats: Mutex<HashMap<String, Arc<SeatHandle>>>,
}

/// What the routes hold of one seat.
#[derive(Debug)]
struct SeatHandle {
    secret: String,
    view: watch::Receiver<SeatView>,
    commands: mpsc::Sender<Command>,
    last_seen: watch::Sender<Instant>,
    opened: Instant,
}

impl SeatHandle {
    fn ended(&self) -> bool {
        self.commands.is_closed()
    }
}

impl Seats {
    /// An empty registry.
    pub fn new(settings: PlaySettings) -> Seats {
        Seats {
            running: Arc::new(Semaphore::new(settings.max_seats)),
            // People on the server's own machine count too: a proxy on
            // loopback would otherwise make every visitor exempt.
            addresses: AddressSlots::new(settings.max_seats_per_address, false),
            opened: AtomicU64::new(0),
            refused_full: AtomicU64::new(0),
            refused_per_address: AtomicU64::new(0),
            settings,
            seats: Mutex::default(),
        }
    }

    /// The number of seats whose game runs.
    pub fn running(&self) -> usize {
        self.settings.max_seats - self.running.available_permits()
    }

    /// The number of seats opened since the start, ended ones too.
    pub fn opened(&self) -> u64 {
        self.opened.load(Ordering::Relaxed)
    }

    /// The seats refused since the start: because every seat was taken,
    /// and because the address held its share.
    pub fn refused(&self) -> (u64, u64) {
        (
            self.refused_full.load(Ordering::Relaxed),
            self.refused_per_address.load(Ordering::Relaxed),
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<SeatHandle>>> {
        // A panic while holding the map leaves it consistent (inserts and
        // removes only).
        self.seats
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Opens a seat for `request` from address `peer`: returns its id and
    /// secret.
    ///
    /// # Errors
    ///
    /// The address holds its share of seats, all seats taken, a request
    /// that does not fit its game, or a game server that refuses.
    pub async fn open(
        &self,
        peer: IpAddr,
        request: &SeatRequest,
    ) -> Result<(String, String), PlayError> {
        let Some(address_slot) = self.addresses.take(peer) else {
            self.refused_per_address.fetch_add(1, Ordering::Relaxed);
            let held = self.addresses.held_by(peer);
            info!(%peer, held, "a person's seat refused: the address holds its share");
            return Err(PlayError::AddressHoldsItsShare(held));
        };
        let Ok(permit) = Arc::clone(&self.running).try_acquire_owned() else {
            self.refused_full.fetch_add(1, Ordering::Relaxed);
            info!(%peer, "a person's seat refused: every seat is taken");
            return Err(PlayError::Full(self.settings.max_seats));
        };
        let opened = seat::open(&self.settings, request)
            .await
            .map_err(|error| match error {
                seat::OpenError::Invalid(why) => PlayError::BadRequest(why),
                other => PlayError::Open(other.to_string()),
            })?;
        let id = random_hex();
        let secret = random_hex();
        let (commands, receiver) = mpsc::channel(4);
        let (last_seen, seen) = watch::channel(Instant::now());
        let (task, view) = SeatTask::new(
            id.clone(),
            opened,
            receiver,
            seen,
            self.settings.idle_limit,
            permit,
            address_slot,
        );
        let handle = Arc::new(SeatHandle {
            secret: secret.clone(),
            view,
            commands,
            last_seen,
            opened: Instant::now(),
        });
        {
            let mut seats = self.lock();
            prune(&mut seats);
            seats.insert(id.clone(), handle);
        }
        tokio::spawn(task.run());
        self.opened.fetch_add(1, Ordering::Relaxed);
        Ok((id, secret))
    }

    /// The seat `id` if `headers` carry its secret; counts as the page's
    /// sign of life.
    fn holder(&self, id: &str, headers: &HeaderMap) -> Result<Arc<SeatHandle>, PlayError> {
        let handle = self.lock().get(id).cloned().ok_or(PlayError::NoSeat)?;
        let cookie = format!("{SEAT_COOKIE_PREFIX}{id}");
        let given = crate::access::cookie(headers, &cookie).unwrap_or_default();
        if !crate::access::same(given, &handle.secret) {
            return Err(PlayError::NotYours);
        }
        handle.last_seen.send_replace(Instant::now());
        Ok(handle)
    }

    /// What the page of seat `id` shows.
    ///
    /// # Errors
    ///
    /// No such seat, or not the secret.
    pub fn view(&self, id: &str, headers: &HeaderMap) -> Result<SeatView, PlayError> {
        Ok(self.holder(id, headers)?.view.borrow().clone())
    }

    /// Plays choice `choice` of request `request` for seat `id`.
    ///
    /// # Errors
    ///
    /// No such seat, not the secret, a seat that has ended, or a move the
    /// seat refuses (not its turn, no such choice, not sent).
    pub async fn play(
        &self,
        id: &str,
        headers: &HeaderMap,
        request: u64,
        choice: usize,
    ) -> Result<(), PlayError> {
        let handle = self.holder(id, headers)?;
        ask(&handle, |reply| Command::Move {
            request,
            choice,
            reply,
        })
        .await
    }

    /// Why `attempt`, a click on the page of seat `id` for request
    /// `request`, is no legal move: in words of the game, from the rules.
    ///
    /// # Errors
    ///
    /// No such seat, not the secret, a seat that has ended, or a request
    /// that is no longer open.
    pub async fn explain(
        &self,
        id: &str,
        headers: &HeaderMap,
        request: u64,
        attempt: board::Attempt,
    ) -> Result<String, PlayError> {
        let handle = self.holder(id, headers)?;
        ask(&handle, |reply| Command::Explain {
            request,
            attempt,
            reply,
        })
        .await
    }

    /// Seat `id` leaves its game.
    ///
    /// # Errors
    ///
    /// No such seat, or not the secret.
    pub async fn leave(&self, id: &str, headers: &HeaderMap) -> Result<(), PlayError> {
        let handle = self.holder(id, headers)?;
        // A task that has ended has left already.
        let _ = tokio::time::timeout(ANSWER_LIMIT, handle.commands.send(Command::Leave)).await;
        Ok(())
    }
}

/// Sends the seat's task the command `command` makes with its reply
/// channel, and waits for the answer, all within [`ANSWER_LIMIT`]; the
/// task's `Err` is its refusal in words.
async fn ask<T>(
    handle: &SeatHandle,
    command: impl FnOnce(oneshot::Sender<Result<T, String>>) -> Command,
) -> Result<T, PlayError> {
    let (reply, answer) = oneshot::channel();
    let answer = tokio::time::timeout(ANSWER_LIMIT, async {
        handle
            .commands
            .send(command(reply))
            .await
            .map_err(|_| PlayError::Ended)?;
        answer.await.map_err(|_| PlayError::Ended)
    })
    .await
    .map_err(|_| PlayError::Busy)??;
    answer.map_err(PlayError::Refused)
}

/// Forgets the ended seats beyond [`ENDED_SEATS_KEPT`], oldest first.
fn prune(seats: &mut HashMap<String, Arc<SeatHandle>>) {
    let mut ended: Vec<(Instant, String)> = seats
        .iter()
        .filter(|(_, handle)| handle.ended())
        .map(|(id, handle)| (handle.opened, id.clone()))
        .collect();
    if ended.len() < ENDED_SEATS_KEPT {
        return;
    }
    ended.sort();
    for (_, id) in ended.iter().take(ended.len() + 1 - ENDED_SEATS_KEPT) {
        seats.remove(id);
    }
}

/// 128 random bits as hex.
fn random_hex() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Why a play route refuses.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Playing in the browser is off.
    #[error("playing in the browser is off on this server")]
    Off,
    /// Every seat is taken.
    #[error("{0} people play already, as many as this server allows; try again later")]
    Full(usize),
    /// The address plays in as many games as one address may.
    #[error("{}", already_playing(*.0))]
    AddressHoldsItsShare(usize),
    /// The seat could not be opened.
    #[error("the seat could not be opened: {0}")]
    Open(String),
    /// No seat by this id.
    #[error("there is no such seat (its game may have ended long ago)")]
    NoSeat,
    /// The request does not carry the seat's secret.
    #[error("this seat belongs to another browser; you can watch its room")]
    NotYours,
    /// The seat's game has ended.
    #[error("the seat's game has ended")]
    Ended,
    /// The seat's task did not answer in time.
    #[error("the seat did not answer in time; try again")]
    Busy,
    /// The seat refused the move.
    #[error("{0}")]
    Refused(String),
    /// The request itself is wrong.
    #[error("{0}")]
    BadRequest(String),
}

/// The refusal of a seat to an address that plays in `games` games.
fn already_playing(games: usize) -> String {
    let games = if games == 1 {
        "1 game".to_owned()
    } else {
        format!("{games} games")
    };
    format!("you already play in {games} here; finish or leave one first")
}

impl IntoResponse for PlayError {
    fn into_response(self) -> Response {
        let status = match self {
            PlayError::Off | PlayError::NoSeat => StatusCode::NOT_FOUND,
            PlayError::Full(_) | PlayError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            PlayError::AddressHoldsItsShare(_) => StatusCode::TOO_MANY_REQUESTS,
            PlayError::Open(_) => StatusCode::BAD_GATEWAY,
            PlayError::NotYours => StatusCode::FORBIDDEN,
            PlayError::Ended => StatusCode::GONE,
            PlayError::Refused(_) => StatusCode::CONFLICT,
            PlayError::BadRequest(_) => StatusCode::BAD_REQUEST,
        };
        (
            status,
            Json(serde_json::json!({ "error": self.to_string(), "login": false })),
        )
            .into_response()
    }
}

const PAGE: &str = include_str!("../../assets/play.html");
const SCRIPT: &str = include_str!("../../assets/play.js");
const STYLE: &str = include_str!("../../assets/play.css");

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
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Response> {
    let seats = seats(&app).map_err(IntoResponse::into_response)?;
    // Opening a room needs what watching running games needs.
    let allowed = app
        .access
        .may_watch(&headers, peer, &app.guard)
        .await
        .map_err(|too_soon| ApiError::from(too_soon).into_response())?;
    if !allowed {
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
    let handle = seats(&app)?.holder(&id, &headers)?;
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
