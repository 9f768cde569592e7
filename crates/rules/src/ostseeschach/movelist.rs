//! [`MoveList`]: the legal moves of one position, stored without allocation
//! as one target set per moving stack.

use core::{fmt, iter::FusedIterator};

use super::{
    bitboard::{Bits, x_of, y_of},
    moves::{Coordinates, Move},
    piece::PieceKind,
};

/// A team owns at most 8 stacks (it has 8 pieces), so this bounds every
/// position: move generation can never overflow the list.
const MAX_RUNS: usize = 8;

/// The moves of the stack on bit `from`, one per set bit of `targets`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) kind: PieceKind,
    pub(super) from: u8,
    pub(super) targets: Bits,
}

const EMPTY_RUN: Run = Run {
    kind: PieceKind::Robbe,
    from: 0,
    targets: 0,
};

/// The legal moves of a position, filled by
/// [`Ostseeschach::legal_moves`](super::Ostseeschach::legal_moves).
///
/// Moves are kept as target sets per moving stack, the form in which move
/// generation finds them, and expanded to [`Move`]s when read. The list
/// lives on the stack (about 130 bytes) and never allocates.
#[derive(Clone)]
pub struct MoveList {
    runs: [Run; MAX_RUNS],
    run_count: usize,
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            runs: [EMPTY_RUN; MAX_RUNS],
            run_count: 0,
            len: 0,
        }
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move at `index` in list order.
    pub fn get(&self, index: usize) -> Option<Move> {
        let mut rest = index;
        for run in self.runs() {
            let count = run.targets.count_ones() as usize;
            if rest < count {
                let mut targets = run.targets;
                for _ in 0..rest {
                    targets &= targets - 1;
                }
                return Some(to_move(run.from.into(), targets.trailing_zeros()));
            }
            rest -= count;
        }
        None
    }

    /// The moves in list order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            runs: self.runs(),
            run: EMPTY_RUN,
            left: self.len,
        }
    }

    /// The runs: one per stack that can move.
    #[inline]
    pub(super) fn runs(&self) -> &[Run] {
        &self.runs[..self.run_count]
    }

    /// Empties the list.
    #[inline]
    pub(super) fn clear(&mut self) {
        self.run_count = 0;
        self.len = 0;
    }

    /// Appends the moves of the stack with top `kind` on bit `from` to each
    /// bit of `targets`.
    #[inline]
    pub(super) fn push_run(&mut self, kind: PieceKind, from: u32, targets: Bits) {
        self.runs[self.run_count] = Run {
            kind,
            from: from as u8,
            targets,
        };
        self.run_count += 1;
        self.len += targets.count_ones() as usize;
    }
}

/// The move between two bit indices.
#[inline]
fn to_move(from: u32, to: u32) -> Move {
    Move {
        from: Coordinates::new(x_of(from), y_of(from)),
        to: Coordinates::new(x_of(to), y_of(to)),
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = Move;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The moves of a [`MoveList`], in list order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    runs: &'a [Run],
    /// The current run; its `targets` holds the targets not yet yielded.
    run: Run,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        while self.run.targets == 0 {
            let (first, rest) = self.runs.split_first()?;
            self.run = *first;
            self.runs = rest;
        }
        let to = self.run.targets.trailing_zeros();
        self.run.targets &= self.run.targets - 1;
        self.left -= 1;
        Some(to_move(self.run.from.into(), to))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FusedIterator for Iter<'_> {}
