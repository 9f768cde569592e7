//! The Ostseeschach move on the wire (`ostseeschach-2022.md` §1, §6):
//! `<data class="move"><from x y/><to x y/></data>`, and its official
//! German description (§13.1).

use spielleiter_rules::ostseeschach::{Coordinates, Move};

use crate::{
    error::{DecodeError, MoveError},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a move as the official server writes it (the alias).
pub const MOVE_CLASS: &str = "move";

/// The fully qualified `class` of a move, which the official parser also
/// accepts.
pub const QUALIFIED_MOVE_CLASS: &str = "sc.plugin2022.Move";

/// A move as the wire carries it: the rules' move, whose fields may lie off
/// the board (the rules reject such a move with the official mistake).
pub type WireMove = Move;

/// Whether `class` names an Ostseeschach move.
pub fn is_move_class(class: &str) -> bool {
    matches!(class, MOVE_CLASS | QUALIFIED_MOVE_CLASS)
}

/// The official description, `Zug von [X1|Y1] zu [X2|Y2]`.
pub fn describe_move(mv: &Move) -> String {
    format!(
        "Zug von [{}|{}] zu [{}|{}]",
        mv.from.x, mv.from.y, mv.to.x, mv.to.y
    )
}

/// Writes `<from x y/>` and `<to x y/>`, the children of every move
/// element (`<data>`, `<lastMove>`, `<originalMessage>`).
pub(crate) fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &Move) {
    for (name, field) in [("from", mv.from), ("to", mv.to)] {
        w.start(name);
        w.attr_int("x", i64::from(field.x));
        w.attr_int("y", i64::from(field.y));
        w.end_empty();
    }
}

/// Reads the children of a move element: `<from>` and `<to>`, in any
/// order; other children are skipped.
///
/// # Errors
///
/// [`MoveError`] for a missing `<from>` or `<to>`, a missing coordinate or
/// one that is no integer. (The official server reads a missing coordinate
/// as 0 and fails on a missing field; Spielleiter refuses both as
/// malformed.)
pub(crate) fn read_move(r: &mut XmlReader<'_>, el: &Element<'_>) -> Result<Move, DecodeError> {
    let (mut from, mut to) = (None, None);
    while let Some(child) = r.next_child(el)? {
        match child.name() {
            "from" => from = Some(read_field(&child, "from")?),
            "to" => to = Some(read_field(&child, "to")?),
            _ => {}
        }
        r.skip(child)?;
    }
    let missing = |element| MoveError::MissingElement { element };
    Ok(Move {
        from: from.ok_or(missing("from"))?,
        to: to.ok_or(missing("to"))?,
    })
}

/// Reads the `x` and `y` attributes of a `<from>` or `<to>` element.
fn read_field(el: &Element<'_>, element: &'static str) -> Result<Coordinates, DecodeError> {
    let (mut x, mut y) = (None, None);
    for attr in el.attributes() {
        let (key, value) = attr?;
        let target = match key {
            "x" => &mut x,
            "y" => &mut y,
            _ => continue,
        };
        *target = Some(
            value
                .parse::<i32>()
                .map_err(|_| MoveError::InvalidCoordinate {
                    value: value.to_string(),
                })?,
        );
    }
    let missing = |attribute| MoveError::MissingAttribute { element, attribute };
    Ok(Coordinates::new(
        x.ok_or(missing("x"))?,
        y.ok_or(missing("y"))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_the_official_texts() {
        assert_eq!(
            describe_move(&Move::new(7, 3, 6, 3)),
            "Zug von [7|3] zu [6|3]"
        );
        assert_eq!(
            describe_move(&Move::new(0, 0, -1, 12)),
            "Zug von [0|0] zu [-1|12]"
        );
    }

    #[test]
    fn both_classes_are_moves() {
        assert!(is_move_class("move"));
        assert!(is_move_class("sc.plugin2022.Move"));
        assert!(!is_move_class("Move"));
        assert!(!is_move_class("sc.plugin2021.SetMove"));
    }
}
