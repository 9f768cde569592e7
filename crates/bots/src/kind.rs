//! [`BotKind`]: the built-in bots by name, as command lines name them.

use std::{fmt, str::FromStr};

use spielleiter_rules::GameType;

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// `RandomBot`.
    Random,
    /// `GreedyBot`.
    Greedy,
    /// A bot for tests that breaks a rule on purpose: `blokus_bcl`'s
    /// [`IllegalBot`](crate::bcl::IllegalBot), disqualified for an overlap
    /// at its second move. Other games have none.
    Illegal,
}

impl BotKind {
    /// Every built-in bot.
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::Illegal];

    /// The bots that play to win (every game has them).
    pub const PLAYING: [BotKind; 2] = [BotKind::Random, BotKind::Greedy];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Illegal => "illegal",
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
            "unknown bot `{}` (built-in bots: random, greedy, illegal)",
            self.0
        )
    }
}

impl std::error::Error for UnknownBot {}

/// A game without a bot of the kind asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoSuchBot {
    /// The kind asked for.
    pub kind: BotKind,
    /// The game.
    pub game: GameType,
}

impl fmt::Display for NoSuchBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "there is no {} bot for {}", self.kind, self.game)
    }
}

impl std::error::Error for NoSuchBot {}

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
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in BotKind::ALL {
            assert_eq!(kind.name().parse::<BotKind>(), Ok(kind));
        }
        assert_eq!(
            "Greedy".parse::<BotKind>(),
            Err(UnknownBot("Greedy".to_owned()))
        );
    }
}
