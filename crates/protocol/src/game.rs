//! The game-specific parts of messages, as one enum variant per game: a
//! game's state ([`GameState`]) and its moves ([`GameMove`]), plus the glue
//! to the rules crate's [`AnyGame`], [`AnyMove`] and [`AnyMistake`]. Each
//! game's XML lives in its own module ([`blokus2021`]);
//! adding a game means adding a module and a variant here (the game ids are
//! the rules crate's [`GameType`]).

pub use spielleiter_rules::GameType;
use spielleiter_rules::{AnyGame, AnyMistake, AnyMove};

use crate::{
    blokus2021,
    error::DecodeError,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The state inside a memento.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// A Blokus 2021 state (boxed: the board makes it large).
    Blokus2021(Box<blokus2021::State>),
}

impl GameState {
    /// The game the state belongs to.
    pub fn game_type(&self) -> GameType {
        match self {
            GameState::Blokus2021(_) => GameType::Blokus2021,
        }
    }

    /// The number of turns played (`turn` attribute).
    pub fn turn(&self) -> u32 {
        match self {
            GameState::Blokus2021(state) => state.setup.turn,
        }
    }

    /// Writes the `<state class="state" …>` element.
    pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
        match self {
            GameState::Blokus2021(state) => blokus2021::write_state(w, state),
        }
    }

    /// Reads a `<state>` element of `game`.
    pub(crate) fn read(
        r: &mut XmlReader<'_>,
        el: Element<'_>,
        game: GameType,
    ) -> Result<GameState, DecodeError> {
        match game {
            GameType::Blokus2021 => Ok(GameState::Blokus2021(Box::new(blokus2021::read_state(
                r, el,
            )?))),
        }
    }
}

impl GameState {
    /// The state of `game` as a memento carries it, with the display names
    /// of the players in slot order.
    pub fn of_game(game: &AnyGame, display_names: [String; 2]) -> GameState {
        match game {
            AnyGame::Blokus2021(blokus) => GameState::from(blokus2021::State {
                setup: blokus.to_setup(),
                display_names,
            }),
        }
    }
}

impl From<blokus2021::State> for GameState {
    fn from(state: blokus2021::State) -> GameState {
        GameState::Blokus2021(Box::new(state))
    }
}

/// A move as it travels in `<data class="…">`, `<lastMove>` or
/// `<originalMessage>`. The `class` attribute says which game it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameMove {
    /// A Blokus 2021 move.
    Blokus2021(blokus2021::WireMove),
}

impl GameMove {
    /// The game the move belongs to.
    pub fn game_type(&self) -> GameType {
        match self {
            GameMove::Blokus2021(_) => GameType::Blokus2021,
        }
    }

    /// The `class` attribute, e.g. `sc.plugin2021.SetMove`.
    pub fn class(&self) -> &'static str {
        match self {
            GameMove::Blokus2021(mv) => mv.class(),
        }
    }

    /// The official description used in error texts.
    pub fn description(&self) -> String {
        match self {
            GameMove::Blokus2021(mv) => mv.description(),
        }
    }

    /// Whether `class` names a move of any supported game.
    pub fn is_move_class(class: &str) -> bool {
        matches!(
            class,
            blokus2021::SET_MOVE_CLASS | blokus2021::SKIP_MOVE_CLASS
        )
    }

    /// Writes the move as element `name` with its `class` attribute.
    pub(crate) fn write_element<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>, name: &str) {
        w.start(name);
        w.attr("class", self.class());
        match self {
            GameMove::Blokus2021(mv) => {
                if blokus2021::move_has_content(mv) {
                    w.open();
                    blokus2021::write_move_content(w, mv);
                    w.close(name);
                } else {
                    w.end_empty();
                }
            }
        }
    }

    /// Reads the content of `el`, a move element of class `class`; `None`
    /// if the class is no move of any supported game (then nothing has been
    /// consumed).
    pub(crate) fn read(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        class: &str,
    ) -> Result<Option<GameMove>, DecodeError> {
        Ok(blokus2021::read_move(r, el, class)?.map(GameMove::Blokus2021))
    }
}

impl GameMove {
    /// The move for the rules of `game`: a pass without colour is for the
    /// colour on turn (decisions.md §4). `None` if the move belongs to
    /// another game than `game`.
    pub fn resolve(&self, game: &AnyGame) -> Option<AnyMove> {
        match (self, game) {
            (GameMove::Blokus2021(mv), AnyGame::Blokus2021(blokus)) => {
                Some(AnyMove::Blokus2021(mv.resolve(blokus.current_color())))
            }
        }
    }

    /// The official text of `mistake` and, where the official server names
    /// the move with it, this move's description: the `M` and `D` of the
    /// rule-violation texts in [`texts`](crate::texts).
    pub fn mistake_texts(&self, mistake: AnyMistake) -> (&'static str, Option<String>) {
        match (mistake, self) {
            (AnyMistake::Blokus2021(mistake), GameMove::Blokus2021(mv)) => (
                blokus2021::mistake_text(mistake),
                blokus2021::mistake_move_description(mistake, mv),
            ),
            // The official server's text for a move it cannot interpret.
            (AnyMistake::WrongGame, _) => ("Der Zug konnte nicht erkannt werden", None),
        }
    }
}

impl From<AnyMove> for GameMove {
    fn from(mv: AnyMove) -> GameMove {
        match mv {
            AnyMove::Blokus2021(mv) => GameMove::Blokus2021(mv.into()),
        }
    }
}

impl From<blokus2021::WireMove> for GameMove {
    fn from(mv: blokus2021::WireMove) -> GameMove {
        GameMove::Blokus2021(mv)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{
        Game,
        blokus::{Color, Mistake, Move},
    };

    use super::*;
    use crate::blokus2021::WireMove;

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
        let state = GameState::of_game(&game, ["a".into(), "b".into()]);
        assert_eq!(state.turn(), game.turn());
        assert_eq!(state.game_type(), GameType::Blokus2021);
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
    }
}
