//! Property tests: encode → decode is the identity for random messages, and
//! arbitrary bytes never panic the frame decoder nor grow its buffer past
//! the limit.

use bytes::BytesMut;
use proptest::{collection::vec, option, prelude::*};
use spielleiter_protocol::{
    Aggregation, ClientMessage, Decimal, FrameDecoder, GameMove, GameResult, GameState, GameType,
    PlayerScore, PlayerScoreReport, Prepare, RoomData, ScoreCause, ScoreFragment, ScoreValue,
    ServerMessage, ServerStreamEncoder, SlotDescriptor, StreamEvent, Winner,
    dialect::{CloseElement, MoveRequestClass, ResultLayout},
    games::blokus2021::{State, WireMove},
};
use spielleiter_rules::blokus::{
    BOARD_SIZE, ByColor, Color, ColorSet, Move, PieceKind, PieceSet, Placement, Rotation, Setup,
};
use tokio_util::codec::Decoder;

/// Text that survives XML: any characters except NUL (not representable in
/// XML 1.0) and lone CR handling is exercised through `&#xd;`.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 _.-]{0,12}",
        "[ -~äöüß∅\u{85}\t\n\r<>&'\"]{0,16}",
        any::<String>().prop_map(|s| s.replace('\0', "")),
    ]
}

fn color() -> impl Strategy<Value = Color> {
    prop::sample::select(Color::ALL.to_vec())
}

/// A seat of a Blokus 2021 room.
fn seat() -> impl Strategy<Value = usize> {
    0..GameType::Blokus2021.player_count()
}

fn placement() -> impl Strategy<Value = Placement> {
    (
        color(),
        prop::sample::select(PieceKind::ALL.to_vec()),
        prop::sample::select(Rotation::ALL.to_vec()),
        any::<bool>(),
        any::<i32>(),
        any::<i32>(),
    )
        .prop_map(|(color, kind, rotation, flipped, x, y)| Placement {
            color,
            kind,
            rotation,
            flipped,
            x,
            y,
        })
}

fn wire_move() -> impl Strategy<Value = WireMove> {
    prop_oneof![
        placement().prop_map(WireMove::Set),
        option::of(color()).prop_map(WireMove::Skip),
    ]
}

fn game_move() -> impl Strategy<Value = GameMove> {
    wire_move().prop_map(GameMove::Blokus2021)
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        (any::<u32>(), prop::sample::select(PieceKind::ALL.to_vec())),
        vec(0u32..(1 << 21), 4),
        0u8..16,
        vec(option::of(color()), BOARD_SIZE * BOARD_SIZE),
        option::of(prop_oneof![
            placement().prop_map(Move::Set),
            color().prop_map(Move::Skip)
        ]),
        vec(option::of(any::<bool>()), 4),
    )
        .prop_map(|((turn, start), remaining, valid, board, last, mono)| {
            let mut setup = Setup::new(start);
            setup.turn = turn;
            setup.remaining = ByColor::from_fn(|c| {
                PieceKind::ALL
                    .into_iter()
                    .filter(|k| remaining[c.index()] & (1 << k.index()) != 0)
                    .collect::<PieceSet>()
            });
            setup.valid_colors = Color::ALL
                .into_iter()
                .filter(|c| valid & (1 << c.index()) != 0)
                .collect::<ColorSet>();
            for (i, field) in board.into_iter().enumerate() {
                setup.board[i / BOARD_SIZE][i % BOARD_SIZE] = field;
            }
            setup.last_move = last;
            setup.last_move_mono = ByColor::from_fn(|c| mono[c.index()]);
            setup
        })
}

fn state() -> impl Strategy<Value = GameState> {
    (setup(), text(), text()).prop_map(|(setup, a, b)| {
        GameState::from(State {
            setup,
            display_names: [a, b],
        })
    })
}

fn decimal() -> impl Strategy<Value = Decimal> {
    (any::<i64>(), 0u8..=Decimal::MAX_SCALE).prop_map(|(u, s)| Decimal::new(u, s))
}

fn fragment() -> impl Strategy<Value = ScoreFragment> {
    (
        text(),
        prop::sample::select(vec![Aggregation::Sum, Aggregation::Average]),
        any::<bool>(),
    )
        .prop_map(|(name, aggregation, relevant_for_ranking)| ScoreFragment {
            name,
            aggregation,
            relevant_for_ranking,
        })
}

fn result() -> impl Strategy<Value = GameResult> {
    (
        vec(fragment(), 0..3),
        vec(
            (
                prop::sample::select(ScoreCause::ALL.to_vec()),
                text(),
                vec(decimal(), 0..3),
            )
                .prop_map(|(cause, reason, parts)| PlayerScore {
                    display_name: String::new(),
                    cause,
                    reason,
                    parts,
                }),
            0..3,
        ),
        vec(
            (text(), seat()).prop_map(|(display_name, seat)| Winner { display_name, seat }),
            0..3,
        ),
    )
        .prop_map(|(definition, scores, winners)| GameResult {
            layout: ResultLayout::Season2021,
            definition,
            scores,
            winners,
            conclusion: None,
        })
}

fn room_data() -> impl Strategy<Value = RoomData> {
    prop_oneof![
        seat().prop_map(|seat| RoomData::Welcome { seat }),
        state().prop_map(RoomData::Memento),
        prop::sample::select(MoveRequestClass::ALL.to_vec()).prop_map(RoomData::MoveRequest),
        (text(), option::of(game_move())).prop_map(|(message, original_message)| {
            RoomData::Error {
                message,
                original_message,
            }
        }),
        any::<bool>().prop_map(|paused| RoomData::Paused { paused }),
        result().prop_map(RoomData::Result),
        game_move().prop_map(RoomData::Move),
    ]
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z_][a-zA-Z0-9_.-]{0,10}"
}

fn client_message() -> impl Strategy<Value = ClientMessage> {
    prop_oneof![
        option::of(text()).prop_map(|game_type| ClientMessage::Join { game_type }),
        text().prop_map(|room_id| ClientMessage::JoinRoom { room_id }),
        text().prop_map(|reservation_code| ClientMessage::JoinPrepared { reservation_code }),
        (text(), game_move()).prop_map(|(room_id, mv)| ClientMessage::Move { room_id, mv }),
        (text(), option::of(name())).prop_map(|(room_id, data_class)| {
            ClientMessage::RoomWithoutMove {
                room_id,
                data_class,
            }
        }),
        text().prop_map(|password| ClientMessage::Authenticate { password }),
        (
            option::of(text()),
            any::<bool>(),
            vec(
                (option::of(text()), any::<bool>(), any::<bool>()).prop_map(
                    |(display_name, can_timeout, reserved)| SlotDescriptor {
                        display_name,
                        can_timeout,
                        reserved,
                    }
                ),
                0..4
            ),
            option::of(any::<u64>()),
            any::<bool>()
        )
            .prop_map(
                |(game_type, pause, slots, seed, wire_log)| ClientMessage::Prepare(Prepare {
                    seed,
                    wire_log,
                    game_type,
                    pause,
                    slots
                })
            ),
        text().prop_map(|room_id| ClientMessage::Observe { room_id }),
        (text(), any::<bool>())
            .prop_map(|(room_id, pause)| ClientMessage::Pause { room_id, pause }),
        (text(), any::<bool>())
            .prop_map(|(room_id, forced)| ClientMessage::Step { room_id, forced }),
        text().prop_map(|room_id| ClientMessage::Cancel { room_id }),
        any::<bool>().prop_map(|test_mode| ClientMessage::TestMode { test_mode }),
        text().prop_map(|display_name| ClientMessage::ScoreForPlayer { display_name }),
        Just(ClientMessage::Close),
        name()
            .prop_filter("not a known packet", |n| {
                ClientMessage::decode(format!("<{n}/>").as_bytes(), Some(GameType::Blokus2021))
                    .is_ok_and(|m| matches!(m, ClientMessage::Unknown { .. }))
            })
            .prop_map(|name| ClientMessage::Unknown { name }),
    ]
}

fn server_message() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        text().prop_map(|room_id| ServerMessage::Joined { room_id }),
        text().prop_map(|room_id| ServerMessage::Left { room_id }),
        text().prop_map(|room_id| ServerMessage::Observed { room_id }),
        (text(), any::<u32>()).prop_map(|(room_id, player_count)| {
            ServerMessage::JoinedGameRoom {
                room_id,
                player_count,
            }
        }),
        (text(), vec(text(), 0..3)).prop_map(|(room_id, reservations)| {
            ServerMessage::Prepared {
                room_id,
                reservations,
            }
        }),
        any::<bool>().prop_map(|test_mode| ServerMessage::Testing { test_mode }),
        (
            text(),
            any::<u32>(),
            vec(
                (fragment(), decimal())
                    .prop_map(|(fragment, value)| ScoreValue { fragment, value }),
                0..3
            )
        )
            .prop_map(|(display_name, number_of_tests, values)| {
                ServerMessage::PlayerScore(PlayerScoreReport {
                    display_name,
                    number_of_tests,
                    values,
                })
            }),
        (text(), option::of(client_message().prop_map(Box::new))).prop_map(
            |(message, original_request)| ServerMessage::ErrorPacket {
                message,
                original_request,
            }
        ),
        (text(), room_data()).prop_map(|(room_id, data)| ServerMessage::Room { room_id, data }),
        prop::sample::select(CloseElement::ALL.to_vec()).prop_map(ServerMessage::Close),
    ]
}

/// Text of the `<reservation>`, `<shape>` … elements is read back as
/// written, except that XML cannot carry a text value that is only
/// whitespace-trimmed differently; strings are compared exactly.
fn decode_server(xml: &[u8]) -> ServerMessage {
    ServerMessage::decode(xml, GameType::Blokus2021)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(xml)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn client_messages_round_trip(message in client_message()) {
        let xml = message.to_xml();
        let decoded = ClientMessage::decode(xml.as_bytes(), Some(GameType::Blokus2021));
        prop_assert_eq!(decoded.ok(), Some(message), "{}", xml);
    }

    #[test]
    fn server_messages_round_trip(message in server_message()) {
        let xml = message.to_xml();
        prop_assert_eq!(decode_server(xml.as_bytes()), message);
    }

    #[test]
    fn server_streams_split_anywhere_round_trip(
        messages in vec(server_message(), 1..4),
        split in any::<prop::sample::Index>(),
    ) {
        let mut encoder = ServerStreamEncoder::new();
        let mut out = Vec::new();
        for m in &messages {
            encoder.write(m, &mut out);
        }
        encoder.finish(&mut out);
        let split = split.index(out.len() + 1);
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::new();
        let mut decoded = Vec::new();
        let mut ended = false;
        for piece in [&out[..split], &out[split..]] {
            buf.extend_from_slice(piece);
            while let Some(event) = decoder.decode(&mut buf).expect("well-formed") {
                match event {
                    StreamEvent::Frame(f) => decoded.push(decode_server(f.as_bytes())),
                    StreamEvent::End => ended = true,
                }
            }
        }
        prop_assert!(ended);
        prop_assert_eq!(decoded, messages);
    }

    #[test]
    fn moves_round_trip_through_the_rules_type(mv in wire_move(), on_turn in color()) {
        let resolved = mv.resolve(on_turn);
        prop_assert_eq!(WireMove::from(resolved).resolve(on_turn), resolved);
    }

    #[test]
    fn arbitrary_bytes_never_panic_or_overflow(
        prefix in prop::sample::select(vec![&b""[..], b"<protocol>", b"<protocol><a>", b"<p><a x='"]),
        chunks in vec(vec(any::<u8>(), 0..64), 0..64),
    ) {
        const LIMIT: usize = 256;
        let mut decoder = FrameDecoder::with_limits(LIMIT, 8);
        let mut buf = BytesMut::new();
        buf.extend_from_slice(prefix);
        for chunk in &chunks {
            buf.extend_from_slice(chunk);
            // Never more than one packet's worth plus the last read.
            prop_assert!(buf.len() <= LIMIT + chunk.len() + prefix.len());
            while let Ok(Some(StreamEvent::Frame(frame))) = decoder.decode(&mut buf) {
                prop_assert!(frame.as_bytes().len() <= LIMIT);
                let _ = ClientMessage::decode(frame.as_bytes(), Some(GameType::Blokus2021));
                let _ = ServerMessage::decode(frame.as_bytes(), GameType::Blokus2021);
            }
            prop_assert!(buf.len() <= LIMIT);
        }
        let _ = decoder.decode_eof(&mut buf);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_message_parsers(bytes in vec(any::<u8>(), 0..256)) {
        let _ = ClientMessage::decode(&bytes, Some(GameType::Blokus2021));
        let _ = ServerMessage::decode(&bytes, GameType::Blokus2021);
    }
}
