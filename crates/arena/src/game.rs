//! One game of a match: prepare a room with a reserved slot per seat,
//! observe it, let the players join one after the other (so a player that
//! never joins is known by name), follow the game as observer until the room
//! is left, then make sure every player is gone and write down what
//! happened. A sandboxed player's container starts with the game (it takes
//! a few hundred milliseconds), its join held back until its seat's turn;
//! any other player starts on its seat's turn.
//!
//! Whatever a player does, the game ends: a program that ends before it
//! joined, does not join in time, or holds the game past the match's game
//! limit is killed, the room is cancelled, and the game is recorded as
//! irregular with that player as the offender. Whatever the server does,
//! too: every wait on it is bounded in time (a stuck server fails the
//! game), and an interrupted match ends each wait at once.
//!
//! What the game left is gathered in memory ([`FinishedGame`]) when the
//! server keeps its replays for this process
//! ([`MatchSettings::kept_replays`], a season's worker): the replay and wire
//! log as the server kept them, the think times as the room measured them,
//! and each program's log. Otherwise the record names the replay file the
//! server wrote, whose think times are read from it.

use std::{
    future::Future,
    path::PathBuf,
    pin::Pin,
    task::Poll,
    time::{Duration, SystemTime},
};

use spielleiter_archive::{FinishedGame, PLAYER_LOG_BYTES, capped_log};
use spielleiter_client::{ClientError, Connection};
use spielleiter_protocol::{
    Decimal, Prepare, ScoreCause, ServerMessage, SlotDescriptor, result::GameResult, room::RoomData,
};
use spielleiter_rules::Game;
use spielleiter_sandbox::{JoinTurn, JoinTurns};
use spielleiter_server::replay::{
    archive::{self, find_published},
    kept::KeptGame,
};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::{
    error::ArenaError,
    players::{Invitation, Launched, launch},
    record::{Cause, GameRecord, ThinkTimes},
    settings::{MatchSettings, Program},
};

/// After a player's program ended during a game, how long the server may
/// take to notice the disconnect and end the game.
const DISCONNECT_PATIENCE: Duration = Duration::from_secs(5);
/// After a player's program ended before the runner saw it join, how long
/// the server's news of its join (and of the game's end) may take: a fast
/// player can join, be disqualified at its first move and end before the
/// observer hears of the join.
const JOIN_NEWS_PATIENCE: Duration = Duration::from_secs(1);
/// After a cancel, how long the server may take to end the room.
const CANCEL_PATIENCE: Duration = Duration::from_secs(10);
/// How long the server may take to let the administrator in, prepare the
/// room and observe it, or to take a cancel: a server that answers none
/// of it in that time is stuck, and the game fails instead of waiting for
/// ever (a worker gives it back, and its lease goes on being renewed).
const ADMIN_PATIENCE: Duration = Duration::from_secs(15);
/// How long a goodbye to the server (a cancel when the match is
/// interrupted, closing the connection) may take: nothing waits on its
/// answer, so a stuck server is not waited for.
const GOODBYE_PATIENCE: Duration = Duration::from_secs(2);

/// How a game of the match ended for the match.
#[derive(Debug)]
pub(crate) enum GameOutcome {
    /// The game is over and recorded, with what it left.
    Finished(Box<FinishedGame>),
    /// The match was interrupted; the game is not recorded.
    Interrupted,
}

/// A slot of the room: which player sits there and how it is doing.
struct Seat {
    player: usize,
    launched: Option<Launched>,
    /// The program's log file and where this game's part of it starts (a
    /// log is appended to by every run), for a program that has one.
    log: Option<(PathBuf, u64)>,
    /// How the player ended, once it has.
    exit: Option<String>,
    /// Why a player started before its turn could not be started: the
    /// failure counts on its turn, as if it had been started then.
    not_started: Option<String>,
}

impl Seat {
    fn running(&self) -> bool {
        self.launched.is_some() && self.exit.is_none()
    }
}

/// A running player's end, as its seat waits for it.
type ExitWait<'a> = Pin<Box<dyn Future<Output = String> + Send + 'a>>;

/// Waits for the first of the running players to end: its seat and how it
/// ended. Never resolves while no player runs.
async fn first_exit(seats: &mut [Seat]) -> (usize, String) {
    let mut waits: Vec<(usize, ExitWait<'_>)> = seats
        .iter_mut()
        .enumerate()
        .filter(|(_, seat)| seat.exit.is_none())
        .filter_map(|(index, seat)| {
            let launched = seat.launched.as_mut()?;
            Some((index, Box::pin(launched.wait()) as Pin<Box<_>>))
        })
        .collect();
    std::future::poll_fn(|cx| {
        for (index, wait) in &mut waits {
            if let Poll::Ready(exit) = wait.as_mut().poll(cx) {
                return Poll::Ready((*index, exit));
            }
        }
        Poll::Pending
    })
    .await
}

/// What woke the game loop.
enum Event {
    Interrupted,
    Message(Result<Option<ServerMessage>, ClientError>),
    Exit(usize, String),
    Deadline,
}

/// An end the match runner detected itself: the offending slot, why.
struct Detected {
    slot: usize,
    cause: Cause,
    reason: String,
}

/// Plays game number `game` (from 1) of the match. Everything about the
/// game (its players, seed, limits) comes from `settings`. Every wait is
/// bounded in time, and `shutdown` ends each of them at once.
///
/// # Errors
///
/// Only trouble with the server itself (connection lost, administration
/// refused, no answer within [`ADMIN_PATIENCE`]); a player's trouble is
/// recorded in the game.
pub(crate) async fn play_game(
    settings: &MatchSettings,
    game: u32,
    shutdown: &CancellationToken,
) -> Result<GameOutcome, ArenaError> {
    let prepared = tokio::select! {
        biased;
        () = shutdown.cancelled() => return Ok(GameOutcome::Interrupted),
        prepared = tokio::time::timeout(ADMIN_PATIENCE, MatchGame::prepare(settings, game)) => prepared,
    };
    let mut match_game = prepared.map_err(|_| ClientError::TimedOut {
        awaiting: "the room to be prepared",
        limit: ADMIN_PATIENCE,
    })??;
    match_game.start_players();
    if let Some(outcome) = match_game.follow(shutdown).await? {
        return Ok(outcome);
    }
    match_game.let_players_end().await;
    Ok(GameOutcome::Finished(Box::new(match_game.record().await)))
}

/// The game's administrator connection: through the in-process door of a
/// server of this process (no passphrase; nothing a player sends delays
/// it), else over TCP with the passphrase.
async fn administrator(settings: &MatchSettings) -> Result<Connection, ArenaError> {
    if let Some(server) = &settings.in_process {
        let pipe = server
            .administrator()
            .await
            .map_err(ArenaError::InProcess)?;
        return Ok(Connection::over(pipe).await?);
    }
    let mut admin = Connection::connect((settings.host.as_str(), settings.port)).await?;
    admin.authenticate(&settings.passphrase).await?;
    Ok(admin)
}

/// What the game loop does after an event.
enum Flow {
    /// Go on following the game.
    Continue,
    /// The room is gone (left, or cancelled and not ended in time): record
    /// the game.
    Over,
    /// The match was interrupted: nothing is recorded.
    Interrupted,
}

/// One game of the match while it is played, as the administrator sees
/// it: the prepared room, its seats and players, and what has been seen so
/// far. The phases are its methods: [`prepare`](Self::prepare) the room,
/// [`start_players`](Self::start_players) and give each seat its turn to
/// join while [`follow`](Self::follow)ing the game, [`let_players_end`](Self::let_players_end),
/// then [`record`](Self::record) it.
struct MatchGame<'a> {
    settings: &'a MatchSettings,
    /// The game's number in the match, from 1.
    game: u32,
    started: Instant,
    wall_start: SystemTime,
    /// Which player sits in each seat (seat 0 moves first); the seats
    /// rotate from game to game.
    slot_players: Vec<usize>,
    admin: Connection,
    room: String,
    /// A reservation per seat.
    codes: Vec<String>,
    seats: Vec<Seat>,
    /// The seats' turns to join: a seat's comes when the seats before it
    /// have joined.
    turns: JoinTurns,
    /// Each seat's turn, for its player.
    seat_turns: Vec<JoinTurn>,
    /// How many players the server says have joined.
    joined: usize,
    /// Whether the game has started (a first state was seen).
    running: bool,
    /// The seat to move, as the last state says.
    on_turn: Option<usize>,
    result: Option<GameResult>,
    /// An end the runner detected itself.
    detected: Option<Detected>,
    /// Whether the room has been cancelled (after `detected`).
    cancelled: bool,
    /// The first player whose program ended before the game did: if it had
    /// joined, the server should end the game (LEFT, or the game was
    /// already over); if it does not in time, the runner ends it.
    ended_early: Option<usize>,
    /// When the runner stops waiting for what it waits for now.
    deadline: Instant,
}

impl<'a> MatchGame<'a> {
    /// Prepares the room with a reserved slot per seat and observes it.
    async fn prepare(settings: &'a MatchSettings, game: u32) -> Result<MatchGame<'a>, ArenaError> {
        let started = Instant::now();
        let wall_start = SystemTime::now();
        let slot_players = settings.seat_players(game);

        let mut admin = administrator(settings).await?;
        let slots = slot_players
            .iter()
            .map(|&p| SlotDescriptor {
                display_name: Some(settings.players[p].name.clone()),
                can_timeout: settings.players[p].timed,
                reserved: true,
            })
            .collect();
        let prepared = admin
            .prepare(Prepare {
                game_type: Some(settings.game.id().to_owned()),
                pause: false,
                slots,
                seed: Some(settings.room_seed(game)),
                wire_log: settings.wire_log,
            })
            .await?;
        let room = prepared.room_id;
        let codes = prepared.reservations;
        if codes.len() != slot_players.len() {
            return Err(ArenaError::Admin(ClientError::Protocol(
                "`prepared` without a reservation per seat",
            )));
        }
        admin.observe(&room, settings.game).await?;

        let seats = slot_players
            .iter()
            .map(|&player| Seat {
                player,
                launched: None,
                log: None,
                exit: None,
                not_started: None,
            })
            .collect();
        let (turns, seat_turns) = JoinTurns::new(slot_players.len());
        Ok(MatchGame {
            settings,
            game,
            started,
            wall_start,
            slot_players,
            admin,
            room,
            codes,
            seats,
            turns,
            seat_turns,
            joined: 0,
            running: false,
            on_turn: None,
            result: None,
            detected: None,
            cancelled: false,
            ended_early: None,
            deadline: Instant::now() + settings.connect_timeout,
        })
    }

    /// Starts the first seat's player, and every later seat's whose start
    /// is worth doing early ([`starts_early`]): its join waits for its
    /// turn.
    fn start_players(&mut self) {
        self.start_player(0);
        for slot in 1..self.seats.len() {
            if self.detected.is_some() {
                return;
            }
            let program = &self.settings.players[self.seats[slot].player].program;
            if !starts_early(program) {
                continue;
            }
            if let Err(reason) = start_seat(
                self.settings,
                self.game,
                &mut self.seats[slot],
                &self.codes[slot],
                self.seat_turns[slot].clone(),
            ) {
                self.seats[slot].not_started = Some(reason);
            }
        }
    }

    /// Starts the player of seat `slot` with its reservation; a program
    /// that cannot be started is detected as crashed.
    fn start_player(&mut self, slot: usize) {
        if let Err(reason) = start_seat(
            self.settings,
            self.game,
            &mut self.seats[slot],
            &self.codes[slot],
            self.seat_turns[slot].clone(),
        ) {
            self.detected = Some(Detected {
                slot,
                cause: Cause::Crashed,
                reason,
            });
        }
    }

    /// Follows the game as observer until the room is left (`None`), or
    /// the match is interrupted.
    async fn follow(
        &mut self,
        shutdown: &CancellationToken,
    ) -> Result<Option<GameOutcome>, ArenaError> {
        loop {
            self.cancel_if_detected().await?;
            let event = tokio::select! {
                biased;
                () = shutdown.cancelled() => Event::Interrupted,
                message = self.admin.recv() => Event::Message(message),
                (seat, exit) = first_exit(&mut self.seats) => Event::Exit(seat, exit),
                () = tokio::time::sleep_until(self.deadline) => Event::Deadline,
            };
            match self.handle(event).await? {
                Flow::Continue => {}
                Flow::Over => return Ok(None),
                Flow::Interrupted => return Ok(Some(GameOutcome::Interrupted)),
            }
        }
    }

    /// Once the runner has detected an end: kills the players and cancels
    /// the room (once), and waits for the server to end it.
    async fn cancel_if_detected(&mut self) -> Result<(), ArenaError> {
        if let Some(found) = &self.detected
            && !self.cancelled
        {
            self.cancelled = true;
            kill_all(&mut self.seats, &found.reason).await;
            tokio::time::timeout(ADMIN_PATIENCE, self.admin.cancel(&self.room))
                .await
                .map_err(|_| ClientError::TimedOut {
                    awaiting: "the cancel to be taken",
                    limit: ADMIN_PATIENCE,
                })??;
            self.deadline = Instant::now() + CANCEL_PATIENCE;
        }
        Ok(())
    }

    async fn handle(&mut self, event: Event) -> Result<Flow, ArenaError> {
        match event {
            Event::Interrupted => {
                kill_all(&mut self.seats, "the match was interrupted").await;
                let _ = tokio::time::timeout(GOODBYE_PATIENCE, self.admin.cancel(&self.room)).await;
                return Ok(Flow::Interrupted);
            }
            Event::Message(Err(error)) => {
                kill_all(&mut self.seats, "the connection to the server failed").await;
                return Err(error.into());
            }
            Event::Message(Ok(None)) => {
                kill_all(&mut self.seats, "the server closed the connection").await;
                return Err(ClientError::Closed {
                    awaiting: "the game's end",
                }
                .into());
            }
            Event::Message(Ok(Some(message))) => return Ok(self.on_message(message)),
            Event::Exit(slot, exit) => self.on_exit(slot, exit),
            Event::Deadline => {
                if self.cancelled {
                    // The server does not end the room; record what we know.
                    return Ok(Flow::Over);
                }
                self.detected = Some(self.overdue());
            }
        }
        Ok(Flow::Continue)
    }

    fn on_message(&mut self, message: ServerMessage) -> Flow {
        match message {
            ServerMessage::JoinedGameRoom {
                room_id,
                player_count,
            } if room_id == self.room => self.on_joined(player_count as usize),
            ServerMessage::Room { room_id, data } if room_id == self.room => match data {
                RoomData::Memento(state) => {
                    if !self.running && self.detected.is_none() {
                        self.running = true;
                        self.deadline = Instant::now() + self.settings.game_timeout;
                    }
                    self.on_turn = state.to_game().ok().and_then(|g| g.player_to_move());
                }
                RoomData::Result(end) => self.result = Some(end),
                _ => {}
            },
            ServerMessage::Left { room_id } if room_id == self.room => return Flow::Over,
            _ => {}
        }
        Flow::Continue
    }

    /// `joined` players are in the room: it is the next seat's turn to
    /// join (its player starts now unless it started with the game).
    fn on_joined(&mut self, joined: usize) {
        self.joined = joined;
        if self.ended_early.is_some_and(|slot| slot < joined) {
            // It had joined after all: wait for the server.
            self.deadline = Instant::now() + DISCONNECT_PATIENCE;
        }
        if self.detected.is_none() && self.turns.give(joined) {
            let seat = &mut self.seats[joined];
            // A player that started with the game and has ended already
            // keeps the short patience its end gave.
            if seat.exit.is_none() {
                self.deadline = Instant::now() + self.settings.connect_timeout;
            }
            if let Some(reason) = seat.not_started.take() {
                self.detected = Some(Detected {
                    slot: joined,
                    cause: Cause::Crashed,
                    reason,
                });
            } else if seat.launched.is_none() {
                self.start_player(joined);
            }
        }
    }

    /// The player of seat `slot` has ended: the first to end before the
    /// game did gives the server a moment to notice.
    fn on_exit(&mut self, slot: usize, exit: String) {
        self.seats[slot].exit = Some(exit);
        if self.detected.is_none() && self.ended_early.is_none() {
            self.ended_early = Some(slot);
            // Players join in slot order, each after the previous one.
            let patience = if self.joined <= slot {
                JOIN_NEWS_PATIENCE
            } else {
                DISCONNECT_PATIENCE
            };
            self.deadline = self.deadline.min(Instant::now() + patience);
        }
    }

    /// The end the runner detects when what it waited for did not come.
    fn overdue(&self) -> Detected {
        let settings = self.settings;
        if let Some(slot) = self.ended_early {
            let exit = self.seats[slot].exit.as_deref().unwrap_or("?");
            if self.joined <= slot {
                Detected {
                    slot,
                    cause: Cause::Crashed,
                    reason: format!("the program ended before joining its game ({exit})"),
                }
            } else {
                Detected {
                    slot,
                    cause: Cause::Left,
                    reason: format!("the program ended during the game ({exit})"),
                }
            }
        } else if !self.running {
            Detected {
                slot: self.joined.min(self.seats.len() - 1),
                cause: Cause::NoConnection,
                reason: format!(
                    "did not join within {} s",
                    settings.connect_timeout.as_secs_f64()
                ),
            }
        } else {
            Detected {
                slot: self.on_turn.unwrap_or(0),
                cause: Cause::Hung,
                reason: format!(
                    "the game did not end within {} s",
                    settings.game_timeout.as_secs_f64()
                ),
            }
        }
    }

    /// The players should end by themselves now that the server has closed
    /// their connections; one that did not move within the hard limit is
    /// not waited for (it would only cost the grace period). The seats end
    /// side by side: a sandboxed player's container is removed while the
    /// other seat's is.
    async fn let_players_end(&mut self) {
        let patience = Instant::now() + self.settings.exit_grace;
        let grace = self.settings.exit_grace;
        let result = self.result.as_ref();
        let ends = self
            .seats
            .iter_mut()
            .enumerate()
            .map(|(slot, seat)| async move {
                if !seat.running() {
                    return;
                }
                let hung = result
                    .and_then(|r| r.scores.get(slot))
                    .is_some_and(|score| score.cause == ScoreCause::HardTimeout);
                let Some(launched) = &mut seat.launched else {
                    return;
                };
                if hung {
                    launched
                        .kill("no move within the server's hard limit")
                        .await;
                    return;
                }
                match tokio::time::timeout_at(patience, launched.wait()).await {
                    Ok(exit) => seat.exit = Some(exit),
                    Err(_) => {
                        let why = format!(
                            "still running {} s after the game ended",
                            grace.as_secs_f64()
                        );
                        launched.kill(&why).await;
                    }
                }
            });
        join_all(ends.collect()).await;
    }

    /// Says goodbye to the server, finds the game's replay and writes down
    /// what happened.
    async fn record(self) -> FinishedGame {
        // Nothing more to administer; a failed goodbye changes nothing.
        let _ = tokio::time::timeout(GOODBYE_PATIENCE, self.admin.close()).await;
        if let Some(kept) = &self.settings.kept_replays {
            let game = if self.running {
                let taken = kept.take(&self.room, archive::PUBLISH_PATIENCE).await;
                if taken.is_none() {
                    tracing::warn!(room = %self.room, game = self.game, "the server kept no replay of this game");
                }
                taken
            } else {
                tracing::info!(room = %self.room, game = self.game, "the game never started (no state seen): no replay");
                None
            };
            let logs = player_logs(&self.seats).await;
            let record = record_game(
                self.settings,
                self.game,
                self.slot_players.clone(),
                self.result.as_ref(),
                self.detected,
                self.room,
                None,
                self.started.elapsed(),
            );
            return with_kept(record, &self.slot_players, logs, game);
        }
        // The server records a replay once the game has started.
        let replay = match &self.settings.replay_dir {
            Some(dir) if self.running => find_published(dir, &self.room, self.wall_start).await,
            Some(_) => {
                // Worth a line: a result without its replay is looked for
                // by whoever reads the season.
                tracing::info!(room = %self.room, game = self.game, "the game never started (no state seen): no replay to look for");
                None
            }
            None => None,
        };
        let think_times = match &replay {
            Some(path) => think_times(path.clone(), &self.slot_players)
                .await
                .unwrap_or_else(|error| {
                    // The game is recorded all the same, without them.
                    tracing::warn!(room = %self.room, game = self.game, %error, "cannot read the game's replay for its think times");
                    Vec::new()
                }),
            None => Vec::new(),
        };
        let mut record = record_game(
            self.settings,
            self.game,
            self.slot_players,
            self.result.as_ref(),
            self.detected,
            self.room,
            replay,
            self.started.elapsed(),
        );
        record.think_times = think_times;
        FinishedGame::of_record(record)
    }
}

/// Each player's log of this game, by player, read from the programs' log
/// files (none for a built-in bot).
async fn player_logs(seats: &[Seat]) -> Vec<Option<Vec<u8>>> {
    let mut logs = vec![None; seats.len()];
    for seat in seats {
        if let Some((path, from)) = seat.log.clone()
            && let Some(slot) = logs.get_mut(seat.player)
        {
            *slot = read_log(path, from).await;
        }
    }
    logs
}

/// The game `record` with what the server kept of it in memory (`kept`):
/// the replay as serialised once, the think times as the room measured
/// them (by seat; `slot_players[seat]` is the seat's player), the wire log;
/// and the players' `logs`.
fn with_kept(
    mut record: GameRecord,
    slot_players: &[usize],
    logs: Vec<Option<Vec<u8>>>,
    kept: Option<KeptGame>,
) -> FinishedGame {
    let Some(kept) = kept else {
        let mut game = FinishedGame::of_record(record);
        game.player_logs = logs;
        return game;
    };
    let mut think_times = vec![ThinkTimes::default(); slot_players.len()];
    for (seat, times) in kept.think_times.iter().enumerate() {
        if let Some(player) = slot_players.get(seat).and_then(|&p| think_times.get_mut(p)) {
            player.merge(times);
        }
    }
    record.think_times = think_times;
    FinishedGame {
        record,
        replay: Some(kept.replay),
        player_logs: logs,
        wire_log: kept.wire_log,
    }
}

/// This game's part of a player's log (from byte `from` of `path`), at most
/// [`PLAYER_LOG_BYTES`] and a line that says where it was cut; `None` when
/// it cannot be read (said in the log: the game is recorded all the same).
async fn read_log(path: PathBuf, from: u64) -> Option<Vec<u8>> {
    let read = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Seek};
        let mut file = std::fs::File::open(&path)?;
        let total = file.metadata()?.len().saturating_sub(from);
        file.seek(std::io::SeekFrom::Start(from))?;
        let mut head = Vec::new();
        file.take(PLAYER_LOG_BYTES as u64).read_to_end(&mut head)?;
        Ok::<_, std::io::Error>(capped_log(head, total))
    })
    .await
    .map_err(std::io::Error::other)
    .and_then(|read| read);
    read.map_err(|error| {
        tracing::warn!(%error, "cannot read a player's log; the game is stored without it");
    })
    .ok()
}

/// Each player's think times, as the server recorded them in the replay at
/// `path`; `slot_players[seat]` is the player of each seat.
///
/// # Errors
///
/// The replay cannot be read: why, as one line.
async fn think_times(path: PathBuf, slot_players: &[usize]) -> Result<Vec<ThinkTimes>, String> {
    let replay = tokio::task::spawn_blocking(move || archive::load(&path))
        .await
        .map_err(|error| error.to_string())?
        .map_err(|error| {
            let mut text = error.to_string();
            let mut cause = std::error::Error::source(&error);
            while let Some(next) = cause {
                text.push_str(&format!(": {next}"));
                cause = next.source();
            }
            text
        })?;
    let mut times = vec![ThinkTimes::default(); slot_players.len()];
    for (seat, think_time) in replay.seat_think_times() {
        if let Some(player) = slot_players.get(seat).and_then(|&p| times.get_mut(p)) {
            player.add(think_time);
        }
    }
    Ok(times)
}

/// Whether a later seat's player starts with the game rather than on its
/// turn: a sandboxed player, whose container takes a few hundred
/// milliseconds to start (its join waits at its forwarder). A program or a
/// bot is started on its turn: it would join at once.
fn starts_early(program: &Program) -> bool {
    matches!(program, Program::Docker(_))
}

/// Starts the player of `seat` with its reservation; a sandboxed player
/// joins on `turn`.
fn start_seat(
    settings: &MatchSettings,
    game: u32,
    seat: &mut Seat,
    code: &str,
    turn: JoinTurn,
) -> Result<(), String> {
    let spec = &settings.players[seat.player];
    let invitation = Invitation {
        host: &settings.host,
        port: settings.port,
        game: settings.game,
        reservation: code,
        game_number: game,
        log_path: settings
            .log_dir
            .join(format!("{}_game{game}.log", file_name_safe(&spec.name))),
        seed: settings.bot_seed(game, seat.player),
        turn,
    };
    if !matches!(spec.program, Program::Builtin(_)) {
        // The log is appended to: this game's part starts at its end now.
        let from = std::fs::metadata(&invitation.log_path).map_or(0, |m| m.len());
        seat.log = Some((invitation.log_path.clone(), from));
    }
    seat.launched = Some(launch(&spec.program, &invitation)?);
    Ok(())
}

/// Kills every running player, side by side (a sandboxed player's removal
/// takes a call of the daemon).
async fn kill_all(seats: &mut [Seat], why: &str) {
    let kills = seats.iter_mut().map(|seat| async move {
        if seat.running()
            && let Some(launched) = &mut seat.launched
        {
            launched.kill(why).await;
            seat.exit = Some(format!("killed: {why}"));
        }
    });
    join_all(kills.collect()).await;
}

/// Runs `tasks` side by side on this task until each has ended.
async fn join_all<F: Future<Output = ()>>(tasks: Vec<F>) {
    let mut tasks: Vec<Option<Pin<Box<F>>>> =
        tasks.into_iter().map(|t| Some(Box::pin(t))).collect();
    std::future::poll_fn(|cx| {
        for slot in &mut tasks {
            if let Some(task) = slot
                && task.as_mut().poll(cx).is_ready()
            {
                *slot = None;
            }
        }
        if tasks.iter().all(Option::is_none) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
}

/// Letters, digits, `-`, `_` and `.` stay; anything else becomes `_`, so a
/// display name cannot leave the log directory.
pub(crate) fn file_name_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.starts_with('.') {
        format!("_{safe}")
    } else {
        safe
    }
}

/// A decimal score part as a whole number (Blokus parts are integers).
fn whole(value: Option<&Decimal>) -> u32 {
    value.map_or(0, |d| {
        let scaled = d.unscaled() as f64 / 10f64.powi(i32::from(d.scale()));
        scaled.round().clamp(0.0, f64::from(u32::MAX)) as u32
    })
}

#[allow(clippy::too_many_arguments)]
fn record_game(
    settings: &MatchSettings,
    game: u32,
    slot_players: Vec<usize>,
    result: Option<&GameResult>,
    detected: Option<Detected>,
    room: String,
    replay: Option<PathBuf>,
    duration: Duration,
) -> GameRecord {
    let players = slot_players.len();
    let key = settings.key();
    let mut record = GameRecord {
        game,
        game_type: key.game_type,
        players: key.players,
        commands: key.commands,
        starter: slot_players[0] as u8 + 1,
        win_points: vec![0; players],
        points: vec![0; players],
        causes: vec![Cause::Unknown; players],
        reasons: vec![String::new(); players],
        duration_ms: duration.as_millis().try_into().unwrap_or(u64::MAX),
        room,
        replay,
        think_times: Vec::new(),
    };
    for (slot, &player) in slot_players.iter().enumerate() {
        if let Some(score) = result.and_then(|r| r.scores.get(slot)) {
            record.causes[player] = Cause::from_score(score.cause);
            record.reasons[player] = score.reason.clone();
            record.win_points[player] = whole(score.parts.first());
            record.points[player] = whole(score.parts.get(1));
        }
    }
    // An end the runner detected overrides the cancelled room's result:
    // the offender loses, everybody else wins (alone or shared, as the
    // server scores irregular ends).
    if let Some(found) = detected {
        let offender = slot_players[found.slot];
        let others_win = if players > 2 { 1 } else { 2 };
        for player in 0..players {
            if player == offender {
                record.causes[player] = found.cause;
                record.reasons[player].clone_from(&found.reason);
                record.win_points[player] = 0;
            } else {
                record.causes[player] = Cause::Regular;
                record.reasons[player].clear();
                record.win_points[player] = others_win;
            }
        }
    }
    record
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use spielleiter_bots::BotKind;
    use tokio::{
        io::{AsyncReadExt, AsyncWriteExt},
        net::TcpListener,
        sync::oneshot,
    };

    use super::*;
    use crate::settings::{PlayerSpec, Program};

    /// A stand-in for a game server: it takes one connection, reads until
    /// the administrator's `prepare`, says so on `prepared`, writes
    /// `answer` (if any) and keeps the connection open without another
    /// word.
    async fn stub_server(
        answer: Option<&'static str>,
    ) -> (
        MatchSettings,
        oneshot::Receiver<()>,
        tokio::task::JoinHandle<()>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (prepared, on_prepare) = oneshot::channel();
        let server = tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut read = Vec::new();
            while !String::from_utf8_lossy(&read).contains("<prepare") {
                let mut chunk = [0; 1024];
                let n = stream.read(&mut chunk).await.unwrap();
                assert!(n > 0, "the client left before `prepare`");
                read.extend_from_slice(&chunk[..n]);
            }
            let _ = prepared.send(());
            if let Some(answer) = answer {
                let packet = format!("<protocol>\n  {answer}");
                stream.write_all(packet.as_bytes()).await.unwrap();
            }
            // Silent from now on; the connection ends with the client.
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest).await;
        });
        let players = ["a", "b"]
            .map(|name| PlayerSpec {
                name: name.to_owned(),
                program: Program::Builtin(BotKind::Random),
                timed: true,
            })
            .to_vec();
        let mut settings =
            MatchSettings::new(players, "127.0.0.1".to_owned(), port, "pass".to_owned());
        settings.game = spielleiter_rules::GameType::Blokus2021;
        (settings, on_prepare, server)
    }

    #[tokio::test]
    async fn a_bare_error_packet_to_prepare_fails_the_game_at_once() {
        for answer in [
            "<errorpacket/>",
            "<errorpacket message=\"too long\"></errorpacket>",
        ] {
            let (settings, _, _server) = stub_server(Some(answer)).await;
            let outcome = tokio::time::timeout(
                Duration::from_secs(5),
                play_game(&settings, 1, &CancellationToken::new()),
            )
            .await
            .unwrap_or_else(|_| panic!("the game still waits after {answer}"));
            match outcome {
                Err(ArenaError::Admin(ClientError::Refused { request, .. })) => {
                    assert_eq!(request, "prepare");
                }
                other => panic!("expected the refused `prepare`, got {other:?}"),
            }
        }
    }

    #[tokio::test]
    async fn a_stuck_server_is_left_at_once_when_the_match_is_interrupted() {
        let (settings, on_prepare, _server) = stub_server(None).await;
        let shutdown = CancellationToken::new();
        let game = tokio::spawn({
            let shutdown = shutdown.clone();
            async move { play_game(&settings, 1, &shutdown).await }
        });
        on_prepare.await.unwrap();
        shutdown.cancel();
        let outcome = tokio::time::timeout(Duration::from_secs(5), game)
            .await
            .expect("an interrupted game ends at once")
            .unwrap();
        assert!(
            matches!(outcome, Ok(GameOutcome::Interrupted)),
            "{outcome:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_stuck_server_fails_the_game_after_a_while() {
        let (settings, on_prepare, _server) = stub_server(None).await;
        let started = Instant::now();
        let game =
            tokio::spawn(async move { play_game(&settings, 1, &CancellationToken::new()).await });
        let _ = on_prepare.await;
        let outcome = tokio::time::timeout(2 * ADMIN_PATIENCE, game)
            .await
            .expect("the game still waits for the stuck server")
            .unwrap();
        match outcome {
            Err(ArenaError::Admin(ClientError::TimedOut { limit, .. })) => {
                assert_eq!(limit, ADMIN_PATIENCE);
            }
            other => panic!("expected a timeout, got {other:?}"),
        }
        assert!(started.elapsed() >= ADMIN_PATIENCE);
    }

    #[test]
    fn log_names_stay_in_the_log_directory() {
        assert_eq!(file_name_safe("alice"), "alice");
        assert_eq!(file_name_safe("../etc/x"), "_.._etc_x");
        assert_eq!(file_name_safe("a b/c"), "a_b_c");
    }

    #[test]
    fn score_parts_become_whole_numbers() {
        assert_eq!(whole(Some(&Decimal::integer(87))), 87);
        assert_eq!(whole(Some(&Decimal::new(52_000_000, 6))), 52);
        assert_eq!(whole(Some(&Decimal::integer(-3))), 0);
        assert_eq!(whole(None), 0);
    }
}
