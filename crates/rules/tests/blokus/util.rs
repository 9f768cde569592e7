//! Test helpers: seeded random games and a deliberately simple reference
//! move generator that works on a plain board (colour per field), sharing
//! no code with the bitboard generator it checks.

use std::collections::BTreeSet;

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};
use spielleiter_rules::blokus::{
    BOARD_SIZE, Blokus, Blokus2027, Color, Move, MoveList, PieceKind, PieceSet, Placement,
    Rotation, Setup, SwcBlokus, SwcVariant,
};

/// A seeded random source.
pub fn rng(seed: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed)
}

/// A uniform draw from `0..n` (n small; the bias is irrelevant for tests).
pub fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A board cell `(x, y)`, x to the right, y down, `(0, 0)` top left.
pub type Cell = (i32, i32);

/// One orientation of a piece kind: its label (whatever the variant's
/// move names it by) and its cells, shifted to touch x = 0 and y = 0.
pub struct Orientation<L> {
    pub label: L,
    pub cells: Vec<Cell>,
}

/// A placement the brute force found: the kind, the orientation's label,
/// the top-left corner of its bounding box and its sorted cells.
pub struct Found<L> {
    pub kind: usize,
    pub label: L,
    pub x: i32,
    pub y: i32,
    pub cells: Vec<Cell>,
}

/// Where the next piece must touch.
pub enum Anchor<'a> {
    /// The colour's first piece: it covers one of these fields.
    StartFields(&'a [Cell]),
    /// A later piece: it touches the colour at a corner.
    OwnCorner,
}

/// Every legal placement of colour `color` by brute force: each kind in
/// `kinds` (index and its distinct orientations), every position whose
/// bounding box starts on the `size`×`size` board, checked field by field
/// against the rules text: on the board, on empty fields, no edge shared
/// with the own colour, and the anchor rule.
pub fn brute_force<L: Copy>(
    size: i32,
    at: impl Fn(i32, i32) -> Option<usize>,
    color: usize,
    kinds: &[(usize, Vec<Orientation<L>>)],
    anchor: Anchor<'_>,
) -> Vec<Found<L>> {
    let on_board = |x: i32, y: i32| (0..size).contains(&x) && (0..size).contains(&y);
    let cell = |x: i32, y: i32| if on_board(x, y) { at(x, y) } else { None };
    let mut found = Vec::new();
    for (kind, orientations) in kinds {
        for orientation in orientations {
            for y in 0..size {
                for x in 0..size {
                    let mut cells: Vec<Cell> = orientation
                        .cells
                        .iter()
                        .map(|&(dx, dy)| (x + dx, y + dy))
                        .collect();
                    let fits = cells.iter().all(|&(cx, cy)| {
                        on_board(cx, cy)
                            && cell(cx, cy).is_none()
                            && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                                .iter()
                                .all(|(dx, dy)| cell(cx + dx, cy + dy) != Some(color))
                    });
                    let anchored = || match anchor {
                        Anchor::StartFields(fields) => cells.iter().any(|c| fields.contains(c)),
                        Anchor::OwnCorner => cells.iter().any(|&(cx, cy)| {
                            [(1, 1), (-1, 1), (1, -1), (-1, -1)]
                                .iter()
                                .any(|(dx, dy)| cell(cx + dx, cy + dy) == Some(color))
                        }),
                    };
                    if fits && anchored() {
                        cells.sort_unstable();
                        found.push(Found {
                            kind: *kind,
                            label: orientation.label,
                            x,
                            y,
                            cells,
                        });
                    }
                }
            }
        }
    }
    found
}

/// The distinct orientations of a 21-piece kind, labelled by the first
/// (rotation, flipped) producing them.
pub fn orientations(kind: PieceKind) -> Vec<Orientation<(Rotation, bool)>> {
    let mut labels: Vec<(Rotation, bool)> = Vec::new();
    for rotation in Rotation::ALL {
        for flipped in [false, true] {
            let shape = kind.shape(rotation, flipped);
            if !labels.iter().any(|&(r, f)| kind.shape(r, f) == shape) {
                labels.push((rotation, flipped));
            }
        }
    }
    labels
        .into_iter()
        .map(|(rotation, flipped)| Orientation {
            label: (rotation, flipped),
            cells: kind
                .shape(rotation, flipped)
                .cells()
                .iter()
                .map(|&(x, y)| (i32::from(x), i32::from(y)))
                .collect(),
        })
        .collect()
}

/// The four board corners.
pub const CORNERS: [Cell; 4] = [(0, 0), (19, 0), (0, 19), (19, 19)];

/// Every field on the edge of the 20×20 board.
pub fn border() -> Vec<Cell> {
    (0..20)
        .flat_map(|y| (0..20).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x == 19 || y == 19)
        .collect()
}

/// The legal placements of a 20×20 variant by brute force: `kinds` are the
/// kinds the colour may place, `start_fields` the fields its first piece
/// must cover (used iff `first`).
pub fn reference_20(
    at: impl Fn(i32, i32) -> Option<Color>,
    color: Color,
    kinds: impl IntoIterator<Item = PieceKind>,
    first: bool,
    start_fields: &[Cell],
) -> Vec<Placement> {
    let kinds: Vec<_> = kinds
        .into_iter()
        .map(|k| (k.index(), orientations(k)))
        .collect();
    let anchor = if first {
        Anchor::StartFields(start_fields)
    } else {
        Anchor::OwnCorner
    };
    brute_force(
        BOARD_SIZE as i32,
        |x, y| at(x, y).map(Color::index),
        color.index(),
        &kinds,
        anchor,
    )
    .into_iter()
    .map(|found| {
        let placement = Placement {
            color,
            kind: PieceKind::ALL[found.kind],
            rotation: found.label.0,
            flipped: found.label.1,
            x: found.x,
            y: found.y,
        };
        assert_eq!(cell_key(&placement).2, found.cells, "{placement:?}");
        placement
    })
    .collect()
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

/// The cell sets of [`reference_moves_2027`].
pub fn reference_placements_2027(setup: &Setup, color: Color) -> BTreeSet<CellKey> {
    reference_moves_2027(setup, color)
        .iter()
        .map(cell_key)
        .collect()
}

/// Every legal placement of `color` in a 2021 `setup`, one per set of
/// cells: the start piece on a free corner first, then every remaining
/// kind touching the colour at a corner.
pub fn reference_moves(setup: &Setup, color: Color) -> Vec<Placement> {
    reference_swc(setup, color, &CORNERS)
}

/// As [`reference_moves`] for 2027: the start piece on the border first.
pub fn reference_moves_2027(setup: &Setup, color: Color) -> Vec<Placement> {
    reference_swc(setup, color, &border())
}

fn reference_swc(setup: &Setup, color: Color, start_fields: &[Cell]) -> Vec<Placement> {
    let remaining = setup.remaining[color];
    let first = remaining.len() == 21;
    let kinds: Vec<PieceKind> = if first {
        vec![setup.start_piece]
    } else {
        remaining.iter().collect()
    };
    reference_20(
        |x, y| setup.board[y as usize][x as usize],
        color,
        kinds,
        first,
        start_fields,
    )
}

/// Plays a random game from `game`, calling `visit` on every position
/// before its move (and on the final one). Skips now and then when allowed,
/// so that games also reach the round limit.
pub fn random_game<V: SwcVariant>(
    mut game: SwcBlokus<V>,
    rng: &mut Pcg64Mcg,
    skip_per_mille: usize,
    mut visit: impl FnMut(&SwcBlokus<V>),
) -> SwcBlokus<V> {
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

/// A random 2021 start piece.
pub fn random_start(rng: &mut Pcg64Mcg) -> PieceKind {
    Blokus::random_start_piece(rng)
}

/// A random 2027 start piece.
pub fn random_start_2027(rng: &mut Pcg64Mcg) -> PieceKind {
    Blokus2027::random_start_piece(rng)
}

/// A placement move.
pub fn set(
    color: Color,
    kind: PieceKind,
    rotation: Rotation,
    flipped: bool,
    x: i32,
    y: i32,
) -> Move {
    Move::Set(Placement {
        color,
        kind,
        rotation,
        flipped,
        x,
        y,
    })
}

/// Compares every colour's generated placements in a Software-Challenge
/// game with `reference(setup, colour)`.
pub fn check_position<V: SwcVariant>(
    game: &SwcBlokus<V>,
    moves: &mut MoveList,
    reference: impl Fn(&Setup, Color) -> BTreeSet<CellKey>,
) {
    let setup = game.to_setup();
    for color in Color::ALL {
        let reference = reference(&setup, color);
        assert_eq!(
            game.has_legal_move(color),
            !reference.is_empty(),
            "has_legal_move({color}) in {game:?}"
        );
        if color != game.current_color() || game.is_over() {
            continue;
        }
        game.legal_moves(moves);
        let generated: Vec<Placement> = moves.iter().collect();
        assert_eq!(generated.len(), moves.len());
        assert_eq!(game.count_legal_moves(), moves.len());
        let keys: BTreeSet<_> = generated.iter().map(cell_key).collect();
        assert_eq!(keys.len(), generated.len(), "one placement per cell set");
        assert_eq!(keys, reference, "legal moves of {color} in {game:?}");
        for (index, placement) in generated.iter().enumerate() {
            assert_eq!(moves.get(index), Some(*placement));
            assert_eq!(game.is_legal(&Move::Set(*placement)), Ok(()));
        }
        assert_eq!(moves.get(generated.len()), None);
    }
}

/// BLUE on turn `turn` with only MONO left: 88 fields in rows 0-3
/// (columns 0-17) and row 4 (columns 0-15); MONO fits at (16,5). The other
/// colours have not moved; three corners are free for them.
pub fn blue_one_piece_short(turn: u32) -> Setup {
    let mut setup = Setup::new(PieceKind::PentoL);
    setup.turn = turn;
    for y in 0..5 {
        for x in 0..if y < 4 { 18 } else { 16 } {
            setup.board[y][x] = Some(Color::Blue);
        }
    }
    setup.remaining[Color::Blue] = [PieceKind::Mono].into_iter().collect::<PieceSet>();
    setup
}

/// A random placement of `color`: any kind and label, its bounding box
/// starting up to `margin` fields off the board.
pub fn random_placement(rng: &mut Pcg64Mcg, color: Color, margin: usize) -> Placement {
    Placement {
        color,
        kind: PieceKind::ALL[below(rng, 21)],
        rotation: Rotation::ALL[below(rng, 4)],
        flipped: below(rng, 2) == 1,
        x: below(rng, BOARD_SIZE + 2 * margin) as i32 - margin as i32,
        y: below(rng, BOARD_SIZE + 2 * margin) as i32 - margin as i32,
    }
}

/// Checks `is_legal` on `trials` random placements of `color` against
/// the `reference` placements, collecting the names of the mistakes seen
/// (`name`); returns how many were legal.
pub fn check_random_placements<E: std::fmt::Debug>(
    rng: &mut Pcg64Mcg,
    color: Color,
    trials: usize,
    reference: &BTreeSet<CellKey>,
    is_legal: impl Fn(&Move) -> Result<(), E>,
    name: impl Fn(&E) -> &'static str,
    mistakes: &mut BTreeSet<&'static str>,
) -> usize {
    let mut legal = 0;
    for _ in 0..trials {
        let p = random_placement(rng, color, 2);
        let verdict = is_legal(&Move::Set(p));
        assert_eq!(
            verdict.is_ok(),
            reference.contains(&cell_key(&p)),
            "{p:?}: {verdict:?}"
        );
        match verdict {
            Ok(()) => legal += 1,
            Err(mistake) => {
                mistakes.insert(name(&mistake));
            }
        }
    }
    legal
}
