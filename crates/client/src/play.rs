//! [`play`]: plays one game of any hosted type on a joined connection,
//! asking a move-choosing function (a bot) whenever the server requests a
//! move.
//!
//! Optional think time belongs here, not in the bots: a bot answers at
//! once, and the driver holds the answer back until the think time after
//! the request has passed.

use std::time::Duration;

use spielleiter_protocol::{
    GameMove, GameState, ServerMessage, games, result::GameResult, room::RoomData,
};
use spielleiter_rules::{AnyGame, AnyMove};
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
    /// The player's seat (0 = `ONE`), from the welcome message.
    pub seat: Option<usize>,
    /// The result, if the server sent one.
    pub result: Option<GameResult>,
    /// The last state the server sent.
    pub final_state: Option<GameState>,
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
    pub fn final_position(&self) -> Option<Result<AnyGame, spielleiter_protocol::InvalidState>> {
        self.final_state.as_ref().map(GameState::to_game)
    }
}

/// Plays the game in `room_id` on `connection` (which has joined it) until
/// the server ends the connection or the room, calling `choose` for every
/// move request with the position the last memento described. Returns what
/// the player saw, whether or not the game ended regularly.
///
/// `choose` must return a move for the player to move; the server judges
/// it like any other client's.
///
/// # Errors
///
/// Connection failures, a stream the client cannot read, a move request
/// before any state, or an inconsistent state.
pub async fn play(
    connection: &mut Connection,
    room_id: &str,
    options: PlayOptions,
    mut choose: impl FnMut(&AnyGame) -> AnyMove,
) -> Result<GameReport, ClientError> {
    let mut report = GameReport {
        room_id: room_id.to_owned(),
        ..GameReport::default()
    };
    // Where the server keeps the connection after the game, `left` ends it;
    // otherwise the end of the connection does (after `left` may come an
    // error packet for the game's last move).
    let stays_open = connection
        .game_type()
        .is_some_and(|game| !games::dialect(game).closes_after_game);
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
            ServerMessage::Left { room_id: room } if stays_open && room == room_id => break,
            _ => continue,
        };
        match data {
            RoomData::Welcome { seat } => report.seat = Some(seat),
            RoomData::Memento(state) => report.final_state = Some(state),
            RoomData::MoveRequest(_) => {
                let asked_at = Instant::now();
                let state = report
                    .final_state
                    .as_ref()
                    .ok_or(ClientError::Protocol("a move request before any state"))?;
                let game = state.to_game()?;
                let mv = choose(&game);
                if !options.think.is_zero() {
                    tokio::time::sleep_until(asked_at + options.think).await;
                }
                connection.send_move(room_id, GameMove::from(mv)).await?;
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
        ClientMessage, GameType,
        dialect::{CloseElement, MoveRequestClass, ResultLayout},
        games::blokus2021::{self, WireMove},
        result::{PlayerScore, ScoreCause},
    };
    use spielleiter_rules::{
        Game,
        blokus::{Blokus, Move, MoveList, PieceKind},
    };

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
            layout: ResultLayout::Season2021,
            definition: blokus2021::score_definition(),
            scores: vec![
                PlayerScore {
                    display_name: String::new(),
                    cause: ScoreCause::Regular,
                    reason: String::new(),
                    parts: Vec::new(),
                };
                2
            ],
            winners: Vec::new(),
            conclusion: None,
        }
    }

    /// Welcome, two move requests, then the end of the game. Returns the
    /// moves the client sent.
    async fn two_moves(mut server: ScriptedServer) -> Vec<WireMove> {
        let mut game = Blokus::new(PieceKind::PentoV);
        server.send(&room(RoomData::Welcome { seat: 0 })).await;
        let mut sent = Vec::new();
        for _ in 0..2 {
            server.send(&memento(&game)).await;
            server
                .send(&room(RoomData::MoveRequest(MoveRequestClass::Qualified)))
                .await;
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
        server
            .send(&ServerMessage::Close(CloseElement::Short))
            .await;
        server.end().await;
        sent
    }

    fn first_legal(game: &AnyGame) -> AnyMove {
        let AnyGame::Blokus2021(game) = game else {
            panic!("a Blokus game");
        };
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        AnyMove::Blokus2021(Move::Set(moves.get(0).unwrap()))
    }

    /// A client that has joined room `r` of a Blokus 2021 game.
    async fn joined_pair() -> (Connection, ScriptedServer) {
        let (mut client, mut server) = connected_pair().await;
        let (joined, _) = tokio::join!(client.join(GameType::Blokus2021), async {
            server.recv().await;
            server
                .send(&ServerMessage::Joined {
                    room_id: "r".to_owned(),
                })
                .await;
        });
        assert_eq!(joined.unwrap(), "r");
        (client, server)
    }

    #[tokio::test]
    async fn plays_the_requested_moves_and_reports_the_game() {
        let (mut client, server) = joined_pair().await;
        let script = tokio::spawn(two_moves(server));
        let report = play(&mut client, "r", PlayOptions::default(), first_legal)
            .await
            .unwrap();
        let sent = script.await.unwrap();
        assert_eq!(sent.len(), 2);
        assert_eq!(report.moves_sent, 2);
        assert_eq!(report.seat, Some(0));
        assert_eq!(report.result, Some(result()));
        let position = report.final_position().unwrap().unwrap();
        assert_eq!(position.turn(), 2);
        assert!(report.errors.is_empty());
    }

    #[tokio::test]
    async fn a_think_time_holds_the_move_back() {
        let (mut client, server) = joined_pair().await;
        let script = tokio::spawn(two_moves(server));
        let think = Duration::from_millis(30);
        let started = Instant::now();
        let report = play(&mut client, "r", PlayOptions { think }, first_legal)
            .await
            .unwrap();
        script.await.unwrap();
        assert_eq!(report.moves_sent, 2);
        assert!(started.elapsed() >= 2 * think);
    }

    #[tokio::test]
    async fn a_move_request_before_any_state_is_a_protocol_error() {
        let (mut client, mut server) = joined_pair().await;
        tokio::spawn(async move {
            server
                .send(&room(RoomData::MoveRequest(MoveRequestClass::Qualified)))
                .await;
            server.end().await;
        });
        let outcome = play(&mut client, "r", PlayOptions::default(), first_legal).await;
        assert!(
            matches!(outcome, Err(ClientError::Protocol(_))),
            "{outcome:?}"
        );
    }
}
