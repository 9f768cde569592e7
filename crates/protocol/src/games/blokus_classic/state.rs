//! The classic Blokus state inside a memento: the 2021 layout without the
//! start piece, with a player element per seat (`protocol/README.md`,
//! "Classic Blokus").

use spielleiter_rules::blokus::{ClassicPlayers, ClassicSetup};

use crate::{
    error::DecodeError,
    games::blokus::MoveClasses,
    games::blokus::state::{
        read_parts, read_turn, write_board, write_last_move, write_last_move_mono,
        write_shape_lists, write_valid_colors,
    },
    seats::seat_label,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The player elements of seats ONE, TWO, THREE, FOUR (2021 has the first
/// two).
pub const PLAYER_ELEMENTS: [&str; 4] = ["first", "second", "third", "fourth"];

/// A classic Blokus state as a memento carries it: the position plus the
/// display names of the players.
///
/// `round` (always `1 + turn / 4`) and `startTeam` (always `ONE`) are not
/// stored; they are written from the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The position (its `players` says how many seats there are).
    pub setup: ClassicSetup,
    /// The display names in seat order, one per seat (`""` for players who
    /// joined without a prepared slot).
    pub display_names: Vec<String>,
}

/// Writes `<state class="state" turn round>` with the 2021 children in the
/// 2021 order, a player element per seat.
pub(crate) fn write_state<S: ByteSink>(
    w: &mut XmlWriter<'_, S>,
    state: &State,
    classes: &MoveClasses,
) {
    let setup = &state.setup;
    w.start("state");
    w.attr_raw("class", "state");
    w.attr_int("turn", i64::from(setup.turn));
    w.attr_int("round", i64::from(1 + setup.turn / 4));
    w.open();
    w.text_element_with_class("startTeam", "team", seat_label(0));
    write_shape_lists(w, setup);
    write_valid_colors(w, setup);
    for (seat, element) in PLAYER_ELEMENTS
        .iter()
        .enumerate()
        .take(setup.players.count())
    {
        w.start(element);
        w.attr(
            "displayName",
            state.display_names.get(seat).map_or("", String::as_str),
        );
        w.open();
        w.text_element_with_class("color", "team", seat_label(seat));
        w.close(element);
    }
    write_board(w, setup);
    write_last_move(w, setup, classes);
    write_last_move_mono(w, setup);
    w.close("state");
}

/// Reads a `<state>` element of a game of `players`. Children may come in
/// any order; unknown ones (and player elements beyond the seats) are
/// skipped; missing collections are empty.
pub(crate) fn read_state(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    players: ClassicPlayers,
    classes: &MoveClasses,
) -> Result<State, DecodeError> {
    let turn = read_turn(&el)?;
    let mut display_names = vec![String::new(); players.count()];
    let parts = read_parts(r, el, classes, |r, child| {
        let seat = PLAYER_ELEMENTS.iter().position(|&e| e == child.name());
        if let Some(name) = seat.and_then(|seat| display_names.get_mut(seat)) {
            *name = child
                .attribute("displayName")?
                .unwrap_or_default()
                .into_owned();
        }
        r.skip(child)
    })?;
    Ok(State {
        setup: parts.into_classic(turn, players),
        display_names,
    })
}
