//! The one list of hosted games ([`for_each_game!`]) and [`test_games!`]:
//! exported macros every layer's catalogue is generated from, this
//! crate's [`catalogue`](crate::catalogue) first.

/// Hands the list of games to `$callback!`, a macro of the caller's:
/// the one list every layer's catalogue is generated from (see the module
/// documentation). Each entry is
///
/// ```text
/// /// Doc comment.
/// #[cfg(all())]   // only on test-only games: all() with the feature
///                 // `test-games` of this crate, any() without
/// Variant { listed: …, id: …, title: …, players: …, move_time_ms: …,
///           league: …, points: …, game: …, new: … }
/// ```
///
/// A layer that needs only the variants matches each entry with
/// `$(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $variant:ident
/// { $($field:tt)* }` and puts `$(#[cfg($cfg)])?` on what it generates.
#[cfg(feature = "test-games")]
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident) => {
        $crate::__game_list! { $callback, all() }
    };
}

/// Hands the list of games to `$callback!`, a macro of the caller's:
/// the one list every layer's catalogue is generated from (see the module
/// documentation); without the feature `test-games` the test-only entries
/// carry `#[cfg(any())]`.
#[cfg(not(feature = "test-games"))]
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident) => {
        $crate::__game_list! { $callback, any() }
    };
}

/// The items inside exist exactly when the rules crate has its test-only
/// games (feature `test-games`): how a layer declares its modules of
/// test-only games, whatever its own features.
#[cfg(feature = "test-games")]
#[macro_export]
macro_rules! test_games {
    ($($item:item)*) => {
        $($item)*
    };
}

/// The items inside exist exactly when the rules crate has its test-only
/// games (feature `test-games`); without it, nothing.
#[cfg(not(feature = "test-games"))]
#[macro_export]
macro_rules! test_games {
    ($($item:item)*) => {};
}

/// The list of games itself, behind [`for_each_game!`]; `$test_games` is
/// the `cfg` of the test-only entries.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_list {
    ($callback:ident, $test_games:meta) => {
        $callback! {
            /// Blokus as in the Software-Challenge 2021.
            Blokus2021 {
                id: "swc_2021_blokus",
                title: "Blokus 2021",
                players: 2,
                move_time_ms: (2000, 10000),
                game: $crate::blokus::Blokus,
                new: $crate::blokus::new_random_game,
            }
            /// Ostseeschach as in the Software-Challenge 2022.
            Ostseeschach2022 {
                id: "swc_2022_ostseeschach",
                title: "Ostseeschach",
                players: 2,
                move_time_ms: (2000, 10000),
                points: "ambers",
                game: $crate::ostseeschach::Ostseeschach,
                new: $crate::ostseeschach::new_random_game,
            }
            /// Blokus as in the Software-Challenge 2027, the current season.
            Blokus2027 {
                id: "swc_2027_blokus",
                title: "Blokus 2027",
                players: 2,
                move_time_ms: (2000, 10000),
                game: $crate::blokus::Blokus2027,
                new: $crate::blokus::new_random_game,
            }
            /// Classic Blokus for four players (seed: Pentobi's classic rules).
            BlokusClassic {
                id: "blokus_classic",
                title: "Classic Blokus, 4 players",
                players: 4,
                move_time_ms: (2000, 10000),
                league: (WinsThenPoints, 4),
                game: $crate::blokus::Classic,
                new: $crate::blokus::new_classic_4,
            }
            /// Classic Blokus for three players; GREEN is played in turn.
            BlokusClassic3 {
                id: "blokus_classic_3",
                title: "Classic Blokus, 3 players",
                players: 3,
                move_time_ms: (2000, 10000),
                league: (WinsThenPoints, 3),
                game: $crate::blokus::Classic,
                new: $crate::blokus::new_classic_3,
            }
            /// Classic Blokus for two players with two colours each.
            BlokusClassic2 {
                id: "blokus_classic_2",
                title: "Classic Blokus, 2 players",
                players: 2,
                move_time_ms: (2000, 10000),
                league: (WinsThenPoints, 2),
                game: $crate::blokus::Classic,
                new: $crate::blokus::new_classic_2,
            }
            /// The 10×10 game of the BLOKUS Champions League (decisions.md
            /// §20–§22): 5 s per move (§16); a league plays 3 games per pair,
            /// ranked by win rate (§23).
            BlokusBcl {
                id: "blokus_bcl",
                title: "BLOKUS Champions League",
                players: 2,
                move_time_ms: (5000, 10000),
                league: (WinRate, 3),
                game: $crate::blokus::bcl::Bcl,
                new: $crate::blokus::bcl::new_game,
            }
            /// A three-seat counting game, for tests only (feature `test-games`).
            #[cfg($test_games)]
            TestCounting {
                listed: false,
                id: "test_counting",
                title: "Counting (test)",
                players: 3,
                move_time_ms: (2000, 10000),
                game: $crate::counting::Counting,
                new: $crate::counting::Counting::new_random,
            }
            /// Tic-tac-toe for two seats, for tests only (feature `test-games`):
            /// the toy game of the README's "Adding a game".
            #[cfg($test_games)]
            TestTicTacToe {
                listed: false,
                id: "test_tictactoe",
                title: "Tic-tac-toe (test)",
                players: 2,
                move_time_ms: (2000, 10000),
                game: $crate::tictactoe::TicTacToe,
                new: $crate::tictactoe::TicTacToe::new_game,
            }
        }
    };
}
