//! The official example messages (copied from the shared protocol notes
//! into `tests/vectors/`) and the typed values they stand for, built
//! independently of the decoder.

use std::path::PathBuf;

use bytes::BytesMut;
use spielleiter_protocol::{
    FrameDecoder, FramingError, StreamEvent,
    games::blokus2021::{State, WireMove},
};
use spielleiter_rules::blokus::{Color, Move, PieceKind, Placement, Rotation, Setup};
use tokio_util::codec::Decoder;

pub const ROOM: &str = "8c4d2f7a-3b1e-4c5d-9e6f-0a1b2c3d4e5f";

/// The content of a vector file.
pub fn vector(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A single-packet vector without the final newline (which is not part
/// of the packet).
pub fn packet(name: &str) -> String {
    let text = vector(name);
    text.strip_suffix('\n').unwrap_or(&text).to_owned()
}

pub fn placement(color: Color, kind: PieceKind, rotation: Rotation, x: i32, y: i32) -> Placement {
    Placement {
        color,
        kind,
        rotation,
        flipped: false,
        x,
        y,
    }
}

/// Applies placements to a setup the way the rules do (cells, remaining
/// kinds, last move), without checking legality.
pub fn place(setup: &mut Setup, p: Placement) {
    for (x, y) in p.cells() {
        setup.board[y as usize][x as usize] = Some(p.color);
    }
    setup.remaining[p.color].remove(p.kind);
    setup.last_move = Some(Move::Set(p));
    setup.turn += 1;
}

/// The initial state of the prepared example game.
pub fn initial_state() -> State {
    State {
        setup: Setup::new(PieceKind::PentoV),
        display_names: ["alice".into(), "bob".into()],
    }
}

/// The state at turn 5 described in the vectors' README.
pub fn midgame_state() -> State {
    let mut state = initial_state();
    for p in [
        placement(Color::Blue, PieceKind::PentoV, Rotation::None, 0, 0),
        placement(Color::Yellow, PieceKind::PentoV, Rotation::Mirror, 17, 0),
        placement(Color::Red, PieceKind::PentoV, Rotation::Left, 17, 17),
        placement(Color::Green, PieceKind::PentoV, Rotation::None, 0, 17),
        placement(Color::Blue, PieceKind::TetroO, Rotation::None, 3, 3),
    ] {
        place(&mut state.setup, p);
    }
    state
}

/// YELLOW's illegal MONO at (16,3) in the mid-game state.
pub fn illegal_mono() -> WireMove {
    WireMove::Set(placement(
        Color::Yellow,
        PieceKind::Mono,
        Rotation::None,
        16,
        3,
    ))
}

/// YELLOW's legal PENTO_L (RIGHT, flipped) at (15,3) in the mid-game state:
/// the move of `setmove.xml`.
pub fn yellow_pento_l() -> WireMove {
    WireMove::Set(Placement {
        color: Color::Yellow,
        kind: PieceKind::PentoL,
        rotation: Rotation::Right,
        flipped: true,
        x: 15,
        y: 3,
    })
}

/// Feeds `input` to a fresh decoder in pieces: the first `split` bytes,
/// then the rest. Returns the events and the first error.
pub fn split_feed(input: &[u8], split: usize) -> (Vec<StreamEvent>, Option<FramingError>) {
    let mut decoder = FrameDecoder::new();
    let mut buf = BytesMut::new();
    let mut events = Vec::new();
    for piece in [&input[..split], &input[split..]] {
        buf.extend_from_slice(piece);
        loop {
            match decoder.decode(&mut buf) {
                Ok(Some(event)) => events.push(event),
                Ok(None) => break,
                Err(e) => return (events, Some(e)),
            }
        }
    }
    (events, None)
}

/// The frames of a complete transcript, in one read.
pub fn frames(input: &[u8]) -> Vec<Vec<u8>> {
    let (events, error) = split_feed(input, input.len());
    assert!(error.is_none(), "{error:?}");
    events
        .into_iter()
        .filter_map(|e| match e {
            StreamEvent::Frame(f) => Some(f.as_bytes().to_vec()),
            StreamEvent::End => None,
        })
        .collect()
}
