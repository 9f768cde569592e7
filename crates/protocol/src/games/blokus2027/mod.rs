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

/// Blokus 2027 as a [`BlokusSeason`], which makes it a
/// [`WireGame`](super::wire_game::WireGame).
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

#[cfg(test)]
mod tests {
    use spielleiter_rules::{
        AnyGame, AnyMistake, AnyMove, Game as _, GameType,
        blokus::{Color, Move},
    };

    use super::*;
    use crate::games::{GameMove, GameState, blokus::WireMove};

    fn new_game() -> AnyGame {
        let mut rng = rand_pcg::Pcg64::new(7, 11);
        AnyGame::new(GameType::Blokus2027, &mut rng)
    }

    #[test]
    fn moves_are_read_for_their_season_only() {
        assert!(GameMove::is_move_class(
            GameType::Blokus2027,
            SET_MOVE_CLASS
        ));
        assert!(GameMove::is_move_class(
            GameType::Blokus2027,
            SKIP_MOVE_CLASS
        ));
        for other in ["sc.plugin2021.SetMove", "sc.plugin2021.SkipMove", "setmove"] {
            assert!(
                !GameMove::is_move_class(GameType::Blokus2027, other),
                "{other}"
            );
        }
        assert!(!GameMove::is_move_class(
            GameType::Blokus2021,
            SET_MOVE_CLASS
        ));
        let pass = GameMove::Blokus2027(WireMove::Skip(Some(Color::Red)));
        assert_eq!(pass.class(), SKIP_MOVE_CLASS);
        assert_eq!(pass.game_type(), GameType::Blokus2027);
    }

    #[test]
    fn moves_resolve_against_their_game_only() {
        let game = new_game();
        let pass = GameMove::Blokus2027(WireMove::Skip(None));
        assert_eq!(
            pass.resolve(&game),
            Some(AnyMove::Blokus2027(Move::Skip(Color::Blue)))
        );
        let old = GameMove::Blokus2021(WireMove::Skip(None));
        assert_eq!(old.resolve(&game), None);
    }

    #[test]
    fn states_of_games_carry_the_position_without_names() {
        let game = new_game();
        let state = GameState::of_game(&game, &["a", "b"]);
        assert_eq!(state.turn(), game.turn());
        assert_eq!(state.game_type(), GameType::Blokus2027);
        assert!(state.display_names().is_empty());
        assert_eq!(state.to_game(), Ok(game));
    }

    #[test]
    fn mistake_texts_are_the_2027_ones() {
        let pass = GameMove::Blokus2027(WireMove::Skip(Some(Color::Yellow)));
        assert_eq!(
            pass.mistake_texts(AnyMistake::Blokus2027(Mistake::WrongColor)),
            (
                "Nur eigene Spielfiguren können gezogen werden",
                Some("Farbe Gelb setzt aus".to_owned())
            )
        );
        assert_eq!(
            pass.mistake_texts(AnyMistake::Blokus2021(Mistake::WrongColor)),
            ("Der Zug konnte nicht erkannt werden", None)
        );
    }

    #[test]
    fn the_definition_is_siegpunkte_then_punkte() {
        let names: Vec<String> = score_definition().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["Siegpunkte", "Punkte"]);
    }
}
