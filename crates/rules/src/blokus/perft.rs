//! Perft: counting the placement sequences of a given length, the standard
//! end-to-end check of move generation and move application.
//!
//! Counting rules: a node is a distinct placement (a distinct set of cells,
//! not a rotation/flip label); voluntary skips are not explored; a colour
//! that cannot move is removed without producing a node (it happens inside
//! the move that hands it the turn). When the game ends, the line ends:
//! a finished position counts 1 at depth 0 and contributes nothing deeper.

use super::{movelist::MoveList, moves::Move, position::Blokus};

/// The number of placement sequences of length `depth` from `game`.
pub fn perft(game: &Blokus, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            moves
                .iter()
                .map(|placement| {
                    let mut child = game.clone();
                    child.play_unchecked(&Move::Set(placement));
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft(1) split by piece kind, indexed by [`PieceKind::index`](super::PieceKind::index).
pub fn perft_by_kind(game: &Blokus) -> [u64; 21] {
    let mut counts = [0; 21];
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for placement in &moves {
        counts[placement.kind.index()] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::PieceKind;

    #[test]
    fn the_first_moves_of_a_pento_w_game() {
        let game = Blokus::new(PieceKind::PentoW);
        assert_eq!(perft(&game, 0), 1);
        // 2 orientations of W cover each corner (blokus-2021.md, official tests).
        assert_eq!(perft(&game, 1), 8);
        // YELLOW has 6 placements in the three other corners.
        assert_eq!(perft(&game, 2), 8 * 6);
        let by_kind = perft_by_kind(&game);
        assert_eq!(by_kind[PieceKind::PentoW.index()], 8);
        assert_eq!(by_kind.iter().sum::<u64>(), 8);
    }
}
