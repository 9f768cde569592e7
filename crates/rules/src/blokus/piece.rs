//! The 21 piece kinds of the 20×20 Blokus variants, their canonical cells and orientations, and
//! sets of kinds.

use core::{fmt, str::FromStr};

pub use crate::polyomino::{Rotation, Shape};
use crate::{
    index_set::{IndexSet, Indexed},
    names::UnknownName,
};

/// One of the 21 piece kinds. The discriminant is the kind's index in the
/// official enum; it orders shape lists on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum PieceKind {
    Mono = 0,
    Domino,
    TrioL,
    TrioI,
    TetroO,
    TetroT,
    TetroI,
    TetroL,
    TetroZ,
    PentoL,
    PentoT,
    PentoV,
    PentoS,
    PentoZ,
    PentoI,
    PentoP,
    PentoW,
    PentoU,
    PentoR,
    PentoX,
    PentoY,
}

impl PieceKind {
    /// All kinds in enum order.
    pub const ALL: [PieceKind; 21] = [
        PieceKind::Mono,
        PieceKind::Domino,
        PieceKind::TrioL,
        PieceKind::TrioI,
        PieceKind::TetroO,
        PieceKind::TetroT,
        PieceKind::TetroI,
        PieceKind::TetroL,
        PieceKind::TetroZ,
        PieceKind::PentoL,
        PieceKind::PentoT,
        PieceKind::PentoV,
        PieceKind::PentoS,
        PieceKind::PentoZ,
        PieceKind::PentoI,
        PieceKind::PentoP,
        PieceKind::PentoW,
        PieceKind::PentoU,
        PieceKind::PentoR,
        PieceKind::PentoX,
        PieceKind::PentoY,
    ];

    /// The twelve pentominoes, in enum order: the kinds a Blokus 2027 start
    /// piece is drawn from (`blokus-2027.md` §3.2).
    pub const PENTOMINOES: [PieceKind; 12] = {
        let mut kinds = [PieceKind::Mono; 12];
        let mut i = 0;
        while i < 12 {
            kinds[i] = PieceKind::ALL[PieceKind::PentoL.index() + i];
            i += 1;
        }
        kinds
    };

    /// The kinds a Blokus 2021 start piece is drawn from: every pentomino
    /// except `PENTO_X`, which cannot cover a board corner.
    pub const START_PIECES: [PieceKind; 11] = {
        let mut kinds = [PieceKind::Mono; 11];
        let (mut from, mut to) = (0, 0);
        while from < 12 {
            let kind = PieceKind::PENTOMINOES[from];
            if !matches!(kind, PieceKind::PentoX) {
                kinds[to] = kind;
                to += 1;
            }
            from += 1;
        }
        kinds
    };

    /// The kind's index in enum order (0..21).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this enum index, if any.
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 21 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// The wire name, e.g. `PENTO_L`.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Mono => "MONO",
            PieceKind::Domino => "DOMINO",
            PieceKind::TrioL => "TRIO_L",
            PieceKind::TrioI => "TRIO_I",
            PieceKind::TetroO => "TETRO_O",
            PieceKind::TetroT => "TETRO_T",
            PieceKind::TetroI => "TETRO_I",
            PieceKind::TetroL => "TETRO_L",
            PieceKind::TetroZ => "TETRO_Z",
            PieceKind::PentoL => "PENTO_L",
            PieceKind::PentoT => "PENTO_T",
            PieceKind::PentoV => "PENTO_V",
            PieceKind::PentoS => "PENTO_S",
            PieceKind::PentoZ => "PENTO_Z",
            PieceKind::PentoI => "PENTO_I",
            PieceKind::PentoP => "PENTO_P",
            PieceKind::PentoW => "PENTO_W",
            PieceKind::PentoU => "PENTO_U",
            PieceKind::PentoR => "PENTO_R",
            PieceKind::PentoX => "PENTO_X",
            PieceKind::PentoY => "PENTO_Y",
        }
    }

    /// The canonical cells `(x, y)` in the order the official server declares
    /// them. Every canonical shape touches x = 0 and y = 0.
    pub const fn canonical_cells(self) -> &'static [(i8, i8)] {
        match self {
            PieceKind::Mono => &[(0, 0)],
            PieceKind::Domino => &[(0, 0), (1, 0)],
            PieceKind::TrioL => &[(0, 0), (0, 1), (1, 1)],
            PieceKind::TrioI => &[(0, 0), (0, 1), (0, 2)],
            PieceKind::TetroO => &[(0, 0), (1, 0), (0, 1), (1, 1)],
            PieceKind::TetroT => &[(0, 0), (1, 0), (2, 0), (1, 1)],
            PieceKind::TetroI => &[(0, 0), (0, 1), (0, 2), (0, 3)],
            PieceKind::TetroL => &[(0, 0), (0, 1), (0, 2), (1, 2)],
            PieceKind::TetroZ => &[(0, 0), (1, 0), (1, 1), (2, 1)],
            PieceKind::PentoL => &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
            PieceKind::PentoT => &[(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)],
            PieceKind::PentoV => &[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
            PieceKind::PentoS => &[(1, 0), (2, 0), (3, 0), (0, 1), (1, 1)],
            PieceKind::PentoZ => &[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
            PieceKind::PentoI => &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
            PieceKind::PentoP => &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
            PieceKind::PentoW => &[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
            PieceKind::PentoU => &[(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)],
            PieceKind::PentoR => &[(0, 1), (1, 1), (1, 2), (2, 1), (2, 0)],
            PieceKind::PentoX => &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
            PieceKind::PentoY => &[(0, 1), (1, 0), (1, 1), (1, 2), (1, 3)],
        }
    }

    /// The number of cells (1..=5).
    #[inline]
    pub const fn size(self) -> u32 {
        self.canonical_cells().len() as u32
    }

    /// The normalised cells of this kind after `rotation`, then `flipped`,
    /// exactly as the official server computes them (`blokus-2021.md` §5).
    pub const fn shape(self, rotation: Rotation, flipped: bool) -> Shape {
        Shape::oriented(self.canonical_cells(), rotation, flipped)
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PieceKind {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive wire name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or(UnknownName)
    }
}

/// The 21 kinds, numbered in enum order: the universe of a [`PieceSet`].
impl Indexed for PieceKind {
    type Item = PieceKind;
    const COUNT: usize = PieceKind::ALL.len();

    #[inline]
    fn index(kind: PieceKind) -> usize {
        kind.index()
    }

    #[inline]
    fn item(index: usize) -> PieceKind {
        PieceKind::ALL[index]
    }
}

/// A set of piece kinds (a colour's remaining pieces), iterated in enum order.
pub type PieceSet = IndexSet<PieceKind>;

impl IndexSet<PieceKind> {
    /// The total number of cells of the kinds in the set.
    pub fn cells(self) -> u32 {
        self.iter().map(PieceKind::size).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_colours_set_has_89_cells() {
        assert_eq!(PieceSet::ALL.cells(), 89);
        assert_eq!(PieceSet::ALL.len(), 21);
        assert_eq!(PieceSet::ALL.iter().collect::<Vec<_>>(), PieceKind::ALL);
    }

    #[test]
    fn start_piece_candidates() {
        assert!(PieceKind::PENTOMINOES.iter().all(|k| k.size() == 5));
        assert_eq!(PieceKind::PENTOMINOES[0], PieceKind::PentoL);
        assert_eq!(PieceKind::PENTOMINOES[11], PieceKind::PentoY);
        assert!(!PieceKind::START_PIECES.contains(&PieceKind::PentoX));
        assert!(
            PieceKind::START_PIECES
                .iter()
                .all(|k| PieceKind::PENTOMINOES.contains(k))
        );
    }

    #[test]
    fn names_round_trip() {
        for k in PieceKind::ALL {
            assert_eq!(k.name().parse::<PieceKind>(), Ok(k));
            assert_eq!(PieceKind::from_index(k.index()), Some(k));
        }
        for r in Rotation::ALL {
            assert_eq!(r.name().parse::<Rotation>(), Ok(r));
        }
        assert!("pento_l".parse::<PieceKind>().is_err());
    }

    #[test]
    fn pento_l_right_flipped_is_the_spec_example() {
        let shape = PieceKind::PentoL.shape(Rotation::Right, true);
        assert_eq!(shape.cells(), &[(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]);
        assert_eq!(format!("{shape:?}"), "####/...#");
    }

    #[test]
    fn normalising_moves_cells_to_the_origin() {
        let shape = Shape::from_cells(&[(1, 2), (3, 2)]);
        assert_eq!(shape.cells(), &[(0, 0), (2, 0)]);
    }
}
