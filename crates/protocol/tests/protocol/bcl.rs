//! `blokus_bcl` on the wire: moves, states and results encode byte for
//! byte as `protocol/README.md` shows them and decode back; states read
//! back to the same game over whole random games; malformed moves are
//! refused with typed errors; the texts name the seed's codes.

use spielleiter_protocol::{
    ClientMessage, DecodeError, GameMove, GameResult, GameState, GameType, MoveError, RoomData,
    ScoreCause, SeatResult, ServerMessage,
    dialect::{Player, TimeLimit},
    games::{
        self,
        bcl::{WireMove, WirePlace, mistake_text},
    },
};
use spielleiter_rules::{
    AnyGame, Game, PlayerSet,
    blokus::bcl::{Bcl, BclFlip, BclKind, BclMistake, BclMove, BclRotation},
};

const ROOM: &str = "8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f";
const GAME: GameType = GameType::BlokusBcl;

/// The opening of the README's examples (a random game of the rules'
/// perft file): three blocks each.
pub const OPENING: [&str; 6] = [
    "ONE BOOMERANG SINGLE NONE 2 0",
    "TWO 9,9",
    "ONE CROWBAR DOUBLE HORIZONTAL 4 1",
    "TWO 5,8 5,9 6,8 6,9 7,8 8,8",
    "ONE HANDGUN DOUBLE HORIZONTAL 6 0",
    "TWO 7,6 8,6 9,6 9,7",
];

/// The game after [`OPENING`].
pub fn opening() -> Bcl {
    let mut game = Bcl::new();
    for line in OPENING {
        let mv: BclMove = line.parse().expect("a move line");
        game.play(&mv).expect("a legal move");
    }
    game
}

/// The README's placement: ONE's SHOTGUN turned once, its box's
/// bottom-left cell on (3, 0).
pub fn shotgun() -> WireMove {
    WireMove::Place(WirePlace {
        kind: BclKind::Shotgun,
        rotation: BclRotation::Single,
        flip: BclFlip::None,
        row: 3,
        col: 0,
    })
}

fn move_message(mv: WireMove) -> ClientMessage {
    ClientMessage::Move {
        room_id: ROOM.into(),
        mv: GameMove::BlokusBcl(mv),
    }
}

fn decode_client(xml: &str) -> ClientMessage {
    ClientMessage::decode(xml.as_bytes(), Some(GAME)).expect("decodes")
}

#[test]
fn moves_encode_byte_for_byte_and_decode_back() {
    let place = move_message(shotgun());
    let xml = place.to_xml();
    assert_eq!(
        xml,
        "<room roomId=\"8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f\">\n  <data class=\"bcl.PlaceTo\">\n    <block kind=\"SHOTGUN\" rotation=\"SINGLE\" flip=\"NONE\"/>\n    <start row=\"3\" col=\"0\"/>\n  </data>\n</room>"
    );
    assert_eq!(decode_client(&xml), place);
    let pass = move_message(WireMove::Pass);
    let xml = pass.to_xml();
    assert_eq!(
        xml,
        "<room roomId=\"8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f\">\n  <data class=\"bcl.Pass\"/>\n</room>"
    );
    assert_eq!(decode_client(&xml), pass);
    // Attributes in any order, unknown children and attributes ignored.
    let lenient = "<room roomId=\"r\"><data class=\"bcl.PlaceTo\"><start col=\"0\" row=\"3\" x=\"1\"/><note/><block flip=\"NONE\" kind=\"SHOTGUN\" rotation=\"SINGLE\"/></data></room>";
    assert_eq!(
        decode_client(lenient),
        ClientMessage::Move {
            room_id: "r".into(),
            mv: GameMove::BlokusBcl(shotgun()),
        }
    );
    // The moves of another game are no moves of this one.
    assert!(matches!(
        decode_client(
            "<room roomId=\"r\"><data class=\"move\"><from x=\"0\" y=\"0\"/><to x=\"1\" y=\"1\"/></data></room>"
        ),
        ClientMessage::RoomWithoutMove { .. }
    ));
}

#[test]
fn malformed_placements_are_refused_with_the_reason() {
    let cases: [(&str, MoveError); 5] = [
        (
            "<block kind=\"SHOTGUN\" rotation=\"SINGLE\" flip=\"NONE\"/>",
            MoveError::MissingElement { element: "start" },
        ),
        (
            "<start row=\"3\" col=\"0\"/>",
            MoveError::MissingElement { element: "block" },
        ),
        (
            "<block kind=\"SHOTGUN\" flip=\"NONE\"/><start row=\"3\" col=\"0\"/>",
            MoveError::MissingAttribute {
                element: "block",
                attribute: "rotation",
            },
        ),
        (
            "<block kind=\"PENTO_X\" rotation=\"NONE\" flip=\"NONE\"/><start row=\"3\" col=\"0\"/>",
            MoveError::UnknownName {
                what: "block kind",
                value: "PENTO_X".into(),
            },
        ),
        (
            "<block kind=\"DOT\" rotation=\"NONE\" flip=\"NONE\"/><start row=\"3\" col=\"zero\"/>",
            MoveError::InvalidCoordinate {
                value: "zero".into(),
            },
        ),
    ];
    for (content, expected) in cases {
        let xml = format!("<room roomId=\"r\"><data class=\"bcl.PlaceTo\">{content}</data></room>");
        match ClientMessage::decode(xml.as_bytes(), Some(GAME)) {
            Err(DecodeError::MalformedMove(error)) => assert_eq!(error, expected, "{content}"),
            other => panic!("{content}: {other:?}"),
        }
    }
}

#[test]
fn a_memento_encodes_byte_for_byte() {
    let state = GameState::of_game(&AnyGame::BlokusBcl(opening()), &["alice", ""]);
    let xml = ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Memento(state.clone()),
    }
    .to_xml();
    let expected = r#"<room roomId="8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f">
  <data class="memento">
    <state class="bcl.State" turn="6">
      <player team="ONE" name="alice" status="IN_GAME">
        <blocks>SQUARE SQUARE SHOTGUN WORM WORM CHAIR CROSS STICK DOT</blocks>
      </player>
      <player team="TWO" status="IN_GAME">
        <blocks>SQUARE SQUARE WORM WORM CROWBAR CHAIR CROSS BOOMERANG STICK</blocks>
      </player>
      <board>
        <row>111.......</row>
        <row>..1.......</row>
        <row>..1.......</row>
        <row>.1........</row>
        <row>.11111....</row>
        <row>1.......22</row>
        <row>111.....22</row>
        <row>......2.2.</row>
        <row>......2.2.</row>
        <row>......22.2</row>
      </board>
      <lastMove class="bcl.PlaceTo">
        <block kind="HANDGUN" rotation="TRIPLE" flip="NONE"/>
        <start row="9" col="6"/>
      </lastMove>
    </state>
  </data>
</room>"#;
    assert_eq!(xml, expected);
    let decoded = ServerMessage::decode(xml.as_bytes(), GAME).expect("decodes");
    let ServerMessage::Room {
        data: RoomData::Memento(read),
        ..
    } = decoded
    else {
        panic!("a memento: {decoded:?}");
    };
    assert_eq!(read, state);
    assert_eq!(read.display_names(), ["alice", ""]);
    assert_eq!(
        read.to_game().expect("consistent"),
        AnyGame::BlokusBcl(opening())
    );
}

#[test]
fn states_of_whole_random_games_read_back_to_the_same_game() {
    let mut rng = rand_pcg::Pcg64Mcg::new(15);
    let mut out_reasons = [0; 2];
    for _ in 0..20 {
        let mut game = Bcl::new();
        loop {
            let state = GameState::of_game(&AnyGame::BlokusBcl(game.clone()), &["a", "b"]);
            let xml = ServerMessage::Room {
                room_id: ROOM.into(),
                data: RoomData::Memento(state.clone()),
            }
            .to_xml();
            let Ok(ServerMessage::Room {
                data: RoomData::Memento(read),
                ..
            }) = ServerMessage::decode(xml.as_bytes(), GAME)
            else {
                panic!("a memento: {xml}");
            };
            assert_eq!(read, state);
            assert_eq!(read.to_game(), Ok(AnyGame::BlokusBcl(game.clone())));
            if game.is_over() {
                for (seat, reason) in out_reasons.iter_mut().enumerate() {
                    if Game::regular_reason(&game, seat) == "OUT_OF_BLOCK" {
                        assert!(xml.contains("status=\"OUT_OF_BLOCK\""));
                        *reason += 1;
                    }
                }
                assert!(!xml.contains("IN_GAME"), "{xml}");
                break;
            }
            let place = game.random_placement(&mut rng).expect("not over");
            game.play(&BclMove::Place(place)).expect("legal");
        }
    }
    // Random games end mostly by OUT_OF_SPACE; the status is written either
    // way (counted only to show the test saw games end).
    let _ = out_reasons;
}

#[test]
fn inconsistent_states_are_refused() {
    let state = GameState::of_game(&AnyGame::BlokusBcl(opening()), &["", ""]);
    let xml = ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Memento(state),
    }
    .to_xml();
    // A field of TWO turned into ONE's: the cells no longer match the
    // blocks placed.
    let broken = xml.replacen("<row>......22.2</row>", "<row>......21.2</row>", 1);
    let Ok(ServerMessage::Room {
        data: RoomData::Memento(read),
        ..
    }) = ServerMessage::decode(broken.as_bytes(), GAME)
    else {
        panic!("decodes");
    };
    assert!(read.to_game().is_err());
    // A row of the wrong length, an unknown status: decode errors.
    for bad in [
        xml.replacen("<row>111.......</row>", "<row>111......</row>", 1),
        xml.replacen("status=\"IN_GAME\"", "status=\"SLEEPING\"", 1),
        xml.replacen("<blocks>SQUARE", "<blocks>PENTO_X", 1),
    ] {
        assert!(
            ServerMessage::decode(bad.as_bytes(), GAME).is_err(),
            "{bad}"
        );
    }
}

/// The second player.
const BOB: Player<'static> = Player {
    seat: 1,
    display_name: "bob",
};

/// The texts a refused `mv` of `offender` with `mistake` gets.
fn violation(offender: Player<'_>, mistake: BclMistake, mv: WireMove) -> String {
    let (text, description) =
        GameMove::BlokusBcl(mv).mistake_texts(spielleiter_rules::AnyMistake::BlokusBcl(mistake));
    let texts = games::dialect(GAME)
        .texts
        .rule_violation(offender, text, description.as_deref());
    assert_eq!(texts.room_error, texts.reason);
    assert_eq!(texts.error_packet, None);
    texts.reason
}

#[test]
fn a_disqualification_names_the_seeds_code() {
    assert_eq!(
        violation(BOB, BclMistake::Overlap, shotgun()),
        "bob is disqualified: OVERLAP: the block would cover an occupied field (place_to(SHOTGUN SINGLE NONE, row 3, col 0))"
    );
    assert!(violation(BOB, BclMistake::OutOfStage, shotgun()).contains(": OUT_OF_STAGE: "));
    for mistake in [
        BclMistake::NotOnStartCorner,
        BclMistake::EdgeContact,
        BclMistake::NoCornerContact,
    ] {
        assert!(mistake_text(mistake).starts_with(mistake.name()));
        assert!(violation(BOB, mistake, shotgun()).contains("(corner rule)"));
    }
    assert!(
        violation(BOB, BclMistake::PassWhilePlacementExists, WireMove::Pass)
            .ends_with("there is no pass while a block can be placed (pass)")
    );
    let late = games::dialect(GAME).texts.timeout(
        Player {
            seat: 0,
            display_name: "",
        },
        TimeLimit::Soft,
        5,
        10,
    );
    assert_eq!(
        late,
        "ONE is disqualified: the move came later than 5 s after the request"
    );
}

/// The result of a regular end of `game` as the server builds it.
fn regular_result(game: &Bcl, names: [&str; 2]) -> GameResult {
    let any = AnyGame::BlokusBcl(game.clone());
    let winners = any.winners();
    let parts: Vec<_> = (0..2).map(|seat| any.score(seat)).collect();
    let seats: Vec<SeatResult<'_>> = (0..2)
        .map(|seat| SeatResult {
            display_name: names[seat],
            cause: ScoreCause::Regular,
            reason: any.regular_reason(seat).to_owned(),
            win_points: match (winners.contains(seat), winners.len()) {
                (false, _) => 0,
                (true, 1) => 2,
                (true, _) => 1,
            },
            parts: parts[seat].as_slice(),
            offender: false,
        })
        .collect();
    GameResult::of_game(GAME, &seats, winners, true)
}

/// A whole game of uniformly random placements (TWO wins 36 to 30, both
/// out of space).
pub fn random_game() -> Bcl {
    let mut rng = rand_pcg::Pcg64Mcg::new(2);
    let mut game = Bcl::new();
    while let Some(place) = game.random_placement(&mut rng) {
        game.play(&BclMove::Place(place)).expect("legal");
    }
    game
}

#[test]
fn a_regular_result_says_why_in_the_seeds_terms() {
    let game = random_game();
    assert_eq!(game.winners(), PlayerSet::single(1));
    let result = regular_result(&game, ["alice", "bob"]);
    let xml = ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Result(result.clone()),
    }
    .to_xml();
    assert_eq!([0, 1].map(|seat| game.score(seat).as_slice()[0]), [30, 36]);
    let expected = r#"<room roomId="8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f">
  <data class="result">
    <definition>
      <fragment name="Win points">
        <aggregation>SUM</aggregation>
        <relevantForRanking>true</relevantForRanking>
      </fragment>
      <fragment name="Cells">
        <aggregation>AVERAGE</aggregation>
        <relevantForRanking>true</relevantForRanking>
      </fragment>
    </definition>
    <scores>
      <entry>
        <player name="alice" team="ONE"/>
        <score cause="REGULAR" reason="OUT_OF_SPACE">
          <part>0</part>
          <part>30</part>
        </score>
      </entry>
      <entry>
        <player name="bob" team="TWO"/>
        <score cause="REGULAR" reason="OUT_OF_SPACE">
          <part>2</part>
          <part>36</part>
        </score>
      </entry>
    </scores>
    <winner team="TWO"/>
  </data>
</room>"#;
    assert_eq!(xml, expected);
    let Ok(ServerMessage::Room {
        data: RoomData::Result(read),
        ..
    }) = ServerMessage::decode(xml.as_bytes(), GAME)
    else {
        panic!("a result");
    };
    assert_eq!(read, result);
}

/// The fence of a `blokus_bcl` example of `protocol/README.md` that is no
/// XML (the block pictures); `None` for the others.
pub fn fence(name: &str) -> Option<&'static str> {
    (name == "bcl-blocks").then_some("text")
}

/// The `blokus_bcl` examples of `protocol/README.md` (see `docs.rs`).
pub fn example(name: &str) -> String {
    let room = |data| {
        ServerMessage::Room {
            room_id: ROOM.into(),
            data,
        }
        .to_xml()
    };
    match name {
        "bcl-join" => ClientMessage::Join {
            game_type: Some(GAME.id().into()),
        }
        .to_xml(),
        "bcl-memento" => room(RoomData::Memento(GameState::of_game(
            &AnyGame::BlokusBcl(opening()),
            &["alice", ""],
        ))),
        "bcl-move-request" => room(RoomData::MoveRequest(games::dialect(GAME).move_request)),
        "bcl-place-to" => move_message(shotgun()).to_xml(),
        "bcl-pass" => move_message(WireMove::Pass).to_xml(),
        "bcl-result" => room(RoomData::Result(regular_result(
            &random_game(),
            ["alice", "bob"],
        ))),
        "bcl-disqualified" => {
            // alice (ONE, on turn) puts a DOT on TWO's start corner.
            let dot = WireMove::Place(WirePlace {
                kind: BclKind::Dot,
                rotation: BclRotation::None,
                flip: BclFlip::None,
                row: 9,
                col: 9,
            });
            let alice = Player {
                seat: 0,
                display_name: "alice",
            };
            let mut game = opening();
            assert_eq!(game.play(&dot.resolve(&game)), Err(BclMistake::Overlap));
            let reason = violation(alice, BclMistake::Overlap, dot);
            let game = AnyGame::BlokusBcl(game);
            let parts: Vec<_> = (0..2).map(|seat| game.score(seat)).collect();
            let seats = [
                SeatResult {
                    display_name: "alice",
                    cause: ScoreCause::RuleViolation,
                    reason: reason.clone(),
                    win_points: 0,
                    parts: parts[0].as_slice(),
                    offender: true,
                },
                SeatResult {
                    display_name: "bob",
                    cause: ScoreCause::Regular,
                    reason: String::new(),
                    win_points: 2,
                    parts: parts[1].as_slice(),
                    offender: false,
                },
            ];
            [
                room(RoomData::Error {
                    message: reason,
                    original_message: Some(GameMove::BlokusBcl(dot)),
                }),
                room(RoomData::Result(GameResult::of_game(
                    GAME,
                    &seats,
                    PlayerSet::single(1),
                    false,
                ))),
                ServerMessage::Left {
                    room_id: ROOM.into(),
                }
                .to_xml(),
                ServerMessage::Close(games::dialect(GAME).close).to_xml(),
            ]
            .join("\n")
        }
        "bcl-blocks" => block_pictures(),
        other => panic!("protocol/README.md names an unknown example `{other}`"),
    }
}

/// Every block kind drawn from the rules' cells in the orientation `NONE`,
/// `NONE` (`#` a cell, rows from the top), with its count, size and number
/// of distinct orientations.
fn block_pictures() -> String {
    let mut out = Vec::new();
    for kind in BclKind::ALL {
        let mut orientations = Vec::new();
        for rotation in BclRotation::ALL {
            for flip in BclFlip::ALL {
                let shape = kind.shape(rotation, flip);
                if !orientations.contains(&shape) {
                    orientations.push(shape);
                }
            }
        }
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let mut text = format!(
            "{} ({}, {}, {})",
            kind.name(),
            plural(kind.count() as usize, "block"),
            plural(kind.size() as usize, "cell"),
            plural(orientations.len(), "orientation"),
        );
        let shape = kind.shape(BclRotation::None, BclFlip::None);
        let (width, height) = shape.extent();
        for y in 0..height {
            text.push('\n');
            for x in 0..width {
                let cell = (
                    i8::try_from(x).expect("small"),
                    i8::try_from(y).expect("small"),
                );
                text.push(if shape.cells().contains(&cell) {
                    '#'
                } else {
                    '.'
                });
            }
        }
        out.push(text);
    }
    out.join("\n\n")
}

#[test]
fn the_block_pictures_are_the_seeds_blocks() {
    let pictures = block_pictures();
    // 12 blocks of 51 cells per player, CROSS the 5-cell plus.
    assert!(pictures.contains("CROSS (1 block, 5 cells, 1 orientation)\n.#.\n###\n.#."));
    assert!(pictures.contains("SQUARE (2 blocks, 4 cells, 1 orientation)\n##\n##"));
    assert!(pictures.contains("SHOTGUN (1 block, 6 cells, 8 orientations)\n####\n##.."));
    let blocks: u32 = BclKind::ALL.iter().map(|k| k.count()).sum();
    let cells: u32 = BclKind::ALL.iter().map(|k| k.count() * k.size()).sum();
    assert_eq!((blocks, cells), (12, 51));
    assert_eq!(pictures.matches('#').count(), 42);
}

#[test]
fn a_draw_reads_back_with_both_winners() {
    // The first listed placement every turn: both end with equal cells.
    let mut game = Bcl::new();
    let mut moves = spielleiter_rules::blokus::bcl::BclMoveList::new();
    while !game.is_over() {
        game.legal_moves(&mut moves);
        let place = moves.get(0).expect("the player on turn can place");
        game.play(&BclMove::Place(place)).expect("legal");
    }
    assert_eq!(game.winners(), PlayerSet::first(2));
    let result = regular_result(&game, ["alice", "bob"]);
    let xml = ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Result(result.clone()),
    }
    .to_xml();
    // The 2022 layout names no winner on a draw; the win points tell it.
    assert!(!xml.contains("<winner"), "{xml}");
    let Ok(ServerMessage::Room {
        data: RoomData::Result(read),
        ..
    }) = ServerMessage::decode(xml.as_bytes(), GAME)
    else {
        panic!("a result");
    };
    assert_eq!(read, result);
    assert_eq!(read.winners.len(), 2);
}
