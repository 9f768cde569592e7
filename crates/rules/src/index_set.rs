//! [`IndexSet`]: a set of the values of a small numbered universe
//! ([`Indexed`]: the seats of a room, the Blokus colours, the Blokus piece
//! kinds), held as the bits of one word. [`PlayerSet`](crate::PlayerSet),
//! [`ColorSet`](crate::blokus::ColorSet) and
//! [`PieceSet`](crate::blokus::PieceSet) are its instances.

use core::{fmt, hash, marker::PhantomData, ops};

/// A universe of at most 32 values, numbered `0..COUNT`: what an
/// [`IndexSet`] can hold.
///
/// The universe is a type of its own rather than the values' type so that
/// plain numbers (seats) can be a universe too.
pub trait Indexed {
    /// The values.
    type Item: Copy;
    /// How many values there are; at most 32.
    const COUNT: usize;

    /// The number of `item`, below [`COUNT`](Indexed::COUNT) for every
    /// value of the universe (a seat number may lie outside).
    fn index(item: Self::Item) -> usize;

    /// The value numbered `index`, which is below
    /// [`COUNT`](Indexed::COUNT).
    fn item(index: usize) -> Self::Item;
}

/// A set of the values of the universe `U`, iterated in the order of their
/// numbers. Bit `i` of [`bits`](IndexSet::bits) is set for the value
/// numbered `i`.
pub struct IndexSet<U: Indexed> {
    bits: u32,
    universe: PhantomData<U>,
}

impl<U: Indexed> IndexSet<U> {
    /// The bits of all values of the universe.
    const ALL_BITS: u32 = {
        assert!(U::COUNT <= 32, "an index set holds at most 32 values");
        if U::COUNT == 32 {
            u32::MAX
        } else {
            (1 << U::COUNT) - 1
        }
    };

    /// No value.
    pub const EMPTY: IndexSet<U> = IndexSet::from_bits(0);
    /// Every value of the universe.
    pub const ALL: IndexSet<U> = IndexSet::from_bits(IndexSet::<U>::ALL_BITS);

    /// The set with bit `i` set for the value numbered `i`; bits beyond the
    /// universe are dropped.
    #[inline]
    pub const fn from_bits(bits: u32) -> IndexSet<U> {
        IndexSet {
            bits: bits & IndexSet::<U>::ALL_BITS,
            universe: PhantomData,
        }
    }

    /// Bit `i` set for the value numbered `i` in the set.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.bits
    }

    /// The set holding only `item`.
    ///
    /// # Panics
    ///
    /// If `item` lies outside the universe (a seat of 8 or more).
    #[inline]
    pub fn single(item: U::Item) -> IndexSet<U> {
        let mut set = IndexSet::EMPTY;
        set.insert(item);
        set
    }

    /// Whether `item` is in the set (never for a value outside the
    /// universe).
    #[inline]
    pub fn contains(self, item: U::Item) -> bool {
        let index = U::index(item);
        index < U::COUNT && self.bits >> index & 1 != 0
    }

    /// Adds `item`.
    ///
    /// # Panics
    ///
    /// If `item` lies outside the universe (a seat of 8 or more).
    #[inline]
    pub fn insert(&mut self, item: U::Item) {
        let index = U::index(item);
        assert!(index < U::COUNT, "at most {} values in this set", U::COUNT);
        self.bits |= 1 << index;
    }

    /// Removes `item`, if it is in the set.
    #[inline]
    pub fn remove(&mut self, item: U::Item) {
        let index = U::index(item);
        if index < U::COUNT {
            self.bits &= !(1 << index);
        }
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The number of values in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// The values in the order of their numbers.
    pub fn iter(self) -> impl Iterator<Item = U::Item> {
        let mut bits = self.bits;
        core::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(U::item(index))
        })
    }
}

// By hand, not derived: a derive would ask the universe type (an empty
// enum for seats) for the traits, though only the bits are compared,
// copied and hashed.
impl<U: Indexed> Clone for IndexSet<U> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<U: Indexed> Copy for IndexSet<U> {}

impl<U: Indexed> Default for IndexSet<U> {
    fn default() -> Self {
        IndexSet::EMPTY
    }
}

impl<U: Indexed> PartialEq for IndexSet<U> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}

impl<U: Indexed> Eq for IndexSet<U> {}

impl<U: Indexed> hash::Hash for IndexSet<U> {
    fn hash<H: hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}

impl<U: Indexed> FromIterator<U::Item> for IndexSet<U> {
    fn from_iter<I: IntoIterator<Item = U::Item>>(iter: I) -> Self {
        let mut set = IndexSet::EMPTY;
        for item in iter {
            set.insert(item);
        }
        set
    }
}

impl<U: Indexed> ops::BitOr for IndexSet<U> {
    type Output = IndexSet<U>;

    fn bitor(self, rhs: IndexSet<U>) -> IndexSet<U> {
        IndexSet::from_bits(self.bits | rhs.bits)
    }
}

impl<U: Indexed> fmt::Debug for IndexSet<U>
where
    U::Item: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers 0..5.
    enum Five {}

    impl Indexed for Five {
        type Item = usize;
        const COUNT: usize = 5;

        fn index(item: usize) -> usize {
            item
        }

        fn item(index: usize) -> usize {
            index
        }
    }

    /// The numbers 0..32.
    enum Word {}

    impl Indexed for Word {
        type Item = usize;
        const COUNT: usize = 32;

        fn index(item: usize) -> usize {
            item
        }

        fn item(index: usize) -> usize {
            index
        }
    }

    #[test]
    fn a_set_holds_its_universe_in_order() {
        let mut set: IndexSet<Five> = [4, 1].into_iter().collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), [1, 4]);
        assert_eq!(set.len(), 2);
        assert!(set.contains(4) && !set.contains(0));
        assert!(!set.contains(5) && !set.contains(usize::MAX));
        set.remove(4);
        set.remove(99);
        assert_eq!(set, IndexSet::single(1));
        assert_eq!(format!("{set:?}"), "{1}");
        assert_eq!(
            IndexSet::<Five>::ALL.iter().collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(IndexSet::<Five>::from_bits(u32::MAX), IndexSet::ALL);
        assert!(IndexSet::<Five>::default().is_empty());
        assert_eq!(
            (IndexSet::<Five>::single(0) | IndexSet::single(3)).bits(),
            0b1001
        );
        assert_eq!(IndexSet::<Word>::ALL.len(), 32);
        assert_eq!(
            IndexSet::<Word>::single(31).iter().collect::<Vec<_>>(),
            [31]
        );
    }

    #[test]
    #[should_panic(expected = "at most 5 values")]
    fn a_value_outside_the_universe_is_refused() {
        let mut set = IndexSet::<Five>::EMPTY;
        set.insert(5);
    }
}
