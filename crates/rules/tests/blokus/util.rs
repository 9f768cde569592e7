//! Test helpers: seeded random games and a deliberately simple reference
//! move generator that works on the plain `Setup` board, sharing no code
//! with the bitboard generator it checks.

use std::collections::BTreeSet;

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};
use spielleiter_rules::blokus::{
    BOARD_SIZE, Blokus, Color, Move, MoveList, PieceKind, Placement, Rotation, Setup,
};

/// A seeded random source.
pub fn rng(seed: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed)
}

/// A uniform draw from `0..n` (n small; the bias is irrelevant for tests).
pub fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A placement as its colour, kind and sorted absolute cells: what makes
/// two placements the same move.
pub type CellKey = (Color, PieceKind, Vec<(i32, i32)>);

pub fn cell_key(p: &Placement) -> CellKey {
    let mut cells: Vec<_> = p.cells().collect();
    cells.sort_unstable();
    (p.color, p.kind, cells)
}

/// The cell sets of [`reference_moves`].
pub fn reference_placements(setup: &Setup, color: Color) -> BTreeSet<CellKey> {
    reference_moves(setup, color).iter().map(cell_key).collect()
}

/// Every legal placement of `color` in `setup`, one per set of cells, by
/// brute force: every kind, its distinct orientations, every position whose
/// bounding box starts on the board, checked field by field against the
/// rules text.
pub fn reference_moves(setup: &Setup, color: Color) -> Vec<Placement> {
    let board = &setup.board;
    let at = |x: i32, y: i32| -> Option<Color> {
        if (0..BOARD_SIZE as i32).contains(&x) && (0..BOARD_SIZE as i32).contains(&y) {
            board[y as usize][x as usize]
        } else {
            None
        }
    };
    let remaining = setup.remaining[color];
    let first = remaining.len() == 21;
    let corners = [(0, 0), (19, 0), (0, 19), (19, 19)];
    let mut found = Vec::new();
    for kind in PieceKind::ALL {
        let available = if first {
            kind == setup.start_piece
        } else {
            remaining.contains(kind)
        };
        if !available {
            continue;
        }
        // The distinct orientations: labels with equal cells are one move.
        let mut labels: Vec<(Rotation, bool)> = Vec::new();
        for rotation in Rotation::ALL {
            for flipped in [false, true] {
                let shape = kind.shape(rotation, flipped);
                if !labels.iter().any(|&(r, f)| kind.shape(r, f) == shape) {
                    labels.push((rotation, flipped));
                }
            }
        }
        for (rotation, flipped) in labels {
            let shape = kind.shape(rotation, flipped);
            for y in 0..BOARD_SIZE as i32 {
                for x in 0..BOARD_SIZE as i32 {
                    let cells = || {
                        shape
                            .cells()
                            .iter()
                            .map(move |&(dx, dy)| (x + i32::from(dx), y + i32::from(dy)))
                    };
                    let fits = cells().all(|(cx, cy)| {
                        (0..20).contains(&cx)
                            && (0..20).contains(&cy)
                            && at(cx, cy).is_none()
                            && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                                .iter()
                                .all(|(dx, dy)| at(cx + dx, cy + dy) != Some(color))
                    });
                    let anchored = || {
                        if first {
                            cells().any(|c| corners.contains(&c))
                        } else {
                            cells().any(|(cx, cy)| {
                                [(1, 1), (-1, 1), (1, -1), (-1, -1)]
                                    .iter()
                                    .any(|(dx, dy)| at(cx + dx, cy + dy) == Some(color))
                            })
                        }
                    };
                    if fits && anchored() {
                        found.push(Placement {
                            color,
                            kind,
                            rotation,
                            flipped,
                            x,
                            y,
                        });
                    }
                }
            }
        }
    }
    found
}

/// Plays a random game from `game`, calling `visit` on every position
/// before its move (and on the final one). Skips now and then when allowed,
/// so that games also reach the round limit.
pub fn random_game(
    mut game: Blokus,
    rng: &mut Pcg64Mcg,
    skip_per_mille: usize,
    mut visit: impl FnMut(&Blokus),
) -> Blokus {
    let mut moves = MoveList::new();
    while !game.is_over() {
        visit(&game);
        game.legal_moves(&mut moves);
        let mv = if game.can_skip() && below(rng, 1000) < skip_per_mille {
            Move::Skip(game.current_color())
        } else {
            Move::Set(
                moves
                    .get(below(rng, moves.len()))
                    .expect("a colour on turn can move"),
            )
        };
        game.play(&mv).expect("generated moves are legal");
    }
    visit(&game);
    game
}

/// A random start piece.
pub fn random_start(rng: &mut Pcg64Mcg) -> PieceKind {
    Blokus::random_start_piece(rng)
}
