//! The wire form of the rules crate's three-seat counting game, for tests
//! only (feature `test-games`; never hosted by a release build). It speaks
//! a dialect of its own ([`DIALECT`]) that differs from 2021's wherever a
//! test can see it (the move request's class, the win-points fragment,
//! zeroed offender parts, the connection staying open after the game, no
//! test mode), so the tests show that the server follows the room's dialect
//! and not one season's habits. Its results use the 2021 layout, which
//! names every winner.
//!
//! ```xml
//! <state class="state" turn="4">
//!   <total>3</total>
//!   <total>1</total>
//!   <total>0</total>
//! </state>
//! ```
//!
//! A move is `<data class="test.Count"><amount>2</amount></data>`.

use spielleiter_rules::{entry, counting::{Count, Counting as Rules, CountingMistake, SEATS}};

use super::{
    record_format::GameRecord,
    wire_game::{WireEntry, WireGame},
};
use crate::{
    dialect::{CloseElement, Dialect, MoveRequestClass, ResultLayout},
    error::{DecodeError, MoveError},
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The counting game's dialect; see the module documentation.
pub const DIALECT: Dialect = Dialect {
    move_request: MoveRequestClass::Alias,
    close: CloseElement::Short,
    result_layout: ResultLayout::Season2021,
    win_points_fragment: "Siegpunkte",
    zero_offender_parts: true,
    times_joined_players: true,
    closes_after_game: false,
    closes_after_refused_join: false,
    test_mode: false,
    texts: &crate::games::blokus2021::Season2021,
};

/// The `class` of a move.
pub const COUNT_CLASS: &str = "test.Count";

/// The state as a memento carries it: the rules' state as it is.
pub type State = Rules;

/// A move as a client sends it: the amount as given.
pub type WireCount = Count;

/// The counting game's [`WireGame`].
#[derive(Clone, Copy, Debug)]
pub struct Counting;

impl WireGame for Counting {
    type Game = Rules;
    type State = Rules;
    type Move = Count;

    const DIALECT: &'static Dialect = &DIALECT;

    const RECORD: Option<GameRecord<Self::State>> = None;

    fn score_fragments() -> Vec<ScoreFragment> {
        vec![ScoreFragment {
            name: "Summe".to_owned(),
            aggregation: Aggregation::Average,
            relevant_for_ranking: true,
        }]
    }

    fn state(game: &Rules, _display_names: &[&str]) -> Rules {
        game.clone()
    }

    fn state_turn(state: &Rules) -> u32 {
        state.turn
    }

    fn game_of_state(state: &Rules) -> Result<Rules, String> {
        Ok(state.clone())
    }

    fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &Rules) {
        w.start("state");
        w.attr_raw("class", "state");
        w.attr_int("turn", i64::from(state.turn));
        w.open();
        for total in state.totals {
            w.text_element("total", &total.to_string());
        }
        w.close("state");
    }

    fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Rules, DecodeError> {
        let turn = el.attribute("turn")?.unwrap_or_default();
        let mut state = Rules {
            turn: turn
                .parse()
                .map_err(|_| DecodeError::invalid("turn", turn.as_ref()))?,
            ..Rules::default()
        };
        let mut seat = 0;
        while let Some(child) = r.next_child(&el)? {
            if child.name() == "total" && seat < SEATS {
                let text = r.text(child)?;
                state.totals[seat] = text
                    .parse()
                    .map_err(|_| DecodeError::invalid("total", text.as_ref()))?;
                seat += 1;
            } else {
                r.skip(child)?;
            }
        }
        Ok(state)
    }

    fn is_move_class(class: &str) -> bool {
        class == COUNT_CLASS
    }

    fn move_class(_mv: &Count) -> &'static str {
        COUNT_CLASS
    }

    fn move_has_content(_mv: &Count) -> bool {
        true
    }

    fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &Count) {
        w.text_element("amount", &mv.0.to_string());
    }

    fn read_move(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        _class: &str,
    ) -> Result<Count, DecodeError> {
        let mut amount = None;
        while let Some(child) = r.next_child(el)? {
            if child.name() == "amount" {
                let text = r.text(child)?;
                amount = Some(
                    text.parse()
                        .map_err(|_| DecodeError::invalid("amount", text.as_ref()))?,
                );
            } else {
                r.skip(child)?;
            }
        }
        Ok(Count(
            amount.ok_or(MoveError::MissingElement { element: "amount" })?,
        ))
    }

    fn resolve_move(mv: &Count, _game: &Rules) -> Count {
        *mv
    }

    fn wire_move(mv: Count) -> Count {
        mv
    }

    fn describe_move(mv: &Count) -> String {
        format!("Zähle {}", mv.0)
    }

    fn mistake_texts(mistake: CountingMistake, mv: &Count) -> (&'static str, Option<String>) {
        let text = match mistake {
            CountingMistake::OutOfRange => "Es darf nur um 1, 2 oder 3 gezählt werden",
            CountingMistake::GameOver => "Das Spiel ist vorbei",
        };
        (text, Some(Counting::describe_move(mv)))
    }
}

impl WireEntry for entry::TestCounting {
    type Wire = Counting;
    type State = State;
    type Move = WireCount;
}
