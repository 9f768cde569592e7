//! Perft: counting the placement sequences of a given length, the standard
//! end-to-end check of move generation and move application, for every
//! Blokus variant.
//!
//! Counting rules: a node is a distinct placement (a distinct piece kind
//! and set of cells, not a rotation/flip label, and not one of two equal
//! blocks); voluntary skips are not explored; a colour that cannot move is
//! removed (skipped) without producing a node (it happens inside the move
//! that hands it the turn). When the game ends, the line ends: a finished
//! position counts 1 at depth 0 and contributes nothing deeper.

use super::movelist::MoveList;

/// A Blokus position perft can count. Implemented by the game type of every
/// variant.
pub trait Perft: Clone {
    /// The number of legal placements of the colour on turn (0 when the
    /// game is over): perft(1), counted without playing them.
    fn count_placements(&self) -> u64;

    /// Calls `f` with the position after each legal placement of the colour
    /// on turn.
    fn for_each_child(&self, f: impl FnMut(&Self));
}

/// The number of placement sequences of length `depth` from `game`.
pub fn perft<G: Perft>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_placements(),
        _ => {
            let mut nodes = 0;
            game.for_each_child(|child| nodes += perft(child, depth - 1));
            nodes
        }
    }
}

/// A Blokus position that lists its legal placements in a [`MoveList`]
/// (the 20×20 variants), so that perft(1) can be split by piece kind.
pub trait ListPlacements {
    /// Fills `moves` with the legal placements of the colour on turn.
    fn legal_moves(&self, moves: &mut MoveList);
}

/// Perft(1) split by piece kind, indexed by [`PieceKind::index`](super::PieceKind::index).
pub fn perft_by_kind<G: ListPlacements>(game: &G) -> [u64; 21] {
    let mut counts = [0; 21];
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for placement in &moves {
        counts[placement.kind.index()] += 1;
    }
    counts
}
