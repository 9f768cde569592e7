//! Moves of the 20×20 Blokus variants (the Software-Challenge seasons and
//! classic Blokus) as the 2021 wire describes them, and the mistakes that
//! make a move illegal in a Software-Challenge season.

use core::fmt;

use super::{
    color::Color,
    piece::{PieceKind, Rotation},
    shapes::SHAPES,
};
use crate::polyomino::Shape;

/// A piece placement exactly as a client sends it: the rotation and flip are
/// kept as labels, so several placements can cover the same cells (a
/// `TETRO_O` looks the same in all eight orientations).
///
/// `==` compares the labels. Two placements are the same move for the rules
/// iff [`Placement::same_cells`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The colour of the piece; must be the colour on turn.
    pub color: Color,
    /// The piece kind.
    pub kind: PieceKind,
    /// Rotation, applied first.
    pub rotation: Rotation,
    /// Left-right mirror, applied after the rotation.
    pub flipped: bool,
    /// Column of the top-left corner of the placed piece's bounding box. May
    /// lie off the board: such a move is rejected as out of bounds.
    pub x: i32,
    /// Row of the top-left corner of the bounding box (y grows downwards).
    pub y: i32,
}

impl Placement {
    /// The absolute board cells `(x, y)` the piece covers, row by row. Cells
    /// may lie off the board; coordinates saturate at the `i32` limits (a
    /// position near `i32::MAX` comes off the wire as easily as any other),
    /// which keeps such cells off the board.
    pub fn cells(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let shape = self.kind.shape(self.rotation, self.flipped);
        let (x0, y0) = (self.x, self.y);
        (0..shape.cells().len()).map(move |i| {
            let (dx, dy) = shape.cells()[i];
            (
                x0.saturating_add(i32::from(dx)),
                y0.saturating_add(i32::from(dy)),
            )
        })
    }

    /// The placement of fixed shape `shape` (an index into [`SHAPES`]) for
    /// `color` with its top-left corner at `(x, y)`, as move generation
    /// finds it, labelled with the shape's canonical rotation and flip.
    pub(super) fn of_fixed_shape(color: Color, shape: usize, x: usize, y: usize) -> Placement {
        let fixed = SHAPES.shape(shape);
        Placement {
            color,
            kind: PieceKind::ALL[fixed.kind as usize],
            rotation: fixed.rotation,
            flipped: fixed.flipped,
            x: x as i32,
            y: y as i32,
        }
    }

    /// The placement covering exactly `cells` (in any order) with a piece
    /// of `color`, labelled with the canonical label of its shape (as move
    /// generation labels it) and the top-left corner of the cells' bounding
    /// box; `None` if the cells are no piece kind's shape.
    pub fn from_cells(color: Color, cells: &[(i32, i32)]) -> Option<Placement> {
        let (shape, x0, y0) = Shape::of_cells(cells)?;
        let fixed = SHAPES.shape(SHAPES.find(&shape)?);
        Some(Placement {
            color,
            kind: PieceKind::ALL[usize::from(fixed.kind)],
            rotation: fixed.rotation,
            flipped: fixed.flipped,
            x: x0,
            y: y0,
        })
    }

    /// Whether both placements put the same colour on the same cells.
    pub fn same_cells(&self, other: &Placement) -> bool {
        self.color == other.color && self.kind == other.kind && self.cells().eq(other.cells())
    }
}

/// A move of the 20×20 Blokus variants (Blokus 2021, 2027, classic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a piece (`sc.plugin2021.SetMove`).
    Set(Placement),
    /// Pass (`sc.plugin2021.SkipMove`) for the given colour. Classic
    /// Blokus has no voluntary pass: there it is always a mistake.
    Skip(Color),
}

impl Move {
    /// The colour the move is for.
    pub fn color(&self) -> Color {
        match self {
            Move::Set(p) => p.color,
            Move::Skip(c) => *c,
        }
    }
}

/// Why a move is illegal in a Software-Challenge season. The variants are
/// the official mistake kinds; the rules report the first failing check in
/// the official order (`blokus-2021.md` §8.2, `blokus-2027.md` §3.6). 2027
/// renamed `NOT_IN_CORNER` to `NOT_ON_BORDER`: each season reports only
/// its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// The move's colour is not the colour on turn.
    WrongColor,
    /// A colour's first piece is not the start piece.
    WrongShape,
    /// The kind was already placed by this colour.
    DuplicateShape,
    /// A cell lies outside the board.
    OutOfBounds,
    /// A cell is already occupied.
    Obstructed,
    /// A cell shares an edge with a cell of the same colour.
    TouchesSameColor,
    /// A colour's first piece covers no board corner (2021).
    NotInCorner,
    /// A colour's first piece covers no border field (2027).
    NotOnBorder,
    /// The piece shares no corner with a piece of its colour.
    NoSharedCorner,
    /// A colour tried to pass before placing its first piece.
    SkipFirstTurn,
}

impl Mistake {
    /// The official enum name, e.g. `NO_SHARED_CORNER`.
    pub const fn name(self) -> &'static str {
        match self {
            Mistake::WrongColor => "WRONG_COLOR",
            Mistake::WrongShape => "WRONG_SHAPE",
            Mistake::DuplicateShape => "DUPLICATE_SHAPE",
            Mistake::OutOfBounds => "OUT_OF_BOUNDS",
            Mistake::Obstructed => "OBSTRUCTED",
            Mistake::TouchesSameColor => "TOUCHES_SAME_COLOR",
            Mistake::NotInCorner => "NOT_IN_CORNER",
            Mistake::NotOnBorder => "NOT_ON_BORDER",
            Mistake::NoSharedCorner => "NO_SHARED_CORNER",
            Mistake::SkipFirstTurn => "SKIP_FIRST_TURN",
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mistake::WrongColor => "the move's colour is not on turn",
            Mistake::WrongShape => "a colour's first piece must be the start piece",
            Mistake::DuplicateShape => "this piece was already placed",
            Mistake::OutOfBounds => "the piece does not fit on the board",
            Mistake::Obstructed => "the piece would cover an occupied field",
            Mistake::TouchesSameColor => "the piece shares an edge with its own colour",
            Mistake::NotInCorner => "a colour's first piece must cover a free corner",
            Mistake::NotOnBorder => "a colour's first piece must cover a border field",
            Mistake::NoSharedCorner => "the piece must touch its own colour at a corner",
            Mistake::SkipFirstTurn => "a colour cannot pass before its first piece",
        })
    }
}

impl core::error::Error for Mistake {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_cells_are_shape_plus_position() {
        let p = Placement {
            color: Color::Yellow,
            kind: PieceKind::PentoL,
            rotation: Rotation::Right,
            flipped: true,
            x: 15,
            y: 3,
        };
        let cells: Vec<_> = p.cells().collect();
        assert_eq!(cells, [(15, 3), (16, 3), (17, 3), (18, 3), (18, 4)]);
    }

    #[test]
    fn placements_from_cells_carry_the_canonical_label() {
        let p = Placement {
            color: Color::Yellow,
            kind: PieceKind::PentoL,
            rotation: Rotation::Right,
            flipped: true,
            x: 15,
            y: 3,
        };
        let mut cells: Vec<_> = p.cells().collect();
        cells.reverse();
        let found = Placement::from_cells(Color::Yellow, &cells).expect("a piece");
        assert!(found.same_cells(&p));
        assert_eq!((found.x, found.y), (15, 3));
        let o = Placement::from_cells(Color::Red, &[(3, 4), (4, 4), (3, 5), (4, 5)]);
        assert_eq!(
            o.map(|o| (o.kind, o.rotation, o.flipped)),
            Some((PieceKind::TetroO, Rotation::None, false))
        );
        for cells in [
            &[][..],
            &[(0, 0), (2, 0)],
            &[(0, 0), (0, 0)],
            &[(0, 0), (i32::MAX, 0)],
        ] {
            assert_eq!(Placement::from_cells(Color::Blue, cells), None, "{cells:?}");
        }
    }

    #[test]
    fn tetro_o_is_the_same_move_in_every_orientation() {
        let base = Placement {
            color: Color::Red,
            kind: PieceKind::TetroO,
            rotation: Rotation::None,
            flipped: false,
            x: 4,
            y: 7,
        };
        for rotation in Rotation::ALL {
            for flipped in [false, true] {
                let other = Placement {
                    rotation,
                    flipped,
                    ..base
                };
                assert!(base.same_cells(&other));
            }
        }
        let elsewhere = Placement { x: 5, ..base };
        assert!(!base.same_cells(&elsewhere));
        let other_colour = Placement {
            color: Color::Blue,
            ..base
        };
        assert!(!base.same_cells(&other_colour));
    }
}
