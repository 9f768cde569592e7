//! The registry of people's seats ([`Seats`]): handles to the seats'
//! tasks, the bounds on how many play, and why a play route refuses
//! ([`PlayError`]).

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
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use spielleiter_server::limits::AddressSlots;
use tokio::{
    sync::{Semaphore, mpsc, oneshot, watch},
    time::Instant,
};
use tracing::info;

use super::{
    board,
    seat::{self, Command, SeatRequest, SeatTask, SeatView},
    settings::PlaySettings,
};

/// How long a move waits for the seat's task to take it.
pub const ANSWER_LIMIT: Duration = Duration::from_secs(10);

/// Seats kept for their pages after their games ended, beyond the running
/// ones; the oldest goes first.
const ENDED_SEATS_KEPT: usize = 16;

/// The name of a seat's cookie is this and the seat's id.
pub const SEAT_COOKIE_PREFIX: &str = "spielleiter_seat_";

/// Questions why a click is no move (`/why`) a seat may ask per second, on
/// the long run. A person clicks a few times a second at most; each
/// question has the seat's task look through the position's moves, so a
/// page asking thousands of times a second would take the time other
/// games need.
pub const QUESTIONS_PER_SECOND: u32 = 5;

/// Questions a seat may ask at once, beyond [`QUESTIONS_PER_SECOND`].
pub const QUESTIONS_AT_ONCE: u32 = 10;

/// The registry of people's seats: handles to their tasks, no game state.
#[derive(Debug)]
pub struct Seats {
    pub(super) settings: PlaySettings,
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
    /// Questions (`/why`) refused since the start because their seat asked
    /// more than its budget (for `/metrics`).
    refused_questions: AtomicU64,
    seats: Mutex<HashMap<String, Arc<SeatHandle>>>,
}

/// What the routes hold of one seat.
#[derive(Debug)]
pub(super) struct SeatHandle {
    secret: String,
    pub(super) view: watch::Receiver<SeatView>,
    commands: mpsc::Sender<Command>,
    last_seen: watch::Sender<Instant>,
    opened: Instant,
    /// The seat's budget of questions (`/why`).
    questions: Mutex<QuestionBudget>,
}

/// A seat's budget of questions: [`QUESTIONS_AT_ONCE`] at once, one more
/// every `1 / QUESTIONS_PER_SECOND` seconds.
#[derive(Debug)]
struct QuestionBudget {
    /// When the budget is whole again: each question moves it on by one
    /// interval.
    whole_at: Instant,
}

impl QuestionBudget {
    const INTERVAL: Duration = Duration::from_millis(1000 / QUESTIONS_PER_SECOND as u64);

    fn new() -> QuestionBudget {
        QuestionBudget {
            whole_at: Instant::now(),
        }
    }

    /// Takes a question from the budget; `false` if it is spent.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let whole_at = self.whole_at.max(now);
        if whole_at >= now + Self::INTERVAL * QUESTIONS_AT_ONCE {
            return false;
        }
        self.whole_at = whole_at + Self::INTERVAL;
        true
    }
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
            refused_questions: AtomicU64::new(0),
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

    /// The questions (`/why`) refused since the start because their seat
    /// asked more than its budget.
    pub fn questions_refused(&self) -> u64 {
        self.refused_questions.load(Ordering::Relaxed)
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<SeatHandle>>> {
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
            questions: Mutex::new(QuestionBudget::new()),
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
    pub(super) fn holder(
        &self,
        id: &str,
        headers: &HeaderMap,
    ) -> Result<Arc<SeatHandle>, PlayError> {
        let handle = self.lock().get(id).cloned().ok_or(PlayError::NoSeat)?;
        let cookie = format!("{SEAT_COOKIE_PREFIX}{id}");
        let given = crate::access::cookie(headers, &cookie).unwrap_or_default();
        if !crate::access::same(given, &handle.secret) {
            return Err(PlayError::NotYours);
        }
        handle.last_seen.send_replace(Instant::now());
        Ok(handle)
    }

    /// The room of seat `id`, for anyone who has its address: the page of
    /// someone else's seat shows that room to watch (the room's own page
    /// decides who may).
    pub fn room_of(&self, id: &str) -> Option<String> {
        let handle = self.lock().get(id).cloned()?;
        let room = handle.view.borrow().room_id.clone();
        Some(room)
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
    /// No such seat, not the secret, a seat that has ended, a request that
    /// is no longer open, or a seat that asked more than
    /// [`QUESTIONS_PER_SECOND`] (beyond [`QUESTIONS_AT_ONCE`]).
    pub async fn explain(
        &self,
        id: &str,
        headers: &HeaderMap,
        request: u64,
        attempt: board::Attempt,
    ) -> Result<String, PlayError> {
        let handle = self.holder(id, headers)?;
        let asked = handle
            .questions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if !asked {
            self.refused_questions.fetch_add(1, Ordering::Relaxed);
            return Err(PlayError::TooManyQuestions);
        }
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
    /// The seat asked why a click is no move more often than it may.
    #[error(
        "too many questions: a seat may ask why a click is no move {QUESTIONS_PER_SECOND} times a second; wait a moment"
    )]
    TooManyQuestions,
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
            PlayError::AddressHoldsItsShare(_) | PlayError::TooManyQuestions => {
                StatusCode::TOO_MANY_REQUESTS
            }
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
