//! The blocks of the BLOKUS Champions League game (`decisions.md` §20):
//! ten kinds, SQUARE and WORM twice, 12 blocks and 51 cells per player; the
//! `place_to` orientation labels (clockwise rotation, then a flip); and the
//! table of their fixed shapes.

use core::{fmt, str::FromStr};

use crate::{
    names::UnknownName,
    polyomino::{Rotation, Shape, ShapeTable},
};

/// A block kind. The discriminant is the kind's index in the seed's order.
///
/// Pictures (`#` a cell, rows top to bottom, in the orientation `NONE`,
/// `NONE`):
///
/// | kind | picture | cells |
/// | --- | --- | --- |
/// | `SQUARE` (×2) | `##` / `##` | 4 |
/// | `HANDGUN` | `###` / `#..` | 4 |
/// | `SHOTGUN` | `####` / `##..` | 6 |
/// | `WORM` (×2) | `#####` | 5 |
/// | `CROWBAR` | `#####` / `#....` | 6 |
/// | `CHAIR` | `##` / `#.` | 3 |
/// | `CROSS` | `.#.` / `###` / `.#.` | 5 |
/// | `BOOMERANG` | `###` / `#..` / `#..` | 5 |
/// | `STICK` | `###` | 3 |
/// | `DOT` | `#` | 1 |
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum BclKind {
    Square = 0,
    Handgun,
    Shotgun,
    Worm,
    Crowbar,
    Chair,
    Cross,
    Boomerang,
    Stick,
    Dot,
}

/// The number of block kinds.
pub(crate) const KIND_COUNT: usize = 10;

/// The number of distinct fixed shapes of the ten kinds.
pub(crate) const SHAPE_COUNT: usize = 39;

/// The kinds every player holds twice, as bits by kind index.
pub(crate) const DOUBLES: u32 = 1 << BclKind::Square as u32 | 1 << BclKind::Worm as u32;

impl BclKind {
    /// All kinds in the seed's order.
    pub const ALL: [BclKind; KIND_COUNT] = [
        BclKind::Square,
        BclKind::Handgun,
        BclKind::Shotgun,
        BclKind::Worm,
        BclKind::Crowbar,
        BclKind::Chair,
        BclKind::Cross,
        BclKind::Boomerang,
        BclKind::Stick,
        BclKind::Dot,
    ];

    /// The kind's index (0..10).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name, e.g. `SHOTGUN`.
    pub const fn name(self) -> &'static str {
        match self {
            BclKind::Square => "SQUARE",
            BclKind::Handgun => "HANDGUN",
            BclKind::Shotgun => "SHOTGUN",
            BclKind::Worm => "WORM",
            BclKind::Crowbar => "CROWBAR",
            BclKind::Chair => "CHAIR",
            BclKind::Cross => "CROSS",
            BclKind::Boomerang => "BOOMERANG",
            BclKind::Stick => "STICK",
            BclKind::Dot => "DOT",
        }
    }

    /// How many blocks of this kind a player has at the start (1 or 2).
    pub const fn count(self) -> u32 {
        1 + (DOUBLES >> self as u32 & 1)
    }

    /// The cells `(x, y)` of the kind in the orientation `NONE`, `NONE`
    /// (x to the right, y down), as in the pictures of [`BclKind`].
    pub const fn canonical_cells(self) -> &'static [(i8, i8)] {
        match self {
            BclKind::Square => &[(0, 0), (1, 0), (0, 1), (1, 1)],
            BclKind::Handgun => &[(0, 0), (1, 0), (2, 0), (0, 1)],
            BclKind::Shotgun => &[(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)],
            BclKind::Worm => &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
            BclKind::Crowbar => &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1)],
            BclKind::Chair => &[(0, 0), (1, 0), (0, 1)],
            BclKind::Cross => &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
            BclKind::Boomerang => &[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)],
            BclKind::Stick => &[(0, 0), (1, 0), (2, 0)],
            BclKind::Dot => &[(0, 0)],
        }
    }

    /// The number of cells.
    #[inline]
    pub const fn size(self) -> u32 {
        self.canonical_cells().len() as u32
    }

    /// The normalised cells `(x, y)` after `rotation`, then `flip`.
    pub const fn shape(self, rotation: BclRotation, flip: BclFlip) -> Shape {
        let (rotation, flipped) = label(rotation, flip);
        Shape::oriented(self.canonical_cells(), rotation, flipped)
    }
}

impl fmt::Display for BclKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BclKind {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BclKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or(UnknownName)
    }
}

/// A clockwise rotation of `place_to`, applied before the flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BclRotation {
    /// Unchanged.
    None = 0,
    /// 90° clockwise.
    Single = 1,
    /// 180°.
    Double = 2,
    /// 270° clockwise.
    Triple = 3,
}

impl BclRotation {
    /// All rotations.
    pub const ALL: [BclRotation; 4] = [
        BclRotation::None,
        BclRotation::Single,
        BclRotation::Double,
        BclRotation::Triple,
    ];

    /// The name (`NONE`, `SINGLE`, `DOUBLE`, `TRIPLE`).
    pub const fn name(self) -> &'static str {
        match self {
            BclRotation::None => "NONE",
            BclRotation::Single => "SINGLE",
            BclRotation::Double => "DOUBLE",
            BclRotation::Triple => "TRIPLE",
        }
    }
}

/// A flip of `place_to`, applied after the rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BclFlip {
    /// Unchanged.
    None = 0,
    /// Left–right mirror.
    Horizontal = 1,
    /// Up–down mirror.
    Vertical = 2,
}

impl BclFlip {
    /// All flips.
    pub const ALL: [BclFlip; 3] = [BclFlip::None, BclFlip::Horizontal, BclFlip::Vertical];

    /// The name (`NONE`, `HORIZONTAL`, `VERTICAL`).
    pub const fn name(self) -> &'static str {
        match self {
            BclFlip::None => "NONE",
            BclFlip::Horizontal => "HORIZONTAL",
            BclFlip::Vertical => "VERTICAL",
        }
    }
}

/// Names of the `place_to` labels, shared by both enums' `Display` and
/// `FromStr`.
macro_rules! named {
    ($($ty:ident),*) => {$(
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownName;

            /// Parses the exact, case-sensitive name.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL
                    .into_iter()
                    .find(|v| v.name() == s)
                    .ok_or(UnknownName)
            }
        }
    )*};
}
named!(BclRotation, BclFlip);

/// The label of the shared transform (rotation, then a left–right mirror)
/// that gives the same cells: an up–down mirror is a left–right mirror of
/// the shape turned by another 180°.
pub(crate) const fn label(rotation: BclRotation, flip: BclFlip) -> (Rotation, bool) {
    let turns = rotation as usize
        + match flip {
            BclFlip::Vertical => 2,
            BclFlip::None | BclFlip::Horizontal => 0,
        };
    (Rotation::ALL[turns % 4], !matches!(flip, BclFlip::None))
}

/// The `place_to` label of a shared-transform label: the rotation and
/// `NONE` or `HORIZONTAL`.
pub(crate) const fn bcl_label(rotation: Rotation, flipped: bool) -> (BclRotation, BclFlip) {
    (
        BclRotation::ALL[rotation as usize],
        if flipped {
            BclFlip::Horizontal
        } else {
            BclFlip::None
        },
    )
}

/// The canonical cells of every kind, in kind order.
const CANONICAL: [&[(i8, i8)]; KIND_COUNT] = {
    let mut cells: [&[(i8, i8)]; KIND_COUNT] = [&[]; KIND_COUNT];
    let mut i = 0;
    while i < KIND_COUNT {
        cells[i] = BclKind::ALL[i].canonical_cells();
        i += 1;
    }
    cells
};

/// Every fixed shape of the ten kinds; shape indices index this table.
pub(crate) static BCL_SHAPES: ShapeTable<KIND_COUNT, SHAPE_COUNT> = ShapeTable::build(CANONICAL);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_holds_12_blocks_of_51_cells() {
        let blocks: u32 = BclKind::ALL.iter().map(|k| k.count()).sum();
        let cells: u32 = BclKind::ALL.iter().map(|k| k.count() * k.size()).sum();
        assert_eq!((blocks, cells), (12, 51));
    }

    #[test]
    fn names_round_trip() {
        for kind in BclKind::ALL {
            assert_eq!(kind.name().parse::<BclKind>(), Ok(kind));
        }
        for rotation in BclRotation::ALL {
            assert_eq!(rotation.to_string().parse::<BclRotation>(), Ok(rotation));
        }
        for flip in BclFlip::ALL {
            assert_eq!(flip.to_string().parse::<BclFlip>(), Ok(flip));
        }
        assert!("square".parse::<BclKind>().is_err());
    }

    #[test]
    fn labels_map_both_ways() {
        for rotation in BclRotation::ALL {
            for flip in [BclFlip::None, BclFlip::Horizontal] {
                let (r, f) = label(rotation, flip);
                assert_eq!(bcl_label(r, f), (rotation, flip));
            }
        }
        // SHOTGUN turned once clockwise: the row of four becomes the right
        // column, the two cells under it the top of the left column.
        let shape = BclKind::Shotgun.shape(BclRotation::Single, BclFlip::None);
        assert_eq!(format!("{shape:?}"), "##/##/.#/.#");
        let shape = BclKind::Shotgun.shape(BclRotation::None, BclFlip::Vertical);
        assert_eq!(format!("{shape:?}"), "##../####");
    }
}
