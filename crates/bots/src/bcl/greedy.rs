//! [`GreedyBot`]: the largest block, where it keeps the most room to grow.

use spielleiter_rules::blokus::bcl::{Bcl, BclBoard, BclMove, BclMoveList, PlaceTo};

use crate::{Bot, blokus::free_corners};

/// Places the largest block it can, choosing among the placements of that
/// size by, in this order:
///
/// 1. the most free corners its player has afterwards: empty fields
///    diagonally next to its blocks that share no edge with them, where its
///    next blocks can start;
/// 2. the most of the opponent's free corners covered;
/// 3. the first in the rules' move-list order (so the bot is deterministic).
///
/// On a 10×10 board with 12 blocks the big ones are the ones that stop
/// fitting first. In a finished game the bot answers a pass.
#[derive(Debug)]
pub struct GreedyBot {
    moves: BclMoveList,
}

impl GreedyBot {
    /// A greedy bot.
    pub fn new() -> GreedyBot {
        GreedyBot {
            moves: BclMoveList::new(),
        }
    }
}

impl Default for GreedyBot {
    fn default() -> GreedyBot {
        GreedyBot::new()
    }
}

/// The fields of a placement, as a board (`x` the column, `y` the row).
fn fields(place: &PlaceTo) -> BclBoard {
    place
        .cells()
        .map(|(row, col)| (col as usize, row as usize))
        .collect()
}

/// The evaluation of one placement, compared lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    size: u32,
    own_corners: u32,
    blocked: u32,
}

impl Bot<Bcl> for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose_move(&mut self, game: &Bcl) -> BclMove {
        let player = game.current_player();
        game.legal_moves(&mut self.moves);
        let Some(largest) = self.moves.iter().map(|p| p.kind.size()).max() else {
            return BclMove::Pass(player);
        };
        let own = game.fields(player);
        let theirs = game.fields(player.opponent());
        let occupied = *own | *theirs;
        let opponent_corners = free_corners(theirs, &occupied);
        let mut best: Option<(Score, PlaceTo)> = None;
        for place in self.moves.iter().filter(|p| p.kind.size() == largest) {
            let block = fields(&place);
            let score = Score {
                size: largest,
                own_corners: free_corners(&(*own | block), &(occupied | block)).count(),
                blocked: (block & opponent_corners).count(),
            };
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, place));
            }
        }
        match best {
            Some((_, place)) => BclMove::Place(place),
            None => BclMove::Pass(player),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_pcg::Pcg64;
    use spielleiter_rules::blokus::bcl::BclPlayer;

    use super::*;
    use crate::bcl::RandomBot;

    #[test]
    fn plays_a_largest_block() {
        let mut random = RandomBot::new(Pcg64::new(5, 1));
        let mut game = Bcl::new();
        let mut all = BclMoveList::new();
        while !game.is_over() {
            game.legal_moves(&mut all);
            let largest = all.iter().map(|p| p.kind.size()).max().expect("moves");
            let BclMove::Place(chosen) = GreedyBot::new().choose_move(&game) else {
                panic!("a block fits, so the bot places one");
            };
            assert_eq!(chosen.kind.size(), largest);
            assert!(all.iter().any(|p| p == chosen));
            let mv = random.choose_move(&game);
            game.play(&mv).expect("legal");
        }
        assert_eq!(
            GreedyBot::new().choose_move(&game),
            BclMove::Pass(game.current_player())
        );
    }

    #[test]
    fn greedy_beats_random_almost_always() {
        let (mut greedy_wins, games) = (0, 40);
        for seed in 0..games {
            let greedy_player = BclPlayer::ALL[seed as usize % 2];
            let mut greedy = GreedyBot::new();
            let mut random = RandomBot::new(Pcg64::new(seed, 3));
            let mut game = Bcl::new();
            while !game.is_over() {
                let mv = if game.current_player() == greedy_player {
                    greedy.choose_move(&game)
                } else {
                    random.choose_move(&game)
                };
                game.play(&mv).expect("bots play legal moves");
            }
            if game.points(greedy_player) > game.points(greedy_player.opponent()) {
                greedy_wins += 1;
            }
        }
        assert!(
            greedy_wins >= 30,
            "greedy won only {greedy_wins} of {games}"
        );
    }
}
