//! A one-line text form of BCL moves, for move files (`spielleiter perft
//! --game blokus_bcl --moves`) and test data:
//!
//! - `PLAYER KIND ROTATION FLIP ROW COL`: the `place_to` arguments, e.g.
//!   `ONE SHOTGUN SINGLE NONE 3 0`;
//! - `PLAYER CELLS`: the fields `row,col` separated by spaces, e.g.
//!   `TWO 9,9 9,8 8,9` (the placement gets its shape's canonical label);
//! - `PLAYER pass`.

use core::{fmt, str::FromStr};

use super::position::{BclMove, PlaceTo};

/// Why a line is not a BCL move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseBclMoveError {
    /// The first field is not `ONE` or `TWO`.
    Player,
    /// No second field, or the fields fit none of the forms; holds the
    /// number of fields.
    FieldCount(usize),
    /// The second field is not a block kind.
    Kind,
    /// The third field is not a rotation (`NONE`, `SINGLE`, `DOUBLE`,
    /// `TRIPLE`).
    Rotation,
    /// The fourth field is not a flip (`NONE`, `HORIZONTAL`, `VERTICAL`).
    Flip,
    /// The row or column is not a 32-bit integer.
    Coordinate,
    /// The fields are not `row,col` pairs covering one block kind's shape.
    Cells,
}

impl fmt::Display for ParseBclMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBclMoveError::Player => f.write_str("unknown player (ONE, TWO)"),
            ParseBclMoveError::FieldCount(n) => write!(
                f,
                "expected `PLAYER KIND ROTATION FLIP ROW COL`, `PLAYER row,col …` or `PLAYER pass`, found {n} fields"
            ),
            ParseBclMoveError::Kind => f.write_str("unknown block kind (e.g. SQUARE)"),
            ParseBclMoveError::Rotation => {
                f.write_str("unknown rotation (NONE, SINGLE, DOUBLE, TRIPLE)")
            }
            ParseBclMoveError::Flip => f.write_str("unknown flip (NONE, HORIZONTAL, VERTICAL)"),
            ParseBclMoveError::Coordinate => f.write_str("row or column is not an integer"),
            ParseBclMoveError::Cells => {
                f.write_str("expected the fields of one block as `row,col` pairs, e.g. 0,0 0,1")
            }
        }
    }
}

impl core::error::Error for ParseBclMoveError {}

impl FromStr for BclMove {
    type Err = ParseBclMoveError;

    /// Parses the text form; fields are separated by any whitespace and
    /// names are case-sensitive.
    fn from_str(s: &str) -> Result<BclMove, ParseBclMoveError> {
        let mut fields = s.split_whitespace();
        let player = fields
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(|_| ParseBclMoveError::Player)?;
        let rest: [&str; 6] = {
            let mut rest = [""; 6];
            let mut count = 0;
            for field in fields {
                if count == rest.len() {
                    return Err(ParseBclMoveError::FieldCount(count + 2));
                }
                rest[count] = field;
                count += 1;
            }
            if count == 0 {
                return Err(ParseBclMoveError::FieldCount(1));
            }
            rest
        };
        let count = rest.iter().take_while(|f| !f.is_empty()).count();
        if count == 1 && rest[0] == "pass" {
            return Ok(BclMove::Pass(player));
        }
        if rest[0].contains(',') {
            let mut cells = [(0, 0); 6];
            for (cell, field) in cells.iter_mut().zip(&rest[..count]) {
                let (row, col) = field.split_once(',').ok_or(ParseBclMoveError::Cells)?;
                let parse = |v: &str| v.parse().map_err(|_| ParseBclMoveError::Cells);
                *cell = (parse(row)?, parse(col)?);
            }
            return PlaceTo::from_cells(player, &cells[..count])
                .map(BclMove::Place)
                .ok_or(ParseBclMoveError::Cells);
        }
        if count != 5 {
            return Err(ParseBclMoveError::FieldCount(count + 1));
        }
        Ok(BclMove::Place(PlaceTo {
            player,
            kind: rest[0].parse().map_err(|_| ParseBclMoveError::Kind)?,
            rotation: rest[1].parse().map_err(|_| ParseBclMoveError::Rotation)?,
            flip: rest[2].parse().map_err(|_| ParseBclMoveError::Flip)?,
            row: rest[3].parse().map_err(|_| ParseBclMoveError::Coordinate)?,
            col: rest[4].parse().map_err(|_| ParseBclMoveError::Coordinate)?,
        }))
    }
}

impl fmt::Display for BclMove {
    /// Writes the `place_to` form, or `PLAYER pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BclMove::Pass(player) => write!(f, "{player} pass"),
            BclMove::Place(p) => write!(
                f,
                "{} {} {} {} {} {}",
                p.player, p.kind, p.rotation, p.flip, p.row, p.col
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::bcl::{BclFlip, BclKind, BclPlayer, BclRotation};

    #[test]
    fn every_form_parses() {
        let line = "ONE SHOTGUN SINGLE NONE 3 0";
        let mv: BclMove = line.parse().expect("place_to");
        assert_eq!(
            mv,
            BclMove::Place(PlaceTo {
                player: BclPlayer::One,
                kind: BclKind::Shotgun,
                rotation: BclRotation::Single,
                flip: BclFlip::None,
                row: 3,
                col: 0,
            })
        );
        assert_eq!(mv.to_string(), line);
        // SHOTGUN turned once: `##/##/.#/.#`, bottom-left (3,0).
        let cells: BclMove = "ONE 0,0 0,1 1,0 1,1 2,1 3,1".parse().expect("cells");
        assert_eq!(cells, mv);
        assert_eq!("TWO pass".parse(), Ok(BclMove::Pass(BclPlayer::Two)));
        assert_eq!(BclMove::Pass(BclPlayer::One).to_string(), "ONE pass");
    }

    #[test]
    fn errors_name_the_bad_field() {
        let cases = [
            ("", ParseBclMoveError::Player),
            ("THREE pass", ParseBclMoveError::Player),
            ("ONE", ParseBclMoveError::FieldCount(1)),
            ("ONE DOT NONE NONE 0", ParseBclMoveError::FieldCount(5)),
            ("ONE DOT NONE NONE 0 0 0", ParseBclMoveError::FieldCount(7)),
            ("ONE PENTO_L NONE NONE 0 0", ParseBclMoveError::Kind),
            ("ONE DOT LEFT NONE 0 0", ParseBclMoveError::Rotation),
            ("ONE DOT NONE BOTH 0 0", ParseBclMoveError::Flip),
            ("ONE DOT NONE NONE 0 x", ParseBclMoveError::Coordinate),
            ("ONE 0,0 0,2", ParseBclMoveError::Cells),
            ("ONE 0;0", ParseBclMoveError::FieldCount(2)),
            ("ONE 0,0 1", ParseBclMoveError::Cells),
        ];
        for (line, error) in cases {
            assert_eq!(line.parse::<BclMove>(), Err(error), "{line:?}");
        }
    }
}
