//! Geometry shared by the polyomino placement games (the Blokus variants):
//! square bitboards, oriented shapes, tables of fixed shapes, and the
//! bit-parallel search for the positions where a shape fits.
//!
//! Board size and piece set are parameters here (`Bitboard<N>`,
//! `ShapeTable<K, S>`), so a 10×10 or a classic 20×20 Blokus reuses this
//! module with its own constants; the game modules own only their rules.

mod bitboard;
mod shape;
mod table;

use core::ops::Range;

pub use self::{
    bitboard::Bitboard,
    shape::{MAX_CELLS, Rotation, Shape},
    table::{FixedShape, LABELS, MAX_HEIGHT, ShapeTable, Shapes, Sides, label_index},
};

/// What move generation needs to know about one colour: the fields its
/// pieces may cover and the anchors, the fields of which a piece must cover
/// at least one (corner contacts, or the start fields before the first
/// piece).
///
/// Cheap to build, and asked row by row ([`PlacementMasks::fits`]): the
/// right tool for questions that usually stop at the first fit
/// ([`PlacementMasks::fits_anywhere`]). [`RunMasks`] lists every fit.
///
/// The rows are padded to 32 so that row lookups never leave the array; the
/// hot loop then compiles without bounds checks.
#[derive(Clone, Copy, Debug)]
pub struct PlacementMasks<const N: usize> {
    free: [u32; 32],
    anchors: [u32; 32],
    /// The first and one past the last row holding an anchor.
    anchor_rows: (usize, usize),
}

impl<const N: usize> PlacementMasks<N> {
    /// Prepares the masks. Anchors on fields that are not free are ignored.
    pub fn new(free: &Bitboard<N>, anchors: &Bitboard<N>) -> Self {
        let mut masks = PlacementMasks {
            free: [0; 32],
            anchors: [0; 32],
            anchor_rows: (0, 0),
        };
        let mut first = N;
        let mut end = 0;
        for y in 0..N {
            let free_row = free.row(y);
            let anchor_row = anchors.row(y) & free_row;
            masks.free[y] = free_row;
            masks.anchors[y] = anchor_row;
            if anchor_row != 0 {
                first = first.min(y);
                end = y + 1;
            }
        }
        masks.anchor_rows = if end == 0 { (0, 0) } else { (first, end) };
        masks
    }

    /// Whether some free field is an anchor; without one nothing fits.
    #[inline]
    pub fn has_anchor(&self) -> bool {
        self.anchor_rows.1 > self.anchor_rows.0
    }

    /// The top rows at which `shape` stays on the board and could reach an
    /// anchor.
    #[inline]
    pub fn top_rows(&self, shape: &FixedShape) -> Range<usize> {
        let (first, end) = self.anchor_rows;
        let height = shape.height as usize;
        if end == 0 || height > N {
            return 0..0;
        }
        first.saturating_sub(height - 1)..end.min(N + 1 - height)
    }

    /// The columns at which `shape`, with its top row at `y`, covers only
    /// free fields and at least one anchor: bit `x` is set iff the shape fits
    /// with the top-left corner of its bounding box at `(x, y)`.
    ///
    /// `y` must be at most `N - shape.height`; every fitting column is then
    /// also on the board, because the shape's rightmost cell must land on a
    /// free field.
    #[inline]
    pub fn fits(&self, shape: &FixedShape, y: usize) -> u32 {
        let mut all_free = u32::MAX;
        let mut any_anchor = 0;
        for &(dx, dy) in shape.shape.cells() {
            let row = (y + dy as usize) & 31;
            all_free &= self.free[row] >> dx;
            any_anchor |= self.anchors[row] >> dx;
        }
        all_free & any_anchor
    }

    /// Whether `shape` fits anywhere.
    #[inline]
    pub fn fits_anywhere(&self, shape: &FixedShape) -> bool {
        self.top_rows(shape).any(|y| self.fits(shape, y) != 0)
    }
}

/// The longest run of a piece row (a bar of five).
const MAX_RUN: usize = MAX_HEIGHT;

/// [`PlacementMasks`] prepared for listing every placement of many shapes:
/// bit `x` of `free_runs[len][y]` is set iff the `len` fields from `(x, y)`
/// rightwards are all free, and of `anchor_runs[len][y]` iff one of them is
/// an anchor. Each horizontal run of a shape ([`FixedShape::runs`]) is then
/// one shift, and all rows are computed at once with whole-array operations
/// that the compiler turns into SIMD instructions.
///
/// Rows are padded with zeros to 32: below the board nothing is free, so a
/// shape reaching past the bottom edge fits nowhere without a range check.
#[derive(Clone, Copy, Debug)]
pub struct RunMasks<const N: usize> {
    free_runs: [[u32; 32]; MAX_RUN + 1],
    anchor_runs: [[u32; 32]; MAX_RUN + 1],
}

impl<const N: usize> RunMasks<N> {
    /// Pieces are at most five rows high, so a shape's rows reach at most
    /// four rows below its top row: they must stay within the padding.
    const PADDING_SUFFICES: () = assert!(N + MAX_HEIGHT - 1 <= 32, "boards of at most 28 rows");

    /// Prepares the run masks.
    pub fn new(masks: &PlacementMasks<N>) -> Self {
        let () = Self::PADDING_SUFFICES;
        let mut runs = RunMasks {
            free_runs: [[0; 32]; MAX_RUN + 1],
            anchor_runs: [[0; 32]; MAX_RUN + 1],
        };
        runs.free_runs[1] = masks.free;
        runs.anchor_runs[1] = masks.anchors;
        for len in 2..=MAX_RUN {
            let (shorter, longer) = runs.free_runs.split_at_mut(len);
            let (shorter_anchor, longer_anchor) = runs.anchor_runs.split_at_mut(len);
            for y in 0..32 {
                longer[0][y] = shorter[len - 1][y] & masks.free[y] >> (len - 1);
                longer_anchor[0][y] = shorter_anchor[len - 1][y] | masks.anchors[y] >> (len - 1);
            }
        }
        runs
    }

    /// The columns at which `shape` fits, for every top row at once:
    /// `columns[y]` becomes [`PlacementMasks::fits`]`(shape, y)`, and 0 for
    /// rows where the shape would leave the board. Returns the rows with
    /// bit `y` set iff `columns[y]` is not 0, so that callers visit only
    /// those. (Written into the caller's array rather than returned: a
    /// build for size copies a returned array with a slow string move.)
    #[inline(always)]
    pub fn fits_by_row(&self, shape: &FixedShape, columns: &mut [u32; N]) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            self.fits_by_row_sse2(shape, columns)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.fits_by_row_scalar(shape, columns)
        }
    }

    /// [`RunMasks::fits_by_row`] four rows at a time in SSE2 (every
    /// x86-64 has it), written out rather than left to the optimiser's
    /// loop vectoriser, which a build for size does not run: the move
    /// generator spends most of its time here.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn fits_by_row_sse2(&self, shape: &FixedShape, columns: &mut [u32; N]) -> u32 {
        use safe_arch::{
            bitand_m128i, bitor_m128i, cast_to_m128_from_m128i, cmp_eq_mask_i32_m128i, m128i,
            move_mask_m128, set_i32_m128i_s, set_splat_i32_m128i, shr_all_u32_m128i, zeroed_m128i,
        };
        // Rows in groups of four; the padding rows past N are read (the
        // masks have 32 rows: `PADDING_SUFFICES`) and dropped. The groups
        // are written out (`each_group!`), so that their masks stay in
        // registers even where the optimiser unrolls no loop (a build for
        // size); the groups past N's are dropped as their conditions are
        // constants.
        let four = |rows: &[u32; 32], from: usize| {
            let mut lanes = [0; 4];
            lanes.copy_from_slice(&rows[from..from + 4]);
            m128i::from(lanes)
        };
        macro_rules! each_group {
            ($group:ident => $body:block) => {
                each_group!(@ $group $body 0 1 2 3 4 5 6 7)
            };
            (@ $group:ident $body:block $($index:literal)*) => {
                $(if $index < N.div_ceil(4) {
                    let $group: usize = $index;
                    $body
                })*
            };
        }
        let mut all_free = [set_splat_i32_m128i(-1); 8];
        let mut any_anchor = [zeroed_m128i(); 8];
        for &(dy, dx, len) in shape.runs() {
            let (dy, len) = (dy as usize, len as usize);
            let shift = set_i32_m128i_s(i32::from(dx));
            let (free, anchors) = (&self.free_runs[len], &self.anchor_runs[len]);
            each_group!(group => {
                let from = dy + 4 * group;
                all_free[group] =
                    bitand_m128i(all_free[group], shr_all_u32_m128i(four(free, from), shift));
                any_anchor[group] =
                    bitor_m128i(any_anchor[group], shr_all_u32_m128i(four(anchors, from), shift));
            });
        }
        let mut rows = 0;
        each_group!(group => {
            let fits = bitand_m128i(all_free[group], any_anchor[group]);
            let empty = cmp_eq_mask_i32_m128i(fits, zeroed_m128i());
            let empty = move_mask_m128(cast_to_m128_from_m128i(empty)) as u32;
            rows |= (!empty & 0xF) << (4 * group);
            let lanes: [u32; 4] = fits.into();
            for (i, lane) in lanes.into_iter().enumerate() {
                if let Some(column) = columns.get_mut(4 * group + i) {
                    *column = lane;
                }
            }
        });
        let within = if N >= 32 { u32::MAX } else { (1 << N) - 1 };
        rows & within
    }

    /// [`RunMasks::fits_by_row`] a row at a time (the reference the SSE2
    /// version is tested against).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline]
    fn fits_by_row_scalar(&self, shape: &FixedShape, all_free: &mut [u32; N]) -> u32 {
        *all_free = [u32::MAX; N];
        let mut any_anchor = [0; N];
        for &(dy, dx, len) in shape.runs() {
            let (dy, len) = (dy as usize, len as usize);
            let free = &self.free_runs[len][dy..dy + N];
            let anchors = &self.anchor_runs[len][dy..dy + N];
            for y in 0..N {
                all_free[y] &= free[y] >> dx;
                any_anchor[y] |= anchors[y] >> dx;
            }
        }
        let mut rows = 0;
        for y in 0..N {
            all_free[y] &= any_anchor[y];
            rows |= u32::from(all_free[y] != 0) << y;
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: ShapeTable<1, 2> = ShapeTable::build([&[(0, 0), (1, 0)]]);

    #[test]
    fn a_domino_on_an_empty_board_from_the_corners() {
        let masks = PlacementMasks::<4>::new(&Bitboard::FULL, &Bitboard::CORNERS);
        let horizontal = TABLE.shape(0);
        assert_eq!(masks.top_rows(horizontal), 0..4);
        // Covering (0,0) or (3,0) from the left columns 0 and 2.
        assert_eq!(masks.fits(horizontal, 0), 0b101);
        assert_eq!(masks.fits(horizontal, 1), 0);
        let vertical = TABLE.shape(1);
        assert_eq!(masks.top_rows(vertical), 0..3);
        assert_eq!(masks.fits(vertical, 0), 0b1001);
        assert_eq!(masks.fits(vertical, 2), 0b1001);
    }

    #[test]
    fn occupied_fields_block_and_no_anchor_means_no_fit() {
        let mut free = Bitboard::<4>::FULL;
        let blocked: Bitboard<4> = [(1, 0)].into_iter().collect();
        free &= !blocked;
        let masks = PlacementMasks::new(&free, &Bitboard::CORNERS);
        assert_eq!(masks.fits(TABLE.shape(0), 0), 0b100);
        let none = PlacementMasks::new(&free, &Bitboard::EMPTY);
        assert!(!none.has_anchor());
        assert!(!none.fits_anywhere(TABLE.shape(0)));
    }

    #[test]
    fn all_rows_at_once_agree_with_row_by_row() {
        const PIECES: ShapeTable<3, 14> = ShapeTable::build([
            &[(0, 0), (1, 0)],
            &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
            &[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)],
        ]);
        let mut free = Bitboard::<7>::FULL;
        let mut anchors = Bitboard::<7>::CORNERS;
        for (x, y) in [(1, 1), (3, 2), (5, 5), (2, 4)] {
            free &= !Bitboard::from_iter([(x, y)]);
            anchors |= Bitboard::from_iter([(x + 1, y + 1)]);
        }
        let masks = PlacementMasks::new(&free, &anchors);
        let runs = RunMasks::new(&masks);
        let mut fits = 0;
        for shape in PIECES.shapes() {
            let mut by_row = [u32::MAX; 7];
            let nonzero = runs.fits_by_row(shape, &mut by_row);
            let rows = masks.top_rows(shape);
            for (y, &columns) in by_row.iter().enumerate() {
                let expected = if rows.contains(&y) {
                    masks.fits(shape, y)
                } else {
                    0
                };
                assert_eq!(columns, expected, "{shape:?} at row {y}");
                assert_eq!(nonzero >> y & 1 != 0, columns != 0);
                fits += columns.count_ones();
            }
        }
        assert!(fits > 10);
    }

    /// The SSE2 version against the row-by-row one, on boards of 20, 14
    /// and 10 rows (every group of four, and a last group cut short) with
    /// fields taken and anchors spread by a fixed pseudo-random sequence,
    /// for every shape of a few pieces that reach every run length.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn four_rows_at_a_time_agree_with_one_row_at_a_time() {
        fn check<const N: usize>(seed: u64) {
            const PIECES: ShapeTable<4, 9> = ShapeTable::build([
                &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
                &[(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
                &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
                &[(0, 0), (1, 0)],
            ]);
            let mut state = seed;
            let mut next = move || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 33
            };
            let mut compared = 0;
            for _ in 0..40 {
                let (mut free, mut anchors) = (Bitboard::<N>::FULL, Bitboard::<N>::EMPTY);
                for _ in 0..next() % (N as u64 * 6) {
                    let (x, y) = ((next() % N as u64) as usize, (next() % N as u64) as usize);
                    free &= !Bitboard::from_iter([(x, y)]);
                }
                for _ in 0..1 + next() % 12 {
                    let (x, y) = ((next() % N as u64) as usize, (next() % N as u64) as usize);
                    anchors |= Bitboard::from_iter([(x, y)]);
                }
                let runs = RunMasks::new(&PlacementMasks::new(&free, &anchors));
                for shape in PIECES.shapes() {
                    let (mut wide, mut narrow) = ([7; N], [9; N]);
                    let rows = runs.fits_by_row_sse2(shape, &mut wide);
                    assert_eq!(rows, runs.fits_by_row_scalar(shape, &mut narrow));
                    assert_eq!(wide, narrow, "{shape:?}");
                    compared += rows.count_ones();
                }
            }
            assert!(compared > 100, "{compared} rows with fits only");
        }
        check::<20>(1);
        check::<14>(2);
        check::<10>(3);
    }
}
