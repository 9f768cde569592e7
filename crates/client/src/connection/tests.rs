//! The tests of the connection, against the scripted server (which needs
//! a [`Connection`], hence a file of their own).
#![allow(clippy::unwrap_used)]

use spielleiter_protocol::dialect::CloseElement;

use super::*;
use crate::test_server::connected_pair;

fn joined(room: &str) -> ServerMessage {
    ServerMessage::Joined {
        room_id: room.to_owned(),
    }
}

#[tokio::test]
async fn join_sends_the_game_type_and_returns_the_room() {
    let (mut client, mut server) = connected_pair().await;
    let script = tokio::spawn(async move {
        let request = server.recv().await;
        assert_eq!(
            request,
            Some(ClientMessage::Join {
                game_type: Some("swc_2021_blokus".to_owned())
            })
        );
        server.send(&joined("r1")).await;
        server
    });
    assert_eq!(client.join(GameType::Blokus2021).await.unwrap(), "r1");
    script.await.unwrap().end().await;
    assert_eq!(client.recv().await.unwrap(), None);
}

#[tokio::test]
async fn packets_that_arrive_while_waiting_for_an_answer_are_kept() {
    let (mut client, mut server) = connected_pair().await;
    let notice = ServerMessage::JoinedGameRoom {
        room_id: "other".to_owned(),
        player_count: 1,
    };
    let stale_error = ServerMessage::ErrorPacket {
        message: "an earlier observe failed".to_owned(),
        original_request: Some(Box::new(ClientMessage::Observe {
            room_id: "gone".to_owned(),
        })),
    };
    let script = {
        let (notice, stale_error) = (notice.clone(), stale_error.clone());
        tokio::spawn(async move {
            assert!(matches!(
                server.recv().await,
                Some(ClientMessage::JoinPrepared { .. })
            ));
            server.send(&notice).await;
            server.send(&stale_error).await;
            server.send(&joined("r2")).await;
            server.end().await;
        })
    };
    assert_eq!(
        client
            .join_prepared("code", GameType::Blokus2021)
            .await
            .unwrap(),
        "r2"
    );
    script.await.unwrap();
    assert_eq!(client.recv().await.unwrap(), Some(notice));
    assert_eq!(client.recv().await.unwrap(), Some(stale_error));
    assert_eq!(client.recv().await.unwrap(), None);
    assert_eq!(client.recv().await.unwrap(), None);
}

#[tokio::test]
async fn an_error_packet_echoing_the_request_is_a_refusal() {
    let (mut client, mut server) = connected_pair().await;
    tokio::spawn(async move {
        let request = server.recv().await.unwrap();
        server
            .send(&ServerMessage::ErrorPacket {
                message: "no such reservation".to_owned(),
                original_request: Some(Box::new(request)),
            })
            .await;
        server.end().await;
    });
    match client.join_prepared("nope", GameType::Blokus2021).await {
        Err(ClientError::Refused { request, message }) => {
            assert_eq!(
                (request, message.as_str()),
                ("joinPrepared", "no such reservation")
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_prepared_room_tells_its_game_by_its_first_state() {
    use rand::SeedableRng;
    use rand_pcg::Pcg64;
    use spielleiter_protocol::GameState;
    use spielleiter_rules::AnyGame;
    for &game in GameType::ALL {
        let (mut client, mut server) = connected_pair().await;
        let mut rng = Pcg64::seed_from_u64(7);
        let position = AnyGame::new(game, &mut rng);
        let names: Vec<&str> = vec![""; game.player_count()];
        let state = GameState::of_game(&position, &names);
        tokio::spawn(async move {
            server.recv().await;
            server.send(&joined("r")).await;
            let room = |data| ServerMessage::Room {
                room_id: "r".to_owned(),
                data,
            };
            server.send(&room(RoomData::Welcome { seat: 0 })).await;
            server.send(&room(RoomData::Memento(state))).await;
            server.end().await;
        });
        let (room, learned) = client
            .join_prepared_learning("code", GameType::DEFAULT)
            .await
            .unwrap();
        assert_eq!((room.as_str(), learned), ("r", game), "{game}");
        assert_eq!(client.game_type(), Some(game));
        assert!(matches!(
            client.recv().await.unwrap(),
            Some(ServerMessage::Room {
                data: RoomData::Welcome { seat: 0 },
                ..
            })
        ));
        match client.recv().await.unwrap() {
            Some(ServerMessage::Room {
                data: RoomData::Memento(state),
                ..
            }) => assert_eq!(state.game_type(), game),
            other => panic!("expected the state, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_refused_passphrase_is_the_reason_of_the_next_answer_that_never_comes() {
    let (mut client, mut server) = connected_pair().await;
    tokio::spawn(async move {
        let login = server.recv().await.unwrap();
        server.recv().await;
        server
            .send(&ServerMessage::ErrorPacket {
                message: "Failed to authenticate as administrator".to_owned(),
                original_request: Some(Box::new(login)),
            })
            .await;
        server.hang_up();
    });
    client.authenticate("wrong").await.unwrap();
    match client.observe("r", GameType::Blokus2021).await {
        Err(ClientError::Refused { request, .. }) => assert_eq!(request, "authenticate"),
        other => panic!("expected the login's refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_hang_up_while_waiting_is_reported_and_earlier_packets_survive() {
    let (mut client, mut server) = connected_pair().await;
    tokio::spawn(async move {
        server.recv().await;
        server
            .send(&ServerMessage::Close(CloseElement::Short))
            .await;
        server.hang_up();
    });
    match client.observe("r", GameType::Blokus2021).await {
        Err(ClientError::Closed { awaiting }) => assert_eq!(awaiting, "observe"),
        other => panic!("expected Closed, got {other:?}"),
    }
    assert_eq!(
        client.recv().await.unwrap(),
        Some(ServerMessage::Close(CloseElement::Short))
    );
    assert_eq!(client.recv().await.unwrap(), None);
}

#[tokio::test]
async fn admin_requests_are_written_as_the_protocol_describes() {
    let (mut client, mut server) = connected_pair().await;
    let script = tokio::spawn(async move {
        let mut seen = Vec::new();
        for _ in 0..3 {
            let request = server.recv().await.unwrap();
            match &request {
                ClientMessage::Prepare(_) => {
                    server
                        .send(&ServerMessage::Prepared {
                            room_id: "room".to_owned(),
                            reservations: vec!["a".to_owned(), "b".to_owned()],
                        })
                        .await
                }
                ClientMessage::Observe { room_id } => {
                    server
                        .send(&ServerMessage::Observed {
                            room_id: room_id.clone(),
                        })
                        .await
                }
                _ => {}
            }
            seen.push(request);
        }
        seen.push(server.recv().await.unwrap());
        assert_eq!(server.recv().await, None, "the client ended its document");
        seen
    });
    client.authenticate("pass").await.unwrap();
    let prepare = Prepare {
        seed: None,
        wire_log: false,
        game_type: Some("swc_2021_blokus".to_owned()),
        pause: false,
        slots: Vec::new(),
    };
    let prepared = client.prepare(prepare.clone()).await.unwrap();
    assert_eq!(
        prepared,
        Prepared {
            room_id: "room".to_owned(),
            reservations: vec!["a".to_owned(), "b".to_owned()],
        }
    );
    client.observe("room", GameType::Blokus2021).await.unwrap();
    client.cancel("room").await.unwrap();
    client.close().await.unwrap();
    assert_eq!(
        script.await.unwrap(),
        vec![
            ClientMessage::Authenticate {
                password: "pass".to_owned()
            },
            ClientMessage::Prepare(prepare),
            ClientMessage::Observe {
                room_id: "room".to_owned()
            },
            ClientMessage::Cancel {
                room_id: "room".to_owned()
            },
        ]
    );
}

fn blokus_prepare() -> Prepare {
    Prepare {
        seed: None,
        wire_log: false,
        game_type: Some("swc_2021_blokus".to_owned()),
        pause: false,
        slots: Vec::new(),
    }
}

/// An error packet of any shape answers the request awaited: with or
/// without a message, empty or with content, self-closing or not, echoing
/// no request or one that cannot be read. A server that leaves out the
/// echo (as ours does for a request too long to repeat) never leaves the
/// client waiting. The server keeps the connection open, so a client
/// that held such a packet would wait for ever (the test's limit).
#[tokio::test]
async fn an_error_packet_of_any_shape_refuses_the_request_awaited() {
    let shapes = [
        ("<errorpacket/>", ""),
        ("<errorpacket></errorpacket>", ""),
        ("<errorpacket message=\"name too long\"/>", "name too long"),
        (
            "<errorpacket message=\"name too long\">some text</errorpacket>",
            "name too long",
        ),
        (
            "<errorpacket><unexpected a=\"1\"><deeper/></unexpected></errorpacket>",
            "",
        ),
        (
            "<errorpacket message=\"two&#10;lines\" other=\"x\"></errorpacket>",
            "two\nlines",
        ),
        // An echo of no request this client sends cannot be of another
        // of its requests.
        (
            "<errorpacket message=\"x\"><originalRequest class=\"noSuchRequest\"/></errorpacket>",
            "x",
        ),
        (
            "<errorpacket message=\"y\"><originalRequest/></errorpacket>",
            "y",
        ),
    ];
    for (packet, expected) in shapes {
        let (mut client, mut server) = connected_pair().await;
        let script = tokio::spawn(async move {
            assert!(matches!(
                server.recv().await,
                Some(ClientMessage::Prepare(_))
            ));
            server.send_raw(packet).await;
            // The connection stays open until the client is done.
            server.recv().await;
        });
        let answer = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            client.prepare(blokus_prepare()),
        )
        .await
        .unwrap_or_else(|_| panic!("no answer to `prepare` after {packet}"));
        match answer {
            Err(ClientError::Refused { request, message }) => {
                assert_eq!(
                    (request, message.as_str()),
                    ("prepare", expected),
                    "{packet}"
                );
            }
            other => panic!("expected a refusal of `prepare` after {packet}, got {other:?}"),
        }
        client.close().await.unwrap();
        script.await.unwrap();
    }
}

#[test]
fn a_refusal_is_one_line_with_or_without_a_reason() {
    let refused = |message: &str| {
        ClientError::Refused {
            request: "prepare",
            message: message.to_owned(),
        }
        .to_string()
    };
    assert_eq!(
        refused(""),
        "the server refused `prepare` without giving a reason"
    );
    assert_eq!(
        refused(" two\nlines\r\u{1b}[31m "),
        "the server refused `prepare`: two lines [31m"
    );
    let long = refused(&"x".repeat(5000));
    assert!(long.len() < 400 && long.ends_with('…'), "{long}");
}
