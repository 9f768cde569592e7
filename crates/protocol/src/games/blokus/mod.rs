//! The Blokus wire pieces that the Software-Challenge seasons share
//! (`swc_2021_blokus`, `swc_2027_blokus`): the moves with their pieces and
//! positions ([`moves`]), the parts of a state — shape lists, colours,
//! board, last move, `MONO` flags — and a reader for them (`state`), the
//! German texts of colours, mistakes and moves ([`texts`]), and the
//! `WireGame` of every season, built from its `BlokusSeason`.
//!
//! What differs between the seasons lives in their own modules, as their
//! `BlokusSeason`: the move classes, the state's attributes, child order
//! and players, the score fragment, the `WRONG_COLOR` text and the season's
//! dialect ([`blokus2021`](super::blokus2021),
//! [`blokus2027`](super::blokus2027)).

pub mod moves;
pub(crate) mod state;
pub mod texts;

use spielleiter_rules::blokus::{Mistake, Move, Setup, SwcBlokus, SwcVariant};

pub use self::{
    moves::{MoveClasses, WireMove, describe_move, german_name},
    texts::{mistake_move_description, mistake_names_move, mistake_text},
};
use super::{record_format::GameRecord, wire_game::WireGame};
use crate::{
    dialect::Dialect,
    error::DecodeError,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// What one Blokus season says differently on the wire; every season's
/// [`WireGame`] follows from it.
pub(crate) trait BlokusSeason {
    /// The season's rules.
    type Variant: SwcVariant;
    /// The state as a memento carries it.
    type State;

    /// The season's dialect.
    const DIALECT: &'static Dialect;
    /// The classes of the season's moves.
    const MOVE_CLASSES: MoveClasses;
    /// The name of the score fragment of the team's points (averaged).
    const POINTS_FRAGMENT: &'static str;

    /// The state of `game`; `display_names` in seat order.
    fn state(game: &SwcBlokus<Self::Variant>, display_names: &[&str]) -> Self::State;

    /// The position a state carries.
    fn setup(state: &Self::State) -> &Setup;

    /// The display names a state carries, in seat order (none by default).
    fn state_names(state: &Self::State) -> Vec<String> {
        let _ = state;
        Vec::new()
    }

    /// Writes the `<state class="state" …>` element.
    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &Self::State);

    /// Reads a `<state>` element.
    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Self::State, DecodeError>;

    /// The official text of `mistake`.
    fn mistake_text(mistake: Mistake) -> &'static str;
}

impl<B: BlokusSeason> WireGame for B {
    type Game = SwcBlokus<B::Variant>;
    type State = B::State;
    type Move = WireMove;

    const DIALECT: &'static Dialect = B::DIALECT;

    const RECORD: Option<GameRecord<Self::State>> = None;

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![ScoreFragment {
            name: B::POINTS_FRAGMENT.to_owned(),
            aggregation: Aggregation::Average,
            relevant_for_ranking: true,
        }]
    }

    fn state(game: &Self::Game, display_names: &[&str]) -> B::State {
        B::state(game, display_names)
    }

    fn state_turn(state: &B::State) -> u32 {
        B::setup(state).turn
    }

    fn state_names(state: &B::State) -> Vec<String> {
        B::state_names(state)
    }

    fn game_of_state(state: &B::State) -> Result<Self::Game, String> {
        SwcBlokus::from_setup(B::setup(state)).map_err(|error| error.to_string())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &B::State) {
        B::write_state(w, state);
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<B::State, DecodeError> {
        B::read_state(r, el)
    }

    fn is_move_class(class: &str) -> bool {
        B::MOVE_CLASSES.contains(class)
    }

    fn move_class(mv: &WireMove) -> &'static str {
        B::MOVE_CLASSES.of(mv)
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
        moves::read_move(r, el, class, &B::MOVE_CLASSES)?.ok_or_else(|| DecodeError::UnknownClass {
            element: "data",
            class: class.to_owned(),
        })
    }

    /// A pass without colour is for the colour on turn (decisions.md §4).
    fn resolve_move(mv: &WireMove, game: &Self::Game) -> Move {
        mv.resolve(game.current_color())
    }

    fn wire_move(mv: Move) -> WireMove {
        WireMove::from(mv)
    }

    fn describe_move(mv: &WireMove) -> String {
        mv.description()
    }

    fn mistake_texts(mistake: Mistake, mv: &WireMove) -> (&'static str, Option<String>) {
        (
            B::mistake_text(mistake),
            mistake_move_description(mistake, mv),
        )
    }
}
