//! The game-specific parts of messages, as one enum variant per game: which
//! game a room plays ([`GameType`]), its state ([`GameState`]) and its moves
//! ([`GameMove`]). Each game's XML lives in its own module
//! ([`blokus2021`](crate::blokus2021)); adding a game means adding a module
//! and a variant here.

use std::{fmt, str::FromStr};

use thiserror::Error;

use crate::{
    blokus2021,
    error::DecodeError,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// A game the protocol can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// Blokus, season 2021.
    Blokus2021,
}

impl GameType {
    /// Every supported game.
    pub const ALL: [GameType; 1] = [GameType::Blokus2021];

    /// The wire id (`gameType`), e.g. `swc_2021_blokus`.
    pub const fn id(self) -> &'static str {
        match self {
            GameType::Blokus2021 => blokus2021::GAME_TYPE_ID,
        }
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A `gameType` that names no supported game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown game type `{0}`")]
pub struct UnknownGameType(pub String);

impl FromStr for GameType {
    type Err = UnknownGameType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameType::ALL
            .into_iter()
            .find(|g| g.id() == s)
            .ok_or_else(|| UnknownGameType(s.to_owned()))
    }
}

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

impl From<blokus2021::WireMove> for GameMove {
    fn from(mv: blokus2021::WireMove) -> GameMove {
        GameMove::Blokus2021(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_type_ids_round_trip() {
        for game in GameType::ALL {
            assert_eq!(game.id().parse::<GameType>(), Ok(game));
        }
        assert_eq!(
            "swc_2022_ostseeschach".parse::<GameType>(),
            Err(UnknownGameType("swc_2022_ostseeschach".to_owned()))
        );
    }
}
