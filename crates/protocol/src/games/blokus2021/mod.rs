//! Blokus 2021 on the wire (`swc_2021_blokus`, `blokus-2021.md` §6, §7,
//! §9, §11), in the 2021 season's dialect: the state inside a memento
//! ([`state`]), the moves `sc.plugin2021.SetMove` and
//! `sc.plugin2021.SkipMove` ([`moves`]), the score fragments, and the German
//! texts of mistakes and moves ([`texts`]).

pub mod moves;
pub mod state;
pub mod texts;

use spielleiter_rules::{
    GameType,
    blokus::{Blokus, Mistake, Move},
};

pub use self::{
    moves::{SET_MOVE_CLASS, SKIP_MOVE_CLASS, WireMove, describe_move},
    state::State,
    texts::{german_name, mistake_move_description, mistake_names_move, mistake_text},
};
use super::{GameMove, GameState, WireGame};
use crate::{
    dialect::{Dialect, SEASON_2021},
    error::DecodeError,
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// Name of the game's own score fragment, the team's points; starts with
/// U+2205.
pub const GAME_POINTS_FRAGMENT: &str = "∅ Punkte";

/// The score definition of a Blokus 2021 result: win points (sum), game
/// points (average).
pub fn score_definition() -> Vec<ScoreFragment> {
    super::score_definition(GameType::Blokus2021)
}

/// Blokus 2021's [`WireGame`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blokus2021;

impl WireGame for Blokus2021 {
    type Game = Blokus;
    type State = State;
    type Move = WireMove;

    const DIALECT: &'static Dialect = &SEASON_2021;

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![ScoreFragment {
            name: GAME_POINTS_FRAGMENT.to_owned(),
            aggregation: Aggregation::Average,
            relevant_for_ranking: true,
        }]
    }

    fn state(game: &Blokus, display_names: &[&str]) -> State {
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

    fn game_of_state(state: &State) -> Result<Blokus, String> {
        Blokus::from_setup(&state.setup).map_err(|error| error.to_string())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
        state::write_state(w, state);
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
        state::read_state(r, el)
    }

    fn is_move_class(class: &str) -> bool {
        matches!(class, SET_MOVE_CLASS | SKIP_MOVE_CLASS)
    }

    fn move_class(mv: &WireMove) -> &'static str {
        mv.class()
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
        moves::read_move(r, el, class)?.ok_or_else(|| DecodeError::UnknownClass {
            element: "data",
            class: class.to_owned(),
        })
    }

    /// A pass without colour is for the colour on turn (decisions.md §4).
    fn resolve_move(mv: &WireMove, game: &Blokus) -> Move {
        mv.resolve(game.current_color())
    }

    fn wire_move(mv: Move) -> WireMove {
        WireMove::from(mv)
    }

    fn describe_move(mv: &WireMove) -> String {
        mv.description()
    }

    fn mistake_texts(mistake: Mistake, mv: &WireMove) -> (&'static str, Option<String>) {
        (mistake_text(mistake), mistake_move_description(mistake, mv))
    }
}

impl From<State> for GameState {
    fn from(state: State) -> GameState {
        GameState::Blokus2021(Box::new(state))
    }
}

impl From<WireMove> for GameMove {
    fn from(mv: WireMove) -> GameMove {
        GameMove::Blokus2021(mv)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{AnyGame, AnyMistake, AnyMove, Game, blokus::Color};

    use super::*;

    fn new_game() -> AnyGame {
        let mut rng = rand_pcg::Pcg64::new(7, 11);
        AnyGame::new(GameType::Blokus2021, &mut rng)
    }

    #[test]
    fn a_colourless_pass_resolves_against_the_game() {
        let game = new_game();
        let pass = GameMove::Blokus2021(WireMove::Skip(None));
        assert_eq!(
            pass.resolve(&game),
            Some(AnyMove::Blokus2021(Move::Skip(Color::Blue)))
        );
        let mv = AnyMove::Blokus2021(Move::Skip(Color::Red));
        assert_eq!(GameMove::from(mv).resolve(&game), Some(mv));
    }

    #[test]
    fn states_of_games_carry_the_position_and_names() {
        let game = new_game();
        let state = GameState::of_game(&game, &["a", "b"]);
        assert_eq!(state.turn(), game.turn());
        assert_eq!(state.game_type(), GameType::Blokus2021);
        assert_eq!(state.to_game(), Ok(game));
        let GameState::Blokus2021(state) = state else {
            panic!("a Blokus state");
        };
        assert_eq!(state.display_names, ["a", "b"]);
    }

    #[test]
    fn mistake_texts_follow_the_official_rules() {
        let pass = GameMove::Blokus2021(WireMove::Skip(Some(Color::Blue)));
        assert_eq!(
            pass.mistake_texts(AnyMistake::Blokus2021(Mistake::SkipFirstTurn)),
            (
                "Der erste Zug muss einen Stein setzen",
                Some("Farbe Blau setzt aus".to_owned())
            )
        );
        assert_eq!(
            pass.mistake_texts(AnyMistake::Blokus2021(Mistake::DuplicateShape))
                .1,
            None
        );
        assert_eq!(
            pass.mistake_texts(AnyMistake::WrongGame),
            ("Der Zug konnte nicht erkannt werden", None)
        );
    }

    #[test]
    fn the_definition_is_win_points_then_points() {
        let names: Vec<String> = score_definition().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["Gewinner", "∅ Punkte"]);
    }
}
