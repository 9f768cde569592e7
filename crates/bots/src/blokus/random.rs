//! [`RandomBot`]: a uniformly random legal placement.

use rand::{Rng, RngExt};
use spielleiter_rules::blokus::{Move, MoveList};

use super::game::BlokusGame;
use crate::Bot;

/// Places a piece chosen uniformly among all legal placements of the colour
/// on turn (each distinct set of cells once); passes only when nothing fits.
/// Passing while a piece fits is legal but never helps, so it is not among
/// the choices.
///
/// The random source is passed in: seed it to replay a bot's games.
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

impl<R: Rng, G: BlokusGame> Bot<G> for RandomBot<R> {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(&mut self, game: &G) -> Move {
        game.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return Move::Skip(game.current_color());
        }
        let index = self.rng.random_range(0..self.moves.len());
        match self.moves.get(index) {
            Some(placement) => Move::Set(placement),
            None => Move::Skip(game.current_color()),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_pcg::Pcg64;
    use spielleiter_rules::blokus::{
        Blokus, Blokus2027, PieceKind, Placement, SwcBlokus, SwcVariant,
    };

    use super::*;

    fn bot(seed: u128) -> RandomBot<Pcg64> {
        RandomBot::new(Pcg64::new(seed, 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d))
    }

    fn play_out(bot: &mut impl Bot<Blokus>, start: PieceKind) -> Vec<Move> {
        play_season(bot, Blokus::new(start))
    }

    /// Plays `game` out with `bot` for every colour, checking each move.
    fn play_season<V: SwcVariant>(
        bot: &mut impl Bot<SwcBlokus<V>>,
        mut game: SwcBlokus<V>,
    ) -> Vec<Move> {
        let mut moves = Vec::new();
        while !game.is_over() {
            let mv = bot.choose_move(&game);
            assert_eq!(
                game.is_legal(&mv),
                Ok(()),
                "illegal move {mv:?} in {game:?}"
            );
            game.play(&mv).expect("legal");
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn whole_games_are_legal_and_reproducible_from_the_seed() {
        for (seed, start) in [
            (1, PieceKind::PentoL),
            (2, PieceKind::PentoY),
            (3, PieceKind::PentoI),
        ] {
            let first = play_out(&mut bot(seed), start);
            assert!(first.len() > 20, "a random game lasts more than 5 rounds");
            assert_eq!(first, play_out(&mut bot(seed), start));
        }
        assert_ne!(
            play_out(&mut bot(4), PieceKind::PentoL),
            play_out(&mut bot(5), PieceKind::PentoL)
        );
    }

    #[test]
    fn whole_2027_games_are_legal() {
        // PENTO_X, which only 2027 draws, starts anywhere on the border.
        for (seed, start) in [(6, PieceKind::PentoX), (7, PieceKind::PentoW)] {
            let moves = play_season(&mut bot(seed), Blokus2027::new(start));
            assert!(moves.len() > 20, "a random game lasts more than 5 rounds");
            assert!(moves.len() <= 96, "a 2027 game ends by turn 96");
        }
    }

    #[test]
    fn every_legal_placement_is_drawn_about_equally_often() {
        // The first move has 8 distinct placements of PENTO_W (two per
        // corner); 8000 draws give each about 1000.
        let game = Blokus::new(PieceKind::PentoW);
        let mut all = MoveList::new();
        game.legal_moves(&mut all);
        let placements: Vec<Placement> = all.iter().collect();
        assert_eq!(placements.len(), 8);
        let mut counts = [0u32; 8];
        let mut bot = bot(9);
        for _ in 0..8000 {
            let Move::Set(chosen) = bot.choose_move(&game) else {
                panic!("a first move places a piece");
            };
            let index = placements
                .iter()
                .position(|p| *p == chosen)
                .expect("a listed placement");
            counts[index] += 1;
        }
        // Binomial(8000, 1/8): standard deviation ≈ 30; 6 sigma either side.
        assert!(
            counts.iter().all(|&c| (820..=1180).contains(&c)),
            "{counts:?}"
        );
    }
}
