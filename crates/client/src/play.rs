//! [`play_blokus`]: plays one Blokus 2021 game on a joined connection, asking
//! a move-choosing function (a bot) whenever the server requests a move.
//!
//! Optional think time belongs here, not in the bots: a bot answers at
//! once, and the driver holds the answer back until the think time after
//! the request has passed.

use std::time::Duration;

use spielleiter_protocol::{
    GameMove, GameState, ServerMessage, blokus2021, result::GameResult, room::RoomData,
};
use spielleiter_rules::blokus::{Blokus, Move, SetupError, Team};
use tokio::time::Instant;

use crate::{connection::Connection, error::ClientError};

/// How a bot is driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOptions {
    /// How long after a move request the move is sent at the earliest (the
    /// bot's own computing time counts towards it). Zero answers at once.
    pub think: Duration,
}

/// What a player saw of its game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// The room.
    pub room_id: String,
    /// The player's team, from the welcome message.
    pub team: Option<Team>,
    /// The result, if the server sent one.
    pub result: Option<GameResult>,
    /// The last state the server sent.
    pub final_state: Option<Box<blokus2021::State>>,
    /// How many moves the player sent.
    pub moves_sent: u32,
    /// The messages of room errors and error packets the player got.
    pub errors: Vec<String>,
}

impl GameReport {
    /// The last state as a validated position.
    ///
    /// # Errors
    ///
    /// The inconsistency, if the server sent an inconsistent state.
    pub fn final_position(&self) -> Option<Result<Blokus, SetupError>> {
        self.final_state
            .as_ref()
            .map(|state| Blokus::from_setup(&state.setup))
    }
}

/// Plays the game in `room_id` on `connection` (which has joined it) until
/// the server ends the connection, calling `choose` for every move request
/// with the position the last memento described. Returns what the player
/// saw, whether or not the game ended regularly.
///
/// `choose` must return a move for the colour on turn; the server judges
/// it like any other client's.
///
/// # Errors
///
/// Connection failures, a stream the client cannot read, a move request
/// before any state, or an inconsistent state.
pub async fn play_blokus(
    connection: &mut Connection,
    room_id: &str,
    options: PlayOptions,
    mut choose: impl FnMut(&Blokus) -> Move,
) -> Result<GameReport, ClientError> {
    let mut report = GameReport {
        room_id: room_id.to_owned(),
        ..GameReport::default()
    };
    while let Some(message) = connection.recv().await? {
        let data = match message {
            ServerMessage::Room {
                room_id: room,
                data,
            } if room == room_id => data,
            ServerMessage::ErrorPacket { message, .. } => {
                report.errors.push(message);
                continue;
            }
            _ => continue,
        };
        match data {
            RoomData::Welcome { team } => report.team = Some(team),
            RoomData::Memento(GameState::Blokus2021(state)) => report.final_state = Some(state),
            RoomData::MoveRequest => {
                let asked_at = Instant::now();
                let state = report
                    .final_state
                    .as_ref()
                    .ok_or(ClientError::Protocol("a move request before any state"))?;
                let game = Blokus::from_setup(&state.setup).map_err(ClientError::InvalidState)?;
                let mv = choose(&game);
                if !options.think.is_zero() {
                    tokio::time::sleep_until(asked_at + options.think).await;
                }
                connection
                    .send_move(room_id, GameMove::Blokus2021(mv.into()))
                    .await?;
                report.moves_sent += 1;
            }
            RoomData::Error { message, .. } => report.errors.push(message),
            RoomData::Result(result) => report.result = Some(result),
            RoomData::Paused { .. } | RoomData::Move(_) => {}
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use spielleiter_protocol::{
        ClientMessage,
        blokus2021::{self, WireMove},
        result::{PlayerScore, ScoreCause},
    };
    use spielleiter_rules::blokus::{MoveList, PieceKind};

    use super::*;
    use crate::test_server::{ScriptedServer, connected_pair};

    fn room(data: RoomData) -> ServerMessage {
        ServerMessage::Room {
            room_id: "r".to_owned(),
            data,
        }
    }

    fn memento(game: &Blokus) -> ServerMessage {
        room(RoomData::Memento(GameState::from(blokus2021::State {
            setup: game.to_setup(),
            display_names: ["one".to_owned(), "two".to_owned()],
        })))
    }

    fn result() -> GameResult {
        GameResult {
            definition: blokus2021::score_definition(),
            scores: vec![
                PlayerScore {
                    cause: ScoreCause::Regular,
                    reason: String::new(),
                    parts: Vec::new(),
                };
                2
            ],
            winners: Vec::new(),
        }
    }

    /// Welcome, two move requests, then the end of the game. Returns the
    /// moves the client sent.
    async fn two_moves(mut server: ScriptedServer) -> Vec<WireMove> {
        let mut game = Blokus::new(PieceKind::PentoV);
        server
            .send(&room(RoomData::Welcome { team: Team::One }))
            .await;
        let mut sent = Vec::new();
        for _ in 0..2 {
            server.send(&memento(&game)).await;
            server.send(&room(RoomData::MoveRequest)).await;
            let Some(ClientMessage::Move {
                room_id,
                mv: GameMove::Blokus2021(mv),
            }) = server.recv().await
            else {
                panic!("expected a move");
            };
            assert_eq!(room_id, "r");
            game.play(&mv.resolve(game.current_color()))
                .expect("the client sends the bot's legal move");
            sent.push(mv);
        }
        server.send(&memento(&game)).await;
        server.send(&room(RoomData::Result(result()))).await;
        server
            .send(&ServerMessage::Left {
                room_id: "r".to_owned(),
            })
            .await;
        server.send(&ServerMessage::Close).await;
        server.end().await;
        sent
    }

    fn first_legal(game: &Blokus) -> Move {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        Move::Set(moves.get(0).unwrap())
    }

    #[tokio::test]
    async fn plays_the_requested_moves_and_reports_the_game() {
        let (mut client, server) = connected_pair().await;
        let script = tokio::spawn(two_moves(server));
        let report = play_blokus(&mut client, "r", PlayOptions::default(), first_legal)
            .await
            .unwrap();
        let sent = script.await.unwrap();
        assert_eq!(sent.len(), 2);
        assert_eq!(report.moves_sent, 2);
        assert_eq!(report.team, Some(Team::One));
        assert_eq!(report.result, Some(result()));
        let position = report.final_position().unwrap().unwrap();
        assert_eq!(position.turn(), 2);
        assert!(report.errors.is_empty());
    }

    #[tokio::test]
    async fn a_think_time_holds_the_move_back() {
        let (mut client, server) = connected_pair().await;
        let script = tokio::spawn(two_moves(server));
        let think = Duration::from_millis(30);
        let started = Instant::now();
        let report = play_blokus(&mut client, "r", PlayOptions { think }, first_legal)
            .await
            .unwrap();
        script.await.unwrap();
        assert_eq!(report.moves_sent, 2);
        assert!(started.elapsed() >= 2 * think);
    }

    #[tokio::test]
    async fn a_move_request_before_any_state_is_a_protocol_error() {
        let (mut client, mut server) = connected_pair().await;
        tokio::spawn(async move {
            server.send(&room(RoomData::MoveRequest)).await;
            server.end().await;
        });
        let outcome = play_blokus(&mut client, "r", PlayOptions::default(), first_legal).await;
        assert!(
            matches!(outcome, Err(ClientError::Protocol(_))),
            "{outcome:?}"
        );
    }
}
