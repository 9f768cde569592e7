//! Blokus 2027 on the wire (`swc_2027_blokus`, `blokus-2027.md`), in the
//! 2027 season's dialect ([`SEASON_2027`]) with the season's texts
//! ([`Season2027`]): the state in the 2027 layout
//! ([`state`]), the move classes `sc.plugin2027.SetMove` and
//! `sc.plugin2027.SkipMove`, the score fragments `Siegpunkte` and `Punkte`,
//! and the season's texts ([`texts`]). Moves, the parts of the state and
//! the German texts the seasons share come from [`blokus`](super::blokus).
//!
//! The official 2027 server registers no aliases for its moves, so
//! `setmove`/`skipmove` are no move classes here either (§2).

pub mod state;
pub mod texts;

use spielleiter_rules::{
    blokus::{Blokus2027 as Game, Mistake, Setup, Swc2027},
    entry,
};

pub use self::{
    state::State,
    texts::{SEASON_2027, Season2027, mistake_text},
};
use super::{
    blokus::{BlokusSeason, MoveClasses},
    wire_game::{WireEntry, score_definition_of},
};
use crate::{
    dialect::Dialect,
    error::DecodeError,
    result::ScoreFragment,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a piece placement.
pub const SET_MOVE_CLASS: &str = "sc.plugin2027.SetMove";

/// The `class` of a pass.
pub const SKIP_MOVE_CLASS: &str = "sc.plugin2027.SkipMove";

/// The classes of the 2027 moves.
pub const MOVE_CLASSES: MoveClasses = MoveClasses {
    set: SET_MOVE_CLASS,
    skip: SKIP_MOVE_CLASS,
};

/// Name of the game's own score fragment, the team's points (averaged).
pub const GAME_POINTS_FRAGMENT: &str = "Punkte";

/// The score definition of a Blokus 2027 result: win points (sum), game
/// points (average).
pub fn score_definition() -> Vec<ScoreFragment> {
    score_definition_of::<Blokus2027>()
}

/// Blokus 2027 as a `BlokusSeason`, which makes it a
/// `WireGame`.
#[derive(Clone, Copy, Debug)]
pub struct Blokus2027;

impl BlokusSeason for Blokus2027 {
    type Variant = Swc2027;
    type State = State;

    const DIALECT: &'static Dialect = &SEASON_2027;
    const MOVE_CLASSES: MoveClasses = MOVE_CLASSES;
    const POINTS_FRAGMENT: &'static str = GAME_POINTS_FRAGMENT;

    fn state(game: &Game, _display_names: &[&str]) -> State {
        State {
            setup: game.to_setup(),
        }
    }

    fn setup(state: &State) -> &Setup {
        &state.setup
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

impl WireEntry for entry::Blokus2027 {
    type Wire = Blokus2027;
    type State = State;
    type Move = super::blokus::WireMove;
}
