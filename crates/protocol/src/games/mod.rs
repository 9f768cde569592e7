//! The catalogue of the games on the wire. Each game has a folder here with
//! its implementation of `WireGame` (its state and move XML, its move
//! classes, its score fragments, the texts of its mistakes and moves, and
//! the [`Dialect`] of its season) and a [`WireEntry`] for its marker type
//! in the rules catalogue ([`entry`]), which names them; both traits live
//! in `wire_game`, below the folders, so a folder never names this module.
//! The rules catalogue's list ([`spielleiter_rules::for_each_game!`]) joins
//! them into [`GameState`] and [`GameMove`], enums with one variant per
//! game that dispatch without `dyn`: a game of the list without a
//! [`WireEntry`] does not compile.
//!
//! Games that share pieces of their wire form share a module: the Blokus
//! seasons 2021 and 2027 and the classic games ([`blokus_classic`]) build
//! on [`blokus`], and each holds only what it says differently.

use spielleiter_rules::{
    AnyGame, AnyMistake, AnyMove, GameType, PlayerSet, blokus::ClassicPlayers, entry,
};

use crate::{
    dialect::{Dialect, Player},
    error::DecodeError,
    result::{Decimal, GameResult, PlayerScore, ScoreFragment, SeatResult, Winner},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

pub mod bcl;
pub mod blokus;
pub mod blokus2021;
pub mod blokus2027;
pub mod blokus_classic;
spielleiter_rules::test_games! {
    pub mod counting;
    pub mod tictactoe;
}
pub mod ostseeschach2022;
mod record_format;
mod wire_game;

pub use record_format::{RecordError, RecordFormat};
pub(crate) use wire_game::WireGame;
use wire_game::score_definition_of;
pub use wire_game::{INVALID_FORMAT_TEXT, WireEntry};

// A game's result is built here rather than with the result shapes
// (`result.rs`): it needs the game's dialect and score definition, and the
// dialects and games build on the result shapes, not the other way round.
impl GameResult {
    /// The result of a game of `game`, worded and laid out in its season's
    /// dialect: the definition is the win points and the game's fragments,
    /// each score the win points and the game's parts (the offender's
    /// parts zeroed where the season does so), the winners named.
    /// `regular` says whether the game ended by its rules.
    pub fn of_game(
        game: GameType,
        seats: &[SeatResult<'_>],
        winners: PlayerSet,
        regular: bool,
    ) -> GameResult {
        let dialect = dialect(game);
        let scores: Vec<PlayerScore> = seats
            .iter()
            .map(|seat| {
                let zeroed = seat.offender && dialect.zero_offender_parts;
                let parts = seat.parts.iter().map(|&p| if zeroed { 0 } else { p });
                PlayerScore {
                    display_name: seat.display_name.to_owned(),
                    cause: seat.cause,
                    reason: seat.reason.clone(),
                    parts: std::iter::once(i64::from(seat.win_points))
                        .chain(parts)
                        .map(Decimal::integer)
                        .collect(),
                }
            })
            .collect();
        let winners: Vec<Winner> = winners
            .iter()
            .map(|seat| Winner {
                display_name: seats
                    .get(seat)
                    .map_or_else(String::new, |s| s.display_name.to_owned()),
                seat,
            })
            .collect();
        let winner_players: Vec<Player<'_>> = winners
            .iter()
            .map(|w| Player {
                seat: w.seat,
                display_name: &w.display_name,
            })
            .collect();
        // An irregular end's reason is the offender's, or, without one (a
        // cancelled or stopped game), the one every player has.
        let irregular_reason = (!regular)
            .then(|| seats.iter().find(|s| s.offender).or(seats.first()))
            .flatten()
            .map(|s| s.reason.as_str());
        GameResult {
            layout: dialect.result_layout,
            definition: score_definition(game),
            conclusion: dialect
                .texts
                .conclusion(regular, irregular_reason, &winner_players)
                .map(Box::new),
            scores,
            winners,
        }
    }
}

/// A state that is no consistent position of its game (a client checks the
/// states it gets).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("inconsistent {game} state: {reason}")]
pub struct InvalidState {
    /// The game.
    pub game: GameType,
    /// What is wrong.
    pub reason: String,
}

/// Generates [`GameState`], [`GameMove`] and their dispatch from the rules
/// catalogue's list (through [`spielleiter_rules::for_each_game!`]); each
/// game's types come from its [`WireEntry`].
macro_rules! wire_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// The state inside a memento (boxed: a board makes it large).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum GameState {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant(Box<<entry::$variant as WireEntry>::State>),
            )*
        }

        /// A move as it travels in `<data class="…">`, `<lastMove>` or
        /// `<originalMessage>`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameMove {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant(<entry::$variant as WireEntry>::Move),
            )*
        }

        /// The dialect of `game`'s season.
        pub fn dialect(game: GameType) -> &'static Dialect {
            match game {
                $($(#[cfg($cfg)])? GameType::$variant => <<entry::$variant as WireEntry>::Wire as WireGame>::DIALECT,)*
            }
        }

        /// The score definition of `game`'s results: the win points, then
        /// the game's own fragments.
        pub fn score_definition(game: GameType) -> Vec<ScoreFragment> {
            match game {
                $($(#[cfg($cfg)])? GameType::$variant => score_definition_of::<<entry::$variant as WireEntry>::Wire>(),)*
            }
        }

        /// The format `game`'s replays are written in for another program
        /// (`replay export`, the viewer's downloads), if it has one.
        pub fn record_format(game: GameType) -> Option<&'static RecordFormat> {
            match game {
                $($(#[cfg($cfg)])? GameType::$variant => <<entry::$variant as WireEntry>::Wire as WireGame>::RECORD.map(|record| record.format),)*
            }
        }

        /// `states`, a replay's of `game` in order, as a record in `format`.
        ///
        /// # Errors
        ///
        /// `format` is not `game`'s, a state is of another game, or the
        /// states are no game played from the start.
        pub(crate) fn write_record(
            game: GameType,
            format: &'static RecordFormat,
            states: &[GameState],
        ) -> Result<String, RecordError> {
            match game {
                $(
                    $(#[cfg($cfg)])?
                    GameType::$variant => {
                        let record = match <<entry::$variant as WireEntry>::Wire as WireGame>::RECORD {
                            Some(record) if record.format == format => record,
                            _ => return Err(RecordError::NotFor { format, game }),
                        };
                        let states = states
                            .iter()
                            .map(|state| match state {
                                GameState::$variant(state) => Ok(&**state),
                                other => Err(RecordError::Inconsistent(format!(
                                    "a {} state in a {game} replay",
                                    other.game_type()
                                ))),
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        (record.write)(&states).map_err(RecordError::Inconsistent)
                    }
                )*
            }
        }

        impl GameState {
            /// The game the state belongs to.
            pub fn game_type(&self) -> GameType {
                match self {
                    $($(#[cfg($cfg)])? GameState::$variant(_) => GameType::$variant,)*
                }
            }

            /// The number of turns played (`turn` attribute).
            pub fn turn(&self) -> u32 {
                match self {
                    $($(#[cfg($cfg)])? GameState::$variant(state) => <<entry::$variant as WireEntry>::Wire as WireGame>::state_turn(state),)*
                }
            }

            /// The players' display names the state carries, in seat order
            /// (none if the game's states do not name the players).
            pub fn display_names(&self) -> Vec<String> {
                match self {
                    $($(#[cfg($cfg)])? GameState::$variant(state) => <<entry::$variant as WireEntry>::Wire as WireGame>::state_names(state),)*
                }
            }

            /// The state of `game` as a memento carries it, with the
            /// display names of the players in seat order.
            pub fn of_game(game: &AnyGame, display_names: &[&str]) -> GameState {
                match game {
                    $(
                        $(#[cfg($cfg)])?
                        AnyGame::$variant(game) => GameState::$variant(Box::new(
                            <<entry::$variant as WireEntry>::Wire as WireGame>::state(game, display_names),
                        )),
                    )*
                }
            }

            /// The game the state describes.
            ///
            /// # Errors
            ///
            /// [`InvalidState`] if the state is no consistent position.
            pub fn to_game(&self) -> Result<AnyGame, InvalidState> {
                let invalid = |reason| InvalidState { game: self.game_type(), reason };
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        GameState::$variant(state) => <<entry::$variant as WireEntry>::Wire as WireGame>::game_of_state(state)
                            .map(AnyGame::$variant)
                            .map_err(invalid),
                    )*
                }
            }

            /// Writes the `<state class="state" …>` element.
            pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
                match self {
                    $($(#[cfg($cfg)])? GameState::$variant(state) => <<entry::$variant as WireEntry>::Wire as WireGame>::write_state(w, state),)*
                }
            }

            /// Reads a `<state>` element of `game`.
            pub(crate) fn read(
                r: &mut XmlReader<'_>,
                el: Element<'_>,
                game: GameType,
            ) -> Result<GameState, DecodeError> {
                Ok(match game {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => {
                            GameState::$variant(Box::new(<<entry::$variant as WireEntry>::Wire as WireGame>::read_state(r, el)?))
                        }
                    )*
                })
            }
        }

        impl GameMove {
            /// The game the move belongs to.
            pub fn game_type(&self) -> GameType {
                match self {
                    $($(#[cfg($cfg)])? GameMove::$variant(_) => GameType::$variant,)*
                }
            }

            /// The `class` attribute, e.g. `sc.plugin2021.SetMove`.
            pub fn class(&self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? GameMove::$variant(mv) => <<entry::$variant as WireEntry>::Wire as WireGame>::move_class(mv),)*
                }
            }

            /// The official description used in error texts.
            pub fn description(&self) -> String {
                match self {
                    $($(#[cfg($cfg)])? GameMove::$variant(mv) => <<entry::$variant as WireEntry>::Wire as WireGame>::describe_move(mv),)*
                }
            }

            /// Whether `class` names a move of `game`.
            pub fn is_move_class(game: GameType, class: &str) -> bool {
                match game {
                    $($(#[cfg($cfg)])? GameType::$variant => <<entry::$variant as WireEntry>::Wire as WireGame>::is_move_class(class),)*
                }
            }

            /// Writes the move as element `name` with its `class` attribute.
            pub(crate) fn write_element<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>, name: &str) {
                w.start(name);
                w.attr("class", self.class());
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        GameMove::$variant(mv) => {
                            if <<entry::$variant as WireEntry>::Wire as WireGame>::move_has_content(mv) {
                                w.open();
                                <<entry::$variant as WireEntry>::Wire as WireGame>::write_move_content(w, mv);
                                w.close(name);
                            } else {
                                w.end_empty();
                            }
                        }
                    )*
                }
            }

            /// Reads the content of `el`, a move element of class `class`,
            /// as a move of `game`; `None` if the class is no move class of
            /// `game` (then nothing has been consumed).
            pub(crate) fn read(
                r: &mut XmlReader<'_>,
                el: &Element<'_>,
                class: &str,
                game: GameType,
            ) -> Result<Option<GameMove>, DecodeError> {
                if !GameMove::is_move_class(game, class) {
                    return Ok(None);
                }
                Ok(Some(match game {
                    $(
                        $(#[cfg($cfg)])?
                        GameType::$variant => {
                            GameMove::$variant(<<entry::$variant as WireEntry>::Wire as WireGame>::read_move(r, el, class)?)
                        }
                    )*
                }))
            }

            /// The move for the rules of `game` (the wire may leave out
            /// what the game fills in, e.g. the colour of a Blokus pass);
            /// `None` if the move belongs to another game than `game`.
            pub fn resolve(&self, game: &AnyGame) -> Option<AnyMove> {
                match (self, game) {
                    $(
                        $(#[cfg($cfg)])?
                        (GameMove::$variant(mv), AnyGame::$variant(game)) => {
                            Some(AnyMove::$variant(<<entry::$variant as WireEntry>::Wire as WireGame>::resolve_move(mv, game)))
                        }
                    )*
                    _ => None,
                }
            }

            /// The official text of `mistake` and, where the official
            /// server names the move with it, this move's description: the
            /// parts of the rule-violation texts.
            pub fn mistake_texts(&self, mistake: AnyMistake) -> (&'static str, Option<String>) {
                match (mistake, self) {
                    $(
                        $(#[cfg($cfg)])?
                        (AnyMistake::$variant(mistake), GameMove::$variant(mv)) => {
                            <<entry::$variant as WireEntry>::Wire as WireGame>::mistake_texts(mistake, mv)
                        }
                    )*
                    // A mistake of another game cannot come from this move;
                    // the move was not understood.
                    _ => (INVALID_FORMAT_TEXT, None),
                }
            }
        }

        impl From<AnyMove> for GameMove {
            fn from(mv: AnyMove) -> GameMove {
                match mv {
                    $($(#[cfg($cfg)])? AnyMove::$variant(mv) => GameMove::$variant(<<entry::$variant as WireEntry>::Wire as WireGame>::wire_move(mv)),)*
                }
            }
        }
    };
}

spielleiter_rules::for_each_game!(wire_catalogue);

impl RecordFormat {
    /// The record format named `name` (`blksgf`).
    ///
    /// # Errors
    ///
    /// No game has a format of that name.
    pub fn named(name: &str) -> Result<&'static RecordFormat, RecordError> {
        GameType::ALL
            .iter()
            .filter_map(|&game| record_format(game))
            .find(|format| format.name == name)
            .ok_or_else(|| RecordError::UnknownFormat(name.to_owned()))
    }
}

// The catalogue's enums from a game's own state and move types: here, with
// the enums, so that the game folders never name the catalogue.

impl From<bcl::State> for GameState {
    fn from(state: bcl::State) -> GameState {
        GameState::BlokusBcl(Box::new(state))
    }
}

impl From<bcl::WireMove> for GameMove {
    fn from(mv: bcl::WireMove) -> GameMove {
        GameMove::BlokusBcl(mv)
    }
}

impl From<blokus2021::State> for GameState {
    fn from(state: blokus2021::State) -> GameState {
        GameState::Blokus2021(Box::new(state))
    }
}

impl From<blokus2027::State> for GameState {
    fn from(state: blokus2027::State) -> GameState {
        GameState::Blokus2027(Box::new(state))
    }
}

impl From<blokus_classic::State> for GameState {
    fn from(state: blokus_classic::State) -> GameState {
        let state = Box::new(state);
        match state.setup.players {
            ClassicPlayers::Four => GameState::BlokusClassic(state),
            ClassicPlayers::Three => GameState::BlokusClassic3(state),
            ClassicPlayers::Two => GameState::BlokusClassic2(state),
        }
    }
}

impl From<ostseeschach2022::State> for GameState {
    fn from(state: ostseeschach2022::State) -> GameState {
        GameState::Ostseeschach2022(Box::new(state))
    }
}

impl From<ostseeschach2022::WireMove> for GameMove {
    fn from(mv: ostseeschach2022::WireMove) -> GameMove {
        GameMove::Ostseeschach2022(mv)
    }
}

spielleiter_rules::test_games! {
    impl From<spielleiter_rules::counting::Counting> for GameState {
        fn from(state: spielleiter_rules::counting::Counting) -> GameState {
            GameState::TestCounting(Box::new(state))
        }
    }

    impl From<spielleiter_rules::counting::Count> for GameMove {
        fn from(mv: spielleiter_rules::counting::Count) -> GameMove {
            GameMove::TestCounting(mv)
        }
    }
}

// Each game through the catalogue's enums (its states, moves, mistakes and
// score definition): here, above the game folders, which never name the
// enums.
#[cfg(test)]
mod tests {
    mod blokus2021 {
        use spielleiter_rules::{
            AnyGame, AnyMistake, AnyMove, Game, GameType,
            blokus::{Color, Mistake, Move},
        };

        use crate::games::blokus2021::*;
        use crate::games::{GameMove, GameState};

        fn new_game() -> AnyGame {
            let mut rng = rand_pcg::Pcg64::new(7, 11);
            AnyGame::new(GameType::Blokus2021, &mut rng)
        }

        #[test]
        fn a_colourless_pass_resolves_against_the_game() {
            let game = new_game();
            let pass = GameMove::Blokus2021(WireMove::Skip(None));
            assert_eq!(
                pass.resolve(&game),
                Some(AnyMove::Blokus2021(Move::Skip(Color::Blue)))
            );
            let mv = AnyMove::Blokus2021(Move::Skip(Color::Red));
            assert_eq!(GameMove::from(mv).resolve(&game), Some(mv));
        }

        #[test]
        fn states_of_games_carry_the_position_and_names() {
            let game = new_game();
            let state = GameState::of_game(&game, &["a", "b"]);
            assert_eq!(state.turn(), game.turn());
            assert_eq!(state.game_type(), GameType::Blokus2021);
            assert_eq!(state.to_game(), Ok(game));
            let GameState::Blokus2021(state) = state else {
                panic!("a Blokus state");
            };
            assert_eq!(state.display_names, ["a", "b"]);
        }

        #[test]
        fn mistake_texts_follow_the_official_rules() {
            let pass = GameMove::Blokus2021(WireMove::Skip(Some(Color::Blue)));
            assert_eq!(
                pass.mistake_texts(AnyMistake::Blokus2021(Mistake::SkipFirstTurn)),
                (
                    "Der erste Zug muss einen Stein setzen",
                    Some("Farbe Blau setzt aus".to_owned())
                )
            );
            assert_eq!(
                pass.mistake_texts(AnyMistake::Blokus2021(Mistake::DuplicateShape))
                    .1,
                None
            );
            assert_eq!(
                pass.mistake_texts(AnyMistake::WrongGame),
                ("Der Zug konnte nicht erkannt werden", None)
            );
        }

        #[test]
        fn the_definition_is_win_points_then_points() {
            let names: Vec<String> = score_definition().into_iter().map(|f| f.name).collect();
            assert_eq!(names, ["Gewinner", "∅ Punkte"]);
        }
    }

    mod blokus2027 {
        use spielleiter_rules::{
            AnyGame, AnyMistake, AnyMove, Game as _, GameType,
            blokus::{Color, Mistake, Move},
        };

        use crate::games::blokus2027::*;
        use crate::games::{GameMove, GameState, blokus::WireMove};

        fn new_game() -> AnyGame {
            let mut rng = rand_pcg::Pcg64::new(7, 11);
            AnyGame::new(GameType::Blokus2027, &mut rng)
        }

        #[test]
        fn moves_are_read_for_their_season_only() {
            assert!(GameMove::is_move_class(
                GameType::Blokus2027,
                SET_MOVE_CLASS
            ));
            assert!(GameMove::is_move_class(
                GameType::Blokus2027,
                SKIP_MOVE_CLASS
            ));
            for other in ["sc.plugin2021.SetMove", "sc.plugin2021.SkipMove", "setmove"] {
                assert!(
                    !GameMove::is_move_class(GameType::Blokus2027, other),
                    "{other}"
                );
            }
            assert!(!GameMove::is_move_class(
                GameType::Blokus2021,
                SET_MOVE_CLASS
            ));
            let pass = GameMove::Blokus2027(WireMove::Skip(Some(Color::Red)));
            assert_eq!(pass.class(), SKIP_MOVE_CLASS);
            assert_eq!(pass.game_type(), GameType::Blokus2027);
        }

        #[test]
        fn moves_resolve_against_their_game_only() {
            let game = new_game();
            let pass = GameMove::Blokus2027(WireMove::Skip(None));
            assert_eq!(
                pass.resolve(&game),
                Some(AnyMove::Blokus2027(Move::Skip(Color::Blue)))
            );
            let old = GameMove::Blokus2021(WireMove::Skip(None));
            assert_eq!(old.resolve(&game), None);
        }

        #[test]
        fn states_of_games_carry_the_position_without_names() {
            let game = new_game();
            let state = GameState::of_game(&game, &["a", "b"]);
            assert_eq!(state.turn(), game.turn());
            assert_eq!(state.game_type(), GameType::Blokus2027);
            assert!(state.display_names().is_empty());
            assert_eq!(state.to_game(), Ok(game));
        }

        #[test]
        fn mistake_texts_are_the_2027_ones() {
            let pass = GameMove::Blokus2027(WireMove::Skip(Some(Color::Yellow)));
            assert_eq!(
                pass.mistake_texts(AnyMistake::Blokus2027(Mistake::WrongColor)),
                (
                    "Nur eigene Spielfiguren können gezogen werden",
                    Some("Farbe Gelb setzt aus".to_owned())
                )
            );
            assert_eq!(
                pass.mistake_texts(AnyMistake::Blokus2021(Mistake::WrongColor)),
                ("Der Zug konnte nicht erkannt werden", None)
            );
        }

        #[test]
        fn the_definition_is_siegpunkte_then_punkte() {
            let names: Vec<String> = score_definition().into_iter().map(|f| f.name).collect();
            assert_eq!(names, ["Siegpunkte", "Punkte"]);
        }
    }

    mod blokus_classic {
        use spielleiter_rules::{
            AnyGame, AnyMistake, AnyMove, Game, GameType,
            blokus::{ClassicMistake, ClassicPlayers, Color, Move},
        };

        use crate::games::blokus_classic::*;
        use crate::games::{GameMove, GameState, blokus::WireMove, score_definition};

        #[test]
        fn every_classic_game_has_its_seats_and_the_classic_moves() {
            let mut rng = rand_pcg::Pcg64::new(7, 11);
            for players in ClassicPlayers::ALL {
                let game_type = game_type(players);
                assert_eq!(game_type.id(), players.game_id());
                let game = AnyGame::new(game_type, &mut rng);
                let names = ["a", "b", "c", "d"];
                let state = GameState::of_game(&game, &names[..players.count()]);
                assert_eq!(state.game_type(), game_type);
                assert_eq!(state.display_names(), names[..players.count()]);
                assert_eq!(state.to_game(), Ok(game.clone()));
                assert!(GameMove::is_move_class(game_type, SET_MOVE_CLASS));
                assert!(GameMove::is_move_class(game_type, SKIP_MOVE_CLASS));
                assert!(!GameMove::is_move_class(game_type, "sc.plugin2021.SetMove"));
                let pass = GameMove::from(AnyMove::BlokusClassic(Move::Skip(Color::Blue)));
                assert_eq!(pass.class(), SKIP_MOVE_CLASS);
                let names: Vec<String> = score_definition(game_type)
                    .into_iter()
                    .map(|f| f.name)
                    .collect();
                assert_eq!(names, ["Gewinner", "∅ Punkte", "∅ Platz"]);
                assert_eq!(game.score(0).as_slice(), [0, 1]);
            }
        }

        #[test]
        fn a_colourless_pass_is_refused_with_its_own_text() {
            let mut rng = rand_pcg::Pcg64::new(7, 11);
            let mut game = AnyGame::new(GameType::BlokusClassic3, &mut rng);
            let pass = GameMove::BlokusClassic3(WireMove::Skip(None));
            let mv = pass.resolve(&game).expect("a classic move");
            assert_eq!(mv, AnyMove::BlokusClassic3(Move::Skip(Color::Blue)));
            let mistake = game.play(&mv).expect_err("no voluntary pass");
            assert_eq!(
                pass.mistake_texts(mistake),
                (
                    "Aussetzen ist nicht erlaubt, solange ein Stein gesetzt werden kann",
                    Some("null setzt aus".to_owned())
                )
            );
            assert_eq!(
                pass.mistake_texts(AnyMistake::BlokusClassic3(ClassicMistake::DuplicateShape))
                    .1,
                None
            );
        }
    }

    mod ostseeschach2022 {
        use spielleiter_rules::{
            AnyGame, AnyMistake, AnyMove, Game, GameType,
            ostseeschach::{Mistake, Move},
        };

        use crate::games::ostseeschach2022::*;
        use crate::games::{GameMove, GameState};

        fn new_game() -> AnyGame {
            let mut rng = rand_pcg::Pcg64::new(7, 11);
            AnyGame::new(GameType::Ostseeschach2022, &mut rng)
        }

        #[test]
        fn states_of_games_carry_the_position() {
            let game = new_game();
            let state = GameState::of_game(&game, &["a", "b"]);
            assert_eq!(state.turn(), 0);
            assert_eq!(state.game_type(), GameType::Ostseeschach2022);
            assert_eq!(state.to_game(), Ok(game));
            assert!(state.display_names().is_empty());
        }

        #[test]
        fn moves_resolve_to_themselves() {
            let game = new_game();
            let mv = Move::new(0, 0, 1, 0);
            let wire = GameMove::from(mv);
            assert_eq!(wire.class(), "move");
            assert_eq!(wire.description(), "Zug von [0|0] zu [1|0]");
            assert_eq!(wire.resolve(&game), Some(AnyMove::Ostseeschach2022(mv)));
            assert_eq!(GameMove::from(AnyMove::Ostseeschach2022(mv)), wire);
        }

        #[test]
        fn mistake_texts_name_the_move() {
            let mv = GameMove::from(Move::new(7, 3, 6, 3));
            assert_eq!(
                mv.mistake_texts(AnyMistake::Ostseeschach2022(Mistake::InvalidMovement)),
                (
                    "%s kann sich nicht um %s bewegen",
                    Some("Zug von [7|3] zu [6|3]".to_owned())
                )
            );
            assert_eq!(
                mv.mistake_texts(AnyMistake::WrongGame),
                ("Der Zug konnte nicht erkannt werden", None)
            );
            for mistake in Mistake::ALL {
                assert!(!mistake_text(mistake).is_empty());
            }
        }

        #[test]
        fn the_definition_is_win_points_ambers_and_light_lead() {
            let names: Vec<String> = score_definition().into_iter().map(|f| f.name).collect();
            assert_eq!(names, ["Siegpunkte", "Bernsteine", "Leichtfiguren Vorne"]);
            let game = new_game();
            assert_eq!(game.score(0).as_slice().len() + 1, names.len());
        }
    }
}
