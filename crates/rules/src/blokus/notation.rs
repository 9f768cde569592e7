//! A one-line text form of moves, the wire fields in order:
//! `COLOR KIND ROTATION FLIPPED X Y` for a placement (e.g.
//! `BLUE PENTO_L LEFT false 16 0`) and `COLOR SKIP` for a skip. Used by move
//! files (`spielleiter perft --moves`) and test data.

use core::{fmt, str::FromStr};

use super::{
    color::Color,
    moves::{Move, Placement},
};

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
