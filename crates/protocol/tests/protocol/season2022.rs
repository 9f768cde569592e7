//! The 2022 example messages (`tests/vectors/season-2022/`, copied from the
//! shared protocol notes): every file decodes to the value it stands for,
//! built by playing the vectors' game with the rules, and server→client
//! packets encode back byte for byte.

use spielleiter_protocol::{
    ClientMessage, GameMove, GameResult, GameState, GameType, RoomData, ScoreCause, SeatResult,
    ServerMessage,
    dialect::{LeaveCause, MoveRequestClass, Player, TimeLimit},
    games::{
        self,
        ostseeschach2022::{describe_move, mistake_text},
    },
};
use spielleiter_rules::{
    AnyGame, Game, PlayerSet,
    ostseeschach::{Mistake, Move, Ostseeschach, StartLine},
};

use crate::util::{frames, packet, vector};

/// The second player, as the season's texts name it.
const BOB: Player<'static> = Player {
    seat: 1,
    display_name: "bob",
};

const ROOM: &str = "f3c1e2a4-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const GAME: GameType = GameType::Ostseeschach2022;

/// ONE's start line of the vectors' game: Robbe, Herzmuschel, Seestern,
/// Moewe, Herzmuschel, Robbe, Moewe, Seestern.
const START: &str = "RHSMHRMS";

/// The vectors' main game, as the README's table lists it.
const MOVES: [(i32, i32, i32, i32); 18] = [
    (0, 5, 2, 4),
    (7, 2, 5, 3),
    (2, 4, 4, 5),
    (5, 3, 4, 5),
    (0, 2, 1, 3),
    (4, 5, 2, 4),
    (1, 3, 2, 4),
    (7, 4, 6, 4),
    (0, 0, 2, 1),
    (7, 3, 6, 2),
    (2, 1, 4, 2),
    (7, 5, 6, 5),
    (4, 2, 5, 4),
    (7, 6, 6, 7),
    (5, 4, 6, 2),
    (7, 1, 6, 1),
    (6, 2, 7, 0),
    (6, 5, 5, 5),
];

fn file(name: &str) -> String {
    format!("season-2022/{name}")
}

/// The game after the first `turns` moves of the main game.
fn game_after(turns: usize) -> Ostseeschach {
    let line: StartLine = START.parse().expect("a start line");
    let mut game = Ostseeschach::new(line);
    for &(fx, fy, tx, ty) in &MOVES[..turns] {
        game.play(&Move::new(fx, fy, tx, ty))
            .expect("the vectors' moves are legal");
    }
    game
}

fn room(data: RoomData) -> ServerMessage {
    ServerMessage::Room {
        room_id: ROOM.into(),
        data,
    }
}

fn decode_server(name: &str) -> ServerMessage {
    ServerMessage::decode(packet(&file(name)).as_bytes(), GAME)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check_server_vector(name: &str, expected: ServerMessage) {
    assert_eq!(decode_server(name), expected, "{name} decodes");
    assert_eq!(expected.to_xml(), packet(&file(name)), "{name} encodes");
}

fn check_client_vector(name: &str, expected: ClientMessage) {
    let decoded = ClientMessage::decode(packet(&file(name)).as_bytes(), Some(GAME))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(decoded, expected, "{name} decodes");
    assert_eq!(expected.to_xml(), packet(&file(name)), "{name} encodes");
}

fn memento(game: &Ostseeschach) -> ServerMessage {
    room(RoomData::Memento(GameState::from(game.to_setup())))
}

#[test]
fn the_session_opens_as_the_official_one() {
    let text = vector(&file("00-client-open-and-join.txt"));
    let join: Vec<ClientMessage> = frames(format!("{text}</protocol>").as_bytes())
        .iter()
        .map(|f| ClientMessage::decode(f, None).expect("decodes"))
        .collect();
    assert_eq!(
        join,
        [ClientMessage::Join {
            game_type: Some(GAME.id().into())
        }]
    );
    check_server_vector(
        "01-server-joined.xml",
        ServerMessage::Joined {
            room_id: ROOM.into(),
        },
    );
    check_server_vector("02-welcome-ONE.xml", room(RoomData::Welcome { seat: 0 }));
    check_server_vector("02-welcome-TWO.xml", room(RoomData::Welcome { seat: 1 }));
    check_server_vector(
        "04-moveRequest.xml",
        room(RoomData::MoveRequest(MoveRequestClass::Alias)),
    );
    assert_eq!(
        games::dialect(GAME).move_request,
        MoveRequestClass::Alias,
        "the server asks in the 2022 form"
    );
    check_server_vector(
        "11-left.xml",
        ServerMessage::Left {
            room_id: ROOM.into(),
        },
    );
}

#[test]
fn the_mementos_are_the_rules_positions_of_the_game() {
    for (name, turns) in [
        ("03-memento-turn0-initial.xml", 0),
        ("06-memento-turn1.xml", 1),
        ("07-memento-turn7-amber.xml", 7),
        ("08-memento-turn15-tower.xml", 15),
        ("09-memento-turn18-final.xml", 18),
    ] {
        let game = game_after(turns);
        check_server_vector(name, memento(&game));
        let ServerMessage::Room {
            data: RoomData::Memento(state),
            ..
        } = decode_server(name)
        else {
            unreachable!("checked above");
        };
        assert_eq!(
            state.to_game(),
            Ok(AnyGame::Ostseeschach2022(game)),
            "{name}"
        );
    }
    assert_eq!(
        game_after(7).ambers(spielleiter_rules::ostseeschach::Team::One),
        1
    );
    assert!(Game::is_over(&game_after(18)));
}

#[test]
fn the_moves_decode_in_both_classes() {
    let first = GameMove::from(Move::new(0, 5, 2, 4));
    check_client_vector(
        "05-client-move-turn0.xml",
        ClientMessage::Move {
            room_id: ROOM.into(),
            mv: first,
        },
    );
    let qualified = packet(&file("05-client-move-turn0.xml"))
        .replace("class=\"move\"", "class=\"sc.plugin2022.Move\"");
    assert_eq!(
        ClientMessage::decode(qualified.as_bytes(), Some(GAME)).expect("decodes"),
        ClientMessage::Move {
            room_id: ROOM.into(),
            mv: first,
        }
    );
    check_client_vector(
        "20-client-invalid-move-turn1.xml",
        ClientMessage::Move {
            room_id: ROOM.into(),
            mv: GameMove::from(Move::new(7, 3, 6, 3)),
        },
    );
}

/// The results of the vectors, as the server composes them: seat 1 (`bob`)
/// ends the game at turn 1 with `cause`/`reason`, or the main game ends
/// regularly.
fn result(game: &Ostseeschach, ending: Option<(ScoreCause, String)>) -> GameResult {
    let parts = [game.score(0), game.score(1)];
    let (winners, regular) = match ending {
        None => (game.winners(), true),
        Some(_) => (PlayerSet::single(0), false),
    };
    let seats: Vec<SeatResult<'_>> = ["alice", "bob"]
        .into_iter()
        .enumerate()
        .map(|(seat, name)| {
            let offender = seat == 1 && ending.is_some();
            let (cause, reason) = match &ending {
                Some((cause, reason)) if offender => (*cause, reason.clone()),
                _ => (ScoreCause::Regular, String::new()),
            };
            SeatResult {
                display_name: name,
                cause,
                reason,
                win_points: match (winners.contains(seat), winners.len()) {
                    (true, 1) => 2,
                    (true, _) => 1,
                    (false, _) => 0,
                },
                parts: parts[seat].as_slice(),
                offender,
            }
        })
        .collect();
    GameResult::of_game(GAME, &seats, winners, regular)
}

#[test]
fn a_regular_result() {
    let game = game_after(18);
    check_server_vector(
        "10-result-regular.xml",
        room(RoomData::Result(result(&game, None))),
    );
}

#[test]
fn a_rule_violation_error_and_result() {
    let game = game_after(1);
    let mv = Move::new(7, 3, 6, 3);
    assert_eq!(game.is_legal(&mv), Err(Mistake::InvalidMovement));
    let texts = games::dialect(GAME).texts.rule_violation(
        BOB,
        mistake_text(Mistake::InvalidMovement),
        Some(&describe_move(&mv)),
    );
    assert_eq!(texts.error_packet, None, "2022 sends no error packet");
    check_server_vector(
        "21-error-invalid-move.xml",
        room(RoomData::Error {
            message: texts.room_error,
            original_message: Some(GameMove::from(mv)),
        }),
    );
    check_server_vector(
        "22-result-rule-violation.xml",
        room(RoomData::Result(result(
            &game,
            Some((ScoreCause::RuleViolation, texts.reason)),
        ))),
    );
}

#[test]
fn a_departure_result() {
    let reason = games::dialect(GAME)
        .texts
        .left(BOB, LeaveCause::LostConnection);
    check_server_vector(
        "24-result-left.xml",
        room(RoomData::Result(result(
            &game_after(1),
            Some((ScoreCause::Left, reason)),
        ))),
    );
}

#[test]
fn a_timeout_result_names_the_winner_unlike_the_official_server() {
    // The official 22.x server names no winner after a timeout; Spielleiter
    // does (decisions.md §6). Apart from `<winner>` the result is the
    // vector's.
    let reason = games::dialect(GAME)
        .texts
        .timeout(BOB, TimeLimit::Soft, 2, 10);
    let ours = room(RoomData::Result(result(
        &game_after(1),
        Some((ScoreCause::SoftTimeout, reason)),
    )));
    let official = packet(&file("23-result-soft-timeout.xml"));
    assert_eq!(
        ours.to_xml(),
        official.replace(
            "    </scores>\n  </data>",
            "    </scores>\n    <winner team=\"ONE\"/>\n  </data>"
        )
    );
    // The official form still reads, as a result without a winner.
    let ServerMessage::Room {
        data: RoomData::Result(read),
        ..
    } = decode_server("23-result-soft-timeout.xml")
    else {
        panic!("a result");
    };
    assert!(read.winners.is_empty());
    assert_eq!(read.scores[1].cause, ScoreCause::SoftTimeout);
}
