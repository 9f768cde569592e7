//! The order in which the official server checks the cells of a placed
//! piece: the iteration order of the Java hash sets its transform goes
//! through (`blokus-2021.md` Appendix B). It decides which mistake is
//! reported when several cells are defective (one off the board, another
//! obstructed), and with it the reason text of a rule violation.
//!
//! A `java.util.HashSet` of at most 12 elements has 16 buckets and iterates
//! bucket by bucket, each bucket in insertion order; so iterating a set is a
//! stable sort of its insertion order by bucket. The official transform
//! builds a new set at every step, inserting in the previous set's
//! iteration order: the canonical cells (in declaration order) are
//! normalised into a set; a rotation maps into a set and normalises into
//! another; a flip maps into a list and normalises into a set; finally the
//! absolute cells are inserted into a set, whose order is the checking order.

use super::{moves::Placement, piece::Rotation};

/// At most five cells, in an order.
#[derive(Clone, Copy)]
struct Cells {
    cells: [(i32, i32); 5],
    len: usize,
}

impl Cells {
    fn as_slice(&self) -> &[(i32, i32)] {
        &self.cells[..self.len]
    }

    /// The cells mapped by `f`, in the same order (a list).
    fn map(&self, f: impl Fn((i32, i32)) -> (i32, i32)) -> Cells {
        let mut out = *self;
        for cell in &mut out.cells[..self.len] {
            *cell = f(*cell);
        }
        out
    }

    /// The iteration order of a new hash set filled in this order.
    fn into_hash_set(mut self) -> Cells {
        // Insertion sort: stable, and fine for five elements.
        for i in 1..self.len {
            let mut j = i;
            while j > 0 && bucket(self.cells[j - 1]) > bucket(self.cells[j]) {
                self.cells.swap(j - 1, j);
                j -= 1;
            }
        }
        self
    }

    /// The official `align`: moved so that the minimum x and y are 0 (the
    /// official code starts the minimum search at the board size, which
    /// never matters for piece shapes), into a new hash set.
    fn aligned(&self) -> Cells {
        let min_x = self.as_slice().iter().map(|c| c.0).fold(20, i32::min);
        let min_y = self.as_slice().iter().map(|c| c.1).fold(20, i32::min);
        self.map(|(x, y)| (x - min_x, y - min_y)).into_hash_set()
    }
}

/// The bucket of a cell in a 16-bucket Java hash table: the Kotlin data
/// class hash `31 * x + y`, spread by `h ^ (h >>> 16)`.
fn bucket((x, y): (i32, i32)) -> u32 {
    let h = 31i32.wrapping_mul(x).wrapping_add(y) as u32;
    (h ^ h >> 16) & 15
}

/// The absolute cells of `placement` in the official checking order.
/// Coordinates wrap like Java `int`s (only ever for cells far off the
/// board).
pub(super) fn checking_order(placement: &Placement) -> impl Iterator<Item = (i32, i32)> {
    let canonical = placement.kind.canonical_cells();
    let mut shape = Cells {
        cells: [(0, 0); 5],
        len: canonical.len(),
    };
    for (cell, &(x, y)) in shape.cells.iter_mut().zip(canonical) {
        *cell = (i32::from(x), i32::from(y));
    }
    shape = shape.aligned();
    shape = match placement.rotation {
        Rotation::None => shape,
        Rotation::Right => shape.map(|(x, y)| (-y, x)).into_hash_set().aligned(),
        Rotation::Mirror => shape.map(|(x, y)| (-x, -y)).into_hash_set().aligned(),
        Rotation::Left => shape.map(|(x, y)| (y, -x)).into_hash_set().aligned(),
    };
    if placement.flipped {
        shape = shape.map(|(x, y)| (-x, y)).aligned();
    }
    let (px, py) = (placement.x, placement.y);
    let absolute = shape
        .map(|(x, y)| (px.wrapping_add(x), py.wrapping_add(y)))
        .into_hash_set();
    (0..absolute.len).map(move |i| absolute.cells[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::{Color, PieceKind};

    fn order(
        kind: PieceKind,
        rotation: Rotation,
        flipped: bool,
        x: i32,
        y: i32,
    ) -> Vec<(i32, i32)> {
        let placement = Placement {
            color: Color::Blue,
            kind,
            rotation,
            flipped,
            x,
            y,
        };
        checking_order(&placement).collect()
    }

    #[test]
    fn buckets_follow_the_java_hash() {
        assert_eq!(bucket((0, 0)), 0);
        assert_eq!(bucket((1, 0)), 15); // 31
        assert_eq!(bucket((19, 5)), 2); // 594 = 37 * 16 + 2
        assert_eq!(bucket((-1, 0)), 14); // 0xFFFFFFE1 ^ 0xFFFF = 0xFFFF001E
        assert_eq!(bucket((-2, 0)), 13); // 0xFFFFFFC2 ^ 0xFFFF = 0xFFFF003D
    }

    #[test]
    fn worked_examples() {
        // DOMINO at (19,5): (20,5) hashes to 625 (bucket 1), (19,5) to 594
        // (bucket 2), so the cell off the board comes first.
        assert_eq!(
            order(PieceKind::Domino, Rotation::None, false, 19, 5),
            [(20, 5), (19, 5)]
        );
        // DOMINO at (-1,5): (0,5) is bucket 5, (-1,5) bucket 9.
        assert_eq!(
            order(PieceKind::Domino, Rotation::None, false, -1, 5),
            [(0, 5), (-1, 5)]
        );
        // TRIO_I RIGHT: canonical (0,0) (0,1) (0,2); turned right into
        // (0,0) (-1,0) (-2,0), iterated as (0,0) (-2,0) (-1,0); aligned to
        // (0,0) (2,0) (1,0) in buckets 0, 14, 15; at (18,0) the absolute
        // cells (18,0) (20,0) (19,0) fall in buckets 14, 12, 13.
        assert_eq!(
            order(PieceKind::TrioI, Rotation::Right, false, 18, 0),
            [(20, 0), (19, 0), (18, 0)]
        );
    }

    #[test]
    fn every_orientation_yields_exactly_the_placed_cells() {
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                for flipped in [false, true] {
                    for (x, y) in [(0, 0), (7, 13), (-3, 18), (i32::MAX - 1, 2)] {
                        let placement = Placement {
                            color: Color::Red,
                            kind,
                            rotation,
                            flipped,
                            x,
                            y,
                        };
                        let mut ours: Vec<_> = checking_order(&placement).collect();
                        let mut cells: Vec<_> = kind
                            .shape(rotation, flipped)
                            .cells()
                            .iter()
                            .map(|&(dx, dy)| (x.wrapping_add(dx.into()), y.wrapping_add(dy.into())))
                            .collect();
                        ours.sort_unstable();
                        cells.sort_unstable();
                        assert_eq!(ours, cells, "{kind} {rotation} {flipped}");
                    }
                }
            }
        }
    }
}
