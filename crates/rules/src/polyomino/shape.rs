//! Oriented polyomino shapes: the rotation labels of the wire and the official
//! transform from (canonical cells, rotation, flip) to normalised cells.

use core::{fmt, str::FromStr};

use crate::names::UnknownName;

/// A rotation as the wire names it. Applied before the flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rotation {
    /// Unchanged.
    None = 0,
    /// 90° clockwise (on the y-down screen).
    Right = 1,
    /// 180°.
    Mirror = 2,
    /// 90° counter-clockwise.
    Left = 3,
}

impl Rotation {
    /// All rotations in wire order.
    pub const ALL: [Rotation; 4] = [
        Rotation::None,
        Rotation::Right,
        Rotation::Mirror,
        Rotation::Left,
    ];

    /// The wire name (`NONE`, `RIGHT`, `MIRROR`, `LEFT`).
    pub const fn name(self) -> &'static str {
        match self {
            Rotation::None => "NONE",
            Rotation::Right => "RIGHT",
            Rotation::Mirror => "MIRROR",
            Rotation::Left => "LEFT",
        }
    }

    /// The clockwise angle in degrees (0, 90, 180, 270).
    pub const fn degrees(self) -> u32 {
        self as u32 * 90
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rotation {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive wire name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rotation::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or(UnknownName)
    }
}

/// The most cells a piece of any Blokus variant has (the hexominoes of the
/// 10×10 game).
pub const MAX_CELLS: usize = 6;

/// The normalised cells of an oriented piece: at most [`MAX_CELLS`] `(x, y)` pairs,
/// shifted so that the minimum x and the minimum y are 0, and kept sorted row
/// by row (y, then x) so that equal cell sets compare equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    cells: [(i8, i8); MAX_CELLS],
    len: u8,
}

impl Shape {
    /// Normalises and sorts up to [`MAX_CELLS`] cells.
    ///
    /// # Panics
    ///
    /// If `cells` holds more than [`MAX_CELLS`] cells.
    pub const fn from_cells(cells: &[(i8, i8)]) -> Shape {
        assert!(
            cells.len() <= MAX_CELLS,
            "a Blokus piece has at most six cells"
        );
        let (mut min_x, mut min_y) = (0, 0);
        let mut i = 0;
        while i < cells.len() {
            let (x, y) = cells[i];
            if i == 0 || x < min_x {
                min_x = x;
            }
            if i == 0 || y < min_y {
                min_y = y;
            }
            i += 1;
        }
        let mut shape = Shape {
            cells: [(0, 0); MAX_CELLS],
            len: cells.len() as u8,
        };
        // Insertion sort by (y, x): `sort` is not available in const fns and
        // six elements need nothing better.
        let mut i = 0;
        while i < cells.len() {
            let cell = (cells[i].0 - min_x, cells[i].1 - min_y);
            let mut j = i;
            while j > 0 && row_major_less(cell, shape.cells[j - 1]) {
                shape.cells[j] = shape.cells[j - 1];
                j -= 1;
            }
            shape.cells[j] = cell;
            i += 1;
        }
        shape
    }

    /// The normalised cells of `cells` after `rotation`, then a left-right
    /// mirror if `flipped`: the official transform of `blokus-2021.md` §5.
    /// The one implementation of that transform; piece tables of every
    /// Blokus variant are built with it.
    pub const fn oriented(cells: &[(i8, i8)], rotation: Rotation, flipped: bool) -> Shape {
        let base = Shape::from_cells(cells);
        let mut moved = [(0, 0); MAX_CELLS];
        let mut i = 0;
        while i < base.len as usize {
            let (x, y) = base.cells[i];
            let (x, y) = match rotation {
                Rotation::None => (x, y),
                Rotation::Right => (-y, x),
                Rotation::Mirror => (-x, -y),
                Rotation::Left => (y, -x),
            };
            moved[i] = if flipped { (-x, y) } else { (x, y) };
            i += 1;
        }
        let (moved, _) = moved.split_at(base.len as usize);
        Shape::from_cells(moved)
    }

    /// The shape of absolute cells `(x, y)` given in any order, and the
    /// top-left corner of their bounding box; `None` for more than
    /// [`MAX_CELLS`] cells, none, or cells too far apart for a piece.
    pub fn of_cells(cells: &[(i32, i32)]) -> Option<(Shape, i32, i32)> {
        let x0 = cells.iter().map(|c| c.0).min()?;
        let y0 = cells.iter().map(|c| c.1).min()?;
        let mut relative = [(0i8, 0i8); MAX_CELLS];
        if cells.len() > MAX_CELLS {
            return None;
        }
        for (to, &(x, y)) in relative.iter_mut().zip(cells) {
            let (dx, dy) = (x.checked_sub(x0)?, y.checked_sub(y0)?);
            *to = (i8::try_from(dx).ok()?, i8::try_from(dy).ok()?);
        }
        Some((Shape::from_cells(&relative[..cells.len()]), x0, y0))
    }

    /// The cells, row by row (y, then x).
    #[inline]
    pub const fn cells(&self) -> &[(i8, i8)] {
        self.cells.split_at(self.len as usize).0
    }

    /// The number of cells.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the shape has no cells.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Width and height of the bounding box.
    pub const fn extent(&self) -> (u8, u8) {
        let (mut w, mut h) = (0, 0);
        let mut i = 0;
        while i < self.len as usize {
            let (x, y) = self.cells[i];
            if x + 1 > w {
                w = x + 1;
            }
            if y + 1 > h {
                h = y + 1;
            }
            i += 1;
        }
        (w as u8, h as u8)
    }

    /// Whether both shapes have the same cells; `==` for const contexts.
    pub const fn same_cells(&self, other: &Shape) -> bool {
        if self.len != other.len {
            return false;
        }
        let mut i = 0;
        while i < self.len as usize {
            if self.cells[i].0 != other.cells[i].0 || self.cells[i].1 != other.cells[i].1 {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// Row-major order of cells: by y, then by x.
const fn row_major_less(a: (i8, i8), b: (i8, i8)) -> bool {
    a.1 < b.1 || (a.1 == b.1 && a.0 < b.0)
}

impl fmt::Debug for Shape {
    /// Draws the shape as rows of `#` and `.` separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = self.extent();
        for y in 0..h as i8 {
            if y > 0 {
                f.write_str("/")?;
            }
            for x in 0..w as i8 {
                let c = if self.cells().contains(&(x, y)) {
                    '#'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}
