//! The built-in bots of Blokus 2021 (`swc_2021_blokus`): [`RandomBot`] and
//! [`GreedyBot`].

mod greedy;
mod random;

pub use greedy::GreedyBot;
use rand_pcg::Pcg64;
pub use random::RandomBot;
use spielleiter_rules::blokus::Blokus;

use crate::{Bot, BotKind};

/// The bot of `kind`, seeded with `seed` where it draws at random (the bot
/// catalogue's entry for this game).
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Blokus> + Send>> {
    Some(match kind {
        BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
            u128::from(seed),
            // Any odd stream constant; fixed so a seed means one game.
            0x5851_f42d_4c95_7f2d_1405_7b7e_f767_814f,
        ))),
        BotKind::Greedy => Box::new(GreedyBot::new()),
    })
}
