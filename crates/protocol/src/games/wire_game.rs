//! What each game implements to be on the wire: [`WireGame`] (its state
//! and move XML, move classes, score fragments, texts, season and record
//! format for another program, if any) and
//! [`WireEntry`] (the types its marker in the rules catalogue names). The
//! game folders implement them; the catalogue ([`games`](super)) joins the
//! games through them, so the folders never name the catalogue.

use spielleiter_rules::{CatalogueEntry, Game};

use super::record_format::GameRecord;
use crate::{
    dialect::Dialect,
    error::DecodeError,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The official text for a move that belongs to no game of the room
/// (`INVALID_FORMAT`, the same in every season).
pub const INVALID_FORMAT_TEXT: &str = "Der Zug konnte nicht erkannt werden";

/// What is game-specific on the wire, implemented once per game (by a unit
/// type in the game's folder).
pub(crate) trait WireGame {
    /// The rules of the game.
    type Game: Game;
    /// The state as a memento carries it.
    type State;
    /// A move as the wire carries it (it may say less than the rules' move,
    /// which [`resolve_move`](Self::resolve_move) completes).
    type Move;

    /// The season the game speaks.
    const DIALECT: &'static Dialect;

    /// The game's record in another program's format (Pentobi's
    /// `.blksgf` for classic Blokus), or `None` where it has none.
    const RECORD: Option<GameRecord<Self::State>>;

    /// The game's own score fragments, which follow the win points in a
    /// result's definition (one per part of [`Game::score`]).
    fn score_fragments() -> Vec<ScoreFragment>;

    /// The state of `game` for a memento; `display_names` in seat order.
    fn state(game: &Self::Game, display_names: &[&str]) -> Self::State;

    /// The turn counter the state carries.
    fn state_turn(state: &Self::State) -> u32;

    /// The players' display names the state carries, in seat order (none
    /// if the game's states do not name the players).
    fn state_names(state: &Self::State) -> Vec<String> {
        let _ = state;
        Vec::new()
    }

    /// The game a state describes, for clients.
    ///
    /// # Errors
    ///
    /// Why the state is no consistent position of the game.
    fn game_of_state(state: &Self::State) -> Result<Self::Game, String>;

    /// Writes the `<state class="state" …>` element.
    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &Self::State);

    /// Reads a `<state>` element.
    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Self::State, DecodeError>;

    /// Whether `class` is one of the game's move classes.
    fn is_move_class(class: &str) -> bool;

    /// The `class` of a move.
    fn move_class(mv: &Self::Move) -> &'static str;

    /// Whether [`write_move_content`](Self::write_move_content) writes
    /// anything (otherwise the move's element is written empty).
    fn move_has_content(mv: &Self::Move) -> bool;

    /// Writes the children of a move element.
    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &Self::Move);

    /// Reads the content of a move element whose `class` is one of the
    /// game's move classes.
    fn read_move(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        class: &str,
    ) -> Result<Self::Move, DecodeError>;

    /// The rules' move for a wire move sent in `game`.
    fn resolve_move(mv: &Self::Move, game: &Self::Game) -> <Self::Game as Game>::Move;

    /// The wire form of a rules' move.
    fn wire_move(mv: <Self::Game as Game>::Move) -> Self::Move;

    /// The official description of a move in texts.
    fn describe_move(mv: &Self::Move) -> String;

    /// The official text of `mistake` and, where the season names the move
    /// with it, the move's description.
    fn mistake_texts(
        mistake: <Self::Game as Game>::Mistake,
        mv: &Self::Move,
    ) -> (&'static str, Option<String>);
}

/// A game of the rules catalogue on the wire, implemented by its marker
/// type ([`entry`](spielleiter_rules::entry)) in the game's folder: the
/// types that implement the game's wire form. The `State` and `Move` are
/// those of the `Wire` (which implements the crate's `WireGame`), named
/// here because the enums [`GameState`](crate::GameState) and
/// [`GameMove`](crate::GameMove) carry them.
pub trait WireEntry: CatalogueEntry {
    /// The type that implements the game's wire form.
    type Wire;
    /// The state as a memento carries it.
    type State;
    /// A move as the wire carries it.
    type Move;
}

/// The score definition of `W`'s results: the win points its season names,
/// then the game's own fragments.
pub(crate) fn score_definition_of<W: WireGame>() -> Vec<ScoreFragment> {
    let win_points = ScoreFragment {
        name: W::DIALECT.win_points_fragment.to_owned(),
        aggregation: Aggregation::Sum,
        relevant_for_ranking: true,
    };
    std::iter::once(win_points)
        .chain(W::score_fragments())
        .collect()
}
