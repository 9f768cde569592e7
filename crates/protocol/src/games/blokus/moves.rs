//! The Blokus moves on the wire, the same in 2021 and 2027 but for their
//! classes (`blokus-2021.md` §7, `blokus-2027.md` §5): a placement
//! (`<piece color kind rotation isFlipped><position x y/></piece>`) or a
//! pass (`<color>`), and their official German descriptions
//! (`blokus-2021.md` §11.2, unchanged in 2027).

use spielleiter_rules::blokus::{Color, Move, PieceKind, Placement, Rotation};

use crate::{
    error::{DecodeError, MoveError},
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// The German colour name used in move descriptions.
pub const fn german_name(color: Color) -> &'static str {
    match color {
        Color::Blue => "Blau",
        Color::Yellow => "Gelb",
        Color::Red => "Rot",
        Color::Green => "Grün",
    }
}

/// The `class` names of a season's two moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveClasses {
    /// The class of a placement, e.g. `sc.plugin2021.SetMove`.
    pub set: &'static str,
    /// The class of a pass, e.g. `sc.plugin2021.SkipMove`.
    pub skip: &'static str,
}

impl MoveClasses {
    /// The class of `mv`.
    pub fn of(&self, mv: &WireMove) -> &'static str {
        match mv {
            WireMove::Set(_) => self.set,
            WireMove::Skip(_) => self.skip,
        }
    }

    /// Whether `class` is one of the two.
    pub fn contains(&self, class: &str) -> bool {
        class == self.set || class == self.skip
    }
}

/// A move as a client sent it. Unlike the rules' [`Move`], a pass may lack
/// its colour: a `SkipMove` without `<color>` means the colour on turn
/// (decisions.md §4); [`WireMove::resolve`] fills it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireMove {
    /// A placement (`SetMove`).
    Set(Placement),
    /// A pass (`SkipMove`), with the colour if one was given.
    Skip(Option<Color>),
}

impl WireMove {
    /// The move for the rules, a colourless pass being for `on_turn`.
    pub fn resolve(self, on_turn: Color) -> Move {
        match self {
            WireMove::Set(placement) => Move::Set(placement),
            WireMove::Skip(color) => Move::Skip(color.unwrap_or(on_turn)),
        }
    }

    /// The official German description (`blokus-2021.md` §11.2), e.g.
    /// `Setze PENTO_L(Farbe Gelb, gedreht um 90°, gespiegelt)[15,3]` or
    /// `Farbe Blau setzt aus`; a pass without colour prints as
    /// `null setzt aus`.
    pub fn description(&self) -> String {
        match self {
            WireMove::Set(p) => {
                let mut text = format!("Setze {}(Farbe {}", p.kind.name(), german_name(p.color));
                if p.rotation != Rotation::None {
                    text.push_str(&format!(", gedreht um {}°", p.rotation.degrees()));
                }
                if p.flipped {
                    text.push_str(", gespiegelt");
                }
                text.push_str(&format!(")[{},{}]", p.x, p.y));
                text
            }
            WireMove::Skip(Some(color)) => format!("Farbe {} setzt aus", german_name(*color)),
            WireMove::Skip(None) => "null setzt aus".to_owned(),
        }
    }
}

impl From<Move> for WireMove {
    fn from(mv: Move) -> WireMove {
        match mv {
            Move::Set(placement) => WireMove::Set(placement),
            Move::Skip(color) => WireMove::Skip(Some(color)),
        }
    }
}

/// The official description of `mv` (see [`WireMove::description`]).
pub fn describe_move(mv: &Move) -> String {
    WireMove::from(*mv).description()
}

/// Writes the children of a move element (`<data>`, `<lastMove>`,
/// `<originalMessage>`); returns without writing if the move has none.
pub(crate) fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &WireMove) {
    match mv {
        WireMove::Set(p) => {
            w.start("piece");
            w.attr_raw("color", p.color.name());
            w.attr_raw("kind", p.kind.name());
            w.attr_raw("rotation", p.rotation.name());
            w.attr_bool("isFlipped", p.flipped);
            w.open();
            w.start("position");
            w.attr_int("x", i64::from(p.x));
            w.attr_int("y", i64::from(p.y));
            w.end_empty();
            w.close("piece");
        }
        WireMove::Skip(Some(color)) => w.text_element_raw("color", color.name()),
        WireMove::Skip(None) => {}
    }
}

/// Whether [`write_move_content`] writes anything.
pub(crate) fn move_has_content(mv: &WireMove) -> bool {
    !matches!(mv, WireMove::Skip(None))
}

/// Reads the content of a move element whose class is `class`; `None` if
/// the class is none of `classes`.
pub(crate) fn read_move(
    r: &mut XmlReader<'_>,
    el: &Element<'_>,
    class: &str,
    classes: &MoveClasses,
) -> Result<Option<WireMove>, DecodeError> {
    let mv = match class {
        _ if class == classes.set => {
            let mut placement = None;
            while let Some(child) = r.next_child(el)? {
                if child.name() == "piece" {
                    placement = Some(read_piece(r, child)?);
                } else {
                    r.skip(child)?;
                }
            }
            WireMove::Set(placement.ok_or(MoveError::MissingElement { element: "piece" })?)
        }
        _ if class == classes.skip => {
            let mut color = None;
            while let Some(child) = r.next_child(el)? {
                if child.name() == "color" {
                    color = Some(parse_move_color(&r.text(child)?)?);
                } else {
                    r.skip(child)?;
                }
            }
            WireMove::Skip(color)
        }
        _ => return Ok(None),
    };
    Ok(Some(mv))
}

fn parse_move_color(value: &str) -> Result<Color, MoveError> {
    value.parse().map_err(|_| MoveError::UnknownName {
        what: "colour",
        value: value.to_owned(),
    })
}

fn read_piece(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Placement, DecodeError> {
    let (mut color, mut kind, mut rotation, mut flipped) = (None, None, None, false);
    for attr in el.attributes() {
        let (key, value) = attr?;
        match key {
            "color" => color = Some(parse_move_color(&value)?),
            "kind" => {
                kind = Some(
                    value
                        .parse::<PieceKind>()
                        .map_err(|_| MoveError::UnknownName {
                            what: "piece kind",
                            value: value.to_string(),
                        })?,
                )
            }
            "rotation" => {
                rotation = Some(
                    value
                        .parse::<Rotation>()
                        .map_err(|_| MoveError::UnknownName {
                            what: "rotation",
                            value: value.to_string(),
                        })?,
                )
            }
            "isFlipped" => flipped = parse_bool(&value),
            _ => {}
        }
    }
    let missing = |attribute| MoveError::MissingAttribute {
        element: "piece",
        attribute,
    };
    let color = color.ok_or(missing("color"))?;
    let kind = kind.ok_or(missing("kind"))?;
    let rotation = rotation.ok_or(missing("rotation"))?;
    let mut position = None;
    while let Some(child) = r.next_child(&el)? {
        if child.name() == "position" {
            position = Some(read_position(&child)?);
        }
        r.skip(child)?;
    }
    let (x, y) = position.ok_or(MoveError::MissingElement {
        element: "position",
    })?;
    Ok(Placement {
        color,
        kind,
        rotation,
        flipped,
        x,
        y,
    })
}

fn read_position(el: &Element<'_>) -> Result<(i32, i32), DecodeError> {
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
    let missing = |attribute| MoveError::MissingAttribute {
        element: "position",
        attribute,
    };
    Ok((x.ok_or(missing("x"))?, y.ok_or(missing("y"))?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(kind: PieceKind, rotation: Rotation, flipped: bool) -> Placement {
        Placement {
            color: Color::Yellow,
            kind,
            rotation,
            flipped,
            x: 15,
            y: 3,
        }
    }

    #[test]
    fn move_descriptions_are_the_official_german_texts() {
        let mv = WireMove::Set(placement(PieceKind::PentoL, Rotation::Right, true));
        assert_eq!(
            mv.description(),
            "Setze PENTO_L(Farbe Gelb, gedreht um 90°, gespiegelt)[15,3]"
        );
        let mv = WireMove::Set(Placement {
            x: 16,
            ..placement(PieceKind::Mono, Rotation::None, false)
        });
        assert_eq!(mv.description(), "Setze MONO(Farbe Gelb)[16,3]");
        let mv = WireMove::Set(placement(PieceKind::TetroL, Rotation::Left, false));
        assert_eq!(
            mv.description(),
            "Setze TETRO_L(Farbe Gelb, gedreht um 270°)[15,3]"
        );
        assert_eq!(
            WireMove::Skip(Some(Color::Blue)).description(),
            "Farbe Blau setzt aus"
        );
        assert_eq!(
            describe_move(&Move::Skip(Color::Green)),
            "Farbe Grün setzt aus"
        );
        assert_eq!(WireMove::Skip(None).description(), "null setzt aus");
    }

    #[test]
    fn a_colourless_skip_is_for_the_colour_on_turn() {
        assert_eq!(
            WireMove::Skip(None).resolve(Color::Red),
            Move::Skip(Color::Red)
        );
        assert_eq!(
            WireMove::Skip(Some(Color::Blue)).resolve(Color::Red),
            Move::Skip(Color::Blue)
        );
    }
}
