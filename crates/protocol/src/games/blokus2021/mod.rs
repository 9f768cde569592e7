//! Blokus 2021 on the wire (`swc_2021_blokus`, `blokus-2021.md` §6, §7,
//! §9, §11), in the 2021 season's dialect: the state inside a memento in
//! the 2021 layout ([`state`]), the move classes `sc.plugin2021.SetMove` and
//! `sc.plugin2021.SkipMove`, and the score fragments. The moves themselves,
//! the parts of the state and the German texts are the Blokus pieces both
//! seasons share ([`blokus`](super::blokus)).

mod season;
pub mod state;

use spielleiter_rules::{
    blokus::{Blokus, Mistake, Setup, Swc2021},
    entry,
};

pub use self::{
    season::{SEASON_2021, Season2021},
    state::State,
};
pub use super::blokus::{
    MoveClasses, WireMove, describe_move, german_name, mistake_move_description,
    mistake_names_move, mistake_text,
};
use super::{
    blokus::BlokusSeason,
    wire_game::{WireEntry, score_definition_of},
};
use crate::{
    dialect::Dialect,
    error::DecodeError,
    result::ScoreFragment,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a piece placement.
pub const SET_MOVE_CLASS: &str = "sc.plugin2021.SetMove";

/// The `class` of a pass.
pub const SKIP_MOVE_CLASS: &str = "sc.plugin2021.SkipMove";

/// The classes of the 2021 moves (the short aliases `setmove`/`skipmove`
/// were never registered, `blokus-2021.md` §7).
pub const MOVE_CLASSES: MoveClasses = MoveClasses {
    set: SET_MOVE_CLASS,
    skip: SKIP_MOVE_CLASS,
};

/// Name of the game's own score fragment, the team's points; starts with
/// U+2205.
pub const GAME_POINTS_FRAGMENT: &str = "∅ Punkte";

/// The score definition of a Blokus 2021 result: win points (sum), game
/// points (average).
pub fn score_definition() -> Vec<ScoreFragment> {
    score_definition_of::<Blokus2021>()
}

/// Blokus 2021 as a `BlokusSeason`, which makes it a
/// `WireGame`.
#[derive(Clone, Copy, Debug)]
pub struct Blokus2021;

impl BlokusSeason for Blokus2021 {
    type Variant = Swc2021;
    type State = State;

    const DIALECT: &'static Dialect = &SEASON_2021;
    const MOVE_CLASSES: MoveClasses = MOVE_CLASSES;
    const POINTS_FRAGMENT: &'static str = GAME_POINTS_FRAGMENT;

    fn state(game: &Blokus, display_names: &[&str]) -> State {
        let name = |seat: usize| display_names.get(seat).copied().unwrap_or("").to_owned();
        State {
            setup: game.to_setup(),
            display_names: [name(0), name(1)],
        }
    }

    fn setup(state: &State) -> &Setup {
        &state.setup
    }

    fn state_names(state: &State) -> Vec<String> {
        state.display_names.to_vec()
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
        state::write_state(w, state, &MOVE_CLASSES);
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
        state::read_state(r, el, &MOVE_CLASSES)
    }

    fn mistake_text(mistake: Mistake) -> &'static str {
        mistake_text(mistake)
    }
}

impl WireEntry for entry::Blokus2021 {
    type Wire = Blokus2021;
    type State = State;
    type Move = super::blokus::WireMove;
}
