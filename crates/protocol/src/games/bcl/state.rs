//! The BCL state inside a memento: the position ([`BclSetup`] from the
//! rules crate) plus the players' names, to and from XML.
//!
//! ```text
//! <state class="bcl.State" turn="…">
//!   <player team="ONE" name="…" status="IN_GAME|OUT_OF_SPACE|OUT_OF_BLOCK">
//!     <blocks>the blocks left, in kind order</blocks>
//!   </player>
//!   <player team="TWO" …>…</player>
//!   <board>ten <row>s from row 0, one character per column: 1, 2 or .</board>
//!   <lastMove class="bcl.PlaceTo">…</lastMove>
//! </state>
//! ```

use spielleiter_rules::blokus::bcl::{
    BCL_BOARD_SIZE, BclKind, BclMove, BclPlayer, BclSetup, OutReason,
};

use super::moves::{self, PLACE_CLASS, WireMove};
use crate::{
    error::DecodeError,
    seats::seat_label,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of the state element.
pub const STATE_CLASS: &str = "bcl.State";

/// The `status` of a player still in the game.
pub const IN_GAME: &str = "IN_GAME";

/// A BCL state as a memento carries it: the position and the players'
/// display names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The position.
    pub setup: BclSetup,
    /// The display names of ONE and TWO (`""` for none).
    pub display_names: [String; 2],
}

impl State {
    /// Why `player` is out of the game, in the seed's terms; `None` while
    /// it is in. A player out with no block left is `OUT_OF_BLOCK`.
    pub fn out_reason(&self, player: BclPlayer) -> Option<OutReason> {
        let seat = player.index();
        if self.setup.in_game[seat] {
            None
        } else if self.setup.remaining[seat].iter().all(|&n| n == 0) {
            Some(OutReason::OutOfBlock)
        } else {
            Some(OutReason::OutOfSpace)
        }
    }
}

/// The character of a field of `player`, or of an empty field.
fn field_char(player: Option<BclPlayer>) -> char {
    match player {
        Some(BclPlayer::One) => '1',
        Some(BclPlayer::Two) => '2',
        None => '.',
    }
}

/// Writes `<state class="bcl.State" …>`; see the module documentation.
pub(crate) fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
    let setup = &state.setup;
    w.start("state");
    w.attr_raw("class", STATE_CLASS);
    w.attr_int("turn", i64::from(setup.turn));
    w.open();
    for player in BclPlayer::ALL {
        let seat = player.index();
        w.start("player");
        w.attr_raw("team", seat_label(seat));
        if !state.display_names[seat].is_empty() {
            w.attr("name", &state.display_names[seat]);
        }
        w.attr_raw(
            "status",
            state.out_reason(player).map_or(IN_GAME, OutReason::name),
        );
        w.open();
        let blocks: Vec<&str> = BclKind::ALL
            .into_iter()
            .flat_map(|kind| {
                std::iter::repeat_n(
                    kind.name(),
                    usize::from(setup.remaining[seat][kind.index()]),
                )
            })
            .collect();
        w.text_element("blocks", &blocks.join(" "));
        w.close("player");
    }
    w.start("board");
    w.open();
    for row in &setup.board {
        let text: String = row.iter().map(|&field| field_char(field)).collect();
        w.text_element_raw("row", &text);
    }
    w.close("board");
    if let Some(mv) = setup.last_move {
        let mv = WireMove::from(mv);
        w.start("lastMove");
        w.attr_raw("class", moves::move_class(&mv));
        w.open();
        moves::write_move_content(w, &mv);
        w.close("lastMove");
    }
    w.close("state");
}

/// Reads a `<state>` element. Children may come in any order; unknown ones
/// are skipped; a missing `<blocks>` is an empty hand, a missing row an
/// empty row.
pub(crate) fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
    let turn = el.attribute("turn")?.unwrap_or_default();
    let mut setup = BclSetup::new();
    setup.turn = turn
        .parse()
        .map_err(|_| DecodeError::invalid("turn", turn.as_ref()))?;
    setup.remaining = [[0; BclKind::ALL.len()]; 2];
    let mut state = State {
        setup,
        display_names: [String::new(), String::new()],
    };
    let mut last_move = None;
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            "player" => read_player(r, child, &mut state)?,
            "board" => read_board(r, child, &mut state.setup)?,
            "lastMove" => {
                let class = child.attribute("class")?.unwrap_or_default().into_owned();
                if class != PLACE_CLASS {
                    return Err(DecodeError::UnknownClass {
                        element: "lastMove",
                        class,
                    });
                }
                last_move = Some(moves::read_move(r, &child, &class)?);
            }
            _ => r.skip(child)?,
        }
    }
    if let Some(WireMove::Place(place)) = last_move {
        // The wire leaves the player out: it is the owner of the block's
        // fields (the rules check that the whole block is the player's).
        let owner = place
            .by(BclPlayer::One)
            .cells()
            .next()
            .and_then(|(row, col)| {
                let row = state.setup.board.get(usize::try_from(row).ok()?)?;
                row.get(usize::try_from(col).ok()?).copied().flatten()
            })
            .ok_or_else(|| {
                DecodeError::invalid("lastMove", moves::describe_move(&WireMove::Place(place)))
            })?;
        state.setup.last_move = Some(BclMove::Place(place.by(owner)));
    }
    Ok(state)
}

/// Reads a `<player team … status>` into `state`.
fn read_player(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    state: &mut State,
) -> Result<(), DecodeError> {
    let team = el.attribute("team")?.unwrap_or_default();
    let player: BclPlayer = team
        .parse()
        .map_err(|_| DecodeError::invalid("team", team.as_ref()))?;
    let seat = player.index();
    state.display_names[seat] = el.attribute("name")?.unwrap_or_default().into_owned();
    let status = el.attribute("status")?.unwrap_or_default();
    state.setup.in_game[seat] = match status.as_ref() {
        IN_GAME => true,
        "OUT_OF_SPACE" | "OUT_OF_BLOCK" => false,
        other => return Err(DecodeError::invalid("status", other)),
    };
    while let Some(child) = r.next_child(&el)? {
        if child.name() != "blocks" {
            r.skip(child)?;
            continue;
        }
        let text = r.text(child)?;
        for name in text.split_whitespace() {
            let kind: BclKind = name
                .parse()
                .map_err(|_| DecodeError::invalid("block kind", name))?;
            let count = &mut state.setup.remaining[seat][kind.index()];
            *count = count.saturating_add(1);
        }
    }
    Ok(())
}

/// Reads `<board>` with its `<row>`s into `setup`.
fn read_board(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    setup: &mut BclSetup,
) -> Result<(), DecodeError> {
    let mut row = 0;
    while let Some(child) = r.next_child(&el)? {
        if child.name() != "row" {
            r.skip(child)?;
            continue;
        }
        let text = r.text(child)?;
        let fields = setup
            .board
            .get_mut(row)
            .ok_or_else(|| DecodeError::invalid("board", "more than 10 rows"))?;
        if text.chars().count() != BCL_BOARD_SIZE {
            return Err(DecodeError::invalid("board row", text.as_ref()));
        }
        for (field, c) in fields.iter_mut().zip(text.chars()) {
            *field = match c {
                '1' => Some(BclPlayer::One),
                '2' => Some(BclPlayer::Two),
                '.' => None,
                _ => return Err(DecodeError::invalid("board row", text.as_ref())),
            };
        }
        row += 1;
    }
    Ok(())
}
