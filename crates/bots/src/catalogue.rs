//! The bot catalogue: [`GameBots`], what each game of the rules catalogue
//! implements (in its folder here) to build its bot of a [`BotKind`], and
//! [`AnyBot`], generated from the rules catalogue's list, which plays a
//! game of any hosted type through the game's own bot.

use spielleiter_rules::{AnyGame, AnyMove, CatalogueEntry, GameType, entry};

use crate::{
    bot::Bot,
    kind::{BotKind, NoSuchBot},
};

/// A game's built-in bots, implemented by its marker type
/// ([`entry`](spielleiter_rules::entry)) in the game's folder of this
/// crate. A game with no bots implements it too, answering `None`.
pub trait GameBots: CatalogueEntry {
    /// The game's bot of `kind`, seeded with `seed` where it draws at
    /// random; `None` if the game has no bot of this kind.
    fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Self::Game> + Send>>;
}

/// Generates [`AnyBot`] and [`BotKind::build`] from the rules catalogue's
/// list (through [`spielleiter_rules::for_each_game!`]).
macro_rules! bot_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// A built-in bot of one game, as a bot of [`AnyGame`]: it moves in
        /// games of the type it was built for ([`BotKind::build`]).
        pub struct AnyBot(Inner);

        enum Inner {
            $(
                $(#[cfg($cfg)])?
                $variant(Box<dyn Bot<<entry::$variant as CatalogueEntry>::Game> + Send>),
            )*
        }

        impl BotKind {
            /// A bot of this kind for games of `game`, seeded with `seed`
            /// where it draws at random.
            ///
            /// # Errors
            ///
            /// [`NoSuchBot`] if the game has no bot of this kind.
            pub fn build(self, game: GameType, seed: u64) -> Result<AnyBot, NoSuchBot> {
                let inner = match game {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => {
                            <entry::$variant as GameBots>::bot(self, seed).map(Inner::$variant)
                        }
                    )*
                };
                inner.map(AnyBot).ok_or(NoSuchBot { kind: self, game })
            }
        }

        impl AnyBot {
            /// The game type the bot plays.
            pub fn game_type(&self) -> GameType {
                match &self.0 {
                    $($(#[cfg($cfg)])? Inner::$variant(_) => GameType::$variant,)*
                }
            }
        }

        impl Bot<AnyGame> for AnyBot {
            fn name(&self) -> &'static str {
                match &self.0 {
                    $($(#[cfg($cfg)])? Inner::$variant(bot) => bot.name(),)*
                }
            }

            /// # Panics
            ///
            /// If `game` is not of the type the bot was built for: the
            /// caller chose both.
            fn choose_move(&mut self, game: &AnyGame) -> AnyMove {
                let built_for = self.game_type();
                match (&mut self.0, game) {
                    $(
                        $(#[cfg($cfg)])?
                        (Inner::$variant(bot), AnyGame::$variant(game)) => {
                            AnyMove::$variant(bot.choose_move(game))
                        }
                    )*
                    (_, other) => panic!(
                        "a bot for {built_for} was asked to move in {}",
                        other.game_type()
                    ),
                }
            }
        }

        impl std::fmt::Debug for AnyBot {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("AnyBot")
                    .field("game", &self.game_type())
                    .field("name", &self.name())
                    .finish()
            }
        }
    };
}

spielleiter_rules::for_each_game!(bot_catalogue);

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{Blokus, PieceKind};

    use super::*;

    #[test]
    fn a_kind_builds_its_named_bot() {
        for kind in BotKind::PLAYING {
            for game in [GameType::Blokus2021, GameType::Blokus2027] {
                let bot = kind.build(game, 1).expect("a Blokus bot");
                assert_eq!(bot.name(), kind.name());
                assert_eq!(bot.game_type(), game);
            }
        }
    }

    #[test]
    fn a_seed_fixes_a_random_bots_choices() {
        let game = AnyGame::Blokus2021(Blokus::new(PieceKind::PentoZ));
        let draws = |seed| -> Vec<_> {
            let mut bot = BotKind::Random
                .build(GameType::Blokus2021, seed)
                .expect("a Blokus bot");
            (0..16).map(|_| bot.choose_move(&game)).collect()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
    }
}
