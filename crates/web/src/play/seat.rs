//! One person's seat: the room prepared for it by an in-process
//! administrator of the game server, the built-in bots of the other seats,
//! and the task that holds the person's player connection (in-process too,
//! and unable to administer), publishes what the page shows and sends the
//! person's moves. The seat is an ordinary player to the server: its moves
//! go through the same wire, rules and clock as any client's.

use std::time::Duration;

use serde::Serialize;
use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{ClientError, Connection, PlayOptions, play};
use spielleiter_protocol::{
    GameMove, Prepare, ServerMessage, SlotDescriptor, english::english, room::RoomData,
};
use spielleiter_rules::{AnyGame, AnyMove, Game, GameType};
use spielleiter_server::{in_process::InProcessError, limits::AddressSlot};
use tokio::{
    sync::{OwnedSemaphorePermit, mpsc, oneshot, watch},
    time::Instant,
};
use tracing::{info, warn};

use super::{
    board::{self, Board, Choice},
    settings::PlaySettings,
};
use crate::views::{self, PlayerView, ResultView};

/// The seats of `game` as the room pages show them.
fn players(game: &AnyGame, names: &[String]) -> serde_json::Value {
    let players: Vec<PlayerView> = views::players(game, names, &[]);
    serde_json::to_value(players).unwrap_or_default()
}

/// The result as the room pages show it.
fn result(
    result: &spielleiter_protocol::result::GameResult,
    names: &[String],
) -> serde_json::Value {
    let view: ResultView = views::result(result, names);
    serde_json::to_value(view).unwrap_or_default()
}

/// How long preparing the room and taking the seats may take.
const OPEN_LIMIT: Duration = Duration::from_secs(10);

/// How long sending a move or closing the connection may take.
const SEND_LIMIT: Duration = Duration::from_secs(5);

/// How long a bot waits after a move request before it answers, so that a
/// person sees the bots' moves one by one.
pub const BOT_THINK: Duration = Duration::from_millis(300);

/// Who sits on a seat other than the person's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Other {
    /// A built-in bot, driven in this process.
    Bot(BotKind),
    /// A client of the person's own, started with the seat's reservation
    /// code.
    Code,
}

/// What a person asked for.
#[derive(Clone, Debug)]
pub struct SeatRequest {
    /// The game.
    pub game: GameType,
    /// The person's seat (0 = ONE).
    pub seat: usize,
    /// The other seats, in seat order without the person's.
    pub others: Vec<Other>,
    /// Whether the person's moves are timed like a client's.
    pub timed: bool,
    /// Whether the room keeps its wire log next to its replay (a person
    /// whose own client plays a seat sees what it sent and got).
    pub wire_log: bool,
    /// The person's display name.
    pub name: String,
}

/// A reservation code for a client of the person's own.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Code {
    /// The seat it takes.
    pub seat: usize,
    /// The code.
    pub code: String,
}

/// Where the seat is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Waiting for the other seats to be taken.
    Waiting,
    /// The game runs.
    Playing,
    /// The game is over (a result, or the connection ended).
    Over,
    /// The person left (by the button, or a page that stopped asking).
    Left,
}

/// What the person's page shows: published by the seat's task after every
/// change, read by the page's requests.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The game's protocol id.
    pub game: &'static str,
    /// The game's title.
    pub title: &'static str,
    /// The room, for its watch page.
    pub room_id: String,
    /// The person's seat.
    pub seat: usize,
    /// Whether the person's moves are timed.
    pub timed: bool,
    /// For timed moves: a move later than this many milliseconds after its
    /// request loses.
    pub soft_ms: Option<u64>,
    /// For timed moves: no move by this many milliseconds loses.
    pub hard_ms: Option<u64>,
    /// Where the seat is.
    pub phase: Phase,
    /// The turn counter of the last state.
    pub turn: u32,
    /// The seats with their names and points ([`PlayerView`]s, as the
    /// room pages show them).
    pub players: serde_json::Value,
    /// The board of the last state.
    pub board: Board,
    /// Counts the server's move requests to the person; a move names the
    /// request it answers.
    pub request: u64,
    /// Whether the server waits for the person's move.
    pub your_turn: bool,
    /// The legal moves while it is the person's turn (from the rules).
    pub choices: Vec<Choice>,
    /// Reservation codes of the seats for the person's own clients.
    pub codes: Vec<Code>,
    /// The game server's address for those clients.
    pub server: String,
    /// The result, once there is one (a [`ResultView`]).
    pub result: Option<serde_json::Value>,
    /// The last thing that went wrong, in English.
    pub message: Option<String>,
    /// Grows with every change, so that a page asks only for news.
    pub version: u64,
}

/// A request of the page to the seat's task.
#[derive(Debug)]
pub enum Command {
    /// Play choice `choice` of move request `request`.
    Move {
        /// The request the page saw.
        request: u64,
        /// The index into its choices.
        choice: usize,
        /// `Err` with the reason if the move was not sent.
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// Say why `attempt`, a click the page of request `request` could not
    /// match with a legal move, is none (nothing is sent to the game).
    Explain {
        /// The request the page saw.
        request: u64,
        /// The click.
        attempt: board::Attempt,
        /// The reason in English, or `Err` with why there is none (not the
        /// person's turn).
        reply: oneshot::Sender<Result<String, String>>,
    },
    /// Leave the game.
    Leave,
}

/// Why a seat could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A seat asked for is not there.
    #[error("{0}")]
    Invalid(String),
    /// The game server refused or failed.
    #[error("the game server: {0}")]
    Server(#[from] ClientError),
    /// The game server took no further connection.
    #[error("the game server: {0}")]
    Door(#[from] InProcessError),
    /// Preparing took too long.
    #[error("the game server did not answer in time")]
    TimedOut,
}

/// A seat whose room is prepared and whose connection has joined.
#[derive(Debug)]
pub struct Opened {
    /// The person's connection, joined.
    connection: Connection,
    /// The view before the game starts.
    pub view: SeatView,
    /// The seats' names.
    names: Vec<String>,
}

/// Prepares a room for `request` on the game server of `settings` through
/// its in-process door, starts the bots and takes the person's seat.
///
/// # Errors
///
/// A request that does not fit the game, or a game server that refuses,
/// fails or takes longer than `OPEN_LIMIT`.
pub async fn open(settings: &PlaySettings, request: &SeatRequest) -> Result<Opened, OpenError> {
    let players = request.game.player_count();
    if request.seat >= players || request.others.len() + 1 != players {
        return Err(OpenError::Invalid(format!(
            "{} has {players} seats: the person's seat must be one of them and each other seat needs a bot or a code",
            request.game.title()
        )));
    }
    // Every bot is built first: one the game has not is refused before a
    // room is prepared.
    let mut bots = Vec::new();
    for (index, other) in request.others.iter().enumerate() {
        if let Other::Bot(kind) = other {
            let bot = kind
                .build(
                    request.game,
                    rand::random::<u64>().wrapping_add(index as u64),
                )
                .map_err(|error| OpenError::Invalid(error.to_string()))?;
            bots.push(Some(bot));
        } else {
            bots.push(None);
        }
    }
    tokio::time::timeout(OPEN_LIMIT, prepare_and_join(settings, request, bots))
        .await
        .map_err(|_| OpenError::TimedOut)?
}

/// The seats in seat order: the person's and the others'.
fn seat_order(request: &SeatRequest) -> Vec<Option<Other>> {
    let mut seats: Vec<Option<Other>> = request.others.iter().copied().map(Some).collect();
    seats.insert(request.seat, None);
    seats
}

fn display_name(request: &SeatRequest, other: Option<Other>) -> Option<String> {
    match other {
        None => Some(request.name.clone()),
        Some(Other::Bot(kind)) => Some(format!("{kind} bot")),
        // The client names itself.
        Some(Other::Code) => None,
    }
}

async fn prepare_and_join(
    settings: &PlaySettings,
    request: &SeatRequest,
    bots: Vec<Option<spielleiter_bots::AnyBot>>,
) -> Result<Opened, OpenError> {
    let seats = seat_order(request);
    // The game server of this process, administered in-process: no
    // passphrase crosses a socket, and nobody's guesses at one delay it.
    let door = &settings.server;
    let mut admin = Connection::over(door.administrator().await?).await?;
    let prepared = admin
        .prepare(Prepare {
            seed: None,
            game_type: Some(request.game.id().to_owned()),
            pause: false,
            // `false` leaves it to the server's setting.
            wire_log: request.wire_log,
            slots: seats
                .iter()
                .map(|&other| SlotDescriptor {
                    display_name: display_name(request, other),
                    // People are untimed unless the room says otherwise.
                    can_timeout: other.is_some() || request.timed,
                    reserved: true,
                })
                .collect(),
        })
        .await?;
    // The room lives on without its administrator.
    let _ = admin.close().await;
    let room_id = prepared.room_id.clone();
    let mut connection = Connection::over(door.player().await?).await?;
    let person_code = prepared
        .reservations
        .get(request.seat)
        .ok_or(ClientError::Protocol("fewer reservation codes than seats"))?;
    connection.join_prepared(person_code, request.game).await?;
    let mut codes = Vec::new();
    let mut bots = bots.into_iter();
    for (seat, (other, code)) in seats.iter().zip(&prepared.reservations).enumerate() {
        match other {
            None => {}
            Some(Other::Code) => {
                bots.next();
                codes.push(Code {
                    seat,
                    code: code.clone(),
                });
            }
            Some(Other::Bot(_)) => {
                let Some(Some(bot)) = bots.next() else {
                    continue;
                };
                let mut bot_connection = Connection::over(door.player().await?).await?;
                bot_connection.join_prepared(code, request.game).await?;
                let options = PlayOptions {
                    think: settings.bot_think,
                };
                tokio::spawn(drive_bot(
                    bot_connection,
                    room_id.clone(),
                    seat,
                    bot,
                    options,
                ));
            }
        }
    }
    let names: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(seat, &other)| {
            display_name(request, other).unwrap_or_else(|| {
                format!(
                    "your client ({})",
                    spielleiter_protocol::seats::seat_label(seat)
                )
            })
        })
        .collect();
    let game = AnyGame::new(request.game, &mut rand::rng());
    let limits = settings
        .move_limits
        .get(&request.game)
        .filter(|_| request.timed);
    let view = SeatView {
        game: request.game.id(),
        title: request.game.title(),
        room_id,
        seat: request.seat,
        timed: request.timed,
        soft_ms: limits.map(|l| millis(l.soft)),
        hard_ms: limits.map(|l| millis(l.hard)),
        phase: Phase::Waiting,
        turn: 0,
        players: players(&game, &names),
        board: Board::default(),
        request: 0,
        your_turn: false,
        choices: Vec::new(),
        codes,
        server: settings.game_addr.to_string(),
        result: None,
        message: None,
        version: 0,
    };
    Ok(Opened {
        connection,
        view,
        names,
    })
}

/// `duration` in whole minutes, rounded up.
fn minutes(duration: Duration) -> u64 {
    duration.as_secs().div_ceil(60)
}

/// Sleeps until `at`, or for ever without one.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Plays a built-in bot's seat until its game ends.
async fn drive_bot(
    mut connection: Connection,
    room_id: String,
    seat: usize,
    mut bot: spielleiter_bots::AnyBot,
    options: PlayOptions,
) {
    match play(&mut connection, &room_id, options, |game| {
        bot.choose_move(game)
    })
    .await
    {
        Ok(report) => {
            info!(room = %room_id, seat, moves = report.moves_sent, "a person's opponent bot finished")
        }
        Err(error) => warn!(room = %room_id, seat, %error, "a person's opponent bot failed"),
    }
}

/// The task of one seat: owns the person's connection and the position it
/// last received.
#[derive(Debug)]
pub struct SeatTask {
    /// The seat's id, for the log.
    pub id: String,
    connection: Option<Connection>,
    /// Publishes what the page shows.
    pub view: watch::Sender<SeatView>,
    /// The page's requests.
    pub commands: mpsc::Receiver<Command>,
    /// When the page last asked for anything.
    pub last_seen: watch::Receiver<Instant>,
    /// How long the page may stay silent, and how long the person may take
    /// for a move while it is their turn (a page that only polls holds the
    /// room as surely as a silent one).
    pub idle_limit: Duration,
    /// Since when the server has waited for the person's move, if it does.
    on_turn_since: Option<Instant>,
    /// The names of the seats, for the result.
    names: Vec<String>,
    /// The position of the last state.
    game: Option<AnyGame>,
    /// The legal moves of the open request, in the order of the view's
    /// choices.
    moves: Vec<AnyMove>,
    /// Holds one of the running seats of the cap until the task ends.
    _permit: OwnedSemaphorePermit,
    /// Holds one of the seats of the person's address until the game has
    /// a result or the task ends, whichever comes first.
    address_slot: Option<AddressSlot>,
}

impl SeatTask {
    /// The task for an opened seat.
    pub fn new(
        id: String,
        opened: Opened,
        commands: mpsc::Receiver<Command>,
        last_seen: watch::Receiver<Instant>,
        idle_limit: Duration,
        permit: OwnedSemaphorePermit,
        address_slot: AddressSlot,
    ) -> (SeatTask, watch::Receiver<SeatView>) {
        let names = opened.names.clone();
        let (view, watching) = watch::channel(opened.view);
        let task = SeatTask {
            id,
            connection: Some(opened.connection),
            view,
            commands,
            last_seen,
            idle_limit,
            on_turn_since: None,
            names,
            game: None,
            moves: Vec::new(),
            _permit: permit,
            address_slot: Some(address_slot),
        };
        (task, watching)
    }

    /// Runs the seat until its game ends or the person leaves.
    pub async fn run(mut self) {
        let room = self.view.borrow().room_id.clone();
        info!(seat_id = %self.id, %room, "a person took a seat");
        while let Some(connection) = self.connection.as_mut() {
            let idle_at = *self.last_seen.borrow() + self.idle_limit;
            let move_due = self.on_turn_since.map(|since| since + self.idle_limit);
            tokio::select! {
                // Reading is cancel-safe: a packet half read stays in the
                // connection's buffer for the next call.
                message = connection.recv() => match message {
                    Ok(Some(message)) => self.on_message(message),
                    Ok(None) => self.end(None),
                    Err(error) => self.end(Some(format!("the connection to the game server failed: {error}"))),
                },
                command = self.commands.recv() => match command {
                    Some(Command::Move { request, choice, reply }) => {
                        let answer = self.send_move(request, choice).await;
                        let _ = reply.send(answer);
                    }
                    Some(Command::Explain { request, attempt, reply }) => {
                        let _ = reply.send(self.explain(request, &attempt));
                    }
                    Some(Command::Leave) | None => self.leave("You left the game.".to_owned()).await,
                },
                () = tokio::time::sleep_until(idle_at) => {
                    if *self.last_seen.borrow() + self.idle_limit <= Instant::now() {
                        let minutes = minutes(self.idle_limit);
                        warn!(seat_id = %self.id, %room, "a person's page stopped asking; the seat leaves");
                        self.leave(format!("You left the game: your page sent no request for {minutes} minutes.")).await;
                    }
                }
                () = sleep_until_some(move_due) => {
                    let minutes = minutes(self.idle_limit);
                    warn!(seat_id = %self.id, %room, "a person did not move on their turn; the seat leaves");
                    self.leave(format!("You left the game: it was your turn for {minutes} minutes without a move.")).await;
                }
            }
        }
        info!(seat_id = %self.id, %room, "a person's seat ended");
    }

    fn on_message(&mut self, message: ServerMessage) {
        let data = match message {
            ServerMessage::Room { data, .. } => data,
            ServerMessage::ErrorPacket { message, .. } => {
                self.publish(|view| view.message = Some(english(&message)));
                return;
            }
            ServerMessage::Left { .. } => {
                // The result came before, if there is one.
                self.end(None);
                return;
            }
            _ => return,
        };
        match data {
            RoomData::Memento(state) => match state.to_game() {
                Ok(game) => {
                    let board = board::board(&game);
                    let players = players(&game, &self.names);
                    let turn = game.turn();
                    self.game = Some(game);
                    self.moves.clear();
                    self.on_turn_since = None;
                    self.publish(|view| {
                        view.phase = Phase::Playing;
                        view.board = board;
                        view.players = players;
                        view.turn = turn;
                        view.your_turn = false;
                        view.choices.clear();
                    });
                }
                Err(error) => {
                    let room = self.view.borrow().room_id.clone();
                    warn!(seat_id = %self.id, %room, %error, "a person's seat got a state it cannot read");
                    self.publish(|view| {
                        view.message = Some(format!(
                            "the server sent a state this page cannot read: {error}"
                        ));
                    });
                }
            },
            RoomData::MoveRequest(_) => {
                let Some(game) = &self.game else {
                    return;
                };
                let (moves, choices): (Vec<AnyMove>, Vec<Choice>) =
                    board::choices(game).into_iter().unzip();
                self.moves = moves;
                self.on_turn_since = Some(Instant::now());
                self.publish(|view| {
                    view.request += 1;
                    view.your_turn = true;
                    view.choices = choices;
                });
            }
            RoomData::Error { message, .. } => self.publish(|view| {
                view.message = Some(format!(
                    "The server refused the move: {}",
                    english(&message)
                ));
            }),
            RoomData::Result(game_result) => {
                // The game is over: the address may play another while
                // this one's page still shows the result.
                self.address_slot = None;
                self.on_turn_since = None;
                let result = result(&game_result, &self.names);
                self.publish(|view| {
                    view.result = Some(result);
                    view.your_turn = false;
                    view.choices.clear();
                });
            }
            RoomData::Welcome { .. } | RoomData::Paused { .. } | RoomData::Move(_) => {}
        }
    }

    /// Why `attempt` is no legal move in the position of request
    /// `request`, from the rules (through [`board::refusal`]), if that
    /// request is still open.
    fn explain(&self, request: u64, attempt: &board::Attempt) -> Result<String, String> {
        let (open, current) = {
            let view = self.view.borrow();
            (view.your_turn, view.request)
        };
        match &self.game {
            Some(game) if open && request == current => Ok(board::refusal(game, attempt)),
            _ => Err("It is not your turn (any more): the page shows an old position.".to_owned()),
        }
    }

    /// Sends choice `choice` of move request `request`, if that request is
    /// still open.
    async fn send_move(&mut self, request: u64, choice: usize) -> Result<(), String> {
        let (open, current) = {
            let view = self.view.borrow();
            (view.your_turn, view.request)
        };
        if !open || request != current {
            return Err(
                "It is not your turn (any more): the page shows an old position.".to_owned(),
            );
        }
        let Some(&mv) = self.moves.get(choice) else {
            return Err("There is no such move in this position.".to_owned());
        };
        let Some(connection) = self.connection.as_mut() else {
            return Err("The seat has left its game.".to_owned());
        };
        let room = self.view.borrow().room_id.clone();
        let sent =
            tokio::time::timeout(SEND_LIMIT, connection.send_move(&room, GameMove::from(mv))).await;
        match sent {
            Ok(Ok(())) => {
                self.moves.clear();
                self.on_turn_since = None;
                self.publish(|view| {
                    view.your_turn = false;
                    view.choices.clear();
                    view.message = None;
                });
                Ok(())
            }
            Ok(Err(error)) => {
                let text = format!("The move could not be sent: {error}");
                self.end(Some(text.clone()));
                Err(text)
            }
            Err(_) => {
                let text = "The move could not be sent in time.".to_owned();
                self.end(Some(text.clone()));
                Err(text)
            }
        }
    }

    /// Closes the connection: the person's player leaves (and loses by the
    /// rules, if the game runs).
    async fn leave(&mut self, why: String) {
        if let Some(connection) = self.connection.take() {
            let _ = tokio::time::timeout(SEND_LIMIT, connection.close()).await;
        }
        self.publish(|view| {
            view.phase = Phase::Left;
            view.your_turn = false;
            view.choices.clear();
            view.message = Some(why);
        });
    }

    /// Changes the view and tells the page by a new version.
    fn publish(&self, change: impl FnOnce(&mut SeatView)) {
        self.view.send_modify(|view| {
            change(view);
            view.version += 1;
        });
    }

    /// The game has ended for the seat.
    fn end(&mut self, why: Option<String>) {
        if let Some(why) = &why {
            let room = self.view.borrow().room_id.clone();
            warn!(seat_id = %self.id, %room, "a person's seat ended: {why}");
        }
        self.connection = None;
        self.publish(|view| {
            view.phase = Phase::Over;
            view.your_turn = false;
            view.choices.clear();
            if why.is_some() {
                view.message = why;
            }
        });
    }
}
