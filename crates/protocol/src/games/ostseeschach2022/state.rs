//! The Ostseeschach state inside a memento (`ostseeschach-2022.md` §11):
//! the position ([`Setup`] from the rules crate) to and from XML.
//!
//! # The order of the board's entries
//!
//! The official server writes the occupied fields in the iteration order of
//! a Java `HashMap` with 32 buckets: by bucket `(31·x + y) mod 32`, and
//! within a bucket in the order the fields were inserted, which depends on
//! the game's history. A position alone does not say that order, so
//! Spielleiter writes the buckets in the official order and, within a
//! bucket, the fields of the two start lines first (they were inserted when
//! the board was dealt, ONE's before TWO's), then the others by ascending
//! x. This is the official order in every position whose bucket holds at
//! most one field off the start lines and in which no start-line field was
//! left and entered again; the spec allows any deterministic order, and
//! clients must not rely on one. Readers accept any order.

use spielleiter_rules::ostseeschach::{BOARD_SIZE, Coordinates, Piece, PieceKind, Setup, Team};

use super::moves::{read_move, write_move_content};
use crate::{
    error::DecodeError,
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// An Ostseeschach state as a memento carries it: the position. The
/// official state names neither the players nor the team to move (ONE at
/// even turns, TWO at odd ones).
pub type State = Setup;

/// Whether `x` is one of the two start lines (x = 0 and x = 7).
fn on_start_line(x: i32) -> bool {
    x == Team::One.start_line() || x == Team::Two.start_line()
}

/// The occupied fields in the order Spielleiter writes them (see the module
/// documentation).
pub fn wire_order(setup: &Setup) -> Vec<(Coordinates, Piece)> {
    let mut pieces: Vec<(Coordinates, Piece)> = setup.pieces().collect();
    pieces.sort_by_key(|(field, _)| {
        let bucket = (31 * field.x + field.y).rem_euclid(32);
        (bucket, !on_start_line(field.x), field.x)
    });
    pieces
}

/// The teams that have an entry in the ambers map at `turn`: the official
/// map gets a team's entry with its first move.
fn teams_with_ambers(turn: u32) -> impl Iterator<Item = Team> {
    Team::ALL
        .into_iter()
        .filter(move |team| turn > team.index() as u32)
}

/// Writes `<state class="state" turn="…">` with every child in the
/// official order.
pub(crate) fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
    w.start("state");
    w.attr_raw("class", "state");
    w.attr_int("turn", i64::from(state.turn));
    w.open();
    w.text_element_with_class("startTeam", "team", Team::One.name());
    w.start("board");
    w.open();
    w.start("pieces");
    let pieces = wire_order(state);
    if pieces.is_empty() {
        w.end_empty();
    } else {
        w.open();
        for (field, piece) in pieces {
            w.start("entry");
            w.open();
            w.start("coordinates");
            w.attr_int("x", i64::from(field.x));
            w.attr_int("y", i64::from(field.y));
            w.end_empty();
            w.start("piece");
            w.attr_raw("type", piece.kind.name());
            w.attr_raw("team", piece.team.name());
            w.attr_int("count", i64::from(piece.count));
            w.end_empty();
            w.close("entry");
        }
        w.close("pieces");
    }
    w.close("board");
    if let Some(mv) = &state.last_move {
        w.start("lastMove");
        w.open();
        write_move_content(w, mv);
        w.close("lastMove");
    }
    w.start("ambers");
    w.attr_raw("enum-type", "team");
    let mut teams = teams_with_ambers(state.turn).peekable();
    if teams.peek().is_none() {
        w.end_empty();
    } else {
        w.open();
        for team in teams {
            w.start("entry");
            w.open();
            w.text_element_raw("team", team.name());
            w.text_element("int", &state.ambers[team].to_string());
            w.close("entry");
        }
        w.close("ambers");
    }
    w.close("state");
}

/// Reads a `<state>` element. Children may come in any order; unknown ones
/// are skipped; a missing board is empty, a missing ambers entry is 0. The
/// `class` attributes the official server writes on `startTeam` and
/// `ambers` (and its docs leave out) are not required.
pub(crate) fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
    let turn = el.attribute("turn")?.ok_or(DecodeError::MissingAttribute {
        element: "state",
        attribute: "turn",
    })?;
    let mut setup = Setup::empty();
    setup.turn = turn
        .parse()
        .map_err(|_| DecodeError::invalid("turn", turn.as_ref()))?;
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            "board" => {
                while let Some(pieces) = r.next_child(&child)? {
                    if pieces.name() == "pieces" {
                        while let Some(entry) = r.next_child(&pieces)? {
                            if entry.name() == "entry" {
                                let (field, piece) = read_entry(r, entry)?;
                                setup.set(field.0, field.1, Some(piece));
                            } else {
                                r.skip(entry)?;
                            }
                        }
                    } else {
                        r.skip(pieces)?;
                    }
                }
            }
            "lastMove" => setup.last_move = Some(read_move(r, &child)?),
            "ambers" => {
                while let Some(entry) = r.next_child(&child)? {
                    if entry.name() == "entry" {
                        let (team, ambers) = read_ambers_entry(r, entry)?;
                        setup.ambers[team] = ambers;
                    } else {
                        r.skip(entry)?;
                    }
                }
            }
            _ => r.skip(child)?,
        }
    }
    Ok(setup)
}

/// Reads an `<entry>` of `<pieces>`: `<coordinates x y/>` and `<piece type
/// team count/>`.
fn read_entry(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
) -> Result<((usize, usize), Piece), DecodeError> {
    let (mut field, mut piece) = (None, None);
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            "coordinates" => {
                let x = child.attribute("x")?.ok_or(missing("coordinates", "x"))?;
                let y = child.attribute("y")?.ok_or(missing("coordinates", "y"))?;
                field = Some((board_coordinate(&x)?, board_coordinate(&y)?));
            }
            "piece" => {
                let kind = child.attribute("type")?.ok_or(missing("piece", "type"))?;
                let team = child.attribute("team")?.ok_or(missing("piece", "team"))?;
                let count = child.attribute("count")?;
                piece = Some(Piece {
                    kind: kind
                        .parse::<PieceKind>()
                        .map_err(|_| DecodeError::invalid("piece type", kind.as_ref()))?,
                    team: parse_team(&team)?,
                    count: match count {
                        Some(count) => count
                            .parse()
                            .map_err(|_| DecodeError::invalid("count", count.as_ref()))?,
                        None => 1,
                    },
                });
            }
            _ => {}
        }
        r.skip(child)?;
    }
    let missing_child = |child| DecodeError::MissingChild {
        element: "entry",
        child,
    };
    Ok((
        field.ok_or(missing_child("coordinates"))?,
        piece.ok_or(missing_child("piece"))?,
    ))
}

/// Reads an `<entry>` of `<ambers>`: `<team>` and `<int>`.
fn read_ambers_entry(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<(Team, u32), DecodeError> {
    let (mut team, mut ambers) = (None, None);
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            "team" => team = Some(parse_team(&r.text(child)?)?),
            "int" => {
                let text = r.text(child)?;
                ambers = Some(
                    text.parse()
                        .map_err(|_| DecodeError::invalid("ambers", text.as_ref()))?,
                );
            }
            _ => r.skip(child)?,
        }
    }
    let missing_child = |child| DecodeError::MissingChild {
        element: "entry",
        child,
    };
    Ok((
        team.ok_or(missing_child("team"))?,
        ambers.ok_or(missing_child("int"))?,
    ))
}

fn missing(element: &'static str, attribute: &'static str) -> DecodeError {
    DecodeError::MissingAttribute { element, attribute }
}

fn parse_team(value: &str) -> Result<Team, DecodeError> {
    value
        .parse()
        .map_err(|_| DecodeError::invalid("team", value))
}

fn board_coordinate(value: &str) -> Result<usize, DecodeError> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&v| v < BOARD_SIZE)
        .ok_or_else(|| DecodeError::invalid("board coordinate", value))
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::ostseeschach::{Move, Ostseeschach, StartLine};

    use super::*;

    fn fields(setup: &Setup) -> Vec<(i32, i32)> {
        wire_order(setup)
            .into_iter()
            .map(|(field, _)| (field.x, field.y))
            .collect()
    }

    #[test]
    fn the_dealt_board_is_in_the_official_order() {
        // (0,0), (7,7), (0,1) … (0,7), (7,0) … (7,6).
        let setup = Setup::new(StartLine::UNSHUFFLED);
        let mut expected = vec![(0, 0), (7, 7)];
        expected.extend((1..8).map(|y| (0, y)));
        expected.extend((0..7).map(|y| (7, y)));
        assert_eq!(fields(&setup), expected);
    }

    #[test]
    fn a_moved_piece_follows_the_start_line_field_of_its_bucket() {
        // ONE's Robbe jumps from (0,3) to (1,5), whose bucket
        // (31·1 + 5) mod 32 = 4 holds (0,4): the official server appends a
        // new key at the end of its bucket.
        let mut game = Ostseeschach::new(StartLine::UNSHUFFLED);
        game.play(&Move::new(0, 3, 1, 5)).expect("legal");
        let order = fields(&game.to_setup());
        let at = |f| order.iter().position(|&g| g == f).expect("occupied");
        assert_eq!(at((1, 5)), at((0, 4)) + 1);
        assert!(!order.contains(&(0, 3)));
    }

    #[test]
    fn ambers_entries_appear_with_each_teams_first_move() {
        let teams = |turn| teams_with_ambers(turn).collect::<Vec<_>>();
        assert_eq!(teams(0), []);
        assert_eq!(teams(1), [Team::One]);
        assert_eq!(teams(2), [Team::One, Team::Two]);
        assert_eq!(teams(60), [Team::One, Team::Two]);
    }
}
