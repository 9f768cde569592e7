//! [`RoomData`]: the content of `<room roomId="…"><data class="…">`, the
//! envelope of everything that concerns a running game (`lobby.md` §5).

use spielleiter_rules::GameType;

use crate::{
    dialect::MoveRequestClass,
    error::DecodeError,
    games::{GameMove, GameState, dialect},
    result::GameResult,
    seats::{parse_seat, seat_label},
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// `class` of the welcome message.
pub const WELCOME_CLASS: &str = "welcomeMessage";
/// `class` of a memento (a state broadcast).
pub const MEMENTO_CLASS: &str = "memento";
/// `class` of a room error message.
pub const ERROR_CLASS: &str = "error";
/// `class` of a pause notification.
pub const PAUSED_CLASS: &str = "paused";
/// `class` of a game result.
pub const RESULT_CLASS: &str = "result";

/// What a room packet carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RoomData {
    /// Tells a player its seat at game start (`welcomeMessage`; the seat's
    /// label is in the `color` attribute).
    Welcome {
        /// The receiving player's seat.
        seat: usize,
    },
    /// A state broadcast (`memento`).
    Memento(GameState),
    /// Asks the receiving player for a move; the class is the season's.
    MoveRequest(MoveRequestClass),
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
            RoomData::MoveRequest(form) => form.class(),
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
            RoomData::Welcome { seat } => {
                w.attr("color", seat_label(*seat));
                w.end_empty();
            }
            RoomData::Memento(state) => {
                w.open();
                state.write(w);
                w.close("data");
            }
            RoomData::MoveRequest(_) => w.end_empty(),
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

    /// Reads a `<data>` element of a room of `game`: states, moves and
    /// results are read as those of `game`.
    pub(crate) fn read(
        r: &mut XmlReader<'_>,
        el: Element<'_>,
        game: GameType,
    ) -> Result<RoomData, DecodeError> {
        let class = el.class()?.into_owned();
        if let Some(form) = MoveRequestClass::from_class(&class) {
            r.skip(el)?;
            return Ok(RoomData::MoveRequest(form));
        }
        let data = match class.as_str() {
            WELCOME_CLASS => {
                let label = el
                    .attribute("color")?
                    .ok_or(DecodeError::MissingAttribute {
                        element: "data",
                        attribute: "color",
                    })?;
                let seat = parse_seat(&label, game.player_count())?;
                r.skip(el)?;
                RoomData::Welcome { seat }
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
            ERROR_CLASS => {
                let message = el.attribute("message")?.unwrap_or_default().into_owned();
                let mut original_message = None;
                while let Some(child) = r.next_child(&el)? {
                    if child.name() != "originalMessage" {
                        r.skip(child)?;
                        continue;
                    }
                    let class = child.class()?.into_owned();
                    match GameMove::read(r, &child, &class, game)? {
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
            RESULT_CLASS => {
                let dialect = dialect(game);
                RoomData::Result(GameResult::read_content(
                    r,
                    &el,
                    dialect.result_layout,
                    |reason| dialect.texts.cause_of(reason),
                )?)
            }
            _ => match GameMove::read(r, &el, &class, game)? {
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
