//! One-line text forms of the moves of the 20×20 variants, used by move
//! files (`spielleiter perft --moves`) and test data.
//!
//! - Software-Challenge seasons ([`Move`]'s `FromStr` and `Display`): the
//!   wire fields in order, `COLOR KIND ROTATION FLIPPED X Y` for a
//!   placement (e.g. `BLUE PENTO_L LEFT false 16 0`) and `COLOR SKIP` for a
//!   skip.
//! - Classic Blokus ([`parse_classic`]): the same, or `COLOR CELLS` with
//!   the cells in Pentobi's notation (`BLUE a20,b20,c20`: column letter,
//!   row number, `a1` the lower-left field, so `a20` is x = 0, y = 0), or
//!   `COLOR pass`. [`PentobiCells`] writes a placement's cells.
//!
//! Classic Blokus is written in Pentobi's notation wherever people read it
//! (the board's axes, the move lists, the play page, the pictures, the
//! `.blksgf` records): [`pentobi_column`], [`pentobi_row`] and
//! [`pentobi_field`] name a field `(x, y)` of the rules, and
//! [`parse_pentobi_field`] reads one back. The Software-Challenge seasons
//! keep their wire's `(x, y)`, (0,0) top left.

use core::{fmt, str::FromStr};

use super::{
    color::Color,
    moves::{Move, Placement},
    setup::BOARD_SIZE,
};
use crate::polyomino::MAX_CELLS;

/// Why a line is not a move in the text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseMoveError {
    /// Neither 2 (`COLOR SKIP`) nor 6 whitespace-separated fields; holds
    /// the number found.
    FieldCount(usize),
    /// The first field is not a colour name.
    Color,
    /// The second field is neither `SKIP` nor a piece kind name.
    Kind,
    /// The third field is not a rotation name.
    Rotation,
    /// The fourth field is neither `true` nor `false`.
    Flipped,
    /// The fifth or sixth field is not a 32-bit integer.
    Coordinate,
    /// The second field is not a list of Pentobi field names
    /// (`a20,b20,c20`) covering the cells of one piece kind.
    Cells,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::FieldCount(n) => write!(
                f,
                "expected `COLOR KIND ROTATION FLIPPED X Y` or `COLOR SKIP`, found {n} fields"
            ),
            ParseMoveError::Color => f.write_str("unknown colour (BLUE, YELLOW, RED, GREEN)"),
            ParseMoveError::Kind => f.write_str("unknown piece kind (e.g. PENTO_L) or SKIP"),
            ParseMoveError::Rotation => f.write_str("unknown rotation (NONE, RIGHT, MIRROR, LEFT)"),
            ParseMoveError::Flipped => f.write_str("flipped must be `true` or `false`"),
            ParseMoveError::Coordinate => f.write_str("coordinate is not an integer"),
            ParseMoveError::Cells => {
                f.write_str("expected the cells of one piece as Pentobi fields, e.g. a20,b20,c20")
            }
        }
    }
}

impl core::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses the text form; fields are separated by any whitespace and
    /// names are case-sensitive, as on the wire.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let mut fields = [""; 6];
        let mut count = 0;
        for field in s.split_whitespace() {
            if count < fields.len() {
                fields[count] = field;
            }
            count += 1;
        }
        let color: Color = fields[0].parse().map_err(|_| ParseMoveError::Color)?;
        match count {
            2 if fields[1] == "SKIP" => Ok(Move::Skip(color)),
            2 => Err(ParseMoveError::Kind),
            6 => Ok(Move::Set(Placement {
                color,
                kind: fields[1].parse().map_err(|_| ParseMoveError::Kind)?,
                rotation: fields[2].parse().map_err(|_| ParseMoveError::Rotation)?,
                flipped: fields[3].parse().map_err(|_| ParseMoveError::Flipped)?,
                x: fields[4].parse().map_err(|_| ParseMoveError::Coordinate)?,
                y: fields[5].parse().map_err(|_| ParseMoveError::Coordinate)?,
            })),
            n => Err(ParseMoveError::FieldCount(n)),
        }
    }
}

/// Parses a line of a classic Blokus move file: `COLOR KIND ROTATION
/// FLIPPED X Y`, `COLOR CELLS` (Pentobi fields, e.g. `BLUE a20,b20,c20`; the
/// placement gets its shape's canonical label) or `COLOR pass` (also
/// `COLOR SKIP`). A pass parses to [`Move::Skip`].
///
/// # Errors
///
/// The [`ParseMoveError`] naming the bad field.
pub fn parse_classic(line: &str) -> Result<Move, ParseMoveError> {
    let mut fields = line.split_whitespace();
    let (Some(color), Some(second), None) = (fields.next(), fields.next(), fields.next()) else {
        return line.parse();
    };
    let color: Color = color.parse().map_err(|_| ParseMoveError::Color)?;
    if second == "pass" || second == "SKIP" {
        return Ok(Move::Skip(color));
    }
    let mut cells = [(0, 0); MAX_CELLS];
    let mut count = 0;
    for field in second.split(',') {
        let cell = parse_pentobi_field(field).ok_or(ParseMoveError::Cells)?;
        *cells.get_mut(count).ok_or(ParseMoveError::Cells)? = cell;
        count += 1;
    }
    Placement::from_cells(color, &cells[..count])
        .map(Move::Set)
        .ok_or(ParseMoveError::Cells)
}

/// The letter of column `x` in Pentobi's notation: `a` for the leftmost
/// (x = 0) to `t` for the rightmost of the 20×20 board; `None` off the
/// board.
pub fn pentobi_column(x: i32) -> Option<char> {
    let side = BOARD_SIZE as i32;
    (0..side).contains(&x).then(|| char::from(b'a' + x as u8))
}

/// The number of row `y` in Pentobi's notation, counted from the bottom:
/// `20` for the top row (y = 0), `1` for the bottom row (y = 19); `None`
/// off the board.
pub fn pentobi_row(y: i32) -> Option<u32> {
    let side = BOARD_SIZE as i32;
    (0..side).contains(&y).then(|| (side - y) as u32)
}

/// The name of field `(x, y)` in Pentobi's notation (`a20` is the top-left
/// field (0, 0), `t1` the bottom-right (19, 19)); `None` off the board.
pub fn pentobi_field(x: i32, y: i32) -> Option<PentobiField> {
    Some(PentobiField {
        column: pentobi_column(x)?,
        row: pentobi_row(y)?,
    })
}

/// A field's name in Pentobi's notation, from [`pentobi_field`]; its
/// `Display` writes it (`a20`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PentobiField {
    /// The column's letter, `a`..`t`.
    pub column: char,
    /// The row's number from the bottom, `1`..`20`.
    pub row: u32,
}

impl fmt::Display for PentobiField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column, self.row)
    }
}

/// The field `(x, y)` of a Pentobi field name on the 20×20 board: a column
/// letter `a`..`t` and a row number `1`..`20` counted from the bottom.
pub fn parse_pentobi_field(name: &str) -> Option<(i32, i32)> {
    let (&column, row) = name.as_bytes().split_first()?;
    let x = i32::from(column.checked_sub(b'a')?);
    let row: i32 = core::str::from_utf8(row).ok()?.parse().ok()?;
    let side = BOARD_SIZE as i32;
    let valid = x < side && (1..=side).contains(&row) && !name[1..].starts_with(['0', '+']);
    valid.then_some((x, side - row))
}

/// The cells of a 20×20 placement in Pentobi's notation, comma-separated
/// without spaces, in Pentobi's order (`a1`, `b1`, …, `a2`, …: bottom row
/// first, each row left to right), e.g. `a20,b20,c20`.
#[derive(Clone, Copy, Debug)]
pub struct PentobiCells<'a>(pub &'a Placement);

impl fmt::Display for PentobiCells<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `cells` comes row by row from the top: reverse the rows.
        let mut cells = [(0, 0); MAX_CELLS];
        let mut count = 0;
        for cell in self.0.cells() {
            cells[count] = cell;
            count += 1;
        }
        let cells = &mut cells[..count];
        cells.sort_unstable_by_key(|&(x, y)| (-y, x));
        for (index, &(x, y)) in cells.iter().enumerate() {
            let separator = if index == 0 { "" } else { "," };
            // A placement of the rules lies on the board.
            match pentobi_field(x, y) {
                Some(field) => write!(f, "{separator}{field}")?,
                None => write!(f, "{separator}?")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    /// Writes the text form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Skip(color) => write!(f, "{color} SKIP"),
            Move::Set(p) => write!(
                f,
                "{} {} {} {} {} {}",
                p.color, p.kind, p.rotation, p.flipped, p.x, p.y
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::{PieceKind, Rotation};

    #[test]
    fn placements_and_skips_round_trip() {
        let line = "BLUE PENTO_L LEFT false 16 0";
        let mv: Move = line.parse().expect("valid line");
        assert_eq!(
            mv,
            Move::Set(Placement {
                color: Color::Blue,
                kind: PieceKind::PentoL,
                rotation: Rotation::Left,
                flipped: false,
                x: 16,
                y: 0,
            })
        );
        assert_eq!(mv.to_string(), line);
        assert_eq!("  GREEN\tSKIP ".parse(), Ok(Move::Skip(Color::Green)));
        assert_eq!(Move::Skip(Color::Red).to_string(), "RED SKIP");
    }

    #[test]
    fn classic_lines_in_every_form() {
        let pentobi = parse_classic("BLUE a20,b20,c20").expect("cells");
        let wire = parse_classic("BLUE TRIO_I RIGHT false 0 0").expect("wire form");
        assert_eq!(pentobi, wire);
        assert_eq!(parse_classic("GREEN pass"), Ok(Move::Skip(Color::Green)));
        assert_eq!(parse_classic("GREEN SKIP"), Ok(Move::Skip(Color::Green)));
        let Ok(Move::Set(corner)) = parse_classic("RED t1,s1,t2,s2") else {
            panic!("a TETRO_O in RED's corner");
        };
        assert_eq!(
            (corner.kind, corner.x, corner.y),
            (PieceKind::TetroO, 18, 18)
        );
        assert_eq!(PentobiCells(&corner).to_string(), "s1,t1,s2,t2");
        let errors = [
            ("BLUE a20,c20", ParseMoveError::Cells),
            ("BLUE a21", ParseMoveError::Cells),
            ("BLUE u1", ParseMoveError::Cells),
            ("BLUE a0", ParseMoveError::Cells),
            ("BLUE a01", ParseMoveError::Cells),
            ("BLUE A1", ParseMoveError::Cells),
            ("BLUE a1,b1,c1,d1,e1,f1", ParseMoveError::Cells),
            ("BLUE a1,b1,c1,d1,e1,f1,g1", ParseMoveError::Cells),
            ("PINK a1", ParseMoveError::Color),
            ("BLUE MONO NONE", ParseMoveError::FieldCount(3)),
        ];
        for (line, error) in errors {
            assert_eq!(parse_classic(line), Err(error), "{line:?}");
        }
    }

    #[test]
    fn pentobi_fields_round_trip() {
        for y in 0..20 {
            for x in 0..20 {
                let mono = Placement {
                    color: Color::Blue,
                    kind: PieceKind::Mono,
                    rotation: Rotation::None,
                    flipped: false,
                    x,
                    y,
                };
                let name = PentobiCells(&mono).to_string();
                assert_eq!(parse_pentobi_field(&name), Some((x, y)), "{name}");
            }
        }
        assert_eq!(parse_pentobi_field("a20"), Some((0, 0)));
        assert_eq!(parse_pentobi_field("t1"), Some((19, 19)));
    }

    #[test]
    fn fields_are_named_from_the_bottom_left() {
        let name = |x, y| pentobi_field(x, y).map(|field| field.to_string());
        assert_eq!(name(0, 0).as_deref(), Some("a20"));
        assert_eq!(name(0, 19).as_deref(), Some("a1"));
        assert_eq!(name(19, 19).as_deref(), Some("t1"));
        assert_eq!(name(2, 16).as_deref(), Some("c4"));
        assert_eq!(pentobi_column(19), Some('t'));
        assert_eq!(pentobi_row(0), Some(20));
        for off in [-1, 20, i32::MIN, i32::MAX] {
            assert_eq!(pentobi_column(off), None);
            assert_eq!(pentobi_row(off), None);
            assert_eq!(pentobi_field(off, 0), None);
            assert_eq!(pentobi_field(0, off), None);
        }
        for y in 0..20 {
            for x in 0..20 {
                let name = pentobi_field(x, y).expect("on the board").to_string();
                assert_eq!(parse_pentobi_field(&name), Some((x, y)), "{name}");
            }
        }
    }

    #[test]
    fn errors_name_the_bad_field() {
        let cases = [
            ("", ParseMoveError::Color),
            ("BLUE", ParseMoveError::FieldCount(1)),
            ("blue SKIP", ParseMoveError::Color),
            ("BLUE PASS", ParseMoveError::Kind),
            ("BLUE PENTO_Q NONE false 0 0", ParseMoveError::Kind),
            ("BLUE MONO UP false 0 0", ParseMoveError::Rotation),
            ("BLUE MONO NONE no 0 0", ParseMoveError::Flipped),
            ("BLUE MONO NONE false 0 y", ParseMoveError::Coordinate),
            (
                "BLUE MONO NONE false 0 99999999999",
                ParseMoveError::Coordinate,
            ),
            ("BLUE MONO NONE false 0 0 0", ParseMoveError::FieldCount(7)),
        ];
        for (line, error) in cases {
            assert_eq!(line.parse::<Move>(), Err(error), "{line:?}");
        }
    }
}
