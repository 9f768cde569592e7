//! The built-in bots of Ostseeschach 2022 (`swc_2022_ostseeschach`):
//! [`RandomBot`] and [`GreedyBot`].

mod greedy;
mod no_move;
mod random;

pub use greedy::GreedyBot;
use rand_pcg::Pcg64;
pub use random::RandomBot;
use spielleiter_rules::{entry, ostseeschach::Ostseeschach};

use crate::{Bot, BotKind, GameBots};

/// The bot of `kind`, seeded with `seed` where it draws at random (the bot
/// catalogue's entry for this game).
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Ostseeschach> + Send>> {
    Some(match kind {
        BotKind::Illegal => return None,
        BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
            u128::from(seed),
            // Any odd stream constant; fixed so a seed means one game.
            0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
        ))),
        BotKind::Greedy => Box::new(GreedyBot::new()),
    })
}

impl GameBots for entry::Ostseeschach2022 {
    fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Self::Game> + Send>> {
        bot(kind, seed)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{AnyGame, Game, GameType};

    use crate::{Bot, BotKind};

    #[test]
    fn the_catalogue_builds_both_kinds_and_they_play_whole_games() {
        for kind in BotKind::PLAYING {
            let mut bot = kind
                .build(GameType::Ostseeschach2022, 7)
                .expect("an Ostseeschach bot");
            assert_eq!(bot.name(), kind.name());
            assert_eq!(bot.game_type(), GameType::Ostseeschach2022);
            let mut rng = rand_pcg::Pcg64::new(1, 1);
            let mut game = AnyGame::new(GameType::Ostseeschach2022, &mut rng);
            while !game.is_over() {
                let mv = bot.choose_move(&game);
                game.play(&mv).expect("a legal move");
            }
        }
    }
}
