//! Ostseeschach 2022 on the wire (`swc_2022_ostseeschach`,
//! `ostseeschach-2022.md` §6, §11, §13), in the 2022 season's dialect
//! ([`SEASON_2022`]): the state inside a memento ([`state`]), the move
//! `move` (also read as `sc.plugin2022.Move`, [`moves`]), the score
//! fragments, and the German texts of mistakes and moves.

pub mod moves;
mod season;
pub mod state;

use spielleiter_rules::{
    entry,
    ostseeschach::{Mistake, Move, Ostseeschach},
};

pub use self::{
    moves::{MOVE_CLASS, QUALIFIED_MOVE_CLASS, WireMove, describe_move},
    season::{SEASON_2022, Season2022, left_reason_2022},
    state::{State, wire_order},
};
use super::{
    record_format::GameRecord,
    wire_game::{INVALID_FORMAT_TEXT, WireEntry, WireGame, score_definition_of},
};
use crate::{
    dialect::Dialect,
    error::DecodeError,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// Name of the score fragment of a team's ambers.
pub const AMBERS_FRAGMENT: &str = "Bernsteine";

/// Name of the score fragment of a team's light pieces' lead.
pub const LIGHT_LEAD_FRAGMENT: &str = "Leichtfiguren Vorne";

/// The score definition of an Ostseeschach result: win points (sum),
/// ambers and light pieces' lead (averages).
pub fn score_definition() -> Vec<ScoreFragment> {
    score_definition_of::<Ostseeschach2022>()
}

/// The official text of `mistake` (`MoveMistake` of the 2022 server). The
/// `%s` of `INVALID_MOVEMENT` are sent as they are: the official server
/// never fills them in.
pub fn mistake_text(mistake: Mistake) -> &'static str {
    match mistake {
        Mistake::WrongColor => "Nur eigene Spielfiguren können gezogen werden",
        Mistake::StartEmpty => "Das Startfeld des Zuges ist leer",
        Mistake::OutOfBounds => "Das Zielfeld liegt außerhalb des Spielfelds",
        Mistake::InvalidMovement => "%s kann sich nicht um %s bewegen",
        Mistake::DestinationBlocked => "Kann nicht auf ein Feld der eigenen Farbe ziehen",
        Mistake::InvalidMove => "Dieser Zug ist nicht möglich",
        Mistake::InvalidFormat => INVALID_FORMAT_TEXT,
    }
}

/// Ostseeschach 2022's `WireGame`.
#[derive(Clone, Copy, Debug)]
pub struct Ostseeschach2022;

impl WireGame for Ostseeschach2022 {
    type Game = Ostseeschach;
    type State = State;
    type Move = WireMove;

    const DIALECT: &'static Dialect = &SEASON_2022;

    const RECORD: Option<GameRecord<Self::State>> = None;

    fn score_fragments() -> Vec<ScoreFragment> {
        [AMBERS_FRAGMENT, LIGHT_LEAD_FRAGMENT]
            .into_iter()
            .map(|name| ScoreFragment {
                name: name.to_owned(),
                aggregation: Aggregation::Average,
                relevant_for_ranking: true,
            })
            .collect()
    }

    fn state(game: &Ostseeschach, _display_names: &[&str]) -> State {
        game.to_setup()
    }

    fn state_turn(state: &State) -> u32 {
        state.turn
    }

    fn game_of_state(state: &State) -> Result<Ostseeschach, String> {
        Ostseeschach::from_setup(state).map_err(|error| error.to_string())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
        state::write_state(w, state);
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
        state::read_state(r, el)
    }

    fn is_move_class(class: &str) -> bool {
        moves::is_move_class(class)
    }

    fn move_class(_mv: &WireMove) -> &'static str {
        MOVE_CLASS
    }

    fn move_has_content(_mv: &WireMove) -> bool {
        true
    }

    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &WireMove) {
        moves::write_move_content(w, mv);
    }

    fn read_move(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        _class: &str,
    ) -> Result<WireMove, DecodeError> {
        moves::read_move(r, el)
    }

    fn resolve_move(mv: &WireMove, _game: &Ostseeschach) -> Move {
        *mv
    }

    fn wire_move(mv: Move) -> WireMove {
        mv
    }

    fn describe_move(mv: &WireMove) -> String {
        describe_move(mv)
    }

    /// Every 2022 violation names the move.
    fn mistake_texts(mistake: Mistake, mv: &WireMove) -> (&'static str, Option<String>) {
        (mistake_text(mistake), Some(describe_move(mv)))
    }
}

impl WireEntry for entry::Ostseeschach2022 {
    type Wire = Ostseeschach2022;
    type State = State;
    type Move = WireMove;
}
