//! One game of a match: prepare a room with a reserved slot per seat,
//! observe it, start the players one after the other (so a player that
//! never joins is known by name), follow the game as observer until the room
//! is left, then make sure every player is gone and write down what
//! happened.
//!
//! Whatever a player does, the game ends: a program that ends before it
//! joined, does not join in time, or holds the game past the match's game
//! limit is killed, the room is cancelled, and the game is recorded as
//! irregular with that player as the offender.

use std::{
    future::Future,
    path::PathBuf,
    pin::Pin,
    task::Poll,
    time::{Duration, SystemTime},
};

use spielleiter_client::{ClientError, Connection};
use spielleiter_protocol::{
    Decimal, Prepare, ScoreCause, ServerMessage, SlotDescriptor, result::GameResult, room::RoomData,
};
use spielleiter_rules::Game;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::{
    error::ArenaError,
    players::{Invitation, Launched, launch},
    record::{Cause, GameRecord},
    replays::find_replay,
    settings::MatchSettings,
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

/// How a game of the match ended for the match.
#[derive(Debug)]
pub(crate) enum GameOutcome {
    /// The game is over and recorded.
    Finished(Box<GameRecord>),
    /// The match was interrupted; the game is not recorded.
    Interrupted,
}

/// A slot of the room: which player sits there and how it is doing.
struct Seat {
    player: usize,
    launched: Option<Launched>,
    /// How the player ended, once it has.
    exit: Option<String>,
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

/// Plays game number `game` (from 1) of the match.
///
/// # Errors
///
/// Only trouble with the server itself (connection lost, administration
/// refused); a player's trouble is recorded in the game.
pub(crate) async fn play_game(
    settings: &MatchSettings,
    game: u32,
    shutdown: &CancellationToken,
) -> Result<GameOutcome, ArenaError> {
    let started = Instant::now();
    let wall_start = SystemTime::now();
    // Which player sits in each seat (seat 0 moves first); the seats rotate
    // from game to game.
    let slot_players = settings.seat_players(game);

    let mut admin = Connection::connect((settings.host.as_str(), settings.port)).await?;
    admin.authenticate(&settings.passphrase).await?;
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

    let mut seats: Vec<Seat> = slot_players
        .iter()
        .map(|&player| Seat {
            player,
            launched: None,
            exit: None,
        })
        .collect();
    let mut joined = 0;
    let mut running = false;
    // The seat to move, as the last state says.
    let mut on_turn: Option<usize> = None;
    let mut result: Option<GameResult> = None;
    let mut detected: Option<Detected> = None;
    let mut cancelled = false;
    // The first player whose program ended before the game did: if it had
    // joined, the server should end the game (LEFT, or the game was already
    // over); if it does not in time, the runner ends it.
    let mut ended_early: Option<usize> = None;
    let mut deadline = Instant::now() + settings.connect_timeout;

    if let Err(reason) = start_seat(settings, game, &mut seats[0], &codes[0]) {
        detected = Some(Detected {
            slot: 0,
            cause: Cause::Crashed,
            reason,
        });
    }

    loop {
        if let Some(found) = &detected
            && !cancelled
        {
            cancelled = true;
            kill_all(&mut seats, &found.reason).await;
            admin.cancel(&room).await?;
            deadline = Instant::now() + CANCEL_PATIENCE;
        }
        let event = tokio::select! {
            biased;
            () = shutdown.cancelled() => Event::Interrupted,
            message = admin.recv() => Event::Message(message),
            (seat, exit) = first_exit(&mut seats) => Event::Exit(seat, exit),
            () = tokio::time::sleep_until(deadline) => Event::Deadline,
        };
        match event {
            Event::Interrupted => {
                kill_all(&mut seats, "the match was interrupted").await;
                let _ = admin.cancel(&room).await;
                return Ok(GameOutcome::Interrupted);
            }
            Event::Message(Err(error)) => {
                kill_all(&mut seats, "the connection to the server failed").await;
                return Err(error.into());
            }
            Event::Message(Ok(None)) => {
                kill_all(&mut seats, "the server closed the connection").await;
                return Err(ClientError::Closed {
                    awaiting: "the game's end",
                }
                .into());
            }
            Event::Message(Ok(Some(message))) => match message {
                ServerMessage::JoinedGameRoom {
                    room_id,
                    player_count,
                } if room_id == room => {
                    joined = player_count as usize;
                    if ended_early.is_some_and(|slot| slot < joined) {
                        // It had joined after all: wait for the server.
                        deadline = Instant::now() + DISCONNECT_PATIENCE;
                    }
                    // The next player starts once the previous one has joined.
                    if joined < seats.len()
                        && seats[joined].launched.is_none()
                        && detected.is_none()
                    {
                        deadline = Instant::now() + settings.connect_timeout;
                        if let Err(reason) =
                            start_seat(settings, game, &mut seats[joined], &codes[joined])
                        {
                            detected = Some(Detected {
                                slot: joined,
                                cause: Cause::Crashed,
                                reason,
                            });
                        }
                    }
                }
                ServerMessage::Room { room_id, data } if room_id == room => match data {
                    RoomData::Memento(state) => {
                        if !running && detected.is_none() {
                            running = true;
                            deadline = Instant::now() + settings.game_timeout;
                        }
                        on_turn = state.to_game().ok().and_then(|g| g.player_to_move());
                    }
                    RoomData::Result(end) => result = Some(end),
                    _ => {}
                },
                ServerMessage::Left { room_id } if room_id == room => break,
                _ => {}
            },
            Event::Exit(slot, exit) => {
                seats[slot].exit = Some(exit);
                if detected.is_none() && ended_early.is_none() {
                    ended_early = Some(slot);
                    // Players are started in slot order, each after the
                    // previous joined.
                    let patience = if joined <= slot {
                        JOIN_NEWS_PATIENCE
                    } else {
                        DISCONNECT_PATIENCE
                    };
                    deadline = deadline.min(Instant::now() + patience);
                }
            }
            Event::Deadline => {
                if cancelled {
                    // The server does not end the room; record what we know.
                    break;
                }
                detected = Some(if let Some(slot) = ended_early {
                    let exit = seats[slot].exit.as_deref().unwrap_or("?");
                    if joined <= slot {
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
                } else if !running {
                    Detected {
                        slot: joined.min(seats.len() - 1),
                        cause: Cause::NoConnection,
                        reason: format!(
                            "did not join within {} s",
                            settings.connect_timeout.as_secs_f64()
                        ),
                    }
                } else {
                    Detected {
                        slot: on_turn.unwrap_or(0),
                        cause: Cause::Hung,
                        reason: format!(
                            "the game did not end within {} s",
                            settings.game_timeout.as_secs_f64()
                        ),
                    }
                });
            }
        }
    }

    // The players should end by themselves now that the server has closed
    // their connections; one that did not move within the hard limit is not
    // waited for (it would only cost the grace period).
    let patience = Instant::now() + settings.exit_grace;
    for (slot, seat) in seats.iter_mut().enumerate() {
        if !seat.running() {
            continue;
        }
        let hung = result
            .as_ref()
            .and_then(|r| r.scores.get(slot))
            .is_some_and(|score| score.cause == ScoreCause::HardTimeout);
        if let Some(launched) = &mut seat.launched
            && hung
        {
            launched
                .kill("no move within the server's hard limit")
                .await;
            continue;
        }
        if let Some(launched) = &mut seat.launched {
            match tokio::time::timeout_at(patience, launched.wait()).await {
                Ok(exit) => seat.exit = Some(exit),
                Err(_) => {
                    let why = format!(
                        "still running {} s after the game ended",
                        settings.exit_grace.as_secs_f64()
                    );
                    launched.kill(&why).await;
                }
            }
        }
    }

    // Nothing more to administer; a failed goodbye changes nothing.
    let _ = admin.close().await;
    // The server records a replay once the game has started.
    let replay = match &settings.replay_dir {
        Some(dir) if running => find_replay(dir, &room, wall_start).await,
        _ => None,
    };
    let record = record_game(
        settings,
        game,
        slot_players,
        result.as_ref(),
        detected,
        room,
        replay,
        started.elapsed(),
    );
    Ok(GameOutcome::Finished(Box::new(record)))
}

/// Starts the player of `seat` with its reservation.
fn start_seat(
    settings: &MatchSettings,
    game: u32,
    seat: &mut Seat,
    code: &str,
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
    };
    seat.launched = Some(launch(&spec.program, &invitation)?);
    Ok(())
}

async fn kill_all(seats: &mut [Seat], why: &str) {
    for seat in seats {
        if seat.running()
            && let Some(launched) = &mut seat.launched
        {
            launched.kill(why).await;
            seat.exit = Some(format!("killed: {why}"));
        }
    }
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
mod tests {
    use super::*;

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
