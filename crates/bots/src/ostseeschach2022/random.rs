//! [`RandomBot`]: a uniformly random legal move.

use rand::{Rng, RngExt};
use spielleiter_rules::ostseeschach::{Move, MoveList, Ostseeschach};

use super::no_move::NO_MOVE;
use crate::Bot;

/// Moves a piece chosen uniformly among all legal moves of the team to
/// move. The random source is passed in: seed it to replay a bot's games.
#[derive(Debug)]
pub struct RandomBot<R> {
    rng: R,
    moves: MoveList,
}

impl<R: Rng> RandomBot<R> {
    /// A bot drawing from `rng`.
    pub fn new(rng: R) -> RandomBot<R> {
        RandomBot {
            rng,
            moves: MoveList::new(),
        }
    }
}

impl<R: Rng> Bot<Ostseeschach> for RandomBot<R> {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(&mut self, game: &Ostseeschach) -> Move {
        game.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return NO_MOVE;
        }
        let index = self.rng.random_range(0..self.moves.len());
        self.moves.get(index).unwrap_or(NO_MOVE)
    }
}

#[cfg(test)]
mod tests {
    use rand_pcg::Pcg64;
    use spielleiter_rules::ostseeschach::StartLine;

    use super::*;

    fn bot(seed: u128) -> RandomBot<Pcg64> {
        RandomBot::new(Pcg64::new(seed, 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d))
    }

    fn play_out(bot: &mut impl Bot<Ostseeschach>) -> Vec<Move> {
        let mut game = Ostseeschach::new(StartLine::UNSHUFFLED);
        let mut moves = Vec::new();
        while !game.is_over() {
            let mv = bot.choose_move(&game);
            game.play(&mv).expect("the bot plays legal moves");
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn whole_games_are_legal_and_reproducible_from_the_seed() {
        for seed in 1..4 {
            let first = play_out(&mut bot(seed));
            assert!(!first.is_empty());
            assert_eq!(first, play_out(&mut bot(seed)));
        }
        assert_ne!(play_out(&mut bot(4)), play_out(&mut bot(5)));
    }

    #[test]
    fn every_legal_move_is_drawn_about_equally_often() {
        // The unshuffled line has 17 first moves; 17 000 draws give each
        // about 1000.
        let game = Ostseeschach::new(StartLine::UNSHUFFLED);
        let mut all = MoveList::new();
        game.legal_moves(&mut all);
        let moves: Vec<Move> = all.iter().collect();
        assert_eq!(moves.len(), 17);
        let mut counts = [0u32; 17];
        let mut bot = bot(9);
        for _ in 0..17_000 {
            let chosen = bot.choose_move(&game);
            counts[moves.iter().position(|&m| m == chosen).expect("listed")] += 1;
        }
        // Binomial(17000, 1/17): standard deviation ≈ 31; 6 sigma either side.
        assert!(
            counts.iter().all(|&c| (810..=1190).contains(&c)),
            "{counts:?}"
        );
    }
}
