//! The bot catalogue: for each game, the function that builds its bot of a
//! [`BotKind`]. [`AnyBot`], generated from the list at the bottom of this
//! file, plays a game of any hosted type through the game's own bot.

use spielleiter_rules::{AnyGame, AnyMove, GameType};

use crate::{Bot, BotKind, NoSuchBot, bcl, blokus, ostseeschach2022};

/// Generates [`AnyBot`] and [`BotKind::build`] from the list of games with
/// bots. Each entry names the rules catalogue's variant, the game's Rust
/// type, and `fn(BotKind, u64) -> Option<Box<dyn Bot<Type> + Send>>`.
macro_rules! bot_catalogue {
    ($(
        $variant:ident {
            $(cfg: $cfg:meta,)?
            game: $game:ty,
            bots: $bots:path $(,)?
        }
    )*) => {
        /// A built-in bot of one game, as a bot of [`AnyGame`]: it moves in
        /// games of the type it was built for ([`BotKind::build`]).
        pub struct AnyBot(Inner);

        enum Inner {
            $($(#[cfg($cfg)])? $variant(Box<dyn Bot<$game> + Send>),)*
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
                    $($(#[cfg($cfg)])? GameType::$variant => $bots(self, seed).map(Inner::$variant),)*
                    // Games without bots.
                    #[allow(unreachable_patterns)]
                    _ => None,
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

bot_catalogue! {
    Blokus2021 {
        game: spielleiter_rules::blokus::Blokus,
        bots: blokus::bot,
    }
    Blokus2027 {
        game: spielleiter_rules::blokus::Blokus2027,
        bots: blokus::bot,
    }
    BlokusClassic {
        game: spielleiter_rules::blokus::Classic,
        bots: blokus::bot,
    }
    BlokusClassic3 {
        game: spielleiter_rules::blokus::Classic,
        bots: blokus::bot,
    }
    BlokusClassic2 {
        game: spielleiter_rules::blokus::Classic,
        bots: blokus::bot,
    }
    Ostseeschach2022 {
        game: spielleiter_rules::ostseeschach::Ostseeschach,
        bots: ostseeschach2022::bot,
    }
    BlokusBcl {
        game: spielleiter_rules::blokus::bcl::Bcl,
        bots: bcl::bot,
    }
    TestCounting {
        cfg: feature = "test-games",
        game: spielleiter_rules::counting::Counting,
        bots: crate::counting::bot,
    }
}
