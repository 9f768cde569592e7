//! Perft: counting the move sequences of a given length, the standard
//! end-to-end check of move generation and move application.
//!
//! Counting rules: a node is a legal move; when the game is over the line
//! ends: a finished position counts 1 at depth 0 and contributes nothing
//! deeper (no moves are generated from it). The last ply is counted
//! without playing its moves.

use super::{movelist::MoveList, position::Ostseeschach};

/// The number of move sequences of length `depth` from `game`.
pub fn perft(game: &Ostseeschach, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let mut nodes = 0;
            for entry in moves.entries() {
                let mut child = game.clone();
                child.apply(entry.kind(), entry.from(), entry.to());
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Perft(1) split by the kind of the moving top piece, indexed by
/// [`PieceKind::index`](super::PieceKind::index).
pub fn perft_by_kind(game: &Ostseeschach) -> [u64; 4] {
    let mut counts = [0; 4];
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for entry in moves.entries() {
        counts[entry.kind().index()] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ostseeschach::StartLine;

    #[test]
    fn the_first_moves_of_the_unshuffled_line() {
        // ONE's line x = 0, y = 0..7: H M S R H M S R. The Herzmuscheln
        // at y = 0 and 4 have 1 and 2 steps, each Möwe only the step
        // forward, the Seesterne 3 each, the Robben at y = 3 and 7 have 4
        // and 2 jumps.
        let game = Ostseeschach::new(StartLine::UNSHUFFLED);
        assert_eq!(perft(&game, 0), 1);
        assert_eq!(perft(&game, 1), 1 + 2 + 1 + 1 + 3 + 3 + 4 + 2);
        let by_kind = perft_by_kind(&game);
        assert_eq!(by_kind, [3, 2, 6, 6]);
    }
}
