//! Colours of the 20×20 Blokus variants (the Software-Challenge seasons
//! and classic Blokus), what a [`Team`] is in the four-colour seasons (its
//! colours), and small containers indexed by colour.

use core::{fmt, ops, str::FromStr};

use crate::{
    index_set::{IndexSet, Indexed},
    names::UnknownName,
    team::Team,
};

/// One of the four piece colours. The discriminant is the colour's place in
/// the fixed move order BLUE → YELLOW → RED → GREEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// Moves first; played by team ONE.
    Blue = 0,
    /// Played by team TWO.
    Yellow = 1,
    /// Played by team ONE.
    Red = 2,
    /// Played by team TWO.
    Green = 3,
}

impl Color {
    /// All colours in move order.
    pub const ALL: [Color; 4] = [Color::Blue, Color::Yellow, Color::Red, Color::Green];

    /// The colour's position in the move order (0..4).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour at `index mod 4` of the move order.
    #[inline]
    pub const fn from_index(index: usize) -> Color {
        Color::ALL[index % 4]
    }

    /// The colour that moves after this one.
    #[inline]
    pub const fn next(self) -> Color {
        Color::from_index(self.index() + 1)
    }

    /// The team that plays this colour (BLUE, RED → ONE; YELLOW, GREEN → TWO).
    #[inline]
    pub const fn team(self) -> Team {
        match self {
            Color::Blue | Color::Red => Team::One,
            Color::Yellow | Color::Green => Team::Two,
        }
    }

    /// The wire name (`BLUE`, `YELLOW`, `RED`, `GREEN`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Blue => "BLUE",
            Color::Yellow => "YELLOW",
            Color::Red => "RED",
            Color::Green => "GREEN",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = UnknownName;

    /// Parses the exact, case-sensitive wire name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Color::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or(UnknownName)
    }
}

/// What a team is in the four-colour Blokus seasons (2021, 2027): ONE
/// plays BLUE and RED, TWO plays YELLOW and GREEN.
impl Team {
    /// The team's two colours, in move order.
    #[inline]
    pub const fn colors(self) -> [Color; 2] {
        match self {
            Team::One => [Color::Blue, Color::Red],
            Team::Two => [Color::Yellow, Color::Green],
        }
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 4]);

impl<T> ByColor<T> {
    /// Builds the container by calling `f` for each colour in move order.
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor(Color::ALL.map(&mut f))
    }

    /// Iterates over `(colour, value)` in move order.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        Color::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> ops::Index<Color> for ByColor<T> {
    type Output = T;

    #[inline]
    fn index(&self, color: Color) -> &T {
        &self.0[color.index()]
    }
}

impl<T> ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        &mut self.0[color.index()]
    }
}

/// The four colours, numbered in move order: the universe of a
/// [`ColorSet`].
impl Indexed for Color {
    type Item = Color;
    const COUNT: usize = 4;

    #[inline]
    fn index(color: Color) -> usize {
        color.index()
    }

    #[inline]
    fn item(index: usize) -> Color {
        Color::from_index(index)
    }
}

/// A set of colours, iterated in move order.
pub type ColorSet = IndexSet<Color>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_alternate_between_teams_in_move_order() {
        let teams: [Team; 4] = Color::ALL.map(Color::team);
        assert_eq!(teams, [Team::One, Team::Two, Team::One, Team::Two]);
        assert_eq!(Color::Green.next(), Color::Blue);
        assert_eq!(Team::Two.colors(), [Color::Yellow, Color::Green]);
    }

    #[test]
    fn names_round_trip_and_are_case_sensitive() {
        for c in Color::ALL {
            assert_eq!(c.name().parse::<Color>(), Ok(c));
        }
        assert_eq!("blue".parse::<Color>(), Err(UnknownName));
    }

    #[test]
    fn colour_set_iterates_in_move_order() {
        let set: ColorSet = [Color::Green, Color::Blue].into_iter().collect();
        assert!(set.contains(Color::Blue) && !set.contains(Color::Red));
        assert_eq!(set.len(), 2);
        let mut order = set.iter();
        assert_eq!(order.next(), Some(Color::Blue));
        assert_eq!(order.next(), Some(Color::Green));
        assert_eq!(order.next(), None);
    }
}
