//! The Blokus 2027 state inside a memento (`blokus-2027.md` §4): the
//! position as attributes `startTeam turn startPiece round` and the
//! children `lastMove`, `board`, `lastMoveMono`, the four shape lists and
//! `validColors`, in that order; no players.

use spielleiter_rules::blokus::{Setup, Team};

use crate::{
    error::DecodeError,
    games::blokus::MoveClasses,
    games::blokus::state::{
        read_setup, write_board, write_last_move, write_last_move_mono, write_shape_lists,
        write_valid_colors,
    },
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// A Blokus 2027 state as a memento carries it: the position only.
///
/// `startTeam` (always `ONE`) and `round` (always `1 + turn / 4`) are not
/// stored; they are written from the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The position.
    pub setup: Setup,
}

/// Writes `<state class="state" …>` in the 2027 layout.
pub(crate) fn write_state<S: ByteSink>(
    w: &mut XmlWriter<'_, S>,
    state: &State,
    classes: &MoveClasses,
) {
    let setup = &state.setup;
    w.start("state");
    w.attr_raw("class", "state");
    w.attr_raw("startTeam", Team::One.name());
    w.attr_int("turn", i64::from(setup.turn));
    w.attr_raw("startPiece", setup.start_piece.name());
    w.attr_int("round", i64::from(setup.round()));
    w.open();
    write_last_move(w, setup, classes);
    write_board(w, setup);
    write_last_move_mono(w, setup);
    write_shape_lists(w, setup);
    write_valid_colors(w, setup);
    w.close("state");
}

/// Reads a `<state>` element. Children may come in any order; unknown ones
/// are skipped; missing collections are empty.
pub(crate) fn read_state(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    classes: &MoveClasses,
) -> Result<State, DecodeError> {
    let setup = read_setup(r, el, classes, |r, child| r.skip(child))?;
    Ok(State { setup })
}
