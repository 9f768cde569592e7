//! The Blokus 2027 examples (`tests/vectors/season-2027/`, copied from the
//! shared protocol notes): every file decodes to the value it stands for,
//! built here from the rules and the season's texts, and that value
//! encodes back to the file byte for byte.

use spielleiter_protocol::{
    ClientMessage, FrameDecoder, GameMove, GameResult, GameState, GameType, PlayerScore, RoomData,
    ScoreCause, ServerMessage, StreamEvent,
    dialect::{Player, TimeLimit},
    games::blokus2027::SEASON_2027,
    games::{
        blokus::{WireMove, mistake_move_description},
        blokus2027::{self, State},
    },
    result::SeatResult,
};
use spielleiter_rules::{
    PlayerSet,
    blokus::{Blokus2027, Color, Mistake, Move, PieceKind, Placement, Rotation},
};
use tokio_util::codec::Decoder;

use crate::util::{packet, placement, vector};

const ROOM: &str = "7d0c9a55-2f1e-4b3a-9c8d-1e2f3a4b5c6d";

fn file(name: &str) -> String {
    format!("season-2027/{name}")
}

fn room(data: RoomData) -> ServerMessage {
    ServerMessage::Room {
        room_id: ROOM.into(),
        data,
    }
}

/// Decodes the server→client file `name` as a 2027 packet, compares it
/// with `expected`, and checks that `expected` encodes to the file.
fn check_server(name: &str, expected: &ServerMessage) {
    let text = packet(&file(name));
    let decoded = ServerMessage::decode(text.as_bytes(), GameType::Blokus2027)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(&decoded, expected, "{name} decodes");
    assert_eq!(expected.to_xml(), text, "{name} encodes");
}

/// The same for a client→server file.
fn check_client(name: &str, expected: &ClientMessage) {
    let text = packet(&file(name));
    let decoded = ClientMessage::decode(text.as_bytes(), Some(GameType::Blokus2027))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(&decoded, expected, "{name} decodes");
    assert_eq!(expected.to_xml(), text, "{name} encodes");
}

fn v(color: Color, rotation: Rotation, x: i32, y: i32) -> Placement {
    placement(color, PieceKind::PentoV, rotation, x, y)
}

/// The README's game: start piece `PENTO_V`, the first `moves` of BLUE at
/// (0,0), YELLOW `RIGHT` at (17,0), RED `MIRROR` at (17,17) and GREEN at
/// (8,17) on the bottom edge, played by the 2027 rules.
fn game_after(moves: usize) -> Blokus2027 {
    let mut game = Blokus2027::new(PieceKind::PentoV);
    let opening = [
        v(Color::Blue, Rotation::None, 0, 0),
        v(Color::Yellow, Rotation::Right, 17, 0),
        v(Color::Red, Rotation::Mirror, 17, 17),
        v(Color::Green, Rotation::None, 8, 17),
    ];
    for placement in &opening[..moves] {
        game.play(&Move::Set(*placement)).expect("legal in 2027");
    }
    game
}

fn memento(game: &Blokus2027) -> ServerMessage {
    room(RoomData::Memento(GameState::from(State {
        setup: game.to_setup(),
    })))
}

fn play(mv: WireMove) -> ClientMessage {
    ClientMessage::Move {
        room_id: ROOM.into(),
        mv: GameMove::Blokus2027(mv),
    }
}

#[test]
fn the_client_opens_and_joins_the_2027_game() {
    let text = vector(&file("00-client-open-and-join.txt"));
    let mut decoder = FrameDecoder::new();
    let mut buf = bytes::BytesMut::from(text.as_bytes());
    let Ok(Some(StreamEvent::Frame(frame))) = decoder.decode(&mut buf) else {
        panic!("a join packet");
    };
    let join = ClientMessage::Join {
        game_type: Some(GameType::Blokus2027.id().into()),
    };
    let decoded = ClientMessage::decode(frame.as_bytes(), None).expect("a join");
    assert_eq!(decoded, join);
    assert_eq!(text.lines().nth(1), Some(join.to_xml().as_str()));
}

#[test]
fn lobby_and_room_orchestration() {
    check_server(
        "01-server-joined.xml",
        &ServerMessage::Joined {
            room_id: ROOM.into(),
        },
    );
    check_server("02-welcome-ONE.xml", &room(RoomData::Welcome { seat: 0 }));
    check_server(
        "04-moveRequest.xml",
        &room(RoomData::MoveRequest(SEASON_2027.move_request)),
    );
    check_server(
        "11-left.xml",
        &ServerMessage::Left {
            room_id: ROOM.into(),
        },
    );
}

#[test]
fn mementos_are_the_positions_of_the_rules() {
    check_server("03-memento-turn0-initial.xml", &memento(&game_after(0)));
    check_server("06-memento-turn1.xml", &memento(&game_after(1)));
    check_server("07-memento-turn4-round2.xml", &memento(&game_after(4)));
}

#[test]
fn moves() {
    check_client(
        "05-client-setmove-turn0.xml",
        &play(WireMove::Set(v(Color::Blue, Rotation::None, 0, 0))),
    );
    check_client(
        "08-client-skipmove.xml",
        &play(WireMove::Skip(Some(Color::Red))),
    );
    check_client(
        "20-client-setmove-not-on-border-turn1.xml",
        &play(WireMove::Set(v(Color::Yellow, Rotation::None, 8, 8))),
    );
}

const ALICE: Player<'static> = Player {
    seat: 0,
    display_name: "alice",
};
const BOB: Player<'static> = Player {
    seat: 1,
    display_name: "bob",
};

/// YELLOW's first piece off the border (file 20), refused by the rules;
/// its texts in the 2027 season.
fn off_the_border() -> (WireMove, spielleiter_protocol::dialect::ViolationTexts) {
    let mv = WireMove::Set(v(Color::Yellow, Rotation::None, 8, 8));
    let WireMove::Set(placement) = mv else {
        unreachable!()
    };
    let mistake = game_after(1)
        .play(&Move::Set(placement))
        .expect_err("off the border");
    assert_eq!(mistake, Mistake::NotOnBorder);
    let described = mistake_move_description(mistake, &mv);
    let texts = SEASON_2027.texts.rule_violation(
        BOB,
        blokus2027::mistake_text(mistake),
        described.as_deref(),
    );
    (mv, texts)
}

#[test]
fn the_room_error_of_a_first_piece_off_the_border() {
    let (mv, texts) = off_the_border();
    assert_eq!(texts.error_packet, None, "2027 sends no errorpacket");
    check_server(
        "21-error-not-on-border.xml",
        &room(RoomData::Error {
            message: texts.room_error,
            original_message: Some(GameMove::Blokus2027(mv)),
        }),
    );
}

/// A result as the server builds it (`GameResult::of_game`), for players
/// alice (team ONE) and bob (team TWO) with these points.
fn result(
    points: [i64; 2],
    winners: &[usize],
    offender: Option<(ScoreCause, String)>,
) -> GameResult {
    let winners: PlayerSet = winners.iter().copied().collect();
    let seats: Vec<SeatResult<'_>> = ["alice", "bob"]
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let offends = offender.is_some() && seat == 1;
            let (cause, reason) = match &offender {
                Some((cause, reason)) if offends => (*cause, reason.clone()),
                _ => (ScoreCause::Regular, String::new()),
            };
            SeatResult {
                display_name: name,
                cause,
                reason,
                win_points: match (winners.contains(seat), winners.len()) {
                    (false, _) => 0,
                    (true, 1) => 2,
                    (true, _) => 1,
                },
                parts: &points[seat..=seat],
                offender: offends,
            }
        })
        .collect();
    GameResult::of_game(GameType::Blokus2027, &seats, winners, offender.is_none())
}

#[test]
fn results_as_the_server_builds_them() {
    check_server(
        "10-result-regular-win.xml",
        &room(RoomData::Result(result([131, 118], &[0], None))),
    );
    check_server(
        "12-result-draw.xml",
        &room(RoomData::Result(result([124, 124], &[0, 1], None))),
    );
    let (_, violation) = off_the_border();
    check_server(
        "22-result-rule-violation.xml",
        &room(RoomData::Result(result(
            [5, 0],
            &[0],
            Some((ScoreCause::RuleViolation, violation.reason)),
        ))),
    );
    let late = SEASON_2027.texts.timeout(BOB, TimeLimit::Soft, 2, 10);
    check_server(
        "23-result-soft-timeout.xml",
        &room(RoomData::Result(result(
            [5, 0],
            &[0],
            Some((ScoreCause::SoftTimeout, late)),
        ))),
    );
}

#[test]
fn a_decoded_result_keeps_what_the_layout_leaves_out() {
    // The 2027 layout writes no causes and no winner team on a draw; the
    // decoder restores them from the conclusion, so a server's result
    // reads back as it was built.
    let left = SEASON_2027.texts.left(
        BOB,
        spielleiter_protocol::dialect::LeaveCause::LostConnection,
    );
    let original = result([5, 0], &[0], Some((ScoreCause::Left, left)));
    let message = room(RoomData::Result(original));
    let decoded =
        ServerMessage::decode(message.to_xml().as_bytes(), GameType::Blokus2027).expect("decodes");
    assert_eq!(decoded, message);
    let ServerMessage::Room {
        data: RoomData::Result(GameResult { scores, .. }),
        ..
    } = decoded
    else {
        unreachable!()
    };
    let bob: &PlayerScore = &scores[1];
    assert_eq!(bob.cause, ScoreCause::Left);
    assert_eq!(bob.reason, "bob hat das Spiel verlassen: LOST_CONNECTION");
    // And the regular winner is named by the season's win reason.
    let win = SEASON_2027
        .texts
        .conclusion(true, None, &[ALICE])
        .expect("2027 states how a game ended");
    assert_eq!(win.reason, "alice hat am meisten Punkte erzielt.");
}
