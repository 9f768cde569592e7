//! The lobby: one task that owns the room registry, the reservation codes and
//! the list of administrators. Connections ask it for seats and rooms through
//! [`LobbyHandle`]; once seated, a connection talks to its room directly.
//!
//! The lobby waits for a room's answer when it seats a player. That cannot
//! deadlock: rooms never wait for the lobby (they report their end on an
//! unbounded channel) and answer seat requests at once. A room that does not
//! answer within [`ROOM_ANSWER_LIMIT`](crate::room::ROOM_ANSWER_LIMIT) is
//! hung: it is reported, ended and taken out of the registry, so one hung
//! room cannot freeze the lobby.

use std::{
    collections::{BTreeMap, HashMap, VecDeque},
    sync::Arc,
    time::Duration,
};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use spielleiter_protocol::{error::prefix, games, result::PlayerScoreReport};
use spielleiter_rules::{AnyGame, GameType};
use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};
use tokio_util::{sync::CancellationToken, task::TaskTracker};
use tracing::{Instrument, debug, error, info, warn};

use crate::{
    clock::{TimeLimits, sleep_until_some},
    ids::{ReservationCode, RoomId},
    outbound::{ConnId, Outbox},
    replay::ReplayStore,
    room::{self, RoomCommand, RoomEvent, RoomHandle, RoomSetup, SeatError, SeatRequest, SeatSpec},
    scores::ScoreTable,
    stats::ServerStats,
    texts, wire,
};

/// Requests waiting for the lobby. Bounded: many connections joining at once
/// wait their turn instead of growing memory.
const COMMAND_CAPACITY: usize = 256;

/// What rooms are created with.
#[derive(Clone, Debug)]
pub struct LobbySettings {
    /// Whether rooms created by `join` start paused.
    pub start_paused: bool,
    /// Move time limits per game type, `None` for untimed games; a game
    /// without an entry is untimed.
    pub limits: BTreeMap<GameType, Option<TimeLimits>>,
    /// The game of a `join` without `gameType`: it joins an open room of
    /// this game, or opens one.
    pub default_game: GameType,
    /// How long a prepared room waits for its reserved players.
    pub reservation_expiry: Duration,
    /// Where replays go, or `None` for no replays.
    pub replay: Option<ReplayStore>,
    /// Whether every room keeps a wire log next to its replay (a prepared
    /// room may ask for one also when this is off).
    pub wire_log: bool,
    /// Seed of the generator that seeds each room's random source.
    pub seed: u64,
    /// The server's counters, shared with every room.
    pub stats: Arc<ServerStats>,
}

/// A seat the lobby found for a connection.
#[derive(Clone, Debug)]
pub struct Joined {
    /// The room, to send moves to.
    pub room: RoomHandle,
    /// The seat index.
    pub seat: usize,
}

/// A room created by `prepare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The new room.
    pub room_id: RoomId,
    /// One code per reserved seat, in seat order.
    pub codes: Vec<ReservationCode>,
}

/// A `prepare` request after decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrepareRequest {
    /// The game type id as sent.
    pub game_type: Option<String>,
    /// Whether the room starts paused.
    pub paused: bool,
    /// The described seats, in slot order; missing ones are open seats.
    pub seats: Vec<SeatSpec>,
    /// The room's random seed (start piece or start line), as the
    /// administrator asked; `None`: the lobby's generator draws one.
    pub seed: Option<u64>,
    /// Whether the room keeps a wire log (`wireLog="true"`), also when the
    /// server does not keep one for every room.
    pub wire_log: bool,
}

/// Why the lobby refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    /// No hosted game has this id (or none was given and no room is open).
    #[error("unknown game type {}", prefix(requested.as_deref().unwrap_or("(none)")))]
    UnknownGameType {
        /// The id as sent.
        requested: Option<String>,
    },
    /// No room has this id.
    #[error("no room {}", prefix(.0.as_str()))]
    UnknownRoom(RoomId),
    /// The room has no open seat.
    #[error("room {} is full", prefix(.0.as_str()))]
    RoomFull(RoomId),
    /// The code was never issued or is used up.
    #[error("unknown reservation code")]
    UnknownReservation,
    /// A `prepare` with more slots than the game has players.
    #[error("{given} slots for a game of {players} players")]
    TooManySlots {
        /// Slots in the request.
        given: usize,
        /// Players of the game.
        players: usize,
    },
    /// A `prepare` without any slot (it would open a room nobody was
    /// invited to).
    #[error("no slots")]
    NoSlots,
    /// A `prepare` with a display name longer than
    /// [`MAX_DISPLAY_NAME_CHARS`].
    #[error("a display name of {length} characters")]
    DisplayNameTooLong {
        /// The name's length in characters.
        length: usize,
    },
    /// The server is shutting down and takes no new games.
    #[error("the server is shutting down")]
    ShuttingDown,
}

/// The longest display name a `prepare` may give, in characters. Names go
/// into results, replays, pages and log lines; a longer one is refused
/// rather than cut, so that no player is shown under a name the
/// administrator did not choose.
pub const MAX_DISPLAY_NAME_CHARS: usize = 100;

impl LobbyError {
    /// The text of the error packet that refuses the request.
    pub fn message(&self) -> String {
        match self {
            LobbyError::UnknownGameType { requested } => {
                texts::unknown_game_type(requested.as_deref(), GameType::ALL)
            }
            LobbyError::UnknownRoom(room) => texts::unknown_room(room.as_str()),
            LobbyError::RoomFull(room) => texts::room_full(room.as_str()),
            LobbyError::UnknownReservation => texts::unknown_reservation(),
            LobbyError::TooManySlots { given, players } => texts::too_many_slots(*given, *players),
            LobbyError::NoSlots => texts::no_slots(),
            LobbyError::DisplayNameTooLong { length } => {
                texts::display_name_too_long(*length, MAX_DISPLAY_NAME_CHARS)
            }
            LobbyError::ShuttingDown => texts::shutting_down(),
        }
    }
}

#[derive(Debug)]
enum LobbyCommand {
    Join {
        game_type: Option<String>,
        outbox: Outbox,
        reply: oneshot::Sender<Result<Joined, LobbyError>>,
    },
    JoinRoom {
        room_id: RoomId,
        outbox: Outbox,
        reply: oneshot::Sender<Result<Joined, LobbyError>>,
    },
    JoinPrepared {
        code: ReservationCode,
        outbox: Outbox,
        reply: oneshot::Sender<Result<Joined, LobbyError>>,
    },
    Prepare {
        request: PrepareRequest,
        reply: oneshot::Sender<Result<Prepared, LobbyError>>,
    },
    FindRoom {
        room_id: RoomId,
        reply: oneshot::Sender<Option<RoomHandle>>,
    },
    RegisterAdmin {
        outbox: Outbox,
    },
    ConnectionClosed {
        conn: ConnId,
    },
    /// Stop creating rooms; answer once every room has ended.
    Drain {
        reply: oneshot::Sender<()>,
    },
    TestMode {
        on: bool,
    },
    ScoreForPlayer {
        name: String,
        reply: oneshot::Sender<Option<PlayerScoreReport>>,
    },
}

/// A cheap handle to the lobby task.
#[derive(Clone, Debug)]
pub struct LobbyHandle {
    commands: mpsc::Sender<LobbyCommand>,
}

impl LobbyHandle {
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> LobbyCommand, gone: T) -> T {
        let (reply, answer) = oneshot::channel();
        if self.commands.send(make(reply)).await.is_err() {
            return gone;
        }
        answer.await.unwrap_or(gone)
    }

    /// `join`: a seat in the oldest open room of the game type, or in a new
    /// room. Without a game type, any open room, or a new room of the
    /// default game.
    pub async fn join(
        &self,
        game_type: Option<String>,
        outbox: Outbox,
    ) -> Result<Joined, LobbyError> {
        self.ask(
            |reply| LobbyCommand::Join {
                game_type,
                outbox,
                reply,
            },
            Err(LobbyError::ShuttingDown),
        )
        .await
    }

    /// `joinRoom`: an open seat in the given room.
    pub async fn join_room(&self, room_id: RoomId, outbox: Outbox) -> Result<Joined, LobbyError> {
        self.ask(
            |reply| LobbyCommand::JoinRoom {
                room_id,
                outbox,
                reply,
            },
            Err(LobbyError::ShuttingDown),
        )
        .await
    }

    /// `joinPrepared`: the seat the code was issued for. Codes are single-use.
    pub async fn join_prepared(
        &self,
        code: ReservationCode,
        outbox: Outbox,
    ) -> Result<Joined, LobbyError> {
        self.ask(
            |reply| LobbyCommand::JoinPrepared {
                code,
                outbox,
                reply,
            },
            Err(LobbyError::ShuttingDown),
        )
        .await
    }

    /// `prepare`: a new room with described seats and codes for the
    /// reserved ones.
    pub async fn prepare(&self, request: PrepareRequest) -> Result<Prepared, LobbyError> {
        self.ask(
            |reply| LobbyCommand::Prepare { request, reply },
            Err(LobbyError::ShuttingDown),
        )
        .await
    }

    /// The room with this id, if it exists.
    pub async fn find_room(&self, room_id: RoomId) -> Option<RoomHandle> {
        self.ask(|reply| LobbyCommand::FindRoom { room_id, reply }, None)
            .await
    }

    /// Tells the lobby about a new administrator, who from now on hears of
    /// every join.
    pub async fn register_admin(&self, outbox: Outbox) {
        let _ = self
            .commands
            .send(LobbyCommand::RegisterAdmin { outbox })
            .await;
    }

    /// Tells the lobby a connection has ended.
    pub async fn connection_closed(&self, conn: ConnId) {
        let _ = self
            .commands
            .send(LobbyCommand::ConnectionClosed { conn })
            .await;
    }

    /// Switches test mode (recording results into the score table) on or off.
    pub async fn set_test_mode(&self, on: bool) {
        let _ = self.commands.send(LobbyCommand::TestMode { on }).await;
    }

    /// The recorded scores of a player.
    pub async fn score_for_player(&self, name: String) -> Option<PlayerScoreReport> {
        self.ask(|reply| LobbyCommand::ScoreForPlayer { name, reply }, None)
            .await
    }

    /// Stops new games and resolves once every room has ended.
    pub async fn drain(&self) {
        self.ask(|reply| LobbyCommand::Drain { reply }, ()).await;
    }
}

struct RoomEntry {
    handle: RoomHandle,
    /// Whether `join`/`joinRoom` may still find an empty unreserved seat.
    open: bool,
    /// Creation order: `join` fills the oldest open room first.
    created: u64,
}

struct Lobby {
    settings: LobbySettings,
    rooms: HashMap<RoomId, RoomEntry>,
    reservations: HashMap<ReservationCode, (RoomId, usize)>,
    admins: HashMap<ConnId, Outbox>,
    rooms_created: u64,
    /// Seeds each room's random source, so a fixed server seed reproduces
    /// the sequence of games.
    seeds: Pcg64,
    draining: Option<Vec<oneshot::Sender<()>>>,
    /// Whether results go into `scores`.
    test_mode: bool,
    scores: ScoreTable,
    room_events: mpsc::UnboundedSender<RoomEvent>,
    room_shutdown: CancellationToken,
    tracker: TaskTracker,
    /// When each prepared room with reservations expires, oldest first.
    expiries: VecDeque<(Instant, RoomId)>,
}

/// A seat of a game of `game_type` for whoever joins first, timed if the
/// game's dialect times joined players.
fn open_seat(game_type: GameType) -> SeatSpec {
    SeatSpec {
        can_timeout: games::dialect(game_type).times_joined_players,
        ..SeatSpec::open()
    }
}

/// Starts the lobby task. Rooms it creates end when `room_shutdown` is
/// cancelled; all tasks are spawned on `tracker`.
pub fn spawn(
    settings: LobbySettings,
    room_shutdown: CancellationToken,
    tracker: &TaskTracker,
) -> LobbyHandle {
    let (commands, rx) = mpsc::channel(COMMAND_CAPACITY);
    let (lobby, events_rx) = Lobby::new(settings, room_shutdown, tracker);
    tracker.spawn(
        lobby
            .run(rx, events_rx)
            .instrument(tracing::info_span!("lobby")),
    );
    LobbyHandle { commands }
}

impl Lobby {
    fn new(
        settings: LobbySettings,
        room_shutdown: CancellationToken,
        tracker: &TaskTracker,
    ) -> (Lobby, mpsc::UnboundedReceiver<RoomEvent>) {
        let (room_events, events_rx) = mpsc::unbounded_channel();
        let lobby = Lobby {
            seeds: Pcg64::seed_from_u64(settings.seed),
            settings,
            rooms: HashMap::new(),
            reservations: HashMap::new(),
            admins: HashMap::new(),
            rooms_created: 0,
            draining: None,
            test_mode: false,
            scores: ScoreTable::default(),
            room_events,
            room_shutdown,
            tracker: tracker.clone(),
            expiries: VecDeque::new(),
        };
        (lobby, events_rx)
    }

    async fn run(
        mut self,
        mut commands: mpsc::Receiver<LobbyCommand>,
        mut events: mpsc::UnboundedReceiver<RoomEvent>,
    ) {
        loop {
            tokio::select! {
                // Room events first: no seat is offered in a dead room, and a
                // result is recorded before anyone can ask for it.
                biased;
                Some(event) = events.recv() => match event {
                    RoomEvent::Result { names, result } => {
                        if self.test_mode {
                            self.scores.record(&names, &result);
                        }
                    }
                    RoomEvent::Expired(room_id) => self.room_expired(&room_id),
                    RoomEvent::Ended(room_id) => self.room_ended(&room_id),
                },
                () = sleep_until_some(self.expiries.front().map(|(at, _)| *at)) => {
                    self.expire_due();
                }
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
            }
        }
        debug!("lobby stopped");
    }

    async fn handle(&mut self, command: LobbyCommand) {
        match command {
            LobbyCommand::Join {
                game_type,
                outbox,
                reply,
            } => {
                let answer = self.join(game_type, outbox).await;
                let _ = reply.send(answer);
            }
            LobbyCommand::JoinRoom {
                room_id,
                outbox,
                reply,
            } => {
                let answer = self.join_room(room_id, outbox).await;
                let _ = reply.send(answer);
            }
            LobbyCommand::JoinPrepared {
                code,
                outbox,
                reply,
            } => {
                let answer = self.join_prepared(code, outbox).await;
                let _ = reply.send(answer);
            }
            LobbyCommand::Prepare { request, reply } => {
                let _ = reply.send(self.prepare(request));
            }
            LobbyCommand::FindRoom { room_id, reply } => {
                let _ = reply.send(self.rooms.get(&room_id).map(|e| e.handle.clone()));
            }
            LobbyCommand::RegisterAdmin { outbox } => {
                self.admins.insert(outbox.id(), outbox);
            }
            LobbyCommand::ConnectionClosed { conn } => {
                self.admins.remove(&conn);
            }
            LobbyCommand::TestMode { on } => {
                info!(on, "test mode");
                self.test_mode = on;
            }
            LobbyCommand::ScoreForPlayer { name, reply } => {
                let _ = reply.send(self.scores.report(&name));
            }
            LobbyCommand::Drain { reply } => {
                if self.draining.is_none() {
                    for entry in self.rooms.values() {
                        entry.handle.try_send(RoomCommand::Drain);
                    }
                }
                self.draining.get_or_insert_with(Vec::new).push(reply);
                self.check_drained();
            }
        }
    }

    async fn join(
        &mut self,
        game_type: Option<String>,
        outbox: Outbox,
    ) -> Result<Joined, LobbyError> {
        self.refuse_when_draining()?;
        let wanted = game_type.as_deref().map(GameType::from_id);
        if let Some(None) = wanted {
            return Err(LobbyError::UnknownGameType {
                requested: game_type,
            });
        }
        // A join without `gameType` is a join of the default game: its
        // client speaks that game's dialect only.
        let game_type = wanted.flatten().unwrap_or(self.settings.default_game);
        let mut candidates: Vec<(u64, RoomId)> = self
            .rooms
            .iter()
            .filter(|(_, e)| e.open && e.handle.game_type() == game_type)
            .map(|(id, e)| (e.created, id.clone()))
            .collect();
        candidates.sort_unstable();
        for (_, room_id) in candidates {
            if let Ok(joined) = self.seat(&room_id, SeatRequest::Open, outbox.clone()).await {
                return Ok(joined);
            }
        }
        let seats = vec![open_seat(game_type); game_type.player_count()];
        let room_id = self.create_room(game_type, seats, self.settings.start_paused, None, false);
        self.seat(&room_id, SeatRequest::Open, outbox)
            .await
            .map_err(|_| LobbyError::RoomFull(room_id))
    }

    async fn join_room(&mut self, room_id: RoomId, outbox: Outbox) -> Result<Joined, LobbyError> {
        if !self.rooms.contains_key(&room_id) {
            return Err(LobbyError::UnknownRoom(room_id));
        }
        self.seat(&room_id, SeatRequest::Open, outbox).await
    }

    async fn join_prepared(
        &mut self,
        code: ReservationCode,
        outbox: Outbox,
    ) -> Result<Joined, LobbyError> {
        let Some((room_id, seat)) = self.reservations.remove(&code) else {
            return Err(LobbyError::UnknownReservation);
        };
        self.seat(&room_id, SeatRequest::Reserved(seat), outbox)
            .await
            .map_err(|_| LobbyError::UnknownReservation)
    }

    /// Asks the room for a seat and keeps the registry in step with the
    /// answer. Every successful join is announced to the administrators.
    async fn seat(
        &mut self,
        room_id: &RoomId,
        request: SeatRequest,
        outbox: Outbox,
    ) -> Result<Joined, LobbyError> {
        let Some(entry) = self.rooms.get_mut(room_id) else {
            return Err(LobbyError::UnknownRoom(room_id.clone()));
        };
        let handle = entry.handle.clone();
        match handle.seat(request, outbox).await {
            Ok(seated) => {
                entry.open = seated.still_open;
                let notice = wire::joined_game_room(room_id, seated.occupied);
                self.admins
                    .retain(|_, admin| admin.send(notice.clone()).is_ok());
                Ok(Joined {
                    room: handle,
                    seat: seated.seat,
                })
            }
            Err(SeatError::Unresponsive) => {
                self.take_out_unresponsive(room_id);
                Err(LobbyError::UnknownRoom(room_id.clone()))
            }
            Err(error) => {
                debug!(room = %room_id, %error, "seat refused");
                entry.open = false;
                Err(LobbyError::RoomFull(room_id.clone()))
            }
        }
    }

    /// A room did not answer in time: it is hung (a bug). It is ended and
    /// forgotten with its reservations, so that nobody waits for it again.
    fn take_out_unresponsive(&mut self, room_id: &RoomId) {
        error!(room = %room_id, limit_secs = room::ROOM_ANSWER_LIMIT.as_secs(), "room does not answer; ending it and taking it out of the registry");
        ServerStats::count(&self.settings.stats.rooms_unresponsive);
        if let Some(entry) = self.rooms.remove(room_id) {
            entry.handle.abort();
        }
        self.reservations.retain(|_, (room, _)| room != room_id);
        self.check_drained();
    }

    /// Tells every prepared room whose time is up to expire (a room whose
    /// game has begun ignores it).
    fn expire_due(&mut self) {
        let now = Instant::now();
        while let Some((at, room_id)) = self.expiries.front() {
            if *at > now {
                break;
            }
            if let Some(entry) = self.rooms.get(room_id) {
                entry.handle.try_send(RoomCommand::Expire);
            }
            self.expiries.pop_front();
        }
    }

    /// A prepared room expired: its codes are void, and the administrators
    /// hear of it.
    fn room_expired(&mut self, room_id: &RoomId) {
        self.reservations.retain(|_, (room, _)| room != room_id);
        info!(room = %room_id, expiry_secs = self.settings.reservation_expiry.as_secs(), "reservations expired");
        let notice = wire::error_packet(
            &texts::reservations_expired(room_id.as_str(), self.settings.reservation_expiry),
            None,
        );
        self.admins
            .retain(|_, admin| admin.send(notice.clone()).is_ok());
    }

    fn prepare(&mut self, request: PrepareRequest) -> Result<Prepared, LobbyError> {
        self.refuse_when_draining()?;
        let game_type = request
            .game_type
            .as_deref()
            .and_then(GameType::from_id)
            .ok_or(LobbyError::UnknownGameType {
                requested: request.game_type.clone(),
            })?;
        let players = game_type.player_count();
        if request.seats.is_empty() {
            return Err(LobbyError::NoSlots);
        }
        if let Some(length) = request
            .seats
            .iter()
            .map(|seat| seat.display_name.chars().count())
            .find(|&length| length > MAX_DISPLAY_NAME_CHARS)
        {
            return Err(LobbyError::DisplayNameTooLong { length });
        }
        if request.seats.len() > players {
            return Err(LobbyError::TooManySlots {
                given: request.seats.len(),
                players,
            });
        }
        let mut seats = request.seats;
        seats.resize_with(players, || open_seat(game_type));
        let reserved: Vec<usize> = (0..players).filter(|&i| seats[i].reserved).collect();
        let room_id = self.create_room(
            game_type,
            seats,
            request.paused,
            request.seed,
            request.wire_log,
        );
        if !reserved.is_empty() {
            // Every room gets the same time, so the queue stays in order.
            self.expiries.push_back((
                Instant::now() + self.settings.reservation_expiry,
                room_id.clone(),
            ));
        }
        let codes = reserved
            .into_iter()
            .map(|seat| {
                let code = ReservationCode::random();
                self.reservations
                    .insert(code.clone(), (room_id.clone(), seat));
                code
            })
            .collect();
        Ok(Prepared { room_id, codes })
    }

    /// Creates a room; its game's randomness comes from `seed` when the
    /// administrator gave one (a season's game is the same game on any
    /// server, in any order), otherwise from the lobby's generator.
    fn create_room(
        &mut self,
        game_type: GameType,
        seats: Vec<SeatSpec>,
        paused: bool,
        seed: Option<u64>,
        wire_log: bool,
    ) -> RoomId {
        let id = RoomId::random();
        let seed = seed.unwrap_or_else(|| self.seeds.random());
        let mut room_rng = Pcg64::seed_from_u64(seed);
        let game = AnyGame::new(game_type, &mut room_rng);
        let open = seats.iter().any(|s| !s.reserved);
        let handle = room::spawn(
            RoomSetup {
                id: id.clone(),
                game,
                seats,
                paused,
                limits: self.settings.limits.get(&game_type).copied().flatten(),
                replay: self.settings.replay.clone(),
                wire_log: wire_log || self.settings.wire_log,
                shutdown: self.room_shutdown.clone(),
                events: self.room_events.clone(),
                stats: Arc::clone(&self.settings.stats),
            },
            &self.tracker,
        );
        self.rooms_created += 1;
        info!(room = %id, game = %game_type, paused, "room created");
        self.rooms.insert(
            id.clone(),
            RoomEntry {
                handle,
                open,
                created: self.rooms_created,
            },
        );
        id
    }

    fn room_ended(&mut self, room_id: &RoomId) {
        if self.rooms.remove(room_id).is_none() {
            warn!(room = %room_id, "unknown room ended");
        }
        self.reservations.retain(|_, (room, _)| room != room_id);
        self.check_drained();
    }

    fn refuse_when_draining(&self) -> Result<(), LobbyError> {
        match self.draining {
            Some(_) => Err(LobbyError::ShuttingDown),
            None => Ok(()),
        }
    }

    fn check_drained(&mut self) {
        if self.rooms.is_empty()
            && let Some(waiting) = self.draining.as_mut()
        {
            for reply in waiting.drain(..) {
                let _ = reply.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::GameType;
    use tokio::time::Instant;

    use super::*;
    use crate::{outbound, room::ROOM_ANSWER_LIMIT};

    fn lobby() -> Lobby {
        let settings = LobbySettings {
            start_paused: false,
            limits: BTreeMap::new(),
            default_game: GameType::DEFAULT,
            reservation_expiry: Duration::from_secs(3600),
            replay: None,
            wire_log: false,
            seed: 1,
            stats: Arc::default(),
        };
        Lobby::new(settings, CancellationToken::new(), &TaskTracker::new()).0
    }

    #[tokio::test(start_paused = true)]
    async fn a_room_that_does_not_answer_is_taken_out_instead_of_awaited() {
        let mut lobby = lobby();
        let hung_id = RoomId::from("hung");
        // The receiver is kept but never read: the room is alive and hung.
        let (handle, _hung) = RoomHandle::detached(hung_id.clone(), GameType::Blokus2021);
        lobby.rooms.insert(
            hung_id.clone(),
            RoomEntry {
                handle,
                open: true,
                created: 0,
            },
        );
        let code = ReservationCode::from("code");
        lobby
            .reservations
            .insert(code.clone(), (hung_id.clone(), 1));
        let (outbox, _writer) = outbound::channel(ConnId(1));

        let asked = Instant::now();
        let answer = lobby.join_room(hung_id.clone(), outbox.clone()).await;
        assert!(
            matches!(&answer, Err(LobbyError::UnknownRoom(id)) if *id == hung_id),
            "{answer:?}"
        );
        assert!(asked.elapsed() <= ROOM_ANSWER_LIMIT + std::time::Duration::from_millis(10));
        assert!(lobby.rooms.is_empty());
        assert!(lobby.reservations.is_empty());
        assert_eq!(
            ServerStats::get(&lobby.settings.stats.rooms_unresponsive),
            1
        );

        // The next join does not wait for the hung room again.
        let asked = Instant::now();
        let joined = lobby
            .join(Some(GameType::Blokus2021.id().to_owned()), outbox)
            .await
            .expect("a new room");
        assert_ne!(joined.room.id(), &hung_id);
        assert_eq!(asked.elapsed(), std::time::Duration::ZERO);
    }
}
