//! The catalogue of hosted games, generated from the one list of games
//! ([`for_each_game!`], in `game_list.rs`), each with its id, title and
//! variant: the game ids ([`GameType`]), one marker type per game
//! ([`entry`]) and the enums over all games ([`AnyGame`], [`AnyMove`],
//! [`AnyMistake`]) with their delegation. The enums dispatch with a `match`,
//! without `dyn`, so the server drives any game at the speed of the
//! concrete one.
//!
//! Every other layer (the wire, the bots, the pictures, the terminal views,
//! perft's reports) builds its own catalogue from the same list: it calls
//! [`for_each_game!`] with a macro of its own, which generates its `match`
//! over all games, and each arm asks the game's marker type
//! ([`entry::Blokus2021`], …) for the layer's trait (`GameBots`,
//! `GamePicture`, …). The layer's implementation for a game lives in the
//! game's folder of that layer; a game without one does not compile
//! ("the trait bound `entry::… : GameBots` is not satisfied"), and no
//! layer has a fallback arm.
//!
//! Several entries may share one Rust type (a variant of an engine), as
//! each entry names its own constructor.
//!
//! Test-only games (`TestCounting`, `TestTicTacToe`) exist only with the
//! feature `test-games`. Only the end-to-end tests enable it (through
//! their dev-dependencies), so no release build hosts them. Whether they
//! exist is decided here, in the rules crate, and handed to every layer
//! with the list (their entries carry `#[cfg(all())]` or `#[cfg(any())]`),
//! so that a layer crate built without a feature of its own still sees
//! exactly the games the rules crate has; a layer declares its modules of
//! test-only games with [`test_games!`] for the same reason.

use core::{fmt, str::FromStr, time::Duration};

use rand_core::Rng;

use crate::game::{Game, PlayerSet, ScoreParts};

/// One game of the catalogue, implemented by its marker type in [`entry`]:
/// what every layer's trait builds on.
pub trait CatalogueEntry {
    /// The game's id.
    const GAME_TYPE: GameType;
    /// The game's rules (several entries may share one type).
    type Game: Game;
}

/// Generates [`GameType`], [`entry`], [`AnyGame`], [`AnyMove`],
/// [`AnyMistake`] and their delegation from the list of games (the
/// callback of [`for_each_game!`] in this crate). Each entry:
///
/// ```text
/// /// Doc comment of the variant.
/// #[cfg(…)]                  // optional: test-only games (see the module)
/// Variant {
///     listed: false,           // optional: not named in lists of games
///     id: "protocol_id",       // the `gameType` of the protocol
///     title: "Blokus 2021",    // the game's name for people
///     players: 2,              // the number of seats
///     move_time_ms: (2000, 10000), // default soft and hard move limit
///     league: (WinRate, 3),    // optional: a league's ranking and games
///                              // per table [default: (WinPoints, players)]
///     points: "ambers",        // optional: what the first score part
///                              // counts, for people [default: "points"]
///     game: path::Type,        // implements `Game`
///     new: path::constructor,  // fn(&mut R) -> Type, R: Rng + ?Sized
/// }
/// ```
macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident {
            $(listed: $listed:literal,)?
            id: $id:literal,
            title: $title:literal,
            players: $players:literal,
            move_time_ms: ($soft:literal, $hard:literal),
            $(league: ($ranking:ident, $league_games:literal),)?
            $(points: $points:literal,)?
            game: $game:ty,
            new: $new:path $(,)?
        }
    )*) => {
        /// The games Spielleiter hosts, by their protocol id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum GameType {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant,
            )*
        }

        /// One marker type per game of the catalogue, named as its
        /// [`GameType`]: the type every layer implements its trait for
        /// (see the module documentation). They have no values.
        pub mod entry {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                #[derive(Debug)]
                pub enum $variant {}

                $(#[cfg($cfg)])?
                impl super::CatalogueEntry for $variant {
                    const GAME_TYPE: super::GameType = super::GameType::$variant;
                    type Game = $game;
                }
            )*
        }

        impl GameType {
            /// Every hosted game, in catalogue order.
            pub const ALL: &'static [GameType] = &[$($(#[cfg($cfg)])? GameType::$variant,)*];

            /// The `gameType` id of the protocol, e.g. `swc_2021_blokus`.
            pub const fn id(self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? GameType::$variant => $id,)*
                }
            }

            /// The game's name for people, e.g. `Blokus 2021` (pictures,
            /// web pages, terminal).
            pub const fn title(self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? GameType::$variant => $title,)*
                }
            }

            /// The name of the game's variant in the catalogue (and of its
            /// marker type in [`entry`]), e.g. `Blokus2021`.
            pub const fn variant(self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? GameType::$variant => stringify!($variant),)*
                }
            }

            /// Whether lists of the hosted games (such as the error for an
            /// unknown game type) name this game; test-only games are not
            /// named.
            pub const fn is_listed(self) -> bool {
                match self {
                    $($(#[cfg($cfg)])? GameType::$variant => true $(&& $listed)?,)*
                }
            }

            /// The number of seats of a room for this game.
            pub const fn player_count(self) -> usize {
                match self {
                    $($(#[cfg($cfg)])? GameType::$variant => $players,)*
                }
            }

            /// The move time the game's rules ask for by default: a move
            /// later than the first duration after its request loses, and
            /// so does no move by the second (decisions.md §16). The server
            /// may be configured otherwise.
            pub const fn default_move_time(self) -> (Duration, Duration) {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => {
                            (Duration::from_millis($soft), Duration::from_millis($hard))
                        }
                    )*
                }
            }

            /// What the first of the game's own score parts counts, in
            /// English for people: `points` (the Blokus games), `ambers`
            /// (Ostseeschach). A contest ranks teams with equal ranking
            /// points by its mean per game (decisions.md §31: the part
            /// the game's result definition marks relevant for ranking).
            pub const fn points_name(self) -> &'static str {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => {
                            let given: &[&'static str] = &[$($points)?];
                            match given {
                                [name, ..] => name,
                                [] => "points",
                            }
                        }
                    )*
                }
            }

            /// How a league (`spielleiter tournament`) of this game is
            /// played and ranked: the rule of the game's contest or seed.
            pub const fn league(self) -> League {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => League::given_or_default(
                            &[$(League {
                                ranking: Ranking::$ranking,
                                games_per_table: $league_games,
                            })?],
                            $players,
                        ),
                    )*
                }
            }
        }

        /// A game of any hosted type.
        // Games differ much in size (a Blokus board against a few counters);
        // a room owns one, so boxing the large ones would only add an
        // indirection to every move.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AnyGame {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant($game),
            )*
        }

        /// A move of any hosted game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AnyMove {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant(<$game as Game>::Move),
            )*
        }

        /// Why a move is illegal, for any hosted game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AnyMistake {
            /// The move belongs to another game than the game.
            WrongGame,
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant(<$game as Game>::Mistake),
            )*
        }

        impl AnyGame {
            /// A new game of `game_type`, drawing whatever the game leaves
            /// to chance (the Blokus start piece) from `rng`.
            pub fn new<R: Rng + ?Sized>(game_type: GameType, rng: &mut R) -> AnyGame {
                match game_type {
                    $($(#[cfg($cfg)])? GameType::$variant => AnyGame::$variant($new(rng)),)*
                }
            }

            /// The type of this game.
            pub fn game_type(&self) -> GameType {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(_) => GameType::$variant,)*
                }
            }
        }

        impl AnyMove {
            /// The game the move belongs to.
            pub fn game_type(&self) -> GameType {
                match self {
                    $($(#[cfg($cfg)])? AnyMove::$variant(_) => GameType::$variant,)*
                }
            }
        }

        impl fmt::Display for AnyMistake {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    AnyMistake::WrongGame => f.write_str("the move is for another game"),
                    $($(#[cfg($cfg)])? AnyMistake::$variant(mistake) => mistake.fmt(f),)*
                }
            }
        }

        impl core::error::Error for AnyMistake {
            fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
                match self {
                    AnyMistake::WrongGame => None,
                    $($(#[cfg($cfg)])? AnyMistake::$variant(mistake) => Some(mistake),)*
                }
            }
        }

        impl Game for AnyGame {
            type Move = AnyMove;
            type Mistake = AnyMistake;

            fn player_count(&self) -> usize {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => game.player_count(),)*
                }
            }

            fn turn(&self) -> u32 {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => Game::turn(game),)*
                }
            }

            fn player_to_move(&self) -> Option<usize> {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => game.player_to_move(),)*
                }
            }

            fn play(&mut self, mv: &AnyMove) -> Result<(), AnyMistake> {
                match (self, mv) {
                    $(
                        $(#[cfg($cfg)])?
                        (AnyGame::$variant(game), AnyMove::$variant(mv)) => {
                            Game::play(game, mv).map_err(AnyMistake::$variant)
                        }
                    )*
                    // A move of another game.
                    _ => Err(AnyMistake::WrongGame),
                }
            }

            fn is_over(&self) -> bool {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => Game::is_over(game),)*
                }
            }

            fn has_legal_move(&self) -> bool {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => Game::has_legal_move(game),)*
                }
            }

            fn for_each_legal_move(&self, mut f: impl FnMut(AnyMove)) {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        AnyGame::$variant(game) => {
                            game.for_each_legal_move(|mv| f(AnyMove::$variant(mv)))
                        }
                    )*
                }
            }

            fn score(&self, seat: usize) -> ScoreParts {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => game.score(seat),)*
                }
            }

            fn winners(&self) -> PlayerSet {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => game.winners(),)*
                }
            }

            fn regular_reason(&self, seat: usize) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? AnyGame::$variant(game) => game.regular_reason(seat),)*
                }
            }
        }
    };
}

for_each_game!(catalogue);

impl GameType {
    /// The game of a `join` without `gameType` unless the server is
    /// configured otherwise, and of the tools unless told otherwise: the
    /// current season (decisions.md §13), whose official clients send a
    /// bare `<join/>`.
    pub const DEFAULT: GameType = GameType::Blokus2027;

    /// The game with this protocol id (exact, case-sensitive).
    pub fn from_id(id: &str) -> Option<GameType> {
        GameType::ALL.iter().copied().find(|g| g.id() == id)
    }
}

/// How a league of a game is played and ranked (decisions §23), a
/// property of each catalogue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct League {
    /// How the players are ranked.
    pub ranking: Ranking,
    /// Games each table (each pair of players in a game of two) plays.
    pub games_per_table: u32,
}

impl League {
    /// The league an entry gives, or the Software-Challenge's: ranked by
    /// win points, each table playing one game per seat order.
    const fn given_or_default(given: &[League], players: u32) -> League {
        match given {
            [league, ..] => *league,
            [] => League {
                ranking: Ranking::WinPoints,
                games_per_table: players,
            },
        }
    }
}

/// How a league ranks its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ranking {
    /// Win points (2 for a win, 1 for a draw, summed over the games), then
    /// the mean game points: the Software-Challenge's ranking.
    WinPoints,
    /// The share of games won, a draw counting half: the BLOKUS Champions
    /// League's ranking.
    WinRate,
    /// Games won, then the mean game points: classic Blokus.
    WinsThenPoints,
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A name that is no hosted game's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownGameType;

impl fmt::Display for UnknownGameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown game type (hosted: ")?;
        let listed = GameType::ALL.iter().filter(|g| g.is_listed());
        for (i, game) in listed.enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(game.id())?;
        }
        f.write_str(")")
    }
}

impl core::error::Error for UnknownGameType {}

impl FromStr for GameType {
    type Err = UnknownGameType;

    /// Parses a protocol id (exact, case-sensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameType::from_id(s).ok_or(UnknownGameType)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::{self, Blokus, Blokus2027, Color, Mistake, Move, PieceKind};

    #[test]
    fn game_type_ids_round_trip() {
        for &game_type in GameType::ALL {
            assert_eq!(GameType::from_id(game_type.id()), Some(game_type));
            assert_eq!(game_type.id().parse(), Ok(game_type));
        }
        assert_eq!(GameType::Blokus2021.id(), "swc_2021_blokus");
        assert_eq!(GameType::Blokus2027.id(), "swc_2027_blokus");
        assert!(GameType::Blokus2021.is_listed());
        assert_eq!(GameType::from_id("SWC_2021_BLOKUS"), None);
        assert_eq!("chess".parse::<GameType>(), Err(UnknownGameType));
    }

    #[test]
    fn the_first_score_part_is_named_points_except_ostseeschach_ambers() {
        for &game_type in GameType::ALL {
            let expected = match game_type {
                GameType::Ostseeschach2022 => "ambers",
                _ => "points",
            };
            assert_eq!(game_type.points_name(), expected, "{game_type}");
        }
    }

    #[test]
    fn every_game_has_one_title_and_its_variant_name() {
        for (i, &game_type) in GameType::ALL.iter().enumerate() {
            assert!(!game_type.title().is_empty(), "{game_type}");
            assert_eq!(format!("{game_type:?}"), game_type.variant());
            for &other in &GameType::ALL[i + 1..] {
                assert_ne!(game_type.title(), other.title());
            }
        }
        assert_eq!(GameType::Blokus2021.title(), "Blokus 2021");
        assert_eq!(
            <entry::Blokus2027 as CatalogueEntry>::GAME_TYPE,
            GameType::Blokus2027
        );
    }

    #[test]
    fn contest_leagues_rank_by_win_points_one_game_per_seat_order() {
        for game in [
            GameType::Blokus2021,
            GameType::Ostseeschach2022,
            GameType::Blokus2027,
        ] {
            assert_eq!(
                game.league(),
                League {
                    ranking: Ranking::WinPoints,
                    games_per_table: 2
                }
            );
        }
    }

    #[test]
    fn classic_leagues_rank_by_wins_then_points_one_game_per_seat() {
        for game in [
            GameType::BlokusClassic,
            GameType::BlokusClassic3,
            GameType::BlokusClassic2,
        ] {
            let league = game.league();
            assert_eq!(league.ranking, Ranking::WinsThenPoints, "{game}");
            assert_eq!(league.games_per_table as usize, game.player_count());
        }
    }

    #[test]
    fn every_game_has_the_seats_of_its_type() {
        let mut rng = rand_pcg::Pcg64::new(1, 1);
        for &game_type in GameType::ALL {
            let game = AnyGame::new(game_type, &mut rng);
            assert_eq!(game.game_type(), game_type);
            assert_eq!(game.player_count(), game_type.player_count());
            assert!(game_type.player_count() <= PlayerSet::CAPACITY);
            assert_eq!(game.player_to_move(), Some(0), "{game_type}");
            let (soft, hard) = game_type.default_move_time();
            assert!(!soft.is_zero() && soft <= hard, "{game_type}");
        }
    }

    #[test]
    fn any_game_delegates_to_blokus() {
        let mut game = AnyGame::Blokus2021(Blokus::new(PieceKind::PentoU));
        assert_eq!(game.game_type(), GameType::Blokus2021);
        assert_eq!((game.player_count(), game.player_to_move()), (2, Some(0)));
        assert!(game.has_legal_move());
        let mut first = None;
        let mut count = 0;
        game.for_each_legal_move(|mv| {
            first.get_or_insert(mv);
            count += 1;
        });
        // Every corner of every PENTO_U orientation is a cell: 4 corners × 4.
        assert_eq!(count, 16);
        let skip = AnyMove::Blokus2021(Move::Skip(Color::Blue));
        assert_eq!(
            game.play(&skip),
            Err(AnyMistake::Blokus2021(Mistake::SkipFirstTurn))
        );
        let first = first.expect("BLUE has moves");
        assert_eq!(first.game_type(), GameType::Blokus2021);
        assert_eq!(game.play(&first), Ok(()));
        assert_eq!((game.turn(), game.player_to_move()), (1, Some(1)));
        assert_eq!(
            (game.score(0).as_slice(), game.score(1).as_slice()),
            ([5].as_slice(), [0].as_slice())
        );
        assert_eq!(game.winners(), PlayerSet::single(0));
    }

    #[test]
    fn blokus_2027_is_its_own_game() {
        let mut game = AnyGame::Blokus2027(Blokus2027::new(PieceKind::PentoX));
        assert_eq!(game.game_type(), GameType::Blokus2027);
        let mut first = None;
        let mut count = 0;
        game.for_each_legal_move(|mv| {
            first.get_or_insert(mv);
            count += 1;
        });
        // PENTO_X touches the border with a tip: 18 places along each edge,
        // the four at the corners touching two edges.
        assert_eq!(count, 68);
        let Some(AnyMove::Blokus2027(first)) = first else {
            panic!("a 2027 move");
        };
        assert_eq!(
            game.play(&AnyMove::Blokus2021(first)),
            Err(AnyMistake::WrongGame)
        );
        assert_eq!(game.play(&AnyMove::Blokus2027(first)), Ok(()));
        assert_eq!((game.turn(), game.player_to_move()), (1, Some(1)));
    }

    #[test]
    fn the_classic_games_have_their_players_and_places() {
        use crate::blokus::{ClassicMistake, ClassicPlayers};
        let mut rng = rand_pcg::Pcg64::new(1, 1);
        for players in ClassicPlayers::ALL {
            let game_type = GameType::from_id(players.game_id()).expect("hosted");
            assert_eq!(game_type.player_count(), players.count());
            let mut game = AnyGame::new(game_type, &mut rng);
            assert!(matches!(
                game,
                AnyGame::BlokusClassic(_) | AnyGame::BlokusClassic3(_) | AnyGame::BlokusClassic2(_)
            ));
            // 58 first placements of BLUE on its corner, no pass.
            let mut count = 0;
            game.for_each_legal_move(|_| count += 1);
            assert_eq!(count, 58);
            let pass = match game_type {
                GameType::BlokusClassic => AnyMove::BlokusClassic(Move::Skip(Color::Blue)),
                GameType::BlokusClassic3 => AnyMove::BlokusClassic3(Move::Skip(Color::Blue)),
                _ => AnyMove::BlokusClassic2(Move::Skip(Color::Blue)),
            };
            let mistake = game.play(&pass).expect_err("no voluntary pass");
            assert!(matches!(
                mistake,
                AnyMistake::BlokusClassic(ClassicMistake::PassWhilePlacementExists)
                    | AnyMistake::BlokusClassic3(ClassicMistake::PassWhilePlacementExists)
                    | AnyMistake::BlokusClassic2(ClassicMistake::PassWhilePlacementExists)
            ));
            // Nobody has points: every seat shares the first place.
            for seat in 0..players.count() {
                assert_eq!(game.score(seat).as_slice(), [0, 1]);
            }
            assert_eq!(game.winners(), PlayerSet::first(players.count()));
        }
    }

    #[test]
    fn blokus_bcl_is_hosted_with_five_seconds_per_move() {
        let game_type = GameType::from_id("blokus_bcl").expect("hosted");
        assert_eq!(game_type, GameType::BlokusBcl);
        assert!(game_type.is_listed());
        assert_eq!(game_type.default_move_time().0, Duration::from_secs(5));
        assert_eq!(
            game_type.league(),
            League {
                ranking: Ranking::WinRate,
                games_per_table: 3
            }
        );
        let mut rng = rand_pcg::Pcg64::new(1, 1);
        let mut game = AnyGame::new(game_type, &mut rng);
        let mut count = 0;
        game.for_each_legal_move(|_| count += 1);
        // The first-move count of the rules' perft file.
        assert_eq!(count, 30);
        assert_eq!(game.regular_reason(0), "");
        let pass = AnyMove::BlokusBcl(blokus::bcl::BclMove::Pass(blokus::bcl::BclPlayer::One));
        assert_eq!(
            game.play(&pass),
            Err(AnyMistake::BlokusBcl(
                blokus::bcl::BclMistake::PassWhilePlacementExists
            ))
        );
    }
}
