//! The Blokus 2021 state inside a memento (`blokus-2021.md` §6): the
//! position ([`Setup`] from the rules crate) plus the players' names, to and
//! from XML, in the 2021 layout.

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

/// A Blokus 2021 state as a memento carries it: the position plus the
/// display names of the two players (`<first>`, `<second>`).
///
/// The `round` attribute is not stored: it is always `1 + turn / 4` and is
/// recomputed when encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The position.
    pub setup: Setup,
    /// Display names of the player of team ONE and of team TWO (`""` for
    /// players who joined without a prepared slot).
    pub display_names: [String; 2],
}

impl State {
    /// The display name of `team`'s player.
    pub fn display_name(&self, team: Team) -> &str {
        &self.display_names[team.index()]
    }
}

/// Writes `<state class="state" …>` with every child in the official order
/// (`blokus-2021.md` §6).
pub(crate) fn write_state<S: ByteSink>(
    w: &mut XmlWriter<'_, S>,
    state: &State,
    classes: &MoveClasses,
) {
    let setup = &state.setup;
    w.start("state");
    w.attr_raw("class", "state");
    w.attr_int("turn", i64::from(setup.turn));
    w.attr_int("round", i64::from(setup.round()));
    w.attr_raw("startPiece", setup.start_piece.name());
    w.open();
    w.text_element_with_class("startTeam", "team", Team::One.name());
    write_shape_lists(w, setup);
    write_valid_colors(w, setup);
    for (element, team) in [("first", Team::One), ("second", Team::Two)] {
        w.start(element);
        w.attr("displayName", state.display_name(team));
        w.open();
        w.text_element_with_class("color", "team", team.name());
        w.close(element);
    }
    write_board(w, setup);
    write_last_move(w, setup, classes);
    write_last_move_mono(w, setup);
    w.close("state");
}

/// Reads a `<state>` element. Children may come in any order; unknown ones
/// are skipped; missing collections are empty.
pub(crate) fn read_state(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    classes: &MoveClasses,
) -> Result<State, DecodeError> {
    let mut display_names = [String::new(), String::new()];
    let setup = read_setup(r, el, classes, |r, child| {
        if let name @ ("first" | "second") = child.name() {
            let index = usize::from(name == "second");
            display_names[index] = child
                .attribute("displayName")?
                .unwrap_or_default()
                .into_owned();
        }
        r.skip(child)
    })?;
    Ok(State {
        setup,
        display_names,
    })
}
