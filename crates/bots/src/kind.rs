//! [`BotKind`]: the built-in bots by name, as command lines name them.

use std::{fmt, str::FromStr};

use rand_pcg::Pcg64;

use crate::{Bot, GreedyBot, RandomBot};

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
}

impl BotKind {
    /// Every built-in bot.
    pub const ALL: [BotKind; 2] = [BotKind::Random, BotKind::Greedy];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }

    /// A new bot of this kind; `seed` seeds the random ones.
    pub fn build(self, seed: u64) -> Box<dyn Bot + Send> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
                u128::from(seed),
                // Any odd stream constant; fixed so a seed means one game.
                0x5851_f42d_4c95_7f2d_1405_7b7e_f767_814f,
            ))),
            BotKind::Greedy => Box::new(GreedyBot::new()),
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no built-in bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBot(pub String);

impl fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot `{}` (built-in bots: random, greedy)",
            self.0
        )
    }
}

impl std::error::Error for UnknownBot {}

impl FromStr for BotKind {
    type Err = UnknownBot;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BotKind::ALL
            .into_iter()
            .find(|kind| kind.name() == s)
            .ok_or_else(|| UnknownBot(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{Blokus, PieceKind};

    use super::*;

    #[test]
    fn names_round_trip_and_build_the_named_bot() {
        for kind in BotKind::ALL {
            assert_eq!(kind.name().parse::<BotKind>(), Ok(kind));
            assert_eq!(kind.build(1).name(), kind.name());
        }
        assert_eq!(
            "Greedy".parse::<BotKind>(),
            Err(UnknownBot("Greedy".to_owned()))
        );
    }

    #[test]
    fn a_seed_fixes_a_random_bots_choices() {
        let game = Blokus::new(PieceKind::PentoZ);
        let draws = |seed| -> Vec<_> {
            let mut bot = BotKind::Random.build(seed);
            (0..16).map(|_| bot.choose_move(&game)).collect()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
    }
}
