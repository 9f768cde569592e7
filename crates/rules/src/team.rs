//! [`Team`]: the two sides of every two-player game (Blokus 2021 and 2027,
//! Ostseeschach, BCL), ONE moving first, with their wire names; and
//! [`ByTeam`], one value per team. What a team means in one game (its
//! Blokus colours, its Ostseeschach direction, its BCL start corner) is
//! said in that game's module.

use core::{fmt, ops, str::FromStr};

use crate::names::UnknownName;

/// One of the two sides of a two-player game. ONE sits in slot 0 and moves
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Team {
    /// Slot 0; moves first.
    One = 0,
    /// Slot 1.
    Two = 1,
}

impl Team {
    /// Both teams in slot order.
    pub const ALL: [Team; 2] = [Team::One, Team::Two];

    /// The slot index (0 or 1).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The team with slot index `index % 2`; in a game whose teams take
    /// turns, the team to move at turn `index`.
    #[inline]
    pub const fn from_index(index: usize) -> Team {
        if index.is_multiple_of(2) {
            Team::One
        } else {
            Team::Two
        }
    }

    /// The other team.
    #[inline]
    pub const fn opponent(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// The wire name (`ONE`, `TWO`).
    pub const fn name(self) -> &'static str {
        match self {
            Team::One => "ONE",
            Team::Two => "TWO",
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Team {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive wire name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Team::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or(UnknownName)
    }
}

/// One value per team, indexed by [`Team`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByTeam<T>(pub [T; 2]);

impl<T> ops::Index<Team> for ByTeam<T> {
    type Output = T;

    #[inline]
    fn index(&self, team: Team) -> &T {
        &self.0[team.index()]
    }
}

impl<T> ops::IndexMut<Team> for ByTeam<T> {
    #[inline]
    fn index_mut(&mut self, team: Team) -> &mut T {
        &mut self.0[team.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_alternate_and_their_names_round_trip() {
        assert_eq!(Team::from_index(0), Team::One);
        assert_eq!(Team::from_index(7), Team::Two);
        assert_eq!(Team::One.opponent(), Team::Two);
        for team in Team::ALL {
            assert_eq!(team.name().parse(), Ok(team));
            assert_eq!(Team::from_index(team.index()), team);
        }
        assert_eq!("one".parse::<Team>(), Err(UnknownName));
        let mut ambers = ByTeam([0, 0]);
        ambers[Team::Two] += 2;
        assert_eq!(ambers.0, [0, 2]);
    }
}
