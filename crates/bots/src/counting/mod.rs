//! A bot for the rules crate's three-seat test game (feature `test-games`,
//! never in a release build): counts a random amount.

use rand::{Rng, RngExt};
use rand_pcg::Pcg64;
use spielleiter_rules::{entry, counting::{Count, Counting}};

use crate::{Bot, BotKind, GameBots};

/// Counts 1, 2 or 3 at random.
#[derive(Debug)]
pub struct CountingBot<R> {
    rng: R,
}

impl<R: Rng> Bot<Counting> for CountingBot<R> {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(&mut self, _game: &Counting) -> Count {
        Count(self.rng.random_range(1..=3))
    }
}

/// The game's bot of `kind`: only `random`.
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Counting> + Send>> {
    match kind {
        BotKind::Random => Some(Box::new(CountingBot {
            rng: Pcg64::new(u128::from(seed), 0x2545_f491_4f6c_dd1d),
        })),
        BotKind::Greedy | BotKind::Illegal => None,
    }
}

impl GameBots for entry::TestCounting {
    fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Self::Game> + Send>> {
        bot(kind, seed)
    }
}
