//! The 91 fixed shapes of the Blokus piece set, computed at compile time.

use super::piece::PieceKind;
use crate::polyomino::ShapeTable;

/// The number of distinct fixed shapes of the 21 kinds.
pub const SHAPE_COUNT: usize = 91;

/// The canonical cells of every kind, in kind order.
const CANONICAL: [&[(i8, i8)]; 21] = {
    let mut cells: [&[(i8, i8)]; 21] = [&[]; 21];
    let mut i = 0;
    while i < 21 {
        cells[i] = PieceKind::ALL[i].canonical_cells();
        i += 1;
    }
    cells
};

/// Every fixed shape of the 21 kinds; shape indices index this table. Each
/// shape carries its canonical label, the first (rotation, flipped) in the
/// order `NONE`, `RIGHT`, `MIRROR`, `LEFT` unflipped, then flipped.
pub static SHAPES: ShapeTable<21, SHAPE_COUNT> = ShapeTable::build(CANONICAL);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyomino::LABELS;

    #[test]
    fn every_label_maps_to_a_shape_with_the_same_cells() {
        for kind in PieceKind::ALL {
            for (rotation, flipped) in LABELS {
                let fixed = SHAPES.shape(SHAPES.shape_index(kind.index(), rotation, flipped));
                assert_eq!(fixed.kind as usize, kind.index());
                assert_eq!(
                    fixed.shape,
                    kind.shape(rotation, flipped),
                    "{kind} {rotation} {flipped}"
                );
                assert_eq!(fixed.shape, kind.shape(fixed.rotation, fixed.flipped));
            }
        }
    }

    #[test]
    fn distinct_orientation_counts_match_appendix_a() {
        let counts: Vec<usize> = PieceKind::ALL
            .iter()
            .map(|k| SHAPES.shapes_of(k.index()).len())
            .collect();
        assert_eq!(
            counts,
            [
                1, 2, 4, 2, 1, 4, 2, 8, 4, 8, 4, 4, 8, 4, 2, 8, 4, 4, 8, 1, 8
            ]
        );
    }
}
