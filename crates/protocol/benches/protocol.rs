//! Speed targets of the protocol crate (BENCHMARKS.md): encode a mid-game
//! memento (≤ 5 µs), decode a move (≤ 1 µs), decode a stream of 10,000
//! messages. Each benchmark also checks its result, so a fast wrong answer
//! fails instead of passing.

use std::hint::black_box;

use bytes::BytesMut;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielleiter_protocol::{
    ClientMessage, ClientStreamEncoder, FrameDecoder, GameMove, GameState, GameType, RoomData,
    ServerMessage, StreamEvent,
    games::blokus2021::{State, WireMove},
};
use spielleiter_rules::blokus::{Color, Move, PieceKind, Placement, Rotation, Setup};
use tokio_util::codec::Decoder;

const ROOM: &str = "8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f";

fn set(color: Color, kind: PieceKind, rotation: Rotation, x: i32, y: i32) -> Placement {
    Placement {
        color,
        kind,
        rotation,
        flipped: false,
        x,
        y,
    }
}

/// A state after 16 placements (four per colour), about 6 KB of XML.
fn midgame_memento() -> ServerMessage {
    let mut setup = Setup::new(PieceKind::PentoV);
    let corners = [(0, 0), (17, 0), (17, 17), (0, 17)];
    let kinds = [
        PieceKind::PentoV,
        PieceKind::TetroO,
        PieceKind::TrioI,
        PieceKind::Domino,
    ];
    for (i, kind) in kinds.into_iter().enumerate() {
        for color in Color::ALL {
            let (cx, cy) = corners[color.index()];
            let offset = 3 * i as i32;
            let (x, y) = (
                if cx == 0 { cx + offset } else { cx - offset },
                if cy == 0 { cy + offset } else { cy - offset },
            );
            let p = set(color, kind, Rotation::None, x.clamp(0, 17), y.clamp(0, 17));
            for (fx, fy) in p.cells() {
                if (0..20).contains(&fx) && (0..20).contains(&fy) {
                    setup.board[fy as usize][fx as usize] = Some(color);
                }
            }
            setup.remaining[color].remove(kind);
            setup.last_move = Some(Move::Set(p));
            setup.turn += 1;
        }
    }
    ServerMessage::Room {
        room_id: ROOM.into(),
        data: RoomData::Memento(GameState::from(State {
            setup,
            display_names: ["alice".into(), "bob".into()],
        })),
    }
}

fn move_packet(i: usize) -> ClientMessage {
    let mv = if i % 10 == 9 {
        WireMove::Skip(Some(Color::ALL[i % 4]))
    } else {
        WireMove::Set(Placement {
            flipped: i.is_multiple_of(2),
            ..set(
                Color::ALL[i % 4],
                PieceKind::ALL[i % 21],
                Rotation::ALL[i % 4],
                (i % 20) as i32,
                (i / 20 % 20) as i32,
            )
        })
    };
    ClientMessage::Move {
        room_id: ROOM.into(),
        mv: GameMove::Blokus2021(mv),
    }
}

fn encode_memento(c: &mut Criterion) {
    let memento = midgame_memento();
    let mut out = Vec::with_capacity(16 * 1024);
    memento.encode(&mut out, 1);
    let len = out.len();
    let decoded = ServerMessage::decode(&out, GameType::Blokus2021).expect("round trip");
    assert_eq!(decoded, memento);
    let mut group = c.benchmark_group("protocol");
    group.throughput(Throughput::Bytes(len as u64));
    group.bench_function("encode mid-game memento", |b| {
        b.iter(|| {
            out.clear();
            black_box(&memento).encode(&mut out, 1);
            assert_eq!(out.len(), len);
        })
    });
    group.finish();
}

fn decode_move(c: &mut Criterion) {
    let packet = move_packet(3);
    let xml = packet.to_xml();
    assert_eq!(
        ClientMessage::decode(xml.as_bytes(), Some(GameType::Blokus2021)).expect("decodes"),
        packet
    );
    c.bench_function("protocol/decode move", |b| {
        b.iter(|| {
            ClientMessage::decode(black_box(xml.as_bytes()), Some(GameType::Blokus2021))
                .expect("decodes")
        })
    });
}

fn decode_stream(c: &mut Criterion) {
    const MESSAGES: usize = 10_000;
    let mut stream = Vec::new();
    let mut encoder = ClientStreamEncoder::new();
    let messages: Vec<ClientMessage> = (0..MESSAGES).map(move_packet).collect();
    for m in &messages {
        encoder.write(m, &mut stream);
    }
    encoder.finish(&mut stream);
    let decode_all = |stream: &[u8]| -> usize {
        let mut count = 0;
        for_each_frame(stream, |frame| {
            black_box(ClientMessage::decode(frame, Some(GameType::Blokus2021)).expect("decodes"));
            count += 1;
        });
        count
    };
    assert_eq!(decode_all(&stream), MESSAGES);
    let mut group = c.benchmark_group("protocol");
    group.throughput(Throughput::Elements(MESSAGES as u64));
    group.sample_size(20);
    group.bench_function("decode stream of 10,000 moves", |b| {
        b.iter(|| assert_eq!(decode_all(black_box(&stream)), MESSAGES))
    });
    group.bench_function("frame stream of 10,000 moves (framing only)", |b| {
        b.iter(|| {
            let mut count = 0;
            for_each_frame(black_box(&stream), |_| count += 1);
            assert_eq!(count, MESSAGES);
        })
    });
    group.finish();
}

/// Feeds `stream` to a frame decoder in socket-sized reads and hands each
/// frame to `f`.
fn for_each_frame(stream: &[u8], mut f: impl FnMut(&[u8])) {
    const READ: usize = 4096;
    let mut decoder = FrameDecoder::new();
    let mut buf = BytesMut::with_capacity(2 * READ);
    for chunk in stream.chunks(READ) {
        buf.extend_from_slice(chunk);
        while let Some(event) = decoder.decode(&mut buf).expect("well-formed") {
            if let StreamEvent::Frame(frame) = event {
                f(frame.as_bytes());
            }
        }
    }
}

criterion_group!(benches, encode_memento, decode_move, decode_stream);
criterion_main!(benches);
