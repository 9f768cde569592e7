//! The Blokus 2021 payloads (`swc_2021_blokus`, `blokus-2021.md` §6, §7,
//! §9, §11): the state inside a memento, the moves `sc.plugin2021.SetMove`
//! and `sc.plugin2021.SkipMove`, the score definition, and the German texts
//! that describe moves in error messages and result reasons.
//!
//! The position itself is [`Setup`] from the rules crate; this module only
//! maps it to and from XML.

use spielleiter_rules::blokus::{
    BOARD_SIZE, ByColor, Color, ColorSet, Mistake, Move, PieceKind, PieceSet, Placement, Rotation,
    Setup, Team,
};

use crate::{
    error::{DecodeError, MoveError},
    result::{Aggregation, ScoreFragment},
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// The game type id (`gameType` attribute).
pub const GAME_TYPE_ID: &str = "swc_2021_blokus";

/// The `class` of a piece placement.
pub const SET_MOVE_CLASS: &str = "sc.plugin2021.SetMove";

/// The `class` of a pass.
pub const SKIP_MOVE_CLASS: &str = "sc.plugin2021.SkipMove";

/// Name of the first score fragment (win points).
pub const WIN_POINTS_FRAGMENT: &str = "Gewinner";

/// Name of the second score fragment (game points); starts with U+2205.
pub const GAME_POINTS_FRAGMENT: &str = "∅ Punkte";

/// A Blokus 2021 state as a memento carries it: the position plus the
/// display names of the two players (`<first>`, `<second>`).
///
/// The `round` attribute is not stored: it is always `1 + turn / 4` and is
/// recomputed when encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The position.
    pub setup: Setup,
    /// Display names of the player of team ONE and of team TWO (`""` for
    /// players who joined without a prepared slot).
    pub display_names: [String; 2],
}

impl State {
    /// The display name of `team`'s player.
    pub fn display_name(&self, team: Team) -> &str {
        &self.display_names[team.index()]
    }
}

/// A move as a client sent it. Unlike the rules' [`Move`], a pass may lack
/// its colour: a `SkipMove` without `<color>` means the colour on turn
/// (decisions.md §4); [`WireMove::resolve`] fills it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireMove {
    /// `sc.plugin2021.SetMove`.
    Set(Placement),
    /// `sc.plugin2021.SkipMove`, with the colour if one was given.
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

    /// The `class` attribute of the move.
    pub fn class(&self) -> &'static str {
        match self {
            WireMove::Set(_) => SET_MOVE_CLASS,
            WireMove::Skip(_) => SKIP_MOVE_CLASS,
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

/// The German colour name used in move descriptions.
pub const fn german_name(color: Color) -> &'static str {
    match color {
        Color::Blue => "Blau",
        Color::Yellow => "Gelb",
        Color::Red => "Rot",
        Color::Green => "Grün",
    }
}

/// The official German explanation of `mistake`, as sent in error messages
/// and result reasons (`blokus-2021.md` §11.1).
pub const fn mistake_text(mistake: Mistake) -> &'static str {
    match mistake {
        Mistake::WrongColor => "Die Farbe des Zuges ist nicht an der Reihe",
        Mistake::WrongShape => "Der erste Zug muss den festgelegten Spielstein setzen",
        Mistake::DuplicateShape => "Der gewählte Stein wurde bereits gesetzt",
        Mistake::OutOfBounds => "Der Spielstein passt nicht vollständig auf das Spielfeld",
        Mistake::Obstructed => "Der Spielstein würde eine andere Farbe überlagern",
        Mistake::TouchesSameColor => "Der Spielstein berührt ein Feld gleicher Farbe",
        Mistake::NotInCorner => "Der erste Zug muss auf eine freie Ecke gesetzt werden",
        // A 2027 mistake (`blokus-2027.md` §3.6); a 2021 game never reports it.
        Mistake::NotOnBorder => "Der erste Zug muss an den Rand gesetzt werden",
        Mistake::NoSharedCorner => {
            "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren"
        }
        Mistake::SkipFirstTurn => "Der erste Zug muss einen Stein setzen",
    }
}

/// The official description of `mv` (see [`WireMove::description`]).
pub fn describe_move(mv: &Move) -> String {
    WireMove::from(*mv).description()
}

/// Whether the official server names the move when it reports `mistake`
/// (`blokus-2021.md` §11.1): not for `WRONG_SHAPE` and `DUPLICATE_SHAPE`.
pub const fn mistake_names_move(mistake: Mistake) -> bool {
    !matches!(mistake, Mistake::WrongShape | Mistake::DuplicateShape)
}

/// The move description that goes with `mistake` in error texts: the move's
/// description, or `None` where the official server prints `null`.
pub fn mistake_move_description(mistake: Mistake, mv: &WireMove) -> Option<String> {
    mistake_names_move(mistake).then(|| mv.description())
}

/// The score definition of a Blokus 2021 result: win points (sum), game
/// points (average).
pub fn score_definition() -> Vec<ScoreFragment> {
    vec![
        ScoreFragment {
            name: WIN_POINTS_FRAGMENT.to_owned(),
            aggregation: Aggregation::Sum,
            relevant_for_ranking: true,
        },
        ScoreFragment {
            name: GAME_POINTS_FRAGMENT.to_owned(),
            aggregation: Aggregation::Average,
            relevant_for_ranking: true,
        },
    ]
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
/// the class is not a Blokus 2021 move.
pub(crate) fn read_move(
    r: &mut XmlReader<'_>,
    el: &Element<'_>,
    class: &str,
) -> Result<Option<WireMove>, DecodeError> {
    let mv = match class {
        SET_MOVE_CLASS => {
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
        SKIP_MOVE_CLASS => {
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

const SHAPE_LISTS: [&str; 4] = ["blueShapes", "yellowShapes", "redShapes", "greenShapes"];

macro_rules! shape_elements {
    ($($name:literal)*) => { [$(concat!("<shape>", $name, "</shape>")),*] };
}

/// `<shape>NAME</shape>` for every kind in enum order: a memento lists up to
/// 84 of them, so they are written in one piece each.
const SHAPE_ELEMENTS: [&str; 21] = shape_elements!(
    "MONO" "DOMINO" "TRIO_L" "TRIO_I" "TETRO_O" "TETRO_T" "TETRO_I" "TETRO_L" "TETRO_Z"
    "PENTO_L" "PENTO_T" "PENTO_V" "PENTO_S" "PENTO_Z" "PENTO_I" "PENTO_P" "PENTO_W" "PENTO_U"
    "PENTO_R" "PENTO_X" "PENTO_Y"
);

/// Writes `<state class="state" …>` with every child in the official order
/// (`blokus-2021.md` §6).
pub(crate) fn write_state<S: ByteSink>(w: &mut XmlWriter<'_, S>, state: &State) {
    let setup = &state.setup;
    w.start("state");
    w.attr_raw("class", "state");
    w.attr_int("turn", i64::from(setup.turn));
    w.attr_int("round", i64::from(setup.round()));
    w.attr_raw("startPiece", setup.start_piece.name());
    w.open();
    w.text_element_with_class("startTeam", "team", Team::One.name());
    for (color, list) in Color::ALL.into_iter().zip(SHAPE_LISTS) {
        let shapes = setup.remaining[color];
        w.start(list);
        if shapes.is_empty() {
            w.end_empty();
            continue;
        }
        w.open();
        for kind in shapes.iter() {
            w.raw_element(SHAPE_ELEMENTS[kind.index()]);
        }
        w.close(list);
    }
    w.start("validColors");
    if setup.valid_colors.is_empty() {
        w.end_empty();
    } else {
        w.open();
        for color in setup.valid_colors.iter() {
            w.text_element_raw("color", color.name());
        }
        w.close("validColors");
    }
    for (element, team) in [("first", Team::One), ("second", Team::Two)] {
        w.start(element);
        w.attr("displayName", state.display_name(team));
        w.open();
        w.text_element_with_class("color", "team", team.name());
        w.close(element);
    }
    w.start("board");
    let mut fields = setup.occupied_fields().peekable();
    if fields.peek().is_none() {
        w.end_empty();
    } else {
        w.open();
        let mut buf = [0; FIELD_ELEMENT_MAX];
        for (x, y, color) in fields {
            w.raw_element_bytes(field_element(x, y, color, &mut buf));
        }
        w.close("board");
    }
    if let Some(last) = &setup.last_move {
        let mv = WireMove::from(*last);
        w.start("lastMove");
        w.attr_raw("class", mv.class());
        w.open();
        write_move_content(w, &mv);
        w.close("lastMove");
    }
    w.start("lastMoveMono");
    if setup.last_move_mono.iter().all(|(_, m)| m.is_none()) {
        w.end_empty();
    } else {
        w.open();
        for (color, mono) in setup.last_move_mono.iter() {
            if let Some(mono) = mono {
                w.start("entry");
                w.open();
                w.text_element_raw("color", color.name());
                w.text_element_raw("boolean", if *mono { "true" } else { "false" });
                w.close("entry");
            }
        }
        w.close("lastMoveMono");
    }
    w.close("state");
}

/// The longest `<field …/>` element: two-digit coordinates and `YELLOW`.
const FIELD_ELEMENT_MAX: usize = 40;

/// `<field x="X" y="Y" content="COLOR"/>` for a board field, built in one
/// piece: the board is most of a state, and writing each field as one
/// slice instead of a dozen small ones makes encoding a late-game state
/// several times faster. The bytes are ASCII.
fn field_element(x: usize, y: usize, color: Color, buf: &mut [u8; FIELD_ELEMENT_MAX]) -> &[u8] {
    fn put(buf: &mut [u8; FIELD_ELEMENT_MAX], len: &mut usize, bytes: &[u8]) {
        buf[*len..*len + bytes.len()].copy_from_slice(bytes);
        *len += bytes.len();
    }
    fn number(buf: &mut [u8; FIELD_ELEMENT_MAX], len: &mut usize, n: usize) {
        if n >= 10 {
            put(buf, len, &[b'0' + (n / 10 % 10) as u8]);
        }
        put(buf, len, &[b'0' + (n % 10) as u8]);
    }
    let mut len = 0;
    put(buf, &mut len, b"<field x=\"");
    number(buf, &mut len, x);
    put(buf, &mut len, b"\" y=\"");
    number(buf, &mut len, y);
    put(buf, &mut len, b"\" content=\"");
    put(buf, &mut len, color.name().as_bytes());
    put(buf, &mut len, b"\"/>");
    &buf[..len]
}

fn parse_color(value: &str) -> Result<Color, DecodeError> {
    value
        .parse()
        .map_err(|_| DecodeError::invalid("colour", value))
}

fn parse_board_coordinate(value: &str) -> Result<usize, DecodeError> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&v| v < BOARD_SIZE)
        .ok_or_else(|| DecodeError::invalid("board coordinate", value))
}

/// Reads a `<state>` element. Children may come in any order; unknown ones
/// are skipped; missing collections are empty.
pub(crate) fn read_state(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<State, DecodeError> {
    let (mut turn, mut start_piece) = (None, None);
    for attr in el.attributes() {
        let (key, value) = attr?;
        match key {
            "turn" => {
                turn = Some(
                    value
                        .parse::<u32>()
                        .map_err(|_| DecodeError::invalid("turn", value.as_ref()))?,
                )
            }
            "startPiece" => {
                start_piece = Some(
                    value
                        .parse::<PieceKind>()
                        .map_err(|_| DecodeError::invalid("piece kind", value.as_ref()))?,
                )
            }
            _ => {}
        }
    }
    let missing = |attribute| DecodeError::MissingAttribute {
        element: "state",
        attribute,
    };
    let mut setup = Setup::new(start_piece.ok_or(missing("startPiece"))?);
    setup.turn = turn.ok_or(missing("turn"))?;
    setup.remaining = ByColor([PieceSet::EMPTY; 4]);
    setup.valid_colors = ColorSet::EMPTY;
    let mut display_names = [String::new(), String::new()];
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            name if SHAPE_LISTS.contains(&name) => {
                let index = SHAPE_LISTS.iter().position(|&l| l == name).unwrap_or(0);
                let mut set = PieceSet::EMPTY;
                while let Some(shape) = r.next_child(&child)? {
                    if shape.name() == "shape" {
                        let text = r.text(shape)?;
                        set.insert(
                            text.parse()
                                .map_err(|_| DecodeError::invalid("piece kind", text.as_ref()))?,
                        );
                    } else {
                        r.skip(shape)?;
                    }
                }
                setup.remaining[Color::from_index(index)] = set;
            }
            "validColors" => {
                while let Some(color) = r.next_child(&child)? {
                    if color.name() == "color" {
                        setup.valid_colors.insert(parse_color(&r.text(color)?)?);
                    } else {
                        r.skip(color)?;
                    }
                }
            }
            name @ ("first" | "second") => {
                let index = usize::from(name == "second");
                display_names[index] = child
                    .attribute("displayName")?
                    .unwrap_or_default()
                    .into_owned();
                r.skip(child)?;
            }
            "board" => {
                while let Some(field) = r.next_child(&child)? {
                    if field.name() == "field" {
                        let (mut x, mut y, mut content) = (None, None, None);
                        for attr in field.attributes() {
                            let (key, value) = attr?;
                            match key {
                                "x" => x = Some(parse_board_coordinate(&value)?),
                                "y" => y = Some(parse_board_coordinate(&value)?),
                                "content" => content = Some(parse_color(&value)?),
                                _ => {}
                            }
                        }
                        let missing = |attribute| DecodeError::MissingAttribute {
                            element: "field",
                            attribute,
                        };
                        let (x, y) = (x.ok_or(missing("x"))?, y.ok_or(missing("y"))?);
                        setup.board[y][x] = Some(content.ok_or(missing("content"))?);
                    }
                    r.skip(field)?;
                }
            }
            "lastMove" => {
                let class = child.class()?.into_owned();
                let mv = read_move(r, &child, &class)?.ok_or(DecodeError::UnknownClass {
                    element: "lastMove",
                    class,
                })?;
                setup.last_move = Some(match mv {
                    WireMove::Set(p) => Move::Set(p),
                    WireMove::Skip(Some(c)) => Move::Skip(c),
                    WireMove::Skip(None) => {
                        return Err(DecodeError::MissingChild {
                            element: "lastMove",
                            child: "color",
                        });
                    }
                });
            }
            "lastMoveMono" => {
                while let Some(entry) = r.next_child(&child)? {
                    if entry.name() != "entry" {
                        r.skip(entry)?;
                        continue;
                    }
                    let (mut color, mut mono) = (None, None);
                    while let Some(item) = r.next_child(&entry)? {
                        match item.name() {
                            "color" => color = Some(parse_color(&r.text(item)?)?),
                            "boolean" => mono = Some(parse_bool(&r.text(item)?)),
                            _ => r.skip(item)?,
                        }
                    }
                    let missing = |child| DecodeError::MissingChild {
                        element: "entry",
                        child,
                    };
                    setup.last_move_mono[color.ok_or(missing("color"))?] =
                        Some(mono.ok_or(missing("boolean"))?);
                }
            }
            _ => r.skip(child)?,
        }
    }
    Ok(State {
        setup,
        display_names,
    })
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
    fn precomputed_shape_elements_use_the_official_names() {
        for kind in PieceKind::ALL {
            assert_eq!(
                SHAPE_ELEMENTS[kind.index()],
                format!("<shape>{}</shape>", kind.name())
            );
        }
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

    #[test]
    fn shape_mistakes_are_reported_without_the_move() {
        let mv = WireMove::Skip(Some(Color::Blue));
        assert_eq!(mistake_move_description(Mistake::WrongShape, &mv), None);
        assert_eq!(mistake_move_description(Mistake::DuplicateShape, &mv), None);
        assert_eq!(
            mistake_move_description(Mistake::SkipFirstTurn, &mv).as_deref(),
            Some("Farbe Blau setzt aus")
        );
    }
}
