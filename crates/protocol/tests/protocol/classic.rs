//! Classic Blokus on the wire (`blokus_classic`, `_3`, `_2`): the README's
//! examples (built here from real games of the rules), and states, moves
//! and results of random games that encode, decode and encode again byte
//! for byte.

use spielleiter_protocol::{
    ClientMessage, GameMove, GameResult, GameState, GameType, RoomData, ScoreCause, ServerMessage,
    games::blokus_classic::{self, State},
    result::SeatResult,
    room_texts,
};
use spielleiter_rules::{
    AnyGame, Game, PlayerSet,
    blokus::{
        Classic, ClassicMistake, ClassicPlayers, Color, Move, MoveList, PieceKind, Placement,
        Rotation,
    },
};

use crate::util::{frames, placement};

/// The four names of the examples, in seat order.
const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

fn room(room_id: &str, data: RoomData) -> String {
    ServerMessage::Room {
        room_id: room_id.into(),
        data,
    }
    .to_xml()
}

fn memento(game: &Classic, room_id: &str) -> String {
    let names = &NAMES[..game.player_count()];
    let any = any_game(game.clone());
    room(room_id, RoomData::Memento(GameState::of_game(&any, names)))
}

fn any_game(game: Classic) -> AnyGame {
    match game.players() {
        ClassicPlayers::Four => AnyGame::BlokusClassic(game),
        ClassicPlayers::Three => AnyGame::BlokusClassic3(game),
        ClassicPlayers::Two => AnyGame::BlokusClassic2(game),
    }
}

fn wire(game_type: GameType, mv: Move) -> GameMove {
    GameMove::from(match game_type {
        GameType::BlokusClassic => spielleiter_rules::AnyMove::BlokusClassic(mv),
        GameType::BlokusClassic3 => spielleiter_rules::AnyMove::BlokusClassic3(mv),
        _ => spielleiter_rules::AnyMove::BlokusClassic2(mv),
    })
}

/// The first pieces of the README's game: each colour a `PENTO_V` on its
/// own corner, then BLUE's `TETRO_O`.
fn opening() -> [Placement; 5] {
    [
        placement(Color::Blue, PieceKind::PentoV, Rotation::None, 0, 0),
        placement(Color::Yellow, PieceKind::PentoV, Rotation::Right, 17, 0),
        placement(Color::Red, PieceKind::PentoV, Rotation::Mirror, 17, 17),
        placement(Color::Green, PieceKind::PentoV, Rotation::Left, 0, 17),
        placement(Color::Blue, PieceKind::TetroO, Rotation::None, 3, 3),
    ]
}

/// A game of `players` after the first `moves` of [`opening`].
fn opened(players: ClassicPlayers, moves: usize) -> Classic {
    let mut game = Classic::new(players);
    for p in &opening()[..moves] {
        game.play(&Move::Set(*p)).expect("the opening is legal");
    }
    game
}

/// The seats of a result as the server builds them from a game.
fn regular_result(game: &Classic) -> GameResult {
    let any = any_game(game.clone());
    let winners = any.winners();
    let parts: Vec<_> = (0..any.player_count()).map(|s| any.score(s)).collect();
    let seats: Vec<SeatResult<'_>> = (0..any.player_count())
        .map(|seat| SeatResult {
            display_name: NAMES[seat],
            cause: ScoreCause::Regular,
            reason: String::new(),
            win_points: match (winners.contains(seat), winners.len()) {
                (false, _) => 0,
                (true, 1) => 2,
                (true, _) => 1,
            },
            parts: parts[seat].as_slice(),
            offender: false,
        })
        .collect();
    GameResult::of_game(any.game_type(), &seats, winners, true)
}

/// A complete game of `players`: every colour places its largest piece
/// that fits, the first of the move list (deterministic).
fn played_out(players: ClassicPlayers) -> Classic {
    let mut game = Classic::new(players);
    let mut moves = MoveList::new();
    while !game.is_over() {
        game.legal_moves(&mut moves);
        let best = moves
            .iter()
            .max_by_key(|p| (p.kind.size(), core::cmp::Reverse(p.y), p.x))
            .expect("a colour on turn can place");
        game.play(&Move::Set(best)).expect("legal");
    }
    game
}

/// The README's classic examples (see `docs.rs`).
pub fn example(name: &str, room_id: &str) -> String {
    match name {
        "classic-join" => ClientMessage::Join {
            game_type: Some(GameType::BlokusClassic3.id().into()),
        }
        .to_xml(),
        "classic-welcome" => room(room_id, RoomData::Welcome { seat: 3 }),
        "classic-memento-initial" => memento(&Classic::new(ClassicPlayers::Four), room_id),
        "classic-memento" => memento(&opened(ClassicPlayers::Three, 5), room_id),
        "classic-set-move" => ClientMessage::Move {
            room_id: room_id.into(),
            mv: wire(
                GameType::BlokusClassic3,
                Move::Set(placement(
                    Color::Yellow,
                    PieceKind::PentoL,
                    Rotation::Right,
                    14,
                    3,
                )),
            ),
        }
        .to_xml(),
        "classic-result" => room(
            room_id,
            RoomData::Result(regular_result(&played_out(ClassicPlayers::Four))),
        ),
        "classic-rule-violation" => {
            // YELLOW's first piece on BLUE's corner.
            let game = any_game(Classic::new(ClassicPlayers::Two));
            let mut game = game;
            game.play(&spielleiter_rules::AnyMove::BlokusClassic2(Move::Set(
                opening()[0],
            )))
            .expect("legal");
            let mv = wire(
                GameType::BlokusClassic2,
                Move::Set(placement(
                    Color::Yellow,
                    PieceKind::Mono,
                    Rotation::None,
                    0,
                    19,
                )),
            );
            let mistake = game
                .play(&mv.resolve(&game).expect("a classic move"))
                .expect_err("not YELLOW's corner");
            let (text, description) = mv.mistake_texts(mistake);
            assert_eq!(
                text,
                blokus_classic::mistake_text(ClassicMistake::NotInOwnCorner)
            );
            let reason = room_texts::rule_violation_reason(text, description.as_deref());
            let parts: Vec<_> = (0..2).map(|s| game.score(s)).collect();
            let seats = [
                SeatResult {
                    display_name: NAMES[0],
                    cause: ScoreCause::Regular,
                    reason: String::new(),
                    win_points: 2,
                    parts: parts[0].as_slice(),
                    offender: false,
                },
                SeatResult {
                    display_name: NAMES[1],
                    cause: ScoreCause::RuleViolation,
                    reason,
                    win_points: 0,
                    parts: parts[1].as_slice(),
                    offender: true,
                },
            ];
            [
                room(
                    room_id,
                    RoomData::Error {
                        message: room_texts::rule_violation_room_error(
                            NAMES[1],
                            text,
                            description.as_deref(),
                        ),
                        original_message: Some(mv),
                    },
                ),
                room(
                    room_id,
                    RoomData::Result(GameResult::of_game(
                        GameType::BlokusClassic2,
                        &seats,
                        PlayerSet::single(0),
                        false,
                    )),
                ),
            ]
            .join("\n")
        }
        other => panic!("no classic example `{other}`"),
    }
}

/// The XML of a packet decodes (as a server message of `game`) and encodes
/// back to the same bytes.
fn round_trips(xml: &str, game: GameType) -> ServerMessage {
    let decoded =
        ServerMessage::decode(xml.as_bytes(), game).unwrap_or_else(|e| panic!("{e}: {xml}"));
    assert_eq!(decoded.to_xml(), xml);
    decoded
}

#[test]
fn the_opening_covers_each_colours_own_corner() {
    let game = opened(ClassicPlayers::Four, 4);
    for color in Color::ALL {
        let (x, y) = Classic::start_corner(color);
        assert_eq!(game.color_at(x, y), Some(color));
    }
}

#[test]
fn states_of_random_games_round_trip_byte_for_byte() {
    for players in ClassicPlayers::ALL {
        let game_type = blokus_classic::game_type(players);
        let mut game = Classic::new(players);
        let mut moves = MoveList::new();
        let mut states = 0;
        loop {
            let xml = memento(&game, "r");
            let RoomData::Memento(state) = (match round_trips(&xml, game_type) {
                ServerMessage::Room { data, .. } => data,
                other => panic!("{other:?}"),
            }) else {
                panic!("a memento");
            };
            assert_eq!(state.game_type(), game_type);
            assert_eq!(state.display_names(), NAMES[..players.count()]);
            assert_eq!(state.to_game(), Ok(any_game(game.clone())));
            states += 1;
            if game.is_over() {
                break;
            }
            game.legal_moves(&mut moves);
            let pick = moves.get(states * 7 % moves.len()).expect("a move");
            let mv = wire(game_type, Move::Set(pick));
            // The move as a client sends it round-trips too.
            let sent = ClientMessage::Move {
                room_id: "r".into(),
                mv,
            }
            .to_xml();
            let back = ClientMessage::decode(sent.as_bytes(), Some(game_type)).expect("decodes");
            assert_eq!(back.to_xml(), sent);
            game.play(&Move::Set(pick)).expect("legal");
        }
        assert!(states > 40, "{players:?}: {states}");
    }
}

#[test]
fn a_state_names_every_player_and_no_start_piece() {
    let xml = example("classic-memento-initial", "r");
    assert!(!xml.contains("startPiece"));
    for (element, (seat, name)) in ["first", "second", "third", "fourth"]
        .into_iter()
        .zip(["ONE", "TWO", "THREE", "FOUR"].into_iter().zip(NAMES))
    {
        assert!(
            xml.contains(&format!(
                "<{element} displayName=\"{name}\">\n        <color class=\"team\">{seat}</color>"
            )),
            "{xml}"
        );
    }
    let three = example("classic-memento", "r");
    assert!(three.contains("<third displayName=\"carol\">"));
    assert!(!three.contains("<fourth"));
    // GREEN's first piece was seat ONE's.
    let GameState::BlokusClassic3(state) = (match round_trips(&three, GameType::BlokusClassic3) {
        ServerMessage::Room {
            data: RoomData::Memento(state),
            ..
        } => state,
        other => panic!("{other:?}"),
    }) else {
        panic!("a three-player state");
    };
    let State { setup, .. } = *state;
    assert_eq!(setup.turn, 5);
    assert_eq!(setup.players, ClassicPlayers::Three);
}

#[test]
fn results_name_every_winner_with_points_and_places() {
    for players in ClassicPlayers::ALL {
        let game = played_out(players);
        let result = regular_result(&game);
        let xml = room("r", RoomData::Result(result.clone()));
        let ServerMessage::Room {
            data: RoomData::Result(back),
            ..
        } = round_trips(&xml, blokus_classic::game_type(players))
        else {
            panic!("a result");
        };
        // The 2021 layout names the winners, not the scores.
        let mut expected = result.clone();
        for score in &mut expected.scores {
            score.display_name.clear();
        }
        assert_eq!(back, expected);
        let best = (0..players.count()).map(|s| game.points(s)).max();
        for (seat, score) in result.scores.iter().enumerate() {
            let parts: Vec<_> = score.parts.iter().map(|p| p.as_integer()).collect();
            let won = Some(game.points(seat)) == best;
            assert_eq!(
                parts[1..],
                [
                    Some(i64::from(game.points(seat))),
                    Some(i64::from(game.place(seat)))
                ]
            );
            assert_eq!(result.winners.iter().any(|w| w.seat == seat), won);
            assert_eq!(game.place(seat) == 1, won);
        }
    }
}

#[test]
fn readme_classic_examples_decode() {
    for (name, game) in [
        ("classic-memento-initial", GameType::BlokusClassic),
        ("classic-memento", GameType::BlokusClassic3),
        ("classic-result", GameType::BlokusClassic),
        ("classic-rule-violation", GameType::BlokusClassic2),
    ] {
        let text = format!("<protocol>{}</protocol>", example(name, "r"));
        for frame in frames(text.as_bytes()) {
            let xml = String::from_utf8(frame).expect("utf-8");
            round_trips(&xml, game);
        }
    }
    let xml = example("classic-set-move", "r");
    let back = ClientMessage::decode(xml.as_bytes(), Some(GameType::BlokusClassic3)).expect("move");
    assert_eq!(back.to_xml(), xml);
    // A 2021 move is no move of a classic room: the server refuses it as
    // a packet without a move.
    let old = xml.replace("blokus.classic.SetMove", "sc.plugin2021.SetMove");
    assert_eq!(
        ClientMessage::decode(old.as_bytes(), Some(GameType::BlokusClassic3)).ok(),
        Some(ClientMessage::RoomWithoutMove {
            room_id: "r".into(),
            data_class: Some("sc.plugin2021.SetMove".into()),
        })
    );
}
