//! [`ShapeTable`]: every distinct fixed shape of a piece set, computed at
//! compile time from the kinds' canonical cells with the official transform.

use core::ops::Range;

use super::shape::{MAX_CELLS, Rotation, Shape};

/// The most rows a piece spans in any orientation (a bar of five).
pub const MAX_HEIGHT: usize = 5;

/// The eight (rotation, flipped) labels in the official enumeration order:
/// `NONE`, `RIGHT`, `MIRROR`, `LEFT` unflipped, then the same flipped.
/// A label's index in this array is its *label index*.
pub const LABELS: [(Rotation, bool); 8] = [
    (Rotation::None, false),
    (Rotation::Right, false),
    (Rotation::Mirror, false),
    (Rotation::Left, false),
    (Rotation::None, true),
    (Rotation::Right, true),
    (Rotation::Mirror, true),
    (Rotation::Left, true),
];

/// The label index of `(rotation, flipped)` in [`LABELS`].
#[inline]
pub const fn label_index(rotation: Rotation, flipped: bool) -> usize {
    rotation as usize + if flipped { 4 } else { 0 }
}

/// One fixed shape: a piece kind in one orientation, with everything move
/// generation needs precomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedShape {
    /// The index of the piece kind in its piece set.
    pub kind: u8,
    /// The canonical label: the first label of [`LABELS`] producing these
    /// cells (the convention of the "same as" column of `blokus-2021.md`
    /// Appendix A).
    pub rotation: Rotation,
    /// See [`FixedShape::rotation`].
    pub flipped: bool,
    /// The normalised cells.
    pub shape: Shape,
    /// Width of the bounding box.
    pub width: u8,
    /// Height of the bounding box.
    pub height: u8,
    /// The cells as row masks: bit `dx` of `rows[dy]` is the cell `(dx, dy)`.
    pub rows: [u32; MAX_HEIGHT],
    /// The cells as horizontal runs of consecutive cells, `(dy, dx, len)`:
    /// the cells `(dx, dy)` … `(dx + len - 1, dy)`. Move generation tests a
    /// run at once.
    pub runs: [(u8, u8, u8); MAX_CELLS],
    /// The number of entries of `runs` in use.
    pub run_count: u8,
    /// The fields sharing an edge with a cell (the cells themselves where
    /// they neighbour each other), as row masks from the row above the
    /// shape (index 0) to the row below it, shifted one column right: bit
    /// `dx + 1` of `halo_edges[dy + 1]` is the field `(dx, dy)`. Placing a
    /// shape updates the few rows it touches with these.
    pub halo_edges: [u32; MAX_HEIGHT + 2],
    /// The fields diagonal to a cell, laid out as
    /// [`FixedShape::halo_edges`].
    pub halo_corners: [u32; MAX_HEIGHT + 2],
    /// Per cell, in the order of [`Shape::cells`]: the sides on which the
    /// shape continues, as [`Sides`] bits. A cell can lie on a field only
    /// if the field's neighbours on these sides are free.
    pub cell_sides: [u8; MAX_CELLS],
    /// For every set of sides `m` (0..16): the number of cells whose
    /// [`FixedShape::cell_sides`] lie within `m`.
    pub cells_within: [u8; 16],
}

/// The four sides of a field as bits of a 4-bit set: the neighbours above
/// (`y - 1`), right, below and left.
#[derive(Clone, Copy, Debug)]
pub struct Sides;

impl Sides {
    /// The field above.
    pub const UP: u8 = 1;
    /// The field to the right.
    pub const RIGHT: u8 = 2;
    /// The field below.
    pub const DOWN: u8 = 4;
    /// The field to the left.
    pub const LEFT: u8 = 8;
}

impl FixedShape {
    /// The horizontal runs of cells (see [`FixedShape::runs`]).
    #[inline]
    pub fn runs(&self) -> &[(u8, u8, u8)] {
        &self.runs[..self.run_count as usize]
    }
}

/// The distinct fixed shapes of a piece set of `K` kinds, `S` shapes in
/// all, grouped by kind in kind order; within a kind in the order of their
/// canonical labels.
#[derive(Clone, Debug)]
pub struct ShapeTable<const K: usize, const S: usize> {
    shapes: [FixedShape; S],
    /// Per kind: the index of its first shape and the number of its shapes.
    ranges: [(u8, u8); K],
    /// Per kind and label index: the index of the resulting shape.
    by_label: [[u8; 8]; K],
    /// Per kind: the number of cells.
    sizes: [u8; K],
    /// Bit `k` set iff kind `k` has a single cell.
    single_cells: u32,
    /// Per kind: [`FixedShape::cells_within`] summed over its shapes.
    kind_cells_within: [[u16; 16]; K],
    /// Per kind: for each set of sides `m` in turn, the (shape index, cell
    /// index) pairs of the kind whose cell's sides lie within `m`, in table
    /// order; `m`'s pairs start at `kind_pair_starts[kind][m]`.
    kind_pairs: [[(u8, u8); MAX_KIND_PAIRS]; K],
    /// Per kind and set of sides: where its pairs start in `kind_pairs`.
    kind_pair_starts: [[u16; 16]; K],
}

/// The most (shape, cell, set of sides) triples of one kind: eight shapes
/// of six cells, a cell with one side within eight sets.
const MAX_KIND_PAIRS: usize = 8 * MAX_CELLS * 8;

impl<const K: usize, const S: usize> ShapeTable<K, S> {
    /// Builds the table from each kind's canonical cells.
    ///
    /// # Panics
    ///
    /// At compile time, if the kinds do not have exactly `S` distinct fixed
    /// shapes, a kind has more than [`MAX_CELLS`] cells or spans more than
    /// [`MAX_HEIGHT`] rows or columns, or has more than 255 shapes in all.
    pub const fn build(canonical: [&[(i8, i8)]; K]) -> Self {
        const EMPTY_SHAPE: FixedShape = FixedShape {
            kind: 0,
            rotation: Rotation::None,
            flipped: false,
            shape: Shape::from_cells(&[]),
            width: 0,
            height: 0,
            rows: [0; MAX_HEIGHT],
            runs: [(0, 0, 0); MAX_CELLS],
            run_count: 0,
            halo_edges: [0; MAX_HEIGHT + 2],
            halo_corners: [0; MAX_HEIGHT + 2],
            cell_sides: [0; MAX_CELLS],
            cells_within: [0; 16],
        };
        assert!(S <= u8::MAX as usize, "shape indices are stored in a u8");
        let mut shapes = [EMPTY_SHAPE; S];
        let mut ranges = [(0u8, 0u8); K];
        let mut by_label = [[0u8; 8]; K];
        let mut sizes = [0u8; K];
        let mut single_cells = 0;
        let mut kind_cells_within = [[0u16; 16]; K];
        let mut kind_pairs = [[(0u8, 0u8); MAX_KIND_PAIRS]; K];
        let mut kind_pair_starts = [[0u16; 16]; K];
        let mut count = 0;
        let mut kind = 0;
        while kind < K {
            let first = count;
            let mut label = 0;
            while label < 8 {
                let (rotation, flipped) = LABELS[label];
                let shape = Shape::oriented(canonical[kind], rotation, flipped);
                let mut found = first;
                while found < count && !shapes[found].shape.same_cells(&shape) {
                    found += 1;
                }
                if found == count {
                    assert!(count < S, "more fixed shapes than the table holds");
                    shapes[count] = fixed_shape(kind as u8, rotation, flipped, shape);
                    count += 1;
                }
                by_label[kind][label] = found as u8;
                label += 1;
            }
            ranges[kind] = (first as u8, (count - first) as u8);
            let mut next = 0;
            let mut sides = 0;
            while sides < 16 {
                kind_pair_starts[kind][sides] = next as u16;
                let mut index = first;
                while index < count {
                    let fixed = &shapes[index];
                    kind_cells_within[kind][sides] += fixed.cells_within[sides] as u16;
                    let mut cell = 0;
                    while cell < fixed.shape.len() {
                        if fixed.cell_sides[cell] & !(sides as u8) == 0 {
                            assert!(next < MAX_KIND_PAIRS, "too many cells");
                            kind_pairs[kind][next] = (index as u8, cell as u8);
                            next += 1;
                        }
                        cell += 1;
                    }
                    index += 1;
                }
                sides += 1;
            }
            sizes[kind] = canonical[kind].len() as u8;
            if sizes[kind] == 1 {
                single_cells |= 1 << kind;
            }
            kind += 1;
        }
        assert!(count == S, "fewer fixed shapes than the table holds");
        ShapeTable {
            shapes,
            ranges,
            by_label,
            sizes,
            single_cells,
            kind_cells_within,
            kind_pairs,
            kind_pair_starts,
        }
    }

    /// All fixed shapes.
    #[inline]
    pub const fn shapes(&self) -> &[FixedShape; S] {
        &self.shapes
    }

    /// The fixed shape with this index.
    #[inline]
    pub const fn shape(&self, index: usize) -> &FixedShape {
        &self.shapes[index]
    }

    /// The indices of the fixed shapes of kind `kind`.
    #[inline]
    pub const fn shapes_of(&self, kind: usize) -> core::ops::Range<usize> {
        let (first, count) = self.ranges[kind];
        first as usize..first as usize + count as usize
    }

    /// The index of the fixed shape that kind `kind` takes under the label.
    #[inline]
    pub const fn shape_index(&self, kind: usize, rotation: Rotation, flipped: bool) -> usize {
        self.by_label[kind][label_index(rotation, flipped)] as usize
    }

    /// The number of cells of kind `kind`.
    #[inline]
    pub const fn kind_size(&self, kind: usize) -> u32 {
        self.sizes[kind] as u32
    }

    /// For every set of [`Sides`] `m`: the number of (shape, cell) pairs of
    /// kind `kind` whose cell's sides lie within `m`.
    #[inline]
    pub const fn kind_cells_within(&self, kind: usize) -> &[u16; 16] {
        &self.kind_cells_within[kind]
    }

    /// The `pick`-th (shape index, cell index) pair of kind `kind`, in
    /// table order, among those whose cell's sides lie within `sides`;
    /// `pick` must be below [`ShapeTable::kind_cells_within`]`(kind)[sides]`.
    #[inline]
    pub fn kind_pair(&self, kind: usize, sides: usize, pick: usize) -> (usize, usize) {
        let start = self.kind_pair_starts[kind][sides];
        let (shape, cell) = self.kind_pairs[kind][usize::from(start) + pick];
        (shape.into(), cell.into())
    }

    /// The kinds of a single cell, bit `k` for kind `k`.
    #[inline]
    pub const fn single_cell_kinds(&self) -> u32 {
        self.single_cells
    }

    /// The index of the fixed shape with exactly these normalised cells,
    /// if the set has one (the first in table order, should two kinds
    /// share a shape).
    pub fn find(&self, shape: &Shape) -> Option<usize> {
        self.shapes.iter().position(|fixed| fixed.shape == *shape)
    }
}

/// A table of fixed shapes seen without its sizes, so that code generic
/// over the piece set (the Blokus engine) can use any [`ShapeTable`].
/// Every method is the table's own.
pub trait Shapes: Sync + 'static {
    /// The number of piece kinds.
    const KINDS: usize;
    /// See [`ShapeTable::shape`].
    fn shape(&self, index: usize) -> &FixedShape;
    /// See [`ShapeTable::shapes_of`].
    fn shapes_of(&self, kind: usize) -> Range<usize>;
    /// See [`ShapeTable::shape_index`].
    fn shape_index(&self, kind: usize, rotation: Rotation, flipped: bool) -> usize;
    /// See [`ShapeTable::kind_size`].
    fn kind_size(&self, kind: usize) -> u32;
    /// See [`ShapeTable::find`].
    fn find(&self, shape: &Shape) -> Option<usize>;
    /// See [`ShapeTable::single_cell_kinds`].
    fn single_cell_kinds(&self) -> u32;
    /// See [`ShapeTable::kind_cells_within`].
    fn kind_cells_within(&self, kind: usize) -> &[u16; 16];
    /// See [`ShapeTable::kind_pair`].
    fn kind_pair(&self, kind: usize, sides: usize, pick: usize) -> (usize, usize);
}

impl<const K: usize, const S: usize> Shapes for ShapeTable<K, S> {
    const KINDS: usize = K;

    #[inline]
    fn shape(&self, index: usize) -> &FixedShape {
        ShapeTable::shape(self, index)
    }

    #[inline]
    fn shapes_of(&self, kind: usize) -> Range<usize> {
        ShapeTable::shapes_of(self, kind)
    }

    #[inline]
    fn shape_index(&self, kind: usize, rotation: Rotation, flipped: bool) -> usize {
        ShapeTable::shape_index(self, kind, rotation, flipped)
    }

    #[inline]
    fn kind_size(&self, kind: usize) -> u32 {
        ShapeTable::kind_size(self, kind)
    }

    fn find(&self, shape: &Shape) -> Option<usize> {
        ShapeTable::find(self, shape)
    }

    #[inline]
    fn single_cell_kinds(&self) -> u32 {
        ShapeTable::single_cell_kinds(self)
    }

    #[inline]
    fn kind_cells_within(&self, kind: usize) -> &[u16; 16] {
        ShapeTable::kind_cells_within(self, kind)
    }

    #[inline]
    fn kind_pair(&self, kind: usize, sides: usize, pick: usize) -> (usize, usize) {
        ShapeTable::kind_pair(self, kind, sides, pick)
    }
}

/// Whether the row masks hold the cell `(x, y)`.
const fn has_cell(rows: &[u32; MAX_HEIGHT], x: i32, y: i32) -> bool {
    x >= 0 && x < 32 && y >= 0 && (y as usize) < MAX_HEIGHT && rows[y as usize] >> x & 1 != 0
}

const fn fixed_shape(kind: u8, rotation: Rotation, flipped: bool, shape: Shape) -> FixedShape {
    let (width, height) = shape.extent();
    assert!(
        width as usize <= MAX_HEIGHT && height as usize <= MAX_HEIGHT,
        "a piece spans at most five rows and columns"
    );
    let mut rows = [0u32; MAX_HEIGHT];
    let cells = shape.cells();
    let mut i = 0;
    while i < cells.len() {
        let (x, y) = cells[i];
        rows[y as usize] |= 1 << x;
        i += 1;
    }
    let mut runs = [(0, 0, 0); MAX_CELLS];
    let mut run_count = 0;
    let mut dy = 0;
    while dy < MAX_HEIGHT {
        let mut rest = rows[dy];
        while rest != 0 {
            let dx = rest.trailing_zeros();
            let len = (rest >> dx).trailing_ones();
            runs[run_count] = (dy as u8, dx as u8, len as u8);
            run_count += 1;
            rest &= !(((1 << len) - 1) << dx);
        }
        dy += 1;
    }
    // The halo, with the shape one row down and one column right: local
    // row i is shape row i - 1, local bit j column j - 1.
    let mut local = [0u32; MAX_HEIGHT + 4];
    let mut i = 0;
    while i < height as usize {
        local[i + 2] = rows[i] << 1;
        i += 1;
    }
    let mut halo_edges = [0u32; MAX_HEIGHT + 2];
    let mut halo_corners = [0u32; MAX_HEIGHT + 2];
    let mut i = 0;
    while i < height as usize + 2 {
        let (above, row, below) = (local[i], local[i + 1], local[i + 2]);
        halo_edges[i] = row << 1 | row >> 1 | above | below;
        halo_corners[i] = (above | below) << 1 | (above | below) >> 1;
        i += 1;
    }
    let mut cell_sides = [0u8; MAX_CELLS];
    let mut i = 0;
    while i < cells.len() {
        let (x, y) = (cells[i].0 as i32, cells[i].1 as i32);
        cell_sides[i] = if has_cell(&rows, x, y - 1) {
            Sides::UP
        } else {
            0
        } | if has_cell(&rows, x + 1, y) {
            Sides::RIGHT
        } else {
            0
        } | if has_cell(&rows, x, y + 1) {
            Sides::DOWN
        } else {
            0
        } | if has_cell(&rows, x - 1, y) {
            Sides::LEFT
        } else {
            0
        };
        i += 1;
    }
    let mut cells_within = [0u8; 16];
    let mut sides = 0;
    while sides < 16 {
        let mut i = 0;
        while i < cells.len() {
            if cell_sides[i] & !(sides as u8) == 0 {
                cells_within[sides] += 1;
            }
            i += 1;
        }
        sides += 1;
    }
    FixedShape {
        kind,
        rotation,
        flipped,
        shape,
        width,
        height,
        rows,
        runs,
        run_count: run_count as u8,
        halo_edges,
        halo_corners,
        cell_sides,
        cells_within,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A domino and an L tromino: 2 + 4 fixed shapes.
    const SMALL: ShapeTable<2, 6> =
        ShapeTable::build([&[(0, 0), (1, 0)], &[(0, 0), (0, 1), (1, 1)]]);

    #[test]
    fn shapes_are_grouped_by_kind_with_their_first_label() {
        assert_eq!(SMALL.shapes_of(0), 0..2);
        assert_eq!(SMALL.shapes_of(1), 2..6);
        let domino_right = SMALL.shape(1);
        assert_eq!(
            (domino_right.rotation, domino_right.flipped),
            (Rotation::Right, false)
        );
        assert_eq!((domino_right.width, domino_right.height), (1, 2));
        assert_eq!(domino_right.rows, [1, 1, 0, 0, 0]);
        assert_eq!(domino_right.runs(), [(0, 0, 1), (1, 0, 1)]);
        assert_eq!(SMALL.shape(0).runs(), [(0, 0, 2)]);
        // LEFT is the same vertical domino as RIGHT.
        assert_eq!(SMALL.shape_index(0, Rotation::Left, true), 1);
        // The flipped L tromino repeats the unflipped ones (blokus-2021.md §5.1).
        assert_eq!(
            SMALL.shape_index(1, Rotation::None, true),
            SMALL.shape_index(1, Rotation::Left, false)
        );
    }
}
