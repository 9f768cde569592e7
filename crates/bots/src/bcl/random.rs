//! [`RandomBot`]: a uniformly random legal placement.

use rand::Rng;
use spielleiter_rules::blokus::bcl::{Bcl, BclMove};

use crate::Bot;

/// Places a block chosen uniformly among all legal placements of the player
/// on turn (each distinct kind and set of fields once), drawn without
/// listing them. The server never asks a player who cannot place; in a
/// finished game the bot answers a pass.
///
/// The random source is passed in: seed it to replay a bot's games.
#[derive(Debug)]
pub struct RandomBot<R> {
    rng: R,
}

impl<R: Rng> RandomBot<R> {
    /// A bot drawing from `rng`.
    pub fn new(rng: R) -> RandomBot<R> {
        RandomBot { rng }
    }
}

impl<R: Rng> Bot<Bcl> for RandomBot<R> {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(&mut self, game: &Bcl) -> BclMove {
        match game.random_placement(&mut self.rng) {
            Some(place) => BclMove::Place(place),
            None => BclMove::Pass(game.current_player()),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_pcg::Pcg64;

    use super::*;

    fn play_out(seed: u128) -> Vec<BclMove> {
        let mut bot = RandomBot::new(Pcg64::new(seed, 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d));
        let mut game = Bcl::new();
        let mut moves = Vec::new();
        while !game.is_over() {
            let mv = bot.choose_move(&game);
            game.play(&mv).expect("a legal move");
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn whole_games_are_legal_and_reproducible_from_the_seed() {
        let first = play_out(1);
        assert!(first.len() >= 6, "both players place some blocks");
        assert!(first.len() <= 24, "at most 12 blocks each");
        assert_eq!(first, play_out(1));
        assert_ne!(first, play_out(2));
    }
}
