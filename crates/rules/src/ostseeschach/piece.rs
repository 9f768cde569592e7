//! Piece kinds and pieces (single pieces and towers) of Ostseeschach, with
//! their wire names, and what a [`Team`] is in Ostseeschach (its direction
//! and start line).

use core::{fmt, str::FromStr};

use crate::{names::UnknownName, team::Team};

/// What a team is in Ostseeschach: ONE ("red") starts on the line x = 0,
/// moves forward in +x and at even turns; TWO ("blue") starts on x = 7,
/// moves forward in −x and at odd turns.
impl Team {
    /// The sign of a forward step in x: +1 for ONE, −1 for TWO.
    #[inline]
    pub const fn direction(self) -> i32 {
        match self {
            Team::One => 1,
            Team::Two => -1,
        }
    }

    /// The x of the team's own start line: 0 for ONE, 7 for TWO. The
    /// opponent's start line is the line the team's light pieces race to.
    #[inline]
    pub const fn start_line(self) -> i32 {
        match self {
            Team::One => 0,
            Team::Two => 7,
        }
    }
}

/// The four kinds of pieces, in the official enum order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    /// Cockle (`H`): one step diagonally forward.
    Herzmuschel = 0,
    /// Gull (`M`): one orthogonal step in any direction.
    Moewe = 1,
    /// Starfish (`S`): one diagonal step in any direction, or one straight
    /// forward.
    Seestern = 2,
    /// Seal (`R`): a knight's jump. The only piece that is not light.
    Robbe = 3,
}

impl PieceKind {
    /// All kinds in the official enum order.
    pub const ALL: [PieceKind; 4] = [
        PieceKind::Herzmuschel,
        PieceKind::Moewe,
        PieceKind::Seestern,
        PieceKind::Robbe,
    ];

    /// The position in [`PieceKind::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the kind is a light piece (all but the Robbe): light pieces
    /// score an amber on the opponent's start line and decide the
    /// tie-break.
    #[inline]
    pub const fn is_light(self) -> bool {
        !matches!(self, PieceKind::Robbe)
    }

    /// The steps `(dx, dy)` of the kind for team ONE; TWO's are the same
    /// with `dx` negated (`ostseeschach-2022.md` §4).
    pub const fn steps(self) -> &'static [(i32, i32)] {
        match self {
            PieceKind::Herzmuschel => &[(1, 1), (1, -1)],
            PieceKind::Moewe => &[(-1, 0), (0, -1), (1, 0), (0, 1)],
            PieceKind::Seestern => &[(-1, -1), (-1, 1), (1, -1), (1, 1), (1, 0)],
            PieceKind::Robbe => &[
                (-2, -1),
                (-1, -2),
                (-2, 1),
                (-1, 2),
                (2, -1),
                (1, -2),
                (2, 1),
                (1, 2),
            ],
        }
    }

    /// Whether a piece of this kind owned by `team` may step by
    /// `(dx, dy)` (board edges aside).
    pub fn can_step(self, team: Team, dx: i32, dy: i32) -> bool {
        let dx = dx.wrapping_mul(team.direction());
        self.steps().contains(&(dx, dy))
    }

    /// The wire name (`Herzmuschel`, `Moewe`, `Seestern`, `Robbe`).
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Herzmuschel => "Herzmuschel",
            PieceKind::Moewe => "Moewe",
            PieceKind::Seestern => "Seestern",
            PieceKind::Robbe => "Robbe",
        }
    }

    /// The one-letter form of start lines and board drawings: `H`, `M`,
    /// `S`, `R`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Herzmuschel => 'H',
            PieceKind::Moewe => 'M',
            PieceKind::Seestern => 'S',
            PieceKind::Robbe => 'R',
        }
    }

    /// The kind with this upper-case letter.
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.letter() == letter)
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PieceKind {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive wire name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or(UnknownName)
    }
}

/// What stands on a field: a single piece (`count` 1) or a tower (`count`
/// 2), described by its top piece, as the wire's `<piece type team count/>`.
///
/// A tower moves exactly like its top piece and belongs to the top piece's
/// team. A tower of height 2 always holds one piece of each team (only
/// opponents can be captured); the buried piece is never looked at again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind of the top piece.
    pub kind: PieceKind,
    /// The owner: the team of the top piece.
    pub team: Team,
    /// The number of pieces in the stack: 1 or 2 in every position (a stack
    /// of 3 or more turns into an amber at once).
    pub count: u8,
}

impl Piece {
    /// A single piece.
    pub const fn new(kind: PieceKind, team: Team) -> Piece {
        Piece {
            kind,
            team,
            count: 1,
        }
    }
}

impl fmt::Display for Piece {
    /// Two characters as the official board drawing: the kind's letter
    /// (lower case for TWO) twice for a single piece, the letter and the
    /// height for a tower (`MM`, `r2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.team {
            Team::One => self.kind.letter(),
            Team::Two => self.kind.letter().to_ascii_lowercase(),
        };
        if self.count == 1 {
            write!(f, "{letter}{letter}")
        } else {
            write!(f, "{letter}{}", self.count)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_case_sensitive() {
        for kind in PieceKind::ALL {
            assert_eq!(kind.name().parse(), Ok(kind));
            assert_eq!(PieceKind::from_letter(kind.letter()), Some(kind));
        }
        assert_eq!("moewe".parse::<PieceKind>(), Err(UnknownName));
        assert_eq!(PieceKind::from_letter('h'), None);
    }

    #[test]
    fn teams_face_each_other() {
        assert_eq!(Team::One.start_line(), 0);
        assert_eq!(Team::Two.start_line(), 7);
        assert_eq!(Team::One.direction(), 1);
        assert_eq!(Team::Two.direction(), -1);
    }

    #[test]
    fn steps_turn_with_the_team() {
        assert!(PieceKind::Herzmuschel.can_step(Team::One, 1, -1));
        assert!(!PieceKind::Herzmuschel.can_step(Team::One, -1, -1));
        assert!(PieceKind::Herzmuschel.can_step(Team::Two, -1, 1));
        assert!(PieceKind::Seestern.can_step(Team::Two, -1, 0));
        assert!(!PieceKind::Seestern.can_step(Team::Two, 1, 0));
        assert!(PieceKind::Robbe.can_step(Team::Two, 2, 1));
        assert!(!PieceKind::Moewe.can_step(Team::One, 0, 0));
        assert!(!PieceKind::Robbe.is_light() && PieceKind::Moewe.is_light());
    }

    #[test]
    fn pieces_draw_like_the_official_board() {
        let piece = Piece::new(PieceKind::Moewe, Team::One);
        assert_eq!(piece.to_string(), "MM");
        let tower = Piece {
            kind: PieceKind::Robbe,
            team: Team::Two,
            count: 2,
        };
        assert_eq!(tower.to_string(), "r2");
    }
}
