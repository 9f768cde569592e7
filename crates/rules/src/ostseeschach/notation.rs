//! A text form of moves, `FX,FY-TX,TY` (e.g. `0,3-1,4`), and of move files:
//! moves separated by whitespace, `#` starting a comment to the end of the
//! line. Used by `spielleiter perft --moves` and test data.

use core::{fmt, str::FromStr};

use super::moves::{Coordinates, Move};

/// Why a text is not a move in the form `FX,FY-TX,TY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseMoveError {
    /// A coordinate is missing or not a 32-bit integer.
    Coordinate,
    /// A `,` between x and y or the `-` between the fields is missing.
    Separator,
    /// Text follows the move.
    Trailing,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseMoveError::Coordinate => "a coordinate is missing or not an integer",
            ParseMoveError::Separator => "expected `FX,FY-TX,TY`: a separator is missing",
            ParseMoveError::Trailing => "text after the move",
        })
    }
}

impl core::error::Error for ParseMoveError {}

/// Reads the text form from the front of a string.
struct Reader<'a>(&'a str);

impl Reader<'_> {
    /// An integer with an optional leading `-`.
    fn integer(&mut self) -> Result<i32, ParseMoveError> {
        let sign = usize::from(self.0.starts_with('-'));
        let digits = self.0[sign..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let (number, rest) = self.0.split_at(sign + digits);
        self.0 = rest;
        if digits == 0 {
            return Err(ParseMoveError::Coordinate);
        }
        number.parse().map_err(|_| ParseMoveError::Coordinate)
    }

    fn separator(&mut self, c: char) -> Result<(), ParseMoveError> {
        self.0 = self.0.strip_prefix(c).ok_or(ParseMoveError::Separator)?;
        Ok(())
    }

    fn field(&mut self) -> Result<Coordinates, ParseMoveError> {
        let x = self.integer()?;
        self.separator(',')?;
        Ok(Coordinates::new(x, self.integer()?))
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `FX,FY-TX,TY`; surrounding whitespace is ignored, none may
    /// stand inside.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let mut reader = Reader(s.trim());
        let from = reader.field()?;
        reader.separator('-')?;
        let to = reader.field()?;
        if !reader.0.is_empty() {
            return Err(ParseMoveError::Trailing);
        }
        Ok(Move { from, to })
    }
}

impl fmt::Display for Move {
    /// Writes `FX,FY-TX,TY`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// The move texts of a move file with their 1-based line numbers: the
/// whitespace-separated words outside `#` comments, unparsed.
pub fn move_file_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().flat_map(|(index, line)| {
        let content = line.split('#').next().unwrap_or_default();
        content
            .split_whitespace()
            .map(move |word| (index + 1, word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        let mv: Move = "0,3-1,4".parse().expect("valid");
        assert_eq!(mv, Move::new(0, 3, 1, 4));
        assert_eq!(mv.to_string(), "0,3-1,4");
        let off_board = Move::new(0, 0, -1, 17);
        assert_eq!(off_board.to_string(), "0,0--1,17");
        assert_eq!(off_board.to_string().parse(), Ok(off_board));
        assert_eq!(" 7,7-6,5\n".parse(), Ok(Move::new(7, 7, 6, 5)));
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            ("", ParseMoveError::Coordinate),
            ("0,3", ParseMoveError::Separator),
            ("0,3-", ParseMoveError::Coordinate),
            ("0 3-1 4", ParseMoveError::Separator),
            ("0,3-1,4,", ParseMoveError::Trailing),
            ("0,3 - 1,4", ParseMoveError::Separator),
            ("x,3-1,4", ParseMoveError::Coordinate),
            ("0,99999999999-1,4", ParseMoveError::Coordinate),
            ("0,3-1;4", ParseMoveError::Separator),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<Move>(), Err(error), "{text:?}");
        }
    }

    #[test]
    fn move_files_skip_comments_and_keep_line_numbers() {
        let text = "# opening\n0,3-1,4 7,4-6,3\n\n  1,4-2,5 # the Möwe\n";
        let words: Vec<_> = move_file_words(text).collect();
        assert_eq!(words, [(2, "0,3-1,4"), (2, "7,4-6,3"), (4, "1,4-2,5")]);
    }
}
