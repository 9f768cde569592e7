//! One room: a task that owns a game, its seats, its observers, the move
//! clock and the replay. Connections and the lobby talk to it only through
//! [`RoomHandle`]; nothing else ever touches the game state.
//!
//! The room never waits for a peer: packets go to each connection's bounded
//! outbox without blocking, and a player whose outbox is gone or full has
//! left the game.

use std::sync::Arc;

use bytes::Bytes;
use spielleiter_protocol::{
    Dialect, GameMove, dialect::LeaveCause, error::prefix, games, result::GameResult,
};
use spielleiter_rules::{AnyGame, AnyMistake, Game, GameType};
use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};
use tokio_util::sync::CancellationToken;
use tracing::{debug, error, info, warn};

use crate::{
    clock::{MoveClock, TimeLimits, Timeout, sleep_until_some},
    ending::Ending,
    ids::RoomId,
    limits::LogBudget,
    outbound::{ConnId, Outbox},
    replay::{ReplayRecorder, ReplayStore, wire_log::WireLog},
    showroom::{PendingMove, Publisher, RoomPhase, RoomSnapshot},
    stats::ServerStats,
    wire::{self, Packet, SeatView},
};

/// Commands a room accepts. Bounded: a connection that floods a room waits.
const COMMAND_CAPACITY: usize = 64;

/// How long a sender waits for room in a room's command queue, or the
/// lobby for a room's answer, before it treats the room as gone. A room
/// answers within microseconds; one that does not is hung, and nobody may
/// wait for it forever.
pub const ROOM_ANSWER_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// How a connection asks for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatRequest {
    /// The first empty seat that is not reserved (`join`, `joinRoom`).
    Open,
    /// The reserved seat with this index (`joinPrepared`).
    Reserved(usize),
}

/// A successful seating.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The seat (slot) index; the team is derived from it.
    pub seat: usize,
    /// Occupied seats after this one was taken.
    pub occupied: usize,
    /// Whether another open (unreserved, empty) seat remains.
    pub still_open: bool,
}

/// Why a seat could not be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    /// No empty seat of the requested kind.
    #[error("the room is full")]
    Full,
    /// The game has started or ended.
    #[error("the game has already started")]
    Started,
    /// The room did not answer in time.
    #[error("the room does not answer")]
    Unresponsive,
}

/// Messages to a room task.
#[derive(Debug)]
pub enum RoomCommand {
    /// Seat a connection. The room sends `joined` itself, so that it is the
    /// first room packet the player gets.
    Seat {
        /// Which seat.
        request: SeatRequest,
        /// The player's connection.
        outbox: Outbox,
        /// The answer.
        reply: oneshot::Sender<Result<Seated, SeatError>>,
    },
    /// A move from a seated connection.
    Move {
        /// The sender.
        conn: ConnId,
        /// The move as decoded.
        mv: GameMove,
        /// When its last byte was read from the socket.
        read_at: Instant,
    },
    /// A connection went away.
    Leave {
        /// The connection.
        conn: ConnId,
        /// Why.
        cause: LeaveCause,
    },
    /// An administrator subscribes to the room's broadcasts.
    Observe {
        /// The administrator's connection.
        outbox: Outbox,
    },
    /// An administrator pauses or resumes the room.
    Pause {
        /// The new pause state.
        paused: bool,
    },
    /// An administrator lets a paused room ask for one move.
    Step,
    /// An administrator aborts the game.
    Cancel,
    /// A prepared room's reservations have expired: a room still waiting
    /// for players ends without a game; a running one ignores this.
    Expire,
    /// The server is shutting down: a room still waiting for players ends
    /// now; a running game may go on until the grace period is over.
    Drain,
}

/// What a room tells the lobby.
#[derive(Debug)]
pub enum RoomEvent {
    /// The game's result, sent before the players see it.
    Result {
        /// The players' display names, in seat order.
        names: Vec<String>,
        /// The result.
        result: GameResult,
    },
    /// A prepared room expired before its game began.
    Expired(RoomId),
    /// The room has ended and can be forgotten.
    Ended(RoomId),
}

/// A cheap handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    id: RoomId,
    game_type: GameType,
    commands: mpsc::Sender<RoomCommand>,
    /// Ends the task, for a room that has stopped answering.
    task: Option<Arc<tokio::task::AbortHandle>>,
}

impl RoomHandle {
    /// The room's id.
    pub fn id(&self) -> &RoomId {
        &self.id
    }

    /// The room's game type.
    pub fn game_type(&self) -> GameType {
        self.game_type
    }

    /// Sends a command; `false` if the room has already ended, or does not
    /// take commands within [`ROOM_ANSWER_LIMIT`].
    pub async fn send(&self, command: RoomCommand) -> bool {
        matches!(
            tokio::time::timeout(ROOM_ANSWER_LIMIT, self.commands.send(command)).await,
            Ok(Ok(()))
        )
    }

    /// Sends a command if there is room in the queue; a full queue drops it
    /// (for notices that must not make the sender wait).
    pub fn try_send(&self, command: RoomCommand) -> bool {
        self.commands.try_send(command).is_ok()
    }

    /// Whether the room has ended (its game is over and it takes no more
    /// commands).
    pub fn has_ended(&self) -> bool {
        self.commands.is_closed()
    }

    /// Asks for a seat. A room that has ended answers `Started`; one that
    /// does not answer within [`ROOM_ANSWER_LIMIT`] is
    /// [`SeatError::Unresponsive`].
    pub async fn seat(&self, request: SeatRequest, outbox: Outbox) -> Result<Seated, SeatError> {
        let (reply, answer) = oneshot::channel();
        let asked = async {
            self.commands
                .send(RoomCommand::Seat {
                    request,
                    outbox,
                    reply,
                })
                .await
                .map_err(|_| SeatError::Started)?;
            answer.await.unwrap_or(Err(SeatError::Started))
        };
        tokio::time::timeout(ROOM_ANSWER_LIMIT, asked)
            .await
            .unwrap_or(Err(SeatError::Unresponsive))
    }

    /// Ends the room's task where it is, without a result: only for a room
    /// that has stopped answering (its game cannot be ended regularly).
    pub(crate) fn abort(&self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }

    /// A handle whose commands go to the returned receiver instead of a room
    /// task, for tests that play the room's part.
    #[cfg(test)]
    pub(crate) fn detached(
        id: RoomId,
        game_type: GameType,
    ) -> (RoomHandle, mpsc::Receiver<RoomCommand>) {
        let (commands, rx) = mpsc::channel(COMMAND_CAPACITY);
        (
            RoomHandle {
                id,
                game_type,
                commands,
                task: None,
            },
            rx,
        )
    }
}

/// One seat of a room, as the lobby or a `prepare` request describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSpec {
    /// The player's display name (`""` for seats taken by `join`).
    pub display_name: String,
    /// Whether the player is timed (when the server times players at all).
    pub can_timeout: bool,
    /// Whether only a reservation code admits a player.
    pub reserved: bool,
}

impl SeatSpec {
    /// A seat for whoever joins first.
    pub fn open() -> SeatSpec {
        SeatSpec {
            display_name: String::new(),
            can_timeout: true,
            reserved: false,
        }
    }
}

/// What a room is built from.
#[derive(Debug)]
pub struct RoomSetup {
    /// The id clients address it by.
    pub id: RoomId,
    /// The game, in its initial state.
    pub game: AnyGame,
    /// One spec per seat, in slot order.
    pub seats: Vec<SeatSpec>,
    /// Whether the room starts paused.
    pub paused: bool,
    /// The move time limits, or `None` if the server times nobody.
    pub limits: Option<TimeLimits>,
    /// Where to write the replay, or `None` for no replay.
    pub replay: Option<ReplayStore>,
    /// Whether the seats' bytes are logged next to the replay.
    pub wire_log: bool,
    /// Cancelled when the server's shutdown grace period is over.
    pub shutdown: CancellationToken,
    /// Where the room reports its result and its end.
    pub events: mpsc::UnboundedSender<RoomEvent>,
    /// The server's counters.
    pub stats: Arc<ServerStats>,
}

/// Starts the room task and returns its handle.
pub fn spawn(setup: RoomSetup, tracker: &tokio_util::task::TaskTracker) -> RoomHandle {
    let (commands, rx) = mpsc::channel(COMMAND_CAPACITY);
    let (id, game_type) = (setup.id.clone(), setup.game.game_type());
    let span = tracing::info_span!("room", room = %id, game = %game_type);
    let room = Room::new(setup, rx);
    let task = tracker.spawn(tracing::Instrument::instrument(room.run(), span));
    RoomHandle {
        id,
        game_type,
        commands,
        task: Some(Arc::new(task.abort_handle())),
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Seats are still empty.
    Waiting,
    /// Both players are in; moves are being played.
    Running,
    /// The result has been sent.
    Over,
}

struct Seat {
    spec: SeatSpec,
    occupant: Option<Outbox>,
}

/// The one outstanding move request.
struct Pending {
    seat: usize,
    clock: MoveClock,
    /// What watchers see of it.
    shown: PendingMove,
    /// Reports when the request reached the socket.
    written: Option<oneshot::Receiver<Instant>>,
    /// When the move that led to this request was read, for the
    /// server-added latency.
    after_move_read_at: Option<Instant>,
}

/// What woke the room up.
enum Wakeup {
    Command(RoomCommand),
    RequestWritten(Instant),
    /// The writer of the player asked for a move ended without writing the
    /// request: the connection is gone.
    RequestLost,
    HardDeadline,
    Shutdown,
    AllHandlesGone,
}

struct Room {
    id: RoomId,
    game: AnyGame,
    seats: Vec<Seat>,
    observers: Vec<Outbox>,
    paused: bool,
    phase: Phase,
    pending: Option<Pending>,
    limits: Option<TimeLimits>,
    /// The limits the texts name: the room's, or the game's default when
    /// nobody is timed.
    named_limits: TimeLimits,
    /// What the room's game speaks.
    dialect: &'static Dialect,
    replay: Option<ReplayRecorder>,
    replay_store: Option<ReplayStore>,
    /// The seats' wire log, if kept; dropped with the room, after the
    /// replay is finished, so that the log takes the replay's name.
    wire_log: Option<WireLog>,
    commands: mpsc::Receiver<RoomCommand>,
    shutdown: CancellationToken,
    events: mpsc::UnboundedSender<RoomEvent>,
    stats: Arc<ServerStats>,
    /// When the last applied move was read (consumed by the next request).
    last_move_read_at: Option<Instant>,
    /// The buffer size for the next memento: the last one's and some.
    memento_size: usize,
    /// The seat and think time of the last applied move until the replay
    /// has the state it led to (a move played while paused is recorded
    /// later).
    unrecorded_think_time: Option<(usize, std::time::Duration)>,
    /// Whether the players have been sent the current state. A paused room
    /// keeps moves from them; resume and step send the state only if one
    /// was kept, so an administrator's pause storm costs the players
    /// nothing (each resume used to queue a full state for every player,
    /// faster than a bot parses them: its outbox filled, its own moves were
    /// no longer read, and at twice the bound it was dropped and lost).
    players_current: bool,
    /// How the game ended, for the room's last log line.
    outcome: Option<Outcome>,
    /// Where the room shows itself to watchers.
    showroom: Publisher,
    /// The result, once there is one.
    result: Option<Arc<GameResult>>,
    /// The budget of the room's WARN lines about connections it lost: the
    /// first few are logged, the rest counted into the next one.
    warn_log: LogBudget,
}

/// WARN lines a room logs about lost connections per [`WARN_WINDOW`].
const WARNS_PER_WINDOW: u32 = 5;

/// See [`WARNS_PER_WINDOW`].
const WARN_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// A finished game in words, for the log.
struct Outcome {
    ending: String,
    /// The winners' names, or `none`.
    winners: String,
    /// Each player's name, cause and score parts.
    scores: String,
}

impl Outcome {
    fn of(result: &GameResult, seats: &[SeatView<'_>], ending: &Ending) -> Outcome {
        // A nameless player is named by its seat, as the pages name it.
        let name = |seat: usize| match seats.get(seat) {
            Some(s) if !s.display_name.is_empty() => prefix(s.display_name).to_string(),
            Some(_) => spielleiter_protocol::seats::seat_label(seat).to_owned(),
            None => format!("seat {seat}"),
        };
        let winners: Vec<String> = result.winners.iter().map(|w| name(w.seat)).collect();
        let scores: Vec<String> = result
            .scores
            .iter()
            .enumerate()
            .map(|(seat, score)| {
                let parts: Vec<String> = score.parts.iter().map(ToString::to_string).collect();
                format!("{} {} {}", name(seat), score.cause.name(), parts.join("/"))
            })
            .collect();
        Outcome {
            ending: ending.describe(),
            winners: if winners.is_empty() {
                "none".to_owned()
            } else {
                winners.join(", ")
            },
            scores: scores.join("; "),
        }
    }
}

impl Room {
    fn new(setup: RoomSetup, commands: mpsc::Receiver<RoomCommand>) -> Room {
        let game_type = setup.game.game_type();
        let (soft, hard) = game_type.default_move_time();
        let seat_count = setup.seats.len();
        let showroom = setup.stats.rooms.open(RoomSnapshot {
            id: setup.id.clone(),
            names: setup.seats.iter().map(|s| s.display_name.clone()).collect(),
            seated: vec![false; setup.seats.len()],
            phase: RoomPhase::Waiting,
            game: setup.game.clone(),
            pending: None,
            result: None,
            opened: std::time::SystemTime::now(),
            version: 0,
        });
        Room {
            named_limits: setup.limits.unwrap_or(TimeLimits { soft, hard }),
            dialect: games::dialect(game_type),
            id: setup.id,
            game: setup.game,
            seats: setup
                .seats
                .into_iter()
                .map(|spec| Seat {
                    spec,
                    occupant: None,
                })
                .collect(),
            observers: Vec::new(),
            paused: setup.paused,
            phase: Phase::Waiting,
            pending: None,
            limits: setup.limits,
            replay: None,
            wire_log: setup
                .replay
                .as_ref()
                .filter(|_| setup.wire_log)
                .map(|store| store.wire_log(seat_count)),
            replay_store: setup.replay,
            commands,
            shutdown: setup.shutdown,
            events: setup.events,
            stats: setup.stats,
            last_move_read_at: None,
            memento_size: 4096,
            unrecorded_think_time: None,
            players_current: false,
            outcome: None,
            showroom,
            result: None,
            warn_log: LogBudget::new(WARNS_PER_WINDOW, WARN_WINDOW),
        }
    }

    async fn run(mut self) {
        debug!(
            seats = self.seats.len(),
            paused = self.paused,
            "room opened"
        );
        while self.phase != Phase::Over {
            match self.next_wakeup().await {
                Wakeup::Command(command) => self.handle(command),
                Wakeup::RequestWritten(at) => {
                    if let Some(pending) = &mut self.pending {
                        pending.written = None;
                        record_written(pending, at, &self.stats);
                    }
                    // Nothing a watcher sees has changed.
                    continue;
                }
                Wakeup::RequestLost => {
                    if let Some(pending) = &self.pending {
                        let seat = pending.seat;
                        // The connection's reader usually reports the leave
                        // too; the game must not depend on it (an untimed
                        // player has no clock that would end it).
                        info!(
                            seat,
                            "the move request was never written; the player has left"
                        );
                        self.seats[seat].occupant = None;
                        self.finish(Ending::Left {
                            seat,
                            cause: LeaveCause::LostConnection,
                        });
                    }
                }
                Wakeup::HardDeadline => {
                    if let Some(pending) = &self.pending {
                        let seat = pending.seat;
                        info!(seat, "no move within the hard limit");
                        self.finish(Ending::Timeout {
                            seat,
                            kind: Timeout::Hard,
                        });
                    }
                }
                Wakeup::Shutdown => {
                    info!("server shutting down; ending the game");
                    self.finish(Ending::Shutdown);
                }
                Wakeup::AllHandlesGone => {
                    // Only the lobby and seated connections hold handles;
                    // with none left nobody can ever reach this room.
                    self.finish(Ending::Cancelled);
                }
            }
            self.flush();
            self.show();
        }
        // From now on the room is unknown to its clients: sends fail, so a
        // late request is answered as for a room that does not exist.
        self.commands.close();
        let replay = match self.replay.take() {
            Some(recorder) => match recorder.finish().await {
                Ok(published) => published.to_string(),
                Err(failure) => {
                    // The result went out already; only the record is lost.
                    ServerStats::count(&self.stats.replays_lost);
                    error!(
                        path = %failure.path.display(),
                        cause = %failure.cause,
                        lost_so_far = ServerStats::get(&self.stats.replays_lost),
                        "the game's replay could not be written"
                    );
                    "lost".to_owned()
                }
            },
            None => "off".to_owned(),
        };
        if let Some(outcome) = self.outcome.take() {
            info!(
                ending = %outcome.ending,
                winners = %outcome.winners,
                scores = %outcome.scores,
                %replay,
                "room closed"
            );
        }
        let _ = self.events.send(RoomEvent::Ended(self.id.clone()));
        debug!("room closed");
    }

    /// Waits for the next thing to do. Commands win ties (`biased`), so a
    /// move that is already queued is judged by its read time before the
    /// hard deadline is looked at.
    async fn next_wakeup(&mut self) -> Wakeup {
        let deadline = self.pending.as_ref().and_then(|p| p.clock.hard_deadline());
        let written = self.pending.as_mut().and_then(|p| p.written.as_mut());
        let awaiting_write_report = written.is_some();
        tokio::select! {
            biased;
            command = self.commands.recv() => match command {
                Some(command) => Wakeup::Command(command),
                None => Wakeup::AllHandlesGone,
            },
            at = wait_for_report(written), if awaiting_write_report => match at {
                Ok(at) => Wakeup::RequestWritten(at),
                // The writer dropped the report: it ended without writing.
                Err(_) => Wakeup::RequestLost,
            },
            () = sleep_until_some(deadline), if deadline.is_some() => Wakeup::HardDeadline,
            () = self.shutdown.cancelled() => Wakeup::Shutdown,
        }
    }

    fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Seat {
                request,
                outbox,
                reply,
            } => {
                let answer = self.seat(request, outbox);
                let _ = reply.send(answer);
            }
            RoomCommand::Move { conn, mv, read_at } => self.on_move(conn, mv, read_at),
            RoomCommand::Leave { conn, cause } => self.on_leave(conn, cause),
            RoomCommand::Observe { outbox } => self.on_observe(outbox),
            RoomCommand::Pause { paused } => self.on_pause(paused),
            RoomCommand::Step => self.on_step(),
            RoomCommand::Drain => {
                if self.phase == Phase::Waiting {
                    self.finish(Ending::Shutdown);
                }
            }
            RoomCommand::Cancel => {
                if self.phase != Phase::Over {
                    info!("cancelled by an administrator");
                    self.finish(Ending::Cancelled);
                }
            }
            RoomCommand::Expire => {
                if self.phase == Phase::Waiting {
                    info!("reserved players did not all come in time; closing the room");
                    let _ = self.events.send(RoomEvent::Expired(self.id.clone()));
                    self.finish(Ending::Expired);
                }
            }
        }
    }

    fn seat(&mut self, request: SeatRequest, outbox: Outbox) -> Result<Seated, SeatError> {
        if self.phase != Phase::Waiting {
            return Err(SeatError::Started);
        }
        let index = match request {
            SeatRequest::Open => self
                .seats
                .iter()
                .position(|s| s.occupant.is_none() && !s.spec.reserved),
            SeatRequest::Reserved(index) => {
                Some(index).filter(|&i| self.seats.get(i).is_some_and(|s| s.occupant.is_none()))
            }
        }
        .ok_or(SeatError::Full)?;
        outbox.set_wire_tap(self.wire_log.as_ref().map(|log| log.tap(index)));
        // `joined` is the first packet of this room the player sees.
        let _ = outbox.send(wire::joined(&self.id));
        info!(seat = index, conn = %outbox.id(), name = %prefix(&self.seats[index].spec.display_name), "player seated");
        self.seats[index].occupant = Some(outbox);
        let occupied = self.seats.iter().filter(|s| s.occupant.is_some()).count();
        let still_open = self
            .seats
            .iter()
            .any(|s| s.occupant.is_none() && !s.spec.reserved);
        if occupied == self.seats.len() {
            self.start();
        }
        Ok(Seated {
            seat: index,
            occupied,
            still_open,
        })
    }

    fn start(&mut self) {
        self.phase = Phase::Running;
        info!(paused = self.paused, "game starts");
        if let Some(store) = &self.replay_store {
            // A nameless player's part of the file name is its seat.
            let names: Vec<&str> = self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, s)| match s.spec.display_name.as_str() {
                    "" => spielleiter_protocol::seats::seat_label(seat),
                    name => name,
                })
                .collect();
            let recorder = store.open(self.game.game_type().id(), self.id.as_str(), &names);
            if let Some(log) = &self.wire_log {
                log.attach(&recorder, names.iter().map(|&n| n.to_owned()).collect());
            }
            self.replay = Some(recorder);
        }
        for seat in 0..self.seats.len() {
            self.send_to_player(seat, wire::welcome(&self.id, seat));
        }
        self.broadcast_state(!self.paused);
        if !self.paused {
            self.request_move();
        }
    }

    /// Sends the current state to the observers and, unless `to_players` is
    /// false (paused), to the players; only states the players see are
    /// recorded, as in the official replays.
    fn broadcast_state(&mut self, to_players: bool) {
        // The think time goes into the replay with the state the players
        // see, which for a move played while paused is a later broadcast.
        let think_time = if to_players {
            self.unrecorded_think_time.take()
        } else {
            None
        };
        // The recorder hands the seats' think times on as measured here (a
        // replay kept in memory is not read again for them).
        if let (Some((seat, took)), Some(replay)) = (think_time, &self.replay) {
            replay.think_time(seat, took);
        }
        let think_time = think_time.map(|(_, took)| took);
        let packet = wire::memento(
            &self.id,
            &self.game,
            &self.seat_views(),
            self.memento_size,
            think_time,
        );
        self.memento_size = packet.replay.len() + 512;
        self.send_to_observers(&packet.stream);
        if to_players {
            for seat in 0..self.seats.len() {
                self.send_to_player(seat, packet.stream.clone());
            }
            self.record(&packet);
        }
        self.players_current = to_players;
    }

    /// Sends the players the current state if they do not have it yet
    /// (a move was played while the room was paused, or the game started
    /// paused); a state they already have is not sent again.
    fn bring_players_up_to_date(&mut self) {
        if !self.players_current {
            self.broadcast_state(true);
        }
    }

    fn request_move(&mut self) {
        if self.phase != Phase::Running {
            return;
        }
        let Some(seat) = self.game.player_to_move() else {
            return;
        };
        let Some(outbox) = self.seats[seat].occupant.clone() else {
            return;
        };
        match outbox.queue_timed(wire::move_request(&self.id, self.dialect)) {
            Ok(written) => {
                let limits = self.limits.filter(|_| self.seats[seat].spec.can_timeout);
                debug!(seat, turn = self.game.turn(), "move requested");
                let now = Instant::now();
                self.pending = Some(Pending {
                    seat,
                    clock: MoveClock::new(limits, now),
                    shown: PendingMove {
                        seat,
                        asked_at: now,
                        limits: limits.map(|l| (l.soft, l.hard)),
                    },
                    written: Some(written),
                    after_move_read_at: self.last_move_read_at.take(),
                });
            }
            Err(error) => {
                info!(seat, %error, "cannot ask the player for a move; the player has left");
                self.finish(Ending::Left {
                    seat,
                    cause: LeaveCause::LostConnection,
                });
            }
        }
    }

    fn on_move(&mut self, conn: ConnId, mv: GameMove, read_at: Instant) {
        let Some(seat) = self.seat_of(conn) else {
            return;
        };
        match self.phase {
            Phase::Over => return,
            Phase::Waiting => {
                // Without an opponent there is no game to lose; say so and
                // carry on waiting.
                self.send_to_player(seat, wire::game_not_started(&self.id, &mv));
                return;
            }
            Phase::Running => {}
        }
        let requested = self.pending.as_ref().is_some_and(|p| p.seat == seat);
        if !requested {
            let on_turn = self.game.player_to_move();
            info!(seat, ?on_turn, "move from a player who was not asked");
            let violation = wire::unrequested_move(
                &self.id,
                seat,
                on_turn,
                &mv,
                &self.seat_views(),
                self.dialect,
            );
            self.send_to_player(seat, violation.room_error);
            self.finish(Ending::Violation {
                seat,
                reason: violation.reason,
                error_packet: violation.error_packet,
            });
            return;
        }
        let Some(mut pending) = self.pending.take() else {
            return;
        };
        if let Some(Ok(at)) = pending.written.as_mut().map(|rx| rx.try_recv()) {
            record_written(&mut pending, at, &self.stats);
        }
        let took = match pending.clock.judge(read_at) {
            Ok(took) => took,
            Err(kind) => {
                info!(seat, ?kind, "move too late");
                self.finish(Ending::Timeout { seat, kind });
                return;
            }
        };
        let outcome = match mv.resolve(&self.game) {
            Some(rules_move) => self.game.play(&rules_move),
            None => Err(AnyMistake::WrongGame),
        };
        match outcome {
            Ok(()) => {
                debug!(
                    seat,
                    took_ms = took.as_millis(),
                    turn = self.game.turn(),
                    "move applied"
                );
                ServerStats::count(&self.stats.moves);
                self.last_move_read_at = Some(read_at);
                self.unrecorded_think_time = Some((seat, took));
                // A paused room holds the new state back from the players
                // until the next step, unless the game is over: the last
                // state comes before the result, and into the replay.
                let over = self.game.is_over();
                self.broadcast_state(!self.paused || over);
                if over {
                    self.finish(Ending::Regular);
                } else if !self.paused {
                    self.request_move();
                }
            }
            Err(mistake) => {
                info!(seat, mistake = ?mistake, "illegal move");
                let violation = wire::rule_violation(
                    &self.id,
                    seat,
                    mistake,
                    &mv,
                    &self.seat_views(),
                    self.dialect,
                );
                self.send_to_player(seat, violation.room_error.stream.clone());
                self.send_to_observers(&violation.room_error.stream);
                self.record(&violation.room_error);
                self.finish(Ending::Violation {
                    seat,
                    reason: violation.reason,
                    error_packet: violation.error_packet,
                });
            }
        }
    }

    fn on_leave(&mut self, conn: ConnId, cause: LeaveCause) {
        self.observers.retain(|o| o.id() != conn);
        if let Some(seat) = self.seat_of(conn) {
            self.seats[seat].occupant = None;
            if self.phase != Phase::Over {
                info!(seat, cause = cause.name(), "player left");
                self.finish(Ending::Left { seat, cause });
            }
        }
    }

    fn on_observe(&mut self, outbox: Outbox) {
        // One subscription per connection: a repeated `observe` is a
        // no-op, so pipelined copies cannot multiply what the room sends.
        if self.observers.iter().any(|o| o.id() == outbox.id()) {
            debug!(conn = %outbox.id(), "already observing; observe ignored");
            return;
        }
        let _ = outbox.send(wire::observed(&self.id));
        if self.phase == Phase::Running {
            let packet = wire::memento(
                &self.id,
                &self.game,
                &self.seat_views(),
                self.memento_size,
                None,
            );
            let _ = outbox.send(packet.stream);
        }
        info!(conn = %outbox.id(), "observer added");
        self.observers.push(outbox);
    }

    fn on_pause(&mut self, paused: bool) {
        if self.phase == Phase::Over || paused == self.paused {
            return;
        }
        self.paused = paused;
        info!(paused, "pause changed");
        if !paused && self.phase == Phase::Running {
            self.bring_players_up_to_date();
            if self.pending.is_none() {
                self.request_move();
            }
        }
        if self.phase != Phase::Over {
            self.send_to_observers(&wire::paused(&self.id, paused));
        }
    }

    fn on_step(&mut self) {
        if self.phase == Phase::Running && self.paused && self.pending.is_none() {
            debug!("step");
            self.bring_players_up_to_date();
            self.request_move();
        }
    }

    /// Ends the game: the result to players (seat order) and observers,
    /// `left` to everyone, then, where the dialect says so, the players'
    /// connections are closed (decisions.md §11).
    fn finish(&mut self, ending: Ending) {
        if self.phase == Phase::Over {
            return;
        }
        // A state a paused room still holds back (an administrator ends the
        // game between a step and the next) is the game's last: the players
        // and the replay get it before the result.
        if self.phase == Phase::Running {
            self.bring_players_up_to_date();
        }
        self.phase = Phase::Over;
        self.pending = None;
        ServerStats::count(&self.stats.games_finished);
        self.stats
            .finished_by_cause
            .count(self.game.game_type(), ending.cause_index());
        match &ending {
            Ending::Timeout {
                kind: Timeout::Soft,
                ..
            } => ServerStats::count(&self.stats.soft_timeouts),
            Ending::Timeout {
                kind: Timeout::Hard,
                ..
            } => ServerStats::count(&self.stats.hard_timeouts),
            _ => {}
        }
        let views = self.seat_views();
        let reasons = wire::DialectReasons {
            texts: self.dialect.texts,
            seats: &views,
            limits: self.named_limits,
        };
        let result = wire::game_result(&self.game, &views, &ending, &reasons);
        // The lobby records the result (test mode) before anybody sees it, so
        // a `scoreForPlayer` sent on seeing the result finds it counted.
        if self.dialect.test_mode {
            let _ = self.events.send(RoomEvent::Result {
                names: self
                    .seats
                    .iter()
                    .map(|s| s.spec.display_name.clone())
                    .collect(),
                result: result.clone(),
            });
        }
        self.outcome = Some(Outcome::of(&result, &views, &ending));
        self.result = Some(Arc::new(result.clone()));
        let result = wire::result(&self.id, result);
        info!(ending = %ending.describe(), "game over");
        for seat in 0..self.seats.len() {
            self.send_to_player(seat, result.stream.clone());
        }
        self.send_to_observers(&result.stream);
        self.record(&result);
        let left = wire::left(&self.id);
        for seat in 0..self.seats.len() {
            self.send_to_player(seat, left.clone());
        }
        self.send_to_observers(&left);
        if let Ending::Violation {
            seat,
            error_packet: Some(error_packet),
            ..
        } = &ending
        {
            self.send_to_player(*seat, error_packet.clone());
        }
        let close = self.dialect.closes_after_game;
        for seat in &mut self.seats {
            if let Some(outbox) = seat.occupant.take() {
                if close {
                    let _ = outbox.queue(wire::close_as(self.dialect.close));
                    outbox.close();
                }
                // The room lets the connection go: what it queued goes now.
                outbox.flush();
            }
        }
    }

    /// Publishes the room as it is now to its watchers (never waits).
    fn show(&self) {
        let phase = match self.phase {
            Phase::Waiting => RoomPhase::Waiting,
            Phase::Running if self.paused => RoomPhase::Paused,
            Phase::Running => RoomPhase::Running,
            Phase::Over => RoomPhase::Over,
        };
        self.showroom.publish(|snapshot| {
            snapshot.game.clone_from(&self.game);
            snapshot.phase = phase;
            snapshot.pending = self.pending.as_ref().map(|p| p.shown);
            // At the end the players' connections are let go; the seats
            // stay shown as taken.
            if phase != RoomPhase::Over {
                for (shown, seat) in snapshot.seated.iter_mut().zip(&self.seats) {
                    *shown = seat.occupant.is_some();
                }
            }
            if snapshot.result.is_none() {
                snapshot.result.clone_from(&self.result);
            }
        });
    }

    fn seat_of(&self, conn: ConnId) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.occupant.as_ref().is_some_and(|o| o.id() == conn))
    }

    fn seat_views(&self) -> Vec<SeatView<'_>> {
        self.seats
            .iter()
            .map(|s| SeatView {
                display_name: &s.spec.display_name,
            })
            .collect()
    }

    /// Queues a packet for a seated player; it is written when the room
    /// has handled what woke it ([`Room::flush`]). A player who cannot take
    /// it (gone, or not reading) has left; the game ends unless it is over.
    fn send_to_player(&mut self, seat: usize, packet: Bytes) {
        let Some(outbox) = self.seats.get(seat).and_then(|s| s.occupant.as_ref()) else {
            return;
        };
        if let Err(error) = outbox.queue(packet) {
            if let Some(suppressed) = self.warn_log.allow() {
                warn!(seat, %error, suppressed, "player unreachable");
            }
            self.seats[seat].occupant = None;
            if self.phase != Phase::Over {
                self.finish(Ending::Left {
                    seat,
                    cause: LeaveCause::LostConnection,
                });
            }
        }
    }

    /// Queues a packet for every observer, dropping observers that are gone
    /// or do not keep up.
    fn send_to_observers(&mut self, packet: &Bytes) {
        let warn_log = &mut self.warn_log;
        self.observers.retain(|o| match o.queue(packet.clone()) {
            Ok(()) => true,
            Err(error) => {
                if let Some(suppressed) = warn_log.allow() {
                    warn!(conn = %o.id(), %error, suppressed, "observer dropped");
                }
                false
            }
        });
    }

    /// Writes what this wake-up queued: one system call per connection
    /// (a state and the move request after it go out together) from the
    /// room's own task, the player asked for a move first. A move request
    /// written so starts its clock now, without waking the room again for
    /// the report.
    fn flush(&mut self) {
        // The player asked for a move first: its clock and its thinking
        // start before the others' copies of the state are written.
        let asked = self.pending.as_ref().map(|p| p.seat);
        let occupant = |seat: usize| self.seats.get(seat).and_then(|s| s.occupant.as_ref());
        let others = (0..self.seats.len())
            .filter(|&seat| Some(seat) != asked)
            .filter_map(occupant);
        for outbox in asked
            .and_then(occupant)
            .into_iter()
            .chain(others)
            .chain(&self.observers)
        {
            outbox.flush();
        }
        if let Some(pending) = &mut self.pending
            && let Some(Ok(at)) = pending.written.as_mut().map(|rx| rx.try_recv())
        {
            pending.written = None;
            record_written(pending, at, &self.stats);
        }
    }

    fn record(&self, packet: &Packet) {
        if let Some(replay) = &self.replay {
            replay.record(packet.replay.clone());
        }
    }
}

/// The request reached the socket at `at`: start its clock and, if a move
/// led to it, count the time the server took.
fn record_written(pending: &mut Pending, at: Instant, stats: &ServerStats) {
    pending.clock.written(at);
    if let Some(read_at) = pending.after_move_read_at.take() {
        stats
            .move_latency
            .record(at.saturating_duration_since(read_at));
    }
}

async fn wait_for_report(
    report: Option<&mut oneshot::Receiver<Instant>>,
) -> Result<Instant, oneshot::error::RecvError> {
    match report {
        Some(report) => report.await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    //! The clock, tested on a room whose players are in-memory streams, so
    //! tokio's paused clock can jump through the limits.
    use std::time::Duration;

    use bytes::BytesMut;
    use spielleiter_protocol::{
        FrameDecoder, GameType as WireGameType, ServerMessage, StreamEvent,
        games::blokus2021::WireMove, result::ScoreCause, room::RoomData,
    };
    use spielleiter_rules::blokus::{Blokus, MoveList, PieceKind};
    use tokio::io::{AsyncReadExt, DuplexStream};
    use tokio_util::codec::Decoder;

    use super::*;
    use crate::outbound;

    const LIMITS: TimeLimits = TimeLimits {
        soft: Duration::from_millis(2000),
        hard: Duration::from_millis(10_000),
    };

    /// A player's end of an in-memory connection.
    struct Player {
        conn: ConnId,
        stream: DuplexStream,
        decoder: FrameDecoder,
        buffer: BytesMut,
        state: Option<Blokus>,
    }

    impl Player {
        async fn next(&mut self) -> ServerMessage {
            loop {
                if let Some(StreamEvent::Frame(frame)) =
                    self.decoder.decode(&mut self.buffer).expect("well-formed")
                {
                    let message = ServerMessage::decode(frame.as_bytes(), WireGameType::Blokus2021)
                        .expect("decodable");
                    if let ServerMessage::Room {
                        data: RoomData::Memento(spielleiter_protocol::GameState::Blokus2021(state)),
                        ..
                    } = &message
                    {
                        self.state = Some(Blokus::from_setup(&state.setup).expect("valid state"));
                    }
                    return message;
                }
                let n = self
                    .stream
                    .read_buf(&mut self.buffer)
                    .await
                    .expect("readable");
                assert!(n > 0, "stream ended");
            }
        }

        async fn until(&mut self, wanted: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
            loop {
                let message = self.next().await;
                if wanted(&message) {
                    return message;
                }
            }
        }

        fn legal_move(&self) -> GameMove {
            let mut moves = MoveList::new();
            self.state
                .as_ref()
                .expect("a state")
                .legal_moves(&mut moves);
            GameMove::Blokus2021(WireMove::Set(moves.iter().next().expect("a legal move")))
        }
    }

    /// A socket that takes everything until a move request comes.
    struct FailsOnMoveRequest;

    impl tokio::io::AsyncWrite for FailsOnMoveRequest {
        fn poll_write(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            let request = buf.windows(11).any(|w| w == b"MoveRequest");
            std::task::Poll::Ready(if request {
                Err(std::io::ErrorKind::BrokenPipe.into())
            } else {
                Ok(buf.len())
            })
        }

        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }

        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    fn is_request(m: &ServerMessage) -> bool {
        matches!(
            m,
            ServerMessage::Room {
                data: RoomData::MoveRequest(_),
                ..
            }
        )
    }

    fn causes(m: &ServerMessage) -> Option<Vec<ScoreCause>> {
        match m {
            ServerMessage::Room {
                data: RoomData::Result(result),
                ..
            } => Some(result.scores.iter().map(|s| s.cause).collect()),
            _ => None,
        }
    }

    /// A room of two open seats that nobody has joined yet.
    fn empty_room(limits: Option<TimeLimits>) -> RoomHandle {
        empty_room_with_replay(limits, None)
    }

    /// A room of two open seats that records its replay in `replay`.
    fn empty_room_with_replay(
        limits: Option<TimeLimits>,
        replay: Option<ReplayStore>,
    ) -> RoomHandle {
        // Nobody listens for the room's events; the room ignores that.
        let (events, _) = mpsc::unbounded_channel();
        let tracker = tokio_util::task::TaskTracker::new();
        spawn(
            RoomSetup {
                id: RoomId::from("room"),
                game: AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL)),
                seats: vec![SeatSpec::open(), SeatSpec::open()],
                paused: false,
                limits,
                replay,
                wire_log: false,
                shutdown: CancellationToken::new(),
                events,
                stats: Arc::default(),
            },
            &tracker,
        )
    }

    /// Seats a player whose connection is an in-memory stream.
    async fn seat_player(room: &RoomHandle, id: u64) -> Player {
        let (outbox, writer) = outbound::channel(ConnId(id));
        let (client, server) = tokio::io::duplex(1 << 20);
        tokio::spawn(writer.run(server));
        room.seat(SeatRequest::Open, outbox).await.expect("seated");
        Player {
            conn: ConnId(id),
            stream: client,
            decoder: FrameDecoder::new(),
            buffer: BytesMut::new(),
            state: None,
        }
    }

    /// A running room with two seated players; player 0 has just been asked
    /// for its first move.
    async fn running_room(limits: Option<TimeLimits>) -> (RoomHandle, [Player; 2]) {
        let room = empty_room(limits);
        let mut players = [seat_player(&room, 1).await, seat_player(&room, 2).await];
        players[0].until(is_request).await;
        (room, players)
    }

    async fn send_move(room: &RoomHandle, player: &Player, read_at: Instant) {
        let mv = player.legal_move();
        room.send(RoomCommand::Move {
            conn: player.conn,
            mv,
            read_at,
        })
        .await;
    }

    #[tokio::test(start_paused = true)]
    async fn silence_loses_at_the_hard_limit() {
        let (_room, [mut one, _two]) = running_room(Some(LIMITS)).await;
        let asked = Instant::now();
        let result = one.until(|m| causes(m).is_some()).await;
        assert_eq!(
            causes(&result),
            Some(vec![ScoreCause::HardTimeout, ScoreCause::Regular])
        );
        let waited = asked.elapsed();
        assert!(
            waited >= LIMITS.hard && waited < LIMITS.hard + Duration::from_millis(50),
            "{waited:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_move_at_1950_ms_counts_and_one_at_2050_ms_loses() {
        let (room, [mut one, mut two]) = running_room(Some(LIMITS)).await;
        tokio::time::sleep(Duration::from_millis(1950)).await;
        send_move(&room, &one, Instant::now()).await;
        two.until(is_request).await;
        assert_eq!(one.state.as_ref().map(Blokus::turn), Some(0));

        tokio::time::sleep(Duration::from_millis(2050)).await;
        send_move(&room, &two, Instant::now()).await;
        let result = one.until(|m| causes(m).is_some()).await;
        assert_eq!(
            causes(&result),
            Some(vec![ScoreCause::Regular, ScoreCause::SoftTimeout])
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_room_does_not_make_a_punctual_move_late() {
        let (room, [one, mut two]) = running_room(Some(LIMITS)).await;
        let asked = Instant::now();
        // The move was read at 1.9 s, but reaches the room only at 2.5 s.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        send_move(&room, &one, asked + Duration::from_millis(1900)).await;
        let next = two.until(|m| is_request(m) || causes(m).is_some()).await;
        assert!(is_request(&next), "the move counted: {next:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_that_is_never_written_ends_the_game_at_once() {
        // Untimed, so no clock can end the game; and nobody reports the
        // leave, as a reader stuck elsewhere would not.
        let room = empty_room(None);
        // Player one's connection fails exactly when the move request is
        // written: its writer ends and drops the request's write report.
        let (outbox, writer) = outbound::channel(ConnId(1));
        tokio::spawn(writer.run(FailsOnMoveRequest));
        room.seat(SeatRequest::Open, outbox).await.expect("seated");
        let mut two = seat_player(&room, 2).await;
        let result =
            tokio::time::timeout(Duration::from_secs(60), two.until(|m| causes(m).is_some()))
                .await
                .expect("the game ends instead of waiting for a report that never comes");
        assert_eq!(
            causes(&result),
            Some(vec![ScoreCause::Left, ScoreCause::Regular])
        );
    }

    #[tokio::test(start_paused = true)]
    async fn untimed_players_may_think_forever() {
        let (room, [mut one, mut two]) = running_room(None).await;
        tokio::time::sleep(Duration::from_secs(3600)).await;
        send_move(&room, &one, Instant::now()).await;
        let next = two.until(|m| is_request(m) || causes(m).is_some()).await;
        assert!(is_request(&next), "{next:?}");
        assert!(matches!(
            one.next().await,
            ServerMessage::Room {
                data: RoomData::Memento(_),
                ..
            }
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn each_moves_think_time_is_in_the_replay() {
        let dir =
            std::env::temp_dir().join(format!("spielleiter-think-times-{}", uuid::Uuid::new_v4()));
        let store = ReplayStore::start(crate::replay::ReplaySettings {
            dir: dir.clone(),
            gzip: false,
            wire_log_bytes: crate::replay::wire_log::DEFAULT_WIRE_LOG_BYTES,
            kept: None,
        })
        .expect("a replay store");
        let room = empty_room_with_replay(Some(LIMITS), Some(store));
        let mut one = seat_player(&room, 1).await;
        let mut two = seat_player(&room, 2).await;
        one.until(is_request).await;
        // Player one thinks 1234 ms, player two 567 ms; then player one
        // sends nothing and loses at the hard limit, which ends the game.
        tokio::time::sleep(Duration::from_millis(1234)).await;
        send_move(&room, &one, Instant::now()).await;
        two.until(is_request).await;
        tokio::time::sleep(Duration::from_millis(567)).await;
        send_move(&room, &two, Instant::now()).await;
        let result = one.until(|m| causes(m).is_some()).await;
        assert_eq!(
            causes(&result),
            Some(vec![ScoreCause::HardTimeout, ScoreCause::Regular])
        );
        // The replay thread works in real time, outside the paused clock.
        let mut published = None;
        for _ in 0..500 {
            published = crate::replay::archive::list(&dir)
                .ok()
                .and_then(|files| files.into_iter().next());
            if published.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let file = published.expect("the replay is published");
        let replay = crate::replay::archive::load(&dir.join(&file.name)).expect("a replay");
        assert_eq!(replay.positions.len(), 3);
        assert_eq!(
            replay.think_times,
            [
                None,
                Some(Duration::from_millis(1234)),
                Some(Duration::from_millis(567))
            ]
        );
        let text = std::fs::read_to_string(dir.join(&file.name)).expect("readable");
        assert!(
            text.contains("<data class=\"memento\" thinkMicros=\"1234000\">"),
            "{text}"
        );
        std::fs::remove_dir_all(dir).ok();
    }
}
