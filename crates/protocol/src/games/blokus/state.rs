//! The parts of a Blokus state that the 20×20 games write alike, each
//! game in its own order (`blokus-2021.md` §6, `blokus-2027.md` §4, the
//! classic games of `protocol/README.md`): the shapes each colour has left,
//! the colours in the game, the board, the last move and the `MONO` flags
//! ([`Position`]); and a reader for them in any order ([`read_parts`]).

use spielleiter_rules::blokus::{
    BOARD_SIZE, ByColor, ClassicSetup, Color, ColorSet, Move, PieceKind, PieceSet, Setup,
};

use super::moves::{MoveClasses, WireMove, read_move, write_move_content};
use crate::{
    error::DecodeError,
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool},
};

/// A 20×20 board, indexed `board[y][x]`.
pub(crate) type Fields = [[Option<Color>; BOARD_SIZE]; BOARD_SIZE];

/// The parts of a position that every 20×20 Blokus state carries, whatever
/// else its game adds (the seasons' start piece, the classic players).
pub(crate) trait Position {
    /// The kinds each colour has not placed yet.
    fn remaining(&self) -> &ByColor<PieceSet>;
    /// The colours still in the game.
    fn valid_colors(&self) -> ColorSet;
    /// The board.
    fn board(&self) -> &Fields;
    /// The last applied move.
    fn last_move(&self) -> Option<Move>;
    /// Per colour that has placed all pieces: whether the last was `MONO`.
    fn last_move_mono(&self) -> &ByColor<Option<bool>>;
}

macro_rules! position_of_fields {
    ($($t:ty),*) => {$(
        impl Position for $t {
            fn remaining(&self) -> &ByColor<PieceSet> {
                &self.remaining
            }
            fn valid_colors(&self) -> ColorSet {
                self.valid_colors
            }
            fn board(&self) -> &Fields {
                &self.board
            }
            fn last_move(&self) -> Option<Move> {
                self.last_move
            }
            fn last_move_mono(&self) -> &ByColor<Option<bool>> {
                &self.last_move_mono
            }
        }
    )*};
}

position_of_fields!(Setup, ClassicSetup, Parts);

/// The parts of [`Position`] as [`read_parts`] reads them, before the game
/// adds its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    pub(crate) remaining: ByColor<PieceSet>,
    pub(crate) valid_colors: ColorSet,
    pub(crate) board: Fields,
    pub(crate) last_move: Option<Move>,
    pub(crate) last_move_mono: ByColor<Option<bool>>,
}

impl Parts {
    /// Nothing: no shapes, no colours, an empty board.
    fn empty() -> Parts {
        Parts {
            remaining: ByColor([PieceSet::EMPTY; 4]),
            valid_colors: ColorSet::EMPTY,
            board: [[None; BOARD_SIZE]; BOARD_SIZE],
            last_move: None,
            last_move_mono: ByColor([None; 4]),
        }
    }

    /// A season's position with these parts.
    pub(crate) fn into_setup(self, turn: u32, start_piece: PieceKind) -> Setup {
        Setup {
            turn,
            start_piece,
            remaining: self.remaining,
            valid_colors: self.valid_colors,
            board: self.board,
            last_move: self.last_move,
            last_move_mono: self.last_move_mono,
        }
    }

    /// A classic position with these parts.
    pub(crate) fn into_classic(
        self,
        turn: u32,
        players: spielleiter_rules::blokus::ClassicPlayers,
    ) -> ClassicSetup {
        ClassicSetup {
            players,
            turn,
            remaining: self.remaining,
            valid_colors: self.valid_colors,
            board: self.board,
            last_move: self.last_move,
            last_move_mono: self.last_move_mono,
        }
    }
}

/// The elements of the four shape lists, in colour order.
pub(crate) const SHAPE_LISTS: [&str; 4] =
    ["blueShapes", "yellowShapes", "redShapes", "greenShapes"];

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

/// Writes `blueShapes` … `greenShapes`: each colour's remaining shapes in
/// enum order.
pub(crate) fn write_shape_lists<S: ByteSink>(w: &mut XmlWriter<'_, S>, setup: &impl Position) {
    for (color, list) in Color::ALL.into_iter().zip(SHAPE_LISTS) {
        let shapes = setup.remaining()[color];
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
}

/// Writes `validColors`: the colours still in the game, in colour order.
pub(crate) fn write_valid_colors<S: ByteSink>(w: &mut XmlWriter<'_, S>, setup: &impl Position) {
    w.start("validColors");
    if setup.valid_colors().is_empty() {
        w.end_empty();
        return;
    }
    w.open();
    for color in setup.valid_colors().iter() {
        w.text_element_raw("color", color.name());
    }
    w.close("validColors");
}

/// Writes `board`: one `<field x y content/>` per occupied field, row by
/// row.
pub(crate) fn write_board<S: ByteSink>(w: &mut XmlWriter<'_, S>, setup: &impl Position) {
    w.start("board");
    let mut fields = setup
        .board()
        .iter()
        .enumerate()
        .flat_map(|(y, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(x, field)| field.map(|c| (x, y, c)))
        })
        .peekable();
    if fields.peek().is_none() {
        w.end_empty();
        return;
    }
    w.open();
    let mut buf = [0; FIELD_ELEMENT_MAX];
    for (x, y, color) in fields {
        w.raw_element_bytes(field_element(x, y, color, &mut buf));
    }
    w.close("board");
}

/// Writes `lastMove` with the season's move class, if there was a move.
pub(crate) fn write_last_move<S: ByteSink>(
    w: &mut XmlWriter<'_, S>,
    setup: &impl Position,
    classes: &MoveClasses,
) {
    if let Some(last) = setup.last_move() {
        let mv = WireMove::from(last);
        w.start("lastMove");
        w.attr_raw("class", classes.of(&mv));
        w.open();
        write_move_content(w, &mv);
        w.close("lastMove");
    }
}

/// Writes `lastMoveMono`: for each colour that has placed all its pieces,
/// whether the last was `MONO`, keyed by `<color>` as the official servers
/// write it.
pub(crate) fn write_last_move_mono<S: ByteSink>(w: &mut XmlWriter<'_, S>, setup: &impl Position) {
    w.start("lastMoveMono");
    if setup.last_move_mono().iter().all(|(_, m)| m.is_none()) {
        w.end_empty();
        return;
    }
    w.open();
    for (color, mono) in setup.last_move_mono().iter() {
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

/// Reads a `<state>` element's position: the attributes `turn` and
/// `startPiece` and the children every season has, in any order, with the
/// last move in the season's `classes`. Missing collections are empty.
/// Every other child goes to `other`, which must consume it (read or skip).
pub(crate) fn read_setup(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    classes: &MoveClasses,
    other: impl FnMut(&mut XmlReader<'_>, Element<'_>) -> Result<(), DecodeError>,
) -> Result<Setup, DecodeError> {
    let mut start_piece = None;
    for attr in el.attributes() {
        let (key, value) = attr?;
        if key == "startPiece" {
            start_piece = Some(
                value
                    .parse::<PieceKind>()
                    .map_err(|_| DecodeError::invalid("piece kind", value.as_ref()))?,
            );
        }
    }
    let start_piece = start_piece.ok_or(DecodeError::MissingAttribute {
        element: "state",
        attribute: "startPiece",
    })?;
    let turn = read_turn(&el)?;
    Ok(read_parts(r, el, classes, other)?.into_setup(turn, start_piece))
}

/// The `turn` attribute of a `<state>`.
pub(crate) fn read_turn(el: &Element<'_>) -> Result<u32, DecodeError> {
    let turn = el.attribute("turn")?.ok_or(DecodeError::MissingAttribute {
        element: "state",
        attribute: "turn",
    })?;
    turn.parse::<u32>()
        .map_err(|_| DecodeError::invalid("turn", turn.as_ref()))
}

/// Reads the children of a `<state>` element that every 20×20 game has,
/// in any order, with the last move in the game's `classes`. Missing
/// collections are empty. Every other child goes to `other`, which must
/// consume it (read or skip).
pub(crate) fn read_parts(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    classes: &MoveClasses,
    mut other: impl FnMut(&mut XmlReader<'_>, Element<'_>) -> Result<(), DecodeError>,
) -> Result<Parts, DecodeError> {
    let mut setup = Parts::empty();
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            name if SHAPE_LISTS.contains(&name) => {
                let index = SHAPE_LISTS.iter().position(|&l| l == name).unwrap_or(0);
                setup.remaining[Color::from_index(index)] = read_shapes(r, child)?;
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
            "board" => read_board(r, child, &mut setup)?,
            "lastMove" => {
                let class = child.class()?.into_owned();
                let mv =
                    read_move(r, &child, &class, classes)?.ok_or(DecodeError::UnknownClass {
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
            "lastMoveMono" => read_last_move_mono(r, child, &mut setup)?,
            _ => other(r, child)?,
        }
    }
    Ok(setup)
}

fn read_shapes(r: &mut XmlReader<'_>, list: Element<'_>) -> Result<PieceSet, DecodeError> {
    let mut set = PieceSet::EMPTY;
    while let Some(shape) = r.next_child(&list)? {
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
    Ok(set)
}

fn read_board(
    r: &mut XmlReader<'_>,
    board: Element<'_>,
    setup: &mut Parts,
) -> Result<(), DecodeError> {
    while let Some(field) = r.next_child(&board)? {
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
    Ok(())
}

fn read_last_move_mono(
    r: &mut XmlReader<'_>,
    map: Element<'_>,
    setup: &mut Parts,
) -> Result<(), DecodeError> {
    while let Some(entry) = r.next_child(&map)? {
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precomputed_shape_elements_use_the_official_names() {
        for kind in PieceKind::ALL {
            assert_eq!(
                SHAPE_ELEMENTS[kind.index()],
                format!("<shape>{}</shape>", kind.name())
            );
        }
    }
}
