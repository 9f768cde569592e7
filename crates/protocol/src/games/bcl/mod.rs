//! The 10×10 game of the BLOKUS Champions League on the wire
//! (`blokus_bcl`, decisions.md §20–§23). No contest server ever hosted it,
//! so its wire form is Spielleiter's own, built from the same parts as the
//! seasons (lobby, room envelope, mementos, `moveRequest`, results with
//! `<scores>` entries as in 2022), in its own dialect ([`DIALECT`]) and
//! with English texts:
//!
//! - the state `<state class="bcl.State">` ([`state`]): the players with
//!   their blocks left and their status in the seed's terms (`IN_GAME`,
//!   `OUT_OF_SPACE`, `OUT_OF_BLOCK`), the board as ten rows of `1`, `2`
//!   and `.`, the last placement;
//! - the moves `bcl.PlaceTo` (the seed's `place_to`: block kind, rotation,
//!   flip, start point) and `bcl.Pass` ([`moves`]);
//! - an illegal placement disqualifies, with the seed's error code first in
//!   the reason (`OVERLAP`, `OUT_OF_STAGE`, or a corner-rule code); a
//!   regular result gives each player's reason in the seed's terms
//!   (`OUT_OF_SPACE`, `OUT_OF_BLOCK`).
//!
//! `protocol/README.md` shows every message with encoder-made examples.

pub mod moves;
pub mod state;
mod texts;

use spielleiter_rules::{
    blokus::bcl::{Bcl, BclMistake, BclMove},
    entry,
};

pub use self::{
    moves::{PASS_CLASS, PLACE_CLASS, WireMove, WirePlace, describe_move},
    state::{IN_GAME, STATE_CLASS, State},
    texts::{BclTexts, mistake_text},
};
use super::{
    record_format::GameRecord,
    wire_game::{WireEntry, WireGame},
};
use crate::{
    dialect::{CloseElement, Dialect, MoveRequestClass, ResultLayout},
    error::DecodeError,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The dialect of `blokus_bcl`: `moveRequest`, `<close/>`, results in the
/// 2022 layout (each player's cause and reason), the win points fragment
/// `Win points`, a disqualified player's cells kept as they stand, every
/// player timed, the connection closed after the game, no test mode.
pub const DIALECT: Dialect = Dialect {
    move_request: MoveRequestClass::Alias,
    close: CloseElement::Short,
    result_layout: ResultLayout::Season2022,
    win_points_fragment: "Win points",
    zero_offender_parts: false,
    times_joined_players: true,
    closes_after_game: true,
    closes_after_refused_join: false,
    test_mode: false,
    texts: &BclTexts,
};

/// The name of the score fragment of a player's cells on the board.
pub const CELLS_FRAGMENT: &str = "Cells";

/// The BCL game's `WireGame`.
#[derive(Clone, Copy, Debug)]
pub struct BlokusBcl;

impl WireGame for BlokusBcl {
    type Game = Bcl;
    type State = State;
    type Move = WireMove;

    const DIALECT: &'static Dialect = &DIALECT;

    const RECORD: Option<GameRecord<Self::State>> = None;

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![ScoreFragment {
            name: CELLS_FRAGMENT.to_owned(),
            aggregation: Aggregation::Average,
            relevant_for_ranking: true,
        }]
    }

    fn state(game: &Bcl, display_names: &[&str]) -> State {
        let name = |seat: usize| display_names.get(seat).copied().unwrap_or("").to_owned();
        State {
            setup: game.to_setup(),
            display_names: [name(0), name(1)],
        }
    }

    fn state_turn(state: &State) -> u32 {
        state.setup.turn
    }

    fn state_names(state: &State) -> Vec<String> {
        state.display_names.to_vec()
    }

    fn game_of_state(state: &State) -> Result<Bcl, String> {
        Bcl::from_setup(&state.setup).map_err(|error| error.to_string())
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

    fn move_class(mv: &WireMove) -> &'static str {
        moves::move_class(mv)
    }

    fn move_has_content(mv: &WireMove) -> bool {
        matches!(mv, WireMove::Place(_))
    }

    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &WireMove) {
        moves::write_move_content(w, mv);
    }

    fn read_move(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        class: &str,
    ) -> Result<WireMove, DecodeError> {
        moves::read_move(r, el, class)
    }

    fn resolve_move(mv: &WireMove, game: &Bcl) -> BclMove {
        mv.resolve(game)
    }

    fn wire_move(mv: BclMove) -> WireMove {
        mv.into()
    }

    fn describe_move(mv: &WireMove) -> String {
        describe_move(mv)
    }

    fn mistake_texts(mistake: BclMistake, mv: &WireMove) -> (&'static str, Option<String>) {
        (mistake_text(mistake), Some(describe_move(mv)))
    }
}

impl WireEntry for entry::BlokusBcl {
    type Wire = BlokusBcl;
    type State = State;
    type Move = WireMove;
}
