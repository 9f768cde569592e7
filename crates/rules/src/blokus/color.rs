//! Colours and teams of the 20×20 Blokus variants (the Software-Challenge
//! seasons and classic Blokus), and small containers indexed by colour.

use core::{fmt, ops, str::FromStr};

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

/// A name that is not one of the enum's wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownName;

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown name")
    }
}

impl core::error::Error for UnknownName {}

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

/// One of the two players of a Blokus 2021 game. Team ONE sits in slot 0 and
/// always starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Team {
    /// Slot 0: BLUE and RED.
    One = 0,
    /// Slot 1: YELLOW and GREEN.
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

    /// The other team.
    #[inline]
    pub const fn opponent(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// The team's two colours, in move order.
    #[inline]
    pub const fn colors(self) -> [Color; 2] {
        match self {
            Team::One => [Color::Blue, Color::Red],
            Team::Two => [Color::Yellow, Color::Green],
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

/// A set of colours, iterated in move order.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ColorSet(u8);

impl ColorSet {
    /// No colour.
    pub const EMPTY: ColorSet = ColorSet(0);
    /// All four colours.
    pub const ALL: ColorSet = ColorSet(0b1111);

    /// The set with bit `c` set for the colour with index `c`.
    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> ColorSet {
        ColorSet(bits & ColorSet::ALL.0)
    }

    /// Bit `c` set for the colour with index `c` in the set.
    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `color` is in the set.
    #[inline]
    pub const fn contains(self, color: Color) -> bool {
        self.0 & (1 << color as u8) != 0
    }

    /// Adds `color`.
    #[inline]
    pub fn insert(&mut self, color: Color) {
        self.0 |= 1 << color as u8;
    }

    /// Removes `color`.
    #[inline]
    pub fn remove(&mut self, color: Color) {
        self.0 &= !(1 << color as u8);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of colours in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The colours in move order.
    pub fn iter(self) -> impl Iterator<Item = Color> {
        Color::ALL.into_iter().filter(move |&c| self.contains(c))
    }
}

impl FromIterator<Color> for ColorSet {
    fn from_iter<I: IntoIterator<Item = Color>>(iter: I) -> Self {
        let mut set = ColorSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl fmt::Debug for ColorSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

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
        for t in Team::ALL {
            assert_eq!(t.name().parse::<Team>(), Ok(t));
        }
        assert_eq!("blue".parse::<Color>(), Err(UnknownName));
        assert_eq!("one".parse::<Team>(), Err(UnknownName));
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
