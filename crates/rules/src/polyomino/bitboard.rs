//! [`Bitboard`]: a set of fields of a square board of side `N` (at most 31),
//! stored as one `u32` row mask per row.
//!
//! Row masks suit polyomino games: a piece spans at most five rows, so
//! testing a piece at every column of a row is a handful of shifts and ANDs
//! on one word, and the board sizes of the Blokus variants (10, 14, 20) all
//! fit one row into a `u32`.

use core::{fmt, ops};

/// A set of fields of an `N`×`N` board. Bit `x` of row `y` is the field
/// `(x, y)`; `(0, 0)` is the top-left corner. Bits at columns `N..32` are
/// always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard<const N: usize> {
    rows: [u32; N],
}

impl<const N: usize> Bitboard<N> {
    /// The mask of the columns of one row.
    pub const ROW_MASK: u32 = {
        assert!(N > 0 && N < 32, "a row must fit a u32 with a spare bit");
        (1 << N) - 1
    };

    /// No field.
    pub const EMPTY: Self = Bitboard { rows: [0; N] };

    /// Every field of the board.
    pub const FULL: Self = Bitboard {
        rows: [Self::ROW_MASK; N],
    };

    /// The four corner fields.
    pub const CORNERS: Self = {
        let mut rows = [0; N];
        rows[0] = 1 | 1 << (N - 1);
        rows[N - 1] = 1 | 1 << (N - 1);
        Bitboard { rows }
    };

    /// The fields on the edge of the board: first and last row and column.
    pub const BORDER: Self = {
        let mut rows = [1 | 1 << (N - 1); N];
        rows[0] = Self::ROW_MASK;
        rows[N - 1] = Self::ROW_MASK;
        Bitboard { rows }
    };

    /// The set holding only the field `(x, y)`.
    ///
    /// # Panics
    ///
    /// If `(x, y)` is off the board (at compile time in constants).
    pub const fn single(x: usize, y: usize) -> Self {
        assert!(x < N && y < N, "the field is off the board");
        let mut rows = [0; N];
        rows[y] = 1 << x;
        Bitboard { rows }
    }

    /// The board from its row masks; bits outside the board are dropped.
    pub const fn from_rows(mut rows: [u32; N]) -> Self {
        let mut y = 0;
        while y < N {
            rows[y] &= Self::ROW_MASK;
            y += 1;
        }
        Bitboard { rows }
    }

    /// The row masks, top to bottom.
    #[inline]
    pub const fn rows(&self) -> &[u32; N] {
        &self.rows
    }

    /// The mask of row `y` (0 for rows off the board).
    #[inline]
    pub const fn row(&self, y: usize) -> u32 {
        if y < N { self.rows[y] } else { 0 }
    }

    /// Whether `(x, y)` is in the set; fields off the board never are.
    #[inline]
    pub const fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < N
            && (y as usize) < N
            && self.rows[y as usize] >> x & 1 != 0
    }

    /// Adds the field `(x, y)`, which must lie on the board.
    ///
    /// # Panics
    ///
    /// If `(x, y)` is off the board.
    #[inline]
    pub fn insert(&mut self, x: usize, y: usize) {
        assert!(x < N, "column {x} is off the board");
        self.rows[y] |= 1 << x;
    }

    /// Adds the fields of row masks laid out around a point: row `i` of
    /// `rows`, shifted left by `x` and right by `margin`, goes to board row
    /// `y + i - margin`. Rows and columns off the board are dropped. With
    /// `margin` 0 this puts a shape's rows at `(x, y)`; with 1 it adds a
    /// shape's halo ([`FixedShape::halo_edges`](super::FixedShape::halo_edges)).
    #[inline]
    pub fn insert_rows(&mut self, rows: &[u32], x: usize, y: usize, margin: usize) {
        for (i, &mask) in rows.iter().enumerate() {
            let row = (y + i).wrapping_sub(margin);
            if row < N {
                self.rows[row] |= (mask << x) >> margin & Self::ROW_MASK;
            }
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// The number of fields in the set.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Whether both sets share a field.
    pub fn intersects(&self, other: &Self) -> bool {
        self.rows.iter().zip(&other.rows).any(|(a, b)| a & b != 0)
    }

    /// The fields that share an edge with a field of the set (the set's own
    /// fields only where they neighbour another one).
    #[must_use]
    pub fn edge_neighbours(&self) -> Self {
        let mut out = [0; N];
        for (y, out) in out.iter_mut().enumerate() {
            let (above, row, below) = self.row_with_neighbours(y);
            *out = (row << 1 | row >> 1 | above | below) & Self::ROW_MASK;
        }
        Bitboard { rows: out }
    }

    /// The fields that touch a field of the set at a corner only, that is
    /// diagonally.
    #[must_use]
    pub fn diagonal_neighbours(&self) -> Self {
        let mut out = [0; N];
        for (y, out) in out.iter_mut().enumerate() {
            let (above, _, below) = self.row_with_neighbours(y);
            let vertical = above | below;
            *out = (vertical << 1 | vertical >> 1) & Self::ROW_MASK;
        }
        Bitboard { rows: out }
    }

    /// Rows `y - 1`, `y` and `y + 1`, 0 where off the board.
    #[inline]
    const fn row_with_neighbours(&self, y: usize) -> (u32, u32, u32) {
        (self.row(y.wrapping_sub(1)), self.row(y), self.row(y + 1))
    }

    /// The fields `(x, y)` row by row (y, then x).
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows.iter().enumerate().flat_map(|(y, &row)| {
            let mut bits = row;
            core::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some((x, y))
            })
        })
    }
}

impl<const N: usize> Default for Bitboard<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> ops::BitAnd for Bitboard<N> {
    type Output = Self;

    #[inline]
    fn bitand(mut self, rhs: Self) -> Self {
        self &= rhs;
        self
    }
}

impl<const N: usize> ops::BitAndAssign for Bitboard<N> {
    #[inline]
    fn bitand_assign(&mut self, rhs: Self) {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a &= b;
        }
    }
}

impl<const N: usize> ops::BitOr for Bitboard<N> {
    type Output = Self;

    #[inline]
    fn bitor(mut self, rhs: Self) -> Self {
        self |= rhs;
        self
    }
}

impl<const N: usize> ops::BitOrAssign for Bitboard<N> {
    #[inline]
    fn bitor_assign(&mut self, rhs: Self) {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a |= b;
        }
    }
}

impl<const N: usize> ops::Not for Bitboard<N> {
    type Output = Self;

    /// The complement within the board.
    #[inline]
    fn not(mut self) -> Self {
        for a in &mut self.rows {
            *a = !*a & Self::ROW_MASK;
        }
        self
    }
}

impl<const N: usize> FromIterator<(usize, usize)> for Bitboard<N> {
    /// Collects fields `(x, y)`.
    ///
    /// # Panics
    ///
    /// If a field is off the board.
    fn from_iter<I: IntoIterator<Item = (usize, usize)>>(iter: I) -> Self {
        let mut board = Self::EMPTY;
        for (x, y) in iter {
            board.insert(x, y);
        }
        board
    }
}

impl<const N: usize> fmt::Debug for Bitboard<N> {
    /// Draws the board, one line per row, `#` for fields in the set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in &self.rows {
            f.write_str("\n")?;
            for x in 0..N {
                f.write_str(if row >> x & 1 != 0 { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type B5 = Bitboard<5>;

    #[test]
    fn corners_and_complement() {
        let corners: Vec<_> = B5::CORNERS.iter().collect();
        assert_eq!(corners, [(0, 0), (4, 0), (0, 4), (4, 4)]);
        assert_eq!((!B5::CORNERS).count(), 21);
        assert_eq!((!B5::FULL), B5::EMPTY);
    }

    #[test]
    fn border_and_single_fields() {
        assert_eq!(B5::BORDER.count(), 16);
        assert!(B5::BORDER.contains(0, 2) && B5::BORDER.contains(4, 3));
        assert!(B5::BORDER.contains(2, 0) && B5::BORDER.contains(2, 4));
        assert!(!B5::BORDER.contains(2, 2) && !B5::BORDER.contains(1, 3));
        let field: Vec<_> = B5::single(3, 1).iter().collect();
        assert_eq!(field, [(3, 1)]);
    }

    #[test]
    fn neighbours_of_a_field_in_the_middle_and_at_the_edge() {
        let centre: B5 = [(2, 2)].into_iter().collect();
        let edges: Vec<_> = centre.edge_neighbours().iter().collect();
        assert_eq!(edges, [(2, 1), (1, 2), (3, 2), (2, 3)]);
        let diagonals: Vec<_> = centre.diagonal_neighbours().iter().collect();
        assert_eq!(diagonals, [(1, 1), (3, 1), (1, 3), (3, 3)]);

        let corner: B5 = [(4, 0)].into_iter().collect();
        let edges: Vec<_> = corner.edge_neighbours().iter().collect();
        assert_eq!(edges, [(3, 0), (4, 1)]);
        let diagonals: Vec<_> = corner.diagonal_neighbours().iter().collect();
        assert_eq!(diagonals, [(3, 1)]);
    }

    #[test]
    fn contains_rejects_fields_off_the_board() {
        let b = B5::FULL;
        assert!(b.contains(0, 0) && b.contains(4, 4));
        assert!(!b.contains(-1, 0) && !b.contains(5, 0) && !b.contains(0, 5));
        assert!(!B5::from_rows([u32::MAX; 5]).contains(5, 1));
    }
}
