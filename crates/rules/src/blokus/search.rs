//! The search around anchor fields that random placements
//! ([`Engine::random_placement`](super::engine::Engine::random_placement))
//! and the test whether a colour can move
//! ([`Engine::has_legal_move`](super::engine::Engine::has_legal_move)) use:
//! the anchors with their free sides, laying a shape's cell on an anchor,
//! and picking (shape, cell) pairs whose sides fit an anchor.

use crate::polyomino::{Bitboard, FixedShape, Shapes, Sides};

/// A draw from `0..n` from 32 random bits (multiply-shift); `n` must be
/// positive.
#[inline]
pub(super) fn below(random: u32, n: usize) -> usize {
    ((u64::from(random) * n as u64) >> 32) as usize
}

/// The set bits of `bits`, lowest first.
#[inline]
pub(super) fn bits_iter(mut bits: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        let bit = (bits != 0).then(|| bits.trailing_zeros() as usize);
        bits &= bits.wrapping_sub(1);
        bit
    })
}

/// The fields `(x, y)` of `anchors`, row by row, each with the set of its
/// [`Sides`] whose neighbour is in `free`.
#[inline]
pub(super) fn anchor_sides<'a, const N: usize>(
    free: &'a Bitboard<N>,
    anchors: &'a Bitboard<N>,
) -> AnchorSides<'a, N> {
    AnchorSides {
        free,
        anchors,
        y: usize::MAX,
        bits: 0,
        rows: (0, 0, 0),
    }
}

/// The iterator of [`anchor_sides`].
pub(super) struct AnchorSides<'a, const N: usize> {
    free: &'a Bitboard<N>,
    anchors: &'a Bitboard<N>,
    /// The current row, `usize::MAX` before the first.
    y: usize,
    /// The anchors of the current row not yet yielded.
    bits: u32,
    /// The free fields of the rows above, at and below `y`.
    rows: (u32, u32, u32),
}

impl<const N: usize> Iterator for AnchorSides<'_, N> {
    type Item = (usize, usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize, usize)> {
        while self.bits == 0 {
            self.y = self.y.wrapping_add(1);
            if self.y >= N {
                return None;
            }
            self.bits = self.anchors.row(self.y);
            if self.bits != 0 {
                let y = self.y;
                self.rows = (
                    self.free.row(y.wrapping_sub(1)),
                    self.free.row(y),
                    self.free.row(y + 1),
                );
            }
        }
        let x = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let (up, row, down) = self.rows;
        let left = if x > 0 { row >> (x - 1) & 1 } else { 0 };
        let side = |free: u32, side: u8| if free & 1 != 0 { usize::from(side) } else { 0 };
        let sides = side(up >> x, Sides::UP)
            | side(row >> (x + 1), Sides::RIGHT)
            | side(down >> x, Sides::DOWN)
            | side(left, Sides::LEFT);
        Some((x, self.y, sides))
    }
}

/// Lays cell `cell` of `fixed` on the field `anchor`: the top-left corner
/// `(x, y)` and the number of `anchors` covered if the shape stays on the
/// board and covers only `free` fields, else `None`.
#[inline]
pub(super) fn fit<const N: usize>(
    free: &Bitboard<N>,
    anchors: &Bitboard<N>,
    fixed: &FixedShape,
    (ax, ay): (usize, usize),
    cell: usize,
) -> Option<(usize, usize, u32)> {
    let (cx, cy) = fixed.shape.cells()[cell];
    let x = ax.checked_sub(cx as usize)?;
    let y = ay.checked_sub(cy as usize)?;
    if x + usize::from(fixed.width) > N || y + usize::from(fixed.height) > N {
        return None;
    }
    let mut covered = 0;
    for (dy, &mask) in fixed.rows[..usize::from(fixed.height)].iter().enumerate() {
        let row = mask << x;
        if free.row(y + dy) & row != row {
            return None;
        }
        covered += (anchors.row(y + dy) & row).count_ones();
    }
    Some((x, y, covered))
}

/// The `pick`-th (shape index, cell index) pair, in table order, among the
/// shapes of `kinds` and their cells whose sides lie within `sides`; `pick`
/// must be below their number.
#[inline]
pub(super) fn pair<T: Shapes>(
    table: &T,
    mut kinds: u32,
    sides: usize,
    mut pick: u32,
) -> (usize, usize) {
    while kinds != 0 {
        let kind = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        let in_kind = u32::from(table.kind_cells_within(kind)[sides]);
        if pick < in_kind {
            return table.kind_pair(kind, sides, pick as usize);
        }
        pick -= in_kind;
    }
    unreachable!("a pick beyond the pairs of the kinds")
}
