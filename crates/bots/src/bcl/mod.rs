//! The built-in bots of the BLOKUS Champions League game (`blokus_bcl`):
//! [`RandomBot`], [`GreedyBot`], and for tests [`IllegalBot`], which is
//! disqualified on purpose.

mod greedy;
mod illegal;
mod random;

use crate::{Bot, BotKind, GameBots};
pub use greedy::GreedyBot;
pub use illegal::IllegalBot;
use rand_pcg::Pcg64;
pub use random::RandomBot;
use spielleiter_rules::{blokus::bcl::Bcl, entry};

/// The bot of `kind`, seeded with `seed` where it draws at random (the bot
/// catalogue's entry for this game).
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Bcl> + Send>> {
    Some(match kind {
        BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
            u128::from(seed),
            // Any odd stream constant; fixed so a seed means one game.
            0xda94_2042_e4dd_58b5_0a7c_9e1b_3f6d_2c85,
        ))),
        BotKind::Greedy => Box::new(GreedyBot::new()),
        BotKind::Illegal => Box::new(IllegalBot::new()),
    })
}

impl GameBots for entry::BlokusBcl {
    fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Self::Game> + Send>> {
        bot(kind, seed)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{AnyGame, AnyMistake, Game, GameType, blokus::bcl::BclMistake};

    use crate::{Bot, BotKind};

    #[test]
    fn the_catalogue_builds_every_kind() {
        for kind in BotKind::ALL {
            let mut bot = kind.build(GameType::BlokusBcl, 7).expect("a BCL bot");
            assert_eq!(bot.name(), kind.name());
            assert_eq!(bot.game_type(), GameType::BlokusBcl);
            let mut rng = rand_pcg::Pcg64::new(1, 1);
            let mut game = AnyGame::new(GameType::BlokusBcl, &mut rng);
            let mut placed = 0;
            while !game.is_over() {
                let mv = bot.choose_move(&game);
                match game.play(&mv) {
                    Ok(()) => placed += 1,
                    Err(mistake) => {
                        // Only the illegal bot errs: with an overlap, at
                        // its own second move (the third of the game).
                        assert_eq!(kind, BotKind::Illegal);
                        assert_eq!(mistake, AnyMistake::BlokusBcl(BclMistake::Overlap));
                        assert_eq!(placed, 2);
                        break;
                    }
                }
            }
        }
    }
}
