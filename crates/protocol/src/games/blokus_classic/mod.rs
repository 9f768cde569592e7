//! Classic Blokus on the wire (`blokus_classic`, `blokus_classic_3`,
//! `blokus_classic_2`; decisions.md §13–§18): no contest server hosted
//! these games, so their XML is Spielleiter's own, shaped like Blokus 2021
//! wherever the rules allow (`protocol/README.md`, "Classic Blokus"):
//!
//! - the 2021 dialect ([`SEASON_2021`]: the move request, results with one
//!   `<score>` per player and a `<winner>` per winner, the texts);
//! - the 2021 moves and pieces under the classes [`SET_MOVE_CLASS`] and
//!   [`SKIP_MOVE_CLASS`] (a pass is always a rule violation, but it is a
//!   move a client can send);
//! - the 2021 state without `startPiece`, with one player element per
//!   seat (`first` … `fourth`) ([`state`]);
//! - the score parts: the seat's points, then its place.
//!
//! The three games share everything but the number of seats, which
//! [`ClassicWire`] takes as a parameter, and their record for Pentobi
//! ([`blksgf`]).

pub mod blksgf;
pub mod state;

use spielleiter_rules::{
    GameType,
    blokus::{Classic, ClassicMistake, ClassicPlayers, Mistake, Move},
    entry,
};

pub use self::state::State;
use super::{
    blokus::{MoveClasses, WireMove, moves, texts},
    record_format::GameRecord,
    wire_game::{WireEntry, WireGame},
};
use crate::{
    dialect::Dialect,
    error::DecodeError,
    games::blokus2021::SEASON_2021,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a piece placement in the classic games.
pub const SET_MOVE_CLASS: &str = "blokus.classic.SetMove";

/// The `class` of a pass in the classic games (always refused: there is no
/// voluntary pass).
pub const SKIP_MOVE_CLASS: &str = "blokus.classic.SkipMove";

/// The classes of the classic moves.
pub const MOVE_CLASSES: MoveClasses = MoveClasses {
    set: SET_MOVE_CLASS,
    skip: SKIP_MOVE_CLASS,
};

/// Name of the first game fragment: the seat's points (averaged).
pub const POINTS_FRAGMENT: &str = "∅ Punkte";

/// Name of the second game fragment: the seat's place by points
/// (averaged; not used for ranking, the win points and points say it).
pub const PLACE_FRAGMENT: &str = "∅ Platz";

/// The game type of a player count.
pub const fn game_type(players: ClassicPlayers) -> GameType {
    match players {
        ClassicPlayers::Four => GameType::BlokusClassic,
        ClassicPlayers::Three => GameType::BlokusClassic3,
        ClassicPlayers::Two => GameType::BlokusClassic2,
    }
}

/// The player count of `SEATS` seats.
///
/// # Panics
///
/// At compile time of an instance, if `SEATS` is not 2, 3 or 4.
const fn players_of<const SEATS: usize>() -> ClassicPlayers {
    match SEATS {
        4 => ClassicPlayers::Four,
        3 => ClassicPlayers::Three,
        2 => ClassicPlayers::Two,
        _ => panic!("classic Blokus has 2, 3 or 4 players"),
    }
}

/// The German text of a classic mistake in error messages and reasons:
/// the 2021 text where the rule is the 2021 rule, Spielleiter's own for the
/// two rules 2021 does not have.
pub const fn mistake_text(mistake: ClassicMistake) -> &'static str {
    match mistake {
        ClassicMistake::WrongColor => texts::mistake_text(Mistake::WrongColor),
        ClassicMistake::DuplicateShape => texts::mistake_text(Mistake::DuplicateShape),
        ClassicMistake::OutOfBounds => texts::mistake_text(Mistake::OutOfBounds),
        ClassicMistake::Obstructed => texts::mistake_text(Mistake::Obstructed),
        ClassicMistake::TouchesSameColor => texts::mistake_text(Mistake::TouchesSameColor),
        ClassicMistake::NoSharedCorner => texts::mistake_text(Mistake::NoSharedCorner),
        ClassicMistake::NotInOwnCorner => {
            "Der erste Stein einer Farbe muss die eigene Ecke der Farbe bedecken"
        }
        ClassicMistake::PassWhilePlacementExists => {
            "Aussetzen ist nicht erlaubt, solange ein Stein gesetzt werden kann"
        }
    }
}

/// Classic Blokus for `SEATS` players as a `WireGame`.
#[derive(Clone, Copy, Debug)]
pub struct ClassicWire<const SEATS: usize>;

impl<const SEATS: usize> WireGame for ClassicWire<SEATS> {
    type Game = Classic;
    type State = State;
    type Move = WireMove;

    const DIALECT: &'static Dialect = &SEASON_2021;

    const RECORD: Option<GameRecord<State>> = Some(GameRecord {
        format: &blksgf::BLKSGF,
        write: |states| blksgf::write(players_of::<SEATS>(), states),
    });

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![
            ScoreFragment {
                name: POINTS_FRAGMENT.to_owned(),
                aggregation: Aggregation::Average,
                relevant_for_ranking: true,
            },
            ScoreFragment {
                name: PLACE_FRAGMENT.to_owned(),
                aggregation: Aggregation::Average,
                relevant_for_ranking: false,
            },
        ]
    }

    fn state(game: &Classic, display_names: &[&str]) -> State {
        let name = |seat: usize| display_names.get(seat).copied().unwrap_or("").to_owned();
        State {
            setup: game.to_setup(),
            display_names: (0..SEATS).map(name).collect(),
        }
    }

    fn state_turn(state: &State) -> u32 {
        state.setup.turn
    }

    fn state_names(state: &State) -> Vec<String> {
        state.display_names.clone()
    }

    fn game_of_state(state: &State) -> Result<Classic, String> {
        Classic::from_setup(&state.setup).map_err(|error| error.to_string())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
        state::write_state(w, state, &MOVE_CLASSES);
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
        state::read_state(r, el, players_of::<SEATS>(), &MOVE_CLASSES)
    }

    fn is_move_class(class: &str) -> bool {
        MOVE_CLASSES.contains(class)
    }

    fn move_class(mv: &WireMove) -> &'static str {
        MOVE_CLASSES.of(mv)
    }

    fn move_has_content(mv: &WireMove) -> bool {
        moves::move_has_content(mv)
    }

    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &WireMove) {
        moves::write_move_content(w, mv);
    }

    fn read_move(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        class: &str,
    ) -> Result<WireMove, DecodeError> {
        moves::read_move(r, el, class, &MOVE_CLASSES)?.ok_or_else(|| DecodeError::UnknownClass {
            element: "data",
            class: class.to_owned(),
        })
    }

    /// A pass without colour is for the colour on turn, as in 2021.
    fn resolve_move(mv: &WireMove, game: &Classic) -> Move {
        mv.resolve(game.current_color())
    }

    fn wire_move(mv: Move) -> WireMove {
        WireMove::from(mv)
    }

    fn describe_move(mv: &WireMove) -> String {
        mv.description()
    }

    /// As in 2021, a repeated piece is reported without the move.
    fn mistake_texts(mistake: ClassicMistake, mv: &WireMove) -> (&'static str, Option<String>) {
        let names_move = !matches!(mistake, ClassicMistake::DuplicateShape);
        (mistake_text(mistake), names_move.then(|| mv.description()))
    }
}

impl WireEntry for entry::BlokusClassic {
    type Wire = ClassicWire<4>;
    type State = State;
    type Move = super::blokus::WireMove;
}

impl WireEntry for entry::BlokusClassic3 {
    type Wire = ClassicWire<3>;
    type State = State;
    type Move = super::blokus::WireMove;
}

impl WireEntry for entry::BlokusClassic2 {
    type Wire = ClassicWire<2>;
    type State = State;
    type Move = super::blokus::WireMove;
}
