//! [`StartLine`]: the shuffled order of ONE's pieces on its start line, the
//! one thing an Ostseeschach game leaves to chance.

use core::{fmt, str::FromStr};

use super::piece::PieceKind;

/// The kinds of ONE's pieces on its start line x = 0, from y = 0 to y = 7:
/// an arrangement of two pieces of each kind. TWO's line is its rotation by
/// 180°: ONE's piece on `(0, y)` has its twin on `(7, 7 − y)`
/// (`ostseeschach-2022.md` §5).
///
/// The text form is eight letters, `H` Herzmuschel, `M` Möwe, `S`
/// Seestern, `R` Robbe, e.g. `HMSRHMSR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StartLine([PieceKind; 8]);

/// Why eight kinds or a text are not a start line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartLineError {
    /// Not exactly 8 letters; holds the number of characters found.
    Length(usize),
    /// A character that is not `H`, `M`, `S` or `R`.
    Letter(char),
    /// A kind that does not occur exactly twice; holds the kind and its
    /// number of occurrences.
    KindCount(PieceKind, usize),
}

impl fmt::Display for StartLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartLineError::Length(n) => write!(f, "a start line has 8 letters, found {n}"),
            StartLineError::Letter(c) => write!(
                f,
                "`{c}` is no piece letter (H Herzmuschel, M Moewe, S Seestern, R Robbe)"
            ),
            StartLineError::KindCount(kind, n) => write!(
                f,
                "a start line has two pieces of each kind, found {n} of {kind}"
            ),
        }
    }
}

impl core::error::Error for StartLineError {}

impl StartLine {
    /// The unshuffled list of the official server, `HMSRHMSR`.
    pub const UNSHUFFLED: StartLine = StartLine([
        PieceKind::Herzmuschel,
        PieceKind::Moewe,
        PieceKind::Seestern,
        PieceKind::Robbe,
        PieceKind::Herzmuschel,
        PieceKind::Moewe,
        PieceKind::Seestern,
        PieceKind::Robbe,
    ]);

    /// The start line with these kinds from y = 0 to y = 7.
    ///
    /// # Errors
    ///
    /// [`StartLineError::KindCount`] unless every kind occurs exactly twice,
    /// as on every board the official server deals.
    pub fn new(kinds: [PieceKind; 8]) -> Result<StartLine, StartLineError> {
        for kind in PieceKind::ALL {
            let n = kinds.iter().filter(|&&k| k == kind).count();
            if n != 2 {
                return Err(StartLineError::KindCount(kind, n));
            }
        }
        Ok(StartLine(kinds))
    }

    /// A uniformly random arrangement (a Fisher–Yates shuffle of
    /// [`StartLine::UNSHUFFLED`], as the official server deals, with draws
    /// free of modulo bias).
    pub fn random<R: rand_core::Rng + ?Sized>(rng: &mut R) -> StartLine {
        let mut kinds = StartLine::UNSHUFFLED.0;
        for i in (1..kinds.len()).rev() {
            kinds.swap(i, below(rng, i as u32 + 1) as usize);
        }
        StartLine(kinds)
    }

    /// The kinds from y = 0 to y = 7.
    #[inline]
    pub const fn kinds(&self) -> [PieceKind; 8] {
        self.0
    }

    /// The kind of ONE's piece on `(0, y)`, `y` in `0..8`.
    #[inline]
    pub const fn kind_at(&self, y: usize) -> PieceKind {
        self.0[y]
    }
}

/// A uniform draw from `0..n`, `n > 0`, rejecting the few draws that would
/// make the low residues likelier.
fn below<R: rand_core::Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let last = u32::MAX - (u32::MAX % n + 1) % n;
    loop {
        let draw = rng.next_u32();
        if draw <= last {
            return draw % n;
        }
    }
}

impl fmt::Display for StartLine {
    /// The eight letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for kind in self.0 {
            write!(f, "{}", kind.letter())?;
        }
        Ok(())
    }
}

impl FromStr for StartLine {
    type Err = StartLineError;

    /// Parses eight upper-case letters.
    fn from_str(s: &str) -> Result<StartLine, StartLineError> {
        let count = s.chars().count();
        if count != 8 {
            return Err(StartLineError::Length(count));
        }
        let mut kinds = [PieceKind::Robbe; 8];
        for (kind, letter) in kinds.iter_mut().zip(s.chars()) {
            *kind = PieceKind::from_letter(letter).ok_or(StartLineError::Letter(letter))?;
        }
        StartLine::new(kinds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        let line: StartLine = "RSHMMHSR".parse().expect("valid");
        assert_eq!(line.kind_at(0), PieceKind::Robbe);
        assert_eq!(line.kind_at(3), PieceKind::Moewe);
        assert_eq!(line.to_string(), "RSHMMHSR");
        assert_eq!(StartLine::UNSHUFFLED.to_string(), "HMSRHMSR");
    }

    #[test]
    fn bad_lines_name_the_problem() {
        assert_eq!("HMSR".parse::<StartLine>(), Err(StartLineError::Length(4)));
        assert_eq!(
            "HMSRHMSX".parse::<StartLine>(),
            Err(StartLineError::Letter('X'))
        );
        assert_eq!(
            "hmsrhmsr".parse::<StartLine>(),
            Err(StartLineError::Letter('h'))
        );
        assert_eq!(
            "HHHMSRMS".parse::<StartLine>(),
            Err(StartLineError::KindCount(PieceKind::Herzmuschel, 3))
        );
        assert_eq!(
            "HMSRHMSRÄ".parse::<StartLine>(),
            Err(StartLineError::Length(9))
        );
    }

    #[test]
    fn random_lines_are_arrangements_and_vary() {
        let mut rng = <rand_pcg::Pcg64Mcg as rand_core::SeedableRng>::seed_from_u64(1);
        let first = StartLine::random(&mut rng);
        let mut differs = false;
        for _ in 0..50 {
            let line = StartLine::random(&mut rng);
            assert_eq!(StartLine::new(line.kinds()), Ok(line));
            differs |= line != first;
        }
        assert!(differs);
    }
}
