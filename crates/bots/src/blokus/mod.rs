//! The built-in bots of the Software-Challenge Blokus seasons (2021,
//! `swc_2021_blokus`; 2027, `swc_2027_blokus`): [`RandomBot`] and
//! [`GreedyBot`] play any season, as the seasons share moves and board and
//! differ only in rules the engine applies.

mod greedy;
mod random;

pub use greedy::GreedyBot;
use rand_pcg::Pcg64;
pub use random::RandomBot;
use spielleiter_rules::blokus::{SwcBlokus, SwcVariant};

use crate::{Bot, BotKind};

/// The bot of `kind` for the season `V`, seeded with `seed` where it draws
/// at random (the bot catalogue's entry for the Blokus seasons).
pub fn bot<V: SwcVariant>(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<SwcBlokus<V>> + Send>> {
    Some(match kind {
        BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
            u128::from(seed),
            // Any odd stream constant; fixed so a seed means one game.
            0x5851_f42d_4c95_7f2d_1405_7b7e_f767_814f,
        ))),
        BotKind::Greedy => Box::new(GreedyBot::new()),
    })
}
