//! [`RoomData`]: the content of `<room roomId="…"><data class="…">`, the
//! envelope of everything that concerns a running game (`lobby.md` §5).

use spielleiter_rules::blokus::Team;

use crate::{
    error::DecodeError,
    game::{GameMove, GameState, GameType},
    result::{GameResult, parse_team},
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// `class` of the welcome message.
pub const WELCOME_CLASS: &str = "welcomeMessage";
/// `class` of a memento (a state broadcast).
pub const MEMENTO_CLASS: &str = "memento";
/// `class` of a move request (no alias at 21.4.0: the Java class name).
pub const MOVE_REQUEST_CLASS: &str = "sc.framework.plugins.protocol.MoveRequest";
/// `class` of a room error message.
pub const ERROR_CLASS: &str = "error";
/// `class` of a pause notification.
pub const PAUSED_CLASS: &str = "paused";
/// `class` of a game result.
pub const RESULT_CLASS: &str = "result";

/// What a room packet carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RoomData {
    /// Tells a player its team at game start (`welcomeMessage`).
    Welcome {
        /// The receiving player's team.
        team: Team,
    },
    /// A state broadcast (`memento`).
    Memento(GameState),
    /// Asks the receiving player for a move.
    MoveRequest,
    /// A move was refused (`error`).
    Error {
        /// What went wrong (see [`texts`](crate::texts)).
        message: String,
        /// The refused move, echoed.
        original_message: Option<GameMove>,
    },
    /// A room was paused or resumed (to observers).
    Paused {
        /// Whether the room is now paused.
        paused: bool,
    },
    /// The game is over.
    Result(GameResult),
    /// A player's move (client to server).
    Move(GameMove),
}

impl RoomData {
    /// The `class` attribute of `<data>`.
    pub fn class(&self) -> &'static str {
        match self {
            RoomData::Welcome { .. } => WELCOME_CLASS,
            RoomData::Memento(_) => MEMENTO_CLASS,
            RoomData::MoveRequest => MOVE_REQUEST_CLASS,
            RoomData::Error { .. } => ERROR_CLASS,
            RoomData::Paused { .. } => PAUSED_CLASS,
            RoomData::Result(_) => RESULT_CLASS,
            RoomData::Move(mv) => mv.class(),
        }
    }

    /// Writes the `<data class="…">` element.
    pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
        if let RoomData::Move(mv) = self {
            mv.write_element(w, "data");
            return;
        }
        w.start("data");
        w.attr("class", self.class());
        match self {
            RoomData::Welcome { team } => {
                w.attr("color", team.name());
                w.end_empty();
            }
            RoomData::Memento(state) => {
                w.open();
                state.write(w);
                w.close("data");
            }
            RoomData::MoveRequest => w.end_empty(),
            RoomData::Error {
                message,
                original_message,
            } => {
                w.attr("message", message);
                match original_message {
                    Some(mv) => {
                        w.open();
                        mv.write_element(w, "originalMessage");
                        w.close("data");
                    }
                    None => w.end_empty(),
                }
            }
            RoomData::Paused { paused } => {
                w.attr_bool("paused", *paused);
                w.end_empty();
            }
            RoomData::Result(result) => {
                w.open();
                result.write_content(w);
                w.close("data");
            }
            RoomData::Move(_) => {}
        }
    }

    /// Reads a `<data>` element; states are read as states of `game`.
    pub(crate) fn read(
        r: &mut XmlReader<'_>,
        el: Element<'_>,
        game: GameType,
    ) -> Result<RoomData, DecodeError> {
        let class = el.class()?.into_owned();
        let data = match class.as_str() {
            WELCOME_CLASS => {
                let team = el
                    .attribute("color")?
                    .ok_or(DecodeError::MissingAttribute {
                        element: "data",
                        attribute: "color",
                    })?;
                let team = parse_team(&team)?;
                r.skip(el)?;
                RoomData::Welcome { team }
            }
            MEMENTO_CLASS => {
                let mut state = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() == "state" {
                        state = Some(GameState::read(r, child, game)?);
                    } else {
                        r.skip(child)?;
                    }
                }
                RoomData::Memento(state.ok_or(DecodeError::MissingChild {
                    element: "data",
                    child: "state",
                })?)
            }
            MOVE_REQUEST_CLASS => {
                r.skip(el)?;
                RoomData::MoveRequest
            }
            ERROR_CLASS => {
                let message = el.attribute("message")?.unwrap_or_default().into_owned();
                let mut original_message = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() != "originalMessage" {
                        r.skip(child)?;
                        continue;
                    }
                    let class = child.class()?.into_owned();
                    match GameMove::read(r, &child, &class)? {
                        Some(mv) => original_message = Some(mv),
                        None => {
                            return Err(DecodeError::UnknownClass {
                                element: "originalMessage",
                                class,
                            });
                        }
                    }
                }
                RoomData::Error {
                    message,
                    original_message,
                }
            }
            PAUSED_CLASS => {
                let paused = el.attribute("paused")?.is_some_and(|p| parse_bool(&p));
                r.skip(el)?;
                RoomData::Paused { paused }
            }
            RESULT_CLASS => RoomData::Result(GameResult::read_content(r, &el)?),
            _ => match GameMove::read(r, &el, &class)? {
                Some(mv) => RoomData::Move(mv),
                None => {
                    return Err(DecodeError::UnknownClass {
                        element: "data",
                        class,
                    });
                }
            },
        };
        Ok(data)
    }
}
