//! [`MoveList`]: the legal moves of one position, stored without
//! allocation.

use core::{fmt, iter::FusedIterator, slice};

use super::{
    bitboard::{x_of, y_of},
    moves::{Coordinates, Move},
    piece::PieceKind,
};

/// A team owns at most 8 stacks (it has 8 pieces) and a stack has at most
/// 8 steps, so this bounds every position: move generation can never
/// overflow the list.
const MAX_MOVES: usize = 64;

/// A generated move packed into 16 bits (one store per move): the moving
/// top piece's kind index in bits 12..14, the bit indices of the start and
/// target field in bits 6..12 and 0..6.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry(u16);

impl Entry {
    #[inline]
    fn new(kind: PieceKind, from: u32, to: u32) -> Entry {
        Entry((kind.index() as u16) << 12 | (from as u16) << 6 | to as u16)
    }

    /// The kind of the moving top piece.
    #[inline]
    pub(super) fn kind(self) -> PieceKind {
        PieceKind::ALL[usize::from(self.0 >> 12) & 3]
    }

    /// The bit index of the start field.
    #[inline]
    pub(super) fn from(self) -> u32 {
        u32::from(self.0 >> 6 & 63)
    }

    /// The bit index of the target field.
    #[inline]
    pub(super) fn to(self) -> u32 {
        u32::from(self.0 & 63)
    }

    #[inline]
    fn to_move(self) -> Move {
        let (from, to) = (self.from(), self.to());
        Move {
            from: Coordinates::new(x_of(from), y_of(from)),
            to: Coordinates::new(x_of(to), y_of(to)),
        }
    }
}

const EMPTY_ENTRY: Entry = Entry(0);

/// The legal moves of a position, filled by
/// [`Ostseeschach::legal_moves`](super::Ostseeschach::legal_moves).
///
/// The list lives on the stack (about 140 bytes), never allocates, and
/// reads any move in constant time.
#[derive(Clone)]
pub struct MoveList {
    entries: [Entry; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            entries: [EMPTY_ENTRY; MAX_MOVES],
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
    #[inline]
    pub fn get(&self, index: usize) -> Option<Move> {
        self.entries().get(index).map(|e| e.to_move())
    }

    /// The moves in list order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries().iter())
    }

    /// The generated moves.
    #[inline]
    pub(super) fn entries(&self) -> &[Entry] {
        &self.entries[..self.len]
    }

    /// Empties the list.
    #[inline]
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends the moves of the stack with top `kind` on bit `from` to each
    /// bit of `targets`.
    #[inline]
    pub(super) fn push_targets(&mut self, kind: PieceKind, from: u32, mut targets: u64) {
        let mut len = self.len;
        while targets != 0 {
            self.entries[len] = Entry::new(kind, from, targets.trailing_zeros());
            targets &= targets - 1;
            len += 1;
        }
        self.len = len;
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
pub struct Iter<'a>(slice::Iter<'a, Entry>);

impl Iterator for Iter<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.0.next().map(|e| e.to_move())
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Move> {
        self.0.next_back().map(|e| e.to_move())
    }
}

impl FusedIterator for Iter<'_> {}
